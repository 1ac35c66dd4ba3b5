package tutor

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestConcepts(t *testing.T) {
	tests := []struct {
		name string
		tp   *Topic
		want []string
	}{
		{"nil topic", nil, nil},
		{"empty plan", lesson(), []string{}},
		{"distinct in step order", lesson("b", "a", "b", "c", "a"), []string{"b", "a", "c"}},
		{"default plan repeats one concept", lesson("x", "x", "x", "x"), []string{"x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.tp.Concepts()); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestStepLookup(t *testing.T) {
	tp := planOf(3)
	for id, want := range map[int]bool{-1: false, 0: false, 1: true, 3: true, 4: false} {
		st, ok := tp.Step(id)
		if ok != want || (ok && st.ID != id) {
			t.Errorf("Step(%d) = %v, %v", id, st.ID, ok)
		}
	}
	var nilTopic *Topic
	if _, ok := nilTopic.Step(1); ok {
		t.Error("nil topic has a step")
	}
}

func TestCanonicalConcept(t *testing.T) {
	tp := lesson("Equivalent Fractions", "Comparing")
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"Comparing", "Comparing", true},
		{"  equivalent fractions ", "Equivalent Fractions", true},
		{"COMPARING", "Comparing", true},
		{"Decimals", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, ok := tp.canonicalConcept(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("canonicalConcept(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestReferenceTopicJSON(t *testing.T) {
	tp := &Topic{
		TopicID: "g-7", TopicName: "Fractions - Comparing", Subject: "Math", GradeLevel: 6,
		Guideline: Guideline{RequiredDepth: "intermediate", TeachingApproach: "use pizzas"},
		Steps: []Step{
			{ID: 1, Type: StepExplain, Concept: "Comparing", Title: "Comparing"},
			{ID: 2, Type: StepCheck, Concept: "Comparing", QuestionType: QuestionConceptual},
			{ID: 3, Type: StepPractice, Concept: "Comparing", QuestionCount: 2},
		},
	}
	got, err := json.Marshal(tp.Reference())
	if err != nil {
		t.Fatal(err)
	}
	want := `{"topic_id":"g-7","topic_name":"Fractions - Comparing","subject":"Math","grade_level":6,` +
		`"guidelines":{"learning_objectives":[],"required_depth":"intermediate","prerequisite_concepts":[],"common_misconceptions":[],"teaching_approach":"use pizzas"},` +
		`"study_plan":{"steps":[` +
		`{"step_id":1,"type":"explain","concept":"Comparing","content_hint":"","question_type":null,"question_count":null},` +
		`{"step_id":2,"type":"check","concept":"Comparing","content_hint":null,"question_type":"conceptual","question_count":null},` +
		`{"step_id":3,"type":"practice","concept":"Comparing","content_hint":null,"question_type":null,"question_count":2}]}}`
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}

	back := tp.Reference().Topic()
	for i, st := range back.Steps {
		w := tp.Steps[i]
		if st.ID != w.ID || st.Type != w.Type || st.Concept != w.Concept || st.QuestionType != w.QuestionType || st.QuestionCount != w.QuestionCount {
			t.Errorf("step %d: got %+v, want %+v", i+1, st, w)
		}
	}
}

func TestTopicValidate(t *testing.T) {
	ok := lesson("a", "b")
	tests := []struct {
		name   string
		change func(*Topic)
		valid  bool
	}{
		{"valid", func(*Topic) {}, true},
		{"empty plan is valid", func(tp *Topic) { tp.Steps, tp.Questions = nil, nil }, true},
		{"step ids out of order", func(tp *Topic) { tp.Steps[1].ID = 3 }, false},
		{"unknown step type", func(tp *Topic) { tp.Steps[0].Type = "lecture" }, false},
		{"step without concept", func(tp *Topic) { tp.Steps[0].Concept = " " }, false},
		{"duplicate question id", func(tp *Topic) { tp.Questions[1].ID = tp.Questions[0].ID }, false},
		{"question without answer", func(tp *Topic) { tp.Questions[0].Answer = "" }, false},
		{"unknown difficulty", func(tp *Topic) { tp.Questions[0].Difficulty = "brutal" }, false},
		{"unknown question type", func(tp *Topic) { tp.Questions[0].Type = "essay" }, false},
		{"guess + slip ≥ 1", func(tp *Topic) { tp.Mastery = BKT{Prior: 0.2, Learn: 0.1, Guess: 0.6, Slip: 0.4} }, false},
		{"probability above 1", func(tp *Topic) { tp.Mastery = BKT{Prior: 1.2, Learn: 0.1, Guess: 0.2, Slip: 0.1} }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tp := *ok
			tp.Steps = append([]Step(nil), ok.Steps...)
			tp.Questions = append([]BankQuestion(nil), ok.Questions...)
			tt.change(&tp)
			err := tp.Validate()
			if (err == nil) != tt.valid {
				t.Fatalf("Validate() = %v, valid %v", err, tt.valid)
			}
			if err != nil && !errors.Is(err, ErrInvalid) {
				t.Errorf("error %v is not ErrInvalid", err)
			}
		})
	}
}

func TestBKTParams(t *testing.T) {
	custom := BKT{Prior: 0.3, Learn: 0.2, Guess: 0.25, Slip: 0.05}
	tests := []struct {
		name string
		tp   *Topic
		want BKT
	}{
		{"nil topic", nil, DefaultBKT()},
		{"unset", &Topic{}, DefaultBKT()},
		{"custom", &Topic{Mastery: custom}, custom},
		{"invalid falls back", &Topic{Mastery: BKT{Guess: 0.7, Slip: 0.5}}, DefaultBKT()},
	}
	for _, tt := range tests {
		if got := tt.tp.BKTParams(); got != tt.want {
			t.Errorf("%s: got %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestBankQuestionExpected(t *testing.T) {
	q := lesson("a").Questions[0]
	q.Accept, q.RequireUnit = []string{"forty-two"}, true
	e := q.Expected()
	if e.Answer != "42" || e.Kind != q.Kind || !e.RequireUnit || len(e.Accept) != 1 {
		t.Errorf("Expected() = %+v", e)
	}
}
