package tutor

import (
	"fmt"
	"testing"
	"time"

	"github.com/tutord/tutord/internal/tutor/answer"
)

// benchState returns a teach_me state on tp with a full history window, a
// full timeline, a pending bank question and a few misconceptions.
func benchState(tb testing.TB, tp *Topic) State {
	tb.Helper()
	s := newState(tb, ModeTeachMe, tp)
	for i := range 40 {
		o := turnAt(i, fmt.Sprintf("I think the answer is %d because I added them", i), tutorSays(
			intent(IntentAnswer),
			updates(MasteryUpdate{"c1", 0.6}, MasteryUpdate{"c2", 0.4}),
			func(o *TutorOutput) { o.MisconceptionsDetected = []string{fmt.Sprint("misconception ", i%4)} },
		))
		o.Reply = "Nice try! Let's look at it again: what happens when you multiply instead?"
		s, _ = ApplyTurn(s, tp, o)
	}
	o := turnAt(41, "ready", tutorSays(intent(IntentContinuation)))
	o.NextQuestion = &tp.Questions[0]
	s, _ = ApplyTurn(s, tp, o)
	return s
}

func BenchmarkApplyTurn(b *testing.B) {
	tp := planOf(12)
	s := benchState(b, tp)
	o := Outcome{
		Now:            t0.Add(time.Hour),
		StudentMessage: "is it 41?",
		Reply:          "Close! Think about 6 groups of 7 — what do you get?",
		Verdict:        answer.Incorrect,
		Output: tutorSays(
			updates(MasteryUpdate{"c1", 0.4}, MasteryUpdate{"c3", 0.2}),
			asks("What is 6 groups of 7?", "42", "c1"),
			func(o *TutorOutput) {
				o.MisconceptionsDetected = []string{"misconception 1"}
				o.MasterySignal = ptr(SignalAdequate)
			},
		),
	}
	b.ReportAllocs()
	for b.Loop() {
		ApplyTurn(s, tp, o)
	}
}

func BenchmarkPacing(b *testing.B) {
	tp := planOf(12)
	s := benchState(b, tp)
	b.ReportAllocs()
	for b.Loop() {
		Pacing(s, tp)
	}
}

func BenchmarkStyle(b *testing.B) {
	s := benchState(b, planOf(12))
	b.ReportAllocs()
	for b.Loop() {
		Style(s.History, "I think it is 42?")
	}
}

func BenchmarkPrecheck(b *testing.B) {
	p := NewPrechecker(DefaultPrecheckConfig())
	b.ReportAllocs()
	for b.Loop() {
		p.Check("I don't really know how to do this one, can you help me")
	}
}

func BenchmarkDecodeState(b *testing.B) {
	s := benchState(b, planOf(12))
	data, err := s.MarshalJSON()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeState(data); err != nil {
			b.Fatal(err)
		}
	}
}
