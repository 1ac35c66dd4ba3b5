// Package report writes an evaluation run as JSON (complete and
// machine-readable), JUnit XML (one test case per scenario, for CI), a
// Markdown summary and one self-contained HTML page with inline SVG
// charts; and compares two JSON reports for regressions.
package report

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/tutord/tutord/internal/eval/runner"
	"github.com/tutord/tutord/internal/eval/scenario"
)

// Report is a run of a suite.
type Report struct {
	Tool string `json:"tool"`
	// Suite names the suite: its directory or file.
	Suite     string    `json:"suite"`
	URL       string    `json:"url"`
	StartedAt time.Time `json:"started_at"`
	Seed      uint64    `json:"seed"`
	// Concurrency is how many scenarios ran at once: what the run asked
	// for, but 1 with one given token (runner.Config.Parallelism).
	Concurrency int `json:"concurrency"`
	// Auth says how the learners authenticated: minted tokens, one given
	// token, or anonymous.
	Auth    string         `json:"auth"`
	Summary runner.Summary `json:"summary"`
	// Judge says whether the judge-model dimensions were scored.
	Judge Judge `json:"judge"`
	// Invalid lists the problems of the scenario files left out.
	Invalid   []scenario.Issue `json:"invalid"`
	Scenarios []runner.Result  `json:"scenarios"`
}

// Judge is the status of the judge-model dimensions.
type Judge struct {
	Status string `json:"status"` // scored or skipped
	Reason string `json:"reason,omitempty"`
}

// Tool is the Tool of reports.
const Tool = "tutord eval"

// Failed reports whether the run has a failed or errored scenario or an
// invalid scenario file.
func (r *Report) Failed() bool {
	return r.Summary.Failed > 0 || r.Summary.Errors > 0 || len(r.Invalid) > 0
}

// InvalidFiles returns the scenario files left out for their problems,
// each once.
func (r *Report) InvalidFiles() []string { return scenario.FilesOf(r.Invalid) }

// Compact returns the report without the scenarios' transcripts: totals,
// metrics and each scenario's outcome.
func (r *Report) Compact() *Report {
	c := *r
	c.Scenarios = make([]runner.Result, len(r.Scenarios))
	for i, s := range r.Scenarios {
		s.Turns = nil
		c.Scenarios[i] = s
	}
	return &c
}

// WriteJSON writes the report as indented JSON.
func WriteJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// ReadJSON reads a report written by WriteJSON.
func ReadJSON(name string) (*Report, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: not a report: %w", name, err)
	}
	if r.Tool != Tool {
		return nil, fmt.Errorf("%s: not a report of %s", name, Tool)
	}
	return &r, nil
}
