package httpapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/coder/websocket"
	"github.com/google/uuid"

	"github.com/tutord/tutord/internal/httpapi"
	"github.com/tutord/tutord/internal/orchestrator"
)

// frameOrder checks the frames of one connection: a turn's frames in the
// reference's order (typing, then assistant or error, then state_update)
// with no other frame between them, and states that never go back.
type frameOrder struct {
	phase   int // 0 outside a turn, 1 after typing, 2 after the reply
	version float64
	turns   float64
	states  int
}

// see checks the next frame; it reports whether the frame ended a turn.
func (o *frameOrder) see(f frame) (bool, error) {
	switch f.Type {
	case "typing":
		if o.phase != 0 {
			return false, errors.New("typing inside a turn")
		}
		o.phase = 1
	case "assistant", "error":
		if o.phase != 1 {
			return false, fmt.Errorf("%s outside a turn, after a state_update", f.Type)
		}
		o.phase = 2
	case "state_update":
		if o.phase == 1 {
			return false, errors.New("state_update between typing and the reply")
		}
		var st struct {
			TurnCount    *float64 `json:"turn_count"`
			StateVersion *float64 `json:"state_version"`
		}
		if err := json.Unmarshal(f.Payload.State, &st); err != nil || st.TurnCount == nil || st.StateVersion == nil {
			return false, fmt.Errorf("state_update without turn_count and state_version: %s", f.Payload.State)
		}
		if *st.StateVersion < o.version || *st.TurnCount < o.turns {
			return false, fmt.Errorf("state went back from version %v (turn %v) to version %v (turn %v)",
				o.version, o.turns, *st.StateVersion, *st.TurnCount)
		}
		o.version, o.turns = *st.StateVersion, *st.TurnCount
		o.states++
		done := o.phase == 2
		o.phase = 0
		return done, nil
	}
	return false, nil
}

// holdAfterCommit holds a turn whose message is "hold" after it has
// committed and before the server sends its reply: the turn is in flight on
// its connection while the session is free for other writers.
type holdAfterCommit struct {
	httpapi.Sessions
	held, release chan struct{}
}

func (h *holdAfterCommit) ProcessTurn(ctx context.Context, id uuid.UUID, message, clientTurnID string) (orchestrator.TurnResult, error) {
	res, err := h.Sessions.ProcessTurn(ctx, id, message, clientTurnID)
	if message == "hold" {
		close(h.held)
		<-h.release
	}
	return res, err
}

// TestWebSocketUpdatesWaitForTheTurnInFlight: state updates of other
// writers that come while a connection's turn is in flight reach it after
// that turn's frames, never between them, and never older than the turn's
// own state.
func TestWebSocketUpdatesWaitForTheTurnInFlight(t *testing.T) {
	hold := &holdAfterCommit{held: make(chan struct{}), release: make(chan struct{})}
	s := newServer(t, func(_ *httpapi.Options, d *httpapi.Deps) {
		hold.Sessions = d.Sessions
		d.Sessions = hold
	})
	id := s.newSession(fractions, "", "")
	a, _, _ := s.dial(t, id, "")
	b, _, _ := s.dial(t, id, "")
	for _, w := range []*wsClient{a, b} {
		w.read()
		w.read()
	}
	a.send(map[string]any{"type": "chat", "payload": map[string]any{"message": "hold"}})
	if f := a.read(); f.Type != "typing" {
		t.Fatalf("first frame %s, want typing", f.Type)
	}
	<-hold.held // a's turn (turn 1) has committed; its reply waits
	// Two newer states while a's turn is in flight: a turn on b, and a
	// REST turn.
	if reply, errMsg, st := b.chat("ready"); reply == "" || errMsg != "" || st["turn_count"] != float64(2) {
		t.Fatalf("b's turn: %q %q turn %v", reply, errMsg, st["turn_count"])
	}
	if r := s.do("POST", "/sessions/"+id+"/step", map[string]any{"student_reply": "ok"}, ""); r.Status != 200 {
		t.Fatalf("REST turn: %d %s", r.Status, r.Body)
	}
	if st := b.read().state(t); st["turn_count"] != float64(3) {
		t.Fatalf("b after the REST turn: turn %v, want 3", st["turn_count"])
	}
	close(hold.release)

	if f := a.read(); f.Type != "assistant" {
		t.Fatalf("after typing: %s, want the turn's assistant", f.Type)
	}
	if st := a.read().state(t); st["turn_count"] != float64(1) {
		t.Fatalf("the turn's own state_update: turn %v, want 1", st["turn_count"])
	}
	// Then the newer states, in order, up to the newest.
	for last := float64(1); last < 3; {
		f := a.read()
		if f.Type != "state_update" {
			t.Fatalf("after the turn: %s, want state_update", f.Type)
		}
		n := f.state(t)["turn_count"].(float64)
		if n < last {
			t.Fatalf("state went back from turn %v to %v", last, n)
		}
		last = n
	}
}

// TestWebSocketConcurrentChatsKeepOrder has two connections on one
// session chat at the same time, with REST turns besides: each connection
// sees each of its turns' frames together and in order, and states that
// never go back.
func TestWebSocketConcurrentChatsKeepOrder(t *testing.T) {
	s := newServer(t)
	id := s.newSession(fractions, "", "")
	const turns = 6
	conns := make([]*wsClient, 2)
	orders := make([]*frameOrder, len(conns))
	for i := range conns {
		w, _, err := s.dial(t, id, "")
		if err != nil {
			t.Fatal(err)
		}
		conns[i], orders[i] = w, &frameOrder{}
		if _, err := orders[i].see(w.read()); err != nil { // state_update
			t.Fatal(err)
		}
		if f := w.read(); f.Type != "assistant" {
			t.Fatalf("second frame %s, want the welcome", f.Type)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, len(conns))
	for i, w := range conns {
		wg.Go(func() {
			for n := range turns {
				msg := fmt.Sprintf(`{"type":"chat","payload":{"message":"ok %d"}}`, n)
				if err := w.c.Write(context.Background(), websocket.MessageText, []byte(msg)); err != nil {
					errs <- err
					return
				}
				for done := false; !done; {
					f, err := w.readFrame()
					if err == nil {
						done, err = orders[i].see(f)
					}
					if err != nil {
						errs <- fmt.Errorf("connection %d, turn %d: %w", i, n, err)
						return
					}
				}
			}
		})
	}
	for range 3 {
		if r := s.do("POST", "/sessions/"+id+"/step", map[string]any{"student_reply": "ok"}, ""); r.Status != 200 {
			t.Errorf("REST turn: %d %s", r.Status, r.Body)
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	final := s.do("GET", "/sessions/"+id, nil, "").JSON(t)["turn_count"].(float64)
	if final != 2*turns+3 {
		t.Fatalf("turn_count %v, want %d", final, 2*turns+3)
	}
	// Each connection catches up with the last state, in order.
	for i, w := range conns {
		w.send(map[string]any{"type": "get_state"})
		for orders[i].turns < final {
			if _, err := orders[i].see(w.read()); err != nil {
				t.Fatalf("connection %d: %v", i, err)
			}
		}
	}
}

// holdFirstLoad holds, once armed, the session load of the next WebSocket
// being opened (the one load without a deadline; catch-ups and
// announcements load with one) until release.
type holdFirstLoad struct {
	httpapi.Sessions
	armed         chan struct{}
	taken         atomic.Bool
	held, release chan struct{}
}

func (h *holdFirstLoad) Load(ctx context.Context, id uuid.UUID) (orchestrator.Session, error) {
	se, err := h.Sessions.Load(ctx, id)
	if _, deadline := ctx.Deadline(); !deadline {
		select {
		case <-h.armed:
			if h.taken.CompareAndSwap(false, true) {
				close(h.held)
				<-h.release
			}
		default:
		}
	}
	return se, err
}

// A change committed while a WebSocket is being opened, after its state
// was read and before it can be reached by broadcasts, still reaches it.
func TestWebSocketOpenedDuringAChange(t *testing.T) {
	hold := &holdFirstLoad{armed: make(chan struct{}), held: make(chan struct{}), release: make(chan struct{})}
	s := newServer(t, func(_ *httpapi.Options, d *httpapi.Deps) {
		hold.Sessions = d.Sessions
		d.Sessions = hold
	})
	id := s.newSession(fractions, "", "")
	close(hold.armed)
	dialed := make(chan *wsClient, 1)
	go func() {
		w, _, err := s.dial(t, id, "")
		if err != nil {
			t.Error(err)
		}
		dialed <- w
	}()
	<-hold.held // the WebSocket has read the session, turn 0
	if r := s.step(id, ""); r.Status != 200 {
		t.Fatalf("step: %d %s", r.Status, r.Body)
	}
	close(hold.release)
	w := <-dialed
	if w == nil {
		t.FailNow()
	}
	if st := w.read().state(t); st["turn_count"] != float64(0) {
		t.Fatalf("first state at turn %v; the test wants it read before the step", st["turn_count"])
	}
	if f := w.read(); f.Type != "assistant" {
		t.Fatalf("second frame %s, want the welcome", f.Type)
	}
	if f := w.read(); f.Type != "state_update" || f.state(t)["turn_count"] != float64(1) {
		t.Fatalf("frame %s %s; want the state after the step", f.Type, f.Payload.State)
	}
}
