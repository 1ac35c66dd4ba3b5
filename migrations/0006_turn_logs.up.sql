-- A turn's trace moves into its turn record, and the state document is
-- stored as json. Both cut what the database does per turn, the cost that
-- bounds tutord's throughput:
--
-- * A turn wrote five or more agent_logs rows, each with a heap insert, an
--   index entry and a foreign-key check. Its entries are now one json array
--   in session_turns, written in the same row as the response. agent_logs
--   keeps the entries written outside turns (at session creation) and those
--   of turns committed before this migration; agent_log_entries reads both.
-- * Nothing queries inside the state document (the summary columns beside
--   it are there for that), so parsing it into jsonb on every commit was
--   wasted work. json keeps the text as sent, after checking its syntax.
ALTER TABLE session_turns ADD COLUMN logs json COMPRESSION lz4;

-- A change of type resets the column's compression: lz4 again (see 0001).
ALTER TABLE sessions ALTER COLUMN state_json TYPE json,
    ALTER COLUMN state_json SET COMPRESSION lz4;

-- Every agent-log entry of a session, in order: the agent_logs rows (by id),
-- then each turn's entries (by version, then position in the turn).
CREATE VIEW agent_log_entries AS
SELECT session_id, 0::bigint AS turn_version, id AS seq, turn_id, agent, event, provider, model,
    latency_ms, input_tokens, output_tokens, cached_tokens, cost_usd, input_summary, prompt,
    output, reasoning, error, created_at
FROM agent_logs
UNION ALL
SELECT t.session_id, t.version, e.seq, e.turn_id, e.agent, e.event, e.provider, e.model,
    e.latency_ms, e.input_tokens, e.output_tokens, e.cached_tokens, e.cost_usd, e.input_summary, e.prompt,
    e.output::jsonb, e.reasoning, e.error, e.created_at
FROM session_turns t,
    ROWS FROM (json_to_recordset(t.logs) AS (turn_id text, agent text, event text, provider text,
        model text, latency_ms int, input_tokens int, output_tokens int, cached_tokens int,
        cost_usd double precision, input_summary text, prompt text, output json, reasoning text,
        error text, created_at timestamptz))
    WITH ORDINALITY AS e(turn_id, agent, event, provider, model, latency_ms, input_tokens,
        output_tokens, cached_tokens, cost_usd, input_summary, prompt, output, reasoning, error,
        created_at, seq)
WHERE t.logs IS NOT NULL;
