package curriculum

import (
	"fmt"
	"strings"
)

// The keywords that give a step its type when the file does not, matched as
// plain substrings of the lowercased text (so "geometry" matches "try"),
// exactly as the reference topic adapter does.
var (
	practiceKeywords = []string{"practice", "solve", "exercise", "try"}
	checkKeywords    = []string{"check", "quiz", "assess", "test", "verify"}
)

// InferStepType returns the type of the i-th (1-based) of n plan steps whose
// file gives no type. It looks at texts in order (a step's title, description
// and content hint): the first text containing a practice keyword (practice,
// solve, exercise, try) makes it a practice step, the first containing a check
// keyword (check, quiz, assess, test, verify) a check step. Without any
// keyword the last step practises, even steps check and odd steps explain.
func InferStepType(i, n int, texts ...string) StepType {
	for _, t := range texts {
		t = strings.ToLower(t)
		if containsAny(t, practiceKeywords) {
			return StepPractice
		}
		if containsAny(t, checkKeywords) {
			return StepCheck
		}
	}
	switch {
	case i == n:
		return StepPractice
	case i%2 == 0:
		return StepCheck
	default:
		return StepExplain
	}
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// DefaultPlan returns the plan of a subtopic whose file has none: explain,
// check, explain, practice, all on one concept named after the subtopic's
// title. Its explain steps teach from content (the subtopic's teaching
// approach) and carry the reference adapter's hints for a model-backed tutor.
func DefaultPlan(title, content string) []Step {
	return []Step{
		{Title: title, Concept: title, Type: StepExplain, Content: content,
			ContentHint: "Introduce " + title + " with a concrete example"},
		{Title: title, Concept: title, Type: StepCheck},
		{Title: title, Concept: title, Type: StepExplain, Content: content,
			ContentHint: "Deepen understanding of " + title},
		{Title: title, Concept: title, Type: StepPractice},
	}
}

// Concepts returns the distinct concepts of a plan's steps in order of first
// appearance: the concepts a session tracks mastery and coverage of.
func Concepts(plan []Step) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range plan {
		if !seen[s.Concept] {
			seen[s.Concept] = true
			out = append(out, s.Concept)
		}
	}
	return out
}

// resolvePlan returns a subtopic's plan with every step's concept and type
// filled in, and reports whether it is the default plan.
func resolvePlan(s *Subtopic) ([]Step, bool) {
	if s.Plan == nil {
		return DefaultPlan(strings.TrimSpace(s.Title), s.TeachingApproach), true
	}
	plan := make([]Step, len(s.Plan))
	for i, st := range s.Plan {
		st.Title = strings.TrimSpace(st.Title)
		st.Concept = strings.TrimSpace(st.Concept)
		if st.Concept == "" {
			st.Concept = st.Title
		}
		if st.Concept == "" {
			st.Concept = fmt.Sprintf("Step %d", i+1)
		}
		if st.Type == "" {
			st.Type = InferStepType(i+1, len(s.Plan), st.Title, st.Description, st.ContentHint)
		}
		plan[i] = st
	}
	return plan, false
}
