// Package store keeps tutord's data in PostgreSQL: sessions (written with
// compare-and-swap on their state version), their messages and turn
// records, agent logs, and the migrations that create them. With Announce,
// committed session changes are announced to the other tutord processes on
// the database (WatchSessions).
//
// The store never interprets a session's state document: callers pass the
// JSON and, beside it, the summary columns that listings read. A turn's
// agent-log entries are stored in its turn record (session_turns.logs);
// the agent_log_entries view lists them with the agent_logs rows written
// outside turns. Turns committed at the same time by different sessions
// share a round trip and a transaction (see groupcommit.go).
package store

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Errors returned by the store. Callers test them with errors.Is.
var (
	// ErrNotFound reports that the row asked for does not exist.
	ErrNotFound = errors.New("not found")
	// ErrConflict reports a unique-constraint violation, such as a second
	// paused session for the same learner and subtopic.
	ErrConflict = errors.New("conflict")
	// ErrLearnerGone reports a write for a learner who was deleted
	// meanwhile (by DeleteLearner, perhaps through another process).
	ErrLearnerGone = errors.New("learner deleted")
	// ErrInvalid reports a value a table's checks refuse, such as grade 13.
	ErrInvalid = errors.New("invalid value")
	// ErrDuplicateTurn reports that a turn with the same client turn id was
	// already committed on the session.
	ErrDuplicateTurn = errors.New("turn already committed")
	// ErrBusy reports that the database could not run a statement in
	// time: no connection of the pool came free within the bound set with
	// BoundAcquire, or the server gave up on the statement for other
	// transactions (a lock or statement timeout, a deadlock: see
	// contended) and rolled it back. Either way the statement was not run,
	// and may be sent again.
	ErrBusy = errors.New("database busy")
	// ErrUnavailable reports that the database could not be reached, or
	// that the connection a statement ran on broke: the server restarted
	// or failed over, or an operator ended the connection. The request may
	// be sent again once the database is back (a turn with its turn id:
	// what a write that met a broken connection did is unknown).
	ErrUnavailable = errors.New("database unavailable")
)

// StaleStateError reports a lost compare-and-swap: the session's version is
// no longer the one the caller read. It carries the current version and
// state so that the caller can adopt them. errors.Is(err, ErrStale) holds.
type StaleStateError struct {
	SessionID string
	Expected  int64  // the version the caller read
	Version   int64  // the version now stored
	State     []byte // the state now stored
}

// ErrStale matches any *StaleStateError with errors.Is.
var ErrStale = errors.New("stale session state")

func (e *StaleStateError) Error() string {
	return fmt.Sprintf("session %s was modified concurrently (expected version %d, now %d)", e.SessionID, e.Expected, e.Version)
}

// Is reports whether target is ErrStale.
func (e *StaleStateError) Is(target error) bool { return target == ErrStale }

// DBTX is what both *pgxpool.Pool and pgx.Tx provide.
type DBTX interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

// Store is the PostgreSQL store.
type Store struct {
	pool     *pgxpool.Pool
	db       DBTX       // pooled, or the transaction of InTx
	announce bool       // see Announce
	commits  *committer // group commit of turns; nil in a transaction, or without prepared statements
	textJSON bool       // send JSON documents as strings: see doc
	// llmConfigs counts this store's changes to llm_config: see
	// LLMConfigVersion. Shared with the stores of its transactions.
	llmConfigs *atomic.Uint64
}

// Option configures a store.
type Option func(*Store)

// Announce makes every committed change of a session announce itself on
// SessionChannel, for the WebSockets of other tutord processes on the same
// database (see WatchSessions). It costs throughput: PostgreSQL serialises
// the commits of notifying transactions.
func Announce() Option { return func(s *Store) { s.announce = true } }

// New returns a store over pool.
func New(pool *pgxpool.Pool, opts ...Option) *Store {
	s := &Store{pool: pool, llmConfigs: new(atomic.Uint64)}
	s.db = pooled{s}
	// Group commit writes over a prepared statement: a connection string
	// that asks for none (default_query_exec_mode, as some poolers need)
	// gets its turns committed one by one, in the mode it asks for.
	switch pool.Config().ConnConfig.DefaultQueryExecMode {
	case pgx.QueryExecModeCacheStatement:
		s.commits = &committer{writeBatch: s.writeBatch}
	case pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol:
		s.textJSON = true
	}
	for _, o := range opts {
		o(s)
	}
	return s
}

// doc returns the JSON document b as the argument of a json or jsonb
// parameter. pgx encodes a []byte by the parameter's type when it knows
// it, which it does not in the exec and simple_protocol query modes: there
// it sends a []byte as bytea, which the server refuses as JSON, and a
// string as text.
func (s *Store) doc(b []byte) any {
	if s.textJSON {
		return string(b)
	}
	return b
}

// Pool returns the underlying pool.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// InTx runs fn in a transaction, with a store bound to it; the transaction
// commits when fn returns nil and rolls back otherwise. fn's error is
// returned as it is. A BEGIN or a COMMIT that fails is interpreted as any
// statement's failure: a COMMIT can fail on its own, on a deferred
// constraint (ErrConflict), a serialization failure (ErrBusy) or a broken
// connection (ErrUnavailable: whether the transaction committed is then
// unknown).
func (s *Store) InTx(ctx context.Context, fn func(tx *Store) error) error {
	tx, err := beginner{s}.Begin(ctx)
	if err != nil {
		return interpretError("begin transaction", err)
	}
	// The rollback of a transaction whose fn failed or panicked; after the
	// COMMIT, it does nothing. Its own failure matters less than fn's.
	defer func() { _ = tx.Rollback(ctx) }()
	if err := fn(&Store{pool: s.pool, db: tx, announce: s.announce, textJSON: s.textJSON, llmConfigs: s.llmConfigs}); err != nil {
		return err
	}
	return interpretError("commit transaction", tx.Commit(ctx))
}

// Ping reports whether the database answers. A ping that met a dead
// connection (the database restarted: see lost) pings again on a fresh one.
func (s *Store) Ping(ctx context.Context) error {
	err := s.pool.Ping(ctx)
	if s.lost(ctx, err) {
		err = s.pool.Ping(ctx)
	}
	return err
}

// interpretError maps driver errors to the store's sentinels and wraps the
// rest with the operation that failed.
func interpretError(op string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("%s: %w", op, ErrNotFound)
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case "23505":
			return fmt.Errorf("%s: %w (%s)", op, ErrConflict, pgErr.ConstraintName)
		case "23514":
			return fmt.Errorf("%s: %w (%s)", op, ErrInvalid, pgErr.ConstraintName)
		case "23503":
			if pgErr.ConstraintName == "sessions_learner_fk" || pgErr.ConstraintName == "llm_usage_learner_id_fkey" {
				return fmt.Errorf("%s: %w", op, ErrLearnerGone)
			}
		}
	}
	if unreachable(err) {
		return fmt.Errorf("%s: %w", op, unavailable(err))
	}
	if contended(err) {
		return fmt.Errorf("%s: %w: %w", op, errContended, err)
	}
	return fmt.Errorf("%s: %w", op, err)
}

// constraintOf returns the name of the unique constraint err violated, or "".
func constraintOf(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return pgErr.ConstraintName
	}
	return ""
}

// uuidTexts returns ids as text, for a uuid[] parameter (cast in the
// statement: "= ANY($1::uuid[])"). Every query mode can send a list of
// text, including those of poolers (exec, simple_protocol), which cannot
// send a list of uuid.UUID or [16]byte, whose type they do not ask the
// server for.
func uuidTexts[ID ~[16]byte](ids []ID) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = uuid.UUID(id).String()
	}
	return out
}
