CREATE INDEX agent_logs_session ON agent_logs (session_id, id);
ALTER TABLE agent_logs DROP CONSTRAINT agent_logs_pkey;
ALTER TABLE agent_logs ADD PRIMARY KEY (id);
