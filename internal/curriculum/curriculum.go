// Package curriculum reads, checks and writes curriculum files.
//
// A curriculum file is a YAML document describing one topic of a subject for
// one grade of a board: its subtopics, each with a teaching guideline, a study
// plan and a question bank. curricula/README.md documents the format for
// authors and curricula/schema.json is its JSON Schema.
//
// [Parse] reads one file and reports every problem it finds with the file, the
// line and the field; [LoadPaths] and [LoadFS] read a whole set of files and
// also check what only the set can tell (duplicate keys across files, unknown
// prerequisites). [File.Guidelines] resolves the defaults into the form the
// store imports, and [Marshal] writes a file back.
package curriculum

import "github.com/tutord/tutord/internal/tutor/answer"

// File is one curriculum file: one topic of a subject for a grade of a board,
// with one or more of its subtopics. Fields hold what the file says; defaults
// are applied by [File.Guidelines].
type File struct {
	// Name is the path the file was read from; it is not part of the format.
	Name string `yaml:"-" json:"-"`

	Country   string     `yaml:"country" json:"country"`
	Board     string     `yaml:"board" json:"board"`
	Grade     int        `yaml:"grade" json:"grade"` // 1..12
	Subject   string     `yaml:"subject" json:"subject"`
	Topic     Topic      `yaml:"topic" json:"topic"`
	Subtopics []Subtopic `yaml:"subtopics" json:"subtopics"`
}

// Topic names the topic a file belongs to. Files that split one topic into
// several files repeat the same key and title.
type Topic struct {
	Key   string `yaml:"key" json:"key"` // a slug, unique within the subject and grade
	Title string `yaml:"title" json:"title"`
}

// Subtopic is the unit a learner studies in a session: a teaching guideline,
// a study plan and a question bank.
type Subtopic struct {
	Key                  string   `yaml:"key" json:"key"` // a slug, unique within the topic
	Title                string   `yaml:"title" json:"title"`
	Status               Status   `yaml:"status,omitempty" json:"status,omitempty"`
	TeachingApproach     string   `yaml:"teaching_approach" json:"teaching_approach"`
	LearningObjectives   []string `yaml:"learning_objectives" json:"learning_objectives"`
	CommonMisconceptions []string `yaml:"common_misconceptions,omitempty" json:"common_misconceptions,omitempty"`
	// Prerequisites are the full keys (see [Guideline.Key]) of subtopics a
	// learner should know first.
	Prerequisites []string   `yaml:"prerequisites,omitempty" json:"prerequisites,omitempty"`
	RequiredDepth Depth      `yaml:"required_depth,omitempty" json:"required_depth,omitempty"`
	Mastery       *Mastery   `yaml:"mastery,omitempty" json:"mastery,omitempty"`
	Plan          []Step     `yaml:"plan,omitempty" json:"plan,omitempty"` // nil: the default plan
	Questions     []Question `yaml:"questions" json:"questions"`
}

// Status says whether learners can see a subtopic.
type Status string

// The statuses. An empty status means approved.
const (
	StatusApproved Status = "approved"
	StatusDraft    Status = "draft"
)

// Depth is how deep a subtopic is meant to go.
type Depth string

// The depths. An empty depth means intermediate.
const (
	DepthBasic        Depth = "basic"
	DepthIntermediate Depth = "intermediate"
	DepthAdvanced     Depth = "advanced"
)

// Mastery holds the Bayesian Knowledge Tracing parameters used for the
// concepts of a subtopic's plan, each a probability.
type Mastery struct {
	Prior float64 `yaml:"prior" json:"prior"` // the learner knows the concept before the session
	Learn float64 `yaml:"learn" json:"learn"` // the learner learns it at one opportunity
	Guess float64 `yaml:"guess" json:"guess"` // a learner who does not know it answers correctly
	Slip  float64 `yaml:"slip" json:"slip"`   // a learner who knows it answers wrongly
}

// StepType is what a plan step does.
type StepType string

// The step types.
const (
	StepExplain  StepType = "explain"  // teach from the step's content
	StepCheck    StepType = "check"    // ask a question on the step's concept
	StepPractice StepType = "practice" // work through questions on the step's concept
)

// Step is one step of a study plan.
type Step struct {
	Title string `yaml:"title" json:"title"`
	// Concept is what the step teaches or checks; empty means the title.
	Concept string `yaml:"concept,omitempty" json:"concept,omitempty"`
	// Type is empty when the file leaves it to [InferStepType].
	Type        StepType `yaml:"type,omitempty" json:"type,omitempty"`
	Description string   `yaml:"description,omitempty" json:"description,omitempty"`
	// Content is the explanation taught at an explain step.
	Content string `yaml:"content,omitempty" json:"content,omitempty"`
	// ContentHint is a short direction for a model-backed tutor.
	ContentHint string `yaml:"content_hint,omitempty" json:"content_hint,omitempty"`
}

// Difficulty grades a question.
type Difficulty string

// The difficulties.
const (
	Easy   Difficulty = "easy"
	Medium Difficulty = "medium"
	Hard   Difficulty = "hard"
)

// QuestionType is what a question asks of the learner.
type QuestionType string

// The question types.
const (
	Conceptual  QuestionType = "conceptual"
	Procedural  QuestionType = "procedural"
	Application QuestionType = "application"
)

// Question is one question of a subtopic's question bank. Check and practice
// steps ask the questions of their concept; exams draw from the whole bank.
type Question struct {
	ID       string `yaml:"id" json:"id"` // a slug, unique within the subtopic
	Question string `yaml:"question" json:"question"`
	Answer   string `yaml:"answer" json:"answer"`
	// Kind says how the evaluator compares a reply with Answer; empty means
	// inferred from Answer.
	Kind    answer.Kind `yaml:"kind,omitempty" json:"kind,omitempty"`
	Accept  []string    `yaml:"accept,omitempty" json:"accept,omitempty"`
	Options []string    `yaml:"options,omitempty" json:"options,omitempty"` // choice questions only
	// Simplest makes an unsimplified fraction only partly right; it is
	// implied when the question asks for the simplest form or lowest terms.
	Simplest bool `yaml:"simplest,omitempty" json:"simplest,omitempty"`
	// RequireUnit makes a number without its unit only partly right.
	RequireUnit bool `yaml:"require_unit,omitempty" json:"require_unit,omitempty"`
	// Tolerance is the absolute tolerance of a numeric answer (0: exact).
	Tolerance float64 `yaml:"tolerance,omitempty" json:"tolerance,omitempty"`
	// Concept is the plan concept the question checks; empty means the
	// subtopic's title, the concept of the default plan.
	Concept    string       `yaml:"concept,omitempty" json:"concept,omitempty"`
	Difficulty Difficulty   `yaml:"difficulty" json:"difficulty"`
	Type       QuestionType `yaml:"type" json:"type"`
	// Hints are exactly two: a conceptual nudge, then the first step.
	// Neither gives the answer away.
	Hints    []string `yaml:"hints" json:"hints"`
	Solution string   `yaml:"solution" json:"solution"`
	// Misconception is what a wrong answer usually signals.
	Misconception string `yaml:"misconception,omitempty" json:"misconception,omitempty"`
	// MisconceptionAnswers are the wrong answers that show Misconception,
	// written like Answer ("7/18"). A learner's answer records the
	// misconception only when it is one of them.
	MisconceptionAnswers []string `yaml:"misconception_answers,omitempty" json:"misconception_answers,omitempty"`
}
