package main

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Without pgbench, `tutord bench` fails before it starts anything; it used
// to start a server and run a load phase first.
func TestBenchWithoutPgbenchFailsFirst(t *testing.T) {
	out, code := runBinary(t, []string{"PATH=" + t.TempDir()}, "bench", "--duration", "1s", "--rounds", "1", "--learners", "1", "--idle", "0")
	if code != 1 || !strings.Contains(lastLine(out), "pgbench not found") {
		t.Fatalf("bench without pgbench: exit %d, last line %q; want the pgbench error", code, lastLine(out))
	}
	if strings.Contains(out, "saturation") {
		t.Fatalf("bench ran a load phase before finding pgbench missing:\n%s", out)
	}
}

// Ctrl-C (or a CI job's timeout sending SIGTERM) during `tutord bench`
// stops the throwaway server it started, its PostgreSQL included, before
// bench removes the data directory and exits: nothing it started is left
// running.
func TestInterruptedBenchStopsItsPostgres(t *testing.T) {
	cmd := exec.Command(binary, "bench", "--duration", "60s", "--rounds", "1", "--learners", "1", "--latency-learners", "1", "--idle", "0")
	cmd.Env = append(os.Environ(), "TUTORD_LOG_FORMAT=json")
	loading, done, errOut := startWatched(t, cmd, func(line string) bool { return strings.HasPrefix(line, "saturation round") })
	t.Cleanup(func() {
		select {
		case <-done:
		default:
			_ = cmd.Process.Kill()
			<-done
		}
	})
	select {
	case <-loading:
	case <-done:
		t.Fatalf("bench exited before its load phase:\n%s", errOut.String())
	case <-time.After(2 * time.Minute):
		t.Fatal("bench did not reach its load phase")
	}
	// The postmaster of the serve child, whose data directory bench made.
	postmaster := childWith(childWith(cmd.Process.Pid, "serve"), "tutord-bench-")
	if postmaster == 0 {
		t.Fatal("found no postgres server under bench's serve child")
	}
	t.Cleanup(func() {
		if running(postmaster) {
			_ = syscall.Kill(postmaster, syscall.SIGQUIT)
		}
	})

	_ = cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-done:
	case <-time.After(90 * time.Second):
		t.Fatal("bench still running 90s after SIGINT")
	}
	// A server stopping may take a moment to be gone.
	for deadline := time.Now().Add(5 * time.Second); running(postmaster) && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
	}
	if running(postmaster) {
		t.Fatalf("bench exited (exit %d, %q) after SIGINT, but the PostgreSQL server of its throwaway tutord (pid %d) still runs",
			cmd.ProcessState.ExitCode(), lastLine(errOut.String()), postmaster)
	}
}

// bench measures its own throwaway server whatever tutord settings the
// caller's environment holds: a production one's would refuse its
// anonymous learners, leave its database unmigrated, or give it no
// curriculum.
func TestBenchIgnoresTheCallersServerSettings(t *testing.T) {
	production := []string{"TUTORD_ALLOW_ANONYMOUS=false", "TUTORD_MIGRATE=false", "TUTORD_LOAD_SAMPLE=false",
		"TUTORD_CURRICULUM_DIR=" + t.TempDir(), "TUTORD_JWT_SECRET=" + tokenSecret}
	out, code := runBinary(t, production, "bench", "--duration", "1s", "--rounds", "1", "--learners", "1", "--latency-learners", "1", "--idle", "0", "--json")
	if code != 0 {
		t.Fatalf("tutord bench with %v: exit %d, %q; want the throwaway server measured regardless", production, code, lastLine(out))
	}
}
