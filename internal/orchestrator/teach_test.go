package orchestrator_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/tutord/tutord/internal/orchestrator"
	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

func TestTeachMeLesson(t *testing.T) {
	f := setup(t)
	c := f.create(t, doubling, tutor.ModeTeachMe)
	id := c.Session.Row.ID
	if c.Welcome == "" || c.Session.Row.Version != 1 || c.Session.State.TurnCount != 0 {
		t.Fatalf("created: %+v", c.Session.Row)
	}
	// Talk until the tutor asks its first question.
	var r orchestrator.TurnResult
	r = f.turn(t, id, "yes, I'm ready")
	for i := 0; r.Session.State.LastQuestion == nil; i++ {
		if i > 5 {
			t.Fatal("no question after 6 turns")
		}
		checkReply(t, r.Reply)
		r = f.turn(t, id, "ok, got it")
	}
	q := r.Session.State.LastQuestion
	bank, _ := r.Session.Topic.Question(q.QuestionID)
	ans := bank.Answer

	// The ladder: probe (hint 1), hint (hint 2), explain (the solution).
	wrong := []struct {
		msg   string
		phase tutor.Phase
		says  string
	}{
		{"3", tutor.PhaseProbe, bank.Hints[0]},
		{"4", tutor.PhaseHint, bank.Hints[1]},
		{"5", tutor.PhaseExplain, ""},
	}
	for _, w := range wrong {
		r = f.turn(t, id, w.msg)
		lq := r.Session.State.LastQuestion
		if lq == nil || lq.Phase != w.phase {
			t.Fatalf("after %q: phase %v, want %s", w.msg, lq, w.phase)
		}
		if w.says != "" && !strings.Contains(r.Reply, w.says) {
			t.Errorf("after %q the reply %q does not give %q", w.msg, r.Reply, w.says)
		}
		if w.phase != tutor.PhaseExplain && strings.Contains(r.Reply, ans) {
			t.Fatalf("the answer %s was given before the explain phase: %s", ans, r.Reply)
		}
		checkReply(t, r.Reply)
	}
	if !strings.Contains(r.Reply, ans) {
		t.Errorf("the explain phase does not walk through the solution: %s", r.Reply)
	}
	stepBefore := r.Session.State.CurrentStep
	r = f.turn(t, id, "it's "+ans)
	// The step's check question answered: the lesson moves to the next
	// step, with the question closed.
	if s := r.Session.State; s.CurrentStep != stepBefore+1 || s.LastQuestion != nil || s.LastAnswerResult == nil || *s.LastAnswerResult != tutor.ResultCorrect {
		t.Fatalf("a correct answer did not move on: step %d (was %d), question %+v, result %v", s.CurrentStep, stepBefore, s.LastQuestion, s.LastAnswerResult)
	}

	// An always-correct learner finishes; completion only past the final step.
	total := r.Session.Topic.TotalSteps()
	for i := 0; !r.Session.State.IsComplete(r.Session.Topic); i++ {
		if i > 40 {
			t.Fatal("lesson did not complete in 40 turns")
		}
		msg := "ok"
		if r.Session.State.LastQuestion != nil {
			msg = pendingAnswer(t, r.Session)
		}
		r = f.turn(t, id, msg)
		checkReply(t, r.Reply)
	}
	if r.Session.State.CurrentStep != total+1 {
		t.Fatalf("complete at step %d of %d", r.Session.State.CurrentStep, total)
	}
	var resp orchestrator.StepResponse
	if err := json.Unmarshal(r.Response, &resp); err != nil || !resp.NextTurn.IsComplete || resp.NextTurn.StepIdx != total+1 {
		t.Fatalf("step response %s", r.Response)
	}
	if r.Session.Row.Summary.IsComplete != true || r.Session.Row.Summary.Coverage != 100 {
		t.Fatalf("summary columns: %+v", r.Session.Row.Summary)
	}

	// The extension: it keeps tutoring until turn_count - 2*total > 10, then
	// answers with post-completion replies that count no turn.
	for r.Session.State.TurnCount-2*total <= 10 {
		r = f.turn(t, id, "can I have another one?")
		if r.Intent == orchestrator.IntentSessionComplete {
			t.Fatalf("post-completion reply during the extension at turn %d", r.Session.State.TurnCount)
		}
	}
	turns := r.Session.State.TurnCount
	r = f.turn(t, id, "one more?")
	if r.Intent != orchestrator.IntentSessionComplete || r.Session.State.TurnCount != turns {
		t.Fatalf("after the extension: intent %s, turns %d (was %d)", r.Intent, r.Session.State.TurnCount, turns)
	}
	msgs, _ := f.o.Messages(t.Context(), id)
	if last := msgs[len(msgs)-1]; last.Role != "teacher" || last.Content != r.Reply {
		t.Fatalf("the post-completion reply was not stored: %+v", last)
	}
}

// TestStuckLearnerMovesOn: a learner who gives the same wrong answer, or
// "I don't know", again and again is not kept on one question (or a round
// of them) forever: the lesson moves on, after one step back and at most
// twelve tries at a question.
func TestStuckLearnerMovesOn(t *testing.T) {
	for _, msg := range []string{"999", "I don't know"} {
		t.Run(msg, func(t *testing.T) {
			f := setup(t)
			id := f.create(t, doubling, tutor.ModeTeachMe).Session.Row.ID
			se := f.turn(t, id, "ok").Session
			for i := 0; se.State.LastQuestion == nil; i++ {
				if i == 20 {
					t.Fatal("no question after 20 turns")
				}
				se = f.turn(t, id, "ok").Session
			}
			step := se.State.CurrentStep
			for i := 1; ; i++ {
				r := f.turn(t, id, msg)
				checkReply(t, r.Reply)
				checkInvariants(t, r.Session)
				if r.Session.State.CurrentStep > step || r.Session.State.IsComplete(r.Session.Topic) {
					break
				}
				if i == 20 {
					t.Fatalf("still on step %d after %d replies of %q; last reply %q", step, i, msg, r.Reply)
				}
			}
		})
	}
}

// lessonToQuestion plays a teach_me lesson on key, saying "ok" to
// explanations and answering every pending question right, until a
// question whose answer kind is one of kinds is pending. It returns the
// session id and the last turn.
func lessonToQuestion(t *testing.T, f *fixture, key string, kinds ...answer.Kind) (uuid.UUID, orchestrator.TurnResult) {
	t.Helper()
	id := f.create(t, key, tutor.ModeTeachMe).Session.Row.ID
	r := f.turn(t, id, "yes")
	for i := 0; ; i++ {
		if i == 60 {
			t.Fatalf("no question of kind %v in 60 turns", kinds)
		}
		if q := r.Session.State.LastQuestion; q != nil {
			kind := q.Expected(r.Session.Topic).KindOf()
			for _, k := range kinds {
				if kind == k {
					return id, r
				}
			}
			r = f.turn(t, id, pendingAnswer(t, r.Session))
			continue
		}
		if r.Session.State.IsComplete(r.Session.Topic) {
			t.Fatalf("the lesson ended before a question of kind %v", kinds)
		}
		r = f.turn(t, id, "ok")
	}
}

// TestOffLessonQuestionCountsOffTopic: "who won the match?" while a
// question is pending is off topic, as "tell me a joke" is: counted in
// off_topic_count, the question asked again, unjudged.
func TestOffLessonQuestionCountsOffTopic(t *testing.T) {
	f := setup(t)
	for _, kind := range []answer.Kind{answer.KindText, answer.KindFraction} {
		key := "science/nutrition-in-plants/photosynthesis"
		if kind == answer.KindFraction {
			key = "mathematics/fractions/adding-and-subtracting-fractions"
		}
		id, r := lessonToQuestion(t, f, key, kind)
		before := *r.Session.State.LastQuestion
		for i, msg := range []string{"who won the match?", "what's your favourite colour?"} {
			r = f.turn(t, id, msg)
			s := r.Session.State
			if s.OffTopicCount != i+1 || !strings.Contains(r.Reply, before.QuestionText) {
				t.Errorf("%s, %q: off_topic_count %d, reply %q; want %d and the question again", key, msg, s.OffTopicCount, r.Reply, i+1)
			}
			if q := s.LastQuestion; q == nil || q.QuestionID != before.QuestionID || q.WrongAttempts != 0 || s.LastAnswerResult != nil {
				t.Errorf("%s, %q was judged: question %+v, result %v", key, msg, q, s.LastAnswerResult)
			}
		}
	}
}

// TestChatterIsNotAWrongAnswer: a learner who writes "lol", "wait a sec"
// or "I'm back" while a question whose answer is words is pending ("Which
// gas do plants take in from the air for photosynthesis?") relies on being
// asked the question again, unjudged, as on a numeric question or in an
// exam (TestExamAsides): not on hearing "Hmm, lol isn't it yet", climbing
// the hint ladder towards the answer shown, with the chatter kept as a
// wrong answer (CONTRACT §9.6 case 1 counts wrong answers only; seed 003:
// off-topic → redirect_to_question). A real short answer is still judged
// (TestChatter).
func TestChatterIsNotAWrongAnswer(t *testing.T) {
	for _, msg := range []string{"lol", "wait a sec", "I'm back", "sorry I was away"} {
		t.Run(msg, func(t *testing.T) {
			f := setup(t)
			id, r := lessonToQuestion(t, f, "science/nutrition-in-plants/photosynthesis", answer.KindText)
			before := *r.Session.State.LastQuestion
			r = f.turn(t, id, msg)
			q := r.Session.State.LastQuestion
			if q == nil || q.QuestionID != before.QuestionID {
				t.Fatalf("%q: the question %s is no longer pending: %+v; reply %q", msg, before.QuestionID, q, r.Reply)
			}
			if q.WrongAttempts != before.WrongAttempts || q.Phase != before.Phase || len(q.PreviousStudentAnswers) != len(before.PreviousStudentAnswers) {
				t.Errorf("%q to %q was judged a wrong answer: wrong_attempts %d→%d, phase %s→%s, previous answers %q; reply %q",
					msg, before.QuestionText, before.WrongAttempts, q.WrongAttempts, before.Phase, q.Phase, q.PreviousStudentAnswers, r.Reply)
			}
			if res := r.Session.State.LastAnswerResult; res != nil {
				t.Errorf("%q recorded an answer result %s", msg, *res)
			}
			if !strings.Contains(r.Reply, before.QuestionText) {
				t.Errorf("%q: the reply does not ask %q again: %q", msg, before.QuestionText, r.Reply)
			}
		})
	}
}

// TestChatterAfterBreakIsNotAWrongAnswer: a learner who takes a break
// while "Name the three states of matter." is pending relies on "I'm
// back" picking up where they left off (as the break reply promised): the
// question asked again, unjudged, not "Not quite" with a wrong attempt.
func TestChatterAfterBreakIsNotAWrongAnswer(t *testing.T) {
	f := setup(t)
	id, r := lessonToQuestion(t, f, "science/states-of-matter/solids-liquids-and-gases", answer.KindSet, answer.KindText)
	before := *r.Session.State.LastQuestion
	r = f.turn(t, id, "I need a break")
	if !r.Session.State.IsPaused {
		t.Fatalf("the break did not pause the lesson: %q", r.Reply)
	}
	r = f.turn(t, id, "I'm back")
	q := r.Session.State.LastQuestion
	if q == nil || q.QuestionID != before.QuestionID {
		t.Fatalf("the question %s is no longer pending after the break: %+v; reply %q", before.QuestionID, q, r.Reply)
	}
	if q.WrongAttempts != 0 || q.Phase != tutor.PhaseAsked || len(q.PreviousStudentAnswers) != 0 {
		t.Errorf("\"I'm back\" to %q was judged a wrong answer: wrong_attempts %d, phase %s, previous answers %q; reply %q",
			before.QuestionText, q.WrongAttempts, q.Phase, q.PreviousStudentAnswers, r.Reply)
	}
}

// TestChangedAnswerIsAnswered: a learner who answers "What is double 7?"
// right, hears the praise, then takes it back ("actually no, I think it's
// 16") relies on being told that the first answer was the right one, not
// on "Keep that in mind…" and the next explanation, which leaves them
// believing the wrong value (seed 002 intent answer_change). The right
// answer keeps its credit.
func TestChangedAnswerIsAnswered(t *testing.T) {
	for _, change := range []string{"actually no, I think it's %s", "wait, I meant %s"} {
		t.Run(strings.ReplaceAll(change, "%s", "X"), func(t *testing.T) {
			f := setup(t)
			id, r := lessonToQuestion(t, f, doubling, answer.KindInteger)
			right := pendingAnswer(t, r.Session)
			r = f.turn(t, id, right)
			if r.Session.State.LastAnswerResult == nil || *r.Session.State.LastAnswerResult != tutor.ResultCorrect {
				t.Fatalf("%s was not judged right: %q", right, r.Reply)
			}
			mastery := r.Session.State.MasteryEstimates.Mean()
			wrong := "16"
			if right == "16" {
				wrong = "20"
			}
			msg := strings.Replace(change, "%s", wrong, 1)
			r = f.turn(t, id, msg)
			if !strings.Contains(r.Reply, right) || !strings.Contains(r.Reply, wrong) {
				t.Errorf("after %q then %q the reply does not say which is right: %q", right, msg, r.Reply)
			}
			if r.Intent != string(tutor.IntentAnswerChange) {
				t.Errorf("intent %q, want %q", r.Intent, tutor.IntentAnswerChange)
			}
			if got := r.Session.State.MasteryEstimates.Mean(); got != mastery || r.Session.State.LastAnswerResult != nil {
				t.Errorf("the change was judged: mastery %.3f→%.3f, result %v", mastery, got, r.Session.State.LastAnswerResult)
			}
		})
	}
}
