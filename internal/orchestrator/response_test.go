package orchestrator

import (
	"testing"

	"github.com/tutord/tutord/internal/tutor"
)

// TestExamReviewShowsAnswersOfAnsweredQuestionsOnly: a finished exam's
// review gives the expected answer of each question with a result, and
// none of a question left unanswered (an exam ended by the time limit).
func TestExamReviewShowsAnswersOfAnsweredQuestionsOnly(t *testing.T) {
	reply, result := "12", tutor.ResultIncorrect
	s := tutor.State{Mode: tutor.ModeExam, ExamFinished: true, ExamFeedback: &tutor.ExamFeedback{}, ExamCurrentIdx: 1,
		ExamQuestions: []tutor.ExamQuestion{
			{QuestionIdx: 0, QuestionText: "Double 7.", ExpectedAnswer: "14", StudentAnswer: &reply, Result: &result},
			{QuestionIdx: 1, QuestionText: "Double 9.", ExpectedAnswer: "18"},
		}}
	nt := nextTurn(s, nil, "Time is up.")
	if len(nt.ExamResults) != 2 {
		t.Fatalf("%d results", len(nt.ExamResults))
	}
	if a := nt.ExamResults[0].CorrectAnswer; a == nil || *a != "14" {
		t.Fatalf("answered question: correct answer %v, want 14", a)
	}
	if a := nt.ExamResults[1].CorrectAnswer; a != nil {
		t.Fatalf("unanswered question: correct answer %q, want none", *a)
	}
}

// TestExamReviewShowsChoiceAnswersAsText: a choice question whose answer is
// an option's letter is reviewed with the option's text, which is what the
// learner saw.
func TestExamReviewShowsChoiceAnswersAsText(t *testing.T) {
	topic := &tutor.Topic{Questions: []tutor.BankQuestion{{ID: "sign", Text: "Is the product positive, negative or zero?",
		Answer: "B", Kind: "choice", Options: []string{"positive", "negative", "zero"}}}}
	reply, result := "positive", tutor.ResultIncorrect
	s := tutor.State{Mode: tutor.ModeExam, ExamFinished: true, ExamFeedback: &tutor.ExamFeedback{}, ExamCurrentIdx: 1,
		ExamQuestions: []tutor.ExamQuestion{{QuestionIdx: 0, QuestionID: "sign", QuestionText: topic.Questions[0].Text,
			ExpectedAnswer: "B", StudentAnswer: &reply, Result: &result}}}
	nt := nextTurn(s, topic, "Done.")
	if a := nt.ExamResults[0].CorrectAnswer; a == nil || *a != "negative" {
		t.Fatalf("correct answer %v, want negative", a)
	}
}
