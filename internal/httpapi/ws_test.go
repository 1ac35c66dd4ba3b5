package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/tutord/tutord/internal/agents/engine"
	"github.com/tutord/tutord/internal/agents/rules"
	"github.com/tutord/tutord/internal/httpapi"
	"github.com/tutord/tutord/internal/lessons"
	"github.com/tutord/tutord/internal/orchestrator"
	"github.com/tutord/tutord/internal/store"
)

type frame struct {
	Type    string `json:"type"`
	Payload struct {
		Message *string         `json:"message"`
		State   json.RawMessage `json:"state"`
		Error   *string         `json:"error"`
	} `json:"payload"`
}

func (f frame) state(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(f.Payload.State, &m); err != nil {
		t.Fatalf("state_update without a state: %v", err)
	}
	return m
}

type wsClient struct {
	t *testing.T
	c *websocket.Conn
	s *apiServer
}

// dial opens the session's WebSocket as the reference harness does, with
// the request headers given (a browser's Origin, say).
func (s *apiServer) dial(t *testing.T, id, tok string, header ...http.Header) (*wsClient, *http.Response, error) {
	t.Helper()
	u := "ws" + strings.TrimPrefix(s.URL, "http") + "/sessions/ws/" + id
	if tok != "" {
		u += "?token=" + tok
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var opts *websocket.DialOptions
	if len(header) > 0 {
		opts = &websocket.DialOptions{HTTPHeader: header[0]}
	}
	c, resp, err := websocket.Dial(ctx, u, opts)
	if err != nil {
		return nil, resp, err
	}
	c.SetReadLimit(1 << 20)
	t.Cleanup(func() { c.CloseNow() })
	return &wsClient{t: t, c: c, s: s}, resp, nil
}

// joined opens a WebSocket on session id and reads its first frames: the
// state, and the welcome of a session without turns.
func (s *apiServer) joined(t *testing.T, id, tok string) *wsClient {
	t.Helper()
	w, _, err := s.dial(t, id, tok)
	if err != nil {
		t.Fatal(err)
	}
	if w.read().state(t)["turn_count"] == float64(0) {
		w.read() // the welcome
	}
	return w
}

// read returns the next frame, checked against the contract's ServerFrame.
func (w *wsClient) read() frame {
	w.t.Helper()
	f, err := w.readFrame()
	if err != nil {
		w.t.Fatal(err)
	}
	return f
}

// readFrame is read for goroutines other than the test's, which may not
// call t.Fatal.
func (w *wsClient) readFrame() (frame, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, data, err := w.c.Read(ctx)
	if err != nil {
		return frame{}, fmt.Errorf("read: %w", err)
	}
	return decodeServerFrame(data)
}

// decodeServerFrame decodes a server frame, checked against the
// contract's ServerFrame.
func decodeServerFrame(data []byte) (frame, error) {
	doc, err := spec()
	if err != nil {
		return frame{}, err
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return frame{}, fmt.Errorf("frame is not JSON: %s", data)
	}
	if err := doc.Components.Schemas["ServerFrame"].Value.VisitJSON(v); err != nil {
		return frame{}, fmt.Errorf("frame %s does not match ServerFrame: %v", data, firstLines(err.Error(), 6))
	}
	var f frame
	if err := json.Unmarshal(data, &f); err != nil {
		return frame{}, err
	}
	return f, nil
}

func (w *wsClient) send(v any) {
	w.t.Helper()
	b, _ := json.Marshal(v)
	w.sendRaw(b)
}

func (w *wsClient) sendRaw(b []byte) {
	w.t.Helper()
	if err := w.c.Write(context.Background(), websocket.MessageText, b); err != nil {
		w.t.Fatalf("write: %v", err)
	}
}

// chat sends a message and reads typing, then assistant or error, then
// state_update: the reference's order.
func (w *wsClient) chat(msg string) (reply, errMsg string, state map[string]any) {
	w.t.Helper()
	return w.turn(map[string]any{"message": msg})
}

// turn is chat with any payload.
func (w *wsClient) turn(payload map[string]any) (reply, errMsg string, state map[string]any) {
	w.t.Helper()
	w.send(map[string]any{"type": "chat", "payload": payload})
	if f := w.read(); f.Type != "typing" {
		w.t.Fatalf("first frame %s, want typing", f.Type)
	}
	switch f := w.read(); f.Type {
	case "assistant":
		reply = *f.Payload.Message
	case "error":
		errMsg = *f.Payload.Error
	default:
		w.t.Fatalf("second frame %s, want assistant or error", f.Type)
	}
	f := w.read()
	if f.Type != "state_update" {
		w.t.Fatalf("third frame %s, want state_update", f.Type)
	}
	return reply, errMsg, f.state(w.t)
}

func TestWebSocketLesson(t *testing.T) {
	s := newServer(t)
	id := s.newSession("mathematics/integers/adding-and-subtracting-integers", "", "")
	w, _, err := s.dial(t, id, "")
	if err != nil {
		t.Fatal(err)
	}
	if f := w.read(); f.Type != "state_update" || f.state(t)["current_step"] != float64(1) {
		t.Fatalf("first frame %+v", f)
	}
	welcome := w.read()
	if welcome.Type != "assistant" || welcome.Payload.Message == nil || *welcome.Payload.Message == "" {
		t.Fatalf("second frame %+v, want the stored welcome", welcome)
	}
	admin := token(t, "root", true)
	for i := 0; ; i++ {
		if i > 60 {
			t.Fatal("lesson not complete after 60 turns")
		}
		msg := "ok"
		doc := s.do("GET", "/sessions/"+id, nil, admin).JSON(t)
		if q, ok := doc["last_question"].(map[string]any); ok {
			msg = "it is " + q["expected_answer"].(string)
		}
		reply, errMsg, state := w.chat(msg)
		if errMsg != "" || reply == "" {
			t.Fatalf("turn %d: error %q", i, errMsg)
		}
		if state["is_complete"] == true {
			break
		}
	}
	w.send(map[string]any{"type": "get_state"})
	if f := w.read(); f.Type != "state_update" || f.state(t)["is_complete"] != true {
		t.Fatalf("get_state: %+v", f)
	}
	// Reconnecting after turns: no welcome again.
	w2, _, _ := s.dial(t, id, "")
	w2.read()
	w2.send(map[string]any{"type": "get_state"})
	if f := w2.read(); f.Type != "state_update" {
		t.Fatalf("after reconnecting, frame %s (a second welcome?)", f.Type)
	}
}

func TestWebSocketBadFrames(t *testing.T) {
	s := newServer(t)
	id := s.newSession(fractions, "", "")
	w := s.joined(t, id, "")
	for _, raw := range []string{`nope`, `[1,2]`, `"chat"`, `{"type":"dance"}`, `{"payload":{}}`, `{"type":"chat","payload":{"student_context":{"grade":"x"}}}`} {
		w.sendRaw([]byte(raw))
		f := w.read()
		if f.Type != "error" || !strings.HasPrefix(*f.Payload.Error, "Invalid message format") {
			t.Fatalf("%s: frame %+v", raw, f)
		}
	}
	// The connection still works.
	if reply, errMsg, _ := w.chat("ready"); reply == "" || errMsg != "" {
		t.Fatalf("after bad frames: %q %q", reply, errMsg)
	}
	// start_session is ignored.
	w.send(map[string]any{"type": "start_session"})
	w.send(map[string]any{"type": "get_state"})
	if f := w.read(); f.Type != "state_update" {
		t.Fatalf("start_session answered with %s", f.Type)
	}
	// A frame over 64 KiB closes the connection with 1009.
	w.sendRaw([]byte(`{"type":"chat","payload":{"message":"` + strings.Repeat("a", 70<<10) + `"}}`))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, _, err := w.c.Read(ctx)
	if websocket.CloseStatus(err) != websocket.StatusMessageTooBig {
		t.Fatalf("oversize frame: %v, want close 1009", err)
	}
}

func TestWebSocketTwoConnectionsAndBusy(t *testing.T) {
	s := newServer(t)
	id := s.newSession(fractions, "", "")
	a, _, _ := s.dial(t, id, "")
	b, _, _ := s.dial(t, id, "")
	for _, w := range []*wsClient{a, b} {
		w.read()
		w.read()
	}
	a.chat("ready")
	f := b.read()
	if f.Type != "state_update" {
		t.Fatalf("the other connection got %s, want the state_update", f.Type)
	}
	// A REST turn reaches the WebSocket too.
	s.do("POST", "/sessions/"+id+"/step", map[string]any{"student_reply": "ok"}, "")
	if f := a.read(); f.Type != "state_update" || f.state(t)["current_step"] == nil {
		t.Fatalf("after a REST turn: %+v", f)
	}
	b.read()
}

// TestWebSocketOneTurnAtATime: a second chat while a turn is in flight on
// the connection gets an error; the turn goes on.
func TestWebSocketOneTurnAtATime(t *testing.T) {
	s := newServer(t)
	id := s.newSession(fractions, "", "")
	w, release := s.heldTurn(t, id)
	w.send(map[string]any{"type": "chat", "payload": map[string]any{"message": "again"}})
	if f := w.read(); f.Type != "error" || !strings.Contains(*f.Payload.Error, "still being answered") {
		t.Fatalf("second chat: %+v", f)
	}
	close(release)
	if f := w.read(); f.Type != "assistant" {
		t.Fatalf("the first turn: %s", f.Type)
	}
	if f := w.read(); f.Type != "state_update" {
		t.Fatalf("the first turn: %s", f.Type)
	}
}

// TestWebSocketRepeatedClientTurnID: a chat that repeats a client_turn_id
// gets the first turn's reply again and processes nothing.
func TestWebSocketRepeatedClientTurnID(t *testing.T) {
	s := newServer(t)
	id := s.newSession(fractions, "", "")
	w := s.joined(t, id, "")
	first, errMsg, st := w.turn(map[string]any{"message": "ready", "client_turn_id": "turn-1"})
	if first == "" || errMsg != "" {
		t.Fatalf("first turn: %q %q", first, errMsg)
	}
	before := s.do("GET", "/sessions/"+id, nil, "").JSON(t)
	// The same message again is a retry: the first reply.
	again, errMsg, st2 := w.turn(map[string]any{"message": "ready", "client_turn_id": "turn-1"})
	if again != first || errMsg != "" {
		t.Fatalf("repeated turn: reply %q (error %q), want the first reply %q", again, errMsg, first)
	}
	if st2["turn_count"] != st["turn_count"] || st2["state_version"] != st["state_version"] {
		t.Fatalf("repeated turn: turn %v version %v, want %v %v", st2["turn_count"], st2["state_version"], st["turn_count"], st["state_version"])
	}
	// Another message with the id is refused, not answered with the first
	// message's reply.
	if reply, errMsg, _ := w.turn(map[string]any{"message": "something else entirely", "client_turn_id": "turn-1"}); reply != "" || !strings.Contains(errMsg, "already used for a different message") {
		t.Fatalf("another message with a used id: reply %q, error %q", reply, errMsg)
	}
	after := s.do("GET", "/sessions/"+id, nil, "").JSON(t)
	if after["turn_count"] != before["turn_count"] || len(after["full_conversation_log"].([]any)) != len(before["full_conversation_log"].([]any)) {
		t.Fatalf("repeated turns changed the session: turns %v → %v, log %d → %d messages", before["turn_count"], after["turn_count"],
			len(before["full_conversation_log"].([]any)), len(after["full_conversation_log"].([]any)))
	}
	// A new id is a new turn.
	if _, _, st3 := w.turn(map[string]any{"message": "ok", "client_turn_id": "turn-2"}); st3["turn_count"].(float64) != st["turn_count"].(float64)+1 {
		t.Fatalf("a new client_turn_id: turn %v, want %v", st3["turn_count"], st["turn_count"].(float64)+1)
	}
}

func TestWebSocketOwnership(t *testing.T) {
	s := newServer(t)
	alice := token(t, "alice", false)
	id := s.newSession(fractions, "", alice)
	// Without a token a learner's session is not found either: ids cannot be probed.
	if _, resp, err := s.dial(t, id, ""); err == nil || resp == nil || resp.StatusCode != 404 {
		t.Fatalf("no token: %v %v", err, resp)
	}
	if _, resp, err := s.dial(t, id, token(t, "bob", false)); err == nil || resp == nil || resp.StatusCode != 404 {
		t.Fatalf("another learner: %v %v", err, resp)
	}
	if _, resp, err := s.dial(t, id, "garbage"); err == nil || resp == nil || resp.StatusCode != 401 {
		t.Fatalf("bad token: %v %v", err, resp)
	}
	w, _, err := s.dial(t, id, alice)
	if err != nil {
		t.Fatal(err)
	}
	if f := w.read(); f.Type != "state_update" {
		t.Fatal(f.Type)
	}
}

// TestWebSocketTokenBesideOtherAuthorization: a learner's WebSocket
// carries her access token in ?token= (CONTRACT §3.1) even when the
// request also has an Authorization header of another scheme: the Basic
// credentials of a staging proxy (nginx auth_basic forwards them), or
// those a browser attaches by itself on a page behind HTTP authentication.
// Such a header is no token: it neither hides ?token= nor makes an
// anonymous session's WebSocket a 401. A Bearer header still wins over
// ?token=.
func TestWebSocketTokenBesideOtherAuthorization(t *testing.T) {
	s := newServer(t)
	alice := token(t, "alice", false)
	id := s.newSession(fractions, "", alice)
	basic := http.Header{}
	basic.Set("Authorization", "Basic c3RhZ2luZzpzdGFnaW5n")
	w, resp, err := s.dial(t, id, alice, basic)
	if err != nil {
		status := 0
		if resp != nil {
			status = resp.StatusCode
		}
		t.Fatalf("her own session with ?token= and a Basic Authorization header: %v (HTTP %d), want the upgrade accepted", err, status)
	}
	if f := w.read(); f.Type != "state_update" {
		t.Fatal(f.Type)
	}
	if _, _, err := s.dial(t, s.newSession(fractions, "", ""), "", basic); err != nil {
		t.Fatalf("an anonymous session with a Basic Authorization header: %v, want the upgrade accepted", err)
	}
	bob := http.Header{}
	bob.Set("Authorization", "Bearer "+token(t, "bob", false))
	if _, resp, err := s.dial(t, id, alice, bob); err == nil || resp == nil || resp.StatusCode != 404 {
		t.Fatalf("bob's Bearer header beside her ?token=: %v %v, want 404 (the header wins)", err, resp)
	}
	// REST takes no ?token=, and a header of another scheme is no token
	// (CONTRACT §1.2): the caller is anonymous, to whom her session is not
	// found, as without the header.
	r := s.do("GET", "/sessions/"+id+"?token="+alice, nil, "", "Authorization", "Basic c3RhZ2luZzpzdGFnaW5n")
	anon := s.do("GET", "/sessions/"+id, nil, "")
	if r.Status != http.StatusNotFound || string(r.Body) != string(anon.Body) {
		t.Fatalf("REST with ?token= and a Basic Authorization header: %d %s, want 404 as an anonymous caller gets (%d %s)", r.Status, r.Body, anon.Status, anon.Body)
	}
}

// TestWebSocketConflictFromAnotherReplica has a second server instance on
// the same database win the compare-and-swap against a WebSocket turn: the
// connection gets the reference's error, adopts the winner's state, and
// keeps working.
func TestWebSocketConflictFromAnotherReplica(t *testing.T) {
	s := newServer(t)
	id := s.newSession(fractions, "", "")
	// Replica A holds its first commit until told to go on.
	w, release := s.heldTurn(t, id)
	// Replica B (the test server) commits a turn meanwhile.
	if r := s.do("POST", "/sessions/"+id+"/step", map[string]any{"student_reply": "from the other tab"}, ""); r.Status != 200 {
		t.Fatalf("replica B: %d", r.Status)
	}
	close(release)
	f := w.read()
	if f.Type != "error" || *f.Payload.Error != "Session was updated from another tab. Your last message was not saved. Please resend." {
		t.Fatalf("frame %+v, want the conflict error", f)
	}
	if st := w.read().state(t); st["current_step"] == nil {
		t.Fatal("no state after the conflict")
	}
	if reply, errMsg, _ := w.chat("ok"); reply == "" || errMsg != "" {
		t.Fatalf("after the conflict: %q %q", reply, errMsg)
	}
}

// newServerWith starts another API server over s's database with its own
// orchestrator, as a second replica.
func newServerWith(t *testing.T, s *apiServer, o *orchestrator.Orchestrator) *apiServer {
	t.Helper()
	srv := httpapi.New(httpapi.Deps{DB: s.st, Curriculum: s.st, Sessions: o, Learners: s.st, Profiles: s.st, Progress: s.st, AgentLogs: s.st}, httpapi.Options{AllowAnonymous: true, CORSOrigins: []string{"*"}})
	hs := newHTTPServer(t, srv)
	return &apiServer{t: t, URL: hs, st: s.st, o: o, srv: srv, router: s.router, subject: s.subject}
}

// heldTurn opens a WebSocket on session id through a second server over
// the same database, whose first commit waits, and sends "ready": when it
// returns, the turn is about to commit and waits for release to be closed.
func (s *apiServer) heldTurn(t *testing.T, id string) (*wsClient, chan struct{}) {
	t.Helper()
	reached, release := make(chan struct{}), make(chan struct{})
	set, _ := rules.New()
	held := &holdingStore{Store: s.st, reached: reached, release: release}
	o := orchestrator.New(orchestrator.Options{Store: held, Lessons: lessons.NewSource(s.st), Engines: engine.New(set, nil, s.st), FallbackSafety: set.Safety})
	a := newServerWith(t, s, o)
	w := a.joined(t, id, "")
	w.send(map[string]any{"type": "chat", "payload": map[string]any{"message": "ready"}})
	if f := w.read(); f.Type != "typing" {
		t.Fatal(f.Type)
	}
	<-reached
	return w, release
}

type holdingStore struct {
	*store.Store
	once    sync.Once
	reached chan struct{}
	release chan struct{}
}

func (h *holdingStore) CommitTurn(ctx context.Context, t store.Turn) (int64, error) {
	h.once.Do(func() {
		close(h.reached)
		<-h.release
	})
	return h.Store.CommitTurn(ctx, t)
}
