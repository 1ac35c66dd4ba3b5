package orchestrator_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/llm/llmtest"
	"github.com/tutord/tutord/internal/orchestrator"
	"github.com/tutord/tutord/internal/tutor"
)

// Exams written by the model-backed exam generator, end to end.

// TestGeneratedMultipleChoiceAnsweredByTextOrLetter: the model writes
// multiple-choice questions with the options in the question text
// ("Which number is double 8? A) 10 B) 16 C) 18"), and the expected answer
// as the letter ("B"), as letter and text ("A) 9") or as the option's text
// ("24"). The expected answer is stored as the option's letter and text,
// and the learner's answer, by the option's text or its letter, is judged
// by the exam evaluator, which sees the options: code, which does not
// know them, cannot tell which option a letter or a text names (CONTRACT
// §9.7, seed 002 exam evaluation, DESIGN §1).
func TestGeneratedMultipleChoiceAnsweredByTextOrLetter(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	f := llmSetup(t, fake.URL, llm.ComponentExamGenerator, llm.ComponentExamEvaluator)
	fake.Push(generatedExam(
		[3]string{"Which number is double 8? A) 10 B) 16 C) 18", "B", "Doubling"},
		[3]string{"Which number is half of 18? A) 9 B) 8 C) 6", "A) 9", "Halving"},
		[3]string{"Which number is double 12? A) 14 B) 22 C) 24", "24", "Doubling"},
	))
	c := f.create(t, doubling, tutor.ModeExam)
	qs := c.Session.State.ExamQuestions
	if len(qs) != 3 {
		t.Fatalf("%d questions", len(qs))
	}
	for i, want := range []string{"B) 16", "A) 9", "C) 24"} {
		if qs[i].ExpectedAnswer != want {
			t.Errorf("question %d expected answer %q, want %q", i+1, qs[i].ExpectedAnswer, want)
		}
	}
	id := c.Session.Row.ID
	for i, msg := range []string{"16", "A", "C"} {
		asked := len(fake.Requests())
		fake.Push(judgedRight)
		r := f.turn(t, id, msg)
		q := r.Session.State.ExamQuestions[i]
		if got := examResult(r.Session.State, i); got != tutor.ResultCorrect {
			t.Errorf("%q to %q (expected %q): recorded %q; want correct", msg, q.QuestionText, q.ExpectedAnswer, got)
		}
		reqs := fake.Requests()
		if len(reqs) == asked {
			t.Errorf("%q to %q: the exam evaluator was not asked", msg, q.QuestionText)
			continue
		}
		body := string(reqs[len(reqs)-1].Body)
		for _, want := range []string{q.QuestionText, "EXPECTED ANSWER\\n" + q.ExpectedAnswer} {
			if !strings.Contains(body, want) {
				t.Errorf("%q to %q: the evaluator's request lacks %q", msg, q.QuestionText, want)
			}
		}
	}
}

// TestGeneratedQuestionsWithoutConcept: the model returns seven good
// questions but leaves "concept" empty. The exam starts with all seven,
// question i filed under the plan's concept i mod #concepts (CONTRACT
// §9.7); only zero questions from the model is an ExamGenerationError.
func TestGeneratedQuestionsWithoutConcept(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	f := llmSetup(t, fake.URL, llm.ComponentExamGenerator)
	var items [][3]string
	for _, n := range []int{6, 7, 8, 9, 11, 12, 13} {
		items = append(items, [3]string{"What is double " + strconv.Itoa(n) + "?", strconv.Itoa(2 * n), ""})
	}
	fake.Push(generatedExam(items...), generatedExam(items[:3]...))
	id, ok := f.guidelines[doubling]
	if !ok {
		t.Fatal("no doubling subtopic")
	}
	c, err := f.o.CreateSession(context.Background(), orchestrator.CreateRequest{
		GuidelineID: id, Mode: tutor.ModeExam,
		Student: tutor.StudentContext{Grade: 7, Board: "CBSE", LanguageLevel: "standard", PreferredExamples: tutor.DefaultPreferredExamples()},
	})
	if err != nil {
		t.Fatalf("seven questions without a concept: CreateSession failed: %v", err)
	}
	qs := c.Session.State.ExamQuestions
	if len(qs) != 7 {
		t.Fatalf("%d questions of the 7 generated", len(qs))
	}
	concepts := c.Session.Topic.Concepts()
	for i, q := range qs {
		if q.Concept != concepts[i%len(concepts)] {
			t.Errorf("question %d concept %q, want %q", i+1, q.Concept, concepts[i%len(concepts)])
		}
	}
}

// TestGeneratedQuestionsWithMisspelledConcepts: a concept the model spells
// with another case, spacing or punctuation than the plan ("DOUBLING",
// " halving.") is the plan's.
func TestGeneratedQuestionsWithMisspelledConcepts(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	f := llmSetup(t, fake.URL, llm.ComponentExamGenerator)
	concepts := f.create(t, doubling, tutor.ModeTeachMe).Session.Topic.Concepts()
	if len(concepts) < 2 {
		t.Fatalf("the doubling plan has %d concepts", len(concepts))
	}
	mangle := []string{strings.ToUpper(concepts[0]), " " + strings.ToLower(concepts[1]) + "."}
	fake.Push(generatedExam(
		[3]string{"What is double 14?", "28", mangle[0]},
		[3]string{"What is half of 14?", "7", mangle[1]},
		[3]string{"What is double 15?", "30", concepts[0]},
	))
	c := f.create(t, doubling, tutor.ModeExam)
	qs := c.Session.State.ExamQuestions
	if len(qs) != 3 {
		t.Fatalf("%d questions of the 3 generated", len(qs))
	}
	for i, want := range []string{concepts[0], concepts[1], concepts[0]} {
		if qs[i].Concept != want {
			t.Errorf("question %d concept %q, want %q", i+1, qs[i].Concept, want)
		}
	}
}
