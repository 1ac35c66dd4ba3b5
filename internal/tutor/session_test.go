package tutor

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestNewState(t *testing.T) {
	tp := lesson("a", "b", "a")
	s, err := NewState(NewSession{ID: "s-1", Topic: tp, Student: StudentContext{Grade: 6}, Now: t0.Add(1500 * time.Nanosecond)})
	if err != nil {
		t.Fatal(err)
	}
	want := State{
		SchemaVersion: 1, SessionID: "s-1", CreatedAt: NewTime(t0.Add(time.Microsecond)), UpdatedAt: NewTime(t0.Add(time.Microsecond)),
		Topic:       &TopicRef{TopicID: "g-1", TopicName: "Fractions - Comparing", Subject: "Math", GradeLevel: 6, PlanVersionID: "pv-1"},
		CurrentStep: 1, AllowExtension: true, MasteryEstimates: Mastery{{"a", 0}, {"b", 0}},
		StudentContext: StudentContext{Grade: 6, LanguageLevel: "standard", PreferredExamples: []string{"food", "sports", "games"}},
		PacePreference: "normal", Mode: ModeTeachMe,
	}.normalized()
	if diff := cmp.Diff(want, s); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	for _, mode := range []Mode{ModeClarify, ModeExam} {
		s := newState(t, mode, tp, examQuestions(1)...)
		if len(s.MasteryEstimates) != 0 || s.Mode != mode {
			t.Errorf("%s: mastery %v", mode, s.MasteryEstimates)
		}
	}
}

func TestNewStateExamQuestions(t *testing.T) {
	tp := lesson("a", "b")
	in := []ExamQuestion{
		{QuestionIdx: 9, QuestionText: "one", Concept: "given", Result: ptr(ResultCorrect), StudentAnswer: ptr("x"), Feedback: "f"},
		{QuestionText: "two"},
		{QuestionText: "three", Difficulty: Hard, QuestionType: QuestionApplication},
	}
	s := newState(t, ModeExam, tp, in...)
	want := []ExamQuestion{
		{QuestionIdx: 0, QuestionText: "one", Concept: "given", Difficulty: Medium, QuestionType: QuestionConceptual},
		{QuestionIdx: 1, QuestionText: "two", Concept: "b", Difficulty: Medium, QuestionType: QuestionConceptual},
		{QuestionIdx: 2, QuestionText: "three", Concept: "a", Difficulty: Hard, QuestionType: QuestionApplication},
	}
	if diff := cmp.Diff(want, s.ExamQuestions); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if in[0].Result == nil {
		t.Error("NewState changed its input")
	}
}

func TestNewStateErrors(t *testing.T) {
	ok := NewSession{Topic: planOf(1), Student: StudentContext{Grade: 1}, Now: t0}
	tests := []struct {
		name   string
		change func(*NewSession)
	}{
		{"unknown mode", func(p *NewSession) { p.Mode = "lecture" }},
		{"unknown pace", func(p *NewSession) { p.Pace = "warp" }},
		{"grade 0", func(p *NewSession) { p.Student.Grade = 0 }},
		{"grade 13", func(p *NewSession) { p.Student.Grade = 13 }},
		{"exam without questions", func(p *NewSession) { p.Mode = ModeExam }},
		{"too many exam questions", func(p *NewSession) { p.Mode, p.ExamQuestions = ModeExam, examQuestions(MaxExamQuestions+1) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := ok
			tt.change(&p)
			if _, err := NewState(p); !errors.Is(err, ErrInvalid) {
				t.Errorf("err = %v, want ErrInvalid", err)
			}
		})
	}
	p := ok
	p.Student.Grade = 12
	if _, err := NewState(p); err != nil {
		t.Errorf("grade 12: %v", err)
	}
}

func TestPauseResume(t *testing.T) {
	tp := planOf(3)
	s := newState(t, ModeTeachMe, tp)
	s.ConceptsCovered = []string{"c1"}
	p, sum, err := Pause(s, tp, t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	want := PauseSummary{Coverage: 33.3, ConceptsCovered: []string{"c1"}, Message: "You've covered 33% so far. You can pick up where you left off anytime."}
	if diff := cmp.Diff(want, sum); diff != "" {
		t.Errorf("summary (-want +got)\n%s", diff)
	}
	if !p.IsPaused || s.IsPaused || !p.UpdatedAt.Equal(NewTime(t0.Add(time.Hour))) {
		t.Errorf("paused %v (input %v)", p.IsPaused, s.IsPaused)
	}
	if _, _, err := Pause(p, tp, t0); err != nil {
		t.Errorf("pausing again: %v", err)
	}
	r, err := Resume(p, t0)
	if err != nil || r.IsPaused {
		t.Errorf("resume: %v, paused %v", err, r.IsPaused)
	}
	if _, err := Resume(r, t0); !errors.Is(err, ErrNotPaused) {
		t.Errorf("resume of a running session: %v", err)
	}
	_, _, err = Pause(newState(t, ModeExam, tp, examQuestions(1)...), tp, t0)
	if !errors.Is(err, ErrWrongMode) || err.Error() != "Only Teach Me sessions can be paused" {
		t.Errorf("pausing an exam: %v", err)
	}
}

// A learner who pauses a lesson they finished is not told they can pick
// it up where they left off: there is nothing left, and it is not paused.
func TestPauseFinishedLesson(t *testing.T) {
	tp := planOf(2)
	s := newState(t, ModeTeachMe, tp)
	s.CurrentStep = 3
	s.ConceptsCovered = []string{"c1", "c2"}
	p, sum, err := Pause(s, tp, t0)
	if err != nil {
		t.Fatal(err)
	}
	want := "You've covered 100% and finished this lesson. Come back anytime to practise some more."
	if p.IsPaused || sum.Message != want || sum.Coverage != 100 {
		t.Errorf("paused %v, summary %+v; want not paused, message %q", p.IsPaused, sum, want)
	}
}

func TestPauseMessageRounding(t *testing.T) {
	// 2 of 3 concepts: 66.7% shows as 67%; 1 of 8 (12.5%) as 12% (half to even).
	for _, tt := range []struct {
		tp      *Topic
		covered []string
		want    string
	}{
		{planOf(3), []string{"c1", "c2"}, "You've covered 67% so far. You can pick up where you left off anytime."},
		{planOf(8), []string{"c1"}, "You've covered 12% so far. You can pick up where you left off anytime."},
	} {
		s := State{Mode: ModeTeachMe, ConceptsCovered: tt.covered}
		if got := s.PauseSummary(tt.tp).Message; got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}

func TestEndClarify(t *testing.T) {
	tp := planOf(1)
	s := newState(t, ModeClarify, tp)
	e, err := EndClarify(s, t0)
	if err != nil || !e.ClarifyComplete || s.ClarifyComplete {
		t.Fatalf("end: %v, complete %v", err, e.ClarifyComplete)
	}
	if _, err := EndClarify(e, t0); !errors.Is(err, ErrAlreadyEnded) || err.Error() != "Session already ended" {
		t.Errorf("second end: %v", err)
	}
	_, err = EndClarify(newState(t, ModeTeachMe, tp), t0)
	if !errors.Is(err, ErrWrongMode) || err.Error() != "Only Clarify Doubts sessions can use this endpoint" {
		t.Errorf("teach_me: %v", err)
	}
}

func TestStop(t *testing.T) {
	tp := planOf(2)
	s := newState(t, ModeClarify, tp)
	s, ev := Stop(s, tp, t0, EndStudentRequested)
	if !s.ClarifyComplete || len(ev) != 1 {
		t.Fatalf("complete %v, events %v", s.ClarifyComplete, ev)
	}
	if _, ev = Stop(s, tp, t0, EndStudentRequested); len(ev) != 0 {
		t.Errorf("stopping an ended session: %v", ev)
	}

	lesson := newState(t, ModeTeachMe, tp)
	paused, ev := Stop(lesson, tp, t0, EndTimeLimit)
	if !paused.IsPaused || len(ev) != 1 || ev[0] != (Paused{Reason: EndTimeLimit}) {
		t.Errorf("a lesson under way: paused %v, events %v", paused.IsPaused, ev)
	}
	// A finished lesson has nothing to resume: it is not paused, so it is
	// neither offered for resuming nor holds its subtopic's paused place.
	lesson.CurrentStep = tp.TotalSteps() + 1
	if done, ev := Stop(lesson, tp, t0, EndStudentRequested); done.IsPaused || len(ev) != 0 {
		t.Errorf("a finished lesson: paused %v, events %v", done.IsPaused, ev)
	}
}

func TestSummary(t *testing.T) {
	tp := planOf(4)
	tests := []struct {
		name string
		s    State
		want Summary
	}{
		{
			name: "excellent",
			s:    State{CurrentStep: 5, Topic: tp.Ref(), MasteryEstimates: Mastery{{"a", 0.85}, {"b", 0.85}}},
			want: Summary{StepsCompleted: 4, MasteryScore: 0.85, MisconceptionsSeen: []string{},
				Suggestions: []string{"Excellent work on Fractions - Comparing!", "You're ready to move to more advanced topics."}},
		},
		{
			name: "good progress at exactly 0.7",
			s:    State{CurrentStep: 2, MasteryEstimates: Mastery{{"a", 0.7}}},
			want: Summary{StepsCompleted: 1, MasteryScore: 0.7, MisconceptionsSeen: []string{}, Suggestions: []string{"Good progress! Try 3-5 more practice problems."}},
		},
		{
			name: "keep practicing, with misconceptions",
			s: State{CurrentStep: 1, MasteryEstimates: Mastery{{"a", 0.123}, {"b", 0.5}},
				Misconceptions: []Misconception{{Description: "m1.", Count: 3}, {Description: "m2"}, {Description: "m3"}}},
			want: Summary{StepsCompleted: 0, MasteryScore: 0.31, MisconceptionsSeen: []string{"m1.", "m2", "m3"},
				Suggestions: []string{"Keep practicing! Review the examples.", "Revisit the concepts around the topic", "Work on understanding: m1, m2"}},
		},
		{
			name: "a finished exam: its feedback, as the reference frontend shows it",
			s: State{Mode: ModeExam, ExamFinished: true, ExamCurrentIdx: 2, ExamQuestions: []ExamQuestion{
				{Concept: "a", Result: ptr(ResultCorrect)}, {Concept: "b", Result: ptr(ResultCorrect)}}},
			want: Summary{StepsCompleted: 2, MasteryScore: 1, MisconceptionsSeen: []string{}, Suggestions: []string{"Perfect score! Try a harder topic next."}},
		},
		{
			name: "an exam under way: the questions answered",
			s: State{Mode: ModeExam, ExamCurrentIdx: 2, ExamQuestions: []ExamQuestion{
				{Concept: "a", Result: ptr(ResultCorrect)}, {Concept: "b", Result: ptr(ResultIncorrect)}, {Concept: "c"}}},
			want: Summary{StepsCompleted: 2, MasteryScore: 0.5, MisconceptionsSeen: []string{"b"},
				Suggestions: []string{"Review these concepts in Teach Me: b", "Finish the exam to see your score."}},
		},
		{
			name: "no mastery (exam, clarify)",
			s:    State{CurrentStep: 1},
			want: Summary{MisconceptionsSeen: []string{}, Suggestions: []string{"Keep practicing! Review the examples.", "Revisit the concepts around the topic"}},
		},
		{
			name: "steps never exceed the plan",
			s:    State{CurrentStep: 40},
			want: Summary{StepsCompleted: 4, MisconceptionsSeen: []string{}, Suggestions: []string{"Keep practicing! Review the examples.", "Revisit the concepts around the topic"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.s.Summary(tp)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestAddReply(t *testing.T) {
	tp := planOf(2)
	s := newState(t, ModeExam, tp, examQuestions(2)...)
	welcome := "Welcome! Ready?\n\n" + s.ExamQuestions[0].Prompt()
	got := AddReply(s, t0.Add(time.Second), welcome)
	if r, _ := got.LastReply(); r != "Welcome! Ready?\n\n**Question 1:** Question 1?" || got.TurnCount != 0 || len(s.History) != 0 {
		t.Errorf("reply %q, turns %d, input history %d", r, got.TurnCount, len(s.History))
	}
	for range 12 {
		got = AddReply(got, t0, "again")
	}
	if len(got.History) != HistoryWindow {
		t.Errorf("history %d", len(got.History))
	}
}

// TestEndReplyOfAFinishedLesson: stopping after the lesson is finished gets
// a well done, not "You've covered 100% so far".
func TestEndReplyOfAFinishedLesson(t *testing.T) {
	tp := lesson("a", "b")
	s := newState(t, ModeTeachMe, tp)
	if r := endReply(s, tp); !strings.HasPrefix(r, StopReplyLead+"You've covered 0%") {
		t.Errorf("mid-lesson: %q", r)
	}
	s.CurrentStep = tp.TotalSteps() + 1
	if r := endReply(s, tp); r != LessonDoneStopReply {
		t.Errorf("finished: %q", r)
	}
}
