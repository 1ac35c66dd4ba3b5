package httpapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tutord/tutord/internal/httpapi"
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

// sendRaw sends a request exactly as given (no Content-Type unless ctype
// is set) and checks the response against the contract, as s.do does.
func sendRaw(s *apiServer, method, path, ctype, body, tok string) response {
	s.t.Helper()
	req, err := http.NewRequest(method, s.URL+path, strings.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	s.checkContract(req, []byte(body), resp, out)
	return response{Status: resp.StatusCode, Header: resp.Header, Body: out}
}

// turnCount reads a session's turn_count.
func (s *apiServer) turnCount(id, tok string) float64 {
	s.t.Helper()
	r := s.do("GET", "/sessions/"+id, nil, tok)
	if r.Status != 200 {
		s.t.Fatalf("GET /sessions/%s: %d %s", id, r.Status, r.Body)
	}
	n, _ := r.JSON(s.t)["turn_count"].(float64)
	return n
}

// detailTypes returns the type of each item of a 422 body's detail.
func (r response) detailTypes(t testing.TB) []string {
	t.Helper()
	var body struct {
		Detail []struct {
			Type string `json:"type"`
		} `json:"detail"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatalf("422 body %s: %v", r.Body, err)
	}
	var types []string
	for _, d := range body.Detail {
		types = append(types, d.Type)
	}
	return types
}

// TestTrailingDataIsMalformedJSON: a body with more after its JSON value
// ({"a":1} {"b":2}) is malformed JSON, as json.loads has it ("Extra
// data"): 422 json_invalid alone, on every route that takes a JSON body,
// even when its first value is not valid for the route, and nothing is
// done (the first value was processed). Clients rely on a 422 meaning that
// nothing happened. White space after the value is no more data.
func TestTrailingDataIsMalformedJSON(t *testing.T) {
	for _, validator := range []bool{true, false} {
		t.Run(map[bool]string{true: "validator", false: "handler"}[validator], func(t *testing.T) {
			s := newServer(t, func(o *httpapi.Options, _ *httpapi.Deps) {
				if !validator {
					o.Validator = nil
				}
			})
			learner := token(t, "trailing-learner", false)
			admin := token(t, "trailing-admin", true)
			id := s.newSession(fractions, "", learner)
			s.do("PUT", "/profile", map[string]any{"name": "Asha"}, learner)
			create, _ := json.Marshal(createBody(s.subject[fractions], ""))

			for _, tt := range []struct {
				name, method, path, body, tok string
			}{
				{"create", "POST", "/sessions", string(create) + ` {}`, learner},
				{"step", "POST", "/sessions/" + id + "/step", `{"student_reply":"yes"} {"student_reply":"no"}`, learner},
				{"step, first value invalid", "POST", "/sessions/" + id + "/step", `{"student_reply":5} {"student_reply":"no"}`, learner},
				{"step, text after", "POST", "/sessions/" + id + "/step", `{"student_reply":"yes"} trailing`, learner},
				{"profile", "PUT", "/profile", `{"name":"Bo"} {"name":"Cy"}`, learner},
				{"phone provision", "POST", "/auth/phone/provision", `{"phone":"+919999999999"}]`, ""},
				{"llm config", "PUT", "/api/admin/llm-config/tutor", `{"provider":"rules","model_id":"rules"} {}`, admin},
			} {
				t.Run(tt.name, func(t *testing.T) {
					r := s.do(tt.method, tt.path, tt.body, tt.tok)
					if r.Status != 422 || !slices.Equal(r.detailTypes(t), []string{"json_invalid"}) {
						t.Fatalf("%d %s; want 422 with json_invalid alone", r.Status, truncate(r.Body, 300))
					}
				})
			}
			if n := s.turnCount(id, learner); n != 0 {
				t.Errorf("turn_count %v after refused steps; want 0", n)
			}
			if r := s.do("GET", "/sessions", nil, learner).JSON(t); r["total"] != float64(1) {
				t.Errorf("sessions after a refused creation: %v, want 1", r["total"])
			}
			if p := s.do("GET", "/profile", nil, learner).JSON(t); p["name"] != "Asha" {
				t.Errorf("profile name after a refused update: %v, want Asha", p["name"])
			}
			if r := s.do("POST", "/sessions/"+id+"/step", "\r\n {\"student_reply\":\"yes\"} \n\t", learner); r.Status != 200 {
				t.Errorf("step with white space around the JSON: %d %s; want 200", r.Status, truncate(r.Body, 300))
			}
		})
	}
}

// TestJSONBodyContentTypes: a JSON body is read as JSON, as the reference
// (FastAPI) reads it, when it comes without a Content-Type (Python
// requests.post(url, data=json.dumps(body)), httpx content=..., curl -d
// scripts rely on this) or with any application/*+json type, and a UTF-8
// byte order mark before it is skipped (json.loads of bytes does); other
// types are refused as before. A route that takes no body ignores one.
func TestJSONBodyContentTypes(t *testing.T) {
	s := newServer(t)
	create := `{"student":{"id":"s1","grade":7},"goal":{"topic":"Fractions","syllabus":"CBSE Grade 7",` +
		`"learning_objectives":[],"guideline_id":"` + s.subject[fractions].String() + `"}}`
	if r := sendRaw(s, "POST", "/sessions", "", create, ""); r.Status != 200 {
		t.Errorf("POST /sessions with a JSON body and no Content-Type: %d %s; want 200", r.Status, truncate(r.Body, 300))
	}
	id := s.newSession(fractions, "", "")
	const bom = "\xef\xbb\xbf"
	for _, tt := range []struct {
		name, ctype, body string
		status            int
		types             []string
	}{
		{"no Content-Type", "", `{"student_reply":"yes, ready"}`, 200, nil},
		{"a charset", "application/json; charset=utf-8", `{"student_reply":"ok"}`, 200, nil},
		{"upper case", "Application/JSON", `{"student_reply":"ok"}`, 200, nil},
		{"a +json type", "application/vnd.api+json", `{"student_reply":"ok"}`, 200, nil},
		{"a +json type with a charset", "application/merge-patch+json; charset=utf-8", `{"student_reply":"ok"}`, 200, nil},
		{"a byte order mark", "application/json", bom + `{"student_reply":"ok"}`, 200, nil},
		{"a byte order mark, no Content-Type", "", bom + `{"student_reply":"ok"}`, 200, nil},
		{"no Content-Type, malformed", "", `{"student_reply":`, 422, []string{"json_invalid"}},
		{"no Content-Type, invalid", "", `{"student_reply":5}`, 422, []string{"string_type"}},
		{"two byte order marks", "application/json", bom + bom + `{"student_reply":"ok"}`, 422, []string{"json_invalid"}},
		{"text/plain", "text/plain", `{"student_reply":"ok"}`, 422, []string{"value_error"}},
		{"a form", "application/x-www-form-urlencoded", `student_reply=ok`, 422, []string{"value_error"}},
		{"not a JSON type", "application/jsonx", `{"student_reply":"ok"}`, 422, []string{"value_error"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := sendRaw(s, "POST", "/sessions/"+id+"/step", tt.ctype, tt.body, "")
			if r.Status != tt.status {
				t.Fatalf("%d %s; want %d", r.Status, truncate(r.Body, 300), tt.status)
			}
			if tt.types != nil {
				if diff := cmp.Diff(tt.types, r.detailTypes(t)); diff != "" {
					t.Errorf("types (-want +got):\n%s\nbody: %s", diff, r.Body)
				}
			}
		})
	}
	if r := sendRaw(s, "POST", "/sessions/"+id+"/pause", "", "not JSON", ""); r.Status != 200 {
		t.Errorf("pause with a body it does not take: %d %s; want 200", r.Status, truncate(r.Body, 300))
	}
}
