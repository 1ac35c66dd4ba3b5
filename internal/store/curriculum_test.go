package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/tutord/tutord/internal/store"
)

func guidelineImport(key, subtopic, text, planHash string) store.GuidelineImport {
	return store.GuidelineImport{
		Country: "India", Board: "CBSE", Grade: 7, Subject: "Mathematics", SubjectKey: "mathematics",
		TopicKey: "fractions", TopicTitle: "Fractions", SubtopicKey: key, SubtopicTitle: subtopic,
		Key: "mathematics/fractions/" + key, Approved: true,
		Guideline: json.RawMessage(`{"teaching_approach":"` + text + `"}`),
		Plan:      json.RawMessage(`{"plan":"` + planHash + `"}`), PlanHash: planHash,
	}
}

func TestImportGuidelinesVersionsPlans(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	now := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	a := guidelineImport("adding", "Adding fractions", "use pizzas", "h1")
	b := guidelineImport("multiplying", "Multiplying fractions", "use areas", "h2")

	res, err := s.ImportGuidelines(ctx, []store.GuidelineImport{a, b}, now)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(store.ImportResult{Created: 2, PlanVersions: 2}, res); diff != "" {
		t.Fatalf("first import (-want +got):\n%s", diff)
	}
	res, err = s.ImportGuidelines(ctx, []store.GuidelineImport{a, b}, now)
	if err != nil || res != (store.ImportResult{Unchanged: 2}) {
		t.Fatalf("identical re-import = %+v, %v; want 2 unchanged", res, err)
	}

	entries, _ := s.CurriculumSubtopics(ctx, store.CurriculumFilter{Country: "India", Board: "CBSE", Grade: 7, Subject: "Mathematics", Topic: "Fractions"})
	if len(entries) != 2 || entries[0].Subtopic != "Adding fractions" || entries[0].Key != "mathematics/fractions/adding" {
		t.Fatalf("subtopics = %+v", entries)
	}
	g, err := s.GetGuideline(ctx, entries[0].GuidelineID)
	if err != nil || g.Plan.Version != 1 {
		t.Fatalf("guideline = %+v, %v", g, err)
	}
	v1 := g.Plan.ID

	// Text changes update in place; a plan change makes version 2.
	a.Guideline = json.RawMessage(`{"teaching_approach":"use chocolate bars"}`)
	b.Plan, b.PlanHash = json.RawMessage(`{"plan":"h2b"}`), "h2b"
	res, err = s.ImportGuidelines(ctx, []store.GuidelineImport{a, b}, now)
	if err != nil || res != (store.ImportResult{Updated: 2, PlanVersions: 1}) {
		t.Fatalf("changed re-import = %+v, %v; want 2 updated, 1 plan version", res, err)
	}
	g, _ = s.GetGuideline(ctx, entries[0].GuidelineID)
	if g.Plan.ID != v1 || string(g.Guideline) != `{"teaching_approach": "use chocolate bars"}` {
		t.Fatalf("text change: plan %s (want %s), guideline %s", g.Plan.ID, v1, g.Guideline)
	}
	gb, _ := s.GetGuideline(ctx, entries[1].GuidelineID)
	if gb.Plan.Version != 2 || gb.Plan.Hash != "h2b" {
		t.Fatalf("plan change: version %d hash %s; want 2 h2b", gb.Plan.Version, gb.Plan.Hash)
	}
	// The old version is still there for the sessions pinned to it.
	old, err := s.GetPlanVersion(ctx, entries[1].GuidelineID)
	if !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("GetPlanVersion(guideline id) = %+v, %v; want ErrNotFound", old, err)
	}
	all, _ := s.ListGuidelines(ctx)
	if len(all) != 2 {
		t.Fatalf("ListGuidelines: %d", len(all))
	}
}

func TestImportIsAllOrNothing(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	good := guidelineImport("adding", "Adding fractions", "x", "h1")
	bad := guidelineImport("bad", "Bad", "x", "h2")
	bad.Grade = 13 // violates the grade check
	if _, err := s.ImportGuidelines(ctx, []store.GuidelineImport{good, bad}, time.Time{}); err == nil {
		t.Fatal("import with an invalid row succeeded")
	}
	if all, _ := s.ListGuidelines(ctx); len(all) != 0 {
		t.Fatalf("a failed import left %d guidelines behind", len(all))
	}
}

func TestApprovalAndDiscovery(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	sci := guidelineImport("photosynthesis", "Photosynthesis", "x", "h3")
	sci.Subject, sci.SubjectKey, sci.TopicKey, sci.TopicTitle, sci.Key = "Science", "science", "plants", "Nutrition in plants", "science/plants/photosynthesis"
	draft := guidelineImport("dividing", "Dividing fractions", "x", "h4")
	draft.Approved = false
	if _, err := s.ImportGuidelines(ctx, []store.GuidelineImport{guidelineImport("adding", "Adding fractions", "x", "h1"), sci, draft}, time.Time{}); err != nil {
		t.Fatal(err)
	}
	f := store.CurriculumFilter{Country: "India", Board: "CBSE", Grade: 7}
	subjects, _ := s.CurriculumSubjects(ctx, f)
	if diff := cmp.Diff([]string{"Mathematics", "Science"}, subjects); diff != "" {
		t.Fatalf("subjects (-want +got):\n%s", diff)
	}
	f.Subject, f.Topic = "Mathematics", "Fractions"
	subs, _ := s.CurriculumSubtopics(ctx, f)
	if len(subs) != 1 {
		t.Fatalf("a draft subtopic is visible: %+v", subs)
	}
	if n, err := s.SetApproved(ctx, "mathematics/fractions/dividing", true, time.Time{}); err != nil || n != 1 {
		t.Fatalf("approve = %d, %v", n, err)
	}
	if subs, _ = s.CurriculumSubtopics(ctx, f); len(subs) != 2 {
		t.Fatalf("approved subtopic not visible: %+v", subs)
	}
	if n, err := s.SetApproved(ctx, "mathematics/fractions/dividing", true, time.Time{}); err != nil || n != 0 {
		t.Fatalf("approving again = %d, %v; want 0 changed", n, err)
	}
	if _, err := s.SetApproved(ctx, "no/such/key", false, time.Time{}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown key: err = %v, want ErrNotFound", err)
	}
	for _, other := range []store.CurriculumFilter{{Country: "India", Board: "ICSE", Grade: 7}, {Country: "India", Board: "CBSE", Grade: 8}} {
		if got, _ := s.CurriculumSubjects(ctx, other); len(got) != 0 {
			t.Fatalf("%+v: subjects %v, want none", other, got)
		}
	}
	topics, _ := s.CurriculumTopics(ctx, store.CurriculumFilter{Country: "India", Board: "CBSE", Grade: 7, Subject: "Nope"})
	if topics == nil || len(topics) != 0 {
		t.Fatalf("unknown subject: topics = %#v, want an empty list", topics)
	}
}

// TestImportCountsEverySubtopicATopicRenameUpdates: an author who renames a
// topic in its file relies on the import's report ("N updated") counting
// every subtopic whose titles changed, although the first subtopic's rename
// already renames the others of the topic before their own turn comes.
func TestImportCountsEverySubtopicATopicRenameUpdates(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	a := guidelineImport("adding", "Adding fractions", "use pizzas", "h1")
	b := guidelineImport("multiplying", "Multiplying fractions", "use areas", "h2")
	if _, err := s.ImportGuidelines(ctx, []store.GuidelineImport{a, b}, time.Time{}); err != nil {
		t.Fatal(err)
	}
	a.TopicTitle, b.TopicTitle = "Fractions and decimals", "Fractions and decimals"
	res, err := s.ImportGuidelines(ctx, []store.GuidelineImport{a, b}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	topics, _ := s.CurriculumTopics(ctx, store.CurriculumFilter{Country: "India", Board: "CBSE", Grade: 7, Subject: "Mathematics"})
	if len(topics) != 1 || topics[0] != "Fractions and decimals" {
		t.Fatalf("topics after the rename: %q", topics)
	}
	if res != (store.ImportResult{Updated: 2}) {
		t.Errorf("renaming the topic of 2 subtopics reports %+v; want 2 updated", res)
	}

	// The same for a subject, and a subtopic in another grade that this
	// import does not list is renamed too but not counted.
	c := guidelineImport("adding", "Adding fractions", "use pizzas", "h3")
	c.Grade = 8
	if _, err := s.ImportGuidelines(ctx, []store.GuidelineImport{c}, time.Time{}); err != nil {
		t.Fatal(err)
	}
	a.Subject, b.Subject = "Maths", "Maths"
	res, err = s.ImportGuidelines(ctx, []store.GuidelineImport{a, b}, time.Time{})
	if err != nil || res != (store.ImportResult{Updated: 2}) {
		t.Errorf("renaming the subject of 2 subtopics reports %+v, %v; want 2 updated", res, err)
	}
	for _, grade := range []int{7, 8} {
		subjects, _ := s.CurriculumSubjects(ctx, store.CurriculumFilter{Country: "India", Board: "CBSE", Grade: grade})
		if len(subjects) != 1 || subjects[0] != "Maths" {
			t.Errorf("grade %d: subjects after the rename: %q", grade, subjects)
		}
	}
}

// TestSubjectRenameRenamesItsSessions: a session's subject is its
// subtopic's (CONTRACT §2.5), and a learner relies on the history filter
// and stats, which match sessions.subject, following a re-import that
// respells the subject. The rename is no activity: the sessions' updated_at,
// which stats and streaks read, stays. Sessions of other subjects, and those
// whose subtopic is gone, keep theirs.
func TestSubjectRenameRenamesItsSessions(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	maths := guidelineImport("adding", "Adding fractions", "use pizzas", "h1")
	maths.Subject = "mathematics"
	sci := guidelineImport("photosynthesis", "Photosynthesis", "x", "h2")
	sci.Subject, sci.SubjectKey, sci.TopicKey, sci.TopicTitle, sci.Key = "Science", "science", "plants", "Nutrition in plants", "science/plants/photosynthesis"
	if _, err := s.ImportGuidelines(ctx, []store.GuidelineImport{maths, sci}, time.Time{}); err != nil {
		t.Fatal(err)
	}
	ids := map[string]uuid.UUID{}
	for _, g := range mustList(t, s) {
		ids[g.Key] = g.ID
	}
	learner := newLearner(t, s)
	created := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	onMaths := createSession(t, s, fixture{learner: learner, guideline: ids[maths.Key], subject: "mathematics", created: created})
	onScience := createSession(t, s, fixture{learner: learner, guideline: ids[sci.Key], subject: "Science", created: created})
	removed := createSession(t, s, fixture{learner: learner, guideline: uuid.New(), subject: "mathematics", created: created})

	maths.Subject = "Mathematics"
	if _, err := s.ImportGuidelines(ctx, []store.GuidelineImport{maths, sci}, time.Time{}); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[uuid.UUID]string{onMaths: "Mathematics", onScience: "Science", removed: "mathematics"} {
		se, err := s.GetSession(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if se.Subject != want || !se.UpdatedAt.Equal(created) {
			t.Errorf("session on %v: subject %q, updated %v; want %q, %v", se.GuidelineID, se.Subject, se.UpdatedAt, want, created)
		}
	}
	list, total, err := s.ListSessions(ctx, learner, store.ListOptions{Subject: "Mathematics"})
	if err != nil || total != 1 || len(list) != 1 || list[0].ID != onMaths {
		t.Errorf("sessions of Mathematics: %d of %d, %v; want the one on the renamed subtopic", len(list), total, err)
	}
}

func mustList(t *testing.T, s *store.Store) []store.Guideline {
	t.Helper()
	gs, err := s.ListGuidelines(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return gs
}

// TestListingsSortByCodePoint: the curriculum listings and the stats'
// subjects are sorted by code point, as the reference's Python sorted(),
// whatever the collation the database was created with. An external
// database created with en_US (initdb's default on most systems) would
// otherwise list "English" before "EVS" and "apple" before "Zebra".
func TestListingsSortByCodePoint(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	// A natural-language collation on the columns, as such a database's
	// default would give them.
	if _, err := s.Pool().Exec(ctx, `ALTER TABLE guidelines
    ALTER COLUMN subject TYPE text COLLATE "en-x-icu", ALTER COLUMN topic_title TYPE text COLLATE "en-x-icu",
    ALTER COLUMN subtopic_title TYPE text COLLATE "en-x-icu"`); err != nil {
		t.Fatalf("set an ICU collation (PostgreSQL built with ICU, as Debian's is): %v", err)
	}
	var gs []store.GuidelineImport
	for i, name := range []string{"English", "EVS", "apple", "Zebra"} {
		// A subject, a topic of Mathematics and a subtopic of Fractions
		// of this name.
		sub := guidelineImport(fmt.Sprintf("s%d", i), "Subtopic", "x", "h")
		sub.Subject, sub.SubjectKey = name, fmt.Sprintf("subject-%d", i)
		sub.Key = sub.SubjectKey + "/fractions/" + sub.SubtopicKey
		top := guidelineImport(fmt.Sprintf("t%d", i), "Subtopic", "x", "h")
		top.TopicKey, top.TopicTitle = fmt.Sprintf("topic-%d", i), name
		top.Key = "mathematics/" + top.TopicKey + "/" + top.SubtopicKey
		gs = append(gs, sub, top, guidelineImport(fmt.Sprintf("f%d", i), name, "x", "h"))
	}
	if _, err := s.ImportGuidelines(ctx, gs, time.Time{}); err != nil {
		t.Fatal(err)
	}
	want := []string{"EVS", "English", "Mathematics", "Zebra", "apple"}
	f := store.CurriculumFilter{Country: "India", Board: "CBSE", Grade: 7}
	if got, err := s.CurriculumSubjects(ctx, f); err != nil || !cmp.Equal(got, want) {
		t.Errorf("subjects %v, %v; want %v", got, err, want)
	}
	f.Subject = "Mathematics"
	wantTopics := []string{"EVS", "English", "Fractions", "Zebra", "apple"}
	if got, err := s.CurriculumTopics(ctx, f); err != nil || !cmp.Equal(got, wantTopics) {
		t.Errorf("topics %v, %v; want %v", got, err, wantTopics)
	}
	f.Topic = "Fractions"
	subs, err := s.CurriculumSubtopics(ctx, f)
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, e := range subs {
		titles = append(titles, e.Subtopic)
	}
	if wantSubs := []string{"EVS", "English", "Zebra", "apple"}; !cmp.Equal(titles, wantSubs) {
		t.Errorf("subtopics %v; want %v", titles, wantSubs)
	}
}

// TestImportRefusesASecondTopicOfOneTitle: learners choose a topic by its
// title, so two topics of a subject and grade with one title would be
// listed as one, their subtopics merged. An import that would make them
// (a file imported on its own, whose topic takes a title another topic
// has) is refused and changes nothing; one that swaps two topics' titles
// is not refused for the order of its subtopics.
func TestImportRefusesASecondTopicOfOneTitle(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	now := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	halves := guidelineImport("halves", "Halves", "a", "h1")
	decimals := guidelineImport("tenths", "Tenths", "b", "h2")
	decimals.TopicKey, decimals.TopicTitle, decimals.Key = "decimals", "Decimals", "mathematics/decimals/tenths"
	if _, err := s.ImportGuidelines(ctx, []store.GuidelineImport{halves, decimals}, now); err != nil {
		t.Fatal(err)
	}
	twin := guidelineImport("thirds", "Thirds", "c", "h3")
	twin.TopicKey, twin.TopicTitle, twin.Key = "parts", "  FRACTIONS ", "mathematics/parts/thirds"
	_, err := s.ImportGuidelines(ctx, []store.GuidelineImport{twin}, now)
	if !errors.Is(err, store.ErrInvalid) || !strings.Contains(err.Error(), `"fractions"`) {
		t.Fatalf("a second topic titled Fractions: %v; want ErrInvalid naming the topic that has the title", err)
	}
	if all, _ := s.ListGuidelines(ctx); len(all) != 2 {
		t.Errorf("the refused import left %d guidelines, want the 2 before it", len(all))
	}
	// Swapping titles: halves' topic becomes Decimals, tenths' Fractions.
	halves.TopicTitle, decimals.TopicTitle = "Decimals", "Fractions"
	if _, err := s.ImportGuidelines(ctx, []store.GuidelineImport{halves, decimals}, now.Add(time.Hour)); err != nil {
		t.Fatalf("swapping two topics' titles: %v", err)
	}
}
