package store

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Group commit. Turns committed at the same time by different sessions are
// sent together: up to maxBatch turns in one round trip and one
// transaction, each turn still its own commitTurnQuery with its own
// compare-and-swap. The database then pays once per batch what it paid per
// turn (the network round trip, the wake-up of its backend, the commit
// record), and so does tutord (the syscalls of the exchange).
//
// A turn waits only while maxWriters batches are being written: otherwise
// it is written at once, with whatever else is queued. The batch is
// atomic: when the server refuses any of its statements (a constraint, a
// deadlock with another process), nothing of it was written, and its turns
// are written again one by one, each getting its own outcome. When what
// became of a batch is unknown (the connection broke), each of its turns
// gets the error.
const (
	maxBatch   = 32
	maxWriters = 2                // batches in flight at once
	maxWrite   = 30 * time.Second // how long a batch may take
)

type committer struct {
	s       *Store
	mu      sync.Mutex
	queue   []*pendingTurn
	writers int // goroutines writing batches
}

type pendingTurn struct {
	turn    Turn
	done    chan struct{} // closed when version and err are set
	version int64
	err     error
}

// commit queues t, makes sure a writer will take it, and waits for the
// outcome. When ctx ends before a writer took the turn, the turn is not
// written and commit returns ctx's error; once taken, the turn's outcome
// is returned whatever ctx does.
func (c *committer) commit(ctx context.Context, t Turn) (int64, error) {
	p := &pendingTurn{turn: t, done: make(chan struct{})}
	c.mu.Lock()
	c.queue = append(c.queue, p)
	if c.writers < maxWriters {
		c.writers++
		go c.write()
	}
	c.mu.Unlock()
	select {
	case <-p.done:
		return p.version, p.err
	case <-ctx.Done():
	}
	c.mu.Lock()
	for i, q := range c.queue {
		if q == p {
			c.queue = slices.Delete(c.queue, i, i+1)
			c.mu.Unlock()
			return 0, ctx.Err()
		}
	}
	c.mu.Unlock()
	<-p.done
	return p.version, p.err
}

// write writes batches until the queue is empty.
func (c *committer) write() {
	for {
		c.mu.Lock()
		n := min(len(c.queue), maxBatch)
		if n == 0 {
			c.writers--
			c.mu.Unlock()
			return
		}
		batch := slices.Clone(c.queue[:n])
		c.queue = slices.Delete(c.queue, 0, n) // clears the tail: no finished turn stays referenced
		c.mu.Unlock()

		ctx, cancel := context.WithTimeout(context.Background(), maxWrite)
		c.s.writeBatch(ctx, batch)
		cancel()
		for _, p := range batch {
			close(p.done)
		}
	}
}

// writeBatch commits the turns of batch and sets their outcomes.
func (s *Store) writeBatch(ctx context.Context, batch []*pendingTurn) {
	if len(batch) == 1 {
		p := batch[0]
		p.version, p.err = s.commitOne(ctx, p.turn)
		return
	}
	b := &pgx.Batch{}
	queued := make([]*pendingTurn, 0, len(batch))
	for _, p := range batch {
		args, err := s.commitArgs(p.turn)
		if err != nil {
			p.err = err
			continue
		}
		b.Queue(commitTurnQuery, args...)
		queued = append(queued, p)
	}
	if len(queued) == 0 {
		return
	}
	results := make([]error, len(queued))
	var failure error // the first error other than a lost compare-and-swap
	br := s.pool.SendBatch(ctx, b)
	for i, p := range queued {
		results[i] = br.QueryRow().Scan(&p.version, nil)
		if results[i] != nil && !errors.Is(results[i], pgx.ErrNoRows) && failure == nil {
			failure = results[i]
		}
	}
	if err := br.Close(); err != nil && failure == nil {
		failure = err
	}
	var refused *pgconn.PgError
	switch {
	case failure == nil:
		for i, p := range queued {
			p.version, p.err = s.commitResult(ctx, p.turn, p.version, results[i])
		}
	case errors.As(failure, &refused) && refused.Severity == "ERROR", pgconn.SafeToRetry(failure):
		// The server refused a statement, so it rolled the batch's
		// transaction back, or the batch was never sent: nothing of it
		// was written. Each turn on its own, for its own outcome. (A
		// FATAL error, the backend shut down, can come after the commit.)
		for _, p := range queued {
			p.version, p.err = s.commitOne(ctx, p.turn)
		}
	default:
		// What became of the batch is unknown (the connection broke, the
		// time ran out): each turn gets the error, as a lone commit would.
		for _, p := range queued {
			p.version, p.err = 0, interpretError("commit turn "+p.turn.SessionID.String(), failure)
		}
	}
}
