package scenario

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/tutord/tutord/internal/eval/learner"
	"github.com/tutord/tutord/internal/yamldoc"

	"github.com/tutord/tutord/internal/repopath"
)

func loadSchema(t *testing.T) (*jsonschema.Schema, *jsonschema.Resolved) {
	t.Helper()
	data, err := os.ReadFile(repopath.Join(t, "eval/scenario.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("the schema is not JSON Schema: %v", err)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("resolve the schema: %v", err)
	}
	return &s, r
}

// asJSON turns a YAML document into the JSON value the schema validates.
func asJSON(t *testing.T, doc []byte) any {
	t.Helper()
	j, err := yaml.YAMLToJSON(doc)
	if err != nil {
		t.Fatalf("YAML to JSON: %v", err)
	}
	var v any
	if err := json.Unmarshal(j, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestSchemaAcceptsTheSuite checks the starter suite against the schema as
// well as the parser.
func TestSchemaAcceptsTheSuite(t *testing.T) {
	_, schema := loadSchema(t)
	files, err := filepath.Glob(repopath.Join(t, "eval/suites/core/*.yaml"))
	if err != nil || len(files) < 25 {
		t.Fatalf("the starter suite has %d files (%v), want at least 25", len(files), err)
	}
	for _, name := range append(files, "") {
		data := []byte(fullDoc)
		if name != "" {
			if data, err = os.ReadFile(name); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := Parse(name, data); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if err := schema.Validate(asJSON(t, data)); err != nil {
			t.Errorf("%s: the schema rejects it: %v", name, err)
		}
	}
}

// TestSchemaAcceptsNullPhase checks that the schema, like the parser,
// takes a null question_phase or last_answer_result (none).
func TestSchemaAcceptsNullPhase(t *testing.T) {
	_, schema := loadSchema(t)
	for _, field := range []string{"question_phase", "last_answer_result"} {
		doc := "subtopic: a/b/c\nturns: [{say: hi, expect: {state: {" + field + ": null}}}]\n"
		if _, err := Parse("x.yaml", []byte(doc)); err != nil {
			t.Errorf("the parser rejects %q: %v", doc, err)
		}
		if err := schema.Validate(asJSON(t, []byte(doc))); err != nil {
			t.Errorf("the schema rejects %q: %v", doc, err)
		}
	}
}

// TestSchemaRejects checks that the schema rejects what the parser rejects,
// where a schema can tell.
func TestSchemaRejects(t *testing.T) {
	_, schema := loadSchema(t)
	for _, doc := range []string{
		"name: x\n",
		"subtopic: Fractions\nturns: [{say: hi}]\n",
		"subtopic: a/b/c\nturn: [{say: hi}]\n",
		"subtopic: a/b/c\nmode: lesson\nturns: [{say: hi}]\n",
		"subtopic: a/b/c\ngrade: 13\nturns: [{say: hi}]\n",
		"subtopic: a/b/c\nlearner: {persona: genius}\n",
		"subtopic: a/b/c\nlearner: {persona: ace, traits: {idk: 1.5}}\n",
		"subtopic: a/b/c\nturns: [{say: hi, answer: correct}]\n",
		"subtopic: a/b/c\nturns: [{action: stop}]\n",
		"subtopic: a/b/c\nturns: [{say: hi, expect: {state: {question_phase: hinting}}}]\n",
		"subtopic: a/b/c\nturns: [{say: hi, expect: {state: {current_step: {}}}}]\n",
		"subtopic: a/b/c\nturns: [{say: hi}]\nexpect: {metrics: {leaks: 0}}\n",
		"subtopic: a/b/c\nturns: [{say: hi, expect: {reply: {answer: hidden}}}]\n",
		"subtopic: a/b/c\nturns: [{say: hi, expect: {error: \"\"}}]\n",
		"subtopic: a/b/c\nturns: [{say: hi, expect: {state: {mastery: {Ratios: 70}}}}]\n",
		"subtopic: a/b/c\nturns: [{say: hi, expect: {state: {mastery: {Ratios: {at_least: 70}}}}}]\n",
		"subtopic: a/b/c\nturns: [{say: hi, expect: {state: {mastery: {Ratios: {above: 1}}}}}]\n",
		"subtopic: a/b/c\nturns: [{say: hi, expect: {state: {mastery: {Ratios: {below: 0}}}}}]\n",
	} {
		if _, err := Parse("x.yaml", []byte(doc)); err == nil {
			t.Errorf("the parser accepts %q", doc)
		}
		if err := schema.Validate(asJSON(t, []byte(doc))); err == nil {
			t.Errorf("the schema accepts %q", doc)
		}
	}
}

// TestSchemaFields checks that the schema and the Go types name the same
// fields.
func TestSchemaFields(t *testing.T) {
	s, _ := loadSchema(t)
	def := func(name string) *jsonschema.Schema {
		d, ok := s.Defs[name]
		if !ok {
			t.Fatalf("the schema has no $defs/%s", name)
		}
		return d
	}
	var rangeFields *jsonschema.Schema
	for _, alt := range def("range").OneOf {
		if alt.Type == "object" {
			rangeFields = alt
		}
	}
	if rangeFields == nil {
		t.Fatal("$defs/range has no object form")
	}
	for _, tt := range []struct {
		schema *jsonschema.Schema
		typ    reflect.Type
	}{
		{s, reflect.TypeFor[Scenario]()},
		{def("learner"), reflect.TypeFor[Learner]()},
		{def("traits"), reflect.TypeFor[learner.Overrides]()},
		{def("turn"), reflect.TypeFor[Turn]()},
		{def("expect"), reflect.TypeFor[Expect]()},
		{def("reply"), reflect.TypeFor[ReplyExpect]()},
		{def("state"), reflect.TypeFor[StateExpect]()},
		{def("final"), reflect.TypeFor[Final]()},
		{rangeFields, reflect.TypeFor[Range]()},
	} {
		var inSchema []string
		for name := range tt.schema.Properties {
			inSchema = append(inSchema, name)
		}
		sort.Strings(inSchema)
		inGo := yamldoc.FieldNames(tt.typ)
		if diff := cmp.Diff(inGo, inSchema); diff != "" {
			t.Errorf("%s: fields of the Go type (-) and of the schema (+):\n%s", tt.typ, diff)
		}
	}
	var metrics []string
	for _, v := range def("final").Properties["metrics"].PropertyNames.Enum {
		metrics = append(metrics, v.(string))
	}
	if diff := cmp.Diff(MetricNames, metrics); diff != "" {
		t.Errorf("metric names of the parser (-) and of the schema (+):\n%s", diff)
	}
	var personas []string
	for _, v := range def("learner").Properties["persona"].Enum {
		personas = append(personas, v.(string))
	}
	sort.Strings(personas)
	if diff := cmp.Diff(learner.PersonaNames(), personas); diff != "" {
		t.Errorf("personas of the learner package (-) and of the schema (+):\n%s", diff)
	}
}
