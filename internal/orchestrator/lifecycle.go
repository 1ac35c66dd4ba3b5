package orchestrator

import (
	"context"
	"errors"

	"github.com/google/uuid"

	"github.com/tutord/tutord/internal/store"
	"github.com/tutord/tutord/internal/tutor"
)

// change runs fn on a session under its lock and commits the state it
// returns with the response it returns.
func (o *Orchestrator) change(ctx context.Context, id uuid.UUID, fn func(se Session) (tutor.State, any, error)) (Session, any, error) {
	if err := o.begin(); err != nil {
		return Session{}, nil, err
	}
	defer o.end()
	unlock, err := o.locks.lock(ctx, id, "")
	if err != nil {
		return Session{}, nil, err
	}
	defer unlock()
	o.cache.drop(id) // the next turn reads the changed session
	se, err := o.Load(ctx, id)
	if err != nil {
		return Session{}, nil, err
	}
	next, resp, err := fn(se)
	if err != nil {
		return se, nil, err
	}
	v, err := o.commitState(ctx, se, next, resp)
	if err != nil {
		if _, ok := errors.AsType[*ConflictError](err); ok {
			o.conflicted()
		}
		return se, nil, err
	}
	se.State, se.Row.Version, se.Row.Summary = next, v, summary(next, se.Topic)
	return se, resp, nil
}

// Pause pauses a teach_me session and returns its pause summary. Errors:
// tutor.ErrWrongMode, ErrAnotherPaused, ErrSessionNotFound, *ConflictError.
func (o *Orchestrator) Pause(ctx context.Context, id uuid.UUID) (tutor.PauseSummary, error) {
	_, resp, err := o.change(ctx, id, func(se Session) (tutor.State, any, error) {
		next, ps, err := tutor.Pause(se.State, se.Topic, o.now())
		return next, ps, err
	})
	if err != nil {
		return tutor.PauseSummary{}, err
	}
	return resp.(tutor.PauseSummary), nil
}

// Resumed is a resumed session with its whole conversation.
type Resumed struct {
	Session  Session
	Messages []store.Message
}

// Resume resumes a paused session. Errors: tutor.ErrNotPaused,
// ErrSessionNotFound, *ConflictError.
func (o *Orchestrator) Resume(ctx context.Context, id uuid.UUID) (Resumed, error) {
	var msgs []store.Message
	se, _, err := o.change(ctx, id, func(se Session) (tutor.State, any, error) {
		next, err := tutor.Resume(se.State, o.now())
		if err != nil {
			return next, nil, err
		}
		// The history is read before the commit, so that a failed read
		// leaves the session paused for the client's retry; the commit's
		// compare-and-swap guarantees nothing was added in between.
		if msgs, err = o.st.ListMessages(ctx, id); err != nil {
			return next, nil, err
		}
		return next, map[string]string{"message": "Session resumed"}, nil
	})
	if err != nil {
		return Resumed{}, err
	}
	return Resumed{Session: se, Messages: msgs}, nil
}

// EndClarify ends a doubts session and returns the concepts discussed.
// Errors: tutor.ErrWrongMode, tutor.ErrAlreadyEnded, ErrSessionNotFound,
// *ConflictError.
func (o *Orchestrator) EndClarify(ctx context.Context, id uuid.UUID) ([]string, error) {
	se, _, err := o.change(ctx, id, func(se Session) (tutor.State, any, error) {
		next, err := tutor.EndClarify(se.State, o.now())
		return next, map[string]any{"concepts_discussed": next.ConceptsDiscussed}, err
	})
	if err != nil {
		return nil, err
	}
	return append([]string{}, se.State.ConceptsDiscussed...), nil
}

// EndExam ends an exam early and returns its score and feedback. Errors:
// tutor.ErrWrongMode, tutor.ErrExamFinished, ErrSessionNotFound,
// *ConflictError.
func (o *Orchestrator) EndExam(ctx context.Context, id uuid.UUID) (tutor.ExamScore, error) {
	_, resp, err := o.change(ctx, id, func(se Session) (tutor.State, any, error) {
		next, score, err := tutor.EndExam(se.State, o.now())
		return next, score, err
	})
	if err != nil {
		return tutor.ExamScore{}, err
	}
	return resp.(tutor.ExamScore), nil
}

// Summary returns a session's performance summary.
func (o *Orchestrator) Summary(ctx context.Context, id uuid.UUID) (tutor.Summary, error) {
	se, err := o.Load(ctx, id)
	if err != nil {
		return tutor.Summary{}, err
	}
	return se.State.Summary(se.Topic), nil
}

// Messages returns a session's whole conversation, oldest first.
func (o *Orchestrator) Messages(ctx context.Context, id uuid.UUID) ([]store.Message, error) {
	return o.st.ListMessages(ctx, id)
}
