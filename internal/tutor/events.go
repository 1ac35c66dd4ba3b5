package tutor

// Event is something a state update did, for logs, metrics and the client.
type Event interface {
	// EventName returns the event's stable snake_case name.
	EventName() string
}

// MessageIgnored: the message was empty or too long; no turn was counted
// and the state is unchanged.
type MessageIgnored struct{ Reason Precheck }

// PostCompletionReplied: the session had ended; the message got a short
// post-completion reply and no turn was counted.
type PostCompletionReplied struct{}

// SafetyFlagged: the safety gate flagged the message.
type SafetyFlagged struct {
	Flag   string
	Warned bool
}

// GuardrailApplied: guardrails changed the tutor's move.
type GuardrailApplied struct{ Overrides []Override }

// MasteryUpdated: a concept's mastery estimate changed. Evidence reports
// that a judged answer moved it (knowledge tracing), not only the tutor.
type MasteryUpdated struct {
	Concept  string
	From, To float64
	Evidence bool
}

// MisconceptionRecorded: a misconception was seen; Count ≥ 2 is recurring.
type MisconceptionRecorded struct {
	Concept, Description string
	Count                int
}

// QuestionAsked: a question became pending; Replaced when it replaced one.
type QuestionAsked struct {
	Concept, QuestionID string
	Replaced            bool
}

// QuestionCleared: the pending question was answered correctly.
type QuestionCleared struct{ Concept string }

// WrongAnswer: the pending question got a wrong (or partly right) answer.
type WrongAnswer struct {
	Concept       string
	WrongAttempts int
}

// PhaseChanged: the pending question moved up the hint ladder.
type PhaseChanged struct {
	From, To      Phase
	WrongAttempts int
}

// StepAdvanced: the session moved from one step to a later one.
type StepAdvanced struct{ From, To int }

// SessionCompleted: a teach_me session finished its plan.
type SessionCompleted struct{}

// OffTopic: the message was off-topic; Count is the session's total.
type OffTopic struct{ Count int }

// ExamAnswerRecorded: an exam answer was recorded (Index is 0-based).
type ExamAnswerRecorded struct {
	Index  int
	Result Result
}

// ExamQuestionRepeated: the message was no answer; the question stands.
type ExamQuestionRepeated struct{ Index int }

// ExamFinished: the exam ended, with all questions answered or Early.
type ExamFinished struct {
	Score, Total int
	Early        bool
}

// ExamAlreadyComplete: a message arrived after the exam had finished.
type ExamAlreadyComplete struct{}

// ClarifyCompleted: a doubts session ended.
type ClarifyCompleted struct{}

// Paused: a teach_me session was paused.
type Paused struct{ Reason EndReason }

// TimeLimitReached: the sitting reached its time limit and the session ended.
type TimeLimitReached struct{}

// EventName implements Event.
func (MessageIgnored) EventName() string { return "message_ignored" }

// EventName implements Event.
func (PostCompletionReplied) EventName() string { return "post_completion_replied" }

// EventName implements Event.
func (SafetyFlagged) EventName() string { return "safety_flagged" }

// EventName implements Event.
func (GuardrailApplied) EventName() string { return "guardrail_applied" }

// EventName implements Event.
func (MasteryUpdated) EventName() string { return "mastery_updated" }

// EventName implements Event.
func (MisconceptionRecorded) EventName() string { return "misconception_recorded" }

// EventName implements Event.
func (QuestionAsked) EventName() string { return "question_asked" }

// EventName implements Event.
func (QuestionCleared) EventName() string { return "question_cleared" }

// EventName implements Event.
func (WrongAnswer) EventName() string { return "wrong_answer" }

// EventName implements Event.
func (PhaseChanged) EventName() string { return "phase_changed" }

// EventName implements Event.
func (StepAdvanced) EventName() string { return "step_advanced" }

// EventName implements Event.
func (SessionCompleted) EventName() string { return "session_completed" }

// EventName implements Event.
func (OffTopic) EventName() string { return "off_topic" }

// EventName implements Event.
func (ExamAnswerRecorded) EventName() string { return "exam_answer_recorded" }

// EventName implements Event.
func (ExamQuestionRepeated) EventName() string { return "exam_question_repeated" }

// EventName implements Event.
func (ExamFinished) EventName() string { return "exam_finished" }

// EventName implements Event.
func (ExamAlreadyComplete) EventName() string { return "exam_already_complete" }

// EventName implements Event.
func (ClarifyCompleted) EventName() string { return "clarify_completed" }

// EventName implements Event.
func (Paused) EventName() string { return "paused" }

// EventName implements Event.
func (TimeLimitReached) EventName() string { return "time_limit_reached" }
