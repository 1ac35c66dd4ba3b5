package store

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// SubtopicProgress is what a learner's sessions on one subtopic add up to,
// the row behind a report-card entry.
type SubtopicProgress struct {
	GuidelineID uuid.UUID
	Subject     string // the guideline's subject, else the sessions'
	// From the guideline when it still exists; zero otherwise (a removed
	// subtopic), when the caller falls back to TopicName.
	TopicTitle    string
	TopicKey      string
	SubtopicTitle string
	SubtopicKey   string
	TopicName     string // the latest session's "<topic> - <subtopic>"
	Coverage      float64
	// ConceptMastery is the latest teach_me session's mastery per concept.
	ConceptMastery  map[string]float64
	LatestExamScore *int
	LatestExamTotal *int
	Exams           []ExamResult // finished exams, oldest first
	LastStudied     *time.Time
	SessionCount    int
	TeachSessions   int
}

// ExamResult is one finished exam.
type ExamResult struct {
	SessionID  uuid.UUID `json:"session_id"`
	Score      int       `json:"score"`
	Total      int       `json:"total"`
	FinishedAt time.Time `json:"finished_at"`
}

// ReportCard returns a learner's progress per subtopic, computed in SQL from
// the sessions' summary columns (one row per subtopic reaches Go), and the
// number of the learner's sessions.
//
// Coverage follows the reference: the concepts covered by all teach_me
// sessions, against the concepts of the latest teach_me session's mastery
// map, as a percentage rounded to one decimal.
func (s *Store) ReportCard(ctx context.Context, learnerID uuid.UUID) ([]SubtopicProgress, int, error) {
	const q = `
WITH s AS (
    SELECT id, mode, guideline_id, subject, topic_name, concepts_covered, mastery_by_concept,
        exam_score, exam_total, created_at, coalesce(completed_at, updated_at) AS finished_at
    FROM sessions WHERE learner_id = $1 AND guideline_id IS NOT NULL
), latest_teach AS (
    SELECT DISTINCT ON (guideline_id) guideline_id, mastery_by_concept
    FROM s WHERE mode = 'teach_me' AND mastery_by_concept <> '{}'::jsonb
    ORDER BY guideline_id, created_at DESC, id DESC
), covered AS (
    SELECT guideline_id, array_agg(DISTINCT c) AS concepts
    FROM s CROSS JOIN LATERAL unnest(s.concepts_covered) AS c
    WHERE mode = 'teach_me' GROUP BY guideline_id
), exams AS (
    SELECT guideline_id,
        jsonb_agg(jsonb_build_object('session_id', id, 'score', exam_score, 'total', exam_total,
            'finished_at', finished_at) ORDER BY created_at, id) AS history,
        (array_agg(exam_score ORDER BY created_at DESC, id DESC))[1] AS latest_score,
        (array_agg(exam_total ORDER BY created_at DESC, id DESC))[1] AS latest_total
    FROM s WHERE mode = 'exam' AND exam_total > 0 GROUP BY guideline_id
), agg AS (
    SELECT guideline_id,
        (array_agg(subject ORDER BY created_at DESC, id DESC))[1] AS subject,
        (array_agg(topic_name ORDER BY created_at DESC, id DESC) FILTER (WHERE topic_name IS NOT NULL))[1] AS topic_name,
        max(created_at) FILTER (WHERE mode = 'teach_me' OR (mode = 'exam' AND exam_total > 0)) AS last_studied,
        count(*) AS sessions, count(*) FILTER (WHERE mode = 'teach_me') AS teach_sessions
    FROM s GROUP BY guideline_id
)
SELECT agg.guideline_id, coalesce(g.subject, agg.subject, 'Unknown'), coalesce(agg.topic_name, ''),
    coalesce(g.topic_title, ''), coalesce(g.topic_key, ''), coalesce(g.subtopic_title, ''), coalesce(g.subtopic_key, ''),
    coalesce(lt.mastery_by_concept, '{}'::jsonb), coalesce(c.concepts, '{}'),
    e.latest_score, e.latest_total, coalesce(e.history, '[]'::jsonb), agg.last_studied, agg.sessions, agg.teach_sessions,
    (SELECT count(*) FROM sessions WHERE learner_id = $1)
FROM agg
LEFT JOIN guidelines g ON g.id = agg.guideline_id
LEFT JOIN latest_teach lt ON lt.guideline_id = agg.guideline_id
LEFT JOIN covered c ON c.guideline_id = agg.guideline_id
LEFT JOIN exams e ON e.guideline_id = agg.guideline_id`
	rows, err := s.db.Query(ctx, q, learnerID)
	if err != nil {
		return nil, 0, interpretError("report card", err)
	}
	defer rows.Close()
	var out []SubtopicProgress
	total := 0
	for rows.Next() {
		var p SubtopicProgress
		var mastery, history []byte
		var covered []string
		if err := rows.Scan(&p.GuidelineID, &p.Subject, &p.TopicName, &p.TopicTitle, &p.TopicKey, &p.SubtopicTitle,
			&p.SubtopicKey, &mastery, &covered, &p.LatestExamScore, &p.LatestExamTotal, &history, &p.LastStudied,
			&p.SessionCount, &p.TeachSessions, &total); err != nil {
			return nil, 0, interpretError("report card", err)
		}
		if err := json.Unmarshal(mastery, &p.ConceptMastery); err != nil {
			return nil, 0, interpretError("report card", err)
		}
		if err := json.Unmarshal(history, &p.Exams); err != nil {
			return nil, 0, interpretError("report card", err)
		}
		p.Coverage = coverage(covered, p.ConceptMastery)
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, interpretError("report card", err)
	}
	if out == nil {
		// No subtopic rows; still count the sessions (all modes).
		if err := s.db.QueryRow(ctx, `SELECT count(*) FROM sessions WHERE learner_id = $1`, learnerID).Scan(&total); err != nil {
			return nil, 0, interpretError("report card", err)
		}
	}
	return out, total, nil
}

// coverage is |covered ∩ plan| / |plan| × 100 rounded to one decimal as
// Python's round() does (half to even on the binary value), 0 when the plan
// is empty.
func coverage(covered []string, plan map[string]float64) float64 {
	if len(plan) == 0 {
		return 0
	}
	n := 0
	for _, c := range slices.Compact(slices.Sorted(slices.Values(covered))) {
		if _, ok := plan[c]; ok {
			n++
		}
	}
	return Round(float64(n)/float64(len(plan))*100, 1)
}

// Round rounds x to the given number of decimals the way Python's round()
// does: to the nearest representable decimal, ties to even, decided on the
// exact binary value (strconv formats exactly that way).
func Round(x float64, decimals int) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', decimals, 64), 64)
	return r
}

// TeachProgress is a learner's teach_me progress on one subtopic.
type TeachProgress struct {
	Coverage     float64
	SessionCount int
}

// SubtopicProgressMap returns, per subtopic the learner studied in teach_me
// mode, the coverage and the number of teach_me sessions.
func (s *Store) SubtopicProgressMap(ctx context.Context, learnerID uuid.UUID) (map[uuid.UUID]TeachProgress, error) {
	const q = `
WITH s AS (
    SELECT id, guideline_id, concepts_covered, mastery_by_concept, created_at
    FROM sessions WHERE learner_id = $1 AND guideline_id IS NOT NULL AND mode = 'teach_me'
), latest AS (
    SELECT DISTINCT ON (guideline_id) guideline_id, mastery_by_concept
    FROM s WHERE mastery_by_concept <> '{}'::jsonb ORDER BY guideline_id, created_at DESC, id DESC
)
SELECT s.guideline_id, count(DISTINCT s.id),
    coalesce((SELECT array_agg(DISTINCT c) FROM s s2 CROSS JOIN LATERAL unnest(s2.concepts_covered) c
              WHERE s2.guideline_id = s.guideline_id), '{}'),
    coalesce(l.mastery_by_concept, '{}'::jsonb)
FROM s LEFT JOIN latest l ON l.guideline_id = s.guideline_id
GROUP BY s.guideline_id, l.mastery_by_concept`
	rows, err := s.db.Query(ctx, q, learnerID)
	if err != nil {
		return nil, interpretError("subtopic progress", err)
	}
	defer rows.Close()
	out := map[uuid.UUID]TeachProgress{}
	for rows.Next() {
		var id uuid.UUID
		var n int
		var covered []string
		var planJSON []byte
		if err := rows.Scan(&id, &n, &covered, &planJSON); err != nil {
			return nil, interpretError("subtopic progress", err)
		}
		var plan map[string]float64
		if err := json.Unmarshal(planJSON, &plan); err != nil {
			return nil, interpretError("subtopic progress", err)
		}
		out[id] = TeachProgress{Coverage: coverage(covered, plan), SessionCount: n}
	}
	return out, interpretError("subtopic progress", rows.Err())
}

// Resumable returns the learner's most recently updated paused teach_me
// session on a subtopic, or ErrNotFound.
func (s *Store) Resumable(ctx context.Context, learnerID, guidelineID uuid.UUID) (Session, error) {
	se, err := scanSession(s.db.QueryRow(ctx, `SELECT `+sessionColumns+` FROM sessions
WHERE learner_id = $1 AND guideline_id = $2 AND is_paused AND mode = 'teach_me'
ORDER BY updated_at DESC LIMIT 1`, learnerID, guidelineID))
	return se, interpretError("resumable session", err)
}

// PastDiscussion is what an earlier clarify_doubts session discussed.
type PastDiscussion struct {
	SessionDate time.Time
	Concepts    []string
}

// PastDiscussions returns up to 5 of the learner's most recent
// clarify_doubts sessions on a subtopic that discussed something, newest
// first, leaving out the session `except` (the one being created).
func (s *Store) PastDiscussions(ctx context.Context, learnerID, guidelineID, except uuid.UUID) ([]PastDiscussion, error) {
	rows, err := s.db.Query(ctx, `
SELECT created_at, concepts_discussed FROM sessions
WHERE learner_id = $1 AND guideline_id = $2 AND mode = 'clarify_doubts' AND id <> $3
    AND cardinality(concepts_discussed) > 0
ORDER BY created_at DESC, id DESC LIMIT 5`, learnerID, guidelineID, except)
	if err != nil {
		return nil, interpretError("past discussions", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (PastDiscussion, error) {
		var p PastDiscussion
		err := r.Scan(&p.SessionDate, &p.Concepts)
		return p, err
	})
	return out, interpretError("past discussions", err)
}

// Stats are a learner's totals.
type Stats struct {
	TotalSessions    int
	AverageMastery   float64 // mean of the sessions' mean mastery, rounded to 2 decimals
	Subjects         []string
	TotalSteps       int
	TimeSpent        time.Duration // sum over sessions of last activity − start
	ExamsTaken       int
	AverageExamScore float64 // mean percentage of finished exams, rounded to 1 decimal
	// StreakDays counts consecutive active days, in the learner's time zone,
	// ending today, or yesterday when the learner has not been active today.
	StreakDays int
}

// Stats computes a learner's totals as of now, in the time zone tz (an IANA name).
func (s *Store) Stats(ctx context.Context, learnerID uuid.UUID, tz string, now time.Time) (Stats, error) {
	var st Stats
	var avgMastery, avgExam *float64
	var seconds float64
	err := s.db.QueryRow(ctx, `
SELECT count(*), avg(mastery), coalesce(array_agg(DISTINCT subject ORDER BY subject) FILTER (WHERE subject IS NOT NULL), '{}'),
    coalesce(sum(current_step), 0), coalesce(sum(extract(epoch FROM updated_at - created_at)), 0),
    count(*) FILTER (WHERE mode = 'exam' AND exam_total > 0),
    avg(exam_score::float8 / exam_total * 100) FILTER (WHERE mode = 'exam' AND exam_total > 0)
FROM sessions WHERE learner_id = $1`, learnerID).
		Scan(&st.TotalSessions, &avgMastery, &st.Subjects, &st.TotalSteps, &seconds, &st.ExamsTaken, &avgExam)
	if err != nil {
		return Stats{}, interpretError("stats", err)
	}
	if avgMastery != nil {
		st.AverageMastery = Round(*avgMastery, 2)
	}
	if avgExam != nil {
		st.AverageExamScore = Round(*avgExam, 1)
	}
	st.TimeSpent = time.Duration(seconds * float64(time.Second))

	loc, err := time.LoadLocation(tz)
	if err != nil {
		loc = time.UTC
	}
	rows, err := s.db.Query(ctx, `
SELECT DISTINCT d FROM (
    SELECT (created_at AT TIME ZONE $2)::date AS d FROM sessions WHERE learner_id = $1
    UNION SELECT (updated_at AT TIME ZONE $2)::date FROM sessions WHERE learner_id = $1
) days ORDER BY d DESC LIMIT 400`, learnerID, loc.String())
	if err != nil {
		return Stats{}, interpretError("stats", err)
	}
	days, err := pgx.CollectRows(rows, pgx.RowTo[time.Time])
	if err != nil {
		return Stats{}, interpretError("stats", err)
	}
	st.StreakDays = streak(days, now.In(loc))
	return st, nil
}

// streak counts consecutive days in days (distinct dates, newest first)
// ending today or yesterday.
func streak(days []time.Time, today time.Time) int {
	want := time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, time.UTC)
	if len(days) > 0 && !sameDate(days[0], want) {
		want = want.AddDate(0, 0, -1)
	}
	n := 0
	for _, d := range days {
		if !sameDate(d, want) {
			break
		}
		n++
		want = want.AddDate(0, 0, -1)
	}
	return n
}

func sameDate(a, b time.Time) bool {
	ay, am, ad := a.Date()
	by, bm, bd := b.Date()
	return ay == by && am == bm && ad == bd
}
