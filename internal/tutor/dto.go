package tutor

// StateDTO is the learner-facing view of a session (the WebSocket
// state_update's state, the reference's SessionStateDTO) plus two additive
// fields. It has no field that could carry an expected answer.
type StateDTO struct {
	SessionID          string            `json:"session_id"`
	CurrentStep        int               `json:"current_step"`
	TotalSteps         int               `json:"total_steps"`
	CurrentConcept     *string           `json:"current_concept"`
	ProgressPercentage float64           `json:"progress_percentage"`
	MasteryEstimates   Mastery           `json:"mastery_estimates"`
	IsComplete         bool              `json:"is_complete"`
	Mode               Mode              `json:"mode"`
	Coverage           float64           `json:"coverage"`
	ConceptsDiscussed  []string          `json:"concepts_discussed"`
	ExamProgress       *LiveExamProgress `json:"exam_progress"`
	IsPaused           bool              `json:"is_paused"`
	// QuestionPhase is the pending question's phase (asked, probe, hint,
	// explain); null when no question is pending or during an exam.
	QuestionPhase *Phase `json:"question_phase"`
	// LastAnswerResult is the latest turn's judged answer (correct,
	// partial, incorrect); null when it judged none, and always during an
	// exam, whose results stay hidden until the end.
	LastAnswerResult *Result `json:"last_answer_result"`
}

// DTO returns the learner-facing view of the session. is_complete follows
// the mode (IsComplete), for exams too.
func (s State) DTO(t *Topic) StateDTO {
	d := StateDTO{
		SessionID:          s.SessionID,
		CurrentStep:        s.CurrentStep,
		TotalSteps:         t.TotalSteps(),
		ProgressPercentage: s.ProgressPercentage(t),
		MasteryEstimates:   append(Mastery{}, s.MasteryEstimates...),
		IsComplete:         s.IsComplete(t),
		Mode:               s.Mode,
		Coverage:           s.Coverage(t),
		ConceptsDiscussed:  append([]string{}, s.ConceptsDiscussed...),
		IsPaused:           s.IsPaused,
	}
	if c, ok := s.CurrentConcept(t); ok {
		d.CurrentConcept = &c
	}
	if p, ok := s.LiveExamProgress(); ok {
		d.ExamProgress = &p
	}
	if s.Mode != ModeExam {
		if s.LastQuestion != nil {
			p := s.LastQuestion.Phase
			d.QuestionPhase = &p
		}
		d.LastAnswerResult = clonePtr(s.LastAnswerResult)
	}
	return d
}
