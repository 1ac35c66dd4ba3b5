package curriculum

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

// StoredGuideline is the part of a subtopic that a re-import updates in
// place: its teaching text. It is what the store keeps as the guideline.
// The status is not part of it: the store keeps it as the subtopic's
// approval, which approve and unapprove change.
type StoredGuideline struct {
	Title                string   `json:"title"`
	TeachingApproach     string   `json:"teaching_approach"`
	LearningObjectives   []string `json:"learning_objectives"`
	CommonMisconceptions []string `json:"common_misconceptions"`
	Prerequisites        []string `json:"prerequisites"`
	RequiredDepth        Depth    `json:"required_depth"`
}

// StoredPlan is the part of a subtopic that is versioned: what a session
// depends on for its whole life.
type StoredPlan struct {
	Plan        []Step     `json:"plan"`
	DefaultPlan bool       `json:"default_plan"`
	Questions   []Question `json:"questions"`
	Mastery     *Mastery   `json:"mastery"`
}

// Stored splits a resolved subtopic into the JSON the store keeps: the
// guideline (updated in place) and the plan (versioned by Hash).
func (g Guideline) Stored() (guideline, plan []byte, err error) {
	s := g.Subtopic
	guideline, err = json.Marshal(StoredGuideline{
		Title: s.Title, TeachingApproach: s.TeachingApproach, LearningObjectives: s.LearningObjectives,
		CommonMisconceptions: s.CommonMisconceptions, Prerequisites: s.Prerequisites,
		RequiredDepth: s.RequiredDepth,
	})
	if err != nil {
		return nil, nil, err
	}
	plan, err = json.Marshal(StoredPlan{Plan: s.Plan, DefaultPlan: g.DefaultPlan, Questions: s.Questions, Mastery: s.Mastery})
	return guideline, plan, err
}

// FromStored rebuilds a subtopic from what the store keeps, as its file
// has it: without a plan when the stored one is the default plan, and then
// without its questions' concepts, which are all the title (the file need
// not name them, and a file that did would refuse a new title). Its status
// is left empty for the caller to set from the stored approval.
func FromStored(key string, guideline, plan []byte) (Subtopic, error) {
	s, p, err := fromStored(key, guideline, plan)
	if !p.DefaultPlan {
		s.Plan = p.Plan
		return s, err
	}
	s.Questions = slices.Clone(s.Questions)
	for i := range s.Questions {
		s.Questions[i].Concept = ""
	}
	return s, err
}

// LessonFromStored rebuilds the subtopic a plan version teaches: as
// FromStored, but always with the version's own steps. A default plan is
// made from the title and teaching approach of its version's time, which
// an import may have changed since; a session keeps the lesson it started.
func LessonFromStored(key string, guideline, plan []byte) (Subtopic, error) {
	s, p, err := fromStored(key, guideline, plan)
	s.Plan = p.Plan
	return s, err
}

func fromStored(key string, guideline, plan []byte) (Subtopic, StoredPlan, error) {
	var g StoredGuideline
	if err := json.Unmarshal(guideline, &g); err != nil {
		return Subtopic{}, StoredPlan{}, fmt.Errorf("stored guideline: %w", err)
	}
	var p StoredPlan
	if err := json.Unmarshal(plan, &p); err != nil {
		return Subtopic{}, StoredPlan{}, fmt.Errorf("stored plan: %w", err)
	}
	return Subtopic{
		Key: key, Title: g.Title, TeachingApproach: g.TeachingApproach,
		LearningObjectives: g.LearningObjectives, CommonMisconceptions: g.CommonMisconceptions,
		Prerequisites: g.Prerequisites, RequiredDepth: g.RequiredDepth,
		Mastery: p.Mastery, Questions: p.Questions,
	}, p, nil
}

// LessonMeta places a subtopic in the curriculum for TopicOf.
type LessonMeta struct {
	GuidelineID   string
	PlanVersionID string
	Subject       string
	Grade         int
	TopicTitle    string
}

// TopicOf adapts a subtopic to the tutor's Topic: the reference's topic
// adapter (CONTRACT §9.9) over tutord's richer format. Step types come from
// the file or are inferred with the reference keywords; a subtopic without a
// plan gets the reference default plan (explain → check → explain →
// practice); learning objectives default to "Learn about <subtopic>".
func TopicOf(m LessonMeta, s Subtopic) tutor.Topic {
	resolved, _ := resolvePlan(&s)
	t := tutor.Topic{
		TopicID:       m.GuidelineID,
		TopicName:     m.TopicTitle + " - " + s.Title,
		Subject:       m.Subject,
		GradeLevel:    m.Grade,
		PlanVersionID: m.PlanVersionID,
		Guideline: tutor.Guideline{
			LearningObjectives:   s.LearningObjectives,
			RequiredDepth:        string(s.RequiredDepth),
			PrerequisiteConcepts: s.Prerequisites,
			CommonMisconceptions: s.CommonMisconceptions,
			TeachingApproach:     s.TeachingApproach,
		},
	}
	if len(t.Guideline.LearningObjectives) == 0 {
		t.Guideline.LearningObjectives = []string{"Learn about " + s.Title}
	}
	if t.Guideline.RequiredDepth == "" {
		t.Guideline.RequiredDepth = string(DepthIntermediate)
	}
	for i, st := range resolved {
		step := tutor.Step{
			ID: i + 1, Type: tutor.StepType(st.Type), Concept: st.Concept, Title: st.Title,
			Content: st.Content, ContentHint: st.ContentHint,
		}
		switch step.Type {
		case tutor.StepExplain:
			if step.ContentHint == "" {
				step.ContentHint = st.Description
			}
		case tutor.StepCheck:
			step.QuestionType = tutor.QuestionConceptual
		case tutor.StepPractice:
			step.QuestionCount = 2
		}
		t.Steps = append(t.Steps, step)
	}
	for _, q := range s.Questions {
		concept := q.Concept
		if concept == "" {
			concept = s.Title
		}
		t.Questions = append(t.Questions, tutor.BankQuestion{
			ID: q.ID, Text: q.Question, Answer: q.Answer, Kind: questionKind(&q), Accept: q.Accept, Options: q.Options,
			Concept: concept, Difficulty: tutor.Difficulty(q.Difficulty), Type: tutor.QuestionType(q.Type),
			Hints: q.Hints, Solution: q.Solution, Misconception: q.Misconception, MisconceptionAnswers: q.MisconceptionAnswers,
			Simplest: q.Simplest || asksSimplest(q.Question), RequireUnit: requiresUnit(&q), Tolerance: q.Tolerance,
		})
	}
	if m := s.Mastery; m != nil {
		t.Mastery = tutor.BKT{Prior: m.Prior, Learn: m.Learn, Guess: m.Guess, Slip: m.Slip}
	}
	return t
}

// asksSimplest reports whether a question asks for an answer in its
// simplest form, which makes an unsimplified fraction only partly right,
// or as a mixed number, which makes an improper fraction only partly
// right.
func asksSimplest(question string) bool {
	q := strings.ToLower(question)
	for _, ask := range []string{"simplest form", "lowest terms", "simplest fraction", "as a mixed number", "to a mixed number", "into a mixed number"} {
		if strings.Contains(q, ask) {
			return true
		}
	}
	return false
}

// requiresUnit reports whether a number without its unit (or sign) is only
// partly right: require_unit, or a percentage answer to a question that
// asks for a percentage ("Write 0.35 as a percentage", "What is the
// percentage increase?"), where the value in another form (0.35, 7/20) or
// without its sign is only partly right too.
func requiresUnit(q *Question) bool {
	if q.RequireUnit {
		return true
	}
	kind := questionKind(q)
	if kind == answer.KindAuto {
		kind = answer.InferKind(q.Answer)
	}
	low := strings.ToLower(q.Question)
	return kind == answer.KindPercentage && (strings.Contains(low, "percent") || strings.Contains(low, "per cent"))
}
