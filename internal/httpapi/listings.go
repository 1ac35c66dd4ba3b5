package httpapi

import (
	"context"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/tutord/tutord/internal/store"
	"github.com/tutord/tutord/internal/tutor"
)

// Progress is what the learner-facing progress routes need of the store.
type Progress interface {
	ListSessions(ctx context.Context, learnerID uuid.UUID, o store.ListOptions) ([]store.Session, int, error)
	// ReportCard returns one entry per subject, topic key and subtopic key,
	// sorted by them, and the learner's number of sessions.
	ReportCard(ctx context.Context, learnerID uuid.UUID) ([]store.SubtopicProgress, int, error)
	SubtopicProgressMap(ctx context.Context, learnerID uuid.UUID) (map[uuid.UUID]store.TeachProgress, error)
	Resumable(ctx context.Context, learnerID, guidelineID uuid.UUID) (store.Session, error)
	Stats(ctx context.Context, learnerID uuid.UUID, tz string, now time.Time) (store.Stats, error)
}

// historyEntry is one session of a listing (the reference's HistoryEntry):
// keys of other modes are absent.
type historyEntry struct {
	SessionID         string      `json:"session_id"`
	CreatedAt         *tutor.Time `json:"created_at"`
	UpdatedAt         *tutor.Time `json:"updated_at"`
	TopicName         *string     `json:"topic_name"`
	Subject           *string     `json:"subject"`
	Mastery           float64     `json:"mastery"`
	StepIdx           int         `json:"step_idx"`
	Mode              string      `json:"mode"`
	Coverage          *float64    `json:"coverage,omitempty"`
	ConceptsDiscussed *[]string   `json:"concepts_discussed,omitempty"`
	ExamScore         *int        `json:"exam_score,omitempty"`
	ExamTotal         *int        `json:"exam_total,omitempty"`
	// tutord's additions.
	IsComplete bool `json:"is_complete"`
	IsPaused   bool `json:"is_paused"`
}

func toHistory(se store.Session) historyEntry {
	created, updated := tutor.NewTime(se.CreatedAt), tutor.NewTime(se.UpdatedAt)
	sm := se.Summary
	e := historyEntry{
		SessionID: se.ID.String(), CreatedAt: &created, UpdatedAt: &updated,
		TopicName: nonEmpty(sm.TopicName), Subject: nonEmpty(se.Subject),
		Mastery: sm.Mastery, StepIdx: sm.CurrentStep, Mode: se.Mode, IsComplete: sm.IsComplete, IsPaused: sm.IsPaused,
	}
	switch se.Mode {
	case string(tutor.ModeTeachMe):
		c := sm.Coverage
		e.Coverage = &c
	case string(tutor.ModeClarify):
		d := append([]string{}, sm.ConceptsDiscussed...)
		e.ConceptsDiscussed = &d
	case string(tutor.ModeExam):
		correct, total := 0, 0
		if sm.ExamCorrect != nil {
			correct = *sm.ExamCorrect
		}
		if sm.ExamQuestions != nil {
			total = *sm.ExamQuestions
		}
		e.ExamScore, e.ExamTotal = &correct, &total
	}
	return e
}

// listSessions serves GET /sessions: the caller's 20 most recent sessions.
// total is the length of the list, as in the reference.
func (s *Server) listSessions(c echo.Context) error {
	l, err := requireLearner(c)
	if err != nil {
		return err
	}
	rows, _, err := s.deps.Progress.ListSessions(c.Request().Context(), l.ID, store.ListOptions{Page: 1, PageSize: 20})
	if err != nil {
		return err
	}
	out := make([]historyEntry, len(rows))
	for i, r := range rows {
		out[i] = toHistory(r)
	}
	return c.JSON(http.StatusOK, map[string]any{"sessions": out, "total": len(out)})
}

// maxHistoryPage is the deepest page of GET /sessions/history, as the
// contract has it: 100,000 pages of 100 sessions is more than anyone has.
const maxHistoryPage = 100_000

// history serves GET /sessions/history: a page of the caller's sessions,
// newest first, optionally of one subject. page < 1 is a 422 (the
// reference answered 500), and so is a page beyond maxHistoryPage.
func (s *Server) history(c echo.Context) error {
	l, err := requireLearner(c)
	if err != nil {
		return err
	}
	q := queryParams{c: c}
	subject := q.optionalString("subject")
	page := q.intParam("page", false, 1)
	size := q.intParam("page_size", false, 20)
	q.min("page", page, 1)
	q.max("page", page, maxHistoryPage)
	q.min("page_size", size, 1)
	q.max("page_size", size, 100)
	if err := q.err(); err != nil {
		return err
	}
	rows, total, err := s.deps.Progress.ListSessions(c.Request().Context(), l.ID, store.ListOptions{Subject: subject, Page: page, PageSize: size})
	if err != nil {
		return err
	}
	out := make([]historyEntry, len(rows))
	for i, r := range rows {
		out[i] = toHistory(r)
	}
	return c.JSON(http.StatusOK, map[string]any{"sessions": out, "page": page, "page_size": size, "total": total})
}

// stats serves GET /sessions/stats.
func (s *Server) stats(c echo.Context) error {
	l, err := requireLearner(c)
	if err != nil {
		return err
	}
	st, err := s.deps.Progress.Stats(c.Request().Context(), l.ID, l.TimeZone, time.Now())
	if err != nil {
		return err
	}
	subjects := st.Subjects
	if subjects == nil {
		subjects = []string{}
	}
	return c.JSON(http.StatusOK, map[string]any{
		"total_sessions": st.TotalSessions, "average_mastery": st.AverageMastery,
		"topics_covered": subjects, "total_steps": st.TotalSteps,
		"time_spent_seconds": int64(st.TimeSpent / time.Second), "exams_taken": st.ExamsTaken,
		"average_exam_score": st.AverageExamScore, "streak_days": st.StreakDays,
	})
}

type reportSubtopic struct {
	Subtopic        string             `json:"subtopic"`
	SubtopicKey     string             `json:"subtopic_key"`
	GuidelineID     *string            `json:"guideline_id"`
	Coverage        float64            `json:"coverage"`
	LatestExamScore *int               `json:"latest_exam_score"`
	LatestExamTotal *int               `json:"latest_exam_total"`
	LastStudied     *tutor.Time        `json:"last_studied"`
	ConceptMastery  map[string]float64 `json:"concept_mastery"`
	ExamHistory     []reportExam       `json:"exam_history"`
	SessionCount    int                `json:"session_count"`
}

type reportExam struct {
	SessionID  string     `json:"session_id"`
	Score      int        `json:"score"`
	Total      int        `json:"total"`
	Percentage float64    `json:"percentage"`
	FinishedAt tutor.Time `json:"finished_at"`
}

type reportTopic struct {
	Topic     string           `json:"topic"`
	TopicKey  string           `json:"topic_key"`
	Subtopics []reportSubtopic `json:"subtopics"`
}

type reportSubject struct {
	Subject string        `json:"subject"`
	Topics  []reportTopic `json:"topics"`
}

// reportCard serves GET /sessions/report-card (CONTRACT §2.5), grouped
// subject → topic key → subtopic key and sorted by them, as the store
// returns the subtopics. A topic takes its title from its most recently
// studied subtopic.
func (s *Server) reportCard(c echo.Context) error {
	l, err := requireLearner(c)
	if err != nil {
		return err
	}
	rows, total, err := s.deps.Progress.ReportCard(c.Request().Context(), l.ID)
	if err != nil {
		return err
	}
	out := []reportSubject{}
	topics := 0
	var topicLatest time.Time // the last topic's latest session
	for _, p := range rows {
		if len(out) == 0 || out[len(out)-1].Subject != p.Subject {
			out = append(out, reportSubject{Subject: p.Subject})
		}
		subj := &out[len(out)-1]
		if len(subj.Topics) == 0 || subj.Topics[len(subj.Topics)-1].TopicKey != p.TopicKey {
			subj.Topics = append(subj.Topics, reportTopic{Topic: p.TopicTitle, TopicKey: p.TopicKey})
			topics++
			topicLatest = p.LastSession
		}
		t := &subj.Topics[len(subj.Topics)-1]
		if p.LastSession.After(topicLatest) {
			t.Topic, topicLatest = p.TopicTitle, p.LastSession
		}
		gid := p.GuidelineID.String()
		entry := reportSubtopic{
			Subtopic: p.SubtopicTitle, SubtopicKey: p.SubtopicKey, GuidelineID: &gid, Coverage: p.Coverage,
			LatestExamScore: p.LatestExamScore, LatestExamTotal: p.LatestExamTotal,
			ConceptMastery: p.ConceptMastery, ExamHistory: []reportExam{}, SessionCount: p.SessionCount,
		}
		if p.LastStudied != nil {
			ls := tutor.NewTime(*p.LastStudied)
			entry.LastStudied = &ls
		}
		for _, e := range p.Exams {
			pct := 0.0
			if e.Total > 0 {
				pct = store.Round(float64(e.Score)/float64(e.Total)*100, 1)
			}
			entry.ExamHistory = append(entry.ExamHistory, reportExam{SessionID: e.SessionID.String(), Score: e.Score, Total: e.Total, Percentage: pct, FinishedAt: tutor.NewTime(e.FinishedAt)})
		}
		t.Subtopics = append(t.Subtopics, entry)
	}
	return c.JSON(http.StatusOK, map[string]any{"total_sessions": total, "total_topics_studied": topics, "subjects": out})
}

// subtopicProgress serves GET /sessions/subtopic-progress.
func (s *Server) subtopicProgress(c echo.Context) error {
	l, err := requireLearner(c)
	if err != nil {
		return err
	}
	m, err := s.deps.Progress.SubtopicProgressMap(c.Request().Context(), l.ID)
	if err != nil {
		return err
	}
	out := make(map[string]any, len(m))
	for id, p := range m {
		out[id.String()] = map[string]any{"coverage": p.Coverage, "session_count": p.SessionCount, "status": "studied"}
	}
	return c.JSON(http.StatusOK, map[string]any{"user_progress": out})
}

var errNoResumable = &Error{Status: http.StatusNotFound, Code: "no_resumable_session", Message: "No resumable session found"}

// resumable serves GET /sessions/resumable?guideline_id=.
func (s *Server) resumable(c echo.Context) error {
	l, err := requireLearner(c)
	if err != nil {
		return err
	}
	q := queryParams{c: c}
	raw := q.requiredString("guideline_id")
	if err := q.err(); err != nil {
		return err
	}
	gid, err := uuid.Parse(raw)
	if err != nil {
		return errNoResumable
	}
	se, err := s.deps.Progress.Resumable(c.Request().Context(), l.ID, gid)
	if err != nil {
		if isNotFound(err) {
			return errNoResumable
		}
		return err
	}
	covered := se.Summary.ConceptsCovered
	if covered == nil {
		covered = []string{}
	}
	return c.JSON(http.StatusOK, map[string]any{
		"session_id": se.ID.String(), "coverage": se.Summary.Coverage, "current_step": se.Summary.CurrentStep,
		"total_steps": se.Summary.TotalSteps, "concepts_covered": covered,
	})
}
