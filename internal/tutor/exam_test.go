package tutor

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tutord/tutord/internal/tutor/answer"
)

func TestExamResultMapping(t *testing.T) {
	tests := []struct {
		name    string
		pre     Precheck
		verdict answer.Verdict
		out     *TutorOutput
		want    *Result
	}{
		{"tutor: correct", "", "", tutorSays(correct), ptr(ResultCorrect)},
		{"tutor: wrong, needs remediation", "", "", tutorSays(wrong, func(o *TutorOutput) { o.MasterySignal = ptr(SignalNeedsRemediation) }), ptr(ResultIncorrect)},
		{"tutor: wrong, adequate", "", "", tutorSays(wrong, func(o *TutorOutput) { o.MasterySignal = ptr(SignalAdequate) }), ptr(ResultPartial)},
		{"tutor: wrong, no signal", "", "", tutorSays(wrong), ptr(ResultPartial)},
		{"tutor: no judgement", "", "", tutorSays(), ptr(ResultIncorrect)},
		{"verdict correct wins", "", answer.Correct, tutorSays(wrong), ptr(ResultCorrect)},
		{"verdict partial wins", "", answer.Partial, tutorSays(correct), ptr(ResultPartial)},
		{"verdict incorrect wins over a partial reading", "", answer.Incorrect, tutorSays(wrong), ptr(ResultIncorrect)},
		{"verdict without tutor output", "", answer.Correct, nil, ptr(ResultCorrect)},
		{"cannot check: the tutor's table", "", answer.CannotCheck, tutorSays(wrong), ptr(ResultPartial)},
		{"I don't know earns nothing", PrecheckIDK, "", tutorSays(correct), ptr(ResultIncorrect)},
		{"off-topic is no answer", PrecheckOffTopic, "", tutorSays(correct), nil},
		{"no output, no verdict: nothing recorded", "", "", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newState(t, ModeExam, planOf(3), examQuestions(3)...)
			g := Guard(s, planOf(3), Outcome{Precheck: tt.pre, Verdict: tt.verdict, Output: tt.out})
			if diff := cmp.Diff(tt.want, g.Result); diff != "" {
				t.Errorf("result (-want +got)\n%s", diff)
			}
		})
	}
}

func TestExamTurns(t *testing.T) {
	tp := planOf(3)
	s := newState(t, ModeExam, tp, examQuestions(3)...)
	s, ev := ApplyTurn(s, tp, Outcome{Now: t0, StudentMessage: "1", Output: tutorSays(correct, func(o *TutorOutput) { o.TurnSummary = "right" })})
	if r, _ := s.LastReply(); r != "Got it — let's continue.\n\n**Question 2:** Question 2?" {
		t.Errorf("reply %q", r)
	}
	if diff := cmp.Diff([]Event{ExamAnswerRecorded{Index: 0, Result: ResultCorrect}}, ev); diff != "" {
		t.Errorf("events (-want +got)\n%s", diff)
	}
	q := s.ExamQuestions[0]
	if *q.StudentAnswer != "1" || *q.Result != ResultCorrect || q.Feedback != "right" || s.ExamCurrentIdx != 1 {
		t.Errorf("question 1: %+v, idx %d", q, s.ExamCurrentIdx)
	}
	if s.LastAnswerResult != nil {
		t.Error("exam results must not show mid-exam")
	}

	o := Outcome{Now: t0, StudentMessage: "tell me a joke", Precheck: PrecheckOffTopic, Output: tutorSays(correct)}
	s, ev = ApplyTurn(s, tp, o)
	if s.ExamCurrentIdx != 1 || s.OffTopicCount != 1 {
		t.Errorf("off-topic moved the exam: idx %d", s.ExamCurrentIdx)
	}
	if r, _ := s.LastReply(); r != "Let's stay with the exam.\n\n**Question 2:** Question 2?" {
		t.Errorf("reply %q", r)
	}
	if _, ok := hasEvent[ExamQuestionRepeated](ev); !ok {
		t.Errorf("events %v", eventNames(ev))
	}

	o = Outcome{Now: t0, StudentMessage: "7", Verdict: answer.Partial, Output: tutorSays(correct)}
	s, _ = ApplyTurn(s, tp, o)
	s, ev = ApplyTurn(s, tp, Outcome{Now: t0, StudentMessage: "no idea", Precheck: PrecheckIDK})
	if !s.ExamFinished || s.ExamFeedback == nil {
		t.Fatal("exam not finished after the last answer")
	}
	if diff := cmp.Diff([]Event{ExamAnswerRecorded{Index: 2, Result: ResultIncorrect}, ExamFinished{Score: 1, Total: 3}}, ev); diff != "" {
		t.Errorf("events (-want +got)\n%s", diff)
	}
	want := "✅ Exam complete!\nFinal Score: **1/3** (33.3%)\n\nQuestion Review:\nQ1: ✅ Correct\nQ2: 🟨 Partial (answer: 2)\nQ3: ❌ Incorrect (answer: 3)"
	if r, _ := s.LastReply(); r != want {
		t.Errorf("reply\n%q\nwant\n%q", r, want)
	}
	if s.ExamTotalCorrect+s.ExamTotalPartial+s.ExamTotalIncorrect != 3 {
		t.Errorf("totals %d %d %d", s.ExamTotalCorrect, s.ExamTotalPartial, s.ExamTotalIncorrect)
	}
	s, ev = ApplyTurn(s, tp, Outcome{Now: t0, StudentMessage: "and now?", Output: tutorSays(correct)})
	if r, _ := s.LastReply(); r != ExamAlreadyCompleteReply || s.TurnCount != 5 {
		t.Errorf("after the exam: reply %q, turns %d", r, s.TurnCount)
	}
	if diff := cmp.Diff([]Event{ExamAlreadyComplete{}}, ev); diff != "" {
		t.Errorf("events (-want +got)\n%s", diff)
	}
	// A question named after the exam gets its review.
	s, _ = ApplyTurn(s, tp, Outcome{Now: t0, StudentMessage: "why was Q2 wrong? and the last question?", Output: tutorSays(correct)})
	want = ExamAlreadyCompleteReply + "\n\n**Question 2:** Question 2?\nYou answered \"7\": partly right. The answer: 2." +
		"\n\n**Question 3:** Question 3?\nYou answered \"no idea\": not right. The answer: 3."
	if r, _ := s.LastReply(); r != want {
		t.Errorf("asked about Q2 and the last:\n%q\nwant\n%q", r, want)
	}
}

// An exam ended early keeps the answers of the questions left unanswered:
// asking for them afterwards does not reveal them.
func TestAfterAnEarlyEndUnansweredAnswersStayHidden(t *testing.T) {
	tp := planOf(3)
	s := newState(t, ModeExam, tp, examQuestions(3)...)
	s, _ = ApplyTurn(s, tp, Outcome{Now: t0, StudentMessage: "1", Verdict: answer.Correct, Output: tutorSays(correct)})
	s, _, err := EndExam(s, t0)
	if err != nil {
		t.Fatal(err)
	}
	s, _ = ApplyTurn(s, tp, Outcome{Now: t0, StudentMessage: "what were the answers to questions 1, 2 and 3?", Output: tutorSays(correct)})
	want := ExamAlreadyCompleteReply + "\n\n**Question 1:** Question 1?\nYou answered \"1\": correct." +
		"\n\n**Question 2:** Question 2?\nYou did not answer it, so its answer stays hidden for another try." +
		"\n\n**Question 3:** Question 3?\nYou did not answer it, so its answer stays hidden for another try."
	if r, _ := s.LastReply(); r != want {
		t.Errorf("reply\n%q\nwant\n%q", r, want)
	}
}

func TestNamedQuestions(t *testing.T) {
	for _, c := range []struct {
		msg  string
		want []int
	}{
		{"why was Q2 wrong?", []int{1}},
		{"what was the answer to question 3", []int{2}},
		{"explain no. 4 and #1 please", []int{3, 0}},
		{"the second question and the 3rd one", []int{1, 2}},
		{"what about the last one", []int{6}},
		{"q2 q2 question 2", []int{1}},
		{"question 9", nil}, // beyond the exam
		{"I got 5 out of 7", nil},
		{"no 2 ways about it", nil},
		{"Q.2 and Q-3", []int{1, 2}},
		{"q no 4 ka answer kya tha", []int{3}},
		{"que 5?", []int{4}},
		{"why were questions 2 and 6 wrong", []int{1, 5}},
		{"the second last question", []int{5}},
		{"second question", []int{1}},
		{"the 2nd last question", []int{5}},
		{"question 3, 2 of my answers were guesses", []int{2}},
		{"questions 1, 2, and 4", []int{0, 1, 3}},
		{"q1, q3 and q5", []int{0, 2, 4}},
	} {
		if got := namedQuestions(c.msg, 7); !slices.Equal(got, c.want) {
			t.Errorf("namedQuestions(%q) = %v, want %v", c.msg, got, c.want)
		}
	}
}

func TestExamWithZeroQuestions(t *testing.T) {
	tp := planOf(2)
	if _, err := NewState(NewSession{Mode: ModeExam, Topic: tp, Student: StudentContext{Grade: 5}, Now: t0}); !errors.Is(err, ErrInvalid) {
		t.Errorf("NewState: %v, want ErrInvalid", err)
	}
	s := State{Mode: ModeExam, CurrentStep: 1}
	got, ev := ApplyTurn(s, tp, Outcome{Now: t0, StudentMessage: "4", Output: tutorSays(correct)})
	if r, _ := got.LastReply(); r != ExamAlreadyCompleteReply {
		t.Errorf("reply %q, events %v", r, eventNames(ev))
	}
	if _, ok := got.LiveExamProgress(); ok {
		t.Error("live progress without questions")
	}
	if p, ok := got.ExamProgress(); !ok || p != (ExamProgress{CurrentQuestion: 0, TotalQuestions: 0}) {
		t.Errorf("progress %+v", p)
	}
	ended, score, err := EndExam(s, t0)
	if err != nil {
		t.Fatal(err)
	}
	want := ExamScore{Feedback: &ExamFeedback{Strengths: []string{}, WeakAreas: []string{}, Patterns: []string{}, NextSteps: []string{}}}
	if diff := cmp.Diff(want, score); diff != "" || !ended.ExamFinished {
		t.Errorf("score (-want +got)\n%s", diff)
	}
}

func TestBuildExamFeedback(t *testing.T) {
	q := func(concept string, r Result) ExamQuestion { return ExamQuestion{Concept: concept, Result: &r} }
	unanswered := ExamQuestion{Concept: "z"}
	tests := []struct {
		name string
		qs   []ExamQuestion
		want ExamFeedback
	}{
		{
			name: "all correct",
			qs:   []ExamQuestion{q("a", ResultCorrect), q("b", ResultCorrect), q("a", ResultCorrect)},
			want: ExamFeedback{Score: 3, Total: 3, Percentage: 100, Strengths: []string{"a", "b"}, WeakAreas: []string{},
				Patterns: []string{"Overall strong performance"}, NextSteps: []string{"Perfect score! Try a harder topic next."},
				WeightedScore: 3, WeightedPercentage: 100},
		},
		{
			name: "ended early, every answer right: no perfect score",
			qs:   []ExamQuestion{q("a", ResultCorrect), q("b", ResultCorrect), unanswered, unanswered},
			want: ExamFeedback{Score: 2, Total: 4, Percentage: 50, Strengths: []string{"a", "b"}, WeakAreas: []string{},
				Patterns: []string{"Overall strong performance"}, NextSteps: []string{"Retake the exam to answer every question: 2 were left unanswered."},
				WeightedScore: 2, WeightedPercentage: 50},
		},
		{
			name: "weak areas: incorrect first, then partial, each once, in question order",
			qs: []ExamQuestion{q("p1", ResultPartial), q("i1", ResultIncorrect), q("c1", ResultCorrect), q("i2", ResultIncorrect),
				q("p2", ResultPartial), q("i1", ResultIncorrect), q("p3", ResultPartial), q("p4", ResultPartial), unanswered},
			want: ExamFeedback{Score: 1, Total: 9, Percentage: 11.1, Strengths: []string{"c1"},
				WeakAreas: []string{"i1", "i2", "p1", "p2", "p3", "p4"},
				Patterns:  []string{"More practice needed across concepts"},
				NextSteps: []string{"Review these concepts in Teach Me: i1, i2, p1", "Clarify your understanding of: p1, p2, p3",
					"Retake the exam to answer every question: 1 was left unanswered."},
				WeightedScore: 3, WeightedPercentage: 33.3},
		},
		{
			name: "a tie has no pattern; partials count for nothing but half a weighted point",
			qs:   []ExamQuestion{q("a", ResultCorrect), q("b", ResultIncorrect), q("c", ResultPartial)},
			want: ExamFeedback{Score: 1, Total: 3, Percentage: 33.3, Strengths: []string{"a"}, WeakAreas: []string{"b", "c"}, Patterns: []string{},
				NextSteps:     []string{"Review these concepts in Teach Me: b, c", "Clarify your understanding of: c"},
				WeightedScore: 1.5, WeightedPercentage: 50},
		},
		{
			name: "nothing answered",
			qs:   []ExamQuestion{unanswered, unanswered},
			want: ExamFeedback{Total: 2, Strengths: []string{}, WeakAreas: []string{}, Patterns: []string{},
				NextSteps: []string{"Retake the exam to answer every question: 2 were left unanswered."}},
		},
		{
			name: "two of three: 66.7; a concept once partly right is weak, not strong too",
			qs:   []ExamQuestion{q("a", ResultCorrect), q("a", ResultCorrect), q("a", ResultPartial)},
			want: ExamFeedback{Score: 2, Total: 3, Percentage: 66.7, Strengths: []string{}, WeakAreas: []string{"a"},
				Patterns:  []string{"Overall strong performance"},
				NextSteps: []string{"Review these concepts in Teach Me: a", "Clarify your understanding of: a"}, WeightedScore: 2.5, WeightedPercentage: 83.3},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, BuildExamFeedback(tt.qs)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestExamProgress(t *testing.T) {
	s := State{Mode: ModeExam, ExamQuestions: examQuestions(3), ExamTotalCorrect: 2}
	// REST clamps the current question, the WebSocket does not (N+1 once
	// the exam is over), both as the reference.
	for idx, want := range map[int][3]int{0: {1, 0, 1}, 2: {3, 2, 3}, 3: {3, 3, 4}} {
		s.ExamCurrentIdx = idx
		p, _ := s.ExamProgress()
		lp, _ := s.LiveExamProgress()
		if p != (ExamProgress{CurrentQuestion: want[0], TotalQuestions: 3, AnsweredQuestions: want[1]}) {
			t.Errorf("idx %d: REST progress %+v", idx, p)
		}
		if lp != (LiveExamProgress{CurrentQuestion: want[2], TotalQuestions: 3, CorrectSoFar: 2}) {
			t.Errorf("idx %d: live progress %+v", idx, lp)
		}
	}
	if _, ok := (State{Mode: ModeTeachMe}).ExamProgress(); ok {
		t.Error("teach_me has exam progress")
	}
}

func TestEndExam(t *testing.T) {
	tp := planOf(3)
	s := newState(t, ModeExam, tp, examQuestions(4)...)
	s, _ = ApplyTurn(s, tp, Outcome{Now: t0, StudentMessage: "1", Verdict: answer.Correct})
	s, _ = ApplyTurn(s, tp, Outcome{Now: t0, StudentMessage: "9", Verdict: answer.Partial})
	ended, score, err := EndExam(s, t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if score.Score != 1 || score.Total != 4 || score.Percentage != 25 || score.WeightedScore != 1.5 || score.Feedback == nil {
		t.Errorf("score %+v", score)
	}
	if !ended.ExamFinished || ended.ExamQuestions[2].Result != nil || ended.ExamCurrentIdx != 2 {
		t.Errorf("ended: finished %v, q3 %v", ended.ExamFinished, ended.ExamQuestions[2].Result)
	}
	if s.ExamFinished {
		t.Error("EndExam changed its input")
	}
	if _, _, err := EndExam(ended, t0); !errors.Is(err, ErrExamFinished) {
		t.Errorf("second end: %v", err)
	}
	if _, _, err := EndExam(newState(t, ModeTeachMe, tp), t0); !errors.Is(err, ErrWrongMode) || err.Error() != "Not an exam session" {
		t.Errorf("teach_me: %v", err)
	}
}

// TestExamReviewShowsAnswers: the review gives the right answer after a
// wrong or partial one, as the learner reads it (a choice question's
// option, not its letter), and marks a question an early end left.
func TestExamReviewShowsAnswers(t *testing.T) {
	tp := &Topic{Questions: []BankQuestion{{ID: "food", Text: "What food does photosynthesis make?", Answer: "B", Kind: answer.KindChoice, Options: []string{"protein", "glucose"}}}}
	wrong, right := ResultIncorrect, ResultCorrect
	said := "protein"
	s := State{Mode: ModeExam, ExamFinished: true, ExamCurrentIdx: 2, ExamQuestions: []ExamQuestion{
		{QuestionIdx: 0, QuestionID: "food", ExpectedAnswer: "B", StudentAnswer: &said, Result: &wrong},
		{QuestionIdx: 1, ExpectedAnswer: "4", StudentAnswer: &said, Result: &right},
		{QuestionIdx: 2, ExpectedAnswer: "7"},
	}}
	want := "Q1: ❌ Incorrect (answer: glucose)\nQ2: ✅ Correct\nQ3: ❌ Incorrect (not answered)"
	if got := ExamReply(s, tp); !strings.HasSuffix(got, want) {
		t.Errorf("review %q, want it to end %q", got, want)
	}
}
