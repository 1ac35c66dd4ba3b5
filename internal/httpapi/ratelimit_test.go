package httpapi_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/google/uuid"

	"github.com/tutord/tutord/internal/httpapi"
	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/llm/llmtest"
	"github.com/tutord/tutord/internal/orchestrator"
)

// turnLimit sets a turn budget of burst turns and no refill to speak of.
func turnLimit(burst int, trusted ...string) serverOption {
	return func(o *httpapi.Options, _ *httpapi.Deps) {
		o.TurnRate = httpapi.RateLimit{Rate: 0.001, Burst: burst}
		for _, p := range trusted {
			o.TrustedProxies = append(o.TrustedProxies, netip.MustParsePrefix(p))
		}
	}
}

func (s *apiServer) step(id, tok string, headers ...string) response {
	s.t.Helper()
	return s.do("POST", "/sessions/"+id+"/step", map[string]any{"student_reply": "ok"}, tok, headers...)
}

// wsLimited reports whether a chat on a fresh connection is refused by the
// rate limit, and fails the test on any other answer.
func (s *apiServer) wsLimited(t *testing.T, id, tok string) bool {
	t.Helper()
	w := s.joined(t, id, tok)
	w.send(map[string]any{"type": "chat", "payload": map[string]any{"message": "ready"}})
	switch f := w.read(); f.Type {
	case "error":
		if !strings.Contains(*f.Payload.Error, "Too many") {
			t.Fatalf("error %q, want the rate limit's", *f.Payload.Error)
		}
		if f := w.read(); f.Type != "state_update" {
			t.Fatalf("after the error: %s, want state_update", f.Type)
		}
		return true
	case "typing":
		if f := w.read(); f.Type != "assistant" {
			t.Fatalf("chat: %s, want assistant", f.Type)
		}
		w.read()
		return false
	default:
		t.Fatalf("chat: %s", f.Type)
		return false
	}
}

// TestRateLimitSharedByRESTAndWebSocket: a learner's REST steps and
// WebSocket chats take turns from one bucket, whichever session they are
// on.
func TestRateLimitSharedByRESTAndWebSocket(t *testing.T) {
	s := newServer(t, turnLimit(2))
	alice := token(t, "alice", false)
	first, second := s.newSession(fractions, "", alice), s.newSession(fractions, "", alice)
	for range 2 {
		if r := s.step(first, alice); r.Status != 200 {
			t.Fatalf("step: %d %s", r.Status, r.Body)
		}
	}
	r := s.step(first, alice)
	if r.Status != http.StatusTooManyRequests || r.code(t) != "rate_limited" || r.Header.Get("Retry-After") == "" {
		t.Fatalf("third step: %d %s (Retry-After %q)", r.Status, r.Body, r.Header.Get("Retry-After"))
	}
	// Over WebSocket, on another of her sessions: limited too.
	if !s.wsLimited(t, second, alice) {
		t.Fatal("a WebSocket chat escaped the learner's spent REST limit")
	}

	// The other way round: turns over WebSocket spend the REST budget.
	bob := token(t, "bob", false)
	mine := s.newSession(fractions, "", bob)
	for range 2 {
		if s.wsLimited(t, mine, bob) {
			t.Fatal("bob limited before his budget was spent")
		}
	}
	if r := s.step(s.newSession(fractions, "", bob), bob); r.Status != http.StatusTooManyRequests {
		t.Fatalf("REST step after two WebSocket turns: %d, want 429", r.Status)
	}
}

// TestRateLimitIgnoresForwardedHeaders: without trusted proxies, an
// anonymous client cannot get a fresh bucket by naming another address in
// X-Forwarded-For or X-Real-IP, over REST or WebSocket.
func TestRateLimitIgnoresForwardedHeaders(t *testing.T) {
	s := newServer(t, turnLimit(1))
	id := s.newSession(fractions, "", "")
	if r := s.step(id, ""); r.Status != 200 {
		t.Fatalf("step: %d %s", r.Status, r.Body)
	}
	for _, h := range [][]string{
		{"X-Forwarded-For", "203.0.113.7"},
		{"X-Real-IP", "203.0.113.8"},
		{"X-Forwarded-For", "203.0.113.9", "X-Real-IP", "203.0.113.9"},
	} {
		if r := s.step(id, "", h...); r.Status != http.StatusTooManyRequests {
			t.Fatalf("step with %v: %d, want 429", h, r.Status)
		}
	}
	if !s.wsLimited(t, id, "") {
		t.Fatal("an anonymous WebSocket chat escaped the address's spent REST limit")
	}
}

// TestRateLimitTrustedProxy: behind a trusted proxy, X-Forwarded-For names
// the client, read from the right up to the first untrusted address.
func TestRateLimitTrustedProxy(t *testing.T) {
	s := newServer(t, turnLimit(1, "127.0.0.0/8"))
	id := s.newSession(fractions, "", "")
	tests := []struct {
		xff    string
		status int
	}{
		{"203.0.113.7", 200},
		{"203.0.113.7", 429},
		{"203.0.113.8", 200},               // another client behind the proxy
		{"198.51.100.1, 203.0.113.8", 429}, // what the client wrote itself counts for nothing
		{"", 200},                          // the proxy itself
	}
	for _, tt := range tests {
		var h []string
		if tt.xff != "" {
			h = []string{"X-Forwarded-For", tt.xff}
		}
		if r := s.step(id, "", h...); r.Status != tt.status {
			t.Fatalf("X-Forwarded-For %q: %d, want %d", tt.xff, r.Status, tt.status)
		}
	}
}

// TestRateLimitIPv6Prefix: IPv6 clients are counted by /64, since a host
// can take any address of its /64.
func TestRateLimitIPv6Prefix(t *testing.T) {
	s := newServer(t, turnLimit(1, "127.0.0.0/8"))
	id := s.newSession(fractions, "", "")
	for _, tt := range []struct {
		xff    string
		status int
	}{
		{"2001:db8:1:2::1", 200},
		{"2001:db8:1:2::ffff", 429},               // same /64
		{"2001:db8:1:2:aaaa:bbbb:cccc:dddd", 429}, // same /64
		{"2001:db8:1:3::1", 200},                  // another /64
		{"::ffff:203.0.113.9", 200},               // IPv4 in IPv6 is the IPv4 address
		{"203.0.113.9", 429},
	} {
		if r := s.step(id, "", "X-Forwarded-For", tt.xff); r.Status != tt.status {
			t.Fatalf("X-Forwarded-For %q: %d, want %d", tt.xff, r.Status, tt.status)
		}
	}
}

// TestRateLimitForwardedForWithPort: behind a trusted proxy that writes
// the client's port into X-Forwarded-For (Azure Application Gateway writes
// "203.0.113.7:51000", "[2001:db8::1]:443"), each anonymous learner is
// still limited on their own address, for turns and for WebSockets held.
// Counted as the proxy, every learner behind it shared one bucket: once
// one of them had used the turn budget, all the others got 429.
func TestRateLimitForwardedForWithPort(t *testing.T) {
	s := newServer(t, turnLimit(1, "127.0.0.0/8"), func(o *httpapi.Options, _ *httpapi.Deps) { o.WSPerCaller = 1 })
	id := s.newSession(fractions, "", "")
	for _, tt := range []struct {
		xff    string
		status int
	}{
		{"203.0.113.7:51000", 200},
		{"203.0.113.7:51002", 429}, // the same client from another port
		{"203.0.113.7", 429},
		{"198.51.100.9:51001", 200}, // another client behind the proxy
		{"[2001:db8:5::1]:443", 200},
		{"[2001:db8:5::2]:443", 429}, // the same /64
		{"198.51.100.1, 203.0.113.8:51000", 200},
		{"198.51.100.2, 203.0.113.8:51003", 429}, // what the client wrote itself counts for nothing
	} {
		if r := s.step(id, "", "X-Forwarded-For", tt.xff); r.Status != tt.status {
			t.Fatalf("X-Forwarded-For %q: %d %s, want %d", tt.xff, r.Status, r.Body, tt.status)
		}
	}
	// WebSockets held count per client address too.
	wsFrom := func(xff string) (*http.Response, error) {
		h := http.Header{}
		h.Set("X-Forwarded-For", xff)
		_, resp, err := s.dial(t, id, "", h)
		return resp, err
	}
	if _, err := wsFrom("203.0.113.20:40000"); err != nil {
		t.Fatalf("a client's first WebSocket: %v", err)
	}
	if resp, err := wsFrom("203.0.113.20:40001"); err == nil || resp == nil || resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("the same client's second WebSocket, from another port: %v, want 429", err)
	}
	if _, err := wsFrom("203.0.113.21:40000"); err != nil {
		t.Fatalf("another client's WebSocket: %v, want it accepted", err)
	}
}

// TestWebSocketConnectionLimits: a session and a caller hold a bounded
// number of WebSockets; one more is refused with 429 before the upgrade,
// the open ones keep working, and closing one frees its place.
func TestWebSocketConnectionLimits(t *testing.T) {
	s := newServer(t, func(o *httpapi.Options, _ *httpapi.Deps) { o.WSPerSession, o.WSPerCaller = 2, 3 })
	alice := token(t, "alice", false)
	first, second := s.newSession(fractions, "", alice), s.newSession(fractions, "", alice)

	a1, a2 := s.joined(t, first, alice), s.joined(t, first, alice)
	r := s.refusedUpgrade(t, first, alice)
	if r.Status != http.StatusTooManyRequests || r.code(t) != "too_many_connections" {
		t.Fatalf("third WebSocket on a session: %d %s", r.Status, r.Body)
	}

	s.joined(t, second, alice) // her third: within her limit
	r = s.refusedUpgrade(t, second, alice)
	if r.Status != http.StatusTooManyRequests || r.code(t) != "too_many_connections" {
		t.Fatalf("fourth WebSocket of a learner: %d %s", r.Status, r.Body)
	}
	// Another learner is not limited by alice's connections.
	bob := token(t, "bob", false)
	s.joined(t, s.newSession(fractions, "", bob), bob)

	// The refusals changed nothing for the open connections.
	a2.send(map[string]any{"type": "get_state"})
	if f := a2.read(); f.Type != "state_update" {
		t.Fatalf("get_state after a refusal: %s", f.Type)
	}

	// Closing one frees its place (once the server has seen the close).
	a1.c.Close(websocket.StatusNormalClosure, "")
	deadline := time.Now().Add(5 * time.Second)
	for {
		w, resp, err := s.dial(t, second, alice)
		if err == nil {
			w.read() // the state
			break
		}
		if resp == nil || resp.StatusCode != http.StatusTooManyRequests || time.Now().After(deadline) {
			t.Fatalf("WebSocket after closing one: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A chat resent after a reconnect with the client_turn_id of a committed
// turn gets that turn's reply even when the caller is over its rate: it
// runs nothing, and refusing it left the learner without the reply.
func TestWebSocketRetryIsNotRateLimited(t *testing.T) {
	s := newServer(t, turnLimit(1))
	id := s.newSession(fractions, "", "")
	w := s.joined(t, id, "")
	first, errMsg, _ := w.turn(map[string]any{"message": "ready", "client_turn_id": "c-42"})
	if first == "" || errMsg != "" {
		t.Fatalf("first turn: %q %q", first, errMsg)
	}
	// The connection drops; the client reconnects and resends.
	w.c.Close(websocket.StatusNormalClosure, "")
	w2 := s.joined(t, id, "")
	w2.send(map[string]any{"type": "chat", "payload": map[string]any{"message": "ready", "client_turn_id": "c-42"}})
	f := w2.read()
	if f.Type == "error" {
		t.Fatalf("retry with the same client_turn_id refused: %q; want the first reply %q", *f.Payload.Error, first)
	}
	if f.Type != "typing" {
		t.Fatalf("first frame %s, want typing", f.Type)
	}
	if f := w2.read(); f.Type != "assistant" || *f.Payload.Message != first {
		t.Fatalf("retry: %s %q, want assistant %q", f.Type, deref(f.Payload.Message), first)
	}
}

// The same over REST: a step retried with a committed Idempotency-Key gets
// the first response, not 429, and without the refusal's Retry-After
// (which told clients of the 200 to hold back).
func TestStepRetryIsNotRateLimited(t *testing.T) {
	s := newServer(t, turnLimit(1))
	id := s.newSession(fractions, "", "")
	first := s.step(id, "", "Idempotency-Key", "k-1")
	if first.Status != http.StatusOK {
		t.Fatalf("first step: %d %s", first.Status, first.Body)
	}
	again := s.step(id, "", "Idempotency-Key", "k-1")
	if again.Status != http.StatusOK || string(again.Body) != string(first.Body) {
		t.Fatalf("retry with the same Idempotency-Key: %d %s (Retry-After %q); want 200 with the first body",
			again.Status, truncate(again.Body, 300), again.Header.Get("Retry-After"))
	}
	if ra := again.Header.Get("Retry-After"); ra != "" {
		t.Errorf("the replayed 200 carries Retry-After %q; want none", ra)
	}
	// A request that is refused still says when to come back.
	if r := s.step(id, "", "Idempotency-Key", "k-2"); r.Status != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" {
		t.Errorf("a new turn over the rate: %d, Retry-After %q; want 429 with Retry-After", r.Status, r.Header.Get("Retry-After"))
	}
}

// A retry answered with its stored result costs no turn: a client that
// resends a committed step (its connection dropped before the response)
// still has the turn it did not use for its next message.
func TestStepRetryKeepsItsToken(t *testing.T) {
	s := newServer(t, turnLimit(2))
	id := s.newSession(fractions, "", "")
	first := s.step(id, "", "Idempotency-Key", "k-1")
	if first.Status != http.StatusOK {
		t.Fatalf("first step: %d %s", first.Status, first.Body)
	}
	if again := s.step(id, "", "Idempotency-Key", "k-1"); again.Status != http.StatusOK || string(again.Body) != string(first.Body) {
		t.Fatalf("retry: %d %s; want 200 with the first body", again.Status, truncate(again.Body, 300))
	}
	if next := s.step(id, "", "Idempotency-Key", "k-2"); next.Status != http.StatusOK {
		t.Fatalf("the second of two allowed turns, after a retry of the first: %d %s; want 200", next.Status, truncate(next.Body, 300))
	}
	if r := s.step(id, "", "Idempotency-Key", "k-3"); r.Status != http.StatusTooManyRequests {
		t.Fatalf("a third turn over a limit of two: %d; want 429", r.Status)
	}
}

// The same over WebSocket: a chat resent with the client_turn_id of a
// committed turn, while the caller has turns left, does not spend one.
func TestWebSocketRetryKeepsItsToken(t *testing.T) {
	s := newServer(t, turnLimit(2))
	id := s.newSession(fractions, "", "")
	w := s.joined(t, id, "")
	first, errMsg, _ := w.turn(map[string]any{"message": "ready", "client_turn_id": "c-1"})
	if first == "" || errMsg != "" {
		t.Fatalf("first turn: %q %q", first, errMsg)
	}
	if again, errMsg, _ := w.turn(map[string]any{"message": "ready", "client_turn_id": "c-1"}); again != first || errMsg != "" {
		t.Fatalf("retry: %q %q; want the first reply %q", again, errMsg, first)
	}
	if next, errMsg, _ := w.turn(map[string]any{"message": "ok", "client_turn_id": "c-2"}); next == "" || errMsg != "" {
		t.Fatalf("the second of two allowed turns, after a retry of the first: %q %q", next, errMsg)
	}
}

// gatedModel serves the fake model server's requests, holding the first
// until release is closed (held is closed when it arrives).
func gatedModel(t *testing.T, fake *llmtest.Server) (url string, held, release chan struct{}) {
	held, release = make(chan struct{}), make(chan struct{})
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		first := false
		once.Do(func() { first = true })
		if first {
			close(held)
			<-release
		}
		fake.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1", held, release
}

// turnCalls reports each ProcessTurn call's client turn id as it starts.
type turnCalls struct {
	httpapi.Sessions
	calls chan string
}

func (c *turnCalls) ProcessTurn(ctx context.Context, id uuid.UUID, message, clientTurnID string) (orchestrator.TurnResult, error) {
	c.calls <- clientTurnID
	return c.Sessions.ProcessTurn(ctx, id, message, clientTurnID)
}

// A client whose step is still being answered (a model call takes a
// while), and who sends it again with the same Idempotency-Key after a
// dropped connection, gets the first attempt's response, not 429, though
// the first attempt took its last turn: the retry runs nothing new.
func TestStepRetryWhileRunningIsNotRateLimited(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	fake.Push(llmtest.Reply{Text: `{"response":"Let's keep going: what would you try first?","intent":"continuation","answer_correct":null,` +
		`"misconceptions_detected":[],"mastery_signal":null,"advance_to_step":null,"mastery_updates":[],"question_asked":null,` +
		`"expected_answer":null,"question_concept":null,"session_complete":false,"turn_summary":"kept going","reasoning":"r"}`})
	url, held, release := gatedModel(t, fake)
	calls := &turnCalls{calls: make(chan string, 4)}
	s := newServer(t, turnLimit(1), withModels(t, url, quickRetries, llm.ComponentTutor),
		func(_ *httpapi.Options, d *httpapi.Deps) { calls.Sessions = d.Sessions; d.Sessions = calls })
	id := s.newSession(fractions, "teach_me", "")

	firstc := make(chan response, 1)
	go func() { firstc <- s.step(id, "", "Idempotency-Key", "k-1") }()
	<-held // the first attempt is at its model call
	<-calls.calls
	againc := make(chan response, 1)
	go func() { againc <- s.step(id, "", "Idempotency-Key", "k-1") }()
	select {
	case <-calls.calls: // admitted: it waits for the first attempt
	case r := <-againc:
		close(release)
		t.Fatalf("retry while the first attempt runs: %d %s; want the first attempt's response", r.Status, truncate(r.Body, 300))
	}
	close(release)
	first, again := <-firstc, <-againc
	if first.Status != http.StatusOK || again.Status != http.StatusOK || string(again.Body) != string(first.Body) ||
		!strings.Contains(string(first.Body), "keep going") {
		t.Fatalf("first %d %s, retry %d %s; want two identical 200s with the model's reply", first.Status, truncate(first.Body, 200), again.Status, truncate(again.Body, 200))
	}
	if r := s.step(id, "", "Idempotency-Key", "k-2"); r.Status != http.StatusTooManyRequests {
		t.Fatalf("a new turn over the limit: %d; want 429", r.Status)
	}
}
