package store

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// SubtopicProgress is what a learner's sessions on one subtopic add up to,
// the row behind a report-card entry. A subtopic is a subject, topic key and
// subtopic key: its sessions may point at several guidelines (the subtopic
// removed and imported again, or the same keys in two boards or grades).
type SubtopicProgress struct {
	// GuidelineID, the titles and the subject are those of the latest
	// session's guideline: from the guideline when it still exists, else
	// (a removed subtopic) the session's subject and TopicName split on its
	// first " - ", keyed by their slugs.
	GuidelineID   uuid.UUID
	Subject       string
	TopicTitle    string
	TopicKey      string
	SubtopicTitle string
	SubtopicKey   string
	TopicName     string    // the latest session's "<topic> - <subtopic>"
	LastSession   time.Time // when the latest session, of any mode, started
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

// maxExams is how many of a subtopic's latest exams a report card lists.
const maxExams = 10

// ReportCard returns a learner's progress per subtopic, ordered by subject,
// topic key and subtopic key, and the number of the learner's sessions. It
// reads the summary columns of the learner's sessions in one pass, newest
// first within each guideline, and adds them up in Go: a dozen SQL
// aggregates over the same rows cost PostgreSQL three times what reading
// them does. The sums per guideline are then named from the guidelines and
// merged per subtopic, as the reference groups its report card.
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
		sums  []reportSum
		total int
		e     *reportSum // the guideline being added up
		seen  map[string]bool
	)
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
		at := sessionAt{createdAt.UnixMicro(), id.Bytes}
		if e == nil || e.p.GuidelineID != guideline.Bytes {
			sums = append(sums, reportSum{p: SubtopicProgress{GuidelineID: guideline.Bytes, Subject: "Unknown", LastSession: createdAt}, latest: at})
			e, seen = &sums[len(sums)-1], map[string]bool{}
			// The rows come newest first: the first row's values are the latest.
			if len(subject) > 0 {
				e.p.Subject = string(subject)
			}
		}
		p := &e.p
		p.SessionCount++
		if p.TopicName == "" && len(topicName) > 0 {
			p.TopicName, e.topicAt = string(topicName), at
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
				e.masteryAt = at
			}
			for rest := []byte(concepts); len(rest) > 0; {
				c, tail, _ := bytes.Cut(rest, []byte{conceptSeparator})
				if len(c) > 0 && !seen[string(c)] {
					seen[string(c)] = true
					e.covered = append(e.covered, string(c))
				}
				rest = tail
			}
		}
		if finishedExam && len(p.Exams) < maxExams { // newest first until finish
			p.Exams = append(p.Exams, ExamResult{SessionID: id.Bytes, Score: int(examScore.Int32),
				Total: int(examTotal.Int32), FinishedAt: finishedAt.Time})
			e.examsAt = append(e.examsAt, at)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, 0, interpretError("report card", err)
	}
	if err := s.nameSubtopics(ctx, sums); err != nil {
		return nil, 0, interpretError("report card", err)
	}
	return mergeSubtopics(sums), total, nil
}

// sessionAt orders sessions as the reference processes them: by creation
// (in microseconds, PostgreSQL's precision, to keep a reportSum small),
// then id.
type sessionAt struct {
	created int64
	id      [16]byte
}

func (a sessionAt) after(b sessionAt) bool {
	if a.created != b.created {
		return a.created > b.created
	}
	return bytes.Compare(a.id[:], b.id[:]) > 0
}

// reportSum is the sum of a learner's sessions on one guideline, with what
// merging it with the other sums of its subtopic needs: which sessions its
// latest values come from, and the concepts covered.
type reportSum struct {
	p                          SubtopicProgress
	latest, topicAt, masteryAt sessionAt
	examsAt                    []sessionAt // p.Exams', newest first
	covered                    []string    // may repeat across merged sums
}

// add merges o, a sum of the same subtopic, into r.
func (r *reportSum) add(o *reportSum) {
	p, q := &r.p, &o.p
	if o.latest.after(r.latest) {
		r.latest = o.latest
		p.GuidelineID, p.Subject, p.LastSession = q.GuidelineID, q.Subject, q.LastSession
		p.TopicTitle, p.SubtopicTitle = q.TopicTitle, q.SubtopicTitle
	}
	if q.TopicName != "" && (p.TopicName == "" || o.topicAt.after(r.topicAt)) {
		p.TopicName, r.topicAt = q.TopicName, o.topicAt
	}
	if q.ConceptMastery != nil && (p.ConceptMastery == nil || o.masteryAt.after(r.masteryAt)) {
		p.ConceptMastery, r.masteryAt = q.ConceptMastery, o.masteryAt
	}
	if q.LastStudied != nil && (p.LastStudied == nil || q.LastStudied.After(*p.LastStudied)) {
		p.LastStudied = q.LastStudied
	}
	p.SessionCount += q.SessionCount
	p.TeachSessions += q.TeachSessions
	r.covered = append(r.covered, o.covered...)
	if len(q.Exams) > 0 { // both newest first: merge them
		exams := make([]ExamResult, 0, min(len(p.Exams)+len(q.Exams), maxExams))
		at := make([]sessionAt, 0, cap(exams))
		i, j := 0, 0
		for len(exams) < maxExams && (i < len(p.Exams) || j < len(q.Exams)) {
			if j == len(q.Exams) || i < len(p.Exams) && r.examsAt[i].after(o.examsAt[j]) {
				exams, at = append(exams, p.Exams[i]), append(at, r.examsAt[i])
				i++
			} else {
				exams, at = append(exams, q.Exams[j]), append(at, o.examsAt[j])
				j++
			}
		}
		p.Exams, r.examsAt = exams, at
	}
}

// mergeSubtopics merges the named sums of the same subject, topic key and
// subtopic key and finishes them: coverage, latest exam, exams oldest first.
func mergeSubtopics(sums []reportSum) []SubtopicProgress {
	// Sorted by pointer: a reportSum is a few hundred bytes to swap.
	order := make([]*reportSum, len(sums))
	for i := range sums {
		order[i] = &sums[i]
	}
	slices.SortFunc(order, func(a, b *reportSum) int {
		return cmp.Or(cmp.Compare(a.p.Subject, b.p.Subject), cmp.Compare(a.p.TopicKey, b.p.TopicKey),
			cmp.Compare(a.p.SubtopicKey, b.p.SubtopicKey))
	})
	out := make([]SubtopicProgress, 0, len(sums))
	for i := 0; i < len(order); {
		r := order[i]
		for i++; i < len(order) && order[i].p.Subject == r.p.Subject &&
			order[i].p.TopicKey == r.p.TopicKey && order[i].p.SubtopicKey == r.p.SubtopicKey; i++ {
			r.add(order[i])
		}
		p := r.p
		if len(p.Exams) > 0 {
			score, total := p.Exams[0].Score, p.Exams[0].Total // the latest
			p.LatestExamScore, p.LatestExamTotal = &score, &total
		}
		slices.Reverse(p.Exams) // oldest first
		if p.Exams == nil {
			p.Exams = []ExamResult{}
		}
		if p.ConceptMastery == nil {
			p.ConceptMastery = map[string]float64{}
		}
		p.Coverage = coverage(r.covered, p.ConceptMastery)
		out = append(out, p)
	}
	return out
}

// nameSubtopics fills in the subject, topic and subtopic of each sum from
// its guideline where the guideline still exists, and from the latest
// session's topic name otherwise, as the reference names them.
func (s *Store) nameSubtopics(ctx context.Context, sums []reportSum) error {
	if len(sums) == 0 {
		return nil
	}
	ids := make([]uuid.UUID, len(sums))
	at := make(map[uuid.UUID]int, len(sums))
	for i, r := range sums {
		ids[i], at[r.p.GuidelineID] = r.p.GuidelineID, i
	}
	rows, err := s.db.Query(ctx, `
SELECT id, subject, topic_title, topic_key, subtopic_title, subtopic_key FROM guidelines WHERE id = ANY($1::uuid[])`, uuidTexts(ids))
	if err != nil {
		return err
	}
	defer rows.Close()
	named := make([]bool, len(sums))
	for rows.Next() {
		var id pgtype.UUID
		var subject, topicTitle, topicKey, subtopicTitle, subtopicKey string
		if err := rows.Scan(&id, &subject, &topicTitle, &topicKey, &subtopicTitle, &subtopicKey); err != nil {
			return err
		}
		i := at[id.Bytes]
		p := &sums[i].p
		p.Subject, p.TopicTitle, p.TopicKey, p.SubtopicTitle, p.SubtopicKey = subject, topicTitle, topicKey, subtopicTitle, subtopicKey
		named[i] = true
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for i := range sums {
		p := &sums[i].p
		if !named[i] { // the subtopic was removed from the curriculum
			p.TopicTitle, p.SubtopicTitle = "Unknown", "Unknown"
			if p.TopicName != "" {
				p.TopicTitle, p.SubtopicTitle = p.TopicName, p.TopicName
				if a, b, ok := strings.Cut(p.TopicName, " - "); ok {
					p.TopicTitle, p.SubtopicTitle = a, b
				}
			}
		}
		if p.TopicKey == "" {
			p.TopicKey = slug(p.TopicTitle)
		}
		if p.SubtopicKey == "" {
			p.SubtopicKey = slug(p.SubtopicTitle)
		}
	}
	return nil
}

// slug lowercases a name and replaces spaces with hyphens, as the
// reference keyed names it had no key for.
func slug(s string) string { return strings.ReplaceAll(strings.ToLower(s), " ", "-") }

// conceptSeparator joins a session's covered concepts in reportCardQuery:
// the ASCII unit separator. Covered concepts are those of the plan, and
// curriculum files with a control character in a concept are refused.
const conceptSeparator = 0x1f

// reportCardQuery reads the summary columns of all of a learner's sessions,
// grouped by guideline and newest first within each; sessions without a
// guideline come last. Mastery and covered concepts count for teach_me
// sessions only, and only those are sent.
const reportCardQuery = `
SELECT guideline_id, id, mode, subject, topic_name,
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
SELECT count(*), avg(mastery), coalesce(array_agg(DISTINCT subject COLLATE "C" ORDER BY subject COLLATE "C") FILTER (WHERE subject IS NOT NULL), '{}'),
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
