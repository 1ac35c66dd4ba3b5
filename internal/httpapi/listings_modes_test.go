package httpapi_test

import (
	"fmt"
	"testing"
)

// The listing, progress and per-session read routes over sessions of every
// mode, played through the REST API with the rules engine.

func listingAdmin(t *testing.T) string { return token(t, "listing-admin", true) }

// docAsAdmin reads a session's document as an admin (answers visible).
func (s *apiServer) docAsAdmin(t *testing.T, id string) map[string]any {
	t.Helper()
	r := s.do("GET", "/sessions/"+id, nil, listingAdmin(t))
	if r.Status != 200 {
		t.Fatalf("doc %s: %d %s", id, r.Status, r.Body)
	}
	return r.JSON(t)
}

func (s *apiServer) stepOK(t *testing.T, id, msg, tok string) map[string]any {
	t.Helper()
	r := s.do("POST", "/sessions/"+id+"/step", map[string]any{"student_reply": msg}, tok)
	if r.Status != 200 {
		t.Fatalf("step %s %q: %d %s", id, msg, r.Status, r.Body)
	}
	return r.JSON(t)
}

// playExam answers the first len(right) questions: right when right[i].
func (s *apiServer) playExam(t *testing.T, id, tok string, right []bool) {
	t.Helper()
	for i, ok := range right {
		q := s.docAsAdmin(t, id)["exam_questions"].([]any)[i].(map[string]any)
		msg := "I don't know, maybe 12345"
		if ok {
			msg = q["expected_answer"].(string)
		}
		s.stepOK(t, id, msg, tok)
	}
}

// TestListingsOfEveryMode: a learner with a paused lesson, a
// finished exam, an exam ended early after two answers, an unfinished exam
// and a doubts session reads GET /sessions/history and the report card.
// CONTRACT §2.5: each HistoryEntry carries only its mode's keys (coverage /
// concepts_discussed / exam_score+exam_total, the latter the correct
// answers so far even when unfinished); the report card's latest exam is
// the newest finished one (an exam ended early counts, total = all
// questions) and last_studied is null for a subtopic with only clarify
// sessions and unfinished exams.
func TestListingsOfEveryMode(t *testing.T) {
	s := newServer(t)
	tok := token(t, "listing-modes", false)
	const photo = "science/nutrition-in-plants/photosynthesis"
	teach := s.newSession(fractions, "", tok)
	s.stepOK(t, teach, "ok", tok)
	if r := s.do("POST", "/sessions/"+teach+"/pause", nil, tok); r.Status != 200 {
		t.Fatalf("pause: %d %s", r.Status, r.Body)
	}
	done := s.newSession(fractions, "exam", tok)
	s.playExam(t, done, tok, []bool{true, false, true, true, false, true, true})
	early := s.newSession(fractions, "exam", tok)
	s.playExam(t, early, tok, []bool{true, false})
	if r := s.do("POST", "/sessions/"+early+"/end-exam", nil, tok); r.Status != 200 {
		t.Fatalf("end-exam: %d %s", r.Status, r.Body)
	}
	open := s.newSession(photo, "exam", tok)
	s.playExam(t, open, tok, []bool{true})
	doubts := s.newSession(photo, "clarify_doubts", tok)
	s.stepOK(t, doubts, "what is chlorophyll?", tok)

	r := s.do("GET", "/sessions/history?page_size=10", nil, tok)
	m := r.JSON(t)
	if m["total"] != float64(5) {
		t.Fatalf("history: %s", r.Body)
	}
	byID := map[string]map[string]any{}
	var order []string
	for _, e := range m["sessions"].([]any) {
		e := e.(map[string]any)
		byID[e["session_id"].(string)] = e
		order = append(order, e["session_id"].(string))
	}
	if fmt.Sprint(order) != fmt.Sprint([]string{doubts, open, early, done, teach}) {
		t.Errorf("history order %v; want newest first", order)
	}
	for id, want := range map[string][2]float64{done: {5, 7}, early: {1, 7}, open: {1, 7}} {
		e := byID[id]
		if e["exam_score"] != want[0] || e["exam_total"] != want[1] {
			t.Errorf("exam %s: exam_score %v exam_total %v; want %v", id, e["exam_score"], e["exam_total"], want)
		}
	}
	if e := byID[teach]; e["coverage"] == nil || e["exam_score"] != nil || e["concepts_discussed"] != nil {
		t.Errorf("teach_me entry %v", e)
	}
	if e := byID[doubts]; e["concepts_discussed"] == nil || e["coverage"] != nil || e["exam_total"] != nil {
		t.Errorf("clarify entry %v", e)
	}

	entries, _ := reportEntries(t, s.do("GET", "/sessions/report-card", nil, tok).Body)
	frac := entries["Mathematics/fractions/adding-and-subtracting-fractions"]
	sci := entries["Science/nutrition-in-plants/photosynthesis"]
	if len(frac) != 1 || len(sci) != 1 {
		t.Fatalf("report card entries %v", entries)
	}
	if frac[0]["latest_exam_score"] != float64(1) || frac[0]["latest_exam_total"] != float64(7) || frac[0]["last_studied"] == nil {
		t.Errorf("fractions entry %v; want the exam ended early (1/7) as the latest", frac[0])
	}
	if sci[0]["last_studied"] != nil || sci[0]["latest_exam_score"] != nil || sci[0]["coverage"] != float64(0) {
		t.Errorf("photosynthesis entry %v; want no last_studied, no exam, coverage 0", sci[0])
	}
}

// TestStepOnPausedSessionLeavesNothingToResume: a step on a paused
// lesson resumes it (api/openapi.yaml, step), so GET /sessions/resumable
// must stop offering it (CONTRACT §2.5: only is_paused sessions) and the
// history must show it unpaused.
func TestStepOnPausedSessionLeavesNothingToResume(t *testing.T) {
	s := newServer(t)
	tok := token(t, "listing-resume", false)
	id := s.newSession(fractions, "", tok)
	s.stepOK(t, id, "ok", tok)
	s.do("POST", "/sessions/"+id+"/pause", nil, tok)
	q := "/sessions/resumable?guideline_id=" + s.subject[fractions].String()
	if r := s.do("GET", q, nil, tok); r.Status != 200 || r.JSON(t)["session_id"] != id {
		t.Fatalf("resumable after pause: %d %s", r.Status, r.Body)
	}
	s.stepOK(t, id, "ok", tok)
	if r := s.do("GET", q, nil, tok); r.Status != 404 {
		t.Errorf("resumable after a step: %d %s; want 404", r.Status, r.Body)
	}
	if e := s.do("GET", "/sessions/history", nil, tok).JSON(t)["sessions"].([]any)[0].(map[string]any); e["is_paused"] != false {
		t.Errorf("history entry %v; want unpaused", e)
	}
}

// TestHistoryWindowIsTailOfFullLog: GET /sessions/{id} gives
// conversation_history as the last 10 messages of full_conversation_log
// (CONTRACT §4.4), whatever the turns were: nudges, unsafe messages,
// off-topic questions, a break, a pause and resume, a finished exam.
func TestHistoryWindowIsTailOfFullLog(t *testing.T) {
	s := newServer(t)
	tok := token(t, "listing-window", false)
	check := func(id, label string) {
		t.Helper()
		d := s.do("GET", "/sessions/"+id, nil, tok).JSON(t)
		h, full := d["conversation_history"].([]any), d["full_conversation_log"].([]any)
		if len(h) != min(10, len(full)) {
			t.Fatalf("%s: %d messages in the window, %d in the log", label, len(h), len(full))
		}
		tail := full[len(full)-len(h):]
		for i := range h {
			a, b := h[i].(map[string]any), tail[i].(map[string]any)
			if a["role"] != b["role"] || a["content"] != b["content"] || a["timestamp"] != b["timestamp"] {
				t.Errorf("%s: window[%d] = %v %q at %v, log = %v %q at %v", label, i, a["role"], a["content"], a["timestamp"], b["role"], b["content"], b["timestamp"])
			}
		}
	}
	a := s.newSession(fractions, "", tok)
	for _, m := range []string{"", "ok", "I want to kill myself", "ok", "what is the capital of france?", "", "ok", "stop, I'm tired, let's take a break"} {
		s.stepOK(t, a, m, tok)
		check(a, fmt.Sprintf("lesson after %q", m))
	}
	s.do("POST", "/sessions/"+a+"/pause", nil, tok)
	s.do("POST", "/sessions/"+a+"/resume", nil, tok)
	check(a, "after resume")
	e := s.newSession(fractions, "exam", tok)
	s.playExam(t, e, tok, []bool{true, false, true, true, true, true, true})
	s.stepOK(t, e, "more?", tok)
	check(e, "finished exam")
}
