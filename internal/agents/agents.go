// Package agents defines the agents of a tutoring turn — safety, master
// tutor, exam generator, exam evaluator, welcome and post-completion — as
// interfaces, with the inputs and outputs they share. Each has two kinds of
// implementation: the built-in rules engine (package agents/rules), which
// needs no network and is the default, and model-backed agents (package
// agents/llmagent) that render prompt templates and call a provider with a
// strict output schema. A session's pinned configuration picks one per
// component (package agents/engine).
//
// Agents decide words and teaching moves; they never change state. The
// orchestrator applies their outputs through the tutor package's pure
// functions.
package agents

import (
	"context"
	"encoding/json"
	"time"

	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

// Agent names, as they appear in agent logs.
const (
	NameSafety         = "safety"
	NameMasterTutor    = "master_tutor"
	NameExamGenerator  = "exam_generator"
	NameExamEvaluator  = "exam_evaluator"
	NameWelcome        = "welcome"
	NamePostCompletion = "post_completion"
)

// Call records one agent call for the turn's agent log: who answered, with
// what prompt, what came back, how long it took and what it cost. Rules
// agents report provider "rules" and no tokens.
type Call struct {
	Agent        string
	Provider     string
	Model        string
	Prompt       string          // the full prompt of a model call; empty for rules agents
	Output       json.RawMessage // the agent's output as JSON
	Reasoning    string          // the model's reasoning, when it gives one (never shown to learners)
	Latency      time.Duration
	Attempts     int
	InputTokens  int
	OutputTokens int
	CachedTokens int
	CostUSD      float64
	Err          error // the failure, when the call failed
}

// Turn is what the tutoring agents see of one turn.
type Turn struct {
	// State is the session's state before the turn.
	State tutor.State
	// Topic is the lesson the session runs on.
	Topic *tutor.Topic
	// Message is the learner's message.
	Message string
	// Precheck is the pre-check result of Message.
	Precheck tutor.Precheck
	// Evaluation is the deterministic evaluator's judgement of Message
	// against the pending question (or the current exam question); its
	// Verdict is empty when there was nothing to check. When the verdict
	// is known it is a fact the tutor must not contradict.
	Evaluation answer.Result
	// Guard holds the guardrails' directives for this turn: whether the
	// reply may reveal the answer, must explain, or must wrap up.
	Guard tutor.Guarded
	// PastDiscussions are what earlier doubts sessions on the subtopic
	// discussed (clarify_doubts only).
	PastDiscussions []PastDiscussion
	// Correction, when set, asks for a new reply because the previous one
	// broke a rule (it leaked the answer or internal language); it says how.
	Correction string
	// Now is the time of the turn.
	Now time.Time
}

// PastDiscussion is what an earlier doubts session discussed.
type PastDiscussion struct {
	Date     time.Time
	Concepts []string
}

// TutorReply is the master tutor's answer to a turn.
type TutorReply struct {
	// Output is the structured output; Output.Response is the reply text.
	Output tutor.TutorOutput
	// NextQuestion is the bank question the tutor asked, when it asked one
	// from the lesson's question bank; it becomes the pending question.
	NextQuestion *tutor.BankQuestion
}

// Tutor is the master tutor: one call per teach_me or clarify_doubts turn.
type Tutor interface {
	// Respond returns the tutor's reply to a turn. It returns an error
	// (an *llm.Error for model failures) when no valid reply could be had.
	Respond(ctx context.Context, t Turn) (TutorReply, Call, error)
}

// SafetyVerdict is the safety gate's judgement of a message.
type SafetyVerdict struct {
	Safe      bool   `json:"is_safe"`
	Category  string `json:"violation_type"` // self_harm, violence, sexual, hate, personal_data, ...; "" when safe
	Guidance  string `json:"guidance"`       // the reply to give instead of tutoring; "" when safe
	Warn      bool   `json:"should_warn"`
	Reasoning string `json:"reasoning"`
}

// Safety is the fast content gate in front of every turn, and the check on
// every reply before it is sent.
type Safety interface {
	// Check judges text written by role ("student" or "tutor").
	Check(ctx context.Context, role, text string, s tutor.State) (SafetyVerdict, Call, error)
}

// ExamRequest asks for exam questions.
type ExamRequest struct {
	// SessionID is the id of the session being created, for the usage
	// records of model calls (the session is stored after its exam is
	// written).
	SessionID string
	Topic     *tutor.Topic
	Student   tutor.StudentContext
	Count     int    // how many questions (7 by default; 3 on the retry)
	Seed      string // makes a rules-generated exam reproducible, e.g. the session id
}

// ExamGenerator writes an exam's questions at session creation.
type ExamGenerator interface {
	// Generate returns up to r.Count questions; fewer (or none) is not an
	// error, but an empty exam cannot start.
	Generate(ctx context.Context, r ExamRequest) ([]tutor.ExamQuestion, Call, error)
}

// ExamJudgement is the exam evaluator's judgement of one answer.
type ExamJudgement struct {
	AnswerCorrect *bool                `json:"answer_correct"`
	MasterySignal *tutor.MasterySignal `json:"mastery_signal"`
	Feedback      string               `json:"feedback"` // one line, recorded, not shown mid-exam
}

// ExamEvaluator judges an exam answer the deterministic evaluator could not
// check. It sees the question and its expected answer.
type ExamEvaluator interface {
	Judge(ctx context.Context, t Turn, q tutor.ExamQuestion) (ExamJudgement, Call, error)
}

// Welcomer writes a session's first message, per mode.
type Welcomer interface {
	Welcome(ctx context.Context, s tutor.State, t *tutor.Topic) (string, Call, error)
}

// PostCompletion answers a message sent after the session ended: briefly,
// and reminding the learner they can start a new session.
type PostCompletion interface {
	Reply(ctx context.Context, t Turn) (string, Call, error)
}

// Set is the agents of one session, one per component.
type Set struct {
	Safety         Safety
	Tutor          Tutor
	ExamGenerator  ExamGenerator
	ExamEvaluator  ExamEvaluator
	Welcome        Welcomer
	PostCompletion PostCompletion
}

// learnerKey is the context key of WithLearner.
type learnerKey struct{}

// WithLearner returns a context naming the learner on whose behalf agents
// act: model-backed agents put the id in each call's usage record and check
// the learner's daily budget against it. Calls without one are anonymous.
func WithLearner(ctx context.Context, learnerID string) context.Context {
	return context.WithValue(ctx, learnerKey{}, learnerID)
}

// LearnerFrom returns the learner id set by WithLearner, or "".
func LearnerFrom(ctx context.Context) string {
	id, _ := ctx.Value(learnerKey{}).(string)
	return id
}
