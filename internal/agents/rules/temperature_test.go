package rules

import (
	"strings"
	"testing"

	"github.com/tutord/tutord/internal/tutor"
)

const changesOfState = "science/states-of-matter/changes-of-state"

// A temperature a doubt puts forward hears Yes or No first, then the
// sentence of the lesson that states the right one.
func TestTemperatureClaims(t *testing.T) {
	for _, tc := range []struct {
		msg, value, first string
		right             bool
	}{
		{"water boils at 90 degrees right?", "90 °C", "100 °C", false},
		{"melting point of ice is 100 degrees right", "100 °C", "Pure ice melts at 0 °C", false},
		{"water freezes at 4 °C?", "4 °C", "cooled to 0 °C", false},
		{"ice melts at 0 degrees right?", "0 °C", "Pure ice melts at 0 °C", true},
		{"boiling point of water is 100 °C na", "100 °C", "100 °C at sea level", true},
		{"is 100 degrees the boiling point of water?", "100 °C", "100 °C at sea level", true},
		{"the temperature stays at 0 while ice melts right", "0 °C", "temperature stays at 0 °C", true},
		{"water boils at 100.0 degrees right?", "100 °C", "100 °C at sea level", true},
	} {
		d := newDriver(t, sampleTopic(t, changesOfState), "temp", tutor.ModeClarify)
		x := d.say(tc.msg)
		sents := sentences(x.text())
		move, other := mValueWrong, mValueRight
		if tc.right {
			move, other = other, move
		}
		if !says(sents[0], move) || says(x.text(), other) || !strings.Contains(sents[0], tc.value) || !strings.Contains(sents[1], tc.first) {
			t.Errorf("%q: %q, want %v on %s first, then the sentence with %q", tc.msg, x.text(), move, tc.value, tc.first)
		}
	}
}

// No verdict where the doubt claims no one temperature of one thing, or
// the lesson states none for it.
func TestTemperatureNotClaimed(t *testing.T) {
	for _, msg := range []string{
		"why does water boil at 100 degrees?",             // asks why
		"water boils at 100 degrees on mountains also?",   // the lesson says nothing of mountains
		"ice melts at 0 and water boils at 100 right?",    // two claims
		"water doesnt boil at 90 right?",                  // a denial
		"so 100 degrees is 100 percent hot right?",        // not a temperature
		"water boils at 100 degrees at sea level because", // no question
		"water boils at 100°F right?",                     // another scale
		"ice melts at 0°F right?",
		"water boils at 212 °F right?",
		"water boils at 373 K right?",
		"water boils at more than 90 degrees right?", // a bound
		"water can boil at 90 degrees right?",        // it can, up a mountain
	} {
		d := newDriver(t, sampleTopic(t, changesOfState), "temp", tutor.ModeClarify)
		if x := d.say(msg); says(x.text(), mValueRight) || says(x.text(), mValueWrong) {
			t.Errorf("%q: %q, want no verdict on a temperature", msg, x.text())
		}
	}
	// A maths lesson's temperatures are sums, checked as such.
	d := newDriver(t, sampleTopic(t, "mathematics/integers/adding-and-subtracting-integers"), "temp", tutor.ModeClarify)
	if x := d.say("if it is -3 degrees and it gets 5 degrees warmer its 2 degrees right?"); says(x.text(), mValueRight) || says(x.text(), mValueWrong) {
		t.Errorf("integers: %q, want no temperature verdict", x.text())
	}
}

// In a lesson too: a doubt between steps and one after the lesson.
func TestTemperatureClaimsInALesson(t *testing.T) {
	d := newDriver(t, sampleTopic(t, changesOfState), "temp", tutor.ModeTeachMe)
	d.say("yes")
	if x := d.say("wait, water boils at 90 degrees right?"); !says(x.text(), mValueWrong) || !strings.Contains(x.text(), "100 °C") {
		t.Errorf("between steps: %q, want No, then 100 °C", x.text())
	}
	d = newDriver(t, sampleTopic(t, changesOfState), "temp-after", tutor.ModeTeachMe)
	completeLesson(t, d, func(tutor.BankQuestion) bool { return false })
	if x := d.say("water freezes at 4 °C right?"); !says(x.text(), mValueWrong) || !strings.Contains(x.text(), "cooled to 0 °C") {
		t.Errorf("after the lesson: %q, want No, then water freezes at 0 °C", x.text())
	}

}
