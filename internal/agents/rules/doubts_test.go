package rules

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"weak"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/tutor"
)

const (
	linearEquations = "mathematics/linear-equations/solving-linear-equations"
	addingIntegers  = "mathematics/integers/adding-and-subtracting-integers"
	multIntegers    = "mathematics/integers/multiplying-and-dividing-integers"
)

// TestClarifyDoubtsFromTheLesson asks doubts that were once refused or
// answered with an unrelated sentence, and a few that already worked:
// each must quote the sentence of the lesson that answers it, none of the
// misleading ones, and not open mid-thought.
func TestClarifyDoubtsFromTheLesson(t *testing.T) {
	tests := []struct {
		topic string
		msg   string
		from  []string // phrases the answer should quote
		not   []string // phrases the answer must not quote
	}{
		// "bigger" is the lesson's "greater".
		{addingIntegers, "why is -2 bigger than -7? 7 is bigger than 2", []string{"So -2 is greater than -7"}, nil},
		// "zero" is the lesson's "0", "division" its "dividing".
		{multIntegers, "can we divide by zero?", []string{"Dividing by 0 is not possible."}, nil},
		// A word of the lesson's title it never explains is said in the
		// words its text uses.
		{linearEquations, "what is a variable?", []string{"the number x is unknown"}, nil},
		// "the difference between" frames a comparison.
		{linearEquations, "whats the difference between an expression and an equation", []string{"An equation says that two expressions are equal"}, nil},
		// An equation of the form of the lesson's two-step example, and
		// the sentence that finishes that example's thought.
		{linearEquations, "how do I solve 2x + 3 = 11?", []string{"In 3x - 5 = 16, two things were done to x", "Undo them in reverse order."}, []string{"x/4", "expand"}},
		// "to the other side" is the balance.
		{linearEquations, "when I move +5 to the other side does it become -5?", []string{"doing the same thing to both sides"}, []string{"A number increased by 9"}},
		// A sentence leaning back comes with the one it leans on.
		{linearEquations, "why do we do the same thing to both sides?", []string{"In x + 7 = 15, the number x is unknown. To find it, we keep the balance level"}, nil},
		// "-" between numbers subtracts; the lesson works the very sum.
		{addingIntegers, "what is 5 - (-3)?", []string{"Example: 5 - (-3) = 5 + 3 = 8.", "adding its opposite"}, []string{"If both numbers have the same sign"}},
		// A sum of two negative numbers, as the lesson works one.
		{addingIntegers, "my teacher said two negatives make a positive so is -3 + -4 = 7?", []string{"-5 + (-3) = -8"}, []string{"Two short rules"}},
		// "x" between numbers multiplies.
		{multIntegers, "what is (-7) x 6", []string{"the product is negative"}, []string{"÷"}},
		{multIntegers, "what is (-7) * 6?", []string{"the product is negative"}, []string{"÷"}},
		// "the old price" is the lesson's "original amount".
		{"mathematics/ratios-and-percentages/percentages", "why do we divide by the old price and not the new price?", []string{"compares the change with the original amount"}, nil},
		// Words the lessons define.
		{addingFractions, "why do we need the LCM? cant we just use any number?", []string{"Any common multiple works"}, nil},
		{ratios, "what is HCF again?", []string{"the largest number that divides both"}, nil},
		{"mathematics/fractions/dividing-fractions", "what is numerator again?", []string{"numerator (the top number)"}, nil},
		// Regression checks: doubts that already worked.
		{addingIntegers, "what is an additive inverse", []string{"called its additive inverse"}, nil},
		{addingIntegers, "how do I add -8 and 5?", []string{"to add a negative number, move left"}, nil},
		{linearEquations, "how do I turn a word problem into an equation?", []string{"choose a letter for the unknown number"}, nil},
		{multIntegers, "what is (-24) ÷ 6?", []string{"we get (-24) ÷ 6 = -4"}, nil},
		{multIntegers, "why is a negative times a negative positive?", []string{"Look at a pattern", "the product is positive"}, nil},
		// Signs said as operations, and the pattern that shows why.
		{multIntegers, "why is minus times minus a plus?", []string{"Look at a pattern", "(-1) × (-2) = 2"}, []string{"brackets first"}},
		{multIntegers, "why is minus into minus plus?", []string{"Look at a pattern", "the product is positive"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.topic+"/"+tt.msg, func(t *testing.T) {
			d := newDriver(t, sampleTopic(t, tt.topic), "doubts", tutor.ModeClarify)
			x := d.say(tt.msg)
			if says(x.text(), mNotInTopic) || !closes(x.text()) {
				t.Fatalf("reply %q; want an answer from the lesson and one closing question", x.text())
			}
			for _, f := range tt.from {
				if !strings.Contains(x.text(), f) {
					t.Errorf("reply %q; want it to quote %q", x.text(), f)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(x.text(), n) {
					t.Errorf("reply %q quotes %q", x.text(), n)
				}
			}
			if leansBack(sentences(x.text())[0]) || strings.HasPrefix(x.text(), "A common mistake") {
				t.Errorf("reply %q opens mid-thought or with a mistake", x.text())
			}
		})
	}
}

func TestLeansBackOpeningClause(t *testing.T) {
	for sent, want := range map[string]bool{
		"To find it, we keep the balance level by doing the same thing to both sides.": true,
		"Undo them in reverse order.":                              true,
		"This is called sublimation.":                              true,
		"In x + 7 = 15, the number x is unknown.":                  false,
		"If x is divided by a number, multiply to undo it.":        false,
		"Subtracting a number is the same as adding its opposite.": false,
	} {
		if got := leansBack(sent); got != want {
			t.Errorf("leansBack(%q) = %t, want %t", sent, got, want)
		}
	}
}

func TestNotationForms(t *testing.T) {
	tests := []struct {
		text      string
		read, ops []string
		forms     []string
	}{
		{"what is 5 - (-3)?", []string{"negativ"}, []string{"subtract"}, []string{"form:p-n"}},
		{"is -3 + -4 = 7?", []string{"negativ"}, []string{"add"}, []string{"form:n+n"}},
		{"-5 + (-3) = -8", []string{"negativ"}, []string{"add"}, []string{"form:n+n"}},
		{"what is (-7) x 6", []string{"negativ"}, []string{"multiply", "product"}, []string{"form:n×p"}},
		{"6 × (-3) = -18", []string{"negativ"}, []string{"multiply", "product"}, []string{"form:n×p"}},
		{"how do I solve 2x + 3 = 11?", nil, nil, []string{"form:ax±b=c"}},
		{"In x + 7 = 15, the number x is unknown.", nil, nil, []string{"form:x±b=c"}},
		{"what is 3/4 - 1/4?", []string{"fraction", "sam", "denominator", "lik"}, []string{"subtract"}, nil},
		{"what is 3/4?", []string{"fraction"}, nil, nil},
		{"why is -2 bigger than -7?", []string{"negativ"}, nil, nil},
	}
	for _, tt := range tests {
		read, ops := notation(tt.text)
		if !slices.Equal(read, tt.read) || !slices.Equal(ops, tt.ops) || !slices.Equal(forms(tt.text), tt.forms) {
			t.Errorf("%q: notation %q, %q, forms %q; want %q, %q, %q", tt.text, read, ops, forms(tt.text), tt.read, tt.ops, tt.forms)
		}
	}
}

func TestLessonTermsOperations(t *testing.T) {
	if got, want := lessonTerms("Division undoes multiplication"), lessonTerms("dividing undoes multiplying"); !slices.Equal(got, want) {
		t.Errorf("lessonTerms: %q, want %q", got, want)
	}
}

// TestReadingOnce: a topic's passages and term weights are worked out once
// for each source and shared by every question after that; they go when
// the topic does.
func TestReadingOnce(t *testing.T) {
	tp := sampleTopic(t, photosynthesis)
	a, b := readingOf(tp, withHints), readingOf(tp, withHints)
	if a != b || readingOf(tp, lessonOnly) == a {
		t.Fatal("a topic's reading is worked out again, or shared between sources")
	}
	q := "why are leaves green?"
	explain(tp, withHints, q, 2, nil)
	if got, want := fmt.Sprint(explain(tp, withHints, q, 2, nil)), fmt.Sprint(explainFresh(tp, withHints, q)); got != want {
		t.Fatalf("explain from the shared reading: %s; from a fresh one: %s", got, want)
	}

	other := *tp
	k := readingKey{weak.Make(&other), withHints}
	readingOf(&other, withHints)
	for range 100 {
		runtime.GC()
		if _, ok := readings.Load(k); !ok {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the reading of a topic that is gone is kept")
}

// explainFresh is explain on a reading made for this call alone.
func explainFresh(t *tutor.Topic, src source, q string) (string, []string, bool) {
	cp := *t
	defer readings.Delete(readingKey{weak.Make(&cp), src})
	return explain(&cp, src, q, 2, nil)
}

// BenchmarkExplain answers a doubt from a lesson, as a learner's question
// during the lesson is answered.
func BenchmarkExplain(b *testing.B) {
	tp := sampleTopic(b, addingFractions)
	for b.Loop() {
		explain(tp, withHints, "what does that mean?", 2, nil)
	}
}

// TestLeadInGoesOn: an answer never ends on a lead-in ("Evaporation is
// different.") without the sentence it leads to.
func TestLeadInGoesOn(t *testing.T) {
	tp := sampleTopic(t, "science/states-of-matter/changes-of-state")
	for _, q := range []string{"what is the difference between evaporation and boiling?", "what is evaporation?"} {
		_, sents, ok := explain(tp, withHints, q, 2, nil)
		i := slices.Index(sents, "Evaporation is different from boiling.")
		if !ok || i < 0 || i+1 == len(sents) || !strings.HasPrefix(sents[i+1], "It happens at any temperature") {
			t.Errorf("%q: answer %q; want the lead-in with what it leads to", q, sents)
		}
	}
}

// TestPerCent: "percent" in a doubt finds the lesson's "per cent".
func TestPerCent(t *testing.T) {
	tp := sampleTopic(t, percentages)
	for _, q := range []string{"what does percent mean?", "what does per cent mean?"} {
		_, sents, ok := explain(tp, withHints, q, 2, nil)
		if !ok || !strings.HasPrefix(strings.Join(sents, " "), "Per cent means") {
			t.Errorf("%q: answer %q; want what per cent means", q, sents)
		}
	}
}

// TestDoubtsInContext: "percent" in a how-to question is a percentage; an
// answer never opens on a sentence that leans on one before it ("So a
// solid ...", "Using ..., it turns them ...").
func TestDoubtsInContext(t *testing.T) {
	for _, tc := range []struct{ key, q, want, notFirst string }{
		{percentages, "how do I change 0.5 into a percent", "To turn a decimal into a percentage", ""},
		{"science/nutrition-in-plants/photosynthesis", "what is chlorophyll?", "chlorophyll", "Using the energy of sunlight"},
		{"science/states-of-matter/solids-liquids-and-gases", "why can't you squash a solid?", "packed closely", "So a solid"},
	} {
		_, sents, ok := explain(sampleTopic(t, tc.key), withHints, tc.q, 2, nil)
		if !ok || !strings.Contains(strings.Join(sents, " "), tc.want) || tc.notFirst != "" && strings.HasPrefix(sents[0], tc.notFirst) {
			t.Errorf("%q: answer %q; want %q, not opening with %q", tc.q, sents, tc.want, tc.notFirst)
		}
	}
}

// TestConclusionsStillCorrectMistakes: a sentence that concludes ("So -2
// is greater than -7, ...") cannot open an answer, but still says the
// right way against a common mistake.
func TestConclusionsStillCorrectMistakes(t *testing.T) {
	const s = "So -2 is greater than -7, because -2 is further to the right."
	if !followsOn(s) || leansBack(s) {
		t.Fatalf("followsOn %t, leansBack %t; want a conclusion that does not lean back", followsOn(s), leansBack(s))
	}
	tp := sampleTopic(t, "mathematics/integers/adding-and-subtracting-integers")
	if _, right, _ := rightWay(readingOf(tp, lessonOnly).tiers[0], lessonTerms("Thinking that -7 is greater than -2 because 7 is bigger than 2."), nil); right != s {
		t.Errorf("rightWay found %q; want %q", right, s)
	}
}

// "add 2/5 and 1/5" is about fractions: a lesson on photosynthesis, which
// "adds" iodine, does not answer it with that sentence.
func TestDoubtWithFractionsInAScienceLesson(t *testing.T) {
	tp := sampleTopic(t, photosynthesis)
	for _, msg := range []string{"how do I add 2/5 and 1/5?", "can you add 2/7 and 3/7 for me"} {
		t.Run(msg, func(t *testing.T) {
			s := tutor.State{SessionID: "doubts-iodine", Mode: tutor.ModeClarify, TurnCount: 1}
			r, _, err := NewTutor().Respond(context.Background(), agents.Turn{State: s, Topic: tp, Message: msg})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(r.Output.Response, "iodine") {
				t.Errorf("%q: answered with an unrelated lesson sentence: %q", msg, r.Output.Response)
			}
		})
	}
}

// A sum of like fractions is answered from the passage on like fractions,
// not from the one that says fractions with different denominators
// cannot be added straight away.
func TestDoubtOnLikeFractions(t *testing.T) {
	tp := sampleTopic(t, addingFractions)
	for _, msg := range []string{"what is 1/4 + 2/4?", "how do i add 1/4 and 2/4"} {
		t.Run(msg, func(t *testing.T) {
			s := tutor.State{SessionID: "doubts-like", Mode: tutor.ModeClarify, TurnCount: 1}
			r, _, err := NewTutor().Respond(context.Background(), agents.Turn{State: s, Topic: tp, Message: msg})
			if err != nil {
				t.Fatal(err)
			}
			if text := r.Output.Response; strings.Contains(text, "called unlike fractions") || strings.Contains(text, "cannot add") {
				t.Errorf("%q (like fractions) answered with the unlike-fractions passage: %q", msg, text)
			}
		})
	}
}

// A stop word asked about as a word ("what does of mean?") is what the
// doubt is about: the lesson's sentence that quotes it answers it, where
// the doubt would otherwise name nothing and be asked what it is about, or
// be answered from another passage.
func TestDoubtOnAQuotedWord(t *testing.T) {
	tp := sampleTopic(t, "mathematics/fractions/multiplying-fractions")
	for _, msg := range []string{"what does of mean?", `what does "of" mean in fractions?`, "what does 'of' mean?"} {
		t.Run(msg, func(t *testing.T) {
			s := tutor.State{SessionID: "doubts-of", Mode: tutor.ModeClarify, TurnCount: 1}
			r, _, err := NewTutor().Respond(context.Background(), agents.Turn{State: s, Topic: tp, Message: msg})
			if err != nil {
				t.Fatal(err)
			}
			if text := r.Output.Response; !strings.Contains(text, `The word "of" also means multiply.`) {
				t.Errorf("%q: %q, want the lesson's sentence on \"of\"", msg, text)
			}
		})
	}
	// "what does it mean?" still asks about the last answer.
	if got := namedStopWords("what does it mean?"); len(got) != 0 {
		t.Errorf(`namedStopWords("what does it mean?") = %q, want none`, got)
	}
}

// A step in the middle of a worked example is told from a rule with an
// example of its own.
func TestContinuesExample(t *testing.T) {
	for sent, want := range map[string]bool{
		"Subtract 2x from both sides: x - 6 = 2.":                          true,
		"Divide by 3: x = 5.":                                              true,
		"Then 3/2 × 12/5 = 36/10 = 18/5, which is 3 3/5.":                  true,
		"Check: 240 + 360 = 600.":                                          true,
		"Add the numerators and keep the denominator: 2/7 + 3/7 = 5/7.":    false,
		"For 3(x - 2) = 2(x + 1), expand to get 3x - 6 = 2x + 2.":          false,
		"Expand the brackets first, multiplying every term inside.":        false,
		"To turn a decimal into a percentage, multiply by 100: 0.8 = 80%.": false,
	} {
		if got := continuesExample(sent); got != want {
			t.Errorf("continuesExample(%q) = %v, want %v", sent, got, want)
		}
	}
}
