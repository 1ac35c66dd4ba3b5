-- Learners, one per identity provider subject (the token's `sub`).
CREATE TABLE learners (
    id                  uuid PRIMARY KEY,
    external_id         text NOT NULL UNIQUE,
    email               text,
    phone               text,
    name                text,
    age                 integer CHECK (age BETWEEN 1 AND 120),
    grade               integer CHECK (grade BETWEEN 1 AND 12),
    board               text,
    school_name         text,
    country             text,
    time_zone           text NOT NULL DEFAULT 'UTC',
    language_level      text CHECK (language_level IN ('simple', 'standard', 'advanced')),
    preferred_examples  text[] NOT NULL DEFAULT '{}',
    about_me            text,
    onboarding_complete boolean NOT NULL DEFAULT false,
    auth_provider       text NOT NULL DEFAULT 'email' CHECK (auth_provider IN ('email', 'phone', 'google')),
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    last_login_at       timestamptz
);

-- Deleting a learner deletes every session of theirs, and with them every
-- message, turn and agent log.
ALTER TABLE sessions
    ADD CONSTRAINT sessions_learner_fk FOREIGN KEY (learner_id) REFERENCES learners (id) ON DELETE CASCADE;

-- Exam progress for listings (exam_score/exam_total are set only when an
-- exam is finished), and the plan version a session runs on.
ALTER TABLE sessions
    ADD COLUMN exam_correct integer,
    ADD COLUMN exam_questions integer,
    ADD COLUMN plan_version_id uuid;

-- A guideline is one subtopic of a curriculum: country → board → grade →
-- subject → topic → subtopic. Its teaching text is updated in place by a
-- re-import; its study plan is versioned (plan_versions).
CREATE TABLE guidelines (
    id              uuid PRIMARY KEY,
    country         text NOT NULL,
    board           text NOT NULL,
    grade           integer NOT NULL CHECK (grade BETWEEN 1 AND 12),
    subject         text NOT NULL,
    subject_key     text NOT NULL,
    topic_key       text NOT NULL,
    topic_title     text NOT NULL,
    subtopic_key    text NOT NULL,
    subtopic_title  text NOT NULL,
    key             text NOT NULL, -- subject_key/topic_key/subtopic_key
    approved        boolean NOT NULL DEFAULT true,
    guideline       jsonb NOT NULL, -- teaching approach, objectives, misconceptions, prerequisites, depth
    current_plan_id uuid,
    source_file     text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (country, board, grade, key)
);
CREATE INDEX guidelines_discovery ON guidelines (country, board, grade, subject, topic_title, subtopic_title) WHERE approved;
CREATE INDEX guidelines_key ON guidelines (key);

-- Immutable study plan versions: steps, question bank and mastery
-- parameters. Sessions refer to the version they started with.
CREATE TABLE plan_versions (
    id           uuid PRIMARY KEY,
    guideline_id uuid NOT NULL REFERENCES guidelines (id) ON DELETE CASCADE,
    version      integer NOT NULL,
    content_hash text NOT NULL,
    plan         jsonb NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (guideline_id, version)
);

ALTER TABLE guidelines
    ADD CONSTRAINT guidelines_current_plan_fk FOREIGN KEY (current_plan_id) REFERENCES plan_versions (id);
