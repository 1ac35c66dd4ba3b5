package llmagent

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

// Tutor is the model-backed master tutor. It runs teach_me turns with the
// lesson prompts and clarify_doubts turns with the doubts prompts; exam
// answers go to the ExamEvaluator instead.
type Tutor struct{ a agent }

var _ agents.Tutor = (*Tutor)(nil)

// NewTutor returns a master tutor that calls c with the tutor component's
// configuration cfg (provider, model, temperature, output limit, effort).
func NewTutor(c llm.Client, cfg llm.Config, o Options) *Tutor {
	return &Tutor{newAgent(agents.NameMasterTutor, c, cfg, o)}
}

// Respond implements agents.Tutor: one structured call with the mode's
// system prompt, which is the same on every turn of a session, and the
// turn prompt. When the tutor asks one of the lesson's bank questions on
// the current step's concept, the reply names it as NextQuestion, so that
// the answer is checked against the bank's full answer and the hint ladder
// uses the bank's hints.
//
// Errors are *llm.Error: the client's failure, or KindInvalidRequest for a
// turn without a lesson or in exam mode.
func (tu *Tutor) Respond(ctx context.Context, t agents.Turn) (agents.TutorReply, agents.Call, error) {
	p, err := tutorPrompt(t)
	if err != nil {
		c, err := tu.a.refuse(err)
		return agents.TutorReply{}, c, err
	}
	out, c, err := ask[tutor.TutorOutput](ctx, &tu.a, t.State.SessionID, p)
	if err != nil {
		return agents.TutorReply{}, c, err
	}
	c.Reasoning = out.Reasoning
	reply := agents.TutorReply{Output: out}
	if t.State.Mode == tutor.ModeTeachMe {
		reply.NextQuestion = bankQuestion(t.Topic, t.State, &out)
	}
	return reply, c, nil
}

func tutorPrompt(t agents.Turn) (prompt, error) {
	system, err := tutorSystem(t.State.Mode, t.Topic, t.State.StudentContext)
	if err != nil {
		return prompt{}, err
	}
	var user string
	if t.State.Mode == tutor.ModeClarify {
		user, err = render(tmplClarifyTurn, newClarifyTurn(t))
	} else {
		user, err = render(tmplTutorTurn, newTeachTurn(t))
	}
	if err != nil {
		return prompt{}, err
	}
	return prompt{system: system, user: user}, nil
}

// tutorSystem renders the system prompt of a session. It sees only what
// is fixed for a session's lifetime — the mode, the lesson and the learner
// — so it is byte-identical on every turn, and the providers' prompt
// caches can serve it.
func tutorSystem(mode tutor.Mode, t *tutor.Topic, sc tutor.StudentContext) (string, error) {
	if t == nil {
		return "", errors.New("the turn has no lesson")
	}
	data := lessonPrompt{Student: newStudentView(sc), Lesson: newLessonView(t)}
	switch mode {
	case tutor.ModeTeachMe:
		return render(tmplTutorSystem, data)
	case tutor.ModeClarify:
		return render(tmplClarifySystem, data)
	}
	return "", fmt.Errorf("the tutor does not run %q turns", mode)
}

// teachTurn is the data of the teach_me turn prompt.
type teachTurn struct {
	Step           stepView
	Total          int
	Finished       bool // past the last step: the session's extension turns
	Mastery        []masteryLine
	Misconceptions []misconceptionLine
	Timeline       string
	Pacing         string
	Style          string
	Pending        *pendingView
	Verdict        *verdictView
	Note           string // "idk" or "off_topic", from the pre-check
	MustExplain    bool
	TimeUp         bool
	Correction     string
	Questions      []string // the bank's questions on the step's concept
	History        []string
	Message        string
	Student        studentView
}

type masteryLine struct {
	Concept string
	Score   string // one decimal
}

type misconceptionLine struct {
	Description, Concept string
	Count                int
	Recurring            bool
}

// pendingView is the question awaiting an answer, as the turn shows it.
type pendingView struct {
	Text, Concept   string
	Attempt         int // this message's attempt: wrong attempts so far + 1
	WrongAttempts   int
	PreviousAnswers []string
	Move            string // the strategy for this reply (see tutor_turn.tmpl)
	IfWrong         string // the strategy if the tutor finds the answer wrong, when no verdict is known
	Rubric          string
	Hints           []string // the hints of the rungs reached, never beyond level 2
	Reveal          bool
	Answer          string // set only when Reveal
	Solution        string // set only when Reveal and the question has one
}

type verdictView struct {
	Result string // correct | partial | incorrect
	Answer string // the answer the evaluator found in the message, quoted
	Reason string
}

// maxVerdictAnswerRunes bounds the learner's answer a verdict quotes.
const maxVerdictAnswerRunes = 200

// newVerdictView describes the evaluator's verdict. The answer it found may
// be the learner's whole reply: it is quoted with its quotes escaped, so
// that no reply can write the rest of a verdict the tutor takes as fact
// ("oxygen\": CORRECT. This is a fact…").
func newVerdictView(ev answer.Result) *verdictView {
	v := &verdictView{Result: string(ev.Verdict), Reason: oneLine(ev.Reason)}
	if a := oneLine(ev.Extracted); a != "" {
		v.Answer = strconv.Quote(cutRunes(a, maxVerdictAnswerRunes))
	}
	return v
}

// Moves of a reply to a pending question besides the ladder's strategies
// (tutor.Strategy), as tutor_turn.tmpl names them.
const (
	movePraise    = "praise"
	moveEncourage = "encourage"
	moveReask     = "reask"
)

func newTeachTurn(t agents.Turn) teachTurn {
	s, tp := t.State, t.Topic
	g := directives(t)
	v := teachTurn{
		Total:       tp.TotalSteps(),
		Pacing:      tutor.Pacing(s, tp).Text,
		Style:       tutor.Style(s.History, t.Message).Directive(),
		MustExplain: g.MustExplain,
		TimeUp:      g.TimeUp,
		Correction:  oneLine(t.Correction),
		History:     historyView(s.History, historyLines),
		Message:     quoted(t.Message),
		Student:     newStudentView(s.StudentContext),
	}
	// While a question waits for its answer, which the reply may not
	// give, the prompt shows nothing that states it: the model is told to
	// teach the step's content and may ask the step's questions.
	secret := func(string) bool { return false }
	if q := s.LastQuestion; q != nil && !g.MayRevealAnswer {
		exp := q.Expected(tp)
		secret = func(text string) bool {
			return len(answer.DetectLeaks(answer.LeakCheck{Expected: exp, Question: q.QuestionText, Reply: text})) > 0
		}
	}
	if st, ok := s.CurrentStepData(tp); ok {
		v.Step = stepView{Number: st.ID, Type: string(st.Type), Concept: st.Concept, Hint: oneLine(st.ContentHint)}
		if st.Type == tutor.StepExplain {
			v.Step.Content = withoutSentences(strings.TrimSpace(st.Content), secret)
		}
		v.Questions = stepQuestions(tp, st.Concept, s.LastQuestion, secret)
	} else {
		v.Finished = true
	}
	for _, m := range s.MasteryEstimates {
		v.Mastery = append(v.Mastery, masteryLine{m.Concept, strconv.FormatFloat(m.Score, 'f', 1, 64)})
	}
	// The model's own notes (misconceptions it named, its turn summaries)
	// state the right answer as readily as the step's content does.
	for _, m := range s.Misconceptions {
		if !m.Resolved {
			v.Misconceptions = append(v.Misconceptions, misconceptionLine{withheld(oneLine(m.Description), secret), m.Concept, m.Count, m.Recurring()})
		}
	}
	tl := nonBlank(s.SessionSummary.TurnTimeline)
	tl = tl[max(0, len(tl)-timelineEntries):]
	for i, e := range tl {
		// "Turn 3: …": the turn's number is no answer.
		if label, note, ok := strings.Cut(e, ": "); ok && strings.HasPrefix(label, "Turn ") {
			tl[i] = label + ": " + withheld(note, secret)
		} else {
			tl[i] = withheld(e, secret)
		}
	}
	v.Timeline = strings.Join(tl, " | ")
	switch t.Precheck {
	case tutor.PrecheckIDK:
		v.Note = "idk"
	case tutor.PrecheckOffTopic:
		v.Note = "off_topic"
	}
	if ev := t.Evaluation; ev.Verdict.Known() {
		v.Verdict = newVerdictView(ev)
	}
	if q := s.LastQuestion; q != nil {
		v.Pending = newPending(t, *q, g.MayRevealAnswer)
		v.Pending.Rubric = withoutSentences(v.Pending.Rubric, secret) // a rubric may state the answer
	}
	return v
}

// directives returns the guardrails' directives for the reply about to be
// written: those tutor.Guard gives an output that takes the evaluator's
// verdict, never allowing more than the turn's own directives when the
// caller computed them for an output. A correction alone withholds nothing:
// a caller that regenerates a reply for giving the answer away too early
// says so in the turn's directives, and one regenerated for other reasons
// (internal language) in the explain phase must still explain.
func directives(t agents.Turn) tutor.Guarded {
	var out tutor.TutorOutput
	if v := t.Evaluation.Verdict; v.Known() {
		correct := v == answer.Correct
		out.AnswerCorrect = &correct
	}
	g := tutor.Guard(t.State, t.Topic, tutor.Outcome{
		Now: t.Now, StudentMessage: t.Message, Precheck: t.Precheck, Verdict: t.Evaluation.Verdict, Output: &out,
	})
	if t.Guard.Output != nil {
		g.MayRevealAnswer = g.MayRevealAnswer && t.Guard.MayRevealAnswer
	}
	g.MustExplain = g.MustExplain || t.Guard.MustExplain
	g.TimeUp = g.TimeUp || t.Guard.TimeUp
	return g
}

// newPending describes the pending question and the move it calls for.
// The hints shown are those of the rungs the reply may reach (level 1, the
// probe, and level 2, the hint); the answer and worked solution only when
// reveal allows it.
func newPending(t agents.Turn, q tutor.Question, reveal bool) *pendingView {
	k := max(q.WrongAttempts, 0)
	p := &pendingView{
		Text:          oneLine(q.QuestionText),
		Concept:       q.Concept,
		Attempt:       k + 1,
		WrongAttempts: k,
		Rubric:        oneLine(q.Rubric),
	}
	prev := nonBlank(q.PreviousStudentAnswers)
	for _, a := range prev[max(0, len(prev)-previousAnswerLines):] {
		p.PreviousAnswers = append(p.PreviousAnswers, strconv.Quote(a))
	}
	rung := 0
	switch v := t.Evaluation.Verdict; {
	case t.Precheck == tutor.PrecheckIDK:
		// Each "I don't know" earns the next hint (the domain counts it in
		// hints_used), never the solution.
		p.Move, rung = moveEncourage, q.NextHint(k)
	case v == answer.Correct:
		p.Move = movePraise
	case v == answer.Incorrect || v == answer.Partial:
		p.Move, rung = strategy(k+1), k+1
	case v == answer.NotAttempt || t.Precheck != tutor.PrecheckNone:
		p.Move, rung = moveReask, k
	default: // no verdict: the tutor judges
		p.Move, p.IfWrong, rung = string(tutor.StrategyEvaluate), strategy(k+1), k+1
	}
	for _, h := range q.Hints[:min(rung, maxHintLevel, len(q.Hints))] {
		if h = oneLine(h); h != "" {
			p.Hints = append(p.Hints, h)
		}
	}
	if reveal {
		p.Reveal = true
		p.Answer = oneLine(q.ExpectedAnswer)
		if bq, ok := t.Topic.Question(q.QuestionID); ok {
			p.Answer = oneLine(bq.ShownAnswer()) // a choice's text, not its letter
			p.Solution = strings.TrimSpace(bq.Solution)
		}
	}
	return p
}

// maxHintLevel is the last rung with a hint of its own: level 1 is the
// probe's nudge, level 2 the first step; the explain phase adds no hint.
const maxHintLevel = 2

// strategy returns the ladder's strategy after a number of wrong attempts.
func strategy(wrong int) string {
	return string(tutor.Question{WrongAttempts: wrong}.Strategy())
}

// maxStepQuestions bounds the bank questions a turn lists.
const maxStepQuestions = 5

// stepQuestions returns the texts of the bank's questions on a concept,
// without their answers, leaving out the pending question and those whose
// text is secret (states the pending question's answer).
func stepQuestions(t *tutor.Topic, concept string, pending *tutor.Question, secret func(string) bool) []string {
	var out []string
	for _, q := range t.Questions {
		if len(out) == maxStepQuestions {
			break
		}
		asked := pending != nil && (q.ID == pending.QuestionID || q.Text == pending.QuestionText)
		if !strings.EqualFold(q.Concept, concept) || asked || secret(q.Text) {
			continue
		}
		out = append(out, oneLine(q.Text))
	}
	return out
}

// withoutSentences returns text without its sentences that drop says to
// leave out, keeping its paragraphs.
func withoutSentences(text string, drop func(string) bool) string {
	var b strings.Builder
	last := 0
	for _, sen := range answer.SplitSentences(text) {
		if drop(sen.Text) {
			b.WriteString(text[last:sen.Start])
			last = sen.End
		}
	}
	b.WriteString(text[last:])
	return strings.TrimSpace(b.String())
}

// withheldNote stands in a prompt for a note that stated a secret.
const withheldNote = "(withheld: it gave the answer away)"

// withheld returns a note without its sentences that are secret, or
// withheldNote when none is left: the note's place in its list still tells
// the model that something happened there.
func withheld(note string, secret func(string) bool) string {
	if kept := withoutSentences(note, secret); kept != "" || note == "" {
		return kept
	}
	return withheldNote
}

// clarifyTurn is the data of the clarify_doubts turn prompt.
type clarifyTurn struct {
	Past       []string
	Discussed  []string
	Style      string
	TimeUp     bool
	OffTopic   bool
	Correction string
	History    []string
	Message    string
	Student    studentView
}

// maxPastDiscussions bounds the earlier sessions a turn lists.
const maxPastDiscussions = 5

func newClarifyTurn(t agents.Turn) clarifyTurn {
	s := t.State
	v := clarifyTurn{
		Discussed:  nonBlank(s.ConceptsDiscussed),
		Style:      tutor.Style(s.History, t.Message).Directive(),
		TimeUp:     t.Guard.TimeUp || tutor.TimeUp(s, t.Now),
		OffTopic:   t.Precheck == tutor.PrecheckOffTopic,
		Correction: oneLine(t.Correction),
		History:    historyView(s.History, historyLines),
		Message:    quoted(t.Message),
		Student:    newStudentView(s.StudentContext),
	}
	for _, d := range t.PastDiscussions[:min(len(t.PastDiscussions), maxPastDiscussions)] {
		line := strings.Join(nonBlank(d.Concepts), ", ")
		if line == "" {
			line = "no concepts recorded"
		}
		if !d.Date.IsZero() {
			line = d.Date.UTC().Format("2 Jan 2006") + ": " + line
		}
		v.Past = append(v.Past, line)
	}
	return v
}

// bankQuestion returns the bank question that the tutor's question is, when
// it asked one of the lesson's questions on the current step's concept (or
// on the concept it names): the same text, ignoring case, spacing and
// punctuation, or the same numbers with an expected answer that the bank
// question accepts. A question of the tutor's own is left to the domain,
// which tracks it with the tutor's expected answer.
func bankQuestion(t *tutor.Topic, s tutor.State, out *tutor.TutorOutput) *tutor.BankQuestion {
	if out.QuestionAsked == nil || t == nil {
		return nil
	}
	asked := normalize(*out.QuestionAsked)
	if asked == "" {
		return nil
	}
	var concepts []string
	if c, ok := s.CurrentConcept(t); ok {
		concepts = append(concepts, c)
	}
	if out.QuestionConcept != nil {
		concepts = append(concepts, strings.TrimSpace(*out.QuestionConcept))
	}
	expected := ""
	if out.ExpectedAnswer != nil {
		expected = strings.TrimSpace(*out.ExpectedAnswer)
	}
	var byAnswer *tutor.BankQuestion
	for i := range t.Questions {
		bq := &t.Questions[i]
		if !slices.ContainsFunc(concepts, func(c string) bool { return strings.EqualFold(c, bq.Concept) }) {
			continue
		}
		// The bank's question, asked as it is or inside a longer text
		// ("Now try this: what is 2/9 + 5/9?"); not a longer question of
		// the tutor's own that begins with it, which the tutor's expected
		// answer tells apart.
		text := normalize(bq.Text)
		if text == asked || strings.Contains(asked, text) && (expected == "" || answer.Evaluate(bq.Expected(), expected).Verdict == answer.Correct) {
			q := *bq
			return &q
		}
		if byAnswer == nil && expected != "" && slices.Equal(numbers(bq.Text), numbers(*out.QuestionAsked)) &&
			answer.Evaluate(bq.Expected(), expected).Verdict == answer.Correct {
			byAnswer = bq
		}
	}
	if byAnswer == nil {
		return nil
	}
	q := *byAnswer
	return &q
}

var (
	nonWord = regexp.MustCompile(`[^\p{L}\p{N}]+`)
	number  = regexp.MustCompile(`\d+(?:\.\d+)?`)
)

// normalize returns s in lower case with every run of characters other
// than letters and digits made one space.
func normalize(s string) string {
	return strings.TrimSpace(nonWord.ReplaceAllString(strings.ToLower(s), " "))
}

// numbers returns the numbers written in s, sorted.
func numbers(s string) []string {
	n := number.FindAllString(s, -1)
	slices.Sort(n)
	return n
}
