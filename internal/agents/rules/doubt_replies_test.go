package rules

import (
	"strings"
	"testing"

	"github.com/tutord/tutord/internal/tutor"
)

// Doubts answered from the lesson, in a doubts session and during a
// lesson: each test asks what a learner would and checks what a right reply
// must (or must not) say, whatever its wording.

// askDoubt asks msgs in a fresh doubts session and returns the last reply.
func askDoubt(t *testing.T, key string, msgs ...string) string {
	t.Helper()
	d := newDriver(t, sampleTopic(t, key), "doubt-replies", tutor.ModeClarify)
	var x exchange
	for _, m := range msgs {
		x = d.say(m)
	}
	return x.text()
}

// askInLesson starts a lesson ("yes") and asks msg as a doubt between
// steps, returning the reply.
func askInLesson(t *testing.T, key, msg string) string {
	t.Helper()
	d := newDriver(t, sampleTopic(t, key), "doubt-replies-lesson", tutor.ModeTeachMe)
	d.say("yes")
	return d.say(msg).text()
}

func mentions(s, sub string) bool { return strings.Contains(strings.ToLower(s), strings.ToLower(sub)) }

// A question that opens "in what order …" / "in which order …" asks; it
// puts nothing forward. It must not hear "No, … is a common mistake".
func TestDoubtAfterPrepositionIsNoClaim(t *testing.T) {
	for _, msg := range []string{"in what order do I undo the operations?", "in which order should I undo the operations?"} {
		t.Run(msg, func(t *testing.T) {
			r := askDoubt(t, linearEquations, msg)
			if says(r, mNotSo) || strings.HasPrefix(r, "No") {
				t.Errorf("reply %q tells the learner No, as if the question were a mistake", r)
			}
			if !mentions(r, "reverse order") {
				t.Errorf("reply %q; want the lesson's answer: undo them in reverse order", r)
			}
		})
	}
	t.Run("during a lesson", func(t *testing.T) {
		if r := askInLesson(t, linearEquations, "in what order do I undo the operations?"); strings.HasPrefix(r, "No") {
			t.Errorf("reply %q tells the learner No to an open question", r)
		}
	})
}

// "does an odd number of negative factors give a positive product?": the
// lesson says in one sentence that an odd number gives a negative product.
func TestDoubtOddNegativeFactors(t *testing.T) {
	r := askDoubt(t, multIntegers, "does an odd number of negative factors give a positive product?")
	if !mentions(r, "an odd number gives a negative product") {
		t.Errorf("reply %q; want the lesson's sentence: an odd number of negative factors gives a negative product", r)
	}
}

// A follow-up ("give an example", "why?") after an answer is about that
// answer, not the first sentences of a passage on something else.
func TestDoubtFollowUpStaysOnTheDoubt(t *testing.T) {
	t.Run("condensation, give an example", func(t *testing.T) {
		r := askDoubt(t, changesOfState, "what is condensation?", "give an example")
		if mentions(r, "boil") || mentions(r, "100 °C") {
			t.Errorf("reply %q; an example of condensation, not of boiling", r)
		}
	})
	t.Run("drops on a cold glass, why", func(t *testing.T) {
		r := askDoubt(t, changesOfState, "where do the drops on a cold glass come from?", "why?")
		if mentions(r, "boil") || mentions(r, "100 °C") {
			t.Errorf("reply %q; why the drops form, not about boiling water", r)
		}
	})
	t.Run("unitary method, give an example", func(t *testing.T) {
		r := askDoubt(t, ratios, "what is the unitary method?", "give an example")
		if !mentions(r, "pens") || mentions(r, "in proportion") {
			t.Errorf("reply %q; want the lesson's example of the unitary method (5 pens cost ₹60), not one of proportion", r)
		}
	})
}

// "what does 27% mean?": the lesson says "27% means 27 out of 100".
func TestDoubtPercentSign(t *testing.T) {
	if r := askDoubt(t, percentages, "what does 27% mean?"); !mentions(r, "27 out of 100") {
		t.Errorf("doubts session: reply %q; want 27%% means 27 out of 100", r)
	}
	if r := askInLesson(t, percentages, "what does 27% mean?"); !mentions(r, "27 out of 100") {
		t.Errorf("during the lesson: reply %q; want 27%% means 27 out of 100", r)
	}
}

// "what is the order of operations?" must say the order, not only the
// sentence that leans back on it ("The signs do not change this order.").
func TestDoubtOrderOfOperations(t *testing.T) {
	for _, r := range []string{
		askDoubt(t, multIntegers, "what is the order of operations?"),
		askInLesson(t, multIntegers, "what is the order of operations?"),
	} {
		if !mentions(r, "brackets first") || strings.HasPrefix(r, "The signs do not change this order") {
			t.Errorf("reply %q; want the order itself: brackets first, then multiplication and division, then addition and subtraction", r)
		}
	}
}

// "what does solve mean?" in a doubts session is a doubt about a word the
// glossary defines, not a question that names nothing.
func TestDoubtWhatDoesAGlossaryWordMean(t *testing.T) {
	r := askDoubt(t, linearEquations, "what does solve mean?")
	if says(r, mWhatAbout) || !mentions(r, "both sides equal") {
		t.Errorf("reply %q; want what solving an equation means (find the number that makes both sides equal)", r)
	}
}

// "is oxygen taken in by the plant?": the lesson says oxygen is given out.
func TestDoubtIrregularVerbForms(t *testing.T) {
	r := askDoubt(t, photosynthesis, "is oxygen taken in by the plant?")
	if says(r, mNotInTopic) || !mentions(r, "oxygen is given out") {
		t.Errorf("reply %q; want the lesson's 'Oxygen is given out'", r)
	}
}

// "do gas particles move slowly?" asks whether they are slow: the lesson
// says how fast they move.
func TestDoubtAdverbs(t *testing.T) {
	r := askDoubt(t, "science/states-of-matter/solids-liquids-and-gases", "do gas particles move slowly?")
	if says(r, mNotInTopic) || !mentions(r, "gas particles move fastest") {
		t.Errorf("reply %q; want the lesson's 'gas particles move fastest'", r)
	}
}

// "does evaporation happen below 100 degrees?": the lesson says it happens
// at any temperature, though it never says "below".
func TestDoubtBelowABound(t *testing.T) {
	for _, msg := range []string{"does evaporation happen below 100 degrees?", "can water evaporate below its boiling point?"} {
		if r := askDoubt(t, changesOfState, msg); says(r, mNotInTopic) || !mentions(r, "any temperature") {
			t.Errorf("%s: reply %q; want the lesson's 'at any temperature'", msg, r)
		}
	}
}

// A yes/no doubt in a word the lesson never uses, whose opposite it does
// ("warm" for "cools", "strongly" for "very weak"), is answered by the
// lesson's sentence with the opposite, not refused, nor answered by one
// that leaves the word out ("they attract each other" to "do they attract
// strongly?").
func TestDoubtOppositeWordOfTheLesson(t *testing.T) {
	for _, tc := range []struct{ key, msg, want string }{
		{changesOfState, "does evaporation warm us?", "cool"},
		{changesOfState, "does sweating make us warm?", "cool"},
		{"science/states-of-matter/solids-liquids-and-gases", "do gas particles attract each other strongly?", "very weak attraction"},
	} {
		t.Run(tc.msg, func(t *testing.T) {
			if r := askDoubt(t, tc.key, tc.msg); says(r, mNotInTopic) || !mentions(r, tc.want) {
				t.Errorf("reply %q; want the lesson's answer (%q)", r, tc.want)
			}
		})
	}
}

// A doubt that puts a common mistake forward hears what is right, which
// the lesson says by turning the mistake's word round ("smaller":
// "dividing by a fraction less than 1 gives an answer bigger"), not the
// mistake alone.
func TestDoubtMistakeHearsTheRightWay(t *testing.T) {
	for _, msg := range []string{"does division always make a number smaller?", "does dividing always make the answer smaller?"} {
		t.Run(msg, func(t *testing.T) {
			if r := askDoubt(t, dividingFractions, msg); !mentions(r, "bigger") || strings.HasPrefix(r, "A common mistake") {
				t.Errorf("reply %q; want what the lesson says is right (an answer bigger), not only the mistake", r)
			}
		})
	}
}

// "why is -2 not smaller than -7?" asks about the lesson's comparison the
// other way round ("-2 is greater than -7"), not the rule for adding
// numbers of different signs.
func TestDoubtComparisonTheOtherWayRound(t *testing.T) {
	for _, r := range []string{
		askDoubt(t, addingIntegers, "why is -2 not smaller than -7?"),
		askInLesson(t, addingIntegers, "why is -2 not smaller than -7?"),
	} {
		if !mentions(r, "-2 is greater than -7") || mentions(r, "subtract the smaller size") {
			t.Errorf("reply %q; want 'So -2 is greater than -7, because -2 is further to the right'", r)
		}
	}
}

// "is 12:18 the same as 2:3?" and "does 12:18 simplify to 2:3?" ask
// whether a ratio simplifies so: yes.
func TestDoubtRatioSimplifiedAsked(t *testing.T) {
	for _, msg := range []string{"is 12:18 the same as 2:3?", "does 12:18 simplify to 2:3?"} {
		t.Run(msg, func(t *testing.T) {
			if r := askDoubt(t, ratios, msg); !strings.HasPrefix(r, "Yes") {
				t.Errorf("reply %q; want Yes, 12 : 18 = 2 : 3", r)
			}
		})
	}
	if r := askDoubt(t, ratios, "is 2:3 the same as 3:2?"); !strings.HasPrefix(r, "No") || strings.Contains(r, "2 : 3 = 2 : 3") {
		t.Errorf("reply %q; want No, the ratio the other way round (and no 2 : 3 = 2 : 3)", r)
	}
}

// "do I flip the first fraction?": the lesson says what is turned upside
// down, only the divisor (the second number).
func TestDoubtFlipTheFirstFraction(t *testing.T) {
	if r := askDoubt(t, dividingFractions, "do I flip the first fraction?"); !mentions(r, "only the divisor") {
		t.Errorf("reply %q; want 'Only the divisor (the second number) is turned upside down'", r)
	}
}

// "what colour is iodine?": the sentence that names iodine's colour
// ("Iodine is brown"), not one that uses the word "colour".
func TestDoubtWhatColour(t *testing.T) {
	for _, r := range []string{
		askDoubt(t, photosynthesis, "what colour is iodine?"),
		askInLesson(t, photosynthesis, "what colour is iodine?"),
	} {
		if !mentions(r, "brown") {
			t.Errorf("reply %q; want 'Iodine is brown'", r)
		}
	}
}

// "does evaporation happen all through the liquid?": what the lesson says
// evaporation does ("It happens … only at the surface", after "Evaporation
// is different from boiling."), not boiling's "all through the liquid"
// alone.
func TestDoubtWhatAThingDoesAfterAPronoun(t *testing.T) {
	for _, r := range []string{
		askDoubt(t, changesOfState, "does evaporation happen all through the liquid?"),
		askInLesson(t, changesOfState, "does evaporation happen all through the liquid?"),
	} {
		if !mentions(r, "only at the surface") {
			t.Errorf("reply %q; want that evaporation happens only at the surface", r)
		}
	}
}

// A worked solution's sentence that says the whole doubt answers it
// before lesson sentences that name its subject only in their step's
// title ("does photosynthesis happen in the dark?" is no doubt about a
// plant kept in the dark to destarch it) or leave a word out ("give out").
func TestDoubtSentenceThatSaysItAll(t *testing.T) {
	for _, tc := range []struct{ key, msg, want string }{
		{photosynthesis, "does photosynthesis happen in the dark?", "does not take place in the dark"},
		{changesOfState, "does freezing give out heat?", "Freezing and condensation give out heat"},
	} {
		t.Run(tc.msg, func(t *testing.T) {
			if r := askDoubt(t, tc.key, tc.msg); !mentions(r, tc.want) {
				t.Errorf("reply %q; want the lesson's %q", r, tc.want)
			}
		})
	}
}

// "what is the difference between X and Y?" is answered with what the
// lesson says of each side, in a doubts session and during a lesson: not
// refused for its comparing words, nor answered for one side only.
func TestDoubtDifferenceBetweenTwoThings(t *testing.T) {
	for _, tc := range []struct {
		key, msg string
		want     []string // what the lesson says of each side
	}{
		{ratios, "what is the difference between a ratio and a proportion?", []string{"a ratio compares", "proportion when"}},
		{addingFractions, "what is the difference between like and unlike fractions?", []string{"same denominator", "different denominators"}},
		{statesOfMatter, "what is the difference between a solid and a liquid?", []string{"in a solid", "in a liquid"}},
		{statesOfMatter, "whats the difference between a liquid and a gas", []string{"in a liquid", "in a gas"}},
	} {
		t.Run(tc.msg, func(t *testing.T) {
			for _, r := range []string{askDoubt(t, tc.key, tc.msg), askInLesson(t, tc.key, tc.msg)} {
				if says(r, mNotInTopic) {
					t.Errorf("reply %q refuses the doubt", r)
				}
				for _, w := range tc.want {
					if !mentions(r, w) {
						t.Errorf("reply %q; want what the lesson says of both sides (%q)", r, w)
					}
				}
			}
		})
	}
}

// twoSides finds the two things a "difference between" doubt compares;
// a side of one word shares the other's noun.
func TestDoubtDifferenceSides(t *testing.T) {
	for _, tc := range []struct{ msg, x, y string }{
		{"what is the difference between like and unlike fractions?", "like fractions", "unlike fractions"},
		{"difference between a solid and a liquid", "a solid", "a liquid"},
	} {
		if x, y, ok := twoSides(tc.msg); !ok || x != tc.x || y != tc.y {
			t.Errorf("twoSides(%q) = %q, %q, %v; want %q, %q", tc.msg, x, y, ok, tc.x, tc.y)
		}
	}
	for _, msg := range []string{"what is the difference between -3 and 5?", "what is a ratio?"} {
		if x, y, ok := twoSides(msg); ok {
			t.Errorf("twoSides(%q) = %q, %q; want no two sides", msg, x, y)
		}
	}
}
