-- A usage record says whether its token counts are tutord's estimate
-- rather than the provider's report: a stream stopped before OpenAI's last
-- chunk, a stream from a server that ignores include_usage, or an attempt
-- sent and then timed out or cancelled. A column with a constant default
-- is added without rewriting the table.
ALTER TABLE llm_usage ADD COLUMN estimated boolean NOT NULL DEFAULT false;
