package orchestrator

import (
	"errors"
	"fmt"

	"github.com/tutord/tutord/internal/tutor"
)

// Errors of the orchestrator; tutor's sentinels (ErrWrongMode,
// ErrNotPaused, ErrAlreadyEnded, ErrExamFinished, ErrInvalid) pass through.
var (
	// ErrSessionNotFound reports an unknown session.
	ErrSessionNotFound = errors.New("session not found")
	// ErrGuidelineNotFound reports an unknown or unapproved guideline.
	ErrGuidelineNotFound = errors.New("teaching guideline not found")
	// ErrExamGeneration reports that no exam questions could be generated.
	ErrExamGeneration = errors.New("exam generation is temporarily unavailable")
	// ErrTurnIDReused reports a client turn id already committed with
	// another message.
	ErrTurnIDReused = errors.New("this client turn id was already used for a different message")
	// ErrAnotherPaused reports a second paused session on one subtopic.
	ErrAnotherPaused = errors.New("another session on this subtopic is already paused")
)

// ConflictError reports that another writer (another tab, another replica)
// changed the session between this turn's read and its commit. Nothing of
// the turn was written. State is the session as it is now, for the caller
// to adopt, and Version its version; when the stored state cannot be read
// (a newer schema), State is the one the turn read, at Expected.
type ConflictError struct {
	SessionID string
	Expected  int64 // the version the turn read
	Version   int64 // the version of State
	State     tutor.State
	Topic     *tutor.Topic
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("Session %s was modified concurrently (expected version %d)", e.SessionID, e.Expected)
}
