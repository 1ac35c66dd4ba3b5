-- The learners deleted (DELETE /auth/admin/user), by the SHA-256 of their
-- identity provider's subject, so that a token signed in before the
-- deletion, still valid for a while, does not make the account again (an
-- empty one, or with the email of the sign-in) on its next request. A
-- later sign-in makes a new account. Only the hash and the time are kept.
CREATE TABLE deleted_learners (
    subject_sha256 bytea PRIMARY KEY,
    deleted_at     timestamptz NOT NULL
);
