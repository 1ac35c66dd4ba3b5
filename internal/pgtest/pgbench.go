package pgtest

import (
	"context"
	"slices"
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

// BenchRounds is how many rounds Rounds splits a benchmark into.
const BenchRounds = 3

// RoundsResult is what Rounds measured.
type RoundsResult struct {
	Rate       float64 // operations per second over all rounds
	PgbenchTPS float64 // pgbench's mean rate over the rounds
	Ratio      float64 // the median over the rounds of the rate ÷ pgbench's rate
	// RatioMin and RatioMax are the lowest and the highest round's ratio:
	// how far the machine's speed moved the rounds apart.
	RatioMin, RatioMax float64
	// CPUPerOp is the CPU time this process (not the database) spent per
	// operation while the operations ran.
	CPUPerOp time.Duration
}

// Rounds times b.N operations in BenchRounds rounds, each followed by
// pgbench for as long (at least 3 s), so that the two take turns on the
// machine. run(round, upTo) performs the operations numbered up to upTo
// (1-based, counting the earlier rounds'); pgbench(d) runs pgbench for d
// and returns its rate.
func Rounds(b *testing.B, run func(round, upTo int) error, pgbench func(time.Duration) float64) RoundsResult {
	b.Helper()
	var cpu time.Duration
	rounds := make([]round, 0, BenchRounds)
	done := 0
	b.StopTimer()
	for r := range BenchRounds {
		upTo := b.N * (r + 1) / BenchRounds
		b.StartTimer()
		start, cpuStart := time.Now(), processCPU()
		if err := run(r, upTo); err != nil {
			b.Fatal(err)
		}
		elapsed := time.Since(start)
		cpu += processCPU() - cpuStart
		b.StopTimer()
		tps := pgbench(max(elapsed, 3*time.Second))
		rounds = append(rounds, round{ops: upTo - done, elapsed: elapsed, tps: tps})
		done = upTo
	}
	res := summarize(rounds)
	if b.N > 0 {
		res.CPUPerOp = cpu / time.Duration(b.N)
	}
	return res
}

// round is one round of Rounds: ops operations in elapsed, then pgbench at
// tps.
type round struct {
	ops     int
	elapsed time.Duration
	tps     float64
}

// summarize returns the rates and ratios of rounds (all but CPUPerOp). A
// round without operations or without a pgbench rate has no ratio.
func summarize(rounds []round) RoundsResult {
	var res RoundsResult
	var ops int
	var total time.Duration
	var ratios []float64
	for _, r := range rounds {
		ops += r.ops
		total += r.elapsed
		res.PgbenchTPS += r.tps
		if r.ops > 0 && r.elapsed > 0 && r.tps > 0 {
			ratios = append(ratios, float64(r.ops)/r.elapsed.Seconds()/r.tps)
		}
	}
	if len(rounds) > 0 {
		res.PgbenchTPS /= float64(len(rounds))
	}
	if total > 0 {
		res.Rate = float64(ops) / total.Seconds()
	}
	if len(ratios) > 0 {
		slices.Sort(ratios)
		res.Ratio = ratios[len(ratios)/2]
		res.RatioMin, res.RatioMax = ratios[0], ratios[len(ratios)-1]
	}
	return res
}
