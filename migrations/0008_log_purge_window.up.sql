-- The agent-log purge (store.PurgeAgentLogs) reads only the entries
-- written since the cutoff of its last run, instead of both tables whole
-- every hour: BRIN indexes find the blocks by creation time (rows are
-- written roughly in time order, and a BRIN entry costs a turn next to
-- nothing), and log_purges keeps each table's last cutoff. Building them
-- holds off writes to the two tables (turn commits) for one sequential
-- read of each: a BRIN build neither sorts nor writes much (0.6–0.9 s
-- for a million turns, 1.5 GB, mostly in the page cache).
CREATE INDEX session_turns_created ON session_turns USING brin (created_at);
CREATE INDEX agent_logs_created ON agent_logs USING brin (created_at);

CREATE TABLE log_purges (
    table_name    text PRIMARY KEY,
    purged_before timestamptz NOT NULL
);
