package llm

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/tutord/tutord/internal/tutor"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-want +got; go test -update rewrites it):\n%s", path, diff)
	}
}

func indent(t *testing.T, raw []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		t.Fatal(err)
	}
	b.WriteByte('\n')
	return b.Bytes()
}

func mustSchema[T any](t testing.TB) *Schema {
	t.Helper()
	s, err := SchemaFor[T]()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSchemaGolden(t *testing.T) {
	for _, tc := range []struct {
		name   string
		schema *Schema
	}{
		{"tutor_turn", mustSchema[tutorTurn](t)},
		{"exam_plan", mustSchema[examPlan](t)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			golden(t, tc.name+".strict.golden", indent(t, tc.schema.strict))
			golden(t, tc.name+".anthropic.golden", indent(t, tc.schema.anthropic))
			golden(t, tc.name+".gemini.golden", indent(t, tc.schema.gemini))
		})
	}
}

// TestSchemaStrictness checks the rules of strict mode on every object of
// the generated schemas, independently of the golden files.
func TestSchemaStrictness(t *testing.T) {
	for _, s := range []*Schema{mustSchema[tutorTurn](t), mustSchema[examPlan](t)} {
		t.Run(s.Name(), func(t *testing.T) {
			var doc any
			if err := json.Unmarshal(s.strict, &doc); err != nil {
				t.Fatal(err)
			}
			walkObjects(doc, "$", func(path string, obj map[string]any) {
				if obj["type"] != "object" && !contains(obj["type"], "object") {
					return
				}
				props, _ := obj["properties"].(map[string]any)
				var required []string
				for _, r := range obj["required"].([]any) {
					required = append(required, r.(string))
				}
				if len(required) != len(props) {
					t.Errorf("%s: required %v does not list all %d properties", path, required, len(props))
				}
				if obj["additionalProperties"] != false {
					t.Errorf("%s: additionalProperties = %v, want false", path, obj["additionalProperties"])
				}
			})
		})
	}
}

func walkObjects(v any, path string, f func(string, map[string]any)) {
	switch v := v.(type) {
	case map[string]any:
		if _, ok := v["properties"]; ok {
			f(path, v)
		}
		for k, c := range v {
			walkObjects(c, path+"."+k, f)
		}
	case []any:
		for _, c := range v {
			walkObjects(c, path+"[]", f)
		}
	}
}

func contains(v any, s string) bool {
	list, _ := v.([]any)
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

type withMap struct {
	Scores map[string]float64 `json:"scores"`
}
type withInterface struct {
	Anything any `json:"anything"`
}
type intEnum int

func (intEnum) EnumValues() []string { return []string{"1"} }

type withIntEnum struct {
	E intEnum `json:"e"`
}
type emptyEnum string

func (emptyEnum) EnumValues() []string { return nil }

type withEmptyEnum struct {
	E emptyEnum `json:"e"`
}

func TestSchemaForRejects(t *testing.T) {
	for _, tc := range []struct {
		name    string
		build   func() (*Schema, error)
		wantErr string
	}{
		{"map", SchemaFor[withMap], "maps cannot be described"},
		{"interface", SchemaFor[withInterface], "any type"},
		{"not a struct", SchemaFor[[]string], "must be a struct"},
		{"pointer", SchemaFor[*tutorTurn], "must be a struct"},
		{"int enum", SchemaFor[withIntEnum], "must be a string type"},
		{"empty enum", SchemaFor[withEmptyEnum], "has no values"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := tc.build()
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("SchemaFor = %v, %v; want error containing %q", s, err, tc.wantErr)
			}
		})
	}
}

func TestSchemaForIsCached(t *testing.T) {
	a, b := mustSchema[tutorTurn](t), mustSchema[tutorTurn](t)
	if a != b {
		t.Error("SchemaFor built the schema twice")
	}
}

type HTTPStatusReport struct{}
type generic[T any] struct{}

func TestSchemaName(t *testing.T) {
	for _, tc := range []struct {
		typ  reflect.Type
		want string
	}{
		{reflect.TypeFor[tutorTurn](), "tutor_turn"},
		{reflect.TypeFor[HTTPStatusReport](), "http_status_report"},
		{reflect.TypeFor[generic[int]](), "generic"},
		{reflect.TypeFor[struct{ A int }](), "output"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			if got := schemaName(tc.typ); got != tc.want {
				t.Errorf("schemaName(%v) = %q, want %q", tc.typ, got, tc.want)
			}
		})
	}
}

func TestSchemaValidate(t *testing.T) {
	s := mustSchema[examPlan](t)
	for _, tc := range []struct {
		name, doc string
		ok        bool
	}{
		{"valid", `{"topic":"t","questions":[{"text":"q","difficulty":null,"choices":[],"points":3}],"source":null,"author":{"title":"a","page":1},"notes":null}`, true},
		{"nullable enum value", `{"topic":"t","questions":[{"text":"q","difficulty":"hard","choices":["a"],"points":3}],"source":{"title":"b","page":2},"author":{"title":"a","page":1},"notes":"n"}`, true},
		{"bad enum", `{"topic":"t","questions":[{"text":"q","difficulty":"brutal","choices":[],"points":3}],"source":null,"author":{"title":"a","page":1},"notes":null}`, false},
		{"points above uint8", `{"topic":"t","questions":[{"text":"q","difficulty":null,"choices":[],"points":300}],"source":null,"author":{"title":"a","page":1},"notes":null}`, false},
		{"null array", `{"topic":"t","questions":null,"source":null,"author":{"title":"a","page":1},"notes":null}`, false},
		{"null object that is not nullable", `{"topic":"t","questions":[],"source":null,"author":null,"notes":null}`, false},
		{"missing optional field", `{"topic":"t","questions":[],"source":null,"author":{"title":"a","page":1}}`, false},
		{"extra field", `{"topic":"t","questions":[],"source":null,"author":{"title":"a","page":1},"notes":null,"x":1}`, false},
		{"not JSON", `{"topic":`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := s.Validate([]byte(tc.doc))
			if (err == nil) != tc.ok {
				t.Errorf("Validate = %v, want ok=%v", err, tc.ok)
			}
		})
	}
}

// geminiSchemas are the output schemas whose Gemini form is checked: the
// test types, which have the shapes of every agent's output (a nullable
// enum at the top and inside array items, plain enums), and the tutor's own
// output type. The agents' other output types are unexported; the Gemini
// fake applies the same check to every schema sent to it.
func geminiSchemas(t *testing.T) []*Schema {
	return []*Schema{mustSchema[tutorTurn](t), mustSchema[examPlan](t), mustSchema[tutor.TutorOutput](t)}
}

// TestSchemaGemini checks the form sent as Gemini's responseJsonSchema and
// parametersJsonSchema against its documented JSON Schema subset: enum
// values are strings or numbers, never null (Gemini answers 400 "enum[n]:
// cannot be empty"); a nullable enum is anyOf of the enum and null; no
// OpenAPI "nullable" keyword, which belongs to the other subset.
func TestSchemaGemini(t *testing.T) {
	for _, s := range geminiSchemas(t) {
		t.Run(s.Name(), func(t *testing.T) {
			var doc any
			if err := json.Unmarshal(s.gemini, &doc); err != nil {
				t.Fatal(err)
			}
			enums := 0
			walkSchemas(doc, "$", func(path string, sub map[string]any) {
				if _, ok := sub["nullable"]; ok {
					t.Errorf("%s: OpenAPI nullable in a JSON schema", path)
				}
				enum, ok := sub["enum"].([]any)
				if !ok {
					return
				}
				enums++
				for i, v := range enum {
					switch v := v.(type) {
					case string:
						if v == "" {
							t.Errorf("%s.enum[%d] is empty", path, i)
						}
					case float64:
					default:
						t.Errorf("%s.enum[%d] = %v, want a string or a number", path, i, v)
					}
				}
				if contains(sub["type"], "null") {
					t.Errorf("%s: an enum without null beside type null would refuse null", path)
				}
			})
			if enums == 0 {
				t.Error("the schema has no enum; the test checks nothing")
			}
		})
	}
}

// walkSchemas calls f on every subschema of a schema document.
func walkSchemas(v any, path string, f func(string, map[string]any)) {
	switch v := v.(type) {
	case map[string]any:
		f(path, v)
		for k, c := range v {
			if k == "enum" || k == "required" {
				continue
			}
			walkSchemas(c, path+"."+k, f)
		}
	case []any:
		for i, c := range v {
			walkSchemas(c, fmt.Sprintf("%s[%d]", path, i), f)
		}
	}
}

// TestSchemaGeminiAcceptsWhatStrictAccepts: the Gemini form describes the
// same documents as the strict one, null included where null is allowed.
func TestSchemaGeminiAcceptsWhatStrictAccepts(t *testing.T) {
	tutorDoc := func(signal any) string {
		b, err := json.Marshal(map[string]any{
			"response": "Well done.", "intent": "answer", "answer_correct": true, "misconceptions_detected": []string{},
			"mastery_signal": signal, "advance_to_step": nil, "mastery_updates": []any{}, "question_asked": nil,
			"expected_answer": nil, "question_concept": nil, "session_complete": false, "turn_summary": "ok", "reasoning": "ok",
		})
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	examDoc := func(difficulty any) string {
		b, err := json.Marshal(map[string]any{
			"topic": "t", "questions": []any{map[string]any{"text": "q", "difficulty": difficulty, "choices": []string{}, "points": 3}},
			"source": nil, "author": map[string]any{"title": "a", "page": 1}, "notes": nil,
		})
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, tc := range []struct {
		name   string
		schema *Schema
		doc    string
		ok     bool
	}{
		{"tutor: null signal", mustSchema[tutor.TutorOutput](t), tutorDoc(nil), true},
		{"tutor: a signal", mustSchema[tutor.TutorOutput](t), tutorDoc("strong"), true},
		{"tutor: an unknown signal", mustSchema[tutor.TutorOutput](t), tutorDoc("bogus"), false},
		{"tutor: a signal of the wrong type", mustSchema[tutor.TutorOutput](t), tutorDoc(3), false},
		{"exam: null difficulty in an item", mustSchema[examPlan](t), examDoc(nil), true},
		{"exam: a difficulty", mustSchema[examPlan](t), examDoc("hard"), true},
		{"exam: an unknown difficulty", mustSchema[examPlan](t), examDoc("brutal"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for form, raw := range map[string]json.RawMessage{"strict": tc.schema.strict, "gemini": tc.schema.gemini} {
				var js jsonschema.Schema
				if err := json.Unmarshal(raw, &js); err != nil {
					t.Fatal(err)
				}
				resolved, err := js.Resolve(nil)
				if err != nil {
					t.Fatal(err)
				}
				var v any
				if err := json.Unmarshal([]byte(tc.doc), &v); err != nil {
					t.Fatal(err)
				}
				if err := resolved.Validate(v); (err == nil) != tc.ok {
					t.Errorf("%s form: Validate = %v, want ok=%v", form, err, tc.ok)
				}
			}
		})
	}
}
