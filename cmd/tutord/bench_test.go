package main

import (
	"strings"
	"testing"
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
