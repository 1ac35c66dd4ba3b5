package orchestrator_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tutord/tutord/internal/curriculum"
	"github.com/tutord/tutord/internal/lessons"
	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/llm/llmtest"
	"github.com/tutord/tutord/internal/orchestrator"
	"github.com/tutord/tutord/internal/tutor"
)

// examAnsweringItsLength is a generated exam of 7 questions, the first of which has
// the answer 7: the exam's own length.
var examAnsweringItsLength = [][3]string{
	{"What is half of 14?", "7", "Halving"},
	{"What is double 8?", "16", "Doubling"},
	{"What is half of 18?", "9", "Halving"},
	{"What is double 25?", "50", "Doubling"},
	{"What is half of 50?", "25", "Halving"},
	{"What is double 12?", "24", "Doubling"},
	{"What is double 30?", "60", "Doubling"},
}

// The model-backed welcome of a 7-question exam whose first answer is 7
// writes the count as "seven questions" or "7 short questions": the count
// is no leak of that answer (CONTRACT §9.11: the welcome gives the number
// of questions), and the sentence stays.
func TestExamWelcomeKeepsItsCountInAnyForm(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	f := llmSetup(t, fake.URL, llm.ComponentExamGenerator, llm.ComponentWelcome)
	for _, w := range []string{
		"Hi there! This exam has seven questions, asked one at a time.",
		"Welcome to a seven-question exam on doubling and halving!",
		"Welcome! You will answer 7 short questions, one at a time.",
	} {
		fake.Push(generatedExam(examAnsweringItsLength...), message(w))
		c := f.create(t, doubling, tutor.ModeExam)
		if want := w + "\n\n**Question 1:** What is half of 14?"; c.Welcome != want {
			t.Errorf("the model wrote %q; the learner got %q", w, c.Welcome)
		}
	}
}

// A doubts session on a subtopic whose concepts are named like the
// subtopic itself (a one-concept lesson "Tripling"; "Doubling and halving"
// with the concepts Doubling and Halving) is welcomed without the topic
// offered as its own example ("Ask me anything about tripling, for example
// tripling.").
func TestDoubtsWelcomeGivesNoTopicAsItsOwnExample(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	dir := t.TempDir()
	const yaml = `country: India
board: CBSE
grade: 6
subject: Mathematics
topic:
  key: odd-facts
  title: Odd facts
subtopics:
  - key: tripling
    title: Tripling
    teaching_approach: Use three equal groups.
    learning_objectives:
      - Triple a number.
    plan:
      - title: Tripling
        type: explain
        content: >
          To triple a number means to take three equal groups of it. Tripling 4
          gives 4 + 4 + 4, which is 12.
    questions:
      - id: triple-1
        question: What is triple 5?
        answer: "15"
        kind: integer
        concept: Tripling
        difficulty: easy
        type: procedural
        hints:
          - Tripling means three equal groups.
          - Write the number three times and add.
        solution: |
          Triple 5 means 5 + 5 + 5 = 15.
`
	if err := os.WriteFile(filepath.Join(dir, "one.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	cs, err := curriculum.LoadPaths(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lessons.Import(ctx, f.st, cs, time.Time{}); err != nil {
		t.Fatal(err)
	}
	gs, err := f.st.ListGuidelines(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range gs {
		f.guidelines[g.Key] = g.ID
	}
	for key, topic := range map[string]string{"mathematics/odd-facts/tripling": "tripling", doubling: "doubling and halving"} {
		c := f.create(t, key, tutor.ModeClarify)
		for _, echo := range []string{"for example " + topic, "such as " + topic} {
			if strings.Contains(c.Welcome, echo) {
				t.Errorf("%s: the welcome gives the topic as its own example: %q", key, c.Welcome)
			}
		}
	}
}

// After a doubts session ended, the model-backed reply "As an AI tutor, I
// really enjoyed our chat. Start a new session whenever you have another
// doubt." loses its internal-language sentence, and gets no tutoring
// sentence ("Let's work it out together") in its place: a finished session
// does not invite more work (CONTRACT §9.11).
func TestRepairedPostCompletionReplyInvitesNoWork(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	f := llmSetup(t, fake.URL, llm.ComponentTutor)
	c := f.create(t, doubling, tutor.ModeClarify)
	m := newModelFlow(t, f, fake, c)
	r := m.turn("no, I'm done", out("Great work today! Come back whenever a new doubt pops up.", discussing("done"), completing))
	if !r.Session.State.ClarifyComplete {
		t.Fatal("the doubts session did not end")
	}
	turns := r.Session.State.TurnCount
	r = m.turn("thanks, bye!", message("As an AI tutor, I really enjoyed our chat. Start a new session whenever you have another doubt."))
	if r.Intent != orchestrator.IntentSessionComplete || r.Session.State.TurnCount != turns {
		t.Fatalf("after the end: intent %s, %d turns (was %d)", r.Intent, r.Session.State.TurnCount, turns)
	}
	if strings.Contains(r.Reply, "As an AI") {
		t.Fatalf("internal language shown: %q", r.Reply)
	}
	if strings.Contains(r.Reply, "work it out together") {
		t.Errorf("the reply after the session's end invites more work: %q", r.Reply)
	}
}
