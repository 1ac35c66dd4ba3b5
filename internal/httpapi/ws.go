package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/tutord/tutord/internal/orchestrator"
	"github.com/tutord/tutord/internal/tutor"
)

// wsReadLimit bounds a client frame; a larger one closes the connection
// with 1009 (message too big).
const wsReadLimit = 64 << 10

// conflictMessage is the reference's error after a lost compare-and-swap.
const conflictMessage = "Session was updated from another tab. Your last message was not saved. Please resend."

// serverFrame is every server frame: all three payload keys are present.
type serverFrame struct {
	Type    string        `json:"type"`
	Payload serverPayload `json:"payload"`
}

type serverPayload struct {
	Message *string         `json:"message"`
	State   *tutor.StateDTO `json:"state"`
	Error   *string         `json:"error"`
}

// clientFrame is a client frame. Unknown keys are ignored, as in the
// reference; topic_id and student_context are accepted and ignored.
type clientFrame struct {
	Type    string         `json:"type"`
	Payload *clientPayload `json:"payload"`
}

type clientPayload struct {
	Message        *string         `json:"message"`
	ClientTurnID   *string         `json:"client_turn_id"`
	TopicID        *string         `json:"topic_id"`
	StudentContext json.RawMessage `json:"student_context"`
}

// decodeClientFrame parses a client frame; its error text is what the
// client is told.
func decodeClientFrame(data []byte) (clientFrame, error) {
	var f clientFrame
	if err := json.Unmarshal(data, &f); err != nil {
		return f, fmt.Errorf("not a JSON object: %v", err)
	}
	switch f.Type {
	case "chat", "get_state", "start_session":
	case "":
		return f, errors.New("type: field required")
	default:
		return f, fmt.Errorf("type: unknown message type %q (use chat or get_state)", f.Type)
	}
	if f.Payload != nil && len(f.Payload.StudentContext) > 0 && string(f.Payload.StudentContext) != "null" {
		var sc tutor.StudentContext
		if err := json.Unmarshal(f.Payload.StudentContext, &sc); err != nil {
			return f, fmt.Errorf("payload.student_context: %v", err)
		}
	}
	return f, nil
}

// wsConn is one WebSocket connection.
type wsConn struct {
	c       *websocket.Conn
	session uuid.UUID

	mu   sync.Mutex
	busy bool          // a turn is in flight
	idle chan struct{} // closed when no turn is in flight; replaced when one starts

	frames sync.Mutex // held while a turn sends a group of frames, to keep them in order
}

func (w *wsConn) send(ctx context.Context, f serverFrame) error {
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return w.c.Write(ctx, websocket.MessageText, b)
}

func stateFrame(s tutor.State, t *tutor.Topic) serverFrame {
	dto := s.DTO(t)
	return serverFrame{Type: "state_update", Payload: serverPayload{State: &dto}}
}

func textFrame(typ, text string) serverFrame {
	if typ == "error" {
		return serverFrame{Type: typ, Payload: serverPayload{Error: &text}}
	}
	return serverFrame{Type: typ, Payload: serverPayload{Message: &text}}
}

// hub knows the open connections of each session, to send every
// connection the state updates of a turn made on another.
type hub struct {
	mu       sync.Mutex
	sessions map[uuid.UUID][]*wsConn
	closing  bool

	pingOnce sync.Once
	stop     chan struct{} // ends the pinger
}

func newHub() *hub { return &hub{sessions: map[uuid.UUID][]*wsConn{}, stop: make(chan struct{})} }

// pinger pings every open connection each interval, from one goroutine for
// all of them (an idle connection then costs no goroutine of its own); a
// connection that does not answer within timeout is closed.
func (h *hub) pinger(interval, timeout time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-h.stop:
			return
		case <-t.C:
		}
		for _, w := range h.all() {
			go func() {
				ctx, cancel := context.WithTimeout(context.Background(), timeout)
				defer cancel()
				if err := w.c.Ping(ctx); err != nil {
					w.c.Close(websocket.StatusPolicyViolation, "keepalive timeout")
				}
			}()
		}
	}
}

func (h *hub) add(w *wsConn) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closing {
		return false
	}
	h.sessions[w.session] = append(h.sessions[w.session], w)
	return true
}

func (h *hub) remove(w *wsConn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	conns := slices.DeleteFunc(h.sessions[w.session], func(x *wsConn) bool { return x == w })
	if len(conns) == 0 {
		delete(h.sessions, w.session)
	} else {
		h.sessions[w.session] = conns
	}
}

func (h *hub) peers(id uuid.UUID, except *wsConn) []*wsConn {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []*wsConn
	for _, w := range h.sessions[id] {
		if w != except {
			out = append(out, w)
		}
	}
	return out
}

func (h *hub) all() []*wsConn {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []*wsConn
	for _, conns := range h.sessions {
		out = append(out, conns...)
	}
	return out
}

// shutdown stops accepting connections and closes each open one with 1001
// once its turn in flight has finished (or ctx ends).
func (h *hub) shutdown(ctx context.Context) {
	h.mu.Lock()
	if !h.closing {
		close(h.stop)
	}
	h.closing = true
	h.mu.Unlock()
	var wg sync.WaitGroup
	for _, w := range h.all() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.mu.Lock()
			idle := w.idle
			w.mu.Unlock()
			select {
			case <-idle:
			case <-ctx.Done():
			}
			_ = w.c.Close(websocket.StatusGoingAway, "server shutting down")
		}()
	}
	wg.Wait()
}

// broadcast sends the session's state to every connection on it except
// the one that made the turn (which sends its own, in order).
func (s *Server) broadcast(id uuid.UUID, se orchestrator.Session, except ...*wsConn) {
	var skip *wsConn
	if len(except) > 0 {
		skip = except[0]
	}
	peers := s.hub.peers(id, skip)
	if len(peers) == 0 {
		return
	}
	f := stateFrame(se.State, se.Topic)
	for _, w := range peers {
		go w.send(context.Background(), f)
	}
}

// broadcastLatest loads the session and broadcasts its state, after a REST
// change such as a pause.
func (s *Server) broadcastLatest(ctx context.Context, id uuid.UUID) {
	if len(s.hub.peers(id, nil)) == 0 {
		return
	}
	if se, err := s.deps.Sessions.Load(ctx, id); err == nil {
		s.broadcast(id, se)
	}
}

// websocket serves GET /sessions/ws/{id}: the session's state, the stored
// welcome when no turn has been taken yet, then chat.
func (s *Server) websocket(c echo.Context) error {
	se, err := s.session(c)
	if err != nil {
		return err
	}
	origins := s.opts.CORSOrigins
	conn, err := websocket.Accept(c.Response(), c.Request(), &websocket.AcceptOptions{
		OriginPatterns:     origins,
		InsecureSkipVerify: slices.Contains(origins, "*"),
	})
	if err != nil {
		return nil // Accept has written the HTTP error
	}
	conn.SetReadLimit(wsReadLimit)
	w := &wsConn{c: conn, session: se.Row.ID, idle: closedChan()}
	if !s.hub.add(w) {
		conn.Close(websocket.StatusGoingAway, "server shutting down")
		return nil
	}
	if s.metrics != nil {
		s.metrics.wsOpened()
	}
	s.hub.pingOnce.Do(func() { go s.hub.pinger(s.opts.WSPingInterval, s.opts.WSIdleTimeout) })
	// The connection outlives this request: its context ends when the
	// handler returns, which it does once the first frames are out.
	ctx := context.WithoutCancel(c.Request().Context())
	if err := w.send(ctx, stateFrame(se.State, se.Topic)); err != nil {
		s.closeConn(w)
		return nil
	}
	if se.State.TurnCount == 0 {
		// The reference harness waits for a second frame: the welcome.
		// Send the stored one, never a second generated welcome.
		welcome, err := s.deps.Sessions.Welcome(ctx, se.Row.ID)
		if err == nil && welcome != "" {
			if err := w.send(ctx, textFrame("assistant", welcome)); err != nil {
				s.closeConn(w)
				return nil
			}
		}
	}
	// Read on a fresh goroutine: this one's stack has grown with the
	// request's work, and an idle connection should cost as little as a
	// blocked read.
	go s.readLoop(ctx, w)
	return nil
}

func (s *Server) closeConn(w *wsConn) {
	s.hub.remove(w)
	if s.metrics != nil {
		s.metrics.wsClosed()
	}
	w.c.CloseNow()
}

// readLoop handles a connection's frames until it closes: by the client,
// the read limit (1009), the keepalive or shutdown.
func (s *Server) readLoop(ctx context.Context, w *wsConn) {
	defer s.closeConn(w)
	for {
		typ, data, err := w.c.Read(ctx)
		if err != nil {
			return
		}
		if typ != websocket.MessageText {
			w.send(ctx, textFrame("error", "Invalid message format: binary frames are not supported"))
			continue
		}
		f, err := decodeClientFrame(data)
		if err != nil {
			w.send(ctx, textFrame("error", "Invalid message format: "+err.Error()))
			continue
		}
		switch f.Type {
		case "get_state":
			if cur, err := s.deps.Sessions.Load(ctx, w.session); err == nil {
				w.send(ctx, stateFrame(cur.State, cur.Topic))
			}
		case "chat":
			msg, clientID := "", ""
			if f.Payload != nil && f.Payload.Message != nil {
				msg = *f.Payload.Message
			}
			if f.Payload != nil && f.Payload.ClientTurnID != nil {
				clientID = *f.Payload.ClientTurnID
			}
			s.startTurn(ctx, w, w.session, msg, clientID)
		}
	}
}

func closedChan() chan struct{} {
	ch := make(chan struct{})
	close(ch)
	return ch
}

// startTurn runs a chat message as a turn in the background, so that the
// connection keeps reading (and refusing a second message) meanwhile.
func (s *Server) startTurn(ctx context.Context, w *wsConn, id uuid.UUID, msg, clientTurnID string) {
	w.mu.Lock()
	if w.busy {
		w.mu.Unlock()
		w.send(ctx, textFrame("error", "Your previous message is still being answered; please wait for the reply."))
		return
	}
	w.busy, w.idle = true, make(chan struct{})
	idle := w.idle
	w.mu.Unlock()

	go func() {
		// The turn finishes even if the client goes away: its model calls
		// are paid for, and the learner may reconnect.
		tctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Minute)
		defer cancel()
		// finish sends the turn's last frames. The connection takes its next
		// message as soon as the turn is done (a client may send it as soon
		// as it reads the reply); the frame lock keeps that turn's frames
		// after these.
		finish := func(frames ...serverFrame) {
			w.frames.Lock()
			defer w.frames.Unlock()
			w.mu.Lock()
			w.busy = false
			w.mu.Unlock()
			for _, f := range frames {
				w.send(tctx, f)
			}
			close(idle)
		}
		if n := len([]rune(msg)); n > s.opts.MaxReplyChars {
			finish(textFrame("error", fmt.Sprintf("Your message is %d characters; at most %d are accepted.", n, s.opts.MaxReplyChars)))
			return
		}
		if err := s.wsAllow(w, "turn"); err != nil {
			finish(textFrame("error", err.Error()))
			return
		}
		w.frames.Lock()
		w.send(tctx, serverFrame{Type: "typing"})
		w.frames.Unlock()
		res, err := s.deps.Sessions.ProcessTurn(tctx, id, msg, clientTurnID)
		var conflict *orchestrator.ConflictError
		switch {
		case err == nil:
			finish(textFrame("assistant", res.Reply), stateFrame(res.Session.State, res.Session.Topic))
			if res.Committed && !res.Replayed {
				s.broadcast(id, res.Session, w)
			}
		case errors.As(err, &conflict):
			// Another replica or tab won: adopt its state.
			finish(textFrame("error", conflictMessage), stateFrame(conflict.State, conflict.Topic))
		default:
			apiErr := s.toAPIError(err)
			if apiErr.Status >= 500 {
				s.log.Error("websocket turn failed", "session_id", id, "err", err)
			}
			frames := []serverFrame{textFrame("error", apiErr.Message)}
			if cur, lerr := s.deps.Sessions.Load(tctx, id); lerr == nil {
				frames = append(frames, stateFrame(cur.State, cur.Topic))
			}
			finish(frames...)
		}
	}()
}

// wsAllow applies the turn rate limit to a WebSocket's session owner.
func (s *Server) wsAllow(w *wsConn, action string) error {
	rl := s.opts.TurnRate
	if rl.Rate <= 0 {
		return nil
	}
	if ok, wait := s.limiter.take(action+"|session:"+w.session.String(), rl, time.Now()); !ok {
		return fmt.Errorf("Too many messages; try again in %d s", max(int(wait.Seconds()+0.999), 1))
	}
	return nil
}
