package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
)

// Group commit. Turns committed at the same time by different sessions are
// sent together: up to maxBatch turns in one round trip and one
// transaction, each turn still its own commitTurnQuery with its own
// compare-and-swap. The database then pays once per batch what it paid per
// turn (the network round trip, the wake-up of its backend, the commit
// record), and so does tutord (the syscalls of the exchange).
//
// A turn waits only while maxWriters batches are being written: otherwise
// its own goroutine writes what is queued at once. The batch is atomic:
// when the server answers any of its statements with an error (a
// constraint, a deadlock with another process, a backend terminated by an
// operator), it never reached the batch's commit, so nothing of it was
// written, and its turns are written again one by one, each getting its
// own outcome. So they are when the batch takes more than half the time it
// may (maxWrite; a row lock held elsewhere): it is cancelled on the server,
// which answers that it rolled back (see finish), and the lone commits of
// the other sessions' turns go through. A batch that met a dead connection
// (the database restarted: see lost) is sent once more on a fresh one.
// Only when what became of a batch is unknown (the connection broke after
// the batch was sent, or while the commit's result was read; the server
// did not answer a cancel) does each of its turns get the error.
const (
	maxBatch   = 32
	maxWriters = 2                // batches in flight at once
	maxWrite   = 30 * time.Second // how long a batch may take
	maxAlone   = 4                // lone commits of a batch's turns at once
)

type committer struct {
	writeBatch func(ctx context.Context, batch []*pendingTurn) // sets the outcome of each turn
	mu         sync.Mutex
	queue      []*pendingTurn
	writers    int // goroutines writing batches
}

type pendingTurn struct {
	turn    Turn
	done    chan struct{} // closed when version and err are set
	version int64
	err     error
}

// commit queues t, makes sure a writer will take it, and waits for the
// outcome. When fewer than maxWriters batches are being written, the
// caller writes the batch itself, saving a hand-over to another goroutine
// and back. When ctx ends before a writer took the turn, the turn is not
// written and commit returns ctx's error; once taken, the turn's outcome
// is returned whatever ctx does.
func (c *committer) commit(ctx context.Context, t Turn) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	p := &pendingTurn{turn: t, done: make(chan struct{})}
	c.mu.Lock()
	c.queue = append(c.queue, p)
	lead := c.writers < maxWriters
	if lead {
		c.writers++
	}
	c.mu.Unlock()
	if lead {
		c.write(p)
		<-p.done // another writer may have taken p into a batch it is writing
		return p.version, p.err
	}
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

// write writes batches until the queue is empty. Called by the committer
// of mine, it stops sooner when mine is written, leaving what remains
// queued to a goroutine.
func (c *committer) write(mine *pendingTurn) {
	for {
		c.mu.Lock()
		n := min(len(c.queue), maxBatch)
		if n == 0 {
			c.writers--
			c.mu.Unlock()
			return
		}
		if mine != nil && mine.written() {
			go c.write(nil)
			c.mu.Unlock()
			return
		}
		batch := slices.Clone(c.queue[:n])
		c.queue = slices.Delete(c.queue, 0, n) // clears the tail: no finished turn stays referenced
		c.mu.Unlock()

		ctx, cancel := context.WithTimeout(context.Background(), maxWrite)
		c.writeBatch(ctx, batch)
		cancel()
		for _, p := range batch {
			close(p.done)
		}
		if slices.ContainsFunc(batch, func(p *pendingTurn) bool { return errors.Is(p.err, errNoConnection) }) {
			c.shed()
		}
	}
}

// shed fails every queued turn with ErrBusy, after a batch got no
// connection within the pool's bound (BoundAcquire): the turns queued
// meanwhile waited for the same connections, and another batch would make
// them wait the bound again, past the time a request may wait.
func (c *committer) shed() {
	c.mu.Lock()
	queued := c.queue
	c.queue = nil
	c.mu.Unlock()
	for _, p := range queued {
		p.err = fmt.Errorf("commit turn %s: %w", p.turn.SessionID, errNoConnection)
		close(p.done)
	}
}

// written reports whether p's outcome is set.
func (p *pendingTurn) written() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// writeBatch commits the turns of batch and sets their outcomes.
func (s *Store) writeBatch(ctx context.Context, batch []*pendingTurn) {
	queued := make([]*pendingTurn, 0, len(batch))
	args := make([][]any, 0, len(batch))
	for _, p := range batch {
		a, err := s.commitArgs(p.turn)
		if err != nil {
			p.err = err
			continue
		}
		queued = append(queued, p)
		args = append(args, a)
	}
	if len(queued) == 0 {
		return
	}
	versions := make([]int64, len(queued)) // 0: the compare-and-swap was lost
	failure := s.sendCommits(ctx, args, versions)
	if notCommitted(failure) && s.lost(ctx, failure) {
		clear(versions)
		failure = s.sendCommits(ctx, args, versions)
	}
	switch {
	case failure == nil:
		for i, p := range queued {
			var err error
			if versions[i] == 0 {
				err = pgx.ErrNoRows
			}
			p.version, p.err = s.commitResult(ctx, p.turn, versions[i], err)
		}
	case errors.Is(failure, ErrBusy) || errors.Is(failure, ErrUnavailable):
		// No connection came free within the bound (or the batch's time),
		// or none could be opened: nothing was sent, and each turn on its
		// own would wait for the same again.
		for _, p := range queued {
			p.version, p.err = 0, fmt.Errorf("commit turn %s: %w", p.turn.SessionID, failure)
		}
	case len(queued) == 1 && refusedAlone(failure):
		p := queued[0]
		p.version, p.err = s.commitResult(ctx, p.turn, 0, failure)
	case notCommitted(failure):
		// Nothing of the batch was written. Each turn on its own, for
		// its own outcome.
		s.commitEach(ctx, queued)
	default:
		// What became of the batch is unknown: each turn gets the error,
		// as a lone commit would.
		for _, p := range queued {
			p.version, p.err = 0, interpretError("commit turn "+p.turn.SessionID.String(), failure)
		}
	}
}

// commitEach commits each turn of batch on its own, maxAlone at a time:
// a turn that waits for a row lock keeps none of the others waiting.
func (s *Store) commitEach(ctx context.Context, batch []*pendingTurn) {
	var wg sync.WaitGroup
	slots := make(chan struct{}, maxAlone)
	for _, p := range batch {
		slots <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			p.version, p.err = s.commitOne(ctx, p.turn)
			p.err = outOfTime(ctx, p.err)
		}()
	}
	wg.Wait()
}

// commitStatement is the name commitTurnQuery is prepared under on each
// connection that writes batches.
const commitStatement = "tutord_commit_turn"

// sendCommits runs commitTurnQuery once per argument list, in one round
// trip and one transaction, and sets versions[i] to the version statement
// i returned (0 when its compare-and-swap was lost). It returns the first
// error: unsent when the batch's end never went out, rolledBack when the
// server answered a statement (or the commit) with an error, or a failure
// of the connection after the batch was sent, whose outcome is unknown.
// The batch may take half the time left: the server then cancels it (see
// finish), leaving the other half to the lone commits of its turns.
//
// It drives the connection below pgx: a turn's state and trace are
// kilobytes, and pgx would copy each argument into a buffer of its own
// before copying it into the message. Here the json arguments go into the
// message as they are, and only the small ones are encoded (by pgx's type
// map, in the formats pgx would choose). The whole batch goes to the socket
// in one write with its end: a write per turn cost a system call on each
// side and a wake-up of the server for each turn. The price is pgx's
// message buffer, which grows to hold the batch (and is let go after the
// write).
func (s *Store) sendCommits(ctx context.Context, args [][]any, versions []int64) error {
	if end, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, time.Now().Add(time.Until(end)/2))
		defer cancel()
	}
	connected := false
	err := s.finish(ctx, func(ctx context.Context, c *pgx.Conn) error {
		connected = true
		return pipeCommits(ctx, c, args, versions)
	})
	if !connected { // unsent (see finish)
		return outOfTime(ctx, err)
	}
	return err
}

// outOfTime returns err, the failure of a batch or of a lone commit of its
// turn, as ErrBusy when the batch's time ran out while nothing of it was
// written: no connection came free, or the server cancelled the statement
// and said so (57014), rolling it back (see finish). The batch's time is
// the committer's (maxWrite), never a caller's: its end is the database's
// slowness, which the caller may wait out and send the turn again. A turn
// whose fate the end left unknown keeps its error.
func outOfTime(ctx context.Context, err error) error {
	var pgErr *pgconn.PgError
	var u unsent
	switch {
	case !errors.Is(err, context.DeadlineExceeded) || ctx.Err() == nil || errors.Is(err, ErrBusy):
		return err
	case errors.As(err, &u):
		return fmt.Errorf("%w: %w", errNoConnection, err)
	case errors.As(err, &pgErr) && pgErr.Code == "57014":
		return fmt.Errorf("%w: %w", errContended, err)
	}
	return err
}

// pipeCommits is sendCommits on c.
func pipeCommits(ctx context.Context, c *pgx.Conn, args [][]any, versions []int64) error {
	sd, err := c.Prepare(ctx, commitStatement, commitTurnQuery)
	if err != nil {
		return unsent{err}
	}
	types := c.TypeMap()
	values := make([][]byte, len(sd.ParamOIDs))
	formats := make([]int16, len(sd.ParamOIDs))
	// The encoded small arguments of one statement. Not nil: an empty value
	// encoded into a nil buffer would come back nil, which is NULL.
	scratch := make([]byte, 0, 256)
	pipe := c.PgConn().StartPipeline(ctx)
	defer pipe.Close()
	for _, a := range args {
		if len(a) != len(sd.ParamOIDs) {
			return unsent{fmt.Errorf("commit turn: %d arguments for %d parameters", len(a), len(sd.ParamOIDs))}
		}
		scratch = scratch[:0]
		for i, arg := range a {
			oid := sd.ParamOIDs[i]
			if doc, ok := arg.([]byte); ok && oid == pgtype.JSONOID {
				values[i], formats[i] = doc, pgtype.TextFormatCode
				continue
			}
			formats[i] = types.FormatCodeForOID(oid)
			switch arg.(type) {
			case string, *string: // as pgx sends them
				formats[i] = pgtype.TextFormatCode
			}
			start := len(scratch)
			out, err := types.Encode(oid, formats[i], arg, scratch)
			if err != nil {
				return unsent{fmt.Errorf("commit turn: argument %d: %w", i+1, err)}
			}
			if out == nil { // NULL
				values[i] = nil
				continue
			}
			scratch = out
			values[i] = scratch[start:len(scratch):len(scratch)]
		}
		pipe.SendQueryStatement(sd, values, formats, nil)
	}
	if err := pipe.Sync(); err != nil { // sends the batch with its end
		// The write failed before its last bytes, the end of the batch,
		// went out: the server commits none of it.
		return unsent{err}
	}
	// The server sends each statement's result before it commits, at the
	// batch's end: its error (ERROR or FATAL) in place of a result proves
	// that it never committed.
	for i := range versions {
		res, err := pipe.GetResults()
		if err != nil {
			return serverSaid(err, true)
		}
		r, ok := res.(*pgconn.ResultReader)
		if !ok {
			return fmt.Errorf("commit turn: unexpected result %T", res)
		}
		for r.NextRow() {
			if versions[i], err = strconv.ParseInt(string(r.Values()[0]), 10, 64); err != nil {
				return fmt.Errorf("commit turn: version: %w", err)
			}
		}
		if _, err := r.Close(); err != nil {
			return serverSaid(err, true)
		}
	}
	if _, err := pipe.GetResults(); err != nil { // the commit's result
		return serverSaid(err, false)
	}
	return pipe.Close()
}

// serverSaid returns err, an error read in place of a result, as
// rolledBack when it is the server's and proves the batch rolled back:
// any of its errors before the commit, only an ERROR in place of the
// commit's result (a FATAL there may follow the commit).
func serverSaid(err error, beforeCommit bool) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && (beforeCommit || !fatal(pgErr)) {
		return rolledBack{err}
	}
	return err
}

// rolledBack is the server's error that ended a batch before its commit:
// nothing of the batch was written.
type rolledBack struct{ error }

func (e rolledBack) Unwrap() error { return e.error }

// notCommitted reports whether err, the failure of a batch, proves that
// nothing of it was written.
func notCommitted(err error) bool {
	var r rolledBack
	return err != nil && (pgconn.SafeToRetry(err) || errors.As(err, &r))
}

// refusedAlone reports whether err is the server's refusal of a lone turn's
// statement for the turn's own sake (a constraint): not its backend's end,
// nor a cancel.
func refusedAlone(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && !fatal(pgErr) && pgErr.Code != "57014"
}

// unsent is an error that stopped a batch before its end was sent: the
// server commits nothing of a batch without it (the connection is closed
// instead), so each turn may be written again on its own.
type unsent struct{ error }

func (e unsent) SafeToRetry() bool { return true }
func (e unsent) Unwrap() error     { return e.error }
