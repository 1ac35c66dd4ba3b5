package llmagent

import (
	"context"
	"strings"
	"testing"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

// TestFourStepLesson drives a four-step lesson (the first four steps of
// the sample's adding-fractions plan) through the tutor over a scripted
// OpenAI fake, the guardrails and ApplyTurn, as the orchestrator does: a
// question from the bank, three wrong answers up the ladder (probe, hint,
// explain), a right answer that moves on, and completion on the final
// step only. Every turn's prompt must hold the required sections and the
// evaluator's verdict; no prompt and no reply may hold a pending answer
// before the guardrails allow it.
func TestFourStepLesson(t *testing.T) {
	topic := sampleTopic(t, addingFractions)
	topic.Steps = topic.Steps[:4] // explain, check, explain, check
	se := newSession(t, tutor.ModeTeachMe, topic)
	f := newOpenAI(t)
	tu := f.tutor(t)

	sections := []string{
		"## CURRENT STEP", "## MASTERY", "## MISCONCEPTIONS", "## SESSION SO FAR", "## PACING",
		"## STUDENT STYLE", "## RECENT CONVERSATION", "## STUDENT'S MESSAGE",
	}
	turns := []struct {
		msg      string
		out      tutor.TutorOutput
		verdict  string // the verdict line's label; "" when no verdict
		attempt  string // the pending question's attempt line; "" when none
		strategy string
		// after the turn
		step     int
		pending  string // the pending bank question's id
		phase    tutor.Phase
		complete bool
	}{
		{
			msg: "Hi, I'm ready!",
			out: out("Like fractions have the same bottom number, so the parts are the same size. What is 2/9 + 5/9?",
				asks("What is 2/9 + 5/9?", "7/9", "Like fractions"), advance(2), summary("Explained like fractions; asked a sum.")),
			step: 2, pending: "like-1", phase: tutor.PhaseAsked,
		},
		{
			msg: "7/18",
			out: out("You added the bottoms too. If a cake is cut into 9 slices, does adding more slices change the slice size?",
				judged(false), summary("Added denominators; probed slice size."), func(o *tutor.TutorOutput) {
					o.SessionComplete = true // too early: the guardrails drop it
					o.MisconceptionsDetected = []string{"Adds the denominators"}
				}),
			verdict: `"7/18": INCORRECT`, attempt: "Attempt: 1 (wrong attempts so far: 0)", strategy: "Strategy: ask one probing question",
			step: 2, pending: "like-1", phase: tutor.PhaseProbe,
		},
		{
			msg: "2/9",
			out: out("The ninths stay ninths. Count them: 2 of them, then 5 more of them.",
				judged(false), summary("Second miss; hinted to count the ninths.")),
			verdict: `"2/9": INCORRECT`, attempt: "Attempt: 2 (wrong attempts so far: 1)", strategy: "Strategy: give a targeted hint",
			step: 2, pending: "like-1", phase: tutor.PhaseHint,
		},
		{
			msg: "5/9",
			out: out("Picture 9 cricket overs: you bowl 2, then 5 more, so you have bowled 7 of the 9, which is 7/9. Now try: what is 7/10 - 3/10, in its simplest form?",
				judged(false), asks("What is 7/10 - 3/10? Give the answer in its simplest form.", "2/5", "Like fractions"),
				summary("Explained 2/9 + 5/9 with overs; asked a difference.")),
			verdict: `"5/9": INCORRECT`, attempt: "Attempt: 3 (wrong attempts so far: 2)", strategy: "Strategy: explain the solution directly",
			step: 2, pending: "like-2", phase: tutor.PhaseAsked,
		},
		{
			msg: "2/5",
			out: out("Yes, you took 3 tenths from 7 tenths and simplified 4/10. Unlike fractions have different parts, so we make them the same first. What is 1/3 + 1/4?",
				judged(true), advance(4), asks("What is 1/3 + 1/4?", "7/12", "Unlike fractions"),
				summary("Right and simplified; taught unlike fractions; asked a sum.")),
			verdict: `"2/5": CORRECT`, attempt: "Attempt: 1 (wrong attempts so far: 0)", strategy: "Strategy: the answer is right",
			step: 4, pending: "unlike-1", phase: tutor.PhaseAsked,
		},
		{
			msg: "7/12",
			out: out("Yes: you turned both into twelfths first. Today you added like and unlike fractions.",
				judged(true), summary("Right; recapped the lesson."), func(o *tutor.TutorOutput) { o.SessionComplete = true }),
			verdict: `"7/12": CORRECT`, attempt: "Attempt: 1 (wrong attempts so far: 0)", strategy: "Strategy: the answer is right",
			step: 5, complete: true,
		},
	}

	var system string
	for i, tt := range turns {
		before := se.state
		f.srv.Push(reply(t, tt.out))
		turn := se.turn(tt.msg)
		r, c, err := tu.Respond(context.Background(), turn)
		if err != nil {
			t.Fatalf("turn %d: %v", i+1, err)
		}
		g := se.apply(turn, r)

		// The prompt.
		p, err := tutorPrompt(turn)
		if err != nil {
			t.Fatal(err)
		}
		if c.Prompt != p.String() {
			t.Errorf("turn %d: the call record's prompt is not the turn's prompt", i+1)
		}
		if i == 0 {
			system = p.system
		} else if p.system != system {
			t.Errorf("turn %d: the system prompt changed", i+1)
		}
		for _, s := range sections {
			if !strings.Contains(p.user, s+"\n") {
				t.Errorf("turn %d: the prompt lacks %s", i+1, s)
			}
		}
		checkSection(t, i+1, p.user, "## EVALUATOR VERDICT", tt.verdict)
		checkSection(t, i+1, p.user, "## AWAITING ANSWER", tt.attempt)
		if tt.strategy != "" && !strings.Contains(p.user, tt.strategy) {
			t.Errorf("turn %d: the prompt lacks %q", i+1, tt.strategy)
		}
		if q := before.LastQuestion; q != nil {
			shown := strings.Contains(p.String(), "the answer is "+q.ExpectedAnswer)
			if shown != g.MayRevealAnswer {
				t.Errorf("turn %d: the prompt shows the answer: %t, the guardrails allow it: %t", i+1, shown, g.MayRevealAnswer)
			}
			if !g.MayRevealAnswer && strings.Contains(p.String(), q.ExpectedAnswer) {
				t.Errorf("turn %d: the prompt holds the pending answer %q", i+1, q.ExpectedAnswer)
			}
		}

		// The reply the learner reads.
		checkNoLeak(t, i+1, before, turn, r, g)

		// The state after the turn.
		s := se.state
		if s.CurrentStep != tt.step || s.IsComplete(topic) != tt.complete {
			t.Errorf("turn %d: step %d, complete %t; want %d, %t", i+1, s.CurrentStep, s.IsComplete(topic), tt.step, tt.complete)
		}
		switch q := s.LastQuestion; {
		case tt.pending == "" && q != nil:
			t.Errorf("turn %d: question %q still pending", i+1, q.QuestionID)
		case tt.pending != "" && (q == nil || q.QuestionID != tt.pending || q.Phase != tt.phase):
			t.Errorf("turn %d: pending %+v, want bank question %s in phase %s", i+1, q, tt.pending, tt.phase)
		}
	}
	if got := se.state.ConceptsCovered; strings.Join(got, ",") != "Like fractions,Unlike fractions" {
		t.Errorf("covered %v", got)
	}
	if m, _ := se.state.MasteryEstimates.Get("Unlike fractions"); m == 0 {
		t.Error("the right answer on unlike fractions did not move its mastery")
	}
	if f.srv.Pending() != 0 {
		t.Errorf("%d scripted replies unused", f.srv.Pending())
	}
}

// checkSection checks that a section is in the prompt with line when line
// is set, and absent otherwise.
func checkSection(t *testing.T, turn int, prompt, heading, line string) {
	t.Helper()
	has := strings.Contains(prompt, heading+"\n")
	switch {
	case line == "" && has:
		t.Errorf("turn %d: the prompt has %s", turn, heading)
	case line != "" && !has:
		t.Errorf("turn %d: the prompt lacks %s", turn, heading)
	case line != "" && !strings.Contains(prompt, line):
		t.Errorf("turn %d: the prompt lacks %q", turn, line)
	}
}

// checkNoLeak checks that a reply gives away neither the pending answer,
// unless the guardrails allow it, nor the answer of the question it asks.
func checkNoLeak(t *testing.T, turn int, before tutor.State, tr agents.Turn, r agents.TutorReply, g tutor.Guarded) {
	t.Helper()
	var dialogue []answer.Utterance
	for _, m := range before.History {
		role := answer.RoleTutor
		if m.Role == tutor.RoleStudent {
			role = answer.RoleStudent
		}
		dialogue = append(dialogue, answer.Utterance{Role: role, Text: m.Content})
	}
	dialogue = append(dialogue, answer.Utterance{Role: answer.RoleStudent, Text: tr.Message})
	if q := before.LastQuestion; q != nil && !g.MayRevealAnswer {
		leaks := answer.DetectLeaks(answer.LeakCheck{Expected: q.Expected(tr.Topic), Question: q.QuestionText, Dialogue: dialogue, Reply: r.Output.Response})
		if len(leaks) > 0 {
			t.Errorf("turn %d: the reply gives away %q: %+v", turn, q.ExpectedAnswer, leaks)
		}
	}
	if nq := r.NextQuestion; nq != nil {
		if leaks := answer.DetectLeaks(answer.LeakCheck{Expected: nq.Expected(), Question: nq.Text, Reply: r.Output.Response}); len(leaks) > 0 {
			t.Errorf("turn %d: the reply gives away the answer to its own question: %+v", turn, leaks)
		}
	}
}
