package httpapi_test

import (
	"fmt"
	"testing"
)

// The reference frontend's journeys, field by field (CONTRACT §5): the
// fields its pages read, in the states most likely to regress.

// A signed-in learner takes turns in a lesson, pauses it (ChatSession), comes back to the mode page, which asks
// GET /sessions/resumable and shows the coverage, and resumes. CONTRACT
// §2.4/§2.5: resumable's coverage and concepts_covered are the pause's, its
// current_step/total_steps are integers; resume returns the full
// conversation (not the 10-message window), oldest first, with only role and
// content, and current_step; afterwards nothing is resumable (404, which the
// frontend maps to "no resume card") and the replay shows is_paused false.
func TestPauseResumeJourney(t *testing.T) {
	s := newServer(t)
	tok := token(t, "journey-pause", false)
	id := s.newSession(fractions, "", tok)
	for i := 0; i < 6; i++ { // 13 messages: more than the 10-message window
		s.stepOK(t, id, "ok", tok)
	}
	p := s.do("POST", "/sessions/"+id+"/pause", nil, tok)
	if p.Status != 200 {
		t.Fatalf("pause: %d %s", p.Status, p.Body)
	}
	pm := p.JSON(t)
	gid := s.subject[fractions].String()
	r := s.do("GET", "/sessions/resumable?guideline_id="+gid, nil, tok)
	if r.Status != 200 {
		t.Fatalf("resumable: %d %s", r.Status, r.Body)
	}
	rm := r.JSON(t)
	if rm["session_id"] != id || rm["coverage"] != pm["coverage"] || fmt.Sprint(rm["concepts_covered"]) != fmt.Sprint(pm["concepts_covered"]) {
		t.Errorf("resumable %s disagrees with the pause %s", r.Body, p.Body)
	}
	if rm["total_steps"] != float64(7) {
		t.Errorf("resumable total_steps %v, want 7", rm["total_steps"])
	}
	res := s.do("POST", "/sessions/"+id+"/resume", nil, tok)
	if res.Status != 200 {
		t.Fatalf("resume: %d %s", res.Status, res.Body)
	}
	m := res.JSON(t)
	hist, _ := m["conversation_history"].([]any)
	if len(hist) != 13 {
		t.Errorf("resume conversation_history has %d messages, want all 13", len(hist))
	}
	if len(hist) > 0 {
		first := hist[0].(map[string]any)
		if first["role"] != "teacher" || len(first) != 2 {
			t.Errorf("first history entry %v, want the welcome with only role and content", first)
		}
	}
	if m["current_step"] != rm["current_step"] {
		t.Errorf("resume current_step %v, resumable said %v", m["current_step"], rm["current_step"])
	}
	if r := s.do("GET", "/sessions/resumable?guideline_id="+gid, nil, tok); r.Status != 404 {
		t.Errorf("resumable after resume: %d %s, want 404", r.Status, r.Body)
	}
	if doc := s.do("GET", "/sessions/"+id+"/replay", nil, tok).JSON(t); doc["is_paused"] != false {
		t.Errorf("replay after resume: is_paused %v", doc["is_paused"])
	}
}

// A learner answers every question of an exam over REST. CONTRACT §4.2/§5: the last next_turn has is_complete true,
// exam_progress clamped (7 of 7, 7 answered), exam_feedback with list-valued
// weak_areas/next_steps (never null: the frontend maps over them) and one
// exam_results entry per question; a refresh (GET /replay) shows
// exam_finished and the same feedback; the history lists the exam with its
// score and total.
func TestExamEndFields(t *testing.T) {
	s := newServer(t)
	tok := token(t, "journey-exam", false)
	id := s.newSession(fractions, "exam", tok)
	var last map[string]any
	for i := 0; i < 7; i++ {
		q := s.docAsAdmin(t, id)["exam_questions"].([]any)[i].(map[string]any)
		last = s.stepOK(t, id, q["expected_answer"].(string), tok)["next_turn"].(map[string]any)
	}
	if last["is_complete"] != true {
		t.Errorf("last next_turn is_complete %v", last["is_complete"])
	}
	ep, _ := last["exam_progress"].(map[string]any)
	if ep["current_question"] != float64(7) || ep["total_questions"] != float64(7) || ep["answered_questions"] != float64(7) {
		t.Errorf("exam_progress %v, want 7/7/7", ep)
	}
	fb, _ := last["exam_feedback"].(map[string]any)
	for _, k := range []string{"weak_areas", "next_steps", "strengths", "patterns"} {
		if _, ok := fb[k].([]any); !ok {
			t.Errorf("exam_feedback.%s = %v, want a list", k, fb[k])
		}
	}
	if fb["score"] != float64(7) || fb["total"] != float64(7) || fb["percentage"] != float64(100) {
		t.Errorf("exam_feedback %v", fb)
	}
	if rs, _ := last["exam_results"].([]any); len(rs) != 7 {
		t.Errorf("exam_results %v, want 7 entries", last["exam_results"])
	}
	doc := s.do("GET", "/sessions/"+id+"/replay", nil, tok).JSON(t)
	if doc["exam_finished"] != true || fmt.Sprint(doc["exam_feedback"].(map[string]any)["next_steps"]) != fmt.Sprint(fb["next_steps"]) {
		t.Errorf("replay: exam_finished %v, feedback %v", doc["exam_finished"], doc["exam_feedback"])
	}
	h := s.do("GET", "/sessions/history?page=1&page_size=10", nil, tok).JSON(t)
	e := h["sessions"].([]any)[0].(map[string]any)
	if e["exam_score"] != float64(7) || e["exam_total"] != float64(7) || e["mode"] != "exam" {
		t.Errorf("history entry %v", e)
	}
}

// The history page pages through the
// learner's sessions of every mode, newest first. CONTRACT §2.5: total counts
// every matching session (not the page), pages do not overlap, a page past the
// end is an empty list (not null), and stats counts the same sessions.
func TestHistoryPagesAndTotals(t *testing.T) {
	s := newServer(t)
	tok := token(t, "journey-hist", false)
	var ids []string
	for _, mode := range []string{"", "clarify_doubts", "exam", "", "clarify_doubts"} {
		ids = append(ids, s.newSession(fractions, mode, tok))
	}
	seen := map[string]bool{}
	for page := 1; page <= 3; page++ {
		m := s.do("GET", fmt.Sprintf("/sessions/history?page=%d&page_size=2", page), nil, tok).JSON(t)
		if m["total"] != float64(5) {
			t.Errorf("page %d: total %v, want 5", page, m["total"])
		}
		list, ok := m["sessions"].([]any)
		if !ok {
			t.Fatalf("page %d: sessions %v", page, m["sessions"])
		}
		for i, e := range list {
			sid := e.(map[string]any)["session_id"].(string)
			want := ids[len(ids)-1-(page-1)*2-i]
			if sid != want {
				t.Errorf("page %d entry %d: %s, want %s (newest first)", page, i, sid, want)
			}
			seen[sid] = true
		}
	}
	if len(seen) != 5 {
		t.Errorf("pages list %d distinct sessions, want 5", len(seen))
	}
	m := s.do("GET", "/sessions/history?page=9&page_size=2", nil, tok).JSON(t)
	if l, ok := m["sessions"].([]any); !ok || len(l) != 0 {
		t.Errorf("page past the end: %v", m["sessions"])
	}
	if st := s.do("GET", "/sessions/stats", nil, tok).JSON(t); st["total_sessions"] != float64(5) {
		t.Errorf("stats total_sessions %v, want 5", st["total_sessions"])
	}
}
