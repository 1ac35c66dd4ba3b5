DROP TABLE IF EXISTS agent_logs;
DROP TABLE IF EXISTS session_turns;
DROP TABLE IF EXISTS session_messages;
DROP TABLE IF EXISTS sessions;
