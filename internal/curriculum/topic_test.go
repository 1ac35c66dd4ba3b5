package curriculum

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tutord/tutord/curricula"
	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

func TestSampleBecomesValidTopics(t *testing.T) {
	files, err := LoadFS(curricula.FS())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		for _, g := range f.Guidelines() {
			gj, pj, err := g.Stored()
			if err != nil {
				t.Fatal(err)
			}
			s, err := FromStored(g.Subtopic.Key, gj, pj)
			if err != nil {
				t.Fatal(err)
			}
			want := g.Subtopic
			want.Status = "" // the store keeps the approval apart
			if diff := cmp.Diff(want, s); diff != "" {
				t.Fatalf("%s: stored round trip (-want +got):\n%s", g.Key, diff)
			}
			topic := TopicOf(LessonMeta{GuidelineID: "g", PlanVersionID: "p", Subject: g.Subject, Grade: g.Grade, TopicTitle: g.Topic.Title}, s)
			if err := topic.Validate(); err != nil {
				t.Errorf("%s: %v", g.Key, err)
			}
			if topic.TopicName != g.Topic.Title+" - "+g.Subtopic.Title || len(topic.Steps) != len(g.Subtopic.Plan) || len(topic.Questions) != len(g.Subtopic.Questions) {
				t.Errorf("%s: topic %q with %d steps, %d questions", g.Key, topic.TopicName, len(topic.Steps), len(topic.Questions))
			}
			for i, q := range topic.Questions {
				if !topic.HasConcept(q.Concept) {
					t.Errorf("%s: question %s checks %q, not a plan concept", g.Key, q.ID, q.Concept)
				}
				// The misconception's answers reach the lesson and show it.
				if want := s.Questions[i].MisconceptionAnswers; !cmp.Equal(q.MisconceptionAnswers, want) {
					t.Errorf("%s: question %s has misconception answers %q, want %q", g.Key, q.ID, q.MisconceptionAnswers, want)
				}
				for _, a := range q.MisconceptionAnswers {
					if !q.ShowsMisconception(a) {
						t.Errorf("%s: question %s: its misconception answer %q does not show the misconception", g.Key, q.ID, a)
					}
				}
			}
		}
	}
}

func TestTopicOfDefaultPlanAndInference(t *testing.T) {
	meta := LessonMeta{GuidelineID: "g1", PlanVersionID: "v1", Subject: "Mathematics", Grade: 7, TopicTitle: "Fractions"}
	// No plan: the reference default plan, one concept.
	topic := TopicOf(meta, Subtopic{Key: "adding", Title: "Adding fractions", TeachingApproach: "Use pizzas."})
	want := []tutor.Step{
		{ID: 1, Type: tutor.StepExplain, Concept: "Adding fractions", Title: "Adding fractions", ContentHint: "Introduce Adding fractions with a concrete example", Content: "Use pizzas."},
		{ID: 2, Type: tutor.StepCheck, Concept: "Adding fractions", Title: "Adding fractions", QuestionType: tutor.QuestionConceptual},
		{ID: 3, Type: tutor.StepExplain, Concept: "Adding fractions", Title: "Adding fractions", ContentHint: "Deepen understanding of Adding fractions", Content: "Use pizzas."},
		{ID: 4, Type: tutor.StepPractice, Concept: "Adding fractions", Title: "Adding fractions", QuestionCount: 2},
	}
	if diff := cmp.Diff(want, topic.Steps); diff != "" {
		t.Errorf("default plan (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Learn about Adding fractions"}, topic.Guideline.LearningObjectives); diff != "" {
		t.Errorf("default objectives (-want +got):\n%s", diff)
	}
	// Types inferred from titles with the reference keywords.
	topic = TopicOf(meta, Subtopic{Key: "x", Title: "X", Plan: []Step{
		{Title: "Meet like fractions"}, {Title: "Quick quiz"}, {Title: "Try some sums"}, {Title: "Why it works"},
	}})
	var types []tutor.StepType
	for _, s := range topic.Steps {
		types = append(types, s.Type)
	}
	if diff := cmp.Diff([]tutor.StepType{tutor.StepExplain, tutor.StepCheck, tutor.StepPractice, tutor.StepPractice}, types); diff != "" {
		t.Errorf("inferred types (-want +got):\n%s", diff)
	}
	if topic.PlanVersionID != "v1" || topic.TopicID != "g1" || topic.GradeLevel != 7 {
		t.Errorf("meta not carried: %+v", topic)
	}
}

func TestSimplestFormIsImplied(t *testing.T) {
	s := Subtopic{Key: "x", Title: "X", Questions: []Question{
		{ID: "a", Question: "What is 7/10 - 3/10? Give the answer in its simplest form.", Answer: "2/5"},
		{ID: "b", Question: "What is 1/5 + 1/5?", Answer: "2/5"},
		{ID: "c", Question: "How long?", Answer: "12 cm", RequireUnit: true, Tolerance: 0.5},
		{ID: "d", Question: "Write 0.35 as a percentage.", Answer: "35%"},
		{ID: "e", Question: "Riya had 20 sweets and gave away 5. What part did she give away?", Answer: "25%"},
		{ID: "f", Question: "Write 0.35 as a percentage, then as a fraction.", Answer: "7/20"},
		{ID: "g", Question: "What is the percentage increase?", Answer: "20%"},
		{ID: "h", Question: "What is 2 1/3 + 1 1/2? Give the answer as a mixed number.", Answer: "3 5/6"},
	}}
	topic := TopicOf(LessonMeta{}, s)
	if !topic.Questions[0].Simplest || topic.Questions[1].Simplest {
		t.Fatalf("simplest: %v %v", topic.Questions[0].Simplest, topic.Questions[1].Simplest)
	}
	if q := topic.Questions[2]; !q.RequireUnit || q.Tolerance != 0.5 {
		t.Fatalf("unit question: %+v", q)
	}
	// "As a percentage" asks for the percentage form: 0.35 is only partly right.
	if q := topic.Questions; !q[3].RequireUnit || q[4].RequireUnit || q[5].RequireUnit || !q[6].RequireUnit {
		t.Fatalf("percentage form: %v %v %v %v", q[3].RequireUnit, q[4].RequireUnit, q[5].RequireUnit, q[6].RequireUnit)
	}
	if r := answer.Evaluate(topic.Questions[6].Expected(), "0.2"); r.Verdict != answer.Partial {
		t.Fatalf("0.2 for %q: %s", topic.Questions[6].Text, r.Verdict)
	}
	// "As a mixed number" asks for a proper mixed number: 23/6 is only partly right.
	if r := answer.Evaluate(topic.Questions[7].Expected(), "23/6"); !topic.Questions[7].Simplest || r.Verdict != answer.Partial {
		t.Fatalf("23/6 for %q: %s", topic.Questions[7].Text, r.Verdict)
	}
	if r := answer.Evaluate(topic.Questions[3].Expected(), "0.35"); r.Verdict != answer.Partial {
		t.Fatalf("0.35 for %q: %s", topic.Questions[3].Text, r.Verdict)
	}
}

func TestParseEvaluatorOptions(t *testing.T) {
	src := `country: India
board: CBSE
grade: 7
subject: Maths
topic: {key: t, title: T}
subtopics:
  - key: s
    title: S
    teaching_approach: x
    learning_objectives: [y]
    questions:
      - id: q-1
        question: How long is it?
        answer: "12 cm"
        kind: unit
        require_unit: %s
        tolerance: %s
        difficulty: easy
        type: procedural
        hints: ["Measure it from one end.", "Line it up with zero."]
        solution: It is twelve centimetres.
`
	f, err := Parse("ok.yaml", []byte(fmt.Sprintf(src, "true", "0.5")))
	if err != nil {
		t.Fatal(err)
	}
	if q := f.Subtopics[0].Questions[0]; !q.RequireUnit || q.Tolerance != 0.5 {
		t.Fatalf("question %+v", q)
	}
	for _, bad := range [][2]string{{"maybe", "0.5"}, {"true", "-1"}, {"true", "wide"}} {
		if _, err := Parse("bad.yaml", []byte(fmt.Sprintf(src, bad[0], bad[1]))); err == nil {
			t.Errorf("require_unit %s, tolerance %s: accepted", bad[0], bad[1])
		}
	}
}
