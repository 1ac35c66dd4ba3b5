ALTER TABLE guidelines DROP CONSTRAINT IF EXISTS guidelines_current_plan_fk;
DROP TABLE IF EXISTS plan_versions;
DROP TABLE IF EXISTS guidelines;
ALTER TABLE sessions
    DROP COLUMN IF EXISTS plan_version_id,
    DROP COLUMN IF EXISTS exam_questions,
    DROP COLUMN IF EXISTS exam_correct;
ALTER TABLE sessions DROP CONSTRAINT IF EXISTS sessions_learner_fk;
DROP TABLE IF EXISTS learners;
