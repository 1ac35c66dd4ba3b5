package httpapi_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// detailLocs returns the loc of each item of a 422 body's detail.
func (r response) detailLocs(t testing.TB) [][]any {
	t.Helper()
	var body struct {
		Detail []struct {
			Loc []any `json:"loc"`
		} `json:"detail"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatalf("422 body %s: %v", r.Body, err)
	}
	var locs [][]any
	for _, d := range body.Detail {
		locs = append(locs, d.Loc)
	}
	return locs
}

// TestTextThatCannotBeStoredIsRefused: NUL characters and invalid UTF-8,
// which PostgreSQL refuses in text, are a 422 naming the field (they were
// a 500), in JSON bodies and query parameters alike, and nothing changes.
func TestTextThatCannotBeStoredIsRefused(t *testing.T) {
	s := newServer(t)
	learner := token(t, "learner-text", false)
	admin := token(t, "admin-text", true)
	id := s.newSession(fractions, "", learner)
	s.do("PUT", "/profile", map[string]any{"name": "Asha"}, learner)

	withSyllabus := createBody(s.subject[fractions], "")
	withSyllabus["goal"].(map[string]any)["syllabus"] = "CB\x00SE"

	for _, tt := range []struct {
		name, method, path string
		body               any
		tok                string
		loc                []any
	}{
		{"session syllabus with NUL", "POST", "/sessions", withSyllabus, learner, []any{"body", "goal", "syllabus"}},
		{"profile name with NUL", "PUT", "/profile", map[string]any{"name": "a\x00b"}, learner, []any{"body", "name"}},
		{"profile board with NUL", "PUT", "/profile", map[string]any{"board": "CB\x00SE"}, learner, []any{"body", "board"}},
		{"profile example with NUL", "PUT", "/profile", map[string]any{"preferred_examples": []string{"cricket", "a\x00"}}, learner, []any{"body", "preferred_examples", float64(1)}},
		{"profile name with invalid UTF-8", "PUT", "/profile", `{"name":"a` + "\xff" + `b"}`, learner, []any{"body", "name"}},
		{"profile name with a lone surrogate", "PUT", "/profile", `{"name":"a\ud800b"}`, learner, []any{"body", "name"}},
		{"curriculum country with NUL", "GET", "/curriculum?country=In%00dia&board=CBSE&grade=7", nil, "", []any{"query", "country"}},
		{"curriculum board with invalid UTF-8", "GET", "/curriculum?country=India&board=CB%FFSE&grade=7", nil, "", []any{"query", "board"}},
		{"history subject with invalid UTF-8", "GET", "/sessions/history?subject=%FF", nil, learner, []any{"query", "subject"}},
		{"agent-log turn id with NUL", "GET", "/sessions/" + id + "/agent-logs?turn_id=a%00b", nil, admin, []any{"query", "turn_id"}},
		{"deleted user with NUL", "DELETE", "/auth/admin/user?cognito_sub=a%00b", nil, admin, []any{"query", "cognito_sub"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := s.do(tt.method, tt.path, tt.body, tt.tok)
			if r.Status != 422 || r.code(t) != "validation_error" {
				t.Fatalf("%d %s; want 422 validation_error", r.Status, r.Body)
			}
			if diff := cmp.Diff([][]any{tt.loc}, r.detailLocs(t)); diff != "" {
				t.Errorf("loc (-want +got):\n%s", diff)
			}
		})
	}

	// Nothing changed: the profile keeps its name, and no session was added.
	if p := s.do("GET", "/profile", nil, learner).JSON(t); p["name"] != "Asha" || p["board"] != nil || len(p["preferred_examples"].([]any)) != 0 {
		t.Errorf("profile after refused updates: %v", p)
	}
	if r := s.do("GET", "/sessions", nil, learner).JSON(t); r["total"] != float64(1) {
		t.Errorf("sessions after a refused creation: %v, want 1", r["total"])
	}
}

// TestTextRefusalListsEveryField: every bad string of a body is reported,
// keys included, with its location.
func TestTextRefusalListsEveryField(t *testing.T) {
	s := newServer(t)
	learner := token(t, "learner-fields", false)
	r := s.do("PUT", "/profile", map[string]any{"name": "a\x00", "about_me": "b\x00", "preferred_examples": []string{"ok", "c\x00"}}, learner)
	if r.Status != 422 {
		t.Fatalf("%d %s; want 422", r.Status, r.Body)
	}
	want := [][]any{{"body", "about_me"}, {"body", "name"}, {"body", "preferred_examples", float64(1)}}
	if diff := cmp.Diff(want, r.detailLocs(t)); diff != "" {
		t.Errorf("locs (-want +got):\n%s", diff)
	}
	if !strings.Contains(string(r.Body), "NUL") {
		t.Errorf("message does not say what is wrong: %s", r.Body)
	}
}

// TestChatMessagesAreCleanedNotRefused: a learner's message is cleaned by
// the orchestrator, as before, over REST and the WebSocket.
func TestChatMessagesAreCleanedNotRefused(t *testing.T) {
	s := newServer(t)
	id := s.newSession(fractions, "", "")
	if r := s.do("POST", "/sessions/"+id+"/step", `{"student_reply":"rea\u0000dy`+"\xff"+`"}`, ""); r.Status != 200 {
		t.Fatalf("step with NUL and invalid UTF-8: %d %s", r.Status, r.Body)
	}
	w := s.joined(t, id, "")
	if reply, errMsg, _ := w.chat("o\x00k"); reply == "" || errMsg != "" {
		t.Fatalf("chat with NUL: reply %q, error %q", reply, errMsg)
	}
}

// TestHistoryPageBounds: a page number past the contract's maximum is a
// 422 (an overflowing offset was a 500); the deepest allowed page is empty.
func TestHistoryPageBounds(t *testing.T) {
	s := newServer(t)
	learner := token(t, "learner-pages", false)
	s.newSession(fractions, "", learner)
	for _, page := range []string{"9223372036854775807", "100001"} {
		r := s.do("GET", "/sessions/history?page="+page+"&page_size=100", nil, learner)
		if r.Status != 422 || r.code(t) != "validation_error" {
			t.Fatalf("page %s: %d %s; want 422", page, r.Status, r.Body)
		}
		if diff := cmp.Diff([][]any{{"query", "page"}}, r.detailLocs(t)); diff != "" {
			t.Errorf("page %s: loc (-want +got):\n%s\n%s", page, diff, r.Body)
		}
	}
	r := s.do("GET", "/sessions/history?page=100000&page_size=100", nil, learner)
	if r.Status != 200 {
		t.Fatalf("page 100000: %d %s", r.Status, r.Body)
	}
	if m := r.JSON(t); len(m["sessions"].([]any)) != 0 || m["total"] != float64(1) {
		t.Fatalf("page 100000: %s; want no sessions of 1", r.Body)
	}
}

// TestIdempotencyKeyRule: an Idempotency-Key that is not text, or holds a
// control character, is a 422 (bytes that are not UTF-8 were a 500), and
// the turn is not taken.
func TestIdempotencyKeyRule(t *testing.T) {
	s := newServer(t)
	id := s.newSession(fractions, "", "")
	for _, tt := range []struct {
		name, key, typ string
	}{
		{"not UTF-8", "k-\xff", "string_unicode"},
		{"a tab", "k\t1", "value_error"},
		{"too long", strings.Repeat("k", 256), ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := s.do("POST", "/sessions/"+id+"/step", map[string]any{"student_reply": "ready"}, "", "Idempotency-Key", tt.key)
			if r.Status != 422 || r.code(t) != "validation_error" {
				t.Fatalf("%d %s; want 422", r.Status, r.Body)
			}
			if diff := cmp.Diff([][]any{{"header", "Idempotency-Key"}}, r.detailLocs(t)); diff != "" {
				t.Errorf("loc (-want +got):\n%s", diff)
			}
			if tt.typ != "" && !strings.Contains(string(r.Body), `"type":"`+tt.typ+`"`) {
				t.Errorf("body %s, want type %s", r.Body, tt.typ)
			}
		})
	}
	if r := s.do("GET", "/sessions/"+id, nil, "").JSON(t); r["turn_count"] != float64(0) {
		t.Fatalf("turns were taken: %v", r["turn_count"])
	}
}
