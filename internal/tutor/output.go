package tutor

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/tutord/tutord/internal/tutor/answer"
)

// Intent is what the learner was doing, as the tutor read it.
type Intent string

// The intents. teach_me and exam use the first seven; clarify_doubts uses
// question, followup, done and off_topic.
const (
	IntentAnswer        Intent = "answer"
	IntentAnswerChange  Intent = "answer_change"
	IntentQuestion      Intent = "question"
	IntentConfusion     Intent = "confusion"
	IntentNovelStrategy Intent = "novel_strategy"
	IntentOffTopic      Intent = "off_topic"
	IntentContinuation  Intent = "continuation"
	IntentFollowup      Intent = "followup"
	IntentDone          Intent = "done"
)

// Valid reports whether i is one of the intents.
func (i Intent) Valid() bool {
	switch i {
	case IntentAnswer, IntentAnswerChange, IntentQuestion, IntentConfusion, IntentNovelStrategy,
		IntentOffTopic, IntentContinuation, IntentFollowup, IntentDone:
		return true
	}
	return false
}

// MasterySignal is the tutor's read of how well an answer shows mastery.
type MasterySignal string

// The mastery signals.
const (
	SignalStrong           MasterySignal = "strong"
	SignalAdequate         MasterySignal = "adequate"
	SignalNeedsRemediation MasterySignal = "needs_remediation"
)

// Valid reports whether s is one of the signals.
func (s MasterySignal) Valid() bool {
	return s == SignalStrong || s == SignalAdequate || s == SignalNeedsRemediation
}

// MasteryUpdate is the tutor's estimate of one concept's mastery.
type MasteryUpdate struct {
	Concept string  `json:"concept" jsonschema:"The concept's name exactly as the study plan spells it."`
	Score   float64 `json:"score" jsonschema:"Mastery from 0.0 to 1.0: about 0.3 after a wrong answer, 0.6 partly right, 0.8 right, 0.95 right with sound reasoning."`
}

// TutorOutput is the tutor's structured output for one turn: the words for
// the learner and the moves for the program. Field names are the reference
// service's; a pointer field is nullable. A JSON schema for models is
// generated from this type, so the jsonschema tags speak to a model.
type TutorOutput struct {
	Response               string          `json:"response" jsonschema:"Your reply to the student, written to them directly."`
	Intent                 Intent          `json:"intent" jsonschema:"What the student was doing. Lesson and exam: answer, answer_change, question, confusion, novel_strategy, off_topic or continuation. Doubts session: question, followup, done or off_topic."`
	AnswerCorrect          *bool           `json:"answer_correct" jsonschema:"If the student answered a question: whether the answer is correct. Null when the student was not answering."`
	MisconceptionsDetected []string        `json:"misconceptions_detected" jsonschema:"Short descriptions of misconceptions the student's message shows; empty when none."`
	MasterySignal          *MasterySignal  `json:"mastery_signal" jsonschema:"strong, adequate or needs_remediation; null when the message shows nothing about mastery."`
	AdvanceToStep          *int            `json:"advance_to_step" jsonschema:"The study-plan step number to move to when the student is ready; null to stay on the current step."`
	MasteryUpdates         []MasteryUpdate `json:"mastery_updates" jsonschema:"Updated mastery estimates for study-plan concepts this turn showed something about; empty when none."`
	QuestionAsked          *string         `json:"question_asked" jsonschema:"The question your reply asks the student, if it asks one; null otherwise."`
	ExpectedAnswer         *string         `json:"expected_answer" jsonschema:"The correct answer to the question you asked; null when you asked none."`
	QuestionConcept        *string         `json:"question_concept" jsonschema:"The study-plan concept your question tests; null when you asked none."`
	SessionComplete        bool            `json:"session_complete" jsonschema:"True only when the student has finished the final step and shown understanding, or in a doubts session has said they are done."`
	TurnSummary            string          `json:"turn_summary" jsonschema:"One sentence of at most 80 characters summarising this turn."`
	Reasoning              string          `json:"reasoning" jsonschema:"Your private reasoning about the teaching move. Never shown to the student."`

	// RightStep, when set, is the right intermediate step of the pending
	// question's worked solution that the learner's reply gave, in the
	// solution's words ("one part is 100 rupees" for "100" when ₹900 is
	// shared 4 : 5): not an answer, so the guardrails count no wrong
	// attempt, and ApplyTurn records it in Question.StepsShown. Clues are
	// the help the reply gave towards the pending question (its hints,
	// steps of its solution), recorded in Question.CluesGiven. Only program
	// code sets them (the rules engine, which finds the steps in the
	// solution); they are no part of a model's output.
	RightStep string   `json:"-"`
	Clues     []string `json:"-"`
	// SetAside, when set and the reply asks nothing, drops the pending
	// question: a learner who declines a question after the lesson ("no
	// thanks") is not graded on their next message. Program code only.
	SetAside bool `json:"-"`
}

// Validate reports the ways the output breaks the output contract beyond
// what a JSON schema can say: an empty response, an unknown intent or
// mastery signal, a mastery update without a concept or with a score that
// is no number, a step number below 1. The error wraps ErrInvalidOutput and
// lists every problem, so that one retry can fix them all.
//
// An overlong turn_summary is not an error: it is cut to 80 characters when
// the turn is applied, which is cheaper than a retry. Nor is a score
// outside [0, 1]: it is clamped when applied, as the reference does (a
// model that scores on another scale does so again when asked to repair,
// and the learner's answer was lost with the turn).
func (o *TutorOutput) Validate() error {
	var problems []string
	if strings.TrimSpace(o.Response) == "" {
		problems = append(problems, "response is empty")
	}
	if !o.Intent.Valid() {
		problems = append(problems, fmt.Sprintf("intent %q is not one of answer, answer_change, question, confusion, novel_strategy, off_topic, continuation, followup, done", o.Intent))
	}
	if o.MasterySignal != nil && !o.MasterySignal.Valid() {
		problems = append(problems, fmt.Sprintf("mastery_signal %q is not one of strong, adequate, needs_remediation", *o.MasterySignal))
	}
	for i, u := range o.MasteryUpdates {
		if strings.TrimSpace(u.Concept) == "" {
			problems = append(problems, fmt.Sprintf("mastery_updates[%d].concept is empty", i))
		}
		if math.IsNaN(u.Score) || math.IsInf(u.Score, 0) {
			problems = append(problems, fmt.Sprintf("mastery_updates[%d].score %v is no number", i, u.Score))
		}
	}
	switch q, a := text(o.QuestionAsked), text(o.ExpectedAnswer); {
	case q != "" && a == "":
		// An untracked answer leaves the next reply to the model's word
		// alone: the deterministic check needs one.
		problems = append(problems, "question_asked has no expected_answer: give its correct answer, or set both to null")
	case q != "" && QuestionStatesAnswer(q, a):
		// "Double 6 is 12, so what is double 6?": the reply may quote
		// its question, so the leak check would pass it.
		problems = append(problems, "question_asked states its own expected_answer: ask without giving it")
	}
	if o.AdvanceToStep != nil && *o.AdvanceToStep < 1 {
		problems = append(problems, fmt.Sprintf("advance_to_step %d is below 1", *o.AdvanceToStep))
	}
	if len(problems) == 0 {
		return nil
	}
	return &Error{Code: ErrInvalidOutput.Code, Message: "invalid tutor output: " + strings.Join(problems, "; ")}
}

// QuestionStatesAnswer reports whether a question with a numeric answer
// states it ("Double 6 is 12, so what is double 6?"), as a statement
// would: read without its question mark, so that the question's own
// asking does not excuse it. A word answer may stand in its question among
// others ("photosynthesis or respiration?"), and is not looked for.
func QuestionStatesAnswer(question, expected string) bool {
	if !answer.InferKind(expected).Numeric() {
		return false
	}
	stated := strings.TrimRight(strings.TrimSpace(question), "?？ ") + "."
	return len(answer.DetectLeaks(answer.LeakCheck{Expected: answer.Expected{Answer: expected}, Reply: stated})) > 0
}

// clone returns a copy that Guard may change: Guard replaces pointers
// rather than writing through them, and filters MasteryUpdates in place, so
// only that slice is copied.
func (o *TutorOutput) clone() *TutorOutput {
	if o == nil {
		return nil
	}
	c := *o
	c.MasteryUpdates = slices.Clone(o.MasteryUpdates)
	return &c
}

// text returns *p, or "" for nil, with surrounding space removed: models
// write "" where they mean null.
func text(p *string) string {
	if p == nil {
		return ""
	}
	return strings.TrimSpace(*p)
}

// EnumValues lists the intents, so that a JSON schema generated from
// TutorOutput constrains them.
func (Intent) EnumValues() []string {
	return []string{string(IntentAnswer), string(IntentAnswerChange), string(IntentQuestion), string(IntentConfusion),
		string(IntentNovelStrategy), string(IntentOffTopic), string(IntentContinuation), string(IntentFollowup), string(IntentDone)}
}

// EnumValues lists the mastery signals.
func (MasterySignal) EnumValues() []string {
	return []string{string(SignalStrong), string(SignalAdequate), string(SignalNeedsRemediation)}
}
