package tutor

import (
	"fmt"
	"math"
	"strings"

	"github.com/tutord/tutord/internal/tutor/answer"
)

// StepType is the kind of a study-plan step.
type StepType string

// The step types.
const (
	StepExplain  StepType = "explain"
	StepCheck    StepType = "check"
	StepPractice StepType = "practice"
)

// QuestionType is the kind of thinking a question asks for.
type QuestionType string

// The question types.
const (
	QuestionConceptual  QuestionType = "conceptual"
	QuestionProcedural  QuestionType = "procedural"
	QuestionApplication QuestionType = "application"
)

// Difficulty is a question's difficulty.
type Difficulty string

// The difficulties.
const (
	Easy   Difficulty = "easy"
	Medium Difficulty = "medium"
	Hard   Difficulty = "hard"
)

// Guideline is the teaching guideline of a topic: what to reach and how.
type Guideline struct {
	LearningObjectives   []string `json:"learning_objectives"`
	RequiredDepth        string   `json:"required_depth"`
	PrerequisiteConcepts []string `json:"prerequisite_concepts"`
	CommonMisconceptions []string `json:"common_misconceptions"`
	TeachingApproach     string   `json:"teaching_approach"`
}

// Step is one step of a study plan.
type Step struct {
	ID      int      `json:"step_id"` // 1-based, equal to the step's position
	Type    StepType `json:"type"`
	Concept string   `json:"concept"`
	Title   string   `json:"title"`
	// Content is the explanation a rules engine teaches from.
	Content     string `json:"content"`
	ContentHint string `json:"content_hint"`
	// QuestionType is set on check steps ("" when not set).
	QuestionType QuestionType `json:"question_type"`
	// QuestionCount is set on practice steps (0 when not set).
	QuestionCount int `json:"question_count"`
}

// BankQuestion is a question of a topic's question bank: everything needed
// to ask it, check the answer without a model, and walk the hint ladder.
type BankQuestion struct {
	ID      string      `json:"id"`
	Text    string      `json:"text"`
	Answer  string      `json:"answer"`
	Kind    answer.Kind `json:"kind"`    // answer.KindAuto infers it from Answer
	Accept  []string    `json:"accept"`  // other accepted forms
	Options []string    `json:"options"` // multiple-choice options, in order
	// Tolerance, Simplest and RequireUnit refine the check (see answer.Expected).
	Tolerance   float64      `json:"tolerance"`
	Simplest    bool         `json:"simplest"`
	RequireUnit bool         `json:"require_unit"`
	Concept     string       `json:"concept"`
	Difficulty  Difficulty   `json:"difficulty"`
	Type        QuestionType `json:"type"`
	// Hints are the graded hints: [0] a conceptual nudge (the probe, level 1),
	// [1] the first step (the hint, level 2).
	Hints []string `json:"hints"`
	// Solution is the worked solution, shown only in the explain phase.
	Solution string `json:"solution"`
	// Misconception is the mistake a wrong answer usually signals ("" when
	// unknown); only the answers in MisconceptionAnswers are taken to show it.
	Misconception string `json:"misconception"`
	// MisconceptionAnswers are the wrong answers that show Misconception
	// ("7/18" for "Adds the denominators too and gets 7/18."), compared
	// with a reply the way Answer is. Any other wrong answer says nothing
	// about which mistake was made.
	MisconceptionAnswers []string `json:"misconception_answers"`
}

// ShownAnswer is the answer as a learner reads it: the option's text for a
// choice question whose answer is an option's letter ("negative", not "B"),
// the answer itself otherwise.
func (q BankQuestion) ShownAnswer() string {
	a := strings.TrimSpace(q.Answer)
	if len(a) == 1 {
		if i := int(strings.ToUpper(a)[0]) - 'A'; i >= 0 && i < len(q.Options) {
			return strings.TrimSpace(q.Options[i])
		}
	}
	return a
}

// Expected returns what the answer evaluator compares a reply with.
func (q BankQuestion) Expected() answer.Expected {
	return answer.Expected{
		Answer:      q.Answer,
		Kind:        q.Kind,
		Accept:      q.Accept,
		Options:     q.Options,
		Tolerance:   q.Tolerance,
		Simplest:    q.Simplest,
		RequireUnit: q.RequireUnit,
	}
}

// ShowsMisconception reports whether reply commits to one of the wrong
// answers that show the question's misconception. Without a misconception
// or its answers it reports false: a wrong answer alone does not say why
// it is wrong.
func (q BankQuestion) ShowsMisconception(reply string) bool {
	if isBlank(q.Misconception) {
		return false
	}
	exp := answer.Expected{Kind: q.Kind, Options: q.Options, Tolerance: q.Tolerance}
	if exp.Kind == answer.KindAuto {
		exp.Kind = answer.InferKind(q.Answer)
	}
	for _, a := range q.MisconceptionAnswers {
		if isBlank(a) {
			continue
		}
		exp.Answer = a
		if answer.Evaluate(exp, reply).Verdict == answer.Correct {
			return true
		}
	}
	return false
}

// BKT holds the parameters of Bayesian Knowledge Tracing: the probability
// that a concept is known before any evidence (Prior), of learning it at an
// opportunity (Learn), of answering right without knowing it (Guess), and of
// answering wrong while knowing it (Slip). The zero value means DefaultBKT.
type BKT struct {
	Prior float64 `json:"prior"`
	Learn float64 `json:"learn"`
	Guess float64 `json:"guess"`
	Slip  float64 `json:"slip"`
}

// DefaultBKT returns the parameters used when a plan sets none: values from
// the usual range of the knowledge-tracing literature for short skills.
func DefaultBKT() BKT { return BKT{Prior: 0.2, Learn: 0.15, Guess: 0.2, Slip: 0.1} }

// valid reports whether the parameters are probabilities and identifiable:
// with Guess+Slip ≥ 1 a right answer would lower the estimate.
func (b BKT) valid() bool {
	for _, p := range [...]float64{b.Prior, b.Learn, b.Guess, b.Slip} {
		if math.IsNaN(p) || p < 0 || p > 1 {
			return false
		}
	}
	return b.Guess+b.Slip < 1
}

// Topic is the immutable lesson a session is about: one version of a
// guideline, its study plan, its question bank and its mastery model. The
// session state only refers to it (TopicRef); every function that needs the
// plan receives the Topic beside the state.
type Topic struct {
	TopicID       string         `json:"topic_id"` // the guideline id
	TopicName     string         `json:"topic_name"`
	Subject       string         `json:"subject"`
	GradeLevel    int            `json:"grade_level"`
	PlanVersionID string         `json:"plan_version_id"`
	Guideline     Guideline      `json:"guidelines"`
	Steps         []Step         `json:"steps"`
	Questions     []BankQuestion `json:"questions"`
	Mastery       BKT            `json:"mastery"`
}

// TotalSteps returns the number of steps of the plan; 0 for a nil Topic.
func (t *Topic) TotalSteps() int {
	if t == nil {
		return 0
	}
	return len(t.Steps)
}

// Step returns the step with the given 1-based id.
func (t *Topic) Step(id int) (Step, bool) {
	if t == nil || id < 1 {
		return Step{}, false
	}
	if id <= len(t.Steps) && t.Steps[id-1].ID == id {
		return t.Steps[id-1], true
	}
	for _, s := range t.Steps {
		if s.ID == id {
			return s, true
		}
	}
	return Step{}, false
}

// Concepts returns the plan's concepts: the distinct step concepts in step
// order. They are the denominator of coverage and the keys of a teach_me
// session's mastery.
func (t *Topic) Concepts() []string {
	if t == nil {
		return nil
	}
	out := make([]string, 0, len(t.Steps))
	for i, s := range t.Steps {
		if t.firstOccurrence(i) {
			out = append(out, s.Concept)
		}
	}
	return out
}

// firstOccurrence reports whether step i is the first step with its concept.
// Plans are short, so a scan beats building a set on every call.
func (t *Topic) firstOccurrence(i int) bool {
	c := t.Steps[i].Concept
	if c == "" {
		return false
	}
	for j := range i {
		if t.Steps[j].Concept == c {
			return false
		}
	}
	return true
}

// HasConcept reports whether c is one of the plan's concepts (exact match).
func (t *Topic) HasConcept(c string) bool {
	if t == nil || c == "" {
		return false
	}
	for _, s := range t.Steps {
		if s.Concept == c {
			return true
		}
	}
	return false
}

// canonicalConcept maps a concept name, as a model may spell it, to the
// plan's spelling: exact first, then ignoring case and surrounding space.
func (t *Topic) canonicalConcept(name string) (string, bool) {
	if t.HasConcept(name) {
		return name, true
	}
	name = strings.TrimSpace(name)
	if t == nil || name == "" {
		return "", false
	}
	for _, s := range t.Steps {
		if strings.EqualFold(s.Concept, name) {
			return s.Concept, true
		}
	}
	return "", false
}

// Question returns the bank question with the given id.
func (t *Topic) Question(id string) (BankQuestion, bool) {
	if t == nil || id == "" {
		return BankQuestion{}, false
	}
	for _, q := range t.Questions {
		if q.ID == id {
			return q, true
		}
	}
	return BankQuestion{}, false
}

// BKTParams returns the plan's knowledge-tracing parameters, or DefaultBKT
// when the plan sets none or sets invalid ones.
func (t *Topic) BKTParams() BKT {
	if t == nil || t.Mastery == (BKT{}) || !t.Mastery.valid() {
		return DefaultBKT()
	}
	return t.Mastery
}

// Ref returns the reference a session state keeps to this topic.
func (t *Topic) Ref() *TopicRef {
	if t == nil {
		return nil
	}
	return &TopicRef{
		TopicID:       t.TopicID,
		TopicName:     t.TopicName,
		Subject:       t.Subject,
		GradeLevel:    t.GradeLevel,
		PlanVersionID: t.PlanVersionID,
	}
}

// Validate reports the first rule the topic breaks: steps numbered 1..n in
// order with a known type and a concept, bank questions with a unique id,
// text, answer and known difficulty and type, and usable BKT parameters.
func (t *Topic) Validate() error {
	if t == nil {
		return invalid("topic is missing")
	}
	for i, s := range t.Steps {
		switch {
		case s.ID != i+1:
			return invalid(fmt.Sprintf("step %d has step_id %d", i+1, s.ID))
		case s.Type != StepExplain && s.Type != StepCheck && s.Type != StepPractice:
			return invalid(fmt.Sprintf("step %d has unknown type %q", s.ID, s.Type))
		case strings.TrimSpace(s.Concept) == "":
			return invalid(fmt.Sprintf("step %d has no concept", s.ID))
		}
	}
	seen := make(map[string]bool, len(t.Questions))
	for i, q := range t.Questions {
		switch {
		case q.ID == "":
			return invalid(fmt.Sprintf("question %d has no id", i+1))
		case seen[q.ID]:
			return invalid(fmt.Sprintf("question id %q is not unique", q.ID))
		case strings.TrimSpace(q.Text) == "" || strings.TrimSpace(q.Answer) == "":
			return invalid(fmt.Sprintf("question %q needs a text and an answer", q.ID))
		case q.Difficulty != "" && q.Difficulty != Easy && q.Difficulty != Medium && q.Difficulty != Hard:
			return invalid(fmt.Sprintf("question %q has unknown difficulty %q", q.ID, q.Difficulty))
		case q.Type != "" && q.Type != QuestionConceptual && q.Type != QuestionProcedural && q.Type != QuestionApplication:
			return invalid(fmt.Sprintf("question %q has unknown type %q", q.ID, q.Type))
		}
		seen[q.ID] = true
	}
	if t.Mastery != (BKT{}) && !t.Mastery.valid() {
		return invalid("mastery parameters must be probabilities with guess + slip < 1")
	}
	return nil
}

// TopicRef is what a session state keeps of its topic: enough to name it
// and to load the exact plan version it runs on. The number of steps is not
// kept: it is derived from the plan version, not stored twice.
type TopicRef struct {
	TopicID       string `json:"topic_id"`
	TopicName     string `json:"topic_name"`
	Subject       string `json:"subject"`
	GradeLevel    int    `json:"grade_level"`
	PlanVersionID string `json:"plan_version_id"`
}

// ReferenceTopic is the reference service's "topic" object of the stored
// session document (guidelines and a study plan of step summaries). The API
// puts it into the document it serves; Topic converts it back.
type ReferenceTopic struct {
	TopicID    string        `json:"topic_id"`
	TopicName  string        `json:"topic_name"`
	Subject    string        `json:"subject"`
	GradeLevel int           `json:"grade_level"`
	Guidelines Guideline     `json:"guidelines"`
	StudyPlan  ReferencePlan `json:"study_plan"`
}

// ReferencePlan is the "study_plan" object of a ReferenceTopic.
type ReferencePlan struct {
	Steps []ReferenceStep `json:"steps"`
}

// ReferenceStep is one step of a ReferencePlan. As in the reference, an
// explain step always has a content hint (possibly ""), a check step a
// question type and a practice step a question count; the rest are null.
type ReferenceStep struct {
	StepID        int           `json:"step_id"`
	Type          StepType      `json:"type"`
	Concept       string        `json:"concept"`
	ContentHint   *string       `json:"content_hint"`
	QuestionType  *QuestionType `json:"question_type"`
	QuestionCount *int          `json:"question_count"`
}

// Reference returns the topic in the reference document's shape.
func (t *Topic) Reference() ReferenceTopic {
	if t == nil {
		return ReferenceTopic{Guidelines: normGuideline(Guideline{}), StudyPlan: ReferencePlan{Steps: []ReferenceStep{}}}
	}
	steps := make([]ReferenceStep, len(t.Steps))
	for i, s := range t.Steps {
		rs := ReferenceStep{StepID: s.ID, Type: s.Type, Concept: s.Concept}
		if s.Type == StepExplain || s.ContentHint != "" {
			rs.ContentHint = &s.ContentHint
		}
		if s.QuestionType != "" {
			rs.QuestionType = &s.QuestionType
		}
		if s.QuestionCount != 0 {
			rs.QuestionCount = &s.QuestionCount
		}
		steps[i] = rs
	}
	return ReferenceTopic{
		TopicID:    t.TopicID,
		TopicName:  t.TopicName,
		Subject:    t.Subject,
		GradeLevel: t.GradeLevel,
		Guidelines: normGuideline(t.Guideline),
		StudyPlan:  ReferencePlan{Steps: steps},
	}
}

// Topic converts a reference topic object into a Topic with no question
// bank and default mastery parameters, e.g. to import a reference session.
func (r ReferenceTopic) Topic() Topic {
	steps := make([]Step, len(r.StudyPlan.Steps))
	for i, rs := range r.StudyPlan.Steps {
		s := Step{ID: rs.StepID, Type: rs.Type, Concept: rs.Concept, Title: rs.Concept}
		if rs.ContentHint != nil {
			s.ContentHint = *rs.ContentHint
		}
		if rs.QuestionType != nil {
			s.QuestionType = *rs.QuestionType
		}
		if rs.QuestionCount != nil {
			s.QuestionCount = *rs.QuestionCount
		}
		steps[i] = s
	}
	return Topic{
		TopicID:    r.TopicID,
		TopicName:  r.TopicName,
		Subject:    r.Subject,
		GradeLevel: r.GradeLevel,
		Guideline:  r.Guidelines,
		Steps:      steps,
	}
}

func normGuideline(g Guideline) Guideline {
	g.LearningObjectives = nonNil(g.LearningObjectives)
	g.PrerequisiteConcepts = nonNil(g.PrerequisiteConcepts)
	g.CommonMisconceptions = nonNil(g.CommonMisconceptions)
	return g
}

// nonNil returns s, or an empty slice when s is nil, so that JSON shows []
// where the reference shows [] (never null).
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
