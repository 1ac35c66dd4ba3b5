package tutor

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tutord/tutord/internal/tutor/answer"
)

func TestGuardCorrectness(t *testing.T) {
	pending := State{Mode: ModeTeachMe, CurrentStep: 1, LastQuestion: &Question{Concept: "a", Phase: PhaseAsked}}
	none := State{Mode: ModeTeachMe, CurrentStep: 1}
	tests := []struct {
		name      string
		s         State
		pre       Precheck
		verdict   answer.Verdict
		out       *TutorOutput
		want      *bool
		result    *Result
		overrides []Override
	}{
		{"verdict correct overrides a wrong judgement", pending, "", answer.Correct, tutorSays(wrong), ptr(true), ptr(ResultCorrect), []Override{OverrideVerdict}},
		{"verdict incorrect overrides a right judgement", pending, "", answer.Incorrect, tutorSays(correct), ptr(false), ptr(ResultIncorrect), []Override{OverrideVerdict}},
		{"verdict fills a missing judgement", pending, "", answer.Correct, tutorSays(), ptr(true), ptr(ResultCorrect), []Override{OverrideVerdict}},
		{"agreeing verdict is no override", pending, "", answer.Correct, tutorSays(correct), ptr(true), ptr(ResultCorrect), nil},
		{"partial counts as not correct", pending, "", answer.Partial, tutorSays(correct), ptr(false), ptr(ResultPartial), []Override{OverrideVerdict}},
		{"no attempt clears the judgement", pending, "", answer.NotAttempt, tutorSays(wrong), nil, nil, []Override{OverrideNotAnAnswer}},
		{"cannot check: the tutor judges", pending, "", answer.CannotCheck, tutorSays(wrong), ptr(false), ptr(ResultIncorrect), nil},
		{"no verdict: the tutor judges", pending, "", "", tutorSays(correct), ptr(true), ptr(ResultCorrect), nil},
		{"I don't know is not an answer", pending, PrecheckIDK, "", tutorSays(wrong), nil, nil, []Override{OverrideNotAnAnswer}},
		{"off-topic is not an answer", pending, PrecheckOffTopic, "", tutorSays(wrong), nil, nil, []Override{OverrideNotAnAnswer}},
		{"a right step is not judged", pending, "", answer.Incorrect, tutorSays(rightStep), nil, nil, nil},
		{"a right step that is the answer is right", pending, "", answer.Correct, tutorSays(rightStep), ptr(true), ptr(ResultCorrect), []Override{OverrideVerdict}},
		{"verdict without a pending question is ignored", none, "", answer.Incorrect, tutorSays(correct), ptr(true), ptr(ResultCorrect), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := Guard(tt.s, planOf(2), Outcome{Now: t0, Precheck: tt.pre, Verdict: tt.verdict, Output: tt.out})
			if diff := cmp.Diff(tt.want, g.Output.AnswerCorrect); diff != "" {
				t.Errorf("answer_correct (-want +got)\n%s", diff)
			}
			if diff := cmp.Diff(tt.result, g.Result); diff != "" {
				t.Errorf("result (-want +got)\n%s", diff)
			}
			if diff := cmp.Diff(tt.overrides, g.Overrides); diff != "" {
				t.Errorf("overrides (-want +got)\n%s", diff)
			}
		})
	}
}

func TestGuardSteps(t *testing.T) {
	tp := planOf(4)
	tests := []struct {
		name     string
		step     int
		out      *TutorOutput
		advance  *int
		complete bool
		override []Override
	}{
		{"forward within the plan", 1, tutorSays(advance(3)), ptr(3), false, nil},
		{"to the end", 4, tutorSays(advance(5)), ptr(5), false, nil},
		{"past the end from the final step is clamped to total+1", 4, tutorSays(advance(99)), ptr(5), false, []Override{OverrideAdvanceClamped}},
		// Moving past the plan ends the lesson: not from an earlier step.
		{"past the end from an earlier step is clamped to the final step", 2, tutorSays(advance(99)), ptr(4), false, []Override{OverrideAdvanceClamped}},
		{"to the end from the first step is clamped to the final step", 1, tutorSays(advance(5)), ptr(4), false, []Override{OverrideAdvanceClamped}},
		{"completion with a jump past the end completes on the final step", 1, tutorSays(advance(99), complete), ptr(4), true, []Override{OverrideAdvanceClamped}},
		{"backwards is dropped", 3, tutorSays(advance(2)), nil, false, []Override{OverrideAdvanceNotForward}},
		{"same step is dropped", 3, tutorSays(advance(3)), nil, false, []Override{OverrideAdvanceNotForward}},
		{"negative is dropped", 3, tutorSays(advance(-4)), nil, false, []Override{OverrideAdvanceNotForward}},
		{"past the end when already complete", 5, tutorSays(advance(9)), nil, false, []Override{OverrideAdvanceClamped, OverrideAdvanceNotForward}},
		{"completion before the final step is dropped", 3, tutorSays(complete), nil, false, []Override{OverrideCompletionEarly}},
		{"completion on the final step", 4, tutorSays(complete), nil, true, nil},
		{"completion after advancing to the final step", 2, tutorSays(advance(4), complete), ptr(4), true, nil},
		{"completion after advancing short of the final step", 1, tutorSays(advance(3), complete), ptr(3), false, []Override{OverrideCompletionEarly}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := Guard(State{Mode: ModeTeachMe, CurrentStep: tt.step}, tp, Outcome{Output: tt.out})
			if diff := cmp.Diff(tt.advance, g.Output.AdvanceToStep); diff != "" {
				t.Errorf("advance_to_step (-want +got)\n%s", diff)
			}
			if g.Output.SessionComplete != tt.complete {
				t.Errorf("session_complete = %v, want %v", g.Output.SessionComplete, tt.complete)
			}
			if diff := cmp.Diff(tt.override, g.Overrides); diff != "" {
				t.Errorf("overrides (-want +got)\n%s", diff)
			}
		})
	}
}

func TestGuardOnePlanEdgeCases(t *testing.T) {
	// A one-step plan completes from step 1; an empty plan cannot advance.
	g := Guard(State{Mode: ModeTeachMe, CurrentStep: 1}, planOf(1), Outcome{Output: tutorSays(complete)})
	if !g.Output.SessionComplete {
		t.Error("one-step plan: completion on step 1 dropped")
	}
	g = Guard(State{Mode: ModeTeachMe, CurrentStep: 1}, lesson(), Outcome{Output: tutorSays(advance(2))})
	if g.Output.AdvanceToStep != nil {
		t.Errorf("empty plan: advance_to_step %d kept", *g.Output.AdvanceToStep)
	}
}

func TestGuardModes(t *testing.T) {
	tp := planOf(2)
	g := Guard(State{Mode: ModeClarify}, tp, Outcome{Verdict: answer.Correct, Output: tutorSays(wrong, advance(2))})
	if g.Output.AnswerCorrect != nil || g.Output.AdvanceToStep != nil || g.Result != nil {
		t.Errorf("clarify kept a judgement or a step: %+v", g)
	}
	g = Guard(State{Mode: ModeExam, ExamQuestions: examQuestions(2)}, tp, Outcome{Output: tutorSays(advance(2))})
	if g.Output.AdvanceToStep != nil || g.MayRevealAnswer {
		t.Errorf("exam kept a step or may reveal: %+v", g)
	}
}

func TestGuardMasteryAndConcepts(t *testing.T) {
	tp := lesson("Fractions", "Decimals")
	out := tutorSays(
		updates(MasteryUpdate{"fractions", 1.4}, MasteryUpdate{"Dragons", 0.5}, MasteryUpdate{"Decimals", -1}),
		asks("q?", "1", "Percentages"),
		func(o *TutorOutput) { o.TurnSummary = "  " + strings.Repeat("é", 90) + "  " },
	)
	orig := out.clone()
	g := Guard(State{Mode: ModeTeachMe, CurrentStep: 1}, tp, Outcome{Output: out})
	want := []MasteryUpdate{{"Fractions", 1}, {"Decimals", 0}}
	if diff := cmp.Diff(want, g.Output.MasteryUpdates); diff != "" {
		t.Errorf("mastery updates (-want +got)\n%s", diff)
	}
	if g.Output.QuestionConcept != nil {
		t.Errorf("question_concept %q outside the plan kept", *g.Output.QuestionConcept)
	}
	if got := g.Output.TurnSummary; got != strings.Repeat("é", 80) {
		t.Errorf("turn_summary = %q", got)
	}
	if diff := cmp.Diff(orig, out); diff != "" {
		t.Errorf("Guard changed its input (-before +after)\n%s", diff)
	}
	for _, o := range []Override{OverrideScoreClamped, OverrideUnknownConcept, OverrideQuestionConcept, OverrideSummaryCut} {
		if !containsOverride(g.Overrides, o) {
			t.Errorf("override %s missing from %v", o, g.Overrides)
		}
	}
	again := Guard(State{Mode: ModeTeachMe, CurrentStep: 1}, tp, Outcome{Output: g.Output})
	if diff := cmp.Diff(g.Output, again.Output); diff != "" || len(again.Overrides) != 0 {
		t.Errorf("Guard is not idempotent: %v\n%s", again.Overrides, diff)
	}
}

func containsOverride(os []Override, o Override) bool {
	for _, x := range os {
		if x == o {
			return true
		}
	}
	return false
}

func TestGuardRevealAndForcedExplain(t *testing.T) {
	tests := []struct {
		name        string
		q           *Question
		verdict     answer.Verdict
		pre         Precheck
		reveal      bool
		mustExplain bool
	}{
		{"no pending question", nil, "", "", false, false},
		{"first wrong attempt: probe", &Question{Phase: PhaseAsked}, answer.Incorrect, "", false, false},
		{"second wrong attempt: hint", &Question{Phase: PhaseProbe, WrongAttempts: 1}, answer.Incorrect, "", false, false},
		{"third wrong attempt: explain", &Question{Phase: PhaseHint, WrongAttempts: 2}, answer.Incorrect, "", true, false},
		{"partial on the third attempt: explain", &Question{Phase: PhaseHint, WrongAttempts: 2}, answer.Partial, "", true, false},
		{"fourth wrong attempt", &Question{Phase: PhaseExplain, WrongAttempts: 3}, answer.Incorrect, "", true, false},
		{"fifth wrong attempt must explain", &Question{Phase: PhaseExplain, WrongAttempts: 4}, answer.Incorrect, "", true, true},
		{"later wrong attempts must explain", &Question{Phase: PhaseExplain, WrongAttempts: 9}, answer.Incorrect, "", true, true},
		{"right answer: the learner said it", &Question{Phase: PhaseAsked}, answer.Correct, "", true, false},
		{"I don't know in the asked phase", &Question{Phase: PhaseAsked}, "", PrecheckIDK, false, false},
		{"I don't know in the hint phase", &Question{Phase: PhaseHint, WrongAttempts: 2}, "", PrecheckIDK, false, false},
		{"I don't know in the explain phase: still no answer", &Question{Phase: PhaseExplain, WrongAttempts: 3}, "", PrecheckIDK, false, false},
		{"a question in the explain phase", &Question{Phase: PhaseExplain, WrongAttempts: 3}, "", "", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := State{Mode: ModeTeachMe, CurrentStep: 1, LastQuestion: tt.q}
			g := Guard(s, planOf(2), Outcome{Verdict: tt.verdict, Precheck: tt.pre, Output: tutorSays()})
			if g.MayRevealAnswer != tt.reveal || g.MustExplain != tt.mustExplain {
				t.Errorf("reveal %v, must explain %v; want %v, %v", g.MayRevealAnswer, g.MustExplain, tt.reveal, tt.mustExplain)
			}
		})
	}
}

func TestAnswerMayBeRevealed(t *testing.T) {
	tests := []struct {
		s    State
		want bool
	}{
		{State{Mode: ModeTeachMe}, false},
		{State{Mode: ModeTeachMe, LastQuestion: &Question{Phase: PhaseHint}}, false},
		{State{Mode: ModeTeachMe, LastQuestion: &Question{Phase: PhaseExplain}}, true},
		{State{Mode: ModeExam, LastQuestion: &Question{Phase: PhaseExplain}}, false},
	}
	for i, tt := range tests {
		if got := AnswerMayBeRevealed(tt.s); got != tt.want {
			t.Errorf("%d: got %v, want %v", i, got, tt.want)
		}
	}
}

func TestTimeUp(t *testing.T) {
	started := NewTime(t0)
	limited := Config{TimeLimitSeconds: int(DefaultVoiceTimeLimit / time.Second)}
	tests := []struct {
		name string
		s    State
		at   time.Duration
		want bool
	}{
		{"no limit", State{StartedAt: &started}, 10 * time.Hour, false},
		{"not started", State{EngineConfig: limited}, 10 * time.Hour, false},
		{"just before", State{StartedAt: &started, EngineConfig: limited}, 25*time.Minute - time.Second, false},
		{"exactly at the limit", State{StartedAt: &started, EngineConfig: limited}, 25 * time.Minute, true},
		{"after", State{StartedAt: &started, EngineConfig: limited}, time.Hour, true},
		{"after, talking all along", State{StartedAt: &started, UpdatedAt: NewTime(t0.Add(59 * time.Minute)), EngineConfig: limited}, time.Hour, true},
		// Back after a break of SittingBreak (longer than the limit): a
		// new sitting.
		{"back the next day", State{StartedAt: &started, UpdatedAt: NewTime(t0.Add(10 * time.Minute)), EngineConfig: limited}, 24 * time.Hour, false},
		{"back after the break", State{StartedAt: &started, UpdatedAt: NewTime(t0.Add(10 * time.Minute)), EngineConfig: limited}, 40 * time.Minute, false},
		{"back before the break", State{StartedAt: &started, UpdatedAt: NewTime(t0.Add(10 * time.Minute)), EngineConfig: limited}, 40*time.Minute - time.Second, true},
	}
	for _, tt := range tests {
		if got := TimeUp(tt.s, t0.Add(tt.at)); got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}
