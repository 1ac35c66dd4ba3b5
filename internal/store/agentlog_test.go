package store_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tutord/tutord/internal/pgtest"
	"github.com/tutord/tutord/internal/store"
)

// loggedSession creates a session whose creation writes one entry.
func loggedSession(t *testing.T, s *store.Store) uuid.UUID {
	t.Helper()
	id := uuid.New()
	err := s.CreateSession(context.Background(), store.NewSession{ID: id, Mode: "teach_me", State: json.RawMessage(`{}`),
		Logs: []store.AgentLog{{TurnID: "turn_0", Agent: "welcome", Event: "completed"}}})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// withLoggedTurns creates a session whose creation writes one entry and
// commits turns 1..n, each with the two entries of turn().
func withLoggedTurns(t *testing.T, s *store.Store, n int) uuid.UUID {
	t.Helper()
	ctx := context.Background()
	id := loggedSession(t, s)
	for i := 1; i <= n; i++ {
		if _, err := s.CommitTurn(ctx, turn(id, int64(i), i)); err != nil {
			t.Fatal(err)
		}
	}
	return id
}

// entries names log entries as turn/agent.
// logFilterCase is a filter of a session's agent logs and the entries
// (see entries) it must list.
type logFilterCase struct {
	filter store.LogFilter
	want   []string
}

// checkLogFilters lists the agent logs of session id with each case's
// filter.
func checkLogFilters(t *testing.T, s *store.Store, id uuid.UUID, cases []logFilterCase) {
	t.Helper()
	for _, c := range cases {
		logs, err := s.ListAgentLogs(context.Background(), id, c.filter)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(c.want, entries(logs)); diff != "" {
			t.Errorf("%+v (-want +got):\n%s", c.filter, diff)
		}
	}
}

func entries(logs []store.AgentLog) []string {
	var out []string
	for _, l := range logs {
		out = append(out, l.TurnID+"/"+l.Agent)
	}
	return out
}

func TestAgentLogsInOrder(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	id := withLoggedTurns(t, s, 3)
	withLoggedTurns(t, s, 1) // another session's entries are not listed

	all := []string{"turn_0/welcome",
		"turn_1/orchestrator", "turn_1/master_tutor",
		"turn_2/orchestrator", "turn_2/master_tutor",
		"turn_3/orchestrator", "turn_3/master_tutor"}
	checkLogFilters(t, s, id, []logFilterCase{
		{store.LogFilter{}, all},
		{store.LogFilter{Limit: 3}, all[4:]},
		{store.LogFilter{TurnID: "turn_2"}, all[3:5]},
		{store.LogFilter{Agent: "master_tutor", Limit: 1}, []string{all[2], all[4], all[6]}},
		{store.LogFilter{TurnID: "turn_9"}, nil},
	})
	logs, _ := s.ListAgentLogs(ctx, id, store.LogFilter{TurnID: "turn_1", Agent: "master_tutor"})
	if len(logs) != 1 || logs[0].Provider != "rules" || *logs[0].LatencyMS != 3 || string(logs[0].Output) != `{"intent": "answer"}` ||
		logs[0].CreatedAt.IsZero() {
		t.Errorf("entry read back: %+v", logs)
	}
}

// TestAgentLogsWindow: a listing reads the session's newest
// AgentLogWindow entries, as the reference's ring holds them, filtered or
// not: a long session's listing is bounded, whichever turns or agents it
// asks for. Turns without entries (a pause, a resume) do not narrow the
// window, and neither storage nor the count of entries stored shrinks.
func TestAgentLogsWindow(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	id := loggedSession(t, s)
	version := int64(1)
	commit := func(tr store.Turn) {
		t.Helper()
		tr.Version = version
		var err error
		if version, err = s.CommitTurn(ctx, tr); err != nil {
			t.Fatal(err)
		}
	}
	const turns = 150 // 2 entries each: 301 with the creation's
	for i := 1; i <= turns; i++ {
		commit(turn(id, 0, i))
		for range 2 { // twice as many turns without entries
			commit(store.Turn{SessionID: id, State: json.RawMessage(`{}`), Response: json.RawMessage(`{}`)})
		}
	}
	var stored int
	if err := s.Pool().QueryRow(ctx, `SELECT count(*) FROM agent_log_entries WHERE session_id = $1`, id).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if stored != 1+2*turns {
		t.Errorf("%d entries stored, want every one of %d", stored, 1+2*turns)
	}

	first := turns - store.AgentLogWindow/2 + 1 // the oldest turn in the window
	var window, tutor []string
	for i := first; i <= turns; i++ {
		window = append(window, fmt.Sprintf("turn_%d/orchestrator", i), fmt.Sprintf("turn_%d/master_tutor", i))
		tutor = append(tutor, fmt.Sprintf("turn_%d/master_tutor", i))
	}
	checkLogFilters(t, s, id, []logFilterCase{
		{store.LogFilter{Limit: 1000}, window},
		{store.LogFilter{Limit: 4}, window[len(window)-4:]},
		{store.LogFilter{Agent: "master_tutor"}, tutor},
		{store.LogFilter{TurnID: fmt.Sprintf("turn_%d", first)}, window[:2]},
		{store.LogFilter{TurnID: fmt.Sprintf("turn_%d", first-1)}, nil}, // dropped from the window
		{store.LogFilter{TurnID: "turn_0"}, nil},
	})
}

// TestAgentLogsWindowOverAgentLogsRows: the window bounds the entries kept
// in agent_logs rows too (those of turns committed before entries moved
// into turn records).
func TestAgentLogsWindowOverAgentLogsRows(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	id := withLoggedTurns(t, s, 0)
	const rows = 250
	_, err := s.Pool().Exec(ctx, `
INSERT INTO agent_logs (session_id, turn_id, agent, event)
SELECT $1, 'turn_' || i, CASE WHEN i % 2 = 0 THEN 'safety' ELSE 'master_tutor' END, 'completed'
FROM generate_series(1, $2::int) i`, id, rows)
	if err != nil {
		t.Fatal(err)
	}
	logs, err := s.ListAgentLogs(ctx, id, store.LogFilter{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if got := entries(logs); len(got) != store.AgentLogWindow || got[0] != fmt.Sprintf("turn_%d/master_tutor", rows-store.AgentLogWindow+1) {
		t.Errorf("%d entries from %v; want the newest %d", len(got), got[:min(len(got), 1)], store.AgentLogWindow)
	}
	if logs, err = s.ListAgentLogs(ctx, id, store.LogFilter{Agent: "safety"}); err != nil || len(logs) != store.AgentLogWindow/2 {
		t.Errorf("safety: %d entries, %v; want %d", len(logs), err, store.AgentLogWindow/2)
	}
}

// TestTurnLogsMigrateDown: rolling back the migration that moved turns'
// entries into their turn records moves them back into agent_logs, in
// order, and migrating up again lists the same entries.
func TestTurnLogsMigrateDown(t *testing.T) {
	connString := pgtest.ConnString(t)
	pool, err := pgxpool.New(context.Background(), connString)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	s := store.New(pool)
	id := withLoggedTurns(t, s, 2)
	before, err := s.ListAgentLogs(context.Background(), id, store.LogFilter{})
	if err != nil || len(before) != 5 {
		t.Fatalf("before: %d entries, %v", len(before), err)
	}

	m, err := store.NewMigrator(connString)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if err := m.Down(int(store.LatestVersion()) - 5); err != nil { // to before 0006_turn_logs
		t.Fatal(err)
	}
	var rows []string
	r, err := pool.Query(context.Background(), `SELECT turn_id || '/' || agent FROM agent_logs WHERE session_id = $1 ORDER BY id`, id)
	if err != nil {
		t.Fatal(err)
	}
	for r.Next() {
		var e string
		if err := r.Scan(&e); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, e)
	}
	if diff := cmp.Diff(entries(before), rows); diff != "" {
		t.Errorf("agent_logs rows after down (-want +got):\n%s", diff)
	}
	if typ, compression := stateColumn(t, pool); typ != "jsonb" || compression != "l" {
		t.Errorf("state_json after down: %s, compression %q; want jsonb, lz4", typ, compression)
	}

	if err := m.Up(); err != nil {
		t.Fatal(err)
	}
	if typ, compression := stateColumn(t, pool); typ != "json" || compression != "l" {
		t.Errorf("state_json after up: %s, compression %q; want json, lz4", typ, compression)
	}
	pool.Reset() // the cached statements were prepared on the dropped view
	after, err := s.ListAgentLogs(context.Background(), id, store.LogFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(entries(before), entries(after)); diff != "" {
		t.Errorf("entries after down and up (-before +after):\n%s", diff)
	}
}

// stateColumn returns the type of sessions.state_json and its compression
// method ("l" for lz4).
func stateColumn(t *testing.T, pool *pgxpool.Pool) (typ, compression string) {
	t.Helper()
	err := pool.QueryRow(context.Background(), `
SELECT format_type(atttypid, atttypmod), attcompression::text FROM pg_attribute
WHERE attrelid = 'sessions'::regclass AND attname = 'state_json'`).Scan(&typ, &compression)
	if err != nil {
		t.Fatal(err)
	}
	return typ, compression
}

// TestAgentLogsWithNUL: a NUL character in a model's text (escaped as
// \u0000 in JSON) is stored as U+FFFD, so the entries stay readable and a
// reply holding one is written; an escaped backslash before "u0000" is
// text and stays as it is.
func TestAgentLogsWithNUL(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	id := createSession(t, s, fixture{})
	tr := turn(id, 1, 1)
	tr.State = json.RawMessage(`{"turn":1,"said":"a\u0000b"}`)
	tr.Messages = []store.NewMessage{{Role: "student", Content: "hi"}, {Role: "teacher", Content: "odd \x00 reply"}}
	tr.Logs = []store.AgentLog{{TurnID: "turn_1", Agent: "master_tutor", Event: "completed",
		Reasoning: "weird \x00 byte", Output: json.RawMessage(`{"text":"x\u0000y","path":"C:\\u0000"}`)}}
	if _, err := s.CommitTurn(ctx, tr); err != nil {
		t.Fatal(err)
	}
	logs, err := s.ListAgentLogs(ctx, id, store.LogFilter{})
	if err != nil || len(logs) != 1 {
		t.Fatalf("%d entries, %v", len(logs), err)
	}
	var out struct{ Text, Path string }
	if err := json.Unmarshal(logs[0].Output, &out); err != nil || out.Text != "x\uFFFDy" || out.Path != `C:\u0000` {
		t.Errorf("output %s (%+v, %v)", logs[0].Output, out, err)
	}
	if logs[0].Reasoning != "weird \uFFFD byte" {
		t.Errorf("reasoning %q", logs[0].Reasoning)
	}
	got, err := s.GetSession(ctx, id)
	if err != nil || string(got.State) != `{"turn":1,"said":"a\ufffdb"}` {
		t.Errorf("state %s, %v", got.State, err)
	}
	if msgs, err := s.ListMessages(ctx, id); err != nil || len(msgs) != 3 || msgs[2].Content != "odd \uFFFD reply" {
		t.Errorf("messages %+v, %v", msgs, err)
	}
}

// TestPurgeAgentLogsRemovesOnlyOlderEntries: a purge clears the trace of
// the turns committed before the cutoff and deletes the agent_logs rows
// created before it; newer entries stay listed, a purged turn's reply is
// still found for a retry, and a second purge finds nothing left.
func TestPurgeAgentLogsRemovesOnlyOlderEntries(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	now := time.Now()
	old, cutoff := now.AddDate(0, 0, -60), now.AddDate(0, 0, -30)
	id := uuid.New()
	err := s.CreateSession(ctx, store.NewSession{ID: id, Mode: "teach_me", State: json.RawMessage(`{}`), Now: old,
		Logs: []store.AgentLog{{TurnID: "turn_0", Agent: "welcome", Event: "completed"}}})
	if err != nil {
		t.Fatal(err)
	}
	first := turn(id, 1, 1)
	first.Now, first.ClientTurnID = old, "retry-me"
	if _, err := s.CommitTurn(ctx, first); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CommitTurn(ctx, turn(id, 2, 2)); err != nil {
		t.Fatal(err)
	}
	recent := loggedSession(t, s)

	got, err := s.PurgeAgentLogs(ctx, cutoff)
	if err != nil {
		t.Fatal(err)
	}
	if want := (store.PurgedLogs{Turns: 1, Rows: 1}); got != want {
		t.Errorf("purged %+v, want %+v", got, want)
	}
	checkLogFilters(t, s, id, []logFilterCase{
		{store.LogFilter{}, []string{"turn_2/orchestrator", "turn_2/master_tutor"}},
		{store.LogFilter{TurnID: "turn_1"}, nil},
	})
	checkLogFilters(t, s, recent, []logFilterCase{{store.LogFilter{}, []string{"turn_0/welcome"}}})
	r, err := s.FindTurn(ctx, id, "retry-me")
	if err != nil || r.Version != 2 || string(r.Response) != `{"message":"reply 1"}` {
		t.Errorf("purged turn found as %+v, %v; want version 2 with its response", r, err)
	}
	if got, err := s.PurgeAgentLogs(ctx, cutoff); err != nil || got != (store.PurgedLogs{}) {
		t.Errorf("second purge: %+v, %v; want nothing purged", got, err)
	}
}

// TestPurgeAgentLogsCoversEveryBatch: a purge works in batches (spans of
// time), and the batches together reach every entry.
func TestPurgeAgentLogsCoversEveryBatch(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	old := time.Now().AddDate(0, 0, -60)
	id := loggedSession(t, s)
	const turns, rows = 200, 40
	for i := 1; i <= turns; i++ {
		tr := turn(id, int64(i), i)
		tr.Now = old.Add(time.Duration(i) * 10 * time.Minute) // six an hour: some 34 one-hour spans
		if _, err := s.CommitTurn(ctx, tr); err != nil {
			t.Fatal(err)
		}
	}
	_, err := s.Pool().Exec(ctx, `
INSERT INTO agent_logs (session_id, turn_id, agent, event, prompt, created_at)
SELECT $1, 'turn_0', 'welcome', 'completed', repeat('p', 1000), $3
FROM generate_series(1, $2::int)`, id, rows, old)
	if err != nil {
		t.Fatal(err)
	}

	got, err := s.PurgeAgentLogsInBatches(ctx, time.Now().AddDate(0, 0, -30), 7)
	if err != nil {
		t.Fatal(err)
	}
	if want := (store.PurgedLogs{Turns: turns, Rows: rows}); got != want {
		t.Errorf("purged %+v, want %+v", got, want)
	}
	checkLogFilters(t, s, id, []logFilterCase{{store.LogFilter{}, []string{"turn_0/welcome"}}})
}

// TestPurgeAgentLogsCarriesOn: each purge starts where the last one's
// cutoff was (less an overlap for turns committed just after it), so the
// hourly purge reads the entries of the last hour, not the tables whole:
// a later cutoff purges what lies between the two; entries written behind
// the last cutoff's overlap (only a restore of old data would) are left;
// and a purge with an earlier cutoff finds nothing to do.
func TestPurgeAgentLogsCarriesOn(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	now := time.Now()
	id := loggedSession(t, s)
	commitAt := func(version int64, at time.Time) {
		t.Helper()
		tr := turn(id, version, int(version))
		tr.Now = at
		if _, err := s.CommitTurn(ctx, tr); err != nil {
			t.Fatal(err)
		}
	}
	first := now.AddDate(0, 0, -30)
	commitAt(1, first.Add(-time.Minute))
	if got, err := s.PurgeAgentLogs(ctx, first); err != nil || got.Turns != 1 {
		t.Fatalf("first purge: %+v, %v; want one turn", got, err)
	}

	commitAt(2, first.Add(-store.PurgeOverlap/2)) // committed just after the first purge
	commitAt(3, first.Add(-2*store.PurgeOverlap)) // behind the overlap: a restore
	commitAt(4, first.Add(time.Hour))             // between the two cutoffs
	commitAt(5, now)                              // after both
	if got, err := s.PurgeAgentLogs(ctx, first.Add(-24*time.Hour)); err != nil || got.Turns != 0 {
		t.Errorf("purge with an earlier cutoff: %+v, %v; want nothing", got, err)
	}
	got, err := s.PurgeAgentLogs(ctx, first.Add(2*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if got.Turns != 2 {
		t.Errorf("second purge cleared %d turns, want 2 (the turns committed just after the first, and between the cutoffs)", got.Turns)
	}
	checkLogFilters(t, s, id, []logFilterCase{
		{store.LogFilter{TurnID: "turn_2"}, nil},
		{store.LogFilter{TurnID: "turn_3"}, []string{"turn_3/orchestrator", "turn_3/master_tutor"}},
		{store.LogFilter{TurnID: "turn_4"}, nil},
		{store.LogFilter{TurnID: "turn_5"}, []string{"turn_5/orchestrator", "turn_5/master_tutor"}},
	})
}
