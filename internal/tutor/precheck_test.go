package tutor

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/tutord/tutord/internal/tutor/answer"
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
		{"I have to go, my mom is calling", PrecheckStop},
		{"i need to go now", PrecheckStop},
		{"I'm done with this, bye", PrecheckStop},
		{"bye didi, see you", PrecheckStop},
		{"Goodbye!", PrecheckStop},
		{"can we end the lesson", PrecheckStop},
		{"ok quit", PrecheckStop},
		{"ok bye", PrecheckStop},
		// The Indian spelling of ma'am, texting spellings and Hinglish.
		{"bye mam", PrecheckStop},
		{"ok bye mam", PrecheckStop},
		{"thank you mam bye mam", PrecheckStop},
		{"byee", PrecheckStop},
		{"byeee sir", PrecheckStop},
		{"good night sir", PrecheckStop},
		{"ok tata", PrecheckStop},
		{"mujhe jana hai", PrecheckStop},
		{"ab bas", PrecheckStop},
		{"bas ho gaya", PrecheckStop},
		// A single stop word asked still asks to stop; "I'm done" beside
		// a goodbye, thanks or a clause that states no answer stops.
		{"stop?", PrecheckStop},
		{"done?", PrecheckStop},
		{"I'm done, bye", PrecheckStop},
		{"I'm done. Thanks!", PrecheckStop},
		{"I'm done, it's late", PrecheckStop},
		// A word beside a goodbye: only an exam takes it for an answer
		// (see TestPrecheckAnswerBesideGoodbye).
		{"freezing, bye", PrecheckStop},

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
		// A StopExact phrase of more than one word asked as a question is
		// surprise ("is that all there is to it?"), not a goodbye.
		{"That's it?", PrecheckNone},
		{"that's all?", PrecheckNone},
		{"no more?", PrecheckNone},
		// "I'm done" handing in the work: a later clause states the
		// answer, which must be judged, as "I'm done, it's 12" is.
		{"I'm done! The answer is evaporation", PrecheckNone},
		{"I am done. It's photosynthesis", PrecheckNone},
		{"I'm finished, I think it is a gas", PrecheckNone},
		// A stop phrase inside schoolwork: more of the sentence follows it.
		{"I need to go over this again", PrecheckNone},
		{"can we finish this question first", PrecheckNone},
		{"I'm done with this step, what next?", PrecheckNone},
		{"im done reading the question", PrecheckNone},
		{"why did he quit school?", PrecheckNone},
		{"quit smoking is good for health", PrecheckNone},
		{"Goodbye is the last word of the poem", PrecheckNone},
		{"what does goodbye mean", PrecheckNone},

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
		// Texting spellings of "nahi".
		{"pata nhi", PrecheckIDK},
		{"nhi pata", PrecheckIDK},
		{"pta nhi", PrecheckIDK},
		{"mujhe nhi pata", PrecheckIDK},
		{"pata nhi sir", PrecheckIDK},
		{"nhi aata", PrecheckIDK},
		{"pata nai", PrecheckIDK},
		{"nai pata", PrecheckIDK},
		{"i donno", PrecheckIDK},
		{"just tell me the answer", PrecheckIDK},
		{"not sure", PrecheckIDK},
		{"sorry sir, not sure", PrecheckIDK},
		{"I'm stuck, I don't know.", PrecheckIDK},
		{"I don't know how to do this one.", PrecheckIDK},
		{"skip", PrecheckIDK},
		{"ok skip", PrecheckIDK},
		{"I know this already, skip", PrecheckIDK},
		{"skip this question", PrecheckIDK},
		{"not sure but", PrecheckIDK},
		{"sorry but I don't know", PrecheckIDK},
		{"I tried but I don't know", PrecheckIDK},
		{"i get it but im not sure how to do it", PrecheckIDK},
		{"no idea but can you give me a hint", PrecheckIDK},
		{"not sure but how do i start", PrecheckIDK},
		{"not sure, what do i do", PrecheckIDK},
		{"not sure but ok", PrecheckIDK},

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
		// A hedged answer is an answer, to be judged.
		{"I don't know if it is three quarters or two thirds, I think three quarters", PrecheckNone},
		{"not sure, maybe condensation", PrecheckNone},
		{"I think it's mitochondria but I'm not sure", PrecheckNone},
		{"evaporation, not sure", PrecheckNone},
		{"not sure but freezing", PrecheckNone},
		{"im not sure but its condensation", PrecheckNone},
		{"Not sure, but evaporation", PrecheckNone},
		{"not sure but 12", PrecheckNone},
		{"I think freezing", PrecheckNone},
		{"i'm tired of fractions, what is a numerator?", PrecheckNone},
		// Skip counting is a Class 1-2 maths chapter.
		{"what is skip counting?", PrecheckNone},
		{"skip counting by fives", PrecheckNone},
		{"skip counting", PrecheckNone},

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
		// In an English lesson: the verb "sing", Emily Dickinson's "I'm
		// Nobody! Who are you?", a story about the topic.
		{"sing", PrecheckNone},
		{"what is the past tense of sing", PrecheckNone},
		{"is sing a verb or a noun", PrecheckNone},
		{"in the poem I'm Nobody! Who are you? who is nobody", PrecheckNone},
		{"tell me a story about fractions", PrecheckNone},

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

// In an exam a pre-check decides the turn: a stop finishes the exam, "I
// don't know" records the question as incorrect unjudged, off-topic repeats
// it unrecorded. Schoolwork that merely contains such a phrase is an answer.
func TestPrecheckSchoolworkInExam(t *testing.T) {
	p := NewPrechecker(DefaultPrecheckConfig())
	exam := func(question, expected string) (State, *Topic) {
		tp := planOf(3)
		qs := examQuestions(3)
		qs[0].QuestionText, qs[0].ExpectedAnswer = question, expected
		return newState(t, ModeExam, tp, qs...), tp
	}
	// The orchestrator judges a message only when no pre-check took it.
	turn := func(t *testing.T, s State, tp *Topic, msg string) State {
		t.Helper()
		pre := p.CheckIn(ModeExam, msg)
		if pre != PrecheckNone {
			t.Errorf("CheckIn(exam, %q) = %q, want none", msg, pre)
		}
		n, _ := ApplyTurn(s, tp, Outcome{Now: t0, StudentMessage: msg, Precheck: pre, Verdict: answer.Correct})
		return n
	}
	t.Run("stop phrase", func(t *testing.T) {
		s, tp := exam("What is the change of a liquid into a gas at its surface called?", "evaporation")
		if n := turn(t, s, tp, "I need to go over this again"); n.ExamFinished {
			t.Errorf("the exam finished with its questions unanswered")
		}
	})
	t.Run("hedged answer", func(t *testing.T) {
		s, tp := exam("What is the change of a liquid into a gas at its surface called?", "evaporation")
		if r := turn(t, s, tp, "evaporation, not sure").ExamQuestions[0].Result; r == nil || *r != ResultCorrect {
			t.Errorf("the right answer is recorded %v, want correct", r)
		}
	})
	t.Run("verb sing", func(t *testing.T) {
		s, tp := exam("Which word is the verb in 'Birds sing at dawn'?", "sing")
		if n := turn(t, s, tp, "sing"); n.ExamQuestions[0].StudentAnswer == nil || n.OffTopicCount > 0 {
			t.Errorf("the right answer is taken as off-topic: not recorded, off_topic_count %d", n.OffTopicCount)
		}
	})
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

// In an exam a stop phrase beside a clause that answers the question is an
// answer attempt, as a number beside one is; a goodbye that only says
// goodbye, thanks or how the exam went still ends the exam. A lesson and a
// doubts session read the message as Check does.
func TestPrecheckAnswerBesideGoodbye(t *testing.T) {
	p := NewPrechecker(DefaultPrecheckConfig())
	for _, msg := range []string{"freezing, bye", "bye, it is condensation", "evaporation. goodbye!", "my answer is sublimation, bye",
		"sublimation, i have to go", "0, bye", "I'm done, it's 12"} {
		if got := p.CheckIn(ModeExam, msg); got != PrecheckNone {
			t.Errorf("CheckIn(exam, %q) = %q, want none", msg, got)
		}
	}
	for _, msg := range []string{"bye", "ok bye", "ok, bye", "Goodbye!", "thanks didi, bye", "thanks for the help, bye", "that was fun, bye",
		"got it, bye", "I'm done with this, bye", "I have to go, my mom is calling", "bye didi, see you", "no idea, bye",
		"i'm tired, bye", "sorry, i have to go", "good night, bye", "this exam is hard, bye", "that's all, bye", "stop the exam",
		"freezing bye"} { // without a clause of its own, a word before "bye" is read as "ok bye" is
		if got := p.CheckIn(ModeExam, msg); got != PrecheckStop {
			t.Errorf("CheckIn(exam, %q) = %q, want stop", msg, got)
		}
	}
	for _, m := range []Mode{ModeTeachMe, ModeClarify} {
		for _, msg := range []string{"freezing, bye", "bye, it is condensation"} {
			if got := p.CheckIn(m, msg); got != PrecheckStop {
				t.Errorf("CheckIn(%s, %q) = %q, want stop", m, msg, got)
			}
		}
	}
}

// A surprised "That's it?" after a short explanation neither pauses a
// lesson nor ends an exam early.
func TestSurprisedQuestionGoesOn(t *testing.T) {
	p := NewPrechecker(DefaultPrecheckConfig())
	tp := planOf(3)
	s := newState(t, ModeTeachMe, tp)
	s, _ = ApplyTurn(s, tp, turnAt(1, "yes", tutorSays()))
	msg := "That's it?"
	n, _ := ApplyTurn(s, tp, Outcome{Now: t0.Add(2 * time.Minute), StudentMessage: msg, Precheck: p.CheckIn(ModeTeachMe, msg), Output: tutorSays()})
	if n.IsPaused {
		t.Errorf("after %q the lesson is paused; want it to go on", msg)
	}
	if got := p.CheckIn(ModeExam, msg); got == PrecheckStop {
		t.Errorf("CheckIn(exam, %q) = stop; the exam would end early", msg)
	}
}

// In a doubts session a stop phrase beside a question asks a doubt: the
// learner relies on "I'm done, but what is chlorophyll?" being answered,
// not met with a goodbye. A stop that asks nothing still ends the session,
// and a lesson reads the message as Check does.
func TestPrecheckDoubtBesideGoodbye(t *testing.T) {
	p := NewPrechecker(DefaultPrecheckConfig())
	tests := []struct {
		msg  string
		want Precheck // in a doubts session
	}{
		{"I'm done, but what is chlorophyll?", PrecheckNone},
		{"I'm done. What is starch?", PrecheckNone},
		{"bye. why are leaves green", PrecheckNone},
		{"goodbye, why are leaves green?", PrecheckNone},
		{"bye, can you explain osmosis?", PrecheckNone},
		{"bye", PrecheckStop},
		{"ok bye", PrecheckStop},
		{"thanks, bye", PrecheckStop},
		{"i'm done, thanks!", PrecheckStop},
		{"no thanks, that's all", PrecheckStop},
		{"can we stop?", PrecheckStop},
		{"bye, see you tomorrow?", PrecheckStop},
		{"bye, what?", PrecheckStop},
		{"I have to go, my mom is calling", PrecheckStop},
	}
	for _, tt := range tests {
		if got := p.CheckIn(ModeClarify, tt.msg); got != tt.want {
			t.Errorf("CheckIn(clarify_doubts, %q) = %q, want %q", tt.msg, got, tt.want)
		}
		if got := p.CheckIn(ModeTeachMe, tt.msg); got != PrecheckStop {
			t.Errorf("CheckIn(teach_me, %q) = %q, want stop", tt.msg, got)
		}
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
