package curriculum

import (
	"fmt"
	"strings"

	"github.com/tutord/tutord/internal/yamldoc"
)

// maxIssues caps the issues reported for one file: past it, further issues
// are counted but not listed.
const maxIssues = yamldoc.DefaultMaxIssues

// Issue is one problem found in a curriculum file: its file, line, field
// path (e.g. subtopics[0].questions[3].difficulty) and message.
type Issue = yamldoc.Issue

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

// asError returns the issues of the files as a *ValidationError, or nil
// when there are none.
func asError(groups ...*yamldoc.Issues) error {
	list, omitted := yamldoc.Sorted(groups...)
	if len(list) == 0 {
		return nil
	}
	return &ValidationError{Issues: list, Omitted: omitted}
}
