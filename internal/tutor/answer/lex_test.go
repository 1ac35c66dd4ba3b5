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
		// Fraction bars.
		{"7/9", []float64{7.0 / 9}},
		{"7⁄9", []float64{7.0 / 9}},
		{"7∕9", []float64{7.0 / 9}},
		{"2 1⁄4", []float64{2.25}},
		{"½", []float64{0.5}},
		{"3⅚", []float64{3 + 5.0/6}},
		{"7⁄", []float64{7}},
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
