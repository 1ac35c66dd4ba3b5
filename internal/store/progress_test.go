package store_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/google/uuid"

	"github.com/tutord/tutord/internal/store"
)

// progressSession is a session as the progress queries see it.
type progressSession struct {
	mode      string
	guideline uuid.UUID
	subject   string
	topicName string
	created   time.Time
	paused    bool
	covered   []string
	discussed []string
	mastery   map[string]float64
	examScore *int // set on finished exams
	examTotal *int
	step      int
}

func ptr[T any](v T) *T { return &v }

func addSession(t *testing.T, s *store.Store, learner uuid.UUID, p progressSession) uuid.UUID {
	t.Helper()
	id := uuid.New()
	g := p.guideline
	mean := 0.0
	for _, v := range p.mastery {
		mean += v / float64(len(p.mastery))
	}
	err := s.CreateSession(context.Background(), store.NewSession{
		ID: id, LearnerID: &learner, Mode: p.mode, GuidelineID: &g, Subject: p.subject,
		State: json.RawMessage(`{}`), Now: p.created,
		Summary: store.Summary{
			TopicName: p.topicName, IsPaused: p.paused, CurrentStep: max(p.step, 1), TotalSteps: 4, Mastery: mean,
			ConceptsCovered: p.covered, ConceptsDiscussed: p.discussed, MasteryByConcept: p.mastery,
			ExamScore: p.examScore, ExamTotal: p.examTotal,
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

type progressFixture struct {
	s                 *store.Store
	learner, stranger uuid.UUID
	adding, removed   uuid.UUID
	clarifyOnly       uuid.UUID
	paused            uuid.UUID
	day               time.Time
}

// newProgressFixture builds a learner with known answers: on "Adding
// fractions" two teach_me sessions (one paused), two finished exams and an
// unfinished one, and a clarify session; a teach_me session on a subtopic
// since removed from the curriculum; a subtopic with only a clarify session.
func newProgressFixture(t *testing.T) progressFixture {
	s := setup(t)
	ctx := context.Background()
	if _, err := s.ImportGuidelines(ctx, []store.GuidelineImport{guidelineImport("adding", "Adding fractions", "x", "h1")}, time.Time{}); err != nil {
		t.Fatal(err)
	}
	entries, _ := s.CurriculumSubtopics(ctx, store.CurriculumFilter{Country: "India", Board: "CBSE", Grade: 7, Subject: "Mathematics", Topic: "Fractions"})
	f := progressFixture{s: s, learner: newLearner(t, s), stranger: newLearner(t, s), adding: entries[0].GuidelineID,
		removed: uuid.New(), clarifyOnly: uuid.New(), day: time.Date(2026, 5, 10, 9, 0, 0, 0, time.UTC)}
	day := func(n int) time.Time { return f.day.AddDate(0, 0, n) }
	plan := func(a, b float64) map[string]float64 { return map[string]float64{"A": a, "B": b, "C": 0, "D": 0} }
	math := "Mathematics"
	addSession(t, s, f.learner, progressSession{mode: "teach_me", guideline: f.adding, subject: math, topicName: "Fractions - Adding fractions", created: day(-5), covered: []string{"A"}, mastery: plan(0.5, 0), step: 2})
	f.paused = addSession(t, s, f.learner, progressSession{mode: "teach_me", guideline: f.adding, subject: math, topicName: "Fractions - Adding fractions", created: day(-3), paused: true, covered: []string{"A", "B"}, mastery: plan(0.8, 0.6), step: 3})
	addSession(t, s, f.learner, progressSession{mode: "exam", guideline: f.adding, subject: math, created: day(-2), examScore: ptr(3), examTotal: ptr(7)})
	addSession(t, s, f.learner, progressSession{mode: "exam", guideline: f.adding, subject: math, created: day(-1), examScore: ptr(5), examTotal: ptr(7)})
	addSession(t, s, f.learner, progressSession{mode: "exam", guideline: f.adding, subject: math, created: day(0)}) // unfinished
	addSession(t, s, f.learner, progressSession{mode: "clarify_doubts", guideline: f.adding, subject: math, created: day(0), discussed: []string{"Like fractions"}})
	addSession(t, s, f.learner, progressSession{mode: "teach_me", guideline: f.removed, subject: "Science", topicName: "Plants - Photosynthesis", created: day(-10), covered: []string{"P"}, mastery: map[string]float64{"P": 1, "Q": 0}})
	addSession(t, s, f.learner, progressSession{mode: "clarify_doubts", guideline: f.clarifyOnly, subject: "Science", topicName: "Matter - States", created: day(-20)})
	// Someone else's session must not count.
	addSession(t, s, f.stranger, progressSession{mode: "teach_me", guideline: f.adding, subject: math, created: day(0), covered: []string{"A", "B", "C", "D"}, mastery: plan(1, 1)})
	return f
}

func TestReportCard(t *testing.T) {
	f := newProgressFixture(t)
	rows, total, err := f.s.ReportCard(context.Background(), f.learner)
	if err != nil {
		t.Fatal(err)
	}
	if total != 8 {
		t.Fatalf("total sessions = %d, want 8", total)
	}
	// One entry per subtopic, sorted by subject, topic key, subtopic key.
	var keys []string
	byID := map[uuid.UUID]store.SubtopicProgress{}
	for _, r := range rows {
		keys = append(keys, r.Subject+"/"+r.TopicKey+"/"+r.SubtopicKey)
		byID[r.GuidelineID] = r
	}
	if diff := cmp.Diff([]string{"Mathematics/fractions/adding", "Science/matter/states", "Science/plants/photosynthesis"}, keys); diff != "" {
		t.Fatalf("subtopics (-want +got):\n%s", diff)
	}
	adding := byID[f.adding]
	want := store.SubtopicProgress{
		GuidelineID: f.adding, Subject: "Mathematics", TopicTitle: "Fractions", TopicKey: "fractions",
		SubtopicTitle: "Adding fractions", SubtopicKey: "adding", TopicName: "Fractions - Adding fractions",
		LastSession:     f.day, // the clarify session
		Coverage:        50,    // {A, B} of {A, B, C, D}
		ConceptMastery:  map[string]float64{"A": 0.8, "B": 0.6, "C": 0, "D": 0},
		LatestExamScore: ptr(5), LatestExamTotal: ptr(7),
		LastStudied:  ptr(f.day.AddDate(0, 0, -1)), // the latest teach_me or finished exam
		SessionCount: 6, TeachSessions: 2,
	}
	if diff := cmp.Diff(want, adding, cmpopts.IgnoreFields(store.SubtopicProgress{}, "Exams"), cmpopts.EquateApproxTime(time.Millisecond)); diff != "" {
		t.Errorf("adding fractions (-want +got):\n%s", diff)
	}
	if len(adding.Exams) != 2 || adding.Exams[0].Score != 3 || adding.Exams[1].Score != 5 {
		t.Errorf("exam history = %+v; want the 3/7 then the 5/7 exam", adding.Exams)
	}
	removed := byID[f.removed]
	if removed.TopicTitle != "Plants" || removed.TopicKey != "plants" || removed.SubtopicTitle != "Photosynthesis" ||
		removed.SubtopicKey != "photosynthesis" || removed.Subject != "Science" || removed.Coverage != 50 {
		t.Errorf("removed subtopic = %+v; want it named from its topic name, coverage 50", removed)
	}
	clarify := byID[f.clarifyOnly]
	if clarify.LastStudied != nil || clarify.Coverage != 0 || clarify.LatestExamScore != nil {
		t.Errorf("clarify-only subtopic = %+v; want no last_studied, coverage 0", clarify)
	}

	none, total, err := f.s.ReportCard(context.Background(), newLearner(t, f.s))
	if err != nil || len(none) != 0 || total != 0 {
		t.Fatalf("learner without sessions: %v, %d, %v", none, total, err)
	}
}

// importGuidelines imports guidelines and returns their ids in order.
func importGuidelines(t *testing.T, s *store.Store, gs ...store.GuidelineImport) []uuid.UUID {
	t.Helper()
	ctx := context.Background()
	if _, err := s.ImportGuidelines(ctx, gs, time.Time{}); err != nil {
		t.Fatal(err)
	}
	all, err := s.ListGuidelines(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]uuid.UUID, len(gs))
	for i, g := range gs {
		for _, x := range all {
			if x.Board == g.Board && x.Grade == g.Grade && x.Key == g.Key {
				ids[i] = x.ID
			}
		}
		if ids[i] == uuid.Nil {
			t.Fatalf("guideline %s (grade %d) not imported", g.Key, g.Grade)
		}
	}
	return ids
}

// A subtopic is its subject, topic key and subtopic key (CONTRACT §2.5):
// sessions on two guidelines with the same keys make one report-card entry,
// whose values are those of all its sessions taken oldest to newest, and
// whose guideline and names are the latest session's.
func TestReportCardMergesTheGuidelinesOfOneSubtopic(t *testing.T) {
	day := time.Date(2026, 5, 10, 9, 0, 0, 0, time.UTC)
	at := func(n int) time.Time { return day.AddDate(0, 0, n) }
	math := "Mathematics"

	t.Run("removed and imported again", func(t *testing.T) {
		s := setup(t)
		learner := newLearner(t, s)
		// The subtopic's current guideline; its sessions before it was
		// removed and imported again point at an id the guidelines table no
		// longer has, named by their topic name (whose slugs are the keys).
		g := guidelineImport("adding-fractions", "Adding fractions", "x", "h1")
		current, removed := importGuidelines(t, s, g)[0], uuid.New()
		name := "Fractions - Adding fractions"
		add := func(p progressSession) { p.subject = math; p.topicName = name; addSession(t, s, learner, p) }
		add(progressSession{mode: "teach_me", guideline: removed, created: at(-10), covered: []string{"A"},
			mastery: map[string]float64{"A": 1, "B": 0, "C": 0, "D": 0, "E": 0}})
		add(progressSession{mode: "exam", guideline: removed, created: at(-8), examScore: ptr(2), examTotal: ptr(5)})
		add(progressSession{mode: "teach_me", guideline: current, created: at(-6), covered: []string{"B"},
			mastery: map[string]float64{"A": 1, "B": 0.5, "C": 0, "D": 0}})
		// Later, on the old id again (another tab, a stale link): no mastery
		// map, so the plan stays that of the day before.
		add(progressSession{mode: "teach_me", guideline: removed, created: at(-4), covered: []string{"C", "A"}})
		add(progressSession{mode: "exam", guideline: removed, created: at(-3), examScore: ptr(4), examTotal: ptr(5)})
		add(progressSession{mode: "exam", guideline: current, created: at(-2), examScore: ptr(3), examTotal: ptr(5)})
		add(progressSession{mode: "exam", guideline: current, created: at(-2).Add(time.Hour)}) // unfinished
		add(progressSession{mode: "clarify_doubts", guideline: current, created: at(-1)})

		rows, total, err := s.ReportCard(context.Background(), learner)
		if err != nil {
			t.Fatal(err)
		}
		if total != 8 || len(rows) != 1 {
			t.Fatalf("%d sessions, %d entries %+v; want 8 sessions in 1 entry", total, len(rows), rows)
		}
		want := store.SubtopicProgress{
			GuidelineID: current, Subject: math, TopicTitle: "Fractions", TopicKey: "fractions",
			SubtopicTitle: "Adding fractions", SubtopicKey: "adding-fractions", TopicName: name,
			LastSession:     at(-1),
			Coverage:        75, // {A, B, C} of the latest plan {A, B, C, D}
			ConceptMastery:  map[string]float64{"A": 1, "B": 0.5, "C": 0, "D": 0},
			LatestExamScore: ptr(3), LatestExamTotal: ptr(5),
			LastStudied:  ptr(at(-2)),
			SessionCount: 8, TeachSessions: 3,
		}
		if diff := cmp.Diff(want, rows[0], cmpopts.IgnoreFields(store.SubtopicProgress{}, "Exams"), cmpopts.EquateApproxTime(time.Millisecond)); diff != "" {
			t.Errorf("merged subtopic (-want +got):\n%s", diff)
		}
		var scores []int
		for _, e := range rows[0].Exams {
			scores = append(scores, e.Score)
		}
		if diff := cmp.Diff([]int{2, 4, 3}, scores); diff != "" {
			t.Errorf("exam history scores, oldest first (-want +got):\n%s", diff)
		}
	})

	t.Run("same keys in two grades", func(t *testing.T) {
		s := setup(t)
		learner := newLearner(t, s)
		g7 := guidelineImport("adding", "Adding fractions", "x", "h1")
		g8 := g7
		g8.Grade, g8.TopicTitle, g8.SubtopicTitle = 8, "Fractions (grade 8)", "Adding fractions (grade 8)"
		ids := importGuidelines(t, s, g7, g8)
		// Exams alternate between the grades, twelve in all: the entry keeps
		// the last ten of both, in order.
		for i := range 12 {
			addSession(t, s, learner, progressSession{mode: "exam", guideline: ids[i%2], subject: math,
				created: at(-20 + i), examScore: ptr(i), examTotal: ptr(12)})
		}
		addSession(t, s, learner, progressSession{mode: "teach_me", guideline: ids[1], subject: math, created: at(-3),
			covered: []string{"A"}, mastery: map[string]float64{"A": 1, "B": 0}})
		addSession(t, s, learner, progressSession{mode: "teach_me", guideline: ids[0], subject: math, created: at(-1),
			covered: []string{"B"}, mastery: map[string]float64{"A": 1, "B": 1, "C": 0, "D": 0}})
		// A subtopic of another key stays apart.
		other := importGuidelines(t, s, guidelineImport("subtracting", "Subtracting fractions", "y", "h2"))[0]
		addSession(t, s, learner, progressSession{mode: "teach_me", guideline: other, subject: math, created: at(0)})

		rows, total, err := s.ReportCard(context.Background(), learner)
		if err != nil {
			t.Fatal(err)
		}
		if total != 15 || len(rows) != 2 || rows[0].SubtopicKey != "adding" || rows[1].SubtopicKey != "subtracting" {
			t.Fatalf("%d sessions, entries %+v; want 15 sessions, adding then subtracting", total, rows)
		}
		adding := rows[0]
		if adding.GuidelineID != ids[0] || adding.TopicTitle != "Fractions" || adding.SubtopicTitle != "Adding fractions" {
			t.Errorf("guideline %v %q/%q; want the latest session's, grade 7's %v", adding.GuidelineID, adding.TopicTitle, adding.SubtopicTitle, ids[0])
		}
		if adding.Coverage != 50 || adding.SessionCount != 14 || adding.TeachSessions != 2 || !adding.LastStudied.Equal(at(-1)) {
			t.Errorf("coverage %v, %d sessions (%d teach_me), last studied %v; want 50, 14 (2), %v",
				adding.Coverage, adding.SessionCount, adding.TeachSessions, adding.LastStudied, at(-1))
		}
		var scores []int
		for _, e := range adding.Exams {
			scores = append(scores, e.Score)
		}
		if diff := cmp.Diff([]int{2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, scores); diff != "" {
			t.Errorf("exam history scores, oldest first (-want +got):\n%s", diff)
		}
		if *adding.LatestExamScore != 11 || *adding.LatestExamTotal != 12 {
			t.Errorf("latest exam %d/%d, want 11/12", *adding.LatestExamScore, *adding.LatestExamTotal)
		}
	})

	// Sessions that started at the same moment are ordered by id, as the
	// reference sorts them.
	t.Run("same start, ordered by session id", func(t *testing.T) {
		s := setup(t)
		learner := newLearner(t, s)
		g7 := guidelineImport("adding", "Adding fractions", "x", "h1")
		g8 := g7
		g8.Grade = 8
		ids := importGuidelines(t, s, g7, g8)
		first := addSession(t, s, learner, progressSession{mode: "teach_me", guideline: ids[0], subject: math, created: day,
			covered: []string{"A"}, mastery: map[string]float64{"A": 1, "B": 0}})
		second := addSession(t, s, learner, progressSession{mode: "teach_me", guideline: ids[1], subject: math, created: day,
			covered: []string{"B"}, mastery: map[string]float64{"A": 1, "B": 1, "C": 0, "D": 0}})
		wantID, wantCoverage := ids[1], 50.0 // {A, B} of {A, B, C, D}
		if bytes.Compare(first[:], second[:]) > 0 {
			wantID, wantCoverage = ids[0], 100.0 // {A, B} of {A, B}
		}
		rows, _, err := s.ReportCard(context.Background(), learner)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 1 || rows[0].GuidelineID != wantID || rows[0].Coverage != wantCoverage {
			t.Fatalf("entries %+v; want one, of guideline %v, coverage %v", rows, wantID, wantCoverage)
		}
	})
}

func TestSubtopicProgressResumableAndPastDiscussions(t *testing.T) {
	f := newProgressFixture(t)
	ctx := context.Background()
	m, err := f.s.SubtopicProgressMap(ctx, f.learner)
	if err != nil {
		t.Fatal(err)
	}
	want := map[uuid.UUID]store.TeachProgress{f.adding: {Coverage: 50, SessionCount: 2}, f.removed: {Coverage: 50, SessionCount: 1}}
	if diff := cmp.Diff(want, m); diff != "" {
		t.Errorf("subtopic progress (-want +got):\n%s", diff)
	}

	se, err := f.s.Resumable(ctx, f.learner, f.adding)
	if err != nil || se.ID != f.paused || se.Summary.CurrentStep != 3 {
		t.Errorf("resumable = %v %+v, %v; want the paused session at step 3", se.ID, se.Summary, err)
	}
	if _, err := f.s.Resumable(ctx, f.stranger, f.adding); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("stranger's resumable: err = %v, want ErrNotFound", err)
	}

	past, err := f.s.PastDiscussions(ctx, f.learner, f.adding, uuid.New())
	if err != nil || len(past) != 1 || past[0].Concepts[0] != "Like fractions" {
		t.Errorf("past discussions = %+v, %v", past, err)
	}
	if past, _ := f.s.PastDiscussions(ctx, f.learner, f.clarifyOnly, uuid.New()); len(past) != 0 {
		t.Errorf("a clarify session that discussed nothing is listed: %+v", past)
	}
}

func TestStats(t *testing.T) {
	f := newProgressFixture(t)
	st, err := f.s.Stats(context.Background(), f.learner, "Asia/Kolkata", f.day)
	if err != nil {
		t.Fatal(err)
	}
	// Active on day 0, -1, -2, -3 (then a gap to -5): a 4-day streak.
	if st.TotalSessions != 8 || st.StreakDays != 4 || st.ExamsTaken != 2 || st.AverageExamScore != 57.1 {
		t.Errorf("stats = %+v", st)
	}
	if diff := cmp.Diff([]string{"Mathematics", "Science"}, st.Subjects); diff != "" {
		t.Errorf("subjects (-want +got):\n%s", diff)
	}
	// Two days later the streak is broken.
	if st, _ := f.s.Stats(context.Background(), f.learner, "UTC", f.day.AddDate(0, 0, 2)); st.StreakDays != 0 {
		t.Errorf("streak two days later = %d, want 0", st.StreakDays)
	}
	empty, err := f.s.Stats(context.Background(), newLearner(t, f.s), "UTC", f.day)
	if err != nil || empty.TotalSessions != 0 || empty.AverageMastery != 0 || len(empty.Subjects) != 0 {
		t.Errorf("no sessions: %+v, %v", empty, err)
	}
}

// The streak counts every day with activity: a turn in a session started
// days before counts for the turn's day, in the learner's time zone.
func TestStreakCountsEveryActiveDay(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	at := func(day, hour, min int) time.Time { return time.Date(2026, 7, day, hour, min, 0, 0, time.UTC) }
	turnAt := func(id uuid.UUID, version int64, when time.Time) {
		t.Helper()
		if _, err := s.CommitTurn(ctx, store.Turn{SessionID: id, Version: version, State: json.RawMessage(`{}`),
			Summary: store.Summary{CurrentStep: 1, TotalSteps: 4}, Now: when}); err != nil {
			t.Fatal(err)
		}
	}

	learner := newLearner(t, s)
	id := addSession(t, s, learner, progressSession{mode: "teach_me", created: at(8, 9, 0)})
	turnAt(id, 1, at(9, 9, 0))
	turnAt(id, 2, at(10, 9, 0))
	if st, err := s.Stats(ctx, learner, "UTC", at(10, 18, 0)); err != nil || st.StreakDays != 3 {
		t.Errorf("a session started two days ago, with a turn yesterday and today: streak %d, %v; want 3", st.StreakDays, err)
	}

	// 22:30 UTC on 9 July is 00:30 on 10 July in central European summer
	// time: CET, read as the zone it names, has the learner active on the
	// 10th and the 11th.
	cet := newLearner(t, s)
	id = addSession(t, s, cet, progressSession{mode: "teach_me", created: at(9, 22, 30)})
	turnAt(id, 1, at(11, 10, 0))
	for _, tz := range []string{"CET", "Europe/Berlin"} {
		if st, err := s.Stats(ctx, cet, tz, at(11, 12, 0)); err != nil || st.StreakDays != 2 {
			t.Errorf("%s: streak %d, %v; want 2", tz, st.StreakDays, err)
		}
	}

	// A long streak is counted in full.
	long := newLearner(t, s)
	first := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	const days = 401
	for i := range days {
		addSession(t, s, long, progressSession{mode: "clarify_doubts", created: first.AddDate(0, 0, i)})
	}
	if st, err := s.Stats(ctx, long, "UTC", first.AddDate(0, 0, days-1)); err != nil || st.StreakDays != days {
		t.Errorf("a session every day for %d days: streak %d, %v", days, st.StreakDays, err)
	}
}

func TestRoundLikePython(t *testing.T) {
	for _, tt := range []struct {
		x    float64
		d    int
		want float64
	}{{2.675, 2, 2.67}, {0.125, 2, 0.12}, {0.375, 2, 0.38}, {33.333333, 1, 33.3}, {66.66666, 1, 66.7}, {12.25, 1, 12.2}, {12.35, 1, 12.3}} {
		if got := store.Round(tt.x, tt.d); got != tt.want {
			t.Errorf("Round(%v, %d) = %v, want %v", tt.x, tt.d, got, tt.want)
		}
	}
}
