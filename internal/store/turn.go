package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// ErrAnotherPaused reports that the learner already has a paused session on
// the same subtopic (one paused session per learner and subtopic).
var ErrAnotherPaused = fmt.Errorf("%w: another session of this learner on this subtopic is already paused", ErrConflict)

// AgentLog is one entry of a turn's trace: an orchestrator event or an
// agent call.
type AgentLog struct {
	TurnID       string          `json:"turn_id"`
	Agent        string          `json:"agent"`
	Event        string          `json:"event"`
	Provider     string          `json:"provider,omitempty"`
	Model        string          `json:"model,omitempty"`
	LatencyMS    *int            `json:"latency_ms,omitempty"`
	InputTokens  int             `json:"input_tokens,omitempty"`
	OutputTokens int             `json:"output_tokens,omitempty"`
	CachedTokens int             `json:"cached_tokens,omitempty"`
	CostUSD      float64         `json:"cost_usd,omitempty"`
	InputSummary string          `json:"input_summary,omitempty"`
	Prompt       string          `json:"prompt,omitempty"`
	Output       json.RawMessage `json:"output,omitempty"`
	Reasoning    string          `json:"reasoning,omitempty"`
	Error        string          `json:"error,omitempty"`
	CreatedAt    time.Time       `json:"created_at"`
}

// Turn is everything one turn writes, committed together or not at all.
type Turn struct {
	SessionID    uuid.UUID
	Version      int64 // the state_version the turn read; the commit requires it unchanged
	State        json.RawMessage
	Summary      Summary
	Messages     []NewMessage
	ClientTurnID string          // optional; unique per session
	MessageHash  []byte          // with ClientTurnID: a digest of the learner's message, to tell a retry from a reuse
	Response     json.RawMessage // what the client is answered, returned again on a retry
	Logs         []AgentLog
	Now          time.Time
}

// CommitTurn writes a turn in one statement: the compare-and-swap update of
// the state and its summary columns, the turn's messages (numbered after
// the session's last one) and its turn record, which holds the turn's
// agent-log entries. It returns the new version. With Announce, the commit
// announces the change on SessionChannel (see WatchSessions). Turns that
// sessions commit at the same time share a round trip and a transaction
// (group commit), each with its own outcome.
//
// When the stored version is no longer t.Version it writes nothing and
// returns a *StaleStateError with the current version and state. It returns
// ErrDuplicateTurn when t.ClientTurnID was already committed, ErrAnotherPaused
// when the update would pause a second session on the same subtopic, and
// ErrNotFound when the session does not exist.
func (s *Store) CommitTurn(ctx context.Context, t Turn) (int64, error) {
	if s.commits != nil {
		return s.commits.commit(ctx, t)
	}
	return s.commitOne(ctx, t)
}

// commitTurnQuery writes a turn: one statement is one implicit transaction
// and one round trip. The inserts select FROM upd, so a lost
// compare-and-swap inserts nothing.
const commitTurnQuery = `
WITH upd AS (
    UPDATE sessions SET
        state_json = $3, state_version = state_version + 1,
        message_count = message_count + cardinality($4::text[]),
        topic_name = $9, turn_count = $10, is_paused = $11, is_complete = $12,
        current_step = $13, total_steps = $14, mastery = $15, coverage = $16,
        exam_score = $17, exam_total = $18, concepts_covered = $19, concepts_discussed = $20,
        mastery_by_concept = $21, exam_correct = $23, exam_questions = $24, updated_at = $22::timestamptz,
        completed_at = CASE WHEN $12::boolean THEN coalesce(completed_at, $22::timestamptz) END
    WHERE id = $1 AND state_version = $2
    RETURNING state_version, message_count - cardinality($4::text[]) AS base
), msgs AS (
    INSERT INTO session_messages (session_id, seq, role, content, created_at)
    SELECT $1, upd.base + m.ord, m.role, m.content, $22
    FROM upd, unnest($4::text[], $5::text[]) WITH ORDINALITY AS m(role, content, ord)
), turn AS (
    INSERT INTO session_turns (session_id, version, client_turn_id, response, created_at, message_sha256, logs)
    SELECT $1, upd.state_version, $6, $7, $22, $26, $8::json FROM upd
)
SELECT state_version, CASE WHEN $25 THEN pg_notify('` + SessionChannel + `', $1::text || ':' || state_version) END FROM upd`

// commitArgs returns the arguments of commitTurnQuery for t.
func (s *Store) commitArgs(t Turn) ([]any, error) {
	now := timeOrNow(t.Now)
	logs, err := encodeLogs(t.Logs, now)
	if err != nil {
		return nil, fmt.Errorf("commit turn %s: %w", t.SessionID, err)
	}
	response := t.Response
	if len(response) == 0 {
		response = json.RawMessage("null")
	}
	roles, contents := splitMessages(t.Messages)
	sm := t.Summary
	return []any{t.SessionID, t.Version, s.doc(withoutNUL(t.State)), roles, contents,
		nullString(t.ClientTurnID), s.doc(withoutNUL(response)), s.doc(logs),
		nullString(text(sm.TopicName)), sm.TurnCount, sm.IsPaused, sm.IsComplete, sm.CurrentStep, sm.TotalSteps, sm.Mastery, sm.Coverage,
		sm.ExamScore, sm.ExamTotal, texts(sm.ConceptsCovered), texts(sm.ConceptsDiscussed), s.doc(masteryJSON(sm.MasteryByConcept)),
		now, sm.ExamCorrect, sm.ExamQuestions, s.announce, t.MessageHash}, nil
}

// commitOne commits a turn on its own. Outside a transaction, its outcome
// is known whatever ctx does (see finish), and a commit that met a dead
// connection runs again on a fresh one (see lost) when it returned no row:
// it had then either not finished when the server closed the connection
// (the row comes before the commit), or lost its compare-and-swap; either
// way it wrote nothing.
func (s *Store) commitOne(ctx context.Context, t Turn) (int64, error) {
	args, err := s.commitArgs(t)
	if err != nil {
		return 0, err
	}
	var version int64
	if _, ok := s.db.(pooled); !ok {
		err = s.db.QueryRow(ctx, commitTurnQuery, args...).Scan(&version, nil)
		return s.commitResult(ctx, t, version, err)
	}
	for try := 0; ; try++ {
		version = 0
		err = s.finish(ctx, func(ctx context.Context, c *pgx.Conn) error {
			return c.QueryRow(ctx, commitTurnQuery, args...).Scan(&version, nil)
		})
		if try > 0 || version != 0 || !s.lost(ctx, err) {
			return s.commitResult(ctx, t, version, err)
		}
	}
}

// commitResult maps the outcome of commitTurnQuery for t to CommitTurn's.
func (s *Store) commitResult(ctx context.Context, t Turn, version int64, err error) (int64, error) {
	switch {
	case err == nil:
		return version, nil
	case errors.Is(err, pgx.ErrNoRows):
		return 0, s.staleOrMissing(ctx, t.SessionID, t.Version)
	}
	switch constraintOf(err) {
	case "session_turns_client_turn_id":
		return 0, fmt.Errorf("commit turn %s: client turn id %q: %w", t.SessionID, t.ClientTurnID, ErrDuplicateTurn)
	case "sessions_one_paused_per_learner_guideline":
		return 0, fmt.Errorf("commit turn %s: %w", t.SessionID, ErrAnotherPaused)
	}
	return 0, interpretError("commit turn "+t.SessionID.String(), err)
}

// staleOrMissing explains a compare-and-swap that matched no row.
func (s *Store) staleOrMissing(ctx context.Context, id uuid.UUID, expected int64) error {
	var version int64
	var state []byte
	err := s.db.QueryRow(ctx, `SELECT state_version, state_json FROM sessions WHERE id = $1`, id).Scan(&version, &state)
	if err != nil {
		return interpretError("commit turn "+id.String(), err)
	}
	return &StaleStateError{SessionID: id.String(), Expected: expected, Version: version, State: state}
}

// withoutNUL returns the JSON document b with every escaped NUL character
// ("\u0000", which a model's text can hold) written as U+FFFD instead:
// PostgreSQL stores such a document as json, but cannot read it back
// into records or jsonb.
func withoutNUL(b []byte) []byte {
	const nul = `\u0000`
	if !bytes.Contains(b, []byte(nul)) {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 >= len(b) {
			out = append(out, b[i])
			continue
		}
		if bytes.HasPrefix(b[i:], []byte(nul)) {
			out = append(out, `\ufffd`...)
			i += len(nul) - 1
			continue
		}
		out = append(out, b[i], b[i+1]) // another escape, "\\" among them
		i++
	}
	return out
}

// TurnRecord is a committed turn as a retry finds it.
type TurnRecord struct {
	Version      int64
	ClientTurnID string
	MessageHash  []byte // nil for turns committed without one
	Response     json.RawMessage
	CreatedAt    time.Time
}

// FindTurn returns the turn committed on a session with the given client
// turn id, or ErrNotFound.
func (s *Store) FindTurn(ctx context.Context, sessionID uuid.UUID, clientTurnID string) (TurnRecord, error) {
	var r TurnRecord
	var response []byte
	err := s.db.QueryRow(ctx, `
SELECT version, client_turn_id, message_sha256, response, created_at
FROM session_turns WHERE session_id = $1 AND client_turn_id = $2`, sessionID, clientTurnID).
		Scan(&r.Version, &r.ClientTurnID, &r.MessageHash, &response, &r.CreatedAt)
	r.Response = response
	return r, interpretError("find turn "+clientTurnID, err)
}

// AgentLogWindow is how many of a session's newest agent-log entries
// ListAgentLogs reads: the reference keeps that many per session, in a
// ring that drops the oldest (CONTRACT §2.6, §9.14), so its clients see no
// more. Every entry stays stored (exports read them all) until
// PurgeAgentLogs removes it; only the reading is bounded, so that a long
// session's listing stays small and cheap.
const AgentLogWindow = 200

// LogFilter selects agent logs of a session.
type LogFilter struct {
	TurnID string // one turn's entries
	Agent  string // one agent's entries
	Limit  int    // without a turn or agent: the last Limit entries (100 when 0)
}

// ListAgentLogs returns agent logs among a session's newest AgentLogWindow
// entries, oldest first: those of a turn or an agent when the filter names
// one (all of them in the window), else the last Limit entries (at most
// the window).
func (s *Store) ListAgentLogs(ctx context.Context, sessionID uuid.UUID, f LogFilter) ([]AgentLog, error) {
	if f.Limit <= 0 {
		f.Limit = 100
	}
	window := AgentLogWindow
	if f.TurnID == "" && f.Agent == "" {
		window = min(f.Limit, AgentLogWindow)
	}
	// The window's entries are among the newest $4 turns that have any,
	// and the newest $4 rows of agent_logs (the creation's entries, and
	// turns committed before their entries moved into turn records): the
	// two bounds, pushed down into agent_log_entries, keep the query from
	// reading (and parsing) the logs of older turns. '[]' is a turn
	// without entries (a pause, a resume).
	const q = `
SELECT turn_id, agent, event, coalesce(provider, ''), coalesce(model, ''), latency_ms,
    coalesce(input_tokens, 0), coalesce(output_tokens, 0), coalesce(cached_tokens, 0), coalesce(cost_usd, 0),
    coalesce(input_summary, ''), coalesce(prompt, ''), output, coalesce(reasoning, ''), coalesce(error, ''), created_at
FROM (
    SELECT * FROM agent_log_entries
    WHERE session_id = $1
        AND turn_version >= coalesce((SELECT version FROM session_turns
            WHERE session_id = $1 AND logs IS NOT NULL AND logs::text <> '[]'
            ORDER BY version DESC OFFSET $4 - 1 LIMIT 1), 0)
        AND (turn_version > 0 OR seq >= coalesce((SELECT id FROM agent_logs
            WHERE session_id = $1 ORDER BY id DESC OFFSET $4 - 1 LIMIT 1), 0))
    ORDER BY turn_version DESC, seq DESC LIMIT $4
) l
WHERE ($2 = '' OR turn_id = $2) AND ($3 = '' OR agent = $3)
ORDER BY turn_version, seq`
	rows, err := s.db.Query(ctx, q, sessionID, f.TurnID, f.Agent, window)
	if err != nil {
		return nil, interpretError("list agent logs", err)
	}
	logs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (AgentLog, error) {
		var l AgentLog
		var out []byte
		err := r.Scan(&l.TurnID, &l.Agent, &l.Event, &l.Provider, &l.Model, &l.LatencyMS, &l.InputTokens,
			&l.OutputTokens, &l.CachedTokens, &l.CostUSD, &l.InputSummary, &l.Prompt, &out, &l.Reasoning, &l.Error, &l.CreatedAt)
		l.Output = out
		return l, err
	})
	return logs, interpretError("list agent logs", err)
}
