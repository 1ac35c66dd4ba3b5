package runner

import (
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/tutord/tutord/internal/eval/client"
)

// Status is the outcome of a scenario.
type Status string

// The statuses.
const (
	Passed Status = "passed" // every expectation held
	Failed Status = "failed" // an expectation did not hold
	Error  Status = "error"  // the scenario could not be played to its end
)

// Result is one scenario's run: its outcome, transcript and metrics.
type Result struct {
	Name        string   `json:"name"`
	File        string   `json:"file"`
	Description string   `json:"description,omitempty"`
	Tags        []string `json:"tags,omitempty"`
	Subtopic    string   `json:"subtopic"`
	Mode        string   `json:"mode"`
	Persona     string   `json:"persona,omitempty"`
	Status      Status   `json:"status"`
	// Error says why the scenario could not be played to its end.
	Error    string    `json:"error,omitempty"`
	Failures []Failure `json:"failures,omitempty"`
	// SessionID is the session tutord created; Learner is the token's
	// subject, "" for an anonymous session.
	SessionID string    `json:"session_id,omitempty"`
	Learner   string    `json:"learner,omitempty"`
	StartedAt time.Time `json:"started_at"`
	Duration  Millis    `json:"duration_ms"`
	// Turns is the transcript: the welcome (index 0), then each turn.
	Turns []Turn `json:"turns,omitempty"`
	// SessionSummary and ReportCard are what GET /sessions/{id}/summary
	// and, for a learner with an account, GET /sessions/report-card
	// answered at the end, as the frontend reads them.
	SessionSummary json.RawMessage `json:"session_summary,omitempty"`
	ReportCard     json.RawMessage `json:"report_card,omitempty"`
	Metrics        Metrics         `json:"metrics"`
}

// Failure is an expectation that did not hold.
type Failure struct {
	// At is where: "turn 3", or "session" for the expectations on the
	// whole session.
	At    string `json:"at"`
	Check string `json:"check"` // the expectation, e.g. state.question_phase
	Want  string `json:"want"`
	Got   string `json:"got"`
}

// String formats the failure as a one-line diff.
func (f Failure) String() string {
	return fmt.Sprintf("%s: %s: want %s, got %s", f.At, f.Check, f.Want, f.Got)
}

// Turn is one turn of a transcript.
type Turn struct {
	Index int `json:"index"`
	// Kind is welcome, message, action, reconnect or get_state.
	Kind   string `json:"kind"`
	Action string `json:"action,omitempty"`
	// Learner is the message sent; Move what it does (fixed for a scripted
	// message, else the simulated learner's or the answer turn's move).
	Learner string `json:"learner,omitempty"`
	Move    string `json:"move,omitempty"`
	Unsafe  bool   `json:"unsafe,omitempty"`
	// Tutor is the tutor's reply; Error the text of an error frame.
	Tutor string `json:"tutor,omitempty"`
	Error string `json:"error,omitempty"`
	// Status and Response are a REST action's answer.
	Status   int             `json:"status,omitempty"`
	Response json.RawMessage `json:"response,omitempty"`
	// Frames are the frames received, with when they came after the send.
	Frames []FrameTime `json:"frames,omitempty"`
	// Latency runs from the send to the state_update that ends the turn;
	// ReplyLatency to the tutor's reply.
	Latency      Millis `json:"latency_ms"`
	ReplyLatency Millis `json:"reply_latency_ms,omitempty"`
	// State is the session's state after the turn.
	State *client.State `json:"state,omitempty"`
	// Question is the question waiting for an answer before the turn;
	// Asked the one waiting after it, when another.
	Question *QuestionRef `json:"question,omitempty"`
	Asked    *QuestionRef `json:"asked,omitempty"`
	// SafetyFlags counts the session's safety flags after the turn;
	// Flagged reports that this turn raised one.
	SafetyFlags int  `json:"safety_flags"`
	Flagged     bool `json:"flagged,omitempty"`
	// Resends counts the times the message was sent again because the
	// server asked to wait; Conflict reports the "updated from another
	// tab" error.
	Resends  int  `json:"resends,omitempty"`
	Conflict bool `json:"conflict,omitempty"`

	// What the harness found in the reply.
	Sentences int      `json:"sentences,omitempty"`
	Pacing    string   `json:"pacing,omitempty"`          // the pacing directive the turn falls under
	Budget    int      `json:"sentence_budget,omitempty"` // the sentences that directive allows
	Leaks     []Leak   `json:"leaks,omitempty"`
	Internal  []string `json:"internal_language,omitempty"`
	Repeated  bool     `json:"repeated,omitempty"`
}

// Replied reports whether the turn got a tutor reply.
func (t *Turn) Replied() bool { return t.Tutor != "" }

// OverBudget reports whether the reply is longer than its pacing allows.
func (t *Turn) OverBudget() bool { return t.Budget > 0 && t.Sentences > t.Budget }

// Chat reports whether the turn sent a learner message.
func (t *Turn) Chat() bool { return t.Kind == "message" }

// QuestionRef identifies a question of the session.
type QuestionRef struct {
	ID      string `json:"id,omitempty"`
	Text    string `json:"text"`
	Answer  string `json:"answer,omitempty"`
	Concept string `json:"concept,omitempty"`
	Phase   string `json:"phase,omitempty"`
}

// Leak is a sentence of a reply that gives an answer away.
type Leak struct {
	Question string `json:"question"` // the question's id, or its text
	Answer   string `json:"answer"`
	Sentence string `json:"sentence"`
	Form     string `json:"form"`
	Reason   string `json:"reason"`
	// BeforeExplain reports that the question had not reached the explain
	// phase of the hint ladder (or was an exam question still open).
	BeforeExplain bool `json:"before_explain"`
}

// FrameTime is a frame received and when; a state_update keeps its state.
type FrameTime struct {
	Type  string        `json:"type"`
	At    Millis        `json:"at_ms"`
	State *client.State `json:"state,omitempty"`
}

// Millis is a duration in milliseconds.
type Millis float64

// ms converts a duration, to the microsecond.
func ms(d time.Duration) Millis {
	return Millis(math.Round(float64(d)/float64(time.Microsecond)) / 1000)
}
