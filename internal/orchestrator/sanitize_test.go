package orchestrator

import (
	"slices"
	"strings"
	"testing"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

func TestFindProblemsAndRedact(t *testing.T) {
	threeQuarters := protected{expected: answer.Expected{Answer: "3/4", Kind: answer.KindFraction}, question: "What is 1/4 + 2/4?"}
	fourteen := protected{expected: answer.Expected{Answer: "14", Kind: answer.KindInteger}, question: "What is double 7?"}
	tests := []struct {
		name    string
		reply   string
		answers []protected
		bad     bool
	}{
		{"clean", "Nice try! Think about how many quarters you have altogether.", []protected{threeQuarters}, false},
		{"third person", "The student's answer shows a misunderstanding. Try again!", nil, true},
		{"the learner", "The learner needs a hint. What do you get?", nil, true},
		{"assessment label", "Assessment: partially correct. Let's look again.", nil, true},
		{"field name", "Your expected_answer should be a fraction.", nil, true},
		{"mastery score", "Your mastery score is 0.6 now.", nil, true},
		{"json fragment", `Sure {"response": "hi"} there.`, nil, true},
		{"as an AI", "As an AI, I cannot tell you that. Try again.", nil, true},
		{"I'm an AI", "I'm an AI tutor, so let's think together.", nil, true},
		{"this student", "This student seems confused. Let's look again.", nil, true},
		{"mastery figure", "Your mastery is 0.8 now. Keep going!", nil, true},
		{"single-quoted json", "Here you go {'answer_text': 14} and more.", nil, true},
		{"curly-quoted json", "Here you go {“answer_text”: 14} and more.", nil, true},
		{"answer as an equivalent fraction", "Nearly there. The answer is 6/8.", []protected{threeQuarters}, true},
		{"everyday words", "Let's say you mastered it: a student in your class paints 3 walls. Your mastery of 3-digit numbers shows.", nil, false},
		{"answer as a fraction", "Good effort. The answer is 3/4.", []protected{threeQuarters}, true},
		{"answer as a decimal", "You should get 0.75 in the end.", []protected{threeQuarters}, true},
		{"answer in words", "It comes to three quarters altogether.", []protected{threeQuarters}, true},
		{"answer as digits", "Double 7 is 14, so try the next one.", []protected{fourteen}, true},
		{"value from the question", "What is 1/4 + 2/4? Add the numerators.", []protected{threeQuarters}, false},
		{"step number", "Step 3 is next: keep the denominator.", []protected{threeQuarters}, false},
		{"word problem", "3/4 of the students walk to school. Priya works as an assistant in a shop.", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps := findProblems(tt.reply, tt.answers, nil)
			if (len(ps) > 0) != tt.bad {
				t.Fatalf("findProblems(%q) = %v, want problems: %v", tt.reply, ps, tt.bad)
			}
			if !tt.bad {
				return
			}
			fixed, _ := redact(tt.reply, ps)
			if again := findProblems(fixed, tt.answers, nil); len(again) > 0 {
				t.Fatalf("redacted reply %q still has %v", fixed, again)
			}
			if !strings.Contains(fixed, safeSentence) {
				t.Fatalf("redacted reply %q has no safe sentence", fixed)
			}
		})
	}
}

func TestEchoedAnswerIsNotALeak(t *testing.T) {
	p := protected{expected: answer.Expected{Answer: "14", Kind: answer.KindInteger}, question: "What is double 7?"}
	dl := []answer.Utterance{{Role: answer.RoleTutor, Text: "What is double 7?"}, {Role: answer.RoleStudent, Text: "14"}}
	if ps := findProblems("You said 14 — let's check that together.", []protected{p}, dl); len(ps) > 0 {
		t.Fatalf("an echo of the learner's answer was flagged: %v", ps)
	}
}

func TestCleanMessage(t *testing.T) {
	if got := cleanMessage(" a\x00b\x07c\nd\xff "); got != "abc\nd\uFFFD" {
		t.Fatalf("cleanMessage = %q", got)
	}
}

// TestInternalHintsCoverThePatterns: every phrase a pattern catches
// contains one of that pattern's fragments, so the prefilter never lets
// internal language through.
func TestInternalHintsCoverThePatterns(t *testing.T) {
	for _, s := range []string{"The student's answer", "the message contains", "The answer is incorrect because", "the learner",
		"Student appears to", "Misconception detected", "The response should", "the user", "Assessment: ok", "Diagnostic: x",
		"expected_answer", "needs_remediation", "mastery score", "mastery: 3", `{"x": 1}`, "As an AI", "as a language model", "a language model",
		"my system prompt", "This student", "that learner's", "mastery is now 0.5", "{'x': 1}", "[‘x’ : 1", "{“x”: 1}", "I’m an AI",
		"I am just a bot", "im only a chatbot", "I'M AN A.I.", "As a virtual assistant, I",
		// (?i) takes a long s for an s, and \s a tab for a space.
		"The uſer", "the ſtudent", "Aſſessment: x", "maſtery score", "aſ an AI", "syſtem prompt", "{'answer'\t: 3}", "mastery\tscore"} {
		hit := false
		for _, p := range internalLanguage {
			if !p.re.MatchString(s) {
				continue
			}
			hit = true
			if !slices.Contains(internalPatterns(nil, s), p.re) {
				t.Errorf("%q matches %v but the prefilter skips it", s, p.re)
			}
		}
		if !hit {
			t.Errorf("%q: no pattern matches (test data is wrong)", s)
		}
		if ps := findProblems(s, nil, nil); len(ps) != 1 {
			t.Errorf("findProblems(%q) = %v, want the sentence", s, ps)
		}
	}
	// Words that merely hold "ai" or "bot" run no expression.
	if ps := internalPatterns(nil, "Explain it again: both sides are equal, as we said."); len(ps) > 0 {
		t.Errorf("a plain reply runs %d expressions", len(ps))
	}
}

// A right intermediate step at the third attempt leaves the question in
// the hint phase, so the reply must still keep its answer back, though
// the guardrails worked out before the tutor's move would allow it.
func TestRightStepKeepsTheAnswerProtected(t *testing.T) {
	s := tutor.State{Mode: tutor.ModeTeachMe, CurrentStep: 1, LastQuestion: &tutor.Question{
		QuestionText: "₹900 is shared 4 : 5. How much does Bina get?", ExpectedAnswer: "500", Concept: "Sharing",
		Phase: tutor.PhaseHint, WrongAttempts: 2, HintsUsed: 2,
	}}
	turn := agents.Turn{State: s, Guard: tutor.Guarded{MayRevealAnswer: true}}
	pending := func(ps []protected) bool {
		for _, p := range ps {
			if p.expected.Answer == "500" {
				return true
			}
		}
		return false
	}
	wrong := &tutor.Outcome{Verdict: answer.Incorrect, Output: &tutor.TutorOutput{Response: "Let's work through it."}}
	if pending(protectedAnswers(turn, wrong)) {
		t.Error("the third wrong answer: the answer stays protected in the explain phase")
	}
	step := &tutor.Outcome{Verdict: answer.Incorrect, Output: &tutor.TutorOutput{Response: "Yes, one part is 100.", RightStep: "one part is 100"}}
	if !pending(protectedAnswers(turn, step)) {
		t.Error("a right step at the third attempt: the answer is not protected")
	}
}

// A teach_me reply that tells the learner the opposite of the evaluator's
// verdict, or says goodbye to a lesson the guardrails keep going, is not
// shown as it is. Praise of effort, of a part, and judgement further on
// in the reply are no contradiction.
func TestMoveProblems(t *testing.T) {
	topic := &tutor.Topic{Steps: []tutor.Step{{ID: 1, Concept: "Doubling"}, {ID: 2, Concept: "Doubling"}, {ID: 3, Concept: "Halving"}}}
	pending := &tutor.Question{QuestionText: "What is double 7?", ExpectedAnswer: "14", Concept: "Doubling", Phase: tutor.PhaseAsked}
	turn := agents.Turn{State: tutor.State{Mode: tutor.ModeTeachMe, CurrentStep: 1, LastQuestion: pending}, Topic: topic}
	tests := []struct {
		name     string
		verdict  answer.Verdict
		reply    string
		complete bool
		want     string // the reason, "" for none
	}{
		{"praise for a wrong answer", answer.Incorrect, "Yes, that's right! Well done.", false, reasonPraisesWrong},
		{"you got it for a wrong answer", answer.Incorrect, "You got it! Now try double 8.", false, reasonPraisesWrong},
		{"correct! for a wrong answer", answer.Incorrect, "Correct! Two 7s make it.", false, reasonPraisesWrong},
		{"you're absolutely right for a wrong answer", answer.Incorrect, "Hmm. You’re absolutely right!", false, reasonPraisesWrong},
		{"praise of effort", answer.Incorrect, "Good try! What do you get when you add 7 and 7?", false, ""},
		{"praise of a part", answer.Incorrect, "You're right that we need two 7s. Now add them.", false, ""},
		{"well done for trying", answer.Incorrect, "Well done for having a go. Let's add 7 and 7.", false, ""},
		{"a check, not a judgement", answer.Incorrect, "Let's see if that's right. Add 7 and 7.", false, ""},
		{"exactly how many", answer.Incorrect, "Exactly how many 7s do we need?", false, ""},
		{"praise for a right answer", answer.Correct, "Yes, that's right! Well done.", false, ""},
		{"not quite for a right answer", answer.Correct, "Not quite. Try adding again.", false, reasonFaultsRight},
		{"that's wrong for a right answer", answer.Correct, "Hmm, that's not correct.", false, reasonFaultsRight},
		{"try again for a right answer", answer.Correct, "Let's see. Try again!", false, reasonFaultsRight},
		{"try adding again for a right answer", answer.Correct, "Hmm. Try adding again.", false, reasonFaultsRight},
		{"try doing it again for a right answer", answer.Correct, "Let's see. Try doing it again!", false, reasonFaultsRight},
		{"practice again with a new question", answer.Correct, "Great! Let's try doubling again with 9.", false, ""},
		{"practice again", answer.Correct, "Great! Let's try doubling again.", false, ""},
		{"practice another skill again", answer.Correct, "Well done! Let's try halving again.", false, ""},
		{"practice again, now", answer.Correct, "Great! Now let's try halving again.", false, ""},
		{"try adding again after a comma for a right answer", answer.Correct, "Hmm, try adding again.", false, reasonFaultsRight},
		{"not quite for a wrong answer", answer.Incorrect, "Not quite. Try adding again.", false, ""},
		{"a mistake named further on", answer.Correct, "Yes! 7 and 7 make 14. Many people get this wrong. That's wrong, say some.", false, ""},
		{"try again with a new question", answer.Correct, "Great! Let's try again with double 9.", false, ""},
		{"no verdict", "", "Not quite. Try adding again.", false, ""},
		{"partly right", answer.Partial, "That's right! Well done.", false, ""},
		{"goodbye before the final step", "", "That's the end of our lesson for today. See you next time!", true, reasonEndsEarly},
		{"goodbye without ending", "", "Great work today, see you next time!", false, ""},
		{"ending early without a goodbye", "", "Doubling means two equal groups.", true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := &tutor.Outcome{Verdict: tt.verdict, Output: &tutor.TutorOutput{Response: tt.reply, SessionComplete: tt.complete}}
			ps := moveProblems(turn, out, tt.reply)
			switch {
			case tt.want == "" && len(ps) > 0:
				t.Fatalf("moveProblems(%q) = %v, want none", tt.reply, ps)
			case tt.want != "" && !slices.ContainsFunc(ps, func(p problem) bool { return p.reason == tt.want }):
				t.Fatalf("moveProblems(%q) = %v, want %q", tt.reply, ps, tt.want)
			}
			if tt.want != "" && !strings.Contains(correction(ps), moveCorrections[tt.want]) {
				t.Errorf("correction %q does not say %q", correction(ps), moveCorrections[tt.want])
			}
		})
	}
	// On the final step the lesson may end with a goodbye.
	last := turn
	last.State.CurrentStep = 3
	out := &tutor.Outcome{Output: &tutor.TutorOutput{Response: "See you next time!", SessionComplete: true}}
	if ps := moveProblems(last, out, out.Output.Response); len(ps) > 0 {
		t.Errorf("a goodbye on the final step: %v", ps)
	}
}

// In a language other than English the answer phrases are not read: any
// statement of a pending numeric answer's value is a leak, but not the
// question's numbers, nor the learner's own.
func TestLeakInTheLearnersLanguage(t *testing.T) {
	pending := &tutor.Question{QuestionText: "What is double 7?", ExpectedAnswer: "14", Concept: "Doubling", Phase: tutor.PhaseAsked}
	for _, tt := range []struct {
		lang, reply string
		leak        bool
	}{
		{"hi", "अच्छी कोशिश! सही उत्तर 14 है।", true},
		{"hi-IN", "Jawab 14 hai.", true},
		{"es", "¡Buen intento! La respuesta correcta es 14.", true},
		{"hi", "अच्छी कोशिश! 7 को दो बार लिखो और जोड़ो।", false},
		{"hi", "तुमने 12 कहा। 7 + 7 कितना होता है?", false},
		{"en", "Jawab 14 hai.", false},
		{"", "Jawab 14 hai.", false},
		{"English", "Jawab 14 hai.", false},
	} {
		s := tutor.State{Mode: tutor.ModeTeachMe, LastQuestion: pending, StudentContext: tutor.StudentContext{Language: tt.lang}}
		turn := agents.Turn{State: s, Message: "12"}
		out := &tutor.Outcome{Verdict: answer.Incorrect, Output: &tutor.TutorOutput{Response: tt.reply}}
		ps := findProblems(tt.reply, protectedAnswers(turn, out), dialogue(s, "12"))
		if (len(ps) > 0) != tt.leak {
			t.Errorf("language %q, reply %q: problems %v, want a leak: %v", tt.lang, tt.reply, ps, tt.leak)
		}
	}
}
