package tutor

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tutord/tutord/internal/tutor/answer"
)

// DefaultVoiceTimeLimit is the suggested sitting time limit for voice
// sessions. Time limits are off unless a session's Config sets one.
const DefaultVoiceTimeLimit = 25 * time.Minute

// ForcedExplainAttempt is the wrong attempt at which the reply must walk
// through the solution, whatever the tutor chose: a model that keeps
// withholding the answer is made to explain by then.
const ForcedExplainAttempt = 5

// Override names a tutor move that a guardrail changed.
type Override string

// The overrides.
const (
	// The evaluator's verdict replaced the tutor's answer_correct.
	OverrideVerdict Override = "verdict_overrides_answer_correct"
	// The message was not an answer ("I don't know", off-topic, stop, or
	// the evaluator found no attempt), so answer_correct was cleared.
	OverrideNotAnAnswer Override = "not_an_answer"
	// Doubts sessions neither judge answers nor move through steps.
	OverrideClarifyMove Override = "clarify_has_no_answers_or_steps"
	// A doubts session's reply ended the session while inviting another
	// doubt ("Any other doubts?"), the learner having said nothing of
	// stopping: the session goes on.
	OverrideClarifyEndInviting Override = "clarify_end_while_inviting"
	// Exams move by question, not by step.
	OverrideExamStep Override = "exam_has_no_steps"
	// advance_to_step was not ahead of the current step and was dropped.
	OverrideAdvanceNotForward Override = "advance_not_forward"
	// advance_to_step was past the end of the plan and was clamped to
	// total+1, or, from a step before the final one, to the final step.
	OverrideAdvanceClamped Override = "advance_clamped"
	// session_complete came before the final step and was dropped.
	OverrideCompletionEarly Override = "completion_before_final_step"
	// A mastery score outside [0, 1] was clamped.
	OverrideScoreClamped Override = "mastery_score_clamped"
	// A mastery update named a concept outside the plan and was dropped.
	OverrideUnknownConcept Override = "unknown_concept_dropped"
	// question_concept named a concept outside the plan; the step's is used.
	OverrideQuestionConcept Override = "question_concept_replaced"
	// turn_summary was longer than 80 characters and was cut.
	OverrideSummaryCut Override = "turn_summary_cut"
)

// Guarded is a tutor's move after the guardrails.
type Guarded struct {
	// Output is the tutor output to apply; nil when there was none.
	Output *TutorOutput
	// Result is how this turn's answer is judged: for teach_me the pending
	// question's (the deterministic verdict when known, else the tutor's
	// answer_correct), for an exam the result to record. Nil when no answer
	// is judged this turn.
	Result *Result
	// MayRevealAnswer reports whether the reply may state the pending
	// question's answer: once the learner has given it, or in the explain
	// phase that this turn's answer leads to. Never during an exam, and
	// never in reply to "I don't know".
	MayRevealAnswer bool
	// MustExplain reports that the reply must walk through the solution:
	// this is the ForcedExplainAttempt-th wrong attempt or later.
	MustExplain bool
	// TimeUp reports that the sitting has reached its time limit: the turn
	// ends the session (see Stop) and the reply should wrap up.
	TimeUp bool
	// Overrides lists the changes made to the tutor's output.
	Overrides []Override
}

// Guard applies the guardrails to a turn's outcome before the reply is
// shown and the state updated: program code decides correctness where it
// can, the tutor cannot move backwards, past the plan, or to completion
// before the final step, and mastery stays on the plan's concepts in [0, 1].
// s is the state before the turn. Guard is idempotent, and ApplyTurn applies
// it again, so a caller cannot skip it by mistake.
func Guard(s State, t *Topic, o Outcome) Guarded {
	g := Guarded{TimeUp: TimeUp(s, o.Now)}
	// A stop word that is the question's right answer is no stop request,
	// for a caller that guards a turn as for ApplyTurn.
	o.Precheck = o.Precheck.Judged(s, o.Verdict)
	out := o.Output.clone()
	g.Output = out
	notAnswer := o.Precheck == PrecheckIDK || o.Precheck == PrecheckOffTopic || o.Precheck == PrecheckStop

	switch s.Mode {
	case ModeClarify:
		if out != nil {
			if out.AnswerCorrect != nil || out.AdvanceToStep != nil {
				g.override(OverrideClarifyMove)
				out.AnswerCorrect, out.AdvanceToStep = nil, nil
			}
			if (out.SessionComplete || out.Intent == IntentDone) && o.Precheck != PrecheckStop && endsAsking(out.Response) {
				// The learner who takes up the invitation would find
				// the session ended, and get "start a new session".
				g.override(OverrideClarifyEndInviting)
				out.SessionComplete = false
				if out.Intent == IntentDone {
					out.Intent = IntentFollowup
				}
			}
			g.cutSummary(out)
		}
	case ModeExam:
		if out != nil {
			if out.AdvanceToStep != nil {
				g.override(OverrideExamStep)
				out.AdvanceToStep = nil
			}
			if o.Verdict.Known() {
				g.setCorrect(out, o.Verdict == answer.Correct)
			}
			g.cutSummary(out)
		}
		g.Result = examResult(o, out)
	default:
		if out == nil {
			break
		}
		q := s.LastQuestion
		switch {
		case q != nil && out.RightStep != "" && o.Verdict == answer.Incorrect:
			// On the way to the answer: neither judged nor an attempt.
			out.AnswerCorrect = nil
		case q != nil && o.Verdict.Known():
			g.setCorrect(out, o.Verdict == answer.Correct)
			r := verdictResult(o.Verdict)
			g.Result = &r
		case notAnswer || (q != nil && o.Verdict == answer.NotAttempt):
			if out.AnswerCorrect != nil {
				g.override(OverrideNotAnAnswer)
				out.AnswerCorrect = nil
			}
		case out.AnswerCorrect != nil:
			r := ResultIncorrect
			if *out.AnswerCorrect {
				r = ResultCorrect
			}
			g.Result = &r
		}
		g.guardMastery(t, out)
		g.guardSteps(s, t, out)
		g.cutSummary(out)
		if q != nil {
			switch {
			case g.Result != nil && *g.Result == ResultCorrect:
				g.MayRevealAnswer = true
			case out.AnswerCorrect != nil: // judged wrong or partly right
				attempts := q.WrongAttempts + 1
				g.MayRevealAnswer = phaseFor(attempts) == PhaseExplain
				g.MustExplain = attempts >= ForcedExplainAttempt
			default:
				// "I don't know" gets encouragement, never the answer.
				g.MayRevealAnswer = q.Phase == PhaseExplain && o.Precheck != PrecheckIDK
			}
		}
	}
	return g
}

func (g *Guarded) override(o Override) {
	for _, x := range g.Overrides {
		if x == o {
			return
		}
	}
	g.Overrides = append(g.Overrides, o)
}

func (g *Guarded) setCorrect(out *TutorOutput, correct bool) {
	if out.AnswerCorrect == nil || *out.AnswerCorrect != correct {
		g.override(OverrideVerdict)
	}
	out.AnswerCorrect = &correct
}

// guardMastery keeps a teach_me turn's mastery updates on the plan's
// concepts (in the plan's spelling) and in [0, 1]. A concept a model
// invents would otherwise join the mastery keys and, through them, the
// denominator of every coverage figure (the reference's quirk #12).
func (g *Guarded) guardMastery(t *Topic, out *TutorOutput) {
	kept := out.MasteryUpdates[:0]
	for _, u := range out.MasteryUpdates {
		c, ok := t.canonicalConcept(u.Concept)
		if !ok {
			g.override(OverrideUnknownConcept)
			continue
		}
		if v := clamp01(u.Score); v != u.Score {
			g.override(OverrideScoreClamped)
			u.Score = v
		}
		u.Concept = c
		kept = append(kept, u)
	}
	out.MasteryUpdates = kept
	if out.QuestionConcept != nil {
		if c, ok := t.canonicalConcept(*out.QuestionConcept); ok {
			out.QuestionConcept = &c
		} else {
			g.override(OverrideQuestionConcept)
			out.QuestionConcept = nil
		}
	}
}

// guardSteps lets advance_to_step only move forward and at most to
// total_steps+1 (the reference could loop forever past it, quirk #1), and
// honours session_complete only on the final step, after the advance.
// Moving past the plan ends the lesson, so it too is allowed only from the
// final step: from an earlier one the advance stops at the final step, as
// session_complete would ("advance_to_step 99" on the first turn is no
// lesson taught).
func (g *Guarded) guardSteps(s State, t *Topic, out *TutorOutput) {
	cur, total := s.CurrentStep, t.TotalSteps()
	if out.AdvanceToStep != nil {
		a, limit := *out.AdvanceToStep, total+1
		if cur < total {
			limit = total
		}
		if a > limit {
			g.override(OverrideAdvanceClamped)
			a = limit
		}
		if a <= cur {
			g.override(OverrideAdvanceNotForward)
			out.AdvanceToStep = nil
		} else {
			out.AdvanceToStep = &a
			cur = a
		}
	}
	if out.SessionComplete && cur < total {
		g.override(OverrideCompletionEarly)
		out.SessionComplete = false
	}
}

func (g *Guarded) cutSummary(out *TutorOutput) {
	s := strings.TrimSpace(out.TurnSummary)
	if utf8.RuneCountInString(s) > turnSummaryRunes {
		g.override(OverrideSummaryCut)
		s = strings.TrimSpace(truncateRunes(s, turnSummaryRunes))
	}
	out.TurnSummary = s
}

// examResult maps an exam answer to its result. The deterministic verdict
// wins when known; "I don't know" is an answer that earns nothing; an
// off-topic message or a request to be told the answer is no answer at all
// (the question is asked again), and
// without a tutor output there is nothing to judge. Otherwise the
// reference's table: correct; wrong with needs_remediation → incorrect;
// wrong with another or no signal → partial; no judgement → incorrect.
func examResult(o Outcome, out *TutorOutput) *Result {
	var r Result
	switch {
	case o.Precheck == PrecheckOffTopic || o.Precheck == PrecheckStop:
		return nil
	case AsksForAnswer(o.StudentMessage) && !o.Verdict.Known():
		// "Just tell me the answer": a request, not an attempt; the
		// question stands. With a value in it ("18, just tell me if
		// that's right") it is an answer.
		return nil
	case o.Verdict.Known():
		r = verdictResult(o.Verdict)
	case o.Precheck == PrecheckIDK:
		r = ResultIncorrect
	case out == nil:
		return nil
	case out.AnswerCorrect == nil:
		r = ResultIncorrect
	case *out.AnswerCorrect:
		r = ResultCorrect
	case out.MasterySignal != nil && *out.MasterySignal == SignalNeedsRemediation:
		r = ResultIncorrect
	default:
		r = ResultPartial
	}
	return &r
}

func verdictResult(v answer.Verdict) Result {
	switch v {
	case answer.Correct:
		return ResultCorrect
	case answer.Partial:
		return ResultPartial
	}
	return ResultIncorrect
}

// AnswerMayBeRevealed reports whether, in state s, the pending question's
// answer may appear in a tutor reply: only in its explain phase, and never in
// an exam. For the reply of the turn being processed use
// Guarded.MayRevealAnswer, which accounts for this turn's answer.
func AnswerMayBeRevealed(s State) bool {
	return s.Mode == ModeTeachMe && s.LastQuestion != nil && s.LastQuestion.Phase == PhaseExplain
}

// TimeUp reports whether the current sitting has reached the session's
// time limit at now. A sitting starts at its first turn (after creation or
// a resume, or after a break; see SittingLapsed); without a limit it never
// ends by time.
func TimeUp(s State, now time.Time) bool {
	limit := s.EngineConfig.TimeLimit()
	if limit <= 0 || s.StartedAt == nil || SittingLapsed(s, now) {
		return false
	}
	return now.Sub(s.StartedAt.Time()) >= limit
}

// SittingBreak is the least break after which a learner who left a sitting
// without ending it starts a new one (see SittingLapsed).
const SittingBreak = 30 * time.Minute

// SittingLapsed reports whether the learner left the current sitting
// without ending it (a closed tab) and comes back at now after a break of
// SittingBreak or the time limit, whichever is longer: that sitting is
// over, and the turn at now starts the next one, rather than ending at
// once for the time the learner was away.
func SittingLapsed(s State, now time.Time) bool {
	limit := s.EngineConfig.TimeLimit()
	return limit > 0 && s.StartedAt != nil && !s.UpdatedAt.IsZero() && now.Sub(s.UpdatedAt.Time()) >= max(limit, SittingBreak)
}

// truncateRunes returns the first n runes of s.
func truncateRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// endsAsking reports whether a reply ends with a question.
func endsAsking(reply string) bool {
	r := strings.TrimRight(reply, " \t\n\"'”’)*_")
	return strings.HasSuffix(r, "?") || strings.HasSuffix(r, "？")
}
