// Package bench holds the reference turn that tutord's throughput is
// measured against (pgbench-turn.sql) and runs it with pgbench.
package bench

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"time"
)

// PgbenchTurn is the pgbench script of one tutoring turn's database work.
//
//go:embed pgbench-turn.sql
var PgbenchTurn []byte

// SessionID is the id of the session pgbench client k (0-based) works on;
// the caller creates those sessions before running Pgbench.
func SessionID(k int) string { return fmt.Sprintf("00000000-0000-0000-0000-%012d", k+1) }

var tpsLine = regexp.MustCompile(`tps = ([0-9.]+)`)

// FindPgbench returns the path of pgbench, or an error that says how to
// install it.
func FindPgbench() (string, error) {
	path, err := exec.LookPath("pgbench")
	if err != nil {
		return "", fmt.Errorf("pgbench not found on PATH: install the PostgreSQL client tools (apt-get install postgresql-client)")
	}
	return path, nil
}

// Pgbench runs PgbenchTurn with pgbench -M prepared against connString
// with the given number of clients for d, and returns its transactions per
// second.
func Pgbench(ctx context.Context, connString string, clients int, d time.Duration) (float64, error) {
	path, err := FindPgbench()
	if err != nil {
		return 0, err
	}
	f, err := os.CreateTemp("", "pgbench-turn-*.sql")
	if err != nil {
		return 0, err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(PgbenchTurn); err != nil {
		f.Close()
		return 0, err
	}
	f.Close()
	secs := max(1, int(d.Round(time.Second)/time.Second))
	cmd := exec.CommandContext(ctx, path, "-n", "-M", "prepared", "-T", strconv.Itoa(secs),
		"-c", strconv.Itoa(clients), "-j", strconv.Itoa(min(clients, 2)), "-f", f.Name(), connString)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("pgbench: %v: %s", err, out.String())
	}
	m := tpsLine.FindStringSubmatch(out.String())
	if m == nil {
		return 0, fmt.Errorf("pgbench printed no tps: %s", out.String())
	}
	return strconv.ParseFloat(m[1], 64)
}
