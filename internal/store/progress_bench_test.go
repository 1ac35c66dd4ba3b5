package store_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tutord/tutord/internal/store"
)

// seedProgress fills a database with one learner who has 2,000 sessions
// over 40 subtopics, of ten turns each, and 1,000 other learners with 100
// sessions each.
func seedProgress(b *testing.B, s *store.Store) uuid.UUID {
	b.Helper()
	ctx := context.Background()
	var gs []store.GuidelineImport
	for i := range 40 {
		g := guidelineImport(fmt.Sprintf("subtopic-%02d", i), fmt.Sprintf("Subtopic %02d", i), "x", fmt.Sprintf("h%d", i))
		g.TopicKey, g.TopicTitle = fmt.Sprintf("topic-%d", i/5), fmt.Sprintf("Topic %d", i/5)
		g.Key = "mathematics/" + g.TopicKey + "/" + g.SubtopicKey
		gs = append(gs, g)
	}
	if _, err := s.ImportGuidelines(ctx, gs, time.Time{}); err != nil {
		b.Fatal(err)
	}
	learner, err := s.EnsureLearner(ctx, "the-learner")
	if err != nil {
		b.Fatal(err)
	}
	// Sessions are made in SQL: 102,000 rows through the Go store would
	// take minutes and measure nothing.
	const seed = `
WITH g AS (SELECT array_agg(id ORDER BY key) AS ids FROM guidelines),
others AS (
    INSERT INTO learners (id, external_id)
    SELECT gen_random_uuid(), 'other-' || n FROM generate_series(1, 1000) n
    RETURNING id
),
owners AS (
    SELECT $1::uuid AS learner_id, n FROM generate_series(1, 2000) n
    UNION ALL
    SELECT o.id, n FROM others o, generate_series(1, 100) n
)
INSERT INTO sessions (id, learner_id, mode, guideline_id, subject, topic_name, state_json, current_step, total_steps,
    mastery, coverage, exam_score, exam_total, exam_correct, exam_questions, concepts_covered, concepts_discussed,
    mastery_by_concept, is_paused, created_at, updated_at)
SELECT gen_random_uuid(), w.learner_id, m.mode, g.ids[1 + (w.n % 40)], 'Mathematics', 'Topic - Subtopic', '{}',
    1 + w.n % 5, 6, (w.n % 10) / 10.0, 50,
    CASE WHEN m.mode = 'exam' THEN w.n % 8 END, CASE WHEN m.mode = 'exam' THEN 7 END,
    CASE WHEN m.mode = 'exam' THEN w.n % 8 END, CASE WHEN m.mode = 'exam' THEN 7 END,
    CASE WHEN m.mode = 'teach_me' THEN ARRAY['A', 'B'] ELSE '{}' END,
    CASE WHEN m.mode = 'clarify_doubts' THEN ARRAY['A'] ELSE '{}' END,
    CASE WHEN m.mode = 'teach_me' THEN '{"A": 0.5, "B": 0.2, "C": 0, "D": 0}'::jsonb ELSE '{}' END,
    false, now() - (w.n || ' hours')::interval, now() - (w.n || ' hours')::interval
FROM owners w, g,
LATERAL (SELECT (ARRAY['teach_me', 'teach_me', 'exam', 'clarify_doubts'])[1 + w.n % 4] AS mode) m`
	if _, err := s.Pool().Exec(ctx, seed, learner.ID); err != nil {
		b.Fatal(err)
	}
	// The learner's turn records: ten turns a session, a minute apart.
	if _, err := s.Pool().Exec(ctx, `
INSERT INTO session_turns (session_id, version, response, created_at)
SELECT id, v, 'null', created_at + (v || ' minutes')::interval
FROM sessions, generate_series(2, 11) v WHERE learner_id = $1`, learner.ID); err != nil {
		b.Fatal(err)
	}
	// VACUUM too, as autovacuum would have done by the time a real learner
	// has 2,000 sessions; left to autovacuum, it runs during the timings.
	if _, err := s.Pool().Exec(ctx, `VACUUM ANALYZE`); err != nil {
		b.Fatal(err)
	}
	// And a checkpoint, so that writing out the seed does not overlap the
	// timings (a server the tests do not own may refuse it: then it runs
	// when it runs).
	if _, err := s.Pool().Exec(ctx, `CHECKPOINT`); err != nil {
		b.Logf("checkpoint: %v", err)
	}
	return learner.ID
}

// BenchmarkProgress measures the learner-facing progress queries for a
// learner with 2,000 sessions among 102,000: report card, subtopic progress,
// the first and a deep page of history. Metrics: p50_ms and p99_ms over the
// iterations. With -v it logs each query's plan (EXPLAIN ANALYZE).
func BenchmarkProgress(b *testing.B) {
	s := setup(b)
	learner := seedProgress(b, s)
	ctx := context.Background()
	cases := []struct {
		name string
		run  func() error
	}{
		{"report-card", func() error { _, _, err := s.ReportCard(ctx, learner); return err }},
		{"subtopic-progress", func() error { _, err := s.SubtopicProgressMap(ctx, learner); return err }},
		{"history-page-1", func() error {
			_, _, err := s.ListSessions(ctx, learner, store.ListOptions{Page: 1, PageSize: 20})
			return err
		}},
		{"history-page-100", func() error {
			_, _, err := s.ListSessions(ctx, learner, store.ListOptions{Page: 100, PageSize: 20})
			return err
		}},
		{"stats", func() error { _, err := s.Stats(ctx, learner, "Asia/Kolkata", time.Now()); return err }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			lat := make([]time.Duration, 0, b.N)
			for range b.N {
				t0 := time.Now()
				if err := c.run(); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(t0))
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2])/1e6, "p50_ms")
			b.ReportMetric(float64(lat[min(len(lat)-1, len(lat)*99/100)])/1e6, "p99_ms")
		})
	}
	if testing.Verbose() {
		for name, q := range store.ProgressQueries() {
			rows, err := s.Pool().Query(ctx, "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) "+q, store.ProgressQueryArgs(name, learner)...)
			if err != nil {
				b.Fatal(err)
			}
			var plan []string
			for rows.Next() {
				var line string
				rows.Scan(&line)
				plan = append(plan, line)
			}
			rows.Close()
			b.Logf("%s:\n%s", name, strings.Join(plan, "\n"))
		}
	}
}
