package orchestrator_test

import (
	"strings"
	"testing"

	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/llm/llmtest"
	"github.com/tutord/tutord/internal/tutor"
)

// Exam answers the deterministic checker reads: a true-or-false question
// answered by letter, numbers in the Indian digit grouping, an expected
// answer with a gloss in brackets, a fraction written with the fraction
// slash.

// TestExamTrueFalseLetter: "F" to a true-or-false question whose answer
// is false is the answer false, judged correct; "T" is judged incorrect.
func TestExamTrueFalseLetter(t *testing.T) {
	falseQuestion := func(q tutor.ExamQuestion, tp *tutor.Topic) bool {
		return strings.HasPrefix(q.QuestionText, "True or false") && strings.EqualFold(q.ShownAnswer(tp), "false")
	}
	for msg, want := range map[string]tutor.Result{"F": tutor.ResultCorrect, "T": tutor.ResultIncorrect} {
		f := setup(t)
		c, i := examOn(t, f, photosynthesis, falseQuestion)
		r := f.turn(t, c.Session.Row.ID, msg)
		if got := examResult(r.Session.State, i); got != want {
			t.Errorf("%q to %q (answer false) was recorded %q; want %q", msg, c.Session.State.ExamQuestions[i].QuestionText, got, want)
		}
	}
}

// TestGeneratedIndianDigitGrouping: a model-written expected answer in the
// Indian digit grouping ("1,20,000") and a learner's answer in it
// ("1,25,000") are read as the numbers they are.
func TestGeneratedIndianDigitGrouping(t *testing.T) {
	answerGenerated(t, [][3]string{
		{"A town had 60,000 people. The number doubled. How many people live there now?", "1,20,000", "Doubling"},
		{"A city had 2,50,000 trees. Half were cut. How many trees are left?", "125000", "Halving"},
		{"A village had 50,000 people. The number doubled. How many people live there now?", "1,00,000", "Doubling"},
	}, answered{"120000", tutor.ResultCorrect}, answered{"1,25,000", tutor.ResultCorrect}, answered{"1,10,000", tutor.ResultIncorrect})
}

// TestGeneratedAnswerWithGloss: a model-written expected answer with a
// gloss in brackets ("Halving (dividing by 2)") is answered by the word
// before the gloss, or by the gloss.
func TestGeneratedAnswerWithGloss(t *testing.T) {
	for _, msg := range []string{"halving", "dividing by 2"} {
		fake := llmtest.NewOpenAI(t)
		f := llmSetup(t, fake.URL, llm.ComponentExamGenerator, llm.ComponentExamEvaluator)
		fake.Push(generatedExam(
			[3]string{"What do we call splitting a number into two equal groups?", "Halving (dividing by 2)", "Halving"},
			[3]string{"What is double 9?", "18", "Doubling"},
			[3]string{"What is half of 40?", "20", "Halving"},
		))
		c := f.create(t, doubling, tutor.ModeExam)
		fake.Push(judgedRight) // used if the model is asked
		r := f.turn(t, c.Session.Row.ID, msg)
		if got := examResult(r.Session.State, 0); got != tutor.ResultCorrect {
			t.Errorf("%q to a question whose expected answer is %q: recorded %q; want correct", msg, c.Session.State.ExamQuestions[0].ExpectedAnswer, got)
		}
	}
}

// TestGeneratedFractionSlash: a fraction written with the fraction slash
// ("7⁄9", U+2044) is the fraction, not 7.
func TestGeneratedFractionSlash(t *testing.T) {
	answerGenerated(t, [][3]string{
		{"What is half of 14/9?", "7/9", "Halving"},
		{"What is double 7/18?", "7/9", "Doubling"},
		{"What is double 3?", "6", "Doubling"},
	}, answered{"7⁄9", tutor.ResultCorrect}, answered{"7⁄8", tutor.ResultIncorrect})
}

// answered is a learner's answer to an exam question and the result it
// should get.
type answered struct {
	msg  string
	want tutor.Result
}

// answerGenerated starts an exam of the model-written items (text,
// expected answer, concept) on the doubling lesson and answers its
// questions in order, checking each result.
func answerGenerated(t *testing.T, items [][3]string, answers ...answered) {
	t.Helper()
	fake := llmtest.NewOpenAI(t)
	f := llmSetup(t, fake.URL, llm.ComponentExamGenerator, llm.ComponentExamEvaluator)
	fake.Push(generatedExam(items...))
	id := f.create(t, doubling, tutor.ModeExam).Session.Row.ID
	for i, a := range answers {
		fake.Push(judgedRight) // used if the model is asked
		r := f.turn(t, id, a.msg)
		q := r.Session.State.ExamQuestions[i]
		if got := examResult(r.Session.State, i); got != a.want {
			t.Errorf("%q to %q (expected %q): recorded %q; want %q", a.msg, q.QuestionText, q.ExpectedAnswer, got, a.want)
		}
	}
}
