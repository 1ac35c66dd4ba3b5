package tutor

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tutord/tutord/internal/tutor/answer"
)

func TestMasteryLevel(t *testing.T) {
	tests := []struct {
		score float64
		want  Level
	}{
		{1, LevelMastered}, {0.9, LevelMastered}, {0.8999, LevelStrong}, {0.7, LevelStrong},
		{0.6999, LevelAdequate}, {0.5, LevelAdequate}, {0.4999, LevelDeveloping}, {0.3, LevelDeveloping},
		{0.2999, LevelNeedsWork}, {0, LevelNeedsWork}, {-1, LevelNeedsWork},
	}
	for _, tt := range tests {
		if got := MasteryLevel(tt.score); got != tt.want {
			t.Errorf("MasteryLevel(%v) = %s, want %s", tt.score, got, tt.want)
		}
	}
}

func TestBKTUpdate(t *testing.T) {
	b := DefaultBKT() // prior 0.2, learn 0.15, guess 0.2, slip 0.1
	tests := []struct {
		name string
		got  float64
		want float64
	}{
		// P(L|right) = .2·.9 / (.2·.9 + .8·.2) = .5294; + (1−.5294)·.15 = .6
		{"right from the prior", b.Update(0.2, true), 0.6},
		// P(L|wrong) = .2·.1 / (.2·.1 + .8·.8) = .0303; + .9697·.15 = .17576
		{"wrong from the prior", b.Update(0.2, false), 0.17575757575757575},
		{"partial is the mean of both", b.UpdatePartial(0.2), (0.6 + 0.17575757575757575) / 2},
		{"right from 0.5", b.Update(0.5, true), 0.8454545454545455},
		{"certain stays certain", b.Update(1, false), 1},
		{"input above 1 is clamped", b.Update(7, true), 1},
		{"NaN input counts as 0", b.Update(math.NaN(), true), 0.15},
		{"degenerate parameters keep p, then learn", BKT{Learn: 0.1}.Update(0, true), 0.1},
	}
	for _, tt := range tests {
		if math.Abs(tt.got-tt.want) > 1e-12 {
			t.Errorf("%s: got %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}

func TestMasteryJSON(t *testing.T) {
	var m Mastery
	if err := json.Unmarshal([]byte(`{"b":0.5,"a":0.25,"b":0.75,"c":0}`), &m); err != nil {
		t.Fatal(err)
	}
	want := Mastery{{"b", 0.75}, {"a", 0.25}, {"c", 0}}
	if diff := cmp.Diff(want, m); diff != "" {
		t.Errorf("decoded (-want +got)\n%s", diff)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"b":0.75,"a":0.25,"c":0}` {
		t.Errorf("marshalled %s", b)
	}
	for _, bad := range []string{`[1]`, `{"a":"x"}`, `{"a":1e999}`, `"a"`} {
		var m Mastery
		if err := json.Unmarshal([]byte(bad), &m); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
	if got := (Mastery{{"a", 0.2}, {"b", 0.4}}).Mean(); math.Abs(got-0.3) > 1e-15 {
		t.Errorf("Mean = %v", got)
	}
	if (Mastery{}).Mean() != 0 {
		t.Error("Mean of nothing is not 0")
	}
}

func TestPyRound(t *testing.T) {
	tests := []struct {
		x      float64
		digits int
		want   float64
	}{
		{0.25, 1, 0.2}, {0.35, 1, 0.3}, {0.15, 1, 0.1}, {2.675, 2, 2.67}, {2.5, 0, 2}, {3.5, 0, 4},
		{33.33333333333333, 1, 33.3}, {66.66666666666667, 1, 66.7}, {12.5, 1, 12.5}, {-0.25, 1, -0.2},
	}
	for _, tt := range tests {
		if got := pyRound(tt.x, tt.digits); got != tt.want {
			t.Errorf("pyRound(%v, %d) = %v, want %v", tt.x, tt.digits, got, tt.want)
		}
	}
}

// askedState returns a teach_me state on lesson(a, b) with a pending bank
// question on concept a.
func askedState(t *testing.T) (State, *Topic) {
	t.Helper()
	tp := lesson("a", "b")
	s := newState(t, ModeTeachMe, tp)
	o := turnAt(1, "ready", tutorSays(intent(IntentContinuation)))
	o.NextQuestion = &tp.Questions[0]
	s, _ = ApplyTurn(s, tp, o)
	if s.LastQuestion == nil || s.LastQuestion.Concept != "a" {
		t.Fatalf("no pending question: %+v", s.LastQuestion)
	}
	return s, tp
}

func TestMasteryRules(t *testing.T) {
	tests := []struct {
		name    string
		verdict answer.Verdict
		out     *TutorOutput
		start   float64 // mastery of a before the turn
		want    Mastery
	}{
		{"tutor update without evidence is smoothed", "", tutorSays(intent(IntentQuestion), updates(MasteryUpdate{"a", 0.8})), 0,
			Mastery{{"a", 0.32}, {"b", 0}}},
		{"smoothing from a previous value", "", tutorSays(intent(IntentQuestion), updates(MasteryUpdate{"b", 1})), 0,
			Mastery{{"a", 0}, {"b", 0.4}}},
		{"right answer, no tutor update: knowledge tracing from the prior", answer.Correct, tutorSays(), 0,
			Mastery{{"a", 0.6}, {"b", 0}}},
		{"right answer blended with the tutor's update", answer.Correct, tutorSays(updates(MasteryUpdate{"a", 0.8})), 0,
			Mastery{{"a", 0.7}, {"b", 0}}},
		{"wrong answer: a concept never shown stays at 0", answer.Incorrect, tutorSays(), 0,
			Mastery{{"a", 0}, {"b", 0}}},
		{"wrong answer: knowledge tracing from the estimate", answer.Incorrect, tutorSays(), 0.5,
			Mastery{{"a", DefaultBKT().Update(0.5, false)}, {"b", 0}}},
		{"wrong answer: a tutor's higher score does not lift it above tracing", answer.Incorrect, tutorSays(updates(MasteryUpdate{"a", 0.3})), 0.5,
			Mastery{{"a", DefaultBKT().Update(0.5, false)}, {"b", 0}}},
		{"wrong answer: nor a concept never shown above 0", answer.Incorrect, tutorSays(updates(MasteryUpdate{"a", 0.3})), 0,
			Mastery{{"a", 0}, {"b", 0}}},
		{"wrong answer: a tutor's lower score lowers it further", answer.Incorrect, tutorSays(updates(MasteryUpdate{"a", 0.1})), 0.5,
			Mastery{{"a", (0.1 + DefaultBKT().Update(0.5, false)) / 2}, {"b", 0}}},
		{"right answer: a tutor's low score does not lower it", answer.Correct, tutorSays(updates(MasteryUpdate{"a", 0.1})), 0.9,
			Mastery{{"a", 0.9}, {"b", 0}}},
		{"partial answer is half evidence", answer.Partial, tutorSays(), 0,
			Mastery{{"a", (0.6 + 0.17575757575757575) / 2}, {"b", 0}}},
		{"tracing from an earlier estimate", answer.Correct, tutorSays(), 0.5,
			Mastery{{"a", 0.8454545454545455}, {"b", 0}}},
		{"the verdict wins over the tutor's judgement", answer.Incorrect, tutorSays(correct), 0.5,
			Mastery{{"a", DefaultBKT().Update(0.5, false)}, {"b", 0}}},
		{"no verdict: the tutor's judgement is evidence", "", tutorSays(correct), 0,
			Mastery{{"a", 0.6}, {"b", 0}}},
		{"score above 1 is clamped", "", tutorSays(updates(MasteryUpdate{"b", 1.7})), 0,
			Mastery{{"a", 0}, {"b", 0.4}}},
		{"negative score is clamped", "", tutorSays(updates(MasteryUpdate{"b", -3})), 0,
			Mastery{{"a", 0}, {"b", 0}}},
		{"unknown concept is dropped", "", tutorSays(updates(MasteryUpdate{"zebra", 0.9})), 0,
			Mastery{{"a", 0}, {"b", 0}}},
		{"concept matched to the plan's spelling", "", tutorSays(updates(MasteryUpdate{" B ", 1})), 0,
			Mastery{{"a", 0}, {"b", 0.4}}},
		{"repeated concept: the last update wins", "", tutorSays(updates(MasteryUpdate{"b", 1}, MasteryUpdate{"b", 0.5})), 0,
			Mastery{{"a", 0}, {"b", 0.2}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, tp := askedState(t)
			s.MasteryEstimates[0].Score = tt.start
			o := turnAt(2, "answer", tt.out)
			o.Verdict = tt.verdict
			got, _ := ApplyTurn(s, tp, o)
			if diff := cmp.Diff(tt.want, got.MasteryEstimates, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
				t.Errorf("mastery (-want +got)\n%s", diff)
			}
		})
	}
}

func TestMasteryOnlyInTeachMe(t *testing.T) {
	tp := lesson("a", "b")
	for _, mode := range []Mode{ModeClarify, ModeExam} {
		s := newState(t, mode, tp, examQuestions(2)...)
		got, _ := ApplyTurn(s, tp, turnAt(1, "x", tutorSays(correct, updates(MasteryUpdate{"a", 0.9}))))
		if len(got.MasteryEstimates) != 0 {
			t.Errorf("%s: mastery %v, want none", mode, got.MasteryEstimates)
		}
	}
}
