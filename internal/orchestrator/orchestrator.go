// Package orchestrator runs tutoring sessions: the TeacherOrchestrator
// creates a session, and runs each turn through one pipeline — pre-checks,
// safety gate, deterministic evaluation, mode router (teach_me, clarify
// doubts, exam), guardrails, sanitization, pure state updates — ending in
// one atomic commit of the session (compare-and-swap on its version, the
// turn's messages, its turn record and its agent logs).
//
// It knows the agents and a narrow store interface, not SQL or HTTP.
package orchestrator

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/store"
	"github.com/tutord/tutord/internal/tutor"
)

// Store is what the orchestrator needs of the database.
type Store interface {
	CreateSession(ctx context.Context, n store.NewSession) error
	GetSession(ctx context.Context, id uuid.UUID) (store.Session, error)
	CommitTurn(ctx context.Context, t store.Turn) (int64, error)
	FindTurn(ctx context.Context, sessionID uuid.UUID, clientTurnID string) (store.TurnRecord, error)
	ListMessages(ctx context.Context, sessionID uuid.UUID) ([]store.Message, error)
	PastDiscussions(ctx context.Context, learnerID, guidelineID, except uuid.UUID) ([]store.PastDiscussion, error)
}

var _ Store = (*store.Store)(nil)

// Lessons loads the lessons sessions run on (package lessons).
type Lessons interface {
	// Current returns a guideline's lesson at its current plan version and
	// whether the guideline is approved.
	Current(ctx context.Context, guidelineID uuid.UUID) (*tutor.Topic, bool, error)
	// Version returns the lesson of a plan version.
	Version(ctx context.Context, planVersionID uuid.UUID) (*tutor.Topic, error)
}

// Engines gives the agents a session's pinned configuration selects.
type Engines interface {
	// Agents returns the agents for a configuration.
	Agents(cfg tutor.Config) (agents.Set, error)
	// Config returns the configuration to pin on a new session.
	Config(ctx context.Context) (tutor.Config, error)
}

// Observer hears about turns, for metrics. Its methods must be fast and
// safe for concurrent use.
type Observer interface {
	TurnCompleted(mode tutor.Mode, engine string, d time.Duration)
	// Conflict hears of a conflict reported to a caller: another writer
	// changed the session during a turn or a change. A copy in memory that
	// its turn's commit found stale, the turn then run again, is none.
	Conflict()
}

// Options configure an Orchestrator.
type Options struct {
	Store   Store
	Lessons Lessons
	Engines Engines
	// FallbackSafety judges messages when the configured safety agent
	// fails: the safety gate fails closed for what it flags and open
	// otherwise. Normally the rules engine's classifier.
	FallbackSafety agents.Safety
	Prechecks      tutor.PrecheckConfig
	Now            func() time.Time // the clock; time.Now when nil
	Logger         *slog.Logger
	Observer       Observer
	// ExamQuestions is how many questions an exam gets (7 when zero); on
	// failure generation is retried once with ExamRetryQuestions (3).
	ExamQuestions      int
	ExamRetryQuestions int
}

// Orchestrator is the TeacherOrchestrator. It is safe for concurrent use.
type Orchestrator struct {
	st        Store
	lessons   Lessons
	engines   Engines
	fallback  agents.Safety
	prechecks *tutor.Prechecker
	now       func() time.Time
	log       *slog.Logger
	obs       Observer
	examN     int
	examRetry int

	locks sessionLocks
	cache sessionCache

	mu       sync.Mutex
	stopping bool
	active   int // the work in flight, which inflight waits for
	inflight sync.WaitGroup
}

// New returns an Orchestrator.
func New(o Options) *Orchestrator {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.ExamQuestions == 0 {
		o.ExamQuestions = 7
	}
	if o.ExamRetryQuestions == 0 {
		o.ExamRetryQuestions = 3
	}
	if o.Prechecks.Stop == nil && o.Prechecks.IDK == nil && o.Prechecks.OffTopic == nil {
		o.Prechecks = tutor.DefaultPrecheckConfig()
	}
	return &Orchestrator{
		st: o.Store, lessons: o.Lessons, engines: o.Engines, fallback: o.FallbackSafety,
		prechecks: tutor.NewPrechecker(o.Prechecks), now: o.Now, log: o.Logger, obs: o.Observer,
		examN: o.ExamQuestions, examRetry: o.ExamRetryQuestions,
		locks: sessionLocks{m: map[uuid.UUID]*sessionLock{}},
		cache: sessionCache{m: map[uuid.UUID]Session{}},
	}
}

// ErrShuttingDown reports that the orchestrator no longer starts work.
var ErrShuttingDown = errors.New("the server is shutting down")

// begin registers a piece of work that Stop waits for.
func (o *Orchestrator) begin() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.stopping {
		return ErrShuttingDown
	}
	o.active++
	o.inflight.Add(1)
	return nil
}

// end ends a piece of work that begin registered.
func (o *Orchestrator) end() {
	o.mu.Lock()
	o.active--
	o.mu.Unlock()
	o.inflight.Done()
}

// Stop refuses new work and waits until the work in flight has finished,
// or ctx ends.
func (o *Orchestrator) Stop(ctx context.Context) error {
	o.mu.Lock()
	o.stopping = true
	idle := o.active == 0
	o.mu.Unlock()
	if idle {
		// Nothing to wait for, even with ctx already ended (the server's
		// shutdown used up its time): say so rather than time out.
		return nil
	}
	done := make(chan struct{})
	go func() {
		o.inflight.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// SessionChanged tells the orchestrator that a session's state reached
// version, in this process or another one on the same database (see
// store.WatchSessions). A session it holds in memory at an older version is
// read afresh by its next turn, instead of failing that turn's commit first.
func (o *Orchestrator) SessionChanged(id uuid.UUID, version int64) {
	o.cache.dropOlder(id, version)
}

// Forget drops every session the orchestrator keeps in memory. Call it
// after deleting sessions (a learner's, or anonymous ones), so that no turn
// runs on a copy of a deleted session: the next turn of any session reads
// it afresh. Another process's copies are dropped only when it runs out of
// memory or its turn's commit finds the session gone.
func (o *Orchestrator) Forget() {
	o.cache.clear()
}

// sessionLocks serialise the turns of one session within this process: a
// model call sits between a turn's read and its write, so a second turn on
// the same session would almost always lose the compare-and-swap and waste
// its call. It waits instead, then runs on the fresh state.
type sessionLocks struct {
	mu sync.Mutex
	m  map[uuid.UUID]*sessionLock
}

type sessionLock struct {
	ch   chan struct{}
	refs int
	// turns counts the turns holding or awaiting the lock by client turn
	// id (turns without one are not counted).
	turns map[string]int
}

// lock takes the session's lock, waiting for the turn holding it, and
// returns the function that releases it. clientTurnID, when not empty,
// names the turn that takes it until it is released (see running).
func (l *sessionLocks) lock(ctx context.Context, id uuid.UUID, clientTurnID string) (func(), error) {
	l.mu.Lock()
	e, ok := l.m[id]
	if !ok {
		e = &sessionLock{ch: make(chan struct{}, 1)}
		l.m[id] = e
	}
	e.refs++
	if clientTurnID != "" {
		if e.turns == nil {
			e.turns = map[string]int{}
		}
		e.turns[clientTurnID]++
	}
	l.mu.Unlock()

	release := func() {
		l.mu.Lock()
		e.refs--
		if e.refs == 0 {
			delete(l.m, id)
		}
		if clientTurnID != "" {
			if e.turns[clientTurnID]--; e.turns[clientTurnID] == 0 {
				delete(e.turns, clientTurnID)
			}
		}
		l.mu.Unlock()
	}
	select {
	case e.ch <- struct{}{}:
		return func() { <-e.ch; release() }, nil
	case <-ctx.Done():
		release()
		return nil, ctx.Err()
	}
}

// running reports whether a turn with the client turn id holds or awaits
// the session's lock.
func (l *sessionLocks) running(id uuid.UUID, clientTurnID string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	e, ok := l.m[id]
	return ok && e.turns[clientTurnID] > 0
}
