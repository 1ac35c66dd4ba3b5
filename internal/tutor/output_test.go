package tutor

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

func TestTutorOutputValidate(t *testing.T) {
	tests := []struct {
		name    string
		change  func(*TutorOutput)
		problem string // a fragment of the error; "" for valid
	}{
		{"valid", func(*TutorOutput) {}, ""},
		{"every teach_me and clarify intent", func(o *TutorOutput) { o.Intent = IntentFollowup }, ""},
		{"empty response", func(o *TutorOutput) { o.Response = "  " }, "response is empty"},
		{"unknown intent", func(o *TutorOutput) { o.Intent = "greeting" }, `intent "greeting"`},
		{"missing intent", func(o *TutorOutput) { o.Intent = "" }, `intent ""`},
		{"unknown mastery signal", func(o *TutorOutput) { o.MasterySignal = ptr(MasterySignal("great")) }, "mastery_signal"},
		{"known mastery signal", func(o *TutorOutput) { o.MasterySignal = ptr(SignalNeedsRemediation) }, ""},
		{"NaN score", func(o *TutorOutput) { o.MasteryUpdates = []MasteryUpdate{{"a", math.NaN()}} }, "no number"},
		// Clamped when applied, as the reference does; a repair would not
		// change a model's scale, and the turn would fail.
		{"score above 1", func(o *TutorOutput) { o.MasteryUpdates = []MasteryUpdate{{"a", 8}} }, ""},
		{"negative score", func(o *TutorOutput) { o.MasteryUpdates = []MasteryUpdate{{"a", -0.1}} }, ""},
		{"scores at the limits", func(o *TutorOutput) { o.MasteryUpdates = []MasteryUpdate{{"a", 0}, {"b", 1}} }, ""},
		{"update without concept", func(o *TutorOutput) { o.MasteryUpdates = []MasteryUpdate{{" ", 0.5}} }, "concept is empty"},
		{"advance to step 0", func(o *TutorOutput) { o.AdvanceToStep = ptr(0) }, "below 1"},
		{"question without its answer", func(o *TutorOutput) { o.QuestionAsked = ptr("What is double 6?") }, "no expected_answer"},
		{"question with a blank answer", func(o *TutorOutput) { o.QuestionAsked, o.ExpectedAnswer = ptr("What is double 6?"), ptr(" ") }, "no expected_answer"},
		{"question with its answer", func(o *TutorOutput) { o.QuestionAsked, o.ExpectedAnswer = ptr("What is double 6?"), ptr("12") }, ""},
		{"question that states its answer", func(o *TutorOutput) {
			o.QuestionAsked, o.ExpectedAnswer = ptr("Double 6 is 12, so what is double 6?"), ptr("12")
		}, "states its own expected_answer"},
		{"question with the answer's number as an operand", func(o *TutorOutput) { o.QuestionAsked, o.ExpectedAnswer = ptr("What is 12 ÷ 1?"), ptr("12") }, ""},
		{"advance far ahead is clamped later, not invalid", func(o *TutorOutput) { o.AdvanceToStep = ptr(99) }, ""},
		{"long turn summary is cut later, not invalid", func(o *TutorOutput) { o.TurnSummary = strings.Repeat("x", 200) }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := tutorSays()
			tt.change(o)
			err := o.Validate()
			if tt.problem == "" {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.problem) {
				t.Fatalf("Validate() = %v, want an error containing %q", err, tt.problem)
			}
			if !errors.Is(err, ErrInvalidOutput) {
				t.Errorf("error is not ErrInvalidOutput")
			}
		})
	}
}

func TestTutorOutputValidateListsEveryProblem(t *testing.T) {
	o := &TutorOutput{Intent: "x", AdvanceToStep: ptr(-1)}
	err := o.Validate()
	for _, want := range []string{"response", "intent", "advance_to_step"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not mention %s", err, want)
		}
	}
}

func TestTutorOutputJSONNames(t *testing.T) {
	o := tutorSays(correct, advance(2), asks("q", "a", "c"), updates(MasteryUpdate{"c", 0.5}))
	b, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"response":"Let's see.","intent":"answer","answer_correct":true,"misconceptions_detected":null,` +
		`"mastery_signal":null,"advance_to_step":2,"mastery_updates":[{"concept":"c","score":0.5}],"question_asked":"q",` +
		`"expected_answer":"a","question_concept":"c","session_complete":false,"turn_summary":"worked on it","reasoning":""}`
	if string(b) != want {
		t.Errorf("got\n%s\nwant\n%s", b, want)
	}
}

// TestSchemaDescriptions checks that every field of the types a model fills
// in has a description that the schema generator accepts: a non-empty
// jsonschema tag that does not start with "WORD=".
func TestSchemaDescriptions(t *testing.T) {
	bad := regexp.MustCompile(`^\w+=`)
	for _, typ := range []reflect.Type{reflect.TypeFor[TutorOutput](), reflect.TypeFor[MasteryUpdate]()} {
		for f := range typ.Fields() {
			if f.Tag.Get("json") == "-" {
				continue // not in the schema: set by program code only
			}
			tag, ok := f.Tag.Lookup("jsonschema")
			if !ok || strings.TrimSpace(tag) == "" || bad.MatchString(tag) {
				t.Errorf("%s.%s: jsonschema tag %q", typ.Name(), f.Name, tag)
			}
			if _, ok := f.Tag.Lookup("json"); !ok {
				t.Errorf("%s.%s has no json tag", typ.Name(), f.Name)
			}
		}
	}
}
