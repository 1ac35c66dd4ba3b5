-- Sessions: the state document (jsonb, compare-and-swap on state_version)
-- plus the summary columns that lists and report cards read without
-- parsing the document.
CREATE TABLE sessions (
    id                 uuid PRIMARY KEY,
    learner_id         uuid,
    mode               text NOT NULL CHECK (mode IN ('teach_me', 'clarify_doubts', 'exam')),
    guideline_id       uuid,
    subject            text,
    topic_name         text,
    state_json         jsonb NOT NULL,
    state_version      bigint NOT NULL DEFAULT 1,
    message_count      integer NOT NULL DEFAULT 0,
    turn_count         integer NOT NULL DEFAULT 0,
    is_paused          boolean NOT NULL DEFAULT false,
    is_complete        boolean NOT NULL DEFAULT false,
    current_step       integer NOT NULL DEFAULT 1,
    total_steps        integer NOT NULL DEFAULT 0,
    mastery            double precision NOT NULL DEFAULT 0,
    coverage           double precision NOT NULL DEFAULT 0,
    exam_score         integer,
    exam_total         integer,
    concepts_covered   text[] NOT NULL DEFAULT '{}',
    concepts_discussed text[] NOT NULL DEFAULT '{}',
    mastery_by_concept jsonb NOT NULL DEFAULT '{}',
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now(),
    completed_at       timestamptz
) WITH (fillfactor = 80); -- room for HOT updates: a turn rewrites the row

-- Large documents compress better and faster with lz4 than with pglz.
ALTER TABLE sessions ALTER COLUMN state_json SET COMPRESSION lz4;

-- Indexes use created_at, never updated_at, so that a turn's UPDATE touches
-- no indexed column and stays a HOT update.
CREATE INDEX sessions_learner_created ON sessions (learner_id, created_at DESC, id DESC);
CREATE INDEX sessions_learner_guideline ON sessions (learner_id, guideline_id, created_at DESC);
CREATE INDEX sessions_learner_subject ON sessions (learner_id, subject, created_at DESC, id DESC);
-- One paused session per learner and subtopic (the reference's rule).
CREATE UNIQUE INDEX sessions_one_paused_per_learner_guideline
    ON sessions (learner_id, guideline_id) WHERE is_paused;

-- The conversation, append-only, one row per message; the state document
-- keeps only a short window, so a turn writes the same bytes at turn 500 as
-- at turn 5.
CREATE TABLE session_messages (
    session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    seq        integer NOT NULL,
    role       text NOT NULL CHECK (role IN ('teacher', 'student')),
    content    text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (session_id, seq)
);

-- One row per committed turn: the response the client got, so that a retry
-- with the same client turn id gets it again instead of a second turn.
CREATE TABLE session_turns (
    session_id     uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    version        bigint NOT NULL, -- the state_version this turn produced
    client_turn_id text,
    response       json NOT NULL, -- json, not jsonb: a retry gets the same bytes
    created_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (session_id, version)
);
CREATE UNIQUE INDEX session_turns_client_turn_id
    ON session_turns (session_id, client_turn_id) WHERE client_turn_id IS NOT NULL;

-- The trace of each turn: orchestrator events and one row per agent call.
CREATE TABLE agent_logs (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    session_id    uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    turn_id       text NOT NULL,
    agent         text NOT NULL,
    event         text NOT NULL,
    provider      text,
    model         text,
    latency_ms    integer,
    input_tokens  integer,
    output_tokens integer,
    cached_tokens integer,
    cost_usd      double precision,
    input_summary text,
    prompt        text,
    output        jsonb,
    reasoning     text,
    error         text,
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX agent_logs_session ON agent_logs (session_id, id);
