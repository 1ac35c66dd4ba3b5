package orchestrator_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/llm/llmtest"
	"github.com/tutord/tutord/internal/tutor"
)

// generatedQuestions is an exam generator reply with the given items
// (text, expected answer, concept).
func generatedQuestions(items ...[3]string) llmtest.Reply {
	var qs []any
	for _, it := range items {
		qs = append(qs, map[string]any{"question_text": it[0], "expected_answer": it[1], "concept": it[2], "difficulty": "easy", "question_type": "procedural"})
	}
	b, _ := json.Marshal(map[string]any{"questions": qs})
	return llmtest.Reply{Text: string(b)}
}

// hasToken reports whether text holds w as a whole token.
func hasToken(text, w string) bool {
	return regexp.MustCompile(`(?i)(^|[^\p{L}\p{N}])` + regexp.QuoteMeta(w) + `($|[^\p{L}\p{N}])`).MatchString(text)
}

// An exam question that states its own numeric answer ("Double 8 is 16.
// So what is double 8?") is not kept: shown under the welcome, its answer
// copied back scored correct.
func TestExamQuestionThatStatesItsAnswer(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	f := llmSetup(t, fake.URL, llm.ComponentExamGenerator)
	fake.Push(generatedQuestions(
		[3]string{"Double 8 is 16. So what is double 8?", "16", "Doubling"},
		[3]string{"What is half of 18?", "9", "Halving"},
		[3]string{"What is double 25?", "50", "Doubling"},
	))
	// Two questions are left, fewer than the retry's three: asked again.
	fake.Push(generatedQuestions(
		[3]string{"What is double 7?", "14", "Doubling"},
		[3]string{"What is half of 30?", "15", "Halving"},
		[3]string{"What is double 12?", "24", "Doubling"},
	))
	c := f.create(t, doubling, tutor.ModeExam)
	for i, q := range c.Session.State.ExamQuestions {
		if hasToken(q.QuestionText, q.ExpectedAnswer) {
			t.Errorf("exam question %d %q states its own answer %q", i+1, q.QuestionText, q.ExpectedAnswer)
		}
	}
	if hasToken(c.Welcome, "16") {
		r := f.turn(t, c.Session.Row.ID, "16")
		t.Fatalf("the welcome shows the first question's answer (%q); copying it scores %d correct", c.Welcome, r.Session.State.ExamTotalCorrect)
	}
}

// A generated exam short of the retry's size (one question written seven
// times, or one when seven were asked) is asked for again, and the larger
// set kept: a one-question "exam" made its one answer the whole score.
func TestExamThatCameShort(t *testing.T) {
	tests := []struct {
		name  string
		reply llmtest.Reply
	}{
		{"seven copies of one question", generatedQuestions(
			[3]string{"What is double 8?", "16", "Doubling"},
			[3]string{"What is double 8?", "16", "Doubling"},
			[3]string{"what is double 8", "16", "Doubling"},
			[3]string{"What is double 8?", "16", "Doubling"},
			[3]string{"What is double 8?", "16", "Doubling"},
			[3]string{"What is double 8 ?", "16", "Doubling"},
			[3]string{"What is double 8?", "16", "Doubling"},
		)},
		{"one question for seven", generatedQuestions([3]string{"What is double 8?", "16", "Doubling"})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := llmtest.NewOpenAI(t)
			f := llmSetup(t, fake.URL, llm.ComponentExamGenerator)
			// Enough usable replies for a repair or the 3-question retry.
			fake.Push(tt.reply, generatedQuestions(
				[3]string{"What is double 6?", "12", "Doubling"},
				[3]string{"What is half of 10?", "5", "Halving"},
				[3]string{"What is double 25?", "50", "Doubling"},
			))
			c := f.create(t, doubling, tutor.ModeExam)
			if n := len(c.Session.State.ExamQuestions); n < 3 {
				t.Fatalf("asked for 7 questions, the model wrote %s: the exam has %d question(s) and no repair or retry was made (%d requests)",
					tt.name, n, len(fake.Requests()))
			}
		})
	}
}

// A tutor reply the safety check replaces asks nothing: its question, which
// the learner never saw, is not checked against their next message.
func TestUnsafeTutorReplyAsksNothing(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	f := llmSetup(t, fake.URL, llm.ComponentTutor)
	c := f.create(t, doubling, tutor.ModeTeachMe)
	q := "If you double 6, what do you get?"
	fake.Push(out("Forget doubling, let's look at porn instead. "+q, asking(q, "12", "Doubling")))
	r := f.turn(t, c.Session.Row.ID, "ok")
	if strings.Contains(r.Reply, "porn") {
		t.Fatalf("an unsafe tutor reply was sent: %q", r.Reply)
	}
	if lq := r.Session.State.LastQuestion; lq != nil && !strings.Contains(r.Reply, lq.QuestionText) {
		t.Fatalf("the learner got %q, but the committed state awaits an answer to %q (awaiting_response %v)",
			r.Reply, lq.QuestionText, r.Session.State.AwaitingResponse)
	}
}

// "None" as a misconception is a way of naming none: not recorded, and no
// weak area.
func TestPlaceholderMisconception(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	f := llmSetup(t, fake.URL, llm.ComponentTutor)
	c := f.create(t, doubling, tutor.ModeTeachMe)
	id := c.Session.Row.ID
	fake.Push(out("What is double 7?", asking("What is double 7?", "14", "Doubling")))
	f.turn(t, id, "ok")
	fake.Push(out("Yes, well done!", judging(true), reporting("None")))
	r := f.turn(t, id, "14")
	if ms := r.Session.State.Misconceptions; len(ms) > 0 || len(r.Session.State.WeakAreas) > 0 {
		t.Fatalf("a right answer with misconceptions_detected [\"None\"] recorded misconceptions %+v, weak areas %v", ms, r.Session.State.WeakAreas)
	}
}

// A question the tutor asks without its expected answer is sent back for
// repair: tracked with none, the next answer was left to the model's word
// ("13" for double 6 judged right, mastery up).
func TestQuestionWithoutItsAnswerIsRepaired(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	f := llmSetup(t, fake.URL, llm.ComponentTutor)
	c := f.create(t, doubling, tutor.ModeTeachMe)
	q := "If you double 6, what do you get?"
	fake.Push(out(q, func(m map[string]any) { m["question_asked"], m["question_concept"] = q, "Doubling" }),
		out(q, asking(q, "12", "Doubling")))
	r := f.turn(t, c.Session.Row.ID, "ok")
	if lq := r.Session.State.LastQuestion; lq == nil || lq.ExpectedAnswer != "12" {
		t.Fatalf("pending question %+v; want %q with its answer 12, from the repaired reply", lq, q)
	}
	if n := len(fake.Requests()); n != 2 {
		t.Errorf("%d model requests; want the reply and its repair", n)
	}
}

// A question the tutor writes that states its own answer ("Double 6 is 12,
// so what is double 6?") is sent back for repair: quoted in the reply, it
// passed the leak check, and the learner could copy the answer.
func TestQuestionStatingItsAnswerIsRepaired(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	f := llmSetup(t, fake.URL, llm.ComponentTutor)
	c := f.create(t, doubling, tutor.ModeTeachMe)
	bad, good := "Double 6 is 12, so what is double 6?", "If you double 6, what do you get?"
	fake.Push(out(bad, asking(bad, "12", "Doubling")), out(good, asking(good, "12", "Doubling")))
	r := f.turn(t, c.Session.Row.ID, "ok")
	if strings.Contains(r.Reply, "is 12") {
		t.Fatalf("the learner got %q", r.Reply)
	}
	if lq := r.Session.State.LastQuestion; lq == nil || lq.QuestionText != good {
		t.Fatalf("pending question %+v; want the repaired %q", lq, good)
	}
}
