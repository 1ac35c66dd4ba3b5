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

	"github.com/tutord/tutord/internal/store"
)

// A group commits each of its turns as that turn alone would have been
// committed: a stale one, a missing session and a second turn of the same
// session write nothing and get their own errors, the others commit.
func TestCommitGroupOutcomesPerTurn(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	a := createSession(t, s, fixture{})
	b := createSession(t, s, fixture{})
	stale := createSession(t, s, fixture{})
	if _, err := s.CommitTurn(ctx, turn(stale, 1, 1)); err != nil {
		t.Fatal(err)
	}
	missing := uuid.New()

	versions, errs := s.CommitGroup(ctx, []store.Turn{
		turn(a, 1, 1), turn(stale, 1, 2), turn(missing, 1, 1), turn(b, 1, 1), turn(a, 1, 2),
	})
	if errs[0] != nil || versions[0] != 2 || errs[3] != nil || versions[3] != 2 {
		t.Fatalf("fresh turns: versions %v, errors %v", versions, errs)
	}
	var staleErr *store.StaleStateError
	if !errors.As(errs[1], &staleErr) || staleErr.Version != 2 {
		t.Fatalf("stale turn: %v", errs[1])
	}
	if !errors.Is(errs[2], store.ErrNotFound) {
		t.Fatalf("missing session: %v, want ErrNotFound", errs[2])
	}
	if !errors.As(errs[4], &staleErr) {
		t.Fatalf("second turn of a session in one group: %v, want stale", errs[4])
	}
	wantMessages(t, s, a, "Welcome!", "answer 1", "reply 1")
	wantMessages(t, s, b, "Welcome!", "answer 1", "reply 1")
	wantMessages(t, s, stale, "Welcome!", "answer 1", "reply 1")
	for _, id := range []uuid.UUID{a, b} {
		logs, err := s.ListAgentLogs(ctx, id, store.LogFilter{})
		if err != nil || len(logs) != 2 || logs[0].TurnID != "turn_1" {
			t.Fatalf("agent logs of %s: %+v, %v", id, logs, err)
		}
	}
}

// When one turn of a group fails (here a reused client turn id), the
// group's transaction rolls back and each turn is committed on its own:
// the others still commit, once, and the failing one gets its error.
func TestCommitGroupFailureFallsBackToSingleCommits(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	a := createSession(t, s, fixture{})
	b := createSession(t, s, fixture{})
	first := turn(b, 1, 1)
	first.ClientTurnID = "t-1"
	if _, err := s.CommitTurn(ctx, first); err != nil {
		t.Fatal(err)
	}
	reused := turn(b, 2, 2)
	reused.ClientTurnID = "t-1"

	versions, errs := s.CommitGroup(ctx, []store.Turn{turn(a, 1, 1), reused})
	if errs[0] != nil || versions[0] != 2 {
		t.Fatalf("the other turn: version %d, %v", versions[0], errs[0])
	}
	if !errors.Is(errs[1], store.ErrDuplicateTurn) {
		t.Fatalf("reused client turn id: %v, want ErrDuplicateTurn", errs[1])
	}
	wantMessages(t, s, a, "Welcome!", "answer 1", "reply 1")
	wantMessages(t, s, b, "Welcome!", "answer 1", "reply 1")
}

// A turn whose caller has gone before its group is sent writes nothing.
func TestCommitGroupSkipsCancelledTurns(t *testing.T) {
	s := setup(t)
	a := createSession(t, s, fixture{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, errs := s.CommitGroup(ctx, []store.Turn{turn(a, 1, 1), turn(a, 1, 1)})
	if !errors.Is(errs[0], context.Canceled) || !errors.Is(errs[1], context.Canceled) {
		t.Fatalf("errors %v, want context.Canceled", errs)
	}
	wantMessages(t, s, a, "Welcome!")
}

// Many sessions committing at once (so that turns queue up and go in
// groups): every turn commits once, in order, with its messages numbered
// after the session's last one.
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

func wantMessages(t *testing.T, s *store.Store, id uuid.UUID, want ...string) {
	t.Helper()
	msgs, err := s.ListMessages(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i, m := range msgs {
		if m.Seq != i+1 {
			t.Fatalf("session %s: message %d has seq %d", id, i+1, m.Seq)
		}
		got = append(got, m.Content)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("session %s: messages %q, want %q", id, got, want)
	}
}

// Turns that queue behind commits held up by locks on their sessions do
// not wait for them: one is committed on its own, one whose caller gives
// up leaves the queue and writes nothing.
func TestCommitTurnNotHeldUpByBlockedCommits(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	blocked := make([]uuid.UUID, store.MaxFlushers)
	txs := make([]pgx.Tx, len(blocked))
	for i := range blocked {
		blocked[i] = createSession(t, s, fixture{})
		tx, err := s.Pool().Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback(ctx)
		if _, err := tx.Exec(ctx, `SELECT 1 FROM sessions WHERE id = $1 FOR UPDATE`, blocked[i]); err != nil {
			t.Fatal(err)
		}
		txs[i] = tx
	}
	var wg sync.WaitGroup
	errc := make(chan error, len(blocked))
	for _, id := range blocked {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.CommitTurn(ctx, turn(id, 1, 1))
			errc <- err
		}()
	}
	// Wait until every one of them waits on its lock.
	for waiting, tries := 0, 0; waiting < len(blocked); tries++ {
		if tries == 1000 {
			t.Fatalf("%d of %d commits wait on their locks", waiting, len(blocked))
		}
		time.Sleep(5 * time.Millisecond)
		if err := s.Pool().QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%WITH upd AS%'`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
	}

	free := createSession(t, s, fixture{})
	tctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if v, err := s.CommitTurn(tctx, turn(free, 1, 1)); err != nil || v != 2 {
		t.Fatalf("a turn behind blocked commits: %d, %v", v, err)
	}
	gone := createSession(t, s, fixture{})
	gctx, gcancel := context.WithTimeout(ctx, time.Millisecond)
	defer gcancel()
	if _, err := s.CommitTurn(gctx, turn(gone, 1, 1)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a queued turn whose caller gave up: %v, want context.DeadlineExceeded", err)
	}

	for _, tx := range txs {
		if err := tx.Rollback(ctx); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		if err != nil {
			t.Fatalf("a blocked turn, once its lock is gone: %v", err)
		}
	}
	wantMessages(t, s, free, "Welcome!", "answer 1", "reply 1")
	wantMessages(t, s, gone, "Welcome!")
}

// A turn the driver cannot even send (a value out of its column's range)
// fails on its own; the rest of its group commits.
func TestCommitGroupUnsendableTurn(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	a := createSession(t, s, fixture{})
	b := createSession(t, s, fixture{})
	bad := turn(b, 1, 1)
	bad.Summary.TurnCount = 1 << 40
	versions, errs := s.CommitGroup(ctx, []store.Turn{turn(a, 1, 1), bad})
	if errs[0] != nil || versions[0] != 2 {
		t.Fatalf("the sendable turn: %d, %v", versions[0], errs[0])
	}
	if errs[1] == nil {
		t.Fatal("the unsendable turn committed")
	}
	wantMessages(t, s, a, "Welcome!", "answer 1", "reply 1")
	wantMessages(t, s, b, "Welcome!")
}
