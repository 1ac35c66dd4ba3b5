package rules

import (
	"context"
	"strings"
	"testing"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

// The wrap-up offers a harder question only when the session still allows
// turns after the lesson; a lesson that took long says goodbye instead.
func TestWrapUpOffersMoreOnlyWhenTheSessionAllows(t *testing.T) {
	topic := sampleTopic(t, "mathematics/ratios-and-percentages/ratios-and-proportions")
	for _, tt := range []struct {
		name       string
		extraTurns int // turns added before the last one
		offers     bool
	}{
		{"quick lesson", 0, true},
		{"long lesson", 2*topic.TotalSteps() + tutor.MaxExtensionTurns, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := newDriver(t, topic, "wrap-"+tt.name, tutor.ModeTeachMe)
			var x exchange
			for i := 0; !d.state.IsComplete(topic); i++ {
				if i > 40 {
					t.Fatal("the lesson did not complete")
				}
				if i == 1 {
					d.state.TurnCount += tt.extraTurns
				}
				msg := "ok"
				if q := d.state.LastQuestion; q != nil {
					msg = q.Expected(topic).Answer
				}
				x = d.say(msg)
			}
			if got := strings.Contains(x.text(), "harder question"); got != tt.offers {
				t.Fatalf("wrap-up %q: offers a harder question %v, want %v", x.text(), got, tt.offers)
			}
			if !tt.offers && !strings.Contains(x.text(), "new session") {
				t.Fatalf("wrap-up %q says no goodbye", x.text())
			}
			if next := d.state.PostCompletion(topic); next == tt.offers {
				t.Fatalf("after the wrap-up, post-completion is %v: the offer does not match what the session allows", next)
			}
		})
	}
}

// After the lesson, "what did we learn?" gets what the lesson covered and
// the mistake to watch out for, not a new question.
func TestRecapAfterTheLesson(t *testing.T) {
	topic := sampleTopic(t, addingFractions)
	d := newDriver(t, topic, "recap-1", tutor.ModeTeachMe)
	completeLesson(t, d, func(q tutor.BankQuestion) bool { return q.ID == "like-1" })
	x := d.say("what did we learn today?")
	if !says(x.text(), mRecap) || !strings.Contains(x.text(), "adding the denominators too") || d.pending() != nil {
		t.Fatalf("recap %q: want the lesson's concepts and the mistake, and no question", x.text())
	}
	if x := d.say("yes"); d.pending() == nil {
		t.Errorf("after the recap, yes: %q asks no harder question", x.text())
	}
}

// After the lesson, a call for help is no "yes" to a harder question: it
// hears what the lesson covered.
func TestHelpAfterTheLesson(t *testing.T) {
	topic := sampleTopic(t, addingFractions)
	for _, msg := range []string{"help", "I'm stuck", "I don't get it"} {
		d := newDriver(t, topic, "recap-help", tutor.ModeTeachMe)
		completeLesson(t, d, func(q tutor.BankQuestion) bool { return q.ID == "like-1" })
		if x := d.say(msg); !says(x.text(), mRecap) || d.pending() != nil {
			t.Errorf("%q after the lesson: reply %q; want what the lesson covered, and no question", msg, x.text())
		}
	}
}

// A harder question is asked only when the session has turns left for its
// answer and a second try; on its last turns the session says goodbye
// instead (see also TestHarderQuestionAfterTheLesson).
func TestNoQuestionWithoutATurnForItsAnswer(t *testing.T) {
	topic := sampleTopic(t, addingFractions)
	d := newDriver(t, topic, "last-turn", tutor.ModeTeachMe)
	completeLesson(t, d, func(tutor.BankQuestion) bool { return false })
	d.state.TurnCount = 2*topic.TotalSteps() + tutor.MaxExtensionTurns // this turn is the last one tutored
	x := d.say("yes")
	if d.pending() != nil || !says(x.text(), mFarewell) {
		t.Fatalf("last turn: reply %q asks a question the session would not tutor", x.text())
	}
	if !d.state.PostCompletion(topic) {
		t.Fatal("the turn after the last one is still tutored")
	}
	// Two turns earlier, the question is asked: its answer and a second
	// try are still tutored.
	d = newDriver(t, topic, "last-turn", tutor.ModeTeachMe)
	completeLesson(t, d, func(tutor.BankQuestion) bool { return false })
	d.state.TurnCount = 2*topic.TotalSteps() + tutor.MaxExtensionTurns - questionTurns
	if x := d.say("yes"); d.pending() == nil || d.state.PostCompletion(topic) {
		t.Fatalf("%d turns before the last: reply %q; want a question the next turns tutor", questionTurns, x.text())
	}
}

// After a session that tutors no more, "what did we learn?" still hears
// what the lesson covered.
func TestRecapAfterTheSession(t *testing.T) {
	topic := sampleTopic(t, addingFractions)
	d := newDriver(t, topic, "watch-1", tutor.ModeTeachMe)
	completeLesson(t, d, func(q tutor.BankQuestion) bool { return q.ID == "like-1" })
	text, _, err := NewPostCompletion().Reply(context.Background(), agents.Turn{State: d.state, Topic: topic, Message: "what did we learn?"})
	if err != nil || !says(text, mRecap) || !strings.Contains(text, "adding the denominators too") || !says(text, mAfterRecap) {
		t.Fatalf("post-completion recap %q, %v", text, err)
	}
}

// A doubt after the lesson is answered, not taken for a yes to a harder
// question; a mistake put forward hears No; a plain yes then gets the
// question.
func TestDoubtAfterTheLesson(t *testing.T) {
	topic := sampleTopic(t, "mathematics/fractions/dividing-fractions")
	d := newDriver(t, topic, "doubt-after", tutor.ModeTeachMe)
	completeLesson(t, d, func(tutor.BankQuestion) bool { return false })
	x := d.say("so dividing by a fraction less than 1 always makes the answer bigger right?")
	if d.pending() != nil || !strings.Contains(x.text(), "gives an answer bigger than the number divided") {
		t.Errorf("a doubt after the lesson: %q", x.text())
	}
	if x := d.say("division always makes smaller right?"); d.pending() != nil || !says(x.text(), mNotSo) {
		t.Errorf("a mistake after the lesson: %q", x.text())
	}
	if x := d.say("yes"); d.pending() == nil {
		t.Errorf("yes after the doubts: %q asks no question", x.text())
	}
	// Asking for another question is no doubt.
	for _, msg := range []string{"sure! can we do another dividing fractions question?", "yes please, can it be a word problem with fractions?"} {
		e := newDriver(t, topic, "more-after", tutor.ModeTeachMe)
		completeLesson(t, e, func(tutor.BankQuestion) bool { return false })
		if x := e.say(msg); e.pending() == nil {
			t.Errorf("%q after the lesson: %q asks no question", msg, x.text())
		}
	}
}

// TestDeclinedAfterTheLesson: "no thanks" to a harder question after the
// lesson lets it go, ungraded and without a clue, and "ok" to the goodbye
// asks nothing new.
func TestDeclinedAfterTheLesson(t *testing.T) {
	for _, msg := range []string{"no thanks", "nah im good", "no thank you"} {
		d := newDriver(t, sampleTopic(t, "mathematics/integers/multiplying-and-dividing-integers"), "declined", tutor.ModeTeachMe)
		completeLesson(t, d, func(tutor.BankQuestion) bool { return false })
		if d.say("yes"); d.state.LastQuestion == nil {
			t.Fatalf("no harder question after yes: %q", d.transcript())
		}
		x := d.say(msg)
		if !says(x.text(), mDeclined) || d.state.LastQuestion != nil || x.after.LastAnswerResult != nil {
			t.Errorf("%q to a question after the lesson: %q, pending %v; want it let go, ungraded", msg, x.text(), d.state.LastQuestion != nil)
		}
		if x := d.say("ok"); !says(x.text(), mFarewell) || d.state.LastQuestion != nil {
			t.Errorf("ok after the goodbye: %q, want a farewell and no question", x.text())
		}
	}
	// To a question answered yes or no, "no sir" is an answer, and "no
	// thanks" a no to the question, whatever its answer.
	yes := tutor.BankQuestion{Answer: "yes", Kind: answer.KindBoolean}
	no := tutor.BankQuestion{Answer: "false", Kind: answer.KindBoolean}
	for _, tc := range []struct {
		msg  string
		bq   tutor.BankQuestion
		v    answer.Verdict
		want bool
	}{
		{"no sir", yes, answer.Incorrect, false},
		{"no", no, answer.Correct, false},
		{"no thanks", no, answer.Correct, true},
		{"nah im good", yes, answer.Incorrect, true},
		{"no more questions", yes, answer.Incorrect, true},
		{"no thanks", tutor.BankQuestion{Answer: "-24"}, answer.NotAttempt, true},
		{"no", tutor.BankQuestion{Answer: "-24"}, answer.NotAttempt, true},
	} {
		if got := declines(tc.msg, tc.bq, tc.v); got != tc.want {
			t.Errorf("declines(%q) to a question answered %q = %v, want %v", tc.msg, tc.bq.Answer, got, tc.want)
		}
	}
}
