package curriculum

import (
	"strings"
	"testing"
)

// A small tolerance, which the export writes in exponent notation
// (1e-05), imports back.
func TestSmallToleranceRoundTrips(t *testing.T) {
	doc := strings.NewReplacer(
		`answer: "3/5"`, `answer: "0.6"`,
		"kind: fraction", "kind: decimal",
		"        difficulty: easy\n", "        difficulty: easy\n        tolerance: 0.00001\n",
	).Replace(validDoc)
	f := mustParse(t, doc)
	roundTrip(t, f)
}

// A file saved with a UTF-8 byte order mark, as editors may, is read.
func TestByteOrderMark(t *testing.T) {
	if _, err := Parse("x.yaml", []byte("\ufeff"+validDoc)); err != nil {
		t.Fatalf("a valid file with a UTF-8 byte order mark is refused:\n%v", err)
	}
}
