package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tutord/tutord/internal/pgtest"
	"github.com/tutord/tutord/internal/pguuid"
	"github.com/tutord/tutord/internal/store"
)

// storeWith returns a store over a pool of the test's database in query
// mode mode (group commit in the default mode, turns one by one in exec
// mode), whose connections set the server parameters params, as an
// operator's connection string may.
func storeWith(t *testing.T, mode pgx.QueryExecMode, params map[string]string) *store.Store {
	t.Helper()
	cfg, err := pgxpool.ParseConfig(pgtest.ConnString(t))
	if err != nil {
		t.Fatal(err)
	}
	cfg.MaxConns = 10 // the tests' locks and lock watch, beside the turns
	cfg.ConnConfig.DefaultQueryExecMode = mode
	cfg.AfterConnect = pguuid.AfterConnect
	for k, v := range params {
		cfg.ConnConfig.RuntimeParams[k] = v
	}
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return store.New(pool)
}

// TestContendedTurnIsBusy: the operator's connection string sets a
// lock_timeout or a statement_timeout, and a learner's turn waits for a
// session row that another connection holds locked (an operator's open
// transaction, another process's long statement) until the server gives
// up on it. The learner got a 500 (a plain error), on the group-commit
// path as on the one-by-one path; the server rolled the statement back,
// so they should get ErrBusy (503 database_busy, Retry-After) and may send
// the turn again. Nothing of the turn is written, and a turn of another
// session in the same batch is written.
func TestContendedTurnIsBusy(t *testing.T) {
	ctx := context.Background()
	for _, param := range []string{"lock_timeout", "statement_timeout"} {
		for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec} {
			t.Run(fmt.Sprintf("%s/%s", param, mode), func(t *testing.T) {
				s := storeWith(t, mode, map[string]string{param: "200ms"})
				locked, free := createSession(t, s, fixture{}), createSession(t, s, fixture{})
				release := lockSession(t, s, locked)
				defer release()
				if _, err := s.CommitTurn(ctx, turn(locked, 1, 1)); !errors.Is(err, store.ErrBusy) {
					t.Errorf("turn on a locked session: %v; want ErrBusy", err)
				}
				if mode == pgx.QueryExecModeCacheStatement {
					versions, errs := s.WriteBatch(ctx, []store.Turn{turn(free, 1, 1), turn(locked, 1, 1)})
					if errs[0] != nil || versions[0] != 2 {
						t.Errorf("turn of an unlocked session in the batch: version %d, %v; want 2", versions[0], errs[0])
					}
					if !errors.Is(errs[1], store.ErrBusy) {
						t.Errorf("turn on a locked session in a batch: %v; want ErrBusy", errs[1])
					}
				}
				release()
				if rows := rowsOf(t, s, locked); rows["session_turns"] != 0 || rows["session_messages"] != 1 {
					t.Errorf("locked session rows %v; want nothing of its turns written", rows)
				}
			})
		}
	}
}

// TestContendedTurnSpillsOverToNoOne: with lock_timeout set, the two
// group-commit writers are busy with turns of sessions whose rows another
// connection holds locked, and turns of other sessions queue behind them.
// When the locked turns fail (ErrBusy: they may be sent again), the queued
// turns of the other sessions are still written: a row lock of one session
// is no sign that the database has no connection for the others.
func TestContendedTurnSpillsOverToNoOne(t *testing.T) {
	ctx := context.Background()
	s := storeWith(t, pgx.QueryExecModeCacheStatement, map[string]string{"lock_timeout": "1s"})
	locked := []uuid.UUID{createSession(t, s, fixture{}), createSession(t, s, fixture{})}
	free := []uuid.UUID{createSession(t, s, fixture{}), createSession(t, s, fixture{}), createSession(t, s, fixture{})}
	for _, id := range locked {
		release := lockSession(t, s, id)
		defer release()
	}
	var wg sync.WaitGroup
	lockedErrs := make([]error, len(locked))
	for i, id := range locked {
		wg.Go(func() { _, lockedErrs[i] = s.CommitTurn(ctx, turn(id, 1, 1)) })
		waitForLockWaiters(t, s, i+1) // a writer of its own waits on the row lock
	}
	freeErrs := make([]error, len(free))
	for i, id := range free {
		wg.Go(func() { _, freeErrs[i] = s.CommitTurn(ctx, turn(id, 1, 1)) })
	}
	wg.Wait()
	for i, err := range lockedErrs {
		if !errors.Is(err, store.ErrBusy) {
			t.Errorf("turn %d on a locked session: %v; want ErrBusy", i, err)
		}
	}
	for i, err := range freeErrs {
		if err != nil {
			t.Errorf("turn %d of an unlocked session, queued behind the locked ones: %v; want it written", i, err)
		}
	}
}

// TestWriteBatchOutOfTimeWaitingForAConnection: the pool's wait for a
// connection is unbounded (TUTORD_DB_ACQUIRE_TIMEOUT=0) and its only
// connection stays taken for longer than a batch may take (maxWrite; here
// the batch's context runs out after 1 s, which is what maxWrite does).
// The batch's turns failed with a plain deadline (500); no connection came
// free in time, so they should fail with ErrBusy (503 database_busy), as
// with a bounded wait, and nothing is written.
func TestWriteBatchOutOfTimeWaitingForAConnection(t *testing.T) {
	pool := pgtest.BoundedPool(t, 1, 0)
	s := store.New(pool)
	ctx := context.Background()
	a, b := createSession(t, s, fixture{}), createSession(t, s, fixture{})
	held, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	_, errs := s.WriteBatch(wctx, []store.Turn{turn(a, 1, 1), turn(b, 1, 1)})
	held.Release()
	for i, err := range errs {
		if !errors.Is(err, store.ErrBusy) {
			t.Errorf("turn %d with the pool's connection taken throughout: %v; want ErrBusy", i, err)
		}
	}
	for _, id := range []uuid.UUID{a, b} {
		if rows := rowsOf(t, s, id); rows["session_turns"] != 0 {
			t.Errorf("session %s rows %v; want no turn written", id, rows)
		}
	}
}

// TestBusyErrors: which failures of a statement are ErrBusy: the server
// gave up on it for other transactions (lock or statement timeout, a
// deadlock, a serialization failure) and rolled it back, so it may be sent
// again. The caller's own end, a connection's end and a statement's own
// errors are not.
func TestBusyErrors(t *testing.T) {
	canceled := &pgconn.PgError{Severity: "ERROR", SeverityUnlocalized: "ERROR", Code: "57014"}
	for _, c := range []struct {
		name string
		err  error
		want bool
	}{
		{"lock timeout", &pgconn.PgError{Severity: "ERROR", SeverityUnlocalized: "ERROR", Code: "55P03"}, true},
		{"statement timeout", canceled, true},
		{"deadlock", &pgconn.PgError{Severity: "ERROR", SeverityUnlocalized: "ERROR", Code: "40P01"}, true},
		{"serialization failure", &pgconn.PgError{Severity: "ERROR", SeverityUnlocalized: "ERROR", Code: "40001"}, true},
		{"cancelled for the caller's deadline", fmt.Errorf("%w: %w", context.DeadlineExceeded, canceled), false},
		{"cancelled for the caller", fmt.Errorf("%w: %w", context.Canceled, canceled), false},
		{"terminated", &pgconn.PgError{Severity: "FATAL", SeverityUnlocalized: "FATAL", Code: "57P01"}, false},
		{"unique violation", &pgconn.PgError{Severity: "ERROR", SeverityUnlocalized: "ERROR", Code: "23505"}, false},
		{"no rows", pgx.ErrNoRows, false},
	} {
		if got := errors.Is(store.InterpretError("op", c.err), store.ErrBusy); got != c.want {
			t.Errorf("interpretError(%s) is ErrBusy = %v; want %v", c.name, got, c.want)
		}
	}
}
