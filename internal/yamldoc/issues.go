// Package yamldoc reads hand-written YAML files into Go values by their
// yaml struct tags, and reports every problem it finds — not just the first
// — with the file, the line and the path of the field, so that an author
// can fix a file in one pass. Curriculum files and evaluation scenarios are
// read with it.
package yamldoc

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// DefaultMaxIssues is how many issues Issues lists for one file when its
// Max is zero.
const DefaultMaxIssues = 100

// Issue is one problem found in a file.
type Issue struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`  // 1-based; 0 when unknown
	Field   string `json:"field,omitempty"` // e.g. subtopics[0].questions[3].difficulty; empty for the whole file
	Message string `json:"message"`
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

// Issues collects the issues of one file.
type Issues struct {
	File string
	// Max caps the issues listed; past it, further issues are counted in
	// Omitted. Zero means DefaultMaxIssues.
	Max     int
	List    []Issue
	Omitted int

	fields map[string]bool // fields with an issue
}

// Add records an issue with the field at path (empty for the whole file).
func (is *Issues) Add(line int, path, format string, args ...any) {
	if is.fields == nil {
		is.fields = map[string]bool{}
	}
	is.fields[path] = true
	if len(is.List) >= cmp.Or(is.Max, DefaultMaxIssues) {
		is.Omitted++
		return
	}
	is.List = append(is.List, Issue{File: is.File, Line: line, Field: path, Message: fmt.Sprintf(format, args...)})
}

// Reported reports whether there is an issue with the field at path or
// with a field that holds it.
func (is *Issues) Reported(path string) bool {
	for {
		if is.fields[path] {
			return true
		}
		if path == "" {
			return false
		}
		path = parent(path)
	}
}

// Sorted returns the issues of all groups ordered by file and line (issues
// of one line keep the order they were found in), and how many were
// omitted.
func Sorted(groups ...*Issues) ([]Issue, int) {
	var list []Issue
	omitted := 0
	for _, g := range groups {
		list = append(list, g.List...)
		omitted += g.Omitted
	}
	slices.SortStableFunc(list, func(a, b Issue) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
	return list, omitted
}

// parent returns the path of the field that holds the one at path:
// "a.b[2]" → "a.b" → "a" → "".
func parent(path string) string {
	return path[:max(strings.LastIndexAny(path, ".["), 0)]
}
