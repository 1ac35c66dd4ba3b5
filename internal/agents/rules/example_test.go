package rules_test

import (
	"context"
	"fmt"
	"time"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/agents/rules"
	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

// Example runs three turns of a lesson the way a turn pipeline drives the
// tutor: pre-check, evaluation of the pending question, the guardrails'
// directives (from a provisional empty output, so that they reflect the
// verdict), the tutor, and ApplyTurn with the tutor's reply.
func Example() {
	lesson := &tutor.Topic{
		TopicID: "g-1", TopicName: "Multiplication - Tables", Subject: "Math", GradeLevel: 3,
		Steps: []tutor.Step{
			{ID: 1, Type: tutor.StepExplain, Concept: "Groups", Title: "Groups",
				Content: "Multiplying counts equal groups. 6 × 7 means 6 groups of 7."},
			{ID: 2, Type: tutor.StepCheck, Concept: "Groups", Title: "Check: groups"},
		},
		Questions: []tutor.BankQuestion{{ID: "q1", Text: "What is 6 × 8?", Answer: "48", Concept: "Groups",
			Hints:    []string{"Think of 6 groups of 8.", "Start with 6 × 5 = 30."},
			Solution: "6 × 8 = 6 × 5 + 6 × 3 = 30 + 18 = 48."}},
	}
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	s, _ := tutor.NewState(tutor.NewSession{ID: "s1", Topic: lesson, Student: tutor.StudentContext{Grade: 3}, Now: now})
	checks := tutor.NewPrechecker(tutor.DefaultPrecheckConfig())
	tutorAgent := rules.NewTutor()

	for _, msg := range []string{"yes, ready", "ok", "I think 42"} {
		pre := checks.Check(msg)
		var ev answer.Result
		if q := s.LastQuestion; q != nil && pre == tutor.PrecheckNone {
			ev = answer.Evaluate(q.Expected(lesson), msg)
		}
		o := tutor.Outcome{Now: now, StudentMessage: msg, Precheck: pre, Verdict: ev.Verdict, Output: &tutor.TutorOutput{}}
		turn := agents.Turn{State: s, Topic: lesson, Message: msg, Precheck: pre, Evaluation: ev, Guard: tutor.Guard(s, lesson, o), Now: now}
		reply, _, err := tutorAgent.Respond(context.Background(), turn)
		if err != nil {
			fmt.Println(err)
			return
		}
		o.Output, o.Reply, o.NextQuestion = &reply.Output, reply.Output.Response, reply.NextQuestion
		s, _ = tutor.ApplyTurn(s, lesson, o)
		fmt.Printf("%s\n  %s\n", msg, reply.Output.Response)
	}
	// Output:
	// yes, ready
	//   Multiplying counts equal groups. 6 × 7 means 6 groups of 7. Shall we check that with a question?
	// ok
	//   Your turn: What is 6 × 8?
	// I think 42
	//   Not quite: you said 42. Think of 6 groups of 8. What do you get now?
}
