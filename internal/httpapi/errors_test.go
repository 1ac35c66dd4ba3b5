package httpapi_test

import (
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"

	"github.com/tutord/tutord/internal/agents/engine"
	"github.com/tutord/tutord/internal/agents/rules"
	"github.com/tutord/tutord/internal/auth"
	"github.com/tutord/tutord/internal/httpapi"
	"github.com/tutord/tutord/internal/lessons"
	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/llm/llmtest"
	"github.com/tutord/tutord/internal/orchestrator"
)

// TestStaleStateFromAnotherReplica: each route that writes a session
// answers 409 stale_state when another replica on the same database
// changes the session between this replica's read and its write. Nothing
// of the refused request is saved, and the same request sent again runs on
// the state the other replica left.
//
// No route reloads and retries by itself, so each can answer 409: a turn's
// reply was written for the state it read, and a lifecycle action may no
// longer be what the learner meant once the session changed under it (a
// resume after another tab's turn already resumed it). The client decides.
func TestStaleStateFromAnotherReplica(t *testing.T) {
	s := newServer(t) // replica B, whose write wins
	step := map[string]any{"student_reply": "ready"}
	tests := []struct {
		name, mode, route string
		body              any
		before            string // a route B runs first, to set the session up
		// The same request sent again after the conflict.
		retryStatus int
		retryCode   string
	}{
		{name: "step", mode: "teach_me", route: "step", body: step, retryStatus: 200},
		{name: "pause", mode: "teach_me", route: "pause", retryStatus: 200},
		// B's turn on the paused session resumed it: nothing left to resume.
		{name: "resume", mode: "teach_me", route: "resume", before: "pause", retryStatus: 400, retryCode: "not_paused"},
		{name: "end-clarify", mode: "clarify_doubts", route: "end-clarify", retryStatus: 200},
		{name: "end-exam", mode: "exam", route: "end-exam", retryStatus: 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := s.in(t)
			id := b.newSession(fractions, tt.mode, "")
			if tt.before != "" {
				if r := b.do("POST", "/sessions/"+id+"/"+tt.before, nil, ""); r.Status != 200 {
					t.Fatalf("%s on replica B: %d %s", tt.before, r.Status, r.Body)
				}
			}
			a, reached := b.heldReplica(t)
			path := "/sessions/" + id + "/" + tt.route
			done := a.start("POST", path, tt.body)
			select {
			case <-reached:
			case p := <-done:
				t.Fatalf("replica A answered before writing: %d %s (%v)", a.finish(p).Status, p.body, p.err)
			}
			if r := b.do("POST", "/sessions/"+id+"/step", map[string]any{"student_reply": "from the other tab"}, ""); r.Status != 200 {
				t.Fatalf("step on replica B: %d %s", r.Status, r.Body)
			}
			a.release()

			r := a.finish(<-done)
			if r.Status != 409 || r.code(t) != "stale_state" || !strings.HasPrefix(r.JSON(t)["detail"].(string), "Session "+id+" was modified concurrently") {
				t.Fatalf("replica A: %d %s; want 409 stale_state", r.Status, r.Body)
			}
			// The stored session is B's: its one turn, not paused.
			doc := b.do("GET", "/sessions/"+id, nil, "").JSON(t)
			if doc["turn_count"] != float64(1) || doc["is_paused"] != false || len(doc["full_conversation_log"].([]any)) != 3 {
				t.Fatalf("after the conflict: turn_count %v, is_paused %v, %d messages; want replica B's turn alone",
					doc["turn_count"], doc["is_paused"], len(doc["full_conversation_log"].([]any)))
			}
			r = a.do("POST", path, tt.body, "")
			if r.Status != tt.retryStatus || (tt.retryCode != "" && r.code(t) != tt.retryCode) {
				t.Fatalf("the request again on replica A: %d %s; want %d %s", r.Status, r.Body, tt.retryStatus, tt.retryCode)
			}
		})
	}
}

// TestAnotherSessionPaused: a learner keeps at most one paused session per
// subtopic; pausing a second one is 409 another_session_paused and leaves
// it running. Other subtopics, other learners and anonymous sessions are
// not counted.
func TestAnotherSessionPaused(t *testing.T) {
	s := newServer(t)
	const integers = "mathematics/integers/adding-and-subtracting-integers"
	alice, bob := token(t, "alice", false), token(t, "bob", false)
	first, second := s.newSession(fractions, "", alice), s.newSession(fractions, "", alice)
	otherTopic := s.newSession(integers, "", alice)
	bobs := s.newSession(fractions, "", bob)
	anon1, anon2 := s.newSession(fractions, "", ""), s.newSession(fractions, "", "")
	for _, tt := range []struct {
		name, route, id, tok string
		status               int
		code                 string
	}{
		{"pause the first", "pause", first, alice, 200, ""},
		{"pause a second on the subtopic", "pause", second, alice, 409, "another_session_paused"},
		{"pause the first again", "pause", first, alice, 200, ""},
		{"another subtopic", "pause", otherTopic, alice, 200, ""},
		{"another learner", "pause", bobs, bob, 200, ""},
		{"anonymous", "pause", anon1, "", 200, ""},
		{"another anonymous", "pause", anon2, "", 200, ""},
		{"resume the first", "resume", first, alice, 200, ""},
		{"then the second may pause", "pause", second, alice, 200, ""},
		{"and the first may not", "pause", first, alice, 409, "another_session_paused"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := s.in(t).do("POST", "/sessions/"+tt.id+"/"+tt.route, nil, tt.tok)
			if r.Status != tt.status || (tt.code != "" && r.code(t) != tt.code) {
				t.Fatalf("%d %s; want %d %s", r.Status, r.Body, tt.status, tt.code)
			}
			if tt.status == 409 {
				if doc := s.in(t).do("GET", "/sessions/"+tt.id, nil, tt.tok).JSON(t); doc["is_paused"] != false {
					t.Fatal("the refused pause paused the session")
				}
			}
		})
	}
}

// TestExamGenerationUnavailable: when the exam generator's model fails
// (after its retries, for 7 questions and then for 3), POST /sessions in
// exam mode is 503 exam_generation_unavailable with the reference's
// detail object, and no session is stored.
func TestExamGenerationUnavailable(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	s := newServer(t, withModels(t, fake.URL, quickRetries, llm.ComponentExamGenerator))
	tok := token(t, "examinee", false)
	fail := llmtest.Reply{Fail: llmtest.ServerError}
	fake.Push(fail, fail, fail, fail) // 7 questions, then 3; two attempts each

	r := s.do("POST", "/sessions", createBody(s.subject[fractions], "exam"), tok)
	if r.Status != 503 || r.code(t) != "exam_generation_unavailable" {
		t.Fatalf("exam with a failing generator: %d %s; want 503 exam_generation_unavailable", r.Status, r.Body)
	}
	detail, _ := r.JSON(t)["detail"].(map[string]any)
	if detail["type"] != "ExamGenerationError" || detail["message"] != "Exam generation is temporarily unavailable. Please try again." {
		t.Fatalf("detail %v; want the reference's ExamGenerationError object", r.JSON(t)["detail"])
	}
	if n, left := len(fake.Requests()), fake.Pending(); n != 4 || left != 0 {
		t.Fatalf("%d model requests, %d scripted replies unused; want 4 and 0", n, left)
	}
	if m := s.do("GET", "/sessions", nil, tok).JSON(t); m["total"] != float64(0) {
		t.Fatalf("a session was stored: %v", m)
	}
	// The other modes do not need the generator.
	s.newSession(fractions, "teach_me", tok)
}

// TestAnonymousOffSessionReads: with anonymous use turned off, reading a
// session or opening its WebSocket without a token is 401, whether or not
// the session exists; its learner's token opens it.
func TestAnonymousOffSessionReads(t *testing.T) {
	s := newServer(t, func(o *httpapi.Options, _ *httpapi.Deps) { o.AllowAnonymous = false })
	tok := token(t, "reader", false)
	id := s.newSession(fractions, "", tok)
	for _, tt := range []struct {
		name, id, route string // route "ws" is the WebSocket upgrade
		owned           bool
	}{
		{"document", id, "", true},
		{"replay", id, "/replay", true},
		{"summary", id, "/summary", true},
		{"websocket", id, "ws", true},
		{"unknown session", uuid.NewString(), "", false},
		{"unknown session's websocket", uuid.NewString(), "ws", false},
		{"malformed id", "not-a-session-id", "", false},
		{"malformed id's summary", "not-a-session-id", "/summary", false},
		{"malformed id's websocket", "not-a-session-id", "ws", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := s.in(t)
			if tt.route == "ws" {
				r := s.refusedUpgrade(t, tt.id, "")
				if r.Status != 401 || r.code(t) != "unauthorized" || r.JSON(t)["detail"] != "Not authenticated" {
					t.Fatalf("upgrade without a token: %d %s; want 401 unauthorized", r.Status, r.Body)
				}
				if tt.owned {
					if _, _, err := s.dial(t, tt.id, tok); err != nil {
						t.Fatalf("upgrade with the owner's token: %v", err)
					}
				}
				return
			}
			path := "/sessions/" + tt.id + tt.route
			if r := s.do("GET", path, nil, ""); r.Status != 401 || r.code(t) != "unauthorized" || r.JSON(t)["detail"] != "Not authenticated" {
				t.Fatalf("GET %s without a token: %d %s; want 401 unauthorized", path, r.Status, r.Body)
			}
			if tt.owned {
				if r := s.do("GET", path, nil, tok); r.Status != 200 {
					t.Fatalf("GET %s with the owner's token: %d %s", path, r.Status, r.Body)
				}
			}
		})
	}
}

// Where anonymous sessions are off, a lifecycle call without a token is
// refused as unauthenticated before its session is looked for, whatever
// the spelling of its id.
func TestAnonymousOffLifecycleBeforeLookup(t *testing.T) {
	s := newServer(t, func(o *httpapi.Options, _ *httpapi.Deps) { o.AllowAnonymous = false })
	for _, id := range []string{uuid.NewString(), "not-a-session-id"} {
		for _, action := range []string{"pause", "resume", "end-clarify", "end-exam"} {
			r := s.do("POST", "/sessions/"+id+"/"+action, nil, "")
			if r.Status != 401 || r.JSON(t)["detail"] != "Not authenticated" {
				t.Errorf("POST /sessions/%s/%s without a token: %d %s; want 401 Not authenticated", id, action, r.Status, r.Body)
			}
		}
	}
}

// TestPublicRoutesIgnoreTokens: the routes the contract declares without
// security (as the reference serves them) ignore the Authorization header.
// The frontend sends its token with every call; an expired one, or an
// identity provider that cannot be reached, must not break curriculum
// browsing or phone sign-up. The same tokens are refused on a route that
// takes them.
func TestPublicRoutesIgnoreTokens(t *testing.T) {
	s := newServer(t)
	keysDown := newServer(t, func(_ *httpapi.Options, d *httpapi.Deps) { d.Auth = keysDownAuth(t) })

	expired, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"sub": "x", "token_use": "access", "client_id": "tutord-test",
		"exp": time.Now().Add(-time.Hour).Unix()}).SignedString([]byte(testSecret))
	if err != nil {
		t.Fatal(err)
	}
	signed := rsaToken(t, "access")

	tokens := []struct {
		name  string
		s     *apiServer
		tok   string
		other int // the status of a route that takes tokens
	}{
		{"garbage", s, "abc.def.ghi", 401},
		{"expired", s, expired, 401},
		{"keys unreachable", keysDown, signed, 503},
	}
	routes := []struct {
		method, path string
		body         any
		want         string
	}{
		{"GET", "/curriculum?country=India&board=CBSE&grade=7", nil, `"Mathematics"`},
		{"GET", "/config/models", nil, `"tutor"`},
		{"POST", "/auth/phone/provision", map[string]any{"phone": "+919999999999"}, `"ok"`},
	}
	for _, tk := range tokens {
		t.Run(tk.name, func(t *testing.T) {
			s := tk.s.in(t)
			for _, rt := range routes {
				if r := s.do(rt.method, rt.path, rt.body, tk.tok); r.Status != 200 || !strings.Contains(string(r.Body), rt.want) {
					t.Errorf("%s %s: %d %s; want 200 with %s", rt.method, rt.path, r.Status, truncate(r.Body, 300), rt.want)
				}
			}
			if r := s.do("GET", "/sessions/history", nil, tk.tok); r.Status != tk.other {
				t.Errorf("GET /sessions/history with the same token: %d %s; want %d", r.Status, r.Body, tk.other)
			}
		})
	}
}

// in returns s reporting to t, for subtests (FailNow belongs to the
// goroutine of the test that calls it).
func (s *apiServer) in(t testing.TB) *apiServer {
	c := *s
	c.t = t
	return &c
}

// heldReplica is replica A: another API server over s's database with its
// own orchestrator, whose first write waits. reached is closed when that
// write is about to be made; release (idempotent, also run at cleanup) lets
// it go on.
type heldReplica struct {
	*apiServer
	release func()
}

func (s *apiServer) heldReplica(t *testing.T) (*heldReplica, <-chan struct{}) {
	t.Helper()
	reached, release := make(chan struct{}), make(chan struct{})
	set, err := rules.New()
	if err != nil {
		t.Fatal(err)
	}
	held := &holdingStore{Store: s.st, reached: reached, release: release}
	o := orchestrator.New(orchestrator.Options{Store: held, Lessons: lessons.NewSource(s.st), Engines: engine.New(set, nil, s.st), FallbackSafety: set.Safety})
	a := &heldReplica{apiServer: newServerWith(t, s, o), release: sync.OnceFunc(func() { close(release) })}
	t.Cleanup(a.release) // before the server's Close, which waits for the held request
	return a, reached
}

// pending is a request sent from another goroutine, which may not fail
// the test: finish checks it.
type pending struct {
	req     *http.Request
	reqBody []byte
	resp    *http.Response
	body    []byte
	err     error
}

// start sends a request on another goroutine; its answer arrives on the
// channel.
func (s *apiServer) start(method, path string, body any) <-chan pending {
	s.t.Helper()
	var raw []byte
	if body != nil {
		var err error
		if raw, err = json.Marshal(body); err != nil {
			s.t.Fatal(err)
		}
	}
	req, err := http.NewRequest(method, s.URL+path, bytes.NewReader(raw))
	if err != nil {
		s.t.Fatal(err)
	}
	if raw != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	done := make(chan pending, 1)
	go func() {
		p := pending{req: req, reqBody: raw}
		if p.resp, p.err = http.DefaultClient.Do(req); p.err == nil {
			p.body, p.err = io.ReadAll(p.resp.Body)
			p.resp.Body.Close()
		}
		done <- p
	}()
	return done
}

// finish checks a pending request's answer against the contract, as do
// does.
func (s *apiServer) finish(p pending) response {
	s.t.Helper()
	if p.err != nil {
		s.t.Fatal(p.err)
	}
	s.checkContract(p.req, p.reqBody, p.resp, p.body)
	return response{Status: p.resp.StatusCode, Header: p.resp.Header, Body: p.body}
}

// refusedUpgrade opens session id's WebSocket, expecting a refusal, and
// returns the refusal checked against the contract.
func (s *apiServer) refusedUpgrade(t *testing.T, id, tok string) response {
	t.Helper()
	_, resp, err := s.dial(t, id, tok)
	if err == nil {
		t.Fatal("the upgrade was accepted")
	}
	if resp == nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body) // the first 1024 bytes: enough for the error body
	if err != nil {
		t.Fatal(err)
	}
	s.checkContract(resp.Request, nil, resp, body)
	return response{Status: resp.StatusCode, Header: resp.Header, Body: body}
}

// keysDownAuth verifies tokens with the keys of a JWKS endpoint that
// answers 503 "down for maintenance".
func keysDownAuth(t *testing.T) httpapi.Authenticator {
	t.Helper()
	jwks := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
	}))
	t.Cleanup(jwks.Close)
	v, err := auth.NewVerifier(auth.Config{JWKSURL: jwks.URL, Audience: "tutord-test"})
	if err != nil {
		t.Fatal(err)
	}
	return httpapi.NewAuthenticator(v)
}

// rsaKey is the private key of rsaToken, which no JWKS endpoint of the
// tests publishes.
var rsaKey = sync.OnceValues(func() (*rsa.PrivateKey, error) { return rsa.GenerateKey(rand.Reader, 2048) })

// rsaToken returns a valid-looking token of use ("access" or "id") signed
// with rsaKey (kid key-1), which only the keys of a JWKS endpoint could
// verify.
func rsaToken(t *testing.T, use string) string {
	t.Helper()
	key, err := rsaKey()
	if err != nil {
		t.Fatal(err)
	}
	tok := jwt.NewWithClaims(jwt.SigningMethodRS256, jwt.MapClaims{"sub": "x", "token_use": use, "client_id": "tutord-test",
		"aud": "tutord-test", "exp": time.Now().Add(time.Hour).Unix()})
	tok.Header["kid"] = "key-1"
	signed, err := tok.SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return signed
}
