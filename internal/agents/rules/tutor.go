package rules

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

// examStay is the reply to an exam turn sent to the tutor by mistake.
const examStay = "Let's stay with the exam."

// Tutor is the rules engine's master tutor. The zero value is ready to use
// and safe for concurrent use.
type Tutor struct{}

// NewTutor returns the rules engine's master tutor.
func NewTutor() *Tutor { return &Tutor{} }

var _ agents.Tutor = (*Tutor)(nil)

// Respond returns the tutor's reply to a teach_me or clarify_doubts turn.
// The reply depends only on the turn: the same turn always gets the same
// reply. It returns an error only when ctx is done.
func (*Tutor) Respond(ctx context.Context, t agents.Turn) (agents.TutorReply, agents.Call, error) {
	if err := ctx.Err(); err != nil {
		return agents.TutorReply{}, agents.Call{Agent: agents.NameMasterTutor, Provider: Provider, Err: err}, err
	}
	var r agents.TutorReply
	switch t.State.Mode {
	case tutor.ModeClarify:
		r.Output = clarify(t)
	case tutor.ModeExam:
		r.Output = exam(t)
	default:
		r.Output, r.NextQuestion = teach(t)
	}
	c := call(agents.NameMasterTutor, r.Output)
	c.Reasoning = r.Output.Reasoning
	return r, c, nil
}

// exam returns the tutor output of an exam turn. Exam answers go to the
// exam evaluator and the domain words exam turns; the tutor only asks a
// learner who hedged between two answers ("3:5 or 5:3") to pick one, one
// who gave a letter to options shown without letters to say it in words,
// and one who gave a letter to a question without options for the answer
// itself, as a lesson does (see noAnswer), without judging the question.
// Anything else is a turn sent to the tutor by mistake.
func exam(t agents.Turn) tutor.TutorOutput {
	out := tutor.TutorOutput{Response: examStay, Intent: tutor.IntentContinuation, TurnSummary: "Exam: stayed with the exam",
		MisconceptionsDetected: []string{}, MasteryUpdates: []tutor.MasteryUpdate{}}
	switch {
	case hedged(t.Evaluation):
		out.Response, out.TurnSummary = newVoice(t.State).say(mChoose), "Exam: asked to choose one answer"
	case t.Evaluation.Reason == answer.ReasonUnseenLetter:
		out.Response, out.TurnSummary = newVoice(t.State).say(mInWords), "Exam: asked for the option in words"
	case t.Evaluation.Reason == answer.ReasonLetterNoOptions:
		out.Response, out.TurnSummary = newVoice(t.State).say(mNoOptions), "Exam: asked for an answer, not a letter"
	}
	return out
}

// hedged reports whether the answer evaluator found the learner offering
// two answers without committing to either.
func hedged(ev answer.Result) bool {
	return ev.Verdict == answer.NotAttempt && strings.HasPrefix(ev.Reason, "hedged")
}

// lesson builds one teach_me reply.
type lesson struct {
	turn  agents.Turn
	s     tutor.State
	topic *tutor.Topic
	v     *voice
	rec   record
	out   tutor.TutorOutput
	next  *tutor.BankQuestion
	parts []string
	sum   summary
}

// teach returns the tutor output of a teach_me turn and the bank question
// it asks, if any.
func teach(t agents.Turn) (tutor.TutorOutput, *tutor.BankQuestion) {
	l := &lesson{turn: t, s: t.State, topic: t.Topic, v: newVoice(t.State)}
	l.out = tutor.TutorOutput{Intent: tutor.IntentContinuation, MisconceptionsDetected: []string{}, MasteryUpdates: []tutor.MasteryUpdate{}}
	l.sum.step = t.State.CurrentStep
	if l.topic.TotalSteps() == 0 {
		l.say(mNoLesson)
		l.note("no study plan")
		return l.finish()
	}
	l.rec = readRecord(l.s, l.topic)
	complete := l.s.IsComplete(l.topic)
	switch {
	case t.Precheck == tutor.PrecheckStop:
		l.say(mStop)
		l.note("stopped at the learner's request")
	case !complete && (t.Guard.TimeUp || tutor.TimeUp(l.s, t.Now)):
		l.timeUp()
	case l.s.LastQuestion != nil:
		l.pending()
	case complete:
		l.extension()
	case l.s.TurnCount == 0 && l.doubtFirst(t.Message):
		// "Before we start, why does dividing make numbers bigger?"
	case l.s.TurnCount == 0 && isNo(t.Message):
		l.step(l.v.say(mStartGently))
	case l.s.TurnCount == 0:
		l.step(l.v.say(mStart))
		l.trimOpener()
	default:
		l.atStep()
	}
	return l.finish()
}

// firstTurnSentences is the length of a first reply that the reference's
// first-turn pacing allows ("2-3 sentences MAX").
const firstTurnSentences = 3

// trimOpener drops the opening phrase ("Let's begin.") of a first reply
// that has enough sentences without it: the filler is what goes when the
// reply would run over the first turn's length.
func (l *lesson) trimOpener() {
	if len(l.parts) > 1 && len(sentences(compose(l.parts[1:]...))) >= firstTurnSentences {
		l.parts = l.parts[1:]
	}
}

// doubtFirst answers a doubt asked in reply to the welcome (see doubt).
func (l *lesson) doubtFirst(msg string) bool {
	q, ok := questionIn(msg)
	return ok && l.doubt(q)
}

func (l *lesson) say(m move, slots ...string) { l.parts = append(l.parts, l.v.say(m, slots...)) }
func (l *lesson) add(text ...string)          { l.parts = append(l.parts, text...) }
func (l *lesson) note(n string)               { l.sum.notes = append(l.sum.notes, n) }

// ask asks bank question q at step st with move m.
func (l *lesson) ask(q tutor.BankQuestion, st int, m move) {
	l.say(m, "{q}", questionText(q))
	l.next = &q
	l.out.QuestionAsked = new(q.Text)
	l.out.ExpectedAnswer = new(q.Answer)
	l.out.QuestionConcept = new(q.Concept)
	l.sum.step, l.sum.asked = st, q.ID
}

// advance moves the lesson to step n.
func (l *lesson) advance(n int) {
	if n > l.s.CurrentStep {
		l.out.AdvanceToStep = new(n)
	}
}

// help is how much help the learner had with a question before answering.
type help int

const (
	unaided       help = iota // a first try, without "I don't know"
	helped                    // after a wrong answer or a hint
	afterSolution             // after the worked solution (the explain phase)
)

// helpOf returns how much help the learner has had with q so far.
func helpOf(q *tutor.Question) help {
	switch {
	case q.Phase == tutor.PhaseExplain:
		return afterSolution
	case q.WrongAttempts > 0 || q.IDKCount > 0:
		return helped
	}
	return unaided
}

// judge records a judged answer to the pending question. A right answer
// copied from a worked solution just shown says little about mastery: it
// counts as right with help.
func (l *lesson) judge(concept string, r tutor.Result, h help) {
	correct := r == tutor.ResultCorrect
	l.out.Intent = tutor.IntentAnswer
	l.out.AnswerCorrect = new(correct)
	signal, score := tutor.SignalNeedsRemediation, 0.3
	switch {
	case correct && h == unaided:
		signal, score = tutor.SignalStrong, 0.8
	case correct && h == afterSolution:
		signal, score = tutor.SignalAdequate, 0.5
	case correct:
		signal, score = tutor.SignalAdequate, 0.8
	case r == tutor.ResultPartial:
		signal, score = tutor.SignalAdequate, 0.6
	}
	l.out.MasterySignal = new(signal)
	if concept != "" {
		l.out.MasteryUpdates = append(l.out.MasteryUpdates, tutor.MasteryUpdate{Concept: concept, Score: score})
	}
}

// directives returns the guardrails' directives for the move made so far:
// the call ApplyTurn will make with this output, never allowing more than
// the directives the turn came with. A reply written after a correction
// never reveals the answer.
func (l *lesson) directives() tutor.Guarded {
	out := l.out
	g := tutor.Guard(l.s, l.topic, tutor.Outcome{
		Now: l.turn.Now, StudentMessage: l.turn.Message, Precheck: l.turn.Precheck,
		Verdict: l.turn.Evaluation.Verdict, Output: &out,
	})
	if l.turn.Guard.Output != nil && l.turn.Evaluation.Verdict.Known() {
		g.MayRevealAnswer = g.MayRevealAnswer && l.turn.Guard.MayRevealAnswer
	}
	if l.turn.Correction != "" {
		g.MayRevealAnswer = false
	}
	g.MustExplain = g.MustExplain || l.turn.Guard.MustExplain
	return g
}

// finish composes the reply, removes any sentence that would give away the
// answer of the pending question (unless the guardrails allow it) or of
// the question just asked, and fills in the summary and reasoning.
func (l *lesson) finish() (tutor.TutorOutput, *tutor.BankQuestion) {
	// A sentence said twice is said once: the praise's idea can be the
	// wrap-up's fix for a mistake on the same question.
	var parts []string
	for _, p := range l.parts {
		if p = strings.TrimSpace(p); p != "" && !slices.Contains(parts, p) {
			parts = append(parts, p)
		}
	}
	reply := compose(parts...)
	if q := l.s.LastQuestion; q != nil && !l.directives().MayRevealAnswer {
		bq := bankOf(l.topic, q)
		var quoted []string // the question asked next, quoted as it is
		if l.next != nil {
			quoted = append(quoted, l.next.Text)
		}
		reply = redact(reply, bq.Expected(), q.QuestionText, l.dialogue(q), quoted...)
	}
	if l.next != nil {
		reply = redact(reply, l.next.Expected(), l.next.Text, nil)
	}
	if strings.TrimSpace(reply) == "" {
		reply = l.v.say(mGuess)
	}
	l.out.Response = reply
	l.out.TurnSummary = cut(l.sum.String(), 80)
	l.out.Reasoning = "Rules engine: " + l.sum.String() + "."
	return l.out, l.next
}

// dialogue returns what the learner has said since q was asked, this
// message included: what they said is no longer the tutor's to withhold.
func (l *lesson) dialogue(q *tutor.Question) []answer.Utterance {
	var since time.Time
	if q.AskedAt != nil {
		since = q.AskedAt.Time()
	}
	var d []answer.Utterance
	for _, m := range l.s.History {
		if m.Role == tutor.RoleStudent && !m.Timestamp.Time().Before(since) {
			d = append(d, answer.Utterance{Role: answer.RoleStudent, Text: m.Content})
		}
	}
	return append(d, answer.Utterance{Role: answer.RoleStudent, Text: l.turn.Message})
}

// redact removes the sentences of reply that give away the expected answer.
// The quoted questions are asked in it as they are (see answer.LeakCheck).
func redact(reply string, exp answer.Expected, question string, d []answer.Utterance, quoted ...string) string {
	leaks := answer.DetectLeaks(answer.LeakCheck{Expected: exp, Question: question, Dialogue: d, Reply: reply, Quoted: quoted})
	if len(leaks) == 0 {
		return reply
	}
	for i := len(leaks) - 1; i >= 0; i-- {
		s := leaks[i].Sentence
		reply = reply[:s.Start] + reply[s.End:]
	}
	return strings.Join(strings.Fields(reply), " ")
}

// givesAway reports whether text gives away the expected answer.
func givesAway(text string, exp answer.Expected, question string, d []answer.Utterance) bool {
	return len(answer.DetectLeaks(answer.LeakCheck{Expected: exp, Question: question, Dialogue: d, Reply: text})) > 0
}
