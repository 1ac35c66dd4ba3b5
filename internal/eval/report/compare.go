package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"text/tabwriter"

	"github.com/tutord/tutord/internal/eval/runner"
)

// Kinds of compared figures, which say what counts as a regression.
const (
	kindRate  = "rate"  // a share from 0 to 1: worse by more than the threshold, in points
	kindCount = "count" // a count: any rise from 0, else a relative rise beyond the threshold
	kindInfo  = "info"  // shown, never a regression (latency, throughput: they depend on the machine)
)

// Comparison is the difference between two runs.
type Comparison struct {
	Threshold float64 `json:"threshold"`
	Rows      []Row   `json:"rows"`
	// Scenarios lists the scenarios whose status changed.
	Scenarios []StatusChange `json:"scenarios"`
	// Regressions describes each regression, one line each.
	Regressions []string `json:"regressions"`
}

// Row compares one figure.
type Row struct {
	Metric string  `json:"metric"`
	Old    float64 `json:"old"`
	New    float64 `json:"new"`
	Delta  float64 `json:"delta"`
	// Better is higher or lower.
	Better     string `json:"better"`
	Kind       string `json:"kind"`
	Regression bool   `json:"regression"`
}

// StatusChange is a scenario whose status differs between the runs; Old
// or New is "" when the scenario is in one run only.
type StatusChange struct {
	Name       string `json:"name"`
	Old        string `json:"old"`
	New        string `json:"new"`
	Regression bool   `json:"regression"`
}

// Compare compares two reports. threshold is the tolerated worsening:
// points of a rate (0.05 is five percentage points) or the relative rise
// of a count. A scenario that passed and no longer does is a regression
// whatever the threshold.
func Compare(old, cur *Report, threshold float64) Comparison {
	c := Comparison{Threshold: threshold, Rows: []Row{}, Scenarios: []StatusChange{}, Regressions: []string{}}
	o, n := old.Summary, cur.Summary
	exam := func(s runner.Summary) float64 {
		if s.MeanExamPercentage == nil {
			return math.NaN()
		}
		return *s.MeanExamPercentage / 100
	}
	figures := []struct {
		name, better, kind string
		old, new           float64
	}{
		{"pass_rate", "higher", kindRate, o.PassRate, n.PassRate},
		{"completion_rate", "higher", kindRate, o.CompletionRate, n.CompletionRate},
		{"leak_free_rate", "higher", kindRate, o.LeakFreeRate, n.LeakFreeRate},
		{"leaks_before_explain", "lower", kindCount, float64(o.LeaksBeforeExplain), float64(n.LeaksBeforeExplain)},
		{"sanitization_leaks", "lower", kindCount, float64(o.SanitizationLeaks), float64(n.SanitizationLeaks)},
		{"pacing_compliance", "higher", kindRate, o.PacingCompliance, n.PacingCompliance},
		{"repeated_replies", "lower", kindCount, float64(o.RepeatedReplies), float64(n.RepeatedReplies)},
		{"mean_exam_score", "higher", kindRate, exam(o), exam(n)},
		{"safety_recall", "higher", kindRate, o.SafetyRecall, n.SafetyRecall},
		{"safety_false_positive_rate", "lower", kindRate, o.SafetyFalsePositiveRate, n.SafetyFalsePositiveRate},
		{"conflicts", "lower", kindCount, float64(o.Conflicts), float64(n.Conflicts)},
		{"error_frames", "lower", kindCount, float64(o.ErrorFrames), float64(n.ErrorFrames)},
		{"reveals", "lower", kindInfo, float64(o.Reveals), float64(n.Reveals)},
		{"mean_turns_to_complete", "lower", kindInfo, o.MeanTurnsToComplete, n.MeanTurnsToComplete},
		{"latency_p50_ms", "lower", kindInfo, float64(o.Latency.P50), float64(n.Latency.P50)},
		{"latency_p95_ms", "lower", kindInfo, float64(o.Latency.P95), float64(n.Latency.P95)},
		{"latency_p99_ms", "lower", kindInfo, float64(o.Latency.P99), float64(n.Latency.P99)},
		{"turns_per_second", "higher", kindInfo, o.TurnsPerSecond, n.TurnsPerSecond},
	}
	for _, f := range figures {
		if math.IsNaN(f.old) || math.IsNaN(f.new) {
			continue // not measured in one of the runs
		}
		f.old, f.new = round4(f.old), round4(f.new)
		r := Row{Metric: f.name, Old: f.old, New: f.new, Delta: round4(f.new - f.old), Better: f.better, Kind: f.kind}
		worse := f.old - f.new
		if f.better == "lower" {
			worse = -worse
		}
		switch f.kind {
		case kindRate:
			r.Regression = worse > threshold+1e-9
		case kindCount:
			r.Regression = worse > 0 && (f.old == 0 || worse/f.old > threshold+1e-9)
		}
		if r.Regression {
			c.Regressions = append(c.Regressions, fmt.Sprintf("%s: %s → %s (%s is better)", f.name, num(f.old), num(f.new), f.better))
		}
		c.Rows = append(c.Rows, r)
	}
	before := map[string]runner.Status{}
	for _, s := range old.Scenarios {
		before[s.Name] = s.Status
	}
	seen := map[string]bool{}
	for _, s := range cur.Scenarios {
		seen[s.Name] = true
		was, ok := before[s.Name]
		if ok && was == s.Status {
			continue
		}
		ch := StatusChange{Name: s.Name, Old: string(was), New: string(s.Status), Regression: was == runner.Passed && s.Status != runner.Passed}
		if ch.Regression {
			c.Regressions = append(c.Regressions, fmt.Sprintf("scenario %s: %s → %s", s.Name, was, s.Status))
		}
		c.Scenarios = append(c.Scenarios, ch)
	}
	invalid := cur.InvalidFiles()
	for _, s := range old.Scenarios {
		if seen[s.Name] {
			continue
		}
		// Gone from the run: left out of the suite, or its file no longer
		// reads, which fails what passed.
		ch := StatusChange{Name: s.Name, Old: string(s.Status)}
		if slices.Contains(invalid, s.File) {
			ch.New = "invalid"
			if s.Status == runner.Passed {
				ch.Regression = true
				c.Regressions = append(c.Regressions, fmt.Sprintf("scenario %s: %s → invalid file %s", s.Name, s.Status, s.File))
			}
		}
		c.Scenarios = append(c.Scenarios, ch)
	}
	return c
}

// WriteComparison writes the comparison as a table, then the status
// changes and the regressions.
func WriteComparison(w io.Writer, c Comparison) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "metric\told\tnew\tchange\tbetter\t")
	for _, r := range c.Rows {
		mark := ""
		if r.Regression {
			mark = "REGRESSION"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Metric, num(r.Old), num(r.New), signed(r.Delta), r.Better, mark)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(c.Scenarios) > 0 {
		fmt.Fprintln(w, "\nscenarios whose status changed:")
		for _, s := range c.Scenarios {
			fmt.Fprintf(w, "  %s: %s → %s\n", s.Name, orDash(s.Old), orDash(s.New))
		}
	}
	if len(c.Regressions) == 0 {
		_, err := fmt.Fprintf(w, "\nno regression beyond the threshold %s\n", num(c.Threshold))
		return err
	}
	fmt.Fprintf(w, "\n%d regression(s) beyond the threshold %s:\n", len(c.Regressions), num(c.Threshold))
	for _, r := range c.Regressions {
		fmt.Fprintf(w, "  %s\n", r)
	}
	return nil
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

func signed(x float64) string {
	if x > 0 {
		return "+" + num(x)
	}
	return num(x)
}

func round4(x float64) float64 { return math.Round(x*10000) / 10000 }
