package lessons_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/tutord/tutord/internal/curriculum"
	"github.com/tutord/tutord/internal/lessons"
	"github.com/tutord/tutord/internal/pgtest"
	"github.com/tutord/tutord/internal/store"
)

// defaultPlanDoc is a valid file whose subtopic has no plan: it
// gets the default plan, taught from its teaching approach, on one concept
// named after its title.
const defaultPlanDoc = `country: India
board: CBSE
grade: 6
subject: Mathematics
topic:
  key: review-ten
  title: Review ten
subtopics:
  - key: halves
    title: Halves
    teaching_approach: Fold a paper strip in two equal parts.
    learning_objectives: [Find half of a number.]
    questions:
      - id: half-1
        question: What is half of 8?
        answer: "4"
        difficulty: easy
        type: procedural
        hints: [Split 8 into two equal groups., Each group has 8 ÷ 2 items.]
        solution: 8 ÷ 2 = 4.
`

// A session keeps the plan version it started with. For a subtopic
// without a plan, the title and teaching approach make the default plan:
// changing them makes a new version, and the old one keeps its own steps.
func TestDefaultPlanVersionKeepsItsSteps(t *testing.T) {
	ctx := context.Background()
	st := store.New(pgtest.Pool(t))
	parse := func(doc string) []*curriculum.File {
		t.Helper()
		f, err := curriculum.Parse("lesson.yaml", []byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		return []*curriculum.File{f}
	}
	if _, err := lessons.Import(ctx, st, parse(defaultPlanDoc), time.Time{}); err != nil {
		t.Fatal(err)
	}
	entries, err := st.CurriculumSubtopics(ctx, store.CurriculumFilter{Country: "India", Board: "CBSE", Grade: 6, Subject: "Mathematics", Topic: "Review ten"})
	if err != nil || len(entries) != 1 {
		t.Fatalf("subtopics: %v, %v", entries, err)
	}
	before, _, err := lessons.NewSource(st).Current(ctx, entries[0].GuidelineID)
	if err != nil {
		t.Fatal(err)
	}
	pinned := uuid.MustParse(before.PlanVersionID)

	// The author renames the subtopic and rewrites its teaching approach.
	changed := strings.NewReplacer(
		"title: Halves", "title: Finding halves",
		"Fold a paper strip in two equal parts.", "Share sweets equally between two friends.",
	).Replace(defaultPlanDoc)
	res, err := lessons.Import(ctx, st, parse(changed), time.Time{})
	if err != nil || res.PlanVersions != 1 {
		t.Fatalf("re-import: %+v, %v; want one new plan version", res, err)
	}

	old, err := lessons.NewSource(st).Version(ctx, pinned)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before.Steps, old.Steps); diff != "" {
		t.Errorf("the steps of the pinned plan version changed (-at start +now):\n%s", diff)
	}
	for _, q := range old.Questions {
		found := false
		for _, s := range old.Steps {
			found = found || s.Concept == q.Concept
		}
		if !found {
			t.Errorf("pinned version: question %s has concept %q, which no step of its plan has", q.ID, q.Concept)
		}
	}
}

// Two boards whose names make the same slug (no letters a to z) are
// exported to two files, not one written over the other.
func TestExportKeepsEveryBoard(t *testing.T) {
	ctx := context.Background()
	st := store.New(pgtest.Pool(t))
	var files []*curriculum.File
	for i, board := range []string{"बिहार बोर्ड", "राजस्थान बोर्ड"} {
		doc := strings.NewReplacer("board: CBSE", "board: "+board, "key: halves", "key: halves-"+string(rune('a'+i))).Replace(defaultPlanDoc)
		f, err := curriculum.Parse("lesson.yaml", []byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	if _, err := lessons.Import(ctx, st, files, time.Time{}); err != nil {
		t.Fatal(err)
	}
	exported, err := lessons.Export(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	for _, f := range exported {
		if other, dup := names[f.Name]; dup {
			t.Errorf("boards %q and %q are both exported to %q: one overwrites the other", other, f.Board, f.Name)
		}
		names[f.Name] = f.Board
	}
}
