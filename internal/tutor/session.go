package tutor

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// MaxExamQuestions bounds the questions of one exam.
const MaxExamQuestions = 50

// ClarifyEndedReply is the reply when a doubts session ends by request.
const ClarifyEndedReply = "Doubts session ended successfully."

// ClarifyTimeUpReply follows the tutor's answer in a doubts session that
// the time limit ends when the tutor did not end it itself.
const ClarifyTimeUpReply = "That's our time for this session: come back any time you have more doubts."

// EndReason says why a session ended before its natural end.
type EndReason string

// The end reasons.
const (
	EndStudentRequested EndReason = "student_requested"
	EndTimeLimit        EndReason = "time_limit"
)

// NewSession describes a session to create.
type NewSession struct {
	ID      string
	Mode    Mode   // "" means teach_me
	Topic   *Topic // the lesson; nil only for sessions without one
	Student StudentContext
	Pace    string // slow | normal | fast; "" means normal
	Config  Config // pinned for the session's lifetime
	// ExamQuestions are the exam's questions (exam mode only), in order.
	ExamQuestions []ExamQuestion
	Now           time.Time
}

// NewState returns the initial state of a session: step 1, no turns, a
// teach_me session with every plan concept at mastery 0 (the reference's
// start), the other modes with none. Exam questions are numbered in order;
// a question without a concept gets the plan concept at its index modulo
// the number of plan concepts, as in the reference.
//
// Errors (ErrInvalid): an unknown mode or pace, a grade outside 1..12, an
// exam without questions or with more than MaxExamQuestions.
func NewState(p NewSession) (State, error) {
	mode := p.Mode
	if mode == "" {
		mode = ModeTeachMe
	}
	pace := p.Pace
	if pace == "" {
		pace = "normal"
	}
	switch {
	case !mode.Valid():
		return State{}, invalid(fmt.Sprintf("unknown mode %q", p.Mode))
	case pace != "slow" && pace != "normal" && pace != "fast":
		return State{}, invalid(fmt.Sprintf("unknown pace %q", p.Pace))
	case p.Student.Grade < 1 || p.Student.Grade > 12:
		return State{}, invalid(fmt.Sprintf("grade %d is outside 1..12", p.Student.Grade))
	case mode == ModeExam && len(p.ExamQuestions) == 0:
		return State{}, invalid("an exam needs at least one question")
	case len(p.ExamQuestions) > MaxExamQuestions:
		return State{}, invalid(fmt.Sprintf("an exam has at most %d questions", MaxExamQuestions))
	}
	now := NewTime(p.Now)
	s := State{
		SchemaVersion:  SchemaVersion,
		SessionID:      p.ID,
		CreatedAt:      now,
		UpdatedAt:      now,
		Topic:          p.Topic.Ref(),
		CurrentStep:    1,
		AllowExtension: true,
		StudentContext: p.Student,
		PacePreference: pace,
		Mode:           mode,
		EngineConfig:   p.Config,
	}
	if s.StudentContext.LanguageLevel == "" {
		s.StudentContext.LanguageLevel = "standard"
	}
	if s.StudentContext.PreferredExamples == nil {
		s.StudentContext.PreferredExamples = DefaultPreferredExamples()
	}
	concepts := p.Topic.Concepts()
	if mode == ModeTeachMe {
		s.MasteryEstimates = make(Mastery, len(concepts))
		for i, c := range concepts {
			s.MasteryEstimates[i] = ConceptScore{Concept: c}
		}
	}
	if mode == ModeExam {
		s.ExamQuestions = make([]ExamQuestion, len(p.ExamQuestions))
		for i, q := range p.ExamQuestions {
			q.QuestionIdx = i
			if q.Concept == "" && len(concepts) > 0 {
				q.Concept = concepts[i%len(concepts)]
			}
			if q.Difficulty == "" {
				q.Difficulty = Medium
			}
			if q.QuestionType == "" {
				q.QuestionType = QuestionConceptual
			}
			q.StudentAnswer, q.Result, q.Feedback = nil, nil, ""
			s.ExamQuestions[i] = q
		}
	}
	// Clone so that the state shares nothing with the caller's values.
	return s.Clone().normalized(), nil
}

// AddReply records a teacher message outside a turn, such as the welcome
// of a new session: no turn is counted.
func AddReply(s State, now time.Time, text string) State {
	n := s.Clone()
	n.addMessage(Message{Role: RoleTeacher, Content: text, Timestamp: NewTime(now)})
	n.UpdatedAt = NewTime(now)
	return n.normalized()
}

// PauseSummary is what a learner is told when a teach_me session pauses.
type PauseSummary struct {
	Coverage        float64  `json:"coverage"`
	ConceptsCovered []string `json:"concepts_covered"`
	Message         string   `json:"message"`
}

// PauseSummary returns the session's pause summary. A finished lesson has
// nothing to pick up again, and its summary does not say so.
func (s State) PauseSummary(t *Topic) PauseSummary {
	c := s.Coverage(t)
	covered := "You've covered " + strconv.FormatFloat(c, 'f', 0, 64) + "%"
	msg := covered + " so far. You can pick up where you left off anytime."
	if s.IsComplete(t) {
		msg = covered + " and finished this lesson. Come back anytime to practise some more."
	}
	return PauseSummary{
		Coverage:        c,
		ConceptsCovered: append([]string{}, s.ConceptsCovered...),
		Message:         msg,
	}
}

// Pause pauses a teach_me session; pausing a paused session succeeds again.
// A finished lesson answers with its summary but is not paused, as Stop
// leaves it: there is nothing left to resume, and a paused one would take
// the learner's one paused place on the subtopic. Errors: ErrWrongMode
// ("Only Teach Me sessions can be paused").
func Pause(s State, t *Topic, now time.Time) (State, PauseSummary, error) {
	if s.Mode != ModeTeachMe {
		return s, PauseSummary{}, &Error{Code: ErrWrongMode.Code, Message: "Only Teach Me sessions can be paused"}
	}
	n := s.Clone()
	n.IsPaused = !s.IsComplete(t)
	n.UpdatedAt = NewTime(now)
	n = n.normalized()
	return n, n.PauseSummary(t), nil
}

// Resume resumes a paused session. The resumed sitting gets a fresh time
// limit, counted from its first turn. Errors: ErrNotPaused.
func Resume(s State, now time.Time) (State, error) {
	if !s.IsPaused {
		return s, ErrNotPaused
	}
	n := s.Clone()
	n.IsPaused = false
	n.StartedAt = nil
	n.UpdatedAt = NewTime(now)
	return n.normalized(), nil
}

// EndSitting undoes the pause of a lesson that a turn ended (see Stop) and
// ends its sitting only: the lesson stays open, and its next turn starts a
// new sitting with a fresh time limit. The orchestrator uses it when the
// learner already has another lesson on the subtopic paused.
func EndSitting(s State) State {
	n := s.Clone()
	n.IsPaused = false
	n.StartedAt = nil
	return n.normalized()
}

// EndClarify ends a doubts session. Errors: ErrWrongMode ("Only Clarify
// Doubts sessions can use this endpoint"), ErrAlreadyEnded.
func EndClarify(s State, now time.Time) (State, error) {
	if s.Mode != ModeClarify {
		return s, &Error{Code: ErrWrongMode.Code, Message: "Only Clarify Doubts sessions can use this endpoint"}
	}
	if s.ClarifyComplete {
		return s, ErrAlreadyEnded
	}
	n := s.Clone()
	n.ClarifyComplete = true
	n.UpdatedAt = NewTime(now)
	return n.normalized(), nil
}

// Stop ends a session at the learner's request or at the time limit, by
// mode: a teach_me session pauses (it can be resumed), a doubts session
// completes, an exam ends early with its results. Ending what has already
// ended changes nothing but updated_at: a finished lesson is not paused,
// as there is nothing left to resume.
func Stop(s State, t *Topic, now time.Time, reason EndReason) (State, []Event) {
	n := s.Clone()
	ev := stop(&n, t, reason)
	n.UpdatedAt = NewTime(now)
	return n.normalized(), ev
}

func stop(n *State, t *Topic, reason EndReason) []Event {
	switch n.Mode {
	case ModeTeachMe:
		if n.IsComplete(t) {
			return nil
		}
		n.IsPaused = true
		return []Event{Paused{Reason: reason}}
	case ModeClarify:
		if !n.ClarifyComplete {
			n.ClarifyComplete = true
			return []Event{ClarifyCompleted{}}
		}
	case ModeExam:
		if !n.ExamFinished {
			return []Event{finishExam(n, true)}
		}
	}
	return nil
}

// endReply is the fixed reply when a session ends by request or by time: a
// kind word before a lesson's pause summary (which is the REST pause's
// message, reported as such), and no percentage for a lesson already
// finished.
func endReply(s State, t *Topic) string {
	switch s.Mode {
	case ModeClarify:
		return ClarifyEndedReply
	case ModeExam:
		return ExamReply(s, t)
	}
	if s.IsComplete(t) {
		return LessonDoneStopReply
	}
	return StopReplyLead + s.PauseSummary(t).Message
}

// The kind words of a lesson's end by request.
const (
	StopReplyLead       = "Thanks for learning with me today! "
	BreakReplyLead      = "Good idea, let's take a break here. "
	BreakReplyResume    = "You can pick up where you left off anytime."
	LessonDoneStopReply = "Well done, you finished this lesson! Come back anytime to practise some more."
)

// Summary is the session summary of GET /sessions/{id}/summary.
type Summary struct {
	StepsCompleted     int      `json:"steps_completed"`
	MasteryScore       float64  `json:"mastery_score"`
	MisconceptionsSeen []string `json:"misconceptions_seen"`
	Suggestions        []string `json:"suggestions"`
}

// Summary returns the session summary: steps completed, mean mastery
// rounded to 2 decimals, the misconceptions seen and suggestions. Since
// misconceptions are counted rather than repeated, each description is
// listed once, in the order first seen (the reference repeated them).
//
// An exam keeps no mastery or steps: its summary is the one the reference
// frontend builds from the exam's feedback (the questions answered, or
// all of them once finished; the score's share; the weak areas; the next
// steps), where the reference's own said "Keep practicing!" to a perfect
// score.
func (s State) Summary(t *Topic) Summary {
	if s.Mode == ModeExam && len(s.ExamQuestions) > 0 {
		if s.ExamFinished {
			f := BuildExamFeedback(s.ExamQuestions)
			return Summary{StepsCompleted: f.Total, MasteryScore: pyRound(f.Percentage/100, 2), MisconceptionsSeen: f.WeakAreas, Suggestions: f.NextSteps}
		}
		// Under way: the answers so far, and no verdict on the rest.
		f := BuildExamFeedback(s.ExamQuestions[:min(s.ExamCurrentIdx, len(s.ExamQuestions))])
		sug := slices.DeleteFunc(f.NextSteps, func(n string) bool { return !strings.HasPrefix(n, "Review") && !strings.HasPrefix(n, "Clarify") })
		return Summary{StepsCompleted: f.Total, MasteryScore: pyRound(f.Percentage/100, 2), MisconceptionsSeen: f.WeakAreas,
			Suggestions: append(sug, "Finish the exam to see your score.")}
	}
	steps := max(0, s.CurrentStep-1)
	if t != nil {
		steps = min(steps, t.TotalSteps())
	}
	seen := make([]string, len(s.Misconceptions))
	for i, m := range s.Misconceptions {
		seen[i] = m.Description
	}
	topic := "the topic"
	if s.Topic != nil && s.Topic.TopicName != "" {
		topic = s.Topic.TopicName
	}
	var sug []string
	switch m := s.OverallMastery(); {
	case m >= 0.85:
		sug = append(sug, "Excellent work on "+topic+"!", "You're ready to move to more advanced topics.")
	case m >= 0.7:
		sug = append(sug, "Good progress! Try 3-5 more practice problems.")
	default:
		sug = append(sug, "Keep practicing! Review the examples.", "Revisit the concepts around "+topic)
	}
	if len(seen) > 0 {
		first := make([]string, 0, 2)
		for _, m := range seen[:min(2, len(seen))] {
			first = append(first, strings.TrimRight(strings.TrimSpace(m), ".")) // no "20 : 1., Reverses"
		}
		sug = append(sug, "Work on understanding: "+strings.Join(first, ", "))
	}
	return Summary{
		StepsCompleted:     steps,
		MasteryScore:       pyRound(s.OverallMastery(), 2),
		MisconceptionsSeen: seen,
		Suggestions:        sug,
	}
}

// asksBreak reports whether a stop request asks for a break ("can we take a
// break, I'm tired"), which a lesson answers as a pause rather than a
// goodbye.
func asksBreak(msg string) bool {
	low := strings.ToLower(msg)
	for _, w := range []string{"break", "tired", "sleepy", "thak"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}
