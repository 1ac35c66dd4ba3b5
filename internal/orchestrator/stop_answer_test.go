package orchestrator_test

import (
	"testing"

	"github.com/tutord/tutord/internal/orchestrator"
	"github.com/tutord/tutord/internal/tutor"
)

// trafficLights is the testdata subtopic whose first question ("What must
// a driver do at a red light?") is answered "stop", and whose second
// ("Which colour of a traffic light tells a driver to go?") is answered
// "green".
const trafficLights = "science/road-safety/traffic-lights"

// TestStopAnswersTheQuestion: "Stop." to a question whose answer is "stop"
// is the answer, judged right, and the session goes on; the same word to a
// question with another answer still asks to stop.
func TestStopAnswersTheQuestion(t *testing.T) {
	t.Run("exam", func(t *testing.T) {
		f := setup(t)
		c := f.create(t, trafficLights, tutor.ModeExam)
		id := c.Session.Row.ID
		qs := c.Session.State.ExamQuestions
		if len(qs) != 2 || qs[0].QuestionID != "red-1" {
			t.Fatalf("setup: the exam asks %+v; want red-1 first of 2", qs)
		}
		r := f.turn(t, id, "Stop.")
		s := r.Session.State
		if s.ExamFinished || s.ExamCurrentIdx != 1 || examResult(s, 0) != tutor.ResultCorrect || r.Intent != orchestrator.IntentExamAnswer {
			t.Fatalf("the right answer %q to %q: finished %v, question %d, result %q, intent %s; reply:\n%s",
				"Stop.", qs[0].QuestionText, s.ExamFinished, s.ExamCurrentIdx, examResult(s, 0), r.Intent, r.Reply)
		}
		// To the question whose answer is "green", "Stop." ends the exam
		// early, as asked.
		r = f.turn(t, id, "Stop.")
		s = r.Session.State
		if !s.ExamFinished || examResult(s, 1) != "" || s.ExamTotalCorrect != 1 || r.Intent != orchestrator.IntentStop {
			t.Errorf("%q to %q: finished %v, result %q, correct %d, intent %s; want the exam ended with 1 right",
				"Stop.", qs[1].QuestionText, s.ExamFinished, examResult(s, 1), s.ExamTotalCorrect, r.Intent)
		}
	})

	t.Run("lesson", func(t *testing.T) {
		f := setup(t)
		id := f.create(t, trafficLights, tutor.ModeTeachMe).Session.Row.ID
		r := f.turn(t, id, "yes, I'm ready")
		for i := 0; r.Session.State.LastQuestion == nil; i++ {
			if i > 5 {
				t.Fatal("no question after 6 turns")
			}
			r = f.turn(t, id, "ok, got it")
		}
		if q := r.Session.State.LastQuestion; q.QuestionID != "red-1" {
			t.Fatalf("setup: the first question asked is %q; want red-1", q.QuestionID)
		}
		step := r.Session.State.CurrentStep
		r = f.turn(t, id, "Stop.")
		s := r.Session.State
		if s.IsPaused || r.Intent == orchestrator.IntentStop || s.LastAnswerResult == nil || *s.LastAnswerResult != tutor.ResultCorrect ||
			s.LastQuestion != nil && s.LastQuestion.QuestionID == "red-1" || s.CurrentStep <= step {
			t.Fatalf("the right answer %q paused the lesson: paused %v, intent %s, result %v, pending %+v, step %d (was %d); reply:\n%s",
				"Stop.", s.IsPaused, r.Intent, s.LastAnswerResult, s.LastQuestion, s.CurrentStep, step, r.Reply)
		}
		checkReply(t, r.Reply)
		// Talk on to the question whose answer is "green": there "Stop."
		// pauses the lesson, the question still pending.
		for i := 0; r.Session.State.LastQuestion == nil; i++ {
			if i > 5 {
				t.Fatal("no second question after 6 turns")
			}
			r = f.turn(t, id, "ok, got it")
		}
		if q := r.Session.State.LastQuestion; q.QuestionID != "green-1" {
			t.Fatalf("setup: the second question asked is %q; want green-1", q.QuestionID)
		}
		r = f.turn(t, id, "Stop.")
		if s := r.Session.State; !s.IsPaused || r.Intent != orchestrator.IntentStop || s.LastQuestion == nil || s.LastQuestion.QuestionID != "green-1" {
			t.Errorf("%q to the question whose answer is green: paused %v, intent %s, pending %+v; want a pause with the question kept",
				"Stop.", s.IsPaused, r.Intent, s.LastQuestion)
		}
	})
}
