-- A turn committed under a client turn id keeps a SHA-256 of the learner's
-- message, so that the same id sent again with another message is refused
-- instead of answered with the first message's reply.
ALTER TABLE session_turns ADD COLUMN message_sha256 bytea;
