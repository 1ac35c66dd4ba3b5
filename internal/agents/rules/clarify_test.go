package rules

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/tutor"
)

// TestClarifySession runs a doubts session: three doubts, each answered
// from the right step with one closure question, then "no, I'm done".
func TestClarifySession(t *testing.T) {
	topic := sampleTopic(t, addingFractions)
	d := newDriver(t, topic, "doubts-1", tutor.ModeClarify)
	doubts := []struct {
		msg     string
		concept string
		from    string // a phrase of the step content the answer should quote
	}{
		{"How do I add fractions with different denominators?", "Unlike fractions", "different denominators"},
		{"What is a mixed number?", "Mixed numbers", "whole part and a fraction part"},
		{"why do we keep the denominator when adding like fractions", "Like fractions", "keep the denominator"},
	}
	closures := phrasebook[mClosure]
	for i, dt := range doubts {
		x := d.say(dt.msg)
		out := x.reply.Output
		if !strings.Contains(x.text(), dt.from) {
			t.Errorf("doubt %d: reply %q does not answer from %q", i+1, x.text(), dt.concept)
		}
		n := 0
		for _, c := range closures {
			if strings.Contains(x.text(), strings.ReplaceAll(c, "{name}", "")) || strings.Contains(x.text(), strings.ReplaceAll(c, "{name}", ", Asha")) {
				n++
			}
		}
		if n != 1 || strings.Count(x.text(), "?") != 1 {
			t.Errorf("doubt %d: want exactly one closure question, got %q", i+1, x.text())
		}
		if diff := cmp.Diff([]tutor.MasteryUpdate{{Concept: dt.concept, Score: 0.5}}, out.MasteryUpdates); diff != "" {
			t.Errorf("doubt %d: mastery updates (-want +got):\n%s", i+1, diff)
		}
		if out.Intent != tutor.IntentQuestion || out.SessionComplete || x.after.ClarifyComplete {
			t.Errorf("doubt %d: intent %q, complete %t", i+1, out.Intent, out.SessionComplete)
		}
	}
	if diff := cmp.Diff([]string{"Unlike fractions", "Mixed numbers", "Like fractions"}, d.state.ConceptsDiscussed); diff != "" {
		t.Errorf("concepts discussed (-want +got):\n%s", diff)
	}

	x := d.say("no, I'm done")
	if x.reply.Output.Intent != tutor.IntentDone || !x.reply.Output.SessionComplete || !d.state.ClarifyComplete {
		t.Errorf("\"no, I'm done\": intent %q, complete %t, state complete %t", x.reply.Output.Intent, x.reply.Output.SessionComplete, d.state.ClarifyComplete)
	}
	if !slices.Contains(d.state.History, tutor.Message{Role: tutor.RoleTeacher, Content: x.text(), Timestamp: d.state.History[len(d.state.History)-1].Timestamp}) {
		t.Errorf("the goodbye was not recorded")
	}
}

func TestClarifyMoves(t *testing.T) {
	topic := sampleTopic(t, photosynthesis)
	tests := []struct {
		name   string
		msg    string
		intent tutor.Intent
		done   bool
	}{
		{"no more doubts", "no more doubts", tutor.IntentDone, true},
		{"that's all", "that's all, thanks", tutor.IntentDone, true},
		{"no", "no", tutor.IntentDone, true},
		{"nope thanks", "nope, thank you", tutor.IntentDone, true},
		{"no but a question", "no, but why are leaves green?", tutor.IntentQuestion, false},
		{"not really", "not really", tutor.IntentFollowup, false},
		{"did not help", "that didn't help", tutor.IntentFollowup, false},
		{"still lost", "i still dont get it", tutor.IntentFollowup, false},
		{"thanks", "yes that helps", tutor.IntentFollowup, false},
		{"off topic", "tell me a joke", tutor.IntentOffTopic, false},
		{"unsure", "I don't know what to ask", tutor.IntentFollowup, false},
		{"outside the topic", "who won the cricket match yesterday?", tutor.IntentQuestion, false},
		{"a doubt", "what are stomata?", tutor.IntentQuestion, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDriver(t, topic, "doubts-moves", tutor.ModeClarify)
			x := d.say(tt.msg)
			if x.reply.Output.Intent != tt.intent || x.reply.Output.SessionComplete != tt.done {
				t.Errorf("%q: intent %q complete %t, want %q %t (reply %q)", tt.msg, x.reply.Output.Intent, x.reply.Output.SessionComplete, tt.intent, tt.done, x.text())
			}
		})
	}
}

func TestClarifyPastDiscussions(t *testing.T) {
	topic := sampleTopic(t, photosynthesis)
	d := newDriver(t, topic, "doubts-past", tutor.ModeClarify)
	past := []agents.PastDiscussion{{Date: epoch.AddDate(0, 0, -3), Concepts: []string{"The leaf as a food factory"}}}
	x := d.sayWith("what are stomata?", past)
	if !strings.Contains(x.text(), "the leaf as a food factory") || !strings.Contains(strings.ToLower(x.text()), "last time") {
		t.Errorf("reply %q does not recall the earlier session", x.text())
	}
	x = d.sayWith("and what do guard cells do?", past)
	if strings.Contains(strings.ToLower(x.text()), "last time") {
		t.Errorf("reply %q recalls the earlier session twice", x.text())
	}
}

func TestExplainRelevance(t *testing.T) {
	topic := sampleTopic(t, photosynthesis)
	tests := []struct {
		question string
		concept  string
	}{
		{"What is photosynthesis?", "What photosynthesis is"},
		{"what are the tiny pores in leaves called", "The leaf as a food factory"},
		{"Why is the leaf boiled in alcohol in the starch test?", "Testing a leaf for starch"},
		{"where does the plant keep extra glucose", "What photosynthesis is"},
		{"how does iodine show starch?", "Testing a leaf for starch"},
	}
	for _, tt := range tests {
		t.Run(tt.question, func(t *testing.T) {
			concept, sents, ok := explain(topic, withSolutions, tt.question, 2, nil)
			// Two sentences, and the one before the first when the first
			// leans on it.
			if !ok || concept != tt.concept || len(sents) == 0 || len(sents) > 3 || len(sents) == 3 && !leansBack(sents[1]) {
				t.Errorf("explain(%q) = %q, %q, %t; want concept %q", tt.question, concept, sents, ok, tt.concept)
			}
		})
	}
	if _, _, ok := explain(topic, withSolutions, "who won the cricket match?", 2, nil); ok {
		t.Error("a question outside the topic found an answer")
	}

	// A plan without content answers from the guideline's teaching approach.
	bare := &tutor.Topic{
		Guideline: tutor.Guideline{TeachingApproach: "Show that a magnet attracts iron. Opposite poles attract and like poles repel."},
		Steps:     []tutor.Step{{ID: 1, Type: tutor.StepExplain, Concept: "Magnets"}},
	}
	concept, sents, ok := explain(bare, withSolutions, "do like poles repel?", 2, nil)
	if !ok || concept != "" || !slices.Equal(sents, []string{"Opposite poles attract and like poles repel."}) {
		t.Errorf("explain on a plan without content = %q, %q, %t", concept, sents, ok)
	}
}

// TestClarifyQuestionFrames asks doubts the way learners phrase them: the
// words that frame a question ("what does X mean", "how do I find X") do
// not hide a term the lesson explains, a doubt that voices a common
// misconception is answered with it, and a doubt outside the lesson is
// still declined.
func TestClarifyQuestionFrames(t *testing.T) {
	tests := []struct {
		topic   string
		msg     string
		concept string // "" for an answer from the guideline
		from    string // a phrase the answer should quote; "" for a doubt outside the lesson
	}{
		{addingFractions, "what does denominator mean?", "Like fractions", "The denominator tells us the size of each part"},
		{addingFractions, "how do I find the LCM?", "Unlike fractions", "the LCM of the denominators"},
		{addingFractions, "what does simplify mean?", "Like fractions", "can be simplified"},
		{addingFractions, "what is a denominator in maths?", "Like fractions", "The denominator tells us the size of each part"},
		{addingFractions, "what is a denominator?", "Like fractions", "The denominator tells us the size of each part"},
		{photosynthesis, "do plants make food at night?", "", "A common mistake: believing that plants make food at night"},
		{photosynthesis, "how do I add fractions?", "", ""},
		{photosynthesis, "who won the cricket match yesterday?", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.msg, func(t *testing.T) {
			d := newDriver(t, sampleTopic(t, tt.topic), "frames", tutor.ModeClarify)
			x := d.say(tt.msg)
			if tt.from == "" {
				if !says(x.text(), mNotInTopic) {
					t.Errorf("reply %q should say the lesson does not explain it", x.text())
				}
				return
			}
			var concepts []string
			for _, u := range x.reply.Output.MasteryUpdates {
				concepts = append(concepts, u.Concept)
			}
			if !strings.Contains(x.text(), tt.from) || says(x.text(), mNotInTopic) || !slices.Equal(concepts, slices.DeleteFunc([]string{tt.concept}, func(c string) bool { return c == "" })) {
				t.Errorf("reply %q on %q; want an answer quoting %q on %q", x.text(), concepts, tt.from, tt.concept)
			}
		})
	}
}

// TestClarifyGoodbye checks that the goodbye thanks back only a learner who
// thanked.
func TestClarifyGoodbye(t *testing.T) {
	topic := sampleTopic(t, photosynthesis)
	for msg, thanked := range map[string]bool{"no, I'm done": false, "no more doubts": false, "nope": false, "no thanks": true, "that's all, thank you": true} {
		for _, id := range []string{"bye-1", "bye-2", "bye-3"} {
			d := newDriver(t, topic, id, tutor.ModeClarify)
			x := d.say(msg)
			if !x.reply.Output.SessionComplete {
				t.Fatalf("%q did not end the session: %q", msg, x.text())
			}
			if says(x.text(), mGoodbyeThanks) != thanked || says(x.text(), mGoodbye) == thanked || (!thanked && strings.Contains(x.text(), "welcome")) {
				t.Errorf("%q (session %s): goodbye %q, want one that thanks back: %t", msg, id, x.text(), thanked)
			}
		}
	}
}

// TestClarifyUnhelpedAsksWhichPart: a learner whom the answer did not help
// is asked what is unclear, not told the doubt is outside the lesson; the
// closing question asks only about more doubts, so that "no" is an end.
func TestClarifyUnhelpedAsksWhichPart(t *testing.T) {
	topic := sampleTopic(t, photosynthesis)
	for _, msg := range []string{"that didn't help", "i still dont get it", "not really"} {
		d := newDriver(t, topic, "doubts-unhelped", tutor.ModeClarify)
		d.say("what are stomata?")
		if x := d.say(msg); !strings.Contains(strings.ToLower(x.text()), "which part") || x.reply.Output.SessionComplete {
			t.Errorf("%q: %q", msg, x.text())
		}
	}
	for _, c := range phrasebook[mClosure] {
		if strings.Count(c, "?") != 1 || strings.Contains(c, " or ") {
			t.Errorf("closing question %q asks more than one thing", c)
		}
	}
}

// TestDoubtAnswerDoesNotOpenMidThought: an answer never opens with a
// sentence that points back to one the learner was not shown ("This is
// called sublimation.").
func TestDoubtAnswerDoesNotOpenMidThought(t *testing.T) {
	topic := sampleTopic(t, "science/states-of-matter/changes-of-state")
	for _, q := range []string{"what is sublimation", "what is condensation?", "what is evaporation"} {
		d := newDriver(t, topic, "doubts-pronoun", tutor.ModeClarify)
		x := d.say(q)
		if leansBack(x.text()) {
			t.Errorf("%q: the answer opens mid-thought: %q", q, x.text())
		}
	}
}
