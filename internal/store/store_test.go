package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tutord/tutord/internal/pguuid"

	"github.com/tutord/tutord/internal/pgtest"
	"github.com/tutord/tutord/internal/store"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func setup(t testing.TB) *store.Store {
	t.Helper()
	return store.New(pgtest.Pool(t))
}

type fixture struct {
	learner   uuid.UUID
	guideline uuid.UUID
	subject   string
	paused    bool
	created   time.Time
}

func createSession(t testing.TB, s *store.Store, f fixture) uuid.UUID {
	t.Helper()
	id := uuid.New()
	var learner, guideline *uuid.UUID
	if f.learner != uuid.Nil {
		learner = &f.learner
	}
	if f.guideline != uuid.Nil {
		guideline = &f.guideline
	}
	err := s.CreateSession(context.Background(), store.NewSession{
		ID: id, LearnerID: learner, Mode: "teach_me", GuidelineID: guideline, Subject: f.subject,
		State:    json.RawMessage(`{"turn":0}`),
		Summary:  store.Summary{TopicName: "Fractions - Adding", CurrentStep: 1, TotalSteps: 4, IsPaused: f.paused},
		Messages: []store.NewMessage{{Role: "teacher", Content: "Welcome!"}},
		Now:      f.created,
	})
	if err != nil {
		t.Fatalf("CreateSession: %v", err)
	}
	return id
}

func newLearner(t testing.TB, s *store.Store) uuid.UUID {
	t.Helper()
	l, err := s.EnsureLearner(context.Background(), "sub-"+uuid.NewString())
	if err != nil {
		t.Fatalf("EnsureLearner: %v", err)
	}
	return l.ID
}

func turn(id uuid.UUID, version int64, n int) store.Turn {
	lat := 3
	return store.Turn{
		SessionID: id, Version: version,
		State:    json.RawMessage(fmt.Sprintf(`{"turn":%d}`, n)),
		Summary:  store.Summary{TurnCount: n, CurrentStep: 1, TotalSteps: 4, Mastery: 0.5},
		Messages: []store.NewMessage{{Role: "student", Content: fmt.Sprintf("answer %d", n)}, {Role: "teacher", Content: fmt.Sprintf("reply %d", n)}},
		Response: json.RawMessage(fmt.Sprintf(`{"message":"reply %d"}`, n)),
		Logs: []store.AgentLog{
			{TurnID: fmt.Sprintf("turn_%d", n), Agent: "orchestrator", Event: "turn_started", InputSummary: "Student: hi"},
			{TurnID: fmt.Sprintf("turn_%d", n), Agent: "master_tutor", Event: "completed", Provider: "rules", LatencyMS: &lat, Output: json.RawMessage(`{"intent":"answer"}`)},
		},
	}
}

func TestCreateAndGetSession(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	learner := newLearner(t, s)
	id := createSession(t, s, fixture{learner: learner, subject: "Mathematics"})
	got, err := s.GetSession(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != 1 || got.Mode != "teach_me" || got.Subject != "Mathematics" || *got.LearnerID != learner {
		t.Fatalf("got %+v", got)
	}
	if string(got.State) != `{"turn":0}` { // the bytes as written
		t.Fatalf("state = %s", got.State)
	}
	msgs, err := s.ListMessages(ctx, id)
	if err != nil || len(msgs) != 1 || msgs[0].Seq != 1 || msgs[0].Content != "Welcome!" {
		t.Fatalf("messages = %+v, %v", msgs, err)
	}
	if _, err := s.GetSession(ctx, uuid.New()); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("missing session: err = %v, want ErrNotFound", err)
	}
}

func TestCommitTurnAppendsEverything(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	id := createSession(t, s, fixture{})
	v, err := s.CommitTurn(ctx, turn(id, 1, 1))
	if err != nil || v != 2 {
		t.Fatalf("CommitTurn = %d, %v; want 2", v, err)
	}
	got, _ := s.GetSession(ctx, id)
	if got.Version != 2 || got.Summary.TurnCount != 1 || got.Summary.Mastery != 0.5 {
		t.Fatalf("after commit: %+v", got)
	}
	msgs, _ := s.ListMessages(ctx, id)
	var seqs []int
	for _, m := range msgs {
		seqs = append(seqs, m.Seq)
	}
	if diff := cmp.Diff([]int{1, 2, 3}, seqs); diff != "" {
		t.Fatalf("message seqs (-want +got):\n%s", diff)
	}
	var logs int
	if err := s.Pool().QueryRow(ctx, `SELECT count(*) FROM agent_log_entries WHERE session_id = $1`, id).Scan(&logs); err != nil || logs != 2 {
		t.Fatalf("agent logs = %d, %v; want 2", logs, err)
	}
}

func TestCommitTurnCompareAndSwap(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	id := createSession(t, s, fixture{})

	// Two writers read version 1; exactly one wins.
	a, b := turn(id, 1, 1), turn(id, 1, 2)
	b.Messages = []store.NewMessage{{Role: "student", Content: "loser message"}}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, tr := range []store.Turn{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = s.CommitTurn(ctx, tr)
		}()
	}
	wg.Wait()
	wins, stale := 0, 0
	var staleErr *store.StaleStateError
	for _, err := range errs {
		switch {
		case err == nil:
			wins++
		case errors.As(err, &staleErr):
			stale++
		default:
			t.Fatalf("unexpected error: %v", err)
		}
	}
	if wins != 1 || stale != 1 {
		t.Fatalf("wins = %d, stale = %d; want 1 and 1", wins, stale)
	}
	if !errors.Is(staleErr, store.ErrStale) || staleErr.Version != 2 || staleErr.Expected != 1 {
		t.Fatalf("stale error = %+v; want expected 1, current 2", staleErr)
	}
	cur, _ := s.GetSession(ctx, id)
	if string(staleErr.State) != string(cur.State) {
		t.Fatalf("stale error carries state %s, stored %s", staleErr.State, cur.State)
	}
	// None of the loser's rows exist.
	msgs, _ := s.ListMessages(ctx, id)
	loserMsg := "loser message"
	if errs[0] != nil {
		loserMsg = "answer 1"
	}
	for _, m := range msgs {
		if m.Content == loserMsg {
			t.Fatalf("loser's message was written: %+v", m)
		}
	}
	var turns, logs int
	_ = s.Pool().QueryRow(ctx, `SELECT count(*) FROM session_turns WHERE session_id = $1`, id).Scan(&turns)
	_ = s.Pool().QueryRow(ctx, `SELECT count(*) FROM agent_log_entries WHERE session_id = $1`, id).Scan(&logs)
	if turns != 1 || logs != 2 {
		t.Fatalf("turn rows = %d, log rows = %d; want 1 and 2 (the winner's only)", turns, logs)
	}
}

func TestCommitTurnMissingSession(t *testing.T) {
	s := setup(t)
	if _, err := s.CommitTurn(context.Background(), turn(uuid.New(), 1, 1)); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("err = %v, want ErrNotFound", err)
	}
}

func TestNoLostUpdateUnderLoad(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	id := createSession(t, s, fixture{})
	const writers, perWriter = 32, 50

	var wg sync.WaitGroup
	errc := make(chan error, writers)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < perWriter; i++ {
				se, err := s.GetSession(ctx, id)
				if err != nil {
					errc <- err
					return
				}
				for {
					tr := turn(id, se.Version, w*perWriter+i)
					tr.Messages = []store.NewMessage{{Role: "student", Content: fmt.Sprintf("w%d-%d", w, i)}, {Role: "teacher", Content: fmt.Sprintf("r%d-%d", w, i)}}
					tr.Logs = nil
					_, err := s.CommitTurn(ctx, tr)
					var stale *store.StaleStateError
					if errors.As(err, &stale) {
						se.Version = stale.Version
						continue
					}
					if err != nil {
						errc <- err
						return
					}
					break
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	got, _ := s.GetSession(ctx, id)
	if want := int64(1 + writers*perWriter); got.Version != want {
		t.Fatalf("version = %d, want %d", got.Version, want)
	}
	msgs, _ := s.ListMessages(ctx, id)
	if want := 1 + 2*writers*perWriter; len(msgs) != want {
		t.Fatalf("%d messages, want %d", len(msgs), want)
	}
	seen := map[string]bool{}
	for i, m := range msgs {
		if m.Seq != i+1 {
			t.Fatalf("message %d has seq %d: sequence not contiguous", i, m.Seq)
		}
		if seen[m.Content] {
			t.Fatalf("duplicate message %q", m.Content)
		}
		seen[m.Content] = true
	}
}

func TestClientTurnIDIsIdempotent(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	id := createSession(t, s, fixture{})
	first := turn(id, 1, 1)
	first.ClientTurnID = "c-1"
	if _, err := s.CommitTurn(ctx, first); err != nil {
		t.Fatal(err)
	}
	// The retry read the new version, processed again and tries to commit the same id.
	retry := turn(id, 2, 2)
	retry.ClientTurnID = "c-1"
	if _, err := s.CommitTurn(ctx, retry); !errors.Is(err, store.ErrDuplicateTurn) {
		t.Fatalf("second commit of c-1: err = %v, want ErrDuplicateTurn", err)
	}
	rec, err := s.FindTurn(ctx, id, "c-1")
	if err != nil {
		t.Fatal(err)
	}
	if rec.Version != 2 || !strings.Contains(string(rec.Response), "reply 1") {
		t.Fatalf("found turn %+v, want the first one", rec)
	}
	got, _ := s.GetSession(ctx, id)
	msgs, _ := s.ListMessages(ctx, id)
	if got.Version != 2 || len(msgs) != 3 {
		t.Fatalf("version %d with %d messages; the retry must write nothing", got.Version, len(msgs))
	}
	if _, err := s.FindTurn(ctx, id, "c-2"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown client turn id: err = %v, want ErrNotFound", err)
	}
}

func TestOnePausedSessionPerLearnerAndGuideline(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	learner, guideline := newLearner(t, s), uuid.New()
	createSession(t, s, fixture{learner: learner, guideline: guideline, paused: true})
	other := createSession(t, s, fixture{learner: learner, guideline: guideline})
	tr := turn(other, 1, 1)
	tr.Summary.IsPaused = true
	if _, err := s.CommitTurn(ctx, tr); !errors.Is(err, store.ErrAnotherPaused) || !errors.Is(err, store.ErrConflict) {
		t.Fatalf("pausing a second session: err = %v, want ErrAnotherPaused", err)
	}
	if got, _ := s.GetSession(ctx, other); got.Version != 1 || got.Summary.IsPaused {
		t.Fatalf("the refused pause changed the session: %+v", got)
	}
}

func TestListSessionsPagesNewestFirst(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	learner := newLearner(t, s)
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var ids []uuid.UUID
	for i := 0; i < 25; i++ {
		subject := "Mathematics"
		if i%5 == 0 {
			subject = "Science"
		}
		ids = append(ids, createSession(t, s, fixture{learner: learner, subject: subject, created: base.Add(time.Duration(i) * time.Minute)}))
	}
	createSession(t, s, fixture{learner: newLearner(t, s), subject: "Mathematics"}) // someone else's

	page, total, err := s.ListSessions(ctx, learner, store.ListOptions{Page: 2, PageSize: 10})
	if err != nil {
		t.Fatal(err)
	}
	if total != 25 || len(page) != 10 {
		t.Fatalf("total %d, page len %d; want 25 and 10", total, len(page))
	}
	for i, se := range page {
		if want := ids[24-10-i]; se.ID != want {
			t.Fatalf("page 2 item %d = %s, want %s", i, se.ID, want)
		}
	}
	sci, total, err := s.ListSessions(ctx, learner, store.ListOptions{Subject: "Science", Page: 1, PageSize: 10})
	if err != nil || total != 5 || len(sci) != 5 {
		t.Fatalf("science: %d of %d, %v; want 5 of 5", len(sci), total, err)
	}
	last, _, _ := s.ListSessions(ctx, learner, store.ListOptions{Page: 4, PageSize: 10})
	if len(last) != 0 {
		t.Fatalf("page past the end has %d sessions", len(last))
	}
}

func openPool(tb testing.TB, connString string, size int32) *pgxpool.Pool {
	tb.Helper()
	cfg, err := pgxpool.ParseConfig(connString)
	if err != nil {
		tb.Fatal(err)
	}
	cfg.MaxConns = size
	cfg.AfterConnect = pguuid.AfterConnect
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(pool.Close)
	return pool
}

// Many sessions committing at once: every turn commits once, in order,
// with its messages numbered after the session's last one.
func TestCommitTurnConcurrentSessions(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	const sessions, turns = 24, 15
	ids := make([]uuid.UUID, sessions)
	for i := range ids {
		ids[i] = createSession(t, s, fixture{})
	}
	var wg sync.WaitGroup
	errc := make(chan error, sessions)
	for _, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			version := int64(1)
			for n := 1; n <= turns; n++ {
				v, err := s.CommitTurn(ctx, turn(id, version, n))
				if err != nil {
					errc <- fmt.Errorf("session %s turn %d: %w", id, n, err)
					return
				}
				version = v
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	for _, id := range ids {
		got, err := s.GetSession(ctx, id)
		if err != nil || got.Version != turns+1 || got.Summary.TurnCount != turns {
			t.Fatalf("session %s: %+v, %v", id, got, err)
		}
		msgs, err := s.ListMessages(ctx, id)
		if err != nil || len(msgs) != 1+2*turns {
			t.Fatalf("session %s: %d messages, %v", id, len(msgs), err)
		}
		for i, m := range msgs {
			if m.Seq != i+1 {
				t.Fatalf("session %s: message %d has seq %d", id, i+1, m.Seq)
			}
		}
		if want := fmt.Sprintf("reply %d", turns); msgs[len(msgs)-1].Content != want {
			t.Fatalf("session %s: last message %q, want %q", id, msgs[len(msgs)-1].Content, want)
		}
	}
}

// TestStatementsAfterDatabaseRestart: right after PostgreSQL restarted,
// every pooled connection dead, each kind of statement the store runs
// succeeds: the first to meet a dead connection resets the pool and runs
// again on a fresh one (a read, a transaction's BEGIN, a commit that
// returned no row, any statement that could not be sent), in every query
// mode. Other writes may fail when the server's FATAL came in place of
// their result (it may have run them), but only on the connections handed
// out before the reset: the next one succeeds.
func TestStatementsAfterDatabaseRestart(t *testing.T) {
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec} {
		t.Run(mode.String(), func(t *testing.T) {
			cfg, err := pgxpool.ParseConfig(pgtest.ConnString(t))
			if err != nil {
				t.Fatal(err)
			}
			cfg.ConnConfig.DefaultQueryExecMode = mode
			cfg.AfterConnect = pguuid.AfterConnect
			pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(pool.Close)
			s := store.New(pool)
			ctx := context.Background()
			id := createSession(t, s, fixture{})
			for _, c := range []struct {
				name  string
				write bool
				run   func() error
			}{
				{"get a session", false, func() error { _, err := s.GetSession(ctx, id); return err }},
				{"list messages", false, func() error { _, err := s.ListMessages(ctx, id); return err }},
				{"commit a turn", false, func() error { _, err := s.CommitTurn(ctx, turn(id, 1, 1)); return err }},
				{"transaction", false, func() error {
					return s.InTx(ctx, func(tx *store.Store) error { _, err := tx.GetSession(ctx, id); return err })
				}},
				{"ping", false, func() error { return s.Ping(ctx) }},
				{"create a session", true, func() error {
					return s.CreateSession(ctx, store.NewSession{ID: uuid.New(), Mode: "teach_me", State: json.RawMessage(`{}`)})
				}},
			} {
				pgtest.RestartDatabase(t, pool, 4)
				err := c.run()
				var pgErr *pgconn.PgError
				if c.write && errors.As(err, &pgErr) && pgErr.Code == "57P01" {
					if !errors.Is(err, store.ErrUnavailable) {
						t.Errorf("%s after a restart failed with %v; want it to match ErrUnavailable", c.name, err)
					}
					err = c.run()
				}
				if err != nil {
					t.Errorf("%s after a restart: %v", c.name, err)
				}
			}
		})
	}
}

// TestUnreachableDatabase: with PostgreSQL down, every kind of statement
// fails with ErrUnavailable, which the API answers with 503 and
// Retry-After rather than 500: reads, writes, turn commits and
// transactions alike.
func TestUnreachableDatabase(t *testing.T) {
	s := store.New(pgtest.UnreachablePool(t))
	ctx := context.Background()
	id := uuid.New()
	for name, run := range map[string]func() error{
		"get a session": func() error { _, err := s.GetSession(ctx, id); return err },
		"list messages": func() error { _, err := s.ListMessages(ctx, id); return err },
		"commit a turn": func() error { _, err := s.CommitTurn(ctx, turn(id, 1, 1)); return err },
		"create a session": func() error {
			return s.CreateSession(ctx, store.NewSession{ID: id, Mode: "teach_me", State: json.RawMessage(`{}`)})
		},
		"transaction": func() error {
			return s.InTx(ctx, func(tx *store.Store) error { _, err := tx.GetSession(ctx, id); return err })
		},
	} {
		if err := run(); !errors.Is(err, store.ErrUnavailable) {
			t.Errorf("%s with the database down: %v; want ErrUnavailable", name, err)
		}
	}
	// The caller's own end is no outage.
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.GetSession(cancelled, id); errors.Is(err, store.ErrUnavailable) || !errors.Is(err, context.Canceled) {
		t.Errorf("get a session with a cancelled context: %v; want context.Canceled alone", err)
	}
}

// TestUnreachableErrors: which failures of a statement show the database
// out of reach.
func TestUnreachableErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
		want bool
	}{
		{"connection refused", &net.OpError{Op: "dial", Err: errors.New("connection refused")}, true},
		{"cut off mid-message", fmt.Errorf("failed to receive message: %w", io.ErrUnexpectedEOF), true},
		{"connection failure", &pgconn.PgError{Severity: "FATAL", Code: "08006"}, true},
		{"starting up", &pgconn.PgError{Severity: "FATAL", Code: "57P03"}, true},
		{"terminated", &pgconn.PgError{Severity: "FATAL", SeverityUnlocalized: "FATAL", Code: "57P01"}, true},
		{"cancelled statement", &pgconn.PgError{Severity: "ERROR", Code: "57014"}, false},
		{"unique violation", &pgconn.PgError{Severity: "ERROR", Code: "23505"}, false},
		{"no rows", pgx.ErrNoRows, false},
		{"caller's deadline", context.DeadlineExceeded, false},
		{"caller's cancellation", fmt.Errorf("read: %w", context.Canceled), false},
	} {
		if got := store.Unreachable(c.err); got != c.want {
			t.Errorf("Unreachable(%s) = %v; want %v", c.name, got, c.want)
		}
	}
}

// TestBusyTurnCommitsWaitOnlyTheBound: under overload (every connection of
// the pool taken), learners send turns at the same time. Each commit fails
// with ErrBusy (503 database_busy) after about one bound
// (TUTORD_DB_ACQUIRE_TIMEOUT): a batch that got no connection is not
// written again turn by turn, each waiting the bound once more (and the
// last past the batch's own time limit, a 500), and the turns queued behind
// it fail with it rather than wait the bound again.
func TestBusyTurnCommitsWaitOnlyTheBound(t *testing.T) {
	const bound = time.Second
	pool := pgtest.BoundedPool(t, 1, bound)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s := store.New(pool)
	const turns = 12
	ids := make([]uuid.UUID, turns)
	for i := range ids {
		ids[i] = createSession(t, s, fixture{})
	}
	held, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()

	type result struct {
		took time.Duration
		err  error
	}
	results := make([]result, turns)
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			_, err := s.CommitTurn(ctx, turn(id, 1, 1))
			results[i] = result{time.Since(start), err}
		}()
	}
	wg.Wait()
	for i, r := range results {
		if !errors.Is(r.err, store.ErrBusy) || r.took > bound*3/2 {
			t.Errorf("turn %d with every connection taken: err = %v after %v; want ErrBusy after about %v (the bound)", i, r.err, r.took.Round(10*time.Millisecond), bound)
		}
	}
}

// TestReadsAreTold: only statements known to read are run again after the
// server closed their connection mid-way.
func TestReadsAreTold(t *testing.T) {
	for sql, want := range map[string]bool{
		"SELECT " + "id, updated_at FROM sessions WHERE id = $1":                     true,
		"\nWITH t AS (SELECT 1) SELECT count(*) FROM t":                              true,
		"SELECT id FROM sessions WHERE id = $1 FOR UPDATE":                           false,
		"SELECT pg_notify('c', 'x')":                                                 false,
		"SELECT pg_advisory_lock(1)":                                                 false,
		"WITH gone AS (DELETE FROM sessions RETURNING id) SELECT count(*) FROM gone": false,
		"INSERT INTO learners (id) VALUES ($1) RETURNING id":                         false,
		"UPDATE sessions SET subject = $1":                                           false,
		"SELECT nextval('s')":                                                        false,
		"SELECT * INTO t FROM sessions":                                              false,
	} {
		if got := store.Reads(sql); got != want {
			t.Errorf("Reads(%q) = %v; want %v", sql, got, want)
		}
	}
}

// TestBoundedAcquireFailsWithErrBusy: with the pool's only connection
// held, statements wait no longer than BoundAcquire's bound for it, on
// every path the store takes to the pool, and fail with ErrBusy; the
// caller's own deadline is not ErrBusy, and a statement that has its
// connection runs past the bound.
func TestBoundedAcquireFailsWithErrBusy(t *testing.T) {
	pool := pgtest.BoundedPool(t, 1, 50*time.Millisecond)
	// Far beyond the bound: a wait the bound did not end fails the test
	// with this deadline's error instead.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s := store.New(pool)
	id := createSession(t, s, fixture{})

	held, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for name, call := range map[string]func() error{
		"query": func() error { _, err := s.GetSession(ctx, id); return err },
		"exec": func() error {
			return s.CreateSession(ctx, store.NewSession{ID: uuid.New(), Mode: "teach_me", State: json.RawMessage(`{}`)})
		},
		"commit": func() error { _, err := s.CommitTurn(ctx, turn(id, 1, 1)); return err },
		"tx":     func() error { return s.InTx(ctx, func(*store.Store) error { return nil }) },
	} {
		if err := call(); !errors.Is(err, store.ErrBusy) {
			t.Errorf("%s with the pool's connection held: err = %v, want ErrBusy", name, err)
		}
	}
	short, cancelShort := context.WithTimeout(ctx, time.Millisecond)
	defer cancelShort()
	if _, err := s.GetSession(short, id); errors.Is(err, store.ErrBusy) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("with the caller's deadline shorter than the bound: err = %v, want the caller's deadline", err)
	}
	held.Release()

	if _, err := s.Pool().Exec(ctx, `SELECT pg_sleep(0.2)`); err != nil {
		t.Errorf("a statement longer than the bound: %v", err)
	}
	if _, err := s.GetSession(ctx, id); err != nil {
		t.Errorf("once the connection is free: %v", err)
	}
}
