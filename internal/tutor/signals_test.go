package tutor

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPacing(t *testing.T) {
	tp := planOf(2)
	m := func(v ...float64) Mastery {
		out := make(Mastery, len(v))
		for i, x := range v {
			out[i] = ConceptScore{Concept: string(rune('a' + i)), Score: x}
		}
		return out
	}
	wrongTwice := &Question{WrongAttempts: 2}
	tests := []struct {
		name    string
		turns   int // turns before this one
		mastery Mastery
		trend   Trend
		step    int
		q       *Question
		want    Pace
	}{
		{"first turn", 0, m(0.9, 0.9), TrendImproving, 1, nil, PaceFirstTurn},
		{"accelerate at exactly 0.8", 3, m(0.8), TrendImproving, 1, nil, PaceAccelerate},
		{"no accelerate without improving", 3, m(0.9, 0.9), TrendSteady, 1, nil, PaceSteady},
		{"extend once complete", 3, m(0.9, 0.9), TrendImproving, 3, nil, PaceExtend},
		{"fast track: 3 of 5 strong, mean 0.66", 3, m(0.7, 0.7, 0.7, 0.6, 0.6), TrendImproving, 1, nil, PaceAccelerate},
		{"fast track needs a mean of 0.65", 3, m(0.7, 0.7, 0.7, 0.5, 0.5), TrendImproving, 1, nil, PaceSteady},
		{"fast track needs 60% strong", 3, m(0.95, 0.95, 0.6, 0.6, 0.6), TrendImproving, 1, nil, PaceSteady},
		{"fast track into extend", 3, m(0.7, 0.7, 0.7, 0.6, 0.6), TrendImproving, 3, nil, PaceExtend},
		{"simplify below 0.4", 3, m(0.39), TrendSteady, 1, nil, PaceSimplify},
		{"no simplify at 0.4", 3, m(0.4), TrendSteady, 1, nil, PaceSteady},
		{"simplify when struggling", 3, m(0, 0), TrendStruggling, 1, nil, PaceSimplify},
		{"all zero is no data", 3, m(0, 0), TrendSteady, 1, nil, PaceSteady},
		{"no mastery at all", 3, nil, TrendSteady, 1, nil, PaceSteady},
		{"consolidate at 0.4 with two wrong attempts", 3, m(0.4), TrendSteady, 1, wrongTwice, PaceConsolidate},
		{"consolidate just below 0.65", 3, m(0.6499), TrendSteady, 1, wrongTwice, PaceConsolidate},
		{"no consolidate at 0.65", 3, m(0.65, 0.65), TrendSteady, 1, wrongTwice, PaceSteady},
		{"no consolidate after one wrong attempt", 3, m(0.5), TrendSteady, 1, &Question{WrongAttempts: 1}, PaceSteady},
		{"no consolidate while improving", 3, m(0.5), TrendImproving, 1, wrongTwice, PaceSteady},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := State{Mode: ModeTeachMe, TurnCount: tt.turns, MasteryEstimates: tt.mastery, CurrentStep: tt.step, LastQuestion: tt.q}
			s.SessionSummary.ProgressTrend = tt.trend
			got := Pacing(s, tp)
			if got.Pace != tt.want {
				t.Errorf("pace = %s, want %s", got.Pace, tt.want)
			}
			if !strings.HasPrefix(got.Text, "PACING: "+string(tt.want)+" — ") {
				t.Errorf("text %q does not match its label", got.Text)
			}
		})
	}
	if got := Pacing(State{TurnCount: 5}, tp).Text; got != "PACING: STEADY — Progressing normally. One idea at a time." {
		t.Errorf("steady text %q", got)
	}
}

func msgs(contents ...string) []Message {
	var h []Message
	for _, c := range contents {
		h = append(h, Message{Role: RoleStudent, Content: c}, Message{Role: RoleTeacher, Content: "teacher talk goes on and on and on and on and on and on"})
	}
	return h
}

func TestStyle(t *testing.T) {
	tests := []struct {
		name    string
		history []Message
		current string
		want    StudentStyle
		text    string
	}{
		{"nothing yet", nil, " ", StudentStyle{Level: StyleUnknown}, "STYLE: Unknown (first turn). Start short."},
		{"one short message", nil, "ok", StudentStyle{Level: StyleQuiet, Messages: 1, AvgWords: 1},
			"STYLE: QUIET (1 words/msg avg) — respond in 2-3 sentences MAX."},
		{"exactly five words is quiet", nil, "one two three four five", StudentStyle{Level: StyleQuiet, Messages: 1, AvgWords: 5},
			"STYLE: QUIET (5 words/msg avg) — respond in 2-3 sentences MAX."},
		{"5.5 words is moderate and shows as 6", msgs("a b c d e"), "a b c d e f", StudentStyle{Level: StyleModerate, Messages: 2, AvgWords: 5.5},
			"STYLE: Moderate (6 words/msg) — 3-5 sentences."},
		{"exactly fifteen is moderate", nil, strings.Repeat("w ", 15), StudentStyle{Level: StyleModerate, Messages: 1, AvgWords: 15},
			"STYLE: Moderate (15 words/msg) — 3-5 sentences."},
		{"sixteen is expressive", nil, strings.Repeat("w\t", 16), StudentStyle{Level: StyleExpressive, Messages: 1, AvgWords: 16},
			"STYLE: Expressive (16 words/msg) — can elaborate more."},
		{"questions", msgs("why is that?"), "ok", StudentStyle{Level: StyleQuiet, Messages: 2, AvgWords: 2, AsksQuestions: true},
			"STYLE: QUIET (2 words/msg avg) — respond in 2-3 sentences MAX. Student asks questions — encourage this, answer them."},
		{"U+1F600 itself is not counted", nil, "ok 😀", StudentStyle{Level: StyleQuiet, Messages: 1, AvgWords: 2}, ""},
		{"emoji above U+1F600", nil, "ok 😁", StudentStyle{Level: StyleQuiet, Messages: 1, AvgWords: 2, UsesEmoji: true},
			"STYLE: QUIET (2 words/msg avg) — respond in 2-3 sentences MAX. Student uses emojis — you can mirror lightly."},
		{"disengaging: 10 → 3 words", msgs("a a a a a a a a a a", "a a a a a a a a", "a a a a a a"), "a a a",
			StudentStyle{Level: StyleModerate, Messages: 4, AvgWords: 6.75, Disengaging: true},
			"STYLE: Moderate (7 words/msg) — 3-5 sentences. ⚠️ Responses getting shorter — possible disengagement. Re-engage: try a different angle or ask what they think."},
		{"not disengaging at exactly 40%", msgs("a a a a a a a a a a", "a a a a a a a a", "a a a a a a"), "a a a a",
			StudentStyle{Level: StyleModerate, Messages: 4, AvgWords: 7}, ""},
		{"not disengaging above five words", msgs(strings.Repeat("a ", 20), "a", "a"), "a a a a a a",
			StudentStyle{Level: StyleModerate, Messages: 4, AvgWords: 7}, ""},
		{"three messages are too few", msgs("a a a a a a a a a a", "a a a a a a a a"), "a",
			StudentStyle{Level: StyleModerate, Messages: 3, AvgWords: 19.0 / 3}, ""},
		{"the window drops the oldest message", msgs("x x x x x x x x x x x x x x x x x x x x", "a", "a", "a", "a"), "a",
			StudentStyle{Level: StyleQuiet, Messages: 5, AvgWords: 1}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Style(tt.history, tt.current)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if tt.text != "" && got.Directive() != tt.text {
				t.Errorf("directive\n%q\nwant\n%q", got.Directive(), tt.text)
			}
		})
	}
}

func TestSignalsDoNotAllocate(t *testing.T) {
	tp := planOf(12)
	s := benchState(t, tp)
	if n := testing.AllocsPerRun(100, func() { Pacing(s, tp) }); n != 0 {
		t.Errorf("Pacing allocates %v times", n)
	}
	if n := testing.AllocsPerRun(100, func() { Style(s.History, "I think it is 42 😁?") }); n != 0 {
		t.Errorf("Style allocates %v times", n)
	}
}
