package answer

import "testing"

// A model's own question may come with its expected answer written as a
// statement: the value it states is the answer to judge against.
func TestStatedValue(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"16", "16"},
		{"Double 8 is 16.", "16"},
		{"8 + 8 = 16", "16"},
		{"The answer is 16", "16"},
		{"The area is 12 cm.", "12 cm"},
		{"3/6 simplifies to 1/2, so the answer is 1/2", "1/2"},
		{" 3/4 ", " 3/4 "},
		{"x = 5", "x = 5"},
		{"y = 2x + 3", "y = 2x + 3"},
		{"2x + 3 = 9", "2x + 3 = 9"},
		{"Photosynthesis is how plants make food", "Photosynthesis is how plants make food"},
		{"16 is the answer", "16"},
		{"3/4 is the correct answer.", "3/4"},
		{"The sum is the answer", "The sum is the answer"},
		{"Paris", "Paris"},
		{"is 16", "is 16"},
	} {
		if got := StatedValue(tt.in); got != tt.want {
			t.Errorf("StatedValue(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
