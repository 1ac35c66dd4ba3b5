package pgtest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"
)

var tpsLine = regexp.MustCompile(`tps = ([0-9.]+)`)

// Pgbench runs bench/pgbench-turn.sql (the reference turn every
// throughput target is measured against) with pgbench -M prepared on the
// database at connString, with the given number of clients for duration d,
// and returns its transactions per second. Client k works on the session
// whose id ends in k+1; the caller creates those sessions.
func Pgbench(tb testing.TB, connString string, clients int, d time.Duration) float64 {
	tb.Helper()
	pgbench, err := exec.LookPath("pgbench")
	if err != nil {
		tb.Fatalf("pgbench not found on PATH: install the PostgreSQL client tools (apt-get install postgresql-client) to compare with it")
	}
	secs := max(1, int(d.Round(time.Second)/time.Second))
	cmd := exec.Command(pgbench, "-n", "-M", "prepared", "-T", strconv.Itoa(secs),
		"-c", strconv.Itoa(clients), "-j", strconv.Itoa(min(clients, 2)),
		"-f", filepath.Join(RepoRoot(tb), "bench", "pgbench-turn.sql"), connString)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		tb.Fatalf("pgbench: %v\n%s", err, out.String())
	}
	m := tpsLine.FindStringSubmatch(out.String())
	if m == nil {
		tb.Fatalf("pgbench printed no tps:\n%s", out.String())
	}
	tps, _ := strconv.ParseFloat(m[1], 64)
	return tps
}

// PgbenchSessionID is the id of the session pgbench client k (0-based) works on.
func PgbenchSessionID(k int) string { return fmt.Sprintf("00000000-0000-0000-0000-%012d", k+1) }

// RepoRoot returns the directory holding go.mod, above the working directory.
func RepoRoot(tb testing.TB) string {
	tb.Helper()
	dir, _ := os.Getwd()
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("go.mod not found above the working directory")
		}
		dir = parent
	}
}
