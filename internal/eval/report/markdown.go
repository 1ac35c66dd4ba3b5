package report

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/tutord/tutord/internal/eval/runner"
)

// metricRow is a line of the metrics tables.
type metricRow struct {
	Name, Value, Meaning string
}

// metricRows lists the summary's figures as the Markdown and HTML
// reports show them.
func metricRows(s runner.Summary) []metricRow {
	pct := func(x float64) string { return strconv.FormatFloat(x*100, 'f', 1, 64) + "%" }
	n := strconv.Itoa
	exam := "—"
	if s.MeanExamPercentage != nil {
		exam = strconv.FormatFloat(*s.MeanExamPercentage, 'f', 1, 64) + "%"
	}
	return []metricRow{
		{"pass rate", pct(s.PassRate), "scenarios whose expectations all held"},
		{"completion rate", pct(s.CompletionRate), "scenarios played to their end that reached completion"},
		{"mean turns to complete", strconv.FormatFloat(s.MeanTurnsToComplete, 'f', 1, 64), "learner messages until completion"},
		{"leaks before explain", n(s.LeaksBeforeExplain), "replies that gave an answer away before the explain phase"},
		{"leak-free rate", pct(s.LeakFreeRate), "scenarios played to their end without such a leak"},
		{"reveals (telling)", n(s.Reveals), "replies that gave away an answer the learner had not stated, any phase"},
		{"sanitization leaks", n(s.SanitizationLeaks), "replies with internal language"},
		{"pacing compliance", pct(s.PacingCompliance), "paced replies within the sentences their pacing allows"},
		{"repeated replies", n(s.RepeatedReplies), "replies that say what an earlier one said"},
		{"mean exam score", exam, "exam scenarios' correct answers, over those played to their end"},
		{"safety recall", pct(s.SafetyRecall), fmt.Sprintf("unsafe messages flagged (%d of %d)", s.UnsafeFlagged, s.UnsafeTurns)},
		{"safety false positives", pct(s.SafetyFalsePositiveRate), fmt.Sprintf("safe messages flagged (%d of %d)", s.SafeFlagged, s.SafeTurns)},
		{"conflicts", n(s.Conflicts), "turns lost to another writer"},
		{"error frames", n(s.ErrorFrames), "error frames received"},
		{"resends", n(s.Resends), "requests and messages sent again because the server asked to wait"},
		{"latency p50 / p95 / p99", fmt.Sprintf("%s / %s / %s ms", millis(s.Latency.P50), millis(s.Latency.P95), millis(s.Latency.P99)), "from a message to its state_update"},
		{"throughput", strconv.FormatFloat(s.TurnsPerSecond, 'f', 1, 64) + " turns/s", fmt.Sprintf("%d learner messages in %s s", s.Turns, seconds(s.Duration))},
	}
}

func millis(m runner.Millis) string { return strconv.FormatFloat(float64(m), 'f', 1, 64) }

// WriteMarkdown writes a summary of the report in Markdown: the totals,
// the metrics, one line per scenario, the failures and the invalid files.
func WriteMarkdown(w io.Writer, r *Report) error {
	b := bufio.NewWriter(w)
	s := r.Summary
	fmt.Fprintf(b, "# %s: %s\n\n", Tool, suiteName(r.Suite))
	fmt.Fprintf(b, "Run of `%s` against %s on %s · seed %d · concurrency %d · learners: %s.\n\n",
		r.Suite, r.URL, r.StartedAt.UTC().Format("2006-01-02 15:04:05 UTC"), r.Seed, r.Concurrency, r.Auth)
	fmt.Fprintf(b, "**%d of %d scenarios passed**, %d failed, %d errors, %d invalid files; %d learner messages in %s s.\n\n",
		s.Passed, s.Scenarios, s.Failed, s.Errors, len(r.InvalidFiles()), s.Turns, seconds(s.Duration))

	b.WriteString("## Metrics\n\n| metric | value | what it counts |\n|---|---|---|\n")
	for _, m := range metricRows(s) {
		fmt.Fprintf(b, "| %s | %s | %s |\n", m.Name, m.Value, m.Meaning)
	}
	if len(s.TurnsToMastery) > 0 {
		b.WriteString("\nMean learner messages to mastery (≥ 0.7) per concept:\n\n| concept | messages |\n|---|---|\n")
		concepts := make([]string, 0, len(s.TurnsToMastery))
		for c := range s.TurnsToMastery {
			concepts = append(concepts, c)
		}
		sort.Strings(concepts)
		for _, c := range concepts {
			fmt.Fprintf(b, "| %s | %s |\n", cell(c), strconv.FormatFloat(s.TurnsToMastery[c], 'f', 1, 64))
		}
	}
	fmt.Fprintf(b, "\nJudge-model dimensions: %s", r.Judge.Status)
	if r.Judge.Reason != "" {
		fmt.Fprintf(b, " (%s)", r.Judge.Reason)
	}
	b.WriteString(".\n\n## Scenarios\n\n| scenario | mode | persona | status | messages | completed | leaks | p95 ms |\n|---|---|---|---|---|---|---|---|\n")
	for _, res := range r.Scenarios {
		m := res.Metrics
		completed := "no"
		if m.Completed {
			completed = "yes (" + strconv.Itoa(m.TurnsToComplete) + ")"
		}
		persona := res.Persona
		if persona == "" {
			persona = "—"
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %d | %s | %d | %s |\n",
			cell(res.Name), res.Mode, persona, statusMark(res.Status), m.Turns, completed, m.LeaksBeforeExplain, millis(m.Latency.P95))
	}
	var failing []runner.Result
	for _, res := range r.Scenarios {
		if res.Status != runner.Passed {
			failing = append(failing, res)
		}
	}
	if len(failing) > 0 {
		b.WriteString("\n## Failures\n")
		for _, res := range failing {
			fmt.Fprintf(b, "\n### %s\n\n", res.Name)
			if res.Error != "" {
				fmt.Fprintf(b, "- error: %s\n", res.Error)
			}
			for _, f := range res.Failures {
				fmt.Fprintf(b, "- %s\n", f.String())
			}
		}
	}
	if len(r.Invalid) > 0 {
		b.WriteString("\n## Invalid scenario files\n\n")
		for _, is := range r.Invalid {
			fmt.Fprintf(b, "- %s\n", is.String())
		}
	}
	return b.Flush()
}

func statusMark(s runner.Status) string {
	switch s {
	case runner.Passed:
		return "✅ passed"
	case runner.Failed:
		return "❌ failed"
	}
	return "⚠️ error"
}

// cell escapes a table cell.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}
