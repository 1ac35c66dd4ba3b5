package httpapi_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tutord/tutord/curricula"
	"github.com/tutord/tutord/internal/auth"
	"github.com/tutord/tutord/internal/curriculum"
	"github.com/tutord/tutord/internal/lessons"
	"github.com/tutord/tutord/internal/pgtest"
)

func TestCreateSession(t *testing.T) {
	s := newServer(t)
	// Anonymous, teach_me by default.
	r := s.do("POST", "/sessions", createBody(s.subject[fractions], ""), "")
	if r.Status != 200 {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	body := r.JSON(t)
	ft := body["first_turn"].(map[string]any)
	if body["mode"] != "teach_me" || ft["step_idx"] != float64(1) || ft["message"] == "" || body["past_discussions"] != nil {
		t.Fatalf("body %s", r.Body)
	}
	// An exam: the welcome ends with the first question and carries progress.
	r = s.do("POST", "/sessions", createBody(s.subject[fractions], "exam"), "")
	ft = r.JSON(t)["first_turn"].(map[string]any)
	if !strings.Contains(ft["message"].(string), "**Question 1:**") || ft["exam_progress"].(map[string]any)["total_questions"] != float64(7) {
		t.Fatalf("exam first turn: %v", ft)
	}

	tests := []struct {
		name   string
		body   any
		token  string
		status int
		code   string
		detail string
	}{
		{"unknown guideline", createBody(uuid.New(), ""), "", 404, "guideline_not_found", "not found"},
		{"no guideline", map[string]any{"student": map[string]any{"id": "s", "grade": 7}, "goal": map[string]any{"topic": "t", "syllabus": "CBSE", "learning_objectives": []string{}}}, "", 404, "guideline_not_found", "Teaching guideline None not found"},
		{"bad mode", func() any { b := createBody(s.subject[fractions], "sing"); return b }(), "", 422, "validation_error", ""},
		{"grade 13", func() any {
			b := createBody(s.subject[fractions], "")
			b["student"].(map[string]any)["grade"] = 13
			return b
		}(), "", 422, "validation_error", ""},
		{"malformed JSON", `{"student": `, "", 422, "validation_error", ""},
		{"missing student", map[string]any{"goal": map[string]any{"topic": "t", "syllabus": "CBSE", "learning_objectives": []string{}}}, "", 422, "validation_error", ""},
		{"garbage token", createBody(s.subject[fractions], ""), "not-a-jwt", 401, "unauthorized", "Invalid token"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := s.do("POST", "/sessions", tt.body, tt.token)
			if r.Status != tt.status || r.code(t) != tt.code || !strings.Contains(string(r.Body), tt.detail) {
				t.Fatalf("%d %s; want %d %s %q", r.Status, r.Body, tt.status, tt.code, tt.detail)
			}
		})
	}
}

func TestStep(t *testing.T) {
	s := newServer(t)
	id := s.newSession(fractions, "", "")
	r := s.do("POST", "/sessions/"+id+"/step", map[string]any{"student_reply": "yes, ready"}, "")
	body := r.JSON(t)
	nt := body["next_turn"].(map[string]any)
	if r.Status != 200 || nt["message"] == "" || body["last_grading"] != nil {
		t.Fatalf("step: %d %s", r.Status, r.Body)
	}
	if body["routing"] != "Advance" && body["routing"] != "Continue" {
		t.Fatalf("routing %v", body["routing"])
	}
	// An empty reply is accepted and nudges without counting a turn.
	r = s.do("POST", "/sessions/"+id+"/step", map[string]any{"student_reply": ""}, "")
	if r.Status != 200 || !strings.Contains(string(r.Body), "Take your time") {
		t.Fatalf("empty reply: %d %s", r.Status, r.Body)
	}
	// Idempotency-Key: a retry gets the first response and changes nothing.
	first := s.do("POST", "/sessions/"+id+"/step", map[string]any{"student_reply": "ok"}, "", "Idempotency-Key", "k-1")
	again := s.do("POST", "/sessions/"+id+"/step", map[string]any{"student_reply": "ok"}, "", "Idempotency-Key", "k-1")
	if string(first.Body) != string(again.Body) {
		t.Fatalf("a retry got another response:\n%s\n%s", first.Body, again.Body)
	}
	// The key with another message: 422, and nothing happens.
	reused := s.do("POST", "/sessions/"+id+"/step", map[string]any{"student_reply": "what is a fraction?"}, "", "Idempotency-Key", "k-1")
	if reused.Status != 422 || reused.code(t) != "idempotency_key_reused" {
		t.Fatalf("a reused key: %d %s", reused.Status, reused.Body)
	}
	doc := s.do("GET", "/sessions/"+id, nil, "").JSON(t)
	if doc["turn_count"] != float64(2) {
		t.Fatalf("turn_count %v after a turn, a nudge and a retried turn; want 2", doc["turn_count"])
	}

	for _, tt := range []struct {
		name, path string
		body       any
		status     int
		code       string
	}{
		{"too long", "/sessions/" + id + "/step", map[string]any{"student_reply": strings.Repeat("a", 4001)}, 413, "too_large"},
		{"unknown session", "/sessions/" + uuid.NewString() + "/step", map[string]any{"student_reply": "hi"}, 404, "session_not_found"},
		{"not a uuid", "/sessions/nope/step", map[string]any{"student_reply": "hi"}, 404, "session_not_found"},
		{"missing field", "/sessions/" + id + "/step", map[string]any{}, 422, "validation_error"},
		{"wrong type", "/sessions/" + id + "/step", map[string]any{"student_reply": 5}, 422, "validation_error"},
		{"extra field", "/sessions/" + id + "/step", map[string]any{"student_reply": "x", "extra": 1}, 422, "validation_error"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := s.do("POST", tt.path, tt.body, "")
			if r.Status != tt.status || r.code(t) != tt.code {
				t.Fatalf("%d %s; want %d %s", r.Status, r.Body, tt.status, tt.code)
			}
		})
	}
}

// TestStepAfterDatabaseRestart: PostgreSQL restarts (or fails over) while
// tutord runs, and is back at once. The learner's next message, its turn
// run through the tutor, is committed (DESIGN §4: every turn ends in one
// atomic commit), and the next read answers: the store runs a statement
// that met one of the pool's dead connections again on a fresh one rather
// than failing the request with 500 "Internal error".
func TestStepAfterDatabaseRestart(t *testing.T) {
	s := newServer(t)
	id := s.newSession(fractions, "", "")
	if r := s.do("POST", "/sessions/"+id+"/step", map[string]any{"student_reply": "ready"}, ""); r.Status != 200 {
		t.Fatalf("first step: %d %s", r.Status, r.Body)
	}
	pgtest.RestartDatabase(t, s.st.Pool(), 6)
	if r := s.do("POST", "/sessions/"+id+"/step", map[string]any{"student_reply": "I think it is 1/2"}, ""); r.Status != 200 {
		t.Errorf("step with the database up again: %d %s; want 200", r.Status, r.Body)
	}
	if r := s.do("GET", "/sessions/"+id+"/summary", nil, ""); r.Status != 200 {
		t.Errorf("summary with the database up again: %d %s; want 200", r.Status, r.Body)
	}
}

func TestLifecycleRoutes(t *testing.T) {
	s := newServer(t)
	tok := token(t, "learner-life", false)
	teach := s.newSession(fractions, "", tok)
	clarify := s.newSession(fractions, "clarify_doubts", tok)
	exam := s.newSession(fractions, "exam", tok)

	check := func(method, path string, status int, code, contains string) response {
		t.Helper()
		r := s.do(method, path, nil, tok)
		if r.Status != status || (code != "" && r.code(t) != code) || !strings.Contains(string(r.Body), contains) {
			t.Fatalf("%s %s = %d %s; want %d %s %q", method, path, r.Status, r.Body, status, code, contains)
		}
		return r
	}
	check("POST", "/sessions/"+teach+"/resume", 400, "not_paused", "Session is not paused")
	check("POST", "/sessions/"+teach+"/pause", 200, "", "You've covered 0% so far.")
	check("GET", "/sessions/resumable?guideline_id="+s.subject[fractions].String(), 200, "", teach)
	check("POST", "/sessions/"+teach+"/resume", 200, "", `"message":"Session resumed"`)
	check("GET", "/sessions/resumable?guideline_id="+s.subject[fractions].String(), 404, "no_resumable_session", "No resumable session found")
	check("GET", "/sessions/resumable", 422, "validation_error", "guideline_id")
	check("POST", "/sessions/"+exam+"/pause", 400, "wrong_mode", "Only Teach Me sessions can be paused")
	check("POST", "/sessions/"+teach+"/end-clarify", 400, "wrong_mode", "Only Clarify Doubts sessions can use this endpoint")
	check("POST", "/sessions/"+clarify+"/end-clarify", 200, "", "Doubts session ended successfully.")
	check("POST", "/sessions/"+clarify+"/end-clarify", 400, "already_ended", "Session already ended")
	check("POST", "/sessions/"+teach+"/end-exam", 400, "wrong_mode", "Not an exam session")
	r := check("POST", "/sessions/"+exam+"/end-exam", 200, "", `"total":7`)
	if m := r.JSON(t); m["score"] != float64(0) || m["percentage"] != float64(0) || m["feedback"] == nil {
		t.Fatalf("end-exam %s", r.Body)
	}
	check("POST", "/sessions/"+exam+"/end-exam", 400, "exam_finished", "Exam already finished")
	check("GET", "/sessions/"+teach+"/summary", 200, "", `"steps_completed":0`)
	check("POST", "/sessions/"+uuid.NewString()+"/pause", 404, "session_not_found", "Session not found")
}

func TestSessionDocumentAndReplay(t *testing.T) {
	s := newServer(t)
	tok := token(t, "learner-doc", false)
	id := s.newSession(fractions, "", tok)
	for _, msg := range []string{"ready", "ok", "ok"} {
		s.do("POST", "/sessions/"+id+"/step", map[string]any{"student_reply": msg}, tok)
	}
	for _, path := range []string{"/sessions/" + id, "/sessions/" + id + "/replay"} {
		doc := s.do("GET", path, nil, tok).JSON(t)
		log := doc["full_conversation_log"].([]any)
		if len(log) != 7 {
			t.Fatalf("%s: %d messages in the log, want 7", path, len(log))
		}
		topic := doc["topic"].(map[string]any)
		if steps := topic["study_plan"].(map[string]any)["steps"].([]any); len(steps) != 7 {
			t.Fatalf("%s: %d plan steps", path, len(steps))
		}
	}
}

func TestAgentLogsAreForAdmins(t *testing.T) {
	s := newServer(t)
	id := s.newSession(fractions, "", "")
	s.do("POST", "/sessions/"+id+"/step", map[string]any{"student_reply": "ready"}, "")
	if r := s.do("GET", "/sessions/"+id+"/agent-logs", nil, ""); r.Status != 401 {
		t.Fatalf("anonymous: %d", r.Status)
	}
	if r := s.do("GET", "/sessions/"+id+"/agent-logs", nil, token(t, "plain", false)); r.Status != 403 {
		t.Fatalf("non-admin: %d", r.Status)
	}
	r := s.do("GET", "/sessions/"+id+"/agent-logs?turn_id=turn_1", nil, token(t, "boss", true))
	m := r.JSON(t)
	logs := m["logs"].([]any)
	if r.Status != 200 || len(logs) < 3 || m["turn_id"] != "turn_1" || m["total_count"] != float64(len(logs)) {
		t.Fatalf("admin: %d %s", r.Status, r.Body)
	}
	first := logs[0].(map[string]any)
	if first["agent_name"] != "orchestrator" || first["event_type"] != "turn_started" || !strings.HasPrefix(first["input_summary"].(string), "Student: ready") {
		t.Fatalf("first log %v", first)
	}
	// The creation's entries: the welcome's output is its text.
	if r := s.do("GET", "/sessions/"+id+"/agent-logs?turn_id=turn_0", nil, token(t, "boss", true)); r.Status != 200 || len(r.JSON(t)["logs"].([]any)) == 0 {
		t.Fatalf("turn_0: %d %s", r.Status, r.Body)
	}
	if r := s.do("GET", "/sessions/"+id+"/agent-logs?limit=0", nil, token(t, "boss", true)); r.Status != 422 {
		t.Fatalf("limit 0: %d", r.Status)
	}
}

// takeTurns takes n clarify turns on a new session of learner sub and
// returns the session id and the learner's token.
func takeTurns(t *testing.T, s *apiServer, sub string, n int) (string, string) {
	t.Helper()
	tok := token(t, sub, false)
	id := s.newSession(fractions, "clarify_doubts", tok)
	for i := 0; i < n; i++ {
		msg := fmt.Sprintf("what is a fraction, really? question %d %0300d", i, i)
		if r := s.do("POST", "/sessions/"+id+"/step", map[string]any{"student_reply": msg}, tok); r.Status != 200 {
			t.Fatalf("turn %d: %d %s", i, r.Status, r.Body)
		}
	}
	return id, tok
}

// TestAgentLogsListTheNewestEntries: every turn's agent-log entries stay
// stored (exports read them all), but the route lists from the session's
// newest 200, as the reference's ring of 200 per session holds them
// (CONTRACT §2.6, §9.14), filtered or not: a filter, which makes the
// reference ignore limit, no longer answers every matching entry of a
// long session.
func TestAgentLogsListTheNewestEntries(t *testing.T) {
	s := newServer(t)
	id, _ := takeTurns(t, s, "logs-window", 100)
	admin := token(t, "logs-admin", true)
	var stored int
	if err := s.st.Pool().QueryRow(context.Background(), `SELECT count(*) FROM agent_log_entries WHERE session_id = $1`, id).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if stored <= 200 {
		t.Fatalf("%d entries stored after 100 turns: too few to test the window (or some were dropped)", stored)
	}
	list := func(query string) []map[string]any {
		t.Helper()
		r := s.do("GET", "/sessions/"+id+"/agent-logs?"+query, nil, admin)
		if r.Status != 200 {
			t.Fatalf("%s: %d %s", query, r.Status, r.Body)
		}
		m := r.JSON(t)
		var out []map[string]any
		for _, e := range m["logs"].([]any) {
			out = append(out, e.(map[string]any))
		}
		if m["total_count"] != float64(len(out)) {
			t.Fatalf("%s: total_count %v for %d entries", query, m["total_count"], len(out))
		}
		return out
	}
	window := list("limit=1000")
	if len(window) != 200 {
		t.Fatalf("limit=1000 lists %d of %d entries; want the newest 200", len(window), stored)
	}
	var safety int
	for _, e := range window {
		if e["agent_name"] == "safety" {
			safety++
		}
	}
	if got := list("agent_name=safety"); len(got) != safety || safety == 0 {
		t.Errorf("agent_name=safety lists %d entries; want the %d of the newest 200 (100 turns have 100)", len(got), safety)
	}
	if got := list("limit=3"); len(got) != 3 || got[2]["turn_id"] != window[199]["turn_id"] {
		t.Errorf("limit=3: %v", got)
	}
	last := window[199]["turn_id"].(string)
	if got := list("turn_id=" + last); len(got) == 0 {
		t.Errorf("the last turn (%s) has no entries", last)
	}
	if got := list("turn_id=turn_1"); len(got) != 0 {
		t.Errorf("turn_1, long out of the newest 200 entries, lists %d", len(got))
	}
}

func TestListings(t *testing.T) {
	s := newServer(t)
	tok := token(t, "learner-lists", false)
	for i := range 3 {
		id := s.newSession(fractions, "", tok)
		s.do("POST", "/sessions/"+id+"/step", map[string]any{"student_reply": fmt.Sprint("ready ", i)}, tok)
	}
	s.newSession(fractions, "exam", tok)
	s.newSession("science/nutrition-in-plants/photosynthesis", "clarify_doubts", tok)

	r := s.do("GET", "/sessions", nil, tok)
	if m := r.JSON(t); r.Status != 200 || m["total"] != float64(5) {
		t.Fatalf("/sessions: %s", r.Body)
	}
	r = s.do("GET", "/sessions/history?page=2&page_size=2", nil, tok)
	if m := r.JSON(t); m["total"] != float64(5) || len(m["sessions"].([]any)) != 2 || m["page"] != float64(2) {
		t.Fatalf("history: %s", r.Body)
	}
	r = s.do("GET", "/sessions/history?subject=Science", nil, tok)
	if m := r.JSON(t); m["total"] != float64(1) {
		t.Fatalf("history of Science: %s", r.Body)
	}
	for _, q := range []string{"page=0", "page=x", "page_size=0", "page_size=500"} {
		if r := s.do("GET", "/sessions/history?"+q, nil, tok); r.Status != 422 {
			t.Errorf("history?%s: %d, want 422", q, r.Status)
		}
	}
	r = s.do("GET", "/sessions/stats", nil, tok)
	if m := r.JSON(t); m["total_sessions"] != float64(5) || len(m["topics_covered"].([]any)) != 2 || m["streak_days"] != float64(1) {
		t.Fatalf("stats: %s", r.Body)
	}
	r = s.do("GET", "/sessions/report-card", nil, tok)
	if m := r.JSON(t); m["total_sessions"] != float64(5) || len(m["subjects"].([]any)) != 2 {
		t.Fatalf("report card: %s", r.Body)
	}
	r = s.do("GET", "/sessions/subtopic-progress", nil, tok)
	up := r.JSON(t)["user_progress"].(map[string]any)
	p := up[s.subject[fractions].String()].(map[string]any)
	if p["session_count"] != float64(3) || p["status"] != "studied" {
		t.Fatalf("subtopic progress: %s", r.Body)
	}
	// They all need a learner.
	for _, path := range []string{"/sessions", "/sessions/history", "/sessions/stats", "/sessions/report-card", "/sessions/subtopic-progress", "/sessions/resumable?guideline_id=x"} {
		if r := s.do("GET", path, nil, ""); r.Status != 401 {
			t.Errorf("anonymous %s: %d, want 401", path, r.Status)
		}
	}
	// A learner with nothing yet.
	empty := token(t, "learner-new", false)
	if r := s.do("GET", "/sessions/report-card", nil, empty); string(r.Body) != `{"subjects":[],"total_sessions":0,"total_topics_studied":0}`+"\n" {
		t.Fatalf("empty report card: %s", r.Body)
	}
}

// TestBodyLimit: the routes that take no body still refuse one over the
// server's limit (1 MB) with 413, as documented, from a caller they
// accept (/auth/sync takes an ID token).
func TestBodyLimit(t *testing.T) {
	s := newServer(t)
	id := s.newSession(fractions, "", "")
	big := `{"x":"` + strings.Repeat("a", 1<<20) + `"}`
	idToken, err := auth.Mint([]byte(testSecret), auth.MintOptions{Subject: "learner", TokenUse: auth.UseID, ClientID: "tutord-test"})
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/sessions/" + id + "/pause", "/sessions/" + id + "/resume", "/sessions/" + id + "/end-clarify", "/sessions/" + id + "/end-exam", "/auth/sync"} {
		tok := ""
		if path == "/auth/sync" {
			tok = idToken
		}
		r := s.do("POST", path, big, tok)
		if r.Status != 413 || r.code(t) != "too_large" {
			t.Errorf("POST %s with a 1 MB body: %d %s; want 413 too_large", path, r.Status, truncate(r.Body, 200))
		}
	}
	// A body over the limit is refused before it is read: from its
	// Content-Length, without waiting for the 50 MB announced; and, sent
	// in chunks without a length, once reading passes the limit.
	for _, path := range []string{"/sessions/" + id + "/step", "/sessions/" + id + "/pause"} {
		head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", path, 50<<20)
		if status := rawStatus(t, s.URL, head+`{"student_reply":"`+strings.Repeat("a", 1<<20)); status != 413 {
			t.Errorf("POST %s announcing 50 MB: %d, want 413 before the body is sent", path, status)
		}
		body := fmt.Sprintf("6\r\n%s\r\n", `{"x":"`)
		for range 21 {
			body += fmt.Sprintf("%x\r\n%s\r\n", 64<<10, strings.Repeat("a", 64<<10))
		}
		head = fmt.Sprintf("POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n", path)
		if status := rawStatus(t, s.URL, head+body); status != 413 {
			t.Errorf("POST %s with 1.3 MB in chunks: %d, want 413", path, status)
		}
	}
	// Nothing happened to the session.
	if doc := s.do("GET", "/sessions/"+id, nil, "").JSON(t); doc["is_paused"] != false || doc["turn_count"] != float64(0) {
		t.Fatalf("a refused request changed the session: paused %v, turns %v", doc["is_paused"], doc["turn_count"])
	}
}

// rawStatus writes req to the server at url as it is, without finishing
// its body, and returns the status of the response.
func rawStatus(t *testing.T, url, req string) int {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// A server that waits for the rest of the body never answers: the
	// deadline ends the wait.
	if err := conn.SetDeadline(time.Now().Add(20 * time.Second)); err != nil {
		t.Fatal(err)
	}
	// The server may answer and close before it has all of req: the
	// write's error is not the test's.
	go func() { _, _ = io.WriteString(conn, req) }()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no response: %v", err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// importSampleEdited imports the shipped curriculum again, with edit
// applied to each file first.
func importSampleEdited(t *testing.T, s *apiServer, edit func(*curriculum.File)) {
	t.Helper()
	files, err := curriculum.LoadFS(curricula.FS())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		edit(f)
	}
	if _, err := lessons.Import(context.Background(), s.st, files, time.Time{}); err != nil {
		t.Fatal(err)
	}
}

// TestHistoryAndStatsFollowSubjectRename: a re-import that respells a
// subject renames it for the subtopics already stored (curricula/README.md,
// "Keys"), and a learner relies on finding their earlier sessions under the
// name the curriculum now lists: GET /sessions/history?subject= matches the
// guideline's subject (api/openapi.yaml; CONTRACT §2.5), /sessions/stats
// lists it, and both agree with the report card.
func TestHistoryAndStatsFollowSubjectRename(t *testing.T) {
	s := newServer(t)
	tok := token(t, "learner-subject-rename", false)
	importSampleEdited(t, s, func(f *curriculum.File) {
		if f.Subject == "Mathematics" {
			f.Subject = "mathematics"
		}
	})
	s.newSession(fractions, "", tok)
	importSampleEdited(t, s, func(*curriculum.File) {}) // "Mathematics" again

	r := s.do("GET", "/curriculum?country=India&board=CBSE&grade=7", nil, "")
	subjects := r.JSON(t)["subjects"].([]any)
	if len(subjects) != 2 || subjects[0] != "Mathematics" {
		t.Fatalf("the curriculum lists %v; want the renamed Mathematics", subjects)
	}
	r = s.do("GET", "/sessions/history?subject=Mathematics", nil, tok)
	if r.Status != 200 {
		t.Fatalf("history: %d %s", r.Status, r.Body)
	}
	m := r.JSON(t)
	if m["total"] != float64(1) {
		t.Fatalf("history?subject=Mathematics after the rename: total %v, want the learner's 1 fractions session\n%s", m["total"], r.Body)
	}
	if got := m["sessions"].([]any)[0].(map[string]any)["subject"]; got != "Mathematics" {
		t.Errorf("the history row's subject = %v; want Mathematics", got)
	}
	if m := s.do("GET", "/sessions/history?subject=mathematics", nil, tok).JSON(t); m["total"] != float64(0) {
		t.Errorf("history?subject=mathematics (the old spelling): total %v, want 0", m["total"])
	}
	r = s.do("GET", "/sessions/stats", nil, tok)
	if covered := r.JSON(t)["topics_covered"].([]any); len(covered) != 1 || covered[0] != "Mathematics" {
		t.Errorf("stats topics_covered = %v; want [Mathematics], the subject's name in the curriculum", covered)
	}
	r = s.do("GET", "/sessions/report-card", nil, tok)
	if card := r.JSON(t)["subjects"].([]any); len(card) != 1 || card[0].(map[string]any)["subject"] != "Mathematics" {
		t.Errorf("report card subjects: %s", r.Body)
	}
}
