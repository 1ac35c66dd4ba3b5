package tutor

import (
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/tutord/tutord/internal/tutor/answer"
)

// Outcome is everything a turn produced, for ApplyTurn.
type Outcome struct {
	// Now is the time of the turn.
	Now time.Time
	// StudentMessage is the learner's message as received.
	StudentMessage string
	// Reply is the final reply text shown to the learner. When it is empty
	// and the domain has a fixed text for the situation (exam turns, a
	// stop), ApplyTurn records that text; read it back with LastReply. So
	// too when the time limit ends a doubts session (TimeLimitReached): the
	// reply is recorded with ClarifyTimeUpReply after it.
	Reply string
	// Precheck is the pre-check result of StudentMessage. A stop request
	// that Verdict finds to be the pending question's right answer is
	// applied as the answer it is (see Precheck.Judged).
	Precheck Precheck
	// Verdict is the evaluator's verdict on the pending question (teach_me)
	// or the current exam question; empty when there was nothing to check.
	Verdict answer.Verdict
	// Output is the tutor's structured output; nil when there is none (a
	// failed model call, a stop request, an unsafe message).
	Output *TutorOutput
	// NextQuestion is the bank question the engine asked this turn, if any;
	// it becomes the pending question with its id, answer kind and hints.
	NextQuestion *BankQuestion
	// Unsafe is set when the safety gate rejected the message.
	Unsafe *Unsafe
}

// Unsafe is the safety gate's verdict on a rejected message.
type Unsafe struct {
	Flag string // the violation type; "unknown" when empty
	Warn bool   // the message earns a warning
}

// flagUnsafe records the safety gate's verdict on a message.
func (n *State) flagUnsafe(u Unsafe) Event {
	flag := strings.TrimSpace(u.Flag)
	if flag == "" {
		flag = "unknown"
	}
	n.SafetyFlags = pushCapped(n.SafetyFlags, flag, maxSafetyFlags)
	if u.Warn {
		n.WarningCount++
	}
	return SafetyFlagged{Flag: flag, Warned: u.Warn}
}

// ApplyTurn applies one turn's outcome to a state and returns the new state
// and what happened. It never modifies s.
//
// In order: an empty or too-long message changes nothing; a session past
// completion records the message and the post-completion reply (or the
// safety gate's verdict and its reply) without counting a turn
// (PostCompletion); otherwise the turn is counted and then, by situation,
// the message is flagged unsafe, meets a finished exam, stops the session
// (Stop; not when it is the pending question's right answer, see
// Precheck.Judged), or the guarded tutor output is applied by mode. A
// sitting that reaches its time limit ends the session the same way as a
// stop. The reply is recorded last.
func ApplyTurn(s State, t *Topic, o Outcome) (State, []Event) {
	now := NewTime(o.Now)
	o.Precheck = o.Precheck.Judged(s, o.Verdict)
	pre := o.Precheck
	if pre == PrecheckNone && isBlank(o.StudentMessage) {
		pre = PrecheckEmpty
	}
	if pre == PrecheckEmpty || pre == PrecheckTooLong {
		return s, []Event{MessageIgnored{Reason: pre}}
	}

	n := s.Clone()
	n.sanitize()
	// The rules that read the state before the turn run before n changes.
	postCompletion := n.PostCompletion(t)
	timeUp := TimeUp(n, o.Now)
	lapsed := SittingLapsed(n, o.Now)
	g := Guard(n, t, o)
	var ev []Event
	if postCompletion {
		n.addMessage(studentMessage(o, now))
		if o.Reply != "" {
			n.addMessage(Message{Role: RoleTeacher, Content: o.Reply, Timestamp: now})
		}
		n.UpdatedAt = now
		if o.Unsafe != nil {
			// Screened like any message, still without counting a turn.
			ev = append(ev, n.flagUnsafe(*o.Unsafe))
		} else {
			ev = append(ev, PostCompletionReplied{})
		}
		return n.normalized(), ev
	}

	n.TurnCount++
	if n.StartedAt == nil || lapsed {
		n.StartedAt = &now
	}
	n.addMessage(studentMessage(o, now))
	n.LastAnswerResult = nil
	reply := o.Reply
	var fixed string // the domain's text for this turn, used when Reply is empty
	ended := false

	switch {
	case o.Unsafe != nil:
		ev = append(ev, n.flagUnsafe(*o.Unsafe))
	case n.Mode == ModeExam && (n.ExamFinished || n.ExamCurrentIdx >= len(n.ExamQuestions)):
		fixed = examAfterward(n, t, o.StudentMessage)
		ev = append(ev, ExamAlreadyComplete{})
	case pre == PrecheckStop:
		if n.Mode == ModeClarify {
			// "thanks, that's all about photosynthesis, bye": the concepts
			// the tutor names in its goodbye are discussed, as any turn's
			// are (CONTRACT §9.8).
			discuss(&n, t, g.Output)
		}
		ev = append(ev, stop(&n, t, EndStudentRequested)...)
		fixed = endReply(n, t)
		if n.Mode == ModeTeachMe && !n.IsComplete(t) && asksBreak(o.StudentMessage) {
			fixed = BreakReplyLead + n.PauseSummary(t).Message
			if n.Coverage(t) == 0 {
				// "You've covered 0% so far" after a lesson's first parts
				// reads as no progress at all.
				fixed = BreakReplyLead + BreakReplyResume
			}
		}
		ended = true
	default:
		if len(g.Overrides) > 0 {
			ev = append(ev, GuardrailApplied{Overrides: g.Overrides})
		}
		switch n.Mode {
		case ModeClarify:
			ev = append(ev, applyClarify(&n, t, g.Output)...)
		case ModeExam:
			var e []Event
			e, fixed = applyExam(&n, t, o, g)
			ev = append(ev, e...)
		default:
			ev = append(ev, applyTeach(&n, t, o, g, now)...)
		}
	}

	if !ended && timeUp && !n.IsComplete(t) {
		ev = append(ev, TimeLimitReached{})
		ev = append(ev, stop(&n, t, EndTimeLimit)...)
		fixed = endReply(n, t)
		if n.Mode == ModeClarify && reply != "" {
			// The tutor answered without ending the session (it would
			// have said goodbye): the reply says that it ends, lest the
			// learner take up its invitation to ask another doubt.
			reply += "\n\n" + ClarifyTimeUpReply
		}
	}
	if reply == "" {
		reply = fixed
	}
	if reply != "" {
		n.addMessage(Message{Role: RoleTeacher, Content: reply, Timestamp: now})
	}
	n.UpdatedAt = now
	return n.normalized(), ev
}

// studentMessage is the learner's message of o as the history records it:
// withheld from later prompts when the safety gate flagged it.
func studentMessage(o Outcome, now Time) Message {
	return Message{Role: RoleStudent, Content: o.StudentMessage, Timestamp: now, Withheld: o.Unsafe != nil}
}

// applyTeach applies a guarded teach_me turn in the reference's order:
// mastery, misconceptions, question lifecycle, step advance and coverage,
// off-topic count, completion; then the summary.
func applyTeach(n *State, t *Topic, o Outcome, g Guarded, now Time) []Event {
	var ev []Event
	out := g.Output
	if q := n.LastQuestion; o.Precheck == PrecheckIDK && q != nil {
		// "I don't know" is answered with the next hint, never the answer.
		q.IDKCount++
		q.HintsUsed = min(q.HintsUsed+1, MaxHints)
	}
	offTopic := o.Precheck == PrecheckOffTopic || (out != nil && out.Intent == IntentOffTopic)
	if out == nil {
		return append(ev, countOffTopic(n, offTopic)...)
	}
	stepConcept, onStep := n.CurrentConcept(t)
	concept := stepConcept
	if !onStep {
		concept = "unknown"
	}

	// Mastery: a judged answer is evidence for the pending question's concept.
	var evid *evidence
	if g.Result != nil {
		c := stepConcept
		if n.LastQuestion != nil {
			c = n.LastQuestion.Concept
		}
		evid = &evidence{concept: c, result: *g.Result}
	}
	ev = append(ev, applyMastery(n, t, out.MasteryUpdates, evid)...)

	// Misconceptions, once per description per turn. When the tutor named
	// none (the rules engine never does), a wrong answer to a bank question
	// records the bank's misconception only when it is the wrong answer that
	// misconception leads to (see BankQuestion.ShowsMisconception), and only
	// the first time on this question (Question.MisconceptionCounted): "99"
	// shows no particular mistake, and the same wrong answer given again,
	// however much later, is one mistake, not a recurring one.
	// A right step on the way (out.RightStep: "15% of 800 = 120") is no
	// wrong answer, though its value is the mistake's.
	recorded := 0
	for i, d := range out.MisconceptionsDetected {
		// Compared as stored (see recordMisconception), so that two that
		// differ only past the stored length count once.
		if isBlank(d) || placeholder(d) || slices.ContainsFunc(out.MisconceptionsDetected[:i], func(e string) bool { return sameDescription(storedDescription(e), storedDescription(d)) }) {
			continue
		}
		recorded++
		ev = append(ev, recordMisconception(n, concept, d, now))
	}
	if q := n.LastQuestion; recorded == 0 && o.Verdict == answer.Incorrect && q != nil && out.RightStep == "" {
		if bq, ok := t.Question(q.QuestionID); ok && bq.ShowsMisconception(o.StudentMessage) && !q.CountedMisconception(bq) {
			q.MisconceptionCounted = true
			ev = append(ev, recordMisconception(n, q.Concept, bq.Misconception, now))
		}
	}

	pending := n.LastQuestion
	ev = append(ev, applyLifecycle(n, t, out, o.NextQuestion, o.StudentMessage, concept, now)...)
	if q := n.LastQuestion; out.SetAside && q != nil && q == pending && o.NextQuestion == nil && text(out.QuestionAsked) == "" {
		// The learner declined the question, and the tutor let it go.
		n.LastQuestion, n.AwaitingResponse = nil, false
		ev = append(ev, QuestionCleared{Concept: q.Concept})
	}

	// Step advance: every step passed adds its concept to the coverage set.
	total := t.TotalSteps()
	if a := out.AdvanceToStep; a != nil && *a > n.CurrentStep {
		if q := n.LastQuestion; q != nil && q == pending && o.NextQuestion == nil && text(out.QuestionAsked) == "" {
			// The tutor moves on from a question still unanswered, without
			// asking a new one: the question is dropped, so that the next
			// message is not graded against it.
			n.LastQuestion, n.AwaitingResponse = nil, false
			ev = append(ev, QuestionCleared{Concept: q.Concept})
		}
		from, to := n.CurrentStep, min(*a, total+1)
		for id := from; id < to; id++ {
			if st, ok := t.Step(id); ok {
				n.cover(st.Concept)
			}
		}
		n.CurrentStep = to
		ev = append(ev, StepAdvanced{From: from, To: to})
		if from <= total && to > total {
			ev = append(ev, SessionCompleted{})
		}
	}

	ev = append(ev, countOffTopic(n, offTopic)...)

	// Completion on the final step covers the final step's concept too
	// (the reference left it out, quirk #12).
	if out.SessionComplete && !n.IsComplete(t) && total > 0 && n.CurrentStep >= total {
		if q := n.LastQuestion; q != nil && q == pending && o.NextQuestion == nil && text(out.QuestionAsked) == "" {
			// As for an advance past the last step: the lesson is over,
			// and the next message is not graded against its question.
			n.LastQuestion, n.AwaitingResponse = nil, false
			ev = append(ev, QuestionCleared{Concept: q.Concept})
		}
		from := n.CurrentStep
		for id := from; id <= total; id++ {
			if st, ok := t.Step(id); ok {
				n.cover(st.Concept)
			}
		}
		n.CurrentStep = total + 1
		ev = append(ev, StepAdvanced{From: from, To: n.CurrentStep}, SessionCompleted{})
	}

	n.LastAnswerResult = clonePtr(g.Result)
	sum := &n.SessionSummary
	sum.TurnTimeline = pushCapped(sum.TurnTimeline, "Turn "+strconv.Itoa(n.TurnCount)+": "+out.TurnSummary, TimelineCap)
	if out.AnswerCorrect != nil {
		avg := 0.5
		if len(n.MasteryEstimates) > 0 {
			avg = n.MasteryEstimates.Mean()
		}
		switch {
		case *out.AnswerCorrect && avg >= 0.6:
			sum.ProgressTrend = TrendImproving
		case !*out.AnswerCorrect && avg < 0.4:
			sum.ProgressTrend = TrendStruggling
		default:
			sum.ProgressTrend = TrendSteady
		}
	}
	if c, ok := n.CurrentConcept(t); ok && c != "" && !slices.Contains(sum.ConceptsTaught, c) {
		sum.ConceptsTaught = append(sum.ConceptsTaught, c)
	}
	return ev
}

func countOffTopic(n *State, offTopic bool) []Event {
	if !offTopic {
		return nil
	}
	n.OffTopicCount++
	return []Event{OffTopic{Count: n.OffTopicCount}}
}

// applyClarify applies a doubts-session turn: the concepts the tutor names
// are the concepts discussed; plan concepts among them count as covered (a
// concept outside the plan never enters the covered set); intent "done" or
// session_complete ends the session. Off-topic messages are not counted:
// the count is a lesson's (CONTRACT §9.1, §9.8).
func applyClarify(n *State, t *Topic, out *TutorOutput) []Event {
	var ev []Event
	if out == nil {
		return ev
	}
	discuss(n, t, out)
	if (out.Intent == IntentDone || out.SessionComplete) && !n.ClarifyComplete {
		n.ClarifyComplete = true
		ev = append(ev, ClarifyCompleted{})
	}
	return ev
}

// discuss adds the concepts of the tutor's mastery updates to the
// concepts discussed, and those of the topic to the concepts covered.
func discuss(n *State, t *Topic, out *TutorOutput) {
	if out == nil {
		return
	}
	for _, u := range out.MasteryUpdates {
		name := truncateRunes(strings.TrimSpace(u.Concept), descriptionRunes)
		if name == "" {
			continue
		}
		if c, ok := t.canonicalConcept(name); ok {
			name = c
			n.cover(c)
		}
		if !slices.Contains(n.ConceptsDiscussed, name) && len(n.ConceptsDiscussed) < maxConceptsDiscussed {
			n.ConceptsDiscussed = append(n.ConceptsDiscussed, name)
		}
	}
}

// recordMisconception counts a misconception under its description: a
// description seen before (ignoring case and spacing) raises its count
// instead of adding a row. When the list is full the one seen least
// recently makes room.
func recordMisconception(n *State, concept, description string, now Time) Event {
	// Stored descriptions are cut; compare in the same form.
	description = storedDescription(description)
	// The step's concept is a weak area, whether the misconception is new
	// or came back on another step.
	if !slices.Contains(n.WeakAreas, concept) {
		n.WeakAreas = append(n.WeakAreas, concept)
	}
	for i := range n.Misconceptions {
		m := &n.Misconceptions[i]
		if sameDescription(m.Description, description) {
			m.Count++
			m.LastDetectedAt = now
			return MisconceptionRecorded{Concept: m.Concept, Description: m.Description, Count: m.Count}
		}
	}
	if len(n.Misconceptions) >= maxMisconceptions {
		oldest := 0
		for i, m := range n.Misconceptions {
			if m.LastDetectedAt.Time().Before(n.Misconceptions[oldest].LastDetectedAt.Time()) {
				oldest = i
			}
		}
		n.Misconceptions = slices.Delete(n.Misconceptions, oldest, oldest+1)
	}
	n.Misconceptions = append(n.Misconceptions, Misconception{
		Concept: concept, Description: description, DetectedAt: now, Count: 1, LastDetectedAt: now,
	})
	return MisconceptionRecorded{Concept: concept, Description: description, Count: 1}
}

// placeholder reports whether a misconception a model named is a way of
// naming none: "None", "N/A", "-".
func placeholder(d string) bool {
	switch strings.ToLower(strings.Trim(strings.TrimSpace(d), ".!-–—")) {
	case "", "none", "n/a", "na", "null", "nil", "nothing", "no misconception", "no misconceptions", "not applicable":
		return true
	}
	return false
}

// storedDescription is a misconception's description as the state keeps
// it: its spaces collapsed, cut to descriptionRunes.
func storedDescription(d string) string {
	return truncateRunes(strings.Join(strings.Fields(d), " "), descriptionRunes)
}

// sameDescription reports whether two misconception descriptions are the
// same, ignoring case, spacing and the punctuation at the ends of words: a
// model names the same mistake "Adds 2 instead of doubling." on one turn
// and "adds 2 instead of doubling" on the next. It does not allocate: it
// runs on every recorded misconception of every turn.
func sameDescription(a, b string) bool {
	for {
		var fa, fb string
		fa, a = nextWord(a)
		fb, b = nextWord(b)
		if fa == "" || fb == "" {
			return fa == fb
		}
		if !strings.EqualFold(fa, fb) {
			return false
		}
	}
}

// nextWord returns the first whitespace-separated field of s without the
// punctuation at its ends, skipping fields of punctuation alone ("-"), and
// the rest.
func nextWord(s string) (word, rest string) {
	for {
		s = strings.TrimLeftFunc(s, unicode.IsSpace)
		if s == "" {
			return "", ""
		}
		field := s
		if i := strings.IndexFunc(s, unicode.IsSpace); i >= 0 {
			field, s = s[:i], s[i:]
		} else {
			s = ""
		}
		// A minus sign is no punctuation: "adds -2" is not "adds 2".
		w := strings.TrimLeftFunc(strings.TrimRightFunc(field, unicode.IsPunct), func(r rune) bool { return unicode.IsPunct(r) && r != '-' })
		if w != "" {
			return w, s
		}
	}
}

// isBlank reports whether s has nothing but space and invisible format
// characters (a zero-width space is not a message).
func isBlank(s string) bool {
	for _, r := range s {
		if !unicode.IsSpace(r) && !unicode.Is(unicode.Cf, r) {
			return false
		}
	}
	return true
}
