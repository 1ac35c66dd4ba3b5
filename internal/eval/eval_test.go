package eval_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tutord/tutord/internal/auth"
	"github.com/tutord/tutord/internal/eval"
	"github.com/tutord/tutord/internal/eval/evaltest"
	"github.com/tutord/tutord/internal/eval/report"
	"github.com/tutord/tutord/internal/pgtest"

	"github.com/tutord/tutord/internal/repopath"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// embedded starts tutord in-process for --embedded.
func embedded(t *testing.T) eval.Embedded {
	return func(ctx context.Context, cfg eval.EmbeddedConfig) (string, func(), error) {
		return evaltest.Start(t, evaltest.Options{CurriculumDir: cfg.CurriculumDir, Secret: cfg.JWTSecret}), func() {}, nil
	}
}

// TestCoreSuite runs the starter suite against tutord with the rules
// engine, as make eval does: it must pass.
func TestCoreSuite(t *testing.T) {
	var stdout, stderr bytes.Buffer
	out := t.TempDir()
	if d := os.Getenv("EVAL_OUT"); d != "" {
		out = d
	}
	start := time.Now()
	err := eval.Main(context.Background(), []string{"run", repopath.Join(t, "eval/suites/core"), "--embedded", "--concurrency", "8", "--json", "--out", out},
		eval.Env{Stdout: &stdout, Stderr: &stderr, Embedded: embedded(t)})
	t.Logf("%s", stderr.String())
	if err != nil {
		t.Fatalf("the core suite did not pass: %v", err)
	}
	var rep struct {
		Summary struct {
			Scenarios, Passed, Turns int
			Duration                 float64 `json:"duration_ms"`
			TurnsPerSecond           float64 `json:"turns_per_second"`
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, stdout.String())
	}
	t.Logf("core suite: %d scenarios, %d learner messages in %.2f s (%.1f turns/s); %s with the server's start",
		rep.Summary.Scenarios, rep.Summary.Turns, rep.Summary.Duration/1000, rep.Summary.TurnsPerSecond, time.Since(start).Round(time.Millisecond))
	if rep.Summary.Scenarios < 25 {
		t.Errorf("the core suite has %d scenarios, want at least 25", rep.Summary.Scenarios)
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no command", nil, "eval needs a command"},
		{"unknown command", []string{"fly"}, `unknown eval command "fly"`},
		{"run without a suite", []string{"run", "--url", "http://x"}, "run needs a suite"},
		{"run without a server", []string{"run", "suite"}, "exactly one of --url URL and --embedded"},
		{"run with both servers", []string{"run", "suite", "--url", "http://x", "--embedded"}, "exactly one of --url URL and --embedded"},
		{"run with secret and token", []string{"run", "suite", "--url", "http://x", "--jwt-secret", "s", "--token", "t"}, "not both"},
		{"run with a bad concurrency", []string{"run", "suite", "--url", "http://x", "--concurrency", "0"}, "--concurrency must be from 1 to 256"},
		{"run with a bad filter", []string{"run", "suite", "--url", "http://x", "--filter", "("}, "--filter"},
		{"run with an unknown flag", []string{"run", "suite", "--colour"}, "flag provided but not defined: -colour"},
		{"import without output", []string{"import-mathdial", "f.jsonl"}, "needs --out DIR, --run, or both"},
		{"import without a file", []string{"import-mathdial", "--run"}, "one MathDial JSONL file"},
		{"leak-bench without a file", []string{"leak-bench"}, "one MRBench JSON file"},
		{"compare one report", []string{"compare", "a.json"}, "two reports"},
		{"compare with a negative threshold", []string{"compare", "a.json", "b.json", "--threshold", "-1"}, "--threshold must not be negative"},
		{"compare with a NaN threshold", []string{"compare", "a.json", "b.json", "--threshold", "NaN"}, "--threshold must be a finite number"},
		{"compare with an infinite threshold", []string{"compare", "a.json", "b.json", "--threshold", "Inf"}, "--threshold must be a finite number"},
		{"compare with a negative infinite threshold", []string{"compare", "a.json", "b.json", "--threshold", "-Inf"}, "--threshold must be a finite number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := eval.Main(context.Background(), tt.args, eval.Env{})
			var ue *eval.UsageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Main(%q) = %v, want a usage error containing %q", tt.args, err, tt.want)
			}
		})
	}
	var stdout bytes.Buffer
	if err := eval.Main(context.Background(), []string{"run", "--help"}, eval.Env{Stdout: &stdout}); !errors.Is(err, eval.ErrHelp) || !strings.Contains(stdout.String(), "import-mathdial FILE") {
		t.Errorf("--help: %v, printed %q", err, stdout.String())
	}
}

// writeSuite writes scenario files into a new directory.
func writeSuite(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const exam = `subtopic: mathematics/integers/adding-and-subtracting-integers
mode: exam
turns:
  - answer: correct
    expect: {state: {exam_score: 1}}
  - action: end_exam
    expect: {state: {exam_finished: true}}
`

// TestRunReports runs a suite with an invalid file against a tutord given
// by URL and checks the reports and the outcome.
func TestRunReports(t *testing.T) {
	url := evaltest.Start(t, evaltest.Options{})
	suite := writeSuite(t, map[string]string{"exam.yaml": exam, "other.yaml": exam, "broken.yaml": "subtopic: a/b/c\nmode: quiz\nturns: [{say: hi}]\n"})
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	err := eval.Main(context.Background(), []string{"run", suite, "--url", url, "--filter", "^exam$", "--out", out, "--json", "--concurrency", "2"},
		eval.Env{Stdout: &stdout, Stderr: &stderr, Getenv: func(k string) string {
			if k == "TUTORD_JWT_SECRET" {
				return evaltest.Secret
			}
			return ""
		}})
	var fe *eval.FailedError
	if !errors.As(err, &fe) || fe.Invalid != 1 || fe.Failed != 0 || fe.Errors != 0 {
		t.Fatalf("Main = %v, want a FailedError for the invalid file only\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "broken.yaml:2: mode:") || !strings.Contains(stderr.String(), "PASS   exam") {
		t.Errorf("stderr does not report the invalid file and the scenario:\n%s", stderr.String())
	}
	var rep report.Report
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("stdout is not one JSON object: %v", err)
	}
	if rep.Summary.Scenarios != 1 || rep.Summary.Passed != 1 || len(rep.Scenarios[0].Turns) != 0 || rep.Auth != "a minted token per scenario" {
		t.Errorf("compact report: %+v", rep.Summary)
	}
	full, err := report.ReadJSON(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(full.Scenarios) != 1 || len(full.Scenarios[0].Turns) != 3 || full.Scenarios[0].Metrics.ExamScore != 1 {
		t.Errorf("full report: %+v", full.Scenarios)
	}
	for _, name := range []string{"junit.xml", "report.md", "report.html"} {
		if info, err := os.Stat(filepath.Join(out, name)); err != nil || info.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// A tutord that never answers a REST request (here GET /sessions/{id}, read
// after every turn; a stuck database does this) must not hang the run:
// --request-timeout makes that scenario an error, and the run ends with
// its reports.
func TestRunTimesOutAHungRESTRequest(t *testing.T) {
	var hang atomic.Bool
	hang.Store(true)
	url := evaltest.Start(t, evaltest.Options{Wrap: func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			p := r.URL.Path
			if hang.Load() && r.Method == http.MethodGet && strings.HasPrefix(p, "/sessions/") &&
				strings.Count(p, "/") == 2 && p != "/sessions/report-card" && p != "/sessions/stats" {
				<-r.Context().Done() // never answers
				return
			}
			h.ServeHTTP(w, r)
		})
	}})
	suite := writeSuite(t, map[string]string{"exam.yaml": exam})
	out := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	start := time.Now()
	err := eval.Main(ctx, []string{"run", suite, "--url", url, "--jwt-secret", evaltest.Secret, "--request-timeout", "2s", "--json", "--out", out},
		eval.Env{Stdout: &stdout, Stderr: &stderr})
	elapsed := time.Since(start)
	hang.Store(false)
	if ctx.Err() != nil || elapsed > 45*time.Second {
		t.Fatalf("the run waited %s on a server that does not answer GET /sessions/{id} (stopped only by the caller's deadline)\nerr: %v\n%s",
			elapsed.Round(time.Second), err, stderr.String())
	}
	var fe *eval.FailedError
	if !errors.As(err, &fe) || fe.Errors != 1 {
		t.Errorf("Main = %v, want a FailedError with the scenario as an error", err)
	}
	if !strings.Contains(stderr.String(), "no answer from the server within 2s") {
		t.Errorf("stderr does not say which request timed out:\n%s", stderr.String())
	}
	if _, err := os.Stat(filepath.Join(out, "report.json")); err != nil {
		t.Errorf("no report after the timeout: %v", err)
	}
}

// With --token the scenarios run one at a time, whatever --concurrency
// asks: the reports must give the concurrency used, 1, or throughput and
// latency get compared with runs that really ran 4 at once.
func TestTokenRunReportsConcurrencyOne(t *testing.T) {
	url := evaltest.Start(t, evaltest.Options{})
	token, err := auth.Mint([]byte(evaltest.Secret), auth.MintOptions{Subject: "one-learner", TTL: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	suite := writeSuite(t, map[string]string{"a.yaml": exam, "b.yaml": exam})
	var stdout, stderr bytes.Buffer
	err = eval.Main(context.Background(), []string{"run", suite, "--url", url, "--token", token, "--concurrency", "4", "--json"},
		eval.Env{Stdout: &stdout, Stderr: &stderr})
	if err != nil {
		t.Fatalf("Main = %v\n%s", err, stderr.String())
	}
	var rep report.Report
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Concurrency != 1 {
		t.Errorf("--token run: the report says concurrency %d, but scenarios ran one at a time", rep.Concurrency)
	}
}

func TestLeakBenchCommand(t *testing.T) {
	var stdout bytes.Buffer
	if err := eval.Main(context.Background(), []string{"leak-bench", repopath.Join(t, "data/mrbench/dev.json"), "--json"}, eval.Env{Stdout: &stdout}); err != nil {
		t.Fatal(err)
	}
	var f map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &f); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, stdout.String())
	}
	for _, k := range []string{"responses", "precision", "recall", "f1", "true_positives", "false_positives", "false_negatives", "true_negatives"} {
		if _, ok := f[k]; !ok {
			t.Errorf("no %s in %s", k, stdout.String())
		}
	}
	stdout.Reset()
	if err := eval.Main(context.Background(), []string{"leak-bench", repopath.Join(t, "data/mrbench/dev.json"), "--verbose"}, eval.Env{Stdout: &stdout}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "F1") || !strings.Contains(stdout.String(), "missed") {
		t.Errorf("text output:\n%s", stdout.String())
	}
}

func TestImportMathDialCommand(t *testing.T) {
	out := t.TempDir()
	var stdout bytes.Buffer
	file := repopath.Join(t, "data/mathdial/dev.jsonl")
	if err := eval.Main(context.Background(), []string{"import-mathdial", file, "--out", out, "--limit", "4", "--json"}, eval.Env{Stdout: &stdout}); err != nil {
		t.Fatal(err)
	}
	var s struct {
		Conversations, Skipped, Subtopics int
	}
	if err := json.Unmarshal(stdout.Bytes(), &s); err != nil || s.Conversations != 4 || s.Subtopics == 0 {
		t.Fatalf("summary %s: %v", stdout.String(), err)
	}
	scenarios, _ := filepath.Glob(filepath.Join(out, "scenarios", "*.yaml"))
	if len(scenarios) != 4 {
		t.Errorf("%d scenario files, want 4", len(scenarios))
	}

	stdout.Reset()
	var stderr bytes.Buffer
	err := eval.Main(context.Background(), []string{"import-mathdial", file, "--run", "--limit", "6", "--json"},
		eval.Env{Stdout: &stdout, Stderr: &stderr, Embedded: embedded(t)})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	var f struct {
		Conversations        int     `json:"conversations"`
		Errors               int     `json:"errors"`
		VerdictAgreement     float64 `json:"verdict_agreement"`
		MajorityBaseline     float64 `json:"majority_baseline"`
		TellingBeforeExplain float64 `json:"telling_before_explain"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &f); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, stdout.String())
	}
	if f.Conversations != 6 || f.Errors != 0 || f.MajorityBaseline < 0.5 || f.TellingBeforeExplain != 0 {
		t.Errorf("figures %s\n%s", stdout.String(), stderr.String())
	}
}

// import-mathdial --run fails (exit status 1) when replays error: figures
// that leave them out measure nothing. Here the embedded tutord refuses
// every WebSocket, so every replay errors.
func TestImportMathDialRunFailsWhenReplaysError(t *testing.T) {
	broken := func(ctx context.Context, cfg eval.EmbeddedConfig) (string, func(), error) {
		return evaltest.Start(t, evaltest.Options{CurriculumDir: cfg.CurriculumDir, Secret: cfg.JWTSecret, Wrap: func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if strings.HasPrefix(r.URL.Path, "/sessions/ws/") {
					http.Error(w, "unavailable", http.StatusServiceUnavailable)
					return
				}
				h.ServeHTTP(w, r)
			})
		}}), func() {}, nil
	}
	var stdout, stderr bytes.Buffer
	err := eval.Main(context.Background(), []string{"import-mathdial", repopath.Join(t, "data/mathdial/dev.jsonl"), "--run", "--limit", "2", "--json"},
		eval.Env{Stdout: &stdout, Stderr: &stderr, Embedded: broken})
	var f struct {
		Conversations int `json:"conversations"`
		Errors        int `json:"errors"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &f); err != nil || f.Errors != 2 || f.Conversations != 0 {
		t.Fatalf("setup: figures %s (%v), want both replays errored\n%s", stdout.String(), err, stderr.String())
	}
	if err == nil || !strings.Contains(err.Error(), "2 of 2 replays") || !strings.Contains(err.Error(), "HTTP 503") {
		t.Errorf("import-mathdial --run with every replay errored: Main = %v, want an error with the count and the first error", err)
	}
}

// import-mathdial --run replays the conversations of this import only, even
// into a DIR where an earlier import left scenarios (which stay).
func TestImportMathDialRunReplaysOnlyThisImport(t *testing.T) {
	out := t.TempDir()
	file := repopath.Join(t, "data/mathdial/dev.jsonl")
	if err := eval.Main(context.Background(), []string{"import-mathdial", file, "--out", out, "--limit", "3"}, eval.Env{Stdout: io.Discard}); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	err := eval.Main(context.Background(), []string{"import-mathdial", file, "--out", out, "--limit", "1", "--run", "--json"},
		eval.Env{Stdout: &stdout, Stderr: &stderr, Embedded: embedded(t)})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	rep, err := report.ReadJSON(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range rep.Scenarios {
		names = append(names, s.Name+" ("+string(s.Status)+" "+s.Error+")")
	}
	if len(rep.Scenarios) != 1 || rep.Summary.Errors != 0 {
		t.Errorf("--limit 1 --run into the DIR of a 3-conversation import: report.json has %q, want the 1 conversation imported", names)
	}
	var f struct {
		Conversations int `json:"conversations"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &f); err != nil || f.Conversations != 1 {
		t.Errorf("figures %s (%v), want 1 conversation", stdout.String(), err)
	}
	if scenarios, _ := filepath.Glob(filepath.Join(out, "scenarios", "*.yaml")); len(scenarios) != 3 {
		t.Errorf("%d scenario files in DIR, want the 3 of the first import, one of them rewritten", len(scenarios))
	}
}

func TestCompareCommand(t *testing.T) {
	url := evaltest.Start(t, evaltest.Options{})
	suite := writeSuite(t, map[string]string{"exam.yaml": exam})
	run := func(name string) string {
		p := filepath.Join(t.TempDir(), name)
		err := eval.Main(context.Background(), []string{"run", suite, "--url", url, "--jwt-secret", evaltest.Secret, "--report", p},
			eval.Env{Stdout: io.Discard})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	old, cur := run("old.json"), run("new.json")
	var stdout bytes.Buffer
	if err := eval.Main(context.Background(), []string{"compare", old, cur}, eval.Env{Stdout: &stdout}); err != nil {
		t.Errorf("compare of two passing runs: %v\n%s", err, stdout.String())
	}
	// Make the new run fail its scenario.
	rep, err := report.ReadJSON(cur)
	if err != nil {
		t.Fatal(err)
	}
	rep.Scenarios[0].Status = "failed"
	rep.Summary.PassRate, rep.Summary.Passed, rep.Summary.Failed = 0, 0, 1
	f, err := os.Create(cur)
	if err != nil {
		t.Fatal(err)
	}
	if err := report.WriteJSON(f, rep); err != nil {
		t.Fatal(err)
	}
	f.Close()
	stdout.Reset()
	err = eval.Main(context.Background(), []string{"compare", old, cur, "--json"}, eval.Env{Stdout: &stdout})
	var re *eval.RegressionError
	if !errors.As(err, &re) || len(re.Regressions) != 2 {
		t.Fatalf("compare = %v, want a RegressionError with the pass rate and the scenario", err)
	}
	var c report.Comparison
	if err := json.Unmarshal(stdout.Bytes(), &c); err != nil || len(c.Regressions) != 2 {
		t.Errorf("compare --json printed %s (%v)", stdout.String(), err)
	}
}
