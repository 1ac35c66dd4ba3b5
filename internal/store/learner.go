package store

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
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
	// DO UPDATE (of nothing) rather than DO NOTHING: RETURNING then gives
	// the row whether this statement or a concurrent one created it.
	const q = `
INSERT INTO learners AS l (id, external_id) VALUES ($1, $2)
ON CONFLICT (external_id) DO UPDATE SET external_id = l.external_id
RETURNING ` + learnerColumns
	l, err := scanLearner(s.db.QueryRow(ctx, q, uuid.New(), externalID))
	return l, interpretError("ensure learner", err)
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
}

// SyncLearner records a sign-in: a new learner is created with the
// identity's email, phone, name and provider; a known one gets its
// last-login time, and its email and phone only where they are still empty.
func (s *Store) SyncLearner(ctx context.Context, in SignIn) (Learner, error) {
	const q = `
INSERT INTO learners AS l (id, external_id, email, phone, name, auth_provider, created_at, updated_at, last_login_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $7)
ON CONFLICT (external_id) DO UPDATE SET
    last_login_at = EXCLUDED.last_login_at,
    email = coalesce(l.email, EXCLUDED.email),
    phone = coalesce(l.phone, EXCLUDED.phone),
    updated_at = EXCLUDED.updated_at
RETURNING ` + learnerColumns
	provider := in.AuthProvider
	if provider == "" {
		provider = "email"
	}
	l, err := scanLearner(s.db.QueryRow(ctx, q, uuid.New(), in.ExternalID, nullString(in.Email), nullString(in.Phone),
		nullString(in.Name), provider, timeOrNow(in.Now)))
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
// session, message, turn record, agent log and usage record of theirs.
func (s *Store) DeleteLearner(ctx context.Context, externalID string) error {
	tag, err := s.db.Exec(ctx, `DELETE FROM learners WHERE external_id = $1`, externalID)
	if err != nil {
		return interpretError("delete learner", err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("delete learner %s: %w", externalID, ErrNotFound)
	}
	return nil
}

// LearnerExport is everything stored about a learner.
type LearnerExport struct {
	Learner  Learner
	Sessions []Session
	Messages map[uuid.UUID][]Message
}

// ExportLearner returns everything stored about a learner: the profile,
// every session with its state, and every message.
func (s *Store) ExportLearner(ctx context.Context, id uuid.UUID) (LearnerExport, error) {
	l, err := s.GetLearner(ctx, id)
	if err != nil {
		return LearnerExport{}, err
	}
	out := LearnerExport{Learner: l, Messages: map[uuid.UUID][]Message{}}
	rows, err := s.db.Query(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE learner_id = $1 ORDER BY created_at, id`, id)
	if err != nil {
		return LearnerExport{}, interpretError("export sessions", err)
	}
	out.Sessions, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (Session, error) { return scanSession(r) })
	if err != nil {
		return LearnerExport{}, interpretError("export sessions", err)
	}
	rows, err = s.db.Query(ctx, `
SELECT m.session_id, m.seq, m.role, m.content, m.created_at
FROM session_messages m JOIN sessions s ON s.id = m.session_id
WHERE s.learner_id = $1 ORDER BY m.session_id, m.seq`, id)
	if err != nil {
		return LearnerExport{}, interpretError("export messages", err)
	}
	defer rows.Close()
	for rows.Next() {
		var sid uuid.UUID
		var m Message
		if err := rows.Scan(&sid, &m.Seq, &m.Role, &m.Content, &m.CreatedAt); err != nil {
			return LearnerExport{}, interpretError("export messages", err)
		}
		out.Messages[sid] = append(out.Messages[sid], m)
	}
	return out, interpretError("export messages", rows.Err())
}
