package store

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// groupCommit sends the turns that arrive while other commits are under
// way to the database together: one round trip and one transaction for the
// group, each turn still its own compare-and-swap statement. A lone turn is
// committed at once, as it would be without grouping; under load the
// database does one commit, and wakes one connection, for many turns,
// which is most of what a small turn costs it.
//
// A turn that loses its compare-and-swap inside a group writes nothing, as
// alone. When any statement of a group fails (a reused client turn id, a
// second paused session), the group's transaction rolls back and each of
// its turns is committed again on its own, which tells each turn's error.
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
		v, err := s.commitOne(ctx, t, args)
		g.release(s)
		return v, err
	}
	q := &queuedTurn{ctx: ctx, turn: t, args: args, done: make(chan struct{})}
	g.queue = append(g.queue, q)
	if g.flushers < maxFlushers {
		g.flushers++
		go g.flush(s)
	}
	g.mu.Unlock()
	<-q.done
	return q.version, q.err
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
		s.commitGroup(group)
		for _, q := range group {
			close(q.done)
		}
	}
}

// commitGroup commits queued turns and sets each one's outcome.
func (s *Store) commitGroup(group []*queuedTurn) {
	live := group[:0:0]
	for _, q := range group {
		if q.err = q.ctx.Err(); q.err == nil {
			live = append(live, q)
		}
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
		if !isServerError(err) {
			for _, q := range live {
				q.version, q.err = 0, interpretError("commit turn "+q.turn.SessionID.String(), err)
			}
			return
		}
	}
	for i, q := range live {
		if failed {
			q.version, q.err = s.commitOne(q.ctx, q.turn, q.args)
			continue
		}
		q.version, q.err = s.commitResult(q.ctx, q.turn, q.version, errs[i])
	}
}

// groupContext returns the context a group is committed under: not
// cancelled with any one of its turns, and with the latest of their
// deadlines when each has one.
func groupContext(group []*queuedTurn) (context.Context, context.CancelFunc) {
	ctx := context.WithoutCancel(group[0].ctx)
	var latest time.Time
	for _, q := range group {
		d, ok := q.ctx.Deadline()
		if !ok {
			return context.WithCancel(ctx)
		}
		if d.After(latest) {
			latest = d
		}
	}
	return context.WithDeadline(ctx, latest)
}

// isServerError reports whether err is an error the server sent, after
// which the connection is still usable.
func isServerError(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr)
}
