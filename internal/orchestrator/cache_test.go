package orchestrator_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/orchestrator"
	"github.com/tutord/tutord/internal/tutor"
)

// nulEngines give a tutor whose replies hold a NUL character, as a model's
// output can (the store says so: store.text and withoutNUL exist for it).
type nulEngines struct{ orchestrator.Engines }

func (e nulEngines) Agents(cfg tutor.Config) (agents.Set, error) {
	s, err := e.Engines.Agents(cfg)
	s.Tutor = nulTutor{s.Tutor}
	return s, err
}

type nulTutor struct{ agents.Tutor }

func (n nulTutor) Respond(ctx context.Context, t agents.Turn) (agents.TutorReply, agents.Call, error) {
	r, c, err := n.Tutor.Respond(ctx, t)
	if err == nil {
		r.Output.Response = "Nice\x00 " + r.Output.Response
	}
	return r, c, err
}

// TestRetryOfAReplyWithANUL: a reply with a NUL (a model's output can hold one) is answered as the
// store keeps it, with U+FFFD: a retry with the same client turn id gets
// the very bytes of the first answer.
func TestRetryOfAReplyWithANUL(t *testing.T) {
	f := setup(t, func(o *orchestrator.Options) { o.Engines = nulEngines{o.Engines} })
	id := f.create(t, doubling, tutor.ModeTeachMe).Session.Row.ID
	ctx := context.Background()
	first, err := f.o.ProcessTurn(ctx, id, "ready", "k-nul")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(first.Reply, "Nice") {
		t.Fatalf("setup: the tutor's reply was not used: %q", first.Reply)
	}
	retry, err := f.o.ProcessTurn(ctx, id, "ready", "k-nul")
	if err != nil {
		t.Fatal(err)
	}
	if !retry.Replayed {
		t.Fatal("setup: the retry was not replayed")
	}
	if !bytes.Equal(first.Response, retry.Response) || first.Reply != retry.Reply {
		t.Fatalf("a retry got another response than the first attempt:\nfirst %q\nretry %q", first.Reply, retry.Reply)
	}
}

// TestForgetDuringACommit: Forget (after a learner's sessions were deleted) is not undone by a turn
// that committed just before it: its copy of the session is not put back
// in memory, where the deleted session would still have an owner and a
// next turn would run its agents on it.
func TestForgetDuringACommit(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	st := &afterCommitStore{countingStore: countingStore{Store: f.st}}
	o := newOrchestrator(t, f.st, f.src, func(op *orchestrator.Options) { op.Store = st })
	l, err := f.st.EnsureLearner(ctx, "sub-forget-during-commit")
	if err != nil {
		t.Fatal(err)
	}
	c, err := f.o.CreateSession(ctx, orchestrator.CreateRequest{LearnerID: &l.ID, GuidelineID: f.guidelines[doubling], Mode: tutor.ModeTeachMe,
		Student: tutor.StudentContext{Grade: 7, Board: "CBSE", LanguageLevel: "standard", PreferredExamples: tutor.DefaultPreferredExamples()}})
	if err != nil {
		t.Fatal(err)
	}
	id := c.Session.Row.ID
	// The learner is deleted (another request: DELETE /auth/admin/user)
	// right after this turn's commit, before the turn keeps its copy.
	st.after = func() {
		if _, err := f.st.DeleteLearner(ctx, "sub-forget-during-commit"); err != nil {
			t.Error(err)
		}
		o.Forget()
	}
	if _, err := o.ProcessTurn(ctx, id, "ready", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := o.Owner(ctx, id); !errors.Is(err, orchestrator.ErrSessionNotFound) {
		t.Errorf("Owner of the deleted session after Forget: %v; want ErrSessionNotFound (the copy is still in memory)", err)
	}
	before := st.commits.Load()
	if _, err := o.ProcessTurn(ctx, id, "ok", ""); !errors.Is(err, orchestrator.ErrSessionNotFound) {
		t.Fatalf("turn on the deleted session: %v", err)
	}
	if st.commits.Load() != before {
		t.Fatal("after Forget, the turn ran on the deleted session's copy in memory and tried to commit")
	}
}
