package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tutord/tutord/internal/store"
)

// A store made with Announce announces every committed change to
// watchers, with the new version; a lost compare-and-swap announces
// nothing, nor does a store made without it.
func TestWatchSessions(t *testing.T) {
	plain := setup(t)
	s := store.New(plain.Pool(), store.Announce())
	ctx, cancel := context.WithCancel(context.Background())
	type note struct {
		id      uuid.UUID
		version int64
	}
	notes := make(chan note, 10)
	stopped := make(chan error, 1)
	listening := make(chan struct{})
	go func() {
		stopped <- s.WatchSessions(ctx, func() { close(listening) }, func(id uuid.UUID, v int64) { notes <- note{id, v} })
	}()
	select {
	case <-listening: // from now on no change is missed
	case err := <-stopped:
		t.Fatalf("the watch stopped: %v", err)
	}
	id := createSession(t, s, fixture{})
	version, err := s.CommitTurn(context.Background(), turn(id, 1, 1))
	if err != nil {
		t.Fatal(err)
	}
	var got note
	select {
	case got = <-notes:
	case <-time.After(5 * time.Second):
		t.Fatal("the first change after the watch listened was not heard")
	}
	if got.id != id || got.version != version {
		t.Fatalf("heard %v v%d; committed %v v%d", got.id, got.version, id, version)
	}
	if _, err := s.CommitTurn(context.Background(), turn(id, 1, 99)); err == nil {
		t.Fatal("a stale commit went through")
	}
	version, err = plain.CommitTurn(context.Background(), turn(id, version, 100))
	if err != nil {
		t.Fatal(err)
	}
	// Notifications arrive in commit order: the next one heard is this.
	v, err := s.CommitTurn(context.Background(), turn(id, version, 101))
	if err != nil {
		t.Fatal(err)
	}
	select {
	case got = <-notes:
		if got.id != id || got.version != v {
			t.Fatalf("heard %v v%d after a stale and an unannounced commit; want %v v%d", got.id, got.version, id, v)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no notification of the commit")
	}
	cancel()
	if err := <-stopped; !errors.Is(err, context.Canceled) {
		t.Fatalf("the watch ended with %v; want context.Canceled", err)
	}
}

// TestWatchHearsDeletions: a learner's deletion and the purge of anonymous
// sessions announce each deleted session with SessionDeleted, so that no
// process keeps a copy to run turns on; a store made without Announce
// announces nothing.
func TestWatchHearsDeletions(t *testing.T) {
	plain := setup(t)
	s := store.New(plain.Pool(), store.Announce())
	ctx, cancel := context.WithCancel(context.Background())
	notes := make(chan [2]any, 20)
	stopped := make(chan error, 1)
	go func() { stopped <- s.WatchSessions(ctx, nil, func(id uuid.UUID, v int64) { notes <- [2]any{id, v} }) }()
	t.Cleanup(func() { cancel(); <-stopped })
	// The watch may not be listening yet: commit until it hears one.
	probe := createSession(t, s, fixture{})
	for v := int64(1); ; {
		var err error
		if v, err = s.CommitTurn(context.Background(), turn(probe, v, int(v))); err != nil {
			t.Fatal(err)
		}
		select {
		case <-notes:
		case <-time.After(200 * time.Millisecond):
			continue
		}
		break
	}
	heard := func(want ...uuid.UUID) {
		t.Helper()
		got := map[uuid.UUID]bool{}
		for len(got) < len(want) {
			select {
			case n := <-notes:
				if n[1] != store.SessionDeleted {
					t.Fatalf("heard %v v%v; want deletions", n[0], n[1])
				}
				got[n[0].(uuid.UUID)] = true
			case <-time.After(5 * time.Second):
				t.Fatalf("heard %v deleted; want %v", got, want)
			}
		}
		for _, id := range want {
			if !got[id] {
				t.Fatalf("heard %v deleted; want %v", got, want)
			}
		}
	}

	l, err := s.EnsureLearner(ctx, "sub-"+uuid.NewString())
	if err != nil {
		t.Fatal(err)
	}
	first, second := createSession(t, s, fixture{learner: l.ID}), createSession(t, s, fixture{learner: l.ID})
	if _, err := s.DeleteLearner(ctx, l.ExternalID); err != nil {
		t.Fatal(err)
	}
	heard(first, second)

	old := createSession(t, s, fixture{})
	if _, err := s.Pool().Exec(ctx, `UPDATE sessions SET updated_at = now() - interval '40 days' WHERE id = $1`, old); err != nil {
		t.Fatal(err)
	}
	if n, err := s.PurgeAnonymous(ctx, time.Now().AddDate(0, 0, -30)); err != nil || n < 1 {
		t.Fatalf("purged %d, %v", n, err)
	}
	heard(old)

	gone := createSession(t, plain, fixture{learner: newLearner(t, plain)})
	if _, err := plain.Pool().Exec(ctx, `UPDATE sessions SET updated_at = now() - interval '40 days', learner_id = NULL WHERE id = $1`, gone); err != nil {
		t.Fatal(err)
	}
	if _, err := plain.PurgeAnonymous(ctx, time.Now().AddDate(0, 0, -30)); err != nil {
		t.Fatal(err)
	}
	select {
	case n := <-notes:
		t.Fatalf("a store without Announce announced %v v%v", n[0], n[1])
	case <-time.After(300 * time.Millisecond):
	}
}
