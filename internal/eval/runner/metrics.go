package runner

import (
	"math"
	"slices"
	"sort"
	"time"

	"github.com/tutord/tutord/internal/eval/client"
)

// MasteryThreshold is the mastery at which a concept counts as mastered
// for turns_to_mastery (the reference's should_advance threshold).
const MasteryThreshold = 0.7

// Metrics are a scenario's deterministic measures, computed from its
// transcript.
type Metrics struct {
	Turns   int `json:"turns"`   // learner messages sent
	Replies int `json:"replies"` // tutor replies, the welcome included
	// Completed reports that the session reached completion; TurnsToComplete
	// is the learner messages it took (0 when not completed).
	Completed       bool `json:"completed"`
	TurnsToComplete int  `json:"turns_to_complete"`
	// QuestionsAsked counts the distinct questions that waited for an
	// answer; AnswersCorrect, AnswersPartial and AnswersIncorrect the turns
	// whose state_update judged the answer so.
	QuestionsAsked   int `json:"questions_asked"`
	AnswersCorrect   int `json:"answers_correct"`
	AnswersPartial   int `json:"answers_partial"`
	AnswersIncorrect int `json:"answers_incorrect"`
	// LeaksBeforeExplain counts replies that gave a question's answer away
	// before its explain phase (or during an exam); Reveals counts replies
	// that gave any answer away the learner had not stated (telling).
	LeaksBeforeExplain int `json:"leaks_before_explain"`
	Reveals            int `json:"reveals"`
	// SanitizationLeaks counts replies with internal language.
	SanitizationLeaks int `json:"sanitization_leaks"`
	// PacedReplies counts the replies with a pacing budget (teach_me and
	// clarify_doubts replies to a message); RepliesOverBudget those longer
	// than it allows.
	PacedReplies      int `json:"paced_replies"`
	RepliesOverBudget int `json:"replies_over_budget"`
	// RepeatedReplies counts replies that say what an earlier one said.
	RepeatedReplies int `json:"repeated_replies"`
	// ExamScore and ExamTotal are an exam's correct answers and questions.
	ExamScore      int     `json:"exam_score"`
	ExamTotal      int     `json:"exam_total"`
	ExamPercentage float64 `json:"exam_percentage"`
	// TurnsToMastery is, per concept, the learner messages sent when its
	// mastery first reached MasteryThreshold.
	TurnsToMastery map[string]int `json:"turns_to_mastery,omitempty"`
	// UnsafeTurns counts the messages marked unsafe and UnsafeFlagged those
	// that raised a safety flag; SafeTurns and SafeFlagged the same for the
	// other messages (flags on them are false positives).
	UnsafeTurns   int `json:"unsafe_turns"`
	UnsafeFlagged int `json:"unsafe_flagged"`
	SafeTurns     int `json:"safe_turns"`
	SafeFlagged   int `json:"safe_flagged"`
	// Conflicts counts turns lost to another writer, ErrorFrames the error
	// frames received, Resends the requests and messages sent again because
	// the server asked to wait (a rate limit, a message still being
	// answered, get_state asked for too often).
	Conflicts   int `json:"conflicts"`
	ErrorFrames int `json:"error_frames"`
	Resends     int `json:"resends"`
	// Latency summarises the messages' latencies.
	Latency Latency `json:"latency"`
}

// Latency summarises turn latencies.
type Latency struct {
	Count int    `json:"count"`
	Mean  Millis `json:"mean_ms"`
	P50   Millis `json:"p50_ms"`
	P95   Millis `json:"p95_ms"`
	P99   Millis `json:"p99_ms"`
	Max   Millis `json:"max_ms"`
}

// Values returns the metrics by the names scenarios bound them with
// (scenario.MetricNames).
func (m Metrics) Values() map[string]float64 {
	return map[string]float64{
		"turns": float64(m.Turns), "replies": float64(m.Replies), "turns_to_complete": float64(m.TurnsToComplete),
		"questions_asked": float64(m.QuestionsAsked), "answers_correct": float64(m.AnswersCorrect),
		"answers_incorrect": float64(m.AnswersIncorrect), "leaks_before_explain": float64(m.LeaksBeforeExplain),
		"reveals": float64(m.Reveals), "sanitization_leaks": float64(m.SanitizationLeaks),
		"replies_over_budget": float64(m.RepliesOverBudget), "repeated_replies": float64(m.RepeatedReplies),
		"exam_score": float64(m.ExamScore), "exam_percentage": m.ExamPercentage,
		"unsafe_turns": float64(m.UnsafeTurns), "unsafe_flagged": float64(m.UnsafeFlagged), "safe_flagged": float64(m.SafeFlagged),
		"conflicts": float64(m.Conflicts), "error_frames": float64(m.ErrorFrames), "resends": float64(m.Resends),
		"latency_p50_ms": float64(m.Latency.P50), "latency_p95_ms": float64(m.Latency.P95), "latency_max_ms": float64(m.Latency.Max),
	}
}

// measure computes a scenario's metrics from its transcript and final
// session document (nil when it was not fetched).
func measure(turns []Turn, mode string, doc *client.Document) Metrics {
	var m Metrics
	questions := map[string]bool{}
	var lat []Millis
	messages := 0
	for i := range turns {
		t := &turns[i]
		if t.Chat() {
			messages++
			m.Turns++
			if t.Unsafe {
				m.UnsafeTurns++
				if t.Flagged {
					m.UnsafeFlagged++
				}
			} else {
				m.SafeTurns++
				if t.Flagged {
					m.SafeFlagged++
				}
			}
			lat = append(lat, t.Latency)
			// A message answered with an error frame judged nothing; the
			// state after it holds the turn before's result.
			switch result := t.State.Result(); {
			case t.Error != "":
			case result == "correct":
				m.AnswersCorrect++
			case result == "partial":
				m.AnswersPartial++
			case result == "incorrect":
				m.AnswersIncorrect++
			}
		}
		for _, q := range []*QuestionRef{t.Question, t.Asked} {
			if q != nil {
				questions[q.ID+"\x00"+q.Text] = true
			}
		}
		if t.Replied() {
			m.Replies++
			if len(t.Internal) > 0 {
				m.SanitizationLeaks++
			}
			if t.Budget > 0 {
				m.PacedReplies++
				if t.OverBudget() {
					m.RepliesOverBudget++
				}
			}
			if t.Repeated {
				m.RepeatedReplies++
			}
		}
		if len(t.Leaks) > 0 {
			m.Reveals++
			if slices.ContainsFunc(t.Leaks, func(l Leak) bool { return l.BeforeExplain }) {
				m.LeaksBeforeExplain++
			}
		}
		if t.Conflict {
			m.Conflicts++
		}
		if t.Error != "" {
			m.ErrorFrames++
		}
		m.Resends += t.Resends
		if t.State != nil {
			if t.State.IsComplete && !m.Completed {
				m.Completed, m.TurnsToComplete = true, messages
			}
			for c, v := range t.State.MasteryEstimates {
				if v >= MasteryThreshold {
					if m.TurnsToMastery == nil {
						m.TurnsToMastery = map[string]int{}
					}
					if _, ok := m.TurnsToMastery[c]; !ok {
						m.TurnsToMastery[c] = messages
					}
				}
			}
		}
	}
	m.QuestionsAsked = len(questions)
	if mode == "exam" && doc != nil && len(doc.ExamQuestions) > 0 {
		m.ExamScore, m.ExamTotal = doc.ExamTotalCorrect, len(doc.ExamQuestions)
		m.ExamPercentage = math.Round(float64(m.ExamScore)/float64(m.ExamTotal)*1000) / 10
	}
	m.Latency = latency(lat)
	return m
}

// latency summarises latencies with nearest-rank percentiles.
func latency(xs []Millis) Latency {
	if len(xs) == 0 {
		return Latency{}
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	sum := 0.0
	for _, x := range s {
		sum += float64(x)
	}
	rank := func(p float64) Millis {
		i := int(math.Ceil(p*float64(len(s)))) - 1
		return s[min(max(i, 0), len(s)-1)]
	}
	return Latency{Count: len(s), Mean: Millis(math.Round(sum/float64(len(s))*1000) / 1000), P50: rank(0.5), P95: rank(0.95), P99: rank(0.99), Max: s[len(s)-1]}
}

// Summary aggregates the results of a run.
type Summary struct {
	Scenarios int `json:"scenarios"`
	Passed    int `json:"passed"`
	Failed    int `json:"failed"`
	Errors    int `json:"errors"`
	// Invalid counts the scenario files that could not be read.
	Invalid int `json:"invalid"`
	Turns   int `json:"turns"`
	// Duration is the run's wall time; TurnsPerSecond the learner
	// messages per second of it.
	Duration       Millis  `json:"duration_ms"`
	TurnsPerSecond float64 `json:"turns_per_second"`
	// PassRate is passed / scenarios.
	PassRate float64 `json:"pass_rate"`
	// CompletionRate is the share of scenarios played to their end that
	// reached completion; MeanTurnsToComplete averages those.
	CompletionRate      float64 `json:"completion_rate"`
	MeanTurnsToComplete float64 `json:"mean_turns_to_complete"`
	LeaksBeforeExplain  int     `json:"leaks_before_explain"`
	Reveals             int     `json:"reveals"`
	// LeakFreeRate is the share of scenarios played to their end without a
	// leak before the explain phase: one that errored may have stopped
	// before its first leak. It is 0 when none was played, as the pass and
	// completion rates are: a run whose scenarios all errored has shown
	// nothing leak-free, and a comparison with a run that has must see it
	// fall.
	LeakFreeRate      float64 `json:"leak_free_rate"`
	SanitizationLeaks int     `json:"sanitization_leaks"`
	// SanitizationCleanRate is the share of replies without internal
	// language.
	SanitizationCleanRate float64 `json:"sanitization_clean_rate"`
	// PacingCompliance is the share of paced replies within their budget.
	PacingCompliance  float64 `json:"pacing_compliance"`
	RepliesOverBudget int     `json:"replies_over_budget"`
	RepeatedReplies   int     `json:"repeated_replies"`
	// MeanExamPercentage is the mean score of the exams played to their
	// end; null when there were none.
	MeanExamPercentage *float64 `json:"mean_exam_percentage"`
	// TurnsToMastery is the mean learner messages to mastery per concept,
	// over the scenarios that reached it.
	TurnsToMastery map[string]float64 `json:"turns_to_mastery,omitempty"`
	UnsafeTurns    int                `json:"unsafe_turns"`
	UnsafeFlagged  int                `json:"unsafe_flagged"`
	SafeTurns      int                `json:"safe_turns"`
	SafeFlagged    int                `json:"safe_flagged"`
	// SafetyRecall is unsafe_flagged / unsafe_turns (1 with none);
	// SafetyFalsePositiveRate is safe_flagged / safe_turns.
	SafetyRecall            float64 `json:"safety_recall"`
	SafetyFalsePositiveRate float64 `json:"safety_false_positive_rate"`
	Conflicts               int     `json:"conflicts"`
	ErrorFrames             int     `json:"error_frames"`
	Resends                 int     `json:"resends"`
	Latency                 Latency `json:"latency"`
}

// Summarize aggregates results; elapsed is the run's wall time and invalid
// the number of unreadable scenario files.
func Summarize(results []Result, elapsed time.Duration, invalid int) Summary {
	s := Summary{Scenarios: len(results), Invalid: invalid, Duration: ms(elapsed)}
	var lat []Millis
	played, completed, leakFree, replies, paced, exams := 0, 0, 0, 0, 0, 0
	turnsToComplete, examPct := 0, 0.0
	mastery := map[string][]int{}
	for _, r := range results {
		switch r.Status {
		case Passed:
			s.Passed++
		case Failed:
			s.Failed++
		default:
			s.Errors++
		}
		m := r.Metrics
		s.Turns += m.Turns
		if r.Status != Error {
			played++
			if m.Completed {
				completed++
				turnsToComplete += m.TurnsToComplete
			}
			if m.LeaksBeforeExplain == 0 {
				leakFree++
			}
			if m.ExamTotal > 0 {
				// An exam that errored part-way scored only the
				// questions it got to.
				exams++
				examPct += m.ExamPercentage
			}
		}
		s.LeaksBeforeExplain += m.LeaksBeforeExplain
		s.Reveals += m.Reveals
		s.SanitizationLeaks += m.SanitizationLeaks
		replies += m.Replies
		paced += m.PacedReplies
		s.RepliesOverBudget += m.RepliesOverBudget
		s.RepeatedReplies += m.RepeatedReplies
		for c, n := range m.TurnsToMastery {
			mastery[c] = append(mastery[c], n)
		}
		s.UnsafeTurns += m.UnsafeTurns
		s.UnsafeFlagged += m.UnsafeFlagged
		s.SafeTurns += m.SafeTurns
		s.SafeFlagged += m.SafeFlagged
		s.Conflicts += m.Conflicts
		s.ErrorFrames += m.ErrorFrames
		s.Resends += m.Resends
		for _, t := range r.Turns {
			if t.Chat() {
				lat = append(lat, t.Latency)
			}
		}
	}
	s.PassRate = ratio(s.Passed, s.Scenarios, 0)
	s.CompletionRate = ratio(completed, played, 0)
	s.MeanTurnsToComplete = round2(ratio(turnsToComplete, completed, 0))
	s.LeakFreeRate = ratio(leakFree, played, 0)
	s.SanitizationCleanRate = 1 - ratio(s.SanitizationLeaks, replies, 0)
	s.PacingCompliance = 1 - ratio(s.RepliesOverBudget, paced, 0)
	if exams > 0 {
		v := round2(examPct / float64(exams))
		s.MeanExamPercentage = &v
	}
	if len(mastery) > 0 {
		s.TurnsToMastery = map[string]float64{}
		concepts := make([]string, 0, len(mastery))
		for c := range mastery {
			concepts = append(concepts, c)
		}
		sort.Strings(concepts)
		for _, c := range concepts {
			sum := 0
			for _, n := range mastery[c] {
				sum += n
			}
			s.TurnsToMastery[c] = round2(float64(sum) / float64(len(mastery[c])))
		}
	}
	s.SafetyRecall = ratio(s.UnsafeFlagged, s.UnsafeTurns, 1)
	s.SafetyFalsePositiveRate = ratio(s.SafeFlagged, s.SafeTurns, 0)
	s.Latency = latency(lat)
	if elapsed > 0 {
		s.TurnsPerSecond = round2(float64(s.Turns) / elapsed.Seconds())
	}
	return s
}

// ratio is n/d rounded to four decimals, or empty when d is 0.
func ratio(n, d int, empty float64) float64 {
	if d == 0 {
		return empty
	}
	return math.Round(float64(n)/float64(d)*10000) / 10000
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }
