package orchestrator_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tutord/tutord/internal/llm/llmtest"
	"github.com/tutord/tutord/internal/orchestrator"
	"github.com/tutord/tutord/internal/tutor"
)

// Helpers of the exam tests.

const changesOfState = "science/states-of-matter/changes-of-state"

// examOn creates exams on key until one has a question for which want
// holds, answers the questions before it right (with the answer as a
// learner reads it) and returns the session and the question's index.
func examOn(t *testing.T, f *fixture, key string, want func(q tutor.ExamQuestion, tp *tutor.Topic) bool) (orchestrator.Created, int) {
	t.Helper()
	for range 40 {
		c := f.create(t, key, tutor.ModeExam)
		qs, tp := c.Session.State.ExamQuestions, c.Session.Topic
		for i, q := range qs {
			if !want(q, tp) {
				continue
			}
			for _, p := range qs[:i] {
				f.turn(t, c.Session.Row.ID, p.ShownAnswer(tp))
			}
			return c, i
		}
	}
	t.Fatalf("no exam of 40 on %s had the question wanted", key)
	return orchestrator.Created{}, 0
}

// wordAnswer picks a question whose answer is one word (freezing,
// condensation, evaporation, sublimation).
func wordAnswer(q tutor.ExamQuestion, tp *tutor.Topic) bool {
	a := q.ShownAnswer(tp)
	return q.Expected(tp).Kind == "text" && !strings.ContainsAny(a, " 0123456789")
}

// examResult returns the recorded result of exam question i, "" when none.
func examResult(s tutor.State, i int) tutor.Result {
	if r := s.ExamQuestions[i].Result; r != nil {
		return *r
	}
	return ""
}

// generatedExam is an exam generator reply with the given items (text,
// expected answer, concept).
func generatedExam(items ...[3]string) llmtest.Reply {
	var qs []any
	for _, it := range items {
		qs = append(qs, map[string]any{"question_text": it[0], "expected_answer": it[1], "concept": it[2], "difficulty": "easy", "question_type": "procedural"})
	}
	b, _ := json.Marshal(map[string]any{"questions": qs})
	return llmtest.Reply{Text: string(b)}
}

// judgedRight is an exam evaluator reply judging an answer correct.
var judgedRight = llmtest.Reply{Text: `{"answer_correct": true, "mastery_signal": "strong", "feedback": "Right.", "reasoning": "matches the expected answer"}`}
