package httpapi_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tutord/tutord/internal/agents/engine"
	"github.com/tutord/tutord/internal/agents/rules"
	"github.com/tutord/tutord/internal/auth"
	"github.com/tutord/tutord/internal/httpapi"
	"github.com/tutord/tutord/internal/lessons"
	"github.com/tutord/tutord/internal/orchestrator"
)

// anotherReplica is a second tutord process on s's database, with
// authentication: its own orchestrator, learner cache and WebSocket hub.
func anotherReplica(t *testing.T, s *apiServer) *apiServer {
	t.Helper()
	set, err := rules.New()
	if err != nil {
		t.Fatal(err)
	}
	o := orchestrator.New(orchestrator.Options{Store: s.st, Lessons: lessons.NewSource(s.st), Engines: engine.New(set, nil, s.st), FallbackSafety: set.Safety})
	v, err := auth.NewVerifier(auth.Config{Secret: testSecret, Audience: "tutord-test", Admin: auth.AdminRule{Claim: "role", Value: "admin"}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httpapi.New(httpapi.Deps{DB: s.st, Curriculum: s.st, Sessions: o, Learners: s.st, Profiles: s.st, Progress: s.st,
		AgentLogs: s.st, LLMConfig: s.st, Auth: httpapi.NewAuthenticator(v)},
		httpapi.Options{AllowAnonymous: true, CORSOrigins: []string{"*"}})
	return &apiServer{t: t, URL: newHTTPServer(t, srv), st: s.st, o: o, srv: srv, router: s.router, subject: s.subject}
}

// TestProfileAfterDeletionOnAnotherReplica: a learner deleted through one
// replica while another still has them cached (for a minute) gets 401
// learner_deleted from the profile routes there, as from POST /sessions,
// not a server error.
func TestProfileAfterDeletionOnAnotherReplica(t *testing.T) {
	a := newServer(t)
	b := anotherReplica(t, a)
	for i, rq := range []struct {
		method, path string
		body         any
	}{
		{"GET", "/profile", nil},
		{"PUT", "/profile", map[string]any{"about_me": "I like cricket"}},
		{"GET", "/profile/export", nil},
	} {
		// B caches the learner.
		sub := fmt.Sprintf("deleted-elsewhere-%d", i)
		tok := token(t, sub, false)
		if r := b.do("PUT", "/profile", map[string]any{"name": "Asha", "age": 12, "grade": 7, "board": "CBSE"}, tok); r.Status != 200 {
			t.Fatalf("put profile on replica B: %d %s", r.Status, r.Body)
		}
		if r := a.do("DELETE", "/auth/admin/user?cognito_sub="+sub, nil, token(t, "root", true)); r.Status != 200 {
			t.Fatalf("delete on replica A: %d %s", r.Status, r.Body)
		}
		if r := b.do(rq.method, rq.path, rq.body, tok); r.Status != 401 || !strings.Contains(string(r.Body), "learner_deleted") {
			t.Errorf("%s %s on replica B after the learner was deleted on replica A: %d %s; want 401 learner_deleted", rq.method, rq.path, r.Status, r.Body)
		}
	}
}

// TestPreferredExamplesAreBounded: every session copies the profile's
// preferred examples into its state, and every prompt names them: a list
// over 10 examples, or an example over 100 characters, is refused.
func TestPreferredExamplesAreBounded(t *testing.T) {
	s := newServer(t)
	tok := token(t, "examples-learner", false)
	if r := s.do("PUT", "/profile", map[string]any{"preferred_examples": []string{"cricket", strings.Repeat("x", 101)}}, tok); r.Status != 422 || !strings.Contains(string(r.Body), `"preferred_examples",1`) {
		t.Errorf("PUT /profile with a 101-character example: %d %s, want 422 naming it", r.Status, r.Body)
	}
	many := make([]string, 11)
	for i := range many {
		many[i] = "football"
	}
	if r := s.do("PUT", "/profile", map[string]any{"preferred_examples": many}, tok); r.Status != 422 {
		t.Errorf("PUT /profile with 11 examples: %d %s, want 422", r.Status, r.Body)
	}
	if r := s.do("PUT", "/profile", map[string]any{"preferred_examples": many[:10]}, tok); r.Status != 200 {
		t.Errorf("PUT /profile with 10 examples: %d %s, want 200", r.Status, r.Body)
	}
}

// With two processes on one database, a learner is deleted through A
// while B has them cached; they sign up again through A, then load their
// profile through B with a token of the new sign-in. B answered 401
// learner_deleted from its cache (and the frontend sends a 401 to /login)
// until the entry expired; a sign-in after the learner was cached is now
// looked up afresh, and finds the new account.
func TestSignUpAgainAfterDeletionOnAnotherReplica(t *testing.T) {
	s := newServer(t)
	b := anotherReplica(t, s)
	old := tokenSignedIn(t, "returning", false, time.Now().Add(-time.Minute))
	if r := b.do("GET", "/profile", nil, old); r.Status != 200 { // B caches the learner
		t.Fatalf("profile before: %d %s", r.Status, r.Body)
	}
	if r := s.do("DELETE", "/auth/admin/user?cognito_sub=returning", nil, token(t, "root", true)); r.Status != 200 {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	after := time.Now().Add(2 * time.Second)
	idTok, err := auth.Mint([]byte(testSecret), auth.MintOptions{Subject: "returning", TokenUse: auth.UseID, ClientID: "tutord-test",
		TTL: time.Hour, IssuedAt: after, Email: "back@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	r := s.do("POST", "/auth/sync", nil, idTok)
	if r.Status != 200 {
		t.Fatalf("sign-up again on A: %d %s", r.Status, r.Body)
	}
	newID := r.JSON(t)["id"]
	r = b.do("GET", "/profile", nil, tokenSignedIn(t, "returning", false, after))
	if r.Status != 200 || r.JSON(t)["id"] != newID {
		t.Fatalf("profile on B right after signing up again: %d %s; want 200 with id %v", r.Status, r.Body, newID)
	}
}
