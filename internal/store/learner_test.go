package store_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/tutord/tutord/internal/store"
)

func TestLearnerProfileAndOnboarding(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	l, err := s.SyncLearner(ctx, store.SignIn{ExternalID: "sub-1", Email: "a@example.com", Name: "Asha", AuthProvider: "google"})
	if err != nil {
		t.Fatal(err)
	}
	if l.OnboardingComplete || *l.Name != "Asha" || l.AuthProvider != "google" || l.LastLoginAt == nil {
		t.Fatalf("new learner = %+v", l)
	}
	again, err := s.SyncLearner(ctx, store.SignIn{ExternalID: "sub-1", Email: "other@example.com", Phone: "+911234"})
	if err != nil || again.ID != l.ID || *again.Email != "a@example.com" || *again.Phone != "+911234" {
		t.Fatalf("second sign-in = %+v, %v; email kept, empty phone filled", again, err)
	}
	ensured, err := s.EnsureLearner(ctx, "sub-1")
	if err != nil || ensured.ID != l.ID {
		t.Fatalf("EnsureLearner of a known sub = %v, %v", ensured.ID, err)
	}

	// One field per request, as the onboarding wizard sends them.
	steps := []store.ProfileUpdate{{Age: ptr(12)}, {Grade: ptr(7)}, {AboutMe: ptr("likes cricket")}, {Board: ptr("CBSE")}}
	for i, u := range steps {
		l, err = s.UpdateProfile(ctx, l.ID, u)
		if err != nil {
			t.Fatal(err)
		}
		if done := i == len(steps)-1; l.OnboardingComplete != done {
			t.Fatalf("after step %d onboarding_complete = %v, want %v", i, l.OnboardingComplete, done)
		}
	}
	// Never reset, and nil fields are kept.
	l, _ = s.UpdateProfile(ctx, l.ID, store.ProfileUpdate{SchoolName: ptr("DPS")})
	if !l.OnboardingComplete || *l.Age != 12 || *l.SchoolName != "DPS" {
		t.Fatalf("after a later update: %+v", l)
	}
	if _, err := s.UpdateProfile(ctx, l.ID, store.ProfileUpdate{Grade: ptr(13)}); err == nil {
		t.Fatal("grade 13 accepted")
	}
	if _, err := s.UpdateProfile(ctx, uuid.New(), store.ProfileUpdate{Age: ptr(9)}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown learner: err = %v, want ErrNotFound", err)
	}
}

func TestDeleteLearnerRemovesEverything(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	l, _ := s.EnsureLearner(ctx, "sub-del")
	id := createSession(t, s, fixture{learner: l.ID})
	if _, err := s.CommitTurn(ctx, turn(id, 1, 1)); err != nil {
		t.Fatal(err)
	}
	keep := createSession(t, s, fixture{learner: newLearner(t, s)})
	if err := s.DeleteLearner(ctx, "sub-del"); err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{"sessions", "session_messages", "session_turns", "agent_logs"} {
		col := "session_id"
		if table == "sessions" {
			col = "id"
		}
		var n int
		if err := s.Pool().QueryRow(ctx, `SELECT count(*) FROM `+table+` WHERE `+col+` = $1`, id).Scan(&n); err != nil || n != 0 {
			t.Errorf("%s: %d rows of the deleted learner's session remain (%v)", table, n, err)
		}
	}
	if _, err := s.GetSession(ctx, keep); err != nil {
		t.Errorf("another learner's session was deleted: %v", err)
	}
	if err := s.DeleteLearner(ctx, "sub-del"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("deleting twice: err = %v, want ErrNotFound", err)
	}
}

func TestEnsureLearnerConcurrently(t *testing.T) {
	s := setup(t)
	var wg sync.WaitGroup
	ids := make([]uuid.UUID, 16)
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l, err := s.EnsureLearner(context.Background(), "racing-sub")
			if err != nil {
				t.Error(err)
				return
			}
			ids[i] = l.ID
		}()
	}
	wg.Wait()
	for _, id := range ids {
		if id != ids[0] {
			t.Fatalf("concurrent first uses made different learners: %v", ids)
		}
	}
}
