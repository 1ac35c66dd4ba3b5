package runner

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tutord/tutord/internal/eval/client"
	"github.com/tutord/tutord/internal/eval/scenario"
	"github.com/tutord/tutord/internal/tutor/answer"
)

func TestInternalMatches(t *testing.T) {
	tests := []struct {
		reply string
		want  []string
	}{
		{"Nice work, Asha! 7/9 is right.", nil},
		{"The student's answer is wrong.", []string{"reference: The student's"}},
		{"Assessment:good", []string{"reference: Assessment:", "label: Assessment:"}},
		{"Assessment: the answer is fine.", []string{"label: Assessment:"}},
		{`Here you go {"expected_answer": "7/9"}`, []string{"field: expected_answer", `json: {"expected_answer":`}},
		{"PACING: SIMPLIFY. Let's slow down.", []string{"directive: PACING:"}},
		{"As an AI, I cannot say.", []string{"model: As an AI"}},
		{"We learned about the student council election.", []string{"reference: the student"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, internalMatches(tt.reply)); diff != "" {
			t.Errorf("internalMatches(%q) (-want +got):\n%s", tt.reply, diff)
		}
	}
}

func TestPacing(t *testing.T) {
	quiet := []string{"ok", "yes", "ok"}
	chatty := []string{strings.Repeat("word ", 20), strings.Repeat("word ", 18)}
	tests := []struct {
		name       string
		turn       int
		said       []string
		mastery    map[string]float64
		want       string
		wantBudget int
	}{
		{"first turn", 1, []string{"hi"}, nil, paceFirst, 3},
		{"low mastery", 4, []string{"I think it is seven ninths", "ok then go on please"}, map[string]float64{"a": 0.3, "b": 0}, paceSimplify, 4},
		{"high mastery", 4, chatty, map[string]float64{"a": 0.9, "b": 0.8}, paceAccelerate, 4},
		{"quiet learner", 3, quiet, map[string]float64{"a": 0, "b": 0}, paceQuiet, 3},
		{"expressive learner", 3, chatty, map[string]float64{"a": 0.5, "b": 0.5}, paceExpressive, 7},
		{"steady", 3, []string{"I think the answer is seven", "yes that makes sense to me now"}, map[string]float64{"a": 0.5}, paceSteady, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, budget := pacing(tt.turn, tt.said, tt.mastery)
			if got != tt.want || budget != tt.wantBudget {
				t.Errorf("pacing = %s %d, want %s %d", got, budget, tt.want, tt.wantBudget)
			}
		})
	}
}

func TestLeaks(t *testing.T) {
	like := &question{ref: QuestionRef{ID: "like-1", Text: "What is 2/9 + 5/9?"}, exp: answer.Expected{Answer: "7/9"}}
	yesNo := &question{ref: QuestionRef{ID: "yn", Text: "Is x = 4 a solution of 3x + 5 = 5x - 3? Answer yes or no."}, exp: answer.Expected{Answer: "yes", Kind: answer.KindBoolean}}
	cond := &question{ref: QuestionRef{ID: "cond", Text: "What is the change from a gas into a liquid called?"}, exp: answer.Expected{Answer: "condensation"}}
	choice := &question{ref: QuestionRef{ID: "ch", Text: "Which takes in heat? Is it A) freezing, B) condensation or C) melting?"}, exp: answer.Expected{Answer: "C"}}
	tests := []struct {
		name  string
		q     *question
		reply string
		said  []string
		asked []*question
		want  int
	}{
		{"states the answer", like, "Good try. The answer is 7/9.", nil, nil, 1},
		{"keeps it back", like, "Keep the denominator 9 and add the numerators 2 and 5.", nil, nil, 0},
		{"echoes the learner", like, "You said 7/9, and that is right.", []string{"7/9"}, nil, 0},
		{"asks its own question", yesNo, "Next one: Is x = 4 a solution of 3x + 5 = 5x - 3? Answer yes or no.", nil, nil, 0},
		{"another question names the answer", cond, "Got it. Which takes in heat? Is it A) freezing, B) condensation or C) melting?", nil, []*question{choice}, 0},
		{"unknown answer", &question{ref: QuestionRef{Text: "Why?"}}, "Because 7/9.", nil, nil, 0},
		{"nil question", nil, "The answer is 7/9.", nil, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := leaks(tt.q, tt.reply, tt.said, tt.asked...); len(got) != tt.want {
				t.Errorf("leaks = %+v, want %d", got, tt.want)
			}
		})
	}
	if !(&question{ref: QuestionRef{Text: "a"}}).same(&question{ref: QuestionRef{Text: "a"}}) || like.same(yesNo) || like.same(nil) || !(*question)(nil).same(nil) {
		t.Error("same() is wrong")
	}
}

func state(phase, result string, complete bool, mastery map[string]float64) *client.State {
	s := &client.State{IsComplete: complete, MasteryEstimates: mastery, CurrentStep: 2, ConceptsDiscussed: []string{"Like fractions"}}
	if phase != "" {
		s.QuestionPhase = &phase
	}
	if result != "" {
		s.LastAnswerResult = &result
	}
	return s
}

// transcript is a small transcript: the welcome, a wrong answer, a leak
// before the explain phase, an unsafe flagged message, a right answer that
// completes the session, and a REST action.
func transcript() []Turn {
	q := &QuestionRef{ID: "like-1", Text: "What is 2/9 + 5/9?", Answer: "7/9"}
	return []Turn{
		{Index: 0, Kind: "welcome", Tutor: "Welcome! Ready?", Sentences: 2},
		{Index: 1, Kind: "message", Learner: "5/9", Tutor: "Not quite. Think of ninths.", Question: q, Latency: 10, Sentences: 2, Budget: 3,
			State: state("probe", "incorrect", false, map[string]float64{"Like fractions": 0.3, "Unlike fractions": 0})},
		{Index: 2, Kind: "message", Learner: "hmm", Tutor: "It is 7/9. The student should add.", Question: q, Latency: 30, Sentences: 4, Budget: 3,
			Leaks: []Leak{{Question: "like-1", BeforeExplain: true}}, Internal: []string{"reference: The student"},
			State: state("probe", "", false, map[string]float64{"Like fractions": 0.3})},
		{Index: 3, Kind: "message", Learner: "I will hurt him", Unsafe: true, Flagged: true, SafetyFlags: 1, Tutor: "Let's keep it kind.", Latency: 20, Sentences: 1, Budget: 5,
			State: state("probe", "", false, nil)},
		{Index: 4, Kind: "message", Learner: "7/9", Tutor: "Yes, 7/9.", Question: q, Latency: 40, Sentences: 1, Budget: 5, Repeated: true,
			State: state("", "correct", true, map[string]float64{"Like fractions": 0.8})},
		{Index: 5, Kind: "action", Action: "pause", Status: 200, Latency: 5, State: state("", "", true, nil)},
	}
}

func TestMeasure(t *testing.T) {
	doc := &client.Document{ExamTotalCorrect: 3, ExamQuestions: make([]client.ExamQuestion, 7)}
	got := measure(transcript(), "teach_me", doc)
	want := Metrics{
		Turns: 4, Replies: 5, Completed: true, TurnsToComplete: 4, QuestionsAsked: 1,
		AnswersCorrect: 1, AnswersIncorrect: 1, LeaksBeforeExplain: 1, Reveals: 1, SanitizationLeaks: 1,
		PacedReplies: 4, RepliesOverBudget: 1, RepeatedReplies: 1, TurnsToMastery: map[string]int{"Like fractions": 4},
		UnsafeTurns: 1, UnsafeFlagged: 1, SafeTurns: 3,
		Latency: Latency{Count: 4, Mean: 25, P50: 20, P95: 40, P99: 40, Max: 40},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("measure (-want +got):\n%s", diff)
	}
	exam := measure(nil, "exam", doc)
	if exam.ExamScore != 3 || exam.ExamTotal != 7 || exam.ExamPercentage != 42.9 {
		t.Errorf("exam metrics = %d/%d %.1f%%", exam.ExamScore, exam.ExamTotal, exam.ExamPercentage)
	}
	values := got.Values()
	for _, name := range scenario.MetricNames {
		if _, ok := values[name]; !ok {
			t.Errorf("Values() has no %s", name)
		}
	}
	if len(values) != len(scenario.MetricNames) {
		t.Errorf("Values() has %d metrics, scenario.MetricNames %d", len(values), len(scenario.MetricNames))
	}
}

func TestSummarize(t *testing.T) {
	r1 := Result{Status: Passed, Turns: transcript()}
	r1.Metrics = measure(r1.Turns, "teach_me", nil)
	r2 := Result{Status: Failed, Turns: []Turn{{Kind: "message", Latency: 100, State: state("", "", false, nil)}}}
	r2.Metrics = measure(r2.Turns, "exam", &client.Document{ExamTotalCorrect: 1, ExamQuestions: make([]client.ExamQuestion, 2)})
	r3 := Result{Status: Error}
	s := Summarize([]Result{r1, r2, r3}, 2*time.Second, 1)
	want := Summary{
		Scenarios: 3, Passed: 1, Failed: 1, Errors: 1, Invalid: 1, Turns: 5, Duration: 2000, TurnsPerSecond: 2.5,
		PassRate: 0.3333, CompletionRate: 0.5, MeanTurnsToComplete: 4, LeaksBeforeExplain: 1, Reveals: 1, LeakFreeRate: 0.5,
		SanitizationLeaks: 1, SanitizationCleanRate: 0.8, PacingCompliance: 0.75, RepliesOverBudget: 1, RepeatedReplies: 1,
		MeanExamPercentage: ptr(50.0), TurnsToMastery: map[string]float64{"Like fractions": 4},
		UnsafeTurns: 1, UnsafeFlagged: 1, SafeTurns: 4, SafetyRecall: 1, SafetyFalsePositiveRate: 0,
		Latency: Latency{Count: 5, Mean: 40, P50: 30, P95: 100, P99: 100, Max: 100},
	}
	if diff := cmp.Diff(want, s); diff != "" {
		t.Errorf("Summarize (-want +got):\n%s", diff)
	}
	empty := Summarize(nil, 0, 0)
	if empty.SafetyRecall != 1 || empty.LeakFreeRate != 0 || empty.PassRate != 0 || empty.TurnsPerSecond != 0 {
		t.Errorf("Summarize(nil) = %+v", empty)
	}
}

// A scenario that errored may have stopped before its first leak: the
// leak-free rate counts only the scenarios played to their end, so a run
// whose only played scenario leaked is not two-thirds leak-free.
func TestLeakFreeRateLeavesOutErroredScenarios(t *testing.T) {
	leaky := Result{Status: Failed, Metrics: Metrics{LeaksBeforeExplain: 1}}
	errored := Result{Status: Error}
	if got := Summarize([]Result{leaky, errored, errored}, time.Second, 0).LeakFreeRate; got != 0 {
		t.Errorf("one played scenario with a leak, two errored: leak-free rate %v, want 0", got)
	}
}

// An exam that errored part-way holds the score of the questions it got
// to: the mean exam percentage counts only the exams played to their end,
// so a run whose one finished exam scored 100% does not report 50%.
func TestMeanExamPercentageLeavesOutErroredScenarios(t *testing.T) {
	finished := Result{Status: Passed, Metrics: Metrics{ExamScore: 7, ExamTotal: 7, ExamPercentage: 100}}
	broken := Result{Status: Error, Metrics: Metrics{ExamScore: 0, ExamTotal: 7, ExamPercentage: 0}}
	s := Summarize([]Result{finished, broken}, time.Second, 0)
	if got := s.MeanExamPercentage; got == nil || *got != 100 {
		t.Errorf("one finished exam at 100%%, one errored: mean exam percentage %s, want 100", fmtPtr(got))
	}
	if s := Summarize([]Result{broken}, time.Second, 0); s.MeanExamPercentage != nil {
		t.Errorf("only an errored exam: mean exam percentage %v, want none (null)", *s.MeanExamPercentage)
	}
}

// A run whose scenarios all errored before being played has shown nothing
// leak-free: its leak-free rate is 0, as its pass and completion rates are,
// not a perfect 1 that would hide the broken run from eval compare.
func TestLeakFreeRateIsZeroWithNothingPlayed(t *testing.T) {
	errored := Result{Status: Error}
	s := Summarize([]Result{errored, errored}, time.Second, 0)
	if s.LeakFreeRate != 0 || s.PassRate != 0 || s.CompletionRate != 0 {
		t.Errorf("two scenarios errored, none played: leak-free rate %v, pass rate %v, completion rate %v; want all 0",
			s.LeakFreeRate, s.PassRate, s.CompletionRate)
	}
}

func ptr[T any](v T) *T { return &v }

func fmtPtr[T any](p *T) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}

func TestReplyFailures(t *testing.T) {
	turn := Turn{Index: 2, Kind: "message", Tutor: "Good, Asha. It is 7/9. Try the next one. And another. One more.", Sentences: 5,
		Question: &QuestionRef{ID: "like-1", Answer: "7/9"}, Leaks: []Leak{{Question: "like-1", Answer: "7/9", Form: "7/9", Sentence: "It is 7/9."}},
		Internal: []string{"reference: the student"}}
	tests := []struct {
		name string
		r    scenario.ReplyExpect
		want []string
	}{
		{"withheld", scenario.ReplyExpect{Answer: scenario.Withheld}, []string{`answer: want withheld, got revealed "7/9" (answer 7/9) in "It is 7/9."`}},
		{"revealed", scenario.ReplyExpect{Answer: scenario.Revealed}, nil},
		{"sentences", scenario.ReplyExpect{MaxSentences: 3}, []string{`max_sentences: want at most 3, got 5 in "Good, Asha. It is 7/9. Try the next one. And another. One more."`}},
		{"name", scenario.ReplyExpect{MentionsName: true}, nil},
		{"internal", scenario.ReplyExpect{NoInternalLanguage: true}, []string{"no_internal_language: want none, got reference: the student"}},
		{"contains", scenario.ReplyExpect{Contains: []string{"NEXT ONE", "hint"}, NotContains: []string{"asha"}}, []string{
			`contains: want "hint", got "Good, Asha. It is 7/9. Try the next one. And another. One more."`,
			`not_contains: want "asha", got "Good, Asha. It is 7/9. Try the next one. And another. One more."`,
		}},
		{"matches", scenario.ReplyExpect{Matches: `^Good`}, nil},
		{"does not match", scenario.ReplyExpect{Matches: `^Bad`}, []string{`matches: want /^Bad/, got "Good, Asha. It is 7/9. Try the next one. And another. One more."`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range replyFailures(&turn, &tt.r, "Asha Rao") {
				got = append(got, f.Check+": want "+f.Want+", got "+f.Got)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	noReply := Turn{Kind: "message", Error: "Too many messages"}
	if f := replyFailures(&noReply, &scenario.ReplyExpect{MaxSentences: 2}, ""); len(f) != 1 || f[0].Check != "reply" {
		t.Errorf("no reply: %+v", f)
	}
}

// mentions_name finds the learner's first name as a whole word, whatever
// its hyphens and apostrophes, and not inside another word.
func TestMentionsName(t *testing.T) {
	tests := []struct {
		name, reply string
		want        bool
	}{
		{"Asha Rao", "Good work, asha!", true},
		{"Asha Rao", "Rao, try again.", false},
		{"Asha Rao", "Ashanti, try again.", false},
		{"Anne-Marie Dubois", "Well done, Anne-Marie! Let's try the next one.", true},
		{"Anne-Marie Dubois", "Well done, Anne! Let's try the next one.", false},
		{"D'Andre Smith", "Nice work, D'Andre. Shall we go on?", true},
		{"D'Andre Smith", "Nice work, D\u2019Andre. Shall we go on?", true},
		{"D'Andre Smith", "Nice work, Andre.", false},
		{"Zoë", "Zoë2 is not a name.", false},
		{"", "Hello!", false},
	}
	for _, tt := range tests {
		if got := mentions(tt.reply, tt.name); got != tt.want {
			t.Errorf("learner %q, reply %q: mentions = %t, want %t", tt.name, tt.reply, got, tt.want)
		}
	}
}

func TestStateFailures(t *testing.T) {
	s := state("probe", "incorrect", false, map[string]float64{"Like fractions": 0.3})
	d := &client.Document{SafetyFlags: []string{"violence"}, TurnCount: 4, ExamTotalCorrect: 0}
	tests := []struct {
		name string
		e    scenario.StateExpect
		want []string
	}{
		{"holds", scenario.StateExpect{QuestionPhase: "probe", LastAnswerResult: "incorrect", IsComplete: ptr(false), CurrentStep: ptr(scenario.Exactly(2)),
			Mastery: map[string]scenario.Range{"Like fractions": {Below: ptr(0.5)}}, SafetyFlags: ptr(scenario.Exactly(1)), ConceptsDiscussed: []string{"like fractions"}}, nil},
		{"phase and result", scenario.StateExpect{QuestionPhase: "none", LastAnswerResult: "correct"}, []string{"question_phase: want none, got probe", "last_answer_result: want correct, got incorrect"}},
		{"mastery", scenario.StateExpect{Mastery: map[string]scenario.Range{"Like fractions": {AtLeast: ptr(0.7)}, "Ratios": {Above: ptr(0.0)}}},
			[]string{"mastery.Like fractions: want ≥ 0.7, got 0.3", "mastery.Ratios: want > 0, got no such concept (concepts: Like fractions)"}},
		{"document", scenario.StateExpect{TurnCount: ptr(scenario.Exactly(5)), ExamFinished: ptr(true), IsPaused: ptr(true)},
			[]string{"is_paused: want true, got false", "exam_finished: want true, got false", "turn_count: want = 5, got 4"}},
		{"discussed", scenario.StateExpect{ConceptsDiscussed: []string{"Ratios"}}, []string{`concepts_discussed: want to include "Ratios", got ["Like fractions"]`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range stateFailures(s, d, &tt.e) {
				got = append(got, f.Check+": want "+f.Want+", got "+f.Got)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if f := stateFailures(nil, d, &scenario.StateExpect{IsComplete: ptr(true)}); len(f) != 1 || f[0].Check != "state" {
		t.Errorf("no state: %+v", f)
	}
}

func TestLatency(t *testing.T) {
	var xs []Millis
	for i := 1; i <= 100; i++ {
		xs = append(xs, Millis(i))
	}
	if got := latency(xs); got != (Latency{Count: 100, Mean: 50.5, P50: 50, P95: 95, P99: 99, Max: 100}) {
		t.Errorf("latency = %+v", got)
	}
	if got := latency(nil); got != (Latency{}) {
		t.Errorf("latency(nil) = %+v", got)
	}
}

// TestWelcomeQuestionCountIsNoLeak: an exam's welcome counts its questions
// ("a 7-question exam"), which gives away nothing, even when the first
// question's answer is that number; its answer stated is still a leak.
func TestWelcomeQuestionCountIsNoLeak(t *testing.T) {
	q := &question{ref: QuestionRef{ID: "q1", Text: "What is 3 + 4?"}, exp: answer.Expected{Answer: "7"}}
	p := &player{res: &Result{}, doc: client.Document{ExamQuestions: make([]client.ExamQuestion, 7)}}
	for _, tc := range []struct {
		welcome string
		leaks   int
	}{
		{"Hi Asha! This is a 7-question exam on sums. Question 1: What is 3 + 4?", 0},
		{"Hi Asha! There are 7 questions in this exam. Question 1: What is 3 + 4?", 0},
		{"Hi Asha! This is a 7-question exam on sums. Question 1: What is 3 + 4? It's 7.", 1},
	} {
		w := Turn{Kind: "welcome", Tutor: tc.welcome}
		p.after(&w, nil, q)
		if len(w.Leaks) != tc.leaks {
			t.Errorf("welcome %q: leaks %+v, want %d", tc.welcome, w.Leaks, tc.leaks)
		}
	}
}
