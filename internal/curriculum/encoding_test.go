package curriculum

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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

// A curriculum author on Windows (an editor saving CRLF, or git with
// core.autocrlf) wraps a long question in a quoted scalar, as YAML allows:
//
//	question: "What is
//	  1/5 + 2/5?"
//
// The line break folds to a space with CRLF line ends as with LF (YAML
// 1.2 §5.4: CR LF is one line break). It read "What is\n1/5 + 2/5?", so
// the same file checked out on Windows and on Linux was different content,
// and every import from the other checkout made a new plan version.
func TestCRLFQuotedTextFoldsLikeLF(t *testing.T) {
	for _, q := range []string{
		"\"What is\n          1/5 + 2/5?\"",
		"'What is\n          1/5 + 2/5?'",
	} {
		doc := strings.Replace(validDoc, "What is 1/5 + 2/5?", q, 1)
		lf, err := Parse("x.yaml", []byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if got := lf.Subtopics[0].Questions[0].Question; got != "What is 1/5 + 2/5?" {
			t.Fatalf("LF: question = %q", got)
		}
		crlf, err := Parse("x.yaml", []byte(strings.ReplaceAll(doc, "\n", "\r\n")))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(lf, crlf); diff != "" {
			t.Errorf("%q: the file with CRLF line ends reads differently (-LF +CRLF):\n%s", q, diff)
		}
		if a, b := lf.Guidelines()[0].Hash, crlf.Guidelines()[0].Hash; a != b {
			t.Errorf("%q: plan hash differs between LF and CRLF copies of one file: an import makes a new plan version", q)
		}
	}
}
