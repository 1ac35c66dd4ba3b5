package orchestrator_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/llm/llmtest"
	"github.com/tutord/tutord/internal/orchestrator"
	"github.com/tutord/tutord/internal/tutor"
)

// Replies of a model-backed tutor that are regenerated before the learner
// reads them: they contradict what the program decided, or give the
// pending answer away in words the leak check must read.

// askDouble7 starts a model-backed teach_me lesson on doubling, for a
// learner whose preferred language is lang ("" for English), and has the
// tutor ask the bank question "What is double 7?" (answer 14).
func askDouble7(t *testing.T, lang string) (*fixture, *llmtest.Server, uuid.UUID) {
	t.Helper()
	fake := llmtest.NewOpenAI(t)
	f := llmSetup(t, fake.URL, llm.ComponentTutor)
	c, err := f.o.CreateSession(context.Background(), orchestrator.CreateRequest{
		GuidelineID: f.guidelines[doubling], Mode: tutor.ModeTeachMe,
		Student: tutor.StudentContext{Grade: 6, Board: "CBSE", LanguageLevel: "standard", PreferredExamples: tutor.DefaultPreferredExamples(), Language: lang},
	})
	if err != nil {
		t.Fatal(err)
	}
	id := c.Session.Row.ID
	fake.Push(out("Let's try one. What is double 7?", asking("What is double 7?", "14", "Doubling")))
	r := f.turn(t, id, "ok")
	if q := r.Session.State.LastQuestion; q == nil || q.QuestionID != "double-1" {
		t.Fatalf("pending question %+v; want double-1", q)
	}
	return f, fake, id
}

// The model ignores the evaluator's verdict (DESIGN §1: program code
// decides correctness): the guardrails fix the state, but the learner
// would read "that's right" for a wrong answer, or "not quite" for a right
// one. The reply is regenerated with a correction.
func TestReplyContradictingTheVerdictIsRegenerated(t *testing.T) {
	t.Run("praise for a wrong answer", func(t *testing.T) {
		f, fake, id := askDouble7(t, "")
		fake.Push(out("Yes, that's right! Well done.", judging(true)),
			out("Not quite yet. What do you get when you add 7 and 7?", judging(false)))
		r := f.turn(t, id, "12")
		if low := strings.ToLower(r.Reply); strings.Contains(low, "that's right") || strings.Contains(low, "well done") {
			t.Fatalf("wrong answer 12 (recorded %v) was told %q", *r.Session.State.LastAnswerResult, r.Reply)
		}
		if c := userPrompt(t, fake.Requests()[len(fake.Requests())-1]); !strings.Contains(c, "the program checked it and it is wrong") {
			t.Errorf("the regeneration does not say why:\n%s", c)
		}
	})
	t.Run("not quite for a right answer", func(t *testing.T) {
		f, fake, id := askDouble7(t, "")
		fake.Push(out("Not quite. Try adding again.", judging(false)), out("Yes! 7 and 7 make 14.", judging(true)))
		r := f.turn(t, id, "14")
		if strings.Contains(strings.ToLower(r.Reply), "not quite") {
			t.Fatalf("right answer 14 (recorded %v) was told %q", *r.Session.State.LastAnswerResult, r.Reply)
		}
	})
}

// The model contradicts the verdict again when asked to write its reply
// again: the contradicting sentences are replaced by what the program
// decided, not by a sentence that reads, after a right answer, as if it
// were wrong too.
func TestReplyStillContradictingTheVerdictIsReplaced(t *testing.T) {
	for _, tt := range []struct {
		name, answer, reply string
		correct             bool
		want, not           string
	}{
		{"praise for a wrong answer", "12", "Yes, that's right! Well done.", true, "Not quite yet.", "right"},
		{"not quite for a right answer", "14", "Not quite. Try adding again.", false, "That's right.", "again"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, fake, id := askDouble7(t, "")
			fake.Push(out(tt.reply, judging(tt.correct)), out(tt.reply, judging(tt.correct)))
			r := f.turn(t, id, tt.answer)
			if !strings.HasPrefix(r.Reply, tt.want) || strings.Contains(strings.ToLower(r.Reply), tt.not) || strings.Contains(r.Reply, "work it out together") {
				t.Errorf("answer %s (recorded %v), the model twice writing %q: the learner read %q, want it to open %q",
					tt.answer, *r.Session.State.LastAnswerResult, tt.reply, r.Reply, tt.want)
			}
		})
	}
}

// After a first wrong answer the model states the answer in plain English
// ("14 is what you get ..."), with no answer phrase: a leak before the
// explain phase, regenerated.
func TestPlainEnglishLeakIsRegenerated(t *testing.T) {
	for _, leak := range []string{
		"Not quite. 14 is what you get when you put two 7s together.",
		"Close! Fourteen is what two groups of 7 make.",
	} {
		f, fake, id := askDouble7(t, "")
		fake.Push(out(leak, judging(false)), out("Not quite. Try writing 7 twice and adding them.", judging(false)))
		r := f.turn(t, id, "12")
		if low := strings.ToLower(r.Reply); strings.Contains(low, "14") || strings.Contains(low, "fourteen") {
			t.Errorf("after a first wrong answer the learner read %q", r.Reply)
		}
	}
}

// A learner with prefs.lang "hi" is written to in Hindi: "the correct
// answer is 14" in Hindi is caught though the leak check reads only
// English answer phrases.
func TestLeakInThePreferredLanguageIsRegenerated(t *testing.T) {
	f, fake, id := askDouble7(t, "hi")
	fake.Push(out("अच्छी कोशिश! सही उत्तर 14 है।", judging(false)),
		out("अच्छी कोशिश! 7 को दो बार लिखो और जोड़ो।", judging(false)))
	r := f.turn(t, id, "12")
	if strings.Contains(r.Reply, "14") {
		t.Fatalf("after a first wrong answer a Hindi learner read %q (\"the correct answer is 14\")", r.Reply)
	}
}

// At step 1 the model says goodbye with session_complete: the guardrails
// drop the flag, so the lesson goes on, and the goodbye is regenerated
// rather than sent.
func TestGoodbyeBeforeTheFinalStepIsRegenerated(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	f := llmSetup(t, fake.URL, llm.ComponentTutor)
	id := f.create(t, doubling, tutor.ModeTeachMe).Session.Row.ID
	fake.Push(out("That's the end of our lesson for today. Great work, and see you next time!", completing),
		out("Doubling means two equal groups. What is double 3?", asking("What is double 3?", "6", "Doubling")))
	r := f.turn(t, id, "yes ready")
	if r.Session.State.IsComplete(r.Session.Topic) {
		t.Fatalf("the lesson ended at step %d", r.Session.State.CurrentStep)
	}
	if strings.Contains(r.Reply, "end of our lesson") {
		t.Fatalf("lesson at step %d goes on, but the learner was told %q", r.Session.State.CurrentStep, r.Reply)
	}
}

// At the explain rung (third wrong answer) a reply regenerated for
// internal language must still explain: its prompt keeps the solution.
// Only a reply that gave the answer away too early is rewritten without it.
func TestRegeneratedExplainKeepsTheSolution(t *testing.T) {
	f, fake, id := askDouble7(t, "")
	fake.Push(out("Look again: how many 7s do we need?", judging(false)))
	f.turn(t, id, "12")
	fake.Push(out("Hint: write 7 twice and add them.", judging(false)))
	f.turn(t, id, "10")
	fake.Push(out("The student keeps adding 2. Double 7 means 7 + 7 = 14.", judging(false)),
		out("Let me show you: double 7 means 7 + 7, and 7 + 7 = 14. Now, what is double 9?", judging(false)))
	r := f.turn(t, id, "9")
	reqs := fake.Requests()
	first, regen := userPrompt(t, reqs[len(reqs)-2]), userPrompt(t, reqs[len(reqs)-1])
	a1, _ := promptSection(first, "AWAITING ANSWER")
	a2, _ := promptSection(regen, "AWAITING ANSWER")
	if !strings.Contains(a1, "You may now explain the solution") {
		t.Fatalf("the third wrong answer is not at the explain rung:\n%s", a1)
	}
	if !strings.Contains(a2, "You may now explain the solution") || strings.Contains(a2, "Do not give the answer") {
		t.Fatalf("at the explain rung the regenerated prompt forbids the solution:\n%s", a2)
	}
	if !strings.Contains(r.Reply, "7 + 7 = 14") {
		t.Errorf("the explain rung's reply %q lost its solution", r.Reply)
	}
}
