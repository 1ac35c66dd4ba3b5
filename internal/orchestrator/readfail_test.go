package orchestrator_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"

	"github.com/tutord/tutord/internal/lessons"
	"github.com/tutord/tutord/internal/orchestrator"
	"github.com/tutord/tutord/internal/store"
	"github.com/tutord/tutord/internal/tutor"
)

// flakyLessons fails Version with err while err is set.
type flakyLessons struct {
	orchestrator.Lessons
	err atomic.Pointer[error]
}

func (f *flakyLessons) Version(ctx context.Context, id uuid.UUID) (*tutor.Topic, error) {
	if err := f.err.Load(); err != nil {
		return nil, *err
	}
	return f.Lessons.Version(ctx, id)
}

func (f *flakyLessons) fail(err error) { f.err.Store(&err) }
func (f *flakyLessons) heal()          { f.err.Store(nil) }

// A lesson that cannot be read for a passing reason fails the turn and
// changes nothing; the session is not taught without its lesson, and the
// next turn, once the lesson can be read again, goes on with it.
func TestLessonReadFailureFailsTheTurn(t *testing.T) {
	var fl *flakyLessons
	f := setup(t, func(o *orchestrator.Options) {
		fl = &flakyLessons{Lessons: o.Lessons}
		o.Lessons = fl
	})
	ctx := context.Background()
	id := f.create(t, doubling, tutor.ModeTeachMe).Session.Row.ID
	before := f.turn(t, id, "ok").Session

	for _, cached := range []bool{true, false} {
		if !cached {
			// Another writer: the next turn reads the session afresh.
			if _, err := f.o.Pause(ctx, id); err != nil {
				t.Fatal(err)
			}
			if _, err := f.o.Resume(ctx, id); err != nil {
				t.Fatal(err)
			}
		}
		row, err := f.st.GetSession(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		fl.fail(errors.New("connection reset by peer"))
		if _, err := f.o.ProcessTurn(ctx, id, "ok", ""); err == nil {
			t.Fatalf("cached=%v: a turn without its lesson succeeded", cached)
		}
		fl.heal()
		after, err := f.st.GetSession(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if after.Version != row.Version || after.Summary.TotalSteps != before.Topic.TotalSteps() {
			t.Fatalf("cached=%v: the failed turn changed the session: version %d → %d, total steps %d",
				cached, row.Version, after.Version, after.Summary.TotalSteps)
		}
		r := f.turn(t, id, "ok")
		if r.Session.Topic == nil || r.Session.Row.Summary.TotalSteps != before.Topic.TotalSteps() {
			t.Fatalf("cached=%v: the next turn ran without the lesson", cached)
		}
	}
}

// A session whose plan was removed can still be read and answered, without
// a lesson.
func TestRemovedPlanLeavesTheSessionReadable(t *testing.T) {
	var fl *flakyLessons
	f := setup(t, func(o *orchestrator.Options) {
		fl = &flakyLessons{Lessons: o.Lessons}
		o.Lessons = fl
	})
	id := f.create(t, doubling, tutor.ModeTeachMe).Session.Row.ID
	fl.fail(lessons.ErrNotFound)
	se, err := f.o.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if se.Topic != nil {
		t.Errorf("a removed plan gave a lesson")
	}
}

// failingMessages fails ListMessages while fail is set.
type failingMessages struct {
	orchestrator.Store
	fail atomic.Bool
}

func (f *failingMessages) ListMessages(ctx context.Context, id uuid.UUID) ([]store.Message, error) {
	if f.fail.Load() {
		return nil, errors.New("connection reset by peer")
	}
	return f.Store.ListMessages(ctx, id)
}

// TestResumeWhoseHistoryFails: a resume that cannot read the history
// fails and leaves the session paused, so that the client's retry works.
func TestResumeWhoseHistoryFails(t *testing.T) {
	var fm *failingMessages
	f := setup(t, func(o *orchestrator.Options) {
		fm = &failingMessages{Store: o.Store}
		o.Store = fm
	})
	ctx := context.Background()
	id := f.create(t, doubling, tutor.ModeTeachMe).Session.Row.ID
	f.turn(t, id, "ok")
	if _, err := f.o.Pause(ctx, id); err != nil {
		t.Fatal(err)
	}
	fm.fail.Store(true)
	if _, err := f.o.Resume(ctx, id); err == nil {
		t.Fatal("resume succeeded without its history")
	}
	fm.fail.Store(false)
	if se, _ := f.o.Load(ctx, id); !se.State.IsPaused {
		t.Fatal("the failed resume left the session running")
	}
	r, err := f.o.Resume(ctx, id)
	if err != nil || r.Session.State.IsPaused || len(r.Messages) < 3 {
		t.Fatalf("retry: %v, paused %v, %d messages", err, r.Session.State.IsPaused, len(r.Messages))
	}
}
