package store

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/google/uuid"
)

// Summary holds the columns written beside a session's state document so
// that listings, report cards and progress queries never parse the document.
type Summary struct {
	TopicName         string
	TurnCount         int
	IsPaused          bool
	IsComplete        bool
	CurrentStep       int
	TotalSteps        int
	Mastery           float64 // mean mastery
	Coverage          float64 // percent of plan concepts covered
	ExamScore         *int    // set when an exam is finished
	ExamTotal         *int
	ExamCorrect       *int // exams: correct answers so far
	ExamQuestions     *int // exams: questions generated
	ConceptsCovered   []string
	ConceptsDiscussed []string
	MasteryByConcept  map[string]float64
}

// Session is a stored session.
type Session struct {
	ID          uuid.UUID
	LearnerID   *uuid.UUID // nil for an anonymous session
	Mode        string
	GuidelineID *uuid.UUID
	Subject     string
	PlanVersion *uuid.UUID // the study plan version the session runs on
	State       json.RawMessage
	Version     int64
	Summary     Summary
	CreatedAt   time.Time
	UpdatedAt   time.Time
	CompletedAt *time.Time
}

// NewMessage is a message to append to a session's conversation.
type NewMessage struct {
	Role    string // "teacher" or "student"
	Content string
}

// Message is a stored conversation message.
type Message struct {
	Seq       int
	Role      string
	Content   string
	CreatedAt time.Time
}

// NewSession is a session to create.
type NewSession struct {
	ID          uuid.UUID
	LearnerID   *uuid.UUID
	Mode        string
	GuidelineID *uuid.UUID
	Subject     string
	PlanVersion *uuid.UUID
	State       json.RawMessage
	Summary     Summary
	Messages    []NewMessage // the first messages, e.g. the welcome
	Logs        []AgentLog   // the creation's agent calls (exam generation, welcome)
	Now         time.Time
}

// CreateSession stores a new session at version 1 with its first messages.
func (s *Store) CreateSession(ctx context.Context, n NewSession) error {
	const q = `
WITH ins AS (
    INSERT INTO sessions (id, learner_id, mode, guideline_id, subject, state_json, message_count,
        topic_name, turn_count, is_paused, is_complete, current_step, total_steps, mastery, coverage,
        exam_score, exam_total, concepts_covered, concepts_discussed, mastery_by_concept,
        exam_correct, exam_questions, plan_version_id,
        created_at, updated_at, completed_at)
    VALUES ($1, $2, $3, $4, $5, $6, cardinality($7::text[]),
        $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $23, $24, $25,
        $22::timestamptz, $22::timestamptz, CASE WHEN $12::boolean THEN $22::timestamptz END)
    RETURNING id
), msgs AS (
    INSERT INTO session_messages (session_id, seq, role, content, created_at)
    SELECT ins.id, m.seq, m.role, m.content, $22::timestamptz
    FROM ins, unnest($7::text[], $8::text[]) WITH ORDINALITY AS m(role, content, seq)
)
INSERT INTO agent_logs (session_id, turn_id, agent, event, provider, model, latency_ms,
    input_tokens, output_tokens, cached_tokens, cost_usd, input_summary, prompt, output,
    reasoning, error, created_at)
SELECT ins.id, l.turn_id, l.agent, l.event, l.provider, l.model, l.latency_ms,
    l.input_tokens, l.output_tokens, l.cached_tokens, l.cost_usd, l.input_summary, l.prompt, l.output,
    l.reasoning, l.error, l.created_at
FROM ins, jsonb_to_recordset($26::jsonb) AS l(turn_id text, agent text, event text, provider text,
    model text, latency_ms int, input_tokens int, output_tokens int, cached_tokens int,
    cost_usd double precision, input_summary text, prompt text, output jsonb, reasoning text,
    error text, created_at timestamptz)`
	logs, err := encodeLogs(n.Logs, timeOrNow(n.Now))
	if err != nil {
		return fmt.Errorf("create session %s: %w", n.ID, err)
	}
	roles, contents := splitMessages(n.Messages)
	sm := n.Summary
	_, err = s.db.Exec(ctx, q, n.ID, n.LearnerID, n.Mode, n.GuidelineID, nullString(n.Subject), s.doc(withoutNUL(n.State)),
		roles, contents,
		nullString(text(sm.TopicName)), sm.TurnCount, sm.IsPaused, sm.IsComplete, sm.CurrentStep, sm.TotalSteps, sm.Mastery, sm.Coverage,
		sm.ExamScore, sm.ExamTotal, texts(sm.ConceptsCovered), texts(sm.ConceptsDiscussed), s.doc(masteryJSON(sm.MasteryByConcept)),
		timeOrNow(n.Now), sm.ExamCorrect, sm.ExamQuestions, n.PlanVersion, s.doc(logs))
	return interpretError("create session "+n.ID.String(), err)
}

const sessionColumns = `id, learner_id, mode, guideline_id, coalesce(subject, ''), state_json, state_version,
    coalesce(topic_name, ''), turn_count, is_paused, is_complete, current_step, total_steps, mastery, coverage,
    exam_score, exam_total, concepts_covered, concepts_discussed, mastery_by_concept,
    exam_correct, exam_questions, plan_version_id, created_at, updated_at, completed_at`

type scanner interface{ Scan(dest ...any) error }

func scanSession(row scanner) (Session, error) {
	var se Session
	var state, mastery []byte
	sm := &se.Summary
	err := row.Scan(&se.ID, &se.LearnerID, &se.Mode, &se.GuidelineID, &se.Subject, &state, &se.Version,
		&sm.TopicName, &sm.TurnCount, &sm.IsPaused, &sm.IsComplete, &sm.CurrentStep, &sm.TotalSteps, &sm.Mastery, &sm.Coverage,
		&sm.ExamScore, &sm.ExamTotal, &sm.ConceptsCovered, &sm.ConceptsDiscussed, &mastery,
		&sm.ExamCorrect, &sm.ExamQuestions, &se.PlanVersion, &se.CreatedAt, &se.UpdatedAt, &se.CompletedAt)
	if err != nil {
		return Session{}, err
	}
	se.State = state
	if len(mastery) > 2 {
		if err := json.Unmarshal(mastery, &sm.MasteryByConcept); err != nil {
			return Session{}, err
		}
	}
	return se, nil
}

// GetSession returns the session with the given id, or ErrNotFound.
func (s *Store) GetSession(ctx context.Context, id uuid.UUID) (Session, error) {
	se, err := scanSession(s.db.QueryRow(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE id = $1`, id))
	return se, interpretError("get session "+id.String(), err)
}

// ListOptions select a page of a learner's sessions.
type ListOptions struct {
	Subject  string // exact match; empty means every subject
	Page     int    // 1-based
	PageSize int
}

// ListSessions returns one page of a learner's sessions, newest first, and
// the number of sessions matching the filter. One statement reads both, so
// that they agree: a session created or deleted meanwhile is in both or in
// neither. The (learner, created_at) indexes serve both; a page deep in
// a long history may cost a sort of the learner's sessions, never of the
// table.
func (s *Store) ListSessions(ctx context.Context, learnerID uuid.UUID, o ListOptions) ([]Session, int, error) {
	if o.Page < 1 {
		o.Page = 1
	}
	if o.PageSize < 1 {
		o.PageSize = 20
	}
	// Two statements rather than one with "$2 = '' OR subject = $2": a
	// prepared plan for that condition cannot use either index.
	q, args := listSessionsQuery, []any{learnerID, pageOffset(o.Page, o.PageSize), o.PageSize}
	if o.Subject != "" {
		q, args = listSubjectSessionsQuery, append(args, o.Subject)
	}
	rows, err := s.db.Query(ctx, q, args...)
	if err != nil {
		return nil, 0, interpretError("list sessions", err)
	}
	defer rows.Close()
	var out []Session
	var total int
	for rows.Next() {
		// A session's id is never NULL: a NULL one is the row of a page
		// past the last, which holds the total alone.
		if rows.RawValues()[1] == nil {
			only := make([]any, len(rows.RawValues()))
			only[0] = &total
			if err := rows.Scan(only...); err != nil {
				return nil, 0, interpretError("list sessions", err)
			}
			continue
		}
		se, err := scanSession(totalAnd{rows, &total})
		if err != nil {
			return nil, 0, interpretError("list sessions", err)
		}
		out = append(out, se)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, interpretError("list sessions", err)
	}
	return out, total, nil
}

// totalAnd scans a row of a listing (see listQuery) into total and the
// destinations given.
type totalAnd struct {
	rows  scanner
	total *int
}

func (r totalAnd) Scan(dest ...any) error {
	return r.rows.Scan(append([]any{r.total}, dest...)...)
}

// pageOffset is the number of rows before a page: (page-1) × size, or
// math.MaxInt64 (past any table) where that would overflow into a
// negative OFFSET, which PostgreSQL refuses. page and size are at least 1.
func pageOffset(page, size int) int64 {
	skipped := int64(page - 1)
	if skipped > math.MaxInt64/int64(size) {
		return math.MaxInt64
	}
	return skipped * int64(size)
}

// The statements of ListSessions: every session of the learner ($1), or
// those of a subject ($4).
var (
	listSessionsQuery        = listQuery(`learner_id = $1`)
	listSubjectSessionsQuery = listQuery(`learner_id = $1 AND subject = $4`)
)

// listQuery returns the statement that lists the sessions matching where:
// on each row, their number (total), then the columns of a session of the
// page, newest first, that skips $2 sessions and holds at most $3. The
// number is joined to the page rather than read by a statement of its
// own, so that both see the same sessions; past the last page, the one
// row holds the number and NULLs.
func listQuery(where string) string {
	return `
WITH matching AS (
    SELECT count(*) AS total FROM sessions WHERE ` + where + `
)
SELECT matching.total, page.*
FROM matching LEFT JOIN (
    SELECT ` + sessionColumns + `
    FROM sessions
    WHERE ` + where + `
    ORDER BY created_at DESC, id DESC
    OFFSET $2 LIMIT $3
) page ON true
ORDER BY page.created_at DESC, page.id DESC`
}

// ListMessages returns a session's messages in order.
func (s *Store) ListMessages(ctx context.Context, sessionID uuid.UUID) ([]Message, error) {
	rows, err := s.db.Query(ctx,
		`SELECT seq, role, content, created_at FROM session_messages WHERE session_id = $1 ORDER BY seq`, sessionID)
	if err != nil {
		return nil, interpretError("list messages", err)
	}
	defer rows.Close()
	var out []Message
	for rows.Next() {
		var m Message
		if err := rows.Scan(&m.Seq, &m.Role, &m.Content, &m.CreatedAt); err != nil {
			return nil, interpretError("list messages", err)
		}
		out = append(out, m)
	}
	return out, interpretError("list messages", rows.Err())
}

func splitMessages(ms []NewMessage) (roles, contents []string) {
	roles = make([]string, len(ms))
	contents = make([]string, len(ms))
	for i, m := range ms {
		roles[i], contents[i] = m.Role, text(m.Content)
	}
	return roles, contents
}

// text returns s with every NUL written as U+FFFD: PostgreSQL's text
// cannot hold NUL, which a model's output can (a reply, a concept name).
func text(s string) string { return strings.ReplaceAll(s, "\x00", "\uFFFD") }

// texts returns ss as text (see text), never nil.
func texts(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = text(s)
	}
	return out
}

func nullString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func masteryJSON(m map[string]float64) []byte {
	if len(m) == 0 {
		return []byte("{}")
	}
	b, _ := json.Marshal(m) // a map of finite floats always marshals
	return withoutNUL(b)    // concepts are named by the model
}

func timeOrNow(t time.Time) time.Time {
	if t.IsZero() {
		return time.Now()
	}
	return t
}

// PurgeAnonymous deletes anonymous sessions (with their messages, turns,
// agent logs and usage records) not updated since before, and returns how
// many sessions it deleted. With Announce, each is announced deleted (see
// SessionDeleted).
func (s *Store) PurgeAnonymous(ctx context.Context, before time.Time) (int64, error) {
	var n int64
	err := s.db.QueryRow(ctx, `
WITH gone AS (
    DELETE FROM sessions WHERE learner_id IS NULL AND updated_at < $1 RETURNING id
), usage AS (
    DELETE FROM llm_usage WHERE session_id IN (SELECT id FROM gone)
), noted AS (
    SELECT pg_notify('`+SessionChannel+`', id::text || ':' || $2::bigint::text) FROM gone WHERE $3
)
SELECT (SELECT count(*) FROM gone), (SELECT count(*) FROM noted)`, before, SessionDeleted, s.announce).Scan(&n, nil)
	return n, interpretError("purge anonymous sessions", err)
}
