package scenario

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// maxIssues caps the issues reported for one file.
const maxIssues = 50

// Issue is one problem found in a scenario file.
type Issue struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`  // 1-based; 0 when unknown
	Field   string `json:"field,omitempty"` // e.g. turns[2].expect.state.question_phase; empty for the whole file
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

// Error lists the problems of a scenario file, ordered by line.
type Error struct {
	Issues []Issue
}

// Error lists the issues, one per line.
func (e *Error) Error() string {
	lines := make([]string, len(e.Issues))
	for i, is := range e.Issues {
		lines[i] = is.String()
	}
	return strings.Join(lines, "\n")
}

// issues collects the issues of one file.
type issues struct {
	file   string
	list   []Issue
	fields map[string]bool
}

func (is *issues) add(line int, field, format string, args ...any) {
	if is.fields == nil {
		is.fields = map[string]bool{}
	}
	is.fields[field] = true
	if len(is.list) < maxIssues {
		is.list = append(is.list, Issue{File: is.file, Line: line, Field: field, Message: fmt.Sprintf(format, args...)})
	}
}

// reported reports whether the field at path, or one that holds it, has an
// issue already.
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

func (is *issues) err() error {
	if len(is.list) == 0 {
		return nil
	}
	list := slices.Clone(is.list)
	slices.SortStableFunc(list, func(a, b Issue) int { return cmp.Compare(a.Line, b.Line) })
	return &Error{Issues: list}
}
