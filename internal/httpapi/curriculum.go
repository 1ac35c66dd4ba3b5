package httpapi

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/tutord/tutord/internal/store"
)

// Curriculum is what the curriculum discovery route needs.
type Curriculum interface {
	CurriculumSubjects(ctx context.Context, f store.CurriculumFilter) ([]string, error)
	CurriculumTopics(ctx context.Context, f store.CurriculumFilter) ([]string, error)
	CurriculumSubtopics(ctx context.Context, f store.CurriculumFilter) ([]store.SubtopicEntry, error)
}

type subtopicEntry struct {
	Subtopic    string `json:"subtopic"`
	GuidelineID string `json:"guideline_id"`
	Key         string `json:"key"`
}

type curriculumResponse struct {
	Subjects  []string        `json:"subjects"`
	Topics    []string        `json:"topics"`
	Subtopics []subtopicEntry `json:"subtopics"`
}

// getCurriculum answers GET /curriculum: the subjects of a grade, the topics
// of a subject, or the subtopics of a topic (approved ones only). Exactly one
// of the three keys is non-null; a topic without a subject is ignored, as in
// the reference.
func (s *Server) getCurriculum(c echo.Context) error {
	q := queryParams{c: c}
	f := store.CurriculumFilter{
		Country: q.requiredString("country"),
		Board:   q.requiredString("board"),
		Grade:   q.intParam("grade", true, 0),
		Subject: q.optionalString("subject"),
		Topic:   q.optionalString("topic"),
	}
	if err := q.err(); err != nil {
		return err
	}
	ctx := c.Request().Context()
	var resp curriculumResponse
	switch {
	case f.Subject != "" && f.Topic != "":
		entries, err := s.deps.Curriculum.CurriculumSubtopics(ctx, f)
		if err != nil {
			return err
		}
		resp.Subtopics = make([]subtopicEntry, len(entries))
		for i, e := range entries {
			resp.Subtopics[i] = subtopicEntry{Subtopic: e.Subtopic, GuidelineID: e.GuidelineID.String(), Key: e.Key}
		}
	case f.Subject != "":
		topics, err := s.deps.Curriculum.CurriculumTopics(ctx, f)
		if err != nil {
			return err
		}
		resp.Topics = topics
	default:
		subjects, err := s.deps.Curriculum.CurriculumSubjects(ctx, f)
		if err != nil {
			return err
		}
		resp.Subjects = subjects
	}
	return c.JSON(http.StatusOK, resp)
}
