package eval_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tutord/tutord/internal/eval"
	"github.com/tutord/tutord/internal/eval/evaltest"
	"github.com/tutord/tutord/internal/eval/report"
)

// A scenario file with two problems is one invalid file, in the run's
// error and in summary.invalid.
func TestInvalidFilesCountedOnce(t *testing.T) {
	url := evaltest.Start(t, evaltest.Options{})
	suite := writeSuite(t, map[string]string{
		"exam.yaml":   exam,
		"broken.yaml": "subtopic: a/b/c\nmode: quiz\ngrade: 13\nturns: [{say: hi}]\n",
	})
	var stdout, stderr bytes.Buffer
	err := eval.Main(context.Background(), []string{"run", suite, "--url", url, "--jwt-secret", evaltest.Secret, "--json"},
		eval.Env{Stdout: &stdout, Stderr: &stderr})
	var fe *eval.FailedError
	if !errors.As(err, &fe) {
		t.Fatalf("Main = %v, want a FailedError\n%s", err, stderr.String())
	}
	if fe.Invalid != 1 {
		t.Errorf("one invalid file: error says %q (Invalid = %d), want 1 invalid scenario file", fe.Error(), fe.Invalid)
	}
	var rep report.Report
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Summary.Invalid != 1 {
		t.Errorf("summary.invalid = %d for one invalid file (documented as \"the number of unreadable scenario files\")", rep.Summary.Invalid)
	}
}

// import-mathdial on a file that holds no labelled conversation (empty, or
// every conversation without a self-correctness label) must say which file
// it read: the user got "no labelled conversation to import" with no file
// named, and should get the file in the error like any other bad input.
func TestImportMathDialNamesAFileWithoutConversations(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{
		"empty.jsonl":      "",
		"unlabelled.jsonl": `{"qid":1,"question":"Ann has 3 apples and buys 4. How many?","ground_truth":"3 + 4 = 7\n 7","conversation":"Teacher: (probing)Hi|EOM|Student: 7"}` + "\n",
	} {
		file := filepath.Join(dir, name)
		if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			err := eval.Main(context.Background(), []string{"import-mathdial", file, "--out", filepath.Join(dir, "out")}, eval.Env{})
			if err == nil || !strings.Contains(err.Error(), file) {
				t.Errorf("import-mathdial %s = %v, want an error naming the file", name, err)
			}
		})
	}
}
