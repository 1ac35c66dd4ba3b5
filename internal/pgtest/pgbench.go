package pgtest

import (
	"context"
	"testing"
	"time"

	"github.com/tutord/tutord/bench"
)

// Pgbench runs the reference turn (bench/pgbench-turn.sql) with pgbench
// on the database at connString; see bench.Pgbench. It fails the test or
// benchmark when pgbench cannot run.
func Pgbench(tb testing.TB, connString string, clients int, d time.Duration) float64 {
	tb.Helper()
	tps, err := bench.Pgbench(context.Background(), connString, clients, d)
	if err != nil {
		tb.Fatal(err)
	}
	return tps
}

// PgbenchSessionID is the id of the session pgbench client k (0-based) works on.
func PgbenchSessionID(k int) string { return bench.SessionID(k) }
