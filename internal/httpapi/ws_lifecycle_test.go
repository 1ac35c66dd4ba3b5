package httpapi_test

import (
	"context"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/google/uuid"

	"github.com/tutord/tutord/internal/httpapi"
	"github.com/tutord/tutord/internal/orchestrator"
)

// holdBeforeTurn holds each turn whose message is "wait here" before it
// runs, until release is closed; held is closed when the first arrives.
type holdBeforeTurn struct {
	httpapi.Sessions
	held, release chan struct{}
}

func (h *holdBeforeTurn) ProcessTurn(ctx context.Context, id uuid.UUID, message, clientTurnID string) (orchestrator.TurnResult, error) {
	if message == "wait here" {
		select {
		case <-h.held:
		default:
			close(h.held)
		}
		<-h.release
	}
	return h.Sessions.ProcessTurn(ctx, id, message, clientTurnID)
}

func holdingServer(t *testing.T) (*apiServer, *holdBeforeTurn) {
	h := &holdBeforeTurn{held: make(chan struct{}), release: make(chan struct{})}
	s := newServer(t, func(_ *httpapi.Options, d *httpapi.Deps) {
		h.Sessions = d.Sessions
		d.Sessions = h
	})
	return s, h
}

// A learner's tab is waiting for a reply when tutord shuts down: it gets
// the turn's assistant and state_update, and only then the close 1001
// (api/openapi.yaml: "1001 server shutting down (after in-flight turns
// finish)").
func TestWebSocketShutdownWaitsForTheTurnInFlight(t *testing.T) {
	s, h := holdingServer(t)
	id := s.newSession(fractions, "", "")
	w := s.joined(t, id, "")
	w.send(map[string]any{"type": "chat", "payload": map[string]any{"message": "wait here"}})
	if f := w.read(); f.Type != "typing" {
		t.Fatalf("first frame %s, want typing", f.Type)
	}
	<-h.held
	done := make(chan struct{})
	go func() { s.srv.Shutdown(context.Background()); close(done) }()
	time.Sleep(200 * time.Millisecond)
	close(h.release)
	if f := w.read(); f.Type != "assistant" {
		t.Fatalf("after shutdown began: %s, want the turn's assistant", f.Type)
	}
	if f := w.read(); f.Type != "state_update" {
		t.Fatalf("after the reply: %s, want state_update", f.Type)
	}
	_, err := w.readWithin(10 * time.Second)
	if code := websocket.CloseStatus(err); code != websocket.StatusGoingAway {
		t.Fatalf("after the turn: %v (code %d), want close 1001", err, code)
	}
	<-done
}

// The connection drops mid-turn; the frontend reconnects and resends the
// chat with the same client_turn_id while the first attempt is still
// running: it gets typing, the reply, the state, and the turn is taken
// once.
func TestWebSocketRetryAfterReconnectMidTurn(t *testing.T) {
	s, h := holdingServer(t)
	id := s.newSession(fractions, "", "")
	w := s.joined(t, id, "")
	w.send(map[string]any{"type": "chat", "payload": map[string]any{"message": "wait here", "client_turn_id": "c1"}})
	if f := w.read(); f.Type != "typing" {
		t.Fatal(f.Type)
	}
	<-h.held
	w.c.Close(websocket.StatusNormalClosure, "")
	w2 := s.joined(t, id, "")
	go func() { time.Sleep(200 * time.Millisecond); close(h.release) }()
	reply, errMsg, st := w2.turn(map[string]any{"message": "wait here", "client_turn_id": "c1"})
	if reply == "" || errMsg != "" || st["turn_count"] != float64(1) {
		t.Fatalf("retry after reconnect: reply %q, error %q, turn_count %v; want the reply and turn 1", reply, errMsg, st["turn_count"])
	}
	if n := s.do("GET", "/sessions/"+id, nil, "").JSON(t)["turn_count"]; n != float64(1) {
		t.Fatalf("turn_count %v after a retried turn, want 1", n)
	}
}

// Two tabs on one process: tab B chats while tab A's turn is about to
// commit. B's turn waits and runs on A's result: B gets its reply, not
// "Session was updated from another tab" (turns on one session are
// serialised within a process).
func TestWebSocketSecondTabWaitsForTheFirst(t *testing.T) {
	s := newServer(t)
	id := s.newSession(fractions, "", "")
	a, reached := s.heldReplica(t)
	wa := a.joined(t, id, "")
	wb := a.joined(t, id, "")
	wa.send(map[string]any{"type": "chat", "payload": map[string]any{"message": "ready"}})
	if f := wa.read(); f.Type != "typing" {
		t.Fatal(f.Type)
	}
	<-reached
	go func() { time.Sleep(300 * time.Millisecond); a.release() }()
	reply, errMsg, st := wb.chat("ok")
	if reply == "" || errMsg != "" || st["turn_count"] != float64(2) {
		t.Fatalf("tab B: reply %q, error %q, turn_count %v; want a reply at turn 2", reply, errMsg, st["turn_count"])
	}
}

// A tab's REST pause, end-clarify or end-exam reaches
// the session's open WebSocket as a state_update showing it (is_paused or
// is_complete), and a chat afterwards is answered.
func TestWebSocketSeesRESTLifecycle(t *testing.T) {
	s := newServer(t)
	for _, tt := range []struct{ mode, path, field string }{
		{"teach_me", "pause", "is_paused"}, {"clarify_doubts", "end-clarify", "is_complete"}, {"exam", "end-exam", "is_complete"},
	} {
		id := s.newSession(fractions, tt.mode, "")
		w := s.joined(t, id, "")
		if r := s.do("POST", "/sessions/"+id+"/"+tt.path, nil, ""); r.Status != 200 {
			t.Fatalf("%s: %d %s", tt.path, r.Status, r.Body)
		}
		f, err := w.readWithin(5 * time.Second)
		if err != nil || f.Type != "state_update" || f.state(t)[tt.field] != true {
			t.Fatalf("%s %s: frame %s %s (%v), want state_update with %s true", tt.mode, tt.path, f.Type, f.Payload.State, err, tt.field)
		}
		if reply, errMsg, _ := w.chat("what is a fraction?"); reply == "" || errMsg != "" {
			t.Fatalf("%s: chat after %s: reply %q, error %q", tt.mode, tt.path, reply, errMsg)
		}
	}
}
