package rules

import (
	"strings"
	"testing"

	"github.com/tutord/tutord/internal/tutor"
)

func TestRestated(t *testing.T) {
	for _, tc := range []struct{ key, msg, want string }{
		{photosynthesis, "so plants eat soil for food?", "Believing that plants get their food from the soil"},
		{photosynthesis, "why do plants get their food from the soil?", "Believing that plants get their food from the soil"},
		{photosynthesis, "so plants don't get food from the soil?", ""},
		{photosynthesis, "do plants breathe at night", ""},
		{photosynthesis, "what food do plants get from the soil?", ""},
		{photosynthesis, "so oxygen is a raw material?", "Thinking that oxygen is a raw material of photosynthesis"},
		{"science/states-of-matter/solids-liquids-and-gases", "so gases have no mass because they cannot be seen?", "Thinking that gases have no mass because they cannot be seen"},
		{"science/states-of-matter/solids-liquids-and-gases", "gases have mass right?", ""},
		{"mathematics/fractions/multiplying-fractions", "does multiplying always make a number bigger?", "Believing that multiplying always makes a number bigger"},
		{"mathematics/fractions/multiplying-fractions", "ok", ""},
		// Neighbours of a misconception, which are right.
		{photosynthesis, "is oxygen a product of photosynthesis?", ""},
		{photosynthesis, "do plants make food in the day?", ""},
		{photosynthesis, "is water a raw material of photosynthesis?", ""},
		{"mathematics/fractions/multiplying-fractions", "can multiplying make a number smaller?", ""},
		{"science/states-of-matter/changes-of-state", "does the temperature stay the same while ice melts?", ""},
		{"science/states-of-matter/changes-of-state", "does evaporation happen below the boiling point?", ""},
		{"mathematics/linear-equations/variable-on-both-sides", "should we change the sign when moving a term across the equals sign?", ""},
		{"mathematics/linear-equations/variable-on-both-sides", "do we multiply every term inside the bracket?", ""},
		{"mathematics/fractions/dividing-fractions", "do we take the reciprocal of the divisor?", ""},
	} {
		got, ok := restated(sampleTopic(t, tc.key), tc.msg)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("restated(%s, %q) = %q, %v; want %q", tc.key, tc.msg, got, ok, tc.want)
		}
	}
}

// A question that puts forward a common misconception hears "No" first, in a lesson and in a doubts session, with the lesson's right idea
// and without the misconception said twice.
func TestRestatedMistakeCorrected(t *testing.T) {
	topic := sampleTopic(t, photosynthesis)
	for _, mode := range []tutor.Mode{tutor.ModeTeachMe, tutor.ModeClarify} {
		d := newDriver(t, topic, "restated", mode)
		if mode == tutor.ModeTeachMe {
			d.say("yes")
		}
		x := d.say("so plants eat soil for food?")
		if !says(x.text(), mNotSo) || !strings.Contains(x.text(), "believing that plants get their food from the soil") ||
			strings.Count(strings.ToLower(x.text()), "common mistake") != 1 {
			t.Errorf("%s: %q", mode, x.text())
		}
	}
}
