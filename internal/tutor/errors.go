package tutor

// Error is a domain error: a stable machine code for programs and a message
// that is safe to show to a client as it is.
type Error struct {
	Code    string
	Message string
}

// Error returns the message.
func (e *Error) Error() string { return e.Message }

// Is reports whether target is an *Error with the same code. The lifecycle
// helpers return errors whose message names the action ("Only Teach Me
// sessions can be paused"), and errors.Is(err, ErrWrongMode) must still hold.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// The domain's sentinel errors. Compare with errors.Is: the errors actually
// returned carry the same code with a more specific message.
var (
	// ErrInvalid reports input that breaks a rule of the domain.
	ErrInvalid = &Error{Code: "invalid", Message: "Invalid input"}
	// ErrWrongMode reports an action that the session's mode does not offer.
	ErrWrongMode = &Error{Code: "wrong_mode", Message: "This action is not available in this session mode"}
	// ErrNotPaused reports a resume of a session that is not paused.
	ErrNotPaused = &Error{Code: "not_paused", Message: "Session is not paused"}
	// ErrAlreadyEnded reports an end-clarify on a session that has already ended.
	ErrAlreadyEnded = &Error{Code: "already_ended", Message: "Session already ended"}
	// ErrExamFinished reports an end-exam on an exam that has already finished.
	ErrExamFinished = &Error{Code: "exam_finished", Message: "Exam already finished"}
	// ErrUnsupportedVersion reports a stored state written by a newer tutord.
	ErrUnsupportedVersion = &Error{Code: "unsupported_version", Message: "Unsupported state schema version"}
	// ErrInvalidOutput reports a tutor output that breaks the output contract.
	ErrInvalidOutput = &Error{Code: "invalid_output", Message: "Invalid tutor output"}
)

func invalid(msg string) error { return &Error{Code: ErrInvalid.Code, Message: msg} }
