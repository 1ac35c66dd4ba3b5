package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/tutord/tutord/internal/eval/runner"
)

//go:embed report.html.tmpl
var pageTemplate string

var page = template.Must(template.New("report").Funcs(template.FuncMap{
	"status": statusMark,
	"millis": millis,
	"sec":    seconds,
}).Parse(pageTemplate))

// Chart geometry, in SVG user units.
const (
	chartWidth = 720.0
	labelWidth = 230.0
	barArea    = 400.0
	rowHeight  = 24.0
	plotHeight = 220.0
)

// palette colours the mastery curves; it cycles.
var palette = []string{"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"}

type htmlPage struct {
	R         *Report
	Suite     string
	Metrics   []metricRow
	Scores    chart
	Scenarios chart
	Latency   histogram
	Mastery   lines
}

// chart is a horizontal bar chart.
type chart struct {
	Height float64
	Bars   []bar
}

type bar struct {
	Label, Value, Color string
	Y, W                float64
}

// histogram is a vertical bar chart of counts.
type histogram struct {
	Bars          []column
	XMax, YMax    string
	Count         int
	Width, Height float64
}

type column struct {
	X, Y, W, H float64
	Title      string
}

// lines is a line chart of mastery over learner messages.
type lines struct {
	Curves        []curve
	XMax          int
	Width, Height float64
}

type curve struct {
	Name, Color, Points string
}

// WriteHTML writes the report as one HTML page that needs no network:
// inline CSS and SVG charts of the scores per metric, the outcome of each
// scenario, the latency histogram and the mastery curves, then the metrics,
// failures and transcripts.
func WriteHTML(w io.Writer, r *Report) error {
	p := htmlPage{R: r, Suite: suiteName(r.Suite), Metrics: metricRows(r.Summary)}
	p.Scores = scoreChart(r.Summary)
	p.Scenarios = scenarioChart(r.Scenarios)
	p.Latency = latencyHistogram(r.Scenarios)
	p.Mastery = masteryCurves(r.Scenarios)
	return page.Execute(w, p)
}

// scoreChart plots the summary's rates, each from 0 to 100%.
func scoreChart(s runner.Summary) chart {
	type score struct {
		name string
		v    float64
	}
	scores := []score{
		{"pass rate", s.PassRate}, {"completion rate", s.CompletionRate}, {"leak-free scenarios", s.LeakFreeRate},
		{"replies without internal language", s.SanitizationCleanRate}, {"pacing compliance", s.PacingCompliance},
		{"safety recall", s.SafetyRecall}, {"safe messages not flagged", 1 - s.SafetyFalsePositiveRate},
	}
	if s.MeanExamPercentage != nil {
		scores = append(scores, score{"mean exam score", *s.MeanExamPercentage / 100})
	}
	c := chart{Height: float64(len(scores))*rowHeight + 10}
	for i, sc := range scores {
		v := math.Max(0, math.Min(1, sc.v))
		c.Bars = append(c.Bars, bar{Label: sc.name, Value: strconv.FormatFloat(v*100, 'f', 1, 64) + "%",
			Color: scoreColor(v), Y: float64(i)*rowHeight + 5, W: round1(v * barArea)})
	}
	return c
}

func scoreColor(v float64) string {
	switch {
	case v >= 0.9:
		return "#2ca02c"
	case v >= 0.7:
		return "#ff7f0e"
	}
	return "#d62728"
}

// scenarioChart draws each scenario as a bar as long as its messages, in
// the colour of its outcome.
func scenarioChart(results []runner.Result) chart {
	most := 1
	for _, res := range results {
		most = max(most, res.Metrics.Turns)
	}
	c := chart{Height: float64(len(results))*rowHeight + 10}
	for i, res := range results {
		color := "#2ca02c"
		switch res.Status {
		case runner.Failed:
			color = "#d62728"
		case runner.Error:
			color = "#ff7f0e"
		}
		c.Bars = append(c.Bars, bar{Label: res.Name, Value: fmt.Sprintf("%s, %d messages", res.Status, res.Metrics.Turns),
			Color: color, Y: float64(i)*rowHeight + 5, W: round1(math.Max(2, float64(res.Metrics.Turns)/float64(most)*barArea))})
	}
	return c
}

// latencyHistogram bins the message latencies of every scenario.
func latencyHistogram(results []runner.Result) histogram {
	var xs []float64
	top := 0.0
	for _, res := range results {
		for _, t := range res.Turns {
			if t.Chat() {
				xs = append(xs, float64(t.Latency))
				top = math.Max(top, float64(t.Latency))
			}
		}
	}
	h := histogram{Width: chartWidth, Height: plotHeight, Count: len(xs), XMax: strconv.FormatFloat(top, 'f', 1, 64), YMax: "0"}
	if len(xs) == 0 {
		return h
	}
	const bins = 20
	width := top / bins
	if width <= 0 {
		width = 1
	}
	counts := make([]int, bins)
	for _, x := range xs {
		counts[min(int(x/width), bins-1)]++
	}
	most := 0
	for _, n := range counts {
		most = max(most, n)
	}
	h.YMax = strconv.Itoa(most)
	colWidth := (chartWidth - 60) / bins
	for i, n := range counts {
		height := float64(n) / float64(most) * (plotHeight - 30)
		h.Bars = append(h.Bars, column{
			X: round1(50 + float64(i)*colWidth), Y: round1(plotHeight - 20 - height), W: round1(colWidth - 2), H: round1(height),
			Title: fmt.Sprintf("%.1f–%.1f ms: %d", float64(i)*width, float64(i+1)*width, n),
		})
	}
	return h
}

// masteryCurves draws, per scenario with mastery estimates, the mean
// mastery after each learner message.
func masteryCurves(results []runner.Result) lines {
	l := lines{Width: chartWidth, Height: plotHeight, XMax: 1}
	type series struct {
		name string
		ys   []float64
	}
	var all []series
	for _, res := range results {
		var ys []float64
		for _, t := range res.Turns {
			if !t.Chat() || t.State == nil || len(t.State.MasteryEstimates) == 0 {
				continue
			}
			sum := 0.0
			for _, v := range t.State.MasteryEstimates {
				sum += v
			}
			ys = append(ys, sum/float64(len(t.State.MasteryEstimates)))
		}
		if len(ys) > 0 {
			all = append(all, series{res.Name, ys})
			l.XMax = max(l.XMax, len(ys))
		}
	}
	for i, s := range all {
		pts := make([]string, len(s.ys))
		for j, y := range s.ys {
			x := 50 + float64(j+1)/float64(l.XMax)*(chartWidth-70)
			py := plotHeight - 20 - y*(plotHeight-40)
			pts[j] = strconv.FormatFloat(x, 'f', 1, 64) + "," + strconv.FormatFloat(py, 'f', 1, 64)
		}
		l.Curves = append(l.Curves, curve{Name: s.name, Color: palette[i%len(palette)], Points: strings.Join(pts, " ")})
	}
	return l
}

func round1(x float64) float64 { return math.Round(x*10) / 10 }
