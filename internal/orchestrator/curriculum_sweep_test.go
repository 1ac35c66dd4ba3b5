package orchestrator_test

// A sweep of every subtopic of the shipped curriculum, in the three
// modes, through the orchestrator with the default rules engine.

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tutord/tutord/curricula"
	"github.com/tutord/tutord/internal/curriculum"
	"github.com/tutord/tutord/internal/orchestrator"
	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

// sweepKeys returns the full keys of the shipped curriculum's subtopics.
func sweepKeys(t *testing.T) []string {
	t.Helper()
	files, err := curriculum.LoadFS(curricula.FS())
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, f := range files {
		for _, g := range f.Guidelines() {
			keys = append(keys, g.Key)
		}
	}
	slices.Sort(keys)
	return keys
}

// sweepTranscript keeps the last exchanges of a session for failure messages.
type sweepTranscript struct{ lines []string }

func (tr *sweepTranscript) add(who, text string) {
	tr.lines = append(tr.lines, who+": "+text)
	if len(tr.lines) > 12 {
		tr.lines = tr.lines[len(tr.lines)-12:]
	}
}

func (tr *sweepTranscript) String() string { return "\n    " + strings.Join(tr.lines, "\n    ") }

// sweepPhaseFor is tutor.phaseFor: the phase after a number of wrong attempts.
func sweepPhaseFor(wrong int) tutor.Phase {
	switch {
	case wrong <= 0:
		return tutor.PhaseAsked
	case wrong == 1:
		return tutor.PhaseProbe
	case wrong == 2:
		return tutor.PhaseHint
	}
	return tutor.PhaseExplain
}

// sweepInvariants checks the tutor package's invariants (property_test.go)
// that a single state shows.
func sweepInvariants(t *testing.T, se orchestrator.Session) error {
	s, tp := se.State, se.Topic
	plan := tp.Concepts()
	for _, cs := range s.MasteryEstimates {
		if !(cs.Score >= 0 && cs.Score <= 1) {
			return fmt.Errorf("mastery %q = %v", cs.Concept, cs.Score)
		}
		if s.Mode == tutor.ModeTeachMe && !slices.Contains(plan, cs.Concept) {
			return fmt.Errorf("mastery of %q outside the plan %v", cs.Concept, plan)
		}
	}
	if s.Mode != tutor.ModeTeachMe && len(s.MasteryEstimates) != 0 {
		return fmt.Errorf("%s has mastery %v", s.Mode, s.MasteryEstimates)
	}
	if s.CurrentStep < 1 || s.CurrentStep > tp.TotalSteps()+1 {
		return fmt.Errorf("current step %d of %d", s.CurrentStep, tp.TotalSteps())
	}
	for _, c := range s.ConceptsCovered {
		if !slices.Contains(plan, c) {
			return fmt.Errorf("covered %q outside the plan %v", c, plan)
		}
	}
	if s.Mode == tutor.ModeTeachMe && s.IsComplete(tp) {
		if s.CurrentStep != tp.TotalSteps()+1 {
			return fmt.Errorf("complete on step %d of %d", s.CurrentStep, tp.TotalSteps())
		}
		for _, c := range plan {
			if !slices.Contains(s.ConceptsCovered, c) {
				return fmt.Errorf("complete but %q not covered (%v)", c, s.ConceptsCovered)
			}
		}
	}
	withResult := 0
	for i, q := range s.ExamQuestions {
		if q.QuestionIdx != i {
			return fmt.Errorf("exam question %d has index %d", i, q.QuestionIdx)
		}
		if q.Result != nil {
			withResult++
		}
	}
	if n := s.ExamTotalCorrect + s.ExamTotalPartial + s.ExamTotalIncorrect; n != withResult || n != s.ExamCurrentIdx {
		return fmt.Errorf("exam totals %d, results %d, index %d", n, withResult, s.ExamCurrentIdx)
	}
	if s.ExamFinished && s.ExamFeedback == nil {
		return fmt.Errorf("finished exam without feedback")
	}
	if s.AwaitingResponse != (s.LastQuestion != nil) {
		return fmt.Errorf("awaiting_response %v with question %v", s.AwaitingResponse, s.LastQuestion)
	}
	if q := s.LastQuestion; q != nil && q.Phase != sweepPhaseFor(q.WrongAttempts) {
		return fmt.Errorf("question phase %s after %d wrong attempts", q.Phase, q.WrongAttempts)
	}
	return nil
}

// sweepInternal is internal language no reply may hold.
var sweepInternal = []string{"the student", "the learner", "expected_answer", "answer_correct", "mastery_", "question_asked",
	"turn_summary", "advance_to_step", "session_complete", "as an ai", "{\"", "\":"}

// sweepCheckReply returns what is wrong with a teach_me reply: empty,
// internal language, or the pending question's answer given before its
// explain phase.
func sweepCheckReply(r orchestrator.TurnResult) string {
	reply := r.Reply
	if strings.TrimSpace(reply) == "" {
		return "empty reply"
	}
	low := strings.ToLower(reply)
	for _, bad := range sweepInternal {
		if strings.Contains(low, bad) {
			return fmt.Sprintf("internal language %q", bad)
		}
	}
	s := r.Session.State
	if q := s.LastQuestion; q != nil && q.Phase != tutor.PhaseExplain && s.Mode == tutor.ModeTeachMe {
		hist := s.History
		if n := len(hist); n > 0 && hist[n-1].Role != tutor.RoleStudent {
			hist = hist[:n-1] // the reply itself
		}
		var dl []answer.Utterance
		for _, m := range hist {
			role := answer.RoleTutor
			if m.Role == tutor.RoleStudent {
				role = answer.RoleStudent
			}
			dl = append(dl, answer.Utterance{Role: role, Text: m.Content})
		}
		leaks := answer.DetectLeaks(answer.LeakCheck{Expected: q.Expected(r.Session.Topic), Question: q.QuestionText, Dialogue: dl, Reply: reply, Quoted: []string{q.QuestionText}})
		if len(leaks) > 0 {
			return fmt.Sprintf("the answer %q of the pending question %q (phase %s) is given away: %q (%s)", q.ExpectedAnswer, q.QuestionText, q.Phase, leaks[0].Sentence.Text, leaks[0].Reason)
		}
	}
	return ""
}

// sweepWrong returns an answer to bq that the evaluator judges wrong.
func sweepWrong(bq tutor.BankQuestion) string {
	exp := bq.Expected()
	cands := slices.Clone(bq.MisconceptionAnswers)
	if len(bq.Options) > 0 {
		cands = slices.Clone(bq.Options) // the wrong ones' texts (no letters may be shown)
	}
	cands = append(cands, "987", "-987", "987/1000", "9 1/7", "98.7%", "987 cm", "no", "yes", "sunlight", "melting", "gas", "x + 987", "9:87", "1, 2, 3")
	for _, c := range cands {
		if answer.Evaluate(exp, c).Verdict == answer.Incorrect {
			return c
		}
	}
	return "987"
}

// sweepRight is the expected answer of a pending question, as the learner
// reads it (a choice question's option text: its letters may not be shown).
func sweepRight(q tutor.Question, bq tutor.BankQuestion) string {
	if bq.ID != "" {
		return bq.ShownAnswer()
	}
	return q.ExpectedAnswer
}

// sweepLearner plays a teach_me lesson. onQuestion picks the message to a
// pending question from the number of times it was already answered.
type sweepLearner func(q tutor.Question, bq tutor.BankQuestion, tries int) string

// sweepLesson plays a teach_me lesson on key to its end with learner, within
// maxTurns turns, and reports every problem met.
func sweepLesson(t *testing.T, f *fixture, key string, learner sweepLearner, maxTurnsPerStep int, wantExplain bool) {
	t.Helper()
	c := f.create(t, key, tutor.ModeTeachMe)
	id := c.Session.Row.ID
	tr := &sweepTranscript{}
	tr.add("tutor", c.Welcome)
	total := c.Session.Topic.TotalSteps()
	maxTurns := maxTurnsPerStep * total
	tries := map[string]int{}
	msg := "yes, I'm ready"
	var r orchestrator.TurnResult
	sawExplain := false
	for turn := 1; ; turn++ {
		if turn > maxTurns {
			t.Fatalf("%s: not complete after %d turns (%d steps), on step %d:%s", key, maxTurns, total, r.Session.State.CurrentStep, tr)
		}
		tr.add("learner", msg)
		var err error
		r, err = f.o.ProcessTurn(t.Context(), id, msg, "")
		if err != nil {
			t.Fatalf("%s: turn %d %q: %v%s", key, turn, msg, err, tr)
		}
		tr.add("tutor", r.Reply)
		if p := sweepCheckReply(r); p != "" {
			t.Fatalf("%s: turn %d: %s%s", key, turn, p, tr)
		}
		if err := sweepInvariants(t, r.Session); err != nil {
			t.Fatalf("%s: turn %d: invariant: %v%s", key, turn, err, tr)
		}
		s := r.Session.State
		if s.IsComplete(r.Session.Topic) {
			break
		}
		q := s.LastQuestion
		if q == nil {
			msg = "ok"
			continue
		}
		if q.Phase == tutor.PhaseExplain {
			sawExplain = true
		}
		bq, _ := r.Session.Topic.Question(q.QuestionID)
		k := q.QuestionID + "|" + q.QuestionText
		msg = learner(*q, bq, tries[k])
		tries[k]++
	}
	if wantExplain && !sawExplain {
		t.Errorf("%s: the learner never reached the explain phase%s", key, tr)
	}
	se, err := f.o.Load(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if se.Row.Summary.IsComplete != true {
		t.Errorf("%s: summary not complete: %+v", key, se.Row.Summary)
	}
}

// TestSweepTeachMeRightLearner: on every shipped subtopic, a
// learner who answers every question with its expected answer (and says
// "ok" otherwise) finishes the lesson within 6 turns a step, with every
// reply non-empty, free of internal language and of the pending answer,
// and the state's invariants holding throughout.
func TestSweepTeachMeRightLearner(t *testing.T) {
	f := setup(t)
	for _, key := range sweepKeys(t) {
		t.Run(key, func(t *testing.T) {
			sweepLesson(t, f, key, func(q tutor.Question, bq tutor.BankQuestion, _ int) string {
				return sweepRight(q, bq)
			}, 6, false)
		})
	}
}

// TestSweepTeachMeWrongThrice: on every shipped subtopic, a
// learner who answers every question wrong three times gets the
// explanation (the explain phase), then answers right and finishes.
func TestSweepTeachMeWrongThrice(t *testing.T) {
	f := setup(t)
	for _, key := range sweepKeys(t) {
		t.Run(key, func(t *testing.T) {
			sweepLesson(t, f, key, func(q tutor.Question, bq tutor.BankQuestion, tries int) string {
				if tries < 3 && q.Phase != tutor.PhaseExplain && bq.ID != "" {
					return sweepWrong(bq)
				}
				return sweepRight(q, bq)
			}, 24, true)
		})
	}
}

// TestSweepTeachMeIDKThrice: on every shipped subtopic, a learner
// who says "I don't know" three times on every concept's questions, then
// answers,
// finishes the lesson, with no reply giving the answer away before the
// explain phase.
func TestSweepTeachMeIDKThrice(t *testing.T) {
	f := setup(t)
	for _, key := range sweepKeys(t) {
		t.Run(key, func(t *testing.T) {
			idk := map[string]int{} // by concept: the tutor may change question after an "I don't know"
			sweepLesson(t, f, key, func(q tutor.Question, bq tutor.BankQuestion, tries int) string {
				if idk[q.Concept] < 3 {
					idk[q.Concept]++
					return "I don't know"
				}
				return sweepRight(q, bq)
			}, 24, false)
		})
	}
}

// sweepMix counts the difficulties of an exam's questions.
func sweepMix(qs []tutor.ExamQuestion) (e, m, h int) {
	for _, q := range qs {
		switch q.Difficulty {
		case tutor.Easy:
			e++
		case tutor.Medium:
			m++
		case tutor.Hard:
			h++
		}
	}
	return
}

// TestSweepExam: on every shipped subtopic an exam can be created
// with 7 questions in the 2/4/1 difficulty mix (when the bank allows it);
// answering every question right (as the learner reads the answer, and by
// the stored answer) scores N/N with the feedback of CONTRACT §9.7, and
// answering every one wrong scores 0 with its feedback.
func TestSweepExam(t *testing.T) {
	f := setup(t)
	for _, key := range sweepKeys(t) {
		t.Run(key, func(t *testing.T) {
			for _, mode := range []string{"shown", "wrong"} {
				c := f.create(t, key, tutor.ModeExam)
				id, tp := c.Session.Row.ID, c.Session.Topic
				qs := c.Session.State.ExamQuestions
				bank := tp.Questions
				var be, bm, bh int
				for _, q := range bank {
					switch q.Difficulty {
					case tutor.Easy:
						be++
					case tutor.Medium:
						bm++
					case tutor.Hard:
						bh++
					}
				}
				if want := min(7, len(bank)); len(qs) != want {
					t.Fatalf("%s: %d exam questions, want %d (bank %d)", key, len(qs), want, len(bank))
				}
				if e, m, h := sweepMix(qs); be >= 2 && bm >= 4 && bh >= 1 && (e != 2 || m != 4 || h != 1) {
					t.Errorf("%s: difficulty mix %d/%d/%d, want 2/4/1", key, e, m, h)
				}
				if !strings.Contains(c.Welcome, qs[0].Prompt()) {
					t.Errorf("%s: the welcome does not ask question 1: %q", key, c.Welcome)
				}
				tr := &sweepTranscript{}
				tr.add("tutor", c.Welcome)
				var r orchestrator.TurnResult
				for i, q := range qs {
					msg := q.ShownAnswer(tp)
					switch mode {
					case "wrong":
						bq, _ := tp.Question(q.QuestionID)
						msg = sweepWrong(bq)
					}
					tr.add("learner", msg)
					r = f.turn(t, id, msg)
					tr.add("tutor", r.Reply)
					if err := sweepInvariants(t, r.Session); err != nil {
						t.Fatalf("%s (%s): invariant: %v%s", key, mode, err, tr)
					}
					res := examResult(r.Session.State, i)
					want := tutor.ResultCorrect
					if mode == "wrong" {
						want = tutor.ResultIncorrect
					}
					if res != want {
						t.Errorf("%s (%s): Q%d %q answered %q (expected %q, %s) judged %q, want %q", key, mode, i+1, q.QuestionText, msg, q.ExpectedAnswer, q.Expected(tp).KindOf(), res, want)
					}
					if i < len(qs)-1 {
						if wantReply := "Got it — let's continue.\n\n" + qs[i+1].Prompt(); r.Reply != wantReply {
							t.Errorf("%s (%s): reply after Q%d %q, want %q", key, mode, i+1, r.Reply, wantReply)
						}
					}
				}
				s := r.Session.State
				n := len(qs)
				if !s.ExamFinished || s.ExamFeedback == nil {
					t.Fatalf("%s (%s): exam not finished after %d answers%s", key, mode, n, tr)
				}
				fb := s.ExamFeedback
				var concepts []string
				for _, q := range qs {
					if !slices.Contains(concepts, q.Concept) {
						concepts = append(concepts, q.Concept)
					}
				}
				var b strings.Builder
				if mode == "wrong" {
					fmt.Fprintf(&b, "✅ Exam complete!\nFinal Score: **0/%d** (0.0%%)\n\nQuestion Review:\n", n)
					for i, q := range qs {
						if i > 0 {
							b.WriteByte('\n')
						}
						fmt.Fprintf(&b, "Q%d: ❌ Incorrect (answer: %s)", i+1, q.ShownAnswer(tp))
					}
					if fb.Score != 0 || fb.Total != n || fb.Percentage != 0 || len(fb.Strengths) != 0 ||
						!slices.Equal(fb.WeakAreas, concepts) || !slices.Equal(fb.Patterns, []string{"More practice needed across concepts"}) ||
						len(fb.NextSteps) == 0 || fb.NextSteps[0] != "Review these concepts in Teach Me: "+strings.Join(concepts[:min(3, len(concepts))], ", ") {
						t.Errorf("%s (%s): feedback %+v", key, mode, *fb)
					}
				} else {
					fmt.Fprintf(&b, "✅ Exam complete!\nFinal Score: **%d/%d** (100.0%%)\n\nQuestion Review:\n", n, n)
					for i := range qs {
						if i > 0 {
							b.WriteByte('\n')
						}
						fmt.Fprintf(&b, "Q%d: ✅ Correct", i+1)
					}
					if fb.Score != n || fb.Total != n || fb.Percentage != 100 || !slices.Equal(fb.Strengths, concepts) ||
						len(fb.WeakAreas) != 0 || !slices.Equal(fb.Patterns, []string{"Overall strong performance"}) {
						t.Errorf("%s (%s): feedback %+v", key, mode, *fb)
					}
				}
				if r.Reply != b.String() {
					t.Errorf("%s (%s): final reply\n%s\nwant\n%s", key, mode, r.Reply, b.String())
				}
			}
		})
	}
}

// sweepNotCovered are the openings of the replies that say the lesson does
// not answer a doubt.
var sweepNotCovered = []string{"doesn't cover that", "isn't something our lesson", "can't answer that from our lesson",
	"What would you like to know about", "Which part of", "That's all our lesson says", "everything our lesson has on it"}

// TestSweepClarifyConcepts: on every shipped subtopic, a learner in
// a doubts session who asks "What is <concept>?" about each concept of the
// study plan gets an answer from the lesson, not "our lesson doesn't
// cover that"; "no thanks" then ends the session.
func TestSweepClarifyConcepts(t *testing.T) {
	f := setup(t)
	for _, key := range sweepKeys(t) {
		t.Run(key, func(t *testing.T) {
			c := f.create(t, key, tutor.ModeClarify)
			for _, concept := range c.Session.Topic.Concepts() {
				c := f.create(t, key, tutor.ModeClarify)
				id := c.Session.Row.ID
				msg := "What is " + strings.ToLower(concept) + "?"
				r := f.turn(t, id, msg)
				if p := sweepCheckReply(r); p != "" {
					t.Errorf("%s: %q: %s: %q", key, msg, p, r.Reply)
				}
				for _, nc := range sweepNotCovered {
					if strings.Contains(r.Reply, nc) {
						t.Errorf("%s: %q got no answer from the lesson: %q", key, msg, r.Reply)
						break
					}
				}
				if r.Session.State.ClarifyComplete {
					t.Errorf("%s: %q ended the session: %q", key, msg, r.Reply)
				}
				r = f.turn(t, id, "no thanks")
				if !r.Session.State.ClarifyComplete || strings.TrimSpace(r.Reply) == "" {
					t.Errorf("%s: \"no thanks\" after %q did not end the session: %q", key, msg, r.Reply)
				}
				if err := sweepInvariants(t, r.Session); err != nil {
					t.Errorf("%s: invariant: %v", key, err)
				}
			}
		})
	}
}
