package curriculum

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/tutord/tutord/curricula"
	"github.com/tutord/tutord/internal/yamldoc"
)

// readSchema reads curricula/schema.json.
func readSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "curricula", "schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("schema.json: %v", err)
	}
	return &s
}

// unknownKeywords lists the keywords of s and its subschemas that JSON
// Schema does not define, such as misspelt ones, which validators ignore.
func unknownKeywords(s *jsonschema.Schema, at string) []string {
	if s == nil {
		return nil
	}
	var out []string
	for k := range s.Extra {
		out = append(out, at+"/"+k)
	}
	v := reflect.ValueOf(s).Elem()
	for i := range v.NumField() {
		name := v.Type().Field(i).Name
		switch f := v.Field(i).Interface().(type) {
		case *jsonschema.Schema:
			out = append(out, unknownKeywords(f, at+"/"+name)...)
		case []*jsonschema.Schema:
			for j, sub := range f {
				out = append(out, unknownKeywords(sub, fmt.Sprintf("%s/%s/%d", at, name, j))...)
			}
		case map[string]*jsonschema.Schema:
			for k, sub := range f {
				out = append(out, unknownKeywords(sub, at+"/"+name+"/"+k)...)
			}
		}
	}
	return out
}

func TestSchemaIsValid(t *testing.T) {
	s := readSchema(t)
	if s.Schema != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema = %q, want draft 2020-12", s.Schema)
	}
	if unknown := unknownKeywords(s, "#"); len(unknown) > 0 {
		t.Errorf("unknown keywords: %v", unknown)
	}
	if _, err := s.Resolve(nil); err != nil {
		t.Errorf("Resolve: %v", err)
	}
}

// TestSchemaMatchesTypes checks that the schema and the Go types name the
// same fields.
func TestSchemaMatchesTypes(t *testing.T) {
	s := readSchema(t)
	tests := []struct {
		name   string
		schema *jsonschema.Schema
		typ    reflect.Type
	}{
		{"file", s, reflect.TypeFor[File]()},
		{"topic", s.Properties["topic"], reflect.TypeFor[Topic]()},
		{"subtopic", s.Defs["subtopic"], reflect.TypeFor[Subtopic]()},
		{"mastery", s.Defs["subtopic"].Properties["mastery"], reflect.TypeFor[Mastery]()},
		{"step", s.Defs["step"], reflect.TypeFor[Step]()},
		{"question", s.Defs["question"], reflect.TypeFor[Question]()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var inSchema []string
			for k := range tt.schema.Properties {
				inSchema = append(inSchema, k)
			}
			slices.Sort(inSchema)
			inGo := yamldoc.FieldNames(tt.typ)
			if diff := cmp.Diff(inGo, inSchema); diff != "" {
				t.Errorf("fields differ (-Go +schema):\n%s", diff)
			}
		})
	}
}

// yamlToJSON converts a YAML document to the value encoding/json would
// decode from its JSON form.
func yamlToJSON(t *testing.T, data []byte) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestSchemaAcceptsSample(t *testing.T) {
	rs, err := readSchema(t).Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	fsys := curricula.FS()
	names, err := fs.Glob(fsys, "*/*/*/*/*.yaml")
	if err != nil || len(names) == 0 {
		t.Fatalf("no sample files (%v)", err)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			data, err := fs.ReadFile(fsys, name)
			if err != nil {
				t.Fatal(err)
			}
			if err := rs.Validate(yamlToJSON(t, data)); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestSchemaRejects(t *testing.T) {
	rs, err := readSchema(t).Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		edits []string
		valid bool
	}{
		{"the valid document", nil, true},
		{"an answer written as a number", []string{`answer: "3/5"`, `answer: 0.6`, "kind: fraction", "kind: decimal"}, true},
		{"non-numeric grade", []string{"grade: 7", "grade: seven"}, false},
		{"grade out of range", []string{"grade: 7", "grade: 13"}, false},
		{"unknown field", []string{"difficulty: easy", "dificulty: easy"}, false},
		{"bad difficulty", []string{"difficulty: easy", "difficulty: hardest"}, false},
		{"one hint", []string{"hints: [Count the fifths., Add the numerators 1 and 2.]", "hints: [Count the fifths.]"}, false},
		{"bad key", []string{"key: adding-fractions", "key: Adding Fractions"}, false},
		{"bad kind", []string{"kind: fraction", "kind: essay"}, false},
		{"choice without options", []string{"kind: fraction", "kind: choice"}, false},
		{"options without choice", []string{"kind: fraction", "kind: fraction\n        options: [1/5, 3/5]"}, false},
		{"explain step without content", []string{"        content: Add the numerators and keep the denominator.\n", ""}, false},
		{"missing answer", []string{"        answer: \"3/5\"\n", ""}, false},
		{"bad prerequisite", []string{"    plan:", "    prerequisites: [fractions]\n    plan:"}, false},
		{"incomplete mastery", []string{"    plan:", "    mastery: {prior: 0.2, learn: 0.1, guess: 0.2}\n    plan:"}, false},
		{"plan without steps", []string{
			"plan:\n      - title: Like fractions\n        type: explain\n        content: Add the numerators and keep the denominator.\n" +
				"      - title: \"Check: like fractions\"\n        concept: Like fractions\n",
			"plan: []\n"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := strings.NewReplacer(tt.edits...).Replace(validDoc)
			if tt.edits != nil && doc == validDoc {
				t.Fatal("the edit changed nothing")
			}
			err := rs.Validate(yamlToJSON(t, []byte(doc)))
			if valid := err == nil; valid != tt.valid {
				t.Errorf("valid = %t, want %t (%v)", valid, tt.valid, err)
			}
		})
	}
}

func TestUnknownKeywords(t *testing.T) {
	var s jsonschema.Schema
	doc := `{"type": "object", "$defs": {"a": {"items": {"minimun": 1}}}, "propertys": {}}`
	if err := json.Unmarshal([]byte(doc), &s); err != nil {
		t.Fatal(err)
	}
	got := unknownKeywords(&s, "#")
	slices.Sort(got)
	if diff := cmp.Diff([]string{"#/Defs/a/Items/minimun", "#/propertys"}, got); diff != "" {
		t.Errorf("unknownKeywords mismatch (-want +got):\n%s", diff)
	}
}
