package llmagent

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/llm/llmtest"
	"github.com/tutord/tutord/internal/tutor"
)

func (f *fake) welcomer(t *testing.T) *Welcomer {
	return NewWelcomer(f.client(t, llm.ComponentWelcome), f.config(llm.ComponentWelcome), opts())
}

func TestWelcome(t *testing.T) {
	noQuestions := func(t *testing.T) tutor.State {
		s := newSession(t, tutor.ModeTeachMe, sampleTopic(t, addingFractions)).state
		s.Mode = tutor.ModeExam
		return s
	}
	tests := []struct {
		name  string
		state func(t *testing.T) tutor.State
		reply string
		want  []string // in the prompt
	}{
		{
			name: "teach_me",
			state: func(t *testing.T) tutor.State {
				return newSession(t, tutor.ModeTeachMe, sampleTopic(t, addingFractions)).state
			},
			reply: "  \"Namaste Asha! Today we add fractions. Ready?\"  ",
			want:  []string{"Greet the student by name, Asha.", "Ask whether they are ready to start.", "Two or three sentences", "no emojis"},
		},
		{
			name: "clarify_doubts",
			state: func(t *testing.T) tutor.State {
				return newSession(t, tutor.ModeClarify, sampleTopic(t, addingFractions)).state
			},
			reply: "“Namaste Asha! Today we add fractions. Ready?”",
			want:  []string{"one or two sentences", "invite them to ask any question"},
		},
		{
			name: "exam",
			state: func(t *testing.T) tutor.State {
				return newSession(t, tutor.ModeExam, sampleTopic(t, addingFractions)).state
			},
			reply: "Namaste Asha! Today we add fractions. Ready?",
			want:  []string{"the exam has 2 questions", "Do not write any question"},
		},
		{
			name:  "an exam without its questions yet",
			state: noQuestions,
			reply: "Namaste Asha! Today we add fractions. Ready?",
			want:  []string{"the exam has 7 questions"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newOpenAI(t, reply(t, chatMessage{tt.reply}))
			s := tt.state(t)
			msg, c, err := f.welcomer(t).Welcome(context.Background(), s, sampleTopic(t, addingFractions))
			if err != nil {
				t.Fatal(err)
			}
			if msg != "Namaste Asha! Today we add fractions. Ready?" {
				t.Errorf("welcome %q is not clean", msg)
			}
			for _, want := range tt.want {
				if !strings.Contains(c.Prompt, want) {
					t.Errorf("the prompt lacks %q:\n%s", want, c.Prompt)
				}
			}
			if c.Agent != agents.NameWelcome || c.Err != nil {
				t.Errorf("call record %+v", c)
			}
		})
	}
}

func TestWelcomeFailures(t *testing.T) {
	empty := llmtest.Reply{Text: `{"message": "  \"\"  "}`}
	page := reply(t, chatMessage{strings.Repeat("Welcome to a long lesson. ", 40)})
	s := newSession(t, tutor.ModeTeachMe, sampleTopic(t, addingFractions)).state
	tests := []struct {
		name    string
		topic   *tutor.Topic
		replies []llmtest.Reply
		want    error
	}{
		{"no lesson", nil, nil, llm.ErrInvalidRequest},
		{"an empty message twice", sampleTopic(t, addingFractions), []llmtest.Reply{empty, empty}, llm.ErrInvalidOutput},
		// The prompt asks for two or three sentences; a page twice is
		// not shown (the orchestrator falls back to the fixed welcome).
		{"a page twice", sampleTopic(t, addingFractions), []llmtest.Reply{page, page}, llm.ErrInvalidOutput},
		{"a refusal", sampleTopic(t, addingFractions), []llmtest.Reply{{Refusal: "No."}}, llm.ErrRefused},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newOpenAI(t, tt.replies...)
			msg, c, err := f.welcomer(t).Welcome(context.Background(), s, tt.topic)
			if !errors.Is(err, tt.want) || msg != "" || c.Err != err {
				t.Errorf("message %q, error %v, call error %v; want %v", msg, err, c.Err, tt.want)
			}
		})
	}
}

func TestWelcomeRepairsAnEmptyMessage(t *testing.T) {
	f := newOpenAI(t, llmtest.Reply{Text: `{"message": " "}`}, reply(t, chatMessage{"Hello Asha! Ready?"}))
	msg, c, err := f.welcomer(t).Welcome(context.Background(), newSession(t, tutor.ModeTeachMe, sampleTopic(t, addingFractions)).state, sampleTopic(t, addingFractions))
	if err != nil || msg != "Hello Asha! Ready?" || c.Attempts != 2 {
		t.Errorf("message %q, attempts %d, error %v", msg, c.Attempts, err)
	}
}

func TestPostCompletion(t *testing.T) {
	ended := func(t *testing.T) *session {
		se := newSession(t, tutor.ModeExam, sampleTopic(t, addingFractions))
		s, _, err := tutor.EndExam(se.state, epoch)
		if err != nil {
			t.Fatal(err)
		}
		se.state = s
		return se
	}
	tests := []struct {
		name    string
		session func(t *testing.T) *session
		topic   bool
		want    []string
	}{
		{"a finished exam", ended, true, []string{"The student's exam has ended. Score: 0 out of 2.", "Fractions - Adding and subtracting fractions"}},
		{"a finished lesson", func(t *testing.T) *session {
			se := lesson(t)
			se.say("7/9", out("Yes! That is everything for today.", judged(true), advance(8), completes), nil)
			return se
		}, true, []string{"The student's lesson has ended. It covered: Like fractions, Unlike fractions, Mixed numbers, Word problems."}},
		{"no lesson", clarify, false, []string{"The student's doubts session has ended. It covered: Unlike fractions."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			se := tt.session(t)
			turn := se.turn("thanks!")
			if !tt.topic {
				turn.Topic = nil
			}
			f := newOpenAI(t, reply(t, chatMessage{"You're welcome! Start a new session any time."}))
			pc := NewPostCompletion(f.client(t, llm.ComponentWelcome), f.config(llm.ComponentWelcome), opts())
			msg, c, err := pc.Reply(context.Background(), turn)
			if err != nil {
				t.Fatal(err)
			}
			if msg != "You're welcome! Start a new session any time." || c.Agent != agents.NamePostCompletion {
				t.Errorf("message %q, call %+v", msg, c)
			}
			for _, want := range append(tt.want, "start a new session whenever they like", "\"\"\"\nthanks!\n\"\"\"") {
				if !strings.Contains(c.Prompt, want) {
					t.Errorf("the prompt lacks %q:\n%s", want, c.Prompt)
				}
			}
			if !tt.topic && strings.Contains(c.Prompt, "## LESSON") {
				t.Error("the prompt shows a lesson the turn does not have")
			}
		})
	}
}
