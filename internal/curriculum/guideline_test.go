package curriculum

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tutord/tutord/internal/tutor/answer"
)

func mustParse(t *testing.T, doc string) *File {
	t.Helper()
	f, err := Parse("x.yaml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestGuidelines(t *testing.T) {
	// The second step's type is inferred from its title; the question with
	// options but no kind is a choice question.
	doc := strings.Replace(validDoc, `        hints: [Count the fifths., Add the numerators 1 and 2.]
        solution: 1/5 + 2/5 = 3/5.
`, `        hints: [Count the fifths., Add the numerators 1 and 2.]
        solution: 1/5 + 2/5 = 3/5.
      - id: like-2
        question: Which is the sum of 1/5 and 2/5?
        answer: B
        options: [2/10, 3/5]
        concept: " Like fractions "
        difficulty: medium
        type: conceptual
        hints: [Count the fifths., The parts stay fifths.]
        solution: 1/5 + 2/5 = 3/5, option B.
`, 1)
	got := mustParse(t, doc).Guidelines()
	if len(got) != 1 {
		t.Fatalf("got %d guidelines, want 1", len(got))
	}
	g := got[0]
	if g.Hash == "" || len(g.Hash) != 64 {
		t.Errorf("hash = %q, want 64 hex digits", g.Hash)
	}
	g.Hash = ""
	want := Guideline{
		Key:        "mathematics/fractions/adding-fractions",
		File:       "x.yaml",
		Country:    "India",
		Board:      "CBSE",
		Grade:      7,
		Subject:    "Mathematics",
		SubjectKey: "mathematics",
		Topic:      Topic{Key: "fractions", Title: "Fractions"},
		Subtopic: Subtopic{
			Key:                "adding-fractions",
			Title:              "Adding fractions",
			Status:             StatusApproved,
			TeachingApproach:   "Use strips cut into equal parts.",
			LearningObjectives: []string{"Add like fractions."},
			RequiredDepth:      DepthIntermediate,
			Plan: []Step{
				{Title: "Like fractions", Concept: "Like fractions", Type: StepExplain, Content: "Add the numerators and keep the denominator."},
				{Title: "Check: like fractions", Concept: "Like fractions", Type: StepCheck},
			},
			Questions: []Question{
				{
					ID: "like-1", Question: "What is 1/5 + 2/5?", Answer: "3/5", Kind: answer.KindFraction,
					Concept: "Like fractions", Difficulty: Easy, Type: Procedural,
					Hints:    []string{"Count the fifths.", "Add the numerators 1 and 2."},
					Solution: "1/5 + 2/5 = 3/5.",
				},
				{
					ID: "like-2", Question: "Which is the sum of 1/5 and 2/5?", Answer: "B", Kind: answer.KindChoice,
					Options: []string{"2/10", "3/5"}, Concept: "Like fractions", Difficulty: Medium, Type: Conceptual,
					Hints:    []string{"Count the fifths.", "The parts stay fifths."},
					Solution: "1/5 + 2/5 = 3/5, option B.",
				},
			},
		},
	}
	if diff := cmp.Diff(want, g); diff != "" {
		t.Errorf("Guidelines mismatch (-want +got):\n%s", diff)
	}
}

func TestGuidelinesDefaultPlan(t *testing.T) {
	doc := strings.NewReplacer(
		"    plan:\n      - title: Like fractions\n        type: explain\n        content: Add the numerators and keep the denominator.\n"+
			"      - title: \"Check: like fractions\"\n        concept: Like fractions\n", "    status: draft\n",
		"        concept: Like fractions\n", "",
	).Replace(validDoc)
	g := mustParse(t, doc).Guidelines()[0]
	if !g.DefaultPlan {
		t.Error("DefaultPlan = false, want true")
	}
	if g.Subtopic.Status != StatusDraft {
		t.Errorf("status = %q, want draft", g.Subtopic.Status)
	}
	if diff := cmp.Diff(DefaultPlan("Adding fractions", "Use strips cut into equal parts."), g.Subtopic.Plan); diff != "" {
		t.Errorf("plan mismatch (-want +got):\n%s", diff)
	}
	if got := g.Subtopic.Questions[0].Concept; got != "Adding fractions" {
		t.Errorf("question concept = %q, want the subtopic title", got)
	}
}

func TestGuidelinesDoNotChangeTheFile(t *testing.T) {
	f := mustParse(t, validDoc)
	before, err := Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	f.Guidelines()
	after, err := Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(before), string(after)); diff != "" {
		t.Errorf("Guidelines changed the file (-before +after):\n%s", diff)
	}
}

func TestHash(t *testing.T) {
	base := mustParse(t, validDoc).Guidelines()[0].Hash
	tests := []struct {
		name    string
		edits   []string
		changed bool
	}{
		{"same file", nil, false},
		{"subtopic title", []string{"title: Adding fractions", "title: Adding like fractions"}, false},
		{"teaching approach with a plan", []string{"Use strips cut into equal parts.", "Use a number line."}, false},
		{"status", []string{"    plan:", "    status: draft\n    plan:"}, false},
		{"explicit type equal to the inferred one", []string{"        concept: Like fractions\n    questions", "        concept: Like fractions\n        type: check\n    questions"}, false},
		{"block text instead of inline", []string{"solution: 1/5 + 2/5 = 3/5.", "solution: >-\n          1/5 + 2/5 = 3/5."}, false},
		{"step content", []string{"keep the denominator.", "keep the denominator 5."}, true},
		{"step type", []string{"        concept: Like fractions\n    questions", "        concept: Like fractions\n        type: practice\n    questions"}, true},
		{"answer", []string{`answer: "3/5"`, `answer: "6/10"`}, true},
		{"hint", []string{"Count the fifths.", "Count the parts."}, true},
		{"mastery", []string{"    plan:", "    mastery: {prior: 0.2, learn: 0.1, guess: 0.2, slip: 0.1}\n    plan:"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := strings.NewReplacer(tt.edits...).Replace(validDoc)
			if doc == validDoc && tt.edits != nil {
				t.Fatal("the edit changed nothing")
			}
			got := mustParse(t, doc).Guidelines()[0].Hash
			if changed := got != base; changed != tt.changed {
				t.Errorf("hash changed = %t, want %t", changed, tt.changed)
			}
		})
	}
}

func TestSlug(t *testing.T) {
	tests := []struct{ name, want string }{
		{"Mathematics", "mathematics"},
		{"Social Science", "social-science"},
		{"  Hindi (2nd language) ", "hindi-2nd-language"},
		{"EVS-1", "evs-1"},
		{"C++", "c"},
		{"गणित", ""},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Slug(tt.name); got != tt.want {
				t.Errorf("Slug(%q) = %q, want %q", tt.name, got, tt.want)
			}
		})
	}
}

func TestPath(t *testing.T) {
	f := mustParse(t, strings.Replace(validDoc, "subject: Mathematics", "subject: Social Science", 1))
	if got, want := f.Path(), "india/cbse/grade-7/social-science/fractions.yaml"; got != want {
		t.Errorf("Path() = %q, want %q", got, want)
	}
}
