-- Agent logs are read only by session, in order: (session_id, id) can be the
-- primary key itself, so each row costs one index entry instead of two (a
-- turn writes five or more rows).
ALTER TABLE agent_logs DROP CONSTRAINT agent_logs_pkey;
ALTER TABLE agent_logs ADD PRIMARY KEY (session_id, id);
DROP INDEX agent_logs_session;
