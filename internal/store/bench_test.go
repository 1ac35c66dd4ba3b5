package store_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tutord/tutord/internal/pgtest"
	"github.com/tutord/tutord/internal/store"
)

// benchState is a 4 KB state document.
// benchPad fills the benchmark's state to 4 KB; made once, so that the
// benchmark times the store rather than its own fixtures.
var benchPad = strings.Repeat("x", 3990)

func benchState(turn int) json.RawMessage {
	return json.RawMessage(`{"schema_version":1,"turn_count":` + strconv.Itoa(turn) + `,"pad":"` + benchPad + `"}`)
}

func benchTurn(id uuid.UUID, version int64, n int) store.Turn {
	return store.Turn{
		SessionID: id, Version: version, State: benchState(n),
		Summary: store.Summary{TurnCount: n, CurrentStep: 2, TotalSteps: 4, Mastery: 0.5, Coverage: 25},
		Messages: []store.NewMessage{
			{Role: "student", Content: "I think it is 3/4"},
			{Role: "teacher", Content: "Nice work: you added the numerators and kept the denominator. What is 2/5 + 1/5?"},
		},
		Response: json.RawMessage(`{"message":"Nice work"}`),
	}
}

// BenchmarkCommitTurn measures a full turn's database work (load, CAS
// update of a 4 KB state, two messages, the turn record) with 1, 8 and 32
// sessions committing concurrently, beside bench/pgbench-turn.sql run with
// pgbench on the same server with as many clients. The two take turns in
// pgtest.BenchRounds rounds, so that a machine whose speed drifts (a shared
// VM) slows both alike. Metrics: turns/s (the store), pgbench_tps, ratio =
// the median over the rounds of turns/s ÷ pgbench_tps (ratio_min and
// ratio_max: the lowest and highest round's), and cpu_us/turn = the CPU time
// the benchmark's process (not the database) spent per turn.
func BenchmarkCommitTurn(b *testing.B) {
	connString := pgtest.ConnString(b)
	pool := openPool(b, connString, 40)
	s := store.New(pool)
	for _, clients := range []int{1, 8, 32} {
		b.Run(fmt.Sprintf("sessions=%d", clients), func(b *testing.B) {
			ctx := context.Background()
			ids := make([]uuid.UUID, clients)
			for i := range ids {
				ids[i] = createBenchSession(b, s, uuid.New())
			}
			var next atomic.Int64
			commit := func(upTo int) error {
				var wg sync.WaitGroup
				errc := make(chan error, clients)
				for _, id := range ids {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for n := int(next.Add(1)); n <= upTo; n = int(next.Add(1)) {
							se, err := s.GetSession(ctx, id)
							if err == nil {
								_, err = s.CommitTurn(ctx, benchTurn(id, se.Version, n))
							}
							if err != nil {
								errc <- err
								return
							}
						}
					}()
				}
				wg.Wait()
				next.Store(int64(upTo))
				close(errc)
				return <-errc
			}
			b.ResetTimer()
			r := pgtest.Rounds(b, func(round, n int) error { return commit(n) },
				func(d time.Duration) float64 { return runPgbench(b, s, connString, clients, d) })
			b.ReportMetric(r.Rate, "turns/s")
			b.ReportMetric(r.PgbenchTPS, "pgbench_tps")
			b.ReportMetric(r.Ratio, "ratio")
			b.ReportMetric(r.RatioMin, "ratio_min")
			b.ReportMetric(r.RatioMax, "ratio_max")
			b.ReportMetric(float64(r.CPUPerOp)/float64(time.Microsecond), "cpu_us/turn")
		})
	}
}

// BenchmarkTurnWAL commits turns 1..500 of one session and reports the WAL
// bytes each turn writes and the state size, averaged over the first and
// the last 50 turns: with the conversation in its own table, neither grows
// with the turn number.
func BenchmarkTurnWAL(b *testing.B) {
	ctx := context.Background()
	s := store.New(openPool(b, pgtest.ConnString(b), 4))
	for i := 0; i < b.N; i++ {
		id := createBenchSession(b, s, uuid.New())
		var walFirst, walLast, stateFirst, stateLast float64
		version := int64(1)
		for n := 1; n <= 500; n++ {
			before := walLSN(b, s)
			tr := benchTurn(id, version, n)
			v, err := s.CommitTurn(ctx, tr)
			if err != nil {
				b.Fatal(err)
			}
			version = v
			wal := float64(walLSN(b, s) - before)
			switch {
			case n <= 50:
				walFirst += wal / 50
				stateFirst += float64(len(tr.State)) / 50
			case n > 450:
				walLast += wal / 50
				stateLast += float64(len(tr.State)) / 50
			}
		}
		b.ReportMetric(walFirst, "wal_B/turn_1-50")
		b.ReportMetric(walLast, "wal_B/turn_451-500")
		b.ReportMetric(stateFirst, "state_B_1-50")
		b.ReportMetric(stateLast, "state_B_451-500")
	}
}

func walLSN(b *testing.B, s *store.Store) int64 {
	var lsn int64
	if err := s.Pool().QueryRow(context.Background(), `SELECT pg_current_wal_lsn() - '0/0'::pg_lsn`).Scan(&lsn); err != nil {
		b.Fatal(err)
	}
	return lsn
}

func createBenchSession(b *testing.B, s *store.Store, id uuid.UUID) uuid.UUID {
	err := s.CreateSession(context.Background(), store.NewSession{
		ID: id, Mode: "teach_me", State: benchState(0),
		Summary: store.Summary{CurrentStep: 1, TotalSteps: 4},
	})
	if err != nil {
		b.Fatal(err)
	}
	return id
}

// runPgbench creates the sessions pgbench works on and runs it.
func runPgbench(b *testing.B, s *store.Store, connString string, clients int, d time.Duration) float64 {
	b.Helper()
	for k := range clients {
		id := uuid.MustParse(pgtest.PgbenchSessionID(k))
		if _, err := s.GetSession(context.Background(), id); err != nil {
			createBenchSession(b, s, id)
		}
	}
	return pgtest.Pgbench(b, connString, clients, d)
}
