package rules

import (
	"slices"
	"strings"
	"testing"

	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

// TestFactClaims: a science claim that a sentence of the lesson says, or
// says the other way round, hears Yes or No first, then that sentence.
func TestFactClaims(t *testing.T) {
	for _, tc := range []struct {
		msg, fact string
		right     bool
	}{
		{"condensation takes in heat right?", "Freezing and condensation give out heat.", false},
		{"does melting give out heat?", "Melting takes in heat", false},
		{"melting takes in heat right?", "Melting takes in heat", true},
		{"evaporation cools the liquid right?", "Evaporation cools the liquid left behind", true},
		{"so evaporation warms the liquid isnt it", "Evaporation cools the liquid left behind", false},
	} {
		d := newDriver(t, sampleTopic(t, changesOfState), "fact", tutor.ModeClarify)
		x := d.say(tc.msg)
		move, other := mFactWrong, mFactRight
		if tc.right {
			move, other = other, move
		}
		if !says(x.text(), move) || says(x.text(), other) || !strings.Contains(sentences(x.text())[1], tc.fact) {
			t.Errorf("%q: %q, want %v then %q", tc.msg, x.text(), move, tc.fact)
		}
	}
}

// TestFactNotClaimed: no verdict where the terms come the other way round,
// a term of the claim is missing from every sentence, the doubt asks
// rather than claims, or it denies.
func TestFactNotClaimed(t *testing.T) {
	for _, msg := range []string{
		"condensation is when liquid turns into gas right?", // a meaning, set right as such
		"so liquid turns into gas in condensation right?",   // the roles swapped
		"ice takes in heat on mountains right?",             // the lesson says nothing of mountains
		"why does melting take in heat?",                    // asks why
		"melting doesnt give out heat right?",               // a denial
		"heat rises right?",                                 // too little to check
		"freezing takes heat away right?",                   // "away" is no "in"
		"melting takes away heat right?",
	} {
		d := newDriver(t, sampleTopic(t, changesOfState), "fact", tutor.ModeClarify)
		if x := d.say(msg); says(x.text(), mFactRight) || says(x.text(), mFactWrong) {
			t.Errorf("%q: %q, want no verdict on the claim", msg, x.text())
		}
	}
}

// TestFactNoFalseYes: claims whose words come from different parts of one
// sentence, or that a "without" or "only" turns round, get no Yes; and no
// sentence of a science lesson, with one of its words swapped for another
// of its kind, is confirmed.
func TestFactNoFalseYes(t *testing.T) {
	for key, msgs := range map[string][]string{
		"science/states-of-matter/solids-liquids-and-gases": {
			"a liquid has a fixed shape right?", "diffusion is fastest in solids right?", "diffusion is fastest in liquids right?"},
		photosynthesis: {"carbon dioxide is a product right?", "a plant takes in carbon dioxide through its roots right?",
			"so carbon dioxide leaves through the stomata?",
			"a plant takes in carbon dioxide from the soil right?"},
		changesOfState: {"camphor and naphthalene balls get smaller and leave liquid behind right?"},
	} {
		for _, msg := range msgs {
			if _, right, ok := checkFact(sampleTopic(t, key), withSolutions, msg); ok && right {
				t.Errorf("%s: %q confirmed", key, msg)
			}
		}
	}
	swaps := [][2]string{{"solid", "liquid"}, {"liquid", "gas"}, {"gas", "solid"}, {"roots", "leaves"}, {"leaves", "roots"},
		{"air", "soil"}, {"soil", "air"}, {"in", "out"}, {"out", "in"}, {"up", "down"}, {"fastest", "slowest"}, {"faster", "slower"},
		{"gas", "liquid"}, {"products", "raw materials"}, {"raw materials", "products"}, {"oxygen", "carbon dioxide"},
		{"carbon dioxide", "oxygen"}, {"takes in", "gives out"}, {"gives out", "takes in"}, {"heat", "cold"}, {"stem", "roots"},
		{"directly into gas", "directly into liquid"}, {"more", "less"}, {"closely", "far apart"}, {"day", "night"}}
	topics, keys := sampleTopics(t)
	for _, k := range keys {
		tp := topics[k]
		if !strings.EqualFold(tp.Subject, "science") {
			continue
		}
		for _, p := range passages(tp, withSolutions) {
			for _, s := range p.sents {
				for _, sw := range swaps {
					if !strings.Contains(" "+s+" ", " "+sw[0]+" ") {
						continue
					}
					claim := strings.Replace(strings.TrimRight(s, "."), sw[0], sw[1], 1) + ", right?"
					if strings.Contains(" "+s+" ", " "+sw[1]+" ") {
						continue // the swap may say what the sentence says elsewhere
					}
					if _, right, ok := checkFact(tp, withSolutions, claim); ok && right {
						t.Errorf("%s: %q confirmed, from %q", k, claim, s)
					}
				}
			}
		}
	}
}

// TestFactNotBeforeItsQuestion: a lesson says no Yes or No to a claim
// that a question still to come asks.
func TestFactNotBeforeItsQuestion(t *testing.T) {
	d := newDriver(t, sampleTopic(t, "science/states-of-matter/solids-liquids-and-gases"), "fact-unasked", tutor.ModeTeachMe)
	d.say("yes")
	if x := d.say("wait, diffusion is fastest in gases right?"); says(x.text(), mFactRight) || says(x.text(), mFactWrong) {
		t.Errorf("a question to come answered: %q", x.text())
	}
	c := newDriver(t, sampleTopic(t, "science/states-of-matter/solids-liquids-and-gases"), "fact-doubts", tutor.ModeClarify)
	if x := c.say("diffusion is fastest in gases right?"); !says(x.text(), mFactRight) {
		t.Errorf("doubts session: %q, want Yes", x.text())
	}
}

// TestFactClaimsInALesson: a doubt between steps, or after the lesson, is
// checked against the lesson's own sentences.
func TestFactClaimsInALesson(t *testing.T) {
	d := newDriver(t, sampleTopic(t, changesOfState), "fact", tutor.ModeTeachMe)
	d.say("yes")
	if x := d.say("wait, so evaporation warms the liquid right?"); !says(x.text(), mFactWrong) || !strings.Contains(x.text(), "Evaporation cools the liquid") {
		t.Errorf("between steps: %q, want No, then evaporation cools the liquid", x.text())
	}
	d = newDriver(t, sampleTopic(t, changesOfState), "fact-after", tutor.ModeTeachMe)
	completeLesson(t, d, func(tutor.BankQuestion) bool { return false })
	if x := d.say("so evaporation warms the liquid right?"); !says(x.text(), mFactWrong) || !strings.Contains(x.text(), "Evaporation cools the liquid") {
		t.Errorf("after the lesson: %q, want No, then evaporation cools the liquid", x.text())
	}
}

// TestHinglishWords: the Hinglish words of the lessons' things read as
// their English, and grammar and address words say nothing.
func TestHinglishWords(t *testing.T) {
	if got := terms("bhaiya stomata raat ko band hote hai kya?"); !slices.Equal(got, []string{stem("stomata"), "night", stem("closed")}) {
		t.Errorf("terms = %q", got)
	}
	d := newDriver(t, sampleTopic(t, photosynthesis), "hinglish", tutor.ModeTeachMe)
	d.untilAsked("starch-1")
	if x := d.say("neela kala"); x.eval.Verdict != answer.Correct {
		t.Errorf("neela kala for blue-black: %s, %q", x.eval.Verdict, x.text())
	}
}

// TestStarchBlack: "black" for the colour of starch with iodine, as many
// learners see it, is right.
func TestStarchBlack(t *testing.T) {
	d := newDriver(t, sampleTopic(t, photosynthesis), "black", tutor.ModeTeachMe)
	d.untilAsked("starch-1")
	if x := d.say("it goes black"); x.eval.Verdict != answer.Correct {
		t.Errorf("it goes black for blue-black: %s, %q", x.eval.Verdict, x.text())
	}
}
