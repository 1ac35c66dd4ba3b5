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
		{"done but a question", "I'm done, but what is chlorophyll?", tutor.IntentQuestion, false},
		{"goodbye and a question", "bye. why are leaves green", tutor.IntentQuestion, false},
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

// A doubt asked again in a new doubts session gets the whole answer, with
// the reminder that it came up before: a learner who asks again has not
// remembered it, and past discussions are context, not a reason to answer
// less (DESIGN §5; seed 002: the clarify tutor answers directly).
func TestClarifyPastDiscussionKeepsTheAnswer(t *testing.T) {
	topic := sampleTopic(t, photosynthesis)
	first := newDriver(t, topic, "doubts-past-full", tutor.ModeClarify)
	want := first.say("Why are leaves green?")
	if len(first.state.ConceptsDiscussed) == 0 {
		t.Fatalf("setup: no concept discussed: %q", want.text())
	}
	past := []agents.PastDiscussion{{Date: epoch.AddDate(0, 0, -3), Concepts: first.state.ConceptsDiscussed}}
	d := newDriver(t, topic, "doubts-past-full", tutor.ModeClarify)
	x := d.sayWith("Why are leaves green?", past)
	if !says(x.text(), mLastTime) || !strings.Contains(strings.ToLower(x.text()), "chlorophyll") {
		t.Errorf("asked again: reply %q; want the reminder and the answer (as first given: %q)", x.text(), want.text())
	}
	for _, s := range sentences(want.text()) {
		if !says(s, mClosure) && !strings.Contains(x.text(), s) {
			t.Errorf("asked again, the answer lacks %q: %q", s, x.text())
		}
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
			if !ok || concept != tt.concept || len(sents) == 0 || len(sents) > 3 || len(sents) == 3 && !followsOn(sents[1]) {
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
		{photosynthesis, "do plants make food at night?", "", "believing that plants make food at night"},
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
// TestClarifyThanks: thanks for an answer gets "you're welcome", not "glad
// to hear it", and the session goes on.
func TestClarifyThanks(t *testing.T) {
	topic := sampleTopic(t, photosynthesis)
	for _, msg := range []string{"ok thanks", "thank you", "thanks!"} {
		d := newDriver(t, topic, "doubts-thanks", tutor.ModeClarify)
		x := d.say(msg)
		if !says(x.text(), mWelcome) || says(x.text(), mGlad) || x.reply.Output.SessionComplete {
			t.Errorf("%q: %q (complete %t)", msg, x.text(), x.reply.Output.SessionComplete)
		}
	}
	d := newDriver(t, topic, "doubts-thanks", tutor.ModeClarify)
	if x := d.say("yes that helps"); !says(x.text(), mGlad) {
		t.Errorf("good news: %q", x.text())
	}
}

// An answer that did not help is explained again, with the school words
// it uses and then more of the lesson, each once; only then is the
// learner asked which part is unclear. Nothing is said twice.
func TestClarifyUnhelpedAsksWhichPart(t *testing.T) {
	topic := sampleTopic(t, photosynthesis)
	for _, msg := range []string{"that didn't help", "i still dont get it", "not really"} {
		d := newDriver(t, topic, "doubts-unhelped", tutor.ModeClarify)
		d.say("what are stomata?")
		x := d.say(msg)
		if !says(x.text(), mOtherWay) && !says(x.text(), mPutAnotherWay) || !says(x.text(), mHelps) || x.reply.Output.SessionComplete {
			t.Errorf("%q: want it explained again, got %q", msg, x.text())
		}
		seen := map[string]bool{x.text(): true}
		for range 3 {
			if x = d.say(msg); strings.Contains(strings.ToLower(x.text()), "which part") {
				break
			}
			if seen[x.text()] {
				t.Errorf("%q: said again: %q", msg, x.text())
			}
			seen[x.text()] = true
		}
		if !strings.Contains(strings.ToLower(x.text()), "which part") {
			t.Errorf("%q four times: never asked which part is unclear (last %q)", msg, x.text())
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
		if followsOn(sentences(x.text())[0]) {
			t.Errorf("%q: the answer opens mid-thought: %q", q, x.text())
		}
	}
}

// closes reports whether a doubts reply ends with one closing question
// and asks nothing else.
func closes(text string) bool {
	ss := sentences(text)
	return len(ss) > 0 && says(ss[len(ss)-1], mClosure) && strings.Count(text, "?") == 1
}

// TestClarifyOutsideTheLesson asks doubts the lesson does not explain,
// some sharing a word or two with it: each is told so honestly, hears what
// the lesson can help with and is asked the closing question, and no
// sentence of the lesson is quoted as if it answered.
func TestClarifyOutsideTheLesson(t *testing.T) {
	tests := []struct {
		topic string
		msg   string
	}{
		{addingFractions, "what is photosynthesis?"},
		{addingFractions, "who won the world cup"},
		{addingFractions, "who won the world cup?"},
		{addingFractions, "What is the capital of France?"},
		{addingFractions, "what is water made of?"}, // "water" and "made" are in word problems' hints only
		{addingFractions, "wait, who won the world cup again?"},
		{addingFractions, "sorry, what is water made of?"},
		{photosynthesis, "how do I add fractions?"},
		{photosynthesis, "do plants breathe?"}, // "plants" is everywhere, "breathe" in a hint only
		{photosynthesis, "how do animals breathe?"},
		{photosynthesis, "how much water should I drink?"},
		{photosynthesis, "what food do humans need?"},
		{"science/states-of-matter/changes-of-state", "how much water should I drink?"},
		{"mathematics/ratios-and-percentages/percentages", "who is the prime minister of india?"},
	}
	for _, tt := range tests {
		t.Run(tt.topic+"/"+tt.msg, func(t *testing.T) {
			topic := sampleTopic(t, tt.topic)
			d := newDriver(t, topic, "outside", tutor.ModeClarify)
			x := d.say(tt.msg)
			out := x.reply.Output
			if !says(x.text(), mNotInTopic) || !strings.Contains(x.text(), topicTitle(topic)) || !strings.Contains(x.text(), conceptList(topic.Concepts(), 4)) {
				t.Errorf("reply %q should say the lesson on %q does not cover it and name what it does", x.text(), topicTitle(topic))
			}
			if !closes(x.text()) {
				t.Errorf("reply %q should end with one closing question", x.text())
			}
			if own := ownWords(topic, x.text()); own != x.text() {
				t.Errorf("reply %q quotes the lesson", x.text())
			}
			if out.Intent != tutor.IntentQuestion || len(out.MasteryUpdates) != 0 || out.SessionComplete {
				t.Errorf("intent %q, updates %+v, complete %t", out.Intent, out.MasteryUpdates, out.SessionComplete)
			}
		})
	}
}

// TestClarifyInTheLesson asks doubts the lesson does explain in the words
// learners use: everyday words for the lesson's ("bottom number", "take
// away", "squash", "%"), other forms of its words ("divide" for
// "dividing"), a word or two the lesson never uses beside one it does, and
// framing words ("the main idea of", "in maths"). Each is answered from
// the right concept.
func TestClarifyInTheLesson(t *testing.T) {
	tests := []struct {
		topic   string
		msg     string
		concept string
		from    string // a phrase the answer should quote
	}{
		{addingFractions, "what is the bottom number of a fraction called?", "Like fractions", "The denominator tells us the size of each part"},
		{addingFractions, "what do I do with the top numbers when adding?", "Like fractions", "Add the numerators and keep the denominator"},
		{addingFractions, "how do you find the sum of 1/4 and 1/6?", "Unlike fractions", "We cannot add quarters and sixths"},
		{addingFractions, "what is the lowest common multiple?", "Unlike fractions", "the smallest number that both of them divide into"},
		{addingFractions, "what is a denominator in maths?", "Like fractions", "The denominator tells us the size of each part"},
		{addingFractions, "wait what is a denominator again?", "Like fractions", "The denominator tells us the size of each part"},
		{addingFractions, "sorry, what's a numerator again?", "Like fractions", "Add the numerators and keep the denominator"},
		{addingFractions, "remind me what like fractions are", "Like fractions", "are called like fractions"},
		{addingFractions, "um, can you tell me what was a denominator?", "Like fractions", "The denominator tells us the size of each part"},
		{"mathematics/ratios-and-percentages/percentages", "what does percent mean?", "What a percentage is", "Per cent means"},
		{"mathematics/ratios-and-percentages/percentages", "how do I find 20% of 50?", "Percentage of a quantity", "To find a percentage of a quantity"},
		{"mathematics/ratios-and-percentages/ratios-and-proportions", "how do I divide 60 in the ratio 2:3?", "Dividing in a ratio", "in the ratio 2 : 3"},
		{"science/states-of-matter/solids-liquids-and-gases", "why can we squash a gas?", "Properties of the three states", "easy to compress"},
		{"mathematics/integers/multiplying-and-dividing-integers", "why is a negative times a negative positive?", "Sign rules for multiplication", "the product is positive"},
		{"mathematics/fractions/dividing-fractions", "why do we flip the second fraction?", "Dividing by a fraction", "turned upside down"},
		{photosynthesis, "what gas do plants give out?", "What photosynthesis is", "Oxygen is given out."},
		{photosynthesis, "where does the plant keep extra glucose", "What photosynthesis is", "stores extra glucose as starch"},
		{photosynthesis, "what do plants need to make food", "What photosynthesis is", "takes in carbon dioxide from the air"},
		{photosynthesis, "no i mean like what ingredients. like water?", "What photosynthesis is", "water from the soil"},
		{"mathematics/linear-equations/variable-on-both-sides", "how do I get rid of fractions in an equation?", "Equations with fractions", "To clear fractions"},
		{"mathematics/linear-equations/variable-on-both-sides", "What is the main idea of equations with fractions?", "Equations with fractions", "To clear fractions"},
	}
	for _, tt := range tests {
		t.Run(tt.topic+"/"+tt.msg, func(t *testing.T) {
			d := newDriver(t, sampleTopic(t, tt.topic), "inside", tutor.ModeClarify)
			x := d.say(tt.msg)
			if !strings.Contains(x.text(), tt.from) || says(x.text(), mNotInTopic) || !closes(x.text()) {
				t.Errorf("reply %q; want an answer quoting %q and one closing question", x.text(), tt.from)
			}
			if diff := cmp.Diff([]tutor.MasteryUpdate{{Concept: tt.concept, Score: 0.5}}, x.reply.Output.MasteryUpdates); diff != "" {
				t.Errorf("mastery updates (-want +got):\n%s", diff)
			}
		})
	}
}

// TestClarifyFollowUp: a short question after an answer ("why?", "what do
// you mean?") asks about that answer. It hears more of the same concept's
// explanation, never what it heard already, until the lesson has nothing
// more to say, and says so. Asked before any doubt, it is asked what the
// doubt is about.
func TestClarifyFollowUp(t *testing.T) {
	topic := sampleTopic(t, addingFractions)
	const doubt = "How do I add fractions with different denominators?"
	for _, msg := range []string{"why?", "Why", "how?", "how come?", "what do you mean?", "can you give an example?", "why is that?", "but why does that work?", "tell me more", "hmm"} {
		t.Run(msg, func(t *testing.T) {
			d := newDriver(t, topic, "follow", tutor.ModeClarify)
			first := d.say(doubt)
			x := d.say(msg)
			out := x.reply.Output
			if out.Intent != tutor.IntentFollowup || says(x.text(), mNotInTopic) || !closes(x.text()) {
				t.Errorf("after %q, %q got %q (intent %q)", first.text(), msg, x.text(), out.Intent)
			}
			if diff := cmp.Diff([]tutor.MasteryUpdate{{Concept: "Unlike fractions", Score: 0.5}}, out.MasteryUpdates); diff != "" {
				t.Errorf("mastery updates (-want +got):\n%s", diff)
			}
			for _, s := range sentences(ownWords(topic, first.text())) {
				if strings.Contains(x.text(), s) {
					t.Errorf("%q repeats %q", x.text(), s)
				}
			}
		})
	}

	t.Run("until the lesson has no more", func(t *testing.T) {
		d := newDriver(t, topic, "follow-more", tutor.ModeClarify)
		d.say(doubt)
		told := map[string]bool{}
		for _, s := range sentences(d.log[0].text()) {
			told[s] = true
		}
		// Until the doubt leaves the history window, after which the
		// learner is asked what the doubt is.
		for i := 0; ; i++ {
			if i == 10 {
				t.Fatalf("the follow-ups never ended: %s", strings.Join(d.transcript(), "\n"))
			}
			x := d.say("why?")
			if says(x.text(), mWhatAbout) {
				break
			}
			ss := sentences(x.text())
			for _, s := range ss[:len(ss)-1] {
				if told[s] {
					t.Errorf("%q said again", s)
				}
				told[s] = true
			}
		}

		magnets := &tutor.Topic{TopicName: "Magnets - Poles", GradeLevel: 6, Steps: []tutor.Step{{ID: 1, Type: tutor.StepExplain, Concept: "Poles", Title: "Poles",
			Content: "A magnet has two poles, north and south. Opposite poles attract and like poles repel. A magnet attracts iron."}}}
		d = newDriver(t, magnets, "follow-magnets", tutor.ModeClarify)
		d.say("what do like poles do?")
		if x := d.say("why?"); !strings.HasPrefix(x.text(), "A magnet attracts iron. ") || !closes(x.text()) {
			t.Errorf("reply %q, want the sentence not told yet", x.text())
		}
		if x := d.say("why?"); !says(x.text(), mNoMore) || !closes(x.text()) || len(x.reply.Output.MasteryUpdates) != 0 {
			t.Errorf("reply %q, updates %+v", x.text(), x.reply.Output.MasteryUpdates)
		}
	})

	t.Run("before any doubt", func(t *testing.T) {
		d := newDriver(t, topic, "follow-first", tutor.ModeClarify)
		x := d.say("why?")
		if !says(x.text(), mWhatAbout) || len(x.reply.Output.MasteryUpdates) != 0 || x.reply.Output.SessionComplete {
			t.Errorf("reply %q, output %+v", x.text(), x.reply.Output)
		}
	})

	t.Run("after a doubt outside the lesson", func(t *testing.T) {
		d := newDriver(t, topic, "follow-outside", tutor.ModeClarify)
		d.say("who won the world cup?")
		if x := d.say("why?"); !says(x.text(), mWhatAbout) {
			t.Errorf("reply %q", x.text())
		}
	})
}

// TestClarifyTeacherDoubts asks on-topic doubts that a teacher found
// answered with the wrong sentence: the answer must quote the sentence a
// teacher would pick and none of the misleading ones; doubts outside the
// lesson still hear that the lesson does not cover them.
func TestClarifyTeacherDoubts(t *testing.T) {
	const (
		changes     = "science/states-of-matter/changes-of-state"
		percentages = "mathematics/ratios-and-percentages/percentages"
		ratios      = "mathematics/ratios-and-percentages/ratios-and-proportions"
	)
	tests := []struct {
		topic string
		msg   string
		from  string   // a phrase the answer should quote; "" for a doubt outside the lesson
		not   []string // phrases the answer must not quote
	}{
		{changes, "what's it called when water turns to steam", "it boils", []string{"Freezing is the reverse"}},
		{addingFractions, "how do i add fractions with different bottoms like 1/3 and 1/5", "Fractions with different denominators", []string{"Fractions with the same denominator"}},
		{addingFractions, "what is 1/2 + 1/4", "Fractions with different denominators", []string{"Multiply the top and bottom of 1/4"}},
		{percentages, "is 0.5 the same as 5%?", "To turn a decimal into a percentage", nil},
		{percentages, "what does per cent mean", `Per cent means "per hundred"`, nil},
		{ratios, "is 2:3 the same as 3:2", "The order matters", nil},
		{percentages, "why do we divide by the original price and not the new one?", "compares the change with the original amount", nil},
		{percentages, "who is the prime minister of india?", "", nil},
		{changes, "how much water should I drink?", "", nil},
		{addingFractions, "what is photosynthesis?", "", nil},
		{photosynthesis, "how do I add fractions with different bottoms?", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.topic+"/"+tt.msg, func(t *testing.T) {
			d := newDriver(t, sampleTopic(t, tt.topic), "teacher", tutor.ModeClarify)
			x := d.say(tt.msg)
			if tt.from == "" {
				if !says(x.text(), mNotInTopic) {
					t.Errorf("reply %q should say the lesson does not cover it", x.text())
				}
				return
			}
			if !strings.Contains(x.text(), tt.from) || says(x.text(), mNotInTopic) || !closes(x.text()) {
				t.Errorf("reply %q; want an answer quoting %q and one closing question", x.text(), tt.from)
			}
			for _, n := range tt.not {
				if strings.Contains(x.text(), n) {
					t.Errorf("reply %q quotes %q", x.text(), n)
				}
			}
			if strings.HasPrefix(x.text(), "A common mistake") {
				t.Errorf("reply %q opens with a mistake, not the right way", x.text())
			}
		})
	}
}

// TestStuckOnADoubt: "I'm stuck on X" in a doubts session is a doubt about
// X, answered from the lesson.
func TestStuckOnADoubt(t *testing.T) {
	d := newDriver(t, sampleTopic(t, addingFractions), "stuck-doubt", tutor.ModeClarify)
	if x := d.say("I'm stuck on adding fractions with different denominators"); !strings.Contains(x.text(), "unlike fractions") {
		t.Errorf("reply %q; want the explanation of unlike fractions", x.text())
	}
}

// A sentence of an answer that leans on the one before it comes with that
// one, wherever it stands in the answer, and one that cannot have it is
// left out. (A science teacher's testing found "they break free …" and
// "… in this way." answered on their own.)
func TestExplainKeepsContext(t *testing.T) {
	states := sampleTopic(t, "science/states-of-matter/changes-of-state")
	for q, want := range map[string][2]string{
		"where do drops on a cold glass come from?": {"Condensation is the reverse of evaporation", "come from the air in this way"},
		"what is melting point":                     {"When a solid is heated, its particles vibrate more and more.", "they break free of their fixed positions"},
	} {
		_, sents, ok := explain(states, withSolutions, q, 2, nil)
		got := strings.Join(sents, " ")
		if !ok || !strings.Contains(got, want[0]) || strings.Index(got, want[0]) > strings.Index(got, want[1]) {
			t.Errorf("explain(%q) = %q; want %q before %q", q, sents, want[0], want[1])
		}
	}
	_, sents, _ := explain(sampleTopic(t, photosynthesis), withSolutions, "what are the tiny pores in leaves called", 2, nil)
	if len(sents) == 0 || strings.HasPrefix(sents[0], "Their cells") {
		t.Errorf("an answer opening on a sentence that leans back: %q", sents)
	}
}

// Filler words ("even though", "only") and a temperature's unit in words
// ("0 degrees", the lessons' "0 °C") do not keep a doubt from the lesson
// sentence that answers it.
func TestDoubtInEverydayWords(t *testing.T) {
	d := newDriver(t, sampleTopic(t, "science/states-of-matter/changes-of-state"), "everyday", tutor.ModeClarify)
	x := d.say("why does ice stay at 0 degrees when its melting even though we heat it")
	if !strings.Contains(x.text(), "the heat is used to free the particles") {
		t.Errorf("want the reason the temperature stays at 0 °C, got %q", x.text())
	}
	d = newDriver(t, sampleTopic(t, "science/nutrition-in-plants/photosynthesis"), "tho", tutor.ModeClarify)
	if x := d.say("why does it need light tho"); says(x.text(), mNotInTopic) || !strings.Contains(x.text(), "light") {
		t.Errorf("\"why does it need light tho\": want the lesson on light, got %q", x.text())
	}
}

// A claim put as a question with a tag and no question mark ("…, right",
// "… isnt it") is a doubt like any other: a common mistake hears "No".
func TestTagQuestion(t *testing.T) {
	d := newDriver(t, sampleTopic(t, "science/states-of-matter/solids-liquids-and-gases"), "tag", tutor.ModeClarify)
	x := d.say("the particles in a solid dont move at all right")
	if !says(x.text(), mNotSo) || !strings.Contains(x.text(), "vibrate") {
		t.Errorf("want no and the right idea, got %q", x.text())
	}
	for _, msg := range []string{"ok right", "turn right"} {
		if isQuestion(msg) {
			t.Errorf("isQuestion(%q) = true", msg)
		}
	}
}

// Doubts a teacher found refused although the lesson answers them: a tag
// ("right?", "na"), an everyday word ("temp", "co2") or a verb the lesson
// never uses ("make it bigger") no longer counts as something the lesson
// does not explain. What the lesson does not explain is still refused.
func TestClarifyDoubtsOnceRefused(t *testing.T) {
	for _, tc := range []struct{ topic, msg, from string }{
		{photosynthesis, "so the plant takes in co2 and gives out o2 during photosynthesis, correct?", "raw materials of photosynthesis"},
		{addingIntegers, "why does subtracting a negative make it bigger tho", "gives a greater result"},
		{"science/states-of-matter/solids-liquids-and-gases", "gases have mass even tho we cant see them right?", "it has mass"},
		{"science/states-of-matter/changes-of-state", "so evaporation is just slow boiling right?", "Evaporation is different"},
		{"science/states-of-matter/changes-of-state", "naphthalene balls melt and then evaporate right", "naphthalene balls slowly get smaller"},
		{"science/states-of-matter/changes-of-state", "while ice is melting the temp keeps going up na", "the temperature stays at 0 °C"},
		{multIntegers, "why do even negatives make positive", "an even number of negative factors"},
		{multIntegers, "why is minus times minus a plus? it doesnt make sense", "the product is positive"},
		{"science/states-of-matter/changes-of-state", "does the temperature keep rising while water is boiling?", "it stays at 100 °C"},
		// Hinglish words of the lesson's things.
		{photosynthesis, "alcohol kyu daalte hai?", "to remove its green colour"},
		{photosynthesis, "bhaiya stomata raat ko band hote hai kya?", "open and close it"},
		{photosynthesis, "to raat ko plant kya karta hai? oxygen deta hai?", "does not take place in the dark"},
	} {
		d := newDriver(t, sampleTopic(t, tc.topic), "once-refused", tutor.ModeClarify)
		if x := d.say(tc.msg); !strings.Contains(x.text(), tc.from) {
			t.Errorf("%q: %q, want it to quote %q", tc.msg, x.text(), tc.from)
		}
	}
	for _, tc := range []struct{ topic, msg string }{
		{photosynthesis, "do humans take in o2"},
		{photosynthesis, "what is h2o"},
		{addingFractions, "how do I multiply fractions"},
	} {
		d := newDriver(t, sampleTopic(t, tc.topic), "still-refused", tutor.ModeClarify)
		if x := d.say(tc.msg); !says(x.text(), mNotInTopic) {
			t.Errorf("%q: %q, want it refused as outside the lesson", tc.msg, x.text())
		}
	}
	// A tag is dropped where it ends a sentence, not where "right" is a
	// direction.
	for _, q := range []string{"if I move right, do I get a bigger number?", "which way is greater, left or right?"} {
		if lt, _ := readLesson(sampleTopic(t, addingIntegers), lessonOnly, q); !slices.Contains(lt.q, "right") {
			t.Errorf("%q: terms %v, want right among them", q, lt.q)
		}
	}
}

// afterDoubt answers one doubt in a fresh doubts session and returns the
// driver, so that the message under test follows a real answer and its
// closure question ("Do you have another doubt?").
func afterDoubt(t *testing.T, key, id, doubt string) *driver {
	t.Helper()
	d := newDriver(t, sampleTopic(t, key), id, tutor.ModeClarify)
	x := d.say(doubt)
	if !says(x.text(), mClosure) {
		t.Fatalf("setup: %q got no closure question: %q", doubt, x.text())
	}
	return d
}

// After "Do you have another doubt?", the common ways of saying no more
// end the session: "nothing", "no doubts", "that is all" and the like.
func TestClarifyNoMoreDoubtsEndsTheSession(t *testing.T) {
	for _, msg := range []string{"nothing", "none", "nothing more", "nothing, thanks", "no doubts", "no questions", "that is all", "i dont have any doubts", "no I have no doubts"} {
		t.Run(msg, func(t *testing.T) {
			d := afterDoubt(t, photosynthesis, "doubts-done", "what are stomata?")
			x := d.say(msg)
			if out := x.reply.Output; !out.SessionComplete || out.Intent != tutor.IntentDone {
				t.Errorf("%q after the closure question: intent %q, complete %t, want the goodbye; reply %q", msg, out.Intent, out.SessionComplete, x.text())
			}
		})
	}
}

// Thanks in any common words hears "you're welcome", not the last answer
// again nor "the lesson does not cover that".
func TestClarifyThanksIsNotADoubt(t *testing.T) {
	for _, msg := range []string{"thanks a lot!", "thank you so much", "great, thank you so much", "perfect thanks", "that's clear now, thank you"} {
		t.Run(msg, func(t *testing.T) {
			d := afterDoubt(t, photosynthesis, "doubts-thanks", "what are stomata?")
			x := d.say(msg)
			text := x.text()
			if ownWords(d.topic, text) != text || says(text, mNotInTopic) || !says(text, mWelcome) {
				t.Errorf("%q: want a \"you're welcome\" reply, got %q", msg, text)
			}
		})
	}
}

// "I get it now", "oh ok", "👍": the learner has understood, and is not
// given more of the lesson.
func TestClarifyUnderstoodIsNotAFollowUp(t *testing.T) {
	for _, msg := range []string{"ok i understand now", "I get it now", "oh ok", "hmm ok", "👍", "oh I see", "alright", "fine"} {
		t.Run(msg, func(t *testing.T) {
			d := afterDoubt(t, photosynthesis, "doubts-ack", "what are stomata?")
			x := d.say(msg)
			text := x.text()
			if ownWords(d.topic, text) != text || says(text, mNotInTopic) {
				t.Errorf("%q: want an acknowledgement, got more lesson text or \"not covered\": %q", msg, text)
			}
		})
	}
}

// "all clear. one more: what is starch" asks a question: the session goes
// on.
func TestClarifyQuestionAfterAllClear(t *testing.T) {
	for _, msg := range []string{"all clear. one more: what is starch", "that's it. why are leaves green", "I'm done, but what is chlorophyll?"} {
		t.Run(msg, func(t *testing.T) {
			d := afterDoubt(t, photosynthesis, "doubts-more", "what are stomata?")
			if pre := d.pre.CheckIn(tutor.ModeClarify, msg); pre != tutor.PrecheckNone {
				t.Fatalf("setup: precheck %q", pre)
			}
			x := d.say(msg)
			if out := x.reply.Output; out.SessionComplete || out.Intent == tutor.IntentDone {
				t.Errorf("%q: the session ended although a question was asked; reply %q", msg, x.text())
			}
		})
	}
}

// After an explanation that did not help, the tutor explains again and
// asks "Does that help?" / "Is that clearer now?": a bare "no" says it
// still does not, and the learner relies on another try, not a goodbye
// (seed 002: the session ends when they say they are done, after the
// closure question). "no, I'm done" still ends it.
func TestClarifyNoToDoesThatHelp(t *testing.T) {
	// A word of address after the no says no more.
	for _, msg := range []string{"no", "nope", "nah", "not really",
		"no sir", "No, sir.", "no ma'am", "no maam", "nope sir", "no didi", "nahi sir"} {
		t.Run(msg, func(t *testing.T) {
			d := afterDoubt(t, photosynthesis, "doubts-no-help", "Why are leaves green?")
			if x := d.say("i still dont get it"); !says(x.text(), mHelps) {
				t.Fatalf("setup: the re-explanation asks nothing: %q", x.text())
			}
			x := d.say(msg)
			if out := x.reply.Output; out.SessionComplete || out.Intent == tutor.IntentDone || d.state.ClarifyComplete || says(x.text(), mGoodbye) {
				t.Errorf("%q to %q ended the session: %q", msg, "Does that help?", x.text())
			}
		})
	}
	for _, msg := range []string{"no, I'm done", "no more doubts", "no thanks", "no thank you sir", "no sir, I'm done", "no more doubts sir"} {
		t.Run(msg, func(t *testing.T) {
			d := afterDoubt(t, photosynthesis, "doubts-no-help", "Why are leaves green?")
			d.say("i still dont get it")
			if x := d.say(msg); !x.reply.Output.SessionComplete || !d.state.ClarifyComplete {
				t.Errorf("%q after a re-explanation: the session goes on: %q", msg, x.text())
			}
		})
	}
}

// TestClarifyGreetingAlone: a greeting with no doubt in it is greeted back
// with an invitation to ask, not looked up in the lesson as a doubt (which
// answered "hello sir" with "Our lesson doesn't cover that"), and it does
// not end the session. A doubt after a greeting is answered as if asked
// alone.
func TestClarifyGreetingAlone(t *testing.T) {
	topic := sampleTopic(t, photosynthesis)
	for _, msg := range []string{"hi", "hello", "hello sir", "good morning", "hey there", "Hi!", "good evening ma'am", "hi sir, how are you?"} {
		t.Run(msg, func(t *testing.T) {
			d := newDriver(t, topic, "doubts-hello", tutor.ModeClarify)
			x := d.say(msg)
			out := x.reply.Output
			if !says(x.text(), mHelloDoubts) || says(x.text(), mNotInTopic) || !strings.Contains(x.text(), topicTitle(topic)) {
				t.Errorf("%q: reply %q; want a greeting back and the doubt asked for", msg, x.text())
			}
			if out.SessionComplete || out.Intent == tutor.IntentDone || d.state.ClarifyComplete || len(out.MasteryUpdates) > 0 {
				t.Errorf("%q: intent %q, complete %v, concepts %v; want the session open, nothing discussed", msg, out.Intent, d.state.ClarifyComplete, out.MasteryUpdates)
			}
			// After a doubt too.
			d = afterDoubt(t, photosynthesis, "doubts-hello", "Why are leaves green?")
			if x := d.say(msg); !says(x.text(), mHelloDoubts) || d.state.ClarifyComplete {
				t.Errorf("%q after a doubt: reply %q, complete %v", msg, x.text(), d.state.ClarifyComplete)
			}
		})
	}
	for doubt, greeted := range map[string]string{
		"what is photosynthesis?":     "hi, what is photosynthesis?",
		"what is chlorophyll?":        "Hello sir, what is chlorophyll?",
		"why are leaves green?":       "good morning! why are leaves green?",
		"What gas do plants take in?": "hey what gas do plants take in?",
	} {
		want := newDriver(t, topic, "doubts-hello-doubt", tutor.ModeClarify).say(doubt)
		x := newDriver(t, topic, "doubts-hello-doubt", tutor.ModeClarify).say(greeted)
		if x.text() != want.text() || says(x.text(), mHelloDoubts) || says(x.text(), mNotInTopic) {
			t.Errorf("%q: reply %q; want the doubt answered as %q is: %q", greeted, x.text(), doubt, want.text())
		}
	}
}

// Past the sitting's time limit the domain ends a doubts session with the
// turn: the doubt is answered, and the reply says the session ends instead
// of inviting another doubt that the learner could no longer ask.
func TestClarifyTimeUp(t *testing.T) {
	topic := sampleTopic(t, photosynthesis)
	d := newDriver(t, topic, "doubts-time", tutor.ModeClarify)
	d.state.EngineConfig.TimeLimitSeconds = 60
	d.say("Why are leaves green?")
	x := d.say("What gas do plants take in to make food?")
	out := x.reply.Output
	if !x.guard.TimeUp || !d.state.ClarifyComplete || !out.SessionComplete || out.Intent != tutor.IntentDone {
		t.Fatalf("time up %t, complete %t (output %t, intent %q)", x.guard.TimeUp, d.state.ClarifyComplete, out.SessionComplete, out.Intent)
	}
	if !strings.Contains(x.text(), "carbon dioxide") || !says(x.text(), mDoubtsTimeUp) || strings.Contains(x.text(), "?") {
		t.Errorf("want the answer and a goodbye, no question: %q", x.text())
	}
	if last, _ := d.state.LastReply(); last != x.text() {
		t.Errorf("the learner sees %q, the tutor wrote %q", last, x.text())
	}
}

// "no. why do leaves need light" asks a question after its "no": it is
// answered, not read as "that did not help".
func TestClarifyNoThenAQuestion(t *testing.T) {
	for _, msg := range []string{"no. why do leaves need light", "nope, what about roots"} {
		t.Run(msg, func(t *testing.T) {
			d := afterDoubt(t, photosynthesis, "doubts-noq", "what are stomata?")
			x := d.say(msg)
			if says(x.text(), mUnclear) || x.reply.Output.SessionComplete {
				t.Errorf("%q: the question was not answered: %q", msg, x.text())
			}
		})
	}
}

// TestGoodbyeRecordsTheConceptsItNames: a goodbye that names what the
// learner asked about ("thanks, that's all about mixed numbers") records
// those concepts as discussed, as an answered doubt does; one that names
// none records none.
func TestGoodbyeRecordsTheConceptsItNames(t *testing.T) {
	topic := sampleTopic(t, addingFractions)
	for msg, want := range map[string][]string{
		"thanks, that's all about mixed numbers, bye":    {"Mixed numbers"},
		"thanks, that's all about like fractions, bye":   {"Like fractions"},
		"thanks, that's all about unlike fractions, bye": {"Unlike fractions"}, // not like fractions
		"that's all, thanks":                             nil,
		"no more doubts, I get fractions now":            nil, // no concept is named in full
		"thanks, that's all about MIXED NUMBERS, bye":    {"Mixed numbers"},
	} {
		d := newDriver(t, topic, "doubts-bye", tutor.ModeClarify)
		x := d.say(msg)
		out := x.reply.Output
		if out.Intent != tutor.IntentDone || !out.SessionComplete {
			t.Errorf("%q: intent %q, complete %t; want the goodbye", msg, out.Intent, out.SessionComplete)
			continue
		}
		var got []string
		for _, u := range out.MasteryUpdates {
			if u.Score != 0.5 {
				t.Errorf("%q: %s scored %v; doubts sessions keep no mastery (0.5)", msg, u.Concept, u.Score)
			}
			got = append(got, u.Concept)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%q: concepts recorded %q, want %q", msg, got, want)
		}
	}
}
