package answer

import "testing"

// TestLexNumbers checks how digit groups and fraction bars are read: the
// numbers lex finds in a text, in order.
func TestLexNumbers(t *testing.T) {
	cases := []struct {
		in   string
		want []float64
	}{
		{"1,200", []float64{1200}},
		{"12,345,678", []float64{12345678}},
		// The Indian grouping: pairs of digits before the last three.
		{"1,20,000", []float64{120000}},
		{"2,50,000 trees", []float64{250000}},
		{"12,34,56,789", []float64{123456789}},
		{"₹1,20,000.50", []float64{120000.5}},
		// Lists and coordinates stay lists.
		{"1,2,3", []float64{1, 2, 3}},
		{"3,4", []float64{3, 4}},
		{"(2,5)", []float64{2, 5}},
		{"12,34", []float64{12, 34}},
		{"12,34,56", []float64{12, 34, 56}},
		{"1,20", []float64{1, 20}},
		{"5,1,20,000", []float64{5, 1, 20000}},
		// Neither grouping: read as before.
		{"1,20,000,000", []float64{1, 20000000}},
		{"1,20,0000", []float64{1, 20, 0}},
		{"123,45,678", []float64{123, 45678}},
		// Scale words multiply a number in digits or in words.
		{"5 thousand", []float64{5000}},
		{"five thousand", []float64{5000}},
		{"2 million", []float64{2000000}},
		{"2.5 million", []float64{2500000}},
		{"1.25 crore", []float64{12500000}},
		{"0.0005 thousand", []float64{0.5}},
		{"1 lakh", []float64{100000}},
		{"one lakh", []float64{100000}},
		{"2.5 lakh", []float64{250000}},
		{"1 crore", []float64{10000000}},
		{"2 crores", []float64{20000000}},
		{"5 lakhs", []float64{500000}},
		{"$5 million", []float64{5000000}},
		{"-5 thousand", []float64{-5000}},
		{"minus 5 thousand", []float64{-5000}},
		{"1500 crore", []float64{15000000000}},
		{"2 lakh 50 thousand", []float64{250000}},
		{"one lakh twenty thousand", []float64{120000}},
		{"5 thousand 3 hundred", []float64{5300}},
		{"5 hundred and 3", []float64{503}},
		{"five hundred and three", []float64{503}},
		{"2 thousand rupees", []float64{2000}},
		// Near misses keep their reading.
		{"3 hundredths", []float64{0.03}},
		{"3 hundreds", []float64{3}},
		{"5, thousand", []float64{5, 1000}},
		{"5 thousand 250", []float64{5000, 250}},
		{"100 km", []float64{100}},
		{"a hundred", []float64{100}},
		{"lakh", nil},
		{"the 3rd thousand", []float64{1000}},
		{"1,20,000 and 120000", []float64{120000, 120000}},
		// Fraction bars.
		{"7/9", []float64{7.0 / 9}},
		{"7⁄9", []float64{7.0 / 9}},
		{"7∕9", []float64{7.0 / 9}},
		{"2 1⁄4", []float64{2.25}},
		{"½", []float64{0.5}},
		{"3⅚", []float64{3 + 5.0/6}},
		{"7⁄", []float64{7}},
		// Decimals said aloud, digit by digit in words or numerals.
		{"2 point oh 5", []float64{2.05}},
		{"2 point 0 5", []float64{2.05}},
		{"point oh 5", []float64{0.05}},
		{"3 point 25", []float64{3.25}},
		{"3 point 25 5", []float64{3.25, 5}},
		// Digits after the point that make no decimal are no number.
		{"2 point oh", nil},
		{"3 point 2.5", nil},
		{"1 point each", []float64{1}},
	}
	for _, tc := range cases {
		var got []float64
		for _, tk := range lex(tc.in) {
			if tk.kind == tNum {
				got = append(got, tk.num.val)
			}
		}
		if len(got) != len(tc.want) {
			t.Errorf("lex(%q) numbers = %v, want %v", tc.in, got, tc.want)
			continue
		}
		for i := range got {
			if d := got[i] - tc.want[i]; d > 1e-9 || d < -1e-9 {
				t.Errorf("lex(%q) numbers = %v, want %v", tc.in, got, tc.want)
				break
			}
		}
	}
}

// TestLexDigitsOfOtherScripts checks that the digits of every script are
// read as their values, as Hindi-medium learners write numbers (४२ for
// 42), and that the tokens' offsets index the text as written, so that
// what is quoted or redacted is what the learner or the tutor wrote.
func TestLexDigitsOfOtherScripts(t *testing.T) {
	cases := []struct {
		in    string
		want  float64
		quote string // the number's span in the text
	}{
		{"४२", 42, "४२"},
		{"उत्तर ४२ है", 42, "४२"},
		{"३/४", 0.75, "३/४"},
		{"०.५", 0.5, "०.५"},
		{"१,२०,००० rupees", 120000, "१,२०,०००"},
		{"२ १/२", 2.5, "२ १/२"},
		{"७५%", 75, "७५%"},
		{"it is ４２.", 42, "４２"}, // full-width
		{"٤٢", 42, "٤٢"},        // Arabic-Indic
		{"४2", 42, "४2"},        // scripts mixed
		{"x = -৭ cm", -7, "-৭"}, // Bengali
		{"२८ out of ३०", 28.0 / 30, "२८ out of ३०"},
	}
	for _, tc := range cases {
		var nums []token
		for _, tk := range lex(tc.in) {
			if tk.kind == tNum {
				nums = append(nums, tk)
			}
		}
		if len(nums) != 1 {
			t.Errorf("lex(%q) read %d numbers, want 1", tc.in, len(nums))
			continue
		}
		n := nums[0]
		if d := n.num.val - tc.want; d > 1e-9 || d < -1e-9 {
			t.Errorf("lex(%q) = %v, want %v", tc.in, n.num.val, tc.want)
		}
		if got := tc.in[n.start:n.end]; got != tc.quote {
			t.Errorf("lex(%q) number spans %q, want %q", tc.in, got, tc.quote)
		}
	}
}

// TestDigitValue checks the value of digits across Unicode's runs of
// decimal digits, including runs that follow one another with no gap
// (the mathematical digits: bold 0-9, then double-struck 0-9, ...).
func TestDigitValue(t *testing.T) {
	for r, want := range map[rune]byte{
		'0': 0, '9': 9, '०': 0, '४': 4, '९': 9, '٣': 3, '۷': 7, '０': 0, '４': 4,
		'𝟎': 0, '𝟗': 9, '𝟘': 0, '𝟡': 9, '𝟿': 9,
	} {
		if got, ok := digitValue(r); !ok || got != want {
			t.Errorf("digitValue(%q) = %d, %v; want %d", r, got, ok, want)
		}
	}
	for _, r := range "a²₂½Ⅳ" {
		if v, ok := digitValue(r); ok {
			t.Errorf("digitValue(%q) = %d, want no digit", r, v)
		}
	}
}
