package tutor

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Fixed exam texts of the reference service.
const (
	ExamAlreadyCompleteReply = "The exam is already complete. Check your results!"
	examContinue             = "Got it — let's continue."
	examRepeat               = "Let's stay with the exam."
)

// ExamScore is the score of an exam: Score counts correct answers only (as
// the reference does, and as clients expect); WeightedScore also gives half
// a point per partial answer. Total counts every question, answered or not.
type ExamScore struct {
	Score         int           `json:"score"`
	Total         int           `json:"total"`
	Percentage    float64       `json:"percentage"`
	WeightedScore float64       `json:"weighted_score"`
	Feedback      *ExamFeedback `json:"feedback"`
}

// ExamProgress is the exam progress of the REST turn objects: the current
// question clamped to the number of questions.
type ExamProgress struct {
	CurrentQuestion   int `json:"current_question"`
	TotalQuestions    int `json:"total_questions"`
	AnsweredQuestions int `json:"answered_questions"`
}

// LiveExamProgress is the exam progress of the WebSocket state update. Its
// current question is not clamped, as the reference's was not (CONTRACT
// §4.5): a finished exam shows N+1 of N, which is how a client of the
// reference, whose is_complete stayed false, tells that an exam ended.
type LiveExamProgress struct {
	CurrentQuestion int `json:"current_question"`
	TotalQuestions  int `json:"total_questions"`
	CorrectSoFar    int `json:"correct_so_far"`
}

// ExamProgress returns the REST exam progress of an exam session.
func (s State) ExamProgress() (ExamProgress, bool) {
	if s.Mode != ModeExam {
		return ExamProgress{}, false
	}
	n := len(s.ExamQuestions)
	return ExamProgress{CurrentQuestion: min(s.ExamCurrentIdx+1, n), TotalQuestions: n, AnsweredQuestions: s.ExamCurrentIdx}, true
}

// LiveExamProgress returns the WebSocket exam progress of an exam session
// with at least one question.
func (s State) LiveExamProgress() (LiveExamProgress, bool) {
	n := len(s.ExamQuestions)
	if s.Mode != ModeExam || n == 0 {
		return LiveExamProgress{}, false
	}
	return LiveExamProgress{CurrentQuestion: s.ExamCurrentIdx + 1, TotalQuestions: n, CorrectSoFar: s.ExamTotalCorrect}, true
}

// BuildExamFeedback builds the feedback on an exam from its answered
// questions. Weak areas are the concepts answered incorrectly, then those
// answered partly; strengths the concepts answered correctly every time,
// so that no concept is both (the reference listed a concept answered
// once right and once wrong as both). The reference took both from Python
// sets, in no particular order; tutord lists each concept once in question
// order, so the output is reproducible. An exam ended early says how many
// questions were left, and only an exam answered right throughout hears
// that it is perfect.
func BuildExamFeedback(questions []ExamQuestion) ExamFeedback {
	var correct, partial, incorrect []string // concepts, one per answer
	unanswered := 0
	for _, q := range questions {
		if q.Result == nil {
			unanswered++
			continue
		}
		switch *q.Result {
		case ResultCorrect:
			correct = append(correct, q.Concept)
		case ResultPartial:
			partial = append(partial, q.Concept)
		case ResultIncorrect:
			incorrect = append(incorrect, q.Concept)
		}
	}
	weak := distinct(append(slices.Clip(incorrect), partial...))
	f := ExamFeedback{
		Score:     len(correct),
		Total:     len(questions),
		Strengths: slices.DeleteFunc(distinct(correct), func(c string) bool { return slices.Contains(weak, c) }),
		WeakAreas: weak,
		Patterns:  []string{},
		NextSteps: []string{},
	}
	switch {
	case len(correct) > len(incorrect):
		f.Patterns = append(f.Patterns, "Overall strong performance")
	case len(incorrect) > len(correct):
		f.Patterns = append(f.Patterns, "More practice needed across concepts")
	}
	if len(f.WeakAreas) > 0 {
		f.NextSteps = append(f.NextSteps, "Review these concepts in Teach Me: "+strings.Join(f.WeakAreas[:min(3, len(f.WeakAreas))], ", "))
	}
	if p := distinct(partial); len(p) > 0 {
		f.NextSteps = append(f.NextSteps, "Clarify your understanding of: "+strings.Join(p[:min(3, len(p))], ", "))
	}
	switch {
	case unanswered == 1:
		f.NextSteps = append(f.NextSteps, "Retake the exam to answer every question: 1 was left unanswered.")
	case unanswered > 1:
		f.NextSteps = append(f.NextSteps, "Retake the exam to answer every question: "+strconv.Itoa(unanswered)+" were left unanswered.")
	case len(f.WeakAreas) == 0 && f.Total > 0:
		f.NextSteps = append(f.NextSteps, "Perfect score! Try a harder topic next.")
	}
	f.WeightedScore = float64(len(correct)) + 0.5*float64(len(partial))
	if f.Total > 0 {
		f.Percentage = pyRound(float64(f.Score)/float64(f.Total)*100, 1)
		f.WeightedPercentage = pyRound(f.WeightedScore/float64(f.Total)*100, 1)
	}
	return f
}

// distinct returns the distinct elements of s in first-seen order.
func distinct(s []string) []string {
	out := make([]string, 0, len(s))
	for _, v := range s {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// ExamReply returns the fixed reply after an exam turn: the next question,
// or, once the exam has finished, the final score and a review line per
// question (see examFinalReply).
func ExamReply(s State, t *Topic) string {
	if s.ExamFinished || s.ExamCurrentIdx >= len(s.ExamQuestions) {
		return examFinalReply(s, t)
	}
	return examContinue + "\n\n" + s.ExamQuestions[s.ExamCurrentIdx].Prompt()
}

// Prompt returns the question as the exam shows it: "**Question k:** text".
// The exam's welcome ends with the first question's prompt.
func (q ExamQuestion) Prompt() string {
	return "**Question " + strconv.Itoa(q.QuestionIdx+1) + ":** " + q.QuestionText
}

// examFinalReply is the reference's final score and review, a line per
// question ("Q2: ❌ Incorrect"), to which tutord adds what a learner needs
// to learn from it: the right answer after a wrong or partial one, and
// "not answered" after a question an early end left.
func examFinalReply(s State, t *Topic) string {
	f := BuildExamFeedback(s.ExamQuestions)
	var b strings.Builder
	b.WriteString("✅ Exam complete!\nFinal Score: **")
	b.WriteString(strconv.Itoa(f.Score))
	b.WriteByte('/')
	b.WriteString(strconv.Itoa(f.Total))
	b.WriteString("** (")
	b.WriteString(strconv.FormatFloat(f.Percentage, 'f', 1, 64))
	b.WriteString("%)\n\nQuestion Review:\n")
	for i, q := range s.ExamQuestions {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("Q" + strconv.Itoa(i+1) + ": ")
		switch {
		case q.Result != nil && *q.Result == ResultCorrect:
			b.WriteString("✅ Correct")
		case q.Result != nil && *q.Result == ResultPartial:
			b.WriteString("🟨 Partial (answer: " + q.ShownAnswer(t) + ")")
		case q.Result != nil:
			b.WriteString("❌ Incorrect (answer: " + q.ShownAnswer(t) + ")")
		default:
			b.WriteString("❌ Incorrect (not answered)")
		}
	}
	return b.String()
}

// examAfterward is the reply to a message after the exam: the reference's
// fixed text and, for each of the exam's questions the message names
// ("why was Q2 wrong?", "what was the answer to question 3?", "the last
// question"), what the learner answered and the right answer; a question
// left unanswered (the exam ended early) keeps its answer hidden.
func examAfterward(s State, t *Topic, msg string) string {
	var b strings.Builder
	b.WriteString(ExamAlreadyCompleteReply)
	for _, k := range namedQuestions(msg, len(s.ExamQuestions)) {
		q := s.ExamQuestions[k]
		b.WriteString("\n\n" + q.Prompt() + "\n")
		switch {
		case q.StudentAnswer == nil || q.Result == nil:
			// Its answer stays hidden, as everywhere else: the learner may
			// meet the question again in another exam.
			b.WriteString("You did not answer it, so its answer stays hidden for another try.")
		case *q.Result == ResultCorrect:
			b.WriteString("You answered \"" + *q.StudentAnswer + "\": correct.")
		case *q.Result == ResultPartial:
			b.WriteString("You answered \"" + *q.StudentAnswer + "\": partly right. The answer: " + q.ShownAnswer(t) + ".")
		default:
			b.WriteString("You answered \"" + *q.StudentAnswer + "\": not right. The answer: " + q.ShownAnswer(t) + ".")
		}
	}
	return b.String()
}

// questionNumber finds questions named by their numbers: "Q2", "Q.2",
// "Q-3", "q no 2", "question 3", "questions 2 and 3", "questions 1, 2 and
// 3", "no. 4", "#5";
// questionOrdinal by their places: "the second question", "the last one",
// "the second last question".
var (
	questionNumber  = regexp.MustCompile(`(?i)(?:\b(?:q|qn|que|ques|questions?|number)\s*(?:no\.?\s*)?[.:-]?\s*|\bno\.\s*|#\s*)(\d{1,2}(?:(?:\s*,\s*\d{1,2})*\s*,?\s*(?:and|&|aur)\s*\d{1,2})*)\b`)
	questionOrdinal = regexp.MustCompile(`(?i)\b(?:(second|2nd)\s+)?(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|1st|2nd|3rd|[4-9]th|10th)\s+(?:question|one|q)\b`)
	ordinals        = map[string]int{"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10}
	digitRuns       = regexp.MustCompile(`\d+`)
)

// namedQuestions returns the 0-based indexes, in the order named and each
// once, of the questions among n that msg names.
func namedQuestions(msg string, n int) []int {
	type named struct{ at, k int }
	var found []named
	for _, m := range questionNumber.FindAllStringSubmatchIndex(msg, -1) {
		for _, d := range digitRuns.FindAllStringIndex(msg[m[2]:m[3]], -1) {
			k, _ := strconv.Atoi(msg[m[2]+d[0] : m[2]+d[1]])
			found = append(found, named{m[2] + d[0], k})
		}
	}
	for _, m := range questionOrdinal.FindAllStringSubmatchIndex(msg, -1) {
		w := strings.ToLower(msg[m[4]:m[5]])
		k, ok := ordinals[w]
		switch {
		case w == "last" && m[2] >= 0:
			k = n - 1 // "second last"
		case w == "last":
			k = n
		case !ok:
			k, _ = strconv.Atoi(strings.TrimRight(w, "stndrh"))
		}
		found = append(found, named{m[0], k})
	}
	slices.SortFunc(found, func(a, b named) int { return a.at - b.at })
	var out []int
	for _, f := range found {
		if f.k >= 1 && f.k <= n && !slices.Contains(out, f.k-1) {
			out = append(out, f.k-1)
		}
	}
	return out
}

// applyExam records the answer to the current exam question, moves to the
// next one and finishes the exam after the last. It returns the events and
// the fixed reply for the turn.
func applyExam(n *State, t *Topic, o Outcome, g Guarded) ([]Event, string) {
	i := n.ExamCurrentIdx
	if o.Precheck == PrecheckOffTopic {
		ev := countOffTopic(n, true)
		return append(ev, ExamQuestionRepeated{Index: i}), examRepeat + "\n\n" + n.ExamQuestions[i].Prompt()
	}
	if g.Result == nil {
		// Nothing judged the answer (the model failed): the question stands.
		return []Event{ExamQuestionRepeated{Index: i}}, examRepeat + "\n\n" + n.ExamQuestions[i].Prompt()
	}
	q := &n.ExamQuestions[i]
	msg, r := o.StudentMessage, *g.Result
	q.StudentAnswer, q.Result = &msg, &r
	if g.Output != nil {
		q.Feedback = g.Output.TurnSummary
	}
	switch r {
	case ResultCorrect:
		n.ExamTotalCorrect++
	case ResultPartial:
		n.ExamTotalPartial++
	default:
		n.ExamTotalIncorrect++
	}
	n.ExamCurrentIdx++
	ev := []Event{ExamAnswerRecorded{Index: i, Result: r}}
	if n.ExamCurrentIdx >= len(n.ExamQuestions) {
		ev = append(ev, finishExam(n, false))
	}
	return ev, ExamReply(*n, t)
}

func finishExam(n *State, early bool) Event {
	f := BuildExamFeedback(n.ExamQuestions)
	n.ExamFinished = true
	n.ExamFeedback = &f
	return ExamFinished{Score: f.Score, Total: f.Total, Early: early}
}

// ExamScore returns the exam's score: from its feedback once finished,
// else from the questions answered so far.
func (s State) ExamScore() ExamScore {
	f := BuildExamFeedback(s.ExamQuestions)
	if s.ExamFeedback != nil {
		f = *s.ExamFeedback
	}
	return ExamScore{Score: f.Score, Total: f.Total, Percentage: f.Percentage, WeightedScore: f.WeightedScore, Feedback: &f}
}

// EndExam ends an exam early: it is marked finished and gets its feedback
// from the questions answered so far; unanswered questions keep a null
// result and count in the total. Errors: ErrWrongMode ("Not an exam
// session"), ErrExamFinished.
func EndExam(s State, now time.Time) (State, ExamScore, error) {
	if s.Mode != ModeExam {
		return s, ExamScore{}, &Error{Code: ErrWrongMode.Code, Message: "Not an exam session"}
	}
	if s.ExamFinished {
		return s, ExamScore{}, ErrExamFinished
	}
	n := s.Clone()
	finishExam(&n, true)
	n.UpdatedAt = NewTime(now)
	n = n.normalized()
	return n, n.ExamScore(), nil
}
