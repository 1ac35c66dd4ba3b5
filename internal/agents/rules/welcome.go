package rules

import (
	"context"
	"strconv"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/tutor"
)

// The welcomes of sessions without a topic, as the reference service words
// them.
const (
	welcomeNoTopic        = "Welcome! Let's start learning together."
	welcomeClarifyNoTopic = "Hi! I'm here to help answer your questions. What would you like to know?"
	welcomeExamNoTopic    = "Let's test your knowledge! I'll ask you some questions. Ready?"
)

// Welcomer writes a session's first message. The zero value is ready to use
// and safe for concurrent use.
type Welcomer struct{}

// NewWelcomer returns the rules engine's welcomer.
func NewWelcomer() *Welcomer { return &Welcomer{} }

var _ agents.Welcomer = (*Welcomer)(nil)

// Welcome greets the learner, by name when known, in two or three
// sentences without emojis: a lesson previews its first and last concepts
// and asks whether the learner is ready; a doubts session invites
// questions about the topic; an exam announces its number of questions
// (len(s.ExamQuestions), or DefaultExamQuestions before they exist) and
// leaves the first question to the caller, which appends it. The error is
// ctx's, when it is done.
func (*Welcomer) Welcome(ctx context.Context, s tutor.State, t *tutor.Topic) (string, agents.Call, error) {
	if err := ctx.Err(); err != nil {
		return "", agents.Call{Agent: agents.NameWelcome, Provider: Provider, Err: err}, err
	}
	v := newVoice(s)
	var text string
	switch {
	case s.Mode == tutor.ModeExam && t == nil:
		text = welcomeExamNoTopic
	case s.Mode == tutor.ModeExam:
		n := len(s.ExamQuestions)
		if n == 0 {
			n = DefaultExamQuestions
		}
		if n == 1 {
			text = v.say(mWelcomeExamOne, "{topic}", topicTitle(t))
		} else {
			text = v.say(mWelcomeExam, "{topic}", topicTitle(t), "{n}", strconv.Itoa(n))
		}
	case s.Mode == tutor.ModeClarify && t == nil:
		text = welcomeClarifyNoTopic
	case s.Mode == tutor.ModeClarify:
		topic, concepts := topicTitle(t), conceptList(t.Concepts(), 3)
		if len(t.Concepts()) < 2 || concepts == topic {
			// "about tripling, for example tripling": no example to give.
			text = v.say(mWelcomeClarifyOne, "{topic}", topic)
		} else {
			text = v.say(mWelcomeClarify, "{topic}", topic, "{concepts}", concepts)
		}
	case t == nil:
		text = welcomeNoTopic
	default:
		cs := t.Concepts()
		if len(cs) < 2 {
			text = v.say(mWelcomeTeachOne, "{topic}", topicTitle(t))
		} else {
			text = v.say(mWelcomeTeach, "{topic}", topicTitle(t), "{first}", lowerFirst(cs[0]), "{last}", lowerFirst(cs[len(cs)-1]))
		}
	}
	return text, call(agents.NameWelcome, text), nil
}

// PostCompletion answers messages sent after a session has ended. The zero
// value is ready to use and safe for concurrent use.
type PostCompletion struct{}

// NewPostCompletion returns the rules engine's post-completion agent.
func NewPostCompletion() *PostCompletion { return &PostCompletion{} }

var _ agents.PostCompletion = (*PostCompletion)(nil)

// Reply acknowledges the message in one or two sentences and reminds the
// learner that they can start a new session; after an exam it points to
// the results above. "What did we learn?" after a lesson hears what it
// covered first. Turns after the end are not counted, so a reply that
// would repeat the last one word for word is phrased another way. The
// error is ctx's, when it is done.
func (*PostCompletion) Reply(ctx context.Context, t agents.Turn) (string, agents.Call, error) {
	if err := ctx.Err(); err != nil {
		return "", agents.Call{Agent: agents.NamePostCompletion, Provider: Provider, Err: err}, err
	}
	text := afterEnd(newVoice(t.State), t)
	if text == lastTeacher(t.State) {
		v := newVoice(t.State)
		v.turn++
		text = afterEnd(v, t)
	}
	return text, call(agents.NamePostCompletion, text), nil
}

func afterEnd(v *voice, t agents.Turn) string {
	var text string
	switch {
	case t.State.Mode == tutor.ModeExam:
		text = v.say(mAfterExam)
	case thanks(t.Message):
		text = v.say(mAfterThanks)
	case asksRecap(t.Message) && t.Topic != nil && t.State.Mode == tutor.ModeTeachMe:
		// "What did we learn?": the lesson in one sentence, and the
		// mistake to watch out for, as the wrap-up said them.
		parts := []string{v.say(mRecap, "{concepts}", conceptList(t.Topic.Concepts(), 4))}
		for _, m := range mistakes(t.State, t.Topic, "") {
			parts = append(parts, v.say(mWatch, "{mistakes}", m.what))
			if m.fix != "" {
				parts = append(parts, m.fix)
			}
		}
		text = compose(append(parts, v.say(mAfterRecap))...)
	case isQuestion(t.Message):
		text = v.say(mAfterQuestion)
	case t.State.Mode == tutor.ModeClarify:
		text = v.say(mAfterDoubts)
	default:
		text = v.say(mAfterLesson)
	}
	return text
}

// thanks reports whether a message thanks the tutor.
func thanks(msg string) bool {
	for _, w := range words(msg) {
		switch w {
		case "thanks", "thank", "thx", "ty", "shukriya", "dhanyavad", "dhanyawad":
			return true
		}
	}
	return false
}
