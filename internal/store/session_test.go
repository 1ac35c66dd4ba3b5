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
