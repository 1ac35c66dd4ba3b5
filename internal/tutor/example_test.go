package tutor_test

import (
	"fmt"
	"time"

	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

func Example() {
	lesson := &tutor.Topic{
		TopicID: "g-1", TopicName: "Multiplication - Tables", Subject: "Math", GradeLevel: 3,
		Steps: []tutor.Step{
			{ID: 1, Type: tutor.StepExplain, Concept: "Groups"},
			{ID: 2, Type: tutor.StepPractice, Concept: "Tables"},
		},
		Questions: []tutor.BankQuestion{{ID: "q1", Text: "What is 6 × 7?", Answer: "42", Kind: answer.KindInteger, Concept: "Groups",
			Hints: []string{"Think of 6 groups of 7.", "Start with 6 × 5 = 30."}}},
	}
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	s, err := tutor.NewState(tutor.NewSession{ID: "s1", Topic: lesson, Student: tutor.StudentContext{Grade: 3}, Now: now})
	if err != nil {
		panic(err)
	}
	checks := tutor.NewPrechecker(tutor.DefaultPrecheckConfig())

	// Turn 1: the engine asks a bank question.
	msg := "ready"
	s, _ = tutor.ApplyTurn(s, lesson, tutor.Outcome{
		Now: now, StudentMessage: msg, Precheck: checks.Check(msg), Reply: "What is 6 × 7?",
		Output:       &tutor.TutorOutput{Response: "What is 6 × 7?", Intent: tutor.IntentContinuation, TurnSummary: "Asked 6 × 7"},
		NextQuestion: &lesson.Questions[0],
	})

	// Turn 2: a wrong answer. The evaluator's verdict is a fact; the tutor
	// judged it right, and the guardrail overrides that.
	msg = "I think 13"
	o := tutor.Outcome{
		Now: now.Add(time.Minute), StudentMessage: msg, Precheck: checks.Check(msg), Verdict: answer.Incorrect,
		Output: &tutor.TutorOutput{Response: "Correct!", Intent: tutor.IntentAnswer, AnswerCorrect: new(true), TurnSummary: "Answered 13"},
	}
	g := tutor.Guard(s, lesson, o)
	fmt.Println("overrides:", g.Overrides, "may reveal:", g.MayRevealAnswer)
	o.Reply = "Not quite. Think of 6 groups of 7." // regenerated after the guardrail
	s, events := tutor.ApplyTurn(s, lesson, o)
	for _, e := range events {
		fmt.Println("event:", e.EventName())
	}
	hint, _ := s.LastQuestion.Hint()
	fmt.Printf("phase %s, hint %q\n", s.LastQuestion.Phase, hint)
	fmt.Println(tutor.Pacing(s, lesson).Pace, "/", tutor.Style(s.History, "").Level)
	// Output:
	// overrides: [verdict_overrides_answer_correct] may reveal: false
	// event: guardrail_applied
	// event: mastery_updated
	// event: wrong_answer
	// event: phase_changed
	// phase probe, hint "Think of 6 groups of 7."
	// SIMPLIFY / QUIET
}

func ExamplePrechecker_Check() {
	p := tutor.NewPrechecker(tutor.DefaultPrecheckConfig())
	for _, msg := range []string{"", "bye!", "my friend helped", "I'm done, it's 12", "nahi pata", "who are you?"} {
		fmt.Printf("%q → %q\n", msg, p.Check(msg))
	}
	// Output:
	// "" → "empty"
	// "bye!" → "stop"
	// "my friend helped" → ""
	// "I'm done, it's 12" → ""
	// "nahi pata" → "idk"
	// "who are you?" → "off_topic"
}
