package orchestrator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/google/uuid"

	"github.com/tutord/tutord/internal/lessons"
	"github.com/tutord/tutord/internal/store"
	"github.com/tutord/tutord/internal/tutor"
)

// Session is a session as the orchestrator loaded it: the stored row, the
// decoded state and the lesson it runs on.
type Session struct {
	Row   store.Session
	State tutor.State
	Topic *tutor.Topic
}

// Load returns a session with its state and lesson. It returns
// ErrSessionNotFound for an unknown id.
func (o *Orchestrator) Load(ctx context.Context, id uuid.UUID) (Session, error) {
	se, _, err := o.load(ctx, id, false)
	return se, err
}

// Owner returns the learner a session belongs to (nil for an anonymous
// one), from the copy in memory when there is one: a session's learner
// never changes. It returns ErrSessionNotFound for an unknown id.
func (o *Orchestrator) Owner(ctx context.Context, id uuid.UUID) (*uuid.UUID, error) {
	if se, ok := o.cache.get(id); ok {
		return se.Row.LearnerID, nil
	}
	row, err := o.st.GetSession(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrSessionNotFound
	}
	if err != nil {
		return nil, err
	}
	return row.LearnerID, nil
}

// load returns a session. With useCache, a session this process committed
// last comes from memory, unchecked: it saves reading and decoding the whole
// state, and a query per turn. The commit's compare-and-swap still catches
// a change made by another process since (ProcessTurn then runs the turn
// again on the stored state), and SessionChanged drops entries that such
// changes made stale. It reports whether the session came from memory.
func (o *Orchestrator) load(ctx context.Context, id uuid.UUID, useCache bool) (Session, bool, error) {
	if cached, ok := o.cache.get(id); ok && useCache {
		// The lesson comes from the lesson source every time, which keeps
		// it as fresh as the source's own cache keeps it.
		var err error
		if cached.Topic, err = o.lesson(ctx, cached.Row); err != nil {
			return Session{}, false, err
		}
		return cached, true, nil
	}
	row, err := o.st.GetSession(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		o.cache.drop(id)
		return Session{}, false, ErrSessionNotFound
	}
	if err != nil {
		return Session{}, false, err
	}
	se, err := o.decode(ctx, row)
	return se, false, err
}

func (o *Orchestrator) decode(ctx context.Context, row store.Session) (Session, error) {
	st, err := tutor.DecodeState(row.State)
	if err != nil {
		return Session{}, fmt.Errorf("session %s: %w", row.ID, err)
	}
	se := Session{Row: row, State: st}
	if se.Topic, err = o.lesson(ctx, row); err != nil {
		return Session{}, err
	}
	return se, nil
}

// lesson returns the lesson a session runs on: nil for a session without a
// plan, or one whose plan was removed since (the session can still be
// read). Any other failure to read the lesson is an error: a session must
// not go on without its lesson because the database blinked.
func (o *Orchestrator) lesson(ctx context.Context, row store.Session) (*tutor.Topic, error) {
	if row.PlanVersion == nil {
		return nil, nil
	}
	t, err := o.lessons.Version(ctx, *row.PlanVersion)
	if errors.Is(err, lessons.ErrNotFound) {
		o.log.Warn("session plan removed", "session_id", row.ID, "plan_version_id", row.PlanVersion, "err", err)
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("session %s: lesson: %w", row.ID, err)
	}
	return t, nil
}

// summary returns the columns stored beside a state.
func summary(s tutor.State, t *tutor.Topic) store.Summary {
	sm := store.Summary{
		TurnCount:         s.TurnCount,
		IsPaused:          s.Mode == tutor.ModeTeachMe && s.IsPaused,
		IsComplete:        s.IsComplete(t),
		CurrentStep:       s.CurrentStep,
		TotalSteps:        t.TotalSteps(),
		Mastery:           finite(s.OverallMastery()),
		Coverage:          finite(s.Coverage(t)),
		ConceptsCovered:   s.ConceptsCovered,
		ConceptsDiscussed: s.ConceptsDiscussed,
		MasteryByConcept:  map[string]float64{},
	}
	if s.Topic != nil {
		sm.TopicName = s.Topic.TopicName
	}
	for c, v := range s.MasteryEstimates.Map() {
		sm.MasteryByConcept[c] = finite(v)
	}
	if s.Mode == tutor.ModeExam {
		correct, n := s.ExamTotalCorrect, len(s.ExamQuestions)
		sm.ExamCorrect, sm.ExamQuestions = &correct, &n
		if s.ExamFinished {
			sm.ExamScore, sm.ExamTotal = &correct, &n
		}
	}
	return sm
}

func finite(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}

// commitState writes a state change outside a turn (pause, resume, the end
// of a doubts session or an exam): no messages, a turn record without a
// client turn id.
func (o *Orchestrator) commitState(ctx context.Context, se Session, next tutor.State, response any) (int64, error) {
	raw, err := next.MarshalJSON() // not json.Marshal: it would compact the result again
	if err != nil {
		return 0, err
	}
	resp, err := json.Marshal(response)
	if err != nil {
		return 0, err
	}
	v, err := o.st.CommitTurn(ctx, store.Turn{
		SessionID: se.Row.ID, Version: se.Row.Version, State: raw, Summary: summary(next, se.Topic),
		Response: resp, Now: o.now(),
	})
	return v, o.commitError(ctx, se, err)
}

// conflicted counts a conflict reported to a caller: another writer changed
// the session during the call. A copy in memory found stale by its turn's
// commit, which the turn then runs again, is not one.
func (o *Orchestrator) conflicted() {
	if o.obs != nil {
		o.obs.Conflict()
	}
}

// commitError maps the store's commit errors to the orchestrator's.
func (o *Orchestrator) commitError(ctx context.Context, se Session, err error) error {
	var stale *store.StaleStateError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &stale):
		ce := &ConflictError{SessionID: se.Row.ID.String(), Expected: stale.Expected, Version: stale.Version, Topic: se.Topic}
		if st, derr := tutor.DecodeState(stale.State); derr == nil {
			ce.State = st
		} else {
			// The stored state cannot be read here (a newer schema, from
			// another replica): the turn's own state goes with its own
			// version, so that no client takes it for the stored one.
			ce.State, ce.Version = se.State, se.Row.Version
		}
		return ce
	case errors.Is(err, store.ErrAnotherPaused):
		return ErrAnotherPaused
	case errors.Is(err, store.ErrNotFound):
		return ErrSessionNotFound
	}
	return err
}

// sessionCache keeps the sessions this process committed last, decoded.
// An entry may be behind the stored session when another process changed it
// (see load).
type sessionCache struct {
	mu sync.Mutex
	m  map[uuid.UUID]Session
	// gen counts clears: a copy read before the last clear (Forget, after
	// sessions were deleted) is not put back (see put).
	gen uint64
	// newer holds versions announced (dropOlder) for sessions without an
	// entry as new (none, or an older one that the announcement dropped):
	// a turn of this process may be committing one, and the copy it puts
	// afterwards must not be older.
	newer map[uuid.UUID]int64
}

// maxCached bounds the cache: it holds the sessions in conversation now.
const maxCached = 4096

func (c *sessionCache) get(id uuid.UUID) (Session, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	se, ok := c.m[id]
	return se, ok
}

// generation returns the number of clears so far; pass it to put with a
// copy read after it.
func (c *sessionCache) generation() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// put keeps a copy of a session read (and changed) since generation gen.
// A copy from before the last clear is dropped: its session may be one
// that was deleted meanwhile.
func (c *sessionCache) put(se Session, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if v, ok := c.newer[se.Row.ID]; ok {
		delete(c.newer, se.Row.ID)
		if se.Row.Version < v {
			// Another process committed after this copy's commit, and
			// announced it first: keeping the copy would only fail the
			// next turn's compare-and-swap.
			delete(c.m, se.Row.ID)
			return
		}
	}
	if len(c.m) >= maxCached {
		for k := range c.m { // drop an arbitrary entry
			delete(c.m, k)
			break
		}
	}
	c.m[se.Row.ID] = se
}

func (c *sessionCache) drop(id uuid.UUID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, id)
}

// dropOlder drops the entry of session id if it is older than version,
// and remembers version for a copy put later (see put).
func (c *sessionCache) dropOlder(id uuid.UUID, version int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	se, ok := c.m[id]
	switch {
	case ok && se.Row.Version >= version:
		return
	case ok:
		delete(c.m, id)
	}
	if c.newer == nil {
		c.newer = make(map[uuid.UUID]int64)
	}
	if _, ok := c.newer[id]; !ok && len(c.newer) >= maxCached {
		// Announcements of sessions this process never puts pile up:
		// forgetting one costs at most a failed compare-and-swap.
		for k := range c.newer {
			delete(c.newer, k)
			break
		}
	}
	c.newer[id] = max(c.newer[id], version)
}

func (c *sessionCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	clear(c.m)
	clear(c.newer)
}
