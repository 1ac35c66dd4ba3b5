package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestLLMConfigCommand(t *testing.T) {
	dir := dataDir(t)
	run := func(env []string, args ...string) (string, string, int) {
		t.Helper()
		cmd := exec.Command(binary, args...)
		cmd.Env = append(os.Environ(), append([]string{"TUTORD_DATA_DIR=" + dir, "TUTORD_DATABASE_URL=", "OPENAI_API_KEY=", "ANTHROPIC_API_KEY="}, env...)...)
		var out, errOut strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		return out.String(), errOut.String(), code
	}
	if _, errOut, code := run(nil, "llm-config", "set", "tutor", "openai", "gpt-5.2"); code == 0 || !strings.Contains(errOut, "needs OPENAI_API_KEY") {
		t.Fatalf("set without a key: exit %d, %s", code, errOut)
	}
	if out, errOut, code := run([]string{"OPENAI_API_KEY=sk-test"}, "llm-config", "--effort", "low", "--temperature", "0.4", "set", "welcome", "openai", "gpt-4o"); code != 0 {
		t.Fatalf("set: exit %d, %s %s", code, out, errOut)
	}
	if out, errOut, code := run([]string{"ANTHROPIC_API_KEY=sk-ant-test"}, "llm-config", "--effort", "low", "set", "safety", "anthropic", "claude-haiku-4-5"); code != 0 {
		t.Fatalf("set: exit %d, %s %s", code, out, errOut)
	}
	out, _, _ := run(nil, "llm-config", "list")
	if !strings.Contains(out, "welcome         openai     gpt-4o            low     0.4") || !strings.Contains(out, "safety          anthropic  claude-haiku-4-5  low") || !strings.Contains(out, "tutor           rules") {
		t.Fatalf("list:\n%s", out)
	}
	if strings.Contains(out, "sk-ant-test") || strings.Contains(out, "sk-test") {
		t.Fatal("list shows an API key")
	}
	for _, bad := range [][]string{
		{"llm-config", "set", "grader", "openai", "x"},
		{"llm-config", "set", "tutor", "watson", "x"},
		{"llm-config", "set", "tutor", "openai", "gpt-9"},
		{"llm-config", "--temperature", "hot", "set", "tutor", "rules", "rules"},
		{"llm-config", "--temperature", "3", "set", "tutor", "rules", "rules"},
		{"llm-config", "--temperature", "0.4", "set", "tutor", "anthropic", "claude-haiku-4-5"}, // Anthropic takes none
		{"llm-config", "--max-output-tokens", "-5", "set", "tutor", "rules", "rules"},
		{"llm-config", "set", "tutor"},
		{"llm-config", "frobnicate"},
	} {
		if _, errOut, code := run(nil, bad...); code != 2 {
			t.Errorf("%v: exit %d (%s), want a usage error", bad, code, strings.TrimSpace(errOut))
		}
	}
	if _, _, code := run(nil, "llm-config", "reset", "safety"); code != 0 {
		t.Fatal("reset failed")
	}
	if out, _, _ := run(nil, "llm-config", "list"); !strings.Contains(out, "safety          rules") {
		t.Fatalf("after reset:\n%s", out)
	}
	// The README's form: flags after the arguments.
	if out, errOut, code := run([]string{"OPENAI_API_KEY=sk-test"}, "llm-config", "set", "tutor", "openai", "gpt-5.2", "--effort", "low"); code != 0 || !strings.Contains(out, "tutor now uses openai gpt-5.2") {
		t.Fatalf("set with the flag last: exit %d, %s %s", code, out, errOut)
	}
	if out, _, _ := run(nil, "llm-config", "list"); !strings.Contains(out, "tutor           openai    gpt-5.2  low") {
		t.Fatalf("after set with the flag last:\n%s", out)
	}
}
