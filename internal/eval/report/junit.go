package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tutord/tutord/internal/eval/runner"
)

// The JUnit XML schema as CI servers read it.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Timestamp  string          `xml:"timestamp,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Failure   *junitProblem `xml:"failure"`
	Error     *junitProblem `xml:"error"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes the report as JUnit XML: one test case per scenario
// (classname <suite>.<mode>), a failure listing its failed expectations,
// an error when it could not be played; invalid scenario files are test
// cases with an error each.
func WriteJUnit(w io.Writer, r *Report) error {
	name := suiteName(r.Suite)
	s := junitSuite{
		Name: name, Time: seconds(r.Summary.Duration), Timestamp: r.StartedAt.UTC().Format("2006-01-02T15:04:05"),
		Properties: []junitProperty{
			{"url", r.URL}, {"seed", strconv.FormatUint(r.Seed, 10)}, {"concurrency", strconv.Itoa(r.Concurrency)},
			{"auth", r.Auth}, {"judge", r.Judge.Status},
		},
	}
	for _, res := range r.Scenarios {
		c := junitCase{Name: res.Name, Classname: name + "." + res.Mode, Time: seconds(res.Duration), File: res.File}
		switch res.Status {
		case runner.Failed:
			lines := make([]string, len(res.Failures))
			for i, f := range res.Failures {
				lines[i] = f.String()
			}
			c.Failure = &junitProblem{Message: fmt.Sprintf("%d expectation(s) failed", len(res.Failures)), Type: "expectation", Text: strings.Join(lines, "\n")}
			s.Failures++
		case runner.Error:
			c.Error = &junitProblem{Message: res.Error, Type: "error", Text: res.Error}
			s.Errors++
		}
		if res.Status != runner.Passed {
			c.SystemOut = transcript(res)
		}
		s.Cases = append(s.Cases, c)
	}
	for _, file := range r.InvalidFiles() {
		var problems []string
		for _, is := range r.Invalid {
			if is.File == file {
				problems = append(problems, is.String())
			}
		}
		s.Cases = append(s.Cases, junitCase{
			Name: fileCaseName(r.Suite, file), Classname: name + ".invalid", Time: "0", File: file,
			Error: &junitProblem{Message: "invalid scenario file", Type: "invalid", Text: strings.Join(problems, "\n")},
		})
		s.Errors++
	}
	s.Tests = len(s.Cases)
	out := junitSuites{Name: Tool, Tests: s.Tests, Failures: s.Failures, Errors: s.Errors, Time: s.Time, Suites: []junitSuite{s}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// transcript renders a scenario's conversation as plain text.
func transcript(res runner.Result) string {
	var b strings.Builder
	for _, t := range res.Turns {
		switch {
		case t.Action != "":
			fmt.Fprintf(&b, "[%d] (%s", t.Index, t.Action)
			if t.Status != 0 {
				fmt.Fprintf(&b, " → %d", t.Status)
			}
			b.WriteString(")\n")
		case t.Learner != "":
			fmt.Fprintf(&b, "[%d] learner: %s\n", t.Index, t.Learner)
		}
		if t.Tutor != "" {
			fmt.Fprintf(&b, "[%d] tutor: %s\n", t.Index, strings.ReplaceAll(t.Tutor, "\n", " / "))
		}
		if t.Error != "" {
			fmt.Fprintf(&b, "[%d] error: %s\n", t.Index, t.Error)
		}
	}
	return b.String()
}

// suiteName names a suite by the last element of its path.
func suiteName(suite string) string {
	name := filepath.Base(strings.TrimRight(suite, "/"))
	if name == "." || name == "/" || name == "" {
		return "suite"
	}
	return strings.TrimSuffix(name, filepath.Ext(name))
}

func seconds(m runner.Millis) string {
	return strconv.FormatFloat(float64(m)/1000, 'f', 3, 64)
}

// fileCaseName names the test case of an invalid scenario file: its path
// below the suite, so that two files of one name in different directories
// are two cases, or the path as given when it is not below the suite.
func fileCaseName(suite, file string) string {
	if rel, err := filepath.Rel(suite, file); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return file
}
