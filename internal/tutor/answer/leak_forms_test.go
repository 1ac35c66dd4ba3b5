package answer

import "testing"

// Forms of leaks a model writes, and replies that are no leak.

// leakRows runs one table of replies that must (or must not) leak.
func leakRows(t *testing.T, rows []LeakCheck, want bool) {
	t.Helper()
	for _, c := range rows {
		leaks := DetectLeaks(c)
		if got := len(leaks) > 0; got != want {
			t.Errorf("answer %q, question %q, dialogue %v:\n  reply %q\n  leaks = %v, want %v (%+v)",
				c.Expected.Answer, c.Question, c.Dialogue, c.Reply, got, want, leaks)
		}
	}
}

func saidByLearner(s string) []Utterance { return []Utterance{{Role: RoleStudent, Text: s}} }

const eggsLeft = "Tom has 12 eggs and uses 4 of them. How many eggs are left?"

// The question of a simplification or a conversion holds the answer's value
// in another form ("Simplify 6/8", "Convert 12 cm to mm"): only a reply
// that writes the value as the question does mentions it; "It's 3/4" and
// "That's 120 mm" give the answer away.
func TestLeakOfAConversion(t *testing.T) {
	leakRows(t, []LeakCheck{
		{Expected: Expected{Answer: "3/4"}, Question: "Simplify 6/8.", Reply: "It's 3/4."},
		{Expected: Expected{Answer: "3/4"}, Question: "Simplify 6/8.", Reply: "That gives 3/4."},
		{Expected: Expected{Answer: "3/4"}, Question: "Simplify 6/8.", Reply: "6/8 in simplest form is 3/4."},
		{Expected: Expected{Answer: "3/4"}, Question: "Simplify 6/8.", Reply: "So it's three quarters."},
		{Expected: Expected{Answer: "3/4"}, Question: "Write 0.75 as a fraction in simplest form.", Reply: "So 0.75 becomes 3/4."},
		{Expected: Expected{Answer: "75%"}, Question: "Write 3/4 as a percentage.", Reply: "That's 75%."},
		{Expected: Expected{Answer: "0.75"}, Question: "Write 3/4 as a decimal.", Reply: "That's 0.75."},
		{Expected: Expected{Answer: "120 mm"}, Question: "Convert 12 cm to mm.", Reply: "That's 120 mm."},
	}, true)
}

// Markdown emphasis does not hide the answer: "The answer is **14**."
func TestLeakInBold(t *testing.T) {
	e := Expected{Answer: "14"}
	leakRows(t, []LeakCheck{
		{Expected: e, Reply: "The answer is **14**."},
		{Expected: e, Reply: "That gives us **14**!"},
		{Expected: e, Reply: "Total = **14**"},
		{Expected: e, Reply: "**Answer:** 14"},
	}, true)
}

// A correction after quoting the learner's wrong value gives the answer:
// "You said 16, but it's actually 8." The learner's words end at the
// clause.
func TestLeakAfterQuotingTheLearner(t *testing.T) {
	e := Expected{Answer: "8"}
	d := saidByLearner("I got 16")
	leakRows(t, []LeakCheck{
		{Expected: e, Question: eggsLeft, Dialogue: d, Reply: "You said 16, but it's actually 8."},
		{Expected: e, Question: eggsLeft, Dialogue: d, Reply: "You wrote 16 where it should be 8."},
		{Expected: e, Question: eggsLeft, Dialogue: d, Reply: "Your 16 should be 8."},
		{Expected: e, Question: eggsLeft, Dialogue: d, Reply: "You said 16, but Tom has 8 eggs left."},
	}, true)
}

// The unknown's value said in words is given away, though the question
// holds the number: "x equals 5" for 2x + 5 = 15.
func TestLeakOfTheUnknownsValue(t *testing.T) {
	e := Expected{Answer: "5"}
	const q = "Solve 2x + 5 = 15."
	leakRows(t, []LeakCheck{
		{Expected: e, Question: q, Reply: "x equals 5."},
		{Expected: e, Question: q, Reply: "x equals five."},
		{Expected: e, Question: q, Reply: "So x is 5."},
		{Expected: e, Question: q, Reply: "The value of x is 5."},
	}, true)
}

// A learner who hedged ("is it 8 or 9?") stated neither value: the tutor
// picking one gives the answer.
func TestLeakAfterAHedge(t *testing.T) {
	e := Expected{Answer: "8"}
	for _, said := range []string{"is it 8 or 9?", "8 and 9?", "9 and 8"} {
		d := saidByLearner(said)
		leakRows(t, []LeakCheck{
			{Expected: e, Question: eggsLeft, Dialogue: d, Reply: "8 is right!"},
			{Expected: e, Question: eggsLeft, Dialogue: d, Reply: "It's 8."},
			{Expected: e, Question: eggsLeft, Dialogue: d, Reply: "8 is correct, well done."},
		}, true)
	}
}

// An answer phrase and its value split by a pause or a line ("The answer
// is... 14!", "Answer:\n14"), or a question that answers itself ("Is it
// 14? Yes!"), give the answer.
func TestLeakAcrossAPause(t *testing.T) {
	e := Expected{Answer: "14"}
	leakRows(t, []LeakCheck{
		{Expected: e, Reply: "The answer is... 14!"},
		{Expected: e, Reply: "The answer is… 14!"},
		{Expected: e, Reply: "The answer is — 14!"},
		{Expected: e, Reply: "Answer:\n14"},
		{Expected: e, Reply: "14 — that's the answer."},
		{Expected: e, Reply: "Is it 14? Yes!"},
		{Expected: e, Reply: "Could it be 14? Yes, it could!"},
	}, true)
}

// Plain English states the value without an answer phrase: as what a
// clause describes ("14 is what you get"), exclaimed alone ("14!"), with
// a tag that asks only for agreement ("It is 14, right?"), or as code.
// A number alone before a full stop may number a list, and a real
// question back to the learner asks.
func TestLeakInPlainStatements(t *testing.T) {
	e := Expected{Answer: "14"}
	const q = "What is double 7?"
	d := saidByLearner("12")
	leakRows(t, []LeakCheck{
		{Expected: e, Question: q, Dialogue: d, Reply: "Not quite. 14 is what you get when you put two 7s together."},
		{Expected: e, Question: q, Dialogue: d, Reply: "Close! Fourteen is what two groups of 7 make."},
		{Expected: e, Question: q, Dialogue: d, Reply: "14!"},
		{Expected: e, Question: q, Dialogue: d, Reply: "**14** apples!"},
		{Expected: e, Question: q, Dialogue: d, Reply: "It is 14, right?"},
		{Expected: e, Question: q, Dialogue: d, Reply: "It's 14, isn't it?"},
		{Expected: e, Question: q, Dialogue: d, Reply: "The answer: `14`"},
	}, true)
	leakRows(t, []LeakCheck{
		{Expected: e, Question: q, Dialogue: d, Reply: "Is it 14?"},
		{Expected: e, Question: q, Dialogue: d, Reply: "Is it 14, or is it something else?"},
		{Expected: e, Question: q, Dialogue: d, Reply: "Let's count on.\n13.\n14.\n15."},
		{Expected: Expected{Answer: "2"}, Question: "How many 7s make 14?", Reply: "1. Write 7.\n2. Write 7 again."},
		{Expected: e, Question: q, Dialogue: saidByLearner("14?"), Reply: "14 is what you said! Let's check it."},
		{Expected: Expected{Answer: "7"}, Question: "What is half of 14?", Reply: "14 is what we start with."},
	}, false)
}

// More ways of stating a result: "simplifies to", "ends up with",
// "Result:", "Total:".
func TestLeakResultPhrases(t *testing.T) {
	leakRows(t, []LeakCheck{
		{Expected: Expected{Answer: "3/4"}, Reply: "Dividing top and bottom by 2, it simplifies to 3/4."},
		{Expected: Expected{Answer: "3/4"}, Reply: "Dividing top and bottom by 2, it reduces to 3/4."},
		{Expected: Expected{Answer: "14"}, Reply: "Sam ends up with 14 apples."},
		{Expected: Expected{Answer: "14"}, Reply: "You should have gotten 14."},
		{Expected: Expected{Answer: "14"}, Reply: "Result: 14"},
		{Expected: Expected{Answer: "14"}, Reply: "Total: 14 apples"},
	}, true)
}

// An answer "x = 5" is also given away as its value: "The answer is 5",
// "x = 10/2 = 5".
func TestLeakOfAnAssignmentsValue(t *testing.T) {
	e := Expected{Answer: "x = 5"}
	const q = "Solve 2x + 5 = 15."
	leakRows(t, []LeakCheck{
		{Expected: e, Question: q, Reply: "The answer is 5."},
		{Expected: e, Question: q, Reply: "The solution is 5."},
		{Expected: e, Question: q, Reply: "Divide both sides by 2: x = 10/2 = 5."},
		{Expected: e, Question: q, Reply: "x = 10 ÷ 2 = 5"},
	}, true)
}

// A choice declared through brackets or a colon: "The answer is (C)",
// "Answer: C".
func TestLeakOfAChoiceInBrackets(t *testing.T) {
	e := Expected{Answer: "C", Kind: KindChoice, Options: []string{"12", "13", "14", "15"}}
	leakRows(t, []LeakCheck{
		{Expected: e, Reply: "The answer is (C)."},
		{Expected: e, Reply: "The correct choice is (C)."},
		{Expected: e, Reply: "Answer: C"},
		{Expected: e, Reply: "Correct answer: (C) 14"},
	}, true)
}

// A choice recommended: "You should pick C", "Go with option C".
func TestLeakOfARecommendedChoice(t *testing.T) {
	e := Expected{Answer: "C", Kind: KindChoice, Options: []string{"12", "13", "14", "15"}}
	leakRows(t, []LeakCheck{
		{Expected: e, Reply: "You should pick C."},
		{Expected: e, Reply: "Go with option C."},
		{Expected: e, Reply: "Choose option C."},
	}, true)
}

// A true/false answer declared: "It is true", "The statement is false",
// "Answer: True".
func TestLeakOfATrueOrFalse(t *testing.T) {
	tr := Expected{Answer: "true", Kind: KindBoolean}
	fa := Expected{Answer: "false", Kind: KindBoolean}
	leakRows(t, []LeakCheck{
		{Expected: tr, Reply: "Answer: True"},
		{Expected: tr, Reply: "It is true."},
		{Expected: tr, Reply: "The statement is true."},
		{Expected: fa, Reply: "So the statement is false."},
	}, true)
	// The learner answered after copying the prompt's label: the answer
	// is theirs now.
	leakRows(t, []LeakCheck{
		{Expected: tr, Dialogue: saidByLearner("True/False: True"), Reply: "Yes, it is true."},
		{Expected: fa, Dialogue: saidByLearner("True or false: false"), Reply: "Right, the statement is false."},
	}, false)
}

// A given of the question restated with "=" ("width = 4 cm") is no
// result of a computation, and no leak.
func TestGivenRestatedWithEqualsIsNoLeak(t *testing.T) {
	e := Expected{Answer: "4"}
	const q = "A rectangle has area 16 cm² and width 4 cm. Find its length."
	leakRows(t, []LeakCheck{
		{Expected: e, Question: q, Reply: "We know area = 16 cm² and width = 4 cm."},
		{Expected: e, Question: q, Reply: "Here, width = 4 cm. What is the length?"},
		{Expected: e, Question: q, Reply: "Given: area = 16 cm², width = 4 cm."},
	}, false)
}

// "okay what's a numerator?" asks back, as "so what's a numerator?" does:
// a learner is not graded wrong for asking.
func TestAsksBackAfterOk(t *testing.T) {
	for _, r := range []string{"okay what's a numerator?", "ok so how do i start?", "ok what is 3/4 of 12?"} {
		if !AsksBack(r) {
			t.Errorf("AsksBack(%q) = false, want true", r)
		}
	}
	if r := Evaluate(Expected{Answer: "denominator"}, "okay what's a numerator?"); r.Verdict != NotAttempt {
		t.Errorf("Evaluate(denominator, \"okay what's a numerator?\") = %s, want %s", r.Verdict, NotAttempt)
	}
}

// "what's 3/4 of 12?" asks back, as "what is 3/4 of 12?" does.
func TestAsksBackWhatsANumber(t *testing.T) {
	for _, r := range []string{"what's 3/4 of 12?", "what's 12 divided by 4?", "whats 3 times 4?"} {
		if !AsksBack(r) {
			t.Errorf("AsksBack(%q) = false, want true (as for %q)", r, "what is ...?")
		}
	}
	if r := Evaluate(Expected{Answer: "9"}, "what's 3/4 of 12?"); r.Verdict != NotAttempt {
		t.Errorf("Evaluate(9, \"what's 3/4 of 12?\") = %s, want %s (as for \"what is 3/4 of 12?\")", r.Verdict, NotAttempt)
	}
}

// A reply in another language says "the answer is" in words the detector
// does not read: with OtherLanguage any statement of the value leaks, but
// not the question's numbers, the learner's own values, or a question.
func TestLeakInAnotherLanguage(t *testing.T) {
	e := Expected{Answer: "14"}
	const q = "What is double 7?"
	d := saidByLearner("12")
	leakRows(t, []LeakCheck{
		{Expected: e, Question: q, Dialogue: d, OtherLanguage: true, Reply: "अच्छी कोशिश! सही उत्तर 14 है।"},
		{Expected: e, Question: q, Dialogue: d, OtherLanguage: true, Reply: "Jawab 14 hai."},
		{Expected: e, Question: q, Dialogue: d, OtherLanguage: true, Reply: "¡Buen intento! La respuesta correcta es 14."},
		// A model answering in Hindi writes Devanagari digits.
		{Expected: e, Question: q, Dialogue: d, OtherLanguage: true, Reply: "अच्छी कोशिश! सही उत्तर १४ है।"},
		{Expected: e, Question: "७ का दोगुना क्या है?", Dialogue: saidByLearner("१२"), OtherLanguage: true, Reply: "सही उत्तर 14 है।"},
	}, true)
	leakRows(t, []LeakCheck{
		{Expected: e, Question: q, Dialogue: d, Reply: "Jawab 14 hai."}, // English: a plain mention
		{Expected: e, Question: q, Dialogue: d, OtherLanguage: true, Reply: "7 + 7 कितना होता है?"},
		{Expected: e, Question: q, Dialogue: d, OtherLanguage: true, Reply: "तुमने 12 कहा। 7 को दो बार लिखो।"},
		{Expected: e, Question: q, Dialogue: d, OtherLanguage: true, Reply: "क्या यह 14 है?"},
		{Expected: e, Question: q, Dialogue: saidByLearner("12 या 14?"), OtherLanguage: true, Reply: "तुमने 12 और 14 लिखा। एक चुनो।"},
		{Expected: Expected{Answer: "3/4"}, Question: "Simplify 6/8.", OtherLanguage: true, Reply: "6/8 को सरल करो।"},
		{Expected: e, Question: q, Dialogue: d, OtherLanguage: true, Reply: "७ + ७ कितना होता है?"},
		{Expected: e, Question: q, Dialogue: saidByLearner("१४"), OtherLanguage: true, Reply: "तुमने १४ कहा। ७ को दो बार लिखो।"},
		{Expected: Expected{Answer: "3/4"}, Question: "६/८ को सरल करो।", OtherLanguage: true, Reply: "६/८ को सरल करो।"},
	}, false)
}

// A leak written in the digits of another script is reported as written,
// in the sentence of the reply that holds it, so that the sentence can be
// redacted: the offsets are the reply's, not those of its digits in ASCII.
func TestLeakInOtherScriptDigits(t *testing.T) {
	for _, c := range []struct {
		check    LeakCheck
		sentence string
		form     string
	}{
		{LeakCheck{Expected: Expected{Answer: "42"}, Question: "What is 6 × 7?", OtherLanguage: true, Reply: "अच्छी कोशिश! सही उत्तर है: ४२।\nअगला सवाल देखो।"},
			"सही उत्तर है: ४२।", "४२"},
		{LeakCheck{Expected: Expected{Answer: "3/4"}, Question: "Simplify 6/8.", Reply: "Good try. So the answer is ३/४. Next one!"},
			"So the answer is ३/४.", "३/४"},
		{LeakCheck{Expected: Expected{Answer: "8"}, Question: eggsLeft, Reply: "Nice! Tom used ४ eggs. So १२ - ४ = ८ eggs."},
			"So १२ - ४ = ८ eggs.", "८ eggs"},
		// Only the sentence that ends at the danda or the full stop of
		// its script, not the whole reply.
		{LeakCheck{Expected: Expected{Answer: "42"}, Question: "What is 6 × 7?", OtherLanguage: true, Reply: "सही उत्तर है ४२। अब अगला सवाल।"},
			"सही उत्तर है ४२।", "४२"},
		{LeakCheck{Expected: Expected{Answer: "42"}, Question: "What is 6 × 7?", OtherLanguage: true, Reply: "答案是42。再试一次！"},
			"答案是42。", "42"},
		{LeakCheck{Expected: Expected{Answer: "42"}, Question: "What is 6 × 7?", OtherLanguage: true, Reply: "صحیح جواب ہے ۴۲۔ اب اگلا سوال۔"},
			"صحیح جواب ہے ۴۲۔", "۴۲"},
	} {
		leaks := DetectLeaks(c.check)
		if len(leaks) != 1 {
			t.Errorf("%q: %d leaks (%+v), want 1", c.check.Reply, len(leaks), leaks)
			continue
		}
		l := leaks[0]
		if got := c.check.Reply[l.Sentence.Start:l.Sentence.End]; got != l.Sentence.Text || got != c.sentence {
			t.Errorf("%q: sentence %d:%d is %q (text %q), want %q", c.check.Reply, l.Sentence.Start, l.Sentence.End, got, l.Sentence.Text, c.sentence)
		}
		if l.Form != c.form {
			t.Errorf("%q: form %q, want %q", c.check.Reply, l.Form, c.form)
		}
	}
}
