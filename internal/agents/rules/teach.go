package rules

import (
	"cmp"
	"math"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

// pending answers a message while a question is pending. The evaluator's
// verdict decides; the engine judges only what the evaluator cannot check.
func (l *lesson) pending() {
	q := l.s.LastQuestion
	bq := bankOf(l.topic, q)
	ev := l.turn.Evaluation
	verdict := ev.Verdict
	if verdict == answer.CannotCheck {
		verdict = answer.NotAttempt
		if !isQuestion(l.turn.Message) {
			verdict = overlap(expectedForms(bq), l.turn.Message).verdict
		}
	}
	switch {
	case l.s.IsComplete(l.topic) && declines(l.turn.Message, bq, verdict):
		// "no thanks, that's all" to a question after the lesson: the
		// learner had enough; no grading, no clue.
		l.say(mDeclined)
		l.out.SetAside = true
		l.note("declined " + bq.ID + " after the lesson")
	case l.turn.Precheck == tutor.PrecheckIDK:
		l.encourage(q, bq)
	case l.turn.Precheck == tutor.PrecheckOffTopic || !verdict.Known() && l.offLesson(l.turn.Message):
		l.out.Intent = tutor.IntentOffTopic
		l.say(mRedirect, "{q}", questionText(bq))
		l.note("off topic; redirected to " + bq.ID)
	case verdict == answer.Correct:
		h := helpOf(q)
		l.judge(q.Concept, tutor.ResultCorrect, h)
		l.onward(bq, ev, h)
	case asksLeftAnswer.MatchString(l.turn.Message) && !refusesAnswer.MatchString(l.turn.Message) && l.answerBefore(bq):
		// "what was the answer to that?" right after another question
		// took the place of one: that one, worked, then this one again.
	case answer.AsksQuestionAgain(l.turn.Message):
		// "2/15 ÷ ... wait what's the question again": not an answer.
		l.say(mWaiting, "{q}", questionText(bq))
		l.note("asked " + bq.ID + " again on request")
	case verdict == answer.Incorrect && l.rightWorking(bq, ev):
	case verdict == answer.Incorrect && l.stepRight(bq, ev):
	case verdict == answer.Incorrect || verdict == answer.Partial:
		l.miss(q, bq, verdict, ev)
	case verdict == answer.NotAttempt && bored(l.turn.Message):
		l.say(mBored)
		l.say(mWaiting, "{q}", questionText(bq))
		l.note("a bored learner; back to " + bq.ID)
	case verdict == answer.NotAttempt && rude(l.turn.Message):
		l.say(mKeepKind)
		l.say(mWaiting, "{q}", questionText(bq))
		l.note("a rude message; back to " + bq.ID)
	case verdict == answer.NotAttempt && isDiscouraged(l.turn.Message):
		// "I'm so stupid, I hate maths": a kind word first, then help.
		l.encourage(q, bq)
	case verdict == answer.NotAttempt && !isQuestion(l.turn.Message) && !asksMeaning(l.turn.Message) && asksHelp(l.turn.Message):
		// "I don't understand", "samajh nahi aa raha", "give me a hint",
		// "I'm stuck", "help": help, as for "I don't know", rather than the
		// bare question again.
		l.encourage(q, bq)
	default:
		l.noAnswer(q, bq, ev)
	}
}

// onward praises a right answer and moves the lesson on. The praise names
// what the learner got right: the answer and the idea behind it (see
// idea). A name or idea that would answer the question asked next (two
// questions can share an answer) is left out. A right answer after the
// worked solution is acknowledged rather than praised as if unaided, and
// the idea, just shown in full, is not repeated.
func (l *lesson) onward(bq tutor.BankQuestion, ev answer.Result, h help) {
	l.note(bq.ID + " correct")
	l.moveOn()
	value, why := answerName(bq, ev), idea(bq)
	if h == afterSolution || l.next != nil && l.pieceSentences() < 3 || why != "" && strings.Contains(l.lastReply(), why) ||
		l.out.SessionComplete {
		// Shown in full just now, or given as the clue just before; or a
		// learner who writes little, or struggles, gets short replies:
		// the praise and the next question; or the wrap-up of the lesson
		// follows, which the reply keeps to.
		why = ""
	}
	if bq.Kind == answer.KindBoolean || ev.Kind == answer.KindBoolean {
		value = "" // "Exactly, false." reads as a contradiction
	}
	if n := l.next; n != nil {
		exp := n.Expected()
		if value != "" && answers(value, exp) {
			value = ""
		}
		if why != "" && (answers(why, exp) || givesAway(why, exp, n.Text, nil)) {
			why = ""
		}
	}
	if instruction(why) {
		// "Divide both terms by their HCF." after "Spot on, 3:5." reads
		// as a new task; it is what the learner did.
		why = l.v.say(mKeyWas, "{idea}", lowerFirst(why))
	}
	plain, named := mPraise, mPraiseValue
	if h == afterSolution {
		plain, named = mWithHelp, mWithHelpValue
	}
	praise := l.v.say(plain)
	if value != "" {
		praise = l.v.say(named, "{value}", value)
	}
	l.parts = append([]string{praise, why}, l.parts...)
}

// answers reports whether text, read as a learner's reply, would be judged
// a right answer to exp.
func answers(text string, exp answer.Expected) bool {
	return answer.Evaluate(exp, text).Verdict == answer.Correct
}

// moveOn continues the lesson after a question is done: the next question
// of a practice step, the next step, the end of the lesson, or, after it,
// a harder question.
func (l *lesson) moveOn() {
	if l.s.IsComplete(l.topic) {
		l.harderQuestion()
		return
	}
	cur, total := l.s.CurrentStep, l.topic.TotalSteps()
	st, _ := l.topic.Step(cur)
	if st.Type == tutor.StepExplain && len(l.rec.atStep[cur]) > 0 && l.rec.told[cur] < len(slices.Concat(contentSentences(st)...)) {
		// A question of more practice, asked before this step was
		// explained in full: the rest of the step comes next.
		l.sum.step = cur
		l.say(mNextUp, "{title}", lowerFirst(st.Title))
		return
	}
	if st.Type == tutor.StepPractice && len(l.rec.atStep[cur]) < max(st.QuestionCount, 1) {
		if q, ok := forStep(l.topic, l.rec, l.s.SessionID, st); ok && !l.rec.asked[q.ID] {
			l.ask(q, cur, mAskNext)
			return
		}
	}
	if cur >= total {
		l.complete()
		return
	}
	l.advance(cur + 1)
	next, _ := l.topic.Step(cur + 1)
	if next.Type != tutor.StepExplain {
		if q, ok := forStep(l.topic, l.rec, l.s.SessionID, next); ok {
			l.ask(q, next.ID, mAskNext)
			return
		}
	}
	l.sum.step = cur + 1
	l.say(mNextUp, "{title}", lowerFirst(next.Title))
}

// miss walks the hint ladder after a wrong or partly right answer: the
// first hint (a nudge), the second (the first step), the worked solution,
// then, once per step, a step back to another question on the same
// concept (see simpler), and at the maxAttempts-th miss it leaves the
// question (see leave). The solution comes only when the guardrails allow
// the answer to be shown.
func (l *lesson) miss(q *tutor.Question, bq tutor.BankQuestion, v answer.Verdict, ev answer.Result) {
	r := tutor.ResultIncorrect
	if v == answer.Partial {
		r = tutor.ResultPartial
	}
	l.judge(q.Concept, r, helpOf(q))
	attempt := q.WrongAttempts + 1
	g := l.directives()
	l.note(bq.ID + " " + string(r) + ", attempt " + strconv.Itoa(attempt))
	if attempt >= 4 && !g.MustExplain {
		// Once per step, a step back to an easier question not asked yet,
		// after saying that this answer is not it.
		if sq, ok := simpler(l.topic, l.rec, l.s.SessionID, q); ok {
			l.say(mNotIt)
			l.ask(sq, l.s.CurrentStep, mStepBack)
			l.note("stepped back")
			return
		}
	}
	if attempt >= maxAttempts {
		// A learner who has tried this many times has worked enough on
		// it: the lesson goes on rather than round in circles.
		l.leave(bq, g.MayRevealAnswer)
		return
	}
	if attempt >= 3 && g.MayRevealAnswer {
		if sol := solution(bq); sol != "" && strings.Contains(l.sinceAsked(bq), sol) {
			// Missed again after the worked solution: not the same
			// solution once more, word for word; the learner has it
			// above, and the question stands until they give its answer
			// (or run out of attempts).
			l.say(mNotIt)
			l.say(mYourTurn)
			l.note("missed again after the worked solution")
			return
		}
		l.say(mWalkThrough)
		l.add(solution(bq))
		l.say(mYourTurn)
		l.note("explained")
		return
	}
	again := l.shownAgain(q, bq, ev)
	switch did, spotted := l.spotted(q, bq); {
	case again != "":
		// "28" again after "That's right, 7 × 4 = 28": not the answer,
		// and no news either. Saying so points on from that step (no
		// "go on from" pointer follows).
		l.say(mAlreadyHave, "{step}", again)
		l.out.Clues = append(l.out.Clues, again)
		l.say(mTryAgain)
		return
	case r == tutor.ResultPartial:
		what, ok := partialWhat[ev.Reason]
		if !ok {
			what = partialDefault
		}
		l.say(mPartly, "{what}", what)
		if ok && formOnly[ev.Reason] {
			// The value is right: what is missing is said, and the
			// question's hints, about finding the value, would mislead.
			l.say(mTryAgain)
			return
		}
	case attempt <= 2 && l.slipAfterRightEquation(bq):
		// "3m = 2 - 11 = -9 so m = 3": the working reached an equation
		// whose solution is the answer, then slipped; a known mistake
		// that ends on the same wrong value is not what happened.
		return
	case spotted && did == addedBottoms:
		// "4/6 + 1/6 = 5/12": the rule that sets it right is the clue.
		fix := sameSizeParts
		if !sameBottoms(l.turn.Message) {
			fix = unlikeParts
		}
		l.say(mSpotted, "{did}", did)
		l.add(fix)
		l.out.Clues = append(l.out.Clues, fix)
		l.say(mTryAgain)
		return
	case spotted:
		l.say(mSpotted, "{did}", did)
	case attempt <= 2 && l.slip():
		// "7/2 - 5/4 = 14/4 - 5/4 = 8/4", "so 36 + 18 = 56": the working
		// is right up to a slip; the learner hears where, not a clue to
		// start again.
		return
	case ev.Reason == answer.ReasonReversed && echo(ev.Extracted) != "":
		// Only the order is wrong: the question's hints, about finding
		// the terms, would mislead.
		l.say(mReversed, "{answer}", echo(ev.Extracted))
		l.say(mTryAgain)
		return
	case attempt == 1:
		if a := echo(ev.Extracted); a != "" {
			l.say(mNotYet, "{answer}", a)
		} else {
			l.say(mNotYetPlain)
		}
	default:
		// "Still not quite; here's a bigger clue": only before one.
		if !l.clue(bq, q.NextHint(attempt), true, mStill) {
			l.outOfClues(q, bq, mNotIt)
			return
		}
		l.say(mTryAgain)
		return
	}
	if !l.clue(bq, q.NextHint(attempt), true) {
		l.outOfClues(q, bq)
		return
	}
	l.say(mTryAgain)
}

// slipAfterRightEquation says where the working slipped when an equation
// of it has the question's answer as its solution (see equationSlipAt),
// and reports whether it did.
func (l *lesson) slipAfterRightEquation(bq tutor.BankQuestion) bool {
	from, to, before, ok := equationSlipAt(l.turn.Message)
	if !ok || answer.Evaluate(bq.Expected(), decimalOrFraction(before)).Verdict != answer.Correct {
		return false
	}
	l.say(mSlipStep, "{from}", from, "{to}", to)
	l.out.Clues = append(l.out.Clues, from)
	l.note("a slip from " + from + ", after right working")
	return true
}

// slip says where the working of a wrong answer slipped (see slipIn), and
// reports whether it did.
func (l *lesson) slip() bool {
	if from, to, ok := equationSlip(l.turn.Message); ok {
		// "2x - 7 = 9, 2x = 2": the step where the equation changed its
		// solution.
		l.say(mSlipStep, "{from}", from, "{to}", to)
		l.out.Clues = append(l.out.Clues, from)
		l.note("a slip from " + from)
		return true
	}
	step, sum, ok := slipIn(l.turn.Message)
	switch {
	case !ok:
		return false
	case sum:
		l.say(mSlipSum, "{step}", step)
	default:
		l.say(mSlipAfter, "{step}", step)
	}
	l.out.Clues = append(l.out.Clues, step)
	l.note("a slip at " + step)
	return true
}

// outOfClues helps a learner when every clue is given: the lesson's
// explanation of the question's idea again, once (see reteach); then a
// question about how far they got, once; then the question again; and
// after that a simpler question on the same idea, or the lesson goes on,
// rather than round in circles. The intro moves go first.
func (l *lesson) outOfClues(q *tutor.Question, bq tutor.BankQuestion, intro ...move) {
	if l.reteach(q, bq, intro...) {
		return
	}
	since := l.sinceAsked(bq)
	switch {
	case !inPhrase(since, mHowFar, "{}", ""):
		l.sayAll(intro)
		l.say(mHowFar)
		l.note("asked how far they got on " + bq.ID)
	case !l.lastSaid(mWaiting):
		l.sayAll(intro)
		l.say(mWaiting, "{q}", questionText(bq))
		l.note("waiting for an answer to " + bq.ID)
	default:
		if sq, ok := simpler(l.topic, l.rec, l.s.SessionID, q); ok {
			l.ask(sq, l.s.CurrentStep, mIDKStepBack)
			l.note("stepped back from " + bq.ID)
			return
		}
		l.leave(bq, l.directives().MayRevealAnswer)
	}
}

// retaught reports whether the question was explained again already: a
// clue it records that is none of its hints or steps.
func (l *lesson) retaught(q *tutor.Question, bq tutor.BankQuestion) bool {
	steps := l.steps(bq).all
	return slices.ContainsFunc(q.CluesGiven, func(c string) bool {
		return !slices.Contains(bq.Hints, c) && !slices.ContainsFunc(steps, func(st stepResult) bool { return st.said == c })
	})
}

// reteach says again, after the intro moves, the lesson's explanation of
// the pending question's idea: its sentences not shown since the question
// was asked, none of which gives the answer away or is a piece of a worked
// example, recorded as clues so that they are not said twice. It reports
// whether there were any. It comes once for each question, and not for a
// learner who has given right steps (they are past the idea) or after the
// worked solution.
func (l *lesson) reteach(q *tutor.Question, bq tutor.BankQuestion, intro ...move) bool {
	if len(q.StepsShown) > 0 || q.Phase == tutor.PhaseExplain || l.retaught(q, bq) {
		return false
	}
	exp, d := bq.Expected(), l.dialogue(q)
	given := l.sinceAsked(bq) + "\n" + strings.Join(q.CluesGiven, "\n")
	// The idea, not a worked example in pieces ("Example: 3 1/2 ÷ 1 3/4.").
	keep := func(s string) bool {
		return !strings.Contains(given, s) && !strings.HasPrefix(s, "Check") && !strings.HasPrefix(s, "Example") &&
			!workedStep(terms(s)) && !followsOn(s) && !givesAway(s, exp, q.QuestionText, d) && !answers(s, exp)
	}
	// Within the pacing: a quiet learner's reply has one sentence of the
	// lesson between the opener and the question.
	_, sents, ok := explain(l.topic, lessonOnly, q.Concept, l.pieceSentences()-1, keep)
	if !ok || len(sents) == 0 {
		return false
	}
	l.sayAll(intro)
	l.say(mReteach)
	l.add(sents...)
	l.say(mTryAgain)
	l.out.Clues = append(l.out.Clues, sents...)
	l.note("explained the idea again for " + bq.ID)
	return true
}

// clue gives the help from hint level on that the learner has not had
// since the question was asked (see freshHelp), after the intro moves. It
// reports false when nothing is left to give, and says nothing then: the
// caller asks how far the learner got (mHowFar) rather than repeat itself.
func (l *lesson) clue(bq tutor.BankQuestion, level int, steps bool, intro ...move) bool {
	hl := l.freshHelp(bq, level, steps)
	if hl.none() {
		return false
	}
	l.sayAll(intro)
	l.give(hl)
	return true
}

// helping is one piece of help towards a question's answer: a hint, a
// step of its worked solution, or, once the learner has reached the last
// step that may be shown, that step as where to go on from.
type helping struct{ hint, step, from string }

func (h helping) none() bool { return h == helping{} }

func (l *lesson) give(h helping) {
	switch {
	case h.hint != "":
		l.add(h.hint)
		l.out.Clues = append(l.out.Clues, h.hint)
	case h.step != "":
		l.say(mAStep, "{step}", h.step)
		l.out.Clues = append(l.out.Clues, h.step)
	case h.from != "":
		l.say(mFromStep, "{step}", h.from)
		l.out.Clues = append(l.out.Clues, h.from)
	}
}

// freshHelp returns the help from hint level on that no reply has given
// since the question was asked (a clue for a doubt in between, the hint
// for the last miss, the hint for an "I don't know"; see sinceAsked, and
// the clues the question records, tutor.Question.CluesGiven): the
// first such hint; once every hint was given and with steps set (after a
// wrong answer), the first step clue none has named (see stepClues). A
// learner who has given a right step of the solution (see stepRight)
// needs no hint about what comes before it: the help is the next step
// clue after it not given yet, or, when no clue has named a later one,
// that step as where to go on from, once. It is empty when everything
// was given.
func (l *lesson) freshHelp(bq tutor.BankQuestion, level int, steps bool) helping {
	given := l.sinceAsked(bq)
	var cluesGiven, stepsShown []string
	if q := l.s.LastQuestion; q != nil && q.QuestionID == bq.ID {
		cluesGiven, stepsShown = q.CluesGiven, q.StepsShown
		given += "\n" + strings.Join(cluesGiven, "\n")
	}
	qs := l.steps(bq)
	all, clues := qs.all, qs.clues
	reached := -1
	for i, st := range all {
		if inPhrase(given, mStepRight, "{what}", st.said) || slices.Contains(stepsShown, st.said) {
			reached = i
		}
	}
	if reached >= 0 {
		later := false // a clue has named a step after it
		for _, st := range all[reached+1:] {
			switch {
			case strings.Contains(given, st.said):
				later = true
			case slices.Contains(clues, st):
				return helping{step: st.said}
			}
		}
		if from := all[reached].said; !later && !inPhrase(given, mFromStep, "{step}", from) && !slices.Contains(cluesGiven, from) {
			return helping{from: from}
		}
		return helping{}
	}
	for ; level <= tutor.MaxHints; level++ {
		if h := hint(bq, level); !strings.Contains(given, h) && !l.followed(h, bq) {
			return helping{hint: h}
		}
	}
	if !steps {
		return helping{}
	}
	for _, st := range clues {
		if !strings.Contains(given, st.said) {
			return helping{step: st.said}
		}
	}
	return helping{}
}

// signSlip reports whether the learner's last answer to bq (this message,
// or the last wrong answer when this one gives none: "idk" after "-72")
// is its answer with the other sign.
func (l *lesson) signSlip(bq tutor.BankQuestion) bool {
	said := l.turn.Message
	if !answerLike.MatchString(said) && strings.TrimSpace(said) != "" && len(signedNumbers(said)) > 0 {
		return false // "what do i do with the 3m?": no answer
	}
	if len(signedNumbers(said)) == 0 {
		if q := l.s.LastQuestion; q != nil && q.QuestionID == bq.ID && len(q.PreviousStudentAnswers) > 0 {
			said = q.PreviousStudentAnswers[len(q.PreviousStudentAnswers)-1]
		}
	}
	got, exp := signedNumbers(said), signedNumbers(bq.Answer)
	return len(got) > 0 && len(exp) == 1 && exp[0] != 0 && got[len(got)-1] == -exp[0]
}

// sizesOnly reports whether hint h works with sizes alone: it names no
// sign and no negative number, and every number it names is the size of a
// negative number of the question ("Find how many times 12 goes into 84"
// for (-84) ÷ (-12)).
func sizesOnly(h string, bq tutor.BankQuestion) bool {
	if signWords.MatchString(h) || slices.ContainsFunc(signedNumbers(h), func(v float64) bool { return v < 0 }) {
		return false
	}
	ns := signedNumbers(h)
	sizes := signedNumbers(bq.Text)
	return len(ns) > 0 && !slices.ContainsFunc(ns, func(v float64) bool { return !slices.Contains(sizes, -v) })
}

// signWords name a sign.
var signWords = regexp.MustCompile(`(?i)\b(?:signs?|negatives?|positives?|minus|plus)\b`)

// followed reports whether the learner's message has done what hint h
// says: it holds every value the hint names that the question does not
// (its fractions and decimals, when it names any). "4/6 + 1/6 = 5/12" for
// 2/3 + 1/6 has rewritten 2/3 as 4/6: the clue to do so would only repeat
// it.
func (l *lesson) followed(h string, bq tutor.BankQuestion) bool {
	if l.signSlip(bq) && sizesOnly(h, bq) {
		// "-7" for 7: the size is found, only the sign is not; "Find how
		// many times 12 goes into 84" would only repeat it.
		return true
	}
	said, own := numbersOf(l.turn.Message), numbersOf(bq.Text)
	var key []string
	for _, n := range numbersOf(h) {
		if !slices.Contains(own, n) && !slices.Contains(key, n) {
			key = append(key, n)
		}
	}
	if slices.ContainsFunc(key, func(n string) bool { return strings.ContainsAny(n, "/.") }) {
		key = slices.DeleteFunc(key, func(n string) bool { return !strings.ContainsAny(n, "/.") })
	}
	return len(key) > 0 && !slices.ContainsFunc(key, func(n string) bool { return !slices.Contains(said, n) })
}

// inPhrase reports whether text holds a phrasing of move m with value in
// its slot (a phrasing without {name}).
func inPhrase(text string, m move, slot, value string) bool {
	for _, p := range phrasebook[m] {
		if strings.Contains(text, strings.ReplaceAll(p, slot, value)) {
			return true
		}
	}
	return false
}

// sinceAsked returns the tutor's replies since the question was asked, one
// per line, as far back as the session's history window reaches (the last
// five replies or so). A reply of the question before may have given the
// same words (a shared fallback hint), so the reply that asked it, the
// earliest that holds its text (later ones repeat it), ends the search.
func (l *lesson) sinceAsked(bq tutor.BankQuestion) string {
	rs := strings.Split(l.lastReplies(tutor.HistoryWindow), "\n") // newest first
	asked := len(rs)
	for i, r := range rs {
		if strings.Contains(r, strings.TrimSpace(bq.Text)) {
			asked = i
		}
	}
	return strings.Join(rs[:asked], "\n")
}

// questionSteps are a bank question's steps (stepResults) and those of
// them that may serve as clues (stepClues).
type questionSteps struct {
	text       string // the question's, to tell it from another with its id
	all, clues []stepResult
}

func newQuestionSteps(bq tutor.BankQuestion) questionSteps {
	return questionSteps{bq.Text, stepResults(bq), stepClues(bq)}
}

// steps returns the steps of a bank question of the lesson, worked out
// once for each topic (see reading).
func (l *lesson) steps(bq tutor.BankQuestion) questionSteps {
	if l.topic != nil {
		if qs, ok := readingOf(l.topic, lessonOnly).steps[bq.ID]; ok && qs.text == bq.Text {
			return qs
		}
	}
	return newQuestionSteps(bq)
}

// stepClues returns the steps of a question's worked solution that may
// serve as clues (see stepResults): only for an answer that is a number or
// an expression, never the last step (one move from the answer: "4x is
// 36"), and none whose value is a number of the answer. A step
// of a choice, yes-or-no, ratio or word question can be its answer in
// other words ("4 ÷ (1/2) = 8" for "bigger than 4"; "15 ÷ 5 = 3" for 3 : 5).
func stepClues(bq tutor.BankQuestion) []stepResult {
	exp := bq.Expected()
	if kind := exp.KindOf(); !kind.Numeric() && kind != answer.KindExpression {
		return nil
	}
	own := signedNumbers(exp.Answer)
	steps := stepResults(bq)
	if len(steps) > 0 {
		steps = steps[:len(steps)-1] // the last step is one move from the answer ("4x is 36")
	}
	return slices.DeleteFunc(slices.Clone(steps), func(st stepResult) bool {
		return slices.ContainsFunc(own, func(v float64) bool { return math.Abs(v) == math.Abs(st.value) })
	})
}

func (l *lesson) sayAll(moves []move) {
	for _, m := range moves {
		l.say(m)
	}
}

// shownAgain returns the right step a wrong answer repeats, in the
// solution's words, when the learner showed that step before; else "".
func (l *lesson) shownAgain(q *tutor.Question, bq tutor.BankQuestion, ev answer.Result) string {
	said := strings.TrimSpace(ev.Extracted)
	if said == "" {
		said = l.turn.Message
	}
	vs := signedNumbers(said)
	if len(vs) != 1 {
		return ""
	}
	for _, st := range l.steps(bq).all {
		if st.value == vs[0] && slices.Contains(q.StepsShown, st.said) {
			return st.said
		}
	}
	return ""
}

// spotted returns, in the learner's words, the known mistake of the bank
// question that this wrong answer shows: "added 9 to 23 instead of
// subtracting" for 32 on "Solve x + 9 = 23". It is not named when it would
// give the answer away or the last reply named it already.
func (l *lesson) spotted(q *tutor.Question, bq tutor.BankQuestion) (string, bool) {
	if !bq.ShowsMisconception(l.turn.Message) {
		if last := l.lastReply(); addsBottoms(l.turn.Message) && !strings.Contains(last, sameSizeParts) && !strings.Contains(last, unlikeParts) {
			return addedBottoms, true
		}
		return "", false
	}
	did, ok := youDid(bq.Misconception)
	if !ok || strings.Contains(l.lastReply(), did) || givesAway("It looks like you "+did+".", bq.Expected(), q.QuestionText, l.dialogue(q)) {
		return "", false
	}
	return did, true
}

// addedBottoms and sameSizeParts name the commonest mistake with fractions
// and the rule that sets it right.
const (
	addedBottoms  = "added the denominators as well as the numerators"
	sameSizeParts = "When the denominators are the same, the parts are the same size: add only the numerators and keep the denominator."
	unlikeParts   = "Adding the denominators changes the size of the parts: first write both fractions with the same denominator, then add only the numerators."
)

// addsBottoms reports whether a message adds two fractions by adding their
// numerators and their denominators: "4/6 + 1/6 = 5/12".
func addsBottoms(msg string) bool {
	for _, m := range fractionSum.FindAllStringSubmatch(msg, -1) {
		var v [6]int
		for i := range v {
			n, err := strconv.Atoi(m[i+1])
			if err != nil {
				return false
			}
			v[i] = n
		}
		if v[4] == v[0]+v[2] && v[5] == v[1]+v[3] && v[1] > 0 && v[3] > 0 && v[0] > 0 && v[2] > 0 {
			return true
		}
	}
	return false
}

// sameBottoms reports whether the fractions of the first sum that adds
// numerators and denominators alike (see addsBottoms) have the same
// denominator.
func sameBottoms(msg string) bool {
	for _, m := range fractionSum.FindAllStringSubmatch(msg, -1) {
		var v [6]int
		for i := range v {
			v[i], _ = strconv.Atoi(m[i+1])
		}
		if v[4] == v[0]+v[2] && v[5] == v[1]+v[3] && v[1] > 0 && v[3] > 0 && v[0] > 0 && v[2] > 0 {
			return v[1] == v[3]
		}
	}
	return false
}

var fractionSum = regexp.MustCompile(`(\d{1,6})\s*/\s*(\d{1,6})\s*\+\s*(\d{1,6})\s*/\s*(\d{1,6})\s*=\s*(\d{1,6})\s*/\s*(\d{1,6})`)

// stepRight acknowledges a reply that is a right intermediate step rather
// than the answer ("100" for one part of ₹900 shared 4 : 5, when Bina's
// share is asked), and reports whether it was one. The step is named in
// the worked solution's words and the learner asked to go on, with
// answer_correct unset, RightStep set to the step (so the guardrails count
// no wrong attempt and the domain records it) and no hint or solution. A
// step named already for this question is no progress.
func (l *lesson) stepRight(bq tutor.BankQuestion, ev answer.Result) bool {
	said := strings.TrimSpace(ev.Extracted)
	if said == "" {
		said = l.turn.Message
	}
	vs := signedNumbers(said)
	if len(vs) == 0 {
		return false
	}
	for _, v := range signedNumbers(l.turn.Message) {
		if v != vs[0] {
			return false // "100, so 400": more than the step
		}
	}
	if exp := signedNumbers(bq.Answer); len(exp) == 1 && vs[0] == -exp[0] {
		return false // the answer's size without its sign: a sign error
	}
	given := l.sinceAsked(bq)
	if q := l.s.LastQuestion; q != nil && q.QuestionID == bq.ID {
		given += "\n" + strings.Join(slices.Concat(q.CluesGiven, q.StepsShown), "\n")
	}
	for _, st := range l.steps(bq).all {
		if st.value == vs[0] && !strings.Contains(given, st.said) { // a step named already is no progress
			l.say(mStepRight, "{what}", st.said)
			l.out.RightStep = st.said
			l.note(bq.ID + " step right: " + st.said)
			return true
		}
	}
	return false
}

// rightWorking answers working that is right but not yet the answer,
// and reports whether there was any: an equation with the question's
// solution ("so 4y = 28?" for "Solve 6y - 4 = 2y + 24", "is the equation
// x + x+1 + x+2 = 51?") or a true sum with the question's numbers ("6y -
// 2y is 4y right?"). The evaluator, which reads one value, took it for a
// wrong answer. The question as asked, or a step named already, is no
// progress.
func (l *lesson) rightWorking(bq tutor.BankQuestion, ev answer.Result) bool {
	msg := l.turn.Message
	what, ok := sameSolution(msg, bq)
	if ok && slices.ContainsFunc(mathRuns(msg), isAssignment) {
		// "x/3 = 6 so x = 2?": a right step, then an answer, which
		// counts.
		return false
	}
	if !ok {
		calc, worked := worked(msg)
		claim, isYes := strings.CutPrefix(calc, "Yes: ")
		if !worked || !isYes || strings.HasPrefix(claim, "with ") || strings.Contains(claim, " than ") ||
			!slices.ContainsFunc(numbersOf(claim), func(n string) bool {
				return slices.Contains(numbersOf(bq.Text), n) || slices.Contains(numbersOf(bq.Solution), n)
			}) {
			return false
		}
		// "4x2 = 8 and 4x9=36 so 8/36?", "the answer is 8 because 4 x 9
		// = 36": the working goes on to an answer of its own, which
		// counts.
		if ns := numbersOf(msg); len(ns) > 0 && !slices.Contains(numbersOf(claim), ns[len(ns)-1]) ||
			slices.ContainsFunc(numbersOf(ev.Extracted), func(n string) bool { return !slices.Contains(numbersOf(claim), n) }) {
			return false
		}
		// A true sum is a step of this question only when the worked
		// solution or a hint reaches its result, and it is not the known
		// mistake: "550 - 55 = 495" is right arithmetic on the way to the
		// wrong answer, "40 : 2 = 20 : 1" a ratio of different units.
		// A true sum is a step even with the known mistake's value when it
		// is the step the worked solution takes ("15% of 800 = 120") and
		// all the message says ("… so the selling price is 120" answers).
		eq := strings.LastIndex(claim, " = ")
		if eq < 0 || bq.ShowsMisconception(msg) && (givesAsAnswer(msg, claim[eq+3:]) || !solutionTakes(bq, claim[:eq])) {
			return false
		}
		if value, _, _ := strings.Cut(claim[eq+3:], ","); answers(strings.TrimSpace(value), bq.Expected()) {
			return false // "(-7) x 6 is negative right?" names the answer: no step
		}
		result := numbersOf(claim[eq+3:])
		if len(result) == 0 || !slices.Contains(numbersOf(bq.Solution+" "+strings.Join(bq.Hints, " ")), result[0]) {
			return false
		}
		what = strings.TrimSuffix(claim, ".")
	}
	given := l.sinceAsked(bq)
	if q := l.s.LastQuestion; q != nil && q.QuestionID == bq.ID {
		given += "\n" + strings.Join(slices.Concat(q.CluesGiven, q.StepsShown), "\n")
	}
	if strings.Contains(given, what) {
		return false
	}
	l.say(mStepRight, "{what}", what)
	l.out.RightStep = what
	l.note(bq.ID + " working right: " + what)
	return true
}

// multiplied finds a product written with x, × or "times".
var multiplied = regexp.MustCompile(`(?i)\d\)?\s*[x×*]\s*\(?-?\d|\btimes\b`)

// givesAsAnswer reports whether a message goes on from a step to give its
// value as the answer: "… so the selling price is 120", "…, so the answer
// is 42"; not "… so the discount is 120" or "so now I take it away".
func givesAsAnswer(msg, value string) bool {
	v, _, _ := strings.Cut(value, ",")
	v = strings.TrimSuffix(strings.TrimSpace(v), ".")
	if v == "" {
		return false
	}
	re, err := regexp.Compile(`(?i)\b(?:answer|selling\s+price|cost|it|that)\s*(?:is|=|will\s+be|comes\s+to)\s*(?:₹|rs\.?\s*)?` + regexp.QuoteMeta(v) + `(?:[^\d./]|$)`)
	return err == nil && re.MatchString(msg)
}

// solutionTakes reports whether bq's worked solution works the sum left,
// whole: "15% of 800" in "Discount = 15% of 800 = …", but not "4 - 13"
// in "-4 - 13".
func solutionTakes(bq tutor.BankQuestion, left string) bool {
	re, err := regexp.Compile(`(?i)(?:^|[^\d.\-(/])` + strings.ReplaceAll(regexp.QuoteMeta(oneSpaced(left)), " ", `\s*`) + `(?:[^\d./]|$)`)
	return err == nil && re.MatchString(oneSpaced(bq.Solution))
}

// sameSolution finds in a message an equation in one unknown, other than
// the question's own, whose solution is the question's answer, and
// returns it as written.
func sameSolution(msg string, bq tutor.BankQuestion) (string, bool) {
	exp := bq.Expected()
	own := map[string]bool{}
	for _, r := range mathRuns(bq.Text) {
		own[showTokens(r, "", nil)] = true
	}
	for _, r := range mathRuns(msg) {
		sides := splitEq(r)
		name := unknownOf(r)
		if len(sides) != 2 || name == "" || isAssignment(r) || own[showTokens(r, "", nil)] {
			continue
		}
		a, b, ok := linearEquation(sides, name)
		if !ok || powers.MatchString(msg) {
			continue
		}
		x := new(big.Rat).Quo(b, a)
		if answers(ratString(x), exp) || answers(name+" = "+ratString(x), exp) {
			return writtenOut(r), true
		}
	}
	return "", false
}

// unknownOf returns the one unknown a run of arithmetic uses, or "" when it
// uses none or several.
func unknownOf(r []mathToken) string {
	name := ""
	for _, t := range r {
		if t.kind == mVar {
			if name != "" && t.text != name {
				return ""
			}
			name = t.text
		}
	}
	return name
}

// echo returns the learner's answer as the reply may quote it back: a
// short answer only ("7/18", "oxygen"), never a sentence, a code or a bare
// yes or no.
func echo(extracted string) string {
	a := strings.TrimSpace(extracted)
	if a == "" || utf8.RuneCountInString(a) > 20 || len(strings.Fields(a)) > 3 || strings.ContainsAny(a, "\n{}<>\"") {
		return ""
	}
	switch strings.ToLower(strings.Trim(a, ".!?")) {
	case "yes", "no", "true", "false", "yeah", "nope":
		return "" // "Hmm, yes isn't it yet." reads oddly
	}
	return strings.TrimRight(a, ".!?,;:") // "you said boiling?; let's look again" reads oddly
}

// encourage answers "I don't know": reassurance and the next hint, never
// the answer, and without climbing the ladder. Each "I don't know" moves
// one hint further (the domain counts them in hints_used), up to the last
// hint: the worked solution is not a hint. A hint given since the
// question was asked is not given again (a clue for "how do I start?" is
// not counted in hints_used): the next one comes instead (after a wrong
// answer or a right step, the steps of the solution too; see freshHelp).
// With nothing left, a learner who has worked on the question is asked
// how far they got, once; otherwise comes a simpler question on the same
// idea (see simpler), or, when there is none, the lesson goes on.
func (l *lesson) encourage(q *tutor.Question, bq tutor.BankQuestion) {
	l.out.Intent = tutor.IntentConfusion
	if q.IDKCount >= maxIDK {
		// Every hint is given and the answer may not be: the lesson goes
		// on rather than repeat the last hint.
		l.leave(bq, false)
		return
	}
	h := l.freshHelp(bq, q.NextHint(q.WrongAttempts), q.WrongAttempts > 0)
	if h.none() {
		if q.WrongAttempts > 0 && l.reteach(q, bq) {
			return
		}
		if (q.WrongAttempts > 0 || len(q.StepsShown) > 0) && !inPhrase(l.lastReply(), mHowFar, "{}", "") {
			// A learner who has worked on the question stays on it: a
			// question swapped in now would throw that work away.
			l.say(mHowFar)
			l.note("asked how far they got on " + bq.ID)
			return
		}
		if sq, ok := simpler(l.topic, l.rec, l.s.SessionID, q); ok {
			l.ask(sq, l.s.CurrentStep, mIDKStepBack)
			l.note("stepped back from " + bq.ID)
			return
		}
		l.leave(bq, false)
		return
	}
	switch self, task := discouraged(l.turn.Message); {
	case self:
		l.say(mChinUp)
	case task:
		l.say(mTooHard)
	case tutor.AsksForAnswer(l.turn.Message) && mentionsAnswer(l.turn.Message):
		// "just tell me the answer": why not, and a way in.
		l.say(mClue)
	case q.IDKCount > 0:
		l.say(mIDKAgain)
	default:
		l.say(mIDK)
	}
	l.give(h)
	l.say(mGuess)
	l.note("encouraged on " + bq.ID)
}

// lastReply returns the tutor's last message, "" when there is none.
func (l *lesson) lastReply() string { return l.lastReplies(1) }

// lastReplies returns the tutor's last n messages, one per line.
func (l *lesson) lastReplies(n int) string {
	var out []string
	for i := len(l.s.History) - 1; i >= 0 && len(out) < n; i-- {
		if m := l.s.History[i]; m.Role == tutor.RoleTeacher {
			out = append(out, m.Content)
		}
	}
	return strings.Join(out, "\n")
}

// maxIDK is how many "I don't know"s a question gets hints for; the next
// one leaves it (see leave). maxAttempts is the wrong answer that leaves a
// question. Learners in the MathDial dialogues often get there only after
// many tries, repeating wrong answers on the way: leaving sooner, or on a
// repeated answer, cuts off a third of those who would have.
const (
	maxIDK      = 3
	maxAttempts = 12
)

// leave gives up on a question the learner cannot answer yet, kindly, with
// the worked solution when it may be shown, and moves the lesson on: the
// domain drops a question left unanswered when the step advances.
func (l *lesson) leave(bq tutor.BankQuestion, withSolution bool) {
	if withSolution {
		l.say(mWalkThrough)
		l.add(solution(bq))
	}
	l.say(mLeave)
	l.note("left " + bq.ID)
	l.moveOn()
}

// declines reports whether a reply to a question after the lesson turns
// it down: "no thanks", "nah I'm good". To a question answered yes or no,
// only a reply that says so in words other than "no" does ("no thanks",
// not "no sir"), whatever it grades as; to any other, one that is not
// its right answer.
func declines(msg string, bq tutor.BankQuestion, verdict answer.Verdict) bool {
	if !isDone(msg) {
		return false
	}
	a := strings.ToLower(strings.TrimSpace(bq.Answer))
	if bq.Kind == answer.KindBoolean || a == "yes" || a == "no" || a == "true" || a == "false" {
		return slices.ContainsFunc(words(msg), func(w string) bool { return declineWords[w] })
	}
	return verdict != answer.Correct
}

var declineWords = wordSet("thanks thank done good fine all enough more questions")

// aboutUnasked reports whether a claim says much what a bank question not
// asked yet asks (two thirds of the claim's terms in the question's): a
// Yes to "diffusion is fastest in gases right?" would answer the question
// to come. (A temperature's verdict adds nothing to the lesson's sentence
// that states it, so temperatures are not held back.)
func (l *lesson) aboutUnasked(msg string) bool {
	claim := slices.DeleteFunc(claimTerms(msg, l.topic.Subject), func(w string) bool {
		return openers[w] || tagQuestion[w] || unitless[w] || isDigits(w)
	})
	if len(claim) == 0 {
		return false
	}
	for _, q := range l.topic.Questions {
		if l.rec.asked[q.ID] {
			continue
		}
		qt := claimTerms(q.Text, l.topic.Subject)
		n := 0
		for _, c := range claim {
			if slices.Contains(qt, c) {
				n++
			}
		}
		if 3*n >= 2*len(claim) {
			return true
		}
	}
	return false
}

// answerBefore works through the question asked before the pending one,
// when the last reply asked the pending one in its place (a step back to
// an easier question, or the next question after one left or answered),
// then asks the pending one again; it reports whether there was such a
// question.
func (l *lesson) answerBefore(bq tutor.BankQuestion) bool {
	hist := l.s.History
	last := -1
	for i := len(hist) - 1; i >= 0; i-- {
		if hist[i].Role == tutor.RoleTeacher {
			last = i
			break
		}
	}
	if last < 0 || !strings.Contains(hist[last].Content, bq.Text) {
		return false
	}
	for i := last - 1; i >= 0; i-- {
		if hist[i].Role != tutor.RoleTeacher {
			continue
		}
		for _, q := range l.topic.Questions {
			if q.ID != bq.ID && l.rec.asked[q.ID] && strings.Contains(hist[i].Content, q.Text) {
				l.out.Intent = tutor.IntentQuestion
				l.say(mWalkThrough)
				l.add(solution(q))
				l.say(mWaiting, "{q}", questionText(bq))
				l.note("worked " + q.ID + ", asked before " + bq.ID + ", on request")
				return true
			}
		}
	}
	return false
}

// asksLeftAnswer asks for the answer of a question gone by: "what was the
// answer to that?", "tell me the answer", "what was it?". Not "I don't
// want the answer" nor "just tell me why".
var asksLeftAnswer = regexp.MustCompile(`(?i)\bwhat\s*(?:'?s|\s+was|\s+is|\s+were)\s+the\s+(?:right\s+|correct\s+)?answers?\b|\banswers?\s+(?:to|for|of)\s+(?:that|this|the\s+(?:last|previous|earlier|other)|it)\b|\b(?:tell|show|give)\s+me\s+the\s+answer\b|\bwhat\s+was\s+(?:it|that)\b`)

// refusesAnswer says the learner does not want the answer: "I don't want
// the answer", "don't tell me the answer".
var refusesAnswer = regexp.MustCompile(`(?i)\b(?:don'?t|do\s+not|dont|never)\s+(?:want|need|tell|give|show)\b`)

// answerLeft works through the question one of the last two replies left
// unanswered (see leave), for a learner who asks for its answer, then
// offers to go on; it reports whether there was such a question.
func (l *lesson) answerLeft() bool {
	hist := l.s.History
	left, replies := -1, 0
	for i := len(hist) - 1; i >= 0 && replies < 2 && left < 0; i-- {
		if hist[i].Role == tutor.RoleTeacher {
			replies++
			if opensWith(hist[i].Content, mLeave) {
				left = i
			}
		}
	}
	for i := left - 1; left > 0 && i >= 0; i-- { // an earlier reply asked it
		m := hist[i]
		if m.Role != tutor.RoleTeacher {
			continue
		}
		for _, q := range l.topic.Questions {
			if l.rec.asked[q.ID] && strings.Contains(m.Content, q.Text) {
				l.out.Intent = tutor.IntentQuestion
				l.say(mWalkThrough)
				l.add(solution(q))
				l.say(mCarryOn)
				l.note("worked " + q.ID + ", left before, on request")
				return true
			}
		}
	}
	return false
}

// noAnswer answers a message with no answer in it: a hedge is asked to
// choose, a question is answered from the lesson (without the answer),
// anything else gets the question again.
func (l *lesson) noAnswer(q *tutor.Question, bq tutor.BankQuestion, ev answer.Result) {
	msg := l.turn.Message
	switch {
	case hedged(ev):
		l.say(mChoose)
		l.note("asked to choose one answer")
	case ev.Reason == answer.ReasonUnseenLetter:
		// "C" to "… bigger than 4, smaller than 4 or equal to 4?".
		l.say(mInWords)
		l.note("asked for the option in words")
	case ev.Reason == answer.ReasonLetterNoOptions:
		// "B" to "What is 3/4 + 1/8?".
		l.say(mNoOptions)
		l.note("asked for an answer, not a letter")
	case asksAnswer(msg) && (isQuestion(msg) || tutor.AsksForAnswer(msg)) && !asksMeaning(msg):
		// "What's the answer?", "give me the answer pls": a clue instead.
		l.out.Intent = tutor.IntentQuestion
		l.giveClue(q, bq, mClue)
	case isQuestion(msg) || asksMeaning(msg):
		l.out.Intent = tutor.IntentQuestion
		exp, d := bq.Expected(), l.dialogue(q)
		// A sentence of the lesson that would itself pass as the answer is
		// left out too: the leak detector looks for the answer stated as
		// one, the evaluator for the answer committed to.
		keep := func(s string) bool { return !givesAway(s, exp, q.QuestionText, d) && !answers(s, exp) }
		_, sents, ok := explain(l.topic, withHints, msg, 2, keep)
		if word, def, gok := glossed(msg); gok && !definesWord(sents, word) && keep(def) {
			// "what does quotient mean?": the word first.
			l.add(def)
			l.note("defined " + word + " during " + bq.ID)
			if !ok {
				l.say(mBackToQuestion)
				return
			}
		}
		if ok {
			l.add(sents...)
			l.say(mBackToQuestion)
			l.note("answered a doubt during " + bq.ID)
			return
		}
		if _, _, covered := explain(l.topic, withHints, msg, 2, nil); !covered && !aboutQuestion(msg, bq) {
			// Not a request for help with the question, and nothing the
			// lesson explains: say so, and ask the question again.
			l.say(mNotCoveredAsk, "{q}", questionText(bq))
			l.note("doubt not in the lesson during " + bq.ID)
			return
		}
		l.giveClue(q, bq, mHelpClue)
	case l.lastSaid(mWaiting) || l.lastSaid(mWorkItOut) || l.lastSaid(mAsNumber):
		// A second message in a row with no answer ("ok", "hmm", the same
		// working again): the learner is stuck rather than thinking, and
		// gets a clue.
		l.giveClue(q, bq, mNudge)
	case describesWorking(msg):
		// "I divided 65 by 5": a plan, not yet a result.
		l.say(mWorkItOut)
		l.note("asked for the result of the working on " + bq.ID)
	case bq.Expected().KindOf().Numeric() && sharesTerms(msg, bq):
		// "freezing" for a temperature: the question's own words where a
		// number is asked.
		l.say(mAsNumber)
		l.note("asked for a number on " + bq.ID)
	default:
		l.say(mWaiting, "{q}", questionText(bq))
		l.note("waiting for an answer to " + bq.ID)
	}
}

// describesWorking reports whether a message describes a calculation
// without its result: an operation and a number ("I divided 65 by 5",
// "add 4 and 5 first").
func describesWorking(msg string) bool {
	ws := words(msg)
	if !slices.ContainsFunc(ws, isDigits) {
		return false
	}
	return slices.ContainsFunc(ws, func(w string) bool { return operationWords[w] })
}

var operationWords = wordSet(`add added adding plus subtract subtracted subtracting minus divide divided
	dividing multiply multiplied multiplying times`)

// sharesTerms reports whether a message names something the question,
// its hints or its solution speak of.
func sharesTerms(msg string, q tutor.BankQuestion) bool {
	own := terms(strings.Join(slices.Concat([]string{q.Text, q.Solution}, q.Hints), " "))
	return slices.ContainsFunc(contentTerms(msg), func(t string) bool { return slices.Contains(own, t) })
}

// giveClue gives the next clue after intro and asks for the answer, or,
// with none left, asks how far the learner got.
func (l *lesson) giveClue(q *tutor.Question, bq tutor.BankQuestion, intro move) {
	if !l.clue(bq, q.NextHint(q.WrongAttempts), q.WrongAttempts > 0, intro) {
		l.outOfClues(q, bq)
		return
	}
	l.say(mTryAgain)
	l.note("gave a clue on " + bq.ID)
}

// lastSaid reports whether the tutor's last reply opened with move m.
func (l *lesson) lastSaid(m move) bool { return opensWith(l.lastReply(), m) }

// offeredToGoOn reports whether the last reply ended by asking to go on to
// something new ("Shall we move on to …?", "Ready for a quick question on
// this?"), to which "no" means "not yet" rather than "I don't follow" (as
// it does to "Shall I go on?" within an explanation, which hears the last
// part again).
func (l *lesson) offeredToGoOn() bool {
	ss := sentences(l.lastReply())
	if len(ss) == 0 {
		return false
	}
	last := ss[len(ss)-1]
	for _, m := range []move{mNextUp, mReadyNext, mCarryOn, mReadyQuestion, mBeginNow} {
		for _, p := range phrasebook[m] {
			opening, _, _ := strings.Cut(p, "{")
			if opening != "" && strings.HasPrefix(last, opening) {
				return true
			}
		}
	}
	return false
}

// offLesson reports whether msg is a question plainly away from the
// lesson that the prechecker's phrases miss: about sport, films, shows or
// games, or about the tutor's own favourites ("who won the match?", "did
// you watch the cricket match yesterday?", "what's your favourite
// colour?"), with no number in it, and nothing the lesson explains. A
// question about the lesson's content is a doubt, whatever its words: the
// lesson's explanations are searched first.
func (l *lesson) offLesson(msg string) bool {
	if !isQuestion(msg) || strings.ContainsAny(msg, "0123456789") || !chitChat.MatchString(msg) {
		return false
	}
	_, _, covered := explain(l.topic, withHints, msg, 2, nil)
	return !covered
}

// chitChat finds the words of a question away from any lesson: a match's
// winner, a match or film watched, sport and entertainment by name, the
// tutor's favourites and hobbies.
var chitChat = regexp.MustCompile(`(?i)\b(?:` +
	`who\s+(?:won|wins|will\s+win|is\s+winning)\s+(?:the\s+|today'?s\s+|yesterday'?s\s+|last\s+night'?s\s+)?(?:\w+\s+)?(?:match|game|final|series|cup|tournament|toss)` +
	`|(?:did|do|have)\s+(?:you|u)\s+(?:watch|watched|see|seen)\s+(?:the\s+|a\s+|that\s+|today'?s\s+|yesterday'?s\s+|last\s+night'?s\s+)?(?:\w+\s+)?(?:match|movie|film|show|episode)` +
	`|(?:your|ur)\s+(?:fav(?:ou?rite)?|hobby|hobbies|birthday)` +
	`|cricket|cricketers?|football|footballers?|soccer|ipl|world\s+cup|movies?|films?|netflix|youtube|video\s*games?|anime|cartoons?|tv\s+shows?|pubg|minecraft|fortnite` +
	`)\b`)

// atStep moves the lesson on when no question is pending.
func (l *lesson) atStep() {
	msg := l.turn.Message
	cur := l.s.CurrentStep
	st, _ := l.topic.Step(cur)
	switch {
	case l.turn.Precheck == tutor.PrecheckOffTopic || l.offLesson(msg):
		l.out.Intent = tutor.IntentOffTopic
		l.say(mRedirectLesson, "{title}", lowerFirst(st.Title))
		l.note("off topic; redirected to the lesson")
	case nothingMore(msg) && l.lastSaid(mNotReady):
		// Nothing to go over: the lesson goes on.
		l.step("")
	case notYet(msg) && (l.offeredToGoOn() || l.lastSaid(mAgain) || l.lastSaid(mTricky)):
		// Not ready to go on, or still not after hearing the part again:
		// what to go over, rather than the same part a third time.
		l.say(mNotReady)
		l.note("not ready to go on")
	case rude(msg):
		// "you are stupid": calm, and the lesson waits for a go-ahead.
		l.say(mKeepKind)
		l.say(mRedirectLesson, "{title}", lowerFirst(st.Title))
		l.note("a rude message")
	case bored(msg):
		// "this is boring": on, briskly.
		l.note("a bored learner")
		l.step(l.v.say(mBored))
	case asksThatMeans(msg) && (l.meaning() || l.repeat()):
		// "what does that mean?": the words of the part just said.
	case wantsPractice.MatchString(msg) && l.morePractice():
	case wantsQuestions.MatchString(msg) && l.skipToQuestion():
		// "i already know this, can we skip to the questions?"
	case asksToSkip(msg):
		// "skip this", "I know this already, skip": past the explanation,
		// to the next question (not the part again, as for "I don't
		// know", which the prechecker takes "skip" for).
		if !l.skipToQuestion() {
			l.step("")
		}

	case bareWhy(msg) && (l.why() || !l.lastSaid(mAgain) && l.repeat() || l.otherWay()):
		// "Why?" asks about the part just said, not to go on; after the
		// part was said again, not the same sentences a third time.
	case asksLeftAnswer.MatchString(msg) && !refusesAnswer.MatchString(msg) && l.answerLeft():
		// "what was the answer to that one?" once it was left: it is no
		// longer asked, so its worked solution gives nothing away.
	case l.doubt(partsNamed(msg, l.lastReply())):
	case (confused(msg) || l.turn.Precheck == tutor.PrecheckIDK) && l.lastSaid(mAgain) && l.otherWay():
		// Still lost after hearing it again: not the same sentences a
		// third time.
	case (confused(msg) || l.turn.Precheck == tutor.PrecheckIDK) && l.repeat():
	case l.changedAnswer():
		// "wait, I meant 16" just after "14" to "What is double 7?" was
		// praised: the first answer stands.
	case answerLike.MatchString(msg) && !isQuestion(msg):
		// "I think it's 7/18" before any question: an answer to nothing
		// yet, acknowledged rather than passed over.
		l.note("an answer before the question")
		l.step(l.v.say(mHoldOn))
	default:
		l.step("")
	}
}

// changedAnswer answers a learner who takes back the right answer just
// praised for another value ("wait, I meant 7/18", "actually no, I think
// it's 16", or the bare value) while no question is pending: the first
// answer was right and the new one is not, then the lesson goes on. It
// reports whether it did. The right answer keeps its credit (the learner
// gave it; the turn judges nothing), and a new value that is right too, or
// only differently written, is no change.
func (l *lesson) changedAnswer() bool {
	msg := l.turn.Message
	if l.s.LastQuestion != nil || l.s.LastAnswerResult == nil || *l.s.LastAnswerResult != tutor.ResultCorrect ||
		isQuestion(msg) || len(words(msg)) > 8 {
		return false
	}
	bq, said, ok := l.lastAnswered()
	if !ok || !bq.Expected().KindOf().Numeric() {
		return false
	}
	res := answer.Evaluate(bq.Expected(), msg)
	now := echo(res.Extracted)
	if res.Verdict != answer.Incorrect || now == "" {
		return false
	}
	right := answerName(bq, answer.Evaluate(bq.Expected(), said))
	if right == "" {
		right = echo(bq.Answer)
	}
	l.out.Intent = tutor.IntentAnswerChange
	l.note(bq.ID + " changed to a wrong answer")
	l.step(l.v.say(mChangedAnswer, "{value}", right, "{answer}", now))
	return true
}

// lastAnswered returns the bank question the learner's last message
// answered right, and that message: the question the tutor's reply before
// it asked.
func (l *lesson) lastAnswered() (tutor.BankQuestion, string, bool) {
	hist := l.s.History
	for i := len(hist) - 1; i >= 0; i-- {
		if hist[i].Role != tutor.RoleStudent {
			continue
		}
		for j := i - 1; j >= 0; j-- {
			if hist[j].Role != tutor.RoleTeacher {
				continue
			}
			for _, q := range l.topic.Questions {
				if l.rec.asked[q.ID] && strings.Contains(hist[j].Content, q.Text) && answers(hist[i].Content, q.Expected()) {
					return q, hist[i].Content, true
				}
			}
			return tutor.BankQuestion{}, "", false
		}
		break
	}
	return tutor.BankQuestion{}, "", false
}

// doubt answers a question the learner asks between steps from the
// lesson's explanations, and reports whether it did. A question about
// something the lesson does not explain is answered honestly ("that's not
// in our lesson") before the lesson goes on; a question that asks nothing
// the lesson could explain ("can we go on?", "can you explain again?")
// is not a doubt.
func (l *lesson) doubt(msg string) bool {
	// "I still don't get what product is" asks too, without a question
	// mark.
	word, def, defined := glossed(msg)
	// "but dividing should make it smaller, how is 6 bigger than 3" asks
	// in its second clause.
	_, asks := questionIn(msg)
	if !asks && objects(msg) {
		// "multiplying always makes it bigger though": a common mistake
		// put forward, if it is one.
		_, asks = restated(l.topic, msg)
	}
	if !asks && !defined || isYes(msg) {
		return false
	}
	calc, calculated := worked(msg)
	calculated = calculated && !l.spoils(msg, calc)
	if !calculated && !defined && !asksAbout(msg) {
		return false
	}
	l.out.Intent = tutor.IntentQuestion
	query := msg
	if calculated {
		// The lesson's sentences come beside a worked sum for the words
		// of the doubt ("… because same sign?"), not for its numbers: "so
		// 5x - 3x is 2?" is no doubt about "Check: 5 × 5 + 3 = 28". Why a
		// sum comes out as it does ("why is -1 x -2 = 2?") is a doubt
		// about its signs and operation, which its notation names.
		query = wordsOnly(msg)
		if read, ops := notation(msg); asksWhy(msg) && slices.Contains(read, stem("negative")) {
			query += " negative " + strings.Join(ops, " ")
			if multiplied.MatchString(msg) {
				query += " multiply"
			}
		}
	}
	_, sents, ok := explain(l.topic, withHints, query, 2, nil)
	if defined && claimedWord.MatchString(msg) {
		sents = aboutWord(sents, word) // "condensation is when …?"
		ok = ok && len(sents) > 0
	}
	answered := false
	checked, verdict := "", ""
	if calculated {
		checked = calc
	}
	mistake, wrong := putForward(l.topic, msg, checked, sents)
	checkedRight := strings.HasPrefix(checked, "Yes")
	asked := func(q tutor.BankQuestion) bool { return l.rec.asked[q.ID] } // a question still to come is not given away
	fromExample := false
	if first, _, _ := strings.Cut(msg, ","); !wrong && !checkedRight && ok && !isQuestion(first) && !namesMistakes.MatchString(msg) &&
		isMistakeSentence(sents[len(sents)-1]) {
		// All the lesson has on it is a common mistake (with what sets
		// it right; see explain), and the message opens by stating it,
		// as the mistake says it ("but dividing should make it smaller,
		// how is 6 bigger than 3"; not "division doesn't always make it
		// smaller?").
		if m := strings.TrimSuffix(strings.TrimPrefix(sents[len(sents)-1], "A common mistake: "), "."); denies(m) == denies(first) {
			mistake, wrong, fromExample = m, true, true
		}
	}
	if wrong {
		// "so plants eat soil for food?": no, first.
		l.say(mNotSo, "{mistake}", lowerFirst(mistake))
		l.note("a common mistake put forward")
		sents = setRight(l.topic, withHints, msg, mistake, true, sents, asked)
		if piece, _, shown := l.lastPiece(); shown && fromExample {
			// Rather what was just explained, when the doubt is about it
			// ("how is 6 bigger than 3"): its sentences that share a
			// number or a word with the doubt.
			asked := terms(msg)
			piece = slices.DeleteFunc(slices.Clone(piece), func(s string) bool {
				return !slices.ContainsFunc(terms(s), func(w string) bool { return slices.Contains(asked, w) })
			})
			if len(piece) > 0 || len(sents) == 0 {
				sents = piece[max(0, len(piece)-2):]
			}
		}
		ok = len(sents) > 0
		answered = true
	} else {
		if ok {
			sents = setRight(l.topic, withHints, msg, "", false, sents, asked)
		}
		if v, answer, checked := temperatureVerdict(l.v, l.topic, msg, sents); checked && ok && !calculated {
			verdict, sents = v, answer
		} else if v, answer, checked := factVerdict(l.v, l.topic, withHints, msg, sents); checked && !calculated && !claimedWord.MatchString(msg) && !l.aboutUnasked(msg) {
			// A sentence of the lesson settles it, even one no passage
			// chose: "so evaporation warms the liquid?".
			verdict, sents, ok = v, answer, true
		}
	}
	if calculated && selfContained(calc) {
		ok = false
	}
	if calculated && wrong {
		calc = noAgain(calc) // the mistake had its No
	}
	// The last part said it: said again, as such.
	justSaid := ok && len(unsaid(sents, l.lastReply())) == 0
	if calculated {
		// "so -3 + -4 is 7?": the sum checked first.
		l.add(calc)
		l.note("worked the calculation asked about")
		answered = true
	}
	if defined && (!definesWord(sents, word) || strings.HasPrefix(def, "Not quite")) {
		// "what does product mean?" of a lesson that uses the word
		// without saying what it is: the word, and the lesson's
		// sentences only when they are news.
		l.add(def)
		l.note("defined " + word)
		answered = true
		ok = ok && !justSaid
	}
	if ok {
		switch {
		case verdict != "":
			l.add(verdict) // "water boils at 90 degrees?": No, first
			l.note("checked the claim put forward")
		case justSaid:
			l.say(mJustSaid)
		}
		l.add(sents...)
		l.note("answered a doubt")
		answered = true
	}
	if answered {
		if l.s.TurnCount == 0 {
			l.say(mBeginNow)
		} else {
			l.say(mCarryOn)
		}
		return true
	}
	if l.s.TurnCount == 0 {
		// Before the lesson, only a doubt it answers holds it up: "ok,
		// what will we learn today?" starts it.
		l.out.Intent = tutor.IntentContinuation
		return false
	}
	l.note("doubt not in the lesson")
	l.step(l.v.say(mNotCovered))
	return true
}

// mentionsAnswer reports whether a message names the answer or solution:
// "just tell me the answer", not "just tell me if I'm on the right track".
func mentionsAnswer(msg string) bool {
	return slices.ContainsFunc(words(msg), func(w string) bool { return w == "answer" || w == "answers" || w == "solution" })
}

// namesMistakes finds a question about mistakes themselves ("what mistakes
// do people make?"), which puts none forward.
var namesMistakes = regexp.MustCompile(`(?i)\b(?:mistakes?|wrong|errors?|misconceptions?)\b`)

// wordsOnly drops the sums of a message: every word with a digit in it,
// every one-letter word and every sign.
func wordsOnly(msg string) string {
	var out []string
	for _, f := range strings.Fields(msg) {
		w := strings.Trim(f, "?!.,;:()")
		if utf8.RuneCountInString(w) > 1 && !strings.ContainsAny(w, "0123456789+-−×*÷/=") {
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}

// spoils reports whether calc, a sum worked out (see worked), works with
// the numbers of a question of the lesson's bank that the learner has not
// met yet to its answer, or to that answer's opposite: "what is 9 x 8?"
// before "What is (-9) × (-8)?", or "is x = 4 the answer to 2x + 3 = 11?"
// before "Solve 2x + 3 = 11.".
func (l *lesson) spoils(msg, calc string) bool {
	sum, results := sumOf(calc)
	ns, asked := numbersOf(sum), numbersOf(msg)
	for _, q := range l.topic.Questions {
		qn := numbersOf(q.Text)
		if l.rec.asked[q.ID] {
			continue
		}
		// The sum uses the question's numbers and no others, or the doubt
		// holds them all ("is x = 4 the answer to 2x + 3 = 11?", "if 6
		// notebooks cost ₹210, …"); "what is y if 5y = 35" shares only a
		// 5 with "Solve 2(x + 5) = 24".
		if !(len(ns) > 0 && within(ns, qn) && within(asked, qn) || len(qn) > 0 && within(qn, asked)) {
			continue
		}
		exp := q.Expected()
		for _, r := range results {
			if algebraic(r) && !algebraic(q.Answer) {
				// "5x" of "3x + 2x = 5x" answers no "Solve …" whose
				// answer is 5.
				continue
			}
			opposite := strings.TrimPrefix(r, "-")
			if opposite == r {
				opposite = "-" + r
			}
			if answers(r, exp) || answers(opposite, exp) {
				return true
			}
		}
		// "Yes: -2 is greater than -7." answers "Which is greater, -7 or
		// -2?" by either number.
		if cmp := numbersOf(calc); strings.Contains(calc, " than ") && within(cmp, qn) &&
			slices.ContainsFunc(signedNumber.FindAllString(calc, -1), func(n string) bool { return answers(n, exp) }) {
			return true
		}
	}
	return false
}

// algebraic reports whether a value opens on a term of an unknown: "5x",
// "-x", "2y + 6".
func algebraic(s string) bool {
	first, _, _ := strings.Cut(strings.TrimSpace(s), " ")
	return termOfUnknown.MatchString(first)
}

var termOfUnknown = regexp.MustCompile(`(?i)^-?\d*[a-z]$`)

// sumOf splits a worked sentence into the sum it works and the values it
// reaches: "-3 + (-4)" and "-7" of "Not quite: -3 + (-4) = -7, not 7.",
// "LCM of 4 and 6" and "12" of "The LCM of 4 and 6 is 12.", each step's
// value of "One pen costs 40 ÷ 5 = ₹8, so 8 pens cost 8 × 8 = ₹64.".
func sumOf(calc string) (sum string, results []string) {
	for _, p := range []string{"Not quite: ", "Yes: ", "No: "} {
		calc = strings.TrimPrefix(calc, p)
	}
	parts := strings.Split(calc, " = ")
	if len(parts) == 1 {
		parts = strings.SplitN(calc, " is ", 2)
	}
	for _, p := range parts[1:] {
		seg, _, _ := strings.Cut(p, ",")
		seg = strings.TrimSuffix(strings.TrimSpace(seg), ".")
		r, _, _ := strings.Cut(seg, " ")
		if r != "" {
			results = append(results, r)
		}
		if seg != r {
			results = append(results, seg) // "2 : 3 in its simplest form"
		}
	}
	return parts[0], results
}

var (
	unsignedNumber = regexp.MustCompile(`\d+(?:\.\d+)?(?:/\d+)?`)
	signedNumber   = regexp.MustCompile(`-?\d+(?:\.\d+)?(?:/\d+)?`)
)

// numbersOf returns the numbers written in s, without their signs.
func numbersOf(s string) []string { return unsignedNumber.FindAllString(s, -1) }

// within reports whether every number of ns is among those of of, as
// often as ns has it.
func within(ns, of []string) bool {
	left := map[string]int{}
	for _, n := range of {
		left[n]++
	}
	for _, n := range ns {
		if left[n] == 0 {
			return false
		}
		left[n]--
	}
	return true
}

// wantsPractice asks for another question: "can I have another one?",
// "I want to practise more", "more questions please".
var wantsPractice = regexp.MustCompile(`(?i)\b(?:more\s+(?:practi[cs]e|questions?|of\s+these|like\s+(?:this|these|that))|practi[cs]e\s+(?:more|some\s+more|again)|another\s+(?:one|question)|give\s+me\s+(?:more|another))\b`)

// asksWhy reports whether a message asks why: "why is -1 x -2 = 2 tho",
// "how come it's positive".
func asksWhy(msg string) bool {
	w := words(msg)
	for len(w) > 1 && openers[w[0]] {
		w = w[1:]
	}
	return len(w) > 0 && (w[0] == "why" || w[0] == "kyun" || w[0] == "kyu" || len(w) > 1 && w[0] == "how" && w[1] == "come")
}

// wantsQuestions asks to go on to the questions now: "can we skip to the
// questions?", "just test me", "i already know this".
// It is the whole message, so "don't test me yet" and "test me later" are
// none.
var wantsQuestions = regexp.MustCompile(`(?i)^\W*(?:(?:ok(?:ay)?|yes|yeah|hmm|sir|ma'?am|miss|i\s+(?:already\s+know\s+(?:this|that|it)|know\s+(?:this|that|it)\s+already))\W+)*(?:(?:can|could|may)\s+(?:we|you|i)\s+|let'?s\s+|just\s+|please\s+|pls\s+|plz\s+)*(?:skip(?:\s+(?:this|ahead|it))?\s+to\s+(?:the\s+)?(?:questions?|practice|check)|(?:go|jump|move)\s+(?:straight\s+)?to\s+the\s+questions?|(?:test|quiz)\s+me|ask\s+me\s+(?:a\s+|some\s+)?questions?|i\s+already\s+know\s+(?:this|that|it)|i\s+know\s+(?:this|that|it)\s+already)(?:\s+(?:now|please|pls|plz|instead))?\W*$`)

// skipRequest finds a request to skip the part being explained: "skip",
// "skip this part please", "can we skip that?".
var skipRequest = regexp.MustCompile(`(?i)\bskip\b(?:\s+(?:this|it|that|ahead|the\s+explanation|for\s+now)\b|\W*$)`)

// asksToSkip reports whether a message asks to skip the part being
// explained; "skip counting" is a way of counting, not a request.
func asksToSkip(msg string) bool {
	return skipRequest.MatchString(msg) && !strings.Contains(strings.ToLower(msg), "skip count")
}

// skipToQuestion asks the question of the next check at once, past the
// explanation still to come, and reports whether there was one.
func (l *lesson) skipToQuestion() bool {
	for id := l.s.CurrentStep; id <= l.topic.TotalSteps(); id++ {
		st, _ := l.topic.Step(id)
		if st.Type == tutor.StepExplain {
			continue
		}
		if q, ok := forStep(l.topic, l.rec, l.s.SessionID, st); ok {
			l.advance(id)
			l.ask(q, id, mAsk)
			l.note("skipped to the question of step " + strconv.Itoa(id))
			return true
		}
	}
	return false
}

// morePractice asks another bank question on the concept of the question
// asked last, when one is left, or says there is none; it reports whether
// a question was asked before (none, none to practise again).
func (l *lesson) morePractice() bool {
	concept := ""
	for st := l.s.CurrentStep; st >= 1 && concept == ""; st-- {
		if ids := l.rec.atStep[st]; len(ids) > 0 {
			if bq, ok := l.topic.Question(ids[len(ids)-1]); ok {
				concept = bq.Concept
			}
		}
	}
	if concept == "" {
		return false
	}
	for _, q := range l.topic.Questions {
		if sameConcept(q, concept) && !l.rec.asked[q.ID] {
			l.ask(q, l.s.CurrentStep, mAskMore)
			l.note("more practice on " + concept)
			return true
		}
	}
	l.say(mNoMorePractice, "{concept}", lowerFirst(concept))
	l.note("no more practice on " + concept)
	return true
}

// repeat says again the piece of an explanation shown last, when it
// belongs to this step or the one before.
func (l *lesson) repeat() bool {
	last := l.rec.last
	if last.to == 0 || last.step < l.s.CurrentStep-1 || last.step > l.s.CurrentStep {
		return false
	}
	st, _ := l.topic.Step(last.step)
	flat := slices.Concat(contentSentences(st)...)
	if last.to > len(flat) {
		return false
	}
	l.out.Intent = tutor.IntentConfusion
	l.say(mAgain)
	l.add(strings.Join(flat[last.from:last.to], " "))
	l.say(mMore)
	l.sum.step, l.sum.from, l.sum.to, l.sum.total = last.step, last.from, last.to, len(flat)
	l.note("explained again")
	return true
}

// lastPiece returns the sentences of the piece of an explanation shown
// last and of its whole step, when it belongs to this step or the one
// before.
func (l *lesson) lastPiece() (piece, step []string, ok bool) {
	last := l.rec.last
	if last.to == 0 || last.step < l.s.CurrentStep-1 || last.step > l.s.CurrentStep {
		return nil, nil, false
	}
	st, _ := l.topic.Step(last.step)
	flat := slices.Concat(contentSentences(st)...)
	if last.to > len(flat) {
		return nil, nil, false
	}
	return flat[last.from:last.to], flat, true
}

// otherWay answers a learner still lost after hearing a piece of an
// explanation again: what the school words it uses without saying what
// they are mean, from the glossary, and what is still unclear. A piece
// that uses none hears the question alone.
func (l *lesson) otherWay() bool {
	piece, step, ok := l.lastPiece()
	if !ok {
		return false
	}
	l.out.Intent = tutor.IntentConfusion
	defs := wordsUsed(piece, step, l.topic.Subject, 2)
	recent := l.lastReplies(3)
	if len(defs) == 0 || !slices.ContainsFunc(defs, func(d string) bool { return !strings.Contains(recent, d) }) {
		// No words to explain, or no new ones since the last time.
		l.say(mNotReady)
		l.note("still lost; asked what to go over")
		return true
	}
	l.say(mOtherWay)
	l.add(defs...)
	l.say(mTricky)
	l.note("still lost; explained the words of the part")
	return true
}

// meaning answers "what does that mean?" about the piece of an
// explanation shown last with what the school words it uses mean (see
// wordsUsed), and reports whether it has any.
func (l *lesson) meaning() bool {
	piece, step, ok := l.lastPiece()
	if !ok {
		return false
	}
	defs := wordsUsed(piece, step, l.topic.Subject, 2)
	if len(defs) == 0 {
		return false
	}
	l.out.Intent = tutor.IntentConfusion
	l.say(mOtherWay)
	l.add(defs...)
	l.say(mMore)
	l.note("explained the words of the part")
	return true
}

// wordsUsed returns the glossary's definitions of at most n words that
// piece uses and its step does not say the meaning of, in the order the
// piece uses them. Words of another subject's section are left out: a
// lesson in maths that says "the order matters" is not about matter.
func wordsUsed(piece, step []string, subject string, n int) []string {
	text := " " + strings.Join(words(strings.Join(piece, " ")), " ") + " "
	type use struct {
		at, end int
		def     string
	}
	var uses []use
	for w, def := range glossary {
		if s := glossarySubject[w]; s != "" && !strings.EqualFold(s, subject) {
			continue
		}
		at, end := strings.Index(text, " "+w+" "), len(w)
		if at < 0 {
			at, end = strings.Index(text, " "+w+"s "), len(w)+1
		}
		if at >= 0 {
			uses = append(uses, use{at, at + end, def})
		}
	}
	// Words whose meaning the step says are left out. Few words of the
	// glossary are in a piece, so this looks at the step only for those.
	if len(uses) == 0 {
		return nil
	}
	low, defined := lowered(step), map[string]bool{}
	uses = slices.DeleteFunc(uses, func(u use) bool {
		d, ok := defined[u.def]
		if !ok {
			d = definesMeaning(low, u.def)
			defined[u.def] = d
		}
		return d
	})
	// First use first, and of words at the same place the longest ("number
	// line" before "number").
	slices.SortFunc(uses, func(a, b use) int {
		if a.at != b.at {
			return a.at - b.at
		}
		return cmp.Or(b.end-a.end, strings.Compare(a.def, b.def))
	})
	var defs []string
	end := 0
	for _, u := range uses {
		if len(defs) == n {
			break
		}
		// Within a word taken already, or another spelling of one
		// ("negative number", "negative").
		if u.at < end || slices.Contains(defs, u.def) {
			continue
		}
		defs, end = append(defs, u.def), u.end
	}
	return defs
}

// why answers a bare "why?" about the piece of an explanation shown last
// with the sentence of its step that gives a reason: the last one in the
// piece or before it, else the sentence right after it (the reason may
// come with the example that follows a rule). It reports whether it found
// one.
func (l *lesson) why() bool {
	piece, step, ok := l.lastPiece()
	if !ok {
		return false
	}
	end := l.rec.last.to
	i := lastIndexFunc(step[:end], givesReason)
	if i < 0 && end < len(step) && givesReason(step[end]) {
		i = end
	}
	if i < 0 {
		return false
	}
	if recent := l.lastReplies(1); (l.lastSaid(mWhy) || l.lastSaid(mUnclear) || l.lastSaid(mOtherWay)) && strings.Contains(l.lastReplies(2), step[i]) {
		// The learner has just heard that reason. The reason right after
		// the piece, if it is another; else what the school words of the
		// reason mean; else which part is unclear.
		if end < len(step) && givesReason(step[end]) && !strings.Contains(recent, step[end]) {
			i = end
		} else {
			l.out.Intent = tutor.IntentConfusion
			if defs := wordsUsed(step[i:i+1], step, l.topic.Subject, 2); len(defs) > 0 && !strings.Contains(recent, defs[0]) {
				l.say(mOtherWay)
				l.add(defs...)
				l.say(mMore)
				l.note("why again: explained the words of the reason")
			} else {
				l.say(mUnclear)
				l.note("why again: asked which part is unclear")
			}
			return true
		}
	}
	l.out.Intent = tutor.IntentQuestion
	l.say(mWhy)
	l.add(step[i])
	l.say(mMore)
	l.sum.step, l.sum.from, l.sum.to, l.sum.total = l.rec.last.step, end-len(piece), end, len(step)
	l.note("gave the reason")
	return true
}

func lastIndexFunc[T any](s []T, f func(T) bool) int {
	for i := len(s) - 1; i >= 0; i-- {
		if f(s[i]) {
			return i
		}
	}
	return -1
}

// givesReason reports whether a sentence gives a reason for something.
func givesReason(s string) bool {
	w := " " + strings.Join(words(s), " ") + " "
	for _, p := range []string{" because ", " since ", " thats why ", " that is why ", " this is why ", " so that "} {
		if strings.Contains(w, p) {
			return true
		}
	}
	return false
}

// bareWhy reports whether a message asks only why ("why?", "but why?",
// "how come?", "why is that?"), naming nothing it asks about.
func bareWhy(msg string) bool {
	ws := words(msg)
	for len(ws) > 1 && (ws[0] == "but" || ws[0] == "and" || ws[0] == "so" || ws[0] == "ok" || ws[0] == "okay" || ws[0] == "hmm" || ws[0] == "um" || ws[0] == "wait") {
		ws = ws[1:]
	}
	switch strings.Join(ws, " ") {
	case "why", "how come", "why is that", "whys that", "why so", "why though", "why is it so", "why is that so",
		"why does that work", "why does it work", "how does that work", "why is that true":
		return true
	}
	return false
}

// step teaches the current step, after lead: the next part of an
// explanation, or a question of a check or practice step. A check or
// practice step without questions is passed over.
func (l *lesson) step(lead string) {
	l.add(lead)
	total := l.topic.TotalSteps()
	for id := l.s.CurrentStep; id <= total; id++ {
		st, _ := l.topic.Step(id)
		if st.Type == tutor.StepExplain {
			l.advance(id)
			l.explainStep(st)
			return
		}
		if q, ok := forStep(l.topic, l.rec, l.s.SessionID, st); ok {
			l.advance(id)
			l.ask(q, id, mAsk)
			return
		}
	}
	l.complete()
}

// contentSentences returns the sentences of a step's content, paragraph
// by paragraph. A step without content (an imported reference plan) can
// only name itself.
func contentSentences(st tutor.Step) [][]string {
	var out [][]string
	for _, p := range paragraphs(st.Content) {
		if ss := sentences(p); len(ss) > 0 {
			out = append(out, ss)
		}
	}
	if len(out) == 0 {
		title := strings.TrimSpace(st.Title)
		if title == "" {
			title = st.Concept
		}
		out = [][]string{{"Let's look at " + lowerFirst(title) + " together."}}
	}
	return out
}

// unsaid returns the sentences of ss that said does not hold.
func unsaid(ss []string, said string) []string {
	var out []string
	for _, x := range ss {
		if !strings.Contains(said, x) {
			out = append(out, x)
		}
	}
	return out
}

// piece returns the sentences [from, to) of a step's content that one
// reply explains after the first told: the rest of the paragraph is cut
// into pieces of at most k sentences, of even size, and of at most 360
// bytes unless a piece is a single long sentence, and this is the first.
// ok is false when every sentence has been told.
func piece(paras [][]string, told, k int) (from, to int, ok bool) {
	start := 0
	for _, ss := range paras {
		if told < start+len(ss) {
			rest := ss[told-start:]
			n := (len(rest) + k - 1) / k
			for n < len(rest) && slices.ContainsFunc(split(rest, n), func(p string) bool { return len(p) > 360 }) {
				n++
			}
			k := len(rest) / n // split's first piece
			if k == 1 && len(rest) > 2 && utf8.RuneCountInString(rest[0]) < 40 && len(rest[0])+len(rest[1]) <= 360 {
				k++ // "Two short rules do the same job." does not stand alone
			}
			// Nor does a piece end on what opens the next sentence: an
			// example's setting ("Example: a price goes up from ₹400 to
			// ₹500.") or a question the lesson answers next ("How many
			// halves fit into 3 wholes?"). It goes with the next piece.
			if last := rest[k-1]; k > 1 && k < len(rest) && (strings.HasPrefix(last, "Example") || strings.HasSuffix(last, "?")) {
				k--
			}
			return told, told + k, true
		}
		start += len(ss)
	}
	return told, told, false
}

// spans returns the pieces of at most k sentences a step's content is
// explained in, in order, as sentence ranges [from, to).
func spans(paras [][]string, k int) [][2]int {
	var out [][2]int
	for told := 0; ; {
		from, to, ok := piece(paras, told, k)
		if !ok {
			return out
		}
		out = append(out, [2]int{from, to})
		told = to
	}
}

// explanation returns a step's content in the three-sentence pieces a
// learner who is not quiet is shown, one per turn.
func explanation(st tutor.Step) []string {
	paras := contentSentences(st)
	flat := slices.Concat(paras...)
	var out []string
	for _, sp := range spans(paras, 3) {
		out = append(out, strings.Join(flat[sp[0]:sp[1]], " "))
	}
	return out
}

// partSentences returns the sentences of part p (1-based; past the end,
// the last) of explanation(st), the unit summaries counted in before they
// counted sentences.
func partSentences(st tutor.Step, p int) (from, to int) {
	sp := spans(contentSentences(st), 3)
	last := sp[min(max(p, 1), len(sp))-1]
	return last[0], last[1]
}

// split joins ss into k pieces of as even a size as possible.
func split(ss []string, k int) []string {
	out := make([]string, 0, k)
	for i := range k {
		from, to := i*len(ss)/k, (i+1)*len(ss)/k
		out = append(out, strings.Join(ss[from:to], " "))
	}
	return out
}

// pieceSentences is how many sentences of an explanation one reply shows:
// two on the first turn (whose pacing allows two or three sentences in
// all), to a learner who writes little and to one who is struggling; three
// otherwise.
func (l *lesson) pieceSentences() int {
	if l.s.TurnCount == 0 || tutor.Style(l.s.History, l.turn.Message).Level == tutor.StyleQuiet ||
		tutor.Pacing(l.s, l.topic).Pace == tutor.PaceSimplify {
		return 2
	}
	return 3
}

// explainStep teaches the next piece of an explain step. After the last
// piece the lesson moves to the next step, or ends after the last step.
func (l *lesson) explainStep(st tutor.Step) {
	paras := contentSentences(st)
	flat := slices.Concat(paras...)
	k := l.pieceSentences()
	from, to, ok := piece(paras, min(l.rec.told[st.ID], len(flat)), k)
	text := flat[from:to]
	if !ok {
		// Told in full before: show the last piece again.
		sp := spans(paras, k)
		from, to = sp[len(sp)-1][0], sp[len(sp)-1][1]
		text = flat[from:to]
	} else if recent := l.lastReplies(2); recent != "" {
		// Sentences a doubt's answer just quoted are not said twice; a
		// piece said in full that way gives way to the next one.
		whole := text
		text = unsaid(text, recent)
		for len(text) == 0 && to < len(flat) {
			_, next, _ := piece(paras, to, k)
			whole = flat[to:next]
			text, to = unsaid(whole, recent), next
		}
		if len(text) > 0 && len(text) < len(whole) && utf8.RuneCountInString(strings.Join(text, " ")) < 40 {
			// "Two short rules do the same job." does not stand alone.
			text = whole
		}
	}
	l.add(strings.Join(text, " "))
	l.sum.step, l.sum.from, l.sum.to, l.sum.total = st.ID, from, to, len(flat)
	l.note("explained " + st.Title)
	if to < len(flat) {
		l.say(mMore)
		return
	}
	if st.ID >= l.topic.TotalSteps() {
		l.complete()
		return
	}
	l.advance(st.ID + 1)
	if next, _ := l.topic.Step(st.ID + 1); next.Type == tutor.StepExplain {
		l.say(mReadyNext, "{title}", lowerFirst(next.Title))
	} else {
		l.say(mReadyQuestion)
	}
}

// complete ends the lesson with a wrap-up naming what it covered, and
// offers harder questions when the session allows turns after it (a
// session that took long to finish may have none left).
func (l *lesson) complete() {
	total := l.topic.TotalSteps()
	l.advance(total + 1)
	l.out.SessionComplete = true
	concepts := conceptList(l.topic.Concepts(), 4)
	if ms := l.mistakes(); len(ms) > 0 {
		l.say(mWrapUpWatch, "{concepts}", concepts, "{mistakes}", watchList(ms))
		l.fixes(ms)
	} else {
		l.say(mWrapUp, "{concepts}", concepts)
	}
	if l.turnsLeft() >= 1+questionTurns { // one for "yes", then the question's
		l.say(mOfferHarder)
	} else {
		l.say(mFarewell)
	}
	l.note("lesson complete")
}

// answerLike matches a message that gives an answer: one that ends on a
// fraction or a ratio, a bare number, or a number at its end after "I
// think", "it's", "the answer is" ("I'm in grade 7", "step 2 please", "it's
// 3 pm here" give none).
var answerLike = regexp.MustCompile(`(?i)^[^0-9]{0,20}(?:\d+\s*/\s*\d+|\d+\s*:\s*\d+)\s*[.!]?\s*$|^\s*-?\d+(?:\.\d+)?\s*$|\b(?:think|answer|it'?s|equals?)\b[^0-9]{0,12}-?\d[\d/.:%]*\s*[.!]?\s*$`)

// offerMore offers a harder question when the session has turns left for
// it, and says goodbye when it has not.
func (l *lesson) offerMore() {
	if l.turnsLeft() >= 1+questionTurns {
		l.say(mOfferHarder)
	} else {
		l.say(mFarewell)
	}
}

// questionTurns are the turns a harder question after the lesson needs: one
// for the answer and one for a second try.
const questionTurns = 2

// turnsLeft is how many turns the session still tutors after this one once
// the lesson is complete (see tutor.State.PostCompletion); 0 without
// extension.
func (l *lesson) turnsLeft() int {
	if !l.s.AllowExtension {
		return 0
	}
	return max(0, tutor.MaxExtensionTurns-(l.s.TurnCount-2*l.topic.TotalSteps()))
}

// extension answers a message after the lesson: a harder question from the
// bank, unless the learner declines.
func (l *lesson) extension() {
	l.sum.step = l.topic.TotalSteps() + 1
	switch {
	case isNo(l.turn.Message):
		l.say(mDeclined)
		l.note("declined more questions")
	case (l.lastSaid(mDeclined) || l.lastSaid(mFarewell)) && isAck(l.turn.Message):
		// "ok" or "thanks" to a goodbye is no yes to another question.
		l.say(mFarewell)
		l.note("acknowledged the goodbye")
	case l.turn.Precheck == tutor.PrecheckOffTopic:
		l.out.Intent = tutor.IntentOffTopic
		l.offerMore()
		l.note("off topic after the lesson")
	case asksRecap(l.turn.Message) || l.turn.Precheck == tutor.PrecheckIDK || asksHelp(l.turn.Message):
		// "What did we learn?": the lesson in one sentence, and the mistake
		// to watch out for, as the wrap-up said them. "Help" or "I don't
		// get it" after the lesson hears the same, not a harder question.
		l.out.Intent = tutor.IntentQuestion
		l.say(mRecap, "{concepts}", conceptList(l.topic.Concepts(), 4))
		ms := l.mistakes()
		if len(ms) > 0 {
			l.say(mWatch, "{mistakes}", watchList(ms))
			l.fixes(ms)
		}
		l.offerMore()
		l.note("recap after the lesson")
	case (isQuestion(l.turn.Message) || objects(l.turn.Message)) && asksAbout(l.turn.Message) && !wantsMore.MatchString(l.turn.Message) && l.doubtAfter():
	default:
		l.harderQuestion()
	}
}

// wantsMore says yes to another question, or asks for one: "sure, with
// negative numbers?", "can you give me a percentage word problem?".
var wantsMore = regexp.MustCompile(`(?i)^\W*(?:yes|yeah|yep|yup|sure|ok|okay|haan|ha|ji|please|pls)\b|\b(?:another|harder|one\s+more|more)\b.*\b(?:question|one|problem|sum)s?\b|\bgive\s+me\b|\b(?:question|problem)\b`)

// doubtAfter answers a doubt after the lesson ("so dividing by a fraction
// less than 1 always makes the answer bigger right?") from the lesson, as
// a doubt between steps is, then offers a harder question again; it
// reports whether the lesson had an answer. A question not asked yet is
// not given away.
func (l *lesson) doubtAfter() bool {
	msg := l.turn.Message
	calc, calculated := worked(msg)
	calculated = calculated && !l.spoils(msg, calc)
	checked := ""
	if calculated {
		checked = calc
	}
	_, sents, ok := explain(l.topic, withHints, msg, 2, nil)
	mistake, wrong := putForward(l.topic, msg, checked, sents)
	sents = setRight(l.topic, withHints, msg, mistake, wrong, sents, func(q tutor.BankQuestion) bool { return l.rec.asked[q.ID] })
	ok = (ok || wrong) && len(sents) > 0
	verdict := ""
	switch {
	case wrong || calculated:
	case ok:
		if v, answer, checked := temperatureVerdict(l.v, l.topic, msg, sents); checked {
			verdict, sents = v, answer
			break
		}
		fallthrough
	default:
		if v, answer, checked := factVerdict(l.v, l.topic, withHints, msg, sents); checked && !claimedWord.MatchString(msg) && !l.aboutUnasked(msg) {
			verdict, sents, ok = v, answer, true
		}
	}
	if !wrong && !calculated && !ok {
		return false
	}
	l.out.Intent = tutor.IntentQuestion
	if wrong {
		l.say(mNotSo, "{mistake}", lowerFirst(mistake))
		calc = noAgain(calc)
	}
	if verdict != "" {
		l.add(verdict)
	}
	if calculated {
		l.add(calc)
	}
	if ok && !(calculated && selfContained(calc)) {
		l.add(sents...)
	}
	l.offerMore()
	l.note("answered a doubt after the lesson")
	return true
}

// asksRecap reports whether a message asks what the lesson covered: "what
// did we learn?", "can you summarise?", "recap please".
func asksRecap(msg string) bool {
	if strings.ContainsAny(msg, "0123456789") {
		return false // "sum up 3 and 4" asks for a sum
	}
	w := " " + strings.Join(words(msg), " ") + " "
	for _, p := range []string{" what did we learn", " what have we learned", " what have we learnt", " what did we do ",
		" what did we cover", " what have we covered", " summary ", " summarise ", " summarize ", " recap ", " sum up "} {
		if strings.Contains(w, p) {
			return true
		}
	}
	return false
}

func (l *lesson) harderQuestion() {
	if l.turnsLeft() < questionTurns {
		// No turns are left for the answer and a second try: say goodbye
		// rather than ask a question whose answer the session would turn
		// away ("This lesson is finished" to a corrected answer).
		l.say(mFarewell)
		l.note("no turns left for another question")
		return
	}
	q, ok := harder(l.topic, l.rec, l.s.SessionID)
	if !ok {
		l.say(mBankDone)
		l.note("no questions left")
		return
	}
	m := mAskMore
	if l.isHarder(q) {
		m = mAskHarder
	}
	l.ask(q, l.topic.TotalSteps()+1, m)
}

// isHarder reports whether q is harder than the questions the lesson has
// asked: its difficulty is above that of every one of them. Only then is it
// introduced as a harder question.
func (l *lesson) isHarder(q tutor.BankQuestion) bool {
	hardest := -1
	for id := range l.rec.asked {
		if bq, ok := l.topic.Question(id); ok {
			hardest = max(hardest, rank(bq.Difficulty))
		}
	}
	if hardest < 0 {
		return q.Difficulty == tutor.Hard
	}
	return rank(q.Difficulty) > hardest
}

// timeUp wraps up a sitting that has reached its time limit; the domain
// ends it. An answer given on the way still counts.
func (l *lesson) timeUp() {
	if q := l.s.LastQuestion; q != nil && l.turn.Evaluation.Verdict.Known() {
		l.judge(q.Concept, verdictResult(l.turn.Evaluation.Verdict), helpOf(q))
	}
	covered := l.s.ConceptsCovered
	if c, ok := l.s.CurrentConcept(l.topic); ok && len(covered) == 0 {
		covered = []string{c}
	}
	l.say(mTimeUp, "{concepts}", conceptList(covered, 4))
	if ms := l.unspoiled(l.mistakes()); len(ms) > 0 {
		l.say(mWatch, "{mistakes}", watchList(ms))
		l.fixes(ms)
	}
	l.note("time is up")
}

// mistakes returns the misconceptions the session's feedback names (see
// mistakes), with the one this turn's wrong answer shows, which the domain
// records after the reply as ApplyTurn does: the first time it shows on
// the pending question.
func (l *lesson) mistakes() []mistake {
	now := ""
	if q := l.s.LastQuestion; q != nil && l.turn.Evaluation.Verdict == answer.Incorrect {
		if bq := bankOf(l.topic, q); bq.ShowsMisconception(l.turn.Message) && !q.CountedMisconception(bq) {
			now = bq.Misconception
		}
	}
	return mistakes(l.s, l.topic, now)
}

// unspoiled leaves out the mistakes whose fix would give away the pending
// question's answer: the fix would be cut from the reply, leaving the
// mistake named without the rule that makes sense of it.
func (l *lesson) unspoiled(ms []mistake) []mistake {
	q := l.s.LastQuestion
	if q == nil || l.directives().MayRevealAnswer {
		return ms
	}
	bq := bankOf(l.topic, q)
	return slices.DeleteFunc(ms, func(m mistake) bool {
		return m.fix != "" && givesAway(m.fix, bq.Expected(), q.QuestionText, l.dialogue(q))
	})
}

// fixes adds the sentences of the lesson that set the mistakes right.
func (l *lesson) fixes(ms []mistake) {
	for _, m := range ms {
		if m.fix != "" && !slices.Contains(l.parts, m.fix) {
			l.add(m.fix)
		}
	}
}

func verdictResult(v answer.Verdict) tutor.Result {
	switch v {
	case answer.Correct:
		return tutor.ResultCorrect
	case answer.Partial:
		return tutor.ResultPartial
	}
	return tutor.ResultIncorrect
}

// conceptList names up to n concepts in a sentence.
func conceptList(cs []string, n int) string {
	var names []string
	for _, c := range cs {
		names = append(names, lowerFirst(c))
	}
	if len(names) > n {
		names = append(names[:n-1], "more")
	}
	if len(names) == 0 {
		return "the basics"
	}
	return joinList(names)
}

// topicTitle is the subtopic's name for use inside a sentence: the part of
// "Fractions - Adding and subtracting fractions" after the topic.
func topicTitle(t *tutor.Topic) string {
	if t == nil {
		return "this topic"
	}
	name := t.TopicName
	if i := strings.LastIndex(name, " - "); i >= 0 {
		name = name[i+3:]
	}
	if name = strings.TrimSpace(name); name == "" {
		return "this topic"
	}
	return lowerFirst(name)
}

// isYes reports whether a short message agrees: "yes", "ok, ready".
func isYes(msg string) bool {
	w := words(msg)
	if len(w) == 0 || len(w) > 5 {
		return false
	}
	switch w[0] {
	case "yes", "yeah", "yep", "yup", "ok", "okay", "sure", "ready", "haan", "ha", "han", "ji", "alright", "go":
		return true
	}
	return false
}
