package store

import "github.com/google/uuid"

// ProgressQueries returns the progress queries by name, for the
// benchmark's EXPLAIN ANALYZE.
func ProgressQueries() map[string]string {
	return map[string]string{
		"report-card":       reportCardQuery,
		"subtopic-progress": subtopicProgressQuery,
		"history-page-100":  listSessionsQuery,
	}
}

// ProgressQueryArgs returns the arguments of a progress query.
func ProgressQueryArgs(name string, learner uuid.UUID) []any {
	if name == "history-page-100" {
		return []any{learner, 99 * 20, 20}
	}
	return []any{learner}
}
