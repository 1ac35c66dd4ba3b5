package rules

import (
	"strings"
	"testing"

	"github.com/tutord/tutord/internal/tutor"
)

func TestGlossaryParses(t *testing.T) {
	g, _, err := parseGlossary(glossaryText)
	if err != nil || len(g) < 50 {
		t.Fatalf("glossary: %d words, %v", len(g), err)
	}
	for w, def := range g {
		if n := len(sentences(def)); n == 0 || n > 2 {
			t.Errorf("%q: definition of %d sentences, want 1 or 2: %q", w, n, def)
		}
		for _, re := range internalLanguage {
			if x := re.FindString(def); x != "" {
				t.Errorf("%q: definition has %q", w, x)
			}
		}
	}
	for _, bad := range []string{"product The product…", "product: ", ": a definition", "sum: one\nsum: two"} {
		if _, _, err := parseGlossary(bad); err == nil {
			t.Errorf("parseGlossary(%q): no error", bad)
		}
	}
}

func TestGlossed(t *testing.T) {
	for q, want := range map[string]string{
		"what does product mean":                                 "product",
		"What is a numerator?":                                   "numerator",
		"what are particles":                                     "particle",
		"i still dont get what product is":                       "product",
		"whats the LCM of 4 and 6 tho":                           "lcm",
		"define quotient":                                        "quotient",
		"wait what does 'reciprocal' mean?":                      "reciprocal",
		"what is the HCF":                                        "hcf",
		"what is 3 + 4?":                                         "",
		"what is the capital of france":                          "",
		"what does 'of' mean here?":                              "",
		"why do we flip the second fraction":                     "",
		"what's the difference between evaporation and boiling?": "",
		"what is meant by transpose":                             "transpose",
		"what's the matter?":                                     "",
		"what's the difference?":                                 "",
		"what does difference mean":                              "difference",
		"what does cancel mean":                                  "cancel",
		"what is the mass of the box?":                           "",
		"what is the sum of 3 and 4":                             "",
	} {
		got, def, ok := glossed(q)
		if got != want || ok != (want != "") || ok && def == "" {
			t.Errorf("glossed(%q) = %q, %v; want %q", q, got, ok, want)
		}
	}
}

// A word the lesson uses without saying what it is gets the glossary's
// definition: between the parts of a lesson, with a question pending (the
// question then stands), and in a doubts session.
func TestDefinesAWord(t *testing.T) {
	topic := sampleTopic(t, "mathematics/fractions/dividing-fractions")
	d := newDriver(t, topic, "define-lesson", tutor.ModeTeachMe)
	d.say("yes")
	x := d.say("what does product mean")
	if !strings.Contains(x.text(), glossary["product"]) {
		t.Errorf("between parts: %q", x.text())
	}
	x = d.say("i still dont get what product is")
	if !strings.Contains(x.text(), glossary["product"]) {
		t.Errorf("without a question mark: %q", x.text())
	}
	d.until(12, func() bool { return d.pending() != nil })
	q := d.state.LastQuestion.QuestionID
	x = d.say("what does quotient mean?")
	if !strings.Contains(x.text(), glossary["quotient"]) || x.after.LastQuestion == nil || x.after.LastQuestion.QuestionID != q ||
		x.after.LastQuestion.WrongAttempts != 0 {
		t.Errorf("with %s pending: %q (question %+v)", q, x.text(), x.after.LastQuestion)
	}

	x = d.say("i dont understand what a denominator is")
	if !strings.Contains(x.text(), glossary["denominator"]) || x.after.LastQuestion == nil || x.after.LastQuestion.QuestionID != q {
		t.Errorf("with %s pending, without a question mark: %q", q, x.text())
	}

	c := newDriver(t, topic, "define-doubts", tutor.ModeClarify)
	x = c.say("what is a numerator?")
	if !strings.Contains(x.text(), glossary["numerator"]) {
		t.Errorf("doubts session: %q", x.text())
	}
	x = c.say("i still dont get what product is")
	if !strings.Contains(x.text(), glossary["product"]) {
		t.Errorf("doubts session, without a question mark: %q", x.text())
	}
}

// A word the last part used is defined, not that part said again.
func TestDefinitionAfterThePartThatUsedIt(t *testing.T) {
	d := newDriver(t, sampleTopic(t, "mathematics/linear-equations/variable-on-both-sides"), "brackets", tutor.ModeTeachMe)
	d.say("yes")
	var last exchange
	for range 20 {
		if q := d.pending(); q != nil {
			last = d.say(rightAnswer(*q))
		} else {
			last = d.say("ok")
		}
		if strings.Contains(last.text(), "brackets") && d.pending() == nil {
			break
		}
	}
	if !strings.Contains(last.text(), "brackets") || d.pending() != nil {
		t.Fatalf("setup: no part about brackets in %q", d.transcript())
	}
	x := d.say("what are brackets")
	if !strings.Contains(x.text(), glossary["brackets"]) || says(x.text(), mJustSaid) {
		t.Errorf("reply %q after %q", x.text(), last.text())
	}
}

// A lesson sentence that says what a word is under another of its
// spellings defines it: "The HCF (highest common factor) of two numbers
// is …" defines "highest common factor", so the glossary's definition is
// not said beside it.
func TestDefinesWordAnySpelling(t *testing.T) {
	sents := []string{"The HCF (highest common factor) of two numbers is the largest number that divides both of them."}
	for _, w := range []string{"hcf", "highest common factor", "gcd"} {
		if !definesWord(sents, w) {
			t.Errorf("definesWord(%q) = false", w)
		}
	}
	if definesWord(sents, "lcm") {
		t.Error("definesWord(lcm) = true")
	}
	d := newDriver(t, sampleTopic(t, "mathematics/ratios-and-percentages/ratios-and-proportions"), "hcf-twice", tutor.ModeTeachMe)
	d.say("ok")
	if x := d.say("whats the highest common factor of 15 and 25?"); strings.Count(x.text(), "largest number that divides both") != 1 {
		t.Errorf("the HCF said what it is twice: %q", x.text())
	}
}

// A question that says what a word means hears the glossary's meaning,
// with "Not quite" when it names another state of matter, and only the
// lesson's sentences about the word. (From a teacher's testing:
// "condensation is when gas turns into solid right?" heard about
// sublimation, and no "No".)
func TestClaimedDefinition(t *testing.T) {
	states := sampleTopic(t, "science/states-of-matter/changes-of-state")
	c := newDriver(t, states, "claimed-def", tutor.ModeClarify)
	x := c.say("condensation is when gas turns into solid right?")
	if !strings.HasPrefix(x.text(), "Not quite: condensation is a gas cooling and turning back into a liquid") || strings.Contains(x.text(), "Camphor") {
		t.Errorf("a wrong meaning: %q", x.text())
	}
	x = c.say("evaporation is when liquid turns into gas right?")
	if strings.Contains(x.text(), "Not quite") || !strings.Contains(x.text(), glossary["evaporation"]) {
		t.Errorf("a right meaning: %q", x.text())
	}
	for _, q := range []string{"condensation is when liquid turns into gas right?", "condensation means that a gas turns into a solid?",
		"condensation is when water vapour turns into solid right?", "evaporation is when gases turn into liquid?"} {
		if x = c.say(q); !strings.HasPrefix(x.text(), "Not quite") {
			t.Errorf("%q: want Not quite, got %q", q, x.text())
		}
	}
	if x = c.say("condensation is when water vapour turns back into water?"); strings.Contains(x.text(), "Not quite") {
		t.Errorf("a right meaning with water vapour: %q", x.text())
	}
}

// TestCancelDefined: "what does cancel mean" after "Cancel common factors
// first" hears what cancelling is, not the same sentence again.
func TestCancelDefined(t *testing.T) {
	d := newDriver(t, sampleTopic(t, "mathematics/fractions/multiplying-fractions"), "cancel", tutor.ModeTeachMe)
	d.untilAnswering(20, func() bool {
		return len(d.log) > 0 && strings.Contains(d.log[len(d.log)-1].text(), "Cancel common factors")
	})
	if x := d.say("what does cancel mean"); !strings.HasPrefix(x.text(), glossary["cancel"]) {
		t.Errorf("cancel: %q, want its definition first", x.text())
	}
}
