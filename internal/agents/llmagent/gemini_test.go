package llmagent

import (
	"context"
	"testing"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

// TestStructuredAgentsOnGemini runs the agents whose outputs hold nullable
// enums (the safety verdict's violation_type) and other enums (exam
// difficulty, mastery signal) on the Gemini fake, which refuses a schema
// with null among enum values as Gemini does.
func TestStructuredAgentsOnGemini(t *testing.T) {
	ctx := context.Background()
	personal := violation("personal_data")
	f := newGemini(t,
		reply(t, safetyJudgement{ViolationType: &personal, Guidance: "Keep it private.", Reasoning: "Address."}),
		reply(t, examQuestionSet{Questions: []examItem{
			{QuestionText: "What is 1/7 + 3/7?", ExpectedAnswer: "4/7", Concept: "Like fractions", Difficulty: "easy", QuestionType: "procedural"},
		}}),
		reply(t, examMarking{true, "strong", "Right.", "Matches."}),
	)
	s := NewSafety(f.client(t, llm.ComponentSafety), f.config(llm.ComponentSafety), opts())
	v, _, err := s.Check(ctx, "student", "I live at 4 Park Road", lesson(t).state)
	if err != nil || v.Category != "personal_data" {
		t.Fatalf("safety on Gemini: %+v, %v", v, err)
	}
	qs, _, err := f.examGenerator(t).Generate(ctx, agents.ExamRequest{Topic: sampleTopic(t, addingFractions), Student: student(), Count: 1, Seed: "sess-1"})
	if err != nil || len(qs) != 1 || qs[0].Difficulty != tutor.Easy {
		t.Fatalf("exam generator on Gemini: %+v, %v", qs, err)
	}
	se := newSession(t, tutor.ModeExam, sampleTopic(t, addingFractions))
	turn := agents.Turn{State: se.state, Topic: se.topic, Message: "4/7", Evaluation: answer.Result{Verdict: answer.Correct, Extracted: "4/7"}}
	if _, _, err := f.examEvaluator(t).Judge(ctx, turn, se.state.ExamQuestions[0]); err != nil {
		t.Fatalf("exam evaluator on Gemini: %v", err)
	}
	if f.srv.Pending() != 0 {
		t.Fatalf("%d scripted replies unused", f.srv.Pending())
	}
}
