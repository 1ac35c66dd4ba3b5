package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tutord/tutord/internal/pgtest"
	"github.com/tutord/tutord/internal/store"
)

// TestWriteBatchOutcomes: the turns of a batch get the outcomes they would
// get one by one. A lost compare-and-swap loses alone; a turn that breaks a
// constraint (which rolls back the batch's transaction) fails alone, and
// the others are written.
func TestWriteBatchOutcomes(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	a, b, c := createSession(t, s, fixture{}), createSession(t, s, fixture{}), createSession(t, s, fixture{})

	first := turn(a, 1, 1)
	first.ClientTurnID = "t-1"
	versions, errs := s.WriteBatch(ctx, []store.Turn{first, turn(b, 7, 1), turn(c, 1, 1), turn(c, 1, 2)})
	var stale *store.StaleStateError
	if errs[0] != nil || versions[0] != 2 || errs[2] != nil || versions[2] != 2 {
		t.Fatalf("winners: versions %v, errors %v", versions, errs)
	}
	if !errors.As(errs[1], &stale) || stale.Expected != 7 || stale.Version != 1 {
		t.Errorf("turn on a stale version: %v", errs[1])
	}
	if !errors.As(errs[3], &stale) || stale.Version != 2 {
		t.Errorf("second turn of a session in one batch: %v; want it stale at version 2", errs[3])
	}

	again := turn(a, 2, 2)
	again.ClientTurnID = "t-1"
	versions, errs = s.WriteBatch(ctx, []store.Turn{turn(b, 1, 1), again, turn(c, 2, 2)})
	if errs[0] != nil || errs[2] != nil || versions[0] != 2 || versions[2] != 3 {
		t.Fatalf("beside a failing turn: versions %v, errors %v", versions, errs)
	}
	if !errors.Is(errs[1], store.ErrDuplicateTurn) {
		t.Errorf("reused client turn id: %v; want ErrDuplicateTurn", errs[1])
	}
	for id, want := range map[uuid.UUID]map[string]int{
		a: {"session_messages": 3, "session_turns": 1},
		b: {"session_messages": 3, "session_turns": 1},
		c: {"session_messages": 5, "session_turns": 2},
	} {
		got := rowsOf(t, s, id)
		if got["session_messages"] != want["session_messages"] || got["session_turns"] != want["session_turns"] {
			t.Errorf("session %s rows %v; want %v", id, got, want)
		}
	}
}

// TestWriteBatchUnknownFate: a batch that never reached the server (its
// time ran out) gives each turn the error, not a verdict of its own.
func TestWriteBatchUnknownFate(t *testing.T) {
	s := setup(t)
	a, b := createSession(t, s, fixture{}), createSession(t, s, fixture{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, errs := s.WriteBatch(ctx, []store.Turn{turn(a, 1, 1), turn(b, 1, 1)})
	for i, err := range errs {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("turn %d: %v; want the cancellation", i, err)
		}
	}
	for _, id := range []uuid.UUID{a, b} {
		if got := rowsOf(t, s, id); got["session_turns"] != 0 {
			t.Errorf("session %s rows %v; want no turn written", id, got)
		}
	}
}

// TestWriteBatchCutShort: a batch whose write broke off part way never
// sent its end, so the server committed none of it: each turn is written
// again on its own, and commits.
func TestWriteBatchCutShort(t *testing.T) {
	cfg, err := pgxpool.ParseConfig(pgtest.ConnString(t))
	if err != nil {
		t.Fatal(err)
	}
	cfg.MaxConns = 1    // the connection the warm-up prepared the statement on
	var cut atomic.Bool // the next write of a batch breaks off half way
	dial := cfg.ConnConfig.DialFunc
	cfg.ConnConfig.DialFunc = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		return &cuttingConn{Conn: c, cut: &cut}, err
	}
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	s := store.New(pool)
	a, b, warm := createSession(t, s, fixture{}), createSession(t, s, fixture{}), createSession(t, s, fixture{})
	if _, errs := s.WriteBatch(context.Background(), []store.Turn{turn(warm, 1, 1)}); errs[0] != nil {
		t.Fatal(errs[0])
	}
	cut.Store(true)
	versions, errs := s.WriteBatch(context.Background(), []store.Turn{turn(a, 1, 1), turn(b, 1, 1)})
	if cut.Load() {
		t.Fatal("the batch's write was not cut")
	}
	for i, err := range errs {
		if err != nil || versions[i] != 2 {
			t.Errorf("turn %d: version %d, %v; want 2 and no error", i, versions[i], err)
		}
	}
	for _, id := range []uuid.UUID{a, b} {
		if got := rowsOf(t, s, id); got["session_turns"] != 1 {
			t.Errorf("session %s rows %v; want its turn written once", id, got)
		}
	}
}

// cuttingConn writes half of a write of 512 bytes or more and fails,
// once cut is set (and clears it).
type cuttingConn struct {
	net.Conn
	cut *atomic.Bool
}

func (c *cuttingConn) Write(p []byte) (int, error) {
	if len(p) >= 512 && c.cut.CompareAndSwap(true, false) {
		n, _ := c.Conn.Write(p[:len(p)/2])
		c.Conn.Close()
		return n, errors.New("connection cut")
	}
	return c.Conn.Write(p)
}

// TestCommitTurnConcurrently: many sessions committing at once (so that
// their turns are grouped) each get every turn written, in order, with
// the versions they expect.
func TestCommitTurnConcurrently(t *testing.T) {
	s := setup(t)
	const sessions, turns = 16, 25
	var wg sync.WaitGroup
	errs := make(chan error, sessions)
	ids := make([]uuid.UUID, sessions)
	for k := range ids {
		ids[k] = createSession(t, s, fixture{})
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 1; n <= turns; n++ {
				v, err := s.CommitTurn(context.Background(), turn(ids[k], int64(n), n))
				if err == nil && v != int64(n+1) {
					err = fmt.Errorf("version %d after turn %d", v, n)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, id := range ids {
		msgs, err := s.ListMessages(context.Background(), id)
		if err != nil || len(msgs) != 1+2*turns || msgs[len(msgs)-1].Content != fmt.Sprintf("reply %d", turns) {
			t.Fatalf("session %s: %d messages, %v", id, len(msgs), err)
		}
	}
}

// TestCommitTurnCancelled: a turn whose context has already ended is not
// written and is reported cancelled. (One whose context ends while it is
// queued: TestCommitCancelledWhileQueued.)
func TestCommitTurnCancelled(t *testing.T) {
	s := setup(t)
	id := createSession(t, s, fixture{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := s.CommitTurn(ctx, turn(id, 1, 1))
	if rows := rowsOf(t, s, id); !errors.Is(err, context.Canceled) || rows["session_turns"] != 0 || rows["session_messages"] != 1 {
		t.Fatalf("err %v with rows %v; want the cancellation and nothing written", err, rows)
	}
}

// assertSameJSON fails t unless got and want are the same JSON value (jsonb
// columns give back their own spacing).
func assertSameJSON(t *testing.T, what string, got, want json.RawMessage) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("%s: %v in %s", what, err, got)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s: %s, want %s", what, got, want)
	}
}

// TestEveryQueryExecMode: a connection string may ask for any of pgx's
// query modes (default_query_exec_mode; poolers need exec or
// simple_protocol). In each, a guideline imports, a session is created and
// takes turns (grouped only over prepared statements, one by one
// otherwise), and every JSON document reads back as written.
func TestEveryQueryExecMode(t *testing.T) {
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeCacheDescribe,
		pgx.QueryExecModeDescribeExec, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		t.Run(mode.String(), func(t *testing.T) {
			cfg, err := pgxpool.ParseConfig(pgtest.ConnString(t))
			if err != nil {
				t.Fatal(err)
			}
			cfg.ConnConfig.DefaultQueryExecMode = mode
			pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(pool.Close)
			s := store.New(pool)
			ctx := context.Background()

			g := guidelineImport("adding", "Adding fractions", `teach halves <first> & then quarters`, "h1")
			if _, err := s.ImportGuidelines(ctx, []store.GuidelineImport{g}, time.Time{}); err != nil {
				t.Fatalf("import: %v", err)
			}
			gs, err := s.ListGuidelines(ctx)
			if err != nil || len(gs) != 1 {
				t.Fatalf("guidelines %v, %v", gs, err)
			}
			got, err := s.GetGuideline(ctx, gs[0].ID)
			if err != nil {
				t.Fatal(err)
			}
			assertSameJSON(t, "guideline", got.Guideline, g.Guideline)
			assertSameJSON(t, "plan", got.Plan.Plan, g.Plan)

			id := createSession(t, s, fixture{})
			var wg sync.WaitGroup
			others := make([]uuid.UUID, 4) // turns at once, for a batch where there are batches
			for i := range others {
				others[i] = createSession(t, s, fixture{})
			}
			for _, o := range others {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if _, err := s.CommitTurn(ctx, turn(o, 1, 1)); err != nil {
						t.Errorf("turn on %s: %v", o, err)
					}
				}()
			}
			for v := int64(1); v <= 3; v++ {
				tr := turn(id, v, int(v))
				tr.Summary.MasteryByConcept = map[string]float64{"Halves": 0.5}
				if got, err := s.CommitTurn(ctx, tr); err != nil || got != v+1 {
					t.Fatalf("turn on version %d: %d, %v", v, got, err)
				}
			}
			wg.Wait()
			se, err := s.GetSession(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if string(se.State) != `{"turn":3}` || se.Summary.MasteryByConcept["Halves"] != 0.5 {
				t.Errorf("state %s, mastery %v", se.State, se.Summary.MasteryByConcept)
			}
			logs, err := s.ListAgentLogs(ctx, id, store.LogFilter{})
			if err != nil || len(logs) != 6 {
				t.Fatalf("logs %+v, %v; want 6", logs, err)
			}
			assertSameJSON(t, "log output", logs[5].Output, json.RawMessage(`{"intent":"answer"}`))
			if rows := rowsOf(t, s, id); rows["session_turns"] != 3 || rows["session_messages"] != 7 {
				t.Errorf("rows %v; want 3 turns and 7 messages", rows)
			}
			// The report card names its subtopics from a list of ids.
			learner := newLearner(t, s)
			createSession(t, s, fixture{learner: learner, guideline: gs[0].ID})
			card, _, err := s.ReportCard(ctx, learner)
			if err != nil || len(card) != 1 || card[0].SubtopicTitle != "Adding fractions" {
				t.Errorf("report card %+v, %v; want Adding fractions", card, err)
			}
		})
	}
}

// lockSession holds a row lock on a session from another connection (an
// operator's open transaction, a migration, another process's stuck
// statement) until the returned function is called.
func lockSession(t *testing.T, s *store.Store, id uuid.UUID) (release func()) {
	t.Helper()
	ctx := context.Background()
	tx, err := s.Pool().Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `SELECT 1 FROM sessions WHERE id = $1 FOR UPDATE`, id); err != nil {
		t.Fatal(err)
	}
	return func() { _ = tx.Rollback(ctx) }
}

// written reports whether the turn committed at version v on session id is
// stored, waiting a little for a backend that is still finishing.
func written(t *testing.T, s *store.Store, id uuid.UUID, v int64) bool {
	t.Helper()
	var n int
	for range 20 {
		if err := s.Pool().QueryRow(context.Background(),
			`SELECT count(*) FROM session_turns WHERE session_id = $1 AND version = $2`, id, v).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return true
		}
		time.Sleep(25 * time.Millisecond)
	}
	return false
}

// TestWriteBatchOutOfTimeOnALockedRow: one session's row is locked by
// another connection for longer than a batch may take (maxWrite, 30 s;
// here the batch's context runs out after 1 s, which is what maxWrite
// does). The batch is cancelled on the server, which rolls it back and
// says so, rather than abandoned (the server would commit it when the lock
// goes, after every turn of it was reported failed). The other session's
// turn is then written on its own; the locked session's fails and is never
// written: no turn is reported failed and written. It fails with ErrBusy
// (503 database_busy: the learner may send it again), not with the
// batch's own deadline, which the learner got as a 500.
func TestWriteBatchOutOfTimeOnALockedRow(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	locked, free := createSession(t, s, fixture{}), createSession(t, s, fixture{})
	if _, errs := s.WriteBatch(ctx, []store.Turn{turn(free, 1, 1)}); errs[0] != nil {
		t.Fatal(errs[0])
	}
	release := lockSession(t, s, locked)
	wctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	_, errs := s.WriteBatch(wctx, []store.Turn{turn(free, 2, 2), turn(locked, 1, 1)})
	release()
	for i, c := range []struct {
		id uuid.UUID
		v  int64
	}{{free, 3}, {locked, 2}} {
		if w := written(t, s, c.id, c.v); w != (errs[i] == nil) {
			t.Errorf("turn %d: reported %v, yet written = %v; want a failed turn never written and a written one never failed", i, errs[i], w)
		}
	}
	if errs[0] != nil {
		t.Errorf("the turn of an unlocked session failed with its batch: %v", errs[0])
	}
	if !errors.Is(errs[1], store.ErrBusy) {
		t.Errorf("the turn of the locked session: %v; want ErrBusy", errs[1])
	}
}

// TestWriteBatchBackendTerminated: an operator terminates the backend that
// waits on one session's row lock (pg_terminate_backend), while a batch
// waits there in its second statement. The FATAL error came in place of a
// statement's result, before the batch's commit: nothing was written, and
// every turn of the batch is written (once) on a fresh connection.
func TestWriteBatchBackendTerminated(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	a, b, c := createSession(t, s, fixture{}), createSession(t, s, fixture{}), createSession(t, s, fixture{})
	if _, errs := s.WriteBatch(ctx, []store.Turn{turn(a, 1, 1)}); errs[0] != nil {
		t.Fatal(errs[0])
	}
	release := lockSession(t, s, b)
	killed := make(chan int, 1)
	go func() {
		defer release()
		for range 250 {
			var n int
			_ = s.Pool().QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
				WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&n)
			if n > 0 {
				time.Sleep(50 * time.Millisecond)
				killed <- n
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
		killed <- 0
	}()
	wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	versions, errs := s.WriteBatch(wctx, []store.Turn{turn(a, 2, 2), turn(b, 1, 1), turn(c, 1, 1)})
	if n := <-killed; n == 0 {
		t.Fatal("no backend waited on the lock")
	}
	for i, id := range []uuid.UUID{a, b, c} {
		want := []int64{3, 2, 2}[i]
		w := written(t, s, id, want)
		if errs[i] != nil || versions[i] != want || !w {
			t.Errorf("turn %d: version %d, %v (written %v); want version %d, written once", i, versions[i], errs[i], w, want)
		}
	}
}
