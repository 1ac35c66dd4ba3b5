package main

import (
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// check-answer takes its flags before or after the reply, as the other
// commands do; "--" ends them, for a reply that starts with "-".
func TestCheckAnswerFlagsAfterTheReply(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"I think it's 0.75", "--expected", "3/4"}, `{"verdict":"correct","extracted":"0.75","kind":"fraction"}`},
		{[]string{"--expected", "3/4", "I think it's 0.75", "--kind", "fraction"}, `{"verdict":"correct","extracted":"0.75","kind":"fraction"}`},
		{[]string{"--expected", "-1", "--", "-1"}, `"verdict":"correct"`},
	} {
		out, _, err := runCLI(t, nil, "", append([]string{"check-answer"}, tc.args...)...)
		if err != nil || !strings.Contains(out, tc.want) {
			t.Errorf("check-answer %q: %v, output %q; want %s", tc.args, err, out, tc.want)
		}
	}
}

// check-answer --help prints its usage and flags on standard output (so
// that it can be paged), and a mistake is one error, which main prints:
// nothing else on standard error.
func TestCheckAnswerHelpAndErrors(t *testing.T) {
	out, errOut, err := runCLI(t, nil, "", "check-answer", "--help")
	if err != errHelp || !strings.HasPrefix(out, "Usage: tutord check-answer [flags] --expected A") || !strings.Contains(out, "-tolerance float") || errOut != "" {
		t.Errorf("check-answer --help: %v, stdout %q, stderr %q; want the usage and flags on stdout only", err, out, errOut)
	}
	if strings.Contains(out, "-database-url") {
		t.Errorf("check-answer --help lists the database flags, which it does not take:\n%s", out)
	}
	for _, args := range [][]string{{"--expected", "3/4", "--bogus", "0.75"}, {"--expected", "3/4", "--tolerance", "x", "0.75"}} {
		_, errOut, err := runCLI(t, nil, "", append([]string{"check-answer"}, args...)...)
		if exitCode(err) != 2 || !strings.Contains(err.Error(), "run tutord check-answer --help") || errOut != "" {
			t.Errorf("check-answer %q: %v (exit %d), stderr %q; want one usage error and nothing on stderr", args, err, exitCode(err), errOut)
		}
	}
}

// A tolerance must be finite: with an infinite one every number is correct
// (7 against 3), and NaN compares false with everything.
func TestCheckAnswerRefusesNonFiniteTolerance(t *testing.T) {
	for _, tol := range []string{"Inf", "+Inf", "-Inf", "NaN", "-1"} {
		out, _, err := runCLI(t, nil, "", "check-answer", "--expected", "3", "--tolerance", tol, "7")
		if exitCode(err) != 2 || !strings.Contains(err.Error(), "--tolerance") {
			t.Errorf("check-answer --tolerance %s: %v (exit %d), output %q; want a usage error", tol, err, exitCode(err), out)
		}
	}
	if out, _, err := runCLI(t, nil, "", "check-answer", "--expected", "3", "--tolerance", "0.5", "3.4"); err != nil || !strings.Contains(out, `"verdict":"correct"`) {
		t.Errorf("check-answer --tolerance 0.5 3.4 against 3: %v, %q; want correct", err, out)
	}
}

// Ctrl-C (or SIGTERM) stops check-answer while it waits for the reply on
// standard input (a terminal, or a pipe whose writer stalls).
func TestCheckAnswerInterruptedWhileReadingStdin(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		cmd := exec.Command(binary, "check-answer", "--expected", "3", "-")
		stdin, err := cmd.StdinPipe() // left open: the reply never ends
		if err != nil {
			t.Fatal(err)
		}
		errOut := interrupt(t, cmd, func() { time.Sleep(300 * time.Millisecond) }, sig) // to be reading, signals caught
		stdin.Close()
		if code := cmd.ProcessState.ExitCode(); code != 1 || !strings.Contains(errOut, "interrupted while reading the reply") {
			t.Errorf("after %v: exit %d, stderr %q; want exit 1 saying it was interrupted", sig, code, errOut)
		}
	}
}
