package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// runCLI runs tutord in-process and returns its standard output, its
// standard error and its error, as an operator's shell sees them apart.
func runCLI(t *testing.T, environ map[string]string, stdin string, args ...string) (string, string, error) {
	t.Helper()
	if environ == nil {
		environ = map[string]string{}
	}
	var out, errOut bytes.Buffer
	err := run(context.Background(), args, environ, strings.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), err
}

// A bad value of a common flag is a usage error (exit 2) that names the
// flag the operator typed, not the variable it overrides, which they may
// never have set.
func TestBadCommonFlagValueNamesTheFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"migrate", "--log-level", "loud", "version"}, `--log-level: "loud" is not one of debug, info, warn, error`},
		{[]string{"token", "--sub", "x", "--log-format", "xml"}, `--log-format: "xml" is not one of auto, json, text`},
		{[]string{"serve", "--addr", "80"}, `--addr: "80" is not host:port`},
		{[]string{"migrate", "version", "--database-url", "postgres://u:hunter2@[::1"}, "--database-url is malformed"},
	} {
		_, _, err := runCLI(t, map[string]string{"TUTORD_JWT_SECRET": tokenSecret}, "", tc.args...)
		if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "TUTORD_") || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("tutord %s: %v (exit %d); want a usage error (exit 2) with %q, naming no variable and no password",
				strings.Join(tc.args, " "), err, exitCode(err), tc.want)
		}
	}
	// A bad variable is still reported as the variable.
	_, _, err := runCLI(t, map[string]string{"TUTORD_LOG_LEVEL": "loud"}, "", "migrate", "version")
	if err == nil || !strings.Contains(err.Error(), "TUTORD_LOG_LEVEL") {
		t.Errorf("TUTORD_LOG_LEVEL=loud tutord migrate version: %v; want the variable named", err)
	}
}

// The command comes first ("tutord [command] [flags] [arguments]"): flags
// before it are not taken for serve's, which would then call the command
// an argument of serve.
func TestFlagsBeforeTheCommandSaySo(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--database-url=postgres://u:hunter2@127.0.0.1:1/x", "migrate", "up"}, "flags go after the command: tutord migrate [flags]"},
		{[]string{"--log-level", "debug", "version"}, "flags go after the command: tutord version"},
	} {
		_, _, err := runCLI(t, nil, "", tc.args...)
		if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("tutord %q: %v (exit %d); want a usage error with %q (and no password)", tc.args, err, exitCode(err), tc.want)
		}
	}
	// Flags alone, or with arguments that are no command, are serve's.
	if _, _, err := runCLI(t, nil, "", "--addr", "127.0.0.1:0", "extra"); err == nil || !strings.Contains(err.Error(), "serve takes no arguments") {
		t.Errorf("tutord --addr 127.0.0.1:0 extra: %v; want serve's error", err)
	}
}

// version answers --help like every other command: its usage on standard
// output, and exit 0.
func TestVersionHelp(t *testing.T) {
	for _, h := range []string{"--help", "-h"} {
		out, _, err := runCLI(t, nil, "", "version", h)
		if err != errHelp || !strings.HasPrefix(out, "Usage: tutord version\n") {
			t.Errorf("tutord version %s: %v (exit %d), output %q; want its usage and exit 0", h, err, exitCode(err), out)
		}
	}
}

// A duration flag's error says what a duration looks like: "1d" and "10"
// are natural guesses, and the flag package's own error is only "parse
// error".
func TestDurationFlagErrorSaysWhatADurationIs(t *testing.T) {
	environ := map[string]string{"TUTORD_JWT_SECRET": tokenSecret}
	for _, ttl := range []string{"1d", "10"} {
		_, _, err := runCLI(t, environ, "", "token", "--sub", "x", "--ttl", ttl)
		if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), "-ttl: not a duration such as 24h or 90m") {
			t.Errorf("token --ttl %s: %v (exit %d); want a usage error saying a duration such as 24h is expected", ttl, err, exitCode(err))
		}
	}
	out, _, err := runCLI(t, environ, "", "token", "--help")
	if err != errHelp || !strings.Contains(out, "-ttl duration") || !strings.Contains(out, "(default 24h0m0s)") {
		t.Errorf("token --help: %v; want --ttl shown as a duration with its default:\n%s", err, out)
	}
	// bench too, whose flags go anywhere as well and whose help goes to
	// standard output.
	if _, _, err := runCLI(t, nil, "", "bench", "--json", "--duration", "1d"); err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), "-duration: not a duration") {
		t.Errorf("bench --duration 1d: %v (exit %d); want a usage error saying what a duration is", err, exitCode(err))
	}
	out, _, err = runCLI(t, nil, "", "bench", "--help")
	if err != errHelp || !strings.Contains(out, "-duration duration") || !strings.Contains(out, "(default 10s)") {
		t.Errorf("bench --help: %v; want its flags on standard output:\n%s", err, out)
	}
}

// Flags go anywhere on the line, the action's arguments included, so the
// usage errors do not tell the operator to put them before the action.
func TestUsageErrorsDoNotMisstateFlagOrder(t *testing.T) {
	for _, args := range [][]string{{"llm-config"}, {"llm-config", "frobnicate"}, {"curriculum", "export"}} {
		_, _, err := runCLI(t, nil, "", args...)
		if exitCode(err) != 2 || strings.Contains(err.Error(), "before the action") {
			t.Errorf("tutord %q: %v (exit %d); want a usage error that does not say flags go before the action", args, err, exitCode(err))
		}
	}
}
