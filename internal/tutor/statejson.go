package tutor

import (
	"encoding/json"
	"errors"
	"slices"
	"strconv"

	"github.com/tutord/tutord/internal/jsonenc"
)

// The state document is encoded on every tutoring turn, and encoding it
// with reflection took about a tenth of a turn's CPU. The appenders below
// write the same bytes as json.Marshal(stateJSON(s.normalized())) would,
// field by field, into one buffer. A field added to State or to a type it
// holds must be added here too (TestAppendJSONCoversEveryField fails until
// it is).

// stateJSON has State's fields without its methods. It is the reflection
// encoding that AppendJSON reproduces, used to report the error of a value
// JSON cannot hold.
type stateJSON State

// MarshalJSON implements json.Marshaler: every key is present, empty lists
// are [] and empty objects {}.
func (s State) MarshalJSON() ([]byte, error) {
	return s.AppendJSON(make([]byte, 0, s.sizeHint()))
}

// AppendJSON appends the state's JSON document, as MarshalJSON returns it,
// to b. A NaN or infinite number is an error, the one json.Marshal gives,
// and b is returned unchanged.
func (s State) AppendJSON(b []byte) ([]byte, error) {
	out, ok := appendState(b, &s)
	if !ok {
		if _, err := json.Marshal(stateJSON(s.normalized())); err != nil {
			return b, err
		}
		return b, errors.New("tutor: state holds a number JSON cannot represent")
	}
	return out, nil
}

// sizeHint is a generous guess at the length of the state's document, so
// that MarshalJSON allocates once for a typical state.
func (s *State) sizeHint() int {
	n := 2048 + 48*len(s.MasteryEstimates) + 256*len(s.Misconceptions) +
		320*len(s.ExamQuestions) + 160*len(s.EngineConfig.Components)
	for _, m := range s.History {
		n += 96 + len(m.Content)
	}
	for _, t := range s.SessionSummary.TurnTimeline {
		n += 4 + len(t)
	}
	return n
}

// appendState appends s's document; false when it holds a NaN or infinite
// number.
func appendState(b []byte, s *State) ([]byte, bool) {
	var ok bool
	b = append(b, `{"schema_version":`...)
	b = appendInt(b, s.SchemaVersion)
	b = append(b, `,"session_id":`...)
	b = appendString(b, s.SessionID)
	b = append(b, `,"created_at":`...)
	b = appendTime(b, s.CreatedAt)
	b = append(b, `,"updated_at":`...)
	b = appendTime(b, s.UpdatedAt)
	b = append(b, `,"turn_count":`...)
	b = appendInt(b, s.TurnCount)
	b = append(b, `,"topic":`...)
	b = appendTopicRef(b, s.Topic)
	b = append(b, `,"current_step":`...)
	b = appendInt(b, s.CurrentStep)
	b = append(b, `,"last_concept_taught":`...)
	b = appendStringPtr(b, s.LastConceptTaught)
	b = append(b, `,"last_question":`...)
	b = appendQuestion(b, s.LastQuestion)
	b = append(b, `,"awaiting_response":`...)
	b = strconv.AppendBool(b, s.AwaitingResponse)
	b = append(b, `,"allow_extension":`...)
	b = strconv.AppendBool(b, s.AllowExtension)
	b = append(b, `,"mastery_estimates":`...)
	if b, ok = appendMastery(b, s.MasteryEstimates); !ok {
		return b, false
	}
	b = append(b, `,"misconceptions":[`...)
	for i, m := range s.Misconceptions {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendMisconception(b, &m)
	}
	b = append(b, `],"weak_areas":`...)
	b = appendStrings(b, s.WeakAreas)
	b = append(b, `,"student_context":`...)
	b = appendStudentContext(b, &s.StudentContext)
	b = append(b, `,"pace_preference":`...)
	b = appendString(b, s.PacePreference)
	b = append(b, `,"off_topic_count":`...)
	b = appendInt(b, s.OffTopicCount)
	b = append(b, `,"warning_count":`...)
	b = appendInt(b, s.WarningCount)
	b = append(b, `,"safety_flags":`...)
	b = appendStrings(b, s.SafetyFlags)
	b = append(b, `,"mode":`...)
	b = appendString(b, string(s.Mode))
	b = append(b, `,"is_paused":`...)
	b = strconv.AppendBool(b, s.IsPaused)
	b = append(b, `,"concepts_covered_set":`...)
	b = appendStrings(b, s.ConceptsCovered)
	b = append(b, `,"exam_questions":[`...)
	for i, q := range s.ExamQuestions {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendExamQuestion(b, &q)
	}
	b = append(b, `],"exam_current_question_idx":`...)
	b = appendInt(b, s.ExamCurrentIdx)
	b = append(b, `,"exam_total_correct":`...)
	b = appendInt(b, s.ExamTotalCorrect)
	b = append(b, `,"exam_total_partial":`...)
	b = appendInt(b, s.ExamTotalPartial)
	b = append(b, `,"exam_total_incorrect":`...)
	b = appendInt(b, s.ExamTotalIncorrect)
	b = append(b, `,"exam_finished":`...)
	b = strconv.AppendBool(b, s.ExamFinished)
	b = append(b, `,"exam_feedback":`...)
	if b, ok = appendExamFeedback(b, s.ExamFeedback); !ok {
		return b, false
	}
	b = append(b, `,"concepts_discussed":`...)
	b = appendStrings(b, s.ConceptsDiscussed)
	b = append(b, `,"clarify_complete":`...)
	b = strconv.AppendBool(b, s.ClarifyComplete)
	b = append(b, `,"session_summary":`...)
	b = appendSessionSummary(b, &s.SessionSummary)
	b = append(b, `,"conversation_history":[`...)
	for i, m := range s.History {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendMessage(b, &m)
	}
	b = append(b, `],"started_at":`...)
	b = appendTimePtr(b, s.StartedAt)
	b = append(b, `,"last_answer_result":`...)
	b = appendResultPtr(b, s.LastAnswerResult)
	b = append(b, `,"engine_config":`...)
	if b, ok = appendConfig(b, &s.EngineConfig); !ok {
		return b, false
	}
	return append(b, '}'), true
}

func appendTopicRef(b []byte, t *TopicRef) []byte {
	if t == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"topic_id":`...)
	b = appendString(b, t.TopicID)
	b = append(b, `,"topic_name":`...)
	b = appendString(b, t.TopicName)
	b = append(b, `,"subject":`...)
	b = appendString(b, t.Subject)
	b = append(b, `,"grade_level":`...)
	b = appendInt(b, t.GradeLevel)
	b = append(b, `,"plan_version_id":`...)
	b = appendString(b, t.PlanVersionID)
	return append(b, '}')
}

func appendQuestion(b []byte, q *Question) []byte {
	if q == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"question_text":`...)
	b = appendString(b, q.QuestionText)
	b = append(b, `,"expected_answer":`...)
	b = appendString(b, q.ExpectedAnswer)
	b = append(b, `,"concept":`...)
	b = appendString(b, q.Concept)
	b = append(b, `,"rubric":`...)
	b = appendString(b, q.Rubric)
	b = append(b, `,"hints":`...)
	b = appendStrings(b, q.Hints)
	b = append(b, `,"hints_used":`...)
	b = appendInt(b, q.HintsUsed)
	b = append(b, `,"wrong_attempts":`...)
	b = appendInt(b, q.WrongAttempts)
	b = append(b, `,"previous_student_answers":`...)
	b = appendStrings(b, q.PreviousStudentAnswers)
	b = append(b, `,"phase":`...)
	b = appendString(b, string(q.Phase))
	b = append(b, `,"question_id":`...)
	b = appendString(b, q.QuestionID)
	b = append(b, `,"answer_kind":`...)
	b = appendString(b, string(q.AnswerKind))
	b = append(b, `,"idk_count":`...)
	b = appendInt(b, q.IDKCount)
	b = append(b, `,"asked_at":`...)
	b = appendTimePtr(b, q.AskedAt)
	if len(q.CluesGiven) > 0 { // omitempty
		b = append(b, `,"clues_given":`...)
		b = appendStrings(b, q.CluesGiven)
	}
	if len(q.StepsShown) > 0 { // omitempty
		b = append(b, `,"steps_shown":`...)
		b = appendStrings(b, q.StepsShown)
	}
	if q.MisconceptionCounted { // omitempty
		b = append(b, `,"misconception_counted":true`...)
	}
	return append(b, '}')
}

// appendMastery appends m as Mastery.MarshalJSON writes it: an object in
// concept order.
func appendMastery(b []byte, m Mastery) ([]byte, bool) {
	var ok bool
	b = append(b, '{')
	for i, cs := range m {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, cs.Concept)
		b = append(b, ':')
		if b, ok = appendFloat(b, cs.Score); !ok {
			return b, false
		}
	}
	return append(b, '}'), true
}

func appendMisconception(b []byte, m *Misconception) []byte {
	b = append(b, `{"concept":`...)
	b = appendString(b, m.Concept)
	b = append(b, `,"description":`...)
	b = appendString(b, m.Description)
	b = append(b, `,"detected_at":`...)
	b = appendTime(b, m.DetectedAt)
	b = append(b, `,"resolved":`...)
	b = strconv.AppendBool(b, m.Resolved)
	b = append(b, `,"count":`...)
	b = appendInt(b, m.Count)
	b = append(b, `,"last_detected_at":`...)
	b = appendTime(b, m.LastDetectedAt)
	return append(b, '}')
}

func appendStudentContext(b []byte, c *StudentContext) []byte {
	b = append(b, `{"grade":`...)
	b = appendInt(b, c.Grade)
	b = append(b, `,"board":`...)
	b = appendString(b, c.Board)
	b = append(b, `,"language_level":`...)
	b = appendString(b, c.LanguageLevel)
	b = append(b, `,"preferred_examples":`...)
	b = appendStrings(b, c.PreferredExamples)
	b = append(b, `,"student_name":`...)
	b = appendStringPtr(b, c.StudentName)
	b = append(b, `,"student_age":`...)
	if c.StudentAge == nil {
		b = append(b, "null"...)
	} else {
		b = appendInt(b, *c.StudentAge)
	}
	b = append(b, `,"about_me":`...)
	b = appendStringPtr(b, c.AboutMe)
	b = append(b, `,"language":`...)
	b = appendString(b, c.Language)
	b = append(b, `,"style":`...)
	b = appendString(b, c.Style)
	return append(b, '}')
}

func appendExamQuestion(b []byte, q *ExamQuestion) []byte {
	b = append(b, `{"question_idx":`...)
	b = appendInt(b, q.QuestionIdx)
	b = append(b, `,"question_text":`...)
	b = appendString(b, q.QuestionText)
	b = append(b, `,"concept":`...)
	b = appendString(b, q.Concept)
	b = append(b, `,"difficulty":`...)
	b = appendString(b, string(q.Difficulty))
	b = append(b, `,"question_type":`...)
	b = appendString(b, string(q.QuestionType))
	b = append(b, `,"expected_answer":`...)
	b = appendString(b, q.ExpectedAnswer)
	b = append(b, `,"student_answer":`...)
	b = appendStringPtr(b, q.StudentAnswer)
	b = append(b, `,"result":`...)
	b = appendResultPtr(b, q.Result)
	b = append(b, `,"feedback":`...)
	b = appendString(b, q.Feedback)
	b = append(b, `,"question_id":`...)
	b = appendString(b, q.QuestionID)
	b = append(b, `,"answer_kind":`...)
	b = appendString(b, string(q.AnswerKind))
	return append(b, '}')
}

func appendExamFeedback(b []byte, f *ExamFeedback) ([]byte, bool) {
	if f == nil {
		return append(b, "null"...), true
	}
	var ok bool
	b = append(b, `{"score":`...)
	b = appendInt(b, f.Score)
	b = append(b, `,"total":`...)
	b = appendInt(b, f.Total)
	b = append(b, `,"percentage":`...)
	if b, ok = appendFloat(b, f.Percentage); !ok {
		return b, false
	}
	b = append(b, `,"strengths":`...)
	b = appendStrings(b, f.Strengths)
	b = append(b, `,"weak_areas":`...)
	b = appendStrings(b, f.WeakAreas)
	b = append(b, `,"patterns":`...)
	b = appendStrings(b, f.Patterns)
	b = append(b, `,"next_steps":`...)
	b = appendStrings(b, f.NextSteps)
	b = append(b, `,"weighted_score":`...)
	if b, ok = appendFloat(b, f.WeightedScore); !ok {
		return b, false
	}
	b = append(b, `,"weighted_percentage":`...)
	if b, ok = appendFloat(b, f.WeightedPercentage); !ok {
		return b, false
	}
	return append(b, '}'), true
}

func appendSessionSummary(b []byte, s *SessionSummary) []byte {
	b = append(b, `{"turn_timeline":`...)
	b = appendStrings(b, s.TurnTimeline)
	b = append(b, `,"concepts_taught":`...)
	b = appendStrings(b, s.ConceptsTaught)
	b = append(b, `,"depth_reached":{`...)
	var buf [8]string
	for i, k := range sortedKeys(s.DepthReached, buf[:0]) {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, k)
		b = append(b, ':')
		b = appendString(b, s.DepthReached[k])
	}
	b = append(b, `},"examples_used":`...)
	b = appendStrings(b, s.ExamplesUsed)
	b = append(b, `,"analogies_used":`...)
	b = appendStrings(b, s.AnalogiesUsed)
	b = append(b, `,"student_responses_summary":`...)
	b = appendStrings(b, s.StudentResponsesSummary)
	b = append(b, `,"progress_trend":`...)
	if s.ProgressTrend == "" {
		b = appendString(b, string(TrendSteady)) // as normalized
	} else {
		b = appendString(b, string(s.ProgressTrend))
	}
	b = append(b, `,"stuck_points":`...)
	b = appendStrings(b, s.StuckPoints)
	b = append(b, `,"what_helped":`...)
	b = appendStrings(b, s.WhatHelped)
	b = append(b, `,"next_focus":`...)
	b = appendStringPtr(b, s.NextFocus)
	return append(b, '}')
}

func appendMessage(b []byte, m *Message) []byte {
	b = append(b, `{"role":`...)
	b = appendString(b, string(m.Role))
	b = append(b, `,"content":`...)
	b = appendString(b, m.Content)
	b = append(b, `,"timestamp":`...)
	b = appendTime(b, m.Timestamp)
	b = append(b, `,"message_id":`...)
	b = appendStringPtr(b, m.MessageID)
	if m.Withheld { // omitempty
		b = append(b, `,"withheld":true`...)
	}
	return append(b, '}')
}

func appendConfig(b []byte, c *Config) ([]byte, bool) {
	var ok bool
	b = append(b, `{"components":{`...)
	var buf [8]string
	for i, k := range sortedKeys(c.Components, buf[:0]) {
		if i > 0 {
			b = append(b, ',')
		}
		cc := c.Components[k]
		b = appendString(b, k)
		b = append(b, `:{"provider":`...)
		b = appendString(b, cc.Provider)
		b = append(b, `,"model":`...)
		b = appendString(b, cc.Model)
		b = append(b, `,"reasoning_effort":`...)
		b = appendString(b, cc.ReasoningEffort)
		b = append(b, `,"temperature":`...)
		if cc.Temperature == nil {
			b = append(b, "null"...)
		} else if b, ok = appendFloat(b, *cc.Temperature); !ok {
			return b, false
		}
		b = append(b, `,"max_output_tokens":`...)
		b = appendInt(b, cc.MaxOutputTokens)
		b = append(b, '}')
	}
	b = append(b, `},"time_limit_seconds":`...)
	b = appendInt(b, c.TimeLimitSeconds)
	return append(b, '}'), true
}

// sortedKeys appends m's keys to keys, sorted as encoding/json sorts them
// (bytewise), and returns the result.
func sortedKeys[V any](m map[string]V, keys []string) []string {
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func appendInt(b []byte, v int) []byte { return strconv.AppendInt(b, int64(v), 10) }

// appendTime appends t as encoding/json writes it through Time.MarshalText:
// a JSON string. The text never needs escaping.
func appendTime(b []byte, t Time) []byte {
	b = append(b, '"')
	b = t.AppendFormat(b)
	return append(b, '"')
}

func appendTimePtr(b []byte, t *Time) []byte {
	if t == nil {
		return append(b, "null"...)
	}
	return appendTime(b, *t)
}

func appendStringPtr(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return appendString(b, *s)
}

func appendResultPtr(b []byte, r *Result) []byte {
	if r == nil {
		return append(b, "null"...)
	}
	return appendString(b, string(*r))
}

// appendStrings appends ss as a JSON array; nil is [], as normalized makes
// it.
func appendStrings(b []byte, ss []string) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

func appendString(b []byte, s string) []byte { return jsonenc.AppendString(b, s) }

func appendFloat(b []byte, f float64) ([]byte, bool) { return jsonenc.AppendFloat(b, f) }
