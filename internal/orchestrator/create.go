package orchestrator

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/lessons"
	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/store"
	"github.com/tutord/tutord/internal/tutor"
)

// CreateRequest describes a session to create; the API resolves the
// learner and their context (profile or request) before.
type CreateRequest struct {
	LearnerID   *uuid.UUID // nil for an anonymous session
	GuidelineID uuid.UUID
	Mode        tutor.Mode
	Student     tutor.StudentContext
}

// Created is a new session.
type Created struct {
	Session Session
	// Welcome is the first teacher message (for an exam, with the first
	// question appended).
	Welcome string
	// PastDiscussions are the learner's earlier doubts sessions on the
	// subtopic (clarify_doubts with a known learner only).
	PastDiscussions []store.PastDiscussion
}

// CreateSession creates a session: it resolves the guideline's current
// plan version (which the session keeps for life), pins the engine
// configuration, generates the exam questions for an exam (7, retried with
// 3), writes the mode's welcome and stores the session at version 1.
//
// Errors: ErrGuidelineNotFound (unknown or unapproved guideline),
// ErrExamGeneration, tutor.ErrInvalid (e.g. a grade outside 1..12).
func (o *Orchestrator) CreateSession(ctx context.Context, r CreateRequest) (Created, error) {
	if err := o.begin(); err != nil {
		return Created{}, err
	}
	defer o.end()
	gen := o.cache.generation()

	topic, approved, err := o.lessons.Current(ctx, r.GuidelineID)
	if err != nil && !errors.Is(err, lessons.ErrNotFound) {
		return Created{}, err
	}
	if err != nil || !approved {
		return Created{}, fmt.Errorf("%w: %s", ErrGuidelineNotFound, r.GuidelineID)
	}
	cfg, err := o.engines.Config(ctx)
	if err != nil {
		return Created{}, err
	}
	set, err := o.engines.Agents(cfg)
	if err != nil {
		return Created{}, err
	}
	if r.LearnerID != nil {
		ctx = agents.WithLearner(ctx, r.LearnerID.String())
	}
	now := o.now()
	id := uuid.New()
	var logs []store.AgentLog

	var questions []tutor.ExamQuestion
	if r.Mode == tutor.ModeExam {
		for _, n := range []int{o.examN, o.examRetry} {
			start := time.Now()
			qs, call, err := set.ExamGenerator.Generate(ctx, agents.ExamRequest{SessionID: id.String(), Topic: topic, Student: r.Student, Count: n, Seed: id.String()})
			logs = append(logs, agentLog("turn_0", call, start, fmt.Sprintf("Generate %d exam questions", n)))
			if err == nil && len(qs) > len(questions) {
				questions = qs
			}
			if len(questions) >= o.examRetry {
				break
			}
			// Nothing, or fewer questions than the retry asks for (a model
			// that repeated one question seven times): ask again, and keep
			// the larger set.
			if errors.Is(err, llm.ErrBudgetExceeded) {
				return Created{}, err
			}
			o.log.Warn("exam generation failed or came short", "session_id", id, "questions", n, "got", len(qs), "err", err)
		}
		if len(questions) == 0 {
			return Created{}, ErrExamGeneration
		}
	}
	st, err := tutor.NewState(tutor.NewSession{
		ID: id.String(), Mode: r.Mode, Topic: topic, Student: r.Student, Config: cfg,
		ExamQuestions: questions, Now: now,
	})
	if err != nil {
		return Created{}, err
	}
	start := time.Now()
	welcome, call, err := set.Welcome.Welcome(ctx, st, topic)
	logs = append(logs, agentLog("turn_0", call, start, "Welcome ("+string(st.Mode)+")"))
	if err == nil && strings.TrimSpace(welcome) != "" {
		var checks []store.AgentLog
		welcome, checks = o.screenWelcome(ctx, set, st, topic, welcome)
		logs = append(logs, checks...)
	} else {
		welcome = fallbackWelcome(st, topic)
	}
	if st.Mode == tutor.ModeExam && len(st.ExamQuestions) > 0 {
		welcome += "\n\n" + st.ExamQuestions[0].Prompt() // "**Question 1:** ..."
	}
	st = tutor.AddReply(st, now, welcome)
	raw, err := st.MarshalJSON() // not json.Marshal: it would compact the result again
	if err != nil {
		return Created{}, err
	}
	guideline := r.GuidelineID
	planVersion, err := uuid.Parse(topic.PlanVersionID)
	if err != nil {
		return Created{}, fmt.Errorf("lesson of %s has no plan version: %w", r.GuidelineID, err)
	}
	row := store.NewSession{
		ID: id, LearnerID: r.LearnerID, Mode: string(st.Mode), GuidelineID: &guideline, Subject: topic.Subject,
		PlanVersion: &planVersion, State: raw, Summary: summary(st, topic),
		Messages: []store.NewMessage{{Role: "teacher", Content: welcome}}, Logs: logs, Now: now,
	}
	if err := o.st.CreateSession(ctx, row); err != nil {
		return Created{}, err
	}
	created := Created{Welcome: welcome, Session: Session{
		Row: store.Session{ID: id, LearnerID: r.LearnerID, Mode: row.Mode, GuidelineID: &guideline,
			Subject: topic.Subject, PlanVersion: &planVersion, State: raw, Version: 1, Summary: row.Summary,
			CreatedAt: now, UpdatedAt: now},
		State: st, Topic: topic,
	}}
	o.cache.put(created.Session, gen) // the first turn comes soon
	if st.Mode == tutor.ModeClarify && r.LearnerID != nil {
		if created.PastDiscussions, err = o.st.PastDiscussions(ctx, *r.LearnerID, guideline, id); err != nil {
			o.log.Warn("past discussions", "session_id", id, "err", err)
		}
	}
	return created, nil
}

// screenWelcome holds a welcome to the rules of every reply: sentences with
// internal language, or with the answer to an exam question, are replaced
// with a safe sentence, and a welcome the safety check flags gives way to
// the fixed one. It returns the welcome to send and the safety check's
// log entries.
func (o *Orchestrator) screenWelcome(ctx context.Context, set agents.Set, st tutor.State, t *tutor.Topic, welcome string) (string, []store.AgentLog) {
	welcome = unwrapJSON(welcome)
	var answers []protected
	for _, q := range st.ExamQuestions {
		answers = append(answers, protected{expected: q.Expected(t), question: q.QuestionText})
	}
	// The topic's own name is no leak, though an answer may be in it (an
	// exam on "solids, liquids and gases" asks for "gas"): it is masked
	// before the answers are looked for.
	// Nor is the number of questions ("7 questions", "seven short
	// questions", "a 7-question exam").
	if ps := findProblems(maskCount(maskTopic(welcome, t), len(st.ExamQuestions)), answers, nil); len(ps) > 0 {
		o.log.Warn("welcome needs repair", "session_id", st.SessionID, "problem", ps[0].reason)
		// A welcome is no lesson: the sentence goes, with no "let's work
		// it out" in its place.
		welcome = drop(welcome, ps, fallbackWelcome(st, t))
	}
	v, calls := o.checkSafety(ctx, set, "tutor", welcome, st)
	logs := make([]store.AgentLog, len(calls))
	for i, c := range calls {
		logs[i] = agentLog("turn_0", c.Call, c.start, checkLabel("Check welcome", i)+ellipsis(welcome, 80))
	}
	if !v.Safe {
		o.log.Warn("welcome flagged by the safety check", "session_id", st.SessionID, "category", v.Category)
		welcome = fallbackWelcome(st, t)
	}
	return welcome, logs
}

// maskTopic blanks out, keeping every byte offset, the names of t's topic
// and subtopic where text names them (in any case).
func maskTopic(text string, t *tutor.Topic) string {
	if t == nil {
		return text
	}
	return mask(text, strings.Split(t.TopicName, " - ")...)
}

// countWords are the numbers an exam's question count may be written as.
var countWords = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
	"eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"}

// maskCount blanks out, keeping every byte offset, the number n where it
// counts questions: "7 questions", "seven short questions", "a 7-question
// exam", up to two words between the number and "question".
func maskCount(text string, n int) string {
	if n == 0 {
		return text // no exam: no count, and no answer it could be taken for
	}
	forms := strconv.Itoa(n)
	if n < len(countWords) {
		forms += "|" + countWords[n]
	}
	re := regexp.MustCompile(`(?i)\b(?:` + forms + `)(?:[\s-]+[a-z]+){0,2}?[\s-]+questions?\b`)
	b := []byte(text)
	for _, m := range re.FindAllStringIndex(text, -1) {
		for k := m[0]; k < m[1]; k++ {
			b[k] = '_'
		}
	}
	return string(b)
}

// mask hides each of phrases in text, ignoring case, behind underscores.
func mask(text string, phrases ...string) string {
	lower := strings.ToLower(text)
	if len(lower) != len(text) {
		return text // lowercasing changed the offsets
	}
	b := []byte(text)
	for _, name := range phrases {
		name = strings.ToLower(strings.TrimSpace(name))
		if len(name) < 3 || len(name) != len(strings.ToUpper(name)) {
			continue // too short to matter, or case changes its length
		}
		for from := 0; ; {
			i := strings.Index(lower[from:], name)
			if i < 0 {
				break
			}
			for k := from + i; k < from+i+len(name); k++ {
				b[k] = '_'
			}
			from += i + len(name)
		}
	}
	return string(b)
}

// fallbackWelcome is the reference's welcome when no agent wrote one.
func fallbackWelcome(s tutor.State, t *tutor.Topic) string {
	switch s.Mode {
	case tutor.ModeClarify:
		if t == nil {
			return "Hi! I'm here to help answer your questions. What would you like to know?"
		}
		return "Hi! I'm here to help with " + t.TopicName + ". What questions do you have?"
	case tutor.ModeExam:
		if t == nil {
			return "Let's test your knowledge! I'll ask you some questions. Ready?"
		}
		return fmt.Sprintf("Let's test your knowledge of %s! I'll ask you %d questions. Ready?", t.TopicName, len(s.ExamQuestions))
	}
	return "Welcome! Let's start learning together."
}

// Welcome returns a session's stored welcome: its first teacher message.
// A WebSocket that opens on a session with no turn yet sends it, instead of
// generating a second one.
func (o *Orchestrator) Welcome(ctx context.Context, id uuid.UUID) (string, error) {
	msgs, err := o.st.ListMessages(ctx, id)
	if err != nil {
		return "", err
	}
	for _, m := range msgs {
		if m.Role == "teacher" {
			return m.Content, nil
		}
	}
	return "", nil
}
