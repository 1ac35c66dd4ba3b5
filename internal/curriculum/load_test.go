package curriculum

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// subtopicDoc returns validDoc with another subtopic key and title (the
// key, so that the subtopics of a topic differ in both) and, if given,
// prerequisites (on line 13, pushing the plan down by one line).
func subtopicDoc(key string, prerequisites ...string) string {
	doc := strings.NewReplacer("key: adding-fractions", "key: "+key, "title: Adding fractions", "title: "+key).Replace(validDoc)
	if len(prerequisites) > 0 {
		doc = strings.Replace(doc, "    plan:", "    prerequisites: ["+strings.Join(prerequisites, ", ")+"]\n    plan:", 1)
	}
	return doc
}

// writeFiles writes files (path → content) under a new directory and returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func fileNames(dir string, files []*File) []string {
	var names []string
	for _, f := range files {
		name := f.Name
		if filepath.IsAbs(name) {
			name, _ = filepath.Rel(dir, name)
		}
		names = append(names, filepath.ToSlash(name))
	}
	return names
}

func TestLoadPaths(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"b/second.yml":       subtopicDoc("second", "mathematics/fractions/first"),
		"a/first.yaml":       subtopicDoc("first"),
		"a/notes.txt":        "not a curriculum file",
		".git/ignored.yaml":  "not: [valid",
		"a/.hidden.yaml":     "not: [valid",
		"c/third.yaml":       subtopicDoc("third"),
		"c/deeper/four.yaml": subtopicDoc("four"),
		"d/FIVE.YAML":        subtopicDoc("five"),
	})
	// The same file named twice, in different ways, and paths out of order
	// change nothing.
	t.Chdir(dir)
	files, err := LoadPaths("c", dir, filepath.Join("a", "first.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a/first.yaml", "b/second.yml", "d/FIVE.YAML", "c/deeper/four.yaml", "c/third.yaml"}
	if diff := cmp.Diff(want, fileNames(dir, files)); diff != "" {
		t.Errorf("files mismatch (-want +got):\n%s", diff)
	}
}

// A deployment may point the import (or TUTORD_CURRICULUM_DIR) at a link
// to a directory, as in current -> releases/v1, or at a mounted volume: the
// files of the directory it names are imported, and named by that path.
func TestLoadPathsFollowsASymlinkedDirectory(t *testing.T) {
	dir := writeFiles(t, map[string]string{"releases/v1/fractions.yaml": validDoc})
	link := filepath.Join(dir, "current")
	if err := os.Symlink(filepath.Join(dir, "releases", "v1"), link); err != nil {
		t.Fatal(err)
	}
	files, err := LoadPaths(link)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"current/fractions.yaml"}, fileNames(dir, files)); diff != "" {
		t.Errorf("LoadPaths(%q), a link to a directory with one curriculum file: files mismatch (-want +got):\n%s", "current", diff)
	}
}

// A directory within the curriculum may be a link too (a grade shared by
// two boards' trees): its files are imported, named through the link, and
// a link back up is walked once.
func TestLoadPathsFollowsSymlinksWithin(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"curriculum/own/a.yaml": subtopicDoc("first"),
		"shared/b.yaml":         subtopicDoc("second"),
	})
	for link, target := range map[string]string{"curriculum/shared": "shared", "shared/up": "curriculum"} {
		if err := os.Symlink(filepath.Join(dir, target), filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	files, err := LoadPaths(filepath.Join(dir, "curriculum"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"curriculum/own/a.yaml", "curriculum/shared/b.yaml"}, fileNames(dir, files)); diff != "" {
		t.Errorf("a directory with a linked subdirectory (linking back up): files mismatch (-want +got):\n%s", diff)
	}
}

func TestLoadPathsMissing(t *testing.T) {
	_, err := LoadPaths(filepath.Join(t.TempDir(), "nothing"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("LoadPaths error = %v, want fs.ErrNotExist", err)
	}
}

func TestLoadFS(t *testing.T) {
	fsys := fstest.MapFS{
		"india/a.yaml":   {Data: []byte(subtopicDoc("first"))},
		"india/b.yaml":   {Data: []byte(subtopicDoc("second", "mathematics/fractions/first"))},
		"india/read.me":  {Data: []byte("not a curriculum file")},
		".hidden/x.yaml": {Data: []byte("not: [valid")},
	}
	files, err := LoadFS(fsys)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
	}
	if diff := cmp.Diff([]string{"india/a.yaml", "india/b.yaml"}, names); diff != "" {
		t.Errorf("files mismatch (-want +got):\n%s", diff)
	}
}

// TestLoadSameKeyInTwoBoards: a full key is unique within a country, board
// and grade, as the store has it; another board may teach a subtopic of the
// same key, and prerequisites are looked up in the board first.
func TestLoadSameKeyInTwoBoards(t *testing.T) {
	icse := func(doc string) string { return strings.Replace(doc, "board: CBSE", "board: ICSE", 1) }
	fsys := fstest.MapFS{
		// first needs second in CBSE and second needs first in ICSE: no
		// cycle, since each board has its own subtopics.
		"cbse/first.yaml":  {Data: []byte(subtopicDoc("first", "mathematics/fractions/second"))},
		"cbse/second.yaml": {Data: []byte(subtopicDoc("second"))},
		"icse/first.yaml":  {Data: []byte(icse(subtopicDoc("first")))},
		"icse/second.yaml": {Data: []byte(icse(subtopicDoc("second", "mathematics/fractions/first")))},
		"icse/grade8.yaml": {Data: []byte(strings.Replace(icse(subtopicDoc("first")), "grade: 7", "grade: 8", 1))},
	}
	files, err := LoadFS(fsys)
	if err != nil {
		t.Fatalf("LoadFS: %v", err)
	}
	if len(files) != 5 {
		t.Errorf("LoadFS = %d files, want 5", len(files))
	}

	// A cycle within one board is still one.
	fsys["icse/first.yaml"] = &fstest.MapFile{Data: []byte(icse(subtopicDoc("first", "mathematics/fractions/second")))}
	_, err = LoadFS(fsys)
	var verr *ValidationError
	if !errors.As(err, &verr) || !strings.Contains(err.Error(), "prerequisites form a cycle") {
		t.Errorf("LoadFS with a cycle in ICSE: %v, want a cycle reported", err)
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{
			name: "duplicate subtopic across files",
			files: map[string]string{
				"a.yaml": validDoc,
				"b.yaml": validDoc,
			},
			want: []string{`b.yaml:9: subtopics[0].key: duplicate subtopic "mathematics/fractions/adding-fractions": also at a.yaml:9`},
		},
		{
			// A topic split over files is one list to the learner, who
			// would see the title twice, as Parse refuses within a file.
			name: "subtopic title repeated across the files of a topic",
			files: map[string]string{
				"a.yaml": validDoc,
				"b.yaml": strings.Replace(subtopicDoc("sums-of-fractions"), "title: sums-of-fractions", "title: adding  FRACTIONS", 1),
				"c.yaml": strings.NewReplacer("key: adding-fractions", "key: sums", "key: fractions", "key: sums", "title: Fractions", "title: Sums").Replace(validDoc),
			},
			want: []string{`b.yaml:10: subtopics[0].title: duplicate subtopic title "adding  FRACTIONS" in topic "fractions": also at a.yaml:10; learners choose a subtopic by its title`},
		},
		{
			name: "topic titled differently",
			files: map[string]string{
				"a.yaml": subtopicDoc("first"),
				"b.yaml": strings.Replace(subtopicDoc("second"), "title: Fractions", "title: Fractions and decimals", 1),
			},
			want: []string{`b.yaml:7: topic.title: topic "fractions" is titled "Fractions" in a.yaml`},
		},
		{
			// Learners choose a topic by its title: two topics of one
			// title would be listed as one, their subtopics merged.
			name: "two topics of one title",
			files: map[string]string{
				"a.yaml": subtopicDoc("first"),
				"b.yaml": strings.NewReplacer("key: fractions", "key: parts-of-a-whole", "title: Fractions", "title: fractions ").Replace(subtopicDoc("second")),
			},
			want: []string{`b.yaml:7: topic.title: topic title "fractions" is also that of topic "fractions" in a.yaml; learners choose a topic by its title`},
		},
		{
			name: "subject written differently",
			files: map[string]string{
				"a.yaml": subtopicDoc("first"),
				"b.yaml": strings.Replace(subtopicDoc("second"), "subject: Mathematics", "subject: mathematics", 1),
			},
			want: []string{`b.yaml:4: subject: subject "mathematics" is written "Mathematics" in a.yaml`},
		},
		{
			name: "unknown prerequisite",
			files: map[string]string{
				"a.yaml": subtopicDoc("first", "mathematics/fractions/zeroth"),
			},
			want: []string{`a.yaml:13: subtopics[0].prerequisites[0]: unknown subtopic "mathematics/fractions/zeroth"`},
		},
		{
			name: "prerequisite cycle",
			files: map[string]string{
				"a.yaml": subtopicDoc("first", "mathematics/fractions/third"),
				"b.yaml": subtopicDoc("second", "mathematics/fractions/first"),
				"c.yaml": subtopicDoc("third", "mathematics/fractions/second"),
			},
			want: []string{`b.yaml:13: subtopics[0].prerequisites[0]: prerequisites form a cycle: ` +
				`mathematics/fractions/first → mathematics/fractions/third → mathematics/fractions/second → mathematics/fractions/first`},
		},
		{
			name: "problems in several files",
			files: map[string]string{
				"a.yaml": strings.Replace(subtopicDoc("first"), "grade: 7", "grade: seven", 1),
				"b.yaml": strings.Replace(subtopicDoc("second"), "difficulty: easy", "difficulty: hardest", 1),
			},
			want: []string{
				`a.yaml:3: grade: must be an integer, not "seven"`,
				`b.yaml:25: subtopics[0].questions[0].difficulty: must be one of easy, medium, hard, not "hardest"`,
			},
		},
		{
			name: "an unreadable file may hold the prerequisites",
			files: map[string]string{
				"a.yaml": "country: [India",
				"b.yaml": subtopicDoc("second", "mathematics/fractions/first"),
			},
			want: []string{`a.yaml:1: invalid YAML: sequence end token ']' not found`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for name, content := range tt.files {
				fsys[name] = &fstest.MapFile{Data: []byte(content)}
			}
			files, err := LoadFS(fsys)
			var verr *ValidationError
			if !errors.As(err, &verr) {
				t.Fatalf("LoadFS = %d files, error %v; want a *ValidationError", len(files), err)
			}
			if files != nil {
				t.Errorf("LoadFS returned %d files with an error", len(files))
			}
			var got []string
			for _, i := range verr.Issues {
				got = append(got, i.String())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("issues mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestValidationErrorCap(t *testing.T) {
	doc := validDoc + strings.Repeat(`      - id: more
        question: What is 2/7 + 3/7?
        answer: "5/7"
        concept: Like fractions
        difficulty: easiest
        type: procedural
        hints: [Count the sevenths., Add the numerators 2 and 3.]
        solution: 2/7 + 3/7 = 5/7.
`, 150)
	_, err := Parse("x.yaml", []byte(doc))
	var verr *ValidationError
	if !errors.As(err, &verr) {
		t.Fatalf("Parse error = %v, want a *ValidationError", err)
	}
	// Each copy has a bad difficulty and all but the first repeat the id: 299 issues.
	if len(verr.Issues) != maxIssues || verr.Omitted != 299-maxIssues {
		t.Errorf("got %d issues and %d omitted, want %d and %d", len(verr.Issues), verr.Omitted, maxIssues, 299-maxIssues)
	}
	if msg := err.Error(); !strings.HasSuffix(msg, "\n(199 more not shown)") {
		t.Errorf("error does not end with the count of omitted issues:\n%s", msg[max(0, len(msg)-200):])
	}
}

// TestLoadTitlesInEitherUnicodeForm: two files of one topic whose titles
// look the same but were saved in different Unicode forms ("é" as one
// character, or as "e" and a combining accent, as some editors write it)
// name the same topic and subject: the files are read in one form (NFC).
// Before, they were refused, the topic said to be titled differently in
// the other file, though the two titles printed alike.
func TestLoadTitlesInEitherUnicodeForm(t *testing.T) {
	const composed, decomposed = "Fractions et d\u00e9cimaux", "Fractions et de\u0301cimaux"
	doc := func(key, title string) string {
		return strings.NewReplacer("title: Fractions", "title: "+title, "subject: Mathematics", "subject: Math\u00e9matiques").
			Replace(subtopicDoc(key))
	}
	fsys := fstest.MapFS{
		"first.yaml":  {Data: []byte(doc("first", composed))},
		"second.yaml": {Data: []byte(strings.Replace(doc("second", decomposed), "Math\u00e9matiques", "Mathe\u0301matiques", 1))},
	}
	files, err := LoadFS(fsys)
	if err != nil {
		t.Fatalf("LoadFS: %v", err)
	}
	for _, f := range files {
		if f.Topic.Title != composed || f.Subject != "Math\u00e9matiques" {
			t.Errorf("%s: topic %q of subject %q; want %q of %q, composed", f.Name, f.Topic.Title, f.Subject, composed, "Math\u00e9matiques")
		}
	}
}
