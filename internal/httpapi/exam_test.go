package httpapi_test

import (
	"testing"
)

// examAt creates exam sessions on subtopic key until one draws the bank
// question qid, passes the questions before it, and returns the session id
// and qid's index.
func (s *apiServer) examAt(t *testing.T, key, qid, tok string) (string, int) {
	t.Helper()
	for try := 0; try < 30; try++ {
		id := s.newSession(key, "exam", tok)
		for i, q := range s.docAsAdmin(t, id)["exam_questions"].([]any) {
			if q.(map[string]any)["question_id"] != qid {
				continue
			}
			for j := 0; j < i; j++ {
				s.stepOK(t, id, "pass", tok)
			}
			return id, i
		}
	}
	t.Fatalf("%s: question %s never drawn", key, qid)
	return "", 0
}

// At "What is 2/9 + 5/9?" in an exam the learner writes "I don't know,
// 5/9". It got "Let's stay with the exam." with nothing recorded, while
// the same hedge around the right answer was credited at once: the re-ask
// told the learner the guess was wrong, and "I don't know," before each
// guess bought guesses until the right one (CONTRACT §9.7: correctness is
// not revealed mid-exam). A value of the kind asked is an answer, hedged or
// not.
func TestHedgedExamAnswerIsJudged(t *testing.T) {
	s := newServer(t)
	tok := token(t, "hedging-examinee", false)
	for _, hedge := range []string{"I don't know, ", "not sure... "} {
		id, i := s.examAt(t, fractions, "like-1", tok)
		first := s.stepOK(t, id, hedge+"5/9", tok)["next_turn"].(map[string]any)["message"].(string)
		s.stepOK(t, id, hedge+"7/9", tok)
		q := s.docAsAdmin(t, id)["exam_questions"].([]any)[i].(map[string]any)
		if q["result"] == "correct" {
			t.Errorf("%q then %q to %q: recorded %v (%q) after a second guess; the first reply was %q",
				hedge+"5/9", hedge+"7/9", q["question_text"], q["result"], q["student_answer"], first)
		}
	}
}
