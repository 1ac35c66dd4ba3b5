-- Turns' entries go back to agent_logs rows, in order, before the column
-- that held them is dropped.
INSERT INTO agent_logs (session_id, turn_id, agent, event, provider, model, latency_ms,
    input_tokens, output_tokens, cached_tokens, cost_usd, input_summary, prompt, output,
    reasoning, error, created_at)
SELECT session_id, turn_id, agent, event, provider, model, latency_ms,
    input_tokens, output_tokens, cached_tokens, cost_usd, input_summary, prompt, output,
    reasoning, error, created_at
FROM agent_log_entries WHERE turn_version > 0
ORDER BY session_id, turn_version, seq;

DROP VIEW agent_log_entries;
ALTER TABLE sessions ALTER COLUMN state_json TYPE jsonb USING state_json::jsonb,
    ALTER COLUMN state_json SET COMPRESSION lz4;
ALTER TABLE session_turns DROP COLUMN logs;
