package yamldoc

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-yaml/ast"
)

type level struct {
	Name    string  `yaml:"name"`
	Score   float64 `yaml:"score"`
	Retries uint64  `yaml:"retries"`
}

type doc struct {
	Title  string            `yaml:"title"`
	Grade  int               `yaml:"grade"`
	Draft  bool              `yaml:"draft"`
	Tags   []string          `yaml:"tags"`
	Levels []level           `yaml:"levels"`
	Notes  map[string]string `yaml:"notes"`
	Extra  *level            `yaml:"extra"`
	Pair   pair              `yaml:"pair"`
}

// pair is read by a hook: a plain number means both halves.
type pair struct{ A, B float64 }

func decode(t *testing.T, text string) (doc, *Decoder, []string) {
	t.Helper()
	is := &Issues{File: "f.yaml"}
	var d doc
	body, ok := Document([]byte(text), "a test file", is)
	dec := NewDecoder(is)
	dec.Hook = func(dec *Decoder, path string, n ast.Node, v reflect.Value) bool {
		if v.Type() != reflect.TypeFor[pair]() {
			return false
		}
		x, ok := NumberValue(n)
		if !ok {
			dec.ErrorAt(n, path, "must be a number, not %s", Describe(n))
			return true
		}
		v.Set(reflect.ValueOf(pair{x, x}))
		return true
	}
	if ok {
		dec.Decode(body, &d)
	}
	list, _ := Sorted(is)
	var got []string
	for _, i := range list {
		got = append(got, i.String())
	}
	return d, dec, got
}

func TestDecodeFillsEveryKind(t *testing.T) {
	d, dec, issues := decode(t, `title: Fractions
grade: 6
draft: true
tags: [a, 12, 0.50]
levels:
  - name: easy
    score: 0.3
    retries: 2
notes:
  why: because
extra:
  name: bonus
pair: 4
`)
	if len(issues) > 0 {
		t.Fatalf("issues: %v", issues)
	}
	want := doc{Title: "Fractions", Grade: 6, Draft: true, Tags: []string{"a", "12", "0.50"},
		Levels: []level{{Name: "easy", Score: 0.3, Retries: 2}}, Notes: map[string]string{"why": "because"},
		Extra: &level{Name: "bonus"}, Pair: pair{4, 4}}
	if !reflect.DeepEqual(d, want) {
		t.Errorf("decoded %+v, want %+v", d, want)
	}
	if got := dec.Line("levels[0].score"); got != 7 {
		t.Errorf("line of levels[0].score = %d, want 7", got)
	}
	if got := dec.Line("levels[0].missing"); got != 6 {
		t.Errorf("line of an absent field = %d, want its parent's (6)", got)
	}
	if !dec.Present("extra.name") || dec.Present("extra.score") {
		t.Error("Present does not tell written fields from absent ones")
	}
}

func TestDecodeReportsEveryProblemWithItsLine(t *testing.T) {
	_, dec, issues := decode(t, `titel: x
grade: six
draft: maybe
tags: {a: 1}
levels:
  - name: [x]
    retries: -1
    sore: 2
pair: [1]
notes: 3
`)
	want := []string{
		`f.yaml:1: titel: unknown field (did you mean "title"?)`,
		`f.yaml:2: grade: must be an integer, not "six"`,
		`f.yaml:3: draft: must be true or false, not "maybe"`,
		`f.yaml:4: tags: must be a list, not a mapping`,
		`f.yaml:6: levels[0].name: must be text, not a list`,
		`f.yaml:7: levels[0].retries: must be a whole number of at least 0, not "-1"`,
		`f.yaml:8: levels[0].sore: unknown field (did you mean "score"?)`,
		`f.yaml:9: pair: must be a number, not a list`,
		`f.yaml:10: notes: must be a mapping, not "3"`,
	}
	if !slices.Equal(issues, want) {
		t.Errorf("issues:\n%s\nwant:\n%s", strings.Join(issues, "\n"), strings.Join(want, "\n"))
	}
	// A checker after the decoder does not report a field again.
	dec.Errorf("levels[0].name", "must not be empty")
	dec.Errorf("grade", "must be between 1 and 12")
	if n := len(dec.is.List); n != len(want) {
		t.Errorf("Errorf reported a field the decoder had reported: %d issues", n)
	}
	dec.Errorf("levels[0].score", "is required")
	if last := dec.is.List[len(dec.is.List)-1]; last.Line != 6 || last.Field != "levels[0].score" {
		t.Errorf("Errorf on an absent field: %+v, want line 6 (its parent's)", last)
	}
}

// YAML reads 010 as the octal number 8 and 08 as text, where an author
// writing a grade or a count means ten and eight: an integer with a leading
// zero is refused at its line, whatever it would have been read as.
func TestIntegerWithLeadingZero(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"grade: 010\n", []string{`f.yaml:1: grade: must be an integer without a leading zero, not "010": YAML reads a number with a leading zero as octal`}},
		{"grade: 08\n", []string{`f.yaml:1: grade: must be an integer without a leading zero, not "08": YAML reads a number with a leading zero as octal`}},
		{"title: x\nlevels:\n  - retries: -012\n", []string{`f.yaml:3: levels[0].retries: must be an integer without a leading zero, not "-012": YAML reads a number with a leading zero as octal`}},
		{"grade: 10\n", nil},
		{"grade: 0\n", nil},
		{"grade: 0o10\n", nil}, // octal, written as such
		{"title: 010\n", nil},  // text as written
	} {
		_, _, issues := decode(t, c.text)
		if !slices.Equal(issues, c.want) {
			t.Errorf("%q: issues %q, want %q", c.text, issues, c.want)
		}
	}
	if d, _, _ := decode(t, "grade: 0o10\ntitle: 010\n"); d.Grade != 8 || d.Title != "010" {
		t.Errorf("decoded grade %d and title %q, want 8 and %q", d.Grade, d.Title, "010")
	}
}

func TestNullsAndEmptyListsLeaveFieldsAlone(t *testing.T) {
	d, _, issues := decode(t, "title: ~\ngrade:\ntags: []\nextra: null\n")
	if len(issues) > 0 {
		t.Fatalf("issues: %v", issues)
	}
	if d.Title != "" || d.Grade != 0 || d.Tags != nil || d.Extra != nil {
		t.Errorf("decoded %+v, want zero values", d)
	}
}

func TestDocumentProblems(t *testing.T) {
	cases := map[string]string{
		"":                                  "f.yaml: the file is empty",
		"# only a comment\n":                "f.yaml: the file is empty",
		"a: 1\n---\nb: 2\n":                 "f.yaml:3: a test file holds one YAML document, not 2",
		"a: 1\n---\n%YAML 1.2\n---\nb: 2\n": "f.yaml:5: a test file holds one YAML document, not 2",
		"%YAML 1.2\n---\n":                  "f.yaml: the file is empty",
		"a: [1, 2\nb: 3\n":                  "f.yaml:",
		"title: &x hi\ngrade: *x\n":         "f.yaml:2: grade: aliases are not supported",
		"title: a\ntitle: b\n":              "f.yaml:2: ",
		"- just\n- a list\n":                "f.yaml:1: must be a mapping, not a list",
		"grade: 99999999999999999999\n":     "f.yaml:1: grade: must be an integer",
		// Latin-1 "é" would be read as U+FFFD: the file is refused instead.
		"grade: 7\ntitle: caf\xe9\n":      "f.yaml:2: the file is not UTF-8: byte 0xE9 on this line",
		"\ufeffgrade: 7\n\ntitle: \xd7\n": "f.yaml:3: the file is not UTF-8: byte 0xD7 on this line",
	}
	for text, want := range cases {
		_, _, issues := decode(t, text)
		if len(issues) == 0 || !strings.HasPrefix(issues[0], want) {
			t.Errorf("%q: issues %q, want one starting %q", text, issues, want)
		}
	}
}

// A %YAML or %TAG directive belongs to the document after it (YAML 1.2
// §6.8): a file with one is still one document.
func TestDocumentWithDirective(t *testing.T) {
	for _, text := range []string{
		"%YAML 1.2\n---\ntitle: a\ngrade: 7\n",
		"%TAG !e! tag:example.com,2000:\n---\ntitle: a\ngrade: 7\n",
		"%YAML 1.2\n---\ntitle: a\ngrade: 7\n...\n",
	} {
		d, _, issues := decode(t, text)
		if len(issues) > 0 || d.Title != "a" || d.Grade != 7 {
			t.Errorf("%q: decoded %+v with issues %q, want title a, grade 7", text, d, issues)
		}
	}
}

func TestIssuesCapAndOrder(t *testing.T) {
	is := &Issues{File: "b.yaml", Max: 2}
	is.Add(9, "x", "late")
	is.Add(1, "y", "early")
	is.Add(5, "z", "left out")
	other := &Issues{File: "a.yaml"}
	other.Add(3, "", "first file")
	list, omitted := Sorted(is, other)
	var got []string
	for _, i := range list {
		got = append(got, i.String())
	}
	want := []string{"a.yaml:3: first file", "b.yaml:1: y: early", "b.yaml:9: x: late"}
	if !slices.Equal(got, want) || omitted != 1 {
		t.Errorf("Sorted = %q, %d omitted; want %q, 1", got, omitted, want)
	}
	if !is.Reported("z") || !is.Reported("x.deeper[0]") || is.Reported("w") {
		t.Error("Reported does not follow the fields with issues and what they hold")
	}
}
