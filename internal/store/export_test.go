package store

import (
	"context"

	"github.com/google/uuid"
)

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

// CommitGroup commits turns as one group, as CommitTurn does with turns
// that queue up behind other commits, and returns each one's outcome.
func (s *Store) CommitGroup(ctx context.Context, turns []Turn) ([]int64, []error) {
	group := make([]*queuedTurn, len(turns))
	for i, t := range turns {
		args, err := s.turnArgs(t)
		if err != nil {
			panic(err)
		}
		group[i] = &queuedTurn{ctx: ctx, turn: t, args: args}
	}
	s.commitGroup(group)
	versions := make([]int64, len(turns))
	errs := make([]error, len(turns))
	for i, q := range group {
		versions[i], errs[i] = q.version, q.err
	}
	return versions, errs
}

// MaxFlushers is how many commits may be under way before turns queue.
const MaxFlushers = maxFlushers
