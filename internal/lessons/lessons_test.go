package lessons_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/tutord/tutord/curricula"
	"github.com/tutord/tutord/internal/curriculum"
	"github.com/tutord/tutord/internal/lessons"
	"github.com/tutord/tutord/internal/pgtest"
	"github.com/tutord/tutord/internal/store"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func sample(t *testing.T) []*curriculum.File {
	t.Helper()
	files, err := curriculum.LoadFS(curricula.FS())
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestImportExportImportIsANoOp(t *testing.T) {
	ctx := context.Background()
	st := store.New(pgtest.Pool(t))
	files := sample(t)
	res, err := lessons.Import(ctx, st, files, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Created < 10 || res.PlanVersions != res.Created {
		t.Fatalf("first import: %+v", res)
	}
	exported, err := lessons.Export(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	// Through YAML and back, as `tutord curriculum export` and `import` do.
	var reparsed []*curriculum.File
	for _, f := range exported {
		b, err := curriculum.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := curriculum.Parse(f.Name, b)
		if err != nil {
			t.Fatalf("exported %s does not parse: %v", f.Name, err)
		}
		reparsed = append(reparsed, p)
	}
	res2, err := lessons.Import(ctx, st, reparsed, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if res2 != (store.ImportResult{Unchanged: res.Created}) {
		t.Fatalf("re-import of the export = %+v; want %d unchanged", res2, res.Created)
	}
}

func TestSessionsKeepTheirPlanVersion(t *testing.T) {
	ctx := context.Background()
	st := store.New(pgtest.Pool(t))
	files := sample(t)
	if _, err := lessons.Import(ctx, st, files, time.Time{}); err != nil {
		t.Fatal(err)
	}
	src := lessons.NewSource(st)
	entries, err := st.CurriculumSubtopics(ctx, store.CurriculumFilter{Country: "India", Board: "CBSE", Grade: 7, Subject: "Mathematics", Topic: "Fractions"})
	if err != nil || len(entries) == 0 {
		t.Fatalf("subtopics: %v, %v", entries, err)
	}
	before, approved, err := src.Current(ctx, entries[0].GuidelineID)
	if err != nil || !approved {
		t.Fatal(err, approved)
	}
	g, _ := st.GetGuideline(ctx, entries[0].GuidelineID)
	pinned := uuid.MustParse(before.PlanVersionID)

	// The curriculum team changes the plan of that subtopic and re-imports.
	for _, f := range files {
		for i := range f.Subtopics {
			if curriculum.Slug(f.Subject)+"/"+f.Topic.Key+"/"+f.Subtopics[i].Key == g.Key {
				f.Subtopics[i].Questions = f.Subtopics[i].Questions[:len(f.Subtopics[i].Questions)-1]
			}
		}
	}
	res, err := lessons.Import(ctx, st, files, time.Time{})
	if err != nil || res.PlanVersions != 1 {
		t.Fatalf("re-import: %+v, %v; want one new plan version", res, err)
	}
	after, _, err := src.Current(ctx, entries[0].GuidelineID)
	if err != nil {
		t.Fatal(err)
	}
	if after.PlanVersionID == before.PlanVersionID || len(after.Questions) != len(before.Questions)-1 {
		t.Fatalf("new sessions should get the new plan: %s with %d questions", after.PlanVersionID, len(after.Questions))
	}
	old, err := lessons.NewSource(st).Version(ctx, pinned)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before, old); diff != "" {
		t.Fatalf("the pinned version changed (-before +now):\n%s", diff)
	}
	if _, err := src.Version(ctx, uuid.New()); err == nil {
		t.Fatal("unknown plan version: no error")
	}
}

// TestCurrentSeesApprovalAtOnce: the lesson of a guideline is cached, but
// whether the guideline is approved is not: a withdrawn subtopic is
// reported withdrawn on the next session start, with the same lesson.
func TestCurrentSeesApprovalAtOnce(t *testing.T) {
	ctx := context.Background()
	st := store.New(pgtest.Pool(t))
	if _, err := lessons.Import(ctx, st, sample(t), time.Time{}); err != nil {
		t.Fatal(err)
	}
	src := lessons.NewSource(st)
	entries, err := st.CurriculumSubtopics(ctx, store.CurriculumFilter{Country: "India", Board: "CBSE", Grade: 7, Subject: "Mathematics", Topic: "Fractions"})
	if err != nil || len(entries) == 0 {
		t.Fatalf("subtopics: %v, %v", entries, err)
	}
	id := entries[0].GuidelineID
	first, approved, err := src.Current(ctx, id)
	if err != nil || !approved {
		t.Fatalf("first read: approved %v, %v", approved, err)
	}
	g, err := st.GetGuideline(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []bool{false, true} {
		if _, err := st.SetApproved(ctx, g.Key, want, time.Time{}); err != nil {
			t.Fatal(err)
		}
		got, approved, err := src.Current(ctx, id)
		if err != nil || approved != want || !reflect.DeepEqual(got, first) {
			t.Errorf("after approving %v: approved %v, same lesson %v, %v", want, approved, reflect.DeepEqual(got, first), err)
		}
	}
	if _, _, err := src.Current(ctx, uuid.New()); !errors.Is(err, lessons.ErrNotFound) {
		t.Errorf("unknown guideline: %v; want ErrNotFound", err)
	}
}

// Whatever the checks accept, the import stores: a file whose text holds a
// NUL (a YAML "\0" escape, or a stray byte pasted from a PDF), which
// PostgreSQL cannot store, is refused by the checks with its file, line and
// field, not by the database with an SQLSTATE and nothing to find it by.
func TestTextWithNULIsRefusedOrImported(t *testing.T) {
	ctx := context.Background()
	st := store.New(pgtest.Pool(t))
	doc := strings.Replace(namesDoc, "solution: 8 ÷ 2 = 4.", `solution: "8 ÷ 2 = 4.\0"`, 1)
	f, err := curriculum.Parse("a.yaml", []byte(doc))
	if err != nil {
		if !strings.Contains(err.Error(), "a.yaml:") {
			t.Fatalf("refused without file and line: %v", err)
		}
		return // refused with a clear error: fine
	}
	if _, err := lessons.Import(ctx, st, []*curriculum.File{f}, time.Time{}); err != nil {
		t.Fatalf("the checks accepted the file, the import failed in the database:\n%v", err)
	}
}
