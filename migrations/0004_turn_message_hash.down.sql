ALTER TABLE session_turns DROP COLUMN IF EXISTS message_sha256;
