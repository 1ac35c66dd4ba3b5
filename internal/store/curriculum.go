package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// GuidelineImport is one subtopic to import: its place in the curriculum,
// its teaching text and its study plan. The store keeps both as JSON and
// never interprets them.
type GuidelineImport struct {
	Country       string
	Board         string
	Grade         int
	Subject       string
	SubjectKey    string
	TopicKey      string
	TopicTitle    string
	SubtopicKey   string
	SubtopicTitle string
	Key           string // SubjectKey/TopicKey/SubtopicKey
	Approved      bool
	Guideline     json.RawMessage // teaching approach, objectives, misconceptions, prerequisites, depth
	Plan          json.RawMessage // steps, question bank, mastery parameters
	PlanHash      string          // identifies Plan's content
	SourceFile    string
}

// ImportResult counts what an import did.
type ImportResult struct {
	Created      int // new subtopics
	Updated      int // subtopics whose text, titles or approval changed
	Unchanged    int
	PlanVersions int // new plan versions (one per new subtopic, one per changed plan)
}

// importLock is the advisory lock that serialises imports.
const importLock = 0x74757464_696d7074 // "tutdimpt"

// ImportGuidelines upserts subtopics by (country, board, grade, key) in one
// transaction: all are imported or none. A subtopic whose plan hash differs
// from its current plan's gets a new plan version; sessions keep the
// version they started with. A subject renamed for the subtopics already
// stored is renamed for their sessions too. Imports run one at a time (two
// replicas importing at start-up, an operator's import meanwhile): rows
// locked in different orders would otherwise deadlock.
func (s *Store) ImportGuidelines(ctx context.Context, gs []GuidelineImport, now time.Time) (ImportResult, error) {
	var res ImportResult
	now = timeOrNow(now)
	err := s.InTx(ctx, func(tx *Store) error {
		if _, err := tx.db.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(importLock)); err != nil {
			return interpretError("lock imports", err)
		}
		// A subtopic renamed by an earlier one's topic or subject (see
		// importGuideline) has nothing left to change when its own turn
		// comes: it counts as updated all the same, since the import
		// changed its titles. So the counting waits for the last subtopic.
		renamed := map[uuid.UUID]bool{}
		outcomes := make([]importOutcome, 0, len(gs))
		for _, g := range gs {
			o, err := tx.importGuideline(ctx, g, now, renamed)
			if err != nil {
				return fmt.Errorf("import %s (grade %d, %s): %w", g.Key, g.Grade, g.SourceFile, err)
			}
			outcomes = append(outcomes, o)
		}
		if err := tx.oneTopicPerTitle(ctx, outcomes); err != nil {
			return err
		}
		for _, o := range outcomes {
			switch {
			case o.created:
				res.Created++
			case o.updated || o.newPlan || renamed[o.id]:
				res.Updated++
			default:
				res.Unchanged++
			}
			if o.newPlan {
				res.PlanVersions++
			}
		}
		return nil
	})
	if err != nil {
		return ImportResult{}, err
	}
	return res, nil
}

// oneTopicPerTitle refuses (ErrInvalid) an import that leaves one of its
// subtopics' topics with the title of another topic of the same subject
// and grade, in any case and spacing: learners choose a topic by its title
// (the curriculum lists topics by title), so the two would be listed as
// one. It runs once every subtopic is in, so that an import that swaps two
// topics' titles is judged on the result, not on its order.
func (s *Store) oneTopicPerTitle(ctx context.Context, imported []importOutcome) error {
	ids := make([]uuid.UUID, len(imported))
	for i, o := range imported {
		ids[i] = o.id
	}
	var title, key, other string
	var grade int
	err := s.db.QueryRow(ctx, `
SELECT g.topic_title, g.grade, g.topic_key, o.topic_key
FROM guidelines g JOIN guidelines o
    ON (o.country, o.board, o.grade, o.subject_key) = (g.country, g.board, g.grade, g.subject_key) AND o.topic_key <> g.topic_key
    AND lower(regexp_replace(btrim(o.topic_title), '\s+', ' ', 'g')) = lower(regexp_replace(btrim(g.topic_title), '\s+', ' ', 'g'))
WHERE g.id = ANY($1::uuid[])
LIMIT 1`, uuidTexts(ids)).Scan(&title, &grade, &key, &other)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil
	case err != nil:
		return interpretError("check topic titles", err)
	}
	return fmt.Errorf("%w: topic %q (grade %d) is titled %q, as topic %q is: learners choose a topic by its title; give one another title",
		ErrInvalid, key, grade, title, other)
}

// importOutcome is what importing one subtopic did to its row.
type importOutcome struct {
	id                        uuid.UUID
	created, updated, newPlan bool
}

func (s *Store) importGuideline(ctx context.Context, g GuidelineImport, now time.Time, renamed map[uuid.UUID]bool) (importOutcome, error) {
	// A topic's title and a subject's name are the same for all their
	// subtopics: a file that renames them renames them for the subtopics
	// of other files too, which a later import of those files would
	// otherwise split into two topics, or two subjects, of one key. The
	// renames come first, so that they return every subtopic they rename,
	// this one included; the ids go into renamed.
	//
	// A session's subject is its guideline's (sessions.subject, which the
	// history filter and the stats match): the sessions of the subtopics
	// whose subject is renamed are renamed with them. Sessions are looked
	// for only when a subject changes, which an import rarely does.
	var o importOutcome
	topicRenamed, err := s.ids(ctx, `
UPDATE guidelines SET topic_title = $1, updated_at = $2
WHERE country = $3 AND board = $4 AND grade = $5 AND subject_key = $6 AND topic_key = $7 AND topic_title <> $1
RETURNING id`, g.TopicTitle, now, g.Country, g.Board, g.Grade, g.SubjectKey, g.TopicKey)
	if err != nil {
		return o, interpretError("rename topic", err)
	}
	subjectRenamed, err := s.ids(ctx, `
UPDATE guidelines SET subject = $1, updated_at = $2
WHERE country = $3 AND board = $4 AND subject_key = $5 AND subject <> $1
RETURNING id`, g.Subject, now, g.Country, g.Board, g.SubjectKey)
	if err != nil {
		return o, interpretError("rename subject", err)
	}
	if len(subjectRenamed) > 0 {
		// updated_at is the session's last activity (stats, streaks): a
		// rename is none.
		if _, err := s.db.Exec(ctx, `UPDATE sessions SET subject = $1 WHERE guideline_id = ANY($2::uuid[]) AND subject IS DISTINCT FROM $1`,
			g.Subject, uuidTexts(subjectRenamed)); err != nil {
			return o, interpretError("rename subject of sessions", err)
		}
	}
	for _, ids := range [][][16]byte{topicRenamed, subjectRenamed} {
		for _, id := range ids {
			renamed[id] = true
		}
	}

	// xmax = 0 tells an inserted row from an updated one; the WHERE makes an
	// identical re-import touch nothing.
	const upsert = `
INSERT INTO guidelines AS g (id, country, board, grade, subject, subject_key, topic_key, topic_title,
    subtopic_key, subtopic_title, key, approved, guideline, source_file, created_at, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15)
ON CONFLICT (country, board, grade, key) DO UPDATE SET
    subject = EXCLUDED.subject, subject_key = EXCLUDED.subject_key, topic_key = EXCLUDED.topic_key,
    topic_title = EXCLUDED.topic_title, subtopic_key = EXCLUDED.subtopic_key,
    subtopic_title = EXCLUDED.subtopic_title, approved = EXCLUDED.approved,
    guideline = EXCLUDED.guideline, source_file = EXCLUDED.source_file, updated_at = EXCLUDED.updated_at
WHERE (g.subject, g.subject_key, g.topic_key, g.topic_title, g.subtopic_key, g.subtopic_title, g.approved, g.guideline)
    IS DISTINCT FROM (EXCLUDED.subject, EXCLUDED.subject_key, EXCLUDED.topic_key, EXCLUDED.topic_title,
    EXCLUDED.subtopic_key, EXCLUDED.subtopic_title, EXCLUDED.approved, EXCLUDED.guideline)
RETURNING id, xmax = 0`
	err = s.db.QueryRow(ctx, upsert, uuid.New(), g.Country, g.Board, g.Grade, g.Subject, g.SubjectKey, g.TopicKey,
		g.TopicTitle, g.SubtopicKey, g.SubtopicTitle, g.Key, g.Approved, s.doc(g.Guideline), nullString(g.SourceFile), now).
		Scan(&o.id, &o.created)
	switch {
	case err == nil:
		o.updated = !o.created
	case errors.Is(err, pgx.ErrNoRows): // unchanged
		if err = s.db.QueryRow(ctx, `SELECT id FROM guidelines WHERE country = $1 AND board = $2 AND grade = $3 AND key = $4`,
			g.Country, g.Board, g.Grade, g.Key).Scan(&o.id); err != nil {
			return importOutcome{}, interpretError("look up guideline", err)
		}
	default:
		return importOutcome{}, interpretError("upsert guideline", err)
	}

	var currentHash *string
	if err := s.db.QueryRow(ctx, `
SELECT p.content_hash FROM guidelines g LEFT JOIN plan_versions p ON p.id = g.current_plan_id WHERE g.id = $1`, o.id).
		Scan(&currentHash); err != nil {
		return importOutcome{}, interpretError("read current plan", err)
	}
	if currentHash != nil && *currentHash == g.PlanHash {
		return o, nil
	}
	const addVersion = `
WITH v AS (
    INSERT INTO plan_versions (id, guideline_id, version, content_hash, plan, created_at)
    SELECT $1, $2, coalesce(max(version), 0) + 1, $3, $4, $5 FROM plan_versions WHERE guideline_id = $2
    RETURNING id
)
UPDATE guidelines SET current_plan_id = (SELECT id FROM v), updated_at = $5 WHERE id = $2`
	if _, err := s.db.Exec(ctx, addVersion, uuid.New(), o.id, g.PlanHash, s.doc(g.Plan), now); err != nil {
		return importOutcome{}, interpretError("add plan version", err)
	}
	o.newPlan = true
	return o, nil
}

// ids runs a statement returning one uuid column and collects the values as
// [16]byte: pgx would encode a uuid.UUID passed back as a parameter through
// its driver.Valuer, as text.
func (s *Store) ids(ctx context.Context, q string, args ...any) ([][16]byte, error) {
	rows, err := s.db.Query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) ([16]byte, error) {
		var id pgtype.UUID
		err := r.Scan(&id)
		return id.Bytes, err
	})
}

// Guideline is a stored subtopic with its current plan version.
type Guideline struct {
	ID            uuid.UUID
	Country       string
	Board         string
	Grade         int
	Subject       string
	SubjectKey    string
	TopicKey      string
	TopicTitle    string
	SubtopicKey   string
	SubtopicTitle string
	Key           string
	Approved      bool
	Guideline     json.RawMessage
	SourceFile    string
	Plan          PlanVersion // the current plan version
	UpdatedAt     time.Time
}

// PlanVersion is one immutable version of a subtopic's study plan.
type PlanVersion struct {
	ID          uuid.UUID
	GuidelineID uuid.UUID
	Version     int
	Hash        string
	Plan        json.RawMessage
	CreatedAt   time.Time
}

const guidelineColumns = `g.id, g.country, g.board, g.grade, g.subject, g.subject_key, g.topic_key, g.topic_title,
    g.subtopic_key, g.subtopic_title, g.key, g.approved, g.guideline, coalesce(g.source_file, ''), g.updated_at,
    p.id, p.guideline_id, p.version, p.content_hash, p.plan, p.created_at`

func scanGuideline(row scanner) (Guideline, error) {
	var g Guideline
	var guideline, plan []byte
	err := row.Scan(&g.ID, &g.Country, &g.Board, &g.Grade, &g.Subject, &g.SubjectKey, &g.TopicKey, &g.TopicTitle,
		&g.SubtopicKey, &g.SubtopicTitle, &g.Key, &g.Approved, &guideline, &g.SourceFile, &g.UpdatedAt,
		&g.Plan.ID, &g.Plan.GuidelineID, &g.Plan.Version, &g.Plan.Hash, &plan, &g.Plan.CreatedAt)
	g.Guideline, g.Plan.Plan = guideline, plan
	return g, err
}

// GetGuideline returns a subtopic with its current plan, approved or not,
// or ErrNotFound.
func (s *Store) GetGuideline(ctx context.Context, id uuid.UUID) (Guideline, error) {
	g, err := scanGuideline(s.db.QueryRow(ctx, `SELECT `+guidelineColumns+`
FROM guidelines g JOIN plan_versions p ON p.id = g.current_plan_id WHERE g.id = $1`, id))
	return g, interpretError("get guideline "+id.String(), err)
}

// GuidelineHead returns the current plan version of a subtopic, whether it
// is approved and when it last changed (its text, titles or approval),
// without the plan: what starting a session needs when the plan is cached.
// It returns ErrNotFound as GetGuideline does.
func (s *Store) GuidelineHead(ctx context.Context, id uuid.UUID) (planID uuid.UUID, approved bool, updatedAt time.Time, err error) {
	err = s.db.QueryRow(ctx, `SELECT current_plan_id, approved, updated_at FROM guidelines WHERE id = $1 AND current_plan_id IS NOT NULL`, id).
		Scan(&planID, &approved, &updatedAt)
	return planID, approved, updatedAt, interpretError("get guideline "+id.String(), err)
}

// ListGuidelines returns every subtopic with its current plan, ordered by
// country, board, grade and key.
func (s *Store) ListGuidelines(ctx context.Context) ([]Guideline, error) {
	rows, err := s.db.Query(ctx, `SELECT `+guidelineColumns+`
FROM guidelines g JOIN plan_versions p ON p.id = g.current_plan_id
ORDER BY g.country COLLATE "C", g.board COLLATE "C", g.grade, g.key COLLATE "C"`)
	if err != nil {
		return nil, interpretError("list guidelines", err)
	}
	gs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Guideline, error) { return scanGuideline(r) })
	return gs, interpretError("list guidelines", err)
}

// GetPlanVersion returns one plan version, or ErrNotFound.
func (s *Store) GetPlanVersion(ctx context.Context, id uuid.UUID) (PlanVersion, error) {
	var p PlanVersion
	var plan []byte
	err := s.db.QueryRow(ctx, `SELECT id, guideline_id, version, content_hash, plan, created_at FROM plan_versions WHERE id = $1`, id).
		Scan(&p.ID, &p.GuidelineID, &p.Version, &p.Hash, &plan, &p.CreatedAt)
	p.Plan = plan
	return p, interpretError("get plan version "+id.String(), err)
}

// SetApproved approves or withdraws every subtopic with the given full key
// (in every grade and board that has it) and returns how many it changed.
// It returns ErrNotFound when no subtopic has the key.
func (s *Store) SetApproved(ctx context.Context, key string, approved bool, now time.Time) (int, error) {
	var matched, changed int
	err := s.db.QueryRow(ctx, `
WITH m AS (SELECT id, approved FROM guidelines WHERE key = $1),
u AS (UPDATE guidelines g SET approved = $2, updated_at = $3 FROM m WHERE g.id = m.id AND m.approved <> $2 RETURNING g.id)
SELECT (SELECT count(*) FROM m), (SELECT count(*) FROM u)`, key, approved, timeOrNow(now)).Scan(&matched, &changed)
	if err != nil {
		return 0, interpretError("approve "+key, err)
	}
	if matched == 0 {
		return 0, fmt.Errorf("subtopic %s: %w", key, ErrNotFound)
	}
	return changed, nil
}

// CurriculumFilter selects part of the approved curriculum.
type CurriculumFilter struct {
	Country string
	Board   string
	Grade   int
	Subject string // narrows to one subject
	Topic   string // with Subject, narrows to one topic (its title)
}

// SubtopicEntry is one approved subtopic of a topic.
type SubtopicEntry struct {
	Subtopic    string
	GuidelineID uuid.UUID
	Key         string
}

// The curriculum queries compare grades as bigint: a grade asked for may
// be any integer, and one beyond the column's int4 has no subjects rather
// than failing to encode.

// The listings sort names by code point, as the reference's Python did,
// whatever the database's collation (an external database's en_US would
// put "English" before "EVS").

// CurriculumSubjects returns the distinct subjects with approved subtopics, sorted.
func (s *Store) CurriculumSubjects(ctx context.Context, f CurriculumFilter) ([]string, error) {
	return s.strings(ctx, "list subjects", `
SELECT DISTINCT subject COLLATE "C" FROM guidelines
WHERE approved AND country = $1 AND board = $2 AND grade = $3::bigint ORDER BY 1`, f.Country, f.Board, f.Grade)
}

// CurriculumTopics returns the distinct topics of a subject with approved subtopics, sorted.
func (s *Store) CurriculumTopics(ctx context.Context, f CurriculumFilter) ([]string, error) {
	return s.strings(ctx, "list topics", `
SELECT DISTINCT topic_title COLLATE "C" FROM guidelines
WHERE approved AND country = $1 AND board = $2 AND grade = $3::bigint AND subject = $4 ORDER BY 1`,
		f.Country, f.Board, f.Grade, f.Subject)
}

// CurriculumSubtopics returns the approved subtopics of a topic, sorted by title.
func (s *Store) CurriculumSubtopics(ctx context.Context, f CurriculumFilter) ([]SubtopicEntry, error) {
	rows, err := s.db.Query(ctx, `
SELECT subtopic_title, id, key FROM guidelines
WHERE approved AND country = $1 AND board = $2 AND grade = $3::bigint AND subject = $4 AND topic_title = $5
ORDER BY subtopic_title COLLATE "C", key COLLATE "C"`, f.Country, f.Board, f.Grade, f.Subject, f.Topic)
	if err != nil {
		return nil, interpretError("list subtopics", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (SubtopicEntry, error) {
		var e SubtopicEntry
		err := r.Scan(&e.Subtopic, &e.GuidelineID, &e.Key)
		return e, err
	})
	if out == nil {
		out = []SubtopicEntry{}
	}
	return out, interpretError("list subtopics", err)
}

func (s *Store) strings(ctx context.Context, op, q string, args ...any) ([]string, error) {
	rows, err := s.db.Query(ctx, q, args...)
	if err != nil {
		return nil, interpretError(op, err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if out == nil {
		out = []string{}
	}
	return out, interpretError(op, err)
}
