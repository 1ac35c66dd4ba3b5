package orchestrator_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tutord/tutord/internal/orchestrator"
	"github.com/tutord/tutord/internal/pgtest"
	"github.com/tutord/tutord/internal/store"
	"github.com/tutord/tutord/internal/tutor"
)

// BenchmarkProcessTurn runs whole turns (pre-checks, safety, evaluation,
// the rules engine, guardrails, sanitization, state update and the atomic
// commit) on a real database with 1, 8 and 32 sessions in parallel, each
// with a learner who answers the pending question (wrong, then right),
// beside pgbench with bench/pgbench-turn.sql and as many clients on the same
// server; the two take turns in pgtest.BenchRounds rounds. Metrics: turns/s,
// p50_ms, p99_ms, pgbench_tps, ratio = the median over the rounds of
// turns/s ÷ pgbench_tps (ratio_min and ratio_max: the lowest and highest
// round's), and cpu_us/turn = the CPU time the benchmark's process (the
// orchestrator and its learners, not the database) spent per turn.
// turns/session is the turns per session created (CreateSession):
// each learner starts a session, and another when it finishes the lesson.
func BenchmarkProcessTurn(b *testing.B) {
	f := setup(b)
	for _, n := range []int{1, 8, 32} {
		b.Run(fmt.Sprintf("sessions=%d", n), func(b *testing.B) {
			ctx := context.Background()
			var next, created atomic.Int64
			var mu sync.Mutex
			var lat []time.Duration
			sessions := make([]orchestrator.Session, n)
			wrong := make([]bool, n)
			play := func(upTo int) error {
				var wg sync.WaitGroup
				errc := make(chan error, n)
				for k := range n {
					wg.Add(1)
					go func() {
						defer wg.Done()
						var mine []time.Duration
						defer func() {
							mu.Lock()
							lat = append(lat, mine...)
							mu.Unlock()
						}()
						se := &sessions[k]
						for i := int(next.Add(1)); i <= upTo; i = int(next.Add(1)) {
							if se.Row.ID == uuid.Nil || se.State.IsComplete(se.Topic) {
								c, err := f.o.CreateSession(ctx, orchestrator.CreateRequest{GuidelineID: f.guidelines[doubling], Mode: tutor.ModeTeachMe,
									Student: tutor.StudentContext{Grade: 6, Board: "CBSE", LanguageLevel: "standard"}})
								if err != nil {
									errc <- err
									return
								}
								*se = c.Session
								created.Add(1)
							}
							msg := "ok"
							if q := se.State.LastQuestion; q != nil {
								msg = q.Expected(se.Topic).Answer
								if wrong[k] {
									msg = "3"
								}
								wrong[k] = !wrong[k]
							}
							t0 := time.Now()
							r, err := f.o.ProcessTurn(ctx, se.Row.ID, msg, "")
							if err != nil {
								errc <- err
								return
							}
							mine = append(mine, time.Since(t0))
							*se = r.Session
						}
					}()
				}
				wg.Wait()
				next.Store(int64(upTo))
				close(errc)
				return <-errc
			}
			b.ResetTimer()
			r := pgtest.Rounds(b, func(_, upTo int) error { return play(upTo) },
				func(d time.Duration) float64 { return runPgbench(b, f, n, d) })
			slices.Sort(lat)
			b.ReportMetric(r.Rate, "turns/s")
			b.ReportMetric(ms(percentile(lat, 0.50)), "p50_ms")
			b.ReportMetric(ms(percentile(lat, 0.99)), "p99_ms")
			b.ReportMetric(r.PgbenchTPS, "pgbench_tps")
			b.ReportMetric(r.Ratio, "ratio")
			b.ReportMetric(r.RatioMin, "ratio_min")
			b.ReportMetric(r.RatioMax, "ratio_max")
			b.ReportMetric(float64(r.CPUPerOp)/float64(time.Microsecond), "cpu_us/turn")
			b.ReportMetric(float64(next.Load())/float64(created.Load()), "turns/session")
		})
	}
}

func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[min(len(sorted)-1, int(float64(len(sorted))*p))]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func runPgbench(b *testing.B, f *fixture, clients int, d time.Duration) float64 {
	b.Helper()
	for k := range clients {
		id := uuid.MustParse(pgtest.PgbenchSessionID(k))
		if _, err := f.st.GetSession(context.Background(), id); err == nil {
			continue
		}
		err := f.st.CreateSession(context.Background(), store.NewSession{ID: id, Mode: "teach_me",
			State: json.RawMessage(`{"schema_version":1}`), Summary: store.Summary{CurrentStep: 1, TotalSteps: 4}})
		if err != nil {
			b.Fatal(err)
		}
	}
	return pgtest.Pgbench(b, f.connString, clients, d)
}
