package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// BoundAcquire bounds how long a statement of a pool configured by cfg
// waits for a free connection: under overload, a request then fails fast
// with ErrBusy instead of queueing as long as its client waits. Only the
// wait is bounded; a statement that has its connection runs under its
// caller's context alone. pgxpool has no such setting, but it asks its
// acquire tracer, which BoundAcquire installs as the connections' tracer,
// for the context it waits with. d <= 0 leaves the wait unbounded.
func BoundAcquire(cfg *pgxpool.Config, d time.Duration) {
	if d > 0 {
		cfg.ConnConfig.Tracer = acquireBound(d)
	}
}

// acquireBound is the tracer of BoundAcquire.
type acquireBound time.Duration

// acquireCancel keys the cancel function of an acquire's bound in the
// context that TraceAcquireStart returns and TraceAcquireEnd receives.
type acquireCancel struct{}

func (d acquireBound) TraceAcquireStart(ctx context.Context, _ *pgxpool.Pool, _ pgxpool.TraceAcquireStartData) context.Context {
	ctx, cancel := context.WithTimeout(ctx, time.Duration(d))
	return context.WithValue(ctx, acquireCancel{}, cancel)
}

func (acquireBound) TraceAcquireEnd(ctx context.Context, _ *pgxpool.Pool, _ pgxpool.TraceAcquireEndData) {
	if cancel, ok := ctx.Value(acquireCancel{}).(context.CancelFunc); ok {
		cancel()
	}
}

// pgx takes a connection's tracer as a query tracer: it traces no query.
func (acquireBound) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	return ctx
}

func (acquireBound) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// The two kinds of ErrBusy. Only errNoConnection tells that the pool's
// connections are all taken, which the turns queued for group commit
// would wait for in turn (see shed); errContended is one statement's
// wait for a row or a lock that another transaction holds.
var (
	errNoConnection = fmt.Errorf("%w: no connection came free in time", ErrBusy)
	errContended    = fmt.Errorf("%w: the server gave up on the statement for other transactions", ErrBusy)
)

// contended reports whether err is the server's rollback of a statement
// for the sake of other transactions: the statement waited for a lock
// past lock_timeout (55P03), ran past statement_timeout or was cancelled
// by an operator (57014), or lost a deadlock (40P01) or a serializable
// transaction's conflict (40001). Sent again, it may well succeed. A
// statement cancelled because its caller's context ended is the caller's
// doing, not the database's.
func contended(err error) bool {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || fatal(pgErr) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	switch pgErr.Code {
	case "55P03", "57014", "40P01", "40001":
		return true
	}
	return false
}

// busy returns err, the failure of a statement run with ctx on the pool,
// as ErrBusy when it is the end of the bounded wait for a connection: a
// deadline passed that was not ctx's. A connection that could not be
// opened, in time or at all, is another failure: the database is
// unreachable (ErrUnavailable).
func busy(ctx context.Context, err error) error {
	var connect *pgconn.ConnectError
	switch {
	case err == nil || ctx.Err() != nil:
		return err
	case unreachable(err):
		return unavailable(err)
	case !errors.Is(err, context.DeadlineExceeded) || errors.As(err, &connect):
		return err
	}
	return fmt.Errorf("%w: %w", errNoConnection, err)
}
