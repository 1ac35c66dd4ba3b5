package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"

	"github.com/tutord/tutord/internal/eval/client"
	"github.com/tutord/tutord/internal/eval/runner"
	"github.com/tutord/tutord/internal/eval/scenario"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func st(phase, result string, complete bool, mastery map[string]float64) *client.State {
	s := &client.State{SessionID: "s-1", CurrentStep: 2, TotalSteps: 7, MasteryEstimates: mastery, IsComplete: complete, Mode: "teach_me", ConceptsDiscussed: []string{}}
	if phase != "" {
		s.QuestionPhase = &phase
	}
	if result != "" {
		s.LastAnswerResult = &result
	}
	return s
}

// fixedRun is a run with fixed times and ids: a scenario that passed, one
// that failed, one that could not be played, and an invalid file.
func fixedRun() *Report {
	start := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	q := &runner.QuestionRef{ID: "like-1", Text: "What is 2/9 + 5/9?", Answer: "7/9", Concept: "Like fractions", Phase: "asked"}
	passed := runner.Result{
		Name: "teach-hint-ladder", File: "eval/suites/core/teach-hint-ladder.yaml", Description: "Wrong answers walk the ladder.",
		Tags: []string{"teach_me"}, Subtopic: "mathematics/fractions/adding-and-subtracting-fractions", Mode: "teach_me",
		Status: runner.Passed, SessionID: "0b1c2d3e-0000-4000-8000-000000000001", Learner: "eval-run-0-teach-hint-ladder",
		StartedAt: start, Duration: 120.5,
		Turns: []runner.Turn{
			{Index: 0, Kind: "welcome", Tutor: "Hi Asha! Ready to begin?", Frames: []runner.FrameTime{{Type: "state_update", At: 1.2}, {Type: "assistant", At: 1.5}},
				State: st("", "", false, map[string]float64{"Like fractions": 0, "Unlike fractions": 0}), Sentences: 2},
			{Index: 1, Kind: "message", Learner: "5/9", Move: "wrong", Tutor: "You said 5/9; let's look again. Only the number of parts changes.",
				Frames:  []runner.FrameTime{{Type: "typing", At: 0.4}, {Type: "assistant", At: 6.1}, {Type: "state_update", At: 6.3}},
				Latency: 6.3, ReplyLatency: 6.1, State: st("probe", "incorrect", false, map[string]float64{"Like fractions": 0.24, "Unlike fractions": 0}),
				Question: q, Sentences: 2, Pacing: "first_turn", Budget: 3},
			{Index: 2, Kind: "message", Learner: "7/9", Move: "correct", Tutor: "Yes, 7/9 is right.",
				Latency: 4.7, ReplyLatency: 4.5, State: st("", "correct", true, map[string]float64{"Like fractions": 0.8, "Unlike fractions": 0.7}),
				Question: &runner.QuestionRef{ID: "like-1", Text: q.Text, Answer: "7/9", Concept: q.Concept, Phase: "probe"}, Sentences: 1, Pacing: "quiet", Budget: 3},
			{Index: 3, Kind: "action", Action: "pause", Status: 200, Response: json.RawMessage(`{"coverage":25,"concepts_covered":["Like fractions"],"message":"You've covered 25% so far."}`),
				Latency: 3.1, State: st("", "correct", true, nil)},
		},
	}
	passed.Metrics = runner.Metrics{Turns: 2, Replies: 3, Completed: true, TurnsToComplete: 2, QuestionsAsked: 1, AnswersCorrect: 1, AnswersIncorrect: 1,
		PacedReplies: 2, TurnsToMastery: map[string]int{"Like fractions": 2, "Unlike fractions": 2}, SafeTurns: 2,
		Latency: runner.Latency{Count: 2, Mean: 5.5, P50: 4.7, P95: 6.3, P99: 6.3, Max: 6.3}}
	failed := runner.Result{
		Name: "exam-early-end", File: "eval/suites/core/exam-early-end.yaml", Subtopic: "mathematics/integers/adding-and-subtracting-integers",
		Mode: "exam", Persona: "struggler", Status: runner.Failed, SessionID: "0b1c2d3e-0000-4000-8000-000000000002", Learner: "eval-run-1-exam-early-end",
		StartedAt: start.Add(time.Millisecond), Duration: 80,
		Failures: []runner.Failure{{At: "turn 1", Check: "state.exam_score", Want: "= 2", Got: "1"}, {At: "session", Check: "metrics.leaks_before_explain", Want: "= 0", Got: "1"}},
		Turns: []runner.Turn{
			{Index: 0, Kind: "welcome", Tutor: "This is a 7-question exam.\n\n**Question 1:** What is -3 + 5?", State: st("", "", false, nil), Sentences: 2},
			{Index: 1, Kind: "message", Learner: "I don't know", Move: "idk", Tutor: "Got it — let's continue. The answer was 2.", Latency: 12.25, State: st("", "", false, nil),
				Leaks: []runner.Leak{{Question: "add-1", Answer: "2", Sentence: "The answer was 2.", Form: "2", Reason: "stated as the answer", BeforeExplain: true}}},
		},
	}
	failed.Metrics = runner.Metrics{Turns: 1, Replies: 2, LeaksBeforeExplain: 1, Reveals: 1, ExamScore: 1, ExamTotal: 7, ExamPercentage: 14.3, SafeTurns: 1,
		Latency: runner.Latency{Count: 1, Mean: 12.25, P50: 12.25, P95: 12.25, P99: 12.25, Max: 12.25}}
	errored := runner.Result{
		Name: "dropped", File: "eval/suites/core/dropped.yaml", Subtopic: "mathematics/fractions/adding-and-subtracting-fractions", Mode: "teach_me",
		Status: runner.Error, Error: "turn 1: the WebSocket closed (status 1011 StatusInternalError)", StartedAt: start, Duration: 15,
		Turns: []runner.Turn{{Index: 0, Kind: "welcome", Tutor: "Welcome!", Sentences: 1}},
	}
	results := []runner.Result{passed, failed, errored}
	return &Report{
		Tool: Tool, Suite: "eval/suites/core", URL: "http://127.0.0.1:8080", StartedAt: start, Seed: 1, Concurrency: 8,
		Auth: "a minted token per scenario", Summary: runner.Summarize(results, 250*time.Millisecond, 1),
		Judge:     Judge{Status: "skipped", Reason: "no judge model is configured"},
		Invalid:   []scenario.Issue{{File: "eval/suites/core/broken.yaml", Line: 3, Field: "mode", Message: `must be one of teach_me, clarify_doubts, exam, not "quiz"`}},
		Scenarios: results,
	}
}

// golden compares got with the golden file, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to write it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s", name, diff)
	}
}

func TestGoldens(t *testing.T) {
	r := fixedRun()
	tests := []struct {
		name  string
		write func(*bytes.Buffer, *Report) error
	}{
		{"report.json", func(b *bytes.Buffer, r *Report) error { return WriteJSON(b, r) }},
		{"compact.json", func(b *bytes.Buffer, r *Report) error { return WriteJSON(b, r.Compact()) }},
		{"junit.xml", func(b *bytes.Buffer, r *Report) error { return WriteJUnit(b, r) }},
		{"report.md", func(b *bytes.Buffer, r *Report) error { return WriteMarkdown(b, r) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := tt.write(&b, r); err != nil {
				t.Fatal(err)
			}
			golden(t, tt.name, b.Bytes())
		})
	}
}

func TestJSONRoundTrip(t *testing.T) {
	r := fixedRun()
	var b bytes.Buffer
	if err := WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "r.json")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := ReadJSON(path)
	if err != nil {
		t.Fatal(err)
	}
	// The indented encoder indents embedded JSON too.
	compact := cmp.Transformer("compact", func(m json.RawMessage) string {
		var b bytes.Buffer
		if err := json.Compact(&b, m); err != nil {
			return string(m)
		}
		return b.String()
	})
	if diff := cmp.Diff(r, back, compact); diff != "" {
		t.Errorf("ReadJSON(WriteJSON(r)) (-want +got):\n%s", diff)
	}
	if !back.Failed() {
		t.Error("a run with a failure reports Failed() false")
	}
	if err := os.WriteFile(path, []byte(`{"tool":"something else"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadJSON(path); err == nil {
		t.Error("ReadJSON accepts another tool's JSON")
	}
}

func TestJUnitParses(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJUnit(&b, fixedRun()); err != nil {
		t.Fatal(err)
	}
	var got junitSuites
	if err := xml.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatalf("the JUnit XML does not parse: %v", err)
	}
	if got.Tests != 4 || got.Failures != 1 || got.Errors != 2 || len(got.Suites) != 1 || len(got.Suites[0].Cases) != 4 {
		t.Errorf("tests %d failures %d errors %d suites %d", got.Tests, got.Failures, got.Errors, len(got.Suites))
	}
}

// TestHTML checks that the page parses, holds the four charts with their
// marks, and needs nothing from the network.
func TestHTML(t *testing.T) {
	var b bytes.Buffer
	if err := WriteHTML(&b, fixedRun()); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatalf("the page does not parse: %v", err)
	}
	charts := map[string]map[string]int{} // chart → element → count
	var external []string
	var text strings.Builder
	var walk func(n *html.Node, chart string)
	walk = func(n *html.Node, chart string) {
		if n.Type == html.ElementNode {
			for _, a := range n.Attr {
				if a.Key == "data-chart" && n.Data == "svg" {
					chart = a.Val
					charts[chart] = map[string]int{}
				}
				if (a.Key == "src" || a.Key == "href") && strings.Contains(a.Val, "//") {
					external = append(external, a.Val)
				}
			}
			if chart != "" {
				charts[chart][n.Data]++
			}
			if n.Data == "link" || n.Data == "script" {
				external = append(external, "<"+n.Data+">")
			}
		}
		if n.Type == html.TextNode {
			text.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, chart)
		}
	}
	walk(doc, "")
	if len(external) > 0 {
		t.Errorf("the page loads %v", external)
	}
	want := map[string]struct {
		element string
		atLeast int
	}{
		"scores":    {"rect", 7},
		"scenarios": {"rect", 3},
		"latency":   {"rect", 1},
		"mastery":   {"polyline", 1},
	}
	for name, w := range want {
		c, ok := charts[name]
		if !ok {
			t.Errorf("no %s chart", name)
			continue
		}
		if c[w.element] < w.atLeast {
			t.Errorf("%s chart has %d %s, want at least %d", name, c[w.element], w.element, w.atLeast)
		}
	}
	for _, s := range []string{"teach-hint-ladder", "exam-early-end", "turn 1: state.exam_score: want = 2, got 1", "broken.yaml:3: mode", "You said 5/9"} {
		if !strings.Contains(text.String(), s) {
			t.Errorf("the page does not show %q", s)
		}
	}
}

func TestCompare(t *testing.T) {
	base := fixedRun()
	tests := []struct {
		name        string
		change      func(r *Report)
		threshold   float64
		regressions []string
	}{
		{"same", func(*Report) {}, 0.05, nil},
		{"rate within threshold", func(r *Report) { r.Summary.CompletionRate -= 0.04 }, 0.05, nil},
		{"rate beyond threshold", func(r *Report) { r.Summary.CompletionRate -= 0.1 }, 0.05, []string{"completion_rate: 0.5 → 0.4 (higher is better)"}},
		{"count from zero", func(r *Report) { r.Summary.SanitizationLeaks = 1 }, 0.5, []string{"sanitization_leaks: 0 → 1 (lower is better)"}},
		{"count within threshold", func(r *Report) { r.Summary.LeaksBeforeExplain = 1 }, 0.5, nil},
		{"latency is information", func(r *Report) { r.Summary.Latency.P95 *= 10; r.Summary.TurnsPerSecond = 0 }, 0.05, nil},
		{"scenario no longer passes", func(r *Report) { r.Scenarios[0].Status = runner.Failed }, 0.05, []string{"scenario teach-hint-ladder: passed → failed"}},
		{"improvement", func(r *Report) { r.Summary.PassRate = 1; r.Summary.LeaksBeforeExplain = 0 }, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cur := fixedRun()
			cur.Scenarios = append([]runner.Result(nil), cur.Scenarios...)
			tt.change(cur)
			c := Compare(base, cur, tt.threshold)
			var got []string
			if len(c.Regressions) > 0 {
				got = c.Regressions
			}
			if diff := cmp.Diff(tt.regressions, got); diff != "" {
				t.Errorf("regressions (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWriteComparison(t *testing.T) {
	old := fixedRun()
	cur := fixedRun()
	cur.Summary.PassRate, cur.Summary.SanitizationLeaks = 0, 2
	cur.Scenarios = append([]runner.Result(nil), cur.Scenarios...)
	cur.Scenarios[0].Status = runner.Error
	var b bytes.Buffer
	if err := WriteComparison(&b, Compare(old, cur, 0.05)); err != nil {
		t.Fatal(err)
	}
	golden(t, "compare.txt", b.Bytes())
}
