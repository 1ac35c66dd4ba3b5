package client

// State is the learner-facing state of a state_update frame (the
// contract's SessionStateDTO).
type State struct {
	SessionID          string             `json:"session_id"`
	CurrentStep        int                `json:"current_step"`
	TotalSteps         int                `json:"total_steps"`
	CurrentConcept     *string            `json:"current_concept"`
	ProgressPercentage float64            `json:"progress_percentage"`
	MasteryEstimates   map[string]float64 `json:"mastery_estimates"`
	IsComplete         bool               `json:"is_complete"`
	Mode               string             `json:"mode"`
	Coverage           float64            `json:"coverage"`
	ConceptsDiscussed  []string           `json:"concepts_discussed"`
	ExamProgress       *ExamProgress      `json:"exam_progress"`
	IsPaused           bool               `json:"is_paused"`
	// QuestionPhase is asked, probe, hint or explain; nil when no question
	// is pending (and during exams).
	QuestionPhase *string `json:"question_phase"`
	// LastAnswerResult is correct, partial or incorrect; nil when the turn
	// judged no answer (and during exams).
	LastAnswerResult *string `json:"last_answer_result"`
}

// ExamProgress is the exam progress of a state_update.
type ExamProgress struct {
	CurrentQuestion int `json:"current_question"`
	TotalQuestions  int `json:"total_questions"`
	CorrectSoFar    int `json:"correct_so_far"`
}

// Phase returns the question phase, "" when none.
func (s *State) Phase() string {
	if s == nil || s.QuestionPhase == nil {
		return ""
	}
	return *s.QuestionPhase
}

// Result returns the last answer result, "" when none.
func (s *State) Result() string {
	if s == nil || s.LastAnswerResult == nil {
		return ""
	}
	return *s.LastAnswerResult
}

// Document is the part of the session document (GET /sessions/{id}) the
// harness reads. Answer-bearing values are null unless the caller is an
// admin.
type Document struct {
	SessionID        string             `json:"session_id"`
	TurnCount        int                `json:"turn_count"`
	Mode             string             `json:"mode"`
	CurrentStep      int                `json:"current_step"`
	LastQuestion     *PendingQuestion   `json:"last_question"`
	MasteryEstimates map[string]float64 `json:"mastery_estimates"`
	Misconceptions   []struct {
		Concept     string `json:"concept"`
		Description string `json:"description"`
	} `json:"misconceptions"`
	SafetyFlags            []string       `json:"safety_flags"`
	OffTopicCount          int            `json:"off_topic_count"`
	WarningCount           int            `json:"warning_count"`
	IsPaused               bool           `json:"is_paused"`
	ExamQuestions          []ExamQuestion `json:"exam_questions"`
	ExamCurrentQuestionIdx int            `json:"exam_current_question_idx"`
	ExamTotalCorrect       int            `json:"exam_total_correct"`
	ExamFinished           bool           `json:"exam_finished"`
	ConceptsDiscussed      []string       `json:"concepts_discussed"`
	ClarifyComplete        bool           `json:"clarify_complete"`
	StudentContext         struct {
		StudentName *string `json:"student_name"`
	} `json:"student_context"`
}

// PendingQuestion is the pending question of a teach_me session.
type PendingQuestion struct {
	QuestionID     string  `json:"question_id"`
	QuestionText   string  `json:"question_text"`
	ExpectedAnswer *string `json:"expected_answer"`
	AnswerKind     string  `json:"answer_kind"`
	Concept        string  `json:"concept"`
	WrongAttempts  int     `json:"wrong_attempts"`
	Phase          string  `json:"phase"`
}

// ExamQuestion is a question of an exam.
type ExamQuestion struct {
	QuestionIdx    int     `json:"question_idx"`
	QuestionID     string  `json:"question_id"`
	QuestionText   string  `json:"question_text"`
	Concept        string  `json:"concept"`
	ExpectedAnswer *string `json:"expected_answer"`
	StudentAnswer  *string `json:"student_answer"`
	Result         *string `json:"result"`
}
