package tutor

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tutord/tutord/internal/tutor/answer"
)

// ignoreTimes ignores the asked_at of questions in comparisons.
var ignoreTimes = cmpopts.IgnoreFields(Question{}, "AskedAt")

func TestQuestionLifecycleCases(t *testing.T) {
	tp := lesson("a", "b")
	modelQ := &Question{QuestionText: "What is 2+2?", ExpectedAnswer: "4", Concept: "a", Hints: []string{}, PreviousStudentAnswers: []string{}, Phase: PhaseAsked}
	bankQ := &Question{QuestionText: tp.Questions[0].Text, ExpectedAnswer: "42", Concept: "a", Hints: tp.Questions[0].Hints,
		PreviousStudentAnswers: []string{}, Phase: PhaseAsked, QuestionID: "q-a", AnswerKind: answer.KindInteger}
	tests := []struct {
		name    string
		pending *Question
		out     *TutorOutput
		next    *BankQuestion
		want    *Question
		events  []string
	}{
		{
			name: "case 1: wrong answer climbs to probe, question stays", pending: modelQ, out: tutorSays(wrong),
			want: &Question{QuestionText: "What is 2+2?", ExpectedAnswer: "4", Concept: "a", Hints: []string{}, HintsUsed: 1,
				WrongAttempts: 1, PreviousStudentAnswers: []string{"my answer"}, Phase: PhaseProbe},
			events: []string{"mastery_updated", "wrong_answer", "phase_changed"},
		},
		{
			name: "case 1: the tutor's probe replaces a model question's text and answer", pending: modelQ,
			out: tutorSays(wrong, asks("What is 2 and 2 more?", "four", "b")),
			want: &Question{QuestionText: "What is 2 and 2 more?", ExpectedAnswer: "four", Concept: "a", Hints: []string{}, HintsUsed: 1,
				WrongAttempts: 1, PreviousStudentAnswers: []string{"my answer"}, Phase: PhaseProbe},
			events: []string{"mastery_updated", "wrong_answer", "phase_changed"},
		},
		{
			name: "case 1: a bank question keeps its text and answer through a probe", pending: bankQ,
			out: tutorSays(wrong, asks("What are 6 groups of 7?", "6 sevens", "")),
			want: &Question{QuestionText: bankQ.QuestionText, ExpectedAnswer: "42", Concept: "a", Hints: bankQ.Hints, HintsUsed: 1,
				WrongAttempts: 1, PreviousStudentAnswers: []string{"my answer"}, Phase: PhaseProbe, QuestionID: "q-a", AnswerKind: answer.KindInteger},
			events: []string{"mastery_updated", "wrong_answer", "phase_changed"},
		},
		{
			name: "case 1: a new bank question after a wrong answer starts a new lifecycle", pending: bankQ, out: tutorSays(wrong), next: &tp.Questions[1],
			want: &Question{QuestionText: tp.Questions[1].Text, ExpectedAnswer: "42", Concept: "b", Hints: tp.Questions[1].Hints,
				PreviousStudentAnswers: []string{}, Phase: PhaseAsked, QuestionID: "q-b", AnswerKind: answer.KindInteger},
			events: []string{"mastery_updated", "wrong_answer", "phase_changed", "question_asked"},
		},
		{
			name: "case 2: right answer clears", pending: modelQ, out: tutorSays(correct),
			want: nil, events: []string{"mastery_updated", "question_cleared"},
		},
		{
			name: "case 2: right answer clears and tracks the next question", pending: modelQ, out: tutorSays(correct, asks("And 3+3?", "6", "")),
			want:   &Question{QuestionText: "And 3+3?", ExpectedAnswer: "6", Concept: "a", Hints: []string{}, PreviousStudentAnswers: []string{}, Phase: PhaseAsked},
			events: []string{"mastery_updated", "question_cleared", "question_asked"},
		},
		{
			name: "case 3: new question, none pending; concept from the step", pending: nil, out: tutorSays(asks("Ready for 5+5?", "10", "")),
			want:   &Question{QuestionText: "Ready for 5+5?", ExpectedAnswer: "10", Concept: "a", Hints: []string{}, PreviousStudentAnswers: []string{}, Phase: PhaseAsked},
			events: []string{"question_asked"},
		},
		{
			name: "case 3: a bank question chosen by the engine", pending: nil, out: tutorSays(), next: &tp.Questions[0],
			want: bankQ, events: []string{"question_asked"},
		},
		{
			name: "case 4: new concept replaces the pending question", pending: modelQ, out: tutorSays(intent(IntentQuestion), asks("What is b?", "b", "B")),
			want:   &Question{QuestionText: "What is b?", ExpectedAnswer: "b", Concept: "b", Hints: []string{}, PreviousStudentAnswers: []string{}, Phase: PhaseAsked},
			events: []string{"question_asked"},
		},
		{
			name: "case 5: same-concept follow-up keeps the lifecycle", pending: &Question{QuestionText: "q", Concept: "a", Phase: PhaseHint, WrongAttempts: 2},
			out:  tutorSays(intent(IntentQuestion), asks("Another way?", "x", "a")),
			want: &Question{QuestionText: "q", Concept: "a", Phase: PhaseHint, WrongAttempts: 2}, events: nil,
		},
		{
			name: "case 5 does not hold for another bank question", pending: bankQ, out: tutorSays(intent(IntentContinuation)),
			next:   &BankQuestion{ID: "q-a2", Text: "7 × 8?", Answer: "56", Concept: "a"},
			want:   &Question{QuestionText: "7 × 8?", ExpectedAnswer: "56", Concept: "a", Hints: []string{}, PreviousStudentAnswers: []string{}, Phase: PhaseAsked, QuestionID: "q-a2"},
			events: []string{"question_asked"},
		},
		{
			name: "nothing asked, nothing judged", pending: modelQ, out: tutorSays(intent(IntentQuestion)),
			want: modelQ, events: nil,
		},
		{
			name: "wrong answer without a pending question changes nothing", pending: nil, out: tutorSays(wrong),
			want: nil, events: []string{"mastery_updated"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newState(t, ModeTeachMe, tp)
			s.LastQuestion = clonePtr(tt.pending)
			s.AwaitingResponse = tt.pending != nil
			o := turnAt(1, "my answer", tt.out)
			o.NextQuestion = tt.next
			got, ev := ApplyTurn(s, tp, o)
			if diff := cmp.Diff(tt.want, got.LastQuestion, ignoreTimes, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("pending question (-want +got)\n%s", diff)
			}
			if got.AwaitingResponse != (tt.want != nil) {
				t.Errorf("awaiting_response = %v", got.AwaitingResponse)
			}
			if diff := cmp.Diff(tt.events, eventNames(ev), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("events (-want +got)\n%s", diff)
			}
		})
	}
}

func TestPhaseProgression(t *testing.T) {
	tp := lesson("a")
	s, _ := askedStateOn(t, tp)
	want := []struct {
		phase    Phase
		strategy Strategy
		level    int
		hint     string
	}{
		{PhaseProbe, StrategyProbe, 1, "Think of 6 groups of 7."},
		{PhaseHint, StrategyHint, 2, "Start with 6 × 5 = 30."},
		{PhaseExplain, StrategyExplain, 3, ""},
		{PhaseExplain, StrategyChange, 3, ""},
		{PhaseExplain, StrategyChange, 3, ""},
	}
	for i, w := range want {
		o := turnAt(i+2, "41", tutorSays())
		o.Verdict = answer.Incorrect
		s, _ = ApplyTurn(s, tp, o)
		q := s.LastQuestion
		hint, _ := q.Hint()
		if q.WrongAttempts != i+1 || q.Phase != w.phase || q.Strategy() != w.strategy || q.HintLevel() != w.level || hint != w.hint {
			t.Errorf("after %d wrong: attempts %d phase %s strategy %s level %d hint %q; want %+v",
				i+1, q.WrongAttempts, q.Phase, q.Strategy(), q.HintLevel(), hint, w)
		}
		if q.HintsUsed != min(i+1, 2) {
			t.Errorf("after %d wrong: hints_used %d", i+1, q.HintsUsed)
		}
	}
	if got := s.LastQuestion.PreviousStudentAnswers; len(got) != maxPreviousAnswers {
		t.Errorf("previous answers %v, want %d kept", got, maxPreviousAnswers)
	}
}

func askedStateOn(t *testing.T, tp *Topic) (State, *Topic) {
	t.Helper()
	s := newState(t, ModeTeachMe, tp)
	o := turnAt(1, "ready", tutorSays(intent(IntentContinuation)))
	o.NextQuestion = &tp.Questions[0]
	s, _ = ApplyTurn(s, tp, o)
	return s, tp
}

func TestIDKDoesNotClimbTheLadder(t *testing.T) {
	s, tp := askedStateOn(t, lesson("a"))
	o := turnAt(2, "I don't know", tutorSays(wrong))
	o.Precheck = PrecheckIDK
	s, _ = ApplyTurn(s, tp, o)
	if q := s.LastQuestion; q.WrongAttempts != 0 || q.Phase != PhaseAsked || q.IDKCount != 1 {
		t.Errorf("after I don't know: %+v", q)
	}
	if s.LastAnswerResult != nil {
		t.Errorf("last_answer_result = %v", *s.LastAnswerResult)
	}
}

// TestIDKMovesUpTheHints checks that each "I don't know" is answered with
// the next hint, up to the last one and never further, without climbing the
// ladder; a wrong answer afterwards goes on from the hints given.
func TestIDKMovesUpTheHints(t *testing.T) {
	s, tp := askedStateOn(t, lesson("a"))
	if got := s.LastQuestion.NextHint(0); got != 1 {
		t.Fatalf("first hint level %d, want 1", got)
	}
	for i, want := range []struct{ used, next int }{{1, 2}, {2, 2}, {2, 2}} {
		o := turnAt(i+2, "I don't know", tutorSays())
		o.Precheck = PrecheckIDK
		s, _ = ApplyTurn(s, tp, o)
		q := s.LastQuestion
		if q.HintsUsed != want.used || q.NextHint(q.WrongAttempts) != want.next || q.Phase != PhaseAsked || q.IDKCount != i+1 {
			t.Errorf("after %d I don't know: hints_used %d, next %d, phase %s; want %+v", i+1, q.HintsUsed, q.NextHint(q.WrongAttempts), q.Phase, want)
		}
	}
	o := turnAt(9, "41", tutorSays())
	o.Verdict = answer.Incorrect
	s, _ = ApplyTurn(s, tp, o)
	if q := s.LastQuestion; q.HintsUsed != 2 || q.WrongAttempts != 1 || q.Phase != PhaseProbe {
		t.Errorf("a wrong answer after the hints: %+v", q)
	}
}

func TestPreviousAnswerIsCut(t *testing.T) {
	s, tp := askedStateOn(t, lesson("a"))
	long := strings.Repeat("ü", 300)
	o := turnAt(2, long, tutorSays())
	o.Verdict = answer.Incorrect
	s, _ = ApplyTurn(s, tp, o)
	if got := s.LastQuestion.PreviousStudentAnswers[0]; got != strings.Repeat("ü", 200) {
		t.Errorf("previous answer has %d runes, want 200", len([]rune(got)))
	}
}

func TestQuestionExpected(t *testing.T) {
	tp := lesson("a")
	bank := Question{QuestionID: "q-a", ExpectedAnswer: "stale"}
	if e := bank.Expected(tp); e.Answer != "42" || e.Kind != answer.KindInteger || len(e.Accept) != 0 {
		t.Errorf("bank question: %+v", e)
	}
	model := Question{ExpectedAnswer: "3/4", AnswerKind: answer.KindFraction}
	if e := model.Expected(tp); e.Answer != "3/4" || e.Kind != answer.KindFraction {
		t.Errorf("model question: %+v", e)
	}
	gone := Question{QuestionID: "deleted", ExpectedAnswer: "7"}
	if e := gone.Expected(tp); e.Answer != "7" {
		t.Errorf("unknown bank id: %+v", e)
	}
}

// TestMovingOnDropsTheUnansweredQuestion: a tutor that advances the step
// without asking anything leaves the pending question behind, so the next
// message is not graded against it; one that asks a question while
// advancing keeps one pending.
func TestMovingOnDropsTheUnansweredQuestion(t *testing.T) {
	s, tp := askedState(t)
	o := turnAt(2, "41", tutorSays(wrong, advance(2)))
	o.Verdict = answer.Incorrect
	n, ev := ApplyTurn(s, tp, o)
	if n.LastQuestion != nil || n.AwaitingResponse || !slices.ContainsFunc(ev, func(e Event) bool { _, ok := e.(QuestionCleared); return ok }) {
		t.Fatalf("moved on: question %+v, awaiting %v, events %v", n.LastQuestion, n.AwaitingResponse, ev)
	}
	o = turnAt(2, "41", tutorSays(wrong, advance(2), asks("What is 2 + 2?", "4", "b")))
	o.Verdict = answer.Incorrect
	n, _ = ApplyTurn(s, tp, o)
	if n.LastQuestion == nil {
		t.Fatal("a tutor that asks while moving on lost the question")
	}
}

// TestSetAsideDropsTheQuestion: a tutor that sets the pending question
// aside (a learner who declines it) and asks nothing leaves none pending;
// one that asks another keeps that one.
func TestSetAsideDropsTheQuestion(t *testing.T) {
	s, tp := askedState(t)
	setAside := func(o *TutorOutput) { o.SetAside = true }
	n, ev := ApplyTurn(s, tp, turnAt(2, "no thanks", tutorSays(setAside)))
	if n.LastQuestion != nil || n.AwaitingResponse || !slices.ContainsFunc(ev, func(e Event) bool { _, ok := e.(QuestionCleared); return ok }) {
		t.Fatalf("set aside: question %+v, awaiting %v, events %v", n.LastQuestion, n.AwaitingResponse, ev)
	}
	n, _ = ApplyTurn(s, tp, turnAt(2, "no thanks", tutorSays(setAside, asks("What is 2 + 2?", "4", "b"))))
	if n.LastQuestion == nil || n.LastQuestion.QuestionText != "What is 2 + 2?" {
		t.Fatalf("set aside with a new question: %+v", n.LastQuestion)
	}
	if n, _ = ApplyTurn(s, tp, turnAt(2, "hmm", tutorSays())); n.LastQuestion == nil {
		t.Fatal("a question dropped without being set aside")
	}
}

// TestCluesAndStepsAreRecorded: the clues a reply gave and the right step
// a learner reached are kept with the pending question, each once, and go
// with it.
func TestCluesAndStepsAreRecorded(t *testing.T) {
	s, tp := askedStateOn(t, lesson("a"))
	step := func(o *TutorOutput) {
		o.Clues, o.RightStep = []string{"Find one part first.", "Find one part first."}, "one part is 100"
	}
	o := turnAt(2, "100", tutorSays(step))
	o.Verdict = answer.Incorrect
	s, _ = ApplyTurn(s, tp, o)
	q := s.LastQuestion
	if q == nil || !slices.Equal(q.CluesGiven, []string{"Find one part first."}) || !slices.Equal(q.StepsShown, []string{"one part is 100"}) || q.WrongAttempts != 0 {
		t.Fatalf("after a right step with a clue: %+v", q)
	}
	clone := s.Clone()
	clone.LastQuestion.CluesGiven[0] = "changed"
	if s.LastQuestion.CluesGiven[0] != "Find one part first." {
		t.Fatal("Clone shares the clues given")
	}
	o = turnAt(3, "500", tutorSays(correct))
	o.Verdict = answer.Correct
	if s, _ = ApplyTurn(s, tp, o); s.LastQuestion != nil {
		t.Fatalf("a right answer leaves the question pending: %+v", s.LastQuestion)
	}
}
