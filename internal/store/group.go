package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// groupCommit sends the turns that arrive while other commits are under
// way to the database together: one round trip and one transaction for the
// group, each turn still its own compare-and-swap statement. A lone turn is
// committed at once, as it would be without grouping; under load the
// database does one commit, and wakes one connection, for many turns,
// which is most of what a small turn costs it.
//
// A turn that loses its compare-and-swap inside a group writes nothing, as
// alone. When a group fails (a statement fails, such as for a reused
// client turn id or a second paused session; the connection breaks; the
// group runs out of time), its transaction rolls back and each of its
// turns is committed again on its own, which tells each turn's error.
//
// Grouping must not make a turn wait on others: a queued turn whose
// caller gives up leaves the queue, and one that has waited maxQueueWait
// (the commits under way are held up, say by a lock on their sessions) is
// committed on its own.
type groupCommit struct {
	mu       sync.Mutex
	queue    []*queuedTurn
	flushers int // commits under way: turns committed alone, and flush loops
}

const (
	// maxFlushers is how many commits may be under way at once before
	// turns queue up for a group. Fewer leave the database idle between
	// round trips (at 2, the store's own benchmark at 8 sessions lost a
	// tenth of its rate); more leave little to group (at 8, the server's
	// saturation rate was about what it is without grouping).
	maxFlushers = 4
	maxGroup    = 32 // turns in one group
	// maxQueueWait is how long a turn waits for a group before it is
	// committed on its own; groups take milliseconds.
	maxQueueWait = 100 * time.Millisecond
	// groupTimeout bounds a group, so that a lock on one of its sessions
	// holds up the others for at most that long (they are then committed
	// on their own).
	groupTimeout = 10 * time.Second
)

type queuedTurn struct {
	ctx     context.Context
	turn    Turn
	args    []any
	version int64
	err     error
	done    chan struct{}
}

func (g *groupCommit) commit(ctx context.Context, s *Store, t Turn, args []any) (int64, error) {
	g.mu.Lock()
	if g.flushers < maxFlushers && len(g.queue) == 0 {
		g.flushers++
		g.mu.Unlock()
		defer g.release(s)
		return s.commitOne(ctx, t, args)
	}
	q := &queuedTurn{ctx: ctx, turn: t, args: args, done: make(chan struct{})}
	g.queue = append(g.queue, q)
	if g.flushers < maxFlushers {
		g.flushers++
		go g.flush(s)
	}
	g.mu.Unlock()
	wait := time.NewTimer(maxQueueWait)
	defer wait.Stop()
	select {
	case <-q.done:
		return q.version, q.err
	case <-ctx.Done():
		if g.unqueue(q) {
			return 0, fmt.Errorf("commit turn %s: %w", t.SessionID, ctx.Err())
		}
	case <-wait.C:
		if g.unqueue(q) {
			return s.commitOne(ctx, t, args)
		}
	}
	<-q.done // taken into a group meanwhile
	return q.version, q.err
}

// unqueue takes q out of the queue and reports whether it was still there.
func (g *groupCommit) unqueue(q *queuedTurn) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	i := slices.Index(g.queue, q)
	if i < 0 {
		return false
	}
	g.queue = slices.Delete(g.queue, i, i+1)
	return true
}

// release ends a commit made alone; turns queued meanwhile get a flush
// loop in its place.
func (g *groupCommit) release(s *Store) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.queue) > 0 {
		go g.flush(s)
		return
	}
	g.flushers--
}

// flush commits the queued turns, a group at a time, until none is left.
func (g *groupCommit) flush(s *Store) {
	for {
		g.mu.Lock()
		n := min(len(g.queue), maxGroup)
		if n == 0 {
			g.flushers--
			g.mu.Unlock()
			return
		}
		group := slices.Clone(g.queue[:n])
		g.queue = slices.Delete(g.queue, 0, n)
		g.mu.Unlock()
		s.commitGroupSafely(group)
		for _, q := range group {
			close(q.done)
		}
	}
}

// commitGroupSafely is commitGroup on a goroutine of its own: a panic
// fails the group's turns that have no outcome yet rather than the
// process.
func (s *Store) commitGroupSafely(group []*queuedTurn) {
	defer func() {
		if p := recover(); p != nil {
			for _, q := range group {
				if q.err == nil && q.version == 0 {
					q.err = fmt.Errorf("commit turn %s: internal error: %v", q.turn.SessionID, p)
				}
			}
		}
	}()
	s.commitGroup(group)
}

// commitGroup commits queued turns and sets each one's outcome.
func (s *Store) commitGroup(group []*queuedTurn) {
	live := group[:0:0]
	for _, q := range group {
		if err := q.ctx.Err(); err != nil {
			q.err = fmt.Errorf("commit turn %s: %w", q.turn.SessionID, err)
			continue
		}
		live = append(live, q)
	}
	if len(live) == 1 {
		q := live[0]
		q.version, q.err = s.commitOne(q.ctx, q.turn, q.args)
		return
	}
	if len(live) == 0 {
		return
	}
	// The same order of sessions in every group, so that two groups (of
	// two processes) updating the same sessions cannot deadlock; turns of
	// one session keep their order.
	slices.SortStableFunc(live, func(a, b *queuedTurn) int {
		return bytes.Compare(a.turn.SessionID[:], b.turn.SessionID[:])
	})
	ctx, cancel := groupContext(live)
	defer cancel()
	var batch pgx.Batch
	for _, q := range live {
		batch.Queue(commitTurnSQL, q.args...)
	}
	br := s.pool.SendBatch(ctx, &batch)
	errs := make([]error, len(live))
	failed := false
	for i, q := range live {
		errs[i] = br.QueryRow().Scan(&q.version, nil)
		if errs[i] != nil && !errors.Is(errs[i], pgx.ErrNoRows) {
			failed = true
		}
	}
	if err := br.Close(); err != nil {
		failed = true
	}
	for i, q := range live {
		if failed {
			// The group's transaction rolled back: each turn on its own,
			// under its own context. (After a broken connection it may
			// have committed; the compare-and-swap then finds each of its
			// turns stale.)
			q.version, q.err = s.commitOne(q.ctx, q.turn, q.args)
			continue
		}
		q.version, q.err = s.commitResult(q.ctx, q.turn, q.version, errs[i])
	}
}

// groupContext returns the context a group is committed under: not
// cancelled with any one of its turns, with the latest of their deadlines,
// and at most groupTimeout long.
func groupContext(group []*queuedTurn) (context.Context, context.CancelFunc) {
	limit := time.Now().Add(groupTimeout)
	var latest time.Time
	for _, q := range group {
		d, ok := q.ctx.Deadline()
		if !ok || d.After(limit) {
			latest = limit
			break
		}
		if d.After(latest) {
			latest = d
		}
	}
	return context.WithDeadline(context.WithoutCancel(group[0].ctx), latest)
}
