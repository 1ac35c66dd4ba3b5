package rules

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tutord/tutord/internal/tutor"
)

func TestWatchFor(t *testing.T) {
	tests := []struct {
		description string
		want        string // "" when it cannot be put in words
	}{
		{"Adds the denominators too and gets 7/18.", "adding the denominators too"},
		{"Thinks that gases pass through the veins of the leaf.", "thinking that gases pass through the veins of the leaf"},
		{"Multiplies the whole parts and the fraction parts separately and gets 6 1/12.", "multiplying the whole parts and the fraction parts separately"},
		{"Cross-multiplies as if comparing fractions.", "cross-multiplying as if comparing fractions"},
		{"Forgets that a loss is negative and gives 90.", "forgetting that a loss is negative"},
		{"Cancels two numerators with each other.", "cancelling two numerators with each other"},
		{"Writes 45% as 45/10.", "writing 45% as 45/10"},
		{"Treats ₹240 as the whole prize and divides it in the ratio 5 : 3.", "treating ₹240 as the whole prize and dividing it in the ratio 5 : 3"},
		{"Adds the whole parts, then adds the tops and bottoms of the fraction parts and gets 3 2/5.", "adding the whole parts, then adding the tops and bottoms of the fraction parts"},
		{"Adding the denominators as well as the numerators (1/3 + 1/4 = 2/7).", "adding the denominators as well as the numerators (1/3 + 1/4 = 2/7)"},
		{"add denominators", "adding denominators"},
		{"Nothing is carried over.", ""},
		{"Denominators", ""},
		{"7/18", ""},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.description, func(t *testing.T) {
			got, ok := watchFor(tt.description)
			if got != tt.want || ok != (tt.want != "") {
				t.Errorf("watchFor(%q) = %q, %t; want %q", tt.description, got, ok, tt.want)
			}
		})
	}
}

// TestPhrase puts recorded misconceptions in the learner's words: the
// curriculum's own, an id or a teacher's note found in the curriculum by
// their words, and nothing for what cannot be said to a learner.
func TestPhrase(t *testing.T) {
	topic := sampleTopic(t, addingFractions)
	tests := []struct {
		name        string
		description string
		want        mistake
		ok          bool
	}{
		{"bank question's", "Adds the denominators too and gets 7/18.",
			mistake{what: "adding the denominators too", fix: "The denominators are equal, so add the numerators and keep the denominator."}, true},
		{"spacing and case", "  adds the DENOMINATORS too   and gets 7/18.",
			mistake{what: "adding the denominators too", fix: "The denominators are equal, so add the numerators and keep the denominator."}, true},
		{"guideline's", "Forgetting to change the numerator when rewriting a fraction with a new denominator.",
			mistake{what: "forgetting to change the numerator when rewriting a fraction with a new denominator"}, true},
		{"an id", "add_denominators",
			mistake{what: "adding the denominators too", fix: "The denominators are equal, so add the numerators and keep the denominator."}, true},
		{"a camel-case id", "addDenominators",
			mistake{what: "adding the denominators too", fix: "The denominators are equal, so add the numerators and keep the denominator."}, true},
		{"a teacher's note", "The student adds the numerators and the denominators",
			mistake{what: "adding the numerators and the denominators"}, true},
		{"a note that only labels", "The student is confused about fractions", mistake{}, false},
		{"an unknown id", "unit_error", mistake{}, false},
		{"a one-word id", "denominators", mistake{}, false},
		{"internal words", "misconception detected: adds tops", mistake{}, false},
		{"a field", "{misconception: add_denominators}", mistake{}, false},
		{"blank", "   ", mistake{}, false},
	}
	states := sampleTopic(t, "science/states-of-matter/solids-liquids-and-gases")
	percentages := sampleTopic(t, "mathematics/ratios-and-percentages/percentages")
	more := []struct {
		topic       *tutor.Topic
		description string
		want        mistake
		ok          bool
	}{
		// A wrong answer means nothing without its question: it is not
		// named, not even by its concept ("the slip you made with ..."),
		// though a rule would set it right.
		{states, "Says liquid, because a liquid has a fixed volume.", mistake{}, false},
		// A question's mistake without a rule to set it right is not named.
		{percentages, "Writes the digits next to each other and gets 35%.", mistake{}, false},
		// Nor is one whose only rule is a step of its own question's
		// method ("Call the number x and write the sentence as an equation.").
		{sampleTopic(t, "mathematics/linear-equations/solving-linear-equations"), "Adds the two numbers and gets 62.", mistake{}, false},
	}
	for _, tt := range more {
		got, ok := phrase(tt.topic, tt.description)
		if ok != tt.ok || got != tt.want {
			t.Errorf("phrase(%q) = %+v, %t; want %+v, %t", tt.description, got, ok, tt.want, tt.ok)
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := phrase(topic, tt.description)
			if ok != tt.ok || got != tt.want {
				t.Errorf("phrase(%q) = %+v, %t; want %+v, %t", tt.description, got, ok, tt.want, tt.ok)
			}
		})
	}
}

// TestPhraseEveryBankMisconception puts every misconception of the sample
// curriculum in words: plain words, no digits or "it" that need the
// question to make sense, never a slip named by its concept, and a fix
// for every bank question's.
func TestPhraseEveryBankMisconception(t *testing.T) {
	topics, keys := sampleTopics(t)
	for _, key := range keys {
		topic := topics[key]
		var all []string
		for _, q := range topic.Questions {
			all = append(all, q.Misconception)
		}
		all = append(all, topic.Guideline.CommonMisconceptions...)
		for _, d := range all {
			if d == "" {
				continue
			}
			m, ok := phrase(topic, d)
			if !ok {
				continue // bound to its question, or without a rule to state
			}
			if m.what == "" || m.what != strings.TrimSpace(m.what) || strings.HasSuffix(m.what, ".") || internal(m.what) || strings.Contains(m.what, "slip") {
				t.Errorf("%s: %q is named %q", key, d, m.what)
			}
			if slices.ContainsFunc(topic.Questions, func(q tutor.BankQuestion) bool { return q.Misconception == d }) && (m.fix == "" || needsQuestion(m.what)) {
				t.Errorf("%s: a question's mistake %q is named %q, set right by %q", key, d, m.what, m.fix)
			}
		}
	}
}

func TestMistakes(t *testing.T) {
	topic := sampleTopic(t, addingFractions)
	at := tutor.NewTime(epoch)
	state := func(ms ...tutor.Misconception) tutor.State {
		for i := range ms {
			ms[i].DetectedAt, ms[i].LastDetectedAt = at, at
		}
		return tutor.State{Misconceptions: ms}
	}
	like1 := "Adds the denominators too and gets 7/18."
	unlike1 := "Adds the tops and the bottoms and gets 2/7."
	guideline := "Forgetting to change the numerator when rewriting a fraction with a new denominator."
	tests := []struct {
		name  string
		state tutor.State
		now   string
		want  []string // what each names
	}{
		{"none", state(), "", nil},
		{"this turn's", state(), like1, []string{"adding the denominators too"}},
		{"most often first", state(tutor.Misconception{Description: guideline, Count: 1}, tutor.Misconception{Description: like1, Count: 2}), "",
			[]string{"adding the denominators too"}},
		{"the first seen on a tie", state(tutor.Misconception{Description: guideline, Count: 1}, tutor.Misconception{Description: like1, Count: 1}), "",
			[]string{"forgetting to change the numerator when rewriting a fraction with a new denominator"}},
		{"this turn's counts", state(tutor.Misconception{Description: guideline, Count: 1}, tutor.Misconception{Description: like1, Count: 1}), like1,
			[]string{"adding the denominators too"}},
		{"resolved ones are not named", state(tutor.Misconception{Description: like1, Count: 3, Resolved: true}), "", nil},
		{"unnamable ones are left out", state(tutor.Misconception{Description: "student_error", Count: 5}, tutor.Misconception{Description: like1, Count: 1}), "",
			[]string{"adding the denominators too"}},
		{"only one", state(tutor.Misconception{Description: like1, Count: 1}, tutor.Misconception{Description: guideline, Count: 1},
			tutor.Misconception{Description: "Subtracting the whole parts and the fraction parts of mixed numbers without borrowing.", Count: 1}), "",
			[]string{"adding the denominators too"}},
		{"a second one tied to its question is left out", state(tutor.Misconception{Description: like1, Count: 1}, tutor.Misconception{Description: "Subtracts the tops and the bottoms (5 - 1 and 6 - 3) and gets 4/3.", Count: 1}), "",
			[]string{"adding the denominators too"}},
		{"one tied to its question is not named, even seen most", state(tutor.Misconception{Description: "Subtracts the tops and the bottoms (5 - 1 and 6 - 3) and gets 4/3.", Count: 3}, tutor.Misconception{Description: like1, Count: 1}), "",
			[]string{"adding the denominators too"}},
		{"only one tied to its question", state(tutor.Misconception{Description: "Subtracts the tops and the bottoms (5 - 1 and 6 - 3) and gets 4/3.", Count: 2}), "", nil},
		{"the same words once", state(tutor.Misconception{Description: unlike1, Count: 1}, tutor.Misconception{Description: "Adds the tops and the bottoms and gets 4/12.", Count: 1}), "",
			[]string{"adding the tops and the bottoms"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			ms := mistakes(tt.state, topic, tt.now)
			for i, m := range ms {
				got = append(got, m.what)
				if i > 0 && m.fix != "" {
					t.Errorf("%q has a fix: only the first is set right", m.what)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mistakes (-want +got):\n%s", diff)
			}
		})
	}
}

// completeLesson drives a lesson to its end: the learner answers each
// question with its misconception's answer once when wrong is set, and
// right otherwise. It returns the turn that completed the lesson.
func completeLesson(t *testing.T, d *driver, wrong func(tutor.BankQuestion) bool) exchange {
	t.Helper()
	said := map[string]bool{}
	for range 150 {
		if d.state.IsComplete(d.topic) {
			return d.log[len(d.log)-1]
		}
		bq := d.pending()
		switch {
		case bq == nil:
			d.say("yes")
		case len(bq.MisconceptionAnswers) > 0 && !said[bq.ID] && wrong(*bq):
			said[bq.ID] = true
			d.say(bq.MisconceptionAnswers[0])
		default:
			d.say(rightAnswer(*bq))
		}
	}
	t.Fatalf("the lesson did not complete; last replies:\n%s", strings.Join(d.transcript()[max(0, len(d.log)*2-8):], "\n"))
	return exchange{}
}

// internalMistakeWords are words a reply naming a mistake never uses.
var internalMistakeWords = regexp.MustCompile(`(?i)\b(?:student|learner|misconceptions?|recorded|detected)\b|_`)

// TestWrapUpNamesMistakes: the wrap-up of a lesson names, in the learner's
// words, the mistake the learner made, and what sets it right; a lesson
// without one wraps up as before.
func TestWrapUpNamesMistakes(t *testing.T) {
	topic := sampleTopic(t, addingFractions)
	d := newDriver(t, topic, "watch-1", tutor.ModeTeachMe)
	x := completeLesson(t, d, func(q tutor.BankQuestion) bool { return q.ID == "like-1" })
	if len(d.state.Misconceptions) != 1 {
		t.Fatalf("recorded %+v, want the misconception of like-1", d.state.Misconceptions)
	}
	if !says(x.text(), mWrapUpWatch) {
		t.Errorf("wrap-up %q does not use the wrap-up that names mistakes", x.text())
	}
	for _, want := range []string{"out for adding the denominators too", "The denominators are equal, so add the numerators and keep the denominator."} {
		if !strings.Contains(x.text(), want) {
			t.Errorf("wrap-up %q does not have %q", x.text(), want)
		}
	}
	if m := internalMistakeWords.FindString(x.text()); m != "" {
		t.Errorf("wrap-up %q has %q", x.text(), m)
	}
	if !x.reply.Output.SessionComplete || !strings.Contains(x.text(), "harder question") {
		t.Errorf("wrap-up %q: complete %t, want the offer of a harder question", x.text(), x.reply.Output.SessionComplete)
	}

	// The same lesson without the mistake wraps up without naming one.
	d = newDriver(t, topic, "watch-1", tutor.ModeTeachMe)
	x = completeLesson(t, d, func(tutor.BankQuestion) bool { return false })
	if !says(x.text(), mWrapUp) || strings.Contains(strings.ToLower(x.text()), "watch out") || len(d.state.Misconceptions) != 0 {
		t.Errorf("wrap-up %q names a mistake no answer showed", x.text())
	}
}

// TestWrapUpNamesNoBoundMistake: a lesson whose only mistake means nothing
// without its question ("Gives the smaller number, 24.") wraps up plainly,
// without naming it by its concept ("the slip you made with dividing in a
// ratio").
func TestWrapUpNamesNoBoundMistake(t *testing.T) {
	topic := sampleTopic(t, "mathematics/ratios-and-percentages/ratios-and-proportions")
	const bound = "Gives the smaller number, 24."
	d := newDriver(t, topic, "watch-bound", tutor.ModeTeachMe)
	d.state.Misconceptions = []tutor.Misconception{{Concept: "Dividing in a ratio", Description: bound, Count: 2,
		DetectedAt: tutor.NewTime(epoch), LastDetectedAt: tutor.NewTime(epoch)}}
	x := completeLesson(t, d, func(tutor.BankQuestion) bool { return false })
	if !says(x.text(), mWrapUp) || says(x.text(), mWrapUpWatch) || strings.Contains(x.text(), "slip") || strings.Contains(strings.ToLower(x.text()), "watch out") {
		t.Errorf("wrap-up %q names a mistake bound to its question", x.text())
	}
}

// TestWrapUpNamesMistakesEverySubtopic runs every lesson of the sample with
// a learner who gives each question's misconception answer once: every
// wrap-up names a mistake when the session recorded one that can be named
// and is the plain one otherwise, never names a slip by its concept, and
// keeps the rules of every reply (checkReply: no internal language, at
// most three sentences of the engine's own). A rerun of a session is word
// for word the same.
func TestWrapUpNamesMistakesEverySubtopic(t *testing.T) {
	topics, keys := sampleTopics(t)
	named := 0
	for _, key := range keys {
		t.Run(key, func(t *testing.T) {
			topic := topics[key]
			all := func(tutor.BankQuestion) bool { return true }
			d := newDriver(t, topic, "watch-"+key, tutor.ModeTeachMe)
			x := completeLesson(t, d, all)
			nameable := len(mistakes(x.before, topic, "")) > 0
			if nameable {
				named++
			}
			if says(x.text(), mWrapUpWatch) != nameable {
				t.Errorf("wrap-up %q; want one that names a mistake: %t (recorded %+v)", x.text(), nameable, d.state.Misconceptions)
			}
			if strings.Contains(x.text(), "slip you made") {
				t.Errorf("wrap-up %q names a slip by its concept", x.text())
			}
			if m := internalMistakeWords.FindString(x.text()); m != "" {
				t.Errorf("wrap-up %q has %q", x.text(), m)
			}
			if again := completeLesson(t, newDriver(t, topic, "watch-"+key, tutor.ModeTeachMe), all); again.text() != x.text() {
				t.Errorf("a rerun wraps up differently:\n%q\n%q", x.text(), again.text())
			}
		})
	}
	if named < len(keys)/2 {
		t.Errorf("only %d of %d wrap-ups name a mistake", named, len(keys))
	}
}

// TestWrapUpNamesMistakesRecordedElsewhere: a misconception the state holds
// under an id (as a model might name it) is named in the curriculum's
// words.
func TestWrapUpNamesMistakesRecordedElsewhere(t *testing.T) {
	topic := sampleTopic(t, addingFractions)
	d := newDriver(t, topic, "watch-id", tutor.ModeTeachMe)
	d.state.Misconceptions = []tutor.Misconception{{Concept: "Like fractions", Description: "add_denominators", Count: 2,
		DetectedAt: tutor.NewTime(epoch), LastDetectedAt: tutor.NewTime(epoch)}}
	x := completeLesson(t, d, func(tutor.BankQuestion) bool { return false })
	if !strings.Contains(x.text(), "watch out for adding the denominators too") || strings.Contains(x.text(), "add_denominators") {
		t.Errorf("wrap-up %q", x.text())
	}
}

// TestTimeUpNamesMistakes: a sitting that runs out of time names the
// mistake made in it too.
func TestTimeUpNamesMistakes(t *testing.T) {
	topic := sampleTopic(t, addingFractions)
	d := newDriver(t, topic, "watch-time", tutor.ModeTeachMe)
	d.say("ready")
	d.until(10, func() bool { return d.state.LastQuestion != nil })
	bq := d.pending()
	if bq == nil || len(bq.MisconceptionAnswers) == 0 {
		t.Fatalf("want a question with a misconception, got %+v", bq)
	}
	d.state.EngineConfig.TimeLimitSeconds = 1
	// The answer that shows the misconception comes as the time runs out:
	// the domain records it after this reply, which names it already.
	x := d.say(bq.MisconceptionAnswers[0])
	if !x.guard.TimeUp || !says(x.text(), mTimeUp) || !says(x.text(), mWatch) || !strings.Contains(x.text(), "adding the denominators too") {
		t.Errorf("time up %t, reply %q", x.guard.TimeUp, x.text())
	}
	if len(d.state.Misconceptions) != 1 {
		t.Errorf("recorded %+v, want the misconception named", d.state.Misconceptions)
	}
}

// TestTimeUpKeepsTheAnswer: when time runs out on a question whose mistake's
// rule states its answer, the mistake is not named: its rule would be cut
// from the reply, leaving it named without sense.
func TestTimeUpKeepsTheAnswer(t *testing.T) {
	topic := sampleTopic(t, "science/nutrition-in-plants/photosynthesis")
	// raw-2's mistake stands on its own ("thinking that leaves absorb the
	// water the plant needs from rain"); its rule names the answer, roots.
	bq, ok := topic.Question("raw-2")
	if !ok {
		t.Fatal("no question raw-2")
	}
	d := newDriver(t, topic, "watch-spoil", tutor.ModeTeachMe)
	d.say("ready")
	d.state.LastQuestion = &tutor.Question{QuestionText: bq.Text, ExpectedAnswer: bq.Answer, Concept: bq.Concept, Hints: bq.Hints, Phase: tutor.PhaseAsked, QuestionID: bq.ID}
	d.state.EngineConfig.TimeLimitSeconds = 1
	m, ok := phrase(topic, bq.Misconception)
	if !ok || !givesAway(m.fix, bq.Expected(), bq.Text, nil) {
		t.Fatalf("the test wants a mistake whose rule gives the answer away: %+v", m)
	}
	x := d.say(bq.MisconceptionAnswers[0])
	if !x.guard.TimeUp || says(x.text(), mWatch) || strings.Contains(strings.ToLower(x.text()), strings.ToLower(bq.Answer)) {
		t.Errorf("time up %t, reply %q", x.guard.TimeUp, x.text())
	}
}
