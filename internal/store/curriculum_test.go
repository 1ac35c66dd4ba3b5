package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

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
