package httpapi_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/tutord/tutord/internal/httpapi"
)

// TestAuthenticationBeforeTheBody: a request without a valid token, on a
// route that needs one, gets 401 whatever its body or query, as CONTRACT
// §1.4 orders it: nothing of how the request would have been validated
// (422), or that its body is too large (413), reaches a caller who has not
// authenticated. Anonymous use is off, so that every session route needs a
// token.
func TestAuthenticationBeforeTheBody(t *testing.T) {
	s := newServer(t, func(o *httpapi.Options, _ *httpapi.Deps) { o.AllowAnonymous = false })
	id := s.newSession(fractions, "", token(t, "owner", false))
	expired, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"sub": "owner", "token_use": "access", "client_id": "tutord-test",
		"exp": time.Now().Add(-time.Hour).Unix()}).SignedString([]byte(testSecret))
	if err != nil {
		t.Fatal(err)
	}
	callers := []struct{ name, tok, detail string }{
		{"no token", "", "Not authenticated"},
		{"garbage token", "abc.def.ghi", "Invalid token: malformed token"},
		{"expired token", expired, "Invalid token: Signature has expired."},
	}
	requests := []struct {
		method, path string
		body         any
	}{
		{"POST", "/sessions", `{"student": `},
		{"POST", "/sessions", map[string]any{"student": 7}},
		{"POST", "/sessions/" + id + "/step", map[string]any{"student_reply": 5}},
		{"POST", "/sessions/" + id + "/step", map[string]any{"student_reply": strings.Repeat("a", 5000)}},
		{"PUT", "/profile", map[string]any{"grade": "seventh"}},
		{"PUT", "/api/admin/llm-config/tutor", map[string]any{"provider": 5}},
		{"DELETE", "/auth/admin/user", nil},
		{"GET", "/sessions/history?page=0", nil},
		{"GET", "/sessions/" + id + "/agent-logs?limit=0", nil},
	}
	for _, who := range callers {
		t.Run(who.name, func(t *testing.T) {
			s := s.in(t)
			for _, rq := range requests {
				r := s.do(rq.method, rq.path, rq.body, who.tok)
				if r.Status != 401 || r.code(t) != "unauthorized" || r.JSON(t)["detail"] != who.detail {
					t.Errorf("%s %s: %d %s; want 401 %s", rq.method, rq.path, r.Status, truncate(r.Body, 300), who.detail)
				}
			}
		})
	}
	// The same requests with the owner's token are judged on their bodies.
	if r := s.do("POST", "/sessions/"+id+"/step", map[string]any{"student_reply": 5}, token(t, "owner", false)); r.Status != 422 {
		t.Errorf("a bad body with the owner's token: %d %s; want 422", r.Status, r.Body)
	}
}

// TestRefusedCallerBodyIsNotRead: a request refused for its token is
// answered at once, without its body being read: one over the size limit
// gets 401 rather than 413, and one that has not arrived (a client that
// sent its headers and stalled) is not waited for. Where anonymous use is
// allowed, the same holds for a token that does not verify.
func TestRefusedCallerBodyIsNotRead(t *testing.T) {
	off := newServer(t, func(o *httpapi.Options, _ *httpapi.Deps) { o.AllowAnonymous = false })
	on := newServer(t)
	id := off.newSession(fractions, "", token(t, "owner", false))
	type request struct{ method, path, contentType string }
	jsonRequest := func(method, path string) request { return request{method, path, "application/json"} }
	requests := []request{
		jsonRequest("POST", "/sessions"),
		jsonRequest("POST", "/sessions/"+id+"/step"),
		jsonRequest("PUT", "/profile"),
		jsonRequest("POST", "/auth/sync"),
		{"POST", "/transcribe", "multipart/form-data; boundary=xyz"},
	}
	for _, tt := range []struct {
		name string
		s    *apiServer
		tok  string
	}{
		{"no token, anonymous use off", off, ""},
		{"garbage token, anonymous use off", off, "abc.def.ghi"},
		{"garbage token, anonymous use on", on, "abc.def.ghi"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.s.in(t)
			for _, rq := range requests {
				// 30 MiB is over every route's limit, /transcribe's 26 MiB
				// included; 1000 bytes is under all of them. Only "{" is sent.
				for _, declared := range []int{30 << 20, 1000} {
					r := s.partialBody(rq.method, rq.path, rq.contentType, tt.tok, declared, "{")
					if r.Status != 401 || r.code(t) != "unauthorized" {
						t.Errorf("%s %s with %d bytes declared, 1 sent: %d %s; want 401 unauthorized", rq.method, rq.path, declared, r.Status, truncate(r.Body, 300))
					}
				}
			}
		})
	}
}

// partialBody sends a request whose headers declare a body of declared
// bytes, of which only sent are sent, and returns the answer, checked
// against the contract. The answer must come within ten seconds, well
// before the server's one-minute body timeout, so that a server waiting
// for the rest of the body fails.
func (s *apiServer) partialBody(method, path, contentType, tok string, declared int, sent string) response {
	s.t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL, "http://"))
	if err != nil {
		s.t.Fatal(err)
	}
	defer conn.Close()
	head := fmt.Sprintf("%s %s HTTP/1.1\r\nHost: tutord\r\nContent-Type: %s\r\nContent-Length: %d\r\n", method, path, contentType, declared)
	if tok != "" {
		head += "Authorization: Bearer " + tok + "\r\n"
	}
	if _, err := io.WriteString(conn, head+"\r\n"+sent); err != nil {
		s.t.Fatal(err)
	}
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		s.t.Fatalf("%s %s with %d of %d bytes of body sent: no answer: %v", method, path, len(sent), declared, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		s.t.Fatal(err)
	}
	req, err := http.NewRequest(method, s.URL+path, nil)
	if err != nil {
		s.t.Fatal(err)
	}
	s.checkContract(req, nil, resp, body)
	return response{Status: resp.StatusCode, Header: resp.Header, Body: body}
}

// TestAdminCheckBeforeTheRequest: on the admin routes, a signed-in caller
// who is not an admin gets 403 whatever the request, which is then
// neither validated (no 422) nor read: what a route accepts is the admins'
// business. An admin's bad request is judged on its contents.
func TestAdminCheckBeforeTheRequest(t *testing.T) {
	s := newServer(t)
	id := s.newSession(fractions, "", token(t, "owner", false))
	requests := []struct {
		method, path string
		body         any
	}{
		{"PUT", "/api/admin/llm-config/tutor", map[string]any{"provider": 5}},
		{"PUT", "/api/admin/llm-config/tutor", `{"provider": `},
		{"DELETE", "/auth/admin/user", nil},
		{"GET", "/sessions/" + id + "/agent-logs?limit=0", nil},
		{"GET", "/api/admin/llm-config?page=x", nil},
	}
	learner := token(t, "owner", false)
	for _, rq := range requests {
		r := s.do(rq.method, rq.path, rq.body, learner)
		if r.Status != 403 || r.code(t) != "forbidden" || r.JSON(t)["detail"] != "Admin access required" {
			t.Errorf("a learner's %s %s: %d %s; want 403 Admin access required", rq.method, rq.path, r.Status, truncate(r.Body, 300))
		}
	}
	for _, rq := range requests[:4] {
		if r := s.do(rq.method, rq.path, rq.body, token(t, "root", true)); r.Status != 422 {
			t.Errorf("an admin's %s %s: %d %s; want 422", rq.method, rq.path, r.Status, truncate(r.Body, 300))
		}
	}
}
