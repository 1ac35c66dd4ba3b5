-- Which provider and model each component uses; no row means the built-in
-- rules engine. API keys never live here: they come from the environment.
CREATE TABLE llm_config (
    component_key     text PRIMARY KEY CHECK (component_key IN
        ('tutor', 'eval_evaluator', 'eval_simulator', 'safety', 'exam_generator', 'exam_evaluator', 'welcome')),
    provider          text NOT NULL CHECK (provider IN ('openai', 'anthropic', 'google', 'openai-compatible', 'rules')),
    model_id          text NOT NULL,
    description       text,
    reasoning_effort  text NOT NULL DEFAULT '',
    temperature       double precision CHECK (temperature BETWEEN 0 AND 2),
    max_output_tokens integer NOT NULL DEFAULT 0 CHECK (max_output_tokens >= 0),
    updated_at        timestamptz NOT NULL DEFAULT now(),
    updated_by        text
);

-- Every model call, written as soon as it completes, outside any turn's
-- transaction: spend on a turn that is later discarded still counts.
CREATE TABLE llm_usage (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    learner_id    uuid REFERENCES learners (id) ON DELETE CASCADE,
    session_id    uuid,
    component     text NOT NULL,
    provider      text NOT NULL,
    model         text NOT NULL,
    attempts      integer NOT NULL,
    latency_ms    integer NOT NULL,
    input_tokens  integer NOT NULL,
    output_tokens integer NOT NULL,
    cached_tokens integer NOT NULL,
    cost_usd      double precision NOT NULL,
    priced        boolean NOT NULL,
    error_kind    text,
    prompt_hash   text,
    created_at    timestamptz NOT NULL
);
CREATE INDEX llm_usage_learner_time ON llm_usage (learner_id, created_at);
CREATE INDEX llm_usage_session ON llm_usage (session_id);
