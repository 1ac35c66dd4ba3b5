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
		{"science/states-of-matter/solids-liquids-and-gases", "gases dont weigh anything right?", "Thinking that gases have no mass because they cannot be seen"},
		{"science/states-of-matter/solids-liquids-and-gases", "do gases weigh anything?", ""},
		{"science/states-of-matter/solids-liquids-and-gases", "so gases have no mass because you can't see them?", "Thinking that gases have no mass because they cannot be seen"},
		// Signs said as learners say them, and a tag that asks, not denies.
		{multIntegers, "a negative times a negative is negative isnt it", "Thinking that the product of two negative numbers is negative"},
		{multIntegers, "so minus into minus is minus?", "Thinking that the product of two negative numbers is negative"},
		{multIntegers, "so two negatives multiplied is a negative?", "Thinking that the product of two negative numbers is negative"},
		{multIntegers, "a negative times a negative is positive isnt it", ""},
		{multIntegers, "is a negative times a positive negative?", ""},
		{multIntegers, "minus times minus is plus?", ""},
		{multIntegers, "but minus into minus is plus", ""},
		{multIntegers, "a negative times a negative times a negative is negative right?", ""},
		{"science/states-of-matter/changes-of-state", "boiling only happens at 100 right?", ""},
		{"science/states-of-matter/changes-of-state", "but boiling only happens at the boiling point", ""},
		{"science/states-of-matter/changes-of-state", "but what about evaporation only at 100", ""},
		{"science/states-of-matter/solids-liquids-and-gases", "gases dont weigh much though", ""},
		{"science/states-of-matter/solids-liquids-and-gases", "is it wrong that particles expand, because my teacher said they dont?", ""},
		{"mathematics/fractions/dividing-fractions", "does division always make a number smaller every time?", "Believing that division always makes a number smaller"},
		{"mathematics/ratios-and-percentages/percentages", "0.5 is 50% though", ""},
		{addingIntegers, "but -2 is greater than -7", ""},
		// A learner who takes the mistake back, or sets a condition on it,
		// has it right.
		{photosynthesis, "plants get their food from the soil? no wait, they make it in their leaves right?", ""},
		{"science/states-of-matter/changes-of-state", "evaporation only happens at the boiling point? no, it happens at any temperature right?", ""},
		{"mathematics/fractions/multiplying-fractions", "multiplying a number by something more than one always makes it bigger right?", ""},
		{"mathematics/fractions/dividing-fractions", "dividing by a number more than one always makes it smaller right?", ""},
		{addingIntegers, "is minus 7 greater than minus 2?", "Thinking that -7 is greater than -2 because 7 is greater than 2"},
		{"mathematics/fractions/dividing-fractions", "so dividing always makes a number less?", "Believing that division always makes a number smaller"},
		{"science/states-of-matter/changes-of-state", "the temperature keeps rising a bit while ice melts right?", "Thinking that the temperature keeps rising while ice melts"},
		// A misconception in a longer message, in everyday words, beside
		// words of where and when.
		{photosynthesis, "plants get their food from the soil right? thats why we put fertiliser", "Believing that plants get their food from the soil"},
		{"science/states-of-matter/changes-of-state", "while ice is melting the temp keeps going up na", "Thinking that the temperature keeps rising while ice melts"},
		{"science/states-of-matter/solids-liquids-and-gases", "when iron is heated the particles themselves get bigger isnt it", "Thinking that particles themselves expand or melt, rather than moving differently"},
		{"mathematics/fractions/multiplying-fractions", "does multiplying always make a number bigger?", "Believing that multiplying always makes a number bigger"},
		{"mathematics/fractions/multiplying-fractions", "ok", ""},
		// An objection puts a claim forward as a question does.
		{"mathematics/fractions/multiplying-fractions", "multiplying always makes it bigger though", "Believing that multiplying always makes a number bigger"},
		{"mathematics/fractions/multiplying-fractions", "but multiplying always makes a number bigger", "Believing that multiplying always makes a number bigger"},
		{"mathematics/fractions/multiplying-fractions", "multiplying always makes it bigger", ""},
		{"mathematics/fractions/multiplying-fractions", "but can we go on now", ""},
		{"science/states-of-matter/changes-of-state", "evaporation only at 100 right", "Thinking that evaporation only happens at the boiling point"},
		// What someone said, other words for the same thing, and a
		// misconception's correction left out of the match.
		{photosynthesis, "but my didi said plants get food from soil. is that right?", "Believing that plants get their food from the soil"},
		{photosynthesis, "do plants make food at night also?", "Believing that plants make food at night as well as in the day"},
		{"science/states-of-matter/changes-of-state", "evaporation only happens at 100 degree right?", "Thinking that evaporation only happens at the boiling point"},
		{"science/states-of-matter/solids-liquids-and-gases", "do particles get bigger when heated?", "Thinking that particles themselves expand or melt, rather than moving differently"},
		{"science/states-of-matter/solids-liquids-and-gases", "do particles in a solid move at all? my book says they dont", "Thinking that the particles of a solid do not move at all"},
		{"science/states-of-matter/solids-liquids-and-gases", "do particles move faster when heated?", ""},
		{"science/states-of-matter/solids-liquids-and-gases", "do particles in a solid move at all?", ""},
		{"science/states-of-matter/changes-of-state", "does evaporation happen at 100 degrees too?", ""},
		{"science/states-of-matter/changes-of-state", "is 100 degrees the boiling point of water?", ""},
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
	for _, tc := range []struct{ key, msg, mistake string }{
		{photosynthesis, "so plants eat soil for food?", "believing that plants get their food from the soil"},
		{"mathematics/fractions/multiplying-fractions", "multiplying always makes bigger though", "believing that multiplying always makes a number bigger"},
	} {
		for _, mode := range []tutor.Mode{tutor.ModeTeachMe, tutor.ModeClarify} {
			d := newDriver(t, sampleTopic(t, tc.key), "restated", mode)
			if mode == tutor.ModeTeachMe {
				d.say("yes")
			}
			x := d.say(tc.msg)
			if !says(x.text(), mNotSo) || !strings.Contains(x.text(), tc.mistake) ||
				strings.Count(strings.ToLower(x.text()), "common mistake") != 1 {
				t.Errorf("%s, %q: %q", mode, tc.msg, x.text())
			}
		}
	}
}

// After the "No", what sets the misconception right: the fix of a bank
// question whose own misconception says much the same, in a doubts
// session; in a lesson only once that question was asked (its fix gives
// its answer away). A fix for another misconception is not borrowed.
func TestRestatedRightIdea(t *testing.T) {
	topic := sampleTopic(t, photosynthesis)
	c := newDriver(t, topic, "right-idea", tutor.ModeClarify)
	if x := c.say("do plants make food at night also?"); !says(x.text(), mNotSo) || !strings.Contains(x.text(), "does not take place in the dark") {
		t.Errorf("night, doubts: %q", x.text())
	}
	if x := c.say("but my didi said plants get food from soil. is that right?"); !says(x.text(), mNotSo) || strings.Contains(x.text(), "dark") {
		t.Errorf("soil, doubts: %q", x.text())
	}
	d := newDriver(t, topic, "right-idea-lesson", tutor.ModeTeachMe)
	d.say("yes")
	if x := d.say("do plants make food at night also?"); !says(x.text(), mNotSo) || strings.Contains(x.text(), "does not take place in the dark") {
		t.Errorf("night, lesson, its question to come: %q", x.text())
	}
	// A short question the lesson's answer already takes for the
	// misconception: "No" too.
	g := newDriver(t, sampleTopic(t, "science/states-of-matter/changes-of-state"), "right-idea-glass", tutor.ModeClarify)
	if x := g.say("so the glass is leaking?"); !says(x.text(), mNotSo) || !strings.Contains(x.text(), "water vapour") {
		t.Errorf("glass, doubts: %q", x.text())
	}
	v := newDriver(t, sampleTopic(t, "mathematics/fractions/dividing-fractions"), "right-idea-divide", tutor.ModeClarify)
	if x := v.say("dividing always makes smaller right?"); !says(x.text(), mNotSo) {
		t.Errorf("dividing, doubts: %q", x.text())
	}
	if x := v.say("can dividing make a number bigger?"); says(x.text(), mNotSo) {
		t.Errorf("a right idea told No: %q", x.text())
	}
	s := newDriver(t, sampleTopic(t, "science/states-of-matter/solids-liquids-and-gases"), "right-idea-particles", tutor.ModeClarify)
	if x := s.say("do particles get bigger when heated?"); !says(x.text(), mNotSo) || !strings.Contains(x.text(), "Gas particles move quickly") {
		t.Errorf("particles, doubts: %q", x.text())
	}
	// The reason a misconception gives ("because they cannot be seen") is
	// no part of what sets it right.
	if x := s.say("gases dont weigh anything right?"); !says(x.text(), mNotSo) || !strings.Contains(x.text(), "it has mass") {
		t.Errorf("gases, doubts: %q", x.text())
	}
	m := newDriver(t, sampleTopic(t, multIntegers), "right-idea-signs", tutor.ModeClarify)
	if x := m.say("a negative times a negative is negative isnt it"); !says(x.text(), mNotSo) || !strings.Contains(x.text(), "positive") {
		t.Errorf("signs, doubts: %q", x.text())
	}
}

// A right idea that sounds like a common mistake hears the right idea, not
// the mistake alone as if it were what the learner said; and "na" asks as
// "right?" does.
func TestRightIdeaBeforeAMistake(t *testing.T) {
	for _, tc := range []struct {
		key, msg, want string
		no             bool
	}{
		{photosynthesis, "carbon dioxide and water are the raw materials isnt it", "raw materials of photosynthesis", false},
		{multIntegers, "two negatives make a positive only in multiplication, not in adding right?", "Each pair of negative factors gives a positive product. A common mistake", false},
		{linearEquations, "when + 7 moves across it becomes - 7 isnt it", "Moving +7 across the equals sign as -7", false},
		{photosynthesis, "plants make food at night also na", "does not take place in the dark", true},
	} {
		d := newDriver(t, sampleTopic(t, tc.key), "right-idea-first", tutor.ModeClarify)
		x := d.say(tc.msg)
		if !strings.Contains(x.text(), tc.want) || says(x.text(), mNotSo) != tc.no || strings.HasPrefix(x.text(), "A common mistake") {
			t.Errorf("%q: %q, want %q (No: %t)", tc.msg, x.text(), tc.want, tc.no)
		}
	}
}

// TestMistakeAloneGetsTheLessonsAnswer: a doubt whose answer would be
// nothing but a common mistake ("how can dividing make it bigger?
// dividing makes smaller na") hears what the lesson says of it first.
func TestMistakeAloneGetsTheLessonsAnswer(t *testing.T) {
	for _, mode := range []tutor.Mode{tutor.ModeClarify, tutor.ModeTeachMe} {
		d := newDriver(t, sampleTopic(t, "mathematics/fractions/dividing-fractions"), "mistake-alone", mode)
		if mode == tutor.ModeTeachMe {
			d.say("yes")
		}
		x := d.say("wait how can dividing make it bigger. dividing makes smaller na")
		if !strings.Contains(x.text(), "gives an answer bigger than the number divided") {
			t.Errorf("%s: %q, want why dividing by a fraction less than 1 makes it bigger", mode, x.text())
		}
	}
}
