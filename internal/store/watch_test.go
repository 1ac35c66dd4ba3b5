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
	ready := make(chan struct{})
	go func() {
		close(ready)
		stopped <- s.WatchSessions(ctx, func(id uuid.UUID, v int64) { notes <- note{id, v} })
	}()
	<-ready
	id := createSession(t, s, fixture{})
	// The watch may not be listening yet: commit until it hears one.
	var got note
	version := int64(1)
	for got.id == uuid.Nil {
		v, err := s.CommitTurn(context.Background(), turn(id, version, int(version)))
		if err != nil {
			t.Fatal(err)
		}
		version = v
		select {
		case got = <-notes:
		case <-time.After(200 * time.Millisecond):
		case err := <-stopped:
			t.Fatalf("the watch stopped: %v", err)
		}
	}
	if got.id != id || got.version < 2 || got.version > version {
		t.Fatalf("heard %v v%d; committed %v up to v%d", got.id, got.version, id, version)
	}
	for len(notes) > 0 || got.version < version { // drain to the last commit
		got = <-notes
	}
	if _, err := s.CommitTurn(context.Background(), turn(id, 1, 99)); err == nil {
		t.Fatal("a stale commit went through")
	}
	version, err := plain.CommitTurn(context.Background(), turn(id, version, 100))
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
