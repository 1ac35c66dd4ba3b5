package store_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/tutord/tutord/internal/pgtest"
	"github.com/tutord/tutord/internal/store"
)

// lockWaiters counts the sessions of this database waiting for a lock.
func lockWaiters(t *testing.T, s *store.Store) int {
	t.Helper()
	var n int
	if err := s.Pool().QueryRow(context.Background(), `
SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func waitForLockWaiters(t *testing.T, s *store.Store, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for lockWaiters(t, s) < n {
		if time.Now().After(deadline) {
			t.Fatalf("never saw %d sessions waiting for a lock", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Two imports at once that touch the same subtopics in different orders
// (an author reordered a file while a replica's start-up import runs) do
// not deadlock: the second waits for the first. A third transaction holding
// one row makes the interleaving certain.
func TestConcurrentImportsWait(t *testing.T) {
	s := store.New(pgtest.Pool(t))
	ctx := context.Background()
	imp := func(key, text, hash string) store.GuidelineImport {
		return store.GuidelineImport{
			Country: "India", Board: "CBSE", Grade: 7, Subject: "Mathematics", SubjectKey: "mathematics",
			TopicKey: "fractions", TopicTitle: "Fractions", SubtopicKey: key, SubtopicTitle: key,
			Key: "mathematics/fractions/" + key, Approved: true,
			Guideline: json.RawMessage(`{"teaching_approach":"` + text + `"}`),
			Plan:      json.RawMessage(`{"plan":"` + hash + `"}`), PlanHash: hash,
		}
	}
	if _, err := s.ImportGuidelines(ctx, []store.GuidelineImport{imp("a", "v1", "a1"), imp("b", "v1", "b1")}, time.Time{}); err != nil {
		t.Fatal(err)
	}

	// Something else holds subtopic a for a moment (e.g. a third import).
	holder, err := s.Pool().Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Rollback(ctx)
	if _, err := holder.Exec(ctx, `SELECT 1 FROM guidelines WHERE key = 'mathematics/fractions/a' FOR UPDATE`); err != nil {
		t.Fatal(err)
	}

	errs := make(chan error, 2)
	go func() { // files in the order a, b
		_, err := s.ImportGuidelines(ctx, []store.GuidelineImport{imp("a", "v2", "a2"), imp("b", "v2", "b2")}, time.Time{})
		errs <- err
	}()
	waitForLockWaiters(t, s, 1)
	go func() { // the same subtopics in the order b, a
		_, err := s.ImportGuidelines(ctx, []store.GuidelineImport{imp("b", "v3", "b3"), imp("a", "v3", "a3")}, time.Time{})
		errs <- err
	}()
	waitForLockWaiters(t, s, 2)
	if err := holder.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Errorf("concurrent import failed: %v", err)
		}
	}
}
