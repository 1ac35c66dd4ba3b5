package store_test

// Migrations on a database that holds learner data.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tutord/tutord/internal/pgtest"
	"github.com/tutord/tutord/internal/store"
)

// schemaOf describes the schema: columns, constraints, indexes, views and
// column compression, one line each, sorted.
func schemaOf(t *testing.T, pool *pgxpool.Pool) string {
	t.Helper()
	rows, _ := pool.Query(context.Background(), `
SELECT 'col ' || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || ' ' || a.attnotnull
    || ' ' || coalesce(pg_get_expr(d.adbin, d.adrelid), '') || ' ' || coalesce(a.attcompression::text, '')
FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'v') AND a.attnum > 0 AND NOT a.attisdropped
UNION ALL
SELECT 'con ' || c.relname || ' ' || pg_get_constraintdef(k.oid)
FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = current_schema()
UNION ALL
SELECT 'idx ' || indexdef FROM pg_indexes WHERE schemaname = current_schema()
UNION ALL
SELECT 'view ' || viewname || ' ' || definition FROM pg_views WHERE schemaname = current_schema()
UNION ALL
SELECT 'opt ' || c.relname || ' ' || coalesce(array_to_string(c.reloptions, ','), '')
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r'
ORDER BY 1`)
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(lines, "\n")
}

// seedLearnerData stores a learner with a session (creation logs, a message), a
// committed turn with its trace, a usage row and a tombstone.
func seedLearnerData(t *testing.T, s *store.Store) (learner, session uuid.UUID) {
	t.Helper()
	ctx := context.Background()
	l, err := s.EnsureLearner(ctx, "migrated-learner")
	if err != nil {
		t.Fatal(err)
	}
	lat := 12
	session = uuid.New()
	err = s.CreateSession(ctx, store.NewSession{
		ID: session, LearnerID: &l.ID, Mode: "teach_me", State: json.RawMessage(`{"turn":0}`),
		Summary:  store.Summary{CurrentStep: 1, TotalSteps: 4},
		Messages: []store.NewMessage{{Role: "teacher", Content: "Welcome!"}},
		Logs:     []store.AgentLog{{TurnID: "create", Agent: "welcome", Event: "agent_call", LatencyMS: &lat, InputSummary: "hello"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Pool().Exec(ctx, `INSERT INTO session_turns (session_id, version, client_turn_id, response, message_sha256, logs)
		VALUES ($1, 2, 'k1', '{"ok":true}', '\x01', '[{"turn_id":"t1","agent":"tutor","event":"agent_call","input_summary":"my answer","created_at":"2024-01-01T00:00:00Z"},{"turn_id":"t1","agent":"safety","event":"agent_call","created_at":"2024-01-01T00:00:01Z"}]')`, session)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Pool().Exec(ctx, `INSERT INTO llm_usage (learner_id, session_id, component, provider, model, attempts, latency_ms,
		input_tokens, output_tokens, cached_tokens, cost_usd, priced, created_at) VALUES ($1, $2, 'tutor', 'openai', 'm', 1, 1, 1, 1, 0, 0.01, true, now())`, l.ID, session)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.DeleteLearner(ctx, "gone-learner"); err == nil {
		t.Fatal("deleting an unknown learner succeeded")
	}
	return l.ID, session
}

// TestMigrateDownAndUpOnData: an operator rolls back n migrations
// (`tutord migrate down n`) on a database with learners and sessions, then
// migrates up again, for every n. Each round trip succeeds and leaves the
// schema as it was (each down undoes its up). Rolling back past 0002 used
// to leave sessions naming learners it dropped, and the up after it failed
// adding sessions_learner_fk, leaving the schema dirty.
func TestMigrateDownAndUpOnData(t *testing.T) {
	latest := int(store.LatestVersion())
	for n := 1; n < latest; n++ {
		t.Run(fmt.Sprintf("down%d", n), func(t *testing.T) {
			conn := pgtest.ConnString(t)
			pool, err := pgxpool.New(context.Background(), conn)
			if err != nil {
				t.Fatal(err)
			}
			defer pool.Close()
			s := store.New(pool)
			_, session := seedLearnerData(t, s)
			before := schemaOf(t, pool)
			var logsBefore []string
			rows, _ := pool.Query(context.Background(), `SELECT agent || ':' || coalesce(input_summary, '') FROM agent_log_entries WHERE session_id = $1 ORDER BY turn_version, seq`, session)
			if logsBefore, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
				t.Fatal(err)
			}

			m, err := store.NewMigrator(conn)
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			if err := m.Down(n); err != nil {
				t.Fatalf("migrate down %d: %v", n, err)
			}
			if err := m.Up(); err != nil {
				v, dirty, _ := m.Version()
				t.Fatalf("migrate up after down %d, with data: %v (schema now at %d, dirty %v)", n, err, v, dirty)
			}
			if after := schemaOf(t, pool); after != before {
				t.Errorf("schema after down %d and up differs:\n%s", n, lineDiff(before, after))
			}
			rows, _ = pool.Query(context.Background(), `SELECT agent || ':' || coalesce(input_summary, '') FROM agent_log_entries WHERE session_id = $1 ORDER BY turn_version, seq`, session)
			logsAfter, err := pgx.CollectRows(rows, pgx.RowTo[string])
			if err != nil {
				t.Fatal(err)
			}
			if n < latest-1 && fmt.Sprint(logsAfter) != fmt.Sprint(logsBefore) {
				t.Errorf("agent logs after down %d and up: %v, before %v", n, logsAfter, logsBefore)
			}
		})
	}
}

func lineDiff(a, b string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	ma, mb := in(a), in(b)
	var out []string
	for l := range ma {
		if !mb[l] {
			out = append(out, "- "+l)
		}
	}
	for l := range mb {
		if !ma[l] {
			out = append(out, "+ "+l)
		}
	}
	return strings.Join(out, "\n")
}
