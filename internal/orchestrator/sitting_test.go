package orchestrator_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tutord/tutord/internal/agents/engine"
	"github.com/tutord/tutord/internal/agents/rules"
	"github.com/tutord/tutord/internal/orchestrator"
	"github.com/tutord/tutord/internal/store"
	"github.com/tutord/tutord/internal/tutor"
)

// Ending a lesson's sitting (the learner's goodbye, the time limit) pauses
// the lesson, but a learner may have only one lesson per subtopic paused.

// lessonOf starts a lesson on doubling for learner and answers its first
// message.
func (f *fixture) lessonOf(t *testing.T, learner uuid.UUID) uuid.UUID {
	t.Helper()
	c, err := f.o.CreateSession(context.Background(), orchestrator.CreateRequest{
		LearnerID: &learner, GuidelineID: f.guidelines[doubling], Mode: tutor.ModeTeachMe,
		Student: tutor.StudentContext{Grade: 7, Board: "CBSE", LanguageLevel: "standard", PreferredExamples: tutor.DefaultPreferredExamples()},
	})
	if err != nil {
		t.Fatalf("CreateSession: %v", err)
	}
	f.turn(t, c.Session.Row.ID, "yes, I'm ready")
	return c.Session.Row.ID
}

// pausedLessonOf is a learner with a lesson on doubling paused.
func (f *fixture) pausedLessonOf(t *testing.T, name string) (learner, paused uuid.UUID) {
	t.Helper()
	l, err := f.st.EnsureLearner(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	paused = f.lessonOf(t, l.ID)
	if _, err := f.o.Pause(context.Background(), paused); err != nil {
		t.Fatal(err)
	}
	return l.ID, paused
}

// checkSittingEnded checks that r ended a lesson's sitting without pausing
// it, wrote its turn with one turn_completed entry, and left the other
// lesson paused.
func (f *fixture) checkSittingEnded(t *testing.T, r orchestrator.TurnResult, other uuid.UUID) {
	t.Helper()
	ctx := context.Background()
	se, err := f.o.Load(ctx, r.Session.Row.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Committed || se.State.IsPaused || se.Row.Summary.IsPaused || se.State.StartedAt != nil || se.State.TurnCount != r.Session.State.TurnCount {
		t.Errorf("committed %v, paused %v (column %v), sitting started %v, turns %d (result %d)",
			r.Committed, se.State.IsPaused, se.Row.Summary.IsPaused, se.State.StartedAt, se.State.TurnCount, r.Session.State.TurnCount)
	}
	for _, e := range r.Events {
		if _, ok := e.(tutor.Paused); ok {
			t.Errorf("events %v report a pause", r.Events)
		}
	}
	msgs, err := f.o.Messages(ctx, se.Row.ID)
	if err != nil {
		t.Fatal(err)
	}
	if last := msgs[len(msgs)-1]; last.Role != "teacher" || last.Content != r.Reply {
		t.Errorf("last message %+v, want the reply %q", last, r.Reply)
	}
	logs, err := f.st.ListAgentLogs(ctx, se.Row.ID, store.LogFilter{TurnID: "turn_" + itoa(se.State.TurnCount)})
	if err != nil {
		t.Fatal(err)
	}
	completed := 0
	for _, l := range logs {
		if l.Event == "turn_completed" {
			completed++
		}
	}
	if completed != 1 {
		t.Errorf("%d turn_completed entries for the turn", completed)
	}
	if o, err := f.o.Load(ctx, other); err != nil || !o.State.IsPaused {
		t.Errorf("the other lesson: paused %v, %v", o.State.IsPaused, err)
	}
}

func TestGoodbyeAfterTheLessonDoesNotPauseIt(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	l, err := f.st.EnsureLearner(ctx, "sub-finished")
	if err != nil {
		t.Fatal(err)
	}
	id := f.lessonOf(t, l.ID)
	r := f.turn(t, id, "ok")
	for i := 0; !r.Session.State.IsComplete(r.Session.Topic); i++ {
		if i > 60 {
			t.Fatal("lesson did not complete in 60 turns")
		}
		msg := "ok"
		if r.Session.State.LastQuestion != nil {
			msg = pendingAnswer(t, r.Session)
		}
		r = f.turn(t, id, msg)
	}
	r = f.turn(t, id, "bye")
	if r.Reply != tutor.LessonDoneStopReply || r.Session.State.IsPaused || r.Session.Row.Summary.IsPaused {
		t.Fatalf("goodbye after the lesson: paused %v (column %v), reply %q", r.Session.State.IsPaused, r.Session.Row.Summary.IsPaused, r.Reply)
	}
	// A finished lesson is not offered for resuming, and does not keep a
	// new lesson on the subtopic from being paused.
	if rs, err := f.st.Resumable(ctx, l.ID, f.guidelines[doubling]); err == nil {
		t.Errorf("the finished lesson %s is offered for resuming", rs.ID)
	}
	if _, err := f.o.Pause(ctx, f.lessonOf(t, l.ID)); err != nil {
		t.Errorf("pausing a new lesson on the subtopic: %v", err)
	}
}

func TestGoodbyeWhileAnotherLessonIsPaused(t *testing.T) {
	f := setup(t)
	learner, paused := f.pausedLessonOf(t, "sub-goodbye")
	id := f.lessonOf(t, learner)
	r := f.turn(t, id, "bye")
	if want := tutor.StopReplyLead; len(r.Reply) < len(want) || r.Reply[:len(want)] != want {
		t.Errorf("reply %q, want the goodbye", r.Reply)
	}
	f.checkSittingEnded(t, r, paused)
	// The lesson stays open: the next message goes on with it.
	if r = f.turn(t, id, "ok"); r.Session.State.IsPaused || r.Reply == "" || r.Session.State.StartedAt == nil {
		t.Errorf("after the goodbye: paused %v, reply %q", r.Session.State.IsPaused, r.Reply)
	}
}

func TestTimeLimitWhileAnotherLessonIsPaused(t *testing.T) {
	f, timeUp := timeLimited(t)
	learner, paused := f.pausedLessonOf(t, "sub-time-limit")
	id := f.lessonOf(t, learner)
	timeUp()

	r := f.turn(t, id, "ok")
	reached := false
	for _, e := range r.Events {
		_, ok := e.(tutor.TimeLimitReached)
		reached = reached || ok
	}
	if !reached {
		t.Errorf("events %v, want the time limit reached", r.Events)
	}
	f.checkSittingEnded(t, r, paused)
	// The next message starts a new sitting instead of ending it again.
	r = f.turn(t, id, "ok")
	for _, e := range r.Events {
		if _, ok := e.(tutor.TimeLimitReached); ok {
			t.Errorf("the next message ended the new sitting too: %q", r.Reply)
		}
	}
	if r.Session.State.StartedAt == nil || r.Session.State.IsPaused {
		t.Errorf("next sitting: started %v, paused %v", r.Session.State.StartedAt, r.Session.State.IsPaused)
	}
}

// finishLesson drives a doubling lesson with always-right answers until it
// is complete.
func finishLesson(t *testing.T, f *fixture, id uuid.UUID) orchestrator.TurnResult {
	t.Helper()
	r := f.turn(t, id, "yes, I'm ready")
	for i := 0; !r.Session.State.IsComplete(r.Session.Topic); i++ {
		if i > 40 {
			t.Fatal("lesson did not complete in 40 turns")
		}
		msg := "ok"
		if r.Session.State.LastQuestion != nil {
			msg = pendingAnswer(t, r.Session)
		}
		r = f.turn(t, id, msg)
	}
	return r
}

// POST /pause on a finished lesson answers with its summary but does not
// pause it, as a goodbye does not: a paused one would be offered for
// resuming and take the learner's one paused place on the subtopic.
func TestPauseLeavesAFinishedLessonUnpaused(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	l, err := f.st.EnsureLearner(ctx, "finished-lesson")
	if err != nil {
		t.Fatal(err)
	}
	newLesson := func() uuid.UUID {
		c, err := f.o.CreateSession(ctx, orchestrator.CreateRequest{LearnerID: &l.ID, GuidelineID: f.guidelines[doubling], Mode: tutor.ModeTeachMe,
			Student: tutor.StudentContext{Grade: 7, Board: "CBSE", LanguageLevel: "standard", PreferredExamples: tutor.DefaultPreferredExamples()}})
		if err != nil {
			t.Fatal(err)
		}
		return c.Session.Row.ID
	}
	done := newLesson()
	finishLesson(t, f, done)
	_, perr := f.o.Pause(ctx, done)
	se, err := f.o.Load(ctx, done)
	if err != nil {
		t.Fatal(err)
	}
	if perr == nil && se.State.IsPaused {
		t.Errorf("a finished lesson was paused (it is now resumable)")
	}
	// The learner starts the lesson again and pauses it.
	again := newLesson()
	f.turn(t, again, "yes, I'm ready")
	if _, err := f.o.Pause(ctx, again); err != nil {
		t.Errorf("pausing a running lesson failed because of the finished one: %v", err)
	}
}

// timeLimited returns a fixture whose sittings last 10 minutes (the rules
// engine, a clock of its own), and a func that moves its clock past them.
func timeLimited(t *testing.T) (*fixture, func()) {
	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	f := setup(t, func(o *orchestrator.Options) {
		set, err := rules.New()
		if err != nil {
			t.Fatal(err)
		}
		eng := engine.New(set, nil, o.Store.(*store.Store))
		eng.SetTimeLimit(10 * time.Minute)
		o.Engines, o.Now = eng, clock
	})
	return f, func() {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(11 * time.Minute)
	}
}
