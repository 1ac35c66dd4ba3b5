package tutor

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tutord/tutord/internal/tutor/answer"
)

func TestIgnoredMessages(t *testing.T) {
	tp := planOf(2)
	s := newState(t, ModeTeachMe, tp)
	tests := []struct {
		name string
		o    Outcome
		want Precheck
	}{
		{"empty pre-check", Outcome{Now: t0, StudentMessage: "", Precheck: PrecheckEmpty}, PrecheckEmpty},
		{"blank message without pre-check", Outcome{Now: t0, StudentMessage: " \t\u200b\n", Output: tutorSays(correct)}, PrecheckEmpty},
		{"too long", Outcome{Now: t0, StudentMessage: "x", Precheck: PrecheckTooLong}, PrecheckTooLong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ev := ApplyTurn(s, tp, tt.o)
			if diff := cmp.Diff(s, got); diff != "" {
				t.Errorf("state changed (-before +after)\n%s", diff)
			}
			if diff := cmp.Diff([]Event{MessageIgnored{Reason: tt.want}}, ev); diff != "" {
				t.Errorf("events (-want +got)\n%s", diff)
			}
		})
	}
}

func TestTurnBookkeeping(t *testing.T) {
	tp := planOf(2)
	s := newState(t, ModeTeachMe, tp)
	s, _ = ApplyTurn(s, tp, turnAt(1, "hello", tutorSays(intent(IntentContinuation))))
	s, _ = ApplyTurn(s, tp, turnAt(3, "ok", tutorSays(intent(IntentContinuation))))
	if s.TurnCount != 2 {
		t.Errorf("turn_count = %d", s.TurnCount)
	}
	if !s.StartedAt.Equal(NewTime(t0.Add(time.Minute))) || !s.UpdatedAt.Equal(NewTime(t0.Add(3*time.Minute))) || !s.CreatedAt.Equal(NewTime(t0)) {
		t.Errorf("times: started %v updated %v created %v", s.StartedAt, s.UpdatedAt, s.CreatedAt)
	}
	var roles []string
	for _, m := range s.History {
		roles = append(roles, string(m.Role)+":"+m.Content)
	}
	if diff := cmp.Diff([]string{"student:hello", "teacher:reply", "student:ok", "teacher:reply"}, roles); diff != "" {
		t.Errorf("history (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Turn 1: worked on it", "Turn 2: worked on it"}, s.SessionSummary.TurnTimeline); diff != "" {
		t.Errorf("timeline (-want +got)\n%s", diff)
	}
}

func TestWindowsAreCapped(t *testing.T) {
	tp := planOf(2)
	s := newState(t, ModeTeachMe, tp)
	for i := 1; i <= 40; i++ {
		s, _ = ApplyTurn(s, tp, turnAt(i, fmt.Sprint("m", i), tutorSays(intent(IntentContinuation), func(o *TutorOutput) {
			o.TurnSummary = fmt.Sprint("summary ", i, " ", strings.Repeat("z", 100))
		})))
	}
	if len(s.History) != HistoryWindow || s.History[0].Content != "m36" || s.History[9].Content != "reply" {
		t.Errorf("history: %d messages, first %q", len(s.History), s.History[0].Content)
	}
	tl := s.SessionSummary.TurnTimeline
	if len(tl) != TimelineCap || !strings.HasPrefix(tl[0], "Turn 11: summary 11 ") || !strings.HasPrefix(tl[29], "Turn 40: ") {
		t.Errorf("timeline: %d entries, first %q", len(tl), tl[0])
	}
	if got := len([]rune(strings.TrimPrefix(tl[29], "Turn 40: "))); got != 80 {
		t.Errorf("summary has %d runes, want 80", got)
	}
}

func TestProgressTrend(t *testing.T) {
	tests := []struct {
		name    string
		mastery []float64
		out     *TutorOutput
		start   Trend
		want    Trend
	}{
		{"right and strong", []float64{0.9, 0.9}, tutorSays(correct), TrendSteady, TrendImproving},
		{"right at a middling level", []float64{0.3, 0.3}, tutorSays(correct), TrendImproving, TrendSteady},
		{"wrong and weak", []float64{0.3, 0.3}, tutorSays(wrong), TrendSteady, TrendStruggling},
		{"wrong but strong", []float64{0.8, 0.8}, tutorSays(wrong), TrendImproving, TrendSteady},
		{"no judgement keeps the trend", []float64{0.9, 0.9}, tutorSays(intent(IntentQuestion)), TrendStruggling, TrendStruggling},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tp := planOf(2)
			s := newState(t, ModeTeachMe, tp)
			for i, v := range tt.mastery {
				s.MasteryEstimates[i].Score = v
			}
			s.SessionSummary.ProgressTrend = tt.start
			got, _ := ApplyTurn(s, tp, turnAt(1, "x", tt.out))
			if got.SessionSummary.ProgressTrend != tt.want {
				t.Errorf("trend = %s, want %s (mastery %v)", got.SessionSummary.ProgressTrend, tt.want, got.MasteryEstimates)
			}
		})
	}
	t.Run("no mastery counts as 0.5", func(t *testing.T) {
		tp := lesson()
		s := newState(t, ModeTeachMe, tp)
		s.AllowExtension = true
		got, _ := ApplyTurn(s, tp, turnAt(1, "x", tutorSays(correct)))
		if got.SessionSummary.ProgressTrend != TrendSteady {
			t.Errorf("trend = %s", got.SessionSummary.ProgressTrend)
		}
	})
}

func TestStepAdvance(t *testing.T) {
	tests := []struct {
		name     string
		tp       *Topic
		step     int
		out      *TutorOutput
		wantStep int
		covered  []string
		events   []Event
	}{
		{"one step", planOf(4), 1, tutorSays(advance(2)), 2, []string{"c1"}, []Event{StepAdvanced{1, 2}}},
		{"intermediate concepts are covered", planOf(4), 1, tutorSays(advance(4)), 4, []string{"c1", "c2", "c3"}, []Event{StepAdvanced{1, 4}}},
		{"past the end is clamped and completes", planOf(3), 3, tutorSays(advance(99)), 4, []string{"c3"}, []Event{StepAdvanced{3, 4}, SessionCompleted{}}},
		{"past the end before the final step stops at the final step", planOf(3), 2, tutorSays(advance(99)), 3, []string{"c2"}, []Event{StepAdvanced{2, 3}}},
		{"backwards is ignored", planOf(4), 3, tutorSays(advance(1)), 3, nil, nil},
		{"completion on the final step covers its concept", planOf(3), 3, tutorSays(complete), 4, []string{"c3"}, []Event{StepAdvanced{3, 4}, SessionCompleted{}}},
		{"completion before the final step is ignored", planOf(3), 2, tutorSays(complete), 2, nil, nil},
		{"advance to the final step and complete", planOf(3), 1, tutorSays(advance(3), complete), 4, []string{"c1", "c2", "c3"},
			[]Event{StepAdvanced{1, 3}, StepAdvanced{3, 4}, SessionCompleted{}}},
		{"one-step plan completes on step 1", planOf(1), 1, tutorSays(complete), 2, []string{"c1"}, []Event{StepAdvanced{1, 2}, SessionCompleted{}}},
		{"repeated concept is covered once", lesson("x", "y", "x", "z"), 1, tutorSays(advance(4)), 4, []string{"x", "y"}, []Event{StepAdvanced{1, 4}}},
		{"empty plan stays put", lesson(), 1, tutorSays(advance(3), complete), 1, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newState(t, ModeTeachMe, tt.tp)
			s.CurrentStep = tt.step
			tt.out.Intent = IntentContinuation
			got, ev := ApplyTurn(s, tt.tp, turnAt(1, "go on", tt.out))
			if got.CurrentStep != tt.wantStep {
				t.Errorf("current_step = %d, want %d", got.CurrentStep, tt.wantStep)
			}
			if diff := cmp.Diff(tt.covered, got.ConceptsCovered, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("covered (-want +got)\n%s", diff)
			}
			var steps []Event
			for _, e := range ev {
				switch e.(type) {
				case StepAdvanced, SessionCompleted:
					steps = append(steps, e)
				}
			}
			if diff := cmp.Diff(tt.events, steps); diff != "" {
				t.Errorf("events (-want +got)\n%s", diff)
			}
		})
	}
}

func TestConceptsTaught(t *testing.T) {
	tp := planOf(3)
	s := newState(t, ModeTeachMe, tp)
	s, _ = run(s, tp,
		turnAt(1, "a", tutorSays(intent(IntentContinuation))),
		turnAt(2, "b", tutorSays(intent(IntentContinuation), advance(3))),
		turnAt(3, "c", tutorSays(intent(IntentContinuation), complete)),
	)
	if diff := cmp.Diff([]string{"c1", "c3"}, s.SessionSummary.ConceptsTaught); diff != "" {
		t.Errorf("concepts taught (-want +got)\n%s", diff)
	}
}

func TestExtensionAfterCompletion(t *testing.T) {
	tp := planOf(1) // 2 × total_steps = 2
	s := newState(t, ModeTeachMe, tp)
	s, _ = ApplyTurn(s, tp, turnAt(1, "done?", tutorSays(complete)))
	if !s.IsComplete(tp) {
		t.Fatal("not complete")
	}
	for i := 2; i <= 13; i++ { // turns 2..13 are extension turns: 13 − 2 = 11 only after turn 13
		var ev []Event
		s, ev = ApplyTurn(s, tp, turnAt(i, "more", tutorSays(intent(IntentContinuation))))
		if _, ok := hasEvent[PostCompletionReplied](ev); ok {
			t.Fatalf("turn %d short-circuited", i)
		}
	}
	if s.TurnCount != 13 {
		t.Fatalf("turn_count = %d", s.TurnCount)
	}
	got, ev := ApplyTurn(s, tp, Outcome{Now: t0.Add(time.Hour), StudentMessage: "thanks!", Reply: "Come back soon!", Output: tutorSays(correct)})
	if diff := cmp.Diff([]Event{PostCompletionReplied{}}, ev); diff != "" {
		t.Errorf("events (-want +got)\n%s", diff)
	}
	if got.TurnCount != 13 || got.History[len(got.History)-1].Content != "Come back soon!" || got.History[len(got.History)-2].Content != "thanks!" {
		t.Errorf("post-completion turn: count %d, history %v", got.TurnCount, got.History[len(got.History)-2:])
	}
	// An unsafe message after the end is flagged, still without a turn.
	got, ev = ApplyTurn(s, tp, Outcome{Now: t0.Add(time.Hour), StudentMessage: "...", Reply: "Please talk to an adult you trust.",
		Unsafe: &Unsafe{Flag: "self_harm"}})
	if diff := cmp.Diff([]Event{SafetyFlagged{Flag: "self_harm"}}, ev); diff != "" {
		t.Errorf("unsafe after the end: events (-want +got)\n%s", diff)
	}
	if got.TurnCount != 13 || !slices.Contains(got.SafetyFlags, "self_harm") {
		t.Errorf("unsafe after the end: count %d, flags %v", got.TurnCount, got.SafetyFlags)
	}
}

func TestOffTopicCount(t *testing.T) {
	tp := planOf(2)
	s := newState(t, ModeTeachMe, tp)
	o := turnAt(1, "tell me a joke", tutorSays(intent(IntentOffTopic)))
	o.Precheck = PrecheckOffTopic
	s, _ = ApplyTurn(s, tp, o)
	s, _ = ApplyTurn(s, tp, turnAt(2, "do you like cats", tutorSays(intent(IntentOffTopic))))
	s, _ = ApplyTurn(s, tp, turnAt(3, "ok", tutorSays(intent(IntentContinuation))))
	if s.OffTopicCount != 2 {
		t.Errorf("off_topic_count = %d, want 2 (once per turn)", s.OffTopicCount)
	}
}

func TestUnsafeMessage(t *testing.T) {
	tp := planOf(2)
	s := newState(t, ModeTeachMe, tp)
	o := Outcome{Now: t0, StudentMessage: "bad words", Reply: "Let's keep our conversation focused on learning.", Unsafe: &Unsafe{Warn: true}, Output: tutorSays(advance(2))}
	got, ev := ApplyTurn(s, tp, o)
	if diff := cmp.Diff([]Event{SafetyFlagged{Flag: "unknown", Warned: true}}, ev); diff != "" {
		t.Errorf("events (-want +got)\n%s", diff)
	}
	if got.WarningCount != 1 || got.TurnCount != 1 || got.CurrentStep != 1 || len(got.History) != 2 {
		t.Errorf("warning %d, turns %d, step %d, history %d", got.WarningCount, got.TurnCount, got.CurrentStep, len(got.History))
	}
	for i := range 30 {
		got, _ = ApplyTurn(got, tp, Outcome{Now: t0, StudentMessage: "x", Unsafe: &Unsafe{Flag: fmt.Sprint("f", i)}})
	}
	if len(got.SafetyFlags) != maxSafetyFlags || got.SafetyFlags[maxSafetyFlags-1] != "f29" || got.WarningCount != 1 {
		t.Errorf("safety flags %v, warnings %d", got.SafetyFlags, got.WarningCount)
	}
}

// TestFlaggedMessageIsWithheld: the learner's message the safety gate
// flagged is marked withheld, during and after the lesson, so that later
// prompts do not show it; clean messages and the replies are not.
func TestFlaggedMessageIsWithheld(t *testing.T) {
	tp := planOf(1)
	s := newState(t, ModeTeachMe, tp)
	s, _ = ApplyTurn(s, tp, turnAt(1, "hello", tutorSays(intent(IntentContinuation))))
	s, _ = ApplyTurn(s, tp, Outcome{Now: t0.Add(2 * time.Minute), StudentMessage: "my phone number is 9876543210",
		Reply: "Please keep personal details private.", Unsafe: &Unsafe{Flag: "personal_data"}})
	want := []bool{false, false, true, false}
	if got := withheldFlags(s.History); !slices.Equal(got, want) {
		t.Errorf("withheld during the lesson = %v, want %v", got, want)
	}

	s, _ = ApplyTurn(s, tp, turnAt(3, "done?", tutorSays(complete)))
	s.AllowExtension = false // every later message is past completion
	if !s.PostCompletion(tp) {
		t.Fatal("not past completion")
	}
	s, _ = ApplyTurn(s, tp, Outcome{Now: t0.Add(time.Hour), StudentMessage: "thanks", Reply: "Bye!"})
	s, _ = ApplyTurn(s, tp, Outcome{Now: t0.Add(time.Hour), StudentMessage: "call me on 9876543210",
		Reply: "Please keep personal details private.", Unsafe: &Unsafe{Flag: "personal_data"}})
	want = []bool{false, false, true, false, false, false, false, false, true, false}
	if got := withheldFlags(s.History); !slices.Equal(got, want) {
		t.Errorf("withheld after the lesson = %v, want %v", got, want)
	}
}

func withheldFlags(h []Message) []bool {
	out := make([]bool, len(h))
	for i, m := range h {
		out[i] = m.Withheld
	}
	return out
}

func TestStopByMode(t *testing.T) {
	tp := planOf(3)
	tests := []struct {
		mode  Mode
		check func(t *testing.T, s State)
		reply string
		event Event
	}{
		{ModeTeachMe, func(t *testing.T, s State) {
			if !s.IsPaused || s.IsComplete(tp) {
				t.Errorf("paused %v, complete %v", s.IsPaused, s.IsComplete(tp))
			}
		}, "Thanks for learning with me today! You've covered 0% so far. You can pick up where you left off anytime.", Paused{Reason: EndStudentRequested}},
		{ModeClarify, func(t *testing.T, s State) {
			if !s.ClarifyComplete {
				t.Error("not complete")
			}
		}, ClarifyEndedReply, ClarifyCompleted{}},
		{ModeExam, func(t *testing.T, s State) {
			if !s.ExamFinished || s.ExamFeedback == nil || s.ExamFeedback.Total != 3 || s.ExamCurrentIdx != 0 {
				t.Errorf("finished %v, feedback %+v", s.ExamFinished, s.ExamFeedback)
			}
		}, "✅ Exam complete!\nFinal Score: **0/3** (0.0%)\n\nQuestion Review:\nQ1: ❌ Incorrect (not answered)\nQ2: ❌ Incorrect (not answered)\nQ3: ❌ Incorrect (not answered)",
			ExamFinished{Score: 0, Total: 3, Early: true}},
	}
	for _, tt := range tests {
		t.Run(string(tt.mode), func(t *testing.T) {
			s := newState(t, tt.mode, tp, examQuestions(3)...)
			got, ev := ApplyTurn(s, tp, Outcome{Now: t0, StudentMessage: "bye", Precheck: PrecheckStop})
			tt.check(t, got)
			if r, _ := got.LastReply(); r != tt.reply {
				t.Errorf("reply %q, want %q", r, tt.reply)
			}
			if diff := cmp.Diff([]Event{tt.event}, ev); diff != "" {
				t.Errorf("events (-want +got)\n%s", diff)
			}
			if got.TurnCount != 1 {
				t.Errorf("turn_count %d", got.TurnCount)
			}
		})
	}
}

// TestStopWordThatAnswersTheQuestion: a question whose answer is itself a
// word of stopping ("What must a driver do at a red light?" — "stop")
// gets that word as its answer. The pre-check reads the bare word as a
// stop request; the evaluator's verdict that it is the right answer wins:
// the exam records it and goes on, the lesson closes the question and
// goes on. Any other verdict leaves the stop request standing: "Stop." to
// a question whose answer is "go" ends the exam and pauses the lesson.
func TestStopWordThatAnswersTheQuestion(t *testing.T) {
	pre := NewPrechecker(DefaultPrecheckConfig())
	tests := []struct {
		question, expected, reply string
		stops                     bool
	}{
		{"What must a driver do at a red light?", "stop", "Stop.", false},
		{"What do we say when we leave a friend's house?", "goodbye", "Goodbye", false},
		{"What is the opposite of start?", "finish", "finish", false},
		{"What do we call the last part of a story?", "the end", "The end", false},
		{"What may a driver do at a green light?", "go", "Stop.", true},
	}
	for _, tt := range tests {
		t.Run(tt.expected, func(t *testing.T) {
			tp := planOf(2)
			tp.Questions = append(tp.Questions, BankQuestion{ID: "w", Text: tt.question, Answer: tt.expected,
				Kind: answer.KindText, Concept: "c1", Difficulty: Easy, Type: QuestionConceptual})
			bq, _ := tp.Question("w")
			verdict := answer.Evaluate(bq.Expected(), tt.reply).Verdict
			if want := answer.Correct; tt.stops {
				if verdict == want {
					t.Fatalf("setup: the evaluator judges %q for %q correct", tt.reply, tt.expected)
				}
			} else if verdict != want {
				t.Fatalf("setup: the evaluator judges %q for %q as %s", tt.reply, tt.expected, verdict)
			}
			for _, m := range []Mode{ModeExam, ModeTeachMe} {
				if got := pre.CheckIn(m, tt.reply); got != PrecheckStop {
					t.Fatalf("setup: the pre-check reads %q in %s as %q, not a stop request", tt.reply, m, got)
				}
			}

			exam := newState(t, ModeExam, tp,
				ExamQuestion{QuestionText: tt.question, ExpectedAnswer: tt.expected, Concept: "c1", QuestionID: "w"},
				ExamQuestion{QuestionText: "What is 2 + 2?", ExpectedAnswer: "4", Concept: "c2"})
			got, _ := ApplyTurn(exam, tp, Outcome{Now: t0, StudentMessage: tt.reply,
				Precheck: pre.CheckIn(ModeExam, tt.reply), Verdict: verdict})
			reply, _ := got.LastReply()
			switch {
			case tt.stops && (!got.ExamFinished || got.ExamCurrentIdx != 0):
				t.Errorf("exam: %q to a question whose answer is %q did not end the exam: finished=%v, index %d; reply:\n%s",
					tt.reply, tt.expected, got.ExamFinished, got.ExamCurrentIdx, reply)
			case !tt.stops && (got.ExamFinished || got.ExamCurrentIdx != 1 || got.ExamTotalCorrect != 1):
				t.Errorf("exam: the right answer %q ended the exam: finished=%v, index %d, correct %d; reply:\n%s",
					tt.reply, got.ExamFinished, got.ExamCurrentIdx, got.ExamTotalCorrect, reply)
			}

			lesson := newState(t, ModeTeachMe, tp)
			lesson, _ = ApplyTurn(lesson, tp, Outcome{Now: t0, StudentMessage: "ok", Reply: "Here is one.",
				Output: tutorSays(), NextQuestion: &bq})
			if lesson.LastQuestion == nil || lesson.LastQuestion.QuestionID != "w" {
				t.Fatalf("setup: pending question %+v", lesson.LastQuestion)
			}
			o := Outcome{Now: t0.Add(time.Minute), StudentMessage: tt.reply, Precheck: pre.CheckIn(ModeTeachMe, tt.reply), Verdict: verdict}
			if !tt.stops {
				o.Reply, o.Output = "Yes, well done!", tutorSays(correct)
			}
			got, _ = ApplyTurn(lesson, tp, o)
			reply, _ = got.LastReply()
			switch {
			case tt.stops && (!got.IsPaused || got.LastQuestion == nil):
				t.Errorf("lesson: %q to a question whose answer is %q did not pause: paused=%v, question still pending=%v; reply %q",
					tt.reply, tt.expected, got.IsPaused, got.LastQuestion != nil, reply)
			case !tt.stops && (got.IsPaused || got.LastQuestion != nil || got.LastAnswerResult == nil || *got.LastAnswerResult != ResultCorrect):
				t.Errorf("lesson: the right answer %q paused the lesson: paused=%v, question still pending=%v, result %v; reply %q",
					tt.reply, got.IsPaused, got.LastQuestion != nil, got.LastAnswerResult, reply)
			}
		})
	}
}

// TestPrecheckJudged: only a stop request that is the right answer to a
// pending question becomes an answer; every other pre-check, verdict or
// session keeps its pre-check.
func TestPrecheckJudged(t *testing.T) {
	tp := planOf(2)
	bq, _ := tp.Question("q-c1")
	lesson := newState(t, ModeTeachMe, tp)
	asked, _ := ApplyTurn(lesson, tp, Outcome{Now: t0, StudentMessage: "ok", Reply: "Here is one.", Output: tutorSays(), NextQuestion: &bq})
	exam := newState(t, ModeExam, tp, examQuestions(1)...)
	finished, _, err := EndExam(exam, t0)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		s       State
		pre     Precheck
		verdict answer.Verdict
		want    Precheck
	}{
		{"lesson question answered", asked, PrecheckStop, answer.Correct, PrecheckNone},
		{"exam question answered", exam, PrecheckStop, answer.Correct, PrecheckNone},
		{"wrong answer", asked, PrecheckStop, answer.Incorrect, PrecheckStop},
		{"partly right", exam, PrecheckStop, answer.Partial, PrecheckStop},
		{"no verdict", asked, PrecheckStop, "", PrecheckStop},
		{"lesson without a question", lesson, PrecheckStop, answer.Correct, PrecheckStop},
		{"finished exam", finished, PrecheckStop, answer.Correct, PrecheckStop},
		{"doubts session", newState(t, ModeClarify, tp), PrecheckStop, answer.Correct, PrecheckStop},
		{"empty", asked, PrecheckEmpty, answer.Correct, PrecheckEmpty},
		{"too long", asked, PrecheckTooLong, answer.Correct, PrecheckTooLong},
		{"off topic", exam, PrecheckOffTopic, answer.Correct, PrecheckOffTopic},
		{"I don't know", asked, PrecheckIDK, answer.Correct, PrecheckIDK},
	}
	for _, tt := range tests {
		if got := tt.pre.Judged(tt.s, tt.verdict); got != tt.want {
			t.Errorf("%s: %q judged %q is %q; want %q", tt.name, tt.pre, tt.verdict, got, tt.want)
		}
	}
}

func TestTimeLimitEndsTheSitting(t *testing.T) {
	tp := planOf(3)
	s, err := NewState(NewSession{ID: "s", Topic: tp, Student: StudentContext{Grade: 4}, Now: t0, Config: Config{TimeLimitSeconds: 25 * 60}})
	if err != nil {
		t.Fatal(err)
	}
	s, _ = ApplyTurn(s, tp, turnAt(0, "hi", tutorSays(intent(IntentContinuation))))
	s, ev := ApplyTurn(s, tp, turnAt(24, "ok", tutorSays(intent(IntentContinuation))))
	if s.IsPaused {
		t.Fatalf("paused before the limit: %v", eventNames(ev))
	}
	s, ev = ApplyTurn(s, tp, Outcome{Now: t0.Add(25 * time.Minute), StudentMessage: "and?", Output: tutorSays(intent(IntentContinuation))})
	if !s.IsPaused {
		t.Fatal("not paused at the limit")
	}
	if diff := cmp.Diff([]string{"time_limit_reached", "paused"}, eventNames(ev)); diff != "" {
		t.Errorf("events (-want +got)\n%s", diff)
	}
	if r, _ := s.LastReply(); !strings.HasPrefix(r, StopReplyLead+"You've covered") {
		t.Errorf("reply %q", r)
	}
	s, err = Resume(s, t0.Add(2*time.Hour))
	if err != nil || s.StartedAt != nil {
		t.Fatalf("resume: %v, started %v", err, s.StartedAt)
	}
	s, _ = ApplyTurn(s, tp, turnAt(121, "back", tutorSays(intent(IntentContinuation))))
	if s.IsPaused {
		t.Error("a resumed sitting ended at once")
	}
}

// The time limit ends a doubts session with the turn: when the tutor's
// answer did not end it itself (it invites another doubt), the reply says
// that the session ends, so that the learner does not ask into a session
// already over. A tutor that said goodbye (session_complete) is left as
// it wrote.
func TestTimeLimitEndsADoubtsSession(t *testing.T) {
	tp := lesson("Fractions")
	start := func(t *testing.T) State {
		s, err := NewState(NewSession{ID: "s", Mode: ModeClarify, Topic: tp, Student: StudentContext{Grade: 6}, Now: t0, Config: Config{TimeLimitSeconds: 10 * 60}})
		if err != nil {
			t.Fatal(err)
		}
		s, _ = ApplyTurn(s, tp, turnAt(0, "what is a fraction", tutorSays(intent(IntentQuestion))))
		return s
	}
	const answer = "A fraction is a part of a whole. Anything else you'd like to ask?"
	s, ev := ApplyTurn(start(t), tp, Outcome{Now: t0.Add(11 * time.Minute), StudentMessage: "and a decimal?", Reply: answer, Output: tutorSays(intent(IntentQuestion))})
	if !s.ClarifyComplete {
		t.Fatal("not complete at the limit")
	}
	if diff := cmp.Diff([]string{"time_limit_reached", "clarify_completed"}, eventNames(ev)); diff != "" {
		t.Errorf("events (-want +got)\n%s", diff)
	}
	if r, _ := s.LastReply(); r != answer+"\n\n"+ClarifyTimeUpReply {
		t.Errorf("reply %q", r)
	}

	const goodbye = "A decimal is another way to write a fraction. That's our time: bye for now!"
	s, _ = ApplyTurn(start(t), tp, Outcome{Now: t0.Add(11 * time.Minute), StudentMessage: "and a decimal?", Reply: goodbye, Output: tutorSays(intent(IntentDone), complete)})
	if r, _ := s.LastReply(); !s.ClarifyComplete || r != goodbye {
		t.Errorf("complete %v, reply %q; want the tutor's goodbye", s.ClarifyComplete, r)
	}
}

// A learner who left a sitting without ending it (a closed tab) and comes
// back a day later starts a new sitting: the first message back is not
// ended for the time they were away.
func TestSittingAfterABreak(t *testing.T) {
	tp := planOf(3)
	s, err := NewState(NewSession{ID: "s", Topic: tp, Student: StudentContext{Grade: 4}, Now: t0, Config: Config{TimeLimitSeconds: 25 * 60}})
	if err != nil {
		t.Fatal(err)
	}
	s, _ = ApplyTurn(s, tp, turnAt(0, "hi", tutorSays(intent(IntentContinuation))))
	s, _ = ApplyTurn(s, tp, turnAt(10, "ok", tutorSays(intent(IntentContinuation))))
	s, ev := ApplyTurn(s, tp, turnAt(24*60, "back again", tutorSays(intent(IntentContinuation))))
	if s.IsPaused {
		t.Fatalf("the first message after a day away ended the sitting: %v", eventNames(ev))
	}
	if got := s.StartedAt.Time(); !got.Equal(t0.Add(24 * time.Hour)) {
		t.Errorf("the new sitting started at %v, want the message's time", got)
	}
	// The new sitting has its own limit.
	s, _ = ApplyTurn(s, tp, turnAt(24*60+20, "more", tutorSays(intent(IntentContinuation))))
	s, _ = ApplyTurn(s, tp, turnAt(24*60+25, "and more", tutorSays(intent(IntentContinuation))))
	if !s.IsPaused {
		t.Error("the new sitting did not end at its limit")
	}
}

func TestMisconceptions(t *testing.T) {
	tp := planOf(3)
	s := newState(t, ModeTeachMe, tp)
	says := func(d ...string) *TutorOutput {
		return tutorSays(intent(IntentQuestion), func(o *TutorOutput) { o.MisconceptionsDetected = d })
	}
	s, ev := run(s, tp,
		turnAt(1, "x", says("Bigger denominator means bigger fraction", "", "  ")),
		turnAt(2, "x", says("bigger   denominator means BIGGER fraction", "Bigger denominator means bigger fraction")),
		turnAt(3, "x", says("adds numerators")),
	)
	if len(s.Misconceptions) != 2 {
		t.Fatalf("misconceptions %+v", s.Misconceptions)
	}
	m := s.Misconceptions[0]
	if m.Count != 2 || !m.Recurring() || m.Concept != "c1" || !m.DetectedAt.Equal(NewTime(t0.Add(time.Minute))) || !m.LastDetectedAt.Equal(NewTime(t0.Add(2*time.Minute))) {
		t.Errorf("first misconception %+v", m)
	}
	if s.Misconceptions[1].Recurring() {
		t.Error("seen once but recurring")
	}
	if diff := cmp.Diff([]string{"c1"}, s.WeakAreas); diff != "" {
		t.Errorf("weak areas (-want +got)\n%s", diff)
	}
	var counts []int
	for _, e := range ev {
		if r, ok := e.(MisconceptionRecorded); ok {
			counts = append(counts, r.Count)
		}
	}
	if diff := cmp.Diff([]int{1, 2, 1}, counts); diff != "" {
		t.Errorf("recorded counts (-want +got)\n%s", diff)
	}

	// A full list makes room by dropping the misconception seen least recently.
	for i := range 12 {
		s, _ = ApplyTurn(s, tp, turnAt(10+i, "x", says(fmt.Sprint("m", i))))
	}
	if len(s.Misconceptions) != maxMisconceptions || s.Misconceptions[0].Description != "m2" {
		t.Errorf("kept %d, first %q", len(s.Misconceptions), s.Misconceptions[0].Description)
	}
}

// A model names the same misconception with and without a full stop, or
// with other punctuation at a word's end: one misconception, which recurs.
func TestSameDescription(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		same bool
	}{
		{"Adds 2 instead of doubling.", "adds 2 instead of doubling", true},
		{"Adds 2 instead of doubling", "  adds 2   instead of doubling!", true},
		{"Thinks 1/2 > 2/3", "thinks 1/2 > 2/3.", true},
		{"Adds \"2\" - not doubling", "adds 2 not doubling", true},
		{"Adds 2 instead of doubling", "Adds 2 instead of halving", false},
		{"Adds 2", "Adds 2 instead", false},
		{"Adds -2", "adds 2", false}, // a minus sign is no punctuation
		{"", "", true},
	} {
		if got := sameDescription(tt.a, tt.b); got != tt.same {
			t.Errorf("sameDescription(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.same)
		}
	}
}

func TestMisconceptionConceptPastThePlan(t *testing.T) {
	tp := planOf(1)
	s := newState(t, ModeTeachMe, tp)
	s.CurrentStep = 2
	s, _ = ApplyTurn(s, tp, turnAt(1, "x", tutorSays(func(o *TutorOutput) { o.MisconceptionsDetected = []string{"m"} })))
	if s.Misconceptions[0].Concept != "unknown" || s.WeakAreas[0] != "unknown" {
		t.Errorf("concept %q, weak areas %v", s.Misconceptions[0].Concept, s.WeakAreas)
	}
}

func TestBankMisconceptionOnWrongVerdict(t *testing.T) {
	s, tp := askedState(t)
	o := turnAt(2, "13", tutorSays())
	o.Verdict = answer.Incorrect
	got, _ := ApplyTurn(s, tp, o)
	if len(got.Misconceptions) != 1 || got.Misconceptions[0].Description != "adds instead of multiplying" || got.Misconceptions[0].Concept != "a" {
		t.Errorf("misconceptions %+v", got.Misconceptions)
	}
	o.Output = tutorSays(func(o *TutorOutput) { o.MisconceptionsDetected = []string{"counted wrong"} })
	got, _ = ApplyTurn(s, tp, o)
	if len(got.Misconceptions) != 1 || got.Misconceptions[0].Description != "counted wrong" {
		t.Errorf("the tutor's diagnosis should replace the usual one: %+v", got.Misconceptions)
	}
	// A right step on the way whose value is the mistake's ("… is 13, so
	// now I multiply") is no wrong answer.
	o.Output = tutorSays(func(o *TutorOutput) { o.RightStep = "6 + 7 = 13" })
	got, _ = ApplyTurn(s, tp, o)
	if len(got.Misconceptions) != 0 {
		t.Errorf("a right step recorded a misconception: %+v", got.Misconceptions)
	}
}

// TestBankMisconceptionOnlyForItsAnswer checks that a wrong answer records
// the bank's misconception only when it is the answer that misconception
// leads to, once per question however often it is repeated.
func TestBankMisconceptionOnlyForItsAnswer(t *testing.T) {
	wrongTurn := func(k int, msg string) Outcome {
		o := turnAt(k, msg, tutorSays())
		o.Verdict = answer.Incorrect
		return o
	}
	t.Run("another wrong answer", func(t *testing.T) {
		s, tp := askedState(t)
		got, ev := run(s, tp, wrongTurn(2, "99"), wrongTurn(3, "99"), wrongTurn(4, "41"))
		if len(got.Misconceptions) != 0 || len(got.WeakAreas) != 0 {
			t.Errorf("misconceptions %+v, weak areas %v", got.Misconceptions, got.WeakAreas)
		}
		if _, ok := hasEvent[MisconceptionRecorded](ev); ok {
			t.Error("a MisconceptionRecorded event for answers that show no misconception")
		}
	})
	t.Run("its answer, repeated", func(t *testing.T) {
		s, tp := askedState(t)
		got, _ := run(s, tp, wrongTurn(2, "I think it's 13"), wrongTurn(3, "13"), wrongTurn(4, "13!"))
		if len(got.Misconceptions) != 1 || got.Misconceptions[0].Count != 1 || got.Misconceptions[0].Recurring() {
			t.Errorf("misconceptions %+v, want one seen once", got.Misconceptions)
		}
	})
	// A learner who shows one mistake, makes five other guesses, then the
	// mistake again ("13" to "What is 6 × 7?") relies on it counting once
	// for the question, not as recurring (in the model's prompt and the
	// wrap-up), although previous_student_answers keeps only the last
	// maxPreviousAnswers; the question records that it counted it, and a
	// saved state keeps that.
	t.Run("its answer, after more than the kept answers", func(t *testing.T) {
		s, tp := askedState(t)
		msgs := []string{"13", "1", "2", "3", "4", "5", "13"}
		for i, m := range msgs {
			s, _ = ApplyTurn(s, tp, wrongTurn(2+i, m))
			if s.LastQuestion == nil || s.LastQuestion.QuestionID != "q-a" {
				t.Fatalf("after %q the question is no longer pending: %+v", m, s.LastQuestion)
			}
			data, err := s.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if s, err = DecodeState(data); err != nil {
				t.Fatal(err)
			}
		}
		if len(s.Misconceptions) != 1 || s.Misconceptions[0].Count != 1 || s.Misconceptions[0].Recurring() {
			t.Errorf("one mistake on one question after %q: misconceptions %+v, want one seen once", msgs, s.Misconceptions)
		}
	})
	t.Run("no answers listed", func(t *testing.T) {
		s, tp := askedState(t)
		tp.Questions[0].MisconceptionAnswers = nil
		got, _ := run(s, tp, wrongTurn(2, "13"))
		if len(got.Misconceptions) != 0 {
			t.Errorf("misconceptions %+v: a wrong answer alone does not say which mistake was made", got.Misconceptions)
		}
	})
}

func TestShowsMisconception(t *testing.T) {
	q := BankQuestion{
		Answer: "2/5", Kind: answer.KindFraction, Misconception: "Subtracts the denominators as well and gets 4/0.",
		MisconceptionAnswers: []string{"4/0", " "},
	}
	for reply, want := range map[string]bool{
		"4/0": true, "is it 4/0?": true, "99": false, "2/5": false, "4/10": false, "": false, "I don't know": false,
	} {
		if got := q.ShowsMisconception(reply); got != want {
			t.Errorf("ShowsMisconception(%q) = %t, want %t", reply, got, want)
		}
	}
	choice := BankQuestion{Answer: "B", Options: []string{"protein", "glucose"}, Misconception: "Thinks plants make protein.", MisconceptionAnswers: []string{"A"}}
	if !choice.ShowsMisconception("protein") || !choice.ShowsMisconception("a") || choice.ShowsMisconception("glucose") {
		t.Error("a choice question's misconception answer is not matched by letter and text")
	}
	if (BankQuestion{Answer: "7", MisconceptionAnswers: []string{"8"}}).ShowsMisconception("8") {
		t.Error("answers without a misconception to record showed one")
	}
}

func TestLastAnswerResult(t *testing.T) {
	s, tp := askedState(t)
	steps := []struct {
		verdict answer.Verdict
		out     *TutorOutput
		want    *Result
	}{
		{answer.Partial, tutorSays(), ptr(ResultPartial)},
		{"", tutorSays(intent(IntentQuestion)), nil},
		{answer.Correct, tutorSays(), ptr(ResultCorrect)},
	}
	for i, st := range steps {
		o := turnAt(i+2, "x", st.out)
		o.Verdict = st.verdict
		s, _ = ApplyTurn(s, tp, o)
		if diff := cmp.Diff(st.want, s.LastAnswerResult); diff != "" {
			t.Errorf("turn %d (-want +got)\n%s", i+2, diff)
		}
	}
}

func TestFailedTutorCallOnlyRecordsTheTurn(t *testing.T) {
	s, tp := askedState(t)
	o := Outcome{Now: t0.Add(time.Hour), StudentMessage: "41", Reply: "I apologize, but I had a moment of confusion. Could you please repeat that?", Verdict: answer.Incorrect}
	got, ev := ApplyTurn(s, tp, o)
	if len(ev) != 0 || got.TurnCount != s.TurnCount+1 || len(got.History) != len(s.History)+2 {
		t.Errorf("events %v, turns %d, history %d", eventNames(ev), got.TurnCount, len(got.History))
	}
	if diff := cmp.Diff(s.LastQuestion, got.LastQuestion); diff != "" {
		t.Errorf("question changed (-before +after)\n%s", diff)
	}
	if diff := cmp.Diff(s.MasteryEstimates, got.MasteryEstimates); diff != "" {
		t.Errorf("mastery changed (-before +after)\n%s", diff)
	}
}

func TestClarifyTurns(t *testing.T) {
	tp := lesson("Fractions", "Decimals")
	s := newState(t, ModeClarify, tp)
	s, ev := run(s, tp,
		turnAt(1, "what is a fraction", tutorSays(intent(IntentQuestion), updates(MasteryUpdate{"fractions", 0.5}, MasteryUpdate{"Dragons", 0.5}, MasteryUpdate{" ", 1}))),
		turnAt(2, "and decimals", tutorSays(intent(IntentFollowup), updates(MasteryUpdate{"Decimals", 0.5}, MasteryUpdate{"Fractions", 0.9}))),
	)
	if diff := cmp.Diff([]string{"Fractions", "Dragons", "Decimals"}, s.ConceptsDiscussed); diff != "" {
		t.Errorf("discussed (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Fractions", "Decimals"}, s.ConceptsCovered); diff != "" {
		t.Errorf("covered (-want +got)\n%s", diff)
	}
	if s.ClarifyComplete || len(ev) != 0 {
		t.Fatalf("complete %v, events %v", s.ClarifyComplete, eventNames(ev))
	}
	s, ev = ApplyTurn(s, tp, turnAt(3, "thanks, that's all", tutorSays(intent(IntentDone))))
	if !s.ClarifyComplete || !s.IsComplete(tp) {
		t.Error("intent done did not complete")
	}
	if diff := cmp.Diff([]string{"clarify_completed"}, eventNames(ev)); diff != "" {
		t.Errorf("events (-want +got)\n%s", diff)
	}
	_, ev = ApplyTurn(s, tp, turnAt(4, "one more thing", tutorSays(intent(IntentQuestion))))
	if diff := cmp.Diff([]string{"post_completion_replied"}, eventNames(ev)); diff != "" {
		t.Errorf("after completion (-want +got)\n%s", diff)
	}
	s2 := newState(t, ModeClarify, tp)
	s2, _ = ApplyTurn(s2, tp, turnAt(1, "bye", tutorSays(complete, intent(IntentQuestion))))
	if !s2.ClarifyComplete {
		t.Error("session_complete did not complete")
	}
}

func TestConceptsDiscussedAreCapped(t *testing.T) {
	tp := lesson("a")
	s := newState(t, ModeClarify, tp)
	for i := range 60 {
		s, _ = ApplyTurn(s, tp, turnAt(i, "q", tutorSays(intent(IntentQuestion), updates(MasteryUpdate{fmt.Sprint("topic ", i), 0.5}))))
	}
	if len(s.ConceptsDiscussed) != maxConceptsDiscussed {
		t.Errorf("%d concepts discussed", len(s.ConceptsDiscussed))
	}
}

// A break request pauses a lesson with a break's words: the coverage when
// some is covered, no "0%" when none is.
func TestBreakReply(t *testing.T) {
	tp := planOf(3)
	s, err := NewState(NewSession{ID: "s", Topic: tp, Student: StudentContext{Grade: 6}, Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	s, _ = ApplyTurn(s, tp, turnAt(0, "hi", tutorSays(intent(IntentContinuation))))
	brk := Outcome{Now: t0.Add(time.Minute), StudentMessage: "can we take a break im tired", Precheck: PrecheckStop, Output: tutorSays()}
	p, _ := ApplyTurn(s, tp, brk)
	if r, _ := p.LastReply(); !p.IsPaused || r != BreakReplyLead+BreakReplyResume {
		t.Errorf("a break at 0%%: paused %v, reply %q", p.IsPaused, r)
	}
	s.ConceptsCovered = []string{"c1"}
	p, _ = ApplyTurn(s, tp, brk)
	if r, _ := p.LastReply(); !strings.HasPrefix(r, BreakReplyLead+"You've covered 33%") {
		t.Errorf("a break at 33%%: reply %q", r)
	}
	brk.StudentMessage = "bye"
	p, _ = ApplyTurn(s, tp, brk)
	if r, _ := p.LastReply(); !strings.HasPrefix(r, StopReplyLead) {
		t.Errorf("a goodbye: reply %q", r)
	}
}

// CONTRACT §9.1: each misconception adds the current step's concept to
// weak_areas (once); one that comes back on a later step adds that step's.
func TestRecurringMisconceptionAddsItsStepsConcept(t *testing.T) {
	tp := planOf(3)
	s := newState(t, ModeTeachMe, tp)
	mis := func(o *TutorOutput) { o.MisconceptionsDetected = []string{"adds the denominators"} }
	s, _ = run(s, tp,
		turnAt(1, "2/5", tutorSays(mis)),       // on step 1 (c1)
		turnAt(2, "ok", tutorSays(advance(2))), // now on step 2 (c2)
		turnAt(3, "3/7", tutorSays(mis)),       // same mistake, on c2
	)
	if s.CurrentStep != 2 {
		t.Fatalf("current_step = %d, want 2", s.CurrentStep)
	}
	if !slices.Equal(s.WeakAreas, []string{"c1", "c2"}) {
		t.Errorf("weak_areas = %v, want [c1 c2]: the misconception detected on step 2 must add c2", s.WeakAreas)
	}
}

// CONTRACT §9.1, §9.8: the off-topic count is a lesson's; a doubts session
// does not count.
func TestClarifyDoesNotCountOffTopic(t *testing.T) {
	tp := planOf(2)
	s := newState(t, ModeClarify, tp)
	s, _ = run(s, tp,
		turnAt(1, "do you like football", tutorSays(intent(IntentOffTopic))),
		turnAt(2, "and cricket", tutorSays(intent(IntentOffTopic))),
	)
	if s.OffTopicCount != 0 {
		t.Errorf("clarify_doubts off_topic_count = %d, want 0 (§9.8 has no off-topic counting)", s.OffTopicCount)
	}
}

// Two descriptions of one turn that differ only past the stored length are
// one misconception, counted once: not "recurring" after one turn.
func TestLongMisconceptionsCountedOncePerTurn(t *testing.T) {
	tp := planOf(2)
	s := newState(t, ModeTeachMe, tp)
	long := strings.Repeat("confuses numerator and denominator ", 8) // > 200 runes
	out := tutorSays(func(o *TutorOutput) {
		o.MisconceptionsDetected = []string{long + "when adding", long + "when comparing"}
	})
	s, _ = ApplyTurn(s, tp, turnAt(1, "3/5", out))
	if len(s.Misconceptions) != 1 {
		t.Fatalf("misconceptions: %d, want 1 (stored descriptions are the same)", len(s.Misconceptions))
	}
	if m := s.Misconceptions[0]; m.Count != 1 || m.Recurring() {
		t.Errorf("after one turn the misconception has count %d (recurring=%v), want 1", m.Count, m.Recurring())
	}
}

// A lesson completed by session_complete drops its pending question, as
// one completed by advance_to_step does: the next message (an extension
// turn) is not graded against it (§9.6).
func TestSessionCompleteDropsThePendingQuestion(t *testing.T) {
	tp := planOf(2)
	s := newState(t, ModeTeachMe, tp)
	s, _ = ApplyTurn(s, tp, turnAt(1, "ok", tutorSays(advance(2), asks("What is 6 x 7?", "42", "c2"))))
	if s.LastQuestion == nil || s.CurrentStep != 2 {
		t.Fatalf("setup: step %d, question %v", s.CurrentStep, s.LastQuestion)
	}

	viaAdvance, _ := ApplyTurn(s, tp, turnAt(2, "41", tutorSays(wrong, advance(3))))
	viaComplete, _ := ApplyTurn(s, tp, turnAt(2, "41", tutorSays(wrong, complete)))
	if !viaAdvance.IsComplete(tp) || !viaComplete.IsComplete(tp) {
		t.Fatalf("setup: complete via advance %v, via session_complete %v", viaAdvance.IsComplete(tp), viaComplete.IsComplete(tp))
	}
	if viaAdvance.LastQuestion != nil {
		t.Fatalf("setup: advance kept the question")
	}
	if viaComplete.LastQuestion != nil || viaComplete.AwaitingResponse {
		t.Errorf("lesson completed by session_complete still awaits an answer to %q (wrong_attempts %d); "+
			"completing by advance_to_step drops it", viaComplete.LastQuestion.QuestionText, viaComplete.LastQuestion.WrongAttempts)
	}
}

// A lesson without its plan (nil topic) does not report a completion that
// does not happen.
func TestNoLessonNoCompletion(t *testing.T) {
	s := newState(t, ModeTeachMe, nil)
	next, ev := ApplyTurn(s, nil, turnAt(1, "I get it", tutorSays(correct, complete)))
	if _, ok := hasEvent[SessionCompleted](ev); ok && !next.IsComplete(nil) {
		t.Errorf("SessionCompleted reported but the session is not complete; events %v", eventNames(ev))
	}
	if a, ok := hasEvent[StepAdvanced](ev); ok && a.From == a.To {
		t.Errorf("StepAdvanced from %d to %d", a.From, a.To)
	}
}
