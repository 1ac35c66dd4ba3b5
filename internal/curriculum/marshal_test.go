package curriculum

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tutord/tutord/internal/tutor/answer"
)

// roundTrip checks that Marshal writes f so that Parse reads it back
// unchanged, and that writing it again gives the same bytes.
func roundTrip(t *testing.T, f *File) {
	t.Helper()
	out, err := Marshal(f)
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	back, err := Parse(f.Name, out)
	if err != nil {
		t.Fatalf("Parse(Marshal(f)): %v\n%s", err, out)
	}
	if diff := cmp.Diff(f, back); diff != "" {
		t.Fatalf("Parse(Marshal(f)) mismatch (-want +got):\n%s\n%s", diff, out)
	}
	again, err := Marshal(back)
	if err != nil {
		t.Fatalf("Marshal again: %v", err)
	}
	if diff := cmp.Diff(string(out), string(again)); diff != "" {
		t.Errorf("Marshal is not stable (-first +second):\n%s", diff)
	}
}

func TestMarshalRoundTrip(t *testing.T) {
	tricky := []string{
		"yes", "no", "true", "null", "~", "12", "0.50", "-7", "1e3", "0x1F", ".inf",
		"#not a comment", "a: b", "- x", "[1, 2]", "{a: 1}", "'quoted'", `"double"`,
		"  leading spaces", "trailing spaces  ", "tab\tinside", "line one\nline two",
		"two lines\nwith trailing newline\n", "  indented first line\nsecond", "ends with spaces  \nnext",
		"windows\r\nline ends", "carriage\rreturn", "\nleading newline", "a\n\n", "a\n\n\n", "a\n  \nb",
		"a\n ", " a\nb", "a\nb  ", "a\nb  \n", "tab\n\tindented", "line\u2028separator",
		"unicode: ½ × ÷ − ₹ 😀", "@at", "`tick", "%percent", "!bang", "&amp", "*star", "| pipe", "> gt",
		// An export imports back unchanged, a fill-in-the-blank question
		// too: YAML indicators at the start of a line ("? " an explicit
		// key, "- " a list item, ": " a value) and within it (": ", " #")
		// are quoted. (Parse refuses control characters other than tabs
		// and line breaks: see TestParseErrors.)
		"? × 5 = 3. What fraction is ?", "?", "? ", "?x", "? x\nsecond line", ":", ": x", ":x", "-", "- ",
		"-x", "--- x", "---", "...", "a:b", "a:", "a ?", "a ? b", "a #b", "a#b", "a -b", "a - b",
	}
	f := mustParse(t, validDoc)
	q := f.Subtopics[0].Questions[0]
	q.Kind = answer.KindText
	q.Answer = "null"
	q.Accept = tricky
	q.Misconception = "line one\n\nline three after a blank line\n"
	f.Subtopics[0].Questions = append(f.Subtopics[0].Questions, q)
	for i, s := range tricky {
		q := q
		q.ID = fmt.Sprintf("tricky-%d", i)
		q.Question = s
		q.Solution = s
		q.Accept = nil
		f.Subtopics[0].Questions = append(f.Subtopics[0].Questions, q)
	}
	f.Subtopics[0].Questions = f.Subtopics[0].Questions[1:]
	f.Subtopics[0].Questions[0].ID = "accepts"
	f.Subtopics[0].Mastery = &Mastery{Prior: 0.25, Learn: 0.1, Guess: 0, Slip: 1e-3}
	roundTrip(t, f)
}

func TestMarshalSample(t *testing.T) {
	for _, f := range loadSample(t) {
		t.Run(f.Name, func(t *testing.T) { roundTrip(t, f) })
	}
}
