package orchestrator_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tutord/tutord/internal/orchestrator"
	"github.com/tutord/tutord/internal/tutor"
)

// The exam's handling of messages that are no plain answer: a goodbye or a
// hedge beside an answer, a break request, a goodbye after the end.

// TestExamWordAnswerWithGoodbye: "freezing, bye" to a question answered in
// a word is an answer, judged and recorded, as "I'm done, it's 12" is; a
// wrong one is recorded wrong. A goodbye with no answer in it still ends
// the exam.
func TestExamWordAnswerWithGoodbye(t *testing.T) {
	f := setup(t)
	c, i := examOn(t, f, changesOfState, wordAnswer)
	q := c.Session.State.ExamQuestions[i]
	msg := q.ShownAnswer(c.Session.Topic) + ", bye"
	r := f.turn(t, c.Session.Row.ID, msg)
	s := r.Session.State
	if got := examResult(s, i); got != tutor.ResultCorrect || s.ExamTotalCorrect != i+1 || s.ExamFinished {
		t.Fatalf("%q to %q: result %q, %d correct in all, finished %v; want the answer recorded correct (%d correct)\nreply: %q",
			msg, q.QuestionText, got, s.ExamTotalCorrect, s.ExamFinished, i+1, r.Reply)
	}

	c, i = examOn(t, f, changesOfState, wordAnswer)
	msg = "bye, boiling"
	if strings.EqualFold(c.Session.State.ExamQuestions[i].ShownAnswer(c.Session.Topic), "boiling") {
		msg = "bye, melting"
	}
	judgedWrong(t, f.turn(t, c.Session.Row.ID, msg), i, msg)

	for _, msg := range []string{"thanks didi, bye", "that was fun, bye", "I'm done with this, bye", "ok bye"} {
		c, i := examOn(t, f, changesOfState, wordAnswer)
		r := f.turn(t, c.Session.Row.ID, msg)
		if s := r.Session.State; !s.ExamFinished || s.ExamQuestions[i].Result != nil {
			t.Errorf("%q: finished %v, question %d recorded %q; want the exam ended, the question unanswered", msg, s.ExamFinished, i+1, examResult(s, i))
		}
	}
}

// TestExamHedgedWordAnswer: "not sure but freezing" ventures an answer:
// it is judged, as "freezing, not sure" is.
func TestExamHedgedWordAnswer(t *testing.T) {
	f := setup(t)
	for _, form := range []string{"not sure but %s", "%s, not sure", "im not sure but its %s"} {
		c, i := examOn(t, f, changesOfState, wordAnswer)
		q := c.Session.State.ExamQuestions[i]
		msg := strings.Replace(form, "%s", q.ShownAnswer(c.Session.Topic), 1)
		r := f.turn(t, c.Session.Row.ID, msg)
		if got := examResult(r.Session.State, i); got != tutor.ResultCorrect {
			t.Errorf("%q to %q: recorded %q; want correct (the answer is in the message)", msg, q.QuestionText, got)
		}
	}
}

// TestExamBreakRequest: a break request or tiredness in an exam is no
// answer: the question stands, unjudged, and the reply says that an exam
// cannot be paused and asks the question again.
func TestExamBreakRequest(t *testing.T) {
	for _, msg := range []string{"i need a break", "i am tired", "can we take a break?", "im so sleepy"} {
		t.Run(msg, func(t *testing.T) {
			f := setup(t)
			c, i := examOn(t, f, changesOfState, wordAnswer)
			q := c.Session.State.ExamQuestions[i]
			r := f.turn(t, c.Session.Row.ID, msg)
			unjudged(t, r, i, msg)
			if !strings.Contains(r.Reply, "can't be paused") || !strings.Contains(r.Reply, q.QuestionText) {
				t.Fatalf("%q: reply %q; want the exam's no-pause reply and the question again", msg, r.Reply)
			}
		})
	}
	// On a number question too.
	f := setup(t)
	c := f.create(t, doubling, tutor.ModeExam)
	unjudged(t, f.turn(t, c.Session.Row.ID, "im tired"), 0, "im tired")
}

// TestExamIntentAfterTheEndOnGoodbye: "bye" after the exam's end meets
// the finished exam (intent exam_complete), not a stop.
func TestExamIntentAfterTheEndOnGoodbye(t *testing.T) {
	f := setup(t)
	c := f.create(t, doubling, tutor.ModeExam)
	id := c.Session.Row.ID
	if _, err := f.o.EndExam(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	for _, msg := range []string{"bye", "i need a break"} {
		r := f.turn(t, id, msg)
		if !strings.HasPrefix(r.Reply, tutor.ExamAlreadyCompleteReply) {
			t.Fatalf("%q: reply %q", msg, r.Reply)
		}
		var resp orchestrator.StepResponse
		if err := json.Unmarshal(r.Response, &resp); err != nil {
			t.Fatal(err)
		}
		if r.Intent != orchestrator.IntentExamComplete || resp.Intent != orchestrator.IntentExamComplete {
			t.Fatalf("%q: intent %q (response %q) after the exam's end; want %q", msg, r.Intent, resp.Intent, orchestrator.IntentExamComplete)
		}
	}
}

// TestExamSkipMovesOn: "pass", "next", "next question" and "skip this one"
// decline the exam question: it is recorded as "I don't know" is (wrong,
// with the message as the answer) and the exam goes on to the next
// question, or ends after the last. A greeting or a mood is still no
// answer: the question stands.
func TestExamSkipMovesOn(t *testing.T) {
	f := setup(t)
	c := f.create(t, doubling, tutor.ModeExam)
	idk := f.turn(t, c.Session.Row.ID, "I don't know").Session.State
	for _, msg := range []string{"pass", "skip", "next", "next question", "skip this one", "Next question please", "ok pass!", "can we move on?"} {
		c := f.create(t, doubling, tutor.ModeExam)
		r := f.turn(t, c.Session.Row.ID, msg)
		s := r.Session.State
		judgedWrong(t, r, 0, msg)
		if a := s.ExamQuestions[0].StudentAnswer; a == nil || *a != msg || s.ExamTotalIncorrect != idk.ExamTotalIncorrect ||
			s.ExamTotalCorrect != idk.ExamTotalCorrect || s.ExamTotalPartial != idk.ExamTotalPartial {
			t.Errorf("%q: answer %v, totals %d/%d/%d; want it recorded as \"I don't know\" is (totals %d/%d/%d)", msg, a,
				s.ExamTotalCorrect, s.ExamTotalPartial, s.ExamTotalIncorrect, idk.ExamTotalCorrect, idk.ExamTotalPartial, idk.ExamTotalIncorrect)
		}
		if strings.Contains(r.Reply, "stay with the exam") || !strings.Contains(r.Reply, s.ExamQuestions[1].Prompt()) {
			t.Errorf("%q: reply %q; want the next question", msg, r.Reply)
		}
	}
	// On the last question a skip ends the exam.
	c = f.create(t, doubling, tutor.ModeExam)
	qs, last := c.Session.State.ExamQuestions, len(c.Session.State.ExamQuestions)-1
	for _, q := range qs[:last] {
		f.turn(t, c.Session.Row.ID, q.ShownAnswer(c.Session.Topic))
	}
	r := f.turn(t, c.Session.Row.ID, "next")
	if s := r.Session.State; !s.ExamFinished || examResult(s, last) != tutor.ResultIncorrect || !strings.HasPrefix(r.Reply, "✅ Exam complete!") {
		t.Fatalf("next on the last question: finished %v, result %q, reply %q; want the exam finished", s.ExamFinished, examResult(s, last), r.Reply)
	}
	// Not a skip: the question stands.
	c = f.create(t, doubling, tutor.ModeExam)
	for _, msg := range []string{"hi", "hello", "lol", "next time i will study more"} {
		unjudged(t, f.turn(t, c.Session.Row.ID, msg), 0, msg)
	}
}

// TestExamTimeLimitEndsOnAHedgeOrABreak: a learner whose sitting reached
// its time limit hedges ("18 or 1000") or asks for a break on question 2.
// The exam ends with that turn, as with any other message then; they got
// "Which one is your final answer?" (or "answer when you're ready") with
// question 2 asked again, to an exam already finished. They should get the
// exam's result, with the hedge or break left unjudged.
func TestExamTimeLimitEndsOnAHedgeOrABreak(t *testing.T) {
	for _, kind := range []string{"hedge", "break"} {
		f, timeUp := timeLimited(t)
		c := f.create(t, doubling, tutor.ModeExam)
		id := c.Session.Row.ID
		qs := c.Session.State.ExamQuestions
		f.turn(t, id, qs[0].ExpectedAnswer)
		timeUp()
		msg := qs[1].ExpectedAnswer + " or 1000"
		if kind == "break" {
			msg = "i need a break"
		}
		r := f.turn(t, id, msg)
		unjudged(t, r, 1, msg)
		if want := tutor.ExamReply(r.Session.State, r.Session.Topic); !r.Session.State.ExamFinished || r.Reply != want {
			t.Errorf("%q at the time limit: finished %v, reply %q; want the exam ended with its result %q", msg, r.Session.State.ExamFinished, r.Reply, want)
		}
	}
}

// TestExamBooleanHedge: "true or false" to a true-or-false question of an
// exam chooses neither value. It was marked wrong, where "5 or 6" to a
// number question is not judged; now it is asked about the same way ("which
// one is your final answer?"), and the question stands, unjudged.
func TestExamBooleanHedge(t *testing.T) {
	f := setup(t)
	for _, msg := range []string{"true or false", "True/False", "false or true?"} {
		c, i := examOn(t, f, "science/states-of-matter/solids-liquids-and-gases", func(q tutor.ExamQuestion, tp *tutor.Topic) bool {
			return q.Expected(tp).Kind == "boolean"
		})
		q := c.Session.State.ExamQuestions[i]
		r := f.turn(t, c.Session.Row.ID, msg)
		unjudged(t, r, i, msg)
		if !strings.Contains(strings.ToLower(r.Reply), "which") || !strings.HasSuffix(r.Reply, q.Prompt()) {
			t.Errorf("%q to %q: reply %q; want the request for one answer, then the question again", msg, q.QuestionText, r.Reply)
		}
	}
}
