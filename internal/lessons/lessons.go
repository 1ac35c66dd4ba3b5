// Package lessons connects the curriculum files to the store and the store
// to the tutor: it imports and exports curricula, and turns a stored
// subtopic and plan version into the tutor.Topic a session runs on.
package lessons

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/tutord/tutord/internal/curriculum"
	"github.com/tutord/tutord/internal/store"
	"github.com/tutord/tutord/internal/tutor"
)

// Store is what lessons needs of the store.
type Store interface {
	ImportGuidelines(ctx context.Context, gs []store.GuidelineImport, now time.Time) (store.ImportResult, error)
	ListGuidelines(ctx context.Context) ([]store.Guideline, error)
	GetGuideline(ctx context.Context, id uuid.UUID) (store.Guideline, error)
	GuidelineHead(ctx context.Context, id uuid.UUID) (planID uuid.UUID, approved bool, updatedAt time.Time, err error)
	GetPlanVersion(ctx context.Context, id uuid.UUID) (store.PlanVersion, error)
}

var _ Store = (*store.Store)(nil)

// ErrNotFound reports an unknown guideline or plan version.
var ErrNotFound = errors.New("not found")

// Import stores the subtopics of files (as loaded and validated by
// curriculum.LoadPaths or LoadFS) in one transaction.
func Import(ctx context.Context, st Store, files []*curriculum.File, now time.Time) (store.ImportResult, error) {
	var gs []store.GuidelineImport
	for _, f := range files {
		for _, g := range f.Guidelines() {
			gj, pj, err := g.Stored()
			if err != nil {
				return store.ImportResult{}, fmt.Errorf("%s: %s: %w", f.Name, g.Key, err)
			}
			gs = append(gs, store.GuidelineImport{
				Country: g.Country, Board: g.Board, Grade: g.Grade, Subject: g.Subject, SubjectKey: g.SubjectKey,
				TopicKey: g.Topic.Key, TopicTitle: g.Topic.Title, SubtopicKey: g.Subtopic.Key, SubtopicTitle: g.Subtopic.Title,
				Key: g.Key, Approved: g.Subtopic.Status != curriculum.StatusDraft,
				Guideline: gj, Plan: pj, PlanHash: g.Hash, SourceFile: f.Name,
			})
		}
	}
	return st.ImportGuidelines(ctx, gs, now)
}

// Export rebuilds curriculum files from the store, one per topic, each
// subtopic with its current plan and its approval as stored.
func Export(ctx context.Context, st Store) ([]*curriculum.File, error) {
	gs, err := st.ListGuidelines(ctx)
	if err != nil {
		return nil, err
	}
	type fileKey struct {
		country, board string
		grade          int
		subject, topic string
	}
	files := map[fileKey]*curriculum.File{}
	var keys []fileKey
	for _, g := range gs {
		s, err := curriculum.FromStored(g.SubtopicKey, g.Guideline, g.Plan.Plan)
		if err != nil {
			return nil, fmt.Errorf("export %s: %w", g.Key, err)
		}
		s.Status = curriculum.StatusApproved
		if !g.Approved {
			s.Status = curriculum.StatusDraft
		}
		k := fileKey{g.Country, g.Board, g.Grade, g.SubjectKey, g.TopicKey}
		f, ok := files[k]
		if !ok {
			f = &curriculum.File{Country: g.Country, Board: g.Board, Grade: g.Grade, Subject: g.Subject,
				Topic: curriculum.Topic{Key: g.TopicKey, Title: g.TopicTitle}}
			files[k] = f
			keys = append(keys, k)
		}
		f.Subtopics = append(f.Subtopics, s)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.country != b.country {
			return a.country < b.country
		}
		if a.board != b.board {
			return a.board < b.board
		}
		if a.grade != b.grade {
			return a.grade < b.grade
		}
		if a.subject != b.subject {
			return a.subject < b.subject
		}
		return a.topic < b.topic
	})
	out := make([]*curriculum.File, len(keys))
	taken := map[string]bool{}
	for i, k := range keys {
		out[i] = files[k]
		// Names that make the same slug (two boards in Devanagari, "CBSE"
		// and "cbse") would share a path: the later file gets a number,
		// so that nothing is written over. Its content says where it
		// belongs.
		name := out[i].Path()
		for n := 2; taken[name]; n++ {
			name = strings.TrimSuffix(out[i].Path(), ".yaml") + "-" + strconv.Itoa(n) + ".yaml"
		}
		taken[name] = true
		out[i].Name = name
	}
	return out, nil
}

// Source loads the lessons sessions run on. Plan versions are immutable, so
// lessons are cached by version; the cache holds a lesson for a while
// because the guideline's teaching text, unlike the plan, can be updated in
// place by a re-import.
type Source struct {
	st  Store
	ttl time.Duration

	mu    sync.Mutex
	cache map[uuid.UUID]cached
}

type cached struct {
	topic   *tutor.Topic
	expires time.Time
	textAt  time.Time // the guideline's updated_at the topic was built with
}

// NewSource returns a lesson source over st.
func NewSource(st Store) *Source {
	return &Source{st: st, ttl: time.Minute, cache: map[uuid.UUID]cached{}}
}

// Current returns the lesson of a guideline at its current plan version,
// approved or not (the caller decides who may start it), and whether the
// guideline is approved. It returns ErrNotFound for an unknown guideline.
// The guideline's current plan version, approval and time of change are
// read every time; its lesson comes from the cache when that plan version
// is there, built from the guideline's text as it is now (a re-import may
// change the text without a new plan version).
func (s *Source) Current(ctx context.Context, guidelineID uuid.UUID) (*tutor.Topic, bool, error) {
	planID, approved, changed, err := s.st.GuidelineHead(ctx, guidelineID)
	if err != nil {
		return nil, false, guidelineError(guidelineID, err)
	}
	if t := s.get(planID, changed); t != nil {
		return t, approved, nil
	}
	g, err := s.st.GetGuideline(ctx, guidelineID)
	if err != nil {
		return nil, false, guidelineError(guidelineID, err)
	}
	t, err := topicOf(g, g.Plan)
	if err != nil {
		return nil, false, err
	}
	s.put(g.Plan.ID, t, g.UpdatedAt)
	return t, g.Approved, nil
}

// guidelineError is ErrNotFound for a guideline the store does not have,
// and the store's error otherwise.
func guidelineError(id uuid.UUID, err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("guideline %s: %w", id, ErrNotFound)
	}
	return err
}

// Version returns the lesson of a plan version, with its guideline's
// current teaching text. It returns ErrNotFound when the version or its
// guideline is gone.
func (s *Source) Version(ctx context.Context, planVersionID uuid.UUID) (*tutor.Topic, error) {
	if t := s.get(planVersionID, time.Time{}); t != nil {
		return t, nil
	}
	p, err := s.st.GetPlanVersion(ctx, planVersionID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("plan version %s: %w", planVersionID, ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	g, err := s.st.GetGuideline(ctx, p.GuidelineID)
	if err != nil {
		return nil, guidelineError(p.GuidelineID, err)
	}
	t, err := topicOf(g, p)
	if err != nil {
		return nil, err
	}
	s.put(planVersionID, t, g.UpdatedAt)
	return t, nil
}

// get returns the cached lesson of plan version id, unless it is older
// than the cache's time to live or, with textAt set, than the guideline's
// text.
func (s *Source) get(id uuid.UUID, textAt time.Time) *tutor.Topic {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.cache[id]
	if !ok || time.Now().After(c.expires) || !textAt.IsZero() && !textAt.Equal(c.textAt) {
		return nil
	}
	return c.topic
}

func (s *Source) put(id uuid.UUID, t *tutor.Topic, textAt time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.cache) > 10000 { // bounded: plan versions in use are far fewer
		clear(s.cache)
	}
	s.cache[id] = cached{topic: t, expires: time.Now().Add(s.ttl), textAt: textAt}
}

func topicOf(g store.Guideline, p store.PlanVersion) (*tutor.Topic, error) {
	sub, err := curriculum.LessonFromStored(g.SubtopicKey, g.Guideline, p.Plan)
	if err != nil {
		return nil, fmt.Errorf("lesson %s version %d: %w", g.Key, p.Version, err)
	}
	t := curriculum.TopicOf(curriculum.LessonMeta{
		GuidelineID: g.ID.String(), PlanVersionID: p.ID.String(),
		Subject: g.Subject, Grade: g.Grade, TopicTitle: g.TopicTitle,
	}, sub)
	return &t, nil
}
