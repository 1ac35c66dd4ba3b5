package orchestrator

import (
	"github.com/tutord/tutord/internal/tutor"
)

// StepResponse is the REST step response (the reference's StepResponse),
// stored with the turn so that a retry gets the same bytes.
type StepResponse struct {
	NextTurn NextTurn `json:"next_turn"`
	// Routing is "Advance" when the tutor's intent was continuation, else
	// "Continue" (the reference's values).
	Routing string `json:"routing"`
	// LastGrading is always null, as in the reference.
	LastGrading *struct{} `json:"last_grading"`
	// Intent is the tutor's intent (additive).
	Intent string `json:"intent"`
}

// NextTurn is the turn object of a step response. Mode-specific keys are
// absent in other modes, as in the reference; question_phase and
// last_answer_result are tutord's additions.
type NextTurn struct {
	Message           string              `json:"message"`
	Hints             []string            `json:"hints"`
	StepIdx           int                 `json:"step_idx"`
	MasteryScore      float64             `json:"mastery_score"`
	IsComplete        bool                `json:"is_complete"`
	ExamProgress      *tutor.ExamProgress `json:"exam_progress,omitempty"`
	ExamFeedback      *tutor.ExamFeedback `json:"exam_feedback,omitempty"`
	ExamResults       []ExamResult        `json:"exam_results,omitempty"`
	ConceptsDiscussed *[]string           `json:"concepts_discussed,omitempty"`
	QuestionPhase     *tutor.Phase        `json:"question_phase"`
	LastAnswerResult  *tutor.Result       `json:"last_answer_result"`
}

// ExamResult is one question of a finished exam's review. CorrectAnswer
// (tutord's addition) is the expected answer of a question the learner
// answered (one with a result), so that the review can show it; it stays
// null for one left unanswered, whose question may come up again in a
// later exam.
type ExamResult struct {
	QuestionIdx   int           `json:"question_idx"`
	QuestionText  string        `json:"question_text"`
	StudentAnswer *string       `json:"student_answer"`
	Result        *tutor.Result `json:"result"`
	CorrectAnswer *string       `json:"correct_answer"`
}

// FirstTurn is the turn object of a new session (the reference's
// first_turn), plus tutord's additive fields. The reference has no
// mastery_score or is_complete here although its frontend's Turn type
// requires mastery_score (CONTRACT §10 #11); tutord sends both, as a
// next_turn does.
type FirstTurn struct {
	Message          string              `json:"message"`
	Hints            []string            `json:"hints"`
	StepIdx          int                 `json:"step_idx"`
	MasteryScore     float64             `json:"mastery_score"`
	IsComplete       bool                `json:"is_complete"`
	ExamProgress     *tutor.ExamProgress `json:"exam_progress,omitempty"`
	QuestionPhase    *tutor.Phase        `json:"question_phase"`
	LastAnswerResult *tutor.Result       `json:"last_answer_result"`
}

// NewFirstTurn returns the first turn of a new session on topic t.
func NewFirstTurn(s tutor.State, t *tutor.Topic, welcome string) FirstTurn {
	ft := FirstTurn{Message: welcome, Hints: []string{}, StepIdx: s.CurrentStep, MasteryScore: s.OverallMastery(), IsComplete: s.IsComplete(t)}
	if p, ok := s.ExamProgress(); ok {
		ft.ExamProgress = &p
	}
	return ft
}

func stepResponse(s tutor.State, t *tutor.Topic, reply, intent string) StepResponse {
	routing := "Continue"
	if intent == "continuation" {
		routing = "Advance"
	}
	return StepResponse{NextTurn: nextTurn(s, t, reply), Routing: routing, Intent: intent}
}

func nextTurn(s tutor.State, t *tutor.Topic, reply string) NextTurn {
	dto := s.DTO(t)
	nt := NextTurn{
		Message: reply, Hints: []string{}, StepIdx: s.CurrentStep, MasteryScore: s.OverallMastery(),
		IsComplete: s.IsComplete(t), QuestionPhase: dto.QuestionPhase, LastAnswerResult: dto.LastAnswerResult,
	}
	switch s.Mode {
	case tutor.ModeExam:
		if p, ok := s.ExamProgress(); ok {
			nt.ExamProgress = &p
		}
		if s.ExamFinished && s.ExamFeedback != nil {
			nt.ExamFeedback = s.ExamFeedback
			nt.ExamResults = make([]ExamResult, len(s.ExamQuestions))
			for i, q := range s.ExamQuestions {
				nt.ExamResults[i] = ExamResult{QuestionIdx: q.QuestionIdx, QuestionText: q.QuestionText, StudentAnswer: q.StudentAnswer, Result: q.Result}
				if q.Result != nil {
					correct := q.ShownAnswer(t)
					nt.ExamResults[i].CorrectAnswer = &correct
				}
			}
		}
	case tutor.ModeClarify:
		discussed := append([]string{}, s.ConceptsDiscussed...)
		nt.ConceptsDiscussed = &discussed
	}
	return nt
}
