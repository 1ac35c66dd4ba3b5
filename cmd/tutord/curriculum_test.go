package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// tutord runs the binary on the embedded database in dir and returns its
// standard output, standard error and exit code.
func tutord(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), "TUTORD_DATA_DIR="+dir, "TUTORD_DATABASE_URL=", "TUTORD_LOG_FORMAT=json")
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return stdout.String(), stderr.String(), code
}

func TestCurriculumCommands(t *testing.T) {
	dir := dataDir(t)
	out, errOut, code := tutord(t, dir, "curriculum", "import", "../../curricula")
	if code != 0 || !strings.Contains(out, "12 subtopics created") {
		t.Fatalf("import: exit %d, %q %s", code, out, errOut)
	}
	exportDir := filepath.Join(dir, "export")
	if out, _, code = tutord(t, dir, "curriculum", "--out", exportDir, "export"); code != 0 || !strings.Contains(out, "exported 6 files") {
		t.Fatalf("export: exit %d, %q", code, out)
	}
	if out, _, code = tutord(t, dir, "curriculum", "import", exportDir); code != 0 || !strings.Contains(out, "0 subtopics created, 0 updated, 12 unchanged, 0 new plan versions") {
		t.Fatalf("re-import of the export: exit %d, %q", code, out)
	}
	if out, _, code = tutord(t, dir, "curriculum", "unapprove", "mathematics/fractions/multiplying-fractions"); code != 0 || !strings.Contains(out, "1 changed") {
		t.Fatalf("unapprove: exit %d, %q", code, out)
	}
	if _, errOut, code = tutord(t, dir, "curriculum", "approve", "no/such/key"); code == 0 || !strings.Contains(lastLine(errOut), `no subtopic has the key "no/such/key"`) {
		t.Fatalf("approve of an unknown key: exit %d, %q", code, lastLine(errOut))
	}

	// A malformed file among good ones: nothing is imported, and the error
	// names the file, the line and the field.
	bad := filepath.Join(dir, "bad")
	if err := os.MkdirAll(bad, 0o755); err != nil {
		t.Fatal(err)
	}
	good, _ := os.ReadFile("../../curricula/india/cbse/grade-7/science/states-of-matter.yaml")
	changed := strings.Replace(string(good), "board: CBSE", "board: ICSE", 1)
	os.WriteFile(filepath.Join(bad, "a.yaml"), []byte(changed), 0o644)
	os.WriteFile(filepath.Join(bad, "b.yaml"), []byte("country: India\nboard: ICSE\ngrade: seven\nsubject: Science\n"), 0o644)
	_, errOut, code = tutord(t, dir, "curriculum", "import", bad)
	if code == 0 || !strings.Contains(errOut, "b.yaml:3: grade: must be an integer") {
		t.Fatalf("bad import: exit %d, %s", code, errOut)
	}
	exportDir2 := filepath.Join(dir, "export2")
	tutord(t, dir, "curriculum", "--out", exportDir2, "export")
	if _, err := os.Stat(filepath.Join(exportDir2, "india/icse")); !os.IsNotExist(err) {
		t.Fatalf("the good file of a rejected import was imported: %v", err)
	}
	exported, _ := os.ReadFile(filepath.Join(exportDir2, "india/cbse/grade-7/mathematics/fractions.yaml"))
	if !strings.Contains(string(exported), "status: draft") {
		t.Fatal("the export does not record the unapproved subtopic as a draft")
	}
	if out, _, code = tutord(t, dir, "curriculum", "import", exportDir2); code != 0 || !strings.Contains(out, "0 subtopics created, 0 updated, 12 unchanged, 0 new plan versions") {
		t.Fatalf("re-import of the export with a draft: exit %d, %q", code, out)
	}

	// Another board may use the same keys: its file imports beside the
	// first board's, in one import or later, and the export of both
	// imports back.
	os.Remove(filepath.Join(bad, "b.yaml"))
	if out, errOut, code = tutord(t, dir, "curriculum", "import", bad, "../../curricula/india/cbse/grade-7/science/states-of-matter.yaml"); code != 0 || !strings.Contains(out, "created") {
		t.Fatalf("import of another board's subtopics: exit %d, %q %s", code, out, errOut)
	}
	exportDir3 := filepath.Join(dir, "export3")
	if out, _, code = tutord(t, dir, "curriculum", "--out", exportDir3, "export"); code != 0 || !strings.Contains(out, "exported 7 files") {
		t.Fatalf("export of two boards: exit %d, %q", code, out)
	}
	if out, errOut, code = tutord(t, dir, "curriculum", "import", exportDir3); code != 0 || !strings.Contains(out, "0 subtopics created, 0 updated, 14 unchanged, 0 new plan versions") {
		t.Fatalf("re-import of the export of two boards: exit %d, %q %s", code, out, errOut)
	}
}

func TestCurriculumUsage(t *testing.T) {
	for _, args := range [][]string{{"curriculum"}, {"curriculum", "import"}, {"curriculum", "export"}, {"curriculum", "approve"}, {"curriculum", "bake"}} {
		_, _, code := tutord(t, dataDir(t), args...)
		if code != 2 {
			t.Errorf("tutord %v: exit %d, want 2", args, code)
		}
	}
}

// An import that finds no curriculum file (an empty or unmounted volume)
// fails, naming the paths, rather than reporting "imported 0 files" with
// exit 0 to a deployment script; the database is not touched.
func TestCurriculumImportOfNoCurriculumFileFails(t *testing.T) {
	dir := dataDir(t)
	empty := filepath.Join(dir, "empty")
	notes := filepath.Join(dir, "notes")
	for _, d := range []string{empty, notes} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(notes, "README.txt"), []byte("not a curriculum"), 0o644); err != nil {
		t.Fatal(err)
	}
	environ := map[string]string{"TUTORD_DATA_DIR": filepath.Join(dir, "data")}
	for _, paths := range [][]string{{empty}, {empty, notes}} {
		out, _, err := runCLI(t, environ, "", append([]string{"curriculum", "import"}, paths...)...)
		want := "no curriculum file in " + strings.Join(paths, ", ")
		if err == nil || exitCode(err) != 1 || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "*.yaml") {
			t.Errorf("curriculum import %s: %v (exit %d), output %q; want a failure with %q", strings.Join(paths, " "), err, exitCode(err), out, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "data")); !os.IsNotExist(err) {
		t.Errorf("the failed import started the database (%v)", err)
	}
}

// defaultPlanTopic is a topic whose subtopic has no plan (the default plan)
// and whose question names no concept, as curricula/README.md allows.
const defaultPlanTopic = `country: India
board: ICSE
grade: 6
subject: Mathematics
topic:
  key: decimals
  title: Decimals
subtopics:
  - key: place-value
    title: Place value
    teaching_approach: Use a place-value chart with tenths and hundredths columns.
    learning_objectives: [Read the digits of a decimal by their place.]
    questions:
      - id: pv-1
        question: What digit is in the tenths place of 3.47?
        answer: "4"
        difficulty: easy
        type: conceptual
        hints: [The tenths place is the first place after the point., Look just after the decimal point.]
        solution: The first digit after the decimal point is the tenths digit, 4.
`

// An author imports a subtopic with the default plan, exports it (README:
// "an export imports back unchanged"; keep to the exported files), retitles
// the subtopic in the exported file ("change titles freely") and imports
// it. The export wrote each question's concept, the old title, which the
// original file need not name, and the import refused the new title:
// "Place value" is not a concept of the plan: "Decimal place value".
func TestExportedDefaultPlanCanBeRetitled(t *testing.T) {
	dir := dataDir(t)
	src := filepath.Join(dir, "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "decimals.yaml"), []byte(defaultPlanTopic), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := tutord(t, dir, "curriculum", "import", src); code != 0 || !strings.Contains(out, "1 subtopics created") {
		t.Fatalf("import: exit %d, %q %s", code, out, lastLine(errOut))
	}
	exportDir := filepath.Join(dir, "export")
	if out, errOut, code := tutord(t, dir, "curriculum", "export", "--out", exportDir); code != 0 {
		t.Fatalf("export: exit %d, %q %s", code, out, lastLine(errOut))
	}
	exported := filepath.Join(exportDir, "india", "icse", "grade-6", "mathematics", "decimals.yaml")
	data, err := os.ReadFile(exported)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "title: Place value") {
		t.Fatalf("exported file has no subtopic title line:\n%s", data)
	}
	// The author renames the subtopic in the exported file, as they could
	// in the original, and imports it.
	edited := strings.Replace(string(data), "title: Place value", "title: Decimal place value", 1)
	if err := os.WriteFile(exported, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := tutord(t, dir, "curriculum", "import", exportDir)
	if code != 0 || !strings.Contains(out, "1 updated") {
		t.Errorf("import of the exported file with the subtopic retitled: exit %d, %q\n%s", code, out, errOut)
	}
}

// With TUTORD_MIGRATE=false, a command on a database that was never
// migrated says what to run, not PostgreSQL's "relation ... does not
// exist"; once migrated, it runs.
func TestCommandOnAnUnmigratedDatabase(t *testing.T) {
	dir := dataDir(t)
	t.Setenv("TUTORD_MIGRATE", "false")
	for _, args := range [][]string{{"curriculum", "import", "../../curricula"}, {"agent-logs", "purge", "--older-than", "1h"}} {
		_, errOut, code := tutord(t, dir, args...)
		if line := lastLine(errOut); code == 0 || !strings.Contains(line, "schema is at version 0 and this tutord needs") || !strings.Contains(line, "run tutord migrate up") {
			t.Errorf("tutord %s on an unmigrated database: exit %d, %q; want a failure saying to run tutord migrate up", strings.Join(args, " "), code, line)
		}
	}
	if _, errOut, code := tutord(t, dir, "migrate", "up"); code != 0 {
		t.Fatalf("migrate up: exit %d, %s", code, errOut)
	}
	if out, errOut, code := tutord(t, dir, "curriculum", "import", "../../curricula"); code != 0 || !strings.Contains(out, "subtopics created") {
		t.Fatalf("import once migrated: exit %d, %q %s", code, out, lastLine(errOut))
	}
}
