package runner_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tutord/tutord/internal/eval/evaltest"
	"github.com/tutord/tutord/internal/eval/runner"
	"github.com/tutord/tutord/internal/eval/scenario"
)

// A scenario's outcome does not depend on the scenarios run before it:
// a learner's grade without the subtopic runs on the subtopic's grade
// either way.
func TestGradeOutcomeIsTheSameAloneOrAfterOthers(t *testing.T) {
	url := evaltest.Start(t, evaltest.Options{})
	const plain = `name: plain
subtopic: mathematics/fractions/adding-and-subtracting-fractions
turns:
  - say: Yes, I'm ready.
`
	const graded = `name: graded
subtopic: mathematics/fractions/adding-and-subtracting-fractions
grade: 8
turns:
  - say: Yes, I'm ready.
`
	cfg := runner.Config{BaseURL: url, Auth: runner.Auth{Secret: evaltest.Secret, Admin: adminRule(t)}, Concurrency: 1, Bank: sampleBank(t)}
	alone := runner.Run(context.Background(), cfg, []*scenario.Scenario{parse(t, "graded", graded)})[0]
	after := runner.Run(context.Background(), cfg, []*scenario.Scenario{parse(t, "plain", plain), parse(t, "graded", graded)})[1]
	if alone.Status != after.Status {
		t.Errorf("scenario graded: %s when run alone (%q), %s when run after another scenario on the same subtopic (%q)",
			alone.Status, alone.Error, after.Status, after.Error)
	}
}

// A message answered with an error frame judged nothing: the state after
// it still holds the turn before's result, which is not counted again.
func TestErrorTurnIsNotAnAnswer(t *testing.T) {
	url := evaltest.Start(t, evaltest.Options{})
	doc := `name: long-after-correct
subtopic: mathematics/fractions/adding-and-subtracting-fractions
turns:
  - say: Yes, I'm ready.
  - say: ok
  - say: ok
  - say: ok
  - say: ok
    expect: {state: {question_phase: asked}}
  - answer: correct
    expect: {state: {last_answer_result: correct}}
  - say: ` + strings.Repeat("la", 2100) + `
    expect: {error: characters}
`
	r := runner.Run(context.Background(), runner.Config{BaseURL: url, Auth: runner.Auth{Secret: evaltest.Secret, Admin: adminRule(t)}, Bank: sampleBank(t)},
		[]*scenario.Scenario{parse(t, "long-after-correct", doc)})[0]
	if r.Status != runner.Passed {
		t.Fatalf("%s %v %q", r.Status, r.Failures, r.Error)
	}
	last := r.Turns[len(r.Turns)-1]
	if last.Error == "" {
		t.Fatalf("the long message got no error frame: %+v", last)
	}
	if r.Metrics.AnswersCorrect != 1 {
		t.Errorf("one correct answer and one message refused with an error frame (%q): answers_correct = %d, want 1 (the refused turn's state says last_answer_result %q)",
			last.Error, r.Metrics.AnswersCorrect, last.State.Result())
	}
}
