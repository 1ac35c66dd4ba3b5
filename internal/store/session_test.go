package store_test

import (
	"context"
	"math"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tutord/tutord/internal/pgtest"
	"github.com/tutord/tutord/internal/pguuid"
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

// TestListSessionsTotalBesidePage: the total counts the sessions that
// match the filter (the learner's, of the subject), on a page past the
// last as on the others.
func TestListSessionsTotalBesidePage(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	learner := newLearner(t, s)
	for _, subject := range []string{"Mathematics", "Science", "Mathematics", "Science", "Mathematics"} {
		createSession(t, s, fixture{learner: learner, subject: subject})
	}
	createSession(t, s, fixture{learner: newLearner(t, s), subject: "Science"}) // someone else's
	for _, tt := range []struct {
		name        string
		o           store.ListOptions
		page, total int
	}{
		{"last page", store.ListOptions{Page: 2, PageSize: 3}, 2, 5},
		{"past the last page", store.ListOptions{Page: 3, PageSize: 3}, 0, 5},
		{"of a subject", store.ListOptions{Subject: "Science", Page: 1, PageSize: 1}, 1, 2},
		{"of a subject, past the last page", store.ListOptions{Subject: "Science", Page: 2, PageSize: 2}, 0, 2},
		{"of a subject without sessions", store.ListOptions{Subject: "History", Page: 1, PageSize: 20}, 0, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			page, total, err := s.ListSessions(ctx, learner, tt.o)
			if err != nil || len(page) != tt.page || total != tt.total {
				t.Fatalf("%d sessions of %d, %v; want %d of %d", len(page), total, err, tt.page, tt.total)
			}
			for _, se := range page {
				if tt.o.Subject != "" && se.Subject != tt.o.Subject {
					t.Errorf("session %s of %s in a listing of %s", se.ID, se.Subject, tt.o.Subject)
				}
			}
		})
	}
}

// TestListSessionsTotalMatchesPage: a session created while a listing
// runs is counted in the total if and only if it is on the page. The
// pool's acquire tracer creates one each time a statement of the listing
// asks for a connection: before the listing, and between its statements
// if it had several.
func TestListSessionsTotalMatchesPage(t *testing.T) {
	ctx := context.Background()
	conn := pgtest.ConnString(t)
	other := store.New(openPool(t, conn, 4))
	learner := newLearner(t, other)
	for range 3 {
		createSession(t, other, fixture{learner: learner, subject: "Mathematics"})
	}
	hook := &sessionOnAcquire{t: t, s: other, learner: learner}
	cfg, err := pgxpool.ParseConfig(conn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.AfterConnect = pguuid.AfterConnect
	cfg.ConnConfig.Tracer = hook
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	s := store.New(pool)
	for _, o := range []store.ListOptions{{PageSize: 20}, {Subject: "Mathematics", PageSize: 20}} {
		before := hook.created.Load()
		hook.armed.Store(true)
		page, total, err := s.ListSessions(ctx, learner, o)
		hook.armed.Store(false)
		if err != nil {
			t.Fatal(err)
		}
		if hook.created.Load() == before {
			t.Fatal("no session was created during the listing")
		}
		if total != len(page) { // every session fits on the page
			t.Errorf("subject %q: a page of %d sessions, of %d; want the total to count the page's sessions, no more, no fewer", o.Subject, len(page), total)
		}
	}
}

// sessionOnAcquire is a pool's tracer that, while armed, creates a session
// of learner's in Mathematics (through s, on another pool) each time a
// statement asks the pool for a connection.
type sessionOnAcquire struct {
	t       *testing.T
	s       *store.Store
	learner uuid.UUID
	armed   atomic.Bool
	created atomic.Int64
}

func (h *sessionOnAcquire) TraceAcquireStart(ctx context.Context, _ *pgxpool.Pool, _ pgxpool.TraceAcquireStartData) context.Context {
	if h.armed.Load() {
		createSession(h.t, h.s, fixture{learner: h.learner, subject: "Mathematics"})
		h.created.Add(1)
	}
	return ctx
}

func (*sessionOnAcquire) TraceAcquireEnd(context.Context, *pgxpool.Pool, pgxpool.TraceAcquireEndData) {
}

func (*sessionOnAcquire) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	return ctx
}

func (*sessionOnAcquire) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

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
