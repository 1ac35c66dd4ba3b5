package curriculum

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestInferStepType(t *testing.T) {
	tests := []struct {
		name  string
		i, n  int
		texts []string
		want  StepType
	}{
		{"practice keyword", 1, 4, []string{"Practice: word problems"}, StepPractice},
		{"solve keyword", 1, 4, []string{"Solve two-step equations"}, StepPractice},
		{"exercise keyword", 1, 4, []string{"Exercise 3"}, StepPractice},
		{"try keyword", 1, 4, []string{"Try it yourself"}, StepPractice},
		{"check keyword", 1, 4, []string{"Check your understanding"}, StepCheck},
		{"quiz keyword", 1, 4, []string{"Quick quiz"}, StepCheck},
		{"assess keyword", 1, 4, []string{"Self-assessment"}, StepCheck},
		{"test keyword", 1, 4, []string{"Test yourself"}, StepCheck},
		{"verify keyword", 1, 4, []string{"Verify the rule"}, StepCheck},
		{"case does not matter", 1, 4, []string{"QUIZ TIME"}, StepCheck},
		{"substring try in geometry", 1, 4, []string{"Geometry of shapes"}, StepPractice},
		{"substring test in greatest", 1, 4, []string{"The greatest number"}, StepCheck},
		{"solving has no solve", 1, 4, []string{"Solving equations"}, StepExplain},
		{"practice beats check in one text", 1, 4, []string{"Check and practice"}, StepPractice},
		{"title before description", 1, 4, []string{"Quick check", "More practice"}, StepCheck},
		{"description when the title has none", 1, 4, []string{"Fractions", "Solve problems"}, StepPractice},
		{"content hint last", 1, 4, []string{"Fractions", "", "Try an example"}, StepPractice},
		{"no keyword, odd position", 3, 4, []string{"Fractions", "About parts"}, StepExplain},
		{"no keyword, even position", 2, 4, []string{"Fractions"}, StepCheck},
		{"no keyword, last position", 4, 4, []string{"Fractions"}, StepPractice},
		{"no keyword, only step", 1, 1, nil, StepPractice},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := InferStepType(tt.i, tt.n, tt.texts...); got != tt.want {
				t.Errorf("InferStepType(%d, %d, %q) = %s, want %s", tt.i, tt.n, tt.texts, got, tt.want)
			}
		})
	}
}

func TestDefaultPlan(t *testing.T) {
	tests := []struct {
		name           string
		title, content string
		want           []Step
	}{
		{
			name:    "with content",
			title:   "Photosynthesis",
			content: "Plants make food from light.",
			want: []Step{
				{Title: "Photosynthesis", Concept: "Photosynthesis", Type: StepExplain, Content: "Plants make food from light.",
					ContentHint: "Introduce Photosynthesis with a concrete example"},
				{Title: "Photosynthesis", Concept: "Photosynthesis", Type: StepCheck},
				{Title: "Photosynthesis", Concept: "Photosynthesis", Type: StepExplain, Content: "Plants make food from light.",
					ContentHint: "Deepen understanding of Photosynthesis"},
				{Title: "Photosynthesis", Concept: "Photosynthesis", Type: StepPractice},
			},
		},
		{
			name:  "without content",
			title: "Integers",
			want: []Step{
				{Title: "Integers", Concept: "Integers", Type: StepExplain, ContentHint: "Introduce Integers with a concrete example"},
				{Title: "Integers", Concept: "Integers", Type: StepCheck},
				{Title: "Integers", Concept: "Integers", Type: StepExplain, ContentHint: "Deepen understanding of Integers"},
				{Title: "Integers", Concept: "Integers", Type: StepPractice},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, DefaultPlan(tt.title, tt.content)); diff != "" {
				t.Errorf("DefaultPlan mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestConcepts(t *testing.T) {
	tests := []struct {
		name string
		plan []Step
		want []string
	}{
		{"none", nil, nil},
		{"distinct in order", []Step{{Concept: "A"}, {Concept: "A"}, {Concept: "B"}, {Concept: "A"}, {Concept: "C"}}, []string{"A", "B", "C"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Concepts(tt.plan)); diff != "" {
				t.Errorf("Concepts mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
