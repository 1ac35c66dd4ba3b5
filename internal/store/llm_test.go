package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/store"
)

func TestLLMConfigRoundTrip(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	if rows, err := s.ListLLMConfig(ctx); err != nil || len(rows) != 0 {
		t.Fatalf("fresh table: %v, %v", rows, err)
	}
	temp := 0.3
	c := llm.Config{Component: llm.ComponentTutor, Provider: llm.ProviderAnthropic, Model: "claude-haiku-4-5", Description: "fast", Effort: llm.Effort("low"), Temperature: &temp, MaxOutputTokens: 800}
	if _, err := s.SetLLMConfig(ctx, c, "admin@example.com", time.Time{}); err != nil {
		t.Fatal(err)
	}
	c.Model = "claude-sonnet-4-5"
	if _, err := s.SetLLMConfig(ctx, c, "admin@example.com", time.Time{}); err != nil {
		t.Fatal(err)
	}
	rows, err := s.ListLLMConfig(ctx)
	if err != nil || len(rows) != 1 {
		t.Fatalf("rows = %+v, %v", rows, err)
	}
	got := rows[0]
	if got.Config.Model != "claude-sonnet-4-5" || *got.Config.Temperature != 0.3 || got.Config.MaxOutputTokens != 800 || got.UpdatedBy != "admin@example.com" || got.Config.Effort != "low" {
		t.Fatalf("row = %+v", got)
	}
	bad := c
	bad.Component = "grader"
	if _, err := s.SetLLMConfig(ctx, bad, "", time.Time{}); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("unknown component: err = %v, want ErrInvalid (the table's check)", err)
	}
	if err := s.DeleteLLMConfig(ctx, llm.ComponentTutor); err != nil {
		t.Fatal(err)
	}
	if rows, _ := s.ListLLMConfig(ctx); len(rows) != 0 {
		t.Fatalf("after delete: %+v", rows)
	}
	// The engine's cache of the table rereads it when the count moves: two
	// sets and a delete, not the refused set.
	if v := s.LLMConfigVersion(); v != 3 {
		t.Errorf("LLMConfigVersion = %d after 3 changes", v)
	}
}

func TestUsageAndSpend(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	learner := newLearner(t, s)
	day := time.Date(2026, 6, 1, 10, 0, 0, 0, time.UTC)
	for i, cost := range []float64{0.01, 0.02, 0.5} {
		err := s.RecordUsage(ctx, llm.UsageRecord{Time: day.Add(time.Duration(i-1) * 12 * time.Hour), LearnerID: learner.String(),
			SessionID: uuid.NewString(), Component: llm.ComponentTutor, Provider: llm.ProviderOpenAI, Model: "gpt-5.2",
			Attempts: 1, Latency: time.Second, Usage: llm.Usage{InputTokens: 100, OutputTokens: 20}, CostUSD: cost, Priced: true})
		if err != nil {
			t.Fatal(err)
		}
	}
	spend, err := s.LearnerSpendSince(ctx, learner.String(), day.Truncate(24*time.Hour))
	if err != nil || spend < 0.519 || spend > 0.521 {
		t.Fatalf("spend since midnight = %v, %v; want 0.52", spend, err)
	}
	if err := s.RecordUsage(ctx, llm.UsageRecord{LearnerID: "not-a-uuid"}); err == nil {
		t.Fatal("a malformed learner id was accepted")
	}
	// Anonymous sessions' calls count together, apart from learners'.
	for i, cost := range []float64{0.04, 0.3, 0.25} {
		err := s.RecordUsage(ctx, llm.UsageRecord{Time: day.Add(time.Duration(i-1) * 12 * time.Hour),
			SessionID: uuid.NewString(), Component: llm.ComponentTutor, Provider: llm.ProviderOpenAI, Model: "gpt-5.2",
			Attempts: 1, CostUSD: cost, Priced: true})
		if err != nil {
			t.Fatal(err)
		}
	}
	anonymous, err := s.AnonymousSpendSince(ctx, day.Truncate(24*time.Hour))
	if err != nil || anonymous < 0.549 || anonymous > 0.551 {
		t.Fatalf("anonymous spend since midnight = %v, %v; want 0.55", anonymous, err)
	}
	if spend, err := s.LearnerSpendSince(ctx, learner.String(), day.Truncate(24*time.Hour)); err != nil || spend < 0.519 || spend > 0.521 {
		t.Fatalf("the learner's spend with anonymous calls beside it = %v, %v; want 0.52", spend, err)
	}
}

// rowsOf counts the rows of every table that holds a session's data.
func rowsOf(t *testing.T, s *store.Store, id uuid.UUID) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, table := range []string{"sessions", "session_messages", "session_turns", "agent_log_entries", "llm_usage"} {
		col := "session_id"
		if table == "sessions" {
			col = "id"
		}
		var n int
		if err := s.Pool().QueryRow(context.Background(), `SELECT count(*) FROM `+table+` WHERE `+col+` = $1`, id).Scan(&n); err != nil {
			t.Fatal(err)
		}
		out[table] = n
	}
	return out
}

// withEveryRow gives a session a turn (messages, a turn record, agent logs)
// and a usage record, and checks they are all there.
func withEveryRow(t *testing.T, s *store.Store, id uuid.UUID, learner string) {
	t.Helper()
	if _, err := s.CommitTurn(context.Background(), turn(id, 1, 1)); err != nil {
		t.Fatal(err)
	}
	err := s.RecordUsage(context.Background(), llm.UsageRecord{Time: time.Now(), LearnerID: learner, SessionID: id.String(),
		Component: llm.ComponentTutor, Provider: llm.ProviderOpenAI, Model: "gpt-5.2", Attempts: 1, Latency: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	for table, n := range rowsOf(t, s, id) {
		if n == 0 {
			t.Fatalf("the fixture wrote no %s row", table)
		}
	}
}

func TestPurgeAnonymous(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	old := createSession(t, s, fixture{created: time.Now().AddDate(0, 0, -40)})
	fresh := createSession(t, s, fixture{})
	learner := newLearner(t, s)
	owned := createSession(t, s, fixture{learner: learner, created: time.Now().AddDate(0, 0, -40)})
	// The turns are committed now: age the old sessions again afterwards.
	withEveryRow(t, s, old, "")
	withEveryRow(t, s, fresh, "")
	withEveryRow(t, s, owned, learner.String())
	if _, err := s.Pool().Exec(ctx, `UPDATE sessions SET updated_at = now() - interval '40 days' WHERE id = ANY($1)`, []uuid.UUID{old, owned}); err != nil {
		t.Fatal(err)
	}

	n, err := s.PurgeAnonymous(ctx, time.Now().AddDate(0, 0, -30))
	if err != nil || n != 1 {
		t.Fatalf("purged %d, %v; want 1", n, err)
	}
	for table, n := range rowsOf(t, s, old) {
		if n != 0 {
			t.Errorf("%s: %d rows of the purged session remain", table, n)
		}
	}
	// A recent anonymous session and an old learner's session are kept whole.
	for _, id := range []uuid.UUID{fresh, owned} {
		for table, n := range rowsOf(t, s, id) {
			if n == 0 {
				t.Errorf("%s: the rows of kept session %s were deleted", table, id)
			}
		}
	}
}
