ALTER TABLE llm_usage DROP COLUMN estimated;
