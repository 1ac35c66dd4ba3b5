package httpapi_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/golang-jwt/jwt/v5"

	"github.com/tutord/tutord/internal/httpapi"
)

// TestOwnership: another learner gets 404 on every route of a learner's
// session, exactly as for a session that does not exist.
func TestOwnership(t *testing.T) {
	s := newServer(t)
	alice, bob := token(t, "alice", false), token(t, "bob", false)
	teach := s.newSession(fractions, "", alice)
	exam := s.newSession(fractions, "exam", alice)
	clarify := s.newSession(fractions, "clarify_doubts", alice)
	routes := []struct{ method, path string }{
		{"POST", "/sessions/" + teach + "/step"},
		{"POST", "/sessions/" + teach + "/pause"},
		{"POST", "/sessions/" + teach + "/resume"},
		{"POST", "/sessions/" + clarify + "/end-clarify"},
		{"POST", "/sessions/" + exam + "/end-exam"},
		{"GET", "/sessions/" + teach + "/summary"},
		{"GET", "/sessions/" + teach + "/replay"},
		{"GET", "/sessions/" + teach},
	}
	for _, rt := range routes {
		var body any
		if strings.HasSuffix(rt.path, "/step") {
			body = map[string]any{"student_reply": "hi"}
		}
		for _, who := range []struct{ name, tok string }{{"bob", bob}, {"anonymous", ""}} {
			r := s.do(rt.method, rt.path, body, who.tok)
			if r.Status != 404 || r.code(t) != "session_not_found" {
				t.Errorf("%s %s as %s: %d %s; want 404 session_not_found", rt.method, rt.path, who.name, r.Status, r.Body)
			}
		}
	}
	// Alice and an admin can.
	if r := s.do("GET", "/sessions/"+teach, nil, alice); r.Status != 200 {
		t.Fatalf("owner: %d", r.Status)
	}
	if r := s.do("GET", "/sessions/"+teach, nil, token(t, "root", true)); r.Status != 200 {
		t.Fatalf("admin: %d", r.Status)
	}
	// Nothing Bob tried changed Alice's session.
	if m := s.do("GET", "/sessions/"+teach, nil, alice).JSON(t); m["turn_count"] != float64(0) || m["is_paused"] != false {
		t.Fatalf("Alice's session changed: turn_count %v, paused %v", m["turn_count"], m["is_paused"])
	}
}

func TestBadTokens(t *testing.T) {
	s := newServer(t)
	mint := func(claims jwt.MapClaims, key []byte) string {
		tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(key)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	now := time.Now()
	base := func() jwt.MapClaims {
		return jwt.MapClaims{"sub": "x", "token_use": "access", "client_id": "tutord-test", "exp": now.Add(time.Hour).Unix(), "iat": now.Unix()}
	}
	expired := base()
	expired["exp"] = now.Add(-time.Hour).Unix()
	wrongAud := base()
	wrongAud["client_id"] = "someone-else"
	idToken := base()
	idToken["token_use"] = "id"
	noSub := base()
	delete(noSub, "sub")
	for name, tok := range map[string]string{
		"expired":        mint(expired, []byte(testSecret)),
		"wrongly signed": mint(base(), []byte("another-secret-another-secret-xx")),
		"wrong audience": mint(wrongAud, []byte(testSecret)),
		"id token":       mint(idToken, []byte(testSecret)),
		"no sub":         mint(noSub, []byte(testSecret)),
		"garbage":        "abc.def.ghi",
	} {
		for _, path := range []string{"/sessions/history", "/profile"} {
			r := s.do("GET", path, nil, tok)
			if r.Status != 401 || r.code(t) != "unauthorized" || !strings.HasPrefix(r.JSON(t)["detail"].(string), "Invalid token") {
				t.Errorf("%s token on %s: %d %s", name, path, r.Status, r.Body)
			}
		}
	}
	// A valid one works.
	if r := s.do("GET", "/profile", nil, token(t, "x", false)); r.Status != 200 {
		t.Fatalf("valid token: %d %s", r.Status, r.Body)
	}
	// A scheme other than Bearer is not authenticated.
	if r := s.do("GET", "/profile", nil, "", "Authorization", "Basic dXNlcjpwYXNz"); r.Status != 401 {
		t.Fatalf("basic auth: %d", r.Status)
	}
}

func TestAnonymousAccessCanBeTurnedOff(t *testing.T) {
	s := newServer(t, func(o *httpapi.Options, _ *httpapi.Deps) { o.AllowAnonymous = false })
	if r := s.do("POST", "/sessions", createBody(s.subject[fractions], ""), ""); r.Status != 401 {
		t.Fatalf("anonymous create: %d %s", r.Status, r.Body)
	}
	tok := token(t, "learner", false)
	id := s.newSession(fractions, "", tok)
	if r := s.do("POST", "/sessions/"+id+"/step", map[string]any{"student_reply": "hi"}, ""); r.Status != 401 {
		t.Fatalf("anonymous step: %d", r.Status)
	}
	if r := s.do("POST", "/sessions/"+id+"/step", map[string]any{"student_reply": "hi"}, tok); r.Status != 200 {
		t.Fatalf("owner step: %d", r.Status)
	}
}

func TestRateLimits(t *testing.T) {
	s := newServer(t, func(o *httpapi.Options, _ *httpapi.Deps) {
		o.TurnRate = httpapi.RateLimit{Rate: 0.01, Burst: 2}
		o.CreateRate = httpapi.RateLimit{Rate: 0.01, Burst: 1}
	})
	tok := token(t, "busy", false)
	id := s.newSession(fractions, "", tok)
	if r := s.do("POST", "/sessions", createBody(s.subject[fractions], ""), tok); r.Status != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" {
		t.Fatalf("second create: %d %v", r.Status, r.Header)
	}
	for i := range 2 {
		if r := s.do("POST", "/sessions/"+id+"/step", map[string]any{"student_reply": "ok"}, tok); r.Status != 200 {
			t.Fatalf("turn %d: %d", i, r.Status)
		}
	}
	r := s.do("POST", "/sessions/"+id+"/step", map[string]any{"student_reply": "ok"}, tok)
	if r.Status != 429 || r.code(t) != "rate_limited" || r.Header.Get("Retry-After") == "" {
		t.Fatalf("third turn: %d %s", r.Status, r.Body)
	}
	// Another learner has their own bucket.
	other := token(t, "calm", false)
	if r := s.do("POST", "/sessions", createBody(s.subject[fractions], ""), other); r.Status != 200 {
		t.Fatalf("another learner: %d", r.Status)
	}
}

// allowedWithout checks that the contract lets a caller without a token
// make the request: the operation's security lists {} beside its token
// schemes. (The response checks of do do not look at security.)
func (s *apiServer) allowedWithout(t *testing.T, method, path string) {
	t.Helper()
	req := httptest.NewRequest(method, path, nil)
	route, params, err := s.router.FindRoute(req)
	if err != nil {
		t.Fatalf("%s %s: not in the contract: %v", method, path, err)
	}
	err = openapi3filter.ValidateRequest(context.Background(), &openapi3filter.RequestValidationInput{
		Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{ExcludeRequestBody: true, AuthenticationFunc: func(context.Context, *openapi3filter.AuthenticationInput) error {
			return errors.New("no token") // a token scheme is never met: the call has none
		}},
	})
	if err != nil {
		t.Errorf("%s %s answered an anonymous caller, but the contract requires a token: %v", method, path, firstLines(err.Error(), 3))
	}
}

// TestAnonymousSessionLifecycle: anonymous sessions (TUTORD_ALLOW_ANONYMOUS)
// are paused, resumed, replayed and ended without a token, as the contract
// says.
func TestAnonymousSessionLifecycle(t *testing.T) {
	s := newServer(t)
	teach := s.newSession(fractions, "", "")
	clarify := s.newSession(fractions, "clarify_doubts", "")
	exam := s.newSession(fractions, "exam", "")
	for _, rt := range []struct{ method, path, want string }{
		{"POST", "/sessions/" + teach + "/pause", `"coverage"`},
		{"GET", "/sessions/" + teach + "/replay", `"is_paused":true`},
		{"POST", "/sessions/" + teach + "/resume", `"Session resumed"`},
		{"GET", "/sessions/" + teach, `"is_paused":false`},
		{"GET", "/sessions/" + teach + "/summary", `"steps_completed"`},
		{"POST", "/sessions/" + clarify + "/end-clarify", "Doubts session ended successfully."},
		{"POST", "/sessions/" + exam + "/end-exam", `"total":7`},
	} {
		r := s.do(rt.method, rt.path, nil, "")
		if r.Status != 200 || !strings.Contains(string(r.Body), rt.want) {
			t.Errorf("anonymous %s %s: %d %s; want 200 with %s", rt.method, rt.path, r.Status, truncate(r.Body, 300), rt.want)
		}
		s.allowedWithout(t, rt.method, rt.path)
	}
	// With anonymous use turned off, the same calls are 401, as documented.
	off := newServer(t, func(o *httpapi.Options, _ *httpapi.Deps) { o.AllowAnonymous = false })
	id := off.newSession(fractions, "", token(t, "someone", false))
	for _, path := range []string{"/sessions/" + id + "/pause", "/sessions/" + id + "/replay"} {
		method := "POST"
		if strings.HasSuffix(path, "/replay") {
			method = "GET"
		}
		if r := off.do(method, path, nil, ""); r.Status != 401 || r.code(t) != "unauthorized" {
			t.Errorf("%s %s without a token, anonymous use off: %d %s", method, path, r.Status, r.Body)
		}
	}
}
