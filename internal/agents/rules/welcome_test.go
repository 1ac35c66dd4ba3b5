package rules

import (
	"context"
	"strings"
	"testing"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/tutor"
)

func TestWelcome(t *testing.T) {
	topic := sampleTopic(t, addingFractions)
	one := &tutor.Topic{TopicName: "Shapes - Circles", Steps: []tutor.Step{{ID: 1, Type: tutor.StepExplain, Concept: "Circles"}}}
	name := new("Asha Rao")
	exam := make([]tutor.ExamQuestion, 5)
	tests := []struct {
		name     string
		mode     tutor.Mode
		topic    *tutor.Topic
		student  *string
		exam     []tutor.ExamQuestion
		want     []string
		wantNot  []string
		exactly  string
		question bool
	}{
		{name: "teach_me", mode: tutor.ModeTeachMe, topic: topic, student: name,
			want: []string{"Hi Asha!", "adding and subtracting fractions", "like fractions", "word problems"}, question: true},
		{name: "teach_me anonymous", mode: tutor.ModeTeachMe, topic: topic, want: []string{"Hi!"}, wantNot: []string{"Asha"}, question: true},
		{name: "teach_me one concept", mode: tutor.ModeTeachMe, topic: one, student: name, want: []string{"Hi Asha!", "circles"}, question: true},
		{name: "teach_me no topic", mode: tutor.ModeTeachMe, exactly: welcomeNoTopic},
		{name: "clarify", mode: tutor.ModeClarify, topic: topic, student: name,
			want: []string{"Hi Asha!", "adding and subtracting fractions"}, question: true},
		{name: "clarify no topic", mode: tutor.ModeClarify, exactly: welcomeClarifyNoTopic},
		{name: "exam", mode: tutor.ModeExam, topic: topic, student: name, exam: exam,
			want: []string{"Hi Asha!", "5", "adding and subtracting fractions", "results"}, wantNot: []string{"Question 1"}},
		{name: "exam before its questions", mode: tutor.ModeExam, topic: topic, want: []string{"7"}},
		{name: "exam no topic", mode: tutor.ModeExam, exactly: welcomeExamNoTopic},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tutor.State{SessionID: "welcome-1", Mode: tt.mode, ExamQuestions: tt.exam, StudentContext: tutor.StudentContext{StudentName: tt.student}}
			got, c, err := NewWelcomer().Welcome(context.Background(), s, tt.topic)
			if err != nil {
				t.Fatal(err)
			}
			if c.Provider != Provider || c.Agent != agents.NameWelcome {
				t.Errorf("call record %+v", c)
			}
			if tt.exactly != "" && got != tt.exactly {
				t.Errorf("welcome %q, want %q", got, tt.exactly)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("welcome %q does not contain %q", got, w)
				}
			}
			for _, w := range tt.wantNot {
				if strings.Contains(got, w) {
					t.Errorf("welcome %q contains %q", got, w)
				}
			}
			if tt.question && !strings.HasSuffix(got, "?") {
				t.Errorf("welcome %q does not end with a question", got)
			}
			if n := len(sentences(got)); n < 1 || n > 3 {
				t.Errorf("welcome %q has %d sentences", got, n)
			}
			for _, re := range internalLanguage {
				if m := re.FindString(got); m != "" {
					t.Errorf("welcome %q has %q", got, m)
				}
			}
		})
	}
}

func TestPostCompletion(t *testing.T) {
	tests := []struct {
		name string
		mode tutor.Mode
		msg  string
		want string
	}{
		{"lesson", tutor.ModeTeachMe, "hello again", "new session"},
		{"question", tutor.ModeClarify, "what about decimals?", "new session"},
		{"thanks", tutor.ModeTeachMe, "thank you so much", "new session"},
		{"exam", tutor.ModeExam, "how did I do?", "results are above"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			turn := agents.Turn{State: tutor.State{SessionID: "post-1", Mode: tt.mode, TurnCount: 12}, Message: tt.msg}
			got, c, err := NewPostCompletion().Reply(context.Background(), turn)
			if err != nil {
				t.Fatal(err)
			}
			if c.Provider != Provider || c.Agent != agents.NamePostCompletion {
				t.Errorf("call record %+v", c)
			}
			if !strings.Contains(got, tt.want) || len(sentences(got)) > 2 {
				t.Errorf("reply %q: want one or two sentences with %q", got, tt.want)
			}
		})
	}
}

func TestNew(t *testing.T) {
	set, err := New()
	if err != nil {
		t.Fatal(err)
	}
	if set.Safety == nil || set.Tutor == nil || set.ExamGenerator == nil || set.ExamEvaluator == nil || set.Welcome == nil || set.PostCompletion == nil {
		t.Errorf("incomplete set %+v", set)
	}
}

// TestPhrasebook checks every phrasing: its slots are known, it is one to
// three sentences without internal language, and every move but one has
// more than one phrasing.
func TestPhrasebook(t *testing.T) {
	fill := strings.NewReplacer("{name}", ", Asha", "{hi}", "Hi Asha!", "{q}", "What is 2/9 + 5/9?", "{title}", "unlike fractions",
		"{value}", "7/9", "{answer}", "7/18", "{what}", partialDefault, "{concepts}", "like fractions and unlike fractions",
		"{concept}", "like fractions", "{topic}", "fractions", "{first}", "like fractions", "{last}", "word problems", "{n}", "7",
		"{mistakes}", "adding the denominators too", "{did}", "added the denominators too", "{step}", "2 + 5 = 7",
		"{idea}", "add the numerators and keep the denominator.", "{mistake}", "adding the denominators as well",
		"{fact}", "Melting takes in heat.", "{from}", "2x - 7 = 9", "{to}", "2x = 2")
	for m := mStart; m < moveCount; m++ {
		options := phrasebook[m]
		if len(options) < 2 && m != mNoLesson {
			t.Errorf("move %d has %d phrasings, want at least 2", m, len(options))
		}
		for _, p := range options {
			got := fill.Replace(p)
			if strings.ContainsAny(got, "{}") {
				t.Errorf("move %d: %q has an unknown slot", m, p)
			}
			if n := len(sentences(got)); n > 3 {
				t.Errorf("move %d: %q has %d sentences", m, p, n)
			}
			for _, re := range internalLanguage {
				if x := re.FindString(got); x != "" {
					t.Errorf("move %d: %q has %q", m, p, x)
				}
			}
		}
	}
}

// TestFill fills slots as a strings.Replacer of the same pairs would.
func TestFill(t *testing.T) {
	pairs := []string{"{name}", ", Asha", "{q}", "What is {x}?", "{n}", "7"}
	for _, phrasing := range []string{"", "no slots", "{q}", "Hi{name}! {q} {n}{n}", "{unknown} stays", "{ unclosed", "} {n", "{{n}}", "{name}{hi}"} {
		if got, want := fill(phrasing, pairs), strings.NewReplacer(pairs...).Replace(phrasing); got != want {
			t.Errorf("fill(%q) = %q, want %q", phrasing, got, want)
		}
	}
}

// A one-question exam is welcomed in the singular, not "with 1 questions".
func TestWelcomeOneQuestionExam(t *testing.T) {
	tp := sampleTopic(t, photosynthesis)
	for _, id := range []string{"s1", "s2", "s3", "s4"} {
		s := tutor.State{SessionID: id, Mode: tutor.ModeExam, ExamQuestions: make([]tutor.ExamQuestion, 1)}
		text, _, err := NewWelcomer().Welcome(context.Background(), s, tp)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(text, " 1 questions") {
			t.Errorf("session %s: %q", id, text)
		}
	}
}

// The name a learner gave is used without the punctuation around it:
// "Asha," and "Rao, Asha" did not give "Hi Asha,!".
func TestNameWithoutPunctuation(t *testing.T) {
	tp := sampleTopic(t, photosynthesis)
	for _, name := range []string{"Asha,", "Rao, Asha"} {
		n := name
		s := tutor.State{SessionID: "s1", Mode: tutor.ModeTeachMe, StudentContext: tutor.StudentContext{StudentName: &n}}
		text, _, err := NewWelcomer().Welcome(context.Background(), s, tp)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(text, ",!") {
			t.Errorf("name %q: %q", name, text)
		}
	}
}

// Turns after the end are not counted, and the phrasing follows the turn
// count: each message after the end got the same sentence word for word.
func TestPostCompletionDoesNotRepeatItself(t *testing.T) {
	tp := sampleTopic(t, photosynthesis)
	s := tutor.State{SessionID: "after-end", Mode: tutor.ModeTeachMe, TurnCount: 9, CurrentStep: tp.TotalSteps() + 1}
	var replies []string
	for _, msg := range []string{"ok", "bye", "hmm"} {
		text, _, err := NewPostCompletion().Reply(context.Background(), agents.Turn{State: s, Topic: tp, Message: msg})
		if err != nil {
			t.Fatal(err)
		}
		replies = append(replies, text)
		// As tutor.ApplyTurn records a post-completion turn: both messages,
		// no turn counted.
		s.History = append(s.History, tutor.Message{Role: tutor.RoleStudent, Content: msg}, tutor.Message{Role: tutor.RoleTeacher, Content: text})
	}
	for i := 1; i < len(replies); i++ {
		if replies[i] == replies[i-1] {
			t.Errorf("consecutive replies after the end are identical: %q", replies)
			break
		}
	}
}

// After a doubts session, the reply speaks of a doubts session, not of a
// lesson.
func TestPostCompletionOfADoubtsSession(t *testing.T) {
	tp := sampleTopic(t, photosynthesis)
	for turn := range 4 {
		s := tutor.State{SessionID: "after-doubts", Mode: tutor.ModeClarify, TurnCount: turn, ClarifyComplete: true}
		text, _, err := NewPostCompletion().Reply(context.Background(), agents.Turn{State: s, Topic: tp, Message: "ok"})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(strings.ToLower(text), "lesson") {
			t.Errorf("turn %d: a doubts session is called a lesson: %q", turn, text)
		}
	}
}
