package answer

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type evalCase struct {
	name  string
	exp   Expected
	reply string
	want  Verdict
	// extracted, when not empty, is the answer the reply must be read as.
	extracted string
}

func runEvalCases(t *testing.T, cases []evalCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Evaluate(tc.exp, tc.reply)
			if got.Verdict != tc.want {
				t.Errorf("Evaluate(%+v, %q) = %+v, want verdict %s", tc.exp, tc.reply, got, tc.want)
			}
			if tc.extracted != "" && got.Extracted != tc.extracted {
				t.Errorf("Evaluate(%+v, %q).Extracted = %q, want %q", tc.exp, tc.reply, got.Extracted, tc.extracted)
			}
		})
	}
}

func TestEvaluateNumbers(t *testing.T) {
	i42 := Expected{Answer: "42"}
	runEvalCases(t, []evalCase{
		{"bare", i42, "42", Correct, "42"},
		{"sentence with unit", i42, "I think it's 42 apples", Correct, "42 apples"},
		{"answer phrase", i42, "the answer is 42.", Correct, "42"},
		{"wrong", i42, "41", Incorrect, "41"},
		{"wrong in sentence", i42, "I got 24", Incorrect, "24"},
		{"words", i42, "forty-two", Correct, ""},
		{"words spaced", i42, "forty two", Correct, ""},
		{"correction not-then", Expected{Answer: "6"}, "not 5, it's 6", Correct, "6"},
		{"correction then-not", Expected{Answer: "6"}, "it's 6, not 5", Correct, "6"},
		{"correction reversed wrong", Expected{Answer: "5"}, "not 5, it's 6", Incorrect, "6"},
		{"negated only", Expected{Answer: "5"}, "it's not 5", NotAttempt, ""},
		{"compared with", Expected{Answer: "10"}, "is it more than 10?", NotAttempt, ""},
		{"compared with, no question", Expected{Answer: "10"}, "it's bigger than 10", NotAttempt, ""},
		{"compared then stated", Expected{Answer: "10"}, "it's 10, more than 8", Correct, "10"},
		{"rather than", Expected{Answer: "10"}, "rather than 10, it is 12", Incorrect, "12"},
		{"is wrong after", Expected{Answer: "6"}, "5 is wrong, so 6", Correct, "6"},
		{"hedge includes answer", Expected{Answer: "6"}, "5 or 6?", NotAttempt, "5 or 6"},
		{"hedge neither", Expected{Answer: "7"}, "5 or 6?", Incorrect, "5 or 6"},
		{"hedge maybe", Expected{Answer: "6"}, "maybe 5 or maybe 6", NotAttempt, ""},
		{"same value or", Expected{Answer: "0.5"}, "1/2 or 0.5", Correct, ""},
		{"assignment", Expected{Answer: "7"}, "x = 7", Correct, "7"},
		{"two assignments first", Expected{Answer: "7"}, "x=7 and y=2", Correct, "7"},
		{"thousands", Expected{Answer: "1200"}, "it's 1,200", Correct, "1,200"},
		{"thousands expected", Expected{Answer: "1,200"}, "1200", Correct, ""},
		{"millions", Expected{Answer: "2520000"}, "2,520,000 pixels", Correct, ""},
		{"lakhs", Expected{Answer: "120000"}, "1,20,000", Correct, "1,20,000"},
		{"lakhs expected", Expected{Answer: "1,20,000"}, "120000", Correct, ""},
		{"lakhs expected, western reply", Expected{Answer: "1,20,000"}, "120,000", Correct, ""},
		{"lakhs wrong", Expected{Answer: "1,20,000"}, "1,25,000", Incorrect, "1,25,000"},
		{"lakhs in a sentence", Expected{Answer: "125000"}, "there are 1,25,000 trees left", Correct, "1,25,000 trees"},
		{"crores", Expected{Answer: "123456789"}, "12,34,56,789", Correct, ""},
		{"lakhs with rupees", Expected{Answer: "₹250000"}, "Rs 2,50,000", Correct, ""},
		{"lakhs with decimals", Expected{Answer: "120000.5"}, "1,20,000.50", Correct, ""},
		{"lakh is not one", Expected{Answer: "1"}, "1,20,000", Incorrect, ""},
		// Scale words after a number, in digits or in words.
		{"digits thousand", Expected{Answer: "5000"}, "5 thousand", Correct, "5 thousand"},
		{"words thousand", Expected{Answer: "5000"}, "five thousand", Correct, ""},
		{"digits million", Expected{Answer: "2000000"}, "2 million", Correct, ""},
		{"decimal million", Expected{Answer: "2500000"}, "2.5 million", Correct, "2.5 million"},
		{"digits lakh", Expected{Answer: "100000"}, "1 lakh", Correct, ""},
		{"words lakh", Expected{Answer: "100000"}, "one lakh", Correct, ""},
		{"decimal lakh", Expected{Answer: "250000"}, "it's 2.5 lakh", Correct, "2.5 lakh"},
		{"digits crore", Expected{Answer: "10000000"}, "1 crore", Correct, ""},
		{"plural crores", Expected{Answer: "20000000"}, "2 crores", Correct, ""},
		{"lakhs and thousands", Expected{Answer: "250000"}, "2 lakh 50 thousand", Correct, ""},
		{"lakh against grouping", Expected{Answer: "1,20,000"}, "1.2 lakh", Correct, ""},
		{"scaled expected", Expected{Answer: "2.5 million"}, "2500000", Correct, ""},
		{"hundred and digits", Expected{Answer: "503"}, "5 hundred and 3", Correct, ""},
		{"scale with rupees", Expected{Answer: "₹2000"}, "2 thousand rupees", Correct, "2 thousand rupees"},
		{"lakh with rupees", Expected{Answer: "₹250000"}, "Rs 2.5 lakh", Correct, ""},
		{"wrong scale", Expected{Answer: "500"}, "5 thousand", Incorrect, ""},
		{"decimal lakh wrong", Expected{Answer: "25000"}, "2.5 lakh", Incorrect, ""},
		{"lakh is not a crore", Expected{Answer: "10000000"}, "1 lakh", Incorrect, ""},
		// Near misses: a count of a scale word, fractions, lists.
		{"count of lakhs", Expected{Answer: "100"}, "100 lakhs", Correct, ""},
		{"count of thousands expected", Expected{Answer: "5 thousand"}, "5", Correct, ""},
		{"count of hundreds", Expected{Answer: "3"}, "3 hundreds", Correct, ""},
		{"hundredths are a fraction", Expected{Answer: "0.03"}, "3 hundredths", Correct, ""},
		{"hundredths are not hundreds", Expected{Answer: "300"}, "3 hundredths", Incorrect, ""},
		{"comma is not a scale", Expected{Answer: "5000"}, "5, thousand", Incorrect, ""},
		{"km unchanged", Expected{Answer: "100 km"}, "100 km", Correct, "100 km"},
		{"list not thousands", Expected{Answer: "2"}, "2,3", Correct, "2"},
		// A decimal comma, as much of the world and many phone keyboards
		// write decimals: one or two digits after the comma, which no
		// thousands grouping writes, for an expected number that is not
		// whole. Against a whole number "2,3" stays a list (above), and
		// three digits stay a thousands group.
		{"decimal comma", Expected{Answer: "12.5"}, "12,5", Correct, "12,5"},
		{"decimal comma below one", Expected{Answer: "0.25"}, "0,25", Correct, "0,25"},
		{"decimal comma with a unit", Expected{Answer: "1.5 kg"}, "1,5 kg", Correct, "1,5 kg"},
		{"decimal comma is no thousands group", Expected{Answer: "1.2"}, "1,200", Incorrect, "1,200"},
		{"decimal comma is no lakh grouping", Expected{Answer: "1.2"}, "1,20,000", Incorrect, "1,20,000"},
		{"negative", Expected{Answer: "-7"}, "-7", Correct, "-7"},
		{"negative in sentence", Expected{Answer: "-7"}, "I think it is -7", Correct, "-7"},
		{"negative unicode minus", Expected{Answer: "-7"}, "−7", Correct, ""},
		{"negative spaced", Expected{Answer: "-3"}, "- 3", Correct, "- 3"},
		{"negative spaced assignment", Expected{Answer: "-3"}, "m = - 3", Correct, "- 3"},
		{"subtraction not a sign", Expected{Answer: "2"}, "5 - 3 = 2", Correct, "2"},
		{"working with commas", Expected{Answer: "5"}, "7x - 3x = 20, 4x = 20, x = 5", Correct, "5"},
		{"working with commas two-step", Expected{Answer: "8"}, "2x-1=15, 2x=16, x=8", Correct, "8"},
		{"working with commas negative", Expected{Answer: "-3"}, "3m = -9, m = -3", Correct, "-3"},
		{"working with commas wrong", Expected{Answer: "9"}, "4x = 36, x = 8", Incorrect, "8"},
		{"check after the answer", Expected{Answer: "14"}, "x = 14. Check: I put 14 back in and both sides are equal, 14 + 9 = 23", Correct, "14"},
		{"check in parentheses", Expected{Answer: "8"}, "x = 8 (check: 2*8-1=15, 15/5=3)", Correct, "8"},
		{"check of a wrong answer", Expected{Answer: "8"}, "x = 7, check: 2*7 = 14", Incorrect, "7"},
		{"no unit in its", Expected{Answer: "1/7"}, "7 doesnt have one its not a fraction", Incorrect, "one"},
		{"check that corrects", Expected{Answer: "7"}, "6, then I checked again and it is 7", Correct, "7"},
		{"check that finds a mistake", Expected{Answer: "4"}, "x = 3. Check: 2*3 = 6, wrong. x = 4", Correct, "4"},
		{"checking before the answer", Expected{Answer: "12"}, "After 2 tries and checking, it's 12", Correct, "12"},
		{"checked working", Expected{Answer: "12"}, "3 times 4, checked, 12", Correct, "12"},
		{"accepted other answer", Expected{Answer: "145", Kind: KindInteger, Accept: []string{"-145"}}, "-145", Correct, "-145"},
		{"accepted other answer, wrong", Expected{Answer: "145", Kind: KindInteger, Accept: []string{"-145"}}, "-155", Incorrect, "-155"},
		{"accepted ratio", Expected{Answer: "3:5", Kind: KindRatio, Accept: []string{"5:3"}}, "5 to 3", Correct, ""},
		{"explicit plus sign", Expected{Answer: "72"}, "+72", Correct, ""},
		{"self-correction", Expected{Answer: "15"}, "14, no wait 15", Correct, "15"},
		{"self-correction to a wrong answer", Expected{Answer: "15"}, "15, actually 14", Incorrect, "14"},
		{"correction word without a number after it", Expected{Answer: "15"}, "15 oops", Correct, ""},
		{"explicit plus sign in brackets", Expected{Answer: "72"}, "it is (+72)", Correct, ""},
		{"plus sign is not an addition", Expected{Answer: "-12"}, "+12", Incorrect, ""},
		{"negative word", Expected{Answer: "-7"}, "negative seven", Correct, ""},
		{"minus word", Expected{Answer: "-7"}, "minus 7", Correct, ""},
		{"sign lost", Expected{Answer: "-7"}, "7", Incorrect, ""},
		{"subtraction is not a sign", Expected{Answer: "9"}, "12-3 = 9", Correct, "9"},
		{"computation result", Expected{Answer: "15"}, "I did 12 + 3 = 15", Correct, "15"},
		{"chained computation", Expected{Answer: "34"}, "$102/3 = $34", Correct, "$34"},
		{"operands only", Expected{Answer: "15"}, "what is 12 + 3?", NotAttempt, ""},
		{"answer then reason", Expected{Answer: "6"}, "6 because 4 + 2 = 6", Correct, ""},
		{"answer then explanation", Expected{Answer: "6"}, "It's 6. I added 4 and 2.", Correct, "6"},
		{"reason sentence", Expected{Answer: "6"}, "It's 6. Because there are 3 groups of 2.", Correct, "6"},
		{"self correction", Expected{Answer: "6"}, "The answer is 5. No wait, it's 6.", Correct, "6"},
		{"answer beats later explanation", Expected{Answer: "6"}, "The answer is 6. There are 3 pairs.", Correct, "6"},
		{"question form", Expected{Answer: "6"}, "is it 6?", Correct, "6"},
		{"step label", Expected{Answer: "8"}, "Step 3: 5 + 3 = 8", Correct, "8"},
		{"list numbering", Expected{Answer: "10"}, "1. add 4 and 6\n2. that makes 10", Correct, "10"},
		{"lone number with period", Expected{Answer: "5"}, "5. Because 2 + 3", Correct, "5"},
		{"ordinal is not a number", Expected{Answer: "4"}, "on the 3rd try I got 4", Correct, "4"},
		{"twelve", Expected{Answer: "12"}, "twelve", Correct, ""},
		{"one hundred and five", Expected{Answer: "105"}, "one hundred and five", Correct, ""},
		{"three hundred twenty", Expected{Answer: "320"}, "three hundred twenty", Correct, ""},
		{"two thousand", Expected{Answer: "2000"}, "two thousand", Correct, ""},
		{"a hundred", Expected{Answer: "100"}, "a hundred", Correct, ""},
		{"zero", Expected{Answer: "0"}, "zero", Correct, ""},
		{"this one pronoun", Expected{Answer: "1"}, "this one?", NotAttempt, ""},
		{"empty", i42, "", NotAttempt, ""},
		{"spaces", i42, "   ", NotAttempt, ""},
		{"hmm", i42, "hmm", NotAttempt, ""},
		{"why", i42, "why?", NotAttempt, ""},
		{"idk", i42, "I don't know", NotAttempt, ""},
		{"idk hinglish", i42, "nahi pata", NotAttempt, ""},
		{"decimal equal", Expected{Answer: "3.5"}, "3.50", Correct, ""},
		{"decimal as fraction", Expected{Answer: "3.5"}, "7/2", Correct, ""},
		{"decimal as mixed", Expected{Answer: "3.5"}, "3 1/2", Correct, ""},
		{"decimal close but wrong", Expected{Answer: "2.5"}, "2.54", Incorrect, ""},
		{"rounded to two places", Expected{Answer: "3.14159"}, "3.14", Correct, ""},
		{"rounded wrongly", Expected{Answer: "3.14159"}, "3.15", Incorrect, ""},
		{"tolerance overrides rounding", Expected{Answer: "3.14159", Tolerance: 0.0001}, "3.14", Incorrect, ""},
		{"decimal with tolerance", Expected{Answer: "3.14159", Tolerance: 0.01}, "about 3.14", Correct, ""},
		{"decimal outside tolerance", Expected{Answer: "3.14159", Tolerance: 0.001}, "3.1", Incorrect, ""},
		{"rounded decimal of thirds", Expected{Answer: "1/3"}, "0.33", Correct, ""},
		{"rounded three places", Expected{Answer: "2/3"}, "0.667", Correct, ""},
		{"one place is not enough", Expected{Answer: "1/3"}, "0.3", Incorrect, ""},
		{"fraction for rounded decimal", Expected{Answer: "0.67"}, "2/3", Correct, ""},
		{"leading dot", Expected{Answer: "0.5"}, ".5", Correct, ""},
		// Decimals said aloud, as speech-to-text writes them and learners in
		// India say them: "point" between a whole number and its digits, or
		// starting the number. "The point is 5" states no decimal, and "the
		// point 5" names a point.
		{"spoken point, digits", Expected{Answer: "0.5"}, "point 5", Correct, "point 5"},
		{"spoken point, words", Expected{Answer: "0.5"}, "point five", Correct, "point five"},
		{"spoken zero point", Expected{Answer: "0.5"}, "zero point five", Correct, "zero point five"},
		{"spoken nought point", Expected{Answer: "0.5"}, "nought point five", Correct, "nought point five"},
		{"spoken point after a digit", Expected{Answer: "0.5"}, "0 point 5", Correct, "0 point 5"},
		{"spoken point in words", Expected{Answer: "2.5"}, "two point five", Correct, ""},
		{"spoken point, two digits", Expected{Answer: "3.25"}, "3 point 25", Correct, "3 point 25"},
		{"spoken point, digit words", Expected{Answer: "3.14"}, "three point one four", Correct, ""},
		{"spoken point, a leading zero", Expected{Answer: "0.05"}, "point zero five", Correct, ""},
		{"spoken point, a trailing zero", Expected{Answer: "0.5"}, "point five zero", Correct, "point five zero"},
		// Speech-to-text writes the zero after a point as the letter.
		{"spoken point, oh for zero", Expected{Answer: "0.05"}, "point oh five", Correct, "point oh five"},
		{"spoken point, o for zero", Expected{Answer: "0.05"}, "point o five", Correct, "point o five"},
		{"spoken zero point, oh for zero", Expected{Answer: "0.05"}, "zero point oh five", Correct, "zero point oh five"},
		{"spoken point in words, oh for zero", Expected{Answer: "2.05"}, "two point oh five", Correct, "two point oh five"},
		{"spoken point, oh before no digit is a word", Expected{Answer: "0"}, "point oh", NotAttempt, ""},
		// Speech-to-text mixes digit words and numerals after the point.
		{"spoken point, oh then a numeral", Expected{Answer: "2.05"}, "2 point oh 5", Correct, "2 point oh 5"},
		{"spoken point, oh then a numeral, with a unit", Expected{Answer: "2.05"}, "it is 2 point oh 5 metres", Correct, "2 point oh 5 metres"},
		{"spoken leading point, oh then a numeral", Expected{Answer: "0.05"}, "point oh 5", Correct, "point oh 5"},
		{"spoken leading point, oh then another numeral", Expected{Answer: "0.07"}, "point oh 7", Correct, "point oh 7"},
		{"spoken point, numerals one by one", Expected{Answer: "2.05"}, "2 point 0 5", Correct, "2 point 0 5"},
		{"spoken leading point, numerals one by one", Expected{Answer: "0.05"}, "point 0 5", Correct, "point 0 5"},
		{"spoken point, zero then a numeral", Expected{Answer: "2.05"}, "2 point zero 5", Correct, "2 point zero 5"},
		// Digits after the point that make no decimal are no answer: the
		// whole number alone is not what was said.
		{"spoken point, only oh after it", Expected{Answer: "2.5"}, "2 point oh", NotAttempt, ""},
		{"spoken point, a decimal after it", Expected{Answer: "3.25"}, "3 point 2.5", NotAttempt, ""},
		{"spoken point, oh then a correction", Expected{Answer: "2.5"}, "2 point oh wait, 2.5", Correct, "2.5"},
		{"a point as a word", Expected{Answer: "1"}, "1 point for each answer", Correct, "1 point"},
		{"oh before a number is a word", Expected{Answer: "5"}, "oh, 5", Correct, "5"},
		{"oh alone is no number", Expected{Answer: "0"}, "oh I see", NotAttempt, ""},
		{"spoken point in a sentence", Expected{Answer: "0.5"}, "I think it's point 5", Correct, "point 5"},
		{"spoken point, wrong", Expected{Answer: "0.5"}, "point 6", Incorrect, "point 6"},
		{"spoken point, the whole number alone is wrong", Expected{Answer: "3"}, "3 point 25", Incorrect, ""},
		{"the point is", Expected{Answer: "5"}, "the point is 5", Correct, "5"},
		{"the point is, no decimal", Expected{Answer: "0.5"}, "the point is 5", Incorrect, "5"},
		{"a named point", Expected{Answer: "5"}, "the point 5", Correct, "5"},
		// "Ans" before the answer, as Indian schools write it: "Ans - 5",
		// "Ans-5". The dash is the label's, not a minus sign, except where
		// it can be either: "ans-5" for an expected -5 is unclear, and is
		// asked about as a hedge between 5 and -5 is.
		{"Ans dash", Expected{Answer: "5"}, "ans-5", Correct, "5"},
		{"Ans spaced dash", Expected{Answer: "5"}, "Ans - 5", Correct, "5"},
		{"answer spaced dash", Expected{Answer: "5"}, "answer - 5", Correct, "5"},
		{"Ans dash, then sir", Expected{Answer: "5"}, "Ans- 5 sir", Correct, "5"},
		{"Ans phone dash", Expected{Answer: "5"}, "Ans – 5", Correct, "5"},
		{"Ans dash for a negative answer is unclear", Expected{Answer: "-5"}, "ans-5", NotAttempt, ""},
		{"Ans dash, then a minus sign", Expected{Answer: "-5"}, "ans - -5", Correct, "-5"},
		{"Ans dash, wrong either way", Expected{Answer: "7"}, "ans-5", Incorrect, ""},
		{"Ans colon", Expected{Answer: "5"}, "Ans:5", Correct, "5"},
		{"Ans equals", Expected{Answer: "5"}, "Ans=5", Correct, "5"},
		{"Ans dot spaced", Expected{Answer: "5"}, "ans. 5", Correct, "5"},
		{"Ans colon, negative", Expected{Answer: "-5"}, "ans: -5", Correct, "-5"},
		// A conclusion word before the label leaves it a label.
		{"so Ans spaced dash", Expected{Answer: "5"}, "so ans - 5", Correct, "5"},
		{"so comma Ans spaced dash", Expected{Answer: "5"}, "So, ans - 5", Correct, "5"},
		{"therefore comma Ans spaced dash", Expected{Answer: "5"}, "therefore, ans - 5", Correct, "5"},
		{"therefore Ans dash", Expected{Answer: "5"}, "therefore ans-5", Correct, "5"},
		{"thus Ans phone dash", Expected{Answer: "5"}, "thus Ans – 5", Correct, "5"},
		{"so Ans dash for a negative answer is unclear", Expected{Answer: "-5"}, "so ans-5", NotAttempt, ""},
		{"so the ans is", Expected{Answer: "5"}, "so the ans is 5", Correct, "5"},
		{"so Ans equals", Expected{Answer: "5"}, "so ans = 5", Correct, "5"},
		{"hence Ans colon", Expected{Answer: "5"}, "hence ans: 5", Correct, "5"},
		{"a subtraction after so my answer", Expected{Answer: "15"}, "so my answer - 5 = 15", Correct, "15"},
		{"a subtraction after so comma my answer", Expected{Answer: "15"}, "so, my answer - 5 = 15", Correct, "15"},
		{"a real minus five", Expected{Answer: "5"}, "it is -5", Incorrect, "-5"},
		{"a real minus five, right", Expected{Answer: "-5"}, "-5", Correct, "-5"},
		{"a subtraction after answer", Expected{Answer: "15"}, "my answer - 5 = 15", Correct, "15"},
		{"currency decimals", Expected{Answer: "32.5"}, "They paid $32.50 in total", Correct, "$32.50"},
	})
}

func TestEvaluateFractions(t *testing.T) {
	half := Expected{Answer: "1/2"}
	simplest := Expected{Answer: "1/2", Simplest: true}
	runEvalCases(t, []evalCase{
		{"same", half, "1/2", Correct, "1/2"},
		{"equivalent", half, "3/6", Correct, "3/6"},
		{"decimal", half, "0.5", Correct, ""},
		{"decimal trailing zero", half, "0.50", Correct, "0.50"},
		{"percent", half, "50%", Correct, ""},
		{"word half", half, "half", Correct, ""},
		{"word a half", half, "a half", Correct, ""},
		{"word one half", half, "one half", Correct, ""},
		{"out of", half, "2 out of 4", Correct, ""},
		{"wrong", half, "1/3", Incorrect, ""},
		{"answer phrase", Expected{Answer: "3/4"}, "the answer is 3/4", Correct, "3/4"},
		{"three quarters", Expected{Answer: "3/4"}, "three quarters", Correct, ""},
		{"three-quarters", Expected{Answer: "3/4"}, "three-quarters", Correct, ""},
		{"digits quarters", Expected{Answer: "3/4"}, "0.75", Correct, ""},
		{"two thirds", Expected{Answer: "2/3"}, "two thirds", Correct, ""},
		{"a third", Expected{Answer: "1/3"}, "a third of them", Correct, ""},
		{"ordinal third is not a fraction", Expected{Answer: "5"}, "the third one is 5", Correct, "5"},
		{"simplest ok", simplest, "1/2", Correct, ""},
		{"simplest unsimplified", simplest, "2/4", Partial, "2/4"},
		{"simplest decimal is not a fraction", simplest, "0.5", Partial, ""},
		{"simplest wrong", simplest, "2/3", Incorrect, ""},
		{"negative fraction", Expected{Answer: "-3/4"}, "-3/4", Correct, ""},
		{"improper", Expected{Answer: "7/4"}, "1 3/4", Correct, ""},
		{"zero denominator", half, "1/0", Incorrect, ""},
		{"fraction slash", Expected{Answer: "7/9"}, "7⁄9", Correct, "7⁄9"},
		{"fraction slash expected", Expected{Answer: "7⁄9"}, "14/18", Correct, ""},
		{"fraction slash wrong", Expected{Answer: "7"}, "7⁄9", Incorrect, ""},
		{"fraction slash simplest", Expected{Answer: "7/9", Simplest: true}, "14⁄18", Partial, ""},
		{"division slash", half, "1∕2", Correct, ""},
		{"division sign alone", Expected{Answer: "3/4"}, "3÷4", Correct, "3÷4"},
		{"division sign alone, spaced", Expected{Answer: "3/4"}, "3 ÷ 4", Correct, "3 ÷ 4"},
		{"division sign alone, half", half, "1÷2", Correct, ""},
		{"fraction slash mixed", Expected{Answer: "3/2"}, "1 1⁄2", Correct, "1 1⁄2"},
		{"vulgar fraction", half, "½", Correct, "½"},
		{"vulgar fraction mixed", Expected{Answer: "7/4"}, "1¾", Correct, ""},
		{"vulgar fraction expected", Expected{Answer: "¾"}, "3/4", Correct, ""},
	})
}

func TestEvaluateMixedNumbers(t *testing.T) {
	m := Expected{Answer: "1 1/2"}
	ms := Expected{Answer: "1 1/2", Simplest: true}
	runEvalCases(t, []evalCase{
		{"same", m, "1 1/2", Correct, "1 1/2"},
		{"improper", m, "3/2", Correct, ""},
		{"decimal", m, "1.5", Correct, ""},
		{"words", m, "one and a half", Correct, ""},
		{"digits and a half", Expected{Answer: "2 1/2"}, "2.5 hours", Correct, ""},
		{"wrong", m, "1 1/4", Incorrect, ""},
		{"simplest unsimplified", ms, "1 2/4", Partial, ""},
		{"simplest improper", ms, "3/2", Partial, ""},
		{"simplest same", ms, "1 1/2", Correct, ""},
		{"in sentence", m, "she ran 1 1/2 miles", Correct, "1 1/2 miles"},
		// Any run of horizontal whitespace between the whole number and
		// the fraction: two spaces, and the no-break spaces that phone
		// keyboards insert.
		{"two spaces", Expected{Answer: "2 1/2"}, "2  1/2", Correct, "2  1/2"},
		{"no-break space", Expected{Answer: "2 1/2"}, "2\u00a01/2", Correct, "2\u00a01/2"},
		{"narrow no-break space", Expected{Answer: "2 1/2"}, "2\u202f1/2", Correct, ""},
	})
}

// TestEvaluateHyphenatedMixedNumber: "2-1/2" and "2–1/2" (an en dash) are
// the mixed number 2 1/2, as learners write it; a negative fraction, a
// spaced subtraction, a computation and an improper fraction after a
// hyphen keep their readings.
func TestEvaluateHyphenatedMixedNumber(t *testing.T) {
	m := Expected{Answer: "2 1/2"}
	runEvalCases(t, []evalCase{
		{"hyphen", m, "2-1/2", Correct, "2-1/2"},
		{"en dash", m, "2–1/2", Correct, "2–1/2"},
		{"hyphen, vulgar expected", Expected{Answer: "2½"}, "2-1/2", Correct, ""},
		{"en dash, vulgar expected", Expected{Answer: "2½"}, "2–1/2", Correct, ""},
		{"hyphen, improper expected", Expected{Answer: "5/2"}, "2-1/2", Correct, ""},
		{"en dash, improper expected", Expected{Answer: "5/2"}, "2–1/2", Correct, ""},
		{"in a sentence", m, "it's 2-1/2 cups", Correct, "2-1/2 cups"},
		{"wrong", m, "2-1/4", Incorrect, "2-1/4"},
		{"not the subtraction's value", Expected{Answer: "3/2"}, "2-1/2", Incorrect, ""},
		{"negative fraction", Expected{Answer: "-1/2"}, "-1/2", Correct, "-1/2"},
		{"spaced subtraction", Expected{Answer: "3/2"}, "2 - 1/2 = 3/2", Correct, "3/2"},
		{"unspaced subtraction with result", Expected{Answer: "3/2"}, "2-1/2=3/2", Correct, "3/2"},
		{"subtraction before it", m, "5-2-1/2", NotAttempt, ""},
		{"computation after it", Expected{Answer: "5/2"}, "2-1/2+0", NotAttempt, ""},
		{"improper after a hyphen", m, "2-3/2", NotAttempt, ""},
		{"fraction range", Expected{Answer: "1/2"}, "1/2-3/4", NotAttempt, ""},
	})
}

func TestEvaluatePercentages(t *testing.T) {
	p := Expected{Answer: "75%"}
	pu := Expected{Answer: "75%", RequireUnit: true}
	runEvalCases(t, []evalCase{
		{"percent misspelt", Expected{Answer: "60%", RequireUnit: true}, "60 percnt", Correct, "60 percnt"},
		{"percent misspelt again", Expected{Answer: "60%", RequireUnit: true}, "60 precent", Correct, ""},
		{"same", p, "75%", Correct, "75%"},
		{"spaced sign", p, "75 %", Correct, ""},
		{"word percent", p, "75 percent", Correct, ""},
		{"per cent", p, "75 per cent", Correct, ""},
		{"decimal", p, "0.75", Correct, ""},
		{"fraction", p, "3/4", Correct, ""},
		{"words", p, "three quarters", Correct, ""},
		{"bare number read as percent", p, "75", Correct, ""},
		{"bare number when the sign is required", pu, "75", Partial, ""},
		{"decimal when the sign is required", pu, "0.75", Partial, "0.75"},
		{"fraction when the sign is required", pu, "3/4", Partial, ""},
		{"words when the sign is required", pu, "three quarters", Partial, ""},
		{"word percent when the sign is required", pu, "75 percent", Correct, ""},
		{"wrong decimal when the sign is required", pu, "0.7", Incorrect, ""},
		{"wrong", p, "70%", Incorrect, ""},
		{"bare wrong", p, "0.7", Incorrect, ""},
		{"percent for a plain number", Expected{Answer: "30"}, "30%", Correct, ""},
		{"explicit kind", Expected{Answer: "0.25", Kind: KindPercentage}, "25%", Correct, ""},
		{"in sentence", p, "I think 75% of them passed", Correct, "75%"},
	})
}

func TestEvaluateUnits(t *testing.T) {
	cm := Expected{Answer: "12 cm"}
	cmu := Expected{Answer: "12 cm", RequireUnit: true}
	runEvalCases(t, []evalCase{
		{"same", cm, "12 cm", Correct, "12 cm"},
		{"spelled out", cm, "12 centimetres", Correct, "12 centimetres"},
		{"american spelling", cm, "12 centimeters", Correct, ""},
		{"converted", cm, "120 mm", Correct, ""},
		{"converted metres", cm, "0.12 m", Correct, ""},
		{"missing unit", cm, "12", Correct, ""},
		{"missing unit required", cmu, "12", Partial, ""},
		{"wrong unit", cm, "12 m", Partial, "12 m"},
		{"wrong unit required", cmu, "12 kg", Partial, ""},
		{"wrong value", cm, "13 cm", Incorrect, ""},
		{"wrong value and unit", cm, "13 m", Incorrect, ""},
		{"no number", cm, "centimetres?", NotAttempt, ""},
		{"count noun", Expected{Answer: "42 apples"}, "I think it's 42 apples", Correct, "42 apples"},
		{"count noun singular", Expected{Answer: "1 apple"}, "1 apple", Correct, ""},
		{"count noun missing", Expected{Answer: "42 apples", RequireUnit: true}, "42", Partial, ""},
		{"count noun other word", Expected{Answer: "42 apples"}, "42 because I counted", Correct, "42"},
		{"money symbol", Expected{Answer: "$5"}, "5 dollars", Correct, ""},
		{"money bare", Expected{Answer: "$5"}, "5", Correct, ""},
		{"money cents", Expected{Answer: "$5"}, "500 cents", Correct, ""},
		{"money wrong unit", Expected{Answer: "$5"}, "5 cents", Partial, ""},
		{"area", Expected{Answer: "20 cm²"}, "20 sq cm", Correct, ""},
		{"area caret", Expected{Answer: "20 cm^2"}, "20 square centimetres", Correct, ""},
		{"area not length", Expected{Answer: "20 cm^2"}, "20 cm", Partial, ""},
		{"speed", Expected{Answer: "60 km/h"}, "60 kilometres per hour", Correct, ""},
		{"time convert", Expected{Answer: "2 hours"}, "120 minutes", Correct, ""},
		{"mass", Expected{Answer: "1.5 kg"}, "1500 g", Correct, ""},
		{"temperature", Expected{Answer: "30 °C"}, "30°C", Correct, ""},
		{"temperature spaced", Expected{Answer: "100 °C"}, "it boils at 100 °C", Correct, "100 °C"},
		{"temperature in degrees", Expected{Answer: "100 °C"}, "100 degrees", Correct, ""},
		{"temperature in words", Expected{Answer: "100 °C"}, "100 celsius", Correct, ""},
		{"temperature wrong scale", Expected{Answer: "100 °C"}, "100 °F", Partial, "100 °F"},
		{"temperature wrong scale spaced", Expected{Answer: "100 °C"}, "100° F", Partial, ""},
		{"temperature wrong scale in degrees", Expected{Answer: "100 °C"}, "100 degrees F", Partial, ""},
		{"temperature wrong scale in words", Expected{Answer: "100 °C"}, "100 degrees fahrenheit", Partial, ""},
		{"temperature in degrees celsius", Expected{Answer: "100 °C"}, "100 degrees celsius", Correct, ""},
		{"temperature spaced scale", Expected{Answer: "100 °C"}, "100 ° C", Correct, ""},
		{"temperature for a bare number", Expected{Answer: "100"}, "100°C", Correct, "100°C"},
		{"angle is no temperature", Expected{Answer: "90°"}, "90 °C", Partial, ""},
		{"cubed superscript", Expected{Answer: "2 m³"}, "2000 litres", Correct, ""},
		{"squared superscript is not a length", Expected{Answer: "20 m²"}, "20 m", Partial, ""},
		{"inch not in", Expected{Answer: "5 inches"}, "5 in total", Correct, ""},
		// A rate is another quantity than the count it is a rate of.
		{"rate for a count", Expected{Answer: "9 boxes"}, "72/8 = 9 pencils per box.", Partial, "9 pencils per box"},
		{"bare rate for a count", Expected{Answer: "9 boxes"}, "9 per box", Partial, "9 per box"},
		{"rate for a rate", Expected{Answer: "8 pencils per box"}, "8 pencils per box", Correct, ""},
		{"rate of another thing", Expected{Answer: "8 pencils per box"}, "8 pens per box", Partial, ""},
		{"rate missing", Expected{Answer: "8 pencils per box"}, "8", Correct, ""},
		{"rate for a bare number", Expected{Answer: "6"}, "an average of 6 pages per day", Correct, "6 pages per day"},
		// A compound quantity of one dimension in decreasing units is
		// one summed quantity, in a reply and in an expected answer.
		{"compound time", Expected{Answer: "150 min"}, "2 hours 30 minutes", Correct, "2 hours 30 minutes"},
		{"compound time in hours", Expected{Answer: "2.5 h"}, "2 h 30 min", Correct, ""},
		{"compound length", Expected{Answer: "1.25 m"}, "1 m 25 cm", Correct, "1 m 25 cm"},
		{"compound expected", Expected{Answer: "2 h 30 min"}, "2 hours 30 minutes", Correct, ""},
		{"compound expected, simple reply", Expected{Answer: "2 h 30 min"}, "150 min", Correct, ""},
		{"compound with and", Expected{Answer: "150 min"}, "It took 2 hours and 30 minutes.", Correct, "2 hours and 30 minutes"},
		{"compound wrong", Expected{Answer: "2 h 30 min"}, "2 h 20 min", Incorrect, ""},
		{"compound is not its first part", Expected{Answer: "2 h"}, "2 h 30 min", Incorrect, ""},
		{"compound of mixed dimensions is not summed", Expected{Answer: "2 kg"}, "2 kg 30 cm", Correct, "2 kg"},
		// A power written as a plain digit after the unit, as keyboards
		// without ² write it: "25 cm2" is 25 cm². A digit apart from the
		// unit ("25 cm 2") and a formula ("CO2") are not powers.
		{"area with a digit power", Expected{Answer: "25 cm²"}, "25 cm2", Correct, "25 cm2"},
		{"area with a digit power, caret expected", Expected{Answer: "25 cm^2"}, "25 cm2", Correct, ""},
		{"square metres with a digit power", Expected{Answer: "25 m²"}, "25 m2", Correct, ""},
		{"square kilometres with a digit power", Expected{Answer: "25 km²"}, "it is 25 km2", Correct, "25 km2"},
		{"cubic centimetres with a digit power", Expected{Answer: "25 cm³"}, "25 cm3", Correct, ""},
		{"cubic metres with a digit power", Expected{Answer: "25 m³"}, "25 m3.", Correct, ""},
		{"digit power converted", Expected{Answer: "1 m²"}, "10000 cm2", Correct, ""},
		{"an area for a length", Expected{Answer: "25 cm"}, "25 cm2", Partial, ""},
		{"a formula is no power", Expected{Answer: "CO2"}, "co2", Correct, ""},
	})
}

func TestEvaluateChoice(t *testing.T) {
	b := Expected{Answer: "B", Options: []string{"12", "15", "18", "21"}}
	txt := Expected{Answer: "mitochondria", Kind: KindChoice, Options: []string{"nucleus", "mitochondria", "ribosome"}}
	cmp := Expected{Answer: "B", Options: []string{"greater than 3/4", "less than 3/4", "equal to 3/4"}}
	solid := Expected{Answer: "C", Kind: KindChoice, Options: []string{"gas", "liquid", "solid"}}
	runEvalCases(t, []evalCase{
		{"or hedge of letters", Expected{Answer: "C", Options: []string{"gas", "liquid", "solid"}}, "A or C", NotAttempt, ""},
		{"or hedge, right one first", Expected{Answer: "A", Options: []string{"solid", "liquid", "gas"}}, "A or C", NotAttempt, ""},
		{"or after a negation", Expected{Answer: "A", Options: []string{"solid", "liquid", "gas"}}, "A (solid), not B or C", Correct, ""},
		{"or, then not sure", Expected{Answer: "A", Options: []string{"solid", "liquid", "gas"}}, "A or C, not sure", NotAttempt, ""},
		{"or the same option", Expected{Answer: "C", Options: []string{"gas", "liquid", "solid"}}, "C or solid", Correct, ""},
		{"letter", b, "B", Correct, "B"},
		{"lower", b, "b", Correct, ""},
		{"parens", b, "(b)", Correct, ""},
		{"paren after", b, "b)", Correct, ""},
		{"option word", b, "option b", Correct, ""},
		{"sentence", b, "I think it's B", Correct, ""},
		{"answer phrase", b, "the answer is b.", Correct, ""},
		{"option text", b, "15", Correct, ""},
		{"option number", b, "option 2", Correct, ""},
		{"wrong letter", b, "C", Incorrect, "C"},
		{"wrong option text", b, "18", Incorrect, ""},
		{"negated then right", b, "not A, it's B", Correct, "B"},
		{"wrong with reason", b, "C because B is too small", Incorrect, "C"},
		{"hedge with right", b, "B or C?", NotAttempt, ""},
		{"hedge neither", b, "A or C?", Incorrect, ""},
		{"article a is not an option", txt, "it's a mitochondria", Correct, ""},
		{"text option", txt, "the mitochondria", Correct, ""},
		{"text wrong option", txt, "nucleus", Incorrect, ""},
		{"text by letter", txt, "(b)", Correct, ""},
		// An option named by the one word that sets it apart.
		{"option keyword with a reason", cmp, "less, because 2/5 is less than 1", Correct, "less"},
		{"option keyword alone", cmp, "its less", Correct, "less"},
		{"option keyword synonym", cmp, "smaller", Correct, "smaller"},
		{"wrong option keyword, reason names another", cmp, "greater because 2/5 is less than 1", Incorrect, "greater"},
		{"option keywords hedged", cmp, "less or equal", NotAttempt, ""},
		{"option keyword negated", cmp, "not less", Incorrect, ""},
		{"two option keywords", cmp, "bigger and smaller", Incorrect, ""},
		{"keyword of two options", Expected{Answer: "A", Options: []string{"hot water", "cold water"}}, "water", Incorrect, ""},
		{"keyword of a two-word option", Expected{Answer: "A", Options: []string{"hot water", "cold water"}}, "hot because the particles move faster", Correct, "hot"},
		{"idk", b, "no idea", NotAttempt, ""},
		{"pronoun I", b, "I", NotAttempt, ""},
		// A lowercase letter before a word, as phones and school chat
		// type it, where the question has options.
		{"letter before is correct", solid, "c is correct", Correct, "c"},
		{"letter before is the answer", solid, "c is the answer", Correct, ""},
		{"letter before is right", solid, "c is right", Correct, ""},
		{"letter before sir", solid, "c sir", Correct, ""},
		{"letter before only", solid, "c only", Correct, ""},
		{"letter before hai", solid, "c hai", Correct, ""},
		{"letter before option", solid, "c option", Correct, ""},
		{"letter after answer is, before sir", solid, "answer is c sir", Correct, ""},
		{"letter before i think", solid, "c i think", Correct, ""},
		{"letter before a reason", solid, "c because the particles are packed tightly", Correct, "c"},
	})
}

func TestEvaluateText(t *testing.T) {
	ps := Expected{Answer: "photosynthesis"}
	paris := Expected{Answer: "Paris", Accept: []string{"Paree"}}
	runEvalCases(t, []evalCase{
		{"or with a formula", Expected{Answer: "carbon dioxide", Kind: KindText}, "carbon dioxide or CO2", Correct, ""},
		{"or with its name", Expected{Answer: "O2", Kind: KindText}, "oxygen or O2", Correct, ""},
		{"or with another formula", Expected{Answer: "O2", Kind: KindText}, "CO2 or O2", NotAttempt, ""},
		{"or, then unsure", Expected{Answer: "solid", Kind: KindText}, "solid or liquid, I don't know", NotAttempt, ""},
		{"or, then not sure", Expected{Answer: "solid", Kind: KindText}, "liquid or solid, not sure", NotAttempt, ""},
		{"or after a negation", Expected{Answer: "solid", Kind: KindText}, "it's solid, not liquid or gas", Correct, ""},
		{"or restating", Expected{Answer: "solid", Kind: KindText}, "solid or, more exactly, crystalline", Correct, ""},
		{"or, neither right", Expected{Answer: "solid", Kind: KindText}, "liquid or gas", Incorrect, ""},
		{"short word swapped", Expected{Answer: "solid", Kind: KindText}, "soild", Correct, "soild"},
		{"short word changed", Expected{Answer: "solid", Kind: KindText}, "sold", Incorrect, ""},
		{"long word two slips", Expected{Answer: "chlorophyll", Kind: KindText}, "clorophyl", Correct, "clorophyl"},
		{"long word, another word", Expected{Answer: "chlorophyll", Kind: KindText}, "chloroplast", Incorrect, ""},
		{"long word, its opposite", Expected{Answer: "refraction", Kind: KindText}, "reflection", Incorrect, ""},
		{"long word, another process", Expected{Answer: "conduction", Kind: KindText}, "convection", Incorrect, ""},
		{"long word, its prefix dropped", Expected{Answer: "irreversible", Kind: KindText}, "reversible", Incorrect, ""},
		{"long word, another prefix", Expected{Answer: "increasing", Kind: KindText}, "decreasing", Incorrect, ""},
		{"or hedge", Expected{Answer: "solid", Kind: KindText}, "is it solid or gas", NotAttempt, ""},
		{"or hedge with a comma", Expected{Answer: "solid", Kind: KindText}, "solid, or maybe liquid", NotAttempt, ""},
		{"or the same answer", Expected{Answer: "solid", Kind: KindText}, "solid or a solid", Correct, ""},
		{"answer that holds or", Expected{Answer: "freezing or solidification", Kind: KindText}, "freezing or solidification", Correct, ""},
		{"exact", ps, "photosynthesis", Correct, ""},
		{"case and punctuation", ps, "Photosynthesis!", Correct, ""},
		{"in a sentence", ps, "I think it's photosynthesis", Correct, "photosynthesis"},
		{"negated", ps, "not photosynthesis", Incorrect, ""},
		{"doubted", ps, "I don't think it's photosynthesis", Incorrect, ""},
		{"doubted without apostrophes", ps, "i dont think its photosynthesis", Incorrect, ""},
		{"doubted, then given", ps, "I do not believe it is respiration, it's photosynthesis", Correct, "photosynthesis"},
		{"doubt about something else", ps, "I don't think so, it's photosynthesis", Correct, "photosynthesis"},
		{"negated then right", Expected{Answer: "respiration"}, "it's not photosynthesis, it's respiration", Correct, "respiration"},
		{"wrong", ps, "respiration", Incorrect, ""},
		{"articles", Expected{Answer: "the water cycle"}, "a water cycle", Correct, ""},
		{"whitespace", Expected{Answer: "water cycle"}, "  water   cycle ", Correct, ""},
		{"plural", Expected{Answer: "triangle"}, "triangles", Correct, ""},
		{"accepted alternative", paris, "paree", Correct, ""},
		{"one letter missing", Expected{Answer: "chlorophyll"}, "it's chlorophyl", Correct, "chlorophyl"},
		{"one letter wrong", Expected{Answer: "diffusion"}, "deffusion", Correct, ""},
		{"letters swapped", Expected{Answer: "diffusion"}, "diffsuion", Correct, ""},
		{"split word", Expected{Answer: "carbon dioxide"}, "carbon di oxide", Correct, "carbon di oxide"},
		{"subscript digit", Expected{Answer: "CO2"}, "CO₂", Correct, "CO₂"},
		{"subscript digit in a sentence", Expected{Answer: "H2O"}, "I think it's H₂O", Correct, "H₂O"},
		{"subscript digit expected", Expected{Answer: "CO₂"}, "CO2", Correct, "CO2"},
		{"subscript digit is not dropped", Expected{Answer: "CO₂"}, "CO", Incorrect, ""},
		{"subscript digits in a formula", Expected{Answer: "C6H12O6"}, "C₆H₁₂O₆", Correct, ""},
		{"a longer formula", Expected{Answer: "H2O"}, "H2O2", Incorrect, ""},
		{"a longer formula with subscripts", Expected{Answer: "H₂O"}, "H₂O₂", Incorrect, ""},
		{"a formula with a digit", Expected{Answer: "CO"}, "CO2", Incorrect, ""},
		{"a formula then a number", Expected{Answer: "H2O"}, "H2O 2 times", Correct, ""},
		{"wrong subscript digit", Expected{Answer: "CO2"}, "CO₃", Incorrect, ""},
		{"two slips are another word", Expected{Answer: "diffusion"}, "difusian", Incorrect, ""},
		{"short words need the spelling", Expected{Answer: "solid"}, "solod", Incorrect, ""},
		{"negated slip", Expected{Answer: "chlorophyll"}, "not chlorophyl", Incorrect, ""},
		{"canonical", paris, "It is Paris.", Correct, ""},
		{"idk", ps, "I don't know", NotAttempt, ""},
		{"filler", ps, "hmm?", NotAttempt, ""},
		{"explanation cannot be checked", Expected{Answer: "Plants convert light energy into chemical energy stored in glucose and release oxygen."}, "they make food from light", CannotCheck, ""},
		{"explanation verbatim", Expected{Answer: "Plants convert light energy into chemical energy stored in glucose and release oxygen."}, "plants convert light energy into chemical energy stored in glucose and release oxygen", Correct, ""},
		{"no expected answer", Expected{}, "anything", CannotCheck, ""},
		{"unknown kind", Expected{Answer: "x", Kind: "essay"}, "anything", CannotCheck, ""},
		// An expected answer glossed in brackets.
		{"gloss: the answer", Expected{Answer: "Halving (dividing by 2)"}, "halving", Correct, "halving"},
		{"gloss: in a sentence", Expected{Answer: "Halving (dividing by 2)"}, "it's called halving", Correct, "halving"},
		{"gloss: the gloss", Expected{Answer: "Halving (dividing by 2)"}, "dividing by two", Correct, ""},
		{"gloss: the whole", Expected{Answer: "Halving (dividing by 2)"}, "Halving (dividing by 2)", Correct, ""},
		{"gloss: wrong", Expected{Answer: "Halving (dividing by 2)"}, "doubling", Incorrect, ""},
		{"gloss: or", Expected{Answer: "Halving (or dividing by 2)"}, "dividing by 2", Correct, ""},
		{"gloss: a formula", Expected{Answer: "carbon dioxide (CO2)", Kind: KindText}, "CO₂", Correct, ""},
		{"gloss: an example is no answer", Expected{Answer: "mammals (e.g. dogs)"}, "dogs", Incorrect, ""},
		{"gloss: a condition is no answer", Expected{Answer: "boiling (at 100 degrees)"}, "at 100 degrees", Incorrect, ""},
		{"gloss: negated is no answer", Expected{Answer: "evaporation (not boiling)"}, "not boiling", Incorrect, ""},
		{"gloss: the answer, with a condition", Expected{Answer: "boiling (at 100 degrees)"}, "boiling", Correct, ""},
		{"gloss: accepted form glossed", Expected{Answer: "halving", Accept: []string{"division by 2 (splitting in two)"}}, "splitting in two", Correct, ""},
	})
}

func TestEvaluateBoolean(t *testing.T) {
	yes := Expected{Answer: "yes"}
	no := Expected{Answer: "false"}
	runEvalCases(t, []evalCase{
		{"yes", yes, "yes", Correct, "yes"},
		{"yeah", yes, "yeah", Correct, ""},
		{"yep sentence", yes, "yep, I think so", Correct, ""},
		{"true", yes, "true", Correct, ""},
		{"correct", yes, "correct", Correct, ""},
		{"right", yes, "that's right", Correct, ""},
		{"think so", yes, "I think so", Correct, ""},
		{"ok is no answer", yes, "ok", NotAttempt, ""},
		{"okay is no answer", yes, "okay", NotAttempt, ""},
		{"ok then yes", yes, "ok, yes", Correct, ""},
		{"no for yes", yes, "no", Incorrect, "no"},
		{"don't think so", yes, "I don't think so", Incorrect, "don't think so"},
		{"not true", yes, "not true", Incorrect, "not true"},
		{"false", no, "false", Correct, ""},
		{"nope", no, "nope", Correct, ""},
		{"wrong", no, "wrong", Correct, ""},
		{"isn't right", no, "that isn't right", Correct, ""},
		{"discourse right", no, "Right, it's false", Correct, ""},
		{"it is not", no, "it is not", Correct, ""},
		{"yes or no", yes, "yes or no?", NotAttempt, ""},
		{"idk", yes, "I don't know", NotAttempt, ""},
		{"no idea is not no", yes, "no idea", NotAttempt, ""},
		{"not sure is not no", yes, "I'm not sure", NotAttempt, ""},
		{"nothing", yes, "hmm", NotAttempt, ""},
		{"hinglish", yes, "haan", Correct, ""},
		{"hinglish ha", yes, "ha", Correct, "ha"},
		{"hinglish haa", yes, "haa", Correct, ""},
		{"hinglish ha sir", yes, "ha sir", Correct, ""},
		{"hinglish nhi", Expected{Answer: "no", Kind: KindBoolean}, "nhi", Correct, "nhi"},
		{"hinglish nhi sir", Expected{Answer: "no", Kind: KindBoolean}, "nhi sir", Correct, ""},
		{"hinglish nai", Expected{Answer: "no", Kind: KindBoolean}, "nai", Correct, ""},
		// A letter for true or false, yes or no.
		{"letter F", no, "F", Correct, "F"},
		{"letter f", no, "f.", Correct, "f"},
		{"letter T for false", no, "T", Incorrect, "T"},
		{"letter in brackets", Expected{Answer: "True"}, "(t)", Correct, "t"},
		{"letter then a reason", no, "F, plants need light", Correct, "F"},
		{"letter upper-case answer", Expected{Answer: "FALSE"}, "f", Correct, ""},
		{"letter Y", yes, "Y", Correct, "Y"},
		{"letter n", yes, "n", Incorrect, "n"},
		{"letter Y is no true", Expected{Answer: "true"}, "Y", NotAttempt, ""},
		{"letter T is no yes", yes, "T", NotAttempt, ""},
		{"letter after a word", no, "it's f", NotAttempt, ""},
		{"letter before a word", no, "f is", NotAttempt, ""},
		{"letter in a formula", no, "F = ma", NotAttempt, ""},
		{"letter asked", no, "F?", Correct, ""},
		{"letters hedged", no, "T or F?", NotAttempt, ""},
		{"letter negated", no, "not F", NotAttempt, ""},
		{"word before letter", no, "false, not T", Correct, "false"},
	})
}

// A learner who copies the prompt's label before answering ("True/False:
// True", "True or False: F") answers with what follows the label; the
// label alone, or followed by both values, answers nothing.
func TestEvaluatePromptLabel(t *testing.T) {
	tr, fa := Expected{Answer: "true"}, Expected{Answer: "false"}
	runEvalCases(t, []evalCase{
		{"label then the answer", tr, "True/False: True", Correct, "True"},
		{"label then another answer", tr, "True/False: False", Incorrect, "False"},
		{"spaced label", tr, "True / False : true", Correct, "true"},
		{"label with or", fa, "True or False: False", Correct, "False"},
		{"label in lower case", fa, "true or false: false, plants need light", Correct, "false"},
		{"label then a letter", fa, "True/False: F", Correct, "F"},
		{"label then a negation", fa, "True or False: not true", Correct, "not true"},
		{"yes or no label", Expected{Answer: "yes"}, "Yes or no: no", Incorrect, "no"},
		{"label alone", tr, "True/False:", NotAttempt, ""},
		{"label then both values", tr, "True/False: true/false", NotAttempt, ""},
	})
}

func TestEvaluateListsAndSets(t *testing.T) {
	set := Expected{Answer: "{2, 3, 5}"}
	list := Expected{Answer: "[1, 4, 9]"}
	runEvalCases(t, []evalCase{
		{"set same", set, "2, 3, 5", Correct, ""},
		{"set other order", set, "5, 3 and 2", Correct, ""},
		{"set in sentence", set, "the primes are 2, 3 and 5", Correct, ""},
		{"set partial", set, "2 and 3", Partial, ""},
		{"set extra", set, "2, 3, 5, 7", Partial, ""},
		{"set none", set, "4, 6", Incorrect, ""},
		{"set no numbers", set, "hmm", NotAttempt, ""},
		{"list same", list, "1, 4, 9", Correct, ""},
		{"list wrong order", list, "9, 4, 1", Partial, ""},
		{"list missing", list, "1, 4", Partial, ""},
		{"list wrong", list, "2, 3", Incorrect, ""},
		{"text set", Expected{Answer: "red, green and blue", Kind: KindSet}, "blue, red, green", Correct, ""},
		{"text set partial", Expected{Answer: "red, green and blue", Kind: KindSet}, "red and blue", Partial, ""},
		{"text set wrong", Expected{Answer: "red, green and blue", Kind: KindSet}, "yellow", Incorrect, ""},
		{"text list order", Expected{Answer: "[red, green, blue]"}, "blue, green, red", Partial, ""},
		{"fractions in a set", Expected{Answer: "{1/2, 1/4}"}, "0.25 and 0.5", Correct, ""},
		// Commas without spaces keep a list a list: no digit grouping.
		{"list without spaces", Expected{Answer: "[1, 2, 3]"}, "1,2,3", Correct, ""},
		{"pair without spaces", Expected{Answer: "(3, 4)"}, "(3,4)", Correct, ""},
		{"pairs of digits without spaces", Expected{Answer: "[12, 34, 56]"}, "12,34,56", Correct, ""},
		{"list before a lakh", Expected{Answer: "{5, 120000}"}, "5,1,20,000", Partial, ""},
	})
}

func TestEvaluateRatios(t *testing.T) {
	r := Expected{Answer: "3:5"}
	rs := Expected{Answer: "3:5", Simplest: true}
	runEvalCases(t, []evalCase{
		{"same", r, "3:5", Correct, "3:5"},
		{"spaced", r, "3 : 5", Correct, "3 : 5"},
		{"the ratio sign", r, "3\u22365", Correct, "3\u22365"},
		{"to", r, "3 to 5", Correct, "3 to 5"},
		{"is to", r, "3 is to 5", Correct, "3 is to 5"},
		{"words", r, "three to five", Correct, ""},
		{"in a sentence", r, "the ratio is 3:5", Correct, "3:5"},
		{"with a reason", r, "3:5 because 15 and 25 are both divisible by 5", Correct, "3:5"},
		{"reversed", r, "5:3", Incorrect, "5:3"},
		{"equivalent", r, "6:10", Correct, "6:10"},
		{"equivalent when the simplest is asked", rs, "6:10", Partial, "6:10"},
		{"simplest", rs, "3:5", Correct, ""},
		{"decimal terms when the simplest is asked", rs, "1.5:2.5", Partial, ""},
		{"simplified to", rs, "15:25 simplifies to 3:5", Correct, "3:5"},
		{"reason is not the answer", rs, "3:5 because 15:25 divided by 5 is 3:5", Correct, "3:5"},
		{"negated then right", r, "not 5:3, it's 3:5", Correct, "3:5"},
		{"self-correction", r, "5:3, no wait, 3:5", Correct, "3:5"},
		{"hedge", r, "3:5 or 5:3?", NotAttempt, "3:5 or 5:3"},
		// A fraction is the other school notation of a two-term ratio; "3
		// out of 5" is a part of a whole, and one number is no ratio.
		{"fraction", r, "3/5", Correct, "3/5"},
		{"fraction spaced", r, "3 / 5", Correct, "3 / 5"},
		{"fraction reversed", r, "5/3", Incorrect, ""},
		{"unsimplified fraction when the simplest is asked", rs, "6/10", Partial, ""},
		{"out of", r, "3 out of 5", Incorrect, ""},
		{"single number", r, "0.6", Incorrect, "0.6"},
		{"range", r, "from 3 to 5", Incorrect, ""},
		{"range in minutes", r, "3 to 5 minutes", Incorrect, ""},
		{"range of times", r, "about 3 to 5 times bigger", Incorrect, ""},
		{"range in centimetres", r, "3 to 5 cm", Incorrect, ""},
		// Two different answers in any forms are a hedge; one value in two
		// forms is not.
		{"hedge between fractions", r, "3/5 or 5/3", NotAttempt, "3/5 or 5/3"},
		{"hedge asked", r, "is it 3/5 or 5/3", NotAttempt, ""},
		{"hedge across forms", r, "3:5 or 5/3", NotAttempt, "3:5 or 5/3"},
		{"hedge fraction first", r, "5/3 or 3:5", NotAttempt, ""},
		{"hedge with to", r, "3 to 5 or 5/3", NotAttempt, ""},
		{"hedge with a number", r, "3:5 or 6", NotAttempt, ""},
		{"hedge number first", r, "6 or 3:5", NotAttempt, ""},
		{"hedge neither right", r, "5:3 or 6", Incorrect, ""},
		{"same ratio twice", r, "3:5 or 6:10", Correct, ""},
		{"same value as a decimal", r, "3:5 or 0.6", Correct, "3:5"},
		{"no ratio", r, "hmm", NotAttempt, ""},
		{"idk", r, "I don't know", NotAttempt, ""},
		{"three terms", Expected{Answer: "2:3:5"}, "4 : 6 : 10", Correct, ""},
		{"three terms reordered", Expected{Answer: "2:3:5"}, "2:5:3", Incorrect, ""},
		{"terms missing", Expected{Answer: "2:3:5"}, "2:3", Incorrect, ""},
		{"decimal terms", Expected{Answer: "1.5:2"}, "3:4", Correct, ""},
		{"explicit kind", Expected{Answer: "3 to 5", Kind: KindRatio}, "3:5", Correct, ""},
		// "ratio" said between the terms: "3 ratio 5", "3 ratio to 5".
		{"ratio said", r, "3 ratio 5", Correct, "3 ratio 5"},
		{"ratio to said", r, "3 ratio to 5", Correct, "3 ratio to 5"},
		{"ratio said, reversed", r, "5 ratio 3", Incorrect, ""},
		{"ratio said, equivalent", rs, "6 ratio 10", Partial, ""},
		{"not a ratio answer", Expected{Answer: "9 boxes", Kind: KindRatio}, "9", CannotCheck, ""},
	})
}

func TestEvaluateExpressions(t *testing.T) {
	e := Expected{Answer: "2x + 6"}
	x7 := Expected{Answer: "x = 7"}
	runEvalCases(t, []evalCase{
		{"same", e, "2x+6", Correct, "2x+6"},
		{"factored", e, "2(x+3)", Correct, "2(x+3)"},
		{"reordered", e, "6 + x*2", Correct, ""},
		{"in sentence", e, "I think it's 2x + 6", Correct, "2x + 6"},
		{"identity", e, "2(x+3) = 2x+6", Correct, ""},
		{"negated then right", e, "not 2x+3, it's 2x+6", Correct, ""},
		{"wrong", e, "2x+3", Incorrect, ""},
		{"wrong sign", e, "2x-6", Incorrect, ""},
		{"powers", Expected{Answer: "x^2 + 2x + 1"}, "(x+1)^2", Correct, ""},
		{"powers star", Expected{Answer: "x^2 + 2x + 1"}, "(x+1)**2", Correct, ""},
		{"squared sign", Expected{Answer: "x^2 - 1"}, "(x+1)(x-1)", Correct, ""},
		{"superscript", Expected{Answer: "x^2"}, "x²", Correct, ""},
		{"two variables", Expected{Answer: "3(a+b)"}, "3a + 3b", Correct, ""},
		{"implicit product", Expected{Answer: "2ab"}, "2 * a * b", Correct, ""},
		{"division", Expected{Answer: "x/2"}, "0.5x", Correct, ""},
		{"unicode times", Expected{Answer: "6x"}, "2 × 3x", Correct, ""},
		{"sqrt", Expected{Answer: "sqrt(x^2)", Kind: KindExpression}, "sqrt(x*x)", Correct, ""},
		{"no expression", e, "hmm", NotAttempt, ""},
		{"idk", e, "I don't know", NotAttempt, ""},
		{"assignment", x7, "x = 7", Correct, "7"},
		{"assignment spaced", x7, "x=7", Correct, ""},
		{"assignment is", x7, "x is 7", Correct, ""},
		{"assignment bare", x7, "7", Correct, ""},
		{"assignment sentence", x7, "so I got x = 7", Correct, ""},
		{"assignment wrong", x7, "x = 6", Incorrect, ""},
		{"assignment with others", x7, "x=7 and y=2", Correct, ""},
		{"assignment fraction", Expected{Answer: "x = 1/2"}, "x = 0.5", Correct, ""},
		{"assignment negative", Expected{Answer: "x = -3"}, "x = -3", Correct, ""},
		// The value first states the same assignment.
		{"assignment reversed", Expected{Answer: "x = 4"}, "4 = x", Correct, "4"},
		{"assignment reversed negative", Expected{Answer: "y = -2"}, "-2 = y", Correct, "-2"},
		{"assignment reversed wrong", Expected{Answer: "x = 4"}, "5 = x", Incorrect, ""},
		{"system", Expected{Answer: "x = 7, y = 2"}, "x=7 and y=2", Correct, ""},
		{"system reversed", Expected{Answer: "x = 7, y = 2"}, "y = 2, x = 7", Correct, ""},
		{"system partial", Expected{Answer: "x = 7, y = 2"}, "x = 7, y = 3", Partial, ""},
		{"system wrong", Expected{Answer: "x = 7, y = 2"}, "x = 1, y = 1", Incorrect, ""},
		{"equation", Expected{Answer: "2x + 3 = 7", Kind: KindExpression}, "2x = 4", Correct, ""},
		{"equation solved", Expected{Answer: "2x + 3 = 7", Kind: KindExpression}, "x = 2", Correct, ""},
		{"equation wrong", Expected{Answer: "2x + 3 = 7", Kind: KindExpression}, "x = 3", Incorrect, ""},
		{"line", Expected{Answer: "y = 2x + 3"}, "y = 3 + 2x", Correct, ""},
	})
}

func TestInferKind(t *testing.T) {
	cases := map[string]Kind{
		"42":                  KindInteger,
		"-7":                  KindInteger,
		"1,200":               KindInteger,
		"1,20,000":            KindInteger,
		"1,2,3":               KindSet,
		"12,34":               KindSet,
		"7⁄9":                 KindFraction,
		"½":                   KindFraction,
		"3.14":                KindDecimal,
		"3/4":                 KindFraction,
		"1 1/2":               KindMixedNumber,
		"75%":                 KindPercentage,
		"75 percent":          KindPercentage,
		"12 cm":               KindUnit,
		"$5":                  KindUnit,
		"42 apples":           KindUnit,
		"60 km/h":             KindUnit,
		"2 h 30 min":          KindUnit,
		"3:5":                 KindRatio,
		"2:3:5":               KindRatio,
		"1.5 : 2":             KindRatio,
		"3:15":                KindText, // maybe a time: ratio only when said
		"12:00":               KindText,
		"3:150":               KindRatio,
		"Note: 5":             KindText,
		"2:30 pm":             KindText,
		"1:2, 2:3":            KindSet,
		"x:y":                 KindText,
		"B":                   KindChoice,
		"(c)":                 KindChoice,
		"yes":                 KindBoolean,
		"False":               KindBoolean,
		"[1, 2, 3]":           KindList,
		"{2, 3}":              KindSet,
		"2, 3, 5":             KindSet,
		"2x + 6":              KindExpression,
		"x = 7":               KindExpression,
		"x = 7, y = 2":        KindExpression,
		"(x+1)(x-1)":          KindExpression,
		"photosynthesis":      KindText,
		"the water cycle":     KindText,
		"":                    KindText,
		"Plants make food.":   KindText,
		"red, green and blue": KindSet,
		"three quarters":      KindFraction,
	}
	got := map[string]Kind{}
	for in := range cases {
		got[in] = InferKind(in)
	}
	if diff := cmp.Diff(cases, got); diff != "" {
		t.Errorf("InferKind mismatch (-want +got):\n%s", diff)
	}
}

func TestEvaluateResultFields(t *testing.T) {
	got := Evaluate(Expected{Answer: "3/4"}, "I think it's 0.75")
	want := Result{Verdict: Correct, Extracted: "0.75", Kind: KindFraction}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Evaluate mismatch (-want +got):\n%s", diff)
	}
	got = Evaluate(Expected{Answer: "60%", RequireUnit: true}, "0.6")
	want = Result{Verdict: Partial, Extracted: "0.6", Kind: KindPercentage, Reason: "right value, not written as a percentage"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Evaluate mismatch (-want +got):\n%s", diff)
	}
	got = Evaluate(Expected{Answer: "60%", RequireUnit: true}, "60")
	want = Result{Verdict: Partial, Extracted: "60", Kind: KindPercentage, Reason: "right number, percent sign missing"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Evaluate mismatch (-want +got):\n%s", diff)
	}
	got = Evaluate(Expected{Answer: "3:5", Simplest: true}, "6:10")
	want = Result{Verdict: Partial, Extracted: "6:10", Kind: KindRatio, Reason: "not in simplest form"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Evaluate mismatch (-want +got):\n%s", diff)
	}
	got = Evaluate(Expected{Answer: "12 cm", RequireUnit: true}, "12")
	want = Result{Verdict: Partial, Extracted: "12", Kind: KindUnit, Reason: "right number, unit missing"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Evaluate mismatch (-want +got):\n%s", diff)
	}
}

func TestVerdictKnown(t *testing.T) {
	for v, want := range map[Verdict]bool{Correct: true, Partial: true, Incorrect: true, NotAttempt: false, CannotCheck: false} {
		if got := v.Known(); got != want {
			t.Errorf("%s.Known() = %v, want %v", v, got, want)
		}
	}
}

func TestEvaluateDeterministic(t *testing.T) {
	exp := Expected{Answer: "2x + 6"}
	first := Evaluate(exp, "maybe 2(x+3)")
	for range 50 {
		if got := Evaluate(exp, "maybe 2(x+3)"); got != first {
			t.Fatalf("Evaluate changed its result: %+v then %+v", first, got)
		}
	}
}

func TestSpacedFractions(t *testing.T) {
	for _, tt := range []struct {
		reply string
		want  Verdict
	}{{"7 / 9", Correct}, {"it's 7 /9", Correct}, {"7/ 9", Correct}, {"8 / 9", Incorrect}, {"14 / 18", Correct}} {
		if got := Evaluate(Expected{Answer: "7/9", Kind: KindFraction}, tt.reply).Verdict; got != tt.want {
			t.Errorf("Evaluate(7/9, %q) = %s, want %s", tt.reply, got, tt.want)
		}
	}
}

// An author may space out the expected answer as a learner spaces out a
// reply ("3 / 5", "1 1 / 2"); the curriculum's checks accept it, so the
// evaluator must read it as the fraction it is, and so must it read an
// accepted answer written that way.
func TestSpacedExpectedFractions(t *testing.T) {
	frac := Expected{Answer: "3 / 5", Kind: KindFraction}
	mixed := Expected{Answer: "1 1 / 2", Kind: KindMixedNumber}
	runEvalCases(t, []evalCase{
		{"fraction", frac, "3/5", Correct, "3/5"},
		{"fraction as written", frac, "3 / 5", Correct, "3 / 5"},
		{"equivalent fraction", frac, "6/10", Correct, "6/10"},
		{"wrong fraction", frac, "5/3", Incorrect, "5/3"},
		{"space after the slash", Expected{Answer: "3/ 5", Kind: KindFraction}, "3/5", Correct, "3/5"},
		{"mixed number", mixed, "1 1/2", Correct, "1 1/2"},
		{"improper fraction", mixed, "3/2", Correct, "3/2"},
		{"wrong mixed number", mixed, "1 1/3", Incorrect, ""},
		{"accepted answer", Expected{Answer: "1/3", Kind: KindFraction, Accept: []string{"33 / 100"}}, "33/100", Correct, "33/100"},
	})
}

// An author who spaces out a fraction and gives no kind ("3 / 5") means the
// fraction, as with a kind: the answer was read as text, so that "3/5" and
// "0.6" were marked wrong. A learner who spaces out a fraction where a
// number is expected ("3 / 5" for 0.6) means the fraction too, as "3/5"
// does: it was taken for no answer at all.
func TestSpacedFractionsWithoutAKind(t *testing.T) {
	for answer, want := range map[string]Kind{"3 / 5": KindFraction, "3/ 5": KindFraction, "1 1 / 2": KindMixedNumber, "3 / 5 cm": KindUnit} {
		if got := InferKind(answer); got != want {
			t.Errorf("InferKind(%q) = %s, want %s", answer, got, want)
		}
	}
	spaced := Expected{Answer: "3 / 5"}
	runEvalCases(t, []evalCase{
		{"fraction", spaced, "3/5", Correct, "3/5"},
		{"fraction as written", spaced, "3 / 5", Correct, "3 / 5"},
		{"equivalent fraction", spaced, "6/10", Correct, "6/10"},
		{"decimal", spaced, "0.6", Correct, "0.6"},
		{"wrong fraction", spaced, "5/3", Incorrect, "5/3"},
		{"mixed number", Expected{Answer: "1 1 / 2"}, "3/2", Correct, "3/2"},
		{"unit", Expected{Answer: "3 / 5 cm"}, "3/5 cm", Correct, "3/5 cm"},
		{"spaced reply for a decimal", Expected{Answer: "0.6"}, "3 / 5", Correct, "3 / 5"},
		{"spaced reply for a decimal, wrong", Expected{Answer: "0.6"}, "2 / 5", Incorrect, "2 / 5"},
		{"spaced reply for an integer", Expected{Answer: "3"}, "6 / 2", Correct, "6 / 2"},
		{"spaced reply for a percentage", Expected{Answer: "60%"}, "3 / 5", Correct, "3 / 5"},
		{"spaced reply for a unit", Expected{Answer: "0.6 cm"}, "3 / 5 cm", Correct, "3 / 5 cm"},
		{"working, then the answer", Expected{Answer: "2"}, "4 / 2 = 2", Correct, "2"},
	})
}

// Learners in Hindi-medium schools write numbers with Devanagari digits
// (४२ for 42), and phone keyboards offer full-width and Arabic-Indic ones:
// each is read as its value, in every written form, and what is extracted
// is quoted as the learner wrote it.
func TestEvaluateDigitsOfOtherScripts(t *testing.T) {
	i42 := Expected{Answer: "42"}
	runEvalCases(t, []evalCase{
		{"devanagari", i42, "४२", Correct, "४२"},
		{"devanagari in a hindi sentence", i42, "उत्तर ४२ है", Correct, ""},
		{"devanagari wrong", i42, "४३", Incorrect, "४३"},
		{"devanagari answer phrase", i42, "the answer is ४२.", Correct, "४२"},
		{"full-width", i42, "４２", Correct, "４２"},
		{"arabic-indic", i42, "٤٢", Correct, "٤٢"},
		{"devanagari hedge", i42, "४२ or ४३?", NotAttempt, "४२ or ४३"},
		{"devanagari fraction", Expected{Answer: "3/4"}, "३/४", Correct, "३/४"},
		{"devanagari spaced fraction", Expected{Answer: "3/4"}, "३ / ४", Correct, "३ / ४"},
		{"devanagari division sign", Expected{Answer: "3/4"}, "३÷४", Correct, "३÷४"},
		{"devanagari mixed number", Expected{Answer: "2 1/2"}, "२ १/२", Correct, "२ १/२"},
		{"devanagari decimal", Expected{Answer: "0.5"}, "०.५", Correct, "०.५"},
		{"devanagari decimal comma", Expected{Answer: "0.5"}, "०,५", Correct, "०,५"},
		{"devanagari unit", Expected{Answer: "12 cm"}, "१२ cm", Correct, "१२ cm"},
		{"devanagari percentage", Expected{Answer: "75%"}, "७५%", Correct, "७५%"},
		{"devanagari lakhs", Expected{Answer: "120000"}, "१,२०,०००", Correct, "१,२०,०००"},
		{"devanagari count out of", Expected{Answer: "28"}, "२८ out of ३०", Correct, "२८"},
		{"devanagari ratio", Expected{Answer: "3:5"}, "३:५", Correct, "३:५"},
		{"devanagari earlier question", i42, "was my answer to question १ right? ४२", NotAttempt, ""},
	})
}

// TestEvaluateConversational covers the number a conversational reply
// commits to when it explains, restates and concludes in one message.
func TestEvaluateConversational(t *testing.T) {
	n := func(s string) Expected { return Expected{Answer: s} }
	runEvalCases(t, []evalCase{
		// The answer phrase before a computation answers with its result.
		{"answer phrase then computation", n("15"), "so my answer should be 20 - 5 = 15 apples", Correct, "15 apples"},
		{"answer phrase operand is not the answer", n("20"), "my answer should be 20 - 5 = 15 apples", Incorrect, "15 apples"},
		{"answer phrase computation with units", n("3"), "The correct answer is 5 bags - 2 bags = 3 bags left.", Correct, "3 bags"},
		// "a total of N", "an average of N".
		{"a total of", n("14"), "So the 5 friends brought in a total of 14 shells.", Correct, "14 shells"},
		{"an average of", n("6"), "I divide 24 by the number of days, which is 4 days, to get an average of 6 pages per day.", Correct, "6 pages per day"},
		{"for a total of", n("352"), "He can hold 176 kg in one hand and 176 kg in the other, for a total of 352 kg.", Correct, "352 kg"},
		{"sum of listed inputs", n("7"), "the sum of 3 and 4 is 7", Correct, "7"},
		{"sum of listed inputs not the answer", n("3"), "the sum of 3 and 4 is 7", Incorrect, "7"},
		// Parentheses: a gloss takes the role of what it names; an aside is not the answer.
		{"answer only in parentheses", n("180"), "I multiplied the number of houses (60) by the number of children (3) to get the total number of treats (180).", Correct, "180"},
		{"input in parentheses", n("60"), "I multiplied the number of houses (60) by the number of children (3) to get the total number of treats (180).", Incorrect, "180"},
		{"gloss with unit", n("3"), "We divide the weight of the bag (42 kg) by the rice eaten in a week (14 kg) to get the number of weeks the bag lasts (3 weeks).", Correct, "3 weeks"},
		{"aside in parentheses", n("45"), "The day after tomorrow (two days from now) will be the fourth day, and I will do 45 squats.", Correct, "45 squats"},
		// ", which is N" after a described result.
		{"which would be after to get", n("200"), "Then I added them to get 1800, and then subtracted 1800 from 2000 to get the number of children, which would be 200.", Correct, "200"},
		// The subject of a statement about another number.
		{"number in the subject", n("30%"), "The chance to get 5 pieces of candy is 30%.", Correct, "30%"},
		{"subject ends at a subordinate clause", n("8"), "So Rachel would be 8 years old when Emily is half her age.", Correct, "8 years"},
		{"known quantity referred back to", n("5"), "The 5 people brought in 14 old records.", Incorrect, "14 old"},
		// A concluding or correcting clause supersedes the one before it.
		{"so clause", n("31"), "So the customer paid $43 for the items, and then the $4 and the $8 were taken off, so the customer actually paid $31.", Correct, "$31"},
		{"so clause overrides a computed value", n("23"), "21 + 2 = 23, so the total number of students is 18.", Incorrect, "18"},
		{"making clause", n("12"), "The extra time is 2 years, making the total increase 12 years.", Correct, "12 years"},
		{"so many is not a conclusion", n("6"), "It's 6, so many of them are red.", Correct, "6"},
		{"I mean", n("14"), "It's 12, I mean 14", Correct, "14"},
		{"I mean after the answer phrase", n("14"), "The answer is 12, I mean 14.", Correct, "14"},
		{"conclusion with another value beats the answer phrase", n("4"), "My answer is 3 bags. So Robie had 4 bags of sweets left.", Correct, "4 bags"},
		{"conclusion with the same value", n("6"), "The answer is 6. So she has 6 apples.", Correct, "6"},
		// "if" states a premise, up to "then".
		{"if premise", n("14"), "If she gets 5 more, the total is 14.", Correct, "14"},
		{"if premise ends at then", n("20"), "If he makes $40 and spends $20 then his profit is 40 - 20 = $20.", Correct, "$20"},
		{"times that amount is an operand", n("60"), "He bought two times that amount, which is 60 ducks.", Correct, "60 ducks"},
		// The same answer in other units, and "N out of M" for a count.
		{"restated in other units", n("2"), "It took 120 minutes, or 2 hours.", Correct, "2 hours"},
		{"restated first statement", n("120"), "It took 120 minutes, or 2 hours.", Correct, "120 minutes"},
		{"restated is not a hedge", n("100"), "It would cost $100 or 10,000 cents.", Correct, "$100"},
		{"out of as a count", n("28"), "So her score is 28 out of 30 possible points.", Correct, "28"},
		{"out of wrong count", n("30"), "So her score is 28 out of 30 possible points.", Incorrect, ""},
		{"out of as a proportion", n("3/4"), "3 out of 4", Correct, "3 out of 4"},
		// Restating the question or naming inputs is not an answer.
		{"given total then the result", n("12"), "She had a total of 12 spoons at the table, so she bought 10.", Incorrect, "10"},
		{"words", n("14"), "so it's fourteen", Correct, "fourteen"},
		// An answer given first, then its reason.
		{"answer then reason", n("16"), "16 because 20 boys is 5 parts so one part is 4 and 4 parts is 16", Correct, "16"},
		{"answer then reason with a step", n("16"), "16 because 20 boys is 5 parts so one part is 4", Correct, "16"},
		{"wrong answer then reason", n("16"), "20 because one part is 4", Incorrect, "20"},
		{"answer phrase then reason", n("16"), "the answer is 16 since one part is 4", Correct, "16"},
		{"reason first", n("10"), "since she had 5, she needs 10", Correct, "10"},
	})
}

func TestEvaluateTeacherReport(t *testing.T) {
	mixed := Expected{Answer: "3 5/6", Kind: KindMixedNumber}
	f712 := Expected{Answer: "7/12"}
	f25 := Expected{Answer: "2/5"}
	i16 := Expected{Answer: "16"}
	inr := Expected{Answer: "500"}
	states := Expected{Answer: "C", Options: []string{"solids", "liquids", "gases"}}
	runEvalCases(t, []evalCase{
		// Mixed numbers written with "and", and vulgar fractions.
		{"mixed with and", mixed, "3 and 5/6", Correct, "3 and 5/6"},
		{"mixed inferred with and", Expected{Answer: "3 5/6"}, "3 and 5/6", Correct, ""},
		{"mixed in words with and", mixed, "three and five sixths", Correct, ""},
		{"mixed quarter with and", Expected{Answer: "2 1/4"}, "2 and 1/4", Correct, ""},
		{"mixed wrong with and", mixed, "3 and 1/6", Incorrect, ""},
		{"mixed with and over", mixed, "3 and 5 over 6", Correct, "3 and 5 over 6"},
		{"mixed in words with and over", mixed, "three and five over six", Correct, ""},
		{"mixed with and digit ordinal", mixed, "its 3 and 5 sixths", Correct, ""},
		{"mixed with and over, wrong", mixed, "3 and 1 over 6", Incorrect, ""},
		{"mixed with and over, a unit", Expected{Answer: "3 5/6 cm"}, "3 and 5 over 6 cm", Correct, ""},
		{"mixed with and over, a noun", mixed, "3 and 5 over 6 pizzas", Correct, ""},
		{"and over still lists", Expected{Answer: "7"}, "I added 4 and 3 over two days to get 7", Correct, ""},
		{"mixed words a quarter", Expected{Answer: "2 1/4"}, "two and a quarter", Correct, ""},
		{"mixed said whole, by", Expected{Answer: "1 1/2"}, "1 whole 1 by 2", Correct, "1 whole 1 by 2"},
		{"mixed said whole, in words", Expected{Answer: "1 1/2"}, "one whole one by two", Correct, ""},
		{"mixed said whole, slash", Expected{Answer: "1 1/2"}, "1 whole 1/2", Correct, ""},
		{"mixed said whole, quarter", Expected{Answer: "2 1/4"}, "2 whole 1 by 4", Correct, ""},
		{"mixed digits with by", Expected{Answer: "2 1/4"}, "2 1 by 4", Correct, "2 1 by 4"},
		{"mixed digits with upon", Expected{Answer: "2 1/4"}, "2 1 upon 4", Correct, ""},
		{"vulgar mixed", mixed, "3⅚", Correct, "3⅚"},
		{"vulgar mixed spaced", mixed, "it is 3 ⅚", Correct, ""},
		{"vulgar alone", Expected{Answer: "5/6"}, "⅚", Correct, "⅚"},
		{"vulgar half", Expected{Answer: "1/2"}, "½", Correct, ""},
		{"vulgar quarter mixed", Expected{Answer: "2 1/4"}, "2¼", Correct, ""},
		{"vulgar wrong", Expected{Answer: "2 1/4"}, "2½", Incorrect, ""},
		{"and still lists", Expected{Answer: "7"}, "I added 4 and 3 to get 7", Correct, ""},
		// Fractions in words and with "over".
		{"twelfths", f712, "seven twelfths", Correct, ""},
		{"twelfths hyphen", f712, "seven-twelfths", Correct, ""},
		{"words over", f712, "seven over twelve", Correct, ""},
		{"digits over", f712, "7 over 12", Correct, "7 over 12"},
		{"twentieths", Expected{Answer: "9/20"}, "nine twentieths", Correct, ""},
		{"digit ordinal", Expected{Answer: "5/6"}, "5 sixths", Correct, ""},
		{"digit over small", f25, "2 over 5", Correct, ""},
		{"by, as Indian classrooms say it", Expected{Answer: "9/5"}, "9 by 5", Correct, "9 by 5"},
		{"words by", Expected{Answer: "9/5"}, "nine by five", Correct, ""},
		{"upon", Expected{Answer: "9/5"}, "9 upon 5", Correct, ""},
		{"multiplied by is no fraction", Expected{Answer: "9/5"}, "I multiplied 9 by 5", NotAttempt, ""},
		{"by in a larger answer", Expected{Answer: "45"}, "the area of a 9 by 5 rectangle is 45", Correct, ""},
		{"by with a whole result", Expected{Answer: "18"}, "x = 90 by 5", Correct, ""},
		{"by, then hai", Expected{Answer: "3/4"}, "3 by 4 hai", Correct, ""},
		{"by, then sir", Expected{Answer: "3/4"}, "3 by 4 sir", Correct, ""},
		{"by, then hoga", Expected{Answer: "3/4"}, "3 by 4 hoga", Correct, ""},
		{"by, then h", Expected{Answer: "3/4"}, "3 by 4 h", Correct, ""},
		{"upon, then hai", Expected{Answer: "3/4"}, "3 upon 4 hai", Correct, ""},
		// A Hinglish particle or a word of address after the answer is not
		// part of it: the praise quotes "3 by 4", not "3 by 4 hai". "h"
		// is also hours, where a time is asked for.
		{"by, then hai, quoted", Expected{Answer: "3/4"}, "3 by 4 hai", Correct, "3 by 4"},
		{"by, then h, quoted", Expected{Answer: "3/4"}, "3 by 4 h", Correct, "3 by 4"},
		{"by, then na", Expected{Answer: "3/4"}, "3 by 4 na", Correct, "3 by 4"},
		{"by, then ji, quoted", Expected{Answer: "3/4"}, "3 by 4 ji", Correct, "3 by 4"},
		{"number, then hai", Expected{Answer: "5"}, "5 hai", Correct, "5"},
		{"number, then mam", Expected{Answer: "5"}, "5 mam", Correct, "5"},
		{"number, then madam", Expected{Answer: "5"}, "5 madam", Correct, "5"},
		{"number, then sir", Expected{Answer: "5"}, "5 sir", Correct, "5"},
		{"h for hours stays", Expected{Answer: "5 hours"}, "5 h", Correct, "5 h"},
		{"upon, then hai, 2/5", f25, "2 upon 5 hai", Correct, ""},
		{"by, then hai, 1/2", Expected{Answer: "1/2"}, "1 by 2 hai", Correct, ""},
		{"plus as a sign", Expected{Answer: "72"}, "plus 72", Correct, ""},
		{"Hindi not after", Expected{Answer: "blue-black", Accept: []string{"blue black", "neela kala"}}, "blue black nahi, brown", Incorrect, ""},
		{"Hindi not after, Hinglish", Expected{Answer: "blue-black", Accept: []string{"blue black", "neela kala"}}, "neela kala nahi", Incorrect, ""},
		{"Hindi na is a tag", Expected{Answer: "blue-black", Accept: []string{"blue black", "neela kala"}}, "neela kala na", Correct, ""},
		{"Hindi nahi as a tag", Expected{Answer: "liquid"}, "liquid, nahi?", Correct, ""},
		{"Hindi nai after", Expected{Answer: "liquid"}, "liquid nai", Incorrect, ""},
		{"Hindi nai as a tag", Expected{Answer: "liquid"}, "liquid, nai?", Correct, ""},
		{"Hindi not after a number", Expected{Answer: "6"}, "5 nahi, 6 hai", Correct, ""},
		{"Hindi not after a number, no comma", Expected{Answer: "6"}, "5 nahi 6", Correct, "6"},
		{"Hindi not after a number, hai", Expected{Answer: "6"}, "5 nahi 6 hai", Correct, ""},
		{"Hindi or between numbers, asked", Expected{Answer: "6"}, "5 ya 6?", NotAttempt, ""},
		{"Hindi or between numbers", Expected{Answer: "6"}, "5 ya 6", NotAttempt, ""},
		{"plus as a sign, wrong", Expected{Answer: "-72"}, "plus 72", Incorrect, ""},
		{"plus in a sum", Expected{Answer: "7"}, "3 plus 4 is 7", Correct, ""},
		{"words over small", f25, "two over five", Correct, ""},
		{"one twelfth", Expected{Answer: "1/12"}, "one twelfth", Correct, ""},
		{"a twelfth", Expected{Answer: "1/12"}, "a twelfth", Correct, ""},
		{"thirtieths", Expected{Answer: "7/30"}, "seven thirtieths", Correct, ""},
		{"hundredths", Expected{Answer: "0.07"}, "seven hundredths", Correct, ""},
		{"fifteenths", Expected{Answer: "4/15"}, "four fifteenths", Correct, ""},
		{"eleventh", Expected{Answer: "1/11"}, "one eleventh", Correct, ""},
		{"wrong twelfths", f712, "five twelfths", Incorrect, ""},
		{"ordinal position stays", Expected{Answer: "12"}, "on the twelfth day she has 12", Correct, ""},
		// Currency written without a space after "Rs.".
		{"Rs dot", inr, "Rs.500", Correct, ""},
		{"rs dot lower", inr, "rs.500", Correct, ""},
		{"Rs dot integer", Expected{Answer: "680"}, "Rs.680", Correct, ""},
		{"Rs dot wrong", Expected{Answer: "680"}, "Rs.500", Incorrect, ""},
		{"Rs space", inr, "Rs 500", Correct, ""},
		{"rupee sign", inr, "₹500", Correct, ""},
		{"dollar", Expected{Answer: "$5"}, "$5", Correct, ""},
		{"rupee expected", Expected{Answer: "₹500"}, "Rs.500", Correct, ""},
		// "Ans." written without a space, as in notebooks.
		{"Ans dot", Expected{Answer: "5"}, "Ans.5", Correct, "5"},
		{"Ans dot, two digits", Expected{Answer: "12"}, "Ans.12", Correct, ""},
		{"ans dot lower", Expected{Answer: "12"}, "ans.12", Correct, ""},
		// A conclusion after "so" / "then" without a comma.
		{"so", i16, "4 so 16", Correct, "16"},
		{"so with unit", i16, "4 so 16 girls", Correct, ""},
		{"so after computation", i16, "20 ÷ 5 = 4 so 16", Correct, ""},
		{"then", i16, "4 then 16", Correct, ""},
		{"one part so", i16, "one part is 4 so 16", Correct, ""},
		{"so tens", Expected{Answer: "350"}, "35 so 350", Correct, ""},
		{"so wrong conclusion", Expected{Answer: "4"}, "4 so 16", Incorrect, ""},
		{"so that", Expected{Answer: "4"}, "4 so that it is fair", Correct, ""},
		{"so after a statement", Expected{Answer: "12"}, "oh wait 24 is both breadths so 12 cm", Correct, "12 cm"},
		{"so after a statement, wrong", Expected{Answer: "24"}, "24 is both breadths so 12 cm", Incorrect, ""},
		{"the answer stated before so", Expected{Answer: "12"}, "12 is the answer so 24 is double", Correct, ""},
		{"so with more after it", Expected{Answer: "9"}, "9 is my final answer so 3 squared", Correct, ""},
		{"so with words after the number", Expected{Answer: "24"}, "24 cm is the perimeter so 6 cm each side", Correct, ""},
		// Choices and sets compared singular and plural.
		{"choice singular", states, "gas", Correct, ""},
		{"choice capital", states, "Gas", Correct, ""},
		{"choice article", states, "a gas", Correct, ""},
		{"choice plural", states, "gases", Correct, ""},
		{"choice other", states, "liquid", Incorrect, ""},
		{"set plurals", Expected{Answer: "solid, liquid, gas", Kind: KindSet}, "solids, liquids and gases", Correct, ""},
		{"set plural house", Expected{Answer: "house, car", Kind: KindSet}, "houses and cars", Correct, ""},
		// An integer answered as a percentage.
		{"integer as percentage", Expected{Answer: "54", Kind: KindInteger}, "54%", Partial, ""},
		{"integer as percent word", Expected{Answer: "54", Kind: KindInteger}, "54 percent", Partial, ""},
		{"decimal as percentage", Expected{Answer: "2.5", Kind: KindDecimal}, "2.5%", Partial, ""},
		{"integer plain", Expected{Answer: "54", Kind: KindInteger}, "54", Correct, ""},
		{"inferred integer may be a percentage", Expected{Answer: "54"}, "54%", Correct, ""},
		{"percentage kind bare", Expected{Answer: "54%"}, "54", Correct, ""},
		{"percentage kind", Expected{Answer: "54%"}, "54%", Correct, ""},
		// A decimal or percentage where a fraction in simplest form is asked.
		{"simplest decimal", Expected{Answer: "9/20", Simplest: true}, "0.45", Partial, ""},
		{"simplest percentage", Expected{Answer: "9/20", Simplest: true}, "45%", Partial, ""},
		{"simplest decimal 2/5", Expected{Answer: "2/5", Simplest: true}, "0.4", Partial, ""},
		{"simplest percentage 2/5", Expected{Answer: "2/5", Simplest: true}, "40%", Partial, ""},
		{"simplest fraction", Expected{Answer: "2/5", Simplest: true}, "2/5", Correct, ""},
		{"decimal without simplest", Expected{Answer: "3/4"}, "0.75", Correct, ""},
	})
	reasons := []struct {
		exp    Expected
		reply  string
		reason string
	}{
		{Expected{Answer: "54", Kind: KindInteger}, "54%", "right number, but not a percentage"},
		{Expected{Answer: "9/20", Simplest: true}, "0.45", "right value, not written as a fraction"},
		{Expected{Answer: "2/5", Simplest: true}, "40%", "right value, not written as a fraction"},
		{Expected{Answer: "7 1/2", Kind: KindMixedNumber, Simplest: true}, "7.5", "right value, not written as a mixed number"},
	}
	for _, r := range reasons {
		if got := Evaluate(r.exp, r.reply); got.Reason != r.reason {
			t.Errorf("Evaluate(%+v, %q).Reason = %q, want %q", r.exp, r.reply, got.Reason, r.reason)
		}
	}
}

func TestEvaluateReversedRatioReason(t *testing.T) {
	for reply, want := range map[string]string{"5:3": ReasonReversed, "10:6": ReasonReversed, "4:5": ""} {
		if got := Evaluate(Expected{Answer: "3:5"}, reply); got.Verdict != Incorrect || got.Reason != want {
			t.Errorf("Evaluate(3:5, %q) = %+v; want incorrect, reason %q", reply, got, want)
		}
	}
}

// TestKindOf: an expected answer's kind is its own, or the one its answer
// shows; numeric kinds are the single-number ones.
func TestKindOf(t *testing.T) {
	for _, tc := range []struct {
		exp     Expected
		kind    Kind
		numeric bool
	}{
		{Expected{Answer: "3/4"}, KindFraction, true},
		{Expected{Answer: "12 cm"}, KindUnit, true},
		{Expected{Answer: "3:5"}, KindRatio, false},
		{Expected{Answer: "evaporation"}, KindText, false},
		{Expected{Answer: "B", Kind: KindChoice}, KindChoice, false},
		{Expected{Answer: "0", Kind: KindInteger}, KindInteger, true},
	} {
		if got := tc.exp.KindOf(); got != tc.kind || got.Numeric() != tc.numeric {
			t.Errorf("%q: kind %s (numeric %t), want %s (%t)", tc.exp.Answer, got, got.Numeric(), tc.kind, tc.numeric)
		}
	}
}

// A question back to the tutor is no answer, whatever words or numbers it
// holds; an answer put as a question still counts.
func TestEvaluateQuestionBack(t *testing.T) {
	choice := Expected{Answer: "gases", Kind: KindChoice, Options: []string{"solids", "liquids", "gases"}}
	runEvalCases(t, []evalCase{
		{"definition asked, choice", choice, "what is diffusion", NotAttempt, ""},
		{"meaning asked, text", Expected{Answer: "less than 3/4"}, "what does 'of' mean here?", NotAttempt, ""},
		{"numbers of a question back", Expected{Answer: "3:5"}, "what is the hcf of 15 and 25", NotAttempt, ""},
		{"why after an opener", Expected{Answer: "-7"}, "wait why is it -3 + -4 and not 7?", NotAttempt, ""},
		{"answer as a question, right", Expected{Answer: "5"}, "is it 5?", Correct, "5"},
		{"answer as a question, wrong", Expected{Answer: "5"}, "is it 4?", Incorrect, "4"},
		{"what about", Expected{Answer: "5"}, "what about 7?", Incorrect, "7"},
		{"choice as a question", choice, "is it liquids?", Incorrect, "liquids"},
		{"right answer in a question back", Expected{Answer: "diffusion"}, "what is diffusion", Correct, "diffusion"},
		{"should be", Expected{Answer: "18"}, "should be 1", Incorrect, "1"},
		{"would be", Expected{Answer: "5"}, "would be 4", Incorrect, "4"},
		{"what I got", Expected{Answer: "5"}, "what I got was 4", Incorrect, "4"},
		{"when you add", Expected{Answer: "5"}, "when you add them you get 4", Incorrect, "4"},
		{"is x =", Expected{Answer: "x = 5"}, "is x = 4?", Incorrect, ""},
		{"is the ratio", Expected{Answer: "3:5"}, "is the ratio 3:4?", Incorrect, ""},
		{"question back, accepted form", Expected{Answer: "145", Accept: []string{"-145"}}, "would be -145", Correct, ""},
		{"person after a verb", Expected{Answer: "5"}, "should I add 2 and 3?", NotAttempt, ""},
		{"the question again", Expected{Answer: "7/9"}, "2/15 ÷ ... wait whats the question again", NotAttempt, ""},
		{"the question again, curly", Expected{Answer: "7/9"}, "2/15 ÷ ... wait what’s the question again", NotAttempt, ""},
		{"read the question wrong", Expected{Answer: "7/9"}, "oh I read the question wrong, it's 2/9", Incorrect, ""},
		{"which question next", Expected{Answer: "7/9"}, "2/9, which question is next?", Incorrect, ""},
		{"what we have to do", Expected{Answer: "5"}, "what we have to do with 2 and 3?", NotAttempt, ""},
		{"do, a number after", Expected{Answer: "-15"}, "do two minuses make a plus here?", NotAttempt, ""},
		{"a comparison asked", Expected{Answer: "2 1/4"}, "is 5/8 more than half?", NotAttempt, ""},
		{"solve it for me", Expected{Answer: "4"}, "can you solve 3(x+2) = 2x + 10 for me", NotAttempt, ""},
		{"does it equal", Expected{Answer: "5"}, "does it equal 5?", Correct, "5"},
		// About an earlier question: no answer to this one, even a right one.
		{"the last one", Expected{Answer: "-3"}, "is the answer to the last one -3?", NotAttempt, ""},
		{"the previous question", Expected{Answer: "7"}, "for the previous question I meant 7", NotAttempt, ""},
		{"back to the first one", Expected{Answer: "4"}, "can we go back to the first question? it was 4", NotAttempt, ""},
		{"last step, not question", Expected{Answer: "4"}, "in the last step I got 4", Correct, "4"},
		{"question by number", Expected{Answer: "-3"}, "can i go back to question 1, i meant -3", NotAttempt, ""},
		{"answer to question n", Expected{Answer: "5"}, "was my answer to question 1 right? 5", NotAttempt, ""},
	})
	for _, tc := range []struct {
		reply string
		want  bool
	}{
		{"what does product mean", true}, {"so how do I start?", true}, {"is the answer 12?", false},
		{"can you explain 12 again?", true}, {"can you explain 12 again", false}, {"is 12 right?", false},
		{"12?", false}, {"evaporation", false}, {"what", false}, {"how about evaporation", false},
	} {
		if got := AsksBack(tc.reply); got != tc.want {
			t.Errorf("AsksBack(%q) = %v, want %v", tc.reply, got, tc.want)
		}
	}
}

// Replies a science teacher's testing found misjudged: a word spelt by
// ear, "hundred" alone, true and false with a slip, and replies that say
// the learner is lost or only acknowledge, which are no answers.
func TestEvaluateSecondTeacherReport(t *testing.T) {
	chl := Expected{Answer: "chlorophyll"}
	boil := Expected{Answer: "100 °C", Kind: KindUnit}
	yes := Expected{Answer: "true", Kind: KindBoolean}
	no := Expected{Answer: "false", Kind: KindBoolean}
	gas := Expected{Answer: "carbon dioxide"}
	oxygen := Expected{Answer: "oxygen", Kind: KindText, Accept: []string{"O2", "oxygen gas"}}
	solid := Expected{Answer: "C", Kind: KindChoice, Options: []string{"gas", "liquid", "solid"}}
	runEvalCases(t, []evalCase{
		{"spelt by ear", chl, "chlorofil", Correct, "chlorofil"},
		{"spelt by ear, in a sentence", chl, "it is chlorofyl", Correct, "chlorofyl"},
		{"another word by ear", Expected{Answer: "diffusion"}, "difusian", Incorrect, ""},
		{"-tion by ear", Expected{Answer: "evaporation"}, "evaporashun", Correct, "evaporashun"},
		{"-tion by ear, in a sentence", Expected{Answer: "condensation"}, "its condensashan", Correct, "condensashan"},
		{"-sion by ear", Expected{Answer: "diffusion"}, "difushun", Correct, "difushun"},
		{"-tion by ear, another word", Expected{Answer: "evaporation"}, "condensashun", Incorrect, ""},
		{"hundred alone", boil, "hundred", Correct, ""},
		{"hundred degrees", boil, "hundred degrees", Correct, ""},
		{"a hundred", boil, "a hundred degrees", Correct, ""},
		{"tru", yes, "tru", Correct, ""},
		{"flase", no, "flase", Correct, ""},
		{"flase, wrong", yes, "flase", Incorrect, ""},
		{"lost", gas, "i dont get it", NotAttempt, ""},
		{"still lost", gas, "I still don't understand", NotAttempt, ""},
		{"confused", gas, "im so confused", NotAttempt, ""},
		{"samajh nahi", gas, "samajh nahi aaya", NotAttempt, ""},
		{"samajh nahi, yaar", gas, "samajh nahi aaya yaar", NotAttempt, ""},
		{"samajh nahi to a no question", Expected{Answer: "no"}, "samajh nahi aaya yaar", NotAttempt, ""},
		// Being lost said in other words and spellings, to a "no" (which
		// "nahi" would answer), a "true" and a word question.
		{"nahi samjha to a no question", Expected{Answer: "no", Kind: KindBoolean}, "nahi samjha", NotAttempt, ""},
		{"nahi samjha to a true question", yes, "nahi samjha", NotAttempt, ""},
		{"nahi samjha", oxygen, "nahi samjha", NotAttempt, ""},
		{"samjha nahi to a no question", Expected{Answer: "no", Kind: KindBoolean}, "samjha nahi", NotAttempt, ""},
		{"samjha nahi to a true question", yes, "samjha nahi", NotAttempt, ""},
		{"samjha nahi", oxygen, "samjha nahi", NotAttempt, ""},
		{"samjh nahi aaya to a no question", Expected{Answer: "no", Kind: KindBoolean}, "samjh nahi aaya", NotAttempt, ""},
		{"samjh nahi aaya to a true question", yes, "samjh nahi aaya", NotAttempt, ""},
		{"samjh nahi aaya", oxygen, "samjh nahi aaya", NotAttempt, ""},
		{"samjhi nahi to a no question", Expected{Answer: "no", Kind: KindBoolean}, "samjhi nahi", NotAttempt, ""},
		{"samjhi nahi to a true question", yes, "samjhi nahi", NotAttempt, ""},
		{"samjhi nahi", oxygen, "samjhi nahi", NotAttempt, ""},
		{"nahi samjha sir to a no question", Expected{Answer: "no", Kind: KindBoolean}, "nahi samjha sir", NotAttempt, ""},
		{"nahi samjha sir to a true question", yes, "nahi samjha sir", NotAttempt, ""},
		{"nahi samjha sir", oxygen, "nahi samjha sir", NotAttempt, ""},
		{"not understood", oxygen, "not understood", NotAttempt, ""},
		{"not understood to a choice", solid, "not understood", NotAttempt, ""},
		{"not clear", oxygen, "not clear", NotAttempt, ""},
		{"not clear to a choice", solid, "not clear", NotAttempt, ""},
		{"nhi samjha", oxygen, "nhi samjha", NotAttempt, ""},
		{"nhi samjha to a choice", solid, "nhi samjha", NotAttempt, ""},
		{"i am not getting", oxygen, "i am not getting", NotAttempt, ""},
		{"i am not getting to a choice", solid, "i am not getting", NotAttempt, ""},
		{"nahi to a no question", Expected{Answer: "no"}, "nahi", Correct, ""},
		{"a remark", gas, "this is so dumb, you are useless", NotAttempt, ""},
		{"a wrong answer with a mood", gas, "ugh, oxygen", Incorrect, ""},
		{"lost, then an answer", gas, "i dont get it, oxygen?", Incorrect, ""},
		{"yes to a text question", gas, "yes", NotAttempt, ""},
		{"y", gas, "y", NotAttempt, ""},
		{"ok to a choice", Expected{Answer: "gases", Kind: KindChoice, Options: []string{"solids", "liquids", "gases"}}, "ok", NotAttempt, ""},
		// An acknowledgement with a word of address, in Hinglish, or
		// asking to wait a minute.
		{"ok sir", oxygen, "ok sir", NotAttempt, ""},
		{"ok sir to a choice", solid, "ok sir", NotAttempt, ""},
		{"yes sir", oxygen, "yes sir", NotAttempt, ""},
		{"yes sir to a choice", solid, "yes sir", NotAttempt, ""},
		{"ok mam", oxygen, "ok mam", NotAttempt, ""},
		{"ok mam to a choice", solid, "ok mam", NotAttempt, ""},
		{"theek hai", oxygen, "theek hai", NotAttempt, ""},
		{"theek hai to a choice", solid, "theek hai", NotAttempt, ""},
		{"thik hai", oxygen, "thik hai", NotAttempt, ""},
		{"thik hai to a choice", solid, "thik hai", NotAttempt, ""},
		{"okk", oxygen, "okk", NotAttempt, ""},
		{"okk to a choice", solid, "okk", NotAttempt, ""},
		{"ek minute", oxygen, "ek minute", NotAttempt, ""},
		{"ek minute to a choice", solid, "ek minute", NotAttempt, ""},
		{"ek min", oxygen, "ek min", NotAttempt, ""},
		{"ek min to a choice", solid, "ek min", NotAttempt, ""},
		{"yes to a yes-or-no question", yes, "yes", Correct, ""},
		// The size of a change after "by", and a result said again in
		// the form the learner ends on.
		{"fell by", Expected{Answer: "15%"}, "it fell by 15 percent", Correct, "15 percent"},
		{"working, then fell by", Expected{Answer: "15%", Simplest: true}, "i did. 1800/12000 = 0.15 so it fell by 15 percent", Correct, "15 percent"},
		{"divided by", Expected{Answer: "15"}, "i divided by 15", NotAttempt, ""},
		{"which is", Expected{Answer: "9/20", Simplest: true}, "45% = 45/100 = 0.45 which is 9/20", Correct, "9/20"},
		{"which is, decimal last", Expected{Answer: "9/20", Simplest: true}, "45/100 = 9/20 which is 0.45", Correct, "9/20"},
		{"by, then the result", Expected{Answer: "120"}, "the price went up by 20%, from 100 to 120", Correct, "120"},
		{"the other one", Expected{Answer: "500"}, "500, and 400 for the other one", Correct, "500"},
		{"no among the options", Expected{Answer: "yes", Kind: KindChoice, Options: []string{"yes", "no"}}, "no", Incorrect, ""},
		{"yes, not an option", Expected{Answer: "increase", Kind: KindChoice, Options: []string{"increase", "no"}}, "yes", NotAttempt, ""},

		{"by, later years", Expected{Answer: "15%"}, "it fell by 15% in 2 years", Correct, ""},
		{"by, from", Expected{Answer: "20%"}, "it increased by 20% from 100", Correct, ""},
		{"by, to a result", Expected{Answer: "120"}, "it went up by 20% from 100 to 120", Correct, "120"},
		{"a fraction taken back", Expected{Answer: "9/20", Simplest: true}, "not 9/20, it's 0.45", Partial, "0.45"},
	})
}

// TestAndAnother: a right word answer named beside another thing is partly
// right; beside a statement about it, a part of it or its formula, right.
func TestAndAnother(t *testing.T) {
	tests := []struct {
		answer, reply string
		want          Verdict
	}{
		{"oxygen", "oxygen and glucose", Partial},
		{"chlorophyll", "sunlight and chlorophyll", Partial},
		{"solid", "solid and liquid", Partial},
		{"oxygen", "oxygen", Correct},
		{"chlorophyll", "chlorophyll and it traps light", Correct},
		{"roots", "roots and root hairs", Correct},
		{"carbon dioxide", "carbon dioxide and co2", Correct},
		{"stomata", "stomata and they are tiny", Correct},
		{"carbon dioxide and water", "carbon dioxide and water", Correct},
		{"oxygen", "glucose and starch", Incorrect},
		{"oxygen", "oxygen and nothing else", Correct},
		{"oxygen", "oxygen and thanks", Correct},
		{"chlorophyll", "chlorophyll and in the leaves", Correct},
		{"chlorophyll", "chlorophyll and absorbs light", Correct},
	}
	for _, tt := range tests {
		exp := Expected{Answer: tt.answer, Kind: KindText}
		if got := AndAnother(exp, tt.reply, Evaluate(exp, tt.reply), nil); got.Verdict != tt.want {
			t.Errorf("%q for %q: %s (%s), want %s", tt.reply, tt.answer, got.Verdict, got.Reason, tt.want)
		}
	}
	// One answer in two words: blue-black, accepted as "blue" too.
	bb := Expected{Answer: "blue-black", Kind: KindText, Accept: []string{"blue black", "blue"}}
	if got := AndAnother(bb, "blue and black", Evaluate(bb, "blue and black"), nil); got.Verdict != Correct {
		t.Errorf("\"blue and black\" for blue-black: %s (%s), want correct", got.Verdict, got.Reason)
	}
	// What the other side must name, when the caller says.
	exp0 := Expected{Answer: "oxygen", Kind: KindText}
	lesson := func(other string) bool { return other == "glucose" }
	if got := AndAnother(exp0, "oxygen and glucose", Evaluate(exp0, "oxygen and glucose"), lesson); got.Verdict != Partial {
		t.Errorf("beside a word of the lesson: %s, want partial", got.Verdict)
	}
	if got := AndAnother(exp0, "oxygen and hello", Evaluate(exp0, "oxygen and hello"), lesson); got.Verdict != Correct {
		t.Errorf("beside a word the lesson does not use: %s, want correct", got.Verdict)
	}
	// Two options named with "and", one of them right, are partly right;
	// beside a word that is no option, a right option stays right.
	food := Expected{Answer: "B", Kind: KindChoice, Options: []string{"protein", "glucose", "fat", "vitamin C"}}
	for _, reply := range []string{"glucose and fat", "fat and glucose", "glucose aur fat"} {
		if got := AndAnother(food, reply, Evaluate(food, reply), nil); got.Verdict != Partial || got.Reason != ReasonAnother {
			t.Errorf("%q for the option glucose: %s (%s), want partial", reply, got.Verdict, got.Reason)
		}
	}
	heat := Expected{Answer: "C", Kind: KindChoice, Options: []string{"freezing", "condensation", "melting"}}
	if got := AndAnother(heat, "melting and boiling", Evaluate(heat, "melting and boiling"), func(string) bool { return true }); got.Verdict != Correct {
		t.Errorf("melting and boiling: %s (%s), want correct", got.Verdict, got.Reason)
	}
	if got := Evaluate(food, "fat and protein"); got.Verdict != Incorrect {
		t.Errorf("fat and protein: %s (%s), want incorrect", got.Verdict, got.Reason)
	}
	both := Expected{Answer: "C", Kind: KindChoice, Options: []string{"carbon dioxide", "water", "carbon dioxide and water"}}
	if got := Evaluate(both, "carbon dioxide and water"); got.Verdict != Correct {
		t.Errorf("an option that holds and: %s (%s), want correct", got.Verdict, got.Reason)
	}
	for _, reply := range []string{"glucose", "B", "glucose and it is a sugar", "glucose and sugar"} {
		if got := AndAnother(food, reply, Evaluate(food, reply), nil); got.Verdict != Correct {
			t.Errorf("%q for the option glucose: %s (%s), want correct", reply, got.Verdict, got.Reason)
		}
	}
	// Numbers are not words: "12 and 18" is for the evaluator alone.
	exp := Expected{Answer: "6", Kind: KindInteger}
	if got := AndAnother(exp, "6 and 12", Evaluate(exp, "6 and 12"), nil); got.Reason == ReasonAnother {
		t.Errorf("a number named beside another: %s (%s)", got.Verdict, got.Reason)
	}
}

// A generated multiple-choice question's answer ("B) 16") is the model's
// to judge, but for a hedge between its letters with the right one among
// them: the learner is asked for one answer, as for a bank question's.
func TestJudgedLetterHedge(t *testing.T) {
	exp := Expected{Answer: "B) 16", Kind: KindJudged}
	for reply, want := range map[string]Verdict{
		"B or C":          NotAttempt,
		"b/c":             NotAttempt,
		"either A or B?":  NotAttempt,
		"(b) or (c)":      NotAttempt,
		"A or C":          CannotCheck, // no right one among them: the model judges
		"B":               CannotCheck,
		"B and C":         CannotCheck,
		"I think B or C":  CannotCheck, // more than letters
		"16 or 18":        CannotCheck,
		"B or, B. Final.": CannotCheck,
	} {
		if got := Evaluate(exp, reply).Verdict; got != want {
			t.Errorf("%q to a choice answered %q: %s, want %s", reply, exp.Answer, got, want)
		}
	}
}

// A reply that names both values of a true-or-false or yes-or-no question,
// or two numbers side by side, has not committed to an answer: "true/false"
// (the question's prompt copied back), "true and false", "yes and no", "6
// and 12", and so with their units ("6 cm and 12 cm", "6 cm or 12 cm") or
// three of them ("5, 6 or 7", "5, 6 and 7"). Graded by its first word, it
// scored full marks in one order and none in the other. It is read as the
// same reply with "or" is: a boolean naming both values holds none ("yes
// or no"), and two values are a hedge, NotAttempt when one is right ("6 or
// 12"), so that the learner is asked which one they mean.
func TestEvaluateBothValuesNamed(t *testing.T) {
	pairs := []struct {
		exp       Expected
		one, swap string
		want      Verdict
	}{
		{Expected{Answer: "true"}, "true and false", "false and true", NotAttempt},
		{Expected{Answer: "true"}, "true/false", "false/true", NotAttempt},
		{Expected{Answer: "False"}, "True / False", "False / True", NotAttempt},
		{Expected{Answer: "yes"}, "yes and no", "no and yes", NotAttempt},
		{Expected{Answer: "yes"}, "yes/no", "no/yes", NotAttempt},
		{Expected{Answer: "yes"}, "right/wrong", "wrong/right", NotAttempt},
		{Expected{Answer: "6"}, "6 and 12", "12 and 6", NotAttempt},
		{Expected{Answer: "6"}, "the answer is 6 and 12.", "the answer is 12 and 6.", NotAttempt},
		{Expected{Answer: "6"}, "6, and 12?", "12, and 6?", NotAttempt},
		{Expected{Answer: "6"}, "6 aur 12", "12 aur 6", NotAttempt},
		{Expected{Answer: "3/4"}, "3/4 and 1/2", "1/2 and 3/4", NotAttempt},
		{Expected{Answer: "3:5"}, "3:5 and 5:3", "5:3 and 3:5", NotAttempt},
		{Expected{Answer: "7"}, "6 and 12", "12 and 6", Incorrect},
		// With their units.
		{Expected{Answer: "6 cm"}, "6 cm and 12 cm", "12 cm and 6 cm", NotAttempt},
		{Expected{Answer: "6 cm"}, "6 cm or 12 cm", "12 cm or 6 cm", NotAttempt},
		{Expected{Answer: "6 cm"}, "is it 6cm or 12cm?", "is it 12cm or 6cm?", NotAttempt},
		{Expected{Answer: "6 cm"}, "the sides are 6 cm and 12 cm.", "the sides are 12 cm and 6 cm.", NotAttempt},
		{Expected{Answer: "6"}, "6 apples or 12 apples", "12 apples or 6 apples", NotAttempt},
		{Expected{Answer: "60 mm"}, "6 cm or 12 cm", "12 cm or 6 cm", NotAttempt},
		{Expected{Answer: "7 cm"}, "6 cm or 12 cm", "12 cm or 6 cm", Incorrect},
		// Three values.
		{Expected{Answer: "6"}, "5, 6 or 7", "7, 6 or 5", NotAttempt},
		{Expected{Answer: "6"}, "6, 5 or 7", "5, 7 or 6", NotAttempt},
		{Expected{Answer: "6"}, "6 or 5 or 7", "5 or 7 or 6", NotAttempt},
		{Expected{Answer: "6"}, "5, 6 and 7", "7, 6, and 5", NotAttempt},
		{Expected{Answer: "6"}, "6, 5 and 7", "5, 7 and 6", NotAttempt},
		{Expected{Answer: "6 cm"}, "5 cm, 6 cm or 7 cm", "7 cm, 5 cm or 6 cm", NotAttempt},
		{Expected{Answer: "8"}, "5, 6 or 7", "7, 6 or 5", Incorrect},
	}
	for _, p := range pairs {
		a, b := Evaluate(p.exp, p.one), Evaluate(p.exp, p.swap)
		if a.Verdict != p.want || b.Verdict != p.want {
			t.Errorf("expected %q: %q is %s (%s), %q is %s (%s); want %s for both",
				p.exp.Answer, p.one, a.Verdict, a.Reason, p.swap, b.Verdict, b.Reason, p.want)
		}
	}
}

// Answers that hold "and" or "/" themselves, and replies that join two
// numbers with "and" without offering both as the answer, keep their
// reading.
func TestEvaluateAndInAnswers(t *testing.T) {
	runEvalCases(t, []evalCase{
		{"fraction", Expected{Answer: "3/4"}, "3/4", Correct, "3/4"},
		{"mixed number with and", Expected{Answer: "3 1/2"}, "3 and 1/2", Correct, "3 and 1/2"},
		{"two numbers expected", Expected{Answer: "6 and 12"}, "6 and 12", Correct, ""},
		{"two numbers expected as a set", Expected{Answer: "6, 12"}, "6 and 12", Correct, ""},
		{"two numbers expected as a set, other order", Expected{Answer: "6, 12"}, "12 and 6", Correct, ""},
		{"compound words", Expected{Answer: "salt and pepper"}, "salt and pepper", Correct, ""},
		{"compound words with bread", Expected{Answer: "bread and butter"}, "bread and butter", Correct, ""},
		{"range", Expected{Answer: "between 6 and 12"}, "between 6 and 12", Correct, ""},
		{"unit with a slash", Expected{Answer: "60 km/h"}, "60 km/h", Correct, ""},
		{"operands then the result", Expected{Answer: "6"}, "2 and 4 make 6", Correct, "6"},
		{"same value twice", Expected{Answer: "6"}, "it is 6 and 6", Correct, ""},
		{"same value in another form", Expected{Answer: "0.5"}, "1/2 and 0.5", Correct, ""},
		{"two facts", Expected{Answer: "6"}, "6 and 12 are left", Correct, "6"},
		{"negated other value", Expected{Answer: "true"}, "true and not false", Correct, ""},
		{"the same value twice", Expected{Answer: "yes"}, "yes and yes", Correct, ""},
		// Values with their units, or three of them, that are no hedge.
		{"sides then the result", Expected{Answer: "36 cm"}, "6 cm and 12 cm are the sides, so the perimeter is 36 cm", Correct, "36 cm"},
		{"two facts with units", Expected{Answer: "6 cm"}, "6 cm and 12 cm are the sides", Correct, "6 cm"},
		{"range with units", Expected{Answer: "5 cm"}, "between 5 cm and 7 cm", Correct, "5 cm"},
		{"range", Expected{Answer: "6"}, "between 5 and 7", Incorrect, "5"},
		{"two things", Expected{Answer: "6"}, "6 apples and 12 pears", Correct, "6 apples"},
		{"the same length in two units", Expected{Answer: "6 cm"}, "6 cm or 60 mm", Correct, "6 cm"},
		{"a time restated wrongly in other units", Expected{Answer: "20 minutes"}, "it would take her 1/3 hour, or 10 minutes", Correct, "1/3 hour"},
		{"three facts", Expected{Answer: "5"}, "5, 6 and 7 are left", Correct, "5"},
		{"listed, then the answer", Expected{Answer: "6"}, "5, 6, 7, 8 are the numbers I counted... the answer is 6", Correct, "6"},
		{"listed, then the answer after a comma", Expected{Answer: "6"}, "5, 6, 7, 8 are the numbers I counted, the answer is 6", Correct, "6"},
	})
}

// A reply that names both values of a true-or-false or yes-or-no question
// is a hedge, reported as one ("hedged ..."), so that the learner is asked
// to choose as after "5 or 6"; it was a reply with no value at all, which
// an exam marks wrong.
func TestEvaluateBooleanHedgeReason(t *testing.T) {
	for _, exp := range []Expected{{Answer: "true"}, {Answer: "false"}, {Answer: "yes"}} {
		for _, reply := range []string{"true or false", "True/False", "false or true?", "yes or no", "true and false"} {
			r := Evaluate(exp, reply)
			if r.Verdict != NotAttempt || !strings.HasPrefix(r.Reason, "hedged") {
				t.Errorf("Evaluate(%q, %q) = %s (%s); want NotAttempt, hedged", exp.Answer, reply, r.Verdict, r.Reason)
			}
		}
	}
	if r := Evaluate(Expected{Answer: "true"}, "banana"); strings.HasPrefix(r.Reason, "hedged") {
		t.Errorf("Evaluate(true, banana) = %s (%s); want no hedge", r.Verdict, r.Reason)
	}
}
