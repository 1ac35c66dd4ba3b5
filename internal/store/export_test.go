package store

import (
	"context"
	"time"

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

// WriteBatch commits turns as one group-commit batch and returns each
// turn's version and error.
func (s *Store) WriteBatch(ctx context.Context, turns []Turn) ([]int64, []error) {
	batch := make([]*pendingTurn, len(turns))
	for i, t := range turns {
		batch[i] = &pendingTurn{turn: t}
	}
	s.writeBatch(ctx, batch)
	versions, errs := make([]int64, len(turns)), make([]error, len(turns))
	for i, p := range batch {
		versions[i], errs[i] = p.version, p.err
	}
	return versions, errs
}

// EncodeLogs is encodeLogs, for the tests of its JSON.
var EncodeLogs = encodeLogs

// WithoutNUL is withoutNUL.
var WithoutNUL = withoutNUL

// Reads is reads.
var Reads = reads

// PurgeAgentLogsInBatches is PurgeAgentLogs with batches of batchRows
// entries, so that a test's few entries make several batches.
func (s *Store) PurgeAgentLogsInBatches(ctx context.Context, cutoff time.Time, batchRows int64) (PurgedLogs, error) {
	return s.purgeAgentLogs(ctx, cutoff, batchRows)
}

// PurgeOverlap is purgeOverlap.
const PurgeOverlap = purgeOverlap

// Unreachable is unreachable, for its table test.
var Unreachable = unreachable

// InterpretError is interpretError, for its table test.
var InterpretError = interpretError

// DB returns the store's DBTX: in InTx, the transaction's. Tests run their
// own statements on it.
func (s *Store) DB() DBTX { return s.db }
