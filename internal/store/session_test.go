package store_test

import (
	"context"
	"math"
	"testing"

	"github.com/tutord/tutord/internal/store"
)

// TestListSessionsDeepPages: a page whose offset overflows an int64 is
// empty, not an error (it was a negative OFFSET that PostgreSQL refused).
func TestListSessionsDeepPages(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	learner := newLearner(t, s)
	createSession(t, s, fixture{learner: learner, subject: "Mathematics"})
	for _, tt := range []struct {
		name string
		o    store.ListOptions
	}{
		{"largest page", store.ListOptions{Page: math.MaxInt, PageSize: 100}},
		{"largest page and size", store.ListOptions{Page: math.MaxInt, PageSize: math.MaxInt}},
		{"offset just past int64", store.ListOptions{Page: math.MaxInt64/100 + 2, PageSize: 100}},
		{"of a subject", store.ListOptions{Subject: "Mathematics", Page: math.MaxInt, PageSize: 20}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			page, total, err := s.ListSessions(ctx, learner, tt.o)
			if err != nil || len(page) != 0 || total != 1 {
				t.Fatalf("%d sessions of %d, %v; want none of 1", len(page), total, err)
			}
		})
	}
}

// Concept names come from the model, which may write a NUL; PostgreSQL's
// text and jsonb cannot hold one. The turn is committed with U+FFFD in its
// place, as its messages are, rather than failing.
func TestCommitTurnConceptNamesWithNUL(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	id := createSession(t, s, fixture{})
	tr := turn(id, 1, 1)
	tr.Summary.ConceptsDiscussed = []string{"equivalent\x00fractions"}
	tr.Summary.ConceptsCovered = []string{"equivalent\x00fractions"}
	v, err := s.CommitTurn(ctx, tr)
	if err != nil {
		t.Fatalf("turn whose model-named concept holds a NUL: %v; want it committed (NUL stored as U+FFFD)", err)
	}
	got, err := s.GetSession(ctx, id)
	if err != nil || got.Version != v || len(got.Summary.ConceptsDiscussed) != 1 || got.Summary.ConceptsDiscussed[0] != "equivalent\uFFFDfractions" {
		t.Fatalf("stored %+v, %v", got.Summary, err)
	}
}

func TestCommitTurnMasteryConceptWithNUL(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	id := createSession(t, s, fixture{})
	tr := turn(id, 1, 1)
	tr.Summary.MasteryByConcept = map[string]float64{"equivalent\x00fractions": 0.5}
	if _, err := s.CommitTurn(ctx, tr); err != nil {
		t.Fatalf("turn whose mastery map has a concept with a NUL: %v; want it committed", err)
	}
	got, err := s.GetSession(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := got.Summary.MasteryByConcept["equivalent\uFFFDfractions"]; !ok || v != 0.5 {
		t.Fatalf("mastery_by_concept = %v; want the concept stored with U+FFFD", got.Summary.MasteryByConcept)
	}
}
