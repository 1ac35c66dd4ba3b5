ALTER TABLE guidelines DROP CONSTRAINT IF EXISTS guidelines_current_plan_fk;
DROP TABLE IF EXISTS plan_versions;
DROP TABLE IF EXISTS guidelines;
ALTER TABLE sessions
    DROP COLUMN IF EXISTS plan_version_id,
    DROP COLUMN IF EXISTS exam_questions,
    DROP COLUMN IF EXISTS exam_correct;
-- Dropping the learners deletes their sessions, as deleting a learner does
-- (sessions_learner_fk cascades): no session is left naming a learner that
-- is gone, which the up's foreign key would refuse, and none outlives its
-- owner as an anonymous one.
DELETE FROM sessions WHERE learner_id IS NOT NULL;
ALTER TABLE sessions DROP CONSTRAINT IF EXISTS sessions_learner_fk;
DROP TABLE IF EXISTS learners;
