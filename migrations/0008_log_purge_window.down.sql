DROP TABLE log_purges;
DROP INDEX agent_logs_created;
DROP INDEX session_turns_created;
