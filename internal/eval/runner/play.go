package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/tutord/tutord/internal/eval/client"
	"github.com/tutord/tutord/internal/eval/learner"
	"github.com/tutord/tutord/internal/eval/scenario"
	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

// conflictText is in the error frame of a turn lost to another writer.
const conflictText = "updated from another tab"

// Error frames that ask the client to wait and send again: a rate limit
// (with the seconds to wait), a message sent while the previous one is
// still being answered, and get_state asked for too often (which tutord
// answers with no state).
var (
	rateLimited    = regexp.MustCompile(`(?i)too many messages.*?(\d+)\s*s`)
	stillBusy      = regexp.MustCompile(`(?i)still being answered`)
	stateThrottled = regexp.MustCompile(`(?i)too many get_state`)
)

// maxResends bounds the resends of a message.
const maxResends = 5

// maxResponse bounds the REST answer kept in a transcript.
const maxResponse = 16 << 10

// player plays one scenario.
type player struct {
	r   *runner
	sc  *scenario.Scenario
	res *Result

	learner *client.Client // the learner's calls
	reader  *client.Client // reads the session document: an admin when possible
	conn    *client.Conn
	sub     *learner.Subtopic // nil when the bank does not know the subtopic
	id      string

	state   *client.State   // the latest state_update
	doc     client.Document // the latest session document
	pending *question       // the question waiting for an answer
	said    []string        // the learner's messages
	replies []string        // the tutor's replies
}

// play runs scenario i and returns its result.
func (r *runner) play(ctx context.Context, i int, sc *scenario.Scenario) Result {
	res := Result{
		Name: sc.Name, File: sc.File, Description: sc.Description, Tags: sc.Tags, Subtopic: sc.Subtopic,
		Mode: string(sc.Mode), Persona: sc.Learner.Persona, StartedAt: r.cfg.Now(), Turns: []Turn{},
	}
	p := &player{r: r, sc: sc, res: &res}
	err := p.run(ctx, i)
	if p.conn != nil {
		if err != nil {
			p.conn.CloseNow()
		} else {
			p.conn.Close()
		}
	}
	res.Duration = ms(r.cfg.Now().Sub(res.StartedAt))
	var doc *client.Document
	if p.doc.SessionID != "" {
		doc = &p.doc
	}
	res.Metrics = measure(res.Turns, res.Mode, doc)
	for _, c := range []*client.Client{p.learner, p.reader} {
		if c != nil {
			res.Metrics.Resends += c.RateLimited
		}
	}
	if err != nil {
		res.Status, res.Error = Error, err.Error()
		return res
	}
	p.checkSession()
	res.Status = Passed
	if len(res.Failures) > 0 {
		res.Status = Failed
	}
	return res
}

func (p *player) run(ctx context.Context, index int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	cfg, sc := p.r.cfg, p.sc
	p.sub, _ = cfg.Bank.Subtopic(sc.Subtopic)
	var learnerToken, readerToken string
	switch {
	case cfg.Auth.Secret != "":
		p.res.Learner = p.r.subject(index, sc.Name)
		var err error
		if learnerToken, err = p.r.mint(p.res.Learner, false); err != nil {
			return err
		}
		if readerToken, err = p.r.mint(p.r.adminSubject(), true); err != nil {
			return err
		}
	case cfg.Auth.Token != "":
		learnerToken, readerToken = cfg.Auth.Token, cfg.Auth.Token
		p.res.Learner = "(the given token)"
	case sc.NeedsLearnerAccount():
		return errors.New("the scenario needs an authenticated learner (for its profile or a lifecycle action): run with --jwt-secret or --token")
	}
	p.learner, p.reader = cfg.client(learnerToken), cfg.client(readerToken)

	pl, err := p.r.resolve.resolve(ctx, sc.Subtopic, sc.Grade)
	if err != nil {
		return err
	}
	grade := sc.Grade
	if grade == 0 {
		grade = pl.Grade
	}
	if learnerToken != "" && (sc.Learner.Name != "" || sc.Learner.Age != 0 || sc.Learner.AboutMe != "") {
		prof := client.Profile{Grade: &grade, Board: &pl.Board}
		if sc.Learner.Name != "" {
			prof.Name = &sc.Learner.Name
		}
		if sc.Learner.Age != 0 {
			prof.Age = &sc.Learner.Age
		}
		if sc.Learner.AboutMe != "" {
			prof.AboutMe = &sc.Learner.AboutMe
		}
		if err := p.learner.UpdateProfile(ctx, prof); err != nil {
			return err
		}
	}
	created, err := p.learner.CreateSession(ctx, client.CreateRequest{
		Student: client.Student{ID: "eval-student", Grade: grade},
		Goal: client.Goal{Topic: "Evaluation", Syllabus: fmt.Sprintf("%s Grade %d", pl.Board, grade),
			LearningObjectives: []string{"Evaluate tutoring quality"}, GuidelineID: pl.GuidelineID},
		Mode: string(sc.Mode),
	})
	if err != nil {
		return err
	}
	p.id, p.res.SessionID = created.SessionID, created.SessionID
	if err := p.refresh(ctx); err != nil {
		return err
	}
	welcome := Turn{Index: 0, Kind: "welcome"}
	start := p.r.cfg.Now()
	if err := p.connect(ctx, &welcome, start); err != nil {
		return err
	}
	// The welcome may pose the question pending after creation (an exam's
	// first): check it for leaks like any reply that asks one.
	p.after(&welcome, nil, p.pending)
	p.res.Turns = append(p.res.Turns, welcome)

	for _, t := range sc.Turns {
		turn, err := p.step(ctx, len(p.res.Turns), t)
		if err != nil {
			return fmt.Errorf("turn %d: %w", len(p.res.Turns), err)
		}
		p.res.Turns = append(p.res.Turns, turn)
		if t.Expect != nil || t.Action.REST() || turn.Error != "" {
			p.checkTurn(&p.res.Turns[len(p.res.Turns)-1], t)
		}
	}
	if sc.Learner.Persona != "" {
		if err := p.simulate(ctx); err != nil {
			return fmt.Errorf("turn %d: %w", len(p.res.Turns), err)
		}
	}
	return p.finish(ctx, learnerToken != "")
}

// finish reads what the frontend reads at the end of a session: its
// summary and, for a learner with an account, the report card.
func (p *player) finish(ctx context.Context, account bool) error {
	var err error
	if p.res.SessionSummary, err = p.read(ctx, "summary", "/sessions/"+url.PathEscape(p.id)+"/summary"); err != nil || !account {
		return err
	}
	p.res.ReportCard, err = p.read(ctx, "report_card", "/sessions/report-card")
	return err
}

// read gets a JSON document as the learner. An answer other than 200 with
// JSON is a failure of the session, named check.
func (p *player) read(ctx context.Context, check, path string) (json.RawMessage, error) {
	status, body, err := p.learner.Do(ctx, http.MethodGet, path, nil)
	if err != nil {
		return nil, err
	}
	if status != http.StatusOK || !json.Valid(body) {
		p.fail("session", check, "200 with JSON", fmt.Sprintf("%d %s", status, clip(string(body), 200)))
		return nil, nil
	}
	return body, nil
}

// step plays one fixed turn.
func (p *player) step(ctx context.Context, index int, t scenario.Turn) (Turn, error) {
	switch {
	case t.Action != "":
		return p.action(ctx, index, t.Action)
	case t.Answer != "":
		q := p.pending
		switch {
		case q == nil:
			return Turn{}, fmt.Errorf("answer %s: no question is waiting for an answer", t.Answer)
		case q.exp.Answer == "":
			return Turn{}, fmt.Errorf("answer %s: the answer to %q is unknown: it is not in the harness's curriculum (--curriculum) and the session document hides it (--jwt-secret shows it)", t.Answer, q.ref.Text)
		case t.Answer == scenario.AnswerCorrect:
			return p.chat(ctx, index, learner.Said(q.exp, q.exp.Answer), string(learner.MoveCorrect), t.Unsafe)
		case q.wrong == "":
			return Turn{}, fmt.Errorf("answer wrong: no wrong answer to %q is known", q.ref.Text)
		}
		return p.chat(ctx, index, q.wrong, string(learner.MoveWrong), t.Unsafe)
	}
	return p.chat(ctx, index, t.Say, "fixed", t.Unsafe)
}

// simulate lets the scenario's simulated learner play.
func (p *player) simulate(ctx context.Context) error {
	sc := p.sc
	prof, _ := sc.Profile()
	seed := sc.Learner.Seed
	if seed == 0 {
		h := fnv.New64a()
		h.Write([]byte(sc.Name))
		seed = p.r.cfg.Seed*0x9e3779b97f4a7c15 ^ h.Sum64()
	}
	sim := learner.New(prof, seed, p.sub)
	maxTurns := sc.Learner.MaxTurns
	if maxTurns == 0 {
		maxTurns = scenario.DefaultMaxTurns
	}
	after := 0
	for range maxTurns {
		if p.state != nil && p.state.IsComplete {
			if after >= sc.Learner.AfterComplete {
				return nil
			}
			after++
		}
		s := learner.Situation{Mode: string(sc.Mode)}
		if len(p.replies) > 0 {
			s.Reply = p.replies[len(p.replies)-1]
		}
		if q := p.pending; q != nil && q.exp.Answer != "" {
			s.Question = &learner.Question{ID: q.ref.ID, Text: q.ref.Text, Expected: q.exp, Wrong: q.wrong}
			if lq := p.doc.LastQuestion; lq != nil {
				s.Attempts = lq.WrongAttempts
			}
		}
		m := sim.Next(s)
		turn, err := p.chat(ctx, len(p.res.Turns), m.Text, string(m.Move), false)
		if err != nil {
			return err
		}
		p.res.Turns = append(p.res.Turns, turn)
		p.checkSimulated(&turn)
	}
	return nil
}

// chat sends a message and reads the turn: typing, the reply or an error
// frame, and the state_update. state_updates before the reply are other
// writers' (a REST action's broadcast) and only update the state.
func (p *player) chat(ctx context.Context, index int, text, move string, unsafe bool) (Turn, error) {
	t := Turn{Index: index, Kind: "message", Learner: text, Move: move, Unsafe: unsafe}
	before, masteryBefore := p.pending, map[string]float64(nil)
	if p.state != nil {
		masteryBefore = p.state.MasteryEstimates
	}
	p.said = append(p.said, text)
	start := p.r.cfg.Now()
	if err := p.conn.Chat(ctx, text); err != nil {
		return t, err
	}
	answered := false // the reply or an error frame came
	for done := false; !done; {
		f, err := p.next(ctx, &t, start)
		if err != nil {
			return t, err
		}
		switch f.Type {
		case client.FrameAssistant:
			t.Tutor, t.ReplyLatency, answered = f.Message, ms(p.r.cfg.Now().Sub(start)), true
		case client.FrameError:
			if wait, ok := waitFor(f.Error, t.Resends); ok && t.Resends < maxResends {
				t.Resends++
				if err := p.wait(ctx, wait); err != nil {
					return t, err
				}
				// Send again what was refused: the get_state asked for
				// below, or the message.
				if stateThrottled.MatchString(f.Error) {
					err = p.conn.GetState(ctx)
				} else {
					err = p.conn.Chat(ctx, text)
				}
				if err != nil {
					return t, err
				}
				break
			}
			t.Error, answered = f.Error, true
			t.Conflict = strings.Contains(f.Error, conflictText)
			// Not every error frame is followed by a state_update: ask.
			if err := p.conn.GetState(ctx); err != nil {
				return t, err
			}
		case client.FrameState:
			p.state = f.State
			done = answered
		}
	}
	t.Latency = ms(p.r.cfg.Now().Sub(start))
	if err := p.refresh(ctx); err != nil {
		return t, err
	}
	p.pace(&t, masteryBefore)
	p.after(&t, before, p.pending)
	return t, nil
}

// waitFor returns how long an error frame asks to wait before sending
// the message again, the n+1-th time; ok is false for other errors.
func waitFor(text string, n int) (d time.Duration, ok bool) {
	if m := rateLimited.FindStringSubmatch(text); m != nil {
		secs, _ := strconv.Atoi(m[1])
		return time.Duration(min(max(secs, 1), 30)) * time.Second, true
	}
	if stillBusy.MatchString(text) {
		// The server is finishing the turn that just ended: back off briefly.
		return 20 * time.Millisecond << n, true
	}
	if stateThrottled.MatchString(text) {
		// tutord allows a few get_state a second and does not say how long
		// to wait: a quarter second, doubled each time.
		return 250 * time.Millisecond << n, true
	}
	return 0, false
}

// wait waits for d, or until ctx ends.
func (p *player) wait(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

// action plays a turn that is not a message.
func (p *player) action(ctx context.Context, index int, a scenario.Action) (Turn, error) {
	t := Turn{Index: index, Kind: "action", Action: string(a)}
	before := p.pending
	start := p.r.cfg.Now()
	switch a {
	case scenario.Reconnect:
		t.Kind = "reconnect"
		if err := p.conn.Close(); err != nil {
			return t, fmt.Errorf("close the WebSocket: %w", err)
		}
		p.conn = nil
		if err := p.connect(ctx, &t, start); err != nil {
			return t, err
		}
	case scenario.GetState:
		t.Kind = "get_state"
		if err := p.conn.GetState(ctx); err != nil {
			return t, err
		}
		if err := p.readState(ctx, &t, start, nil); err != nil {
			return t, err
		}
	default:
		endpoint := strings.ReplaceAll(string(a), "_", "-")
		status, body, err := p.learner.Action(ctx, p.id, endpoint)
		if err != nil {
			return t, err
		}
		t.Status = status
		if len(body) <= maxResponse && json.Valid(body) {
			t.Response = body
		}
		// The WebSocket's state after the action. A server may push it (tutord
		// does) besides answering get_state, and a push of an earlier action
		// may still be on its way: skip states that do not agree with the
		// session document read after the action.
		if err := p.refresh(ctx); err != nil {
			return t, err
		}
		if err := p.conn.GetState(ctx); err != nil {
			return t, err
		}
		if err := p.readState(ctx, &t, start, p.agrees); err != nil {
			return t, err
		}
	}
	t.Latency = ms(p.r.cfg.Now().Sub(start))
	if err := p.refresh(ctx); err != nil {
		return t, err
	}
	p.after(&t, before, p.pending)
	return t, nil
}

// agrees reports whether a state agrees with the session document in what
// the lifecycle actions change.
func (p *player) agrees(s *client.State) bool {
	d := p.doc
	switch {
	case s.IsPaused != d.IsPaused || s.CurrentStep != d.CurrentStep:
		return false
	case d.Mode == string(scenario.ClarifyDoubts) && s.IsComplete != d.ClarifyComplete:
		return false
	}
	return true
}

// connect opens the WebSocket and reads what the server sends first: the
// state, and the welcome when the session has had no turn yet.
func (p *player) connect(ctx context.Context, t *Turn, start time.Time) error {
	conn, err := p.learner.Dial(ctx, p.id)
	if err != nil {
		return err
	}
	conn.Timeout = p.r.cfg.FrameTimeout
	p.conn = conn
	f, err := p.next(ctx, t, start)
	if err != nil {
		return err
	}
	if f.Type != client.FrameState {
		return fmt.Errorf("the WebSocket's first frame is %s, not state_update", f.Type)
	}
	p.state = f.State
	if p.doc.TurnCount == 0 {
		f, err := p.next(ctx, t, start)
		if err != nil {
			return err
		}
		if f.Type != client.FrameAssistant {
			return fmt.Errorf("the WebSocket's second frame is %s, not the welcome (assistant)", f.Type)
		}
		t.Tutor = f.Message
	}
	return nil
}

// readState reads frames until a state_update that want accepts (any,
// when want is nil), asking for the state again when get_state is
// throttled: no state answers a throttled one.
func (p *player) readState(ctx context.Context, t *Turn, start time.Time, want func(*client.State) bool) error {
	for {
		f, err := p.next(ctx, t, start)
		if err != nil {
			return err
		}
		switch f.Type {
		case client.FrameState:
			p.state = f.State
			if want == nil || want(f.State) {
				return nil
			}
		case client.FrameError:
			if !stateThrottled.MatchString(f.Error) {
				t.Error = f.Error
				break
			}
			if t.Resends >= maxResends {
				return fmt.Errorf("get_state: still %q after %d resends", f.Error, t.Resends)
			}
			wait, _ := waitFor(f.Error, t.Resends)
			t.Resends++
			if err := p.wait(ctx, wait); err != nil {
				return err
			}
			if err := p.conn.GetState(ctx); err != nil {
				return err
			}
		}
	}
}

// next reads a frame and records it in the turn.
func (p *player) next(ctx context.Context, t *Turn, start time.Time) (client.Frame, error) {
	f, err := p.conn.Next(ctx)
	if err != nil {
		return f, err
	}
	t.Frames = append(t.Frames, FrameTime{Type: f.Type, At: ms(p.r.cfg.Now().Sub(start)), State: f.State})
	return f, nil
}

// refresh reads the session document and, from it, the question waiting
// for an answer.
func (p *player) refresh(ctx context.Context) error {
	d, err := p.reader.Session(ctx, p.id)
	if err != nil {
		return err
	}
	p.doc = d
	p.pending = p.pendingOf(d)
	return nil
}

// pendingOf returns the question the document says waits for an answer:
// a teach_me session's pending question or an exam's current question. Its
// answer comes from the bank, else from the document (admins only).
func (p *player) pendingOf(d client.Document) *question {
	var id, text, concept, phase, expected, kind string
	switch {
	case d.Mode == string(scenario.Exam):
		if d.ExamFinished || d.ExamCurrentQuestionIdx < 0 || d.ExamCurrentQuestionIdx >= len(d.ExamQuestions) {
			return nil
		}
		q := d.ExamQuestions[d.ExamCurrentQuestionIdx]
		id, text, concept = q.QuestionID, q.QuestionText, q.Concept
		if q.ExpectedAnswer != nil {
			expected = *q.ExpectedAnswer
		}
	case d.LastQuestion != nil:
		q := d.LastQuestion
		id, text, concept, phase, kind = q.QuestionID, q.QuestionText, q.Concept, q.Phase, q.AnswerKind
		if q.ExpectedAnswer != nil {
			expected = *q.ExpectedAnswer
		}
	default:
		return nil
	}
	q := &question{ref: QuestionRef{ID: id, Text: text, Concept: concept, Phase: phase}, since: len(p.said)}
	if bq, ok := p.sub.Question(id, text); ok {
		q.exp, q.wrong = bq.Expected(), learner.WrongAnswer(bq, p.sub.Topic.Questions)
	} else if expected != "" {
		bq := tutor.BankQuestion{Answer: expected, Kind: answer.Kind(kind)}
		q.exp, q.wrong = bq.Expected(), learner.WrongAnswer(bq, nil)
	}
	q.ref.Answer = q.exp.Answer
	if p.pending.same(q) {
		q.since = p.pending.since
	}
	return q
}

// pace sets the pacing directive of a message turn's reply.
func (p *player) pace(t *Turn, mastery map[string]float64) {
	if t.Tutor == "" || p.sc.Mode == scenario.Exam {
		return
	}
	t.Pacing, t.Budget = pacing(len(p.said), p.said, mastery)
}

// after records what the turn left: the state, the questions before and
// after it, the safety flags, and what the reply holds.
func (p *player) after(t *Turn, before, after *question) {
	t.State = p.state
	flags := len(p.doc.SafetyFlags)
	t.Flagged = flags > p.flagsBefore()
	t.SafetyFlags = flags
	if before != nil {
		r := before.ref
		t.Question = &r
	}
	if after != nil && !after.same(before) {
		r := after.ref
		t.Asked = &r
	}
	reply := t.Tutor
	if reply == "" {
		return
	}
	t.Sentences = len(answer.SplitSentences(reply))
	t.Internal = internalMatches(reply)
	t.Repeated = repeats(reply, p.replies)
	p.replies = append(p.replies, reply)
	if p.doc.TurnCount == 0 {
		// A welcome counts the exam's questions ("a 7-question exam"),
		// which gives no answer away, as tutord's own check of it knows.
		reply = withoutQuestionCount(reply, len(p.doc.ExamQuestions))
	}
	if before != nil && p.state.Result() != "correct" {
		if found := leaks(before, reply, p.said, after); len(found) > 0 {
			explained := before.ref.Phase == "explain" || after.same(before) && after.ref.Phase == "explain"
			if p.sc.Mode == scenario.Exam {
				explained = p.doc.ExamFinished
			}
			t.Leaks = append(t.Leaks, toLeaks(before, found, !explained)...)
		}
	}
	if after != nil && !after.same(before) {
		if found := leaks(after, reply, p.said, before); len(found) > 0 {
			t.Leaks = append(t.Leaks, toLeaks(after, found, true)...)
		}
	}
}

// withoutQuestionCount blanks out an exam's count of questions in text:
// "7 questions", "a 7-question exam".
func withoutQuestionCount(text string, n int) string {
	if n == 0 {
		return text
	}
	c := strconv.Itoa(n)
	return strings.NewReplacer(c+" questions", "_ questions", c+" question", "_ question", c+"-question", "_-question").Replace(text)
}

// flagsBefore returns the safety flags counted after the previous turn.
func (p *player) flagsBefore() int {
	if n := len(p.res.Turns); n > 0 {
		return p.res.Turns[n-1].SafetyFlags
	}
	return 0
}
