package httpapi_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/google/uuid"

	"github.com/tutord/tutord/internal/httpapi"
	"github.com/tutord/tutord/internal/orchestrator"
)

// panickySessions panics on the turn "boom", as a bug in a turn would.
type panickySessions struct{ httpapi.Sessions }

func (p panickySessions) ProcessTurn(ctx context.Context, id uuid.UUID, msg, clientTurnID string) (orchestrator.TurnResult, error) {
	if msg == "boom" {
		panic("a bug in the turn")
	}
	return p.Sessions.ProcessTurn(ctx, id, msg, clientTurnID)
}

// TestWebSocketTurnPanic: a turn that panics answers with an error; the
// server, this connection and the session go on.
func TestWebSocketTurnPanic(t *testing.T) {
	s := newServer(t, func(_ *httpapi.Options, d *httpapi.Deps) { d.Sessions = panickySessions{d.Sessions} })
	id := s.newSession(fractions, "", "")
	w := s.joined(t, id, "")
	w.send(map[string]any{"type": "chat", "payload": map[string]any{"message": "boom"}})
	if f := w.read(); f.Type != "typing" {
		t.Fatalf("first frame %s, want typing", f.Type)
	}
	if f := w.read(); f.Type != "error" || *f.Payload.Error != "Internal error" {
		t.Fatalf("after the panic: %+v", f)
	}
	// Then the state, as after every chat (CONTRACT §3.3): a client that
	// waits for it to end the turn is not left waiting.
	if f := w.read(); f.Type != "state_update" {
		t.Fatalf("after the error: %+v, want state_update", f)
	}
	if reply, errMsg, _ := w.chat("ok"); reply == "" || errMsg != "" {
		t.Fatalf("the next turn: reply %q, error %q", reply, errMsg)
	}
	if r := s.do("GET", "/health", nil, ""); r.Status != 200 {
		t.Fatalf("health after the panic: %d", r.Status)
	}
}

// TestWebSocketTooLong: a chat over the length limit gets an error and,
// as every chat does, the state; nothing is counted and the connection
// goes on.
func TestWebSocketTooLong(t *testing.T) {
	s := newServer(t, func(o *httpapi.Options, _ *httpapi.Deps) { o.MaxReplyChars = 50 })
	id := s.newSession(fractions, "", "")
	w := s.joined(t, id, "")
	w.send(map[string]any{"type": "chat", "payload": map[string]any{"message": strings.Repeat("é", 51)}})
	f := w.read()
	if f.Type != "error" || !strings.Contains(*f.Payload.Error, "at most 50") {
		t.Fatalf("first frame %+v, want the length error", f)
	}
	if st := w.read().state(t); st["turn_count"] != float64(0) {
		t.Fatalf("state after the refused chat: %v", st)
	}
	if reply, errMsg, _ := w.chat(strings.Repeat("é", 50)); reply == "" || errMsg != "" {
		t.Fatalf("a chat at the limit: reply %q, error %q", reply, errMsg)
	}
}

// TestWebSocketGetStatePace: get_state is answered up to its pace, then
// refused with an error; the connection stays open.
func TestWebSocketGetStatePace(t *testing.T) {
	s := newServer(t)
	id := s.newSession(fractions, "", "")
	w := s.joined(t, id, "")
	states, refused := 0, 0
	for range 40 {
		w.send(map[string]any{"type": "get_state"})
	}
	for range 40 {
		switch f := w.read(); f.Type {
		case "state_update":
			states++
		case "error":
			if !strings.Contains(*f.Payload.Error, "Too many get_state") {
				t.Fatalf("error %q", *f.Payload.Error)
			}
			refused++
		default:
			t.Fatalf("frame %s", f.Type)
		}
	}
	if states < 20 || refused == 0 {
		t.Fatalf("%d states and %d refusals for 40 get_state at once", states, refused)
	}
	if reply, errMsg, _ := w.chat("ok"); reply == "" || errMsg != "" {
		t.Fatalf("a chat after: reply %q, error %q", reply, errMsg)
	}
}

// readWithin returns the connection's next frame, or an error when none
// comes within d (or the connection ends).
func (w *wsClient) readWithin(d time.Duration) (frame, error) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	_, data, err := w.c.Read(ctx)
	if err != nil {
		return frame{}, err
	}
	return decodeServerFrame(data)
}

// failingLoads wraps the sessions so that Load fails (or panics) once
// armed; the upgrade's own load happens before arming.
type failingLoads struct {
	httpapi.Sessions
	fail, panics atomic.Bool
}

func (r *failingLoads) Load(ctx context.Context, id uuid.UUID) (orchestrator.Session, error) {
	if r.panics.Load() {
		panic("a bug while reading the session")
	}
	if r.fail.Load() {
		return orchestrator.Session{}, errors.New("database unavailable")
	}
	return r.Sessions.Load(ctx, id)
}

// joinedWithFailingLoads opens a WebSocket on a new session of a server
// whose session reads fail (or panic) once the returned loads is armed.
func joinedWithFailingLoads(t *testing.T) (*failingLoads, *wsClient) {
	t.Helper()
	loads := &failingLoads{}
	s := newServer(t, func(_ *httpapi.Options, d *httpapi.Deps) {
		loads.Sessions = d.Sessions
		d.Sessions = loads
	})
	return loads, s.joined(t, s.newSession(fractions, "", ""), "")
}

// get_state whose session cannot be read is answered with an error frame
// (CONTRACT §3.3: "Server error: <e>"), not with silence.
func TestWebSocketGetStateReadFailure(t *testing.T) {
	loads, w := joinedWithFailingLoads(t)
	loads.fail.Store(true)
	w.send(map[string]any{"type": "get_state"})
	f, err := w.readWithin(3 * time.Second)
	if err != nil {
		t.Fatalf("get_state with a failing session read: no frame at all (%v); want an error frame", err)
	}
	if f.Type != "error" || !strings.HasPrefix(*f.Payload.Error, "Server error: ") {
		t.Fatalf("get_state with a failing session read answered %+v; want an error frame", f)
	}
}

// A bug in answering a frame ends the connection with an error frame and
// close code 1011 (internal error), not a dropped connection (1006), which
// clients take for the network and reconnect to at once.
func TestWebSocketPanicClosesWith1011(t *testing.T) {
	loads, w := joinedWithFailingLoads(t)
	loads.panics.Store(true)
	w.send(map[string]any{"type": "get_state"})
	sawError := false
	for {
		f, err := w.readWithin(5 * time.Second)
		if err != nil {
			if code := websocket.CloseStatus(err); code != websocket.StatusInternalError {
				t.Fatalf("connection ended with close code %d (%v), error frame seen: %v; want an error frame then close 1011", code, err, sawError)
			}
			if !sawError {
				t.Fatal("closed with 1011 but no error frame first")
			}
			return
		}
		if f.Type == "error" {
			sawError = true
		}
	}
}

// welcomeUnreadable fails to read a session's stored welcome, as a
// database that is briefly unreachable would.
type welcomeUnreadable struct {
	httpapi.Sessions
	fail atomic.Bool
}

func (w *welcomeUnreadable) Welcome(ctx context.Context, id uuid.UUID) (string, error) {
	if w.fail.Load() {
		return "", fmt.Errorf("read messages: %w", context.DeadlineExceeded)
	}
	return w.Sessions.Welcome(ctx, id)
}

// TestWebSocketWithoutItsWelcomeIsRefused: a session's first connection
// carries its welcome, the second frame a client of the reference waits
// for. When the welcome cannot be read, the upgrade fails with an error the
// client can retry on, rather than opening a connection whose second frame
// never comes; once it can be read, the connection opens with it.
func TestWebSocketWithoutItsWelcomeIsRefused(t *testing.T) {
	ws := &welcomeUnreadable{}
	s := newServer(t, func(_ *httpapi.Options, d *httpapi.Deps) {
		ws.Sessions = d.Sessions
		d.Sessions = ws
	})
	id := s.newSession(fractions, "", "")
	ws.fail.Store(true)
	w, resp, err := s.dial(t, id, "")
	if err == nil {
		f, _ := w.readWithin(time.Second)
		g, rerr := w.readWithin(time.Second)
		t.Fatalf("a connection opened without its welcome: frames %s, then %s (%v)", f.Type, g.Type, rerr)
	}
	if resp == nil || resp.StatusCode < 500 {
		t.Fatalf("upgrade without the welcome: %v, %v; want a 5xx", resp, err)
	}
	ws.fail.Store(false)
	w = s.joined(t, id, "") // reads the state and the welcome
	w.send(map[string]any{"type": "get_state"})
	if f := w.read(); f.Type != "state_update" {
		t.Fatalf("after the welcome: %s", f.Type)
	}
}
