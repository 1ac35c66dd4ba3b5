package orchestrator_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tutord/tutord/curricula"
	"github.com/tutord/tutord/internal/agents/engine"
	"github.com/tutord/tutord/internal/agents/rules"
	"github.com/tutord/tutord/internal/curriculum"
	"github.com/tutord/tutord/internal/lessons"
	"github.com/tutord/tutord/internal/orchestrator"
	"github.com/tutord/tutord/internal/pgtest"
	"github.com/tutord/tutord/internal/store"
	"github.com/tutord/tutord/internal/tutor"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// fixture is an orchestrator on a fresh database holding the sample
// curriculum and the 4-step "doubling" lesson of testdata.
type fixture struct {
	o          *orchestrator.Orchestrator
	st         *store.Store
	src        *lessons.Source
	guidelines map[string]uuid.UUID // by full key
	connString string
}

func setup(t testing.TB, opts ...func(*orchestrator.Options)) *fixture {
	t.Helper()
	conn := pgtest.ConnString(t)
	pool := openPool(t, conn)
	st := store.New(pool)
	sample, err := curriculum.LoadFS(curricula.FS())
	if err != nil {
		t.Fatal(err)
	}
	extra, err := curriculum.LoadPaths("testdata/curriculum")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lessons.Import(context.Background(), st, append(sample, extra...), time.Time{}); err != nil {
		t.Fatal(err)
	}
	gs, err := st.ListGuidelines(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{st: st, src: lessons.NewSource(st), guidelines: map[string]uuid.UUID{}, connString: conn}
	for _, g := range gs {
		f.guidelines[g.Key] = g.ID
	}
	f.o = newOrchestrator(t, st, f.src, opts...)
	return f
}

func newOrchestrator(t testing.TB, st *store.Store, src *lessons.Source, opts ...func(*orchestrator.Options)) *orchestrator.Orchestrator {
	t.Helper()
	set, err := rules.New()
	if err != nil {
		t.Fatal(err)
	}
	o := orchestrator.Options{Store: st, Lessons: src, Engines: engine.New(set, nil, st), FallbackSafety: set.Safety}
	for _, fn := range opts {
		fn(&o)
	}
	return orchestrator.New(o)
}

const doubling = "mathematics/number-facts/doubling"

func (f *fixture) create(t testing.TB, key string, mode tutor.Mode) orchestrator.Created {
	t.Helper()
	id, ok := f.guidelines[key]
	if !ok {
		t.Fatalf("no subtopic %s", key)
	}
	c, err := f.o.CreateSession(context.Background(), orchestrator.CreateRequest{
		GuidelineID: id, Mode: mode,
		Student: tutor.StudentContext{Grade: 7, Board: "CBSE", LanguageLevel: "standard", PreferredExamples: tutor.DefaultPreferredExamples()},
	})
	if err != nil {
		t.Fatalf("CreateSession: %v", err)
	}
	return c
}

func (f *fixture) turn(t testing.TB, id uuid.UUID, msg string) orchestrator.TurnResult {
	t.Helper()
	r, err := f.o.ProcessTurn(context.Background(), id, msg, "")
	if err != nil {
		t.Fatalf("ProcessTurn(%q): %v", msg, err)
	}
	checkInvariants(t, r.Session)
	return r
}

// pendingAnswer returns the expected answer of the pending question.
func pendingAnswer(t testing.TB, se orchestrator.Session) string {
	t.Helper()
	q := se.State.LastQuestion
	if q == nil {
		t.Fatal("no question is pending")
	}
	return q.Expected(se.Topic).Answer
}

// checkInvariants asserts the domain's invariants on a session after a turn.
func checkInvariants(t testing.TB, se orchestrator.Session) {
	t.Helper()
	s, tp := se.State, se.Topic
	for _, m := range s.MasteryEstimates {
		if m.Score < 0 || m.Score > 1 {
			t.Fatalf("mastery %s = %v out of [0,1]", m.Concept, m.Score)
		}
	}
	if s.CurrentStep < 1 || s.CurrentStep > tp.TotalSteps()+1 {
		t.Fatalf("current step %d outside [1, %d]", s.CurrentStep, tp.TotalSteps()+1)
	}
	for _, c := range s.ConceptsCovered {
		if !tp.HasConcept(c) {
			t.Fatalf("covered concept %q not in the plan", c)
		}
	}
	answered := 0
	for _, q := range s.ExamQuestions {
		if q.Result != nil {
			answered++
		}
	}
	if s.ExamTotalCorrect+s.ExamTotalPartial+s.ExamTotalIncorrect != answered {
		t.Fatalf("exam totals %d+%d+%d != %d answered", s.ExamTotalCorrect, s.ExamTotalPartial, s.ExamTotalIncorrect, answered)
	}
	if len(s.History) > 10 || len(s.SessionSummary.TurnTimeline) > 30 {
		t.Fatalf("history %d, timeline %d", len(s.History), len(s.SessionSummary.TurnTimeline))
	}
	if s.Mode == tutor.ModeTeachMe && s.IsComplete(tp) && s.CurrentStep != tp.TotalSteps()+1 {
		t.Fatalf("complete at step %d", s.CurrentStep)
	}
}

// internal is what no reply may contain.
func checkReply(t testing.TB, reply string) {
	t.Helper()
	low := strings.ToLower(reply)
	for _, bad := range []string{"the student", "the learner", "expected_answer", "mastery_", "as an ai", "{\""} {
		if strings.Contains(low, bad) {
			t.Fatalf("reply has internal language %q: %s", bad, reply)
		}
	}
}
