package orchestrator_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/agents/engine"
	"github.com/tutord/tutord/internal/agents/rules"
	"github.com/tutord/tutord/internal/orchestrator"
	"github.com/tutord/tutord/internal/tutor"
)

// scriptedTutor is the rules engine's tutor with its output replaced by
// script, when script returns true, for the modes and turns it chooses.
type scriptedTutor struct {
	inner  agents.Tutor
	script func(t agents.Turn, r *agents.TutorReply) bool
}

func (s *scriptedTutor) Respond(ctx context.Context, t agents.Turn) (agents.TutorReply, agents.Call, error) {
	r, c, err := s.inner.Respond(ctx, t)
	if err == nil && s.script != nil && s.script(t, &r) {
		return r, c, nil
	}
	return r, c, err
}

// scriptedSetup is setup(t) whose tutor is the rules tutor edited by script.
func scriptedSetup(t *testing.T, script func(t agents.Turn, r *agents.TutorReply) bool) *fixture {
	t.Helper()
	return setup(t, func(o *orchestrator.Options) {
		set, err := rules.New()
		if err != nil {
			t.Fatal(err)
		}
		set.Tutor = &scriptedTutor{inner: set.Tutor, script: script}
		o.Engines = engine.New(set, nil, nil)
	})
}

func strPtr(s string) *string { return &s }

// plainReply sets a plain reply that asks and judges nothing.
func plainReply(r *agents.TutorReply, text string) {
	r.Output = tutor.TutorOutput{Response: text, Intent: "question", TurnSummary: "scripted"}
	r.NextQuestion = nil
}

// A reply that is a JSON object, as a model may double-encode its answer, is
// read as its "response" text; redacting it sentence by sentence left the
// learner reading `... What is double 8?"}`.
func TestJSONReplyIsReadAsItsResponse(t *testing.T) {
	const want = "Good thinking. What is double 8?"
	var raw string
	f := scriptedSetup(t, func(t agents.Turn, r *agents.TutorReply) bool {
		if t.State.Mode != tutor.ModeTeachMe {
			return false
		}
		plainReply(r, raw) // the same reply again when regenerated
		return true
	})
	for _, raw = range []string{
		`{"response": "Good thinking. What is double 8?"}`,
		"```json\n{\"response\": \"Good thinking. What is double 8?\", \"intent\": \"question\"}\n```",
	} {
		c := f.create(t, doubling, tutor.ModeTeachMe)
		if r := f.turn(t, c.Session.Row.ID, "yes, I'm ready"); r.Reply != want {
			t.Errorf("reply %q was sent as %q, want %q", raw, r.Reply, want)
		}
	}
}

// Word problems talk of "the students" and of jobs such as "an assistant":
// neither is internal language, and the reply is sent as written.
func TestWordProblemIsNotInternalLanguage(t *testing.T) {
	replies := []string{
		"In a class of 40, 3/4 of the students walk to school. How many of them walk?",
		"Priya works as an assistant in a shop and packs 6 boxes an hour. How many boxes does she pack in 2 hours?",
	}
	var current string
	f := scriptedSetup(t, func(t agents.Turn, r *agents.TutorReply) bool {
		if t.State.Mode != tutor.ModeTeachMe {
			return false
		}
		plainReply(r, current)
		return true
	})
	for _, text := range replies {
		current = text
		c := f.create(t, doubling, tutor.ModeTeachMe)
		r := f.turn(t, c.Session.Row.ID, "yes, I'm ready")
		if r.Reply != text {
			t.Errorf("clean word problem was altered:\n sent %q\n got  %q", text, r.Reply)
		}
	}
}

// When the sentence that asks the turn's new question is replaced (it held
// internal language, twice), the question is asked again after the reply:
// the learner must see the question their next message is checked against.
func TestRedactedQuestionIsAskedAgain(t *testing.T) {
	f := scriptedSetup(t, func(t agents.Turn, r *agents.TutorReply) bool {
		if t.State.Mode != tutor.ModeTeachMe {
			return false
		}
		r.Output = tutor.TutorOutput{
			Response: "As an AI tutor I want the student to try this: what is double 8?",
			Intent:   "question", QuestionAsked: strPtr("What is double 8?"), ExpectedAnswer: strPtr("16"),
			QuestionConcept: strPtr("Doubling"), TurnSummary: "asked double 8",
		}
		r.NextQuestion = nil
		return true
	})
	c := f.create(t, doubling, tutor.ModeTeachMe)
	r := f.turn(t, c.Session.Row.ID, "yes, I'm ready")
	q := r.Session.State.LastQuestion
	if q != nil && !strings.Contains(strings.ToLower(r.Reply), "double 8") {
		t.Fatalf("question %q is pending but the learner was shown only %q", q.QuestionText, r.Reply)
	}
}

// hedgeAnswer is a hedged answer to an exam question: a wrong integer
// beside the expected one ("20 or 18").
func hedgeAnswer(t *testing.T, c orchestrator.Created) (msg, expected string) {
	t.Helper()
	q := c.Session.State.ExamQuestions[0]
	expected = q.Expected(c.Session.Topic).Answer
	n, err := strconv.Atoi(expected)
	if err != nil {
		t.Fatalf("exam question 1 %q has a non-integer answer %q", q.QuestionText, expected)
	}
	return strconv.Itoa(n+2) + " or " + expected, expected
}

// To a hedged exam answer ("20 or 18") the tutor asks which one the learner
// means; its reply must not give the question's answer away.
func TestExamHedgeReplyKeepsTheAnswer(t *testing.T) {
	var expected string
	f := scriptedSetup(t, func(t agents.Turn, r *agents.TutorReply) bool {
		if t.State.Mode != tutor.ModeExam {
			return false
		}
		plainReply(r, "Careful: the answer is "+expected+", so which one is your final answer?")
		return true
	})
	c := f.create(t, doubling, tutor.ModeExam)
	var msg string
	msg, expected = hedgeAnswer(t, c)
	r := f.turn(t, c.Session.Row.ID, msg)
	q := c.Session.State.ExamQuestions[0]
	checkNoLeak(t, r.Reply, q.Expected(c.Session.Topic), q.QuestionText)
}

// The question stands after a hedged exam answer, also when the tutor's
// reply had to be written again: the hedge is not recorded as an answer,
// and the question is asked again after the tutor's words.
func TestRegeneratedExamHedgeJudgesNothing(t *testing.T) {
	f := scriptedSetup(t, func(t agents.Turn, r *agents.TutorReply) bool {
		if t.State.Mode != tutor.ModeExam {
			return false
		}
		if t.Correction == "" {
			plainReply(r, "The student gave two values. Which one is your final answer?")
		} else {
			plainReply(r, "Which one is your final answer?")
		}
		return true
	})
	c := f.create(t, doubling, tutor.ModeExam)
	msg, _ := hedgeAnswer(t, c)
	r := f.turn(t, c.Session.Row.ID, msg)
	s := r.Session.State
	if s.ExamCurrentIdx != 0 || s.ExamQuestions[0].Result != nil {
		t.Errorf("a hedged answer was recorded: idx %d, result %v", s.ExamCurrentIdx, *s.ExamQuestions[0].Result)
	}
	if !strings.Contains(r.Reply, "**Question 1:**") {
		t.Errorf("the regenerated hedge reply lost the question prompt: %q", r.Reply)
	}
}
