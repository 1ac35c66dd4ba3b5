package tutor

import (
	"maps"
	"slices"
	"time"

	"github.com/tutord/tutord/internal/tutor/answer"
)

// SchemaVersion is the version of the state JSON this package writes.
// DecodeState upgrades every older version to it.
const SchemaVersion = 1

// Limits that keep a state the same size at turn 500 as at turn 5.
const (
	HistoryWindow     = 10 // messages in conversation_history
	TimelineCap       = 30 // entries in session_summary.turn_timeline
	MaxExtensionTurns = 10 // turns a completed teach_me session keeps tutoring beyond 2 × total_steps

	maxPreviousAnswers   = 5  // previous_student_answers kept per question (the prompt shows 3)
	maxSafetyFlags       = 20 // safety_flags kept (the most recent)
	maxMisconceptions    = 10 // distinct misconceptions kept, as the reference's merge helper
	maxConceptsDiscussed = 50 // clarify concepts kept (the first ones)
	previousAnswerRunes  = 200
	turnSummaryRunes     = 80
	descriptionRunes     = 200
)

// Mode is a session's mode, fixed at creation.
type Mode string

// The modes.
const (
	ModeTeachMe Mode = "teach_me"
	ModeClarify Mode = "clarify_doubts"
	ModeExam    Mode = "exam"
)

// Valid reports whether m is one of the modes.
func (m Mode) Valid() bool { return m == ModeTeachMe || m == ModeClarify || m == ModeExam }

// Role is who wrote a message.
type Role string

// The roles.
const (
	RoleTeacher Role = "teacher"
	RoleStudent Role = "student"
)

// Message is one message of the conversation.
type Message struct {
	Role      Role    `json:"role"`
	Content   string  `json:"content"`
	Timestamp Time    `json:"timestamp"`
	MessageID *string `json:"message_id"` // never set; kept for the document's shape
	// Withheld marks a learner's message that the safety gate flagged: the
	// prompts that show the conversation show a placeholder instead, so
	// that what it shared (a phone number, abuse) is not sent to a model
	// again on later turns. The learner's transcript keeps the text.
	Withheld bool `json:"withheld,omitempty"`
}

// StudentContext is what the tutor knows about the learner.
type StudentContext struct {
	Grade             int      `json:"grade"` // 1..12
	Board             string   `json:"board"`
	LanguageLevel     string   `json:"language_level"` // simple | standard | advanced
	PreferredExamples []string `json:"preferred_examples"`
	StudentName       *string  `json:"student_name"`
	StudentAge        *int     `json:"student_age"`
	AboutMe           *string  `json:"about_me"`
	// Language is the learner's preferred language (the request's
	// prefs.lang, e.g. "en", "hi"); "" means English. Prompts ask a model
	// to answer in it; the rules engine answers in English.
	Language string `json:"language"`
	// Style is the requested challenge level (prefs.style: simple, standard,
	// challenge); "" means standard.
	Style string `json:"style"`
}

// DefaultPreferredExamples are the reference's default example themes.
func DefaultPreferredExamples() []string { return []string{"food", "sports", "games"} }

// Phase is where a pending question is on the hint ladder.
type Phase string

// The phases, in order. The probe is the level-1 hint (a conceptual nudge),
// the hint is level 2 (the first step); only the explain phase may show the
// answer.
const (
	PhaseAsked   Phase = "asked"
	PhaseProbe   Phase = "probe"
	PhaseHint    Phase = "hint"
	PhaseExplain Phase = "explain"
)

// Result is the judgement of one answer.
type Result string

// The results.
const (
	ResultCorrect   Result = "correct"
	ResultPartial   Result = "partial"
	ResultIncorrect Result = "incorrect"
)

func (r Result) valid() bool { return r == ResultCorrect || r == ResultPartial || r == ResultIncorrect }

// Trend is the session's progress trend.
type Trend string

// The trends.
const (
	TrendImproving  Trend = "improving"
	TrendSteady     Trend = "steady"
	TrendStruggling Trend = "struggling"
)

// Question is the pending question of a teach_me session and its lifecycle.
// The first nine fields are the reference's; the rest are tutord's.
type Question struct {
	QuestionText           string   `json:"question_text"`
	ExpectedAnswer         string   `json:"expected_answer"`
	Concept                string   `json:"concept"`
	Rubric                 string   `json:"rubric"`
	Hints                  []string `json:"hints"`      // the graded hints, level 1 then 2
	HintsUsed              int      `json:"hints_used"` // hint levels given, up to 2: one more per wrong answer or "I don't know", and each hint given for help asked
	WrongAttempts          int      `json:"wrong_attempts"`
	PreviousStudentAnswers []string `json:"previous_student_answers"` // the last few wrong answers
	Phase                  Phase    `json:"phase"`

	QuestionID string      `json:"question_id"` // the bank question's id; "" when a model wrote the question
	AnswerKind answer.Kind `json:"answer_kind"`
	IDKCount   int         `json:"idk_count"` // "I don't know" replies: not attempts, they do not climb the ladder
	AskedAt    *Time       `json:"asked_at"`  // null when unknown (questions of reference documents)
	// The help the tutor gave towards the answer (hints, steps of the
	// worked solution) and the right intermediate steps the learner gave,
	// in the solution's words: so that no clue comes twice and help goes
	// on from where the learner got to (see TutorOutput.Clues, RightStep).
	CluesGiven []string `json:"clues_given,omitempty"`
	StepsShown []string `json:"steps_shown,omitempty"`
	// MisconceptionCounted: the bank question's misconception was recorded
	// for this question, which counts it once however often the learner
	// repeats it (previous_student_answers keeps only the last few).
	MisconceptionCounted bool `json:"misconception_counted,omitempty"`
}

// Expected returns what the answer evaluator compares a reply with: the
// bank question's full specification when the question came from the bank,
// else the expected answer the tutor gave.
func (q Question) Expected(t *Topic) answer.Expected {
	if bq, ok := t.Question(q.QuestionID); ok {
		return bq.Expected()
	}
	return answer.Expected{Answer: q.ExpectedAnswer, Kind: q.AnswerKind}
}

// Misconception is a misconception the learner showed, counted rather than
// repeated: the same description (ignoring case and spacing) raises Count.
type Misconception struct {
	Concept        string `json:"concept"`
	Description    string `json:"description"`
	DetectedAt     Time   `json:"detected_at"` // first detection
	Resolved       bool   `json:"resolved"`
	Count          int    `json:"count"`
	LastDetectedAt Time   `json:"last_detected_at"`
}

// Recurring reports whether the misconception was seen at least twice.
func (m Misconception) Recurring() bool { return m.Count >= 2 }

// SessionSummary is the running memory of a session. Only the timeline,
// concepts taught and trend are written; the other fields keep the
// reference document's shape.
type SessionSummary struct {
	TurnTimeline            []string          `json:"turn_timeline"`
	ConceptsTaught          []string          `json:"concepts_taught"`
	DepthReached            map[string]string `json:"depth_reached"`
	ExamplesUsed            []string          `json:"examples_used"`
	AnalogiesUsed           []string          `json:"analogies_used"`
	StudentResponsesSummary []string          `json:"student_responses_summary"`
	ProgressTrend           Trend             `json:"progress_trend"`
	StuckPoints             []string          `json:"stuck_points"`
	WhatHelped              []string          `json:"what_helped"`
	NextFocus               *string           `json:"next_focus"`
}

// ExamQuestion is one question of an exam and, once answered, its result.
type ExamQuestion struct {
	QuestionIdx    int          `json:"question_idx"` // 0-based position
	QuestionText   string       `json:"question_text"`
	Concept        string       `json:"concept"`
	Difficulty     Difficulty   `json:"difficulty"`
	QuestionType   QuestionType `json:"question_type"`
	ExpectedAnswer string       `json:"expected_answer"`
	StudentAnswer  *string      `json:"student_answer"`
	Result         *Result      `json:"result"`
	Feedback       string       `json:"feedback"` // the tutor's one-line summary; not shown mid-exam

	QuestionID string      `json:"question_id"` // the bank question's id, "" when generated
	AnswerKind answer.Kind `json:"answer_kind"`
}

// Expected returns what the answer evaluator compares a reply with.
func (q ExamQuestion) Expected(t *Topic) answer.Expected {
	if bq, ok := t.Question(q.QuestionID); ok {
		return bq.Expected()
	}
	return answer.Expected{Answer: q.ExpectedAnswer, Kind: q.AnswerKind}
}

// ShownAnswer is the expected answer as a learner reads it (see
// BankQuestion.ShownAnswer).
func (q ExamQuestion) ShownAnswer(t *Topic) string {
	if bq, ok := t.Question(q.QuestionID); ok {
		return bq.ShownAnswer()
	}
	return q.ExpectedAnswer
}

// ExamFeedback is the feedback on a finished exam. Score counts correct
// answers only, as the reference does; WeightedScore also gives half a
// point per partial answer.
type ExamFeedback struct {
	Score              int      `json:"score"`
	Total              int      `json:"total"`
	Percentage         float64  `json:"percentage"`
	Strengths          []string `json:"strengths"`
	WeakAreas          []string `json:"weak_areas"`
	Patterns           []string `json:"patterns"`
	NextSteps          []string `json:"next_steps"`
	WeightedScore      float64  `json:"weighted_score"`
	WeightedPercentage float64  `json:"weighted_percentage"`
}

// ComponentConfig is the model configuration of one component (tutor,
// safety, exam generator, ...), as resolved at session creation.
type ComponentConfig struct {
	Provider        string   `json:"provider"` // e.g. "openai", "anthropic", "google", "rules"
	Model           string   `json:"model"`
	ReasoningEffort string   `json:"reasoning_effort"`
	Temperature     *float64 `json:"temperature"`
	MaxOutputTokens int      `json:"max_output_tokens"`
}

// Config is the engine configuration pinned on a session at creation, so
// that a change of configuration never changes a session in flight.
type Config struct {
	Components map[string]ComponentConfig `json:"components"`
	// TimeLimitSeconds ends a sitting this long after its first turn; 0 is off.
	TimeLimitSeconds int `json:"time_limit_seconds"`
}

// TimeLimit returns the sitting time limit; 0 means none.
func (c Config) TimeLimit() time.Duration {
	if c.TimeLimitSeconds <= 0 {
		return 0
	}
	return time.Duration(c.TimeLimitSeconds) * time.Second
}

// State is a tutoring session's state. Its JSON is the reference service's
// stored session document without full_conversation_log (the full log lives
// in the messages table): the same keys, all present, nulls explicit, plus
// tutord's own keys. It holds a reference to its topic, not the plan: the
// functions that need the plan take the Topic beside the state.
//
// Values are treated as immutable: ApplyTurn and the lifecycle helpers
// return a new State and never modify the one they are given.
type State struct {
	SchemaVersion int `json:"schema_version"`

	SessionID          string          `json:"session_id"`
	CreatedAt          Time            `json:"created_at"`
	UpdatedAt          Time            `json:"updated_at"`
	TurnCount          int             `json:"turn_count"` // processed student turns
	Topic              *TopicRef       `json:"topic"`
	CurrentStep        int             `json:"current_step"` // 1-based; total_steps+1 once complete
	LastConceptTaught  *string         `json:"last_concept_taught"`
	LastQuestion       *Question       `json:"last_question"`
	AwaitingResponse   bool            `json:"awaiting_response"`
	AllowExtension     bool            `json:"allow_extension"`
	MasteryEstimates   Mastery         `json:"mastery_estimates"`
	Misconceptions     []Misconception `json:"misconceptions"`
	WeakAreas          []string        `json:"weak_areas"`
	StudentContext     StudentContext  `json:"student_context"`
	PacePreference     string          `json:"pace_preference"` // slow | normal | fast
	OffTopicCount      int             `json:"off_topic_count"`
	WarningCount       int             `json:"warning_count"`
	SafetyFlags        []string        `json:"safety_flags"`
	Mode               Mode            `json:"mode"`
	IsPaused           bool            `json:"is_paused"`
	ConceptsCovered    []string        `json:"concepts_covered_set"` // a set, kept in the order concepts were covered
	ExamQuestions      []ExamQuestion  `json:"exam_questions"`
	ExamCurrentIdx     int             `json:"exam_current_question_idx"`
	ExamTotalCorrect   int             `json:"exam_total_correct"`
	ExamTotalPartial   int             `json:"exam_total_partial"`
	ExamTotalIncorrect int             `json:"exam_total_incorrect"`
	ExamFinished       bool            `json:"exam_finished"`
	ExamFeedback       *ExamFeedback   `json:"exam_feedback"`
	ConceptsDiscussed  []string        `json:"concepts_discussed"`
	ClarifyComplete    bool            `json:"clarify_complete"`
	SessionSummary     SessionSummary  `json:"session_summary"`
	History            []Message       `json:"conversation_history"` // the last HistoryWindow messages
	StartedAt          *Time           `json:"started_at"`           // first turn of the current sitting; the time limit counts from it
	LastAnswerResult   *Result         `json:"last_answer_result"`   // teach_me: the latest turn's judged answer, null when the turn judged none
	EngineConfig       Config          `json:"engine_config"`
}

// Clone returns a deep copy of s.
func (s State) Clone() State {
	c := s
	c.Topic = clonePtr(s.Topic)
	c.LastConceptTaught = clonePtr(s.LastConceptTaught)
	if s.LastQuestion != nil {
		q := *s.LastQuestion
		q.Hints = slices.Clone(q.Hints)
		q.PreviousStudentAnswers = slices.Clone(q.PreviousStudentAnswers)
		q.CluesGiven, q.StepsShown = slices.Clone(q.CluesGiven), slices.Clone(q.StepsShown)
		q.AskedAt = clonePtr(q.AskedAt)
		c.LastQuestion = &q
	}
	c.MasteryEstimates = slices.Clone(s.MasteryEstimates)
	c.Misconceptions = slices.Clone(s.Misconceptions)
	c.WeakAreas = slices.Clone(s.WeakAreas)
	c.StudentContext.PreferredExamples = slices.Clone(s.StudentContext.PreferredExamples)
	c.StudentContext.StudentName = clonePtr(s.StudentContext.StudentName)
	c.StudentContext.StudentAge = clonePtr(s.StudentContext.StudentAge)
	c.StudentContext.AboutMe = clonePtr(s.StudentContext.AboutMe)
	c.SafetyFlags = slices.Clone(s.SafetyFlags)
	c.ConceptsCovered = slices.Clone(s.ConceptsCovered)
	if s.ExamQuestions != nil {
		c.ExamQuestions = make([]ExamQuestion, len(s.ExamQuestions))
		for i, q := range s.ExamQuestions {
			q.StudentAnswer = clonePtr(q.StudentAnswer)
			q.Result = clonePtr(q.Result)
			c.ExamQuestions[i] = q
		}
	}
	if s.ExamFeedback != nil {
		f := *s.ExamFeedback
		f.Strengths = slices.Clone(f.Strengths)
		f.WeakAreas = slices.Clone(f.WeakAreas)
		f.Patterns = slices.Clone(f.Patterns)
		f.NextSteps = slices.Clone(f.NextSteps)
		c.ExamFeedback = &f
	}
	c.ConceptsDiscussed = slices.Clone(s.ConceptsDiscussed)
	sum := &c.SessionSummary
	sum.TurnTimeline = slices.Clone(sum.TurnTimeline)
	sum.ConceptsTaught = slices.Clone(sum.ConceptsTaught)
	sum.DepthReached = maps.Clone(sum.DepthReached)
	sum.ExamplesUsed = slices.Clone(sum.ExamplesUsed)
	sum.AnalogiesUsed = slices.Clone(sum.AnalogiesUsed)
	sum.StudentResponsesSummary = slices.Clone(sum.StudentResponsesSummary)
	sum.StuckPoints = slices.Clone(sum.StuckPoints)
	sum.WhatHelped = slices.Clone(sum.WhatHelped)
	sum.NextFocus = clonePtr(sum.NextFocus)
	if s.History != nil {
		c.History = make([]Message, len(s.History))
		for i, m := range s.History {
			m.MessageID = clonePtr(m.MessageID)
			c.History[i] = m
		}
	}
	c.StartedAt = clonePtr(s.StartedAt)
	c.LastAnswerResult = clonePtr(s.LastAnswerResult)
	if s.EngineConfig.Components != nil {
		c.EngineConfig.Components = make(map[string]ComponentConfig, len(s.EngineConfig.Components))
		for k, v := range s.EngineConfig.Components {
			v.Temperature = clonePtr(v.Temperature)
			c.EngineConfig.Components[k] = v
		}
	}
	return c
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// normalized returns s with every nil slice and map replaced by an empty
// one, so that its JSON shows [] and {} where the document has them. Nested
// values are copied before they are changed: s itself is never modified.
func (s State) normalized() State {
	s.MasteryEstimates = nonNil(s.MasteryEstimates)
	s.Misconceptions = nonNil(s.Misconceptions)
	s.WeakAreas = nonNil(s.WeakAreas)
	s.StudentContext.PreferredExamples = nonNil(s.StudentContext.PreferredExamples)
	s.SafetyFlags = nonNil(s.SafetyFlags)
	s.ConceptsCovered = nonNil(s.ConceptsCovered)
	s.ExamQuestions = nonNil(s.ExamQuestions)
	s.ConceptsDiscussed = nonNil(s.ConceptsDiscussed)
	s.History = nonNil(s.History)
	if q := s.LastQuestion; q != nil && (q.Hints == nil || q.PreviousStudentAnswers == nil) {
		c := *q
		c.Hints = nonNil(c.Hints)
		c.PreviousStudentAnswers = nonNil(c.PreviousStudentAnswers)
		s.LastQuestion = &c
	}
	if f := s.ExamFeedback; f != nil && (f.Strengths == nil || f.WeakAreas == nil || f.Patterns == nil || f.NextSteps == nil) {
		c := *f
		c.Strengths = nonNil(c.Strengths)
		c.WeakAreas = nonNil(c.WeakAreas)
		c.Patterns = nonNil(c.Patterns)
		c.NextSteps = nonNil(c.NextSteps)
		s.ExamFeedback = &c
	}
	sum := &s.SessionSummary
	sum.TurnTimeline = nonNil(sum.TurnTimeline)
	sum.ConceptsTaught = nonNil(sum.ConceptsTaught)
	if sum.DepthReached == nil {
		sum.DepthReached = map[string]string{}
	}
	sum.ExamplesUsed = nonNil(sum.ExamplesUsed)
	sum.AnalogiesUsed = nonNil(sum.AnalogiesUsed)
	sum.StudentResponsesSummary = nonNil(sum.StudentResponsesSummary)
	sum.StuckPoints = nonNil(sum.StuckPoints)
	sum.WhatHelped = nonNil(sum.WhatHelped)
	if sum.ProgressTrend == "" {
		sum.ProgressTrend = TrendSteady
	}
	if s.EngineConfig.Components == nil {
		s.EngineConfig.Components = map[string]ComponentConfig{}
	}
	return s
}

// IsComplete reports whether the session has ended, by mode: teach_me once
// current_step is past the plan's last step; clarify_doubts once
// clarify_complete is set; exam once exam_finished is set (the reference's
// WebSocket used the steps rule for exams too and never reported them
// complete). A teach_me session without its topic is never complete.
func (s State) IsComplete(t *Topic) bool {
	switch s.Mode {
	case ModeClarify:
		return s.ClarifyComplete
	case ModeExam:
		return s.ExamFinished
	default:
		return t != nil && s.CurrentStep > t.TotalSteps()
	}
}

// ProgressPercentage returns min(100, (current_step−1)/total_steps×100),
// unrounded; 0 without steps.
func (s State) ProgressPercentage(t *Topic) float64 {
	total := t.TotalSteps()
	if total == 0 || s.CurrentStep <= 1 {
		return 0
	}
	return min(100, float64(s.CurrentStep-1)/float64(total)*100)
}

// Coverage returns the share of the plan's concepts that the session has
// covered, in percent, rounded to one decimal as Python's round does; 0
// when the plan has no concepts.
func (s State) Coverage(t *Topic) float64 {
	if t == nil {
		return 0
	}
	var plan, covered int
	for i, st := range t.Steps {
		if !t.firstOccurrence(i) {
			continue
		}
		plan++
		if slices.Contains(s.ConceptsCovered, st.Concept) {
			covered++
		}
	}
	if plan == 0 {
		return 0
	}
	return pyRound(float64(covered)/float64(plan)*100, 1)
}

// CurrentStepData returns the step the session is on; false past the end.
func (s State) CurrentStepData(t *Topic) (Step, bool) { return t.Step(s.CurrentStep) }

// CurrentConcept returns the concept of the step the session is on; false
// past the end of the plan.
func (s State) CurrentConcept(t *Topic) (string, bool) {
	st, ok := t.Step(s.CurrentStep)
	return st.Concept, ok
}

// OverallMastery returns the mean of the mastery estimates; 0 when empty.
func (s State) OverallMastery() float64 { return s.MasteryEstimates.Mean() }

// ExtensionTurns returns how many turns a completed teach_me session has
// run beyond 2 × total_steps (negative before that).
func (s State) ExtensionTurns(t *Topic) int { return s.TurnCount - 2*t.TotalSteps() }

// PostCompletion reports whether the session's next message gets a short
// post-completion reply instead of a tutored turn (no turn is counted):
// always once a clarify_doubts session is complete; for teach_me once the
// plan is complete and either extension is off or the session has run more
// than MaxExtensionTurns turns beyond 2 × total_steps. A finished exam is not
// short-circuited: its turns get the fixed "already complete" reply (see
// examAfterward).
func (s State) PostCompletion(t *Topic) bool {
	switch s.Mode {
	case ModeClarify:
		return s.ClarifyComplete
	case ModeExam:
		return false
	default:
		return s.IsComplete(t) && (!s.AllowExtension || s.ExtensionTurns(t) > MaxExtensionTurns)
	}
}

// LastReply returns the most recent teacher message of the history window.
func (s State) LastReply() (string, bool) {
	for i := len(s.History) - 1; i >= 0; i-- {
		if s.History[i].Role == RoleTeacher {
			return s.History[i].Content, true
		}
	}
	return "", false
}

// addMessage appends a message and keeps the last HistoryWindow, shifting
// in place when the window is full; s must own its history (a Clone does).
func (s *State) addMessage(m Message) {
	if len(s.History) < HistoryWindow {
		s.History = append(s.History, m)
		return
	}
	h := s.History[len(s.History)-HistoryWindow:]
	copy(h, h[1:])
	h[len(h)-1] = m
	s.History = h
}

// cover adds a plan concept to the covered set.
func (s *State) cover(concept string) {
	if concept != "" && !slices.Contains(s.ConceptsCovered, concept) {
		s.ConceptsCovered = append(s.ConceptsCovered, concept)
	}
}
