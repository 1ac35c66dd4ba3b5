package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Dead connections. When PostgreSQL restarts or fails over, or an operator
// terminates backends, every idle connection of the pool is dead, and
// pgxpool hands them out all the same: it pings only connections idle for
// more than a second, which on a busy server is none (and a ping per
// statement would cost a round trip each). The store tells a dead
// connection by the failure of the statement that used it (lost): the
// statement could not be sent (pgconn.SafeToRetry: the socket was closed),
// or the server sent a FATAL error of class 57, operator intervention
// (57P01 shutdown or pg_terminate_backend, 57P02 crash, 57P05 idle-session
// timeout...), before closing it. The pool is then reset, closing every
// connection opened before (they are as dead), and the statement runs once
// more on a fresh connection when running it twice cannot write twice: it
// was never sent, or it only reads (reads). Turn commits decide for
// themselves (commitOne, writeBatch), and so does a transaction's BEGIN.

// lost reports whether err, the failure of a statement run on a connection
// of the pool, shows that the connection was dead, and then resets the
// pool. A failure once a context has ended is the context's doing, and a
// failure to connect is no dead connection.
func (s *Store) lost(ctx context.Context, err error) bool {
	if err == nil || ctx.Err() != nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var u unsent
	if errors.As(err, &u) { // not necessarily a connection's failure
		err = u.error
	}
	var connect *pgconn.ConnectError
	if errors.As(err, &connect) || !pgconn.SafeToRetry(err) && !closedByServer(err) {
		return false
	}
	s.pool.Reset()
	return true
}

// closedByServer reports whether err is a FATAL error of class 57,
// operator intervention: the server closed the connection after it.
func closedByServer(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && strings.HasPrefix(pgErr.Code, "57") && fatal(pgErr)
}

// unreachable reports whether err, the failure of a statement, shows the
// database out of reach: no connection could be opened (the server is
// down, starting or refusing connections), or the one the statement used
// broke (closed by the server, reset, cut off in the middle of a message).
// The caller's cancellation and a statement's own errors are not.
func unreachable(err error) bool {
	var connect *pgconn.ConnectError
	var pgErr *pgconn.PgError
	var op *net.OpError
	switch {
	case err == nil || errors.Is(err, context.Canceled):
		return false
	case errors.As(err, &connect):
		return true
	case errors.As(err, &pgErr):
		// Class 08 is connection exception; 57P03 is cannot_connect_now
		// (starting up, shutting down, in recovery).
		return strings.HasPrefix(pgErr.Code, "08") || pgErr.Code == "57P03" || closedByServer(err)
	case errors.Is(err, context.DeadlineExceeded):
		return false
	}
	return errors.As(err, &op) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
}

// unavailable returns err as ErrUnavailable, once.
func unavailable(err error) error {
	if errors.Is(err, ErrUnavailable) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrUnavailable, err)
}

func fatal(e *pgconn.PgError) bool {
	return e.SeverityUnlocalized == "FATAL" || e.SeverityUnlocalized == "" && e.Severity == "FATAL"
}

// reads reports whether sql only reads: a SELECT (or WITH) that names no
// writing statement, row lock, sequence, notification or lock function.
// Any doubt is a no: a statement not known to be a read is not run twice
// after the server closed its connection, since the server may have
// finished it first.
func reads(sql string) bool {
	words := strings.FieldsFunc(strings.ToLower(sql), func(r rune) bool {
		return !('a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '_')
	})
	if len(words) == 0 || words[0] != "select" && words[0] != "with" {
		return false
	}
	for _, w := range words {
		switch w {
		case "insert", "update", "delete", "merge", "into", "share", "lock",
			"nextval", "setval", "set_config", "pg_notify":
			return false
		}
		if strings.Contains(w, "advisory") || strings.HasSuffix(w, "_backend") {
			return false
		}
	}
	return true
}

// pooled is the store's DBTX outside transactions: the pool's, with a
// statement that met a dead connection run again (see lost).
type pooled struct{ s *Store }

// again reports whether a statement that failed with err may run once
// more, on a fresh connection.
func (p pooled) again(ctx context.Context, sql string, err error) bool {
	return p.s.lost(ctx, err) && (pgconn.SafeToRetry(err) || reads(sql))
}

func (p pooled) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	tag, err := p.s.pool.Exec(ctx, sql, args...)
	if p.again(ctx, sql, err) {
		tag, err = p.s.pool.Exec(ctx, sql, args...)
	}
	return tag, busy(ctx, err)
}

// Query reads the first row before returning: a dead connection shows
// there, while the statement can still run again unseen by the caller.
func (p pooled) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	rows, err := p.s.pool.Query(ctx, sql, args...)
	if err == nil {
		if rows.Next() {
			return &primed{Rows: rows, first: true}, nil
		}
		if err = rows.Err(); err == nil {
			return rows, nil
		}
	}
	if p.again(ctx, sql, err) {
		rows, err = p.s.pool.Query(ctx, sql, args...)
	}
	return rows, busy(ctx, err)
}

// QueryRow runs the statement when the row is scanned.
func (p pooled) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return &pooledRow{p: p, ctx: ctx, sql: sql, args: args}
}

func (p pooled) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	return p.s.pool.SendBatch(ctx, b)
}

// primed is rows whose first row Next has already read.
type primed struct {
	pgx.Rows
	first bool // the first row is read and not yet handed out
}

func (r *primed) Next() bool {
	if r.first {
		r.first = false
		return true
	}
	return r.Rows.Next()
}

type pooledRow struct {
	p    pooled
	ctx  context.Context
	sql  string
	args []any
}

// Scan is pgx's QueryRow(...).Scan over pooled.Query.
func (r *pooledRow) Scan(dest ...any) error {
	rows, err := r.p.Query(r.ctx, r.sql, r.args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return err
		}
		return pgx.ErrNoRows
	}
	if err := rows.Scan(dest...); err != nil {
		return err
	}
	rows.Close()
	return rows.Err()
}

// beginner begins the store's transactions. A BEGIN that met a dead
// connection begins again on a fresh one: nothing of the transaction ran.
type beginner struct{ s *Store }

func (b beginner) Begin(ctx context.Context) (pgx.Tx, error) {
	return b.BeginTx(ctx, pgx.TxOptions{})
}

func (b beginner) BeginTx(ctx context.Context, o pgx.TxOptions) (pgx.Tx, error) {
	tx, err := b.s.pool.BeginTx(ctx, o)
	if b.s.lost(ctx, err) {
		tx, err = b.s.pool.BeginTx(ctx, o)
	}
	return tx, busy(ctx, err)
}

// Statements cancelled on the server. When a turn's commit runs out of
// time, dropping its connection (what pgx does when a context ends) leaves
// the outcome unknown: the server goes on with the statement, and commits
// it once the row lock it waited for is released, after the learner was
// told the turn failed. A commit therefore runs through finish, which asks
// the server to cancel the statement instead and waits for its answer: an
// error (query_canceled, 57014: the transaction rolled back) or the
// result, when the server had finished first.
const (
	// cancelWait is how long the server may take to answer a cancelled
	// statement before its connection is dropped, the outcome unknown.
	cancelWait = 5 * time.Second
	// cancelAgain is how often the cancel request is sent again while the
	// server has not answered: one that reaches the backend between two
	// statements of a batch (reading the next) is ignored.
	cancelAgain = 500 * time.Millisecond
)

// finish acquires a connection and runs fn on it, with a context that ends
// only when the server did not answer within cancelWait of ctx's end: when
// ctx ends first, the statement fn runs is cancelled on the server, and the
// error fn returns then wraps ctx's. A failure to get a connection is
// unsent: fn never ran. The connection is closed after a cancel: a cancel
// request that arrived late would cancel its next statement.
func (s *Store) finish(ctx context.Context, fn func(ctx context.Context, c *pgx.Conn) error) error {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return unsent{busy(ctx, err)}
	}
	defer conn.Release()
	c := conn.Conn()
	run, giveUp := context.WithCancel(context.WithoutCancel(ctx))
	defer giveUp()
	answered, cancelled := make(chan struct{}), make(chan struct{})
	unwatch := context.AfterFunc(ctx, func() {
		defer close(cancelled)
		wait := time.NewTimer(cancelWait)
		defer wait.Stop()
		tick := time.NewTicker(cancelAgain)
		defer tick.Stop()
		for {
			cctx, cancel := context.WithTimeout(run, cancelWait)
			err := c.PgConn().CancelRequest(cctx)
			cancel()
			if err != nil { // the server cannot be reached: drop the connection
				giveUp()
				return
			}
			select {
			case <-answered:
				return
			case <-wait.C:
				giveUp()
				return
			case <-tick.C:
			}
		}
	})
	err = fn(run, c)
	close(answered)
	if unwatch() {
		return err
	}
	<-cancelled
	closeCtx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = c.Close(closeCtx)
	if err != nil {
		err = fmt.Errorf("%w: %w", ctx.Err(), err)
	}
	return err
}
