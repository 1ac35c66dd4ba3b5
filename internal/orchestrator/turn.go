package orchestrator

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/agents/rules"
	"github.com/tutord/tutord/internal/jsonenc"
	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/store"
	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

// Fixed replies of the pipeline.
const (
	// FailureReply answers a turn whose model call failed after its retries.
	FailureReply = "Sorry — I had trouble answering just then. Could you send that again?"
	// UnsafeRedirectReply answers an unsafe message when the safety agent
	// gave no guidance and the rules engine has no fixed reply for its
	// category (the reference's text).
	UnsafeRedirectReply = "Let's keep our conversation focused on learning. How can I help you with the lesson?"
	// PostCompletionFallback answers a message after the session ended when
	// no agent wrote a reply (the reference's text).
	PostCompletionFallback = "Feel free to start a new session whenever you're ready!"
	// unsafeReplyFallback replaces a tutor reply that the safety check flagged.
	unsafeReplyFallback = "Let's get back to our lesson."
)

// examAsks are the fixed replies to an exam answer that is not one yet,
// when the tutor words none (the model-backed tutor words no exam turn):
// by the evaluator's reason.
var examAsks = map[string]string{
	"hedged":                     "I see more than one answer there. Which one is your final answer?",
	answer.ReasonUnseenLetter:    "The options aren't lettered here: please write your answer in words.",
	answer.ReasonLetterNoOptions: "This question has no options to choose from: please write the answer itself.",
	reasonBreak:                  "An exam can't be paused, but there's no rush: take a moment, then answer when you're ready.",
}

// reasonBreak is the evaluator's reason for an exam reply that asks for a
// break ("i need a break", "i am tired").
const reasonBreak = "asks for a break"

// Intents of turns the tutor did not answer itself.
const (
	IntentUnsafe          = "unsafe"
	IntentSessionComplete = "session_complete"
	IntentExamAnswer      = "exam_answer"
	IntentExamComplete    = "exam_complete"
	IntentStop            = "stop"
	IntentError           = "error"
	IntentNudge           = "nudge"
)

// TurnResult is the outcome of a turn.
type TurnResult struct {
	// Reply is the tutor's reply to the learner.
	Reply string
	// Intent is the tutor's intent, or one of the Intent constants.
	Intent string
	// Session is the session after the turn.
	Session Session
	// Events are what the turn changed (empty for a replayed turn).
	Events []tutor.Event
	// Response is the REST step response, the same bytes for a retry.
	Response json.RawMessage
	// Replayed reports that the client turn id had been committed before:
	// nothing was processed, Response is the stored one.
	Replayed bool
	// Committed reports that the turn was written (a nudge for an empty
	// message is not).
	Committed bool
}

// ProcessTurn runs one learner message through the pipeline and commits the
// turn atomically.
//
// Turns on one session are serialised in this process; a retry carrying a
// client turn id that was already committed returns the stored response and
// processes nothing (a duplicate that arrives while the first is running
// waits for it). Errors: ErrSessionNotFound, *ConflictError when another
// writer changed the session since it was read (nothing of this turn is
// written), ErrShuttingDown, an error matching llm.ErrBudgetExceeded when
// the learner's model budget is spent (nothing is written), and the
// context's error.
func (o *Orchestrator) ProcessTurn(ctx context.Context, id uuid.UUID, message, clientTurnID string) (TurnResult, error) {
	if err := o.begin(); err != nil {
		return TurnResult{}, err
	}
	defer o.end()
	unlock, err := o.locks.lock(ctx, id, clientTurnID)
	if err != nil {
		return TurnResult{}, err
	}
	defer unlock()

	var digest []byte
	if clientTurnID != "" {
		digest = messageDigest(message)
		if r, ok, err := o.replay(ctx, id, clientTurnID, digest); ok || err != nil {
			return r, err
		}
	}
	res, err := o.turn(ctx, id, message, clientTurnID, digest)
	if err != nil {
		// A retry that lost to its own first attempt, committed by another
		// process meanwhile, gets that attempt's response.
		var dup *duplicateTurn
		var conflict *ConflictError
		if clientTurnID != "" && (errors.As(err, &dup) || errors.As(err, &conflict)) {
			if r, ok, rerr := o.replay(ctx, id, clientTurnID, digest); ok || rerr != nil {
				return r, rerr
			}
		}
		if errors.As(err, &conflict) {
			o.conflicted()
		}
		return TurnResult{}, err
	}
	return res, nil
}

// turn loads the session and runs the turn on it. A session taken from
// memory is behind the stored one when another process changed it since
// this one last did: the commit's compare-and-swap then fails, and the
// turn runs again on the stored session, as it would have on a fresh read.
// A conflict on a fresh read is a real race, and reported.
func (o *Orchestrator) turn(ctx context.Context, id uuid.UUID, message, clientTurnID string, digest []byte) (TurnResult, error) {
	res, cached, err := o.turnOn(ctx, id, true, message, clientTurnID, digest)
	var conflict *ConflictError
	if cached && errors.As(err, &conflict) {
		if clientTurnID != "" {
			// The change may be this very turn, committed by another
			// process from an earlier attempt: its response is the answer.
			if r, ok, rerr := o.replay(ctx, id, clientTurnID, digest); ok || rerr != nil {
				return r, rerr
			}
		}
		res, _, err = o.turnOn(ctx, id, false, message, clientTurnID, digest)
	}
	if cached && err == nil && !res.Committed {
		// A nudge commits nothing, so no compare-and-swap checked the copy
		// it ran on: it runs again on the stored session, which the reply
		// and the session returned then show. It costs a read, and no
		// agent runs for a nudge.
		res, _, err = o.turnOn(ctx, id, false, message, clientTurnID, digest)
	}
	return res, err
}

// turnOn runs a turn on the session load returns (see load for useCache
// and cached).
func (o *Orchestrator) turnOn(ctx context.Context, id uuid.UUID, useCache bool, message, clientTurnID string, digest []byte) (res TurnResult, cached bool, err error) {
	gen := o.cache.generation()
	se, cached, err := o.load(ctx, id, useCache)
	if err != nil {
		return TurnResult{}, false, err
	}
	set, err := o.engines.Agents(se.State.EngineConfig)
	if err != nil {
		return TurnResult{}, false, err
	}
	if se.Row.LearnerID != nil {
		ctx = agents.WithLearner(ctx, se.Row.LearnerID.String())
	}
	started := o.now()
	r := &run{o: o, se: se, set: set, msg: cleanMessage(message), clientTurnID: clientTurnID, digest: digest, now: started,
		turnID: fmt.Sprintf("turn_%d", se.State.TurnCount+1), gen: gen}
	if res, err = r.run(ctx); err != nil {
		return TurnResult{}, cached, err
	}
	if o.obs != nil && res.Committed {
		o.obs.TurnCompleted(se.State.Mode, engineName(se.State.EngineConfig), o.now().Sub(started))
	}
	return res, cached, nil
}

// Committed returns the stored result of a turn already committed with
// this client turn id and message, without waiting for the session's turn
// in flight: ok is false when there is none. The error is ErrTurnIDReused
// when the id was committed with another message. The API asks it before
// refusing a retry for the caller's rate: a retry of a committed turn
// costs nothing, so it is not counted.
func (o *Orchestrator) Committed(ctx context.Context, id uuid.UUID, message, clientTurnID string) (TurnResult, bool, error) {
	if clientTurnID == "" {
		return TurnResult{}, false, nil
	}
	return o.replay(ctx, id, clientTurnID, messageDigest(message))
}

// Running reports whether a turn with this client turn id is running on the
// session in this process, or waiting for the session's turn in flight. A
// ProcessTurn with that id then waits for it and returns its result (or,
// when it failed, runs the turn). The API asks it before refusing a retry
// for the caller's rate: the retry of a turn that is being answered, sent
// by a client that reconnected, runs nothing new.
func (o *Orchestrator) Running(id uuid.UUID, clientTurnID string) bool {
	return clientTurnID != "" && o.locks.running(id, clientTurnID)
}

// replay returns the stored result of a committed client turn id, or
// ErrTurnIDReused when that turn had another message (digest is
// messageDigest's).
func (o *Orchestrator) replay(ctx context.Context, id uuid.UUID, clientTurnID string, digest []byte) (TurnResult, bool, error) {
	rec, err := o.st.FindTurn(ctx, id, clientTurnID)
	if errors.Is(err, store.ErrNotFound) {
		return TurnResult{}, false, nil
	}
	if err != nil {
		return TurnResult{}, false, err
	}
	if rec.MessageHash != nil && !bytes.Equal(rec.MessageHash, digest) {
		return TurnResult{}, false, fmt.Errorf("client turn id %q: %w", clientTurnID, ErrTurnIDReused)
	}
	se, err := o.Load(ctx, id)
	if err != nil {
		return TurnResult{}, false, err
	}
	var resp struct {
		NextTurn struct {
			Message string `json:"message"`
		} `json:"next_turn"`
		Intent string `json:"intent"`
	}
	_ = json.Unmarshal(rec.Response, &resp)
	return TurnResult{Reply: resp.NextTurn.Message, Intent: resp.Intent, Session: se, Response: rec.Response, Replayed: true, Committed: true}, true, nil
}

type duplicateTurn struct{ err error }

func (d *duplicateTurn) Error() string { return d.err.Error() }
func (d *duplicateTurn) Unwrap() error { return d.err }

// run is one turn in progress.
type run struct {
	o            *Orchestrator
	se           Session
	set          agents.Set
	msg          string
	clientTurnID string
	digest       []byte // messageDigest of the message, with a client turn id
	turnID       string
	now          time.Time
	logs         []store.AgentLog
	reask        string // the exam question asked again after the tutor's words (a hedge)
	gen          uint64 // the session cache's generation when the session was read
}

func (r *run) run(ctx context.Context) (TurnResult, error) {
	o, t := r.o, r.se.Topic
	pre := o.prechecks.CheckIn(r.se.State.Mode, r.msg)
	if pre == tutor.PrecheckNone && declinesExamQuestion(r.se.State, t, r.msg) {
		// "pass", "next question": the learner declines the question,
		// which is recorded as "I don't know" (and "skip") is, and the
		// exam goes on, as every exam turn of the reference does.
		pre = tutor.PrecheckIDK
	}
	// A learner in distress may write at length: a message too long to
	// teach from is screened before it is sent back, and an unsafe one is
	// answered as any unsafe message is.
	var screened *agents.SafetyVerdict
	var screenLogs []store.AgentLog
	if pre == tutor.PrecheckTooLong {
		v := r.checkSafety(ctx, "student", r.msg, r.se.State)
		if !v.Safe {
			screened, screenLogs, pre = &v, r.logs, tutor.PrecheckNone
			r.logs = nil
		}
	}
	if pre == tutor.PrecheckEmpty || pre == tutor.PrecheckTooLong {
		// A nudge writes nothing, so it changes nothing: a paused session
		// stays paused.
		reply := tutor.NudgeReply
		if pre == tutor.PrecheckTooLong {
			reply = tutor.TooLongReply
		}
		resp, err := json.Marshal(stepResponse(r.se.State, t, reply, IntentNudge))
		return TurnResult{Reply: reply, Intent: IntentNudge, Session: r.se, Response: resp}, err
	}
	if r.se.State.IsPaused {
		// A message on a paused session resumes it.
		if resumed, err := tutor.Resume(r.se.State, r.now); err == nil {
			r.se.State = resumed
		}
	}
	s := r.se.State
	r.logs = append(r.logs, store.AgentLog{TurnID: r.turnID, Agent: "orchestrator", Event: "turn_started",
		InputSummary: "Student: " + ellipsis(r.msg, 100), CreatedAt: r.now})
	r.logs = append(r.logs, screenLogs...)
	turn := agents.Turn{State: s, Topic: t, Message: r.msg, Precheck: pre, Now: r.now}
	out := tutor.Outcome{Now: r.now, StudentMessage: r.msg, Precheck: pre}
	var intent string
	var reply string
	writer := "" // the agent whose reply is sanitized; "" for fixed texts

	// Every message is screened, after the session's end too: a learner in
	// distress must not be told that the session is complete.
	var safe agents.SafetyVerdict
	if screened != nil {
		safe = *screened
	} else {
		safe = r.checkSafety(ctx, "student", r.msg, s)
	}
	switch {
	case !safe.Safe:
		out.Unsafe = &tutor.Unsafe{Flag: safe.Category, Warn: safe.Warn}
		reply, intent = r.gateReply(ctx, turn, &out, safe), IntentUnsafe
	case s.PostCompletion(t):
		start := time.Now()
		text, call, err := r.set.PostCompletion.Reply(ctx, turn)
		r.log(call, start, "Post-completion: "+ellipsis(r.msg, 80))
		if err != nil || strings.TrimSpace(text) == "" {
			text = PostCompletionFallback
		}
		reply, intent, writer = text, IntentSessionComplete, agents.NamePostCompletion
	default:
		turn.Evaluation = evaluate(s, t, r.msg, pre)
		out.Verdict = turn.Evaluation.Verdict
		// "Stop." to "What must a driver do at a red light?" is the
		// answer, which the tutor hears as one, not a stop request.
		turn.Precheck = pre.Judged(s, out.Verdict)
		out.Precheck = turn.Precheck
		// The directives with a provisional empty output: what the tutor may
		// and must do this turn, before it has answered.
		provisional := out
		provisional.Output = &tutor.TutorOutput{}
		turn.Guard = tutor.Guard(s, t, provisional)
		if s.Mode == tutor.ModeClarify && r.se.Row.LearnerID != nil && r.se.Row.GuidelineID != nil {
			turn.PastDiscussions = r.pastDiscussions(ctx)
		}
		var err error
		reply, intent, writer, err = r.route(ctx, turn, &out)
		if errors.Is(err, llm.ErrBudgetExceeded) {
			// Trying again will not help until the budget renews: the
			// caller says so (429 with Retry-After); the turn never ran.
			return TurnResult{}, err
		}
		if err != nil {
			return r.failed(ctx, err)
		}
	}

	if writer != "" {
		reply = r.sanitize(ctx, turn, &out, reply, writer)
		if safe := r.checkSafety(ctx, "tutor", reply, s); !safe.Safe {
			o.log.Warn("tutor reply flagged by the safety check", "session_id", s.SessionID, "category", safe.Category)
			reply = unsafeReplyFallback
			if writer == agents.NameMasterTutor && s.Mode == tutor.ModeClarify && turn.Precheck == tutor.PrecheckStop {
				// "No, I'm done": the session ends as asked, with the
				// domain's own goodbye.
				reply, intent = "", IntentStop
			}
			// The learner sees none of the reply: neither its question,
			// which would be checked against their next message, nor its
			// step on, nor its goodbye (intent done ends a doubts session
			// as session_complete does). The judgement of their own answer
			// stands.
			out.NextQuestion = nil
			if out.Output != nil {
				kept := *out.Output
				kept.QuestionAsked, kept.ExpectedAnswer, kept.QuestionConcept = nil, nil, nil
				kept.AdvanceToStep, kept.SessionComplete = nil, false
				if kept.Intent == tutor.IntentDone {
					kept.Intent = tutor.IntentFollowup
					if intent != IntentStop {
						// A stop ends the session all the same (above).
						intent = string(tutor.IntentFollowup)
					}
				}
				out.Output = &kept
			}
		}
	}
	if r.reask != "" {
		reply += "\n\n" + r.reask
	}
	// As the store keeps it (PostgreSQL's text holds no NUL, which a
	// model's reply can): a retry gets the very bytes the first answer had.
	reply = strings.ReplaceAll(reply, "\x00", "\uFFFD")
	out.Reply = reply
	next, events := tutor.ApplyTurn(s, t, out)
	if reply == "" || slices.ContainsFunc(events, timeLimitReached) {
		// The domain's text, or the reply with the domain's word that
		// the time limit ends the session.
		reply, _ = next.LastReply()
	}
	if intent == "" {
		intent = fixedIntent(s, next)
	}
	return r.commit(ctx, next, events, reply, intent)
}

// route runs the mode's agents and fills the outcome. It returns the
// reply ("" for the domain's fixed text), the intent and the writer of the
// reply.
func (r *run) route(ctx context.Context, turn agents.Turn, out *tutor.Outcome) (reply, intent, writer string, err error) {
	s := turn.State
	switch {
	case s.Mode == tutor.ModeExam && (s.ExamFinished || s.ExamCurrentIdx >= len(s.ExamQuestions)):
		// "bye" after the exam's end meets the finished exam, as the
		// domain answers it, before any stop.
		return "", IntentExamComplete, "", nil
	case turn.Precheck == tutor.PrecheckStop && s.Mode == tutor.ModeClarify:
		// "No, I'm done" ends a doubts session: the tutor says goodbye.
		start := time.Now()
		tr, call, err := r.set.Tutor.Respond(ctx, turn)
		r.log(call, start, "")
		if err != nil || strings.TrimSpace(tr.Output.Response) == "" {
			return "", IntentStop, "", nil
		}
		out.Output = &tr.Output
		return tr.Output.Response, string(tr.Output.Intent), agents.NameMasterTutor, nil
	case turn.Precheck == tutor.PrecheckStop:
		return "", IntentStop, "", nil
	case s.Mode == tutor.ModeExam:
		// When the sitting's time is up, the exam ends with this turn: a
		// hedge or a break request then gets the exam's result, not its
		// question asked again.
		asks := turn.Precheck == tutor.PrecheckNone && !turn.Guard.TimeUp
		if ev := turn.Evaluation; ev.Reason == reasonBreak && asks {
			// "i need a break": an exam cannot be paused; the question
			// stands, unjudged.
			r.reask = s.ExamQuestions[s.ExamCurrentIdx].Prompt()
			return examAsks[reasonBreak], IntentExamAnswer, "", nil
		}
		if ev := turn.Evaluation; ev.Verdict == answer.NotAttempt && (strings.HasPrefix(ev.Reason, "hedged") || ev.Reason == answer.ReasonUnseenLetter || ev.Reason == answer.ReasonLetterNoOptions) && asks {
			// "12 or 14", "C" to options shown without letters: the tutor
			// asks for one final answer, in words; the question stands,
			// unjudged.
			start := time.Now()
			tr, call, err := r.set.Tutor.Respond(ctx, turn)
			r.log(call, start, "")
			r.reask = s.ExamQuestions[s.ExamCurrentIdx].Prompt() // after the sanitized words
			if err == nil && strings.TrimSpace(tr.Output.Response) != "" {
				return tr.Output.Response, IntentExamAnswer, agents.NameMasterTutor, nil
			}
			reason := ev.Reason
			if strings.HasPrefix(reason, "hedged") {
				reason = "hedged"
			}
			return examAsks[reason], IntentExamAnswer, "", nil
		}
		if turn.Evaluation.Verdict.Known() || turn.Precheck != tutor.PrecheckNone || turn.Evaluation.Verdict == answer.NotAttempt {
			return "", IntentExamAnswer, "", nil
		}
		start := time.Now()
		j, call, err := r.set.ExamEvaluator.Judge(ctx, turn, s.ExamQuestions[s.ExamCurrentIdx])
		r.log(call, start, "Judge: "+ellipsis(r.msg, 80))
		if err != nil {
			return "", "", "", err
		}
		out.Output = &tutor.TutorOutput{Intent: "answer", AnswerCorrect: j.AnswerCorrect, MasterySignal: j.MasterySignal, TurnSummary: j.Feedback}
		return "", IntentExamAnswer, "", nil
	default:
		start := time.Now()
		tr, call, err := r.set.Tutor.Respond(ctx, turn)
		r.log(call, start, "")
		if err != nil {
			return "", "", "", err
		}
		out.Output, out.NextQuestion = &tr.Output, tr.NextQuestion
		return tr.Output.Response, string(tr.Output.Intent), agents.NameMasterTutor, nil
	}
}

// evaluate judges the message against the pending question (teach_me) or
// the current exam question with the deterministic evaluator. Talk that is
// no answer ("lol", "I'm back", "hint pls") is no attempt, in a lesson
// (see chatter) as in an exam (see examAside), not a wrong answer. A
// message the pre-check flagged is no answer, with one exception: a stop
// request may be the question's very answer ("stop" to what a driver does
// at a red light), so it is judged, and its verdict kept only when it is
// right, which makes it an answer (see tutor.Precheck.Judged).
func evaluate(s tutor.State, t *tutor.Topic, msg string, pre tutor.Precheck) answer.Result {
	if pre == tutor.PrecheckStop {
		if res := evaluate(s, t, msg, tutor.PrecheckNone); res.Verdict == answer.Correct {
			return res
		}
		return answer.Result{}
	}
	head, answered := answerBeforeRequest(msg)
	if s.Mode == tutor.ModeExam && tutor.AsksForAnswer(msg) {
		if !answered {
			// "just tell me the answer": no attempt.
			return answer.Result{Verdict: answer.NotAttempt, Reason: "asks for the answer"}
		}
		// "seventeen, just tell me if that's right": the answer before
		// the request is judged, so that asking buys no second guess.
		msg, pre = head, tutor.PrecheckNone
	}
	if pre != tutor.PrecheckNone {
		return answer.Result{}
	}
	switch s.Mode {
	case tutor.ModeTeachMe:
		if q := s.LastQuestion; q != nil {
			exp := q.Expected(t)
			res := echoed(alsoWrong(namedBeside(judge(exp, q.QuestionText, msg), t, q.QuestionID, msg), t, q.QuestionID, msg), q.QuestionText)
			if (res.Verdict == answer.Incorrect || res.Verdict == answer.Partial) && chatter(msg, exp) {
				// "lol", "wait a sec", "I'm back" to a question whose
				// answer is words: no answer, and no wrong one either (a
				// number asked for gets NotAttempt from the evaluator).
				res = answer.Result{Kind: res.Kind, Verdict: answer.NotAttempt, Reason: "no answer in the reply"}
			}
			return res
		}
	case tutor.ModeExam:
		if !s.ExamFinished && s.ExamCurrentIdx < len(s.ExamQuestions) {
			q := s.ExamQuestions[s.ExamCurrentIdx]
			res := echoed(alsoWrong(namedBeside(judge(q.Expected(t), q.QuestionText, msg), t, q.QuestionID, msg), t, q.QuestionID, msg), q.QuestionText)
			switch {
			case res.Verdict != answer.Correct && examBreak(msg):
				// "i need a break", "i am tired": no answer, and no pause.
				res = answer.Result{Kind: res.Kind, Verdict: answer.NotAttempt, Reason: reasonBreak}
			case res.Verdict == answer.NotAttempt && examAttempt(msg, res):
				// "boiling" for a temperature, "A" for a word: an answer,
				// of the wrong kind, not a message to ask again after.
				res = answer.Result{Kind: res.Kind, Verdict: answer.Incorrect, Extracted: strings.TrimSpace(msg), Reason: "not an answer of the kind asked"}
			case res.Verdict != answer.NotAttempt && namesOtherQuestion(msg, s.ExamCurrentIdx+1):
				// "for question 1 I meant 7/9" on question 2: no answer
				// to this one, right or not.
				res = answer.Result{Kind: res.Kind, Verdict: answer.NotAttempt, Reason: "about another question"}
			case (res.Verdict == answer.Incorrect || res.Verdict == answer.Partial) && (examQuery(msg) || wordsAnswer(res.Kind) && examAside(msg)):
				// "is 2/3 = 4/6?", a question about another question;
				// or "hint pls", "lol this is dumb" to a question whose
				// answer is words: no answer, whatever its words. A
				// value of the kind asked ("not sure... 5/9") is an
				// answer, hedged or not, as a right one is: asking
				// again after a wrong one only would tell the learner
				// it was wrong, and buy a second guess.
				res = answer.Result{Kind: res.Kind, Verdict: answer.NotAttempt, Reason: "no answer in the reply"}
			}
			return res
		}
	}
	return answer.Result{}
}

// answerBeforeRequest returns the answer a message gives before a request
// for the answer, in the clause before its first comma: "17" of "17, just
// tell me if that's right". ok is false when that clause is the request
// or says more than an answer does.
func answerBeforeRequest(msg string) (head string, ok bool) {
	head, _, cut := strings.Cut(msg, ",")
	if !cut || tutor.AsksForAnswer(head) || len(strings.Fields(head)) == 0 || len(strings.Fields(head)) > 3 {
		return "", false
	}
	return strings.TrimSpace(head), true
}

// examAttempt reports whether a short exam reply in which the evaluator
// found no answer of the kind asked is an attempt all the same: a few
// words, not a question, a request, a hedge, a yes or ok, or a word of
// being lost.
func examAttempt(msg string, res answer.Result) bool {
	ws := strings.Fields(strings.ToLower(msg))
	if len(ws) == 0 || len(ws) > 3 || strings.ContainsAny(msg, "?？") || !strings.HasPrefix(res.Reason, "no ") ||
		answer.AsksBack(msg) || answer.SaysLost(msg) || answer.AsksQuestionAgain(msg) || tutor.AsksForAnswer(msg) ||
		slices.Contains(hardPhrases, strings.Join(ws, " ")) {
		return false
	}
	for i, w := range ws {
		if w = strings.Trim(w, ".,!'\""); notAttempts[w] || moods[w] || talk[w] || i == 0 && openers[w] {
			return false
		}
	}
	return true
}

// namesOtherQuestion reports whether an exam reply names a question by a
// number other than current's (1-based): "for question 1 I meant 7/9",
// "Q3 was 12" on question 2. Naming the current one ("Question 2: 7/9")
// is an answer to it.
func namesOtherQuestion(msg string, current int) bool {
	for _, m := range questionNumber.FindAllStringSubmatch(msg, -1) {
		if n, err := strconv.Atoi(m[1]); err == nil && n != current {
			return true
		}
	}
	return false
}

// questionNumber matches a question named by its number: "question 1",
// "Q1", "q. 2", "question no. 3", "question #4".
var questionNumber = regexp.MustCompile(`(?i)\b(?:question|q)\.?\s*(?:no\.?\s*|number\s*|#\s*)?(\d{1,2})\b`)

// examQuery reports whether a short exam reply asks rather than answers:
// a sum checked ("is 2/3 = 4/6?"), a question about another question.
func examQuery(msg string) bool {
	if n := len(strings.Fields(msg)); n == 0 || n > 8 {
		return false
	}
	return answer.RefersBack(msg) || strings.Contains(msg, "=") && strings.ContainsAny(msg, "?？")
}

// examAside reports whether a short exam reply is about the exam, a
// request or a mood rather than an answer: a hint asked for, the answer
// asked for, "lol this is dumb".
func examAside(msg string) bool {
	ws := strings.Fields(strings.ToLower(msg))
	if len(ws) == 0 || len(ws) > 8 {
		return false
	}
	for _, w := range ws {
		if w = strings.Trim(w, ".,!?'\""); notAttempts[w] || moods[w] {
			return len(ws) <= 4
		}
	}
	return false
}

// wordsAnswer reports whether an answer of kind k is words: a text, a set
// or a list.
func wordsAnswer(k answer.Kind) bool {
	return k == answer.KindText || k == answer.KindSet || k == answer.KindList
}

// chatter reports whether a short reply to a question whose answer is
// words (text, a set or a list) is talk rather than an answer: every word
// is one of talk, a mood, about the question, of a break or of coming back
// ("lol", "wait a sec", "I'm back", "sorry I was away"), and none is a word
// of the answer, an accepted one or an option.
func chatter(msg string, exp answer.Expected) bool {
	if !wordsAnswer(exp.KindOf()) {
		return false
	}
	ws := strings.Fields(strings.ToLower(msg))
	if len(ws) == 0 || len(ws) > 6 {
		return false
	}
	own := strings.Fields(strings.ToLower(strings.Join(slices.Concat([]string{exp.Answer}, exp.Accept, exp.Options), " ")))
	for _, w := range ws {
		w = strings.Trim(w, ".,!?'\"")
		if w == "" {
			continue
		}
		if !talk[w] && !moods[w] && !notAttempts[w] && !breaks[w] && !returns[w] ||
			slices.ContainsFunc(own, func(o string) bool { return strings.Trim(o, ".,!?'\"") == w }) {
			return false
		}
	}
	return true
}

// declinesExamQuestion reports whether msg declines the exam question on
// screen: the whole message, give or take polite words, says to pass or go
// on to the next question ("pass", "next", "next question please", "can we
// move on?"), and it is not the question's right answer (a question may
// be answered "pass").
func declinesExamQuestion(s tutor.State, t *tutor.Topic, msg string) bool {
	if s.Mode != tutor.ModeExam || s.ExamFinished || s.ExamCurrentIdx >= len(s.ExamQuestions) {
		return false
	}
	ws := strings.Fields(strings.NewReplacer("'", "", "’", "").Replace(strings.ToLower(msg)))
	for i := range ws {
		ws[i] = strings.Trim(ws[i], ".,!?？;:\"")
	}
	ws = slices.DeleteFunc(ws, func(w string) bool { return w == "" })
	for len(ws) > 0 && politeWords[ws[0]] {
		ws = ws[1:]
	}
	for len(ws) > 0 && politeWords[ws[len(ws)-1]] {
		ws = ws[:len(ws)-1]
	}
	if !skips[strings.Join(ws, " ")] {
		return false
	}
	q := s.ExamQuestions[s.ExamCurrentIdx]
	return judge(q.Expected(t), q.QuestionText, msg).Verdict != answer.Correct
}

var (
	// skips are the messages that decline an exam question.
	skips = wordSet("pass", "i pass", "ill pass", "i will pass", "pass this", "pass this one", "pass this question",
		"pass on this", "pass on this one", "next", "next one", "next question", "next q", "go next", "go to next",
		"go to the next", "go to the next one", "go to the next question", "move on", "lets move on", "can we move on",
		"can i move on", "move to the next question", "move on to the next question", "on to the next one",
		"skip", "skip this one", "skip to the next question", "agla", "agla question", "agla sawal")
	// politeWords may stand around a skip: "ok next", "pass please".
	politeWords = wordSet("ok", "okay", "please", "pls", "plz", "just", "sir", "maam", "mam", "didi", "bhaiya",
		"um", "umm", "hmm", "then", "so", "now")
)

// examBreak reports whether a short exam reply asks for a break or says
// the learner is tired ("i need a break", "i am so tired", "can we pause").
func examBreak(msg string) bool {
	ws := strings.Fields(strings.ToLower(msg))
	return len(ws) <= 6 && slices.ContainsFunc(ws, func(w string) bool { return breaks[strings.Trim(w, ".,!?'\"")] })
}

var (
	// breaks are the words of asking for a break.
	breaks = wordSet("break", "pause", "tired", "sleepy", "exhausted", "thak", "thaka", "thaki")
	// talk are the words of a message that is no answer: "let me think",
	// "hold on", "thanks", "i forgot", "tell me", "this is hard".
	talk = wordSet("i", "me", "my", "you", "let", "think", "thinking", "hold", "thanks", "thank", "sorry", "huh",
		"yeah", "yep", "k", "kk", "forgot", "forget", "tell", "give", "answer", "wait", "ready", "dont", "cant",
		"maybe", "hi", "hey", "bye", "lol", "dunno", "no", "yes", "ok", "okay")
	// hardPhrases say the question is hard, with no answer in them.
	hardPhrases = []string{"this is hard", "too hard", "so hard", "its hard", "it's hard", "this is tough", "this is difficult"}
	// moods are words of a learner's mood about the exam, not of an
	// answer.
	moods = wordSet("lol", "dumb", "stupid", "boring", "bored", "whatever", "hate", "ugh", "meh", "idiot")
	// openers start a message that asks or greets rather than answers.
	openers = wordSet("can", "could", "may", "should", "is", "are", "do", "does", "what", "whats", "why", "how",
		"which", "where", "who", "when", "ok", "okay", "yes", "no", "hmm", "um", "wait", "hi", "hello", "please", "pls")
	// returns are the other words of a message of waiting or coming back:
	// "wait a sec", "one moment", "I'm back", "sorry I was away", "brb".
	returns = wordSet("a", "sec", "secs", "second", "minute", "min", "moment", "one", "just", "on", "back", "away",
		"was", "am", "im", "i'm", "here", "brb", "gone", "oh", "ah", "hmm", "um", "haha",
		"this", "is", "so", "it", "it's", "its", "pls", "plz", "please")
	// notAttempts are words of a message about the exam, not an answer.
	notAttempts = wordSet("hint", "help", "clue", "explain", "repeat", "again", "calculator", "idea", "know", "sure",
		"question", "skip", "pass", "next", "later", "understand", "confused")
)

func wordSet(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// judge evaluates a reply to a question with the deterministic evaluator,
// reading a comparison or a list of values against what the question asks
// (see compared and listed).
func judge(exp answer.Expected, question, msg string) answer.Result {
	if m := byPair.FindStringSubmatch(msg); m != nil && slices.ContainsFunc(questionDivision.FindAllStringSubmatch(question, -1), func(q []string) bool {
		return q[1] == m[1] && q[2] == m[2]
	}) {
		// "45 by 5" to "Divide 45 by 5": the question's own division
		// said back, not worked out.
		return answer.Result{Verdict: answer.NotAttempt, Reason: "no answer: the question's own numbers"}
	}
	if res, ok := compared(exp, question, msg); ok {
		return res
	}
	if res, ok := byPlace(exp, question, msg); ok {
		return res
	}
	if res, ok := bySize(exp, question, msg); ok {
		return res
	}
	res := listed(answer.Evaluate(exp, msg), exp, question, msg)
	if said := strings.TrimSpace(res.Extracted); res.Verdict == answer.Incorrect && asksFall.MatchString(question) && strings.HasPrefix(said, "-") {
		// "-15%" to "By what percentage did it fall?": the fall, signed.
		if r := answer.Evaluate(exp, strings.TrimPrefix(said, "-")); r.Verdict == answer.Correct {
			r.Extracted = said
			return r
		}
	}
	return res
}

// byPlace judges an option picked by its place ("the last one", "option
// 2") in the order the learner saw the options: as the question's text
// names them when it names every one ("… bigger than 4, smaller than 4 or
// equal to 4?"), else as lettered after it. A bare letter ("C") to a
// question that names its options without letters is no answer: the
// stored letters follow an order the learner never saw, so it earns
// nothing, and the learner is asked to say which one. A reply that is an
// option's own text ("first" among the options) is left to the evaluator.
func byPlace(exp answer.Expected, question, msg string) (answer.Result, bool) {
	if len(exp.Options) == 0 {
		return letterWithoutOptions(exp, question, msg)
	}
	k, ok := answer.OrdinalChoice(msg, len(exp.Options))
	letter := !ok && len(exp.Options) > 0 && letterPick.MatchString(strings.TrimSpace(msg))
	if !ok && !letter || slices.ContainsFunc(exp.Options, func(o string) bool { return strings.EqualFold(strings.TrimSpace(o), strings.TrimSpace(msg)) }) {
		return answer.Result{}, false
	}
	order := make([]int, len(exp.Options))
	at := make([]int, len(exp.Options))
	named := true
	low := strings.ToLower(question)
	for i, o := range exp.Options {
		order[i], at[i] = i, strings.Index(low, strings.ToLower(strings.TrimSpace(o)))
		named = named && at[i] >= 0
	}
	switch {
	case letter && (!named || shownLetters.MatchString(question)):
		return answer.Result{}, false // the letters shown are the stored ones
	case letter:
		return answer.Result{Kind: answer.KindChoice, Verdict: answer.NotAttempt, Reason: answer.ReasonUnseenLetter}, true
	}
	if named {
		slices.SortFunc(order, func(a, b int) int { return at[a] - at[b] })
	}
	i := order[k]
	res := answer.Evaluate(exp, string(rune('A'+i)))
	res.Extracted = exp.Options[i]
	return res, true
}

// letterWithoutOptions judges a bare letter ("B", "option c") given to a
// question with no options, as if it had some: no answer, and the learner
// is asked for theirs. A question whose answer is a letter, or whose text
// shows lettered options, keeps the letter for the evaluator.
func letterWithoutOptions(exp answer.Expected, question, msg string) (answer.Result, bool) {
	m := letterPick.FindStringSubmatch(strings.TrimSpace(msg))
	if m == nil || shownLetters.MatchString(question) {
		return answer.Result{}, false
	}
	// "C" for vitamin C, "B" for angle B: the letter names something of
	// the answer or the question (where "a" is only an article).
	named := func(s string) bool {
		return slices.ContainsFunc(strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }),
			func(w string) bool { return strings.EqualFold(w, m[1]) })
	}
	if named(exp.Answer) || slices.ContainsFunc(exp.Accept, named) || !strings.EqualFold(m[1], "a") && named(question) {
		return answer.Result{}, false
	}
	return answer.Result{Kind: exp.KindOf(), Verdict: answer.NotAttempt, Reason: answer.ReasonLetterNoOptions}, true
}

// byPair finds a reply that is only a division said as "45 by 5" (see
// answer's fractions), with at most "x =" or "it's" before it: "45 by 5 =
// 9" works it out.
var byPair = regexp.MustCompile(`(?i)^\s*(?:[a-z]\s*=\s*|it'?s\s+|its\s+)?(\d+)\s+(?:by|upon)\s+(\d+)\s*[.!]?\s*$`)

// questionDivision finds a division a question names: "divide 45 by 5",
// "45 divided by 5".
var questionDivision = regexp.MustCompile(`(?i)\b(\d+)\s+(?:divided\s+)?(?:by|upon)\s+(\d+)\b`)

// shownLetters finds options shown with letters: "A) gas, B) liquid",
// "(a) gas", "A. gas", "a. gas", "A: gas".
var shownLetters = regexp.MustCompile(`(?:^|\s)(?:[A-Da-d]\)|\([A-Da-d]\)|[A-Da-d][.:])\s`)

// letterPick reads a reply that is only an option's letter: "C", "(c)",
// "option C".
var letterPick = regexp.MustCompile(`(?i)^(?:option\s+|\(\s*)?([a-d])\s*[).]?$`)

// asksFall finds a question that asks by how much something fell, whose
// answer is the size of the fall.
var asksFall = regexp.MustCompile(`(?i)\b(?:fall|fell|fallen|decrease|decreased|drop|dropped|reduced|reduction|loss|discount|lower|cooler|colder)\b`)

// compared judges a comparison given for "which is greater" or "which is
// smaller": "-7 < -2" answers "Which is greater, -7 or -2?" with -2.
func compared(exp answer.Expected, question, msg string) (answer.Result, bool) {
	switch kind := cmp.Or(exp.Kind, answer.InferKind(exp.Answer)); kind {
	case answer.KindInteger, answer.KindDecimal:
	default:
		return answer.Result{}, false
	}
	m := comparison.FindStringSubmatch(msg)
	if m == nil {
		return answer.Result{}, false
	}
	wantMax, wantMin := asksGreater.MatchString(question), asksSmaller.MatchString(question)
	if wantMax == wantMin {
		return answer.Result{}, false
	}
	// The greater side: the one the symbol opens towards.
	greater, smaller := m[1], m[3]
	if m[2] == "<" {
		greater, smaller = smaller, greater
	}
	pick := greater
	if wantMin {
		pick = smaller
	}
	return answer.Evaluate(exp, pick), true
}

// asksGreater and asksSmaller find which side a question asks for.
var (
	asksGreater = regexp.MustCompile(`(?i)\b(?:greater|greatest|larger|largest|bigger|biggest|higher|highest|warmer)\b`)
	asksSmaller = regexp.MustCompile(`(?i)\b(?:smaller|smallest|less|least|lower|lowest|colder|fewer|fewest)\b`)
)

// comparison matches a reply that is one comparison of two numbers.
var comparison = regexp.MustCompile(`^\s*([-−]?\s?\d+(?:\.\d+)?)\s*([<>])\s*([-−]?\s?\d+(?:\.\d+)?)\s*\.?\s*$`)

// listed judges a reply that lists several values for a numeric question
// by the value it gives for what the question asks, not by its first one.
// Where the items are labelled with the question's names ("Asha 400, Bina
// 500" when Bina's share is asked), the item labelled with a name of the
// question's last sentence is the answer. Bare values ("400 and 500",
// "24, 56") that hold the right one beside another are a hedge, in either
// order, and the learner is asked for one final answer. Only a plain list
// is read so: each item a number with at most a short label, no working
// ("9 parts, 900 ÷ 9 = 100, 5 × 100 = 500"), no correction or reason ("14,
// no wait 15", "500, not 400", "500, since 5 parts").
func listed(res answer.Result, exp answer.Expected, question, msg string) answer.Result {
	switch kind := cmp.Or(exp.Kind, answer.InferKind(exp.Answer)); kind {
	case answer.KindInteger, answer.KindDecimal, answer.KindUnit, answer.KindPercentage:
	default:
		return res
	}
	items := listSep.Split(strings.TrimSpace(strings.TrimRight(msg, ".!")), -1)
	if len(items) < 2 {
		return res
	}
	names, asked := questionNames(question)
	labelled, bare := 0, true
	for _, it := range items {
		ws := strings.Fields(it)
		if len(listNumber.FindAllString(it, -1)) != 1 || strings.ContainsAny(it, "=+×*÷/:") || len(ws) > 4 {
			return res
		}
		for _, w := range ws {
			if listStops[strings.ToLower(bareWord(w))] {
				return res
			}
		}
		if slices.ContainsFunc(ws, func(w string) bool { return names[bareWord(w)] }) {
			labelled++
		}
		bare = bare && len(ws) <= 2
	}
	if labelled >= 2 {
		for _, it := range items {
			if slices.ContainsFunc(strings.Fields(it), func(w string) bool { return asked[bareWord(w)] }) {
				return answer.Evaluate(exp, it)
			}
		}
	}
	switch {
	case labelled == 0 && bare:
		right, wrong := false, false
		for _, it := range items {
			c := answer.Evaluate(exp, it).Verdict == answer.Correct
			right, wrong = right || c, wrong || !c
		}
		if right && wrong {
			res.Verdict, res.Reason = answer.NotAttempt, "hedged between two values"
		}
	}
	return res
}

// bySize judges a reply that gives both values for a question that asks
// for the smaller or the larger of two ("Two numbers differ by 9. … What
// is the smaller number?"): by the clause that labels a value as asked
// ("smaller is 24, larger is 56", "3/4 is the greater", "the larger is 7
// parts = 56"), the last such clause when the learner corrects
// themselves. A reply that only states the two values ("The numbers are
// 15 and 6."), the right one among them, has not said which is asked for:
// as a bare list (see listed), the learner is asked for one final answer.
// The values of a question that names its options ("Which is greater, -7
// or -2?") are its options, not answers.
func bySize(exp answer.Expected, question, msg string) (answer.Result, bool) {
	sentences := answer.SplitSentences(question)
	if len(sentences) == 0 {
		return answer.Result{}, false
	}
	m := sizeWord.FindStringSubmatch(sentences[len(sentences)-1].Text)
	if m == nil {
		return answer.Result{}, false
	}
	small := sizeSmall[strings.ToLower(m[1])]
	var labelled *answer.Result
	// "2 and 1/2", "2 and a half": one number, whose "and" joins no clauses.
	msg = mixedAnd.ReplaceAllStringFunc(msg, func(m string) string {
		sub := mixedAnd.FindStringSubmatch(m)
		part := sub[2]
		switch strings.ToLower(strings.Join(strings.Fields(part), " ")) {
		case "a half":
			part = "1/2"
		case "a quarter":
			part = "1/4"
		case "a third":
			part = "1/3"
		}
		return sub[1] + " " + part
	})
	judged := func(r answer.Result) bool {
		return r.Verdict == answer.Correct || r.Verdict == answer.Incorrect || r.Verdict == answer.Partial
	}
	mine, correcting := false, false // the last label was the one asked for; a take-back follows it
	for _, clause := range clauseSep.Split(msg, -1) {
		sizes := sizeWord.FindAllStringSubmatch(clause, -1)
		if len(sizes) == 0 {
			correcting = correcting || mine && takesBack.MatchString(clause)
			if res := answer.Evaluate(exp, clause); correcting && judged(res) {
				labelled, correcting = &res, false // "larger is 24, no wait, 56"
			}
			continue
		}
		mine, correcting = false, false
		if slices.ContainsFunc(sizes, func(w []string) bool { return sizeSmall[strings.ToLower(w[1])] != small }) {
			continue // the other label, or both: "larger than the smaller" is not read
		}
		if res := answer.Evaluate(exp, clause); judged(res) {
			labelled, mine = &res, true
		}
	}
	if labelled != nil {
		return *labelled, true
	}
	if strings.ContainsAny(msg, "=+×*÷/:") || len(strings.Fields(msg)) > 8 || wordsOtherThanList.MatchString(msg) {
		return answer.Result{}, false
	}
	values := signedNumber.FindAllString(msg, -1)
	if len(values) != 2 {
		return answer.Result{}, false
	}
	right, wrong := false, false
	for _, v := range values {
		if strings.Contains(question, v) {
			return answer.Result{}, false // the question's own values
		}
		c := answer.Evaluate(exp, v).Verdict == answer.Correct
		right, wrong = right || c, wrong || !c
	}
	if !right || !wrong {
		return answer.Result{}, false
	}
	return answer.Result{Verdict: answer.NotAttempt, Reason: "hedged between two values"}, true
}

var (
	// sizeWord finds the smaller or the larger of two, asked for or
	// labelled. Superlatives ("the least number of buses", "the greatest
	// common factor") ask something else.
	sizeWord  = regexp.MustCompile(`(?i)\b(smaller|lesser|lower|larger|bigger|greater|higher)\b`)
	sizeSmall = map[string]bool{"smaller": true, "lesser": true, "lower": true}
	// mixedAnd finds a mixed number said with "and": "2 and 1/2", "2 and
	// a half".
	mixedAnd = regexp.MustCompile(`(?i)\b(\d+)\s+and\s+(\d+\s*/\s*\d+|a\s+(?:half|quarter|third))\b`)
	// correction opens a clause that takes back the one before: "no
	// wait, 56".
	takesBack = regexp.MustCompile(`(?i)^\s*(?:no|wait|actually|sorry|oops|i\s+mean)\b`)
	// clauseSep splits a reply into its clauses: "80/10 = 8, so smaller is
	// 24 and larger is 56". A comma inside a number ("1,500") or a
	// decimal point does not split.
	clauseSep = regexp.MustCompile(`(?i),\s|;|\.(?:\s|$)|\s(?:and|then|but|so)\s`)
	// wordsOtherThanList are the words that make a reply more than a list
	// of values: working, a correction, a reason.
	wordsOtherThanList = regexp.MustCompile(`(?i)\b(?:no|not|wait|actually|mean|since|because|so|then|sorry|oops|instead|times|plus|minus|divided|multiplied|difference|sum|twice|half|or|maybe)\b`)
	signedNumber       = regexp.MustCompile(`[-−]?\d+(?:\.\d+)?`)
)

// bareWord is w without the punctuation around it and a possessive 's.
func bareWord(w string) string {
	w = strings.Trim(w, ".,?!:;\"()")
	return strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
}

var (
	listSep    = regexp.MustCompile(`\s*(?:,\s+|;\s*|\s+and\s+|\s*&\s*)`)
	listNumber = regexp.MustCompile(`\d+(?:[.,]\d+)*`)
	// listStops are words that make a list something else: a correction,
	// a reason, a conclusion.
	listStops = map[string]bool{"no": true, "not": true, "wait": true, "actually": true, "mean": true, "since": true,
		"because": true, "so": true, "then": true, "sorry": true, "oops": true, "instead": true, "isnt": true, "isn't": true}
)

// questionNames returns the names of a question (capitalised words that do
// not open a sentence: "Asha", "Bina"), and those of its last sentence,
// which asks, that occur earlier too: "Bina" in "₹900 is divided between
// Asha and Bina in the ratio 4 : 5. How many rupees does Bina get?".
func questionNames(question string) (names, asked map[string]bool) {
	names, asked = map[string]bool{}, map[string]bool{}
	sentences := answer.SplitSentences(question)
	// The things a question counts in pairs: "boys to girls", "pencils and
	// erasers". A verb ("rises 45 m and then dives") is none.
	pairedNouns := map[string]bool{}
	for _, m := range nounPair.FindAllStringSubmatch(question, -1) {
		if plural(m[1]) && plural(m[2]) {
			pairedNouns[strings.ToLower(m[1])], pairedNouns[strings.ToLower(m[2])] = true, true
		}
	}
	for k, sent := range sentences {
		last := k == len(sentences)-1 && k > 0
		for i, w := range strings.Fields(sent.Text) {
			w = bareWord(w)
			if w == "" {
				continue
			}
			capital := i > 0 && unicode.IsUpper([]rune(w)[0])
			// The asking sentence's nouns named before too: "son" in "…
			// as old as his son. How old is the son now?"; and the nouns
			// the other sentences name it beside, which label the other
			// values of a reply: "boys" in "… of boys to girls is 5 : 4.
			// … How many girls are there?".
			noun := !capital && len(w) >= 3 && !askingWords[strings.ToLower(w)] && !fillerNouns[strings.ToLower(w)] &&
				(last && containsWord(question[:sent.Start], w) || !last && k < len(sentences)-1 && pairedNouns[strings.ToLower(w)])
			if !capital && !noun {
				continue
			}
			names[w] = true
			if last && strings.Contains(question[:sent.Start], w) {
				asked[w] = true
			}
		}
	}
	return names, asked
}

// nounPair finds two things named together: "boys to girls", "pencils
// and erasers".
var nounPair = regexp.MustCompile(`(?i)\b([a-z]{3,})\s+(?:to|and)\s+(?:the\s+|of\s+)?([a-z]{3,})\b`)

// plural reports whether w reads as a plural noun: "boys", "marbles".
func plural(w string) bool {
	return strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is")
}

// fillerNouns are plurals of a question's frame, not things counted.
var fillerNouns = map[string]bool{"parts": true, "times": true, "terms": true, "numbers": true, "answers": true, "was": true, "has": true, "does": true, "its": true, "this": true, "these": true, "those": true, "always": true}

// askingWords frame a question rather than name what it asks about.
var askingWords = map[string]bool{"how": true, "what": true, "which": true, "the": true, "now": true, "old": true,
	"many": true, "much": true, "does": true, "did": true, "will": true, "get": true, "has": true, "have": true,
	"are": true, "was": true, "were": true, "and": true, "its": true, "his": true, "her": true, "their": true,
	"then": true, "after": true, "before": true, "each": true, "number": true, "rupees": true, "years": true}

// containsWord reports whether text holds w as a whole word.
func containsWord(text, w string) bool {
	for _, f := range strings.Fields(text) {
		if bareWord(f) == w {
			return true
		}
	}
	return false
}

// echoed turns a partly right answer that only repeats the question's own
// value into a wrong one: "0.35" for "Write 0.35 as a percentage" or "6/10"
// for "Simplify 6/10" is the right value, but no step was taken.
func echoed(res answer.Result, question string) answer.Result {
	if res.Verdict != answer.Partial || res.Extracted == "" || res.Reason == answer.ReasonAnother {
		return res
	}
	for _, w := range strings.Fields(question) {
		if strings.TrimRight(w, ".,?!;:") == res.Extracted {
			res.Verdict, res.Reason = answer.Incorrect, "repeats the question's value"
			return res
		}
	}
	return res
}

// namedBeside marks a right word answer named beside another thing of the
// lesson ("oxygen and glucose") as partly right (see answer.AndAnother):
// the other thing's words are all words of the lesson's text or answers.
func namedBeside(res answer.Result, t *tutor.Topic, questionID, msg string) answer.Result {
	bq, ok := t.Question(questionID)
	if !ok || res.Verdict != answer.Correct {
		return res
	}
	return answer.AndAnother(bq.Expected(), msg, res, func(other string) bool {
		lesson := lessonWords(t)
		for _, w := range strings.Fields(other) {
			if w == "the" || w == "a" || w == "an" {
				continue
			}
			if !lesson[w] && !lesson[strings.TrimSuffix(w, "s")] {
				return false
			}
		}
		return true
	})
}

// lessonWords returns the lower-case words of a lesson's explanations and
// of its questions' answers.
func lessonWords(t *tutor.Topic) map[string]bool {
	m := map[string]bool{}
	add := func(s string) {
		for _, w := range strings.Fields(strings.ToLower(s)) {
			if w = strings.Trim(w, ".,;:!?()\"'"); w != "" {
				m[w], m[strings.TrimSuffix(w, "s")] = true, true
			}
		}
	}
	for _, st := range t.Steps {
		add(st.Content)
	}
	for _, q := range t.Questions {
		add(q.Answer)
		for _, a := range q.MisconceptionAnswers {
			add(a)
		}
	}
	return m
}

// alsoWrong turns a right answer that also gives the question's known
// wrong one ("oxygen and carbon dioxide" for the gas plants take in) into
// a hedge: the learner is asked which one they mean, as for "5 or 6".
func alsoWrong(res answer.Result, t *tutor.Topic, questionID, msg string) answer.Result {
	if res.Verdict != answer.Correct && res.Reason != answer.ReasonAnother {
		return res
	}
	bq, ok := t.Question(questionID)
	if !ok || !bq.ShowsMisconception(msg) || bq.ShowsMisconception(bq.Answer) || comparesTwo.MatchString(msg) {
		// "-7 < -2", "-2 is greater than -7": the wrong value named as
		// the one compared with, not offered.
		return res
	}
	res.Verdict, res.Reason = answer.NotAttempt, "hedged between two values"
	return res
}

// comparesTwo finds a reply that compares two values.
var comparesTwo = regexp.MustCompile(`(?i)[<>]|\b(?:greater|bigger|larger|more|less|smaller|lower|higher|warmer|colder)\s+than\b`)

// checkSafety runs the safety agent on a learner's message (role
// "student") or on a reply about to be sent (role "tutor") and logs the
// call.
func (r *run) checkSafety(ctx context.Context, role, text string, s tutor.State) agents.SafetyVerdict {
	label := "Check"
	if role == "tutor" {
		label = "Check reply"
	}
	v, calls := r.o.checkSafety(ctx, r.set, role, text, s)
	for i, c := range calls {
		r.log(c.Call, c.start, checkLabel(label, i)+ellipsis(text, 80))
	}
	return v
}

// gateReply returns the reply to a message the safety gate stopped: the
// gate's guidance if it passes the checks every reply passes, else the
// rules engine's fixed reply for the message's category (the reference's
// redirect for a category the engine lacks), never a lesson redirect.
//
// Why screen it and fall back, rather than skip the check for self-harm
// and abuse: guidance that must speak of the harm is where a model can
// say the worst (a method, sexual content), and the fixed reply is support
// written for that case, with the helplines. Guidance that merely names
// the harm ("thoughts of suicide") may be flagged too; the learner still
// gets support. Guidance that needs repair is replaced whole: a redacted
// one could lose its helpline. The rules engine's guidance is the fixed
// reply and is sent as it is, unchecked.
func (r *run) gateReply(ctx context.Context, turn agents.Turn, out *tutor.Outcome, v agents.SafetyVerdict) string {
	fixed := rules.Guidance(v.Category)
	if fixed == "" {
		fixed = UnsafeRedirectReply
	}
	guidance := strings.TrimSpace(v.Guidance)
	if guidance == "" || guidance == fixed {
		return fixed
	}
	if r.sanitize(ctx, turn, out, guidance, agents.NameSafety) != guidance {
		return fixed
	}
	if check := r.checkSafety(ctx, "tutor", guidance, turn.State); !check.Safe {
		r.o.log.Warn("safety guidance flagged by the safety check", "session_id", turn.State.SessionID, "category", v.Category, "flagged", check.Category)
		return fixed
	}
	return guidance
}

// checkLabel names the i-th call of a safety check in the agent log: the
// second is the rules classifier standing in for a failed agent.
func checkLabel(label string, i int) string {
	if i > 0 {
		return label + " (fallback): "
	}
	return label + ": "
}

// timedCall is an agent call with the time it started.
type timedCall struct {
	agents.Call
	start time.Time
}

// checkSafety runs set's safety agent. When it fails, the rules classifier
// decides: the gate fails closed for what the classifier flags and open
// otherwise (a failing model must not silence the learner, nor let through
// what the patterns catch). It returns the verdict and the calls made.
func (o *Orchestrator) checkSafety(ctx context.Context, set agents.Set, role, text string, s tutor.State) (agents.SafetyVerdict, []timedCall) {
	start := time.Now()
	v, c, err := set.Safety.Check(ctx, role, text, s)
	calls := []timedCall{{c, start}}
	if err != nil && o.fallback != nil {
		start = time.Now()
		v, c, err = o.fallback.Check(ctx, role, text, s)
		calls = append(calls, timedCall{c, start})
	}
	if err != nil {
		return agents.SafetyVerdict{Safe: true}, calls
	}
	return v, calls
}

func (r *run) pastDiscussions(ctx context.Context) []agents.PastDiscussion {
	past, err := r.o.st.PastDiscussions(ctx, *r.se.Row.LearnerID, *r.se.Row.GuidelineID, r.se.Row.ID)
	if err != nil {
		r.o.log.Warn("past discussions", "session_id", r.se.Row.ID, "err", err)
		return nil
	}
	out := make([]agents.PastDiscussion, len(past))
	for i, p := range past {
		out[i] = agents.PastDiscussion{Date: p.SessionDate, Concepts: p.Concepts}
	}
	return out
}

// failed commits a turn whose agent failed: the learner gets an honest
// "let's try that again", the state stays as it was, the conversation log
// keeps both messages and the agent log the failure.
//
// The record goes without the client's turn id: a retry with that id is
// the "again" the learner was asked for, so it runs as a new turn instead
// of getting the failure back. It is written even when the turn failed
// because its time ran out, but not when its caller went away.
func (r *run) failed(ctx context.Context, cause error) (TurnResult, error) {
	if err := ctx.Err(); errors.Is(err, context.Canceled) {
		// The caller went away (a closed tab, a client's own timeout): no
		// one will read the apology, and a retry with the same client turn
		// id must run the turn, not find a failure in its place. Nothing
		// is written, as when the commit itself is cancelled; the model's
		// spend is in the usage records already. A deadline is not the
		// caller leaving: that failure is committed, below.
		r.o.log.Info("turn abandoned by its caller", "session_id", r.se.State.SessionID, "turn_id", r.turnID, "err", cause)
		return TurnResult{}, err
	}
	r.o.log.Warn("turn failed", "session_id", r.se.State.SessionID, "turn_id", r.turnID, "err", cause)
	r.clientTurnID, r.digest = "", nil
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), failedCommitTimeout)
	defer cancel()
	return r.commit(ctx, r.se.State, nil, FailureReply, IntentError)
}

// failedCommitTimeout bounds the commit of a failed turn, which no longer
// has the turn's own deadline.
const failedCommitTimeout = 10 * time.Second

func (r *run) commit(ctx context.Context, next tutor.State, events []tutor.Event, reply, intent string) (TurnResult, error) {
	o, t := r.o, r.se.Topic
	resp := stepResponse(next, t, reply, intent)
	respJSON, err := json.Marshal(resp)
	if err != nil {
		return TurnResult{}, err
	}
	raw, err := next.MarshalJSON() // not json.Marshal: it would compact the result again
	if err != nil {
		return TurnResult{}, err
	}
	done := o.now()
	lat := int(done.Sub(r.now) / time.Millisecond)
	out, _ := json.Marshal(turnCompleted{Events: eventNames(events), Intent: intent})
	r.logs = append(r.logs, store.AgentLog{TurnID: r.turnID, Agent: "orchestrator", Event: "turn_completed", LatencyMS: &lat, Output: out, CreatedAt: done})
	// The rows have the turn's time, which the state's messages carry: a
	// message has one timestamp in the history and in the messages table.
	v, err := o.st.CommitTurn(ctx, store.Turn{
		SessionID: r.se.Row.ID, Version: r.se.Row.Version, State: raw, Summary: summary(next, t),
		Messages:     []store.NewMessage{{Role: "student", Content: r.msg}, {Role: "teacher", Content: reply}},
		ClientTurnID: r.clientTurnID, MessageHash: r.digest, Response: respJSON, Logs: r.logs, Now: r.now,
	})
	if errors.Is(err, store.ErrAnotherPaused) && next.IsPaused && !r.se.State.IsPaused {
		// The turn ended a lesson's sitting (the learner's goodbye, the
		// time limit) while the learner has another lesson on the
		// subtopic paused, and only one may be. A turn has no such error
		// to give, so the sitting ends without the pause: the lesson stays
		// open, and its next message starts a new sitting.
		r.logs = r.logs[:len(r.logs)-1] // the turn_completed entry, written again
		return r.commit(ctx, tutor.EndSitting(next), withoutPause(events), reply, intent)
	}
	if errors.Is(err, store.ErrDuplicateTurn) {
		return TurnResult{}, &duplicateTurn{err}
	}
	if err := o.commitError(ctx, r.se, err); err != nil {
		o.cache.drop(r.se.Row.ID)
		return TurnResult{}, err
	}
	se := r.se
	se.State, se.Row.State, se.Row.Version, se.Row.Summary, se.Row.UpdatedAt = next, raw, v, summary(next, t), done
	o.cache.put(se, r.gen)
	return TurnResult{Reply: reply, Intent: intent, Session: se, Events: events, Response: respJSON, Committed: true}, nil
}

// withoutPause returns events without their Paused event.
func withoutPause(events []tutor.Event) []tutor.Event {
	return slices.DeleteFunc(slices.Clone(events), func(e tutor.Event) bool {
		_, paused := e.(tutor.Paused)
		return paused
	})
}

// turnCompleted is the output of a turn's turn_completed log entry.
type turnCompleted struct {
	Events []string `json:"events"`
	Intent string   `json:"intent"`
}

// log records an agent call that started at start in the turn's trace.
func (r *run) log(c agents.Call, start time.Time, input string) {
	if c.Agent == "" {
		return
	}
	r.logs = append(r.logs, agentLog(r.turnID, c, start, input))
}

// agentLog is the log entry of an agent call that started at start. Its
// latency is the agent's own figure when it measured one (a model call
// counts the provider's time), else the time since start.
func agentLog(turnID string, c agents.Call, start time.Time, input string) store.AgentLog {
	l := store.AgentLog{
		TurnID: turnID, Agent: c.Agent, Event: "completed", Provider: c.Provider, Model: c.Model,
		InputTokens: c.InputTokens, OutputTokens: c.OutputTokens, CachedTokens: c.CachedTokens, CostUSD: c.CostUSD,
		InputSummary: input, Prompt: c.Prompt, Output: c.Output, Reasoning: c.Reasoning,
	}
	if c.Agent == "" {
		l.Agent = "unknown"
	}
	if c.Latency <= 0 {
		c.Latency = time.Since(start)
	}
	ms := int(c.Latency / time.Millisecond)
	l.LatencyMS = &ms
	if c.Err != nil {
		l.Event, l.Error = "failed", c.Err.Error()
	}
	if len(l.Output) > 0 && !jsonenc.Valid(l.Output) {
		l.Output = nil
	}
	return l
}

func eventNames(events []tutor.Event) []string {
	names := make([]string, len(events))
	for i, e := range events {
		names[i] = e.EventName()
	}
	return names
}

// timeLimitReached reports whether e is the time limit's end of a session.
func timeLimitReached(e tutor.Event) bool {
	_, ok := e.(tutor.TimeLimitReached)
	return ok
}

// fixedIntent names a turn that the domain answered with a fixed text.
func fixedIntent(before, after tutor.State) string {
	switch {
	case before.Mode == tutor.ModeExam && after.ExamFinished:
		return IntentExamComplete
	case before.Mode == tutor.ModeExam:
		return IntentExamAnswer
	}
	return IntentStop
}

func engineName(c tutor.Config) string {
	if cc, ok := c.Components["tutor"]; ok && cc.Provider != "" {
		return cc.Provider
	}
	return "rules"
}

// cleanMessage makes a message safe to store and read: valid UTF-8, no
// control characters but line breaks and tabs, trimmed.
// messageDigest identifies a learner's message (as cleanMessage leaves it)
// for telling a retry from a client turn id used twice.
func messageDigest(message string) []byte {
	sum := sha256.Sum256([]byte(cleanMessage(message)))
	return sum[:]
}

func cleanMessage(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	clean := strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || !unicode.IsControl(r) {
			return r
		}
		return -1
	}, s)
	return strings.TrimSpace(clean)
}

func ellipsis(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for j := range s {
		if i == n {
			return s[:j] + "..."
		}
		i++
	}
	return s
}
