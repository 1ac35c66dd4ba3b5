package curriculum

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Guideline is one subtopic of a file with its defaults resolved: the unit
// the store imports, one teaching guideline with its study plan.
type Guideline struct {
	// Key is the subtopic's full key, <subject slug>/<topic key>/<subtopic
	// key>, e.g. mathematics/fractions/adding-fractions: stable, readable and
	// unique across a curriculum.
	Key        string
	File       string // the file it was read from
	Country    string
	Board      string
	Grade      int
	Subject    string
	SubjectKey string // Slug(Subject)
	Topic      Topic
	// Subtopic has its defaults applied: status approved, depth intermediate,
	// every step's concept and type set (the default plan when the file has
	// none), every question's concept set and a question with options but no
	// kind made a choice question.
	Subtopic Subtopic
	// DefaultPlan reports whether the plan is the default plan.
	DefaultPlan bool
	// Hash identifies the content of the plan: the resolved steps, the
	// questions and the mastery parameters. Equal hashes mean an import
	// changes nothing a session depends on; a new hash calls for a new plan
	// version.
	Hash string
}

// Guidelines resolves the subtopics of a file, which should be one returned
// by [Parse], [LoadPaths] or [LoadFS].
func (f *File) Guidelines() []Guideline {
	out := make([]Guideline, 0, len(f.Subtopics))
	for _, s := range f.Subtopics {
		s, isDefault := normalize(s)
		out = append(out, Guideline{
			Key:         key(f.Subject, f.Topic.Key, s.Key),
			File:        f.Name,
			Country:     f.Country,
			Board:       f.Board,
			Grade:       f.Grade,
			Subject:     f.Subject,
			SubjectKey:  Slug(f.Subject),
			Topic:       f.Topic,
			Subtopic:    s,
			DefaultPlan: isDefault,
			Hash:        hash(&s),
		})
	}
	return out
}

// Path returns where an export writes the file, relative to the export
// directory: <country>/<board>/grade-<n>/<subject>/<topic key>.yaml, all slugs.
func (f *File) Path() string {
	return fmt.Sprintf("%s/%s/grade-%d/%s/%s.yaml", Slug(f.Country), Slug(f.Board), f.Grade, Slug(f.Subject), f.Topic.Key)
}

// Slug turns a name into a key: lowercase letters a to z and digits, with
// single hyphens for everything between them ("Social Science" → "social-science").
func Slug(name string) string {
	var b strings.Builder
	gap := false
	for _, r := range strings.ToLower(name) {
		if 'a' <= r && r <= 'z' || '0' <= r && r <= '9' {
			if gap && b.Len() > 0 {
				b.WriteByte('-')
			}
			gap = false
			b.WriteRune(r)
		} else {
			gap = true
		}
	}
	return b.String()
}

func key(subject, topic, subtopic string) string {
	return Slug(subject) + "/" + topic + "/" + subtopic
}

// normalize applies a subtopic's defaults and reports whether its plan is
// the default plan.
func normalize(s Subtopic) (Subtopic, bool) {
	if s.Status == "" {
		s.Status = StatusApproved
	}
	if s.RequiredDepth == "" {
		s.RequiredDepth = DepthIntermediate
	}
	plan, isDefault := resolvePlan(&s)
	s.Plan = plan
	s.Questions = slices.Clone(s.Questions)
	for i := range s.Questions {
		q := &s.Questions[i]
		q.Concept = strings.TrimSpace(q.Concept)
		if q.Concept == "" {
			q.Concept = strings.TrimSpace(s.Title)
		}
		q.Kind = questionKind(q)
	}
	return s, isDefault
}

// hash returns the SHA-256 of the canonical JSON of a normalised subtopic's
// plan, questions and mastery parameters. The parameters are hashed as text
// so that no value can make the encoding fail.
func hash(s *Subtopic) string {
	var mastery []string
	if m := s.Mastery; m != nil {
		for _, x := range []float64{m.Prior, m.Learn, m.Guess, m.Slip} {
			mastery = append(mastery, strconv.FormatFloat(x, 'g', -1, 64))
		}
	}
	content := struct {
		Plan      []Step     `json:"plan"`
		Questions []Question `json:"questions"`
		Mastery   []string   `json:"mastery,omitempty"`
	}{s.Plan, s.Questions, mastery}
	b, err := json.Marshal(content)
	if err != nil {
		// Strings and slices of them always encode.
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
