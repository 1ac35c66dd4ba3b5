package rules

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

const (
	ratios      = "mathematics/ratios-and-percentages/ratios-and-proportions"
	percentages = "mathematics/ratios-and-percentages/percentages"
)

// pendingOn starts a session on key with question id pending after wrong
// earlier attempts.
func pendingOn(t *testing.T, key, id string, wrong int) (*driver, tutor.BankQuestion) {
	t.Helper()
	topic := sampleTopic(t, key)
	bq, ok := topic.Question(id)
	if !ok {
		t.Fatalf("no question %s", id)
	}
	d := newDriver(t, topic, "steps-"+id, tutor.ModeTeachMe)
	d.say("ready")
	phase := []tutor.Phase{tutor.PhaseAsked, tutor.PhaseProbe, tutor.PhaseHint}[min(wrong, 2)]
	d.state.LastQuestion = &tutor.Question{
		QuestionText: bq.Text, ExpectedAnswer: bq.Answer, Concept: bq.Concept, Hints: bq.Hints,
		Phase: phase, QuestionID: bq.ID, WrongAttempts: wrong, HintsUsed: wrong,
	}
	return d, bq
}

// TestStepRight: a reply that is a right intermediate step of the worked
// solution is acknowledged by name and not judged: no hint ladder, no
// worked solution, no answer given away. A wrong answer that is no step (a
// number the question gives, the known wrong answer, anything else) is
// still a miss, and the right answer is still right.
func TestStepRight(t *testing.T) {
	for _, tc := range []struct {
		key, id, msg string
		wrong        int
		want         string
	}{
		{ratios, "share-1", "100?", 2, "one part is 100 rupees"},
		{ratios, "share-1", "100", 0, "one part is 100 rupees"},
		{ratios, "share-1", "9 parts", 1, "4 + 5 = 9 parts"},
		{ratios, "ratio-1", "5", 1, "the HCF of 15 and 25 is 5"},
		{percentages, "problem-2", "5", 2, "1% is 550 ÷ 110 = 5 rupees"},
		{percentages, "of-1", "36", 0, "10% of 360 is 36"},
	} {
		t.Run(tc.id+" "+tc.msg, func(t *testing.T) {
			d, bq := pendingOn(t, tc.key, tc.id, tc.wrong)
			x := d.say(tc.msg)
			out := x.reply.Output
			if !says(x.text(), mStepRight) || !strings.Contains(x.text(), tc.want) {
				t.Errorf("reply %q does not name the step %q", x.text(), tc.want)
			}
			if out.AnswerCorrect != nil || out.Intent == tutor.IntentAnswer {
				t.Errorf("the step is judged: intent %s, answer_correct %v", out.Intent, *out.AnswerCorrect)
			}
			if says(x.text(), mWalkThrough) || strings.Contains(x.text(), bq.Answer) {
				t.Errorf("reply %q walks through or gives the answer %s", x.text(), bq.Answer)
			}
			if q := x.after.LastQuestion; q == nil || q.WrongAttempts != tc.wrong || q.Phase != x.before.LastQuestion.Phase {
				t.Errorf("the step counts as a wrong attempt: question after it %+v", q)
			}
		})
	}
	for _, tc := range []struct {
		msg     string
		correct bool
	}{
		{"900", false}, {"180", false}, {"400", false}, {"100 and 400", false}, {"500", true},
	} {
		t.Run("share-1 not a step "+tc.msg, func(t *testing.T) {
			d, _ := pendingOn(t, ratios, "share-1", 0)
			x := d.say(tc.msg)
			if says(x.text(), mStepRight) {
				t.Errorf("reply %q calls %q a step", x.text(), tc.msg)
			}
			if got := x.reply.Output.AnswerCorrect; got == nil || *got != tc.correct {
				t.Errorf("answer_correct %v for %q, want %t; reply %q", got, tc.msg, tc.correct, x.text())
			}
		})
	}
}

// TestStepRightNotForSignsOrRepeats: the answer's size without its sign
// is a sign error, not the step "8 - 5 = 3" of the worked solution; and a
// step named once is not named again when the learner repeats it.
func TestStepRightNotForSignsOrRepeats(t *testing.T) {
	d, _ := pendingOn(t, "mathematics/integers/adding-and-subtracting-integers", "add-1", 0)
	x := d.say("3")
	if says(x.text(), mStepRight) || x.reply.Output.AnswerCorrect == nil || *x.reply.Output.AnswerCorrect {
		t.Errorf("3 for -8 + 5: reply %q", x.text())
	}
	d, _ = pendingOn(t, ratios, "share-1", 0)
	if x := d.say("100"); !says(x.text(), mStepRight) {
		t.Fatalf("first 100: reply %q", x.text())
	}
	if x := d.say("100"); says(x.text(), mStepRight) {
		t.Errorf("100 again: reply %q names the step again", x.text())
	}
}

// TestQuestionBack: a question back to the tutor that holds numbers is
// answered as a doubt, not judged; an answer put as a question is still an
// answer.
func TestQuestionBack(t *testing.T) {
	for _, tc := range []struct {
		msg    string
		judged bool
	}{
		{"what is the hcf of 15 and 25", false},
		{"How do I simplify 15 : 25?", false},
		{"wait, why do we divide 15 by 5?", false},
		{"is it 2 : 5?", true},
		{"2:5?", true},
		{"what about 5 : 3?", true},
		{"is the answer 1 : 5?", true},
	} {
		t.Run(tc.msg, func(t *testing.T) {
			d, _ := pendingOn(t, ratios, "ratio-1", 0)
			x := d.say(tc.msg)
			out := x.reply.Output
			if judged := out.AnswerCorrect != nil; judged != tc.judged {
				t.Errorf("%q judged %t, want %t; reply %q", tc.msg, judged, tc.judged, x.text())
			}
			if !tc.judged && (out.Intent != tutor.IntentQuestion || strings.Contains(x.text(), "you said")) {
				t.Errorf("%q: intent %s, reply %q", tc.msg, out.Intent, x.text())
			}
		})
	}
}

// TestDiscouragedLearner: a learner who speaks badly of themselves, or
// finds the task too hard, gets a kind word that fits and help with the
// question, not the bare question again, and never the answer.
func TestDiscouragedLearner(t *testing.T) {
	for _, tc := range []struct {
		msg  string
		want move
	}{
		{"I'm so stupid, I hate maths", mChinUp},
		{"i cant do this im so dumb", mChinUp},
		{"this is too hard", mTooHard},
		{"I hate fractions", mTooHard},
	} {
		t.Run(tc.msg, func(t *testing.T) {
			d, bq := pendingOn(t, ratios, "share-1", 0)
			x := d.say(tc.msg)
			if !says(x.text(), tc.want) || !strings.Contains(x.text(), hint(bq, 1)) {
				t.Errorf("reply %q: want the kind word %d and the first hint", x.text(), tc.want)
			}
			if x.reply.Output.AnswerCorrect != nil || strings.Contains(x.text(), bq.Answer) {
				t.Errorf("reply %q judges or gives the answer", x.text())
			}
		})
	}
	if d, _ := pendingOn(t, ratios, "share-1", 0); says(d.say("I don't know").text(), mChinUp) {
		t.Error("a plain I don't know gets the kind word for a discouraged learner")
	}
	for _, msg := range []string{"that wasn't so hard", "I'm not bad at this", "I don't hate maths", "why is this so hard?", "I'm not, like, stupid"} {
		if self, task := discouraged(msg); self || task {
			t.Errorf("discouraged(%q) = %v, %v; want neither", msg, self, task)
		}
	}
	for msg, want := range map[string][2]bool{"no, I'm so stupid": {true, false}, "no i hate this": {false, true},
		"this isn't easy, it's too hard": {false, true}, "I hate myself": {true, false}, "I don't get it, too hard": {false, true}} {
		if self, task := discouraged(msg); self != want[0] || task != want[1] {
			t.Errorf("discouraged(%q) = %v, %v; want %v", msg, self, task, want)
		}
	}
}

// TestSpottedMistake: a wrong answer that shows the question's known
// mistake is told what it did, with the next hint; the same mistake again
// is not told twice in a row.
func TestSpottedMistake(t *testing.T) {
	d, bq := pendingOn(t, "mathematics/linear-equations/solving-linear-equations", "balance-1", 0)
	x := d.say("32")
	if !says(x.text(), mSpotted) || !strings.Contains(x.text(), "added 9 to 23 instead of subtracting") || !strings.Contains(x.text(), hint(bq, 1)) {
		t.Fatalf("reply %q: want the mistake named and the first hint", x.text())
	}
	if strings.Contains(x.text(), bq.Answer) {
		t.Fatalf("reply %q gives the answer %s", x.text(), bq.Answer)
	}
	if x := d.say("32"); says(x.text(), mSpotted) {
		t.Errorf("the same mistake again: reply %q names it again", x.text())
	}
	if x := d.say("20"); says(x.text(), mSpotted) {
		t.Errorf("a wrong answer without a known mistake: reply %q names one", x.text())
	}
}

func TestYouDid(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Adds 9 to 23 instead of subtracting and gets 32.", "added 9 to 23 instead of subtracting"},
		{"Multiplies only the 10 by 3 and gets 26.", "multiplied only the 10 by 3"},
		{"Divides 900 by 5 and gets 180.", "divided 900 by 5"},
		{"Thinks two negatives make a positive when adding and gets 15.", "thought two negatives make a positive when adding"},
		{"Compares the sizes only and picks -7 because 7 is greater than 2.", "compared the sizes only and picked -7 because 7 is greater than 2"},
		{"Adds the tops and bottoms.", "added the tops and bottoms"},
		{"Ignores the units and writes 40 : 2 = 20 : 1.", "ignored the units"},
		{"Adding the denominators as well as the numerators", ""},
		{"Says liquid, because a liquid has a fixed volume.", ""},
		{"Calls it condensation.", ""},
		{"The student adds the denominators.", ""},
		{"Student adds the denominators.", ""},
	} {
		got, ok := youDid(tc.in)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("youDid(%q) = %q, %v; want %q", tc.in, got, ok, tc.want)
		}
	}
}

// TestMissSkipsTheClueJustGiven: a wrong answer after a clue for "how do I
// start?" gets the next hint, not the clue again.
func TestMissSkipsTheClueJustGiven(t *testing.T) {
	d, bq := pendingOn(t, "mathematics/integers/multiplying-and-dividing-integers", "mul-1", 0)
	if x := d.say("how do I start?"); !strings.Contains(x.text(), hint(bq, 1)) {
		t.Fatalf("clue: reply %q lacks the first hint", x.text())
	}
	x := d.say("42")
	if strings.Contains(x.text(), hint(bq, 1)) || !strings.Contains(x.text(), hint(bq, 2)) {
		t.Errorf("miss after the clue: reply %q; want the second hint only", x.text())
	}
}

// TestPartlyRightForm: a right value in the wrong form hears what to change
// and no hint about finding the value.
func TestPartlyRightForm(t *testing.T) {
	d, bq := pendingOn(t, addingFractions, "like-2", 0)
	x := d.say("4/10")
	if !says(x.text(), mPartly) || strings.Contains(x.text(), hint(bq, 1)) || strings.Contains(x.text(), hint(bq, 2)) {
		t.Errorf("reply %q: want what to change, without the question's hints", x.text())
	}
}

// TestRecapNeedsNoNumbers: "sum up 3 and 4" asks for a sum, not a recap.
func TestRecapNeedsNoNumbers(t *testing.T) {
	if !asksRecap("can you sum up what we did?") || asksRecap("sum up 3 and 4") {
		t.Error("asksRecap misreads a recap or a sum")
	}
}

// TestReversedRatio: a ratio with its terms the other way round hears that
// the order is wrong, not a hint about finding the terms.
func TestReversedRatio(t *testing.T) {
	d, bq := pendingOn(t, ratios, "ratio-1", 0)
	x := d.say("5:3")
	if !says(x.text(), mReversed) || strings.Contains(x.text(), hint(bq, 1)) || x.reply.Output.AnswerCorrect == nil || *x.reply.Output.AnswerCorrect {
		t.Errorf("reply %q: want the order named as the mistake", x.text())
	}
}

// TestAnswerBeforeTheQuestion: an answer typed during an explanation is
// acknowledged, and the lesson goes on.
func TestAnswerBeforeTheQuestion(t *testing.T) {
	d := newDriver(t, sampleTopic(t, addingFractions), "early", tutor.ModeTeachMe)
	d.say("ready")
	if d.pending() != nil {
		t.Fatal("setup: the lesson asked a question at once, not during its explanation")
	}
	x := d.say("I think its 7/18")
	if !says(x.text(), mHoldOn) {
		t.Errorf("reply %q passes over the answer", x.text())
	}
}

// TestChangedAnswerIsAnswered: a learner who answers "What is 2/9 + 5/9?"
// right, hears the praise, then takes it back ("wait, I meant 7/18")
// relies on being told that the first answer was the right one and the new
// one is not (seed 002 intent answer_change), not on "Keep that in mind…"
// or the next explanation alone, which leave them believing the wrong
// value. The right answer keeps its credit: the change is judged nothing.
// The same value again, or a doubt, is no change.
func TestChangedAnswerIsAnswered(t *testing.T) {
	for _, tt := range []struct {
		form   string // %s: the question's known wrong answer, 7/18
		change bool
	}{
		{"wait, I meant %s", true},
		{"actually no, I think it's %s", true},
		{"sorry, %s", true},
		{"%s", true},
		{"wait, I meant 7/9", false},
		{"why is it not %s?", false},
		{"ok", false},
	} {
		t.Run(strings.ReplaceAll(tt.form, "%s", "X"), func(t *testing.T) {
			d, bq := lessonAt(t, addingFractions, "like-1")
			x := d.say(rightAnswer(bq))
			if x.after.LastAnswerResult == nil || *x.after.LastAnswerResult != tutor.ResultCorrect {
				t.Fatalf("%s not judged right: %q", bq.Answer, x.text())
			}
			wrong := bq.MisconceptionAnswers[0] // 7/18
			msg := strings.ReplaceAll(tt.form, "%s", wrong)
			x = d.say(msg)
			if got := says(x.text(), mChangedAnswer); got != tt.change {
				t.Errorf("%q right to %q, then %q: says the first answer stands %v, want %v: %q", bq.Answer, bq.Text, msg, got, tt.change, x.text())
			}
			if tt.change && (!strings.Contains(x.text(), bq.Answer) || !strings.Contains(x.text(), wrong) || x.reply.Output.Intent != tutor.IntentAnswerChange) {
				t.Errorf("%q after %q: the reply names not both answers, or intent %q: %q", msg, bq.Answer, x.reply.Output.Intent, x.text())
			}
			if x.after.LastAnswerResult != nil || len(x.after.Misconceptions) > 0 {
				t.Errorf("%q after %q was judged: result %v, misconceptions %+v", msg, bq.Answer, x.after.LastAnswerResult, x.after.Misconceptions)
			}
		})
	}
}

func TestAnswerLike(t *testing.T) {
	for msg, want := range map[string]bool{"I think its 7/18": true, "12": true, "it's 5": true, "3:5": true, "7/18": true,
		"I'm in grade 7": false, "step 2 please": false, "ok": false, "this is for grade 7": false,
		"ok got it, 2 more to go": false, "I got 100 in my test yesterday": false, "it's 3 pm here": false} {
		if got := answerLike.MatchString(msg); got != want {
			t.Errorf("answerLike(%q) = %v, want %v", msg, got, want)
		}
	}
}

// TestCluesDoNotRepeat: asked for a clue again and again after a wrong
// answer, the tutor gives the hints, then steps of the worked solution
// short of the answer, then asks how far the learner got; it never repeats
// a clue it gave since the question was asked.
func TestCluesDoNotRepeat(t *testing.T) {
	d, bq := pendingOn(t, ratios, "share-1", 1)
	steps := stepClues(bq)
	if len(steps) == 0 {
		t.Fatal("share-1 has no step clues")
	}
	var given []string
	var hints, stepsGiven int
	for i := range 5 {
		text := d.say("how do I start?").text()
		for _, g := range given {
			if strings.Contains(text, g) {
				t.Errorf("clue %d %q repeats %q", i+1, text, g)
			}
		}
		found := false
		for _, h := range bq.Hints {
			if strings.Contains(text, h) {
				given, found = append(given, h), true
				hints++
			}
		}
		for _, st := range steps {
			if strings.Contains(text, st.said) && says(text, mAStep) {
				given, found = append(given, st.said), true
				stepsGiven++
			}
		}
		if !found && !says(text, mReteach) && !says(text, mWaiting) && !says(text, mIDKStepBack) && (!says(text, mHowFar) || says(text, mClue) || says(text, mHelpClue)) {
			t.Errorf("clue %d %q: want a hint, a step of the solution, the idea again, how far they got or the question, without a clue promised", i+1, text)
		}
		if says(text, mIDKStepBack) {
			break // another question now
		}
		if strings.Contains(text, bq.Answer) {
			t.Errorf("clue %d %q gives the answer %s", i+1, text, bq.Answer)
		}
	}
	if hints == 0 || stepsGiven == 0 {
		t.Errorf("the clues gave %q: want hints and then at least one step", given)
	}
}

// TestStepCluesOnlyAfterAnAttempt: before any answer, a learner who keeps
// asking for clues gets the hints, then is asked how far they got, not
// the steps of the solution.
func TestStepCluesOnlyAfterAnAttempt(t *testing.T) {
	d, _ := pendingOn(t, ratios, "share-1", 0)
	for i := range 4 {
		text := d.say("how do I start?").text()
		if says(text, mAStep) {
			t.Errorf("clue %d %q gives a step of the solution before any answer", i+1, text)
		}
	}
}

// TestStepCluesKeepTheAnswerBack: across the sample curriculum, no step
// clue is the answer in other words: none for a choice, yes-or-no, ratio
// or word answer, and none whose value is a number of the answer.
func TestStepCluesKeepTheAnswerBack(t *testing.T) {
	topics, keys := sampleTopics(t)
	var n int
	for _, k := range keys {
		for _, bq := range topics[k].Questions {
			all := stepResults(bq)
			for _, st := range stepClues(bq) {
				n++
				if st == all[len(all)-1] {
					t.Errorf("%s %s: step clue %q is the last step, one move from the answer", k, bq.ID, st.said)
				}
				switch kind := bq.Expected().KindOf(); kind {
				case answer.KindChoice, answer.KindBoolean, answer.KindRatio, answer.KindText:
					t.Errorf("%s %s (%s): step clue %q", k, bq.ID, kind, st.said)
				}
				if slices.Contains(signedNumbers(bq.Answer), st.value) || answer.Evaluate(bq.Expected(), st.said).Verdict == answer.Correct {
					t.Errorf("%s %s: step clue %q gives the answer %s", k, bq.ID, st.said, bq.Answer)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("the sample curriculum has no step clues")
	}
}

// TestRightStepsDoNotLoop: naming the same right steps again and again is
// no progress: after each step is acknowledged once, repeating it counts
// as a wrong attempt, so the ladder goes on.
func TestRightStepsDoNotLoop(t *testing.T) {
	d, _ := pendingOn(t, ratios, "share-1", 0)
	for _, msg := range []string{"9", "100", "9", "100"} {
		d.say(msg)
	}
	if q := d.state.LastQuestion; q == nil || q.WrongAttempts < 2 {
		t.Errorf("after the two steps twice each, the question is %+v; want two wrong attempts", q)
	}
}

// TestHelpRequests: "I'm stuck", "give me a hint" and a bare "help" get the
// next hint, not the question again; a request for help hears a plain
// "here's a clue", and only one for the answer hears that it would give
// the answer away.
func TestHelpRequests(t *testing.T) {
	for _, msg := range []string{"I'm stuck", "give me a hint", "help", "help me please", "still stuck"} {
		d, bq := pendingOn(t, ratios, "ratio-1", 0)
		if x := d.say(msg); !strings.Contains(x.text(), hint(bq, 1)) {
			t.Errorf("%q: reply %q lacks the first hint %q", msg, x.text(), hint(bq, 1))
		}
	}
	for _, tc := range []struct {
		msg        string
		asksAnswer bool
	}{
		{"how do I start?", false}, {"what should I do next?", false}, {"what's the answer?", true}, {"can you tell me the solution?", true},
	} {
		d, bq := pendingOn(t, ratios, "ratio-1", 0)
		x := d.say(tc.msg)
		if !strings.Contains(x.text(), hint(bq, 1)) || says(x.text(), mClue) != tc.asksAnswer || says(x.text(), mHelpClue) == tc.asksAnswer {
			t.Errorf("%q: reply %q; want the first hint, introduced as a clue for %s", tc.msg, x.text(), map[bool]string{false: "help", true: "the answer"}[tc.asksAnswer])
		}
	}
}

// TestNoCluePromisedWhenNoneIsLeft: a wrong answer after every hint and
// step was given hears how far the learner got, never "here's a bigger
// clue" with no clue after it.
func TestNoCluePromisedWhenNoneIsLeft(t *testing.T) {
	d, bq := pendingOn(t, ratios, "ratio-1", 1)
	for range 4 {
		d.say("how do I start?") // the hints, then the steps
	}
	x := d.say("2:7")
	if says(x.text(), mStill) || !says(x.text(), mHowFar) && !says(x.text(), mReteach) {
		t.Errorf("reply %q: want the idea again or how far the learner got, with no clue promised", x.text())
	}
	if strings.Contains(x.text(), bq.Answer) {
		t.Errorf("reply %q gives the answer", x.text())
	}
}

// TestNoAnswerTwiceGetsAClue: "ok" once hears the question again; "ok"
// again hears a clue, not the question a third time.
func TestNoAnswerTwiceGetsAClue(t *testing.T) {
	d, bq := pendingOn(t, ratios, "ratio-1", 0)
	if x := d.say("ok"); !says(x.text(), mWaiting) {
		t.Fatalf("first ok: reply %q; want the question again", x.text())
	}
	x := d.say("ok")
	if says(x.text(), mWaiting) || !strings.Contains(x.text(), hint(bq, 1)) {
		t.Errorf("second ok: reply %q; want the first hint", x.text())
	}
	// The question asked again does not bring the first hint back.
	var later []string
	for range 4 {
		later = append(later, d.say("hmm").text())
	}
	all := strings.Join(later, "\n")
	if strings.Contains(all, hint(bq, 1)) || !strings.Contains(all, hint(bq, 2)) {
		t.Errorf("four more: replies %q; want the second hint, and not the first again", later)
	}
}

// TestWorkingAndWords: working without its result hears "what do you
// get?", and the question's own words where a number is asked hear "as a
// number?", instead of the question again; chat still hears the question.
func TestWorkingAndWords(t *testing.T) {
	const equations, states = "mathematics/linear-equations/solving-linear-equations", "science/states-of-matter/changes-of-state"
	for _, tc := range []struct {
		key, id, msg string
		want         move
	}{
		{equations, "balance-2", "I divided 65 by 5", mWorkItOut},
		{equations, "balance-2", "divide both sides by 5", mWorkItOut},
		{states, "melt-2", "freezing", mAsNumber},
		{states, "melt-2", "at the freezing point", mAsNumber},
		{states, "melt-2", "my dog", mWaiting},
		{equations, "balance-2", "I like cricket", mWaiting},
	} {
		d, _ := pendingOn(t, tc.key, tc.id, 0)
		x := d.say(tc.msg)
		if !says(x.text(), tc.want) || x.reply.Output.AnswerCorrect != nil {
			t.Errorf("%q: reply %q, answer_correct %v; want move %d, unjudged", tc.msg, x.text(), x.reply.Output.AnswerCorrect, tc.want)
		}
	}
}

// TestHelpGoesOnFromTheLearnersSteps: a learner who has given right steps
// is not taught them again: help goes on from the last one they reached.
func TestHelpGoesOnFromTheLearnersSteps(t *testing.T) {
	for _, m := range []move{mStepRight, mFromStep} {
		for _, p := range phrasebook[m] {
			if strings.Contains(p, "{name}") {
				t.Fatalf("%q: inPhrase cannot find a phrasing with a name", p)
			}
		}
	}
	for _, then := range []string{"I don't know what to do next", "how do I finish?", "400"} {
		d, bq := pendingOn(t, ratios, "share-1", 0)
		d.say("9")
		d.say("100")
		x := d.say(then)
		for _, h := range bq.Hints {
			if strings.Contains(x.text(), h) {
				t.Errorf("%q after the two steps: reply %q teaches a step again: %q", then, x.text(), h)
			}
		}
		if !says(x.text(), mFromStep) || !strings.Contains(x.text(), "one part is 100 rupees") || strings.Contains(x.text(), bq.Answer) {
			t.Errorf("%q after the two steps: reply %q; want to go on from one part being 100 rupees, without the answer", then, x.text())
		}
		// Asked again: no hint about the steps done, and not the same
		// pointer twice.
		x = d.say("how do I start?")
		for _, h := range bq.Hints {
			if strings.Contains(x.text(), h) {
				t.Errorf("help after %q: reply %q teaches a step again: %q", then, x.text(), h)
			}
		}
		if says(x.text(), mFromStep) || !says(x.text(), mHowFar) {
			t.Errorf("help after %q: reply %q; want how far the learner got", then, x.text())
		}
	}
}

// TestStepsWorkedOutOnce: the steps a lesson keeps for each bank question
// are those stepResults and stepClues give, and a question that is not
// the topic's own under its id gets its own.
func TestStepsWorkedOutOnce(t *testing.T) {
	topics, keys := sampleTopics(t)
	for _, k := range keys {
		tp := topics[k]
		l := &lesson{topic: tp}
		for _, bq := range tp.Questions {
			if got, want := l.steps(bq), newQuestionSteps(bq); !reflect.DeepEqual(got, want) {
				t.Errorf("%s %s: kept steps %+v, want %+v", k, bq.ID, got, want)
			}
		}
		if len(tp.Questions) > 0 {
			other := tp.Questions[0]
			other.Text, other.Solution = "What is 6 + 6?", "6 + 6 = 12."
			if got := l.steps(other); got.text != other.Text {
				t.Errorf("%s: a question under another's id gets that one's steps", k)
			}
		}
	}
}

// TestCluesNeverRepeatInALongConversation: past the replies the session
// keeps, the clues the question records still keep each clue to once.
func TestCluesNeverRepeatInALongConversation(t *testing.T) {
	d, bq := pendingOn(t, ratios, "share-1", 1)
	var all []string
	recorded := 0
	for i := 0; i < 14 && d.state.LastQuestion.QuestionID == bq.ID; i++ {
		msg := []string{"ok", "how do I start?", "hmm"}[i%3]
		x := d.say(msg)
		all = append(all, x.text())
		if q := x.after.LastQuestion; q != nil && q.QuestionID == bq.ID {
			recorded = max(recorded, len(q.CluesGiven))
		}
	}
	if len(all) < 8 {
		t.Errorf("the question was left after %d turns: %q", len(all), all)
	}
	text := strings.Join(all, "\n")
	for _, c := range append(slices.Clone(bq.Hints), "4 + 5 = 9 parts", "one part is 100 rupees") {
		if n := strings.Count(text, c); n > 1 || c == "one part is 100 rupees" && n > 0 {
			t.Errorf("%q came %d times in %q", c, n, all)
		}
	}
	if recorded < 2 {
		t.Errorf("the question recorded %d clues, want the hint and a step", recorded)
	}
}

// TestStuckBesideAnAnswer: "stuck" or "hint" beside an answer does not
// hide it: the answer is judged; "what is a solution?" is a doubt about a
// word, not a request for the answer.
func TestStuckBesideAnAnswer(t *testing.T) {
	const states = "science/states-of-matter/changes-of-state"
	d, _ := pendingOn(t, states, "boil-3", 0)
	if x := d.say("I was so stuck but I think it is evaporation"); x.reply.Output.AnswerCorrect == nil || !*x.reply.Output.AnswerCorrect {
		t.Errorf("an answer beside \"stuck\": reply %q, answer_correct %v", x.text(), x.reply.Output.AnswerCorrect)
	}
	d, _ = pendingOn(t, "mathematics/linear-equations/variable-on-both-sides", "collect-4", 0)
	if x := d.say("what is a solution?"); !strings.Contains(x.text(), "A value is a solution when") || says(x.text(), mClue) {
		t.Errorf("what is a solution?: reply %q; want what a solution is", x.text())
	}
}

// TestSameWorkingTwiceGetsAClue: the same working without a result, or
// words where a number is asked, twice in a row get a clue the second
// time.
func TestSameWorkingTwiceGetsAClue(t *testing.T) {
	const equations, states = "mathematics/linear-equations/solving-linear-equations", "science/states-of-matter/changes-of-state"
	for _, tc := range []struct{ key, id, msg string }{
		{equations, "balance-2", "I divided 65 by 5"},
		{states, "melt-2", "at the freezing point"},
	} {
		d, bq := pendingOn(t, tc.key, tc.id, 0)
		d.say(tc.msg)
		if x := d.say(tc.msg); !strings.Contains(x.text(), hint(bq, 1)) {
			t.Errorf("%q twice: reply %q; want the first hint", tc.msg, x.text())
		}
	}
}

// TestReteachWhenCluesRunOut: after a wrong answer and every clue, asking
// for help again hears the lesson's idea again, once, in sentences not
// said before; then how far the learner got, the question again, and then
// another question: never the same reply twice in a row, never round in
// circles.
func TestReteachWhenCluesRunOut(t *testing.T) {
	d, bq := pendingOn(t, ratios, "ratio-2", 1)
	var replies []string
	for range 9 {
		x := d.say("can you explain that more simply?")
		replies = append(replies, x.text())
		if x.reply.NextQuestion != nil {
			break
		}
	}
	if last := replies[len(replies)-1]; !says(last, mIDKStepBack) && !says(last, mLeave) {
		t.Errorf("replies %q: want another question, or the question left, in the end", replies)
	}
	taught := 0
	for i, r := range replies {
		if says(r, mReteach) {
			taught++
		}
		if i > 0 && r == replies[i-1] {
			t.Errorf("reply %d repeats the one before: %q", i+1, r)
		}
		if strings.Contains(r, "Check") || strings.Contains(r, bq.Answer) {
			t.Errorf("reply %d %q: a check or the answer", i+1, r)
		}
	}
	if taught != 1 {
		t.Errorf("replies %q: the lesson's idea came %d times; want once, when the clues ran out", replies, taught)
	}
}

// TestNewQuestionIsNeverRedacted: a question asked next, quoted as it is,
// survives the check for the pending answer even when it holds that
// answer's number ("5x" while 5 is pending) or "yes" ("Answer yes or
// no."): before, the whole reply could shrink to "What do you think?".
func TestNewQuestionIsNeverRedacted(t *testing.T) {
	tp := sampleTopic(t, "mathematics/linear-equations/variable-on-both-sides")
	pending, _ := tp.Question("collect-1")
	next, _ := tp.Question("collect-4")
	reply := "No problem, we'll build up to it. Try this one: " + next.Text
	if got := redact(reply, pending.Expected(), pending.Text, nil, next.Text); got != reply {
		t.Errorf("the pending answer's check left %q of %q", got, reply)
	}
	if got := redact(reply, next.Expected(), next.Text, nil); got != reply {
		t.Errorf("the next question's check left %q of %q", got, reply)
	}
}

// TestStepGivenAgain: a right step given again as the answer hears that
// the learner has it already and that the question asks for more, not
// "let's look again".
func TestStepGivenAgain(t *testing.T) {
	d, _ := pendingOn(t, ratios, "share-1", 0)
	d.say("100")
	x := d.say("100")
	if !says(x.text(), mAlreadyHave) || !strings.Contains(x.text(), "one part is 100 rupees") || says(x.text(), mNotYet) {
		t.Errorf("the step again: reply %q; want that the learner has it already", x.text())
	}
	if q := d.state.LastQuestion; q == nil || q.WrongAttempts != 1 {
		t.Errorf("the step again is no progress: question %+v; want one wrong attempt", q)
	}
}

// Between steps: a learner who knows the part asks for the questions and
// gets one; a doubt in Hinglish is answered, not called outside the lesson;
// why a sum comes out as it does is explained after the check.
func TestBetweenStepsRequests(t *testing.T) {
	for _, msg := range []string{"can i skip to the questions?", "skip to the questions plz", "sir i already know this"} {
		d := newDriver(t, sampleTopic(t, addingFractions), "skip-ways", tutor.ModeTeachMe)
		d.say("yes")
		if x := d.say(msg); d.pending() == nil {
			t.Errorf("%q: %q asks no question", msg, x.text())
		}
	}
	for _, msg := range []string{"i know this", "yes i know that", "don't test me yet", "test me later", "will you test me at the end?",
		"wait, before you test me, what is a denominator?", "i know this already but can you explain the LCM part again?"} {
		d := newDriver(t, sampleTopic(t, addingFractions), "no-skip", tutor.ModeTeachMe)
		d.say("yes")
		if x := d.say(msg); d.pending() != nil {
			t.Errorf("%q: %q skips to a question", msg, x.text())
		}
	}
	d := newDriver(t, sampleTopic(t, addingFractions), "skip", tutor.ModeTeachMe)
	d.say("yes")
	if x := d.say("i already know this, can we skip to the questions?"); d.pending() == nil || says(x.text(), mNotCovered) {
		t.Errorf("skip to the questions: %q asks none", x.text())
	}
	v := newDriver(t, sampleTopic(t, "mathematics/fractions/dividing-fractions"), "hinglish", tutor.ModeTeachMe)
	v.say("yes")
	if x := v.say("aur 0 ka reciprocal kya hoga?"); says(x.text(), mNotCovered) || !strings.Contains(x.text(), "0 has no reciprocal") {
		t.Errorf("a Hinglish doubt: %q", x.text())
	}
	m := newDriver(t, sampleTopic(t, multIntegers), "why-sum", tutor.ModeTeachMe)
	m.say("yes")
	if x := m.say("why is -1 x -2 = 2 tho"); !strings.HasPrefix(x.text(), "Yes: -1 × (-2) = 2.") || !strings.Contains(x.text(), "same sign") {
		t.Errorf("why a sum comes out so: %q", x.text())
	}
}

// A right step whose value is the known mistake's ("15% of 800 is 120"
// on the way to the selling price) is a step, not the mistake; "120"
// alone is the mistake.
func TestStepWithTheMistakesValue(t *testing.T) {
	d := newDriver(t, sampleTopic(t, "mathematics/ratios-and-percentages/percentages"), "discount-step", tutor.ModeTeachMe)
	d.say("yes")
	d.untilAsked("problem-1")
	x := d.say("15% of 800 is 120 right?")
	if !says(x.text(), mStepRight) || len(x.after.Misconceptions) != len(x.before.Misconceptions) {
		t.Errorf("a right step: %q, misconceptions %+v", x.text(), x.after.Misconceptions)
	}
	if x := d.say("15% of 800 = 120 so the selling price is 120"); !strings.Contains(x.text(), "as the selling price") {
		t.Errorf("the step, then the mistake's value as the answer: %q", x.text())
	}
	for _, msg := range []string{"15% of 800 = 120 so the discount is 120", "15% of 800 = 120 so now i take it away from 800?"} {
		e := newDriver(t, sampleTopic(t, "mathematics/ratios-and-percentages/percentages"), "discount-step-2", tutor.ModeTeachMe)
		e.say("yes")
		e.untilAsked("problem-1")
		if x := e.say(msg); len(x.after.Misconceptions) != len(x.before.Misconceptions) {
			t.Errorf("%q: %q recorded the mistake", msg, x.text())
		}
	}
}

// A learner who found the size but not the sign ("-7" for (-84) ÷ (-12))
// gets no hint about the size, then or after "idk".
func TestSignSlipHints(t *testing.T) {
	d := newDriver(t, sampleTopic(t, multIntegers), "sign-slip", tutor.ModeTeachMe)
	d.say("yes")
	d.untilAsked("div-2")
	for _, msg := range []string{"-7", "idk"} {
		if x := d.say(msg); strings.Contains(x.text(), "goes into 84") {
			t.Errorf("%q: %q hints at the size the learner has", msg, x.text())
		}
	}
	// A hint that works with signs is still given after a sign slip.
	m := newDriver(t, sampleTopic(t, addingIntegers), "sign-slip-kept", tutor.ModeTeachMe)
	m.say("yes")
	m.untilAsked("sub-2")
	m.say("17")
	if x := m.say("idk"); !strings.Contains(x.text(), "-4 + (-13)") {
		t.Errorf("after a sign slip, idk: %q, want the hint that rewrites the subtraction", x.text())
	}
}

// A sign claim about the question's own sum names its answer: no step.
func TestSignClaimIsNoStep(t *testing.T) {
	d := newDriver(t, sampleTopic(t, multIntegers), "sign-claim", tutor.ModeTeachMe)
	d.say("yes")
	d.untilAsked("mul-1")
	if x := d.say("(-7) x 6 is negative right?"); x.reply.Output.RightStep != "" {
		t.Errorf("a step that is the answer: %q (%q)", x.reply.Output.RightStep, x.text())
	}
}

// TestSlipInWorking: a wrong answer whose working is right up to a slip
// hears where the working went wrong, not a clue to start again, and not
// the answer.
func TestSlipInWorking(t *testing.T) {
	d := newDriver(t, sampleTopic(t, addingFractions), "slip", tutor.ModeTeachMe)
	d.untilAsked("word-2")
	x := d.say("7/2 - 5/4 = 14/4 - 5/4 = 8/4 = 2 m")
	if !says(x.text(), mSlipAfter) || !strings.Contains(x.text(), "14/4 - 5/4") || strings.Contains(x.text(), "9/4") {
		t.Errorf("a slip after a right step: %q", x.text())
	}
	x = d.say("7/2 - 5/4 = 3/2")
	if !says(x.text(), mSlipSum) || !strings.Contains(x.text(), "7/2 - 5/4") {
		t.Errorf("a sum worked wrong: %q", x.text())
	}
	for _, tc := range []struct {
		msg, step string
		sum, ok   bool
	}{
		{"7/2 - 5/4 = 14/4 - 5/4 = 8/4 = 2", "14/4 - 5/4", false, true},
		{"10% is 36, 5% is 18, so 36 + 18 = 56", "36 + 18", true, true},
		{"7/2 - 5/4 = 14/4 - 5/4 = 9/4", "", false, false}, // all right
		{"7/2 - 5/4 = 2/2 = 1", "", false, false},          // wrong from the first step
		{"2x + 3 = 11 so 2x = 8 so x = 4", "", false, false},
		{"I think it's 9/4", "", false, false},
		{"1800/12000 x 100 = 15% so it fell by 85%", "", false, false}, // a per cent
		{"3,000 - 500 = 2,500 so 2%", "", false, false},
		{"Rs 1,200 - 300 = 800", "1200 - 300", true, true},
		{"10 ÷ 3 = 3.33", "", false, false},          // rounded
		{"10 ÷ 3 = 3.4", "10 ÷ 3", true, true},       // not rounded right
		{"5 + 3 = 8 = 8 + 2 = 10", "", false, false}, // a running total
		{"100 - 20% = 80", "", false, false},
		{"2x + 3 = 11", "", false, false},
		{"3,000,000 - 500 = 2,999,500", "", false, false},
		{"1,000,000 + 1 = 1,000,002", "1000000 + 1", true, true},
		{"22 ÷ 7 = 3.1428571", "", false, false},
		{"2 ÷ 3 = 0.66", "", false, false},
	} {
		if step, sum, ok := slipIn(tc.msg); step != tc.step || sum != tc.sum || ok != tc.ok {
			t.Errorf("slipIn(%q) = %q, %v, %v; want %q, %v, %v", tc.msg, step, sum, ok, tc.step, tc.sum, tc.ok)
		}
	}
}

// TestLetterToOptionsWithoutLetters: "C" to a question that names its
// options without letters is no answer (the orchestrator's evaluation says
// so); the lesson and the exam ask for the option in words.
func TestLetterToOptionsWithoutLetters(t *testing.T) {
	d := newDriver(t, sampleTopic(t, "mathematics/fractions/dividing-fractions"), "letter", tutor.ModeTeachMe)
	d.untilAsked("div-4")
	ev := answer.Result{Kind: answer.KindChoice, Verdict: answer.NotAttempt, Reason: answer.ReasonUnseenLetter}
	out, _ := teach(agents.Turn{State: d.state, Topic: d.topic, Message: "C", Evaluation: ev, Now: epoch})
	if !says(out.Response, mInWords) || out.AnswerCorrect != nil {
		t.Errorf("lesson: %q (judged %v), want the option asked for in words, unjudged", out.Response, out.AnswerCorrect)
	}
	if out := exam(agents.Turn{State: d.state, Topic: d.topic, Message: "C", Evaluation: ev}); !says(out.Response, mInWords) {
		t.Errorf("exam: %q, want the option asked for in words", out.Response)
	}
}

// TestLetterToQuestionWithoutOptions: "B" to a question without options
// is no answer; the lesson and the exam ask for the answer itself.
func TestLetterToQuestionWithoutOptions(t *testing.T) {
	d := newDriver(t, sampleTopic(t, "mathematics/linear-equations/solving-linear-equations"), "letter-none", tutor.ModeTeachMe)
	d.untilAnswering(40, func() bool { return d.pending() != nil })
	ev := answer.Result{Verdict: answer.NotAttempt, Reason: answer.ReasonLetterNoOptions}
	out, _ := teach(agents.Turn{State: d.state, Topic: d.topic, Message: "B", Evaluation: ev, Now: epoch})
	if !says(out.Response, mNoOptions) || out.AnswerCorrect != nil {
		t.Errorf("lesson: %q (judged %v), want the answer asked for, unjudged", out.Response, out.AnswerCorrect)
	}
	if out := exam(agents.Turn{State: d.state, Topic: d.topic, Message: "B", Evaluation: ev}); !says(out.Response, mNoOptions) {
		t.Errorf("exam: %q, want the answer asked for", out.Response)
	}
}

// TestAnswerOfALeftQuestion: once a question is left unanswered, a learner
// who asks for its answer (within the next reply or two) hears it worked
// through; while it is asked, only a clue.
func TestAnswerOfALeftQuestion(t *testing.T) {
	d := newDriver(t, sampleTopic(t, addingIntegers), "left", tutor.ModeTeachMe)
	d.until(20, func() bool { return d.state.LastQuestion != nil })
	bq := d.pending()
	if x := d.say("what's the answer?"); strings.Contains(x.text(), bq.Solution) || says(x.text(), mWalkThrough) {
		t.Fatalf("the answer of a question still asked: %q", x.text())
	}
	for range 6 {
		if d.state.LastQuestion == nil {
			break
		}
		d.say("i dont know")
	}
	if d.state.LastQuestion != nil || !says(d.log[len(d.log)-1].text(), mLeave) {
		t.Fatalf("the question was not left: %q", d.transcript())
	}
	d.say("ok")
	x := d.say("i dont know, what was the answer to that question tho")
	if !says(x.text(), mWalkThrough) || !strings.Contains(x.text(), strings.TrimSpace(solution(*bq))) {
		t.Errorf("the answer of the question left: %q, want %q worked through", x.text(), solution(*bq))
	}
	// A message that names the answer but asks something else is no
	// request for it.
	for _, msg := range []string{"i dont want the answer, why is -3 + -4 negative?", "just tell me why the signs matter"} {
		d := newDriver(t, sampleTopic(t, addingIntegers), "left", tutor.ModeTeachMe)
		d.until(20, func() bool { return d.state.LastQuestion != nil })
		for range 6 {
			if d.state.LastQuestion == nil {
				break
			}
			d.say("i dont know")
		}
		if x := d.say(msg); says(x.text(), mWalkThrough) {
			t.Errorf("%q: %q, want no worked answer", msg, x.text())
		}
	}
}

// TestEquationSlip: a wrong answer whose equations change their solution
// at one step hears which step, not the answer.
func TestEquationSlip(t *testing.T) {
	d := newDriver(t, sampleTopic(t, "mathematics/linear-equations/solving-linear-equations"), "eq-slip", tutor.ModeTeachMe)
	d.untilAsked("twostep-1")
	bq := d.pending()
	x := d.say("4x - 7 = 29, 4x = 36, x = 8")
	if !says(x.text(), mSlipStep) || !strings.Contains(x.text(), "4x = 36") || !strings.Contains(x.text(), "x = 8") || strings.Contains(x.text(), bq.Answer) {
		t.Errorf("a slip between two equations: %q", x.text())
	}
	for _, tc := range []struct{ msg, from, to string }{
		{"7x - 3x = 4x so 4x = 20, x = 4", "4x = 20", "x = 4"},
		{"I got 2x - 7 = 9, 2x = 2, x = 1", "2x - 7 = 9", "2x = 2"},
		{"2x + 3 = 11, 2x = 8, x = 4", "", ""},
		{"x = 5", "", ""},
	} {
		if from, to, _ := equationSlip(tc.msg); from != tc.from || to != tc.to {
			t.Errorf("equationSlip(%q) = %q, %q; want %q, %q", tc.msg, from, to, tc.from, tc.to)
		}
	}
}

// TestAnswerOfTheQuestionBefore: "what was the answer to that?" right
// after the lesson put another question in the place of one hears that
// one worked through, then the new one again, whose answer stays hidden.
func TestAnswerOfTheQuestionBefore(t *testing.T) {
	d := newDriver(t, sampleTopic(t, addingFractions), "before", tutor.ModeTeachMe)
	d.untilAnswering(40, func() bool { q := d.pending(); return q != nil && strings.Contains(q.Concept, "nlike") })
	first := d.pending()
	for range 4 {
		if q := d.pending(); q == nil || q.ID != first.ID {
			break
		}
		d.say("i dont know")
	}
	now := d.pending()
	if now == nil || now.ID == first.ID {
		t.Fatalf("no other question in the place of %s: %q", first.ID, d.transcript())
	}
	x := d.say("what was the answer to that?")
	if !says(x.text(), mWalkThrough) || !strings.Contains(x.text(), strings.TrimSpace(solution(*first))) ||
		!strings.Contains(x.text(), now.Text) || d.state.LastQuestion == nil || d.state.LastQuestion.QuestionID != now.ID {
		t.Errorf("the answer before: %q, want %s worked, then %s again", x.text(), first.ID, now.ID)
	}
}

// TestSlipBeforeKnownMistake: working that reaches an equation whose
// solution is the answer, then slips onto the known mistake's value,
// hears the slip, not the mistake it did not make; working that starts
// from the mistake hears the mistake.
func TestSlipBeforeKnownMistake(t *testing.T) {
	d := newDriver(t, sampleTopic(t, "mathematics/linear-equations/solving-linear-equations"), "slip-first", tutor.ModeTeachMe)
	d.untilAsked("twostep-1")
	if x := d.say("4x = 36, x = 5.5"); !says(x.text(), mSlipStep) || !strings.Contains(x.text(), "4x = 36") {
		t.Errorf("right equation, then the mistake's value: %q, want the slip from 4x = 36", x.text())
	}
	d = newDriver(t, sampleTopic(t, "mathematics/linear-equations/solving-linear-equations"), "slip-first-2", tutor.ModeTeachMe)
	d.untilAsked("twostep-1")
	if x := d.say("4x = 22, x = 5.5"); says(x.text(), mSlipStep) || !strings.Contains(x.text(), "subtracted 7") {
		t.Errorf("the mistake itself: %q, want it named", x.text())
	}
}

// TestHintsOnRequestCount: a hint given because the learner asked for
// help ("give me a hint", "I'm stuck", "help") counts in hints_used, as one
// for "I don't know" does: the session document shows the hints given
// (next_turn.hints), and it showed none of these.
func TestHintsOnRequestCount(t *testing.T) {
	for _, msg := range []string{"give me a hint", "I'm stuck", "help"} {
		t.Run(msg, func(t *testing.T) {
			d, bq := pendingOn(t, ratios, "share-1", 0)
			for level := 1; level <= min(len(bq.Hints), tutor.MaxHints); level++ {
				text := d.say(msg).text()
				if !strings.Contains(text, bq.Hints[level-1]) {
					t.Fatalf("request %d %q: want hint %d %q", level, text, level, bq.Hints[level-1])
				}
				if got := d.state.LastQuestion.HintsUsed; got != level {
					t.Fatalf("after hint %d given on %q: hints_used %d, want %d", level, msg, got, level)
				}
			}
		})
	}
}
