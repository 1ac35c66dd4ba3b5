package store

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
	"time"
)

// TestCommitWaitsForItsOwnBatch: however the writers share out the queue
// (a committer may find its turn taken into another's batch), a commit
// returns only once its turn is written, with that turn's outcome.
func TestCommitWaitsForItsOwnBatch(t *testing.T) {
	c := &committer{writeBatch: func(_ context.Context, batch []*pendingTurn) {
		if rand.IntN(4) == 0 {
			runtime.Gosched() // a slower write now and then
		}
		for _, p := range batch {
			p.version = p.turn.Version + 1
		}
	}}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 5000 {
				want := int64(g*10000 + i)
				v, err := c.commit(context.Background(), Turn{Version: want})
				if err != nil || v != want+1 {
					t.Errorf("commit of version %d: %d, %v; want %d", want, v, err, want+1)
					return
				}
			}
		})
	}
	wg.Wait()
	waitFor(t, func() bool { return c.writers == 0 && len(c.queue) == 0 }, c)
}

// TestCommitCancelledWhileQueued: a turn whose context ends while every
// writer is busy leaves the queue unwritten and reports the context's end.
func TestCommitCancelledWhileQueued(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	var mu sync.Mutex
	var written []int64
	c := &committer{writeBatch: func(_ context.Context, batch []*pendingTurn) {
		entered <- struct{}{}
		<-release
		mu.Lock()
		defer mu.Unlock()
		for _, p := range batch {
			written = append(written, p.turn.Version)
			p.version = p.turn.Version + 1
		}
	}}
	var wg sync.WaitGroup
	for i := range maxWriters {
		wg.Go(func() {
			if _, err := c.commit(context.Background(), Turn{Version: int64(100 + i)}); err != nil {
				t.Error(err)
			}
		})
		<-entered // writer i is busy
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := c.commit(ctx, Turn{Version: 7}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("queued turn whose context ended: %v; want the deadline", err)
	}
	close(release)
	wg.Wait()
	waitFor(t, func() bool { return c.writers == 0 }, c)
	for _, v := range written {
		if v == 7 {
			t.Errorf("the cancelled turn was written (%v)", written)
		}
	}
	if len(written) != maxWriters {
		t.Errorf("written %v; want the %d busy writers' turns", written, maxWriters)
	}
}

// waitFor waits a second at most for cond, checked under c's lock: a
// writer that handed the queue over may still be stopping.
func waitFor(t *testing.T, cond func() bool, c *committer) {
	t.Helper()
	for range 1000 {
		c.mu.Lock()
		ok := cond()
		c.mu.Unlock()
		if ok {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Errorf("committer still busy: %d writers, %d queued", c.writers, len(c.queue))
}
