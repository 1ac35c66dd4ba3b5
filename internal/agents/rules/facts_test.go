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
		{"freezing takes in heat?", "Freezing and condensation give out heat.", false},
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
	} {
		d := newDriver(t, sampleTopic(t, changesOfState), "fact", tutor.ModeClarify)
		if x := d.say(msg); says(x.text(), mFactRight) || says(x.text(), mFactWrong) {
			t.Errorf("%q: %q, want no verdict on the claim", msg, x.text())
		}
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
