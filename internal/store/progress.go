package store

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
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
	Exams           []ExamResult // the last 10 finished exams, oldest first
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

// ReportCard returns a learner's progress per subtopic, ordered by
// guideline id, and the number of the learner's sessions. It reads the
// summary columns of the learner's sessions in one pass, newest first
// within each subtopic, and adds them up in Go: a dozen SQL aggregates over
// the same rows cost PostgreSQL three times what reading them does.
//
// Coverage follows the reference: the concepts covered by all teach_me
// sessions, against the concepts of the latest teach_me session's mastery
// map, as a percentage rounded to one decimal.
func (s *Store) ReportCard(ctx context.Context, learnerID uuid.UUID) ([]SubtopicProgress, int, error) {
	rows, err := s.db.Query(ctx, reportCardQuery, learnerID)
	if err != nil {
		return nil, 0, interpretError("report card", err)
	}
	defer rows.Close()
	var (
		out      []SubtopicProgress
		total    int
		p        *SubtopicProgress // the subtopic being added up
		topicSet bool              // p.TopicName holds the latest non-null one
		covered  []string
		seen     map[string]bool
	)
	finish := func() {
		if p == nil {
			return
		}
		slices.Reverse(p.Exams) // oldest first
		if p.Exams == nil {
			p.Exams = []ExamResult{}
		}
		if p.ConceptMastery == nil {
			p.ConceptMastery = map[string]float64{}
		}
		p.Coverage = coverage(covered, p.ConceptMastery)
	}
	// The rows are scanned without allocating: uuids as pgtype.UUID (a
	// uuid.UUID would be parsed from text), text as bytes that point into
	// the driver's buffer, copied only for the few values kept. Thousands
	// of rows per call would otherwise make the garbage collector the
	// slowest part of a report card.
	var (
		guideline, id        pgtype.UUID
		mode                 pgtype.DriverBytes
		subject, topicName   pgtype.DriverBytes // nil or empty: none
		mastery, concepts    pgtype.DriverBytes
		examScore, examTotal pgtype.Int4
		finishedAt           pgtype.Timestamptz
		createdAt            time.Time
	)
	dest := []any{&guideline, &id, &mode, &subject, &topicName, &mastery,
		&examScore, &examTotal, &finishedAt, &createdAt, &concepts} // built once, not per row
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, 0, interpretError("report card", err)
		}
		total++
		if !guideline.Valid {
			continue // sessions without a subtopic count, nothing more
		}
		if p == nil || p.GuidelineID != guideline.Bytes {
			finish()
			out = append(out, SubtopicProgress{GuidelineID: guideline.Bytes, Subject: "Unknown"})
			p, topicSet, covered, seen = &out[len(out)-1], false, nil, map[string]bool{}
			// The rows come newest first: the first row's values are the latest.
			if len(subject) > 0 {
				p.Subject = string(subject)
			}
		}
		p.SessionCount++
		if !topicSet && len(topicName) > 0 {
			p.TopicName, topicSet = string(topicName), true
		}
		teach := string(mode) == "teach_me"
		finishedExam := string(mode) == "exam" && examTotal.Valid && examTotal.Int32 > 0
		if (teach || finishedExam) && (p.LastStudied == nil || createdAt.After(*p.LastStudied)) {
			t := createdAt
			p.LastStudied = &t
		}
		if teach {
			p.TeachSessions++
			if p.ConceptMastery == nil && mastery != nil {
				if err := json.Unmarshal(mastery, &p.ConceptMastery); err != nil {
					return nil, 0, interpretError("report card", err)
				}
				if len(p.ConceptMastery) == 0 {
					p.ConceptMastery = nil
				}
			}
			for rest := []byte(concepts); len(rest) > 0; {
				c, tail, _ := bytes.Cut(rest, []byte{conceptSeparator})
				if len(c) > 0 && !seen[string(c)] {
					seen[string(c)] = true
					covered = append(covered, string(c))
				}
				rest = tail
			}
		}
		if finishedExam {
			if p.LatestExamScore == nil {
				p.LatestExamScore, p.LatestExamTotal = intPtr(examScore), intPtr(examTotal)
			}
			if len(p.Exams) < 10 { // the last 10, newest first until finish
				p.Exams = append(p.Exams, ExamResult{SessionID: id.Bytes, Score: int(examScore.Int32),
					Total: int(examTotal.Int32), FinishedAt: finishedAt.Time})
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, 0, interpretError("report card", err)
	}
	finish()
	if err := s.nameSubtopics(ctx, out); err != nil {
		return nil, 0, interpretError("report card", err)
	}
	return out, total, nil
}

// nameSubtopics fills in the subject, topic and subtopic of each entry from
// its guideline, where the guideline still exists.
func (s *Store) nameSubtopics(ctx context.Context, ps []SubtopicProgress) error {
	if len(ps) == 0 {
		return nil
	}
	// [16]byte, not uuid.UUID: pgx would encode each through its
	// driver.Valuer, as text.
	ids := make([][16]byte, len(ps))
	at := make(map[uuid.UUID]int, len(ps))
	for i, p := range ps {
		ids[i], at[p.GuidelineID] = p.GuidelineID, i
	}
	rows, err := s.db.Query(ctx, `
SELECT id, subject, topic_title, topic_key, subtopic_title, subtopic_key FROM guidelines WHERE id = ANY($1)`, ids)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id pgtype.UUID
		var subject, topicTitle, topicKey, subtopicTitle, subtopicKey string
		if err := rows.Scan(&id, &subject, &topicTitle, &topicKey, &subtopicTitle, &subtopicKey); err != nil {
			return err
		}
		p := &ps[at[id.Bytes]]
		p.Subject, p.TopicTitle, p.TopicKey, p.SubtopicTitle, p.SubtopicKey = subject, topicTitle, topicKey, subtopicTitle, subtopicKey
	}
	return rows.Err()
}

func intPtr(v pgtype.Int4) *int {
	if !v.Valid {
		return nil
	}
	n := int(v.Int32)
	return &n
}

// conceptSeparator joins a session's covered concepts in reportCardQuery:
// the ASCII unit separator. Covered concepts are those of the plan, and
// curriculum files with a control character in a concept are refused.
const conceptSeparator = 0x1f

// reportCardQuery reads the summary columns of all of a learner's sessions,
// grouped by subtopic and newest first within each; sessions without a
// subtopic come last. Mastery and covered concepts count for teach_me
// sessions only, and only those are sent.
const reportCardQuery = `
SELECT guideline_id, CASE WHEN mode = 'exam' THEN id END, mode, subject, topic_name,
    CASE WHEN mode = 'teach_me' AND mastery_by_concept <> '{}'::jsonb THEN mastery_by_concept END,
    exam_score, exam_total, CASE WHEN mode = 'exam' THEN coalesce(completed_at, updated_at) END, created_at,
    CASE WHEN mode = 'teach_me' THEN array_to_string(concepts_covered, E'\x1f') END
FROM sessions
WHERE learner_id = $1
ORDER BY guideline_id NULLS LAST, created_at DESC, id DESC`

// unionOf returns the distinct concepts of a JSON list of concept lists.
func unionOf(lists []byte) ([]string, error) {
	var ls [][]string
	if err := json.Unmarshal(lists, &ls); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []string
	for _, l := range ls {
		for _, c := range l {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	return out, nil
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
	rows, err := s.db.Query(ctx, subtopicProgressQuery, learnerID)
	if err != nil {
		return nil, interpretError("subtopic progress", err)
	}
	return scanSubtopicProgress(rows)
}

const subtopicProgressQuery = `
SELECT guideline_id, count(*),
    coalesce(jsonb_agg(to_jsonb(concepts_covered)) FILTER (WHERE cardinality(concepts_covered) > 0), '[]'::jsonb),
    coalesce((array_agg(mastery_by_concept ORDER BY created_at DESC, id DESC)
        FILTER (WHERE mastery_by_concept <> '{}'::jsonb))[1], '{}'::jsonb)
FROM sessions
WHERE learner_id = $1 AND guideline_id IS NOT NULL AND mode = 'teach_me'
GROUP BY guideline_id`

func scanSubtopicProgress(rows pgx.Rows) (map[uuid.UUID]TeachProgress, error) {
	defer rows.Close()
	out := map[uuid.UUID]TeachProgress{}
	for rows.Next() {
		var id uuid.UUID
		var n int
		var coveredJSON, planJSON []byte
		if err := rows.Scan(&id, &n, &coveredJSON, &planJSON); err != nil {
			return nil, interpretError("subtopic progress", err)
		}
		covered, err := unionOf(coveredJSON)
		if err != nil {
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
	st.StreakDays, err = s.streak(ctx, learnerID, now.In(loc))
	if err != nil {
		return Stats{}, interpretError("stats", err)
	}
	return st, nil
}

// streak returns the learner's streak as of now: the active days (a
// session started, a turn taken, a session changed otherwise), as dates in
// now's time zone. The database groups the moments of activity into
// quarter hours (every time zone's offset today is a whole number of
// them, so none straddles a midnight) and the dates are taken here: the
// database would read a name such as CET as an abbreviation without
// summer time, where Go follows the zone's rules.
func (s *Store) streak(ctx context.Context, learnerID uuid.UUID, now time.Time) (int, error) {
	rows, err := s.db.Query(ctx, `
SELECT DISTINCT date_bin('15 minutes', t, timestamptz 'epoch') FROM (
    SELECT created_at AS t FROM sessions WHERE learner_id = $1
    UNION ALL SELECT updated_at FROM sessions WHERE learner_id = $1
    UNION ALL SELECT st.created_at FROM session_turns st JOIN sessions se ON se.id = st.session_id WHERE se.learner_id = $1
) activity`, learnerID)
	if err != nil {
		return 0, err
	}
	moments, err := pgx.CollectRows(rows, pgx.RowTo[time.Time])
	if err != nil {
		return 0, err
	}
	seen := map[time.Time]bool{}
	var days []time.Time
	for _, m := range moments {
		y, mo, d := m.In(now.Location()).Date()
		day := time.Date(y, mo, d, 0, 0, 0, 0, time.UTC)
		if !seen[day] {
			seen[day] = true
			days = append(days, day)
		}
	}
	slices.SortFunc(days, func(a, b time.Time) int { return b.Compare(a) })
	return streak(days, now), nil
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
