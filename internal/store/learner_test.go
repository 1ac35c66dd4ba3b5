package store_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/store"
)

func TestLearnerProfileAndOnboarding(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	l, err := s.SyncLearner(ctx, store.SignIn{ExternalID: "sub-1", Email: "a@example.com", Name: "Asha", AuthProvider: "google"})
	if err != nil {
		t.Fatal(err)
	}
	if l.OnboardingComplete || *l.Name != "Asha" || l.AuthProvider != "google" || l.LastLoginAt == nil {
		t.Fatalf("new learner = %+v", l)
	}
	again, err := s.SyncLearner(ctx, store.SignIn{ExternalID: "sub-1", Email: "other@example.com", Phone: "+911234"})
	if err != nil || again.ID != l.ID || *again.Email != "a@example.com" || *again.Phone != "+911234" {
		t.Fatalf("second sign-in = %+v, %v; email kept, empty phone filled", again, err)
	}
	ensured, err := s.EnsureLearner(ctx, "sub-1")
	if err != nil || ensured.ID != l.ID {
		t.Fatalf("EnsureLearner of a known sub = %v, %v", ensured.ID, err)
	}

	// One field per request, as the onboarding wizard sends them.
	steps := []store.ProfileUpdate{{Age: ptr(12)}, {Grade: ptr(7)}, {AboutMe: ptr("likes cricket")}, {Board: ptr("CBSE")}}
	for i, u := range steps {
		l, err = s.UpdateProfile(ctx, l.ID, u)
		if err != nil {
			t.Fatal(err)
		}
		if done := i == len(steps)-1; l.OnboardingComplete != done {
			t.Fatalf("after step %d onboarding_complete = %v, want %v", i, l.OnboardingComplete, done)
		}
	}
	// Never reset, and nil fields are kept.
	l, _ = s.UpdateProfile(ctx, l.ID, store.ProfileUpdate{SchoolName: ptr("DPS")})
	if !l.OnboardingComplete || *l.Age != 12 || *l.SchoolName != "DPS" {
		t.Fatalf("after a later update: %+v", l)
	}
	if _, err := s.UpdateProfile(ctx, l.ID, store.ProfileUpdate{Grade: ptr(13)}); err == nil {
		t.Fatal("grade 13 accepted")
	}
	if _, err := s.UpdateProfile(ctx, uuid.New(), store.ProfileUpdate{Age: ptr(9)}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown learner: err = %v, want ErrNotFound", err)
	}
}

func TestDeleteLearnerRemovesEverything(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	l, _ := s.EnsureLearner(ctx, "sub-del")
	id := createSession(t, s, fixture{learner: l.ID})
	withEveryRow(t, s, id, l.ID.String())
	// A call outside any session, and one of the session recorded without
	// the learner's id.
	for _, u := range []llm.UsageRecord{{LearnerID: l.ID.String()}, {SessionID: id.String()}} {
		u.Component, u.Provider, u.Model = llm.ComponentTutor, llm.ProviderOpenAI, "gpt-5.2"
		if err := s.RecordUsage(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	other := newLearner(t, s)
	keep := createSession(t, s, fixture{learner: other})
	withEveryRow(t, s, keep, other.String())
	deleted, err := s.DeleteLearner(ctx, "sub-del")
	if err != nil {
		t.Fatal(err)
	}
	if len(deleted) != 1 || deleted[0] != id {
		t.Errorf("deleted sessions %v, want [%v]", deleted, id)
	}
	for table, n := range rowsOf(t, s, id) {
		if n != 0 {
			t.Errorf("%s: %d rows of the deleted learner's session remain", table, n)
		}
	}
	var n int
	if err := s.Pool().QueryRow(ctx, `SELECT (SELECT count(*) FROM llm_usage WHERE learner_id = $1) + (SELECT count(*) FROM learners WHERE id = $1)`, l.ID).Scan(&n); err != nil || n != 0 {
		t.Errorf("%d usage or learner rows of the deleted learner remain (%v)", n, err)
	}
	for table, n := range rowsOf(t, s, keep) {
		if n == 0 {
			t.Errorf("%s: another learner's rows were deleted", table)
		}
	}
	if _, err := s.DeleteLearner(ctx, "sub-del"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("deleting twice: err = %v, want ErrNotFound", err)
	}
}

// TestExportLearner: the export holds every row of the learner's, from
// every table that holds a learner's or a session's data, and nothing of
// anyone else's.
func TestExportLearner(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	l, err := s.SyncLearner(ctx, store.SignIn{ExternalID: "sub-export", Name: "Asha"})
	if err != nil {
		t.Fatal(err)
	}
	a := createSession(t, s, fixture{learner: l.ID, created: time.Now().Add(-time.Hour)})
	b := createSession(t, s, fixture{learner: l.ID})
	withEveryRow(t, s, a, l.ID.String())
	if _, err := s.CommitTurn(ctx, store.Turn{SessionID: b, Version: 1, State: []byte(`{"turn":1}`), ClientTurnID: "c-1",
		Messages: []store.NewMessage{{Role: "student", Content: "hi"}}, Response: []byte(`{"ok":true}`)}); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordUsage(ctx, llm.UsageRecord{LearnerID: l.ID.String(), Component: llm.ComponentWelcome, Provider: llm.ProviderAnthropic,
		Model: "claude-haiku-4-5", Attempts: 2, Latency: 1500 * time.Millisecond, Usage: llm.Usage{InputTokens: 10, OutputTokens: 5, CachedInputTokens: 2, Estimated: true},
		CostUSD: 0.25, Priced: true, ErrorKind: llm.KindTimeout, PromptHash: "h-1", Time: time.Now().Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordUsage(ctx, llm.UsageRecord{SessionID: b.String(), Component: llm.ComponentSafety, Provider: llm.ProviderOpenAI, Model: "m"}); err != nil {
		t.Fatal(err)
	}
	other := newLearner(t, s)
	withEveryRow(t, s, createSession(t, s, fixture{learner: other}), other.String())
	withEveryRow(t, s, createSession(t, s, fixture{}), "")

	ex, err := s.ExportLearner(ctx, l.ID)
	if err != nil {
		t.Fatal(err)
	}
	if ex.Learner.ID != l.ID || *ex.Learner.Name != "Asha" || len(ex.Sessions) != 2 || ex.Sessions[0].ID != a || ex.Sessions[1].ID != b {
		t.Fatalf("learner %v, sessions %d", ex.Learner.ID, len(ex.Sessions))
	}
	// Every table with a learner's or a session's rows is in the export: a
	// new one must be exported (and deleted with the learner).
	rows, err := s.Pool().Query(ctx, `
SELECT DISTINCT c.table_name::text FROM information_schema.columns c
JOIN information_schema.tables t USING (table_schema, table_name)
WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
    AND c.column_name IN ('learner_id', 'session_id') ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{"sessions": len(ex.Sessions), "llm_usage": len(ex.Usage)}
	for _, m := range ex.Messages {
		got["session_messages"] += len(m)
	}
	for _, ts := range ex.Turns {
		got["session_turns"] += len(ts)
	}
	for _, ls := range ex.Logs {
		got["agent_logs"] += len(ls)
	}
	const ofSessions = ` IN (SELECT id FROM sessions WHERE learner_id = $1)`
	stored := map[string]string{
		"sessions":         `SELECT count(*) FROM sessions WHERE learner_id = $1`,
		"session_messages": `SELECT count(*) FROM session_messages WHERE session_id` + ofSessions,
		"session_turns":    `SELECT count(*) FROM session_turns WHERE session_id` + ofSessions,
		"agent_logs":       `SELECT count(*) FROM agent_log_entries WHERE session_id` + ofSessions, // with the turns' entries
		"llm_usage":        `SELECT count(*) FROM llm_usage WHERE learner_id = $1 OR session_id` + ofSessions,
	}
	for _, table := range tables {
		q, ok := stored[table]
		if !ok {
			t.Errorf("table %s holds learners' or sessions' rows, and the export does not read it", table)
			continue
		}
		var want int
		if err := s.Pool().QueryRow(ctx, q, l.ID).Scan(&want); err != nil {
			t.Fatalf("%s: %v", table, err)
		}
		if got[table] != want || want == 0 {
			t.Errorf("%s: %d rows exported, %d stored", table, got[table], want)
		}
	}
	if msgs := ex.Messages[b]; len(msgs) != 2 || msgs[1].Content != "hi" {
		t.Errorf("messages of b: %+v", msgs)
	}
	if ts := ex.Turns[b]; len(ts) != 1 || ts[0].ClientTurnID != "c-1" || string(ts[0].Response) != `{"ok":true}` {
		t.Errorf("turns of b: %+v", ts)
	}
	if ls := ex.Logs[a]; len(ls) != 2 || ls[1].Agent != "master_tutor" || string(ls[1].Output) != `{"intent": "answer"}` || *ls[1].LatencyMS != 3 {
		t.Errorf("logs of a: %+v", ls)
	}
	u := ex.Usage[len(ex.Usage)-1]
	want := llm.UsageRecord{LearnerID: l.ID.String(), Component: llm.ComponentWelcome, Provider: llm.ProviderAnthropic,
		Model: "claude-haiku-4-5", Attempts: 2, Latency: 1500 * time.Millisecond, Usage: llm.Usage{InputTokens: 10, OutputTokens: 5, CachedInputTokens: 2, Estimated: true},
		CostUSD: 0.25, Priced: true, ErrorKind: llm.KindTimeout, PromptHash: "h-1"}
	u.Time = time.Time{}
	if diff := cmp.Diff(want, u); diff != "" {
		t.Errorf("the latest usage record (-want +got):\n%s", diff)
	}
	if _, err := s.ExportLearner(ctx, uuid.New()); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown learner: err = %v, want ErrNotFound", err)
	}
}

func TestEnsureLearnerConcurrently(t *testing.T) {
	s := setup(t)
	var wg sync.WaitGroup
	ids := make([]uuid.UUID, 16)
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l, err := s.EnsureLearner(context.Background(), "racing-sub")
			if err != nil {
				t.Error(err)
				return
			}
			ids[i] = l.ID
		}()
	}
	wg.Wait()
	for _, id := range ids {
		if id != ids[0] {
			t.Fatalf("concurrent first uses made different learners: %v", ids)
		}
	}
}

// A call with a token (GET /profile) may reach the server before the
// client's first /auth/sync, and creates a bare learner. That sync still
// records the identity's name and provider, as it would for a new learner.
func TestSyncAfterAnEarlierCallKeepsTheIdentity(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	if _, err := s.EnsureLearner(ctx, "sub-google-1"); err != nil { // an API call before /auth/sync
		t.Fatal(err)
	}
	l, err := s.SyncLearner(ctx, store.SignIn{ExternalID: "sub-google-1", Email: "asha@example.com", Name: "Asha", AuthProvider: "google"})
	if err != nil {
		t.Fatal(err)
	}
	if l.Name == nil || *l.Name != "Asha" || l.AuthProvider != "google" {
		name := "<nil>"
		if l.Name != nil {
			name = *l.Name
		}
		t.Fatalf("after the first sign-in: name %s, auth_provider %q; want Asha, google", name, l.AuthProvider)
	}
}

// TestDeletedLearnerIsNotMadeAgain: a learner deleted is not made again by
// a caller who signed in before the deletion (a token still valid), on
// first use or at sign-in; a sign-in after it makes a new learner, which
// then serves tokens of either time. An unknown sign-in time is not
// checked.
func TestDeletedLearnerIsNotMadeAgain(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	old, err := s.SyncLearner(ctx, store.SignIn{ExternalID: "sub-erased", Email: "e@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	signedIn := time.Now().Add(-time.Minute)
	if _, err := s.DeleteLearner(ctx, "sub-erased"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SignedInLearner(ctx, "sub-erased", signedIn); !errors.Is(err, store.ErrLearnerGone) {
		t.Errorf("first use by a token signed in before the deletion: %v; want ErrLearnerGone", err)
	}
	if _, err := s.SyncLearner(ctx, store.SignIn{ExternalID: "sub-erased", Email: "e@example.com", SignedInAt: signedIn}); !errors.Is(err, store.ErrLearnerGone) {
		t.Errorf("sign-in with a token signed in before the deletion: %v; want ErrLearnerGone", err)
	}
	if _, err := s.LearnerByExternalID(ctx, "sub-erased"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the deleted learner was made again: %v", err)
	}
	if _, err := s.SignedInLearner(ctx, "sub-other", signedIn); err != nil {
		t.Errorf("another learner's first use: %v", err)
	}

	later := time.Now().Add(time.Second)
	fresh, err := s.SyncLearner(ctx, store.SignIn{ExternalID: "sub-erased", SignedInAt: later})
	if err != nil || fresh.ID == old.ID || fresh.Email != nil {
		t.Fatalf("a sign-in after the deletion: %+v, %v; want a new, empty learner", fresh, err)
	}
	for _, at := range []time.Time{signedIn, later, {}} {
		if l, err := s.SignedInLearner(ctx, "sub-erased", at); err != nil || l.ID != fresh.ID {
			t.Errorf("the new learner for a sign-in at %v: %v, %v", at, l.ID, err)
		}
	}
	if _, err := s.DeleteLearner(ctx, "sub-erased"); err != nil {
		t.Fatal(err)
	}
	if l, err := s.EnsureLearner(ctx, "sub-erased"); err != nil || l.ID == fresh.ID {
		t.Errorf("EnsureLearner, with no sign-in time: %v, %v; want a new learner", l.ID, err)
	}
}

// TestDeleteLearnerReportsASessionCreatedMeanwhile: a session created for
// the learner while the deletion runs (a tab that started one as the
// learner deleted the account) is deleted with the learner, and reported
// with the others, so that open connections to it are closed and other
// replicas told. Before, the foreign key's cascade removed it, but the
// deletion reported only the sessions it had seen when it started.
func TestDeleteLearnerReportsASessionCreatedMeanwhile(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	l, _ := s.EnsureLearner(ctx, "sub-racing")
	old := createSession(t, s, fixture{learner: l.ID})
	created, release := make(chan uuid.UUID), make(chan struct{})
	txDone := make(chan error, 1)
	go func() {
		txDone <- s.InTx(ctx, func(tx *store.Store) error {
			created <- createSession(t, tx, fixture{learner: l.ID})
			<-release // the session's transaction is open, the learner row key-share locked
			return nil
		})
	}()
	racing := <-created
	type result struct {
		ids []uuid.UUID
		err error
	}
	deleted := make(chan result, 1)
	go func() {
		ids, err := s.DeleteLearner(ctx, "sub-racing")
		deleted <- result{ids, err}
	}()
	// The deletion waits for the session's transaction.
	for i := 0; ; i++ {
		var waiting bool
		if err := s.Pool().QueryRow(ctx, `SELECT EXISTS (SELECT FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%learners%')`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting {
			break
		}
		if i == 500 {
			t.Fatal("the deletion never waited for the session's transaction")
		}
		time.Sleep(10 * time.Millisecond)
	}
	close(release)
	if err := <-txDone; err != nil {
		t.Fatal(err)
	}
	r := <-deleted
	if r.err != nil {
		t.Fatal(r.err)
	}
	slices.SortFunc(r.ids, func(a, b uuid.UUID) int { return strings.Compare(a.String(), b.String()) })
	want := []uuid.UUID{old, racing}
	slices.SortFunc(want, func(a, b uuid.UUID) int { return strings.Compare(a.String(), b.String()) })
	if !slices.Equal(r.ids, want) {
		t.Errorf("deleted sessions reported %v, want both %v", r.ids, want)
	}
	for table, n := range rowsOf(t, s, racing) {
		if n != 0 {
			t.Errorf("%s: %d rows of the session created meanwhile remain", table, n)
		}
	}
}
