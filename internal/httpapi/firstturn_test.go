package httpapi_test

import "testing"

// TestFirstTurnHasMasteryAndCompletion checks CONTRACT §10 #11: the
// reference's first_turn lacks mastery_score, which its frontend's Turn
// type requires; tutord sends it, and is_complete, in every mode.
func TestFirstTurnHasMasteryAndCompletion(t *testing.T) {
	s := newServer(t)
	for _, mode := range []string{"teach_me", "clarify_doubts", "exam"} {
		t.Run(mode, func(t *testing.T) {
			r := s.do("POST", "/sessions", createBody(s.subject[fractions], mode), "")
			if r.Status != 200 {
				t.Fatalf("create: %d %s", r.Status, r.Body)
			}
			ft := r.JSON(t)["first_turn"].(map[string]any)
			if score, ok := ft["mastery_score"]; !ok || score != 0.0 {
				t.Errorf("mastery_score = %v (present %v), want 0", score, ok)
			}
			if done, ok := ft["is_complete"]; !ok || done != false {
				t.Errorf("is_complete = %v (present %v), want false", done, ok)
			}
		})
	}
}
