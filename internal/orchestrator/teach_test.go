package orchestrator_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tutord/tutord/internal/orchestrator"
	"github.com/tutord/tutord/internal/tutor"
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
