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
	threeQuarters := protected{answer.Expected{Answer: "3/4", Kind: answer.KindFraction}, "What is 1/4 + 2/4?"}
	fourteen := protected{answer.Expected{Answer: "14", Kind: answer.KindInteger}, "What is double 7?"}
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
	p := protected{answer.Expected{Answer: "14", Kind: answer.KindInteger}, "What is double 7?"}
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
