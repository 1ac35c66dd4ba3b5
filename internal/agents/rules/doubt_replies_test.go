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
