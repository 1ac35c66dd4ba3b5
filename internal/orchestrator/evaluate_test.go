package orchestrator

import (
	"testing"

	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

// TestAlsoWrong: a reply that gives the right answer and the question's
// known wrong one is a hedge, not a right answer.
func TestAlsoWrong(t *testing.T) {
	topic := &tutor.Topic{Questions: []tutor.BankQuestion{{ID: "gas", Text: "Which gas do plants take in?", Answer: "carbon dioxide",
		Misconception: "Says oxygen.", MisconceptionAnswers: []string{"oxygen"}}}}
	exp := answer.Expected{Answer: "carbon dioxide"}
	tests := []struct {
		reply string
		want  answer.Verdict
	}{
		{"carbon dioxide", answer.Correct},
		{"it's carbon dioxide, not oxygen", answer.Correct},
		{"oxygen and carbon dioxide", answer.NotAttempt},
		{"carbon dioxide or oxygen", answer.NotAttempt},
		{"oxygen", answer.Incorrect},
	}
	for _, tt := range tests {
		if got := alsoWrong(answer.Evaluate(exp, tt.reply), topic, "gas", tt.reply); got.Verdict != tt.want {
			t.Errorf("%q: %s (%s), want %s", tt.reply, got.Verdict, got.Reason, tt.want)
		}
	}
	// A question whose right answer holds the wrong one's words is left alone.
	carbon := &tutor.Topic{Questions: []tutor.BankQuestion{{ID: "c", Answer: "carbon dioxide", Misconception: "Says carbon.", MisconceptionAnswers: []string{"carbon"}}}}
	if got := alsoWrong(answer.Evaluate(exp, "carbon dioxide"), carbon, "c", "carbon dioxide"); got.Verdict != answer.Correct {
		t.Errorf("right answer holding the wrong one: %s", got.Verdict)
	}
}

// TestEchoed: repeating the question's value is not a partly right answer.
func TestEchoed(t *testing.T) {
	tests := []struct {
		question, answer, reply string
		want                    answer.Verdict
	}{
		{"Write 0.35 as a percentage.", "35%", "0.35", answer.Incorrect},
		{"Write 0.35 as a percentage.", "35%", "35", answer.Partial},
		{"Write 0.35 as a percentage.", "35%", "35%", answer.Correct},
		{"Simplify 6/10.", "3/5", "6/10", answer.Incorrect},
		{"What is 7/10 - 3/10 in its simplest form?", "2/5", "4/10", answer.Partial},
	}
	for _, tt := range tests {
		exp := answer.Expected{Answer: tt.answer, Simplest: true, RequireUnit: true}
		if got := echoed(answer.Evaluate(exp, tt.reply), tt.question); got.Verdict != tt.want {
			t.Errorf("%q for %q: %s (%s), want %s", tt.reply, tt.question, got.Verdict, got.Reason, tt.want)
		}
	}
}
