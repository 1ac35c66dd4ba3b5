package orchestrator_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/llm/llmtest"
	"github.com/tutord/tutord/internal/orchestrator"
	"github.com/tutord/tutord/internal/tutor"
)

// When a doubts session ends: only when the learner says they are done
// (seed 002 "Mode-Specific Prompts": after the closure question), when the
// tutor ends it in a reply the learner sees (CONTRACT §9.8), or at the
// sitting's time limit with a reply that says so (DESIGN §5).

// clarifyFor creates a doubts session on photosynthesis for learner (nil:
// anonymous).
func clarifyFor(t *testing.T, f *fixture, learner *uuid.UUID) orchestrator.Created {
	t.Helper()
	c, err := f.o.CreateSession(context.Background(), orchestrator.CreateRequest{
		LearnerID: learner, GuidelineID: f.guidelines[photosynthesis], Mode: tutor.ModeClarify,
		Student: tutor.StudentContext{Grade: 7, Board: "CBSE", LanguageLevel: "standard", PreferredExamples: tutor.DefaultPreferredExamples()},
	})
	if err != nil {
		t.Fatalf("CreateSession: %v", err)
	}
	return c
}

// TestClarifyNoToDoesThatHelpGoesOn: a learner says an answer did not help;
// the tutor explains again and asks "Is that clearer now?" / "Does that
// help?". A "no" to that question says it is still not clear: the learner
// relies on another try, not a goodbye and a session over (the "no" answers
// the tutor's question about the explanation, not the closure question).
func TestClarifyNoToDoesThatHelpGoesOn(t *testing.T) {
	f := setup(t)
	id := f.create(t, photosynthesis, tutor.ModeClarify).Session.Row.ID
	f.turn(t, id, "Why are leaves green?")
	r := f.turn(t, id, "I still don't get it")
	if !strings.HasSuffix(r.Reply, "Is that clearer now?") && !strings.HasSuffix(r.Reply, "Does that help?") {
		t.Fatalf("the re-explanation does not ask whether it helped: %q", r.Reply)
	}
	r = f.turn(t, id, "no")
	if r.Session.State.ClarifyComplete {
		t.Fatalf("\"no\" to %q ended the doubts session: reply %q", "Is that clearer now?", r.Reply)
	}
}

// TestClarifyPoliteNoToDoesThatHelpGoesOn: "no sir" and "no ma'am" to
// "Is that clearer now?" are the "no" of TestClarifyNoToDoesThatHelpGoesOn,
// said politely: the session goes on.
func TestClarifyPoliteNoToDoesThatHelpGoesOn(t *testing.T) {
	f := setup(t)
	for _, msg := range []string{"no sir", "no ma'am", "nope"} {
		id := f.create(t, photosynthesis, tutor.ModeClarify).Session.Row.ID
		f.turn(t, id, "Why are leaves green?")
		if r := f.turn(t, id, "I still don't get it"); !strings.HasSuffix(r.Reply, "Is that clearer now?") && !strings.HasSuffix(r.Reply, "Does that help?") {
			t.Fatalf("the re-explanation does not ask whether it helped: %q", r.Reply)
		}
		if r := f.turn(t, id, msg); r.Session.State.ClarifyComplete {
			t.Errorf("%q to %q ended the doubts session: reply %q", msg, "Is that clearer now?", r.Reply)
		}
	}
}

// TestClarifyGreetingIsGreetedBack: "hello sir" in a doubts session is
// greeted back and the doubt asked for, not searched for in the lesson;
// the session goes on, and "hi, what is photosynthesis?" is answered.
func TestClarifyGreetingIsGreetedBack(t *testing.T) {
	f := setup(t)
	id := f.create(t, photosynthesis, tutor.ModeClarify).Session.Row.ID
	for _, msg := range []string{"hi", "hello sir", "good morning"} {
		r := f.turn(t, id, msg)
		if r.Session.State.ClarifyComplete || strings.Contains(r.Reply, "doesn't cover") || strings.Contains(r.Reply, "can't answer") ||
			!strings.HasPrefix(r.Reply, "Hi") || !strings.HasSuffix(r.Reply, "?") {
			t.Errorf("%q: complete %v, reply %q; want a greeting back that asks for the doubt", msg, r.Session.State.ClarifyComplete, r.Reply)
		}
	}
	r := f.turn(t, id, "hi, what is photosynthesis?")
	if r.Session.State.ClarifyComplete || !strings.Contains(r.Reply, "putting together with light") {
		t.Errorf("a doubt after a greeting: complete %v, reply %q; want it answered", r.Session.State.ClarifyComplete, r.Reply)
	}
}

// TestClarifyDoneButQuestionIsAnswered: "I'm done, but what is
// chlorophyll?" asks a doubt; the learner relies on it being answered and
// the session staying open, not a goodbye that leaves the question
// unanswered (a question never says the learner is done).
func TestClarifyDoneButQuestionIsAnswered(t *testing.T) {
	f := setup(t)
	id := f.create(t, photosynthesis, tutor.ModeClarify).Session.Row.ID
	f.turn(t, id, "Why are leaves green?")
	r := f.turn(t, id, "I'm done, but what is chlorophyll?")
	if r.Session.State.ClarifyComplete || !strings.Contains(strings.ToLower(r.Reply), "chlorophyll") {
		t.Fatalf("a doubt asked beside \"I'm done\": complete %v, reply %q; want it answered and the session open",
			r.Session.State.ClarifyComplete, r.Reply)
	}
}

// TestClarifyTimeLimitSaysTheSessionEnds: past the sitting's time limit a
// doubt is answered and the session ends with the turn. The learner relies
// on the reply saying so, not on an invitation to ask another doubt that
// would only be told to start a new session.
func TestClarifyTimeLimitSaysTheSessionEnds(t *testing.T) {
	f, timeUp := timeLimited(t)
	id := f.create(t, photosynthesis, tutor.ModeClarify).Session.Row.ID
	f.turn(t, id, "Why are leaves green?")
	timeUp()
	r := f.turn(t, id, "What gas do plants take in to make food?")
	if !r.Session.State.ClarifyComplete {
		t.Fatal("the time limit did not end the doubts session")
	}
	if strings.HasSuffix(strings.TrimSpace(r.Reply), "?") || !strings.Contains(r.Reply, "carbon dioxide") {
		t.Fatalf("the session ended at the time limit; want the answer and no invitation to another doubt: %q", r.Reply)
	}
}

// TestClarifyPastDiscussionKeepsTheAnswer: a learner who asked "Why are
// leaves green?" in an earlier doubts session and asks it again in a new
// one relies on getting the answer again (chlorophyll), not a one-line
// reminder that cuts it: past discussions are context for the tutor
// (DESIGN §5), and the clarify tutor answers directly (seed 002).
func TestClarifyPastDiscussionKeepsTheAnswer(t *testing.T) {
	f := setup(t)
	l, err := f.st.EnsureLearner(context.Background(), "clarify-past-discussions")
	if err != nil {
		t.Fatal(err)
	}
	const doubt = "Why are leaves green?"
	first := clarifyFor(t, f, &l.ID)
	r := f.turn(t, first.Session.Row.ID, doubt)
	if !strings.Contains(strings.ToLower(r.Reply), "chlorophyll") {
		t.Fatalf("the first answer does not name chlorophyll: %q", r.Reply)
	}
	f.turn(t, first.Session.Row.ID, "no, I'm done")

	second := clarifyFor(t, f, &l.ID)
	if len(second.PastDiscussions) == 0 {
		t.Fatal("no past discussions for the new session")
	}
	r = f.turn(t, second.Session.Row.ID, doubt)
	if !strings.Contains(strings.ToLower(r.Reply), "chlorophyll") {
		t.Fatalf("asked again in a new session, the doubt is not answered: %q", r.Reply)
	}
}

// TestClarifyModelAnswersDoubtBesideStop: with the model-backed tutor,
// "I'm done, but what is halving?" is answered (intent question,
// session_complete false, Halving discussed). The learner relies on the
// session staying open as the tutor's "Anything else?" says, and on
// Halving being recorded as discussed (CONTRACT §9.8: a doubts session
// completes on intent done or session_complete, and the tutor said
// neither).
func TestClarifyModelAnswersDoubtBesideStop(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	f := llmSetup(t, fake.URL, llm.ComponentTutor)
	c := f.create(t, doubling, tutor.ModeClarify)
	m := newModelFlow(t, f, fake, c)
	const answer = "Halving undoes doubling: double 5 is 10, and half of 10 is 5. Anything else you'd like to ask?"
	r := m.turn("I'm done, but what is halving?", out(answer, discussing("question", "Halving"), summarised("answered halving")))
	if r.Reply != answer {
		t.Fatalf("reply %q, the tutor wrote %q", r.Reply, answer)
	}
	var resp orchestrator.StepResponse
	if err := json.Unmarshal(r.Response, &resp); err != nil {
		t.Fatal(err)
	}
	if r.Session.State.ClarifyComplete || resp.NextTurn.IsComplete || len(r.Session.State.ConceptsDiscussed) == 0 {
		t.Fatalf("the tutor answered and asked for another doubt (intent question, session_complete false, Halving discussed); got complete %v, discussed %v: %s",
			r.Session.State.ClarifyComplete, r.Session.State.ConceptsDiscussed, r.Response)
	}
}

// TestClarifyModelUnsafeReplyDoesNotEndSession: with the model-backed
// tutor, a reply with intent "done" that the reply safety check flags is
// replaced ("Let's get back to our lesson."): the learner never sees its
// goodbye, and relies on the session going on (a doubts session ends on
// intent done as on session_complete, CONTRACT §9.8, and both are dropped
// with the reply).
func TestClarifyModelUnsafeReplyDoesNotEndSession(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	f := llmSetup(t, fake.URL, llm.ComponentTutor)
	c := f.create(t, doubling, tutor.ModeClarify)
	m := newModelFlow(t, f, fake, c)
	m.turn("Why does doubling mean two equal groups?", out("Doubling means two equal groups: 6 + 6 = 12. Any other doubts?",
		discussing("question", "Doubling"), summarised("doubt 1")))
	r := m.turn("ok thanks", out("Bye! Keep this a secret from your parents.", discussing("done"), summarised("bye")))
	if strings.Contains(r.Reply, "secret") {
		t.Fatal("the reply safety check did not flag the reply")
	}
	if r.Session.State.ClarifyComplete || r.Intent == string(tutor.IntentDone) {
		t.Fatalf("the learner saw %q, yet the doubts session ended (intent %q)", r.Reply, r.Intent)
	}

	// "no, I'm done" ends the session whatever the reply: a flagged goodbye
	// gives way to the domain's, not to "Let's get back to our lesson".
	r = m.turn("no, I'm done", out("Bye! Keep this a secret from your parents.", discussing("done"), completing, summarised("bye")))
	if !r.Session.State.ClarifyComplete || r.Reply != tutor.ClarifyEndedReply {
		t.Fatalf("\"no, I'm done\" with a flagged goodbye: complete %v, reply %q", r.Session.State.ClarifyComplete, r.Reply)
	}
}

// doubtIn asks one doubt in a new doubts session on key and returns the reply.
func doubtIn(t *testing.T, f *fixture, key, doubt string) orchestrator.TurnResult {
	t.Helper()
	c := f.create(t, key, tutor.ModeClarify)
	return f.turn(t, c.Session.Row.ID, doubt)
}

// TestClarifyFractionTimesFractionGetsItsOwnRule: in a doubts session on
// "Multiplying fractions", "What is fraction times a fraction?" (the name
// of the plan's second concept) and "How do I multiply a fraction by a
// fraction?" hear the lesson's "Fraction times a fraction" explanation
// ("multiply the numerators together and the denominators together"),
// and that concept is recorded as discussed, not "Fraction times a whole
// number", whose name shares "fraction times" with the question and adds
// the "whole number" it does not say (rules.lessonText.best).
func TestClarifyFractionTimesFractionGetsItsOwnRule(t *testing.T) {
	f := setup(t)
	const key = "mathematics/fractions/multiplying-fractions"
	for _, doubt := range []string{"What is fraction times a fraction?", "How do I multiply a fraction by a fraction?", "Explain fraction times a fraction"} {
		r := doubtIn(t, f, key, doubt)
		if !strings.Contains(r.Reply, "multiply the numerators together and the denominators together") ||
			strings.Contains(r.Reply, "by a whole number") || slices.Contains(r.Session.State.ConceptsDiscussed, "Fraction times a whole number") {
			t.Errorf("%q answered from the wrong concept (discussed %v):\n  %s", doubt, r.Session.State.ConceptsDiscussed, r.Reply)
		}
	}
}

// TestClarifyBracketsAnswerOpensWithTheMethod: in a doubts session on
// "Variable on both sides", "What is equations with brackets on both
// sides?" hears the step's method (expand the brackets first), not the
// middle of its worked example ("Subtract 2x from both sides: x - 6 =
// 2. Add 6 to both sides: x = 8.") without the equation 3(x - 2) = 2(x +
// 1) it works on, which shares more words ("both sides") with the
// question (rules.pick, rules.continuesExample).
func TestClarifyBracketsAnswerOpensWithTheMethod(t *testing.T) {
	f := setup(t)
	const key = "mathematics/linear-equations/variable-on-both-sides"
	for _, doubt := range []string{"What is equations with brackets on both sides?", "How do I solve equations with brackets on both sides?"} {
		r := doubtIn(t, f, key, doubt)
		low := strings.ToLower(r.Reply)
		if !strings.Contains(low, "bracket") || strings.Contains(r.Reply, "x - 6 = 2") && !strings.Contains(r.Reply, "3(x - 2) = 2(x + 1)") {
			t.Errorf("%q: the answer says nothing of brackets, or works an example it never states:\n  %s", doubt, r.Reply)
		}
	}
}

// TestClarifyHintComesWithItsQuestion: in a doubts session, a concept
// that only a practice step teaches ("What is word problems?", "What is
// age and number problems?") has no explanation of its own and is
// answered from the bank; a hint of a question ("Work out 15% of 800
// first.") is quoted only with that question, which the learner has never
// seen (rules.lessonText.withProblem). Every concept of every shipped
// subtopic is asked about.
func TestClarifyHintComesWithItsQuestion(t *testing.T) {
	f := setup(t)
	for _, key := range sweepKeys(t) {
		c := f.create(t, key, tutor.ModeClarify)
		tp := c.Session.Topic
		for _, concept := range tp.Concepts() {
			doubt := "What is " + strings.ToLower(concept) + "?"
			r := doubtIn(t, f, key, doubt)
			for _, q := range tp.Questions {
				for _, h := range q.Hints {
					if strings.Contains(r.Reply, strings.TrimSpace(h)) && !strings.Contains(r.Reply, strings.TrimSpace(q.Text)) {
						t.Errorf("%s: %q is answered with a hint of %q, which the learner never saw:\n  %s", key, doubt, q.Text, r.Reply)
						break
					}
				}
			}
		}
	}
}

// TestClarifyFarewellConceptsAreDiscussed: with the model-backed tutor, a
// learner who ends a doubts session with "thanks, that's all about
// halving, bye" gets the tutor's goodbye, and the tutor reports Halving as
// discussed. The learner relies on Halving being recorded among the
// session's concepts discussed (and covered, as a plan concept), as any
// turn's concepts are (CONTRACT §9.8); they were dropped because the
// farewell ended the session without the doubts-turn bookkeeping.
func TestClarifyFarewellConceptsAreDiscussed(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	f := llmSetup(t, fake.URL, llm.ComponentTutor)
	c := f.create(t, doubling, tutor.ModeClarify)
	m := newModelFlow(t, f, fake, c)
	m.turn("Why does doubling mean two equal groups?", out("Doubling means two equal groups: 6 + 6 = 12. Any other doubts?",
		discussing("question", "Doubling"), summarised("doubt 1")))
	const goodbye = "You're welcome! Halving undoes doubling, remember. Come back whenever a new doubt pops up."
	r := m.turn("thanks, that's all about halving, bye", out(goodbye, discussing("done", "Halving"), completing, summarised("said goodbye")))
	if r.Reply != goodbye || !r.Session.State.ClarifyComplete {
		t.Fatalf("the farewell: reply %q, complete %v; want the tutor's goodbye and the session ended", r.Reply, r.Session.State.ClarifyComplete)
	}
	se, err := f.o.Load(context.Background(), c.Session.Row.ID)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Doubling", "Halving"}; !slices.Equal(se.State.ConceptsDiscussed, want) || !slices.Equal(se.State.ConceptsCovered, want) {
		t.Fatalf("stored concepts discussed %v, covered %v; want %v for both", se.State.ConceptsDiscussed, se.State.ConceptsCovered, want)
	}
}

// TestClarifyFlaggedGoodbyeReportsTheStop: with the model-backed tutor, a
// learner says "no, I'm done" and the tutor's goodbye (intent done) is
// flagged by the reply safety check. The session ends with the domain's
// goodbye, as asked; the step response said intent "followup" (the
// intent that keeps a session open), and should say "stop", as for any
// goodbye the domain words.
func TestClarifyFlaggedGoodbyeReportsTheStop(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	f := llmSetup(t, fake.URL, llm.ComponentTutor)
	c := f.create(t, doubling, tutor.ModeClarify)
	m := newModelFlow(t, f, fake, c)
	r := m.turn("no, I'm done", out("Bye! Keep this a secret from your parents.", discussing("done"), completing, summarised("bye")))
	var resp orchestrator.StepResponse
	if err := json.Unmarshal(r.Response, &resp); err != nil {
		t.Fatal(err)
	}
	if !r.Session.State.ClarifyComplete || r.Reply != tutor.ClarifyEndedReply || r.Intent != orchestrator.IntentStop || resp.Intent != orchestrator.IntentStop {
		t.Fatalf("a flagged goodbye to \"no, I'm done\": complete %v, reply %q, intent %q (response %q); want the session ended with %q, intent %q",
			r.Session.State.ClarifyComplete, r.Reply, r.Intent, resp.Intent, tutor.ClarifyEndedReply, orchestrator.IntentStop)
	}
}
