package curriculum

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// maxIssues caps the issues reported for one file: past it, further issues
// are counted but not listed.
const maxIssues = 100

// Issue is one problem found in a curriculum file.
type Issue struct {
	File    string
	Line    int    // 1-based; 0 when unknown
	Field   string // the field path, e.g. subtopics[0].questions[3].difficulty; empty for the whole file
	Message string
}

// String formats the issue as file:line: field: message.
func (i Issue) String() string {
	var b strings.Builder
	b.WriteString(i.File)
	if i.Line > 0 {
		fmt.Fprintf(&b, ":%d", i.Line)
	}
	b.WriteString(": ")
	if i.Field != "" {
		b.WriteString(i.Field)
		b.WriteString(": ")
	}
	b.WriteString(i.Message)
	return b.String()
}

// ValidationError lists the problems found in one or more curriculum files,
// ordered by file and line.
type ValidationError struct {
	Issues []Issue
	// Omitted counts the issues left out once a file reached the cap.
	Omitted int
}

// Error lists the issues, one per line.
func (e *ValidationError) Error() string {
	lines := make([]string, 0, len(e.Issues)+1)
	for _, i := range e.Issues {
		lines = append(lines, i.String())
	}
	if e.Omitted > 0 {
		lines = append(lines, fmt.Sprintf("(%d more not shown)", e.Omitted))
	}
	return strings.Join(lines, "\n")
}

// issues collects the issues of one file.
type issues struct {
	file    string
	list    []Issue
	omitted int
	fields  map[string]bool // fields with an issue
}

func (is *issues) add(line int, field, format string, args ...any) {
	if is.fields == nil {
		is.fields = map[string]bool{}
	}
	is.fields[field] = true
	if len(is.list) >= maxIssues {
		is.omitted++
		return
	}
	is.list = append(is.list, Issue{File: is.file, Line: line, Field: field, Message: fmt.Sprintf(format, args...)})
}

// asError returns the collected issues as a *ValidationError, or nil when
// there are none.
func asError(groups ...*issues) error {
	var e ValidationError
	for _, g := range groups {
		e.Issues = append(e.Issues, g.list...)
		e.Omitted += g.omitted
	}
	if len(e.Issues) == 0 {
		return nil
	}
	slices.SortStableFunc(e.Issues, func(a, b Issue) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
	return &e
}

// reported reports whether there is an issue with the field at path or with
// a field that holds it.
func (is *issues) reported(path string) bool {
	for {
		if is.fields[path] {
			return true
		}
		if path == "" {
			return false
		}
		path = path[:max(strings.LastIndexAny(path, ".["), 0)]
	}
}
