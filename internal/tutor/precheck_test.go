package tutor

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPrecheck(t *testing.T) {
	p := NewPrechecker(DefaultPrecheckConfig())
	tests := []struct {
		msg  string
		want Precheck
	}{
		// Empty and too long.
		{"", PrecheckEmpty},
		{"   \n\t", PrecheckEmpty},
		{"\u200b", PrecheckEmpty},
		{strings.Repeat("a", 4001), PrecheckTooLong},
		{strings.Repeat("a", 4000), PrecheckNone},

		// Stop requests.
		{"stop", PrecheckStop},
		{"Stop!", PrecheckStop},
		{"ok stop please", PrecheckStop},
		{"done", PrecheckStop},
		{"I'm done", PrecheckStop},
		{"im done for today", PrecheckStop},
		{"bye", PrecheckStop},
		{"Bye bye didi", PrecheckStop},
		{"that's it", PrecheckStop},
		{"thats all", PrecheckStop},
		{"can we stop now?", PrecheckStop},
		{"I want to stop", PrecheckStop},
		{"the end", PrecheckStop},
		{"quit", PrecheckStop},
		{"bas karo", PrecheckStop},
		{"END", PrecheckStop},
		{"Thanks, that's enough for today.", PrecheckStop},
		{"ok thats enough", PrecheckStop},
		{"No thanks, that's all.", PrecheckStop},
		{"no, that's it", PrecheckStop},
		{"no more", PrecheckStop},
		{"done for now, thank you", PrecheckStop},
		{"we're done for today", PrecheckStop},
		{"alright, enough for now", PrecheckStop},
		{"I think that's enough for today", PrecheckStop},
		{"done for today na", PrecheckStop},
		{"thats enough for today guys", PrecheckStop},
		{"lets call it a day, done for today", PrecheckStop},
		{"i'm tired, done for today", PrecheckStop},
		{"enough for today yaar", PrecheckStop},

		// Not stop requests.
		{"my friend helped me", PrecheckNone},
		{"I used a stopwatch", PrecheckNone},
		{"I'm done, it's 12", PrecheckNone},
		{"bye, the answer is 7", PrecheckNone},
		{"should I stop at the decimal point?", PrecheckNone},
		{"what happens at the end of the number line", PrecheckNone},
		{"are we done with step two", PrecheckNone},
		{"done adding the numerators and the denominators now what", PrecheckNone},
		{"the weekend was fun", PrecheckNone},
		{"is that enough?", PrecheckNone},
		{"is that enough for now?", PrecheckNone},
		{"is this explanation enough for now", PrecheckNone},
		{"I'm not done for today", PrecheckNone},
		{"im not done for now, teach me more", PrecheckNone},
		{"that's not enough for today", PrecheckNone},
		{"not enough for now", PrecheckNone},
		{"one more question and then done for today", PrecheckNone},
		{"explain it once more, then done for now", PrecheckNone},
		{"why are we done for today", PrecheckNone},
		{"what if we are done for now", PrecheckNone},
		{"we are nowhere near done for today", PrecheckNone},
		{"hum done for today kya", PrecheckNone},
		{"the plant made enough for today", PrecheckNone},
		{"no", PrecheckNone},
		{"no thanks", PrecheckNone},
		{"abundant", PrecheckNone},
		{"done done done done done done done done bye", PrecheckNone}, // nine words

		// I don't know.
		{"I don't know", PrecheckIDK},
		{"i dont know", PrecheckIDK},
		{"I DON’T KNOW", PrecheckIDK},
		{"idk", PrecheckIDK},
		{"i dnt knw", PrecheckIDK},
		{"dont knw sir", PrecheckIDK},
		{"no idea, sorry", PrecheckIDK},
		{"I'm not sure what to do", PrecheckIDK},
		{"nahi pata", PrecheckIDK},
		{"Pata nahi yaar", PrecheckIDK},
		{"mujhe maloom nahi", PrecheckIDK},
		{"मुझे पता नहीं", PrecheckIDK},
		{"just tell me the answer", PrecheckIDK},

		// Not "I don't know".
		{"I don't know, maybe 12?", PrecheckNone},
		{"I know it!", PrecheckNone},
		{"I was stuck but now I think it is evaporation", PrecheckNone},
		{"thanks for the hint, it is a gas", PrecheckNone},
		// Help, but no "I don't know": an exam does not count it as an
		// answer, and an answer beside it is still judged (the rules engine
		// helps a learner who asks; see rules.stuck).
		{"give me a hint", PrecheckNone},
		{"I'm stuck", PrecheckNone},
		{"the kidney is an organ", PrecheckNone},
		{"pata hai: it is half", PrecheckNone},

		// Off-topic.
		{"who are you", PrecheckOffTopic},
		{"What's your name?", PrecheckOffTopic},
		{"tell me a joke", PrecheckOffTopic},
		{"can you sing", PrecheckOffTopic},
		{"let's play a game", PrecheckOffTopic},

		// Not off-topic.
		{"who are you to say 3 is wrong", PrecheckNone},
		{"a single fraction", PrecheckNone},
		{"is the answer singing?", PrecheckNone},
		{"2 players play a game", PrecheckNone},

		// Answers.
		{"42", PrecheckNone},
		{"three quarters", PrecheckNone},
		{"½", PrecheckNone},
	}
	for _, tt := range tests {
		name := tt.msg
		if len(name) > 40 {
			name = name[:40]
		}
		t.Run(name, func(t *testing.T) {
			if got := p.Check(tt.msg); got != tt.want {
				t.Errorf("Check(%q) = %q, want %q", tt.msg, got, tt.want)
			}
		})
	}
}

// A break request stops (pauses) a lesson only; in an exam or a doubts
// session, which a stop would end, it is no stop request, and neither is
// someone else's tiredness or a break in a graph.
func TestPrecheckBreak(t *testing.T) {
	p := NewPrechecker(DefaultPrecheckConfig())
	for _, msg := range []string{"can we take a break im tired", "I need a break", "can we have a short break?",
		"im so tired", "main thak gaya", "can i have a snack break", "i really need a break", "want a break"} {
		if got := p.CheckIn(ModeTeachMe, msg); got != PrecheckStop {
			t.Errorf("CheckIn(teach_me, %q) = %q, want stop", msg, got)
		}
		for _, m := range []Mode{ModeExam, ModeClarify} {
			if got := p.CheckIn(m, msg); got != PrecheckNone {
				t.Errorf("CheckIn(%s, %q) = %q, want none", m, msg, got)
			}
		}
		if got := p.Check(msg); got != PrecheckNone {
			t.Errorf("Check(%q) = %q, want none", msg, got)
		}
	}
	for _, msg := range []string{"she was so tired", "the circuit will have a gap", "why is the runner so tired",
		"do we need a break in the graph", "the chocolate bar will break into 12 pieces", "i took a break of 5 minutes"} {
		if got := p.CheckIn(ModeTeachMe, msg); got != PrecheckNone {
			t.Errorf("CheckIn(teach_me, %q) = %q, want none", msg, got)
		}
	}
	if got := p.CheckIn(ModeExam, "bye"); got != PrecheckStop {
		t.Errorf("CheckIn(exam, bye) = %q, want stop", got)
	}
}

func TestPrecheckConfig(t *testing.T) {
	p := NewPrechecker(PrecheckConfig{Stop: []string{"khatam", "  ", ""}, IDK: []string{"no se"}, MaxStopWords: 2, MaxRunes: 20})
	tests := []struct {
		msg  string
		want Precheck
	}{
		{"khatam", PrecheckStop},
		{"sab khatam", PrecheckStop},
		{"ab sab khatam", PrecheckNone}, // over MaxStopWords
		{"stop", PrecheckNone},          // not in this configuration
		{"no se", PrecheckIDK},
		{strings.Repeat("é", 21), PrecheckTooLong},
	}
	for _, tt := range tests {
		if got := p.Check(tt.msg); got != tt.want {
			t.Errorf("Check(%q) = %q, want %q", tt.msg, got, tt.want)
		}
	}
}

func FuzzPrecheck(f *testing.F) {
	for _, s := range []string{"", "stop", "I'm done, it's 12", "nahi pata", "who are you", "don’t", "\xff\xfe", "पता नहीं", "ok ok ok"} {
		f.Add(s)
	}
	p := NewPrechecker(DefaultPrecheckConfig())
	f.Fuzz(func(t *testing.T, msg string) {
		got := p.Check(msg)
		switch got {
		case PrecheckNone, PrecheckEmpty, PrecheckTooLong, PrecheckStop, PrecheckOffTopic, PrecheckIDK:
		default:
			t.Fatalf("Check(%q) = %q", msg, got)
		}
		if got == PrecheckEmpty && !isBlank(msg) {
			t.Fatalf("%q is not blank", msg)
		}
		if (got == PrecheckStop || got == PrecheckOffTopic || got == PrecheckIDK) && utf8.ValidString(msg) && strings.ContainsAny(msg, "0123456789") {
			t.Fatalf("%q holds a digit but is %s", msg, got)
		}
	})
}

func TestAsksForAnswer(t *testing.T) {
	for msg, want := range map[string]bool{
		"just tell me the answer": true, "what's the answer?": true, "show me the answer key": true, "answer batao": true,
		"the answer is 14": false, "I don't know": false, "14": false, "what is double 7?": false,
	} {
		if got := AsksForAnswer(msg); got != want {
			t.Errorf("AsksForAnswer(%q) = %v, want %v", msg, got, want)
		}
	}
}
