package eval_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
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
