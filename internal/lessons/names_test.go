package lessons_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tutord/tutord/internal/curriculum"
	"github.com/tutord/tutord/internal/lessons"
	"github.com/tutord/tutord/internal/pgtest"
	"github.com/tutord/tutord/internal/store"
)

// namesDoc is a valid file whose subtopic has its own plan and whose
// question names its concept, so that the subtopic's title and teaching
// approach are guideline text only: changing them updates the subtopic in
// place and makes no new plan version.
const namesDoc = `country: India
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
    plan:
      - title: Half of a number
        type: explain
        content: Half of 8 is 8 ÷ 2 = 4, because two equal groups of 4 make 8.
      - title: "Check: half of a number"
        type: check
        concept: Half of a number
    questions:
      - id: half-1
        question: What is half of 8?
        answer: "4"
        concept: Half of a number
        difficulty: easy
        type: procedural
        hints: [Split 8 into two equal groups., Each group has 8 ÷ 2 items.]
        solution: 8 ÷ 2 = 4.
`

func namesParse(t *testing.T, name, doc string) *curriculum.File {
	t.Helper()
	f, err := curriculum.Parse(name, []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// A re-import that changes only a subtopic's text (its title, teaching
// approach) makes no new plan version; a session started after it still
// gets the new text, not the lesson cached before it.
func TestCurrentAfterATextOnlyReimport(t *testing.T) {
	ctx := context.Background()
	st := store.New(pgtest.Pool(t))
	if _, err := lessons.Import(ctx, st, []*curriculum.File{namesParse(t, "a.yaml", namesDoc)}, time.Time{}); err != nil {
		t.Fatal(err)
	}
	entries, err := st.CurriculumSubtopics(ctx, store.CurriculumFilter{Country: "India", Board: "CBSE", Grade: 6, Subject: "Mathematics", Topic: "Review ten"})
	if err != nil || len(entries) != 1 {
		t.Fatalf("subtopics: %v, %v", entries, err)
	}
	id := entries[0].GuidelineID
	src := lessons.NewSource(st) // the running server's source
	before, _, err := src.Current(ctx, id)
	if err != nil {
		t.Fatal(err)
	}

	changed := strings.NewReplacer(
		"title: Halves", "title: Finding halves",
		"Fold a paper strip in two equal parts.", "Share 8 sweets equally between two friends.",
	).Replace(namesDoc)
	res, err := lessons.Import(ctx, st, []*curriculum.File{namesParse(t, "a.yaml", changed)}, time.Time{})
	if err != nil || res.Updated != 1 || res.PlanVersions != 0 {
		t.Fatalf("re-import: %+v, %v; want the subtopic updated in place", res, err)
	}
	// The listing shows the new title at once.
	entries, _ = st.CurriculumSubtopics(ctx, store.CurriculumFilter{Country: "India", Board: "CBSE", Grade: 6, Subject: "Mathematics", Topic: "Review ten"})
	if len(entries) != 1 || entries[0].Subtopic != "Finding halves" {
		t.Fatalf("listing after re-import: %+v", entries)
	}

	after, _, err := src.Current(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if after.PlanVersionID != before.PlanVersionID {
		t.Fatalf("plan version changed: %s → %s", before.PlanVersionID, after.PlanVersionID)
	}
	if after.TopicName != "Review ten - Finding halves" {
		t.Errorf("a session started after the re-import is named %q; want %q (the cache serves the old title)", after.TopicName, "Review ten - Finding halves")
	}
	if after.Guideline.TeachingApproach != "Share 8 sweets equally between two friends." {
		t.Errorf("a session started after the re-import teaches from %q; want the new teaching approach", after.Guideline.TeachingApproach)
	}
}

// A subject is one subject however its files write its name: a later
// file's spelling renames the subject for the files imported before it, in
// the same import or an earlier one, so the listing never shows
// "Mathematics" and "mathematics" side by side. (LoadPaths refuses two
// spellings among the files it reads together.)
func TestSubjectSpellings(t *testing.T) {
	ctx := context.Background()
	st := store.New(pgtest.Pool(t))
	a := namesParse(t, "a.yaml", namesDoc)
	b := namesParse(t, "b.yaml", strings.NewReplacer(
		"subject: Mathematics", "subject: mathematics",
		"key: review-ten", "key: review-eleven",
		"title: Review ten", "title: Review eleven",
	).Replace(namesDoc))
	subjects := func() []string {
		t.Helper()
		subjects, err := st.CurriculumSubjects(ctx, store.CurriculumFilter{Country: "India", Board: "CBSE", Grade: 6})
		if err != nil {
			t.Fatal(err)
		}
		return subjects
	}
	if _, err := lessons.Import(ctx, st, []*curriculum.File{a, b}, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if got := subjects(); len(got) != 1 || got[0] != "mathematics" {
		t.Errorf("subjects after one import of both files: %q; want the last spelling only", got)
	}
	if _, err := lessons.Import(ctx, st, []*curriculum.File{a}, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if got := subjects(); len(got) != 1 || got[0] != "Mathematics" {
		t.Errorf("subjects after importing the first file again: %q; want its spelling only", got)
	}
}

// A file that renames a topic renames it for the topic's subtopics
// imported from other files: the listing shows the topic once, and the
// export imports back unchanged.
func TestTopicRenamedByOneOfItsFiles(t *testing.T) {
	ctx := context.Background()
	st := store.New(pgtest.Pool(t))
	first := namesParse(t, "part-1.yaml", namesDoc)
	second := namesParse(t, "part-2.yaml", strings.NewReplacer(
		"title: Review ten", "title: Review 10",
		"key: halves", "key: doubles",
		"title: Halves", "title: Doubles",
	).Replace(namesDoc))
	if _, err := lessons.Import(ctx, st, []*curriculum.File{first}, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if _, err := lessons.Import(ctx, st, []*curriculum.File{second}, time.Time{}); err != nil {
		t.Fatal(err)
	}
	topics, err := st.CurriculumTopics(ctx, store.CurriculumFilter{Country: "India", Board: "CBSE", Grade: 6, Subject: "Mathematics"})
	if err != nil {
		t.Fatal(err)
	}
	if len(topics) != 1 {
		t.Errorf("topic key review-ten is listed as %q", topics)
	}
	exported, err := lessons.Export(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	var reparsed []*curriculum.File
	for _, f := range exported {
		b, err := curriculum.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		reparsed = append(reparsed, namesParse(t, f.Name, string(b)))
	}
	res, err := lessons.Import(ctx, st, reparsed, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if res != (store.ImportResult{Unchanged: 2}) {
		t.Errorf("re-import of the export = %+v; want 2 unchanged", res)
	}
}

// longTitle is a title of n letters that do not compress (the
// database compresses long index entries, so a repeated word would hide
// the problem): letters from a small linear congruential generator,
// grouped in words.
func longTitle(n int) string {
	var b strings.Builder
	x := uint32(12345)
	for b.Len() < n {
		x = x*1103515245 + 12345
		if b.Len()%9 == 8 {
			b.WriteByte(' ')
			continue
		}
		b.WriteByte(byte('a' + (x>>16)%26))
	}
	return "A" + b.String()
}

// A title too long for the database's index of names is refused by the
// validator, with its field, rather than failing the import with a
// database error.
func TestLongTitleIsRefused(t *testing.T) {
	doc := strings.Replace(namesDoc, "title: Halves", "title: "+longTitle(3000), 1)
	_, err := curriculum.Parse("long.yaml", []byte(doc))
	if err == nil || !strings.Contains(err.Error(), "characters long; at most 150") {
		t.Errorf("a 3000-character title: %v; want it refused", err)
	}
}
