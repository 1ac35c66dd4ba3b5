package tutor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// DecodeState decodes a stored state and upgrades it to SchemaVersion.
//
// Version 0 is a document of the reference service, which had no
// schema_version: its full_conversation_log is dropped (tutord keeps the log
// in a messages table), its embedded topic is reduced to a TopicRef with no
// plan version (load the plan by topic_id), and its repeated misconceptions
// are merged into counted ones. Mastery keys outside the plan are kept: the
// decoder has no plan to check them against, and they never enter coverage.
//
// Every decoded state is repaired so that no later function meets a value
// it cannot handle: counters are not negative, current_step is at least 1,
// the exam index is within its questions and the exam totals are those of
// the recorded results, unknown phases, results and trends are reset, and
// the lists are cut to their caps. An unknown mode is an error.
func DecodeState(data []byte) (State, error) {
	if b := bytes.TrimSpace(data); len(b) == 0 || b[0] != '{' {
		return State{}, invalid("decode state: not a JSON object")
	}
	// One pass: a document without schema_version (the reference's) decodes
	// with SchemaVersion 0. A field the document leaves out has the
	// reference's default, as pydantic gives it: allow_extension is true.
	s := State{AllowExtension: true}
	if err := json.Unmarshal(data, &s); err != nil {
		return State{}, fmt.Errorf("decode state: %w", err)
	}
	version := s.SchemaVersion
	if version < 0 || version > SchemaVersion {
		return State{}, &Error{Code: ErrUnsupportedVersion.Code, Message: fmt.Sprintf("state schema_version %d is not supported (newest: %d)", version, SchemaVersion)}
	}
	if version == 0 {
		upgradeV0(&s)
	}
	s.SchemaVersion = SchemaVersion
	s.sanitize()
	if !s.Mode.Valid() {
		return State{}, invalid(fmt.Sprintf("decode state: unknown mode %q", s.Mode))
	}
	return s.normalized(), nil
}

// upgradeV0 turns a reference document, already decoded into the State's
// fields, into a version-1 state: the reference repeated a misconception
// each time it was seen; version 1 counts it. A finished exam's feedback
// gets tutord's weighted score, which the reference did not keep, from
// its questions.
func upgradeV0(s *State) {
	if f := s.ExamFeedback; f != nil && f.WeightedScore == 0 && f.WeightedPercentage == 0 {
		w := BuildExamFeedback(s.ExamQuestions)
		f.WeightedScore, f.WeightedPercentage = w.WeightedScore, w.WeightedPercentage
	}
	var merged []Misconception
	for _, m := range s.Misconceptions {
		if isBlank(m.Description) {
			continue
		}
		i := slices.IndexFunc(merged, func(x Misconception) bool { return sameDescription(x.Description, m.Description) })
		if i < 0 {
			m.Count, m.LastDetectedAt = 1, m.DetectedAt
			merged = append(merged, m)
			continue
		}
		merged[i].Count++
		if m.DetectedAt.Time().After(merged[i].LastDetectedAt.Time()) {
			merged[i].LastDetectedAt = m.DetectedAt
		}
	}
	s.Misconceptions = merged
}

// sanitize repairs values that the rules never produce but a stored or
// hand-made state may hold, so that every function can rely on them.
func (s *State) sanitize() {
	if s.Mode == "" {
		s.Mode = ModeTeachMe // the reference's default
	}
	s.CurrentStep = max(s.CurrentStep, 1)
	s.TurnCount = max(s.TurnCount, 0)
	s.OffTopicCount = max(s.OffTopicCount, 0)
	s.WarningCount = max(s.WarningCount, 0)
	for i := range s.MasteryEstimates {
		s.MasteryEstimates[i].Score = clamp01(s.MasteryEstimates[i].Score)
	}
	if q := s.LastQuestion; q != nil {
		q.WrongAttempts = max(q.WrongAttempts, 0)
		q.IDKCount = max(q.IDKCount, 0)
		q.HintsUsed = min(max(q.HintsUsed, 0), 2)
		if q.Phase != PhaseAsked && q.Phase != PhaseProbe && q.Phase != PhaseHint && q.Phase != PhaseExplain {
			q.Phase = phaseFor(q.WrongAttempts)
		}
		if len(q.PreviousStudentAnswers) > maxPreviousAnswers {
			q.PreviousStudentAnswers = q.PreviousStudentAnswers[len(q.PreviousStudentAnswers)-maxPreviousAnswers:]
		}
	}
	s.AwaitingResponse = s.LastQuestion != nil
	for i := range s.Misconceptions {
		m := &s.Misconceptions[i]
		m.Count = max(m.Count, 1)
		if m.LastDetectedAt.IsZero() {
			m.LastDetectedAt = m.DetectedAt
		}
	}
	for len(s.Misconceptions) > maxMisconceptions {
		oldest := 0
		for i, m := range s.Misconceptions {
			if m.LastDetectedAt.Time().Before(s.Misconceptions[oldest].LastDetectedAt.Time()) {
				oldest = i
			}
		}
		s.Misconceptions = slices.Delete(s.Misconceptions, oldest, oldest+1)
	}
	if len(s.SafetyFlags) > maxSafetyFlags {
		s.SafetyFlags = s.SafetyFlags[len(s.SafetyFlags)-maxSafetyFlags:]
	}
	if hasDuplicates(s.ConceptsCovered) {
		s.ConceptsCovered = distinct(s.ConceptsCovered)
	}
	if len(s.ConceptsDiscussed) > maxConceptsDiscussed {
		s.ConceptsDiscussed = s.ConceptsDiscussed[:maxConceptsDiscussed]
	}
	s.ExamTotalCorrect, s.ExamTotalPartial, s.ExamTotalIncorrect = 0, 0, 0
	for i := range s.ExamQuestions {
		q := &s.ExamQuestions[i]
		q.QuestionIdx = i
		if q.Result != nil && !q.Result.valid() {
			q.Result = nil
		}
		if q.Result == nil {
			continue
		}
		switch *q.Result {
		case ResultCorrect:
			s.ExamTotalCorrect++
		case ResultPartial:
			s.ExamTotalPartial++
		default:
			s.ExamTotalIncorrect++
		}
	}
	s.ExamCurrentIdx = min(max(s.ExamCurrentIdx, 0), len(s.ExamQuestions))
	if len(s.History) > HistoryWindow {
		s.History = s.History[len(s.History)-HistoryWindow:]
	}
	sum := &s.SessionSummary
	if len(sum.TurnTimeline) > TimelineCap {
		sum.TurnTimeline = sum.TurnTimeline[len(sum.TurnTimeline)-TimelineCap:]
	}
	if sum.ProgressTrend != TrendImproving && sum.ProgressTrend != TrendSteady && sum.ProgressTrend != TrendStruggling {
		sum.ProgressTrend = TrendSteady
	}
	if s.LastAnswerResult != nil && !s.LastAnswerResult.valid() {
		s.LastAnswerResult = nil
	}
}

func hasDuplicates(s []string) bool {
	for i, v := range s {
		if slices.Contains(s[:i], v) {
			return true
		}
	}
	return false
}
