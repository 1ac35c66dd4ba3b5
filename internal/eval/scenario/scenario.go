// Package scenario reads evaluation scenarios: YAML files that each
// describe one tutoring session to run against tutord — the session to
// create, the learner's side (fixed turns, a simulated learner, or both)
// and what to expect of the tutor's replies and of the session's state,
// per turn and at the end.
//
// eval/README.md documents the format for authors and
// eval/scenario.schema.json is its JSON Schema. [Parse] reports every
// problem of a file with its line and field; [Load] reads a suite and keeps
// the scenarios of good files when others are broken.
package scenario

import (
	"github.com/tutord/tutord/internal/eval/learner"
)

// Scenario is one evaluation scenario.
type Scenario struct {
	// File is the path the scenario was read from; not part of the format.
	File string `yaml:"-" json:"-"`

	// Name identifies the scenario in reports; it defaults to the file's
	// name without its extension and is unique in a suite.
	Name        string   `yaml:"name" json:"name"`
	Description string   `yaml:"description" json:"description,omitempty"`
	Tags        []string `yaml:"tags" json:"tags,omitempty"`
	// Subtopic is the full key of the subtopic the session is on, e.g.
	// mathematics/fractions/adding-and-subtracting-fractions.
	Subtopic string `yaml:"subtopic" json:"subtopic"`
	// Grade is the learner's grade; 0 means the subtopic's grade.
	Grade int `yaml:"grade" json:"grade,omitempty"`
	// Mode is the session's mode; empty means teach_me.
	Mode    Mode    `yaml:"mode" json:"mode"`
	Learner Learner `yaml:"learner" json:"learner"`
	// Turns are the learner's fixed turns, played in order before any
	// simulated turn.
	Turns []Turn `yaml:"turns" json:"turns,omitempty"`
	// Expect holds the expectations on the whole session.
	Expect *Final `yaml:"expect" json:"expect,omitempty"`
}

// Mode is a session mode.
type Mode string

// The modes.
const (
	TeachMe       Mode = "teach_me"
	ClarifyDoubts Mode = "clarify_doubts"
	Exam          Mode = "exam"
)

// Modes lists the modes.
var Modes = []Mode{TeachMe, ClarifyDoubts, Exam}

// Learner is who the learner is and, when Persona is set, how the
// simulated learner plays.
type Learner struct {
	// Name, Age and AboutMe go into the learner's profile, which needs an
	// authenticated learner (the harness's --jwt-secret or --token).
	Name    string `yaml:"name" json:"name,omitempty"`
	Age     int    `yaml:"age" json:"age,omitempty"`
	AboutMe string `yaml:"about_me" json:"about_me,omitempty"`
	// Persona names the simulated learner's profile (see learner.Personas);
	// empty means no simulated turns.
	Persona string `yaml:"persona" json:"persona,omitempty"`
	// Traits override some of the persona's parameters.
	Traits learner.Overrides `yaml:"traits" json:"traits"`
	// Seed makes the simulated learner's choices; 0 means the run's seed.
	Seed uint64 `yaml:"seed" json:"seed,omitempty"`
	// MaxTurns bounds the simulated turns; 0 means 20 (the reference's).
	MaxTurns int `yaml:"max_turns" json:"max_turns,omitempty"`
	// AfterComplete is how many simulated turns to take once the session
	// is complete (post-completion messages); 0 stops at completion.
	AfterComplete int `yaml:"after_complete" json:"after_complete,omitempty"`
}

// DefaultMaxTurns is the simulated turns of a scenario that sets none.
const DefaultMaxTurns = 20

// Turn is one fixed turn of the learner: exactly one of Say, Answer and
// Action.
type Turn struct {
	// Say sends a message.
	Say string `yaml:"say" json:"say,omitempty"`
	// Answer answers the question the tutor is waiting on: its right
	// answer, or a plausible wrong one.
	Answer AnswerKind `yaml:"answer" json:"answer,omitempty"`
	// Action does something other than chat: a lifecycle call over REST,
	// a reconnection or a state request over the WebSocket.
	Action Action `yaml:"action" json:"action,omitempty"`
	// Unsafe marks a message that should raise a safety flag; every other
	// message is counted as safe in the safety figures.
	Unsafe bool    `yaml:"unsafe" json:"unsafe,omitempty"`
	Expect *Expect `yaml:"expect" json:"expect,omitempty"`
}

// AnswerKind is which answer a turn gives.
type AnswerKind string

// The answer kinds.
const (
	AnswerCorrect AnswerKind = "correct"
	AnswerWrong   AnswerKind = "wrong"
)

// Action is a turn that is not a chat message.
type Action string

// The actions.
const (
	Pause      Action = "pause"       // POST /sessions/{id}/pause
	Resume     Action = "resume"      // POST /sessions/{id}/resume
	EndExam    Action = "end_exam"    // POST /sessions/{id}/end-exam
	EndClarify Action = "end_clarify" // POST /sessions/{id}/end-clarify
	Reconnect  Action = "reconnect"   // close the WebSocket and open a new one
	GetState   Action = "get_state"   // ask for the state over the WebSocket
)

// Actions lists the actions.
var Actions = []Action{Pause, Resume, EndExam, EndClarify, Reconnect, GetState}

// REST reports whether the action is a REST call, which needs an
// authenticated learner.
func (a Action) REST() bool {
	return a == Pause || a == Resume || a == EndExam || a == EndClarify
}

// Expect holds the expectations of one turn.
type Expect struct {
	Reply *ReplyExpect `yaml:"reply" json:"reply,omitempty"`
	State *StateExpect `yaml:"state" json:"state,omitempty"`
	// Error expects an error frame containing this text (case-insensitive)
	// instead of a reply.
	Error string `yaml:"error" json:"error,omitempty"`
	// SafetyFlag expects the turn to raise a safety flag (true) or not
	// (false).
	SafetyFlag *bool `yaml:"safety_flag" json:"safety_flag,omitempty"`
	// Status is the HTTP status expected of a REST action; 0 means 200.
	Status int `yaml:"status" json:"status,omitempty"`
}

// ReplyExpect holds expectations on a tutor reply.
type ReplyExpect struct {
	// Answer is withheld (the reply must not give away the answer of the
	// question pending before the turn or of one it asks) or revealed
	// (it must give away the pending question's answer).
	Answer AnswerCheck `yaml:"answer" json:"answer,omitempty"`
	// MaxSentences bounds the reply's sentences.
	MaxSentences int `yaml:"max_sentences" json:"max_sentences,omitempty"`
	// MentionsName expects the learner's name in the reply.
	MentionsName bool `yaml:"mentions_name" json:"mentions_name,omitempty"`
	// NoInternalLanguage forbids talk about "the student", field names,
	// JSON and the like (the harness's sanitization patterns).
	NoInternalLanguage bool `yaml:"no_internal_language" json:"no_internal_language,omitempty"`
	// Contains and NotContains are texts the reply must (not) contain,
	// case-insensitively.
	Contains    []string `yaml:"contains" json:"contains,omitempty"`
	NotContains []string `yaml:"not_contains" json:"not_contains,omitempty"`
	// Matches is a regular expression (RE2) the reply must match.
	Matches string `yaml:"matches" json:"matches,omitempty"`
}

// AnswerCheck says whether a reply may give the answer away.
type AnswerCheck string

// The answer checks.
const (
	Withheld AnswerCheck = "withheld"
	Revealed AnswerCheck = "revealed"
)

// StateExpect holds expectations on the session's state: the WebSocket's
// state_update, and counts from the session document.
type StateExpect struct {
	CurrentStep *Range `yaml:"current_step" json:"current_step,omitempty"`
	// QuestionPhase is asked, probe, hint, explain, or none (no question
	// pending).
	QuestionPhase string `yaml:"question_phase" json:"question_phase,omitempty"`
	// LastAnswerResult is correct, partial, incorrect, or none (the turn
	// judged no answer).
	LastAnswerResult string `yaml:"last_answer_result" json:"last_answer_result,omitempty"`
	IsComplete       *bool  `yaml:"is_complete" json:"is_complete,omitempty"`
	IsPaused         *bool  `yaml:"is_paused" json:"is_paused,omitempty"`
	// Mastery bounds the mastery of concepts.
	Mastery  map[string]Range `yaml:"mastery" json:"mastery,omitempty"`
	Coverage *Range           `yaml:"coverage" json:"coverage,omitempty"`
	// ConceptsDiscussed must all be among the concepts discussed.
	ConceptsDiscussed []string `yaml:"concepts_discussed" json:"concepts_discussed,omitempty"`
	// ExamScore bounds the exam's correct answers so far.
	ExamScore *Range `yaml:"exam_score" json:"exam_score,omitempty"`
	// ExamFinished expects the exam to have finished (or not).
	ExamFinished *bool `yaml:"exam_finished" json:"exam_finished,omitempty"`
	// SafetyFlags bounds the safety flags raised in the session.
	SafetyFlags *Range `yaml:"safety_flags" json:"safety_flags,omitempty"`
	// TurnCount bounds the turns tutord counted.
	TurnCount *Range `yaml:"turn_count" json:"turn_count,omitempty"`
}

// Final holds the expectations on a whole session.
type Final struct {
	// State is checked against the state after the last turn.
	State *StateExpect `yaml:"state" json:"state,omitempty"`
	// EveryReply is checked against every tutor reply, the welcome too.
	EveryReply *ReplyExpect `yaml:"every_reply" json:"every_reply,omitempty"`
	// SomeReply must hold of at least one tutor reply.
	SomeReply *ReplyExpect `yaml:"some_reply" json:"some_reply,omitempty"`
	// Completed expects the session to reach completion (or not).
	Completed *bool `yaml:"completed" json:"completed,omitempty"`
	// Metrics bounds the scenario's metrics by name (see the harness's
	// report: leaks_before_explain, sanitization_leaks, turns_to_complete,
	// ...).
	Metrics map[string]Range `yaml:"metrics" json:"metrics,omitempty"`
}

// NeedsLearnerAccount reports whether the scenario needs an authenticated
// learner: REST actions and a profile (name, age) need one.
func (s *Scenario) NeedsLearnerAccount() bool {
	if s.Learner.Name != "" || s.Learner.Age != 0 || s.Learner.AboutMe != "" {
		return true
	}
	for _, t := range s.Turns {
		if t.Action.REST() {
			return true
		}
	}
	return false
}

// Profile returns the simulated learner's profile: the persona's with the
// scenario's traits. ok is false when the scenario has no persona.
func (s *Scenario) Profile() (p learner.Profile, ok bool) {
	p, ok = learner.Personas[s.Learner.Persona]
	if !ok {
		return learner.Profile{}, false
	}
	return s.Learner.Traits.Apply(p), true
}
