package tutor

import (
	"fmt"
	"testing"
	"time"

	"github.com/tutord/tutord/internal/tutor/answer"
)

var t0 = time.Date(2026, 2, 27, 10, 11, 12, 0, time.UTC)

func ptr[T any](v T) *T { return &v }

// lesson returns a topic with one step per concept (a concept may repeat),
// step types cycling explain, check, practice, and one bank question per
// distinct concept ("q-<concept>", answer "42").
func lesson(concepts ...string) *Topic {
	types := [...]StepType{StepExplain, StepCheck, StepPractice}
	tp := &Topic{
		TopicID:       "g-1",
		TopicName:     "Fractions - Comparing",
		Subject:       "Math",
		GradeLevel:    6,
		PlanVersionID: "pv-1",
		Guideline:     Guideline{LearningObjectives: []string{"compare fractions"}, RequiredDepth: "intermediate", TeachingApproach: "visual"},
	}
	for i, c := range concepts {
		tp.Steps = append(tp.Steps, Step{ID: i + 1, Type: types[i%3], Concept: c, Title: c, Content: "About " + c})
	}
	for _, c := range tp.Concepts() {
		tp.Questions = append(tp.Questions, BankQuestion{
			ID: "q-" + c, Text: "What is 6 × 7 in " + c + "?", Answer: "42", Kind: answer.KindInteger,
			Concept: c, Difficulty: Medium, Type: QuestionProcedural,
			Hints: []string{"Think of 6 groups of 7.", "Start with 6 × 5 = 30."}, Solution: "6 × 7 = 42",
			Misconception: "adds instead of multiplying", MisconceptionAnswers: []string{"13"},
		})
	}
	return tp
}

// planOf returns a lesson of n steps with distinct concepts c1..cn.
func planOf(n int) *Topic {
	cs := make([]string, n)
	for i := range cs {
		cs[i] = fmt.Sprintf("c%d", i+1)
	}
	return lesson(cs...)
}

func newState(tb testing.TB, mode Mode, tp *Topic, exam ...ExamQuestion) State {
	tb.Helper()
	s, err := NewState(NewSession{ID: "sess-1", Mode: mode, Topic: tp, Student: StudentContext{Grade: 6, Board: "CBSE"}, ExamQuestions: exam, Now: t0})
	if err != nil {
		tb.Fatalf("NewState: %v", err)
	}
	return s
}

func examQuestions(n int) []ExamQuestion {
	qs := make([]ExamQuestion, n)
	for i := range qs {
		qs[i] = ExamQuestion{QuestionText: fmt.Sprintf("Question %d?", i+1), ExpectedAnswer: fmt.Sprint(i + 1), Concept: fmt.Sprintf("c%d", i%3+1)}
	}
	return qs
}

// tutorSays returns a tutor output with the given changes applied.
func tutorSays(mods ...func(*TutorOutput)) *TutorOutput {
	o := &TutorOutput{Response: "Let's see.", Intent: IntentAnswer, TurnSummary: "worked on it"}
	for _, m := range mods {
		m(o)
	}
	return o
}

func correct(o *TutorOutput)   { o.AnswerCorrect = ptr(true) }
func wrong(o *TutorOutput)     { o.AnswerCorrect = ptr(false) }
func rightStep(o *TutorOutput) { o.RightStep = "one part is 100" }
func advance(step int) func(*TutorOutput) {
	return func(o *TutorOutput) { o.AdvanceToStep = ptr(step) }
}
func asks(q, expected, concept string) func(*TutorOutput) {
	return func(o *TutorOutput) {
		o.QuestionAsked = ptr(q)
		o.ExpectedAnswer = ptr(expected)
		if concept != "" {
			o.QuestionConcept = ptr(concept)
		}
	}
}
func updates(u ...MasteryUpdate) func(*TutorOutput) {
	return func(o *TutorOutput) { o.MasteryUpdates = u }
}
func complete(o *TutorOutput) { o.SessionComplete = true }
func intent(i Intent) func(*TutorOutput) {
	return func(o *TutorOutput) { o.Intent = i }
}

// turnAt returns an ordinary turn outcome k minutes after t0.
func turnAt(k int, msg string, out *TutorOutput) Outcome {
	return Outcome{Now: t0.Add(time.Duration(k) * time.Minute), StudentMessage: msg, Reply: "reply", Output: out}
}

// run applies outcomes in order and returns the final state and all events.
func run(s State, tp *Topic, outs ...Outcome) (State, []Event) {
	var all []Event
	for _, o := range outs {
		var ev []Event
		s, ev = ApplyTurn(s, tp, o)
		all = append(all, ev...)
	}
	return s, all
}

func eventNames(ev []Event) []string {
	names := make([]string, len(ev))
	for i, e := range ev {
		names[i] = e.EventName()
	}
	return names
}

func hasEvent[E Event](ev []Event) (E, bool) {
	for _, e := range ev {
		if x, ok := e.(E); ok {
			return x, true
		}
	}
	var zero E
	return zero, false
}
