package llm

import (
	"errors"
	"fmt"
)

// The types in this file have the shape of the tutor's turn output, the
// struct the benchmark and most structured-output tests use.

type turnIntent string

func (turnIntent) EnumValues() []string {
	return []string{"answer", "answer_change", "question", "confusion", "novel_strategy", "off_topic", "continuation"}
}

type masterySignal string

func (masterySignal) EnumValues() []string {
	return []string{"strong", "adequate", "needs_remediation"}
}

type masteryUpdate struct {
	Concept string  `json:"concept"`
	Score   float64 `json:"score"`
}

type tutorTurn struct {
	Response               string          `json:"response" jsonschema:"what the student reads"`
	Intent                 turnIntent      `json:"intent"`
	AnswerCorrect          *bool           `json:"answer_correct"`
	MisconceptionsDetected []string        `json:"misconceptions_detected"`
	MasterySignal          *masterySignal  `json:"mastery_signal"`
	AdvanceToStep          *int            `json:"advance_to_step"`
	MasteryUpdates         []masteryUpdate `json:"mastery_updates"`
	QuestionAsked          *string         `json:"question_asked"`
	ExpectedAnswer         *string         `json:"expected_answer"`
	QuestionConcept        *string         `json:"question_concept"`
	SessionComplete        bool            `json:"session_complete"`
	TurnSummary            string          `json:"turn_summary"`
	Reasoning              string          `json:"reasoning"`
}

// Validate holds the rules the schema cannot express.
func (t tutorTurn) Validate() error {
	var errs []error
	if t.Response == "" {
		errs = append(errs, errors.New("response is empty"))
	}
	if t.AdvanceToStep != nil && *t.AdvanceToStep < 1 {
		errs = append(errs, fmt.Errorf("advance_to_step %d is below 1", *t.AdvanceToStep))
	}
	for _, u := range t.MasteryUpdates {
		if u.Score < 0 || u.Score > 1 {
			errs = append(errs, fmt.Errorf("mastery score %v for %q is outside [0, 1]", u.Score, u.Concept))
		}
	}
	return errors.Join(errs...)
}

const validTurnJSON = `{
  "response": "Good! What is 3/4 + 1/4?",
  "intent": "answer",
  "answer_correct": true,
  "misconceptions_detected": [],
  "mastery_signal": "strong",
  "advance_to_step": 2,
  "mastery_updates": [{"concept": "adding fractions", "score": 0.8}],
  "question_asked": "What is 3/4 + 1/4?",
  "expected_answer": "1",
  "question_concept": "adding fractions",
  "session_complete": false,
  "turn_summary": "Correct sum; moved to step 2",
  "reasoning": "The student added numerators correctly."
}`

func validTurn() tutorTurn {
	yes, step := true, 2
	strong := masterySignal("strong")
	q, a, c := "What is 3/4 + 1/4?", "1", "adding fractions"
	return tutorTurn{
		Response:               "Good! What is 3/4 + 1/4?",
		Intent:                 "answer",
		AnswerCorrect:          &yes,
		MisconceptionsDetected: []string{},
		MasterySignal:          &strong,
		AdvanceToStep:          &step,
		MasteryUpdates:         []masteryUpdate{{Concept: "adding fractions", Score: 0.8}},
		QuestionAsked:          &q,
		ExpectedAnswer:         &a,
		QuestionConcept:        &c,
		TurnSummary:            "Correct sum; moved to step 2",
		Reasoning:              "The student added numerators correctly.",
	}
}

// examPlan exercises the remaining schema features: a nested object, a
// nullable nested object, arrays of objects, an omitempty field, a
// nullable enum inside an array element, bounded integers, descriptions.
type difficulty string

func (difficulty) EnumValues() []string { return []string{"easy", "medium", "hard"} }

type examQuestion struct {
	Text       string      `json:"text"`
	Difficulty *difficulty `json:"difficulty"`
	Choices    []string    `json:"choices"`
	Points     uint8       `json:"points" jsonschema:"points for a correct answer"`
}

type examSource struct {
	Title string `json:"title"`
	Page  int    `json:"page"`
}

type examPlan struct {
	Topic     string         `json:"topic"`
	Questions []examQuestion `json:"questions"`
	Source    *examSource    `json:"source"`
	Author    examSource     `json:"author"`
	Notes     string         `json:"notes,omitempty"`
}
