package learner

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tutord/tutord/curricula"
	"github.com/tutord/tutord/internal/curriculum"
	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

func sampleBank(t *testing.T) *Bank {
	t.Helper()
	files, err := curriculum.LoadFS(curricula.FS())
	if err != nil {
		t.Fatal(err)
	}
	return NewBank(files)
}

const fractions = "mathematics/fractions/adding-and-subtracting-fractions"

func TestPersonasAreValid(t *testing.T) {
	for _, name := range PersonaNames() {
		if err := Personas[name].Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	want := []string{"ace", "average_student", "confused_but_confident", "distractor", "quiet_one", "repetition_detector", "simplicity_seeker", "struggler"}
	if diff := cmp.Diff(want, PersonaNames()); diff != "" {
		t.Errorf("personas (-want +got):\n%s", diff)
	}
}

func TestValidate(t *testing.T) {
	ok := Profile{Correct: 0.5, Length: Short}
	tests := []struct {
		name    string
		p       Profile
		wantErr string
	}{
		{"fine", ok, ""},
		{"negative", Profile{Correct: -0.1, Length: Short}, "correct: must be a probability from 0 to 1, not -0.1"},
		{"too likely", Profile{IDK: 0.5, OffTopic: 0.4, Ask: 0.2, Length: Short}, "idk + off_topic + ask must be at most 1, not 1.10"},
		{"no length", Profile{}, `length: must be one of terse, short, medium, long, not ""`},
		{"doubts", Profile{Length: Long, Doubts: 21}, "doubts: must be from 0 to 20, not 21"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.p.Validate()
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.wantErr {
				t.Errorf("Validate() = %q, want %q", got, tt.wantErr)
			}
		})
	}
}

func TestOverrides(t *testing.T) {
	x, l, yes := 0.25, Long, true
	got := Overrides{Correct: &x, Length: &l, Confident: &yes}.Apply(Personas["ace"])
	want := Personas["ace"]
	want.Correct, want.Length, want.Confident = 0.25, Long, true
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Apply (-want +got):\n%s", diff)
	}
}

func TestBankQuestion(t *testing.T) {
	s, ok := sampleBank(t).Subtopic(fractions)
	if !ok {
		t.Fatalf("the sample has no %s", fractions)
	}
	if s.Grade != 7 || s.Subject != "Mathematics" || s.TopicTitle != "Fractions" || s.Board != "CBSE" {
		t.Errorf("place = %d %s %s %s", s.Grade, s.Board, s.Subject, s.TopicTitle)
	}
	tests := []struct {
		id, text, want string
	}{
		{"like-1", "", "like-1"},
		{"", "What is 2/9 + 5/9?", "like-1"},
		{"", "  what is 2/9 +   5/9? ", "like-1"},
		{"", "Your turn: What is 7/10 - 3/10? Give the answer in its simplest form. Take your time.", "like-2"},
		{"no-such-id", "What is 1/3 + 1/4?", "unlike-1"},
	}
	for _, tt := range tests {
		q, ok := s.Question(tt.id, tt.text)
		if !ok || q.ID != tt.want {
			t.Errorf("Question(%q, %q) = %q, %v; want %q", tt.id, tt.text, q.ID, ok, tt.want)
		}
	}
	if _, ok := s.Question("", "What is the capital of France?"); ok {
		t.Error("found a question for an unknown text")
	}
	var none *Subtopic
	if _, ok := none.Question("like-1", ""); ok {
		t.Error("a nil subtopic found a question")
	}
	if _, ok := (*Bank)(nil).Subtopic(fractions); ok {
		t.Error("a nil bank found a subtopic")
	}
}

// TestWrongAnswers checks that every question of the sample has a wrong
// answer the evaluator judges wrong, and that misconceptions that name a
// value give it.
func TestWrongAnswers(t *testing.T) {
	bank := sampleBank(t)
	for key, s := range bank.subtopics {
		for _, q := range s.Topic.Questions {
			w := WrongAnswer(q, s.Topic.Questions)
			if w == "" {
				t.Errorf("%s %s: no wrong answer to %q (answer %q)", key, q.ID, q.Text, q.Answer)
				continue
			}
			if v := answer.Evaluate(q.Expected(), w).Verdict; v != answer.Incorrect {
				t.Errorf("%s %s: wrong answer %q is judged %s", key, q.ID, w, v)
			}
		}
	}
	tests := []struct {
		name string
		q    tutor.BankQuestion
		want string
	}{
		{"misconception names the value", tutor.BankQuestion{Answer: "7/9", Misconception: "Adds the denominators too and gets 7/18."}, "7/18"},
		{"near miss", tutor.BankQuestion{Answer: "12", Misconception: "Forgets to carry."}, "13"},
		{"other option", tutor.BankQuestion{Answer: "B", Options: []string{"solid", "liquid", "gas"}}, "A"},
		{"truth value", tutor.BankQuestion{Answer: "yes", Kind: answer.KindBoolean}, "no"},
		{"words ignore the misconception", tutor.BankQuestion{ID: "a", Answer: "evaporation", Misconception: "Calls it boiling."}, ""},
		{"the misconception's answer", tutor.BankQuestion{ID: "a", Answer: "evaporation", Misconception: "Calls it boiling.", MisconceptionAnswers: []string{"evaporation", "boiling"}}, "boiling"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := WrongAnswer(tt.q, nil); got != tt.want {
				t.Errorf("WrongAnswer = %q, want %q", got, tt.want)
			}
		})
	}
	other := []tutor.BankQuestion{{ID: "b", Answer: "condensation"}}
	if got := WrongAnswer(tutor.BankQuestion{ID: "a", Answer: "evaporation"}, other); got != "condensation" {
		t.Errorf("a word answer's wrong answer = %q, want another question's answer", got)
	}
}

// TestPhrasing checks, for every length and style, that a right answer is
// judged right and a wrong one wrong, over the whole sample bank.
func TestPhrasing(t *testing.T) {
	bank := sampleBank(t)
	for key, s := range bank.subtopics {
		for _, q := range s.Topic.Questions {
			lq := &Question{ID: q.ID, Text: q.Text, Expected: q.Expected(), Wrong: WrongAnswer(q, s.Topic.Questions)}
			for _, length := range Lengths {
				for _, confident := range []bool{false, true} {
					for seed := range uint64(3) {
						right := New(Profile{Correct: 1, Length: length, Confident: confident}, seed, s).Next(Situation{Mode: "teach_me", Question: lq})
						if v := answer.Evaluate(q.Expected(), right.Text).Verdict; right.Move != MoveCorrect || v != answer.Correct {
							t.Errorf("%s %s: %s %q is judged %s", key, q.ID, right.Move, right.Text, v)
						}
						wrong := New(Profile{Length: length, Confident: confident}, seed, s).Next(Situation{Mode: "teach_me", Question: lq})
						if v := answer.Evaluate(q.Expected(), wrong.Text).Verdict; wrong.Move != MoveWrong || v == answer.Correct || v == answer.NotAttempt {
							t.Errorf("%s %s: %s %q is judged %s", key, q.ID, wrong.Move, wrong.Text, v)
						}
					}
				}
			}
		}
	}
}

// script plays a learner through situations and returns its messages.
func script(l *Learner, situations []Situation) []string {
	var out []string
	for _, s := range situations {
		m := l.Next(s)
		out = append(out, fmt.Sprintf("%s: %s", m.Move, m.Text))
	}
	return out
}

func TestDeterministic(t *testing.T) {
	s, _ := sampleBank(t).Subtopic(fractions)
	q := s.Topic.Questions[0]
	lq := &Question{ID: q.ID, Text: q.Text, Expected: q.Expected(), Wrong: WrongAnswer(q, s.Topic.Questions)}
	var situations []Situation
	for i := range 30 {
		sit := Situation{Mode: "teach_me", Reply: fmt.Sprintf("Reply number %d of the tutor.", i)}
		if i%2 == 1 {
			sit.Question, sit.Attempts = lq, i/4
		}
		situations = append(situations, sit)
	}
	for _, name := range PersonaNames() {
		a := script(New(Personas[name], 42, s), situations)
		b := script(New(Personas[name], 42, s), situations)
		if diff := cmp.Diff(a, b); diff != "" {
			t.Errorf("%s: the same seed plays differently:\n%s", name, diff)
		}
		c := script(New(Personas[name], 43, s), situations)
		if cmp.Equal(a, c) {
			t.Errorf("%s: seeds 42 and 43 play the same 30 turns", name)
		}
	}
}

func TestMoves(t *testing.T) {
	s, _ := sampleBank(t).Subtopic(fractions)
	q := s.Topic.Questions[0]
	lq := &Question{ID: q.ID, Text: q.Text, Expected: q.Expected(), Wrong: WrongAnswer(q, s.Topic.Questions)}
	long := "One. Two. Three. Four. Five."
	tests := []struct {
		name string
		p    Profile
		s    Situation
		want Move
	}{
		{"acknowledges an explanation", Profile{Length: Short}, Situation{Mode: "teach_me", Reply: "Fractions have parts."}, MoveAck},
		{"says it does not know", Profile{IDK: 1, Length: Short}, Situation{Mode: "teach_me", Question: lq}, MoveIDK},
		{"chats off topic", Profile{OffTopic: 1, Length: Short}, Situation{Mode: "teach_me", Question: lq}, MoveOffTopic},
		{"asks back", Profile{Ask: 1, Length: Short}, Situation{Mode: "teach_me", Question: lq}, MoveAsk},
		{"does not ask back in an exam", Profile{Ask: 1, Correct: 1, Length: Short}, Situation{Mode: "exam", Question: lq}, MoveCorrect},
		{"asks for simpler words", Profile{Ask: 1, Simpler: true, Length: Short}, Situation{Mode: "teach_me", Reply: long}, MoveAsk},
		{"does not know a wrong answer", Profile{Length: Short}, Situation{Mode: "teach_me", Question: &Question{Text: "Why?", Expected: answer.Expected{Answer: "because"}}}, MoveIDK},
		{"learns from hints", Profile{Correct: 0, Learning: 0.5, Length: Short}, Situation{Mode: "teach_me", Question: lq, Attempts: 2}, MoveCorrect},
		{"raises a doubt", Profile{Doubts: 1, Length: Short}, Situation{Mode: "clarify_doubts"}, MoveDoubt},
		{"has no doubts", Profile{Length: Short}, Situation{Mode: "clarify_doubts"}, MoveDone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := New(tt.p, 1, s).Next(tt.s); got.Move != tt.want {
				t.Errorf("Next = %s %q, want %s", got.Move, got.Text, tt.want)
			}
		})
	}
}

func TestDoubts(t *testing.T) {
	s, _ := sampleBank(t).Subtopic(fractions)
	l := New(Profile{Doubts: 2, Length: Medium}, 1, s)
	got := script(l, []Situation{{Mode: "clarify_doubts"}, {Mode: "clarify_doubts"}, {Mode: "clarify_doubts"}})
	want := []string{
		"doubt: Can you explain like fractions again?",
		"doubt: I have a doubt about unlike fractions. How does it work?",
		"done: No more doubts.",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("doubts (-want +got):\n%s", diff)
	}
}

func TestNoticesRepeats(t *testing.T) {
	l := New(Profile{NoticesRepeats: true, Length: Short}, 1, nil)
	reply := "Let's look at like fractions: they share a denominator, so add the tops."
	if m := l.Next(Situation{Mode: "teach_me", Reply: reply}); m.Move != MoveAck {
		t.Fatalf("first reply: %s, want ack", m.Move)
	}
	if m := l.Next(Situation{Mode: "teach_me", Reply: reply + " Ready?"}); m.Move != MoveRepeat {
		t.Errorf("repeated reply: %s, want repeat", m.Move)
	}
	if m := l.Next(Situation{Mode: "teach_me", Reply: "Now unlike fractions need a common denominator first."}); m.Move != MoveAck {
		t.Errorf("new reply: %s, want ack", m.Move)
	}
}

func TestSimilarity(t *testing.T) {
	tests := []struct {
		a, b string
		want float64
	}{
		{"The cat sat.", "the CAT sat", 1},
		{"a b c d", "a b x y", 2.0 / 6},
		{"", "anything", 0},
	}
	for _, tt := range tests {
		if got := Similarity(tt.a, tt.b); got != tt.want {
			t.Errorf("Similarity(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestSaid: a simulated learner answers a choice question with the
// option's text, as it reads in the question, not the stored letter.
func TestSaid(t *testing.T) {
	exp := answer.Expected{Answer: "C", Kind: answer.KindChoice, Options: []string{"smaller than 4", "equal to 4", "bigger than 4"}}
	for in, want := range map[string]string{"C": "bigger than 4", "a": "smaller than 4", "E": "E", "bigger than 4": "bigger than 4"} {
		if got := Said(exp, in); got != want {
			t.Errorf("Said(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Said(answer.Expected{Answer: "B"}, "B"); got != "B" {
		t.Errorf("a letter with no options: %q", got)
	}
}
