package answer

import (
	"strings"
	"testing"
)

var verdicts = map[Verdict]bool{Correct: true, Partial: true, Incorrect: true, NotAttempt: true, CannotCheck: true}

func FuzzEvaluate(f *testing.F) {
	seeds := []struct{ answer, kind, reply string }{
		{"42", "", "I think it's 42 apples"},
		{"6", "", "not 5, it's 6"},
		{"6", "", "5 or 6?"},
		{"x = 7", "", "x=7 and y=2"},
		{"1200", "", "1,200"},
		{"-7", "", "minus seven"},
		{"1/2", "fraction", "0.50"},
		{"1 1/2", "", "one and a half"},
		{"75%", "", "three quarters"},
		{"12 cm", "unit", "120 mm"},
		{"B", "", "option b"},
		{"photosynthesis", "", "it's not respiration, it's photosynthesis"},
		{"yes", "", "I don't think so"},
		{"{2, 3, 5}", "", "5, 3 and 2"},
		{"2x + 6", "", "2(x+3)"},
		{"(x+1)^2", "", "x^2+2x+1"},
		{"2x + 3 = 7", "expression", "x = 2"},
		{"15", "", "my answer is 20 - 5 = 15, I mean 16"},
		{"180", "", "multiplied the houses (60) by (3) to get the treats (180), which is 180 (or"},
		{"2", "", "120 minutes, or 2 hours, so 28 out of 30 are left"},
		{"1/0", "", "1/0"},
		{"3:5", "", "not 5:3, it's 3 is to 5 or 6 / 10"},
		{"2:3:5", "ratio", "2 to 3 to 5:1"},
		{"CO₂", "", "C₀₀₀₀₀₀₀₀₀₀₀₀₀₀₀₀₀₀₀₀₉O₂"},
		{"60%", "", "0.6"},
		{"9999999999999999999999", "", "1e400"},
		{"((((((((x))))))))", "", "-(-(-(-x)))"},
		{"x^x^x^x", "", "x^^"},
		{"3/4", "", "३ / ४ or ०,५ or ３÷４"},
		{"6", "", "12 and ६, true/false"},
		{"", "", ""},
	}
	for _, s := range seeds {
		f.Add(s.answer, s.kind, s.reply)
	}
	f.Fuzz(func(t *testing.T, answer, kind, reply string) {
		exp := Expected{Answer: answer, Kind: Kind(kind), Options: []string{"12", "fifteen", answer}}
		got := Evaluate(exp, reply)
		if !verdicts[got.Verdict] {
			t.Fatalf("Evaluate(%q, %q) verdict %q is not a verdict", answer, reply, got.Verdict)
		}
		if got.Extracted != "" && !strings.Contains(reply, got.Extracted) {
			t.Fatalf("Evaluate(%q, %q) extracted %q, which is not in the reply", answer, reply, got.Extracted)
		}
		if again := Evaluate(exp, reply); again != got {
			t.Fatalf("Evaluate(%q, %q) is not deterministic: %+v then %+v", answer, reply, got, again)
		}
		_ = InferKind(answer)
	})
}

func FuzzDetectLeak(f *testing.F) {
	seeds := []struct{ answer, question, student, reply string }{
		{"8", "Tom has 12 eggs and uses 4. How many are left?", "16", "It's 8, not 16."},
		{"3/4", "", "", "The answer is three quarters. Step 3: check."},
		{"12 cm", "", "12", "You said 12 — let's check that. 120 mm is right."},
		{"2x + 6", "", "", "So 2(x+3) = 2x + 6."},
		{"photosynthesis", "What do plants do?", "", "It's photosynthesis!"},
		{"B", "", "", "The answer is (b)."},
		{"yes", "", "", "The answer is yes."},
		{"x = 7", "", "", "x is 7\n1. one\n2. two"},
		{"25000", "", "", "$20,000 + $5,000 = $25,000, not $15,000."},
		{"14", "", "is it 13 or 14?", "Is it 14？ Yes! The answer is... **14**.\nAnswer:\n14"},
		{"42", "६ × ७?", "४० and ४२", "सही उत्तर है: ४२। So ४८ - ६ = ४२."},
		{"", "", "", ""},
	}
	for _, s := range seeds {
		f.Add(s.answer, s.question, s.student, s.reply)
	}
	f.Fuzz(func(t *testing.T, answer, question, student, reply string) {
		c := LeakCheck{
			Expected: Expected{Answer: answer, Options: []string{"12", answer}},
			Question: question,
			Dialogue: []Utterance{{Role: RoleTutor, Text: question}, {Role: RoleStudent, Text: student}},
			Reply:    reply,
		}
		leaks := DetectLeaks(c)
		prev := -1
		for _, l := range leaks {
			s := l.Sentence
			if s.Start < 0 || s.End > len(reply) || s.Start > s.End || reply[s.Start:s.End] != s.Text {
				t.Fatalf("DetectLeaks(%q): bad sentence span %+v", reply, s)
			}
			if s.Start < prev {
				t.Fatalf("DetectLeaks(%q): leaks out of order", reply)
			}
			prev = s.End
			if l.Form == "" || !strings.Contains(s.Text, l.Form) {
				t.Fatalf("DetectLeaks(%q): form %q is not in sentence %q", reply, l.Form, s.Text)
			}
		}
		for _, s := range SplitSentences(reply) {
			if s.Start < 0 || s.End > len(reply) || reply[s.Start:s.End] != s.Text {
				t.Fatalf("SplitSentences(%q): bad span %+v", reply, s)
			}
		}
	})
}
