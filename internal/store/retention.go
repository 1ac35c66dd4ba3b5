package store

import (
	"context"
	"fmt"
	"time"
)

// PurgedLogs is what PurgeAgentLogs removed.
type PurgedLogs struct {
	Turns int64 // turn records whose trace was cleared
	Rows  int64 // agent_logs rows deleted
}

// purgeBatchBlocks is how many heap blocks (8 kB pages) one statement of a
// purge covers: at most a few thousand rows, whose locks are held only
// until that statement commits.
const purgeBatchBlocks = 64

// PurgeAgentLogs removes the agent-log entries written before cutoff: the
// trace of each turn committed before it, whose record stays (a retry of
// the turn still gets its response), and the agent_logs rows created
// before it. Listings and exports then simply have fewer entries. It works
// in short statements, each its own transaction, so a large purge holds no
// long locks; one that fails part-way keeps what it removed, and the next
// carries on.
func (s *Store) PurgeAgentLogs(ctx context.Context, cutoff time.Time) (PurgedLogs, error) {
	return s.purgeAgentLogs(ctx, cutoff, purgeBatchBlocks)
}

func (s *Store) purgeAgentLogs(ctx context.Context, cutoff time.Time, batchBlocks int64) (PurgedLogs, error) {
	var p PurgedLogs
	var err error
	p.Turns, err = s.purgeByBlocks(ctx, "session_turns",
		`UPDATE session_turns SET logs = NULL WHERE logs IS NOT NULL AND created_at < $1`, cutoff, batchBlocks)
	if err != nil {
		return p, err
	}
	p.Rows, err = s.purgeByBlocks(ctx, "agent_logs",
		`DELETE FROM agent_logs WHERE created_at < $1`, cutoff, batchBlocks)
	return p, err
}

// purgeByBlocks runs stmt, whose $1 is cutoff, on table batchBlocks heap
// blocks at a time and returns the rows it changed. Neither table has an
// index on created_at (every turn would pay for one), so each batch is a
// TID range scan: one sequential pass over the table in all, where
// batches of "the first N matching rows" would each scan again the rows
// the batches before them had already purged. Rows written after the
// purge started lie beyond its last block; they are newer than cutoff.
func (s *Store) purgeByBlocks(ctx context.Context, table, stmt string, cutoff time.Time, batchBlocks int64) (int64, error) {
	var blocks int64
	err := s.db.QueryRow(ctx, `SELECT pg_relation_size($1::regclass) / current_setting('block_size')::bigint`, table).Scan(&blocks)
	if err != nil {
		return 0, interpretError("purge agent logs: size of "+table, err)
	}
	stmt += ` AND ctid >= format('(%s,0)', $2::bigint)::tid AND ctid < format('(%s,0)', $3::bigint)::tid`
	var n int64
	for from := int64(0); from < blocks; from += batchBlocks {
		tag, err := s.db.Exec(ctx, stmt, cutoff, from, from+batchBlocks)
		if err != nil {
			return n, interpretError(fmt.Sprintf("purge agent logs: %s blocks %d-%d", table, from, from+batchBlocks-1), err)
		}
		n += tag.RowsAffected()
	}
	return n, nil
}
