package llmagent

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/tutor"
)

// Welcomer is the model-backed writer of a session's first message.
type Welcomer struct{ a agent }

var _ agents.Welcomer = (*Welcomer)(nil)

// NewWelcomer returns a welcomer that calls c with the welcome component's
// configuration cfg.
func NewWelcomer(c llm.Client, cfg llm.Config, o Options) *Welcomer {
	return &Welcomer{newAgent(agents.NameWelcome, c, cfg, o)}
}

// Welcome implements agents.Welcomer with the mode's prompt: for a lesson,
// a greeting (by name when known), a preview of the topic and a question
// whether the learner is ready, in two or three sentences; for doubts, an
// invitation to ask; for an exam, the number of questions (the caller
// appends the first one). Errors are *llm.Error: the client's failure, or
// KindInvalidRequest without a lesson, which gets the caller's fixed
// welcome.
func (w *Welcomer) Welcome(ctx context.Context, s tutor.State, t *tutor.Topic) (string, agents.Call, error) {
	if t == nil {
		c, err := w.a.refuse(errors.New("a welcome needs a lesson"))
		return "", c, err
	}
	lesson := newLessonView(t)
	data := messagePrompt{Student: newStudentView(s.StudentContext), Lesson: &lesson, Mode: string(s.Mode), Count: len(s.ExamQuestions)}
	user := tmplWelcomeTeach
	switch s.Mode {
	case tutor.ModeClarify:
		user = tmplWelcomeClarify
	case tutor.ModeExam:
		user = tmplWelcomeExam
		if data.Count == 0 {
			data.Count = DefaultExamQuestions
		}
	}
	return say(ctx, &w.a, s.SessionID, data, user)
}

// PostCompletion is the model-backed reply to messages sent after a
// session has ended.
type PostCompletion struct{ a agent }

var _ agents.PostCompletion = (*PostCompletion)(nil)

// NewPostCompletion returns a post-completion agent that calls c with
// cfg, the tutor component's configuration (the engine pairs them): the
// reply speaks for the tutor that taught the session.
func NewPostCompletion(c llm.Client, cfg llm.Config, o Options) *PostCompletion {
	return &PostCompletion{newAgent(agents.NamePostCompletion, c, cfg, o)}
}

// postCompletionHistory is how many recent messages the reply sees.
const postCompletionHistory = 4

// Reply implements agents.PostCompletion: one or two sentences that
// answer or acknowledge the message and remind the learner that they can
// start a new session. Errors are the client's *llm.Error; the caller then
// sends its fixed reply.
func (pc *PostCompletion) Reply(ctx context.Context, t agents.Turn) (string, agents.Call, error) {
	s := t.State
	data := messagePrompt{
		Student: newStudentView(s.StudentContext),
		Mode:    string(s.Mode),
		Covered: nonBlank(s.ConceptsCovered),
		History: historyView(s.History, postCompletionHistory),
		Message: quoted(t.Message),
	}
	if t.Topic != nil {
		lesson := newLessonView(t.Topic)
		data.Lesson = &lesson
	}
	switch s.Mode {
	case tutor.ModeClarify:
		data.Covered = nonBlank(s.ConceptsDiscussed)
	case tutor.ModeExam:
		data.Covered = nil
		if score := s.ExamScore(); score.Total > 0 {
			data.Score = strconv.Itoa(score.Score) + " out of " + strconv.Itoa(score.Total)
		}
	}
	return say(ctx, &pc.a, s.SessionID, data, tmplPostCompletion)
}

// messagePrompt is the data of the short-message prompts.
type messagePrompt struct {
	Student studentView
	Lesson  *lessonView // nil when the session has none
	Mode    string
	Count   int      // exam questions
	Covered []string // what the session covered
	Score   string   // an exam's score, "5 out of 7"
	History []string
	Message string
}

// say asks for one short message and returns it clean.
func say(ctx context.Context, a *agent, sessionID string, data messagePrompt, user string) (string, agents.Call, error) {
	p, err := renderPrompt(tmplMessageSystem, data, user, data)
	if err != nil {
		c, err := a.refuse(err)
		return "", c, err
	}
	m, c, err := ask[chatMessage](ctx, a, sessionID, p)
	if err != nil {
		return "", c, err
	}
	return m.text(), c, nil
}

// chatMessage is the structured output of the short messages. A one-field
// object rather than free text: the schema keeps out the preambles ("Here
// is a welcome message:") and quotes that free text invites, and an empty
// message is repaired like any invalid output.
type chatMessage struct {
	Message string `json:"message" jsonschema:"The message exactly as the student reads it."`
}

// Validate rejects an empty message.
func (m *chatMessage) Validate() error {
	switch n := utf8.RuneCountInString(m.text()); {
	case n == 0:
		return errors.New("message is empty")
	case n > maxMessageRunes:
		// The prompts ask for two or three sentences: a page is not one,
		// and the caller shows a fixed text rather than it.
		return fmt.Errorf("message is %d characters; write two or three sentences, at most %d characters", n, maxMessageRunes)
	}
	return nil
}

// maxMessageRunes bounds a welcome or a reply after the session: two or
// three sentences, generously.
const maxMessageRunes = 800

// text returns the message without surrounding space or quotes.
func (m *chatMessage) text() string {
	s := strings.TrimSpace(m.Message)
	for _, q := range [][2]string{{`"`, `"`}, {"“", "”"}} {
		if len(s) >= len(q[0])+len(q[1]) && strings.HasPrefix(s, q[0]) && strings.HasSuffix(s, q[1]) {
			s = strings.TrimSpace(s[len(q[0]) : len(s)-len(q[1])])
		}
	}
	return s
}
