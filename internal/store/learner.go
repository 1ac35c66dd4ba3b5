package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/tutord/tutord/internal/llm"
)

// Learner is a learner's profile. Text and number fields are nil until set.
type Learner struct {
	ID                 uuid.UUID
	ExternalID         string // the identity provider's subject (the token's sub)
	Email              *string
	Phone              *string
	Name               *string
	Age                *int
	Grade              *int
	Board              *string
	SchoolName         *string
	Country            *string
	TimeZone           string // IANA name, "UTC" by default
	LanguageLevel      *string
	PreferredExamples  []string
	AboutMe            *string
	OnboardingComplete bool
	AuthProvider       string // email, phone or google
	CreatedAt          time.Time
	UpdatedAt          time.Time
	LastLoginAt        *time.Time
}

const learnerColumns = `id, external_id, email, phone, name, age, grade, board, school_name, country, time_zone,
    language_level, preferred_examples, about_me, onboarding_complete, auth_provider, created_at, updated_at, last_login_at`

func scanLearner(row scanner) (Learner, error) {
	var l Learner
	err := row.Scan(&l.ID, &l.ExternalID, &l.Email, &l.Phone, &l.Name, &l.Age, &l.Grade, &l.Board, &l.SchoolName,
		&l.Country, &l.TimeZone, &l.LanguageLevel, &l.PreferredExamples, &l.AboutMe, &l.OnboardingComplete,
		&l.AuthProvider, &l.CreatedAt, &l.UpdatedAt, &l.LastLoginAt)
	return l, err
}

// EnsureLearner returns the learner with the given external id, creating
// a bare one on first use.
func (s *Store) EnsureLearner(ctx context.Context, externalID string) (Learner, error) {
	return s.SignedInLearner(ctx, externalID, time.Time{})
}

// SignedInLearner is EnsureLearner for a caller who signed in at signedIn
// (their token's auth_time, or its iat): a learner deleted at or after that
// time is not made again, and the error is ErrLearnerGone. A token of the
// deleted account, still valid for a while, must not bring it back; a later
// sign-in makes a new one. A zero signedIn is not checked.
func (s *Store) SignedInLearner(ctx context.Context, externalID string, signedIn time.Time) (Learner, error) {
	// DO UPDATE (of nothing) rather than DO NOTHING: RETURNING then gives
	// the row whether this statement or a concurrent one created it.
	const q = `
WITH found AS (
    SELECT ` + learnerColumns + ` FROM learners WHERE external_id = $2
), made AS (
    INSERT INTO learners AS l (id, external_id)
    SELECT $1, $2 WHERE NOT EXISTS (SELECT FROM found) AND NOT ` + deletedSince + `
    ON CONFLICT (external_id) DO UPDATE SET external_id = l.external_id
    RETURNING ` + learnerColumns + `
)
SELECT * FROM found UNION ALL SELECT * FROM made`
	l, err := scanLearner(s.db.QueryRow(ctx, q, uuid.New(), externalID, nullTime(signedIn)))
	if errors.Is(err, pgx.ErrNoRows) {
		return Learner{}, fmt.Errorf("ensure learner: %w", ErrLearnerGone)
	}
	return l, interpretError("ensure learner", err)
}

// deletedSince is true when the learner of subject $2 was deleted at or
// after $3 (see SignedInLearner), false when $3 is null.
const deletedSince = `coalesce((SELECT deleted_at >= $3 FROM deleted_learners WHERE subject_sha256 = sha256(convert_to($2, 'UTF8'))), false)`

// nullTime is t, or nil (NULL) when t is zero.
func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t
}

// LearnerByExternalID returns the learner with the given external id, or ErrNotFound.
func (s *Store) LearnerByExternalID(ctx context.Context, externalID string) (Learner, error) {
	l, err := scanLearner(s.db.QueryRow(ctx, `SELECT `+learnerColumns+` FROM learners WHERE external_id = $1`, externalID))
	return l, interpretError("get learner", err)
}

// GetLearner returns the learner with the given id, or ErrNotFound.
func (s *Store) GetLearner(ctx context.Context, id uuid.UUID) (Learner, error) {
	l, err := scanLearner(s.db.QueryRow(ctx, `SELECT `+learnerColumns+` FROM learners WHERE id = $1`, id))
	return l, interpretError("get learner", err)
}

// SignIn is what a sign-in tells about a learner.
type SignIn struct {
	ExternalID   string
	Email        string
	Phone        string
	Name         string
	AuthProvider string
	Now          time.Time
	// SignedInAt is when the identity signed in (the ID token's auth_time
	// or iat): a learner deleted since is not made again (see
	// SignedInLearner). Zero is not checked.
	SignedInAt time.Time
}

// SyncLearner records a sign-in: a new learner is created with the
// identity's email, phone, name and provider; a known one gets its
// last-login time, and its email and phone only where they are still empty.
// A learner that has never signed in (made by EnsureLearner, when a call
// with a token came before the first sync) is new to this: it also takes
// the identity's provider, and its name unless it has one.
func (s *Store) SyncLearner(ctx context.Context, in SignIn) (Learner, error) {
	const q = `
INSERT INTO learners AS l (id, external_id, email, phone, name, auth_provider, created_at, updated_at, last_login_at)
SELECT $1, $2, $4, $5, $6, $7, $8, $8, $8
WHERE EXISTS (SELECT FROM learners WHERE external_id = $2) OR NOT ` + deletedSince + `
ON CONFLICT (external_id) DO UPDATE SET
    last_login_at = EXCLUDED.last_login_at,
    email = coalesce(l.email, EXCLUDED.email),
    phone = coalesce(l.phone, EXCLUDED.phone),
    name = CASE WHEN l.last_login_at IS NULL THEN coalesce(l.name, EXCLUDED.name) ELSE l.name END,
    auth_provider = CASE WHEN l.last_login_at IS NULL THEN EXCLUDED.auth_provider ELSE l.auth_provider END,
    updated_at = EXCLUDED.updated_at
RETURNING ` + learnerColumns
	provider := in.AuthProvider
	if provider == "" {
		provider = "email"
	}
	l, err := scanLearner(s.db.QueryRow(ctx, q, uuid.New(), in.ExternalID, nullTime(in.SignedInAt), nullString(in.Email),
		nullString(in.Phone), nullString(in.Name), provider, timeOrNow(in.Now)))
	if errors.Is(err, pgx.ErrNoRows) {
		return Learner{}, fmt.Errorf("sync learner: %w", ErrLearnerGone)
	}
	return l, interpretError("sync learner", err)
}

// ProfileUpdate holds the profile fields to write; nil fields are left as
// they are (a field cannot be cleared, as in the reference).
type ProfileUpdate struct {
	Name              *string
	Age               *int
	Grade             *int
	Board             *string
	SchoolName        *string
	AboutMe           *string
	Country           *string
	TimeZone          *string
	LanguageLevel     *string
	PreferredExamples []string // nil leaves them
	Now               time.Time
}

// UpdateProfile writes the non-nil fields of u. Once name, age, grade and
// board are all set, onboarding is complete, and it is never reset.
func (s *Store) UpdateProfile(ctx context.Context, id uuid.UUID, u ProfileUpdate) (Learner, error) {
	const q = `
UPDATE learners SET
    name = coalesce($2, name), age = coalesce($3, age), grade = coalesce($4, grade),
    board = coalesce($5, board), school_name = coalesce($6, school_name), about_me = coalesce($7, about_me),
    country = coalesce($8, country), time_zone = coalesce($9, time_zone),
    language_level = coalesce($10, language_level), preferred_examples = coalesce($11, preferred_examples),
    onboarding_complete = onboarding_complete OR (
        coalesce($2, name, '') <> '' AND coalesce($3, age, 0) > 0 AND coalesce($4, grade, 0) > 0 AND coalesce($5, board, '') <> ''),
    updated_at = $12
WHERE id = $1
RETURNING ` + learnerColumns
	l, err := scanLearner(s.db.QueryRow(ctx, q, id, u.Name, u.Age, u.Grade, u.Board, u.SchoolName, u.AboutMe,
		u.Country, u.TimeZone, u.LanguageLevel, u.PreferredExamples, timeOrNow(u.Now)))
	return l, interpretError("update profile", err)
}

// DeleteLearner deletes a learner and, through the foreign keys, every
// session, message, turn record, agent log and usage record of theirs. Usage
// records have no foreign key to their session, so those of the learner's
// sessions that were written without the learner's id go explicitly (the
// statement's CTEs all see the sessions as they were before it).
//
// It returns the ids of the learner's sessions. With Announce, each is
// announced deleted (see SessionDeleted), so that no other process runs a
// turn on its copy of it. The deletion is remembered, by a hash of the
// external id, so that a token signed in before it does not make the
// learner again (see SignedInLearner).
//
// The learner's row is locked first: a session being created for the
// learner meanwhile (which holds a key-share lock on the row until it
// commits) is waited for, and then deleted and reported with the others,
// and none can be created after.
func (s *Store) DeleteLearner(ctx context.Context, externalID string) ([]uuid.UUID, error) {
	var n int
	var ids [][16]byte
	err := pgx.BeginFunc(ctx, beginner{s}, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT FROM learners WHERE external_id = $1 FOR UPDATE`, externalID); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `
WITH gone AS (
    DELETE FROM learners WHERE external_id = $1 RETURNING id
), theirs AS (
    SELECT s.id FROM sessions s JOIN gone ON s.learner_id = gone.id
), usage AS (
    DELETE FROM llm_usage WHERE session_id IN (SELECT id FROM theirs)
), noted AS (
    SELECT pg_notify('`+SessionChannel+`', id::text || ':' || $2::bigint::text) FROM theirs WHERE $3
), remembered AS (
    INSERT INTO deleted_learners (subject_sha256, deleted_at)
    SELECT sha256(convert_to($1, 'UTF8')), now() WHERE EXISTS (SELECT FROM gone)
    ON CONFLICT (subject_sha256) DO UPDATE SET deleted_at = EXCLUDED.deleted_at
)
SELECT (SELECT count(*) FROM gone), (SELECT count(*) FROM noted), (SELECT coalesce(array_agg(id), '{}') FROM theirs)`,
			externalID, SessionDeleted, s.announce).Scan(&n, nil, &ids)
	})
	if err != nil {
		return nil, interpretError("delete learner", err)
	}
	if n == 0 {
		return nil, fmt.Errorf("delete learner %s: %w", externalID, ErrNotFound)
	}
	sessions := make([]uuid.UUID, len(ids))
	for i, id := range ids {
		sessions[i] = id
	}
	return sessions, nil
}

// LearnerExport is everything stored about a learner.
type LearnerExport struct {
	Learner  Learner
	Sessions []Session
	Messages map[uuid.UUID][]Message    // by session, in order
	Turns    map[uuid.UUID][]TurnRecord // by session, oldest first
	Logs     map[uuid.UUID][]AgentLog   // by session, oldest first
	// Usage holds the learner's model calls, oldest first: those recorded
	// with the learner's id and those of the learner's sessions.
	Usage []llm.UsageRecord
}

// ExportLearner returns everything stored about a learner: the profile,
// every session with its state, messages, turn records and agent logs, and
// every usage record. It reads them in one read-only snapshot, so that a
// turn committed meanwhile is either wholly in the export or not at all.
func (s *Store) ExportLearner(ctx context.Context, id uuid.UUID) (LearnerExport, error) {
	var out LearnerExport
	err := pgx.BeginTxFunc(ctx, beginner{s}, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		var err error
		if out.Learner, err = scanLearner(tx.QueryRow(ctx, `SELECT `+learnerColumns+` FROM learners WHERE id = $1`, id)); err != nil {
			return interpretError("export learner", err)
		}
		rows, _ := tx.Query(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE learner_id = $1 ORDER BY created_at, id`, id)
		if out.Sessions, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (Session, error) { return scanSession(r) }); err != nil {
			return interpretError("export sessions", err)
		}
		if out.Messages, err = bySession(ctx, tx, "export messages", exportMessagesQuery, id, scanExportedMessage); err != nil {
			return err
		}
		if out.Turns, err = bySession(ctx, tx, "export turns", exportTurnsQuery, id, scanExportedTurn); err != nil {
			return err
		}
		if out.Logs, err = bySession(ctx, tx, "export agent logs", exportLogsQuery, id, scanExportedLog); err != nil {
			return err
		}
		rows, _ = tx.Query(ctx, exportUsageQuery, id)
		out.Usage, err = pgx.CollectRows(rows, scanExportedUsage)
		return interpretError("export usage", err)
	})
	return out, err
}

// The export's queries select the rows of the learner's sessions, each
// row led by its session id.
const (
	exportMessagesQuery = `
SELECT m.session_id, m.seq, m.role, m.content, m.created_at
FROM session_messages m JOIN sessions s ON s.id = m.session_id
WHERE s.learner_id = $1 ORDER BY m.session_id, m.seq`
	exportTurnsQuery = `
SELECT t.session_id, t.version, coalesce(t.client_turn_id, ''), t.response, t.created_at
FROM session_turns t JOIN sessions s ON s.id = t.session_id
WHERE s.learner_id = $1 ORDER BY t.session_id, t.version`
	exportLogsQuery = `
SELECT l.session_id, l.turn_id, l.agent, l.event, coalesce(l.provider, ''), coalesce(l.model, ''), l.latency_ms,
    coalesce(l.input_tokens, 0), coalesce(l.output_tokens, 0), coalesce(l.cached_tokens, 0), coalesce(l.cost_usd, 0),
    coalesce(l.input_summary, ''), coalesce(l.prompt, ''), l.output, coalesce(l.reasoning, ''), coalesce(l.error, ''), l.created_at
FROM agent_log_entries l JOIN sessions s ON s.id = l.session_id
WHERE s.learner_id = $1 ORDER BY l.session_id, l.turn_version, l.seq`
	exportUsageQuery = `
SELECT coalesce(learner_id::text, ''), coalesce(session_id::text, ''), component, provider, model, attempts, latency_ms,
    input_tokens, output_tokens, cached_tokens, cost_usd, priced, coalesce(error_kind, ''), coalesce(prompt_hash, ''), created_at, estimated
FROM llm_usage
WHERE learner_id = $1 OR session_id IN (SELECT id FROM sessions WHERE learner_id = $1)
ORDER BY created_at, id`
)

// bySession runs an export query for a learner and groups its rows by
// their leading session id.
func bySession[T any](ctx context.Context, tx pgx.Tx, op, q string, learner uuid.UUID, scan func(pgx.Rows, *uuid.UUID) (T, error)) (map[uuid.UUID][]T, error) {
	rows, err := tx.Query(ctx, q, learner)
	if err != nil {
		return nil, interpretError(op, err)
	}
	defer rows.Close()
	out := map[uuid.UUID][]T{}
	for rows.Next() {
		var sid uuid.UUID
		v, err := scan(rows, &sid)
		if err != nil {
			return nil, interpretError(op, err)
		}
		out[sid] = append(out[sid], v)
	}
	return out, interpretError(op, rows.Err())
}

func scanExportedMessage(r pgx.Rows, sid *uuid.UUID) (Message, error) {
	var m Message
	err := r.Scan(sid, &m.Seq, &m.Role, &m.Content, &m.CreatedAt)
	return m, err
}

func scanExportedTurn(r pgx.Rows, sid *uuid.UUID) (TurnRecord, error) {
	var t TurnRecord
	var response []byte
	err := r.Scan(sid, &t.Version, &t.ClientTurnID, &response, &t.CreatedAt)
	t.Response = response
	return t, err
}

func scanExportedLog(r pgx.Rows, sid *uuid.UUID) (AgentLog, error) {
	var l AgentLog
	var output []byte
	err := r.Scan(sid, &l.TurnID, &l.Agent, &l.Event, &l.Provider, &l.Model, &l.LatencyMS, &l.InputTokens,
		&l.OutputTokens, &l.CachedTokens, &l.CostUSD, &l.InputSummary, &l.Prompt, &output, &l.Reasoning, &l.Error, &l.CreatedAt)
	l.Output = output
	return l, err
}

func scanExportedUsage(r pgx.CollectableRow) (llm.UsageRecord, error) {
	var u llm.UsageRecord
	var component, provider, kind string
	var latencyMS int64
	err := r.Scan(&u.LearnerID, &u.SessionID, &component, &provider, &u.Model, &u.Attempts, &latencyMS,
		&u.Usage.InputTokens, &u.Usage.OutputTokens, &u.Usage.CachedInputTokens, &u.CostUSD, &u.Priced, &kind, &u.PromptHash, &u.Time, &u.Usage.Estimated)
	u.Component, u.Provider, u.ErrorKind = llm.Component(component), llm.Provider(provider), llm.ErrorKind(kind)
	u.Latency = time.Duration(latencyMS) * time.Millisecond
	return u, err
}
