package scenario

import (
	"slices"
	"strings"

	"github.com/tutord/tutord/internal/yamldoc"
)

// maxIssues caps the issues reported for one file.
const maxIssues = 50

// Issue is one problem found in a scenario file: its file, line, field path
// (e.g. turns[2].expect.state.question_phase) and message.
type Issue = yamldoc.Issue

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

// asError returns the issues of a file as an *Error, or nil when there are
// none.
func asError(is *yamldoc.Issues) error {
	list, _ := yamldoc.Sorted(is)
	if len(list) == 0 {
		return nil
	}
	return &Error{Issues: list}
}

// FilesOf returns the files that issues are about, each once, in order.
func FilesOf(issues []Issue) []string {
	var files []string
	for _, is := range issues {
		if !slices.Contains(files, is.File) {
			files = append(files, is.File)
		}
	}
	return files
}
