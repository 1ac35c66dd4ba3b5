package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// PurgedLogs is what PurgeAgentLogs removed.
type PurgedLogs struct {
	Turns int64 // turn records whose trace was cleared
	Rows  int64 // agent_logs rows deleted
}

// purgeBatchRows is about how many entries one statement of a purge
// removes: its locks are held only until that statement commits.
const purgeBatchRows = 2000

// purgeOverlap is how far before its last cutoff a purge looks again: a
// turn's entries carry the time it started, so a turn committed just after
// a purge can hold entries older than that purge's cutoff, and replicas'
// clocks differ by a little.
const purgeOverlap = time.Hour

// PurgeAgentLogs removes the agent-log entries written before cutoff: the
// trace of each turn committed before it, whose record stays (a retry of
// the turn still gets its response), and the agent_logs rows created
// before it. Listings and exports then simply have fewer entries.
//
// It reads only the entries written since the cutoff of its last run on
// the database (less purgeOverlap): the tables' BRIN indexes on created_at
// find them, and log_purges keeps the last cutoff. (tutord writes entries
// with the time of their turn, so none lands behind a past cutoff; rows
// copied in with older times are not seen.) It works in short
// statements, each its own transaction, oldest entries first, so a large
// purge holds no long locks; one that fails part-way keeps what it
// removed, and the next carries on from its last cutoff.
func (s *Store) PurgeAgentLogs(ctx context.Context, cutoff time.Time) (PurgedLogs, error) {
	return s.purgeAgentLogs(ctx, cutoff, purgeBatchRows)
}

func (s *Store) purgeAgentLogs(ctx context.Context, cutoff time.Time, batchRows int64) (PurgedLogs, error) {
	var p PurgedLogs
	var err error
	p.Turns, err = s.purgeTable(ctx, "session_turns", "logs IS NOT NULL",
		`UPDATE session_turns SET logs = NULL WHERE logs IS NOT NULL AND created_at >= $1 AND created_at < $2`, cutoff, batchRows)
	if err != nil {
		return p, err
	}
	p.Rows, err = s.purgeTable(ctx, "agent_logs", "true",
		`DELETE FROM agent_logs WHERE created_at >= $1 AND created_at < $2`, cutoff, batchRows)
	return p, err
}

// purgeTable runs stmt, which purges the entries of table created from $1
// to before $2, on consecutive spans of time from the table's last cutoff
// to cutoff, then records cutoff as its last. A span is as long as about
// batchRows entries were written in: it halves after a span that held more
// than twice that, and doubles after one that held less than half. A
// table never purged starts at its oldest entry that has something to
// purge (kept: a filter on the table).
func (s *Store) purgeTable(ctx context.Context, table, kept, stmt string, cutoff time.Time, batchRows int64) (int64, error) {
	var from *time.Time
	err := s.db.QueryRow(ctx, `SELECT purged_before FROM log_purges WHERE table_name = $1`, table).Scan(&from)
	if errors.Is(err, pgx.ErrNoRows) {
		// The first purge reads the table whole, once.
		err = s.db.QueryRow(ctx, `SELECT min(created_at) FROM `+table+` WHERE `+kept).Scan(&from)
	} else if from != nil {
		*from = from.Add(-purgeOverlap)
	}
	if err != nil {
		return 0, interpretError("purge agent logs: start of "+table, err)
	}
	var n int64
	for step := time.Hour; from != nil && from.Before(cutoff); {
		to := from.Add(step)
		if to.After(cutoff) {
			to = cutoff
		}
		tag, err := s.db.Exec(ctx, stmt, *from, to)
		if err != nil {
			return n, interpretError(fmt.Sprintf("purge agent logs: %s from %s", table, from.Format(time.RFC3339)), err)
		}
		n += tag.RowsAffected()
		switch purged := tag.RowsAffected(); {
		case purged > 2*batchRows && step > time.Second:
			step /= 2
		case purged < batchRows/2 && step < maxPurgeStep:
			step *= 2
		}
		*from = to
	}
	_, err = s.db.Exec(ctx, `
INSERT INTO log_purges (table_name, purged_before) VALUES ($1, $2)
ON CONFLICT (table_name) DO UPDATE SET purged_before = greatest(log_purges.purged_before, excluded.purged_before)`, table, cutoff)
	return n, interpretError("purge agent logs: record the purge of "+table, err)
}

// maxPurgeStep bounds the span of time one statement of a purge covers,
// so that a few empty spans do not make the next one cover years.
const maxPurgeStep = 7 * 24 * time.Hour
