package tutor

import (
	"slices"
	"strings"

	"github.com/tutord/tutord/internal/tutor/answer"
)

// Strategy is the teaching move a pending question calls for, by the number
// of wrong attempts so far.
type Strategy string

// The strategies.
const (
	StrategyEvaluate Strategy = "evaluate" // no wrong attempt yet: judge the answer
	StrategyProbe    Strategy = "probe"    // 1: a probing question (level-1 hint)
	StrategyHint     Strategy = "hint"     // 2: a targeted hint (level 2)
	StrategyExplain  Strategy = "explain"  // 3: explain directly, with a different method
	StrategyChange   Strategy = "change"   // 4+: step back to a prerequisite or smaller pieces
)

// phaseFor returns the phase after a number of wrong attempts: 1st wrong →
// probe, 2nd → hint, 3rd and later → explain.
func phaseFor(wrong int) Phase {
	switch {
	case wrong <= 0:
		return PhaseAsked
	case wrong == 1:
		return PhaseProbe
	case wrong == 2:
		return PhaseHint
	}
	return PhaseExplain
}

// Strategy returns the move the question calls for now.
func (q Question) Strategy() Strategy {
	switch {
	case q.WrongAttempts <= 0:
		return StrategyEvaluate
	case q.WrongAttempts == 1:
		return StrategyProbe
	case q.WrongAttempts == 2:
		return StrategyHint
	case q.WrongAttempts == 3:
		return StrategyExplain
	}
	return StrategyChange
}

// HintLevel returns the rung of the hint ladder the question is on: 0 when
// asked, 1 at the probe, 2 at the hint, 3 once it is to be explained. A
// level-2 hint cannot come before level 1: levels follow wrong attempts.
func (q Question) HintLevel() int {
	switch q.Phase {
	case PhaseProbe:
		return 1
	case PhaseHint:
		return 2
	case PhaseExplain:
		return 3
	}
	return 0
}

// MaxHints is the number of hint levels before the explain phase: a nudge,
// then the first step.
const MaxHints = 2

// NextHint returns the hint level (1 or 2) a reply that gives a hint now
// should use: the one after those already given (HintsUsed), and at least
// the level of the rung that wrong attempts (this reply's included) have
// reached. It never goes past MaxHints: the worked solution is not a hint.
func (q Question) NextHint(wrongAttempts int) int {
	return min(max(q.HintsUsed+1, wrongAttempts, 1), MaxHints)
}

// Hint returns the question's own hint for the current rung (levels 1 and
// 2), when the question has one.
func (q Question) Hint() (string, bool) {
	l := q.HintLevel()
	if l < 1 || l > 2 || l > len(q.Hints) || q.Hints[l-1] == "" {
		return "", false
	}
	return q.Hints[l-1], true
}

// CountedMisconception reports whether bq's misconception has already been
// counted for q, its pending question: recorded (MisconceptionCounted), or,
// for a state saved before that was kept, shown by a previous answer.
func (q Question) CountedMisconception(bq BankQuestion) bool {
	return q.MisconceptionCounted || slices.ContainsFunc(q.PreviousStudentAnswers, bq.ShowsMisconception)
}

// askedQuestion returns the question asked this turn, if any: the bank
// question the engine chose, else the one the tutor wrote. Its concept is a
// plan concept when possible, else the current step's.
func askedQuestion(t *Topic, out *TutorOutput, next *BankQuestion, fallback string, now Time) *Question {
	if next != nil {
		concept, ok := t.canonicalConcept(next.Concept)
		if !ok {
			concept = fallback
		}
		return &Question{
			QuestionText:           next.Text,
			ExpectedAnswer:         next.Answer,
			Concept:                concept,
			Hints:                  append([]string{}, next.Hints...),
			PreviousStudentAnswers: []string{},
			Phase:                  PhaseAsked,
			QuestionID:             next.ID,
			AnswerKind:             next.Kind,
			AskedAt:                &now,
		}
	}
	qa := text(out.QuestionAsked)
	if qa == "" {
		return nil
	}
	concept := text(out.QuestionConcept)
	if concept == "" {
		concept = fallback
	}
	// A model may write its expected answer as a statement ("Double 8 is
	// 16."): the evaluator judges the learner against the value it states.
	return &Question{
		QuestionText:           qa,
		ExpectedAnswer:         answer.StatedValue(text(out.ExpectedAnswer)),
		Concept:                concept,
		Hints:                  []string{},
		PreviousStudentAnswers: []string{},
		Phase:                  PhaseAsked,
		AskedAt:                &now,
	}
}

// applyLifecycle runs the five cases of the question lifecycle:
//
//  1. a wrong answer on a pending question: count it, remember it, climb
//     the ladder; the question stays pending;
//  2. a right answer: clear the question, then track a new one if asked;
//  3. a new question and none pending: track it;
//  4. a new question on another concept: it replaces the pending one;
//  5. a tutor's follow-up on the same concept: the lifecycle goes on.
//
// A bank question chosen by the engine always starts a new lifecycle when
// its id differs from the pending one: its answer is what the evaluator
// checks next.
func applyLifecycle(n *State, t *Topic, out *TutorOutput, next *BankQuestion, msg, fallback string, now Time) []Event {
	var ev []Event
	asked := askedQuestion(t, out, next, fallback, now)
	q := n.LastQuestion
	set := func(nq *Question, replaced bool) {
		n.LastQuestion = nq
		ev = append(ev, QuestionAsked{Concept: nq.Concept, QuestionID: nq.QuestionID, Replaced: replaced})
	}
	switch {
	case out.AnswerCorrect != nil && !*out.AnswerCorrect && q != nil:
		q.WrongAttempts++
		q.HintsUsed = min(max(q.HintsUsed+1, q.WrongAttempts), MaxHints)
		q.PreviousStudentAnswers = pushCapped(q.PreviousStudentAnswers, truncateRunes(msg, previousAnswerRunes), maxPreviousAnswers)
		ev = append(ev, WrongAnswer{Concept: q.Concept, WrongAttempts: q.WrongAttempts})
		if p := phaseFor(q.WrongAttempts); p != q.Phase {
			ev = append(ev, PhaseChanged{From: q.Phase, To: p, WrongAttempts: q.WrongAttempts})
			q.Phase = p
		}
		switch {
		case asked == nil:
		case asked.QuestionID != "" && asked.QuestionID != q.QuestionID:
			set(asked, true)
		case q.QuestionID == "":
			// The reference's follow-up rule: the probe becomes the question.
			// A bank question keeps its own text and answer, which the
			// evaluator goes on checking.
			q.QuestionText = asked.QuestionText
			if asked.ExpectedAnswer != "" {
				q.ExpectedAnswer = asked.ExpectedAnswer
			}
		}
	case out.AnswerCorrect != nil && *out.AnswerCorrect:
		if q != nil {
			n.LastQuestion = nil
			ev = append(ev, QuestionCleared{Concept: q.Concept})
		}
		if asked != nil {
			set(asked, false)
		}
	case asked == nil:
	case q == nil:
		set(asked, false)
	case asked.Concept != q.Concept || (asked.QuestionID != "" && asked.QuestionID != q.QuestionID):
		set(asked, true)
	}
	if q != nil && n.LastQuestion == q && out != nil {
		// The question goes on: what this turn gave towards it, and the
		// step the learner reached, are kept with it.
		q.CluesGiven = addCapped(q.CluesGiven, maxRecorded, out.Clues...)
		// A hint of the question given for help asked ("give me a hint",
		// "I'm stuck") counts as given, as one for "I don't know" does.
		for i, h := range q.Hints[:min(len(q.Hints), MaxHints)] {
			if slices.Contains(out.Clues, h) {
				q.HintsUsed = max(q.HintsUsed, i+1)
			}
		}
		if out.RightStep != "" {
			q.StepsShown = addCapped(q.StepsShown, maxRecorded, out.RightStep)
		}
	}
	n.AwaitingResponse = n.LastQuestion != nil
	return ev
}

// maxRecorded bounds Question.CluesGiven and StepsShown: a question has two
// hints, a few steps and one explanation again.
const maxRecorded = 12

// addCapped appends the values of vs that s lacks, keeping the last max.
func addCapped(s []string, max int, vs ...string) []string {
	for _, v := range vs {
		if v = strings.TrimSpace(v); v != "" && !slices.Contains(s, v) {
			s = pushCapped(s, v, max)
		}
	}
	return s
}

// pushCapped appends v and keeps the last max elements. It shifts in place
// when full, so s must not share its array with another State: ApplyTurn
// only calls it on the clone it owns.
func pushCapped(s []string, v string, max int) []string {
	if len(s) < max {
		return append(s, v)
	}
	s = s[len(s)-max:]
	copy(s, s[1:])
	s[len(s)-1] = v
	return s
}
