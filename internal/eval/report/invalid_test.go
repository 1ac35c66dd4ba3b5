package report

import (
	"bytes"
	"encoding/xml"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tutord/tutord/internal/eval/runner"
	"github.com/tutord/tutord/internal/eval/scenario"
)

// twoIssuesOneFile is the report of a suite with one invalid file that has
// two problems (scenario.Load lists one Issue per problem).
func twoIssuesOneFile() *Report {
	r := fixedRun()
	r.Invalid = []scenario.Issue{
		{File: "eval/suites/core/broken.yaml", Line: 2, Field: "mode", Message: `must be one of teach_me, clarify_doubts, exam, not "quiz"`},
		{File: "eval/suites/core/broken.yaml", Line: 3, Field: "grade", Message: "must be an integer from 1 to 12, not 13"},
	}
	return r
}

// JUnit has one error case per invalid file, with every problem of the
// file in it.
func TestJUnitOneCasePerInvalidFile(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJUnit(&b, twoIssuesOneFile()); err != nil {
		t.Fatal(err)
	}
	var got junitSuites
	if err := xml.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, c := range got.Suites[0].Cases {
		seen[c.Classname+"/"+c.Name]++
	}
	for k, n := range seen {
		if n > 1 {
			t.Errorf("test case %s appears %d times", k, n)
		}
	}
	// 3 scenarios + 1 invalid file.
	if got.Tests != 4 || got.Errors != 2 {
		t.Errorf("tests=%d errors=%d, want 4 tests and 2 errors (1 errored scenario + 1 invalid file)", got.Tests, got.Errors)
	}
}

// Two invalid files of one name in different directories of the suite are
// two JUnit cases, named by their paths below the suite.
func TestJUnitNamesInvalidFilesByPath(t *testing.T) {
	r := fixedRun()
	r.Suite = "eval/suites/core"
	r.Invalid = []scenario.Issue{
		{File: "eval/suites/core/teach/x.yaml", Line: 2, Field: "mode", Message: "bad"},
		{File: "eval/suites/core/exam/x.yaml", Line: 2, Field: "mode", Message: "bad"},
		{File: "elsewhere/y.yaml", Line: 2, Field: "mode", Message: "bad"},
	}
	var b bytes.Buffer
	if err := WriteJUnit(&b, r); err != nil {
		t.Fatal(err)
	}
	var got junitSuites
	if err := xml.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range got.Suites[0].Cases {
		if strings.HasSuffix(c.Classname, ".invalid") {
			names = append(names, c.Name)
		}
	}
	want := []string{"elsewhere/y.yaml", "exam/x.yaml", "teach/x.yaml"}
	slices.Sort(names)
	if !slices.Equal(names, want) {
		t.Errorf("invalid-file cases %q, want %q", names, want)
	}
}

// The Markdown headline counts invalid files, not their problems.
func TestMarkdownCountsInvalidFiles(t *testing.T) {
	var b bytes.Buffer
	if err := WriteMarkdown(&b, twoIssuesOneFile()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), " 1 invalid files") {
		line, _, _ := strings.Cut(b.String()[strings.Index(b.String(), "**"):], "\n")
		t.Errorf("one invalid file with two problems: headline %q, want \"1 invalid files\"", line)
	}
}

// A scenario that passed and whose file no longer reads is a regression.
func TestCompareScenarioNowInvalid(t *testing.T) {
	base := fixedRun()
	passed := base.Scenarios[0] // teach-hint-ladder, passed
	other := passed
	other.Name, other.File = "teach-other", "eval/suites/core/teach-other.yaml"

	old := fixedRun()
	old.Scenarios = []runner.Result{passed, other}
	old.Invalid = []scenario.Issue{}
	old.Summary = runner.Summarize(old.Scenarios, 250*time.Millisecond, 0)

	// In NEW, teach-hint-ladder.yaml no longer parses: the scenario that
	// passed is gone from the results and its file is listed as invalid.
	cur := fixedRun()
	cur.Scenarios = []runner.Result{other}
	cur.Invalid = []scenario.Issue{{File: passed.File, Line: 4, Field: "mode", Message: `must be one of teach_me, clarify_doubts, exam, not "teachme"`}}
	cur.Summary = runner.Summarize(cur.Scenarios, 250*time.Millisecond, 1)
	if !cur.Failed() {
		t.Fatal("the NEW run should itself be a failed run")
	}

	c := Compare(old, cur, 0.05)
	if len(c.Regressions) == 0 {
		t.Errorf("scenario %s passed in OLD and is an invalid file in NEW, yet Compare reports no regression (eval compare exits 0); status changes: %+v", passed.Name, c.Scenarios)
	}
}
