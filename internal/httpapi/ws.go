package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/google/uuid"
	"github.com/labstack/echo/v4"
	"golang.org/x/time/rate"

	"github.com/tutord/tutord/internal/orchestrator"
	"github.com/tutord/tutord/internal/store"
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

	version int64 // of a state_update: the session's state version
}

type serverPayload struct {
	Message *string    `json:"message"`
	State   *wireState `json:"state"`
	Error   *string    `json:"error"`
}

// wireState is the state of a state_update: the learner-facing DTO plus
// the session's turn count and state version (tutord's additions). Both
// only grow, so that a client can tell an older state from a newer one.
type wireState struct {
	tutor.StateDTO
	TurnCount    int   `json:"turn_count"`
	StateVersion int64 `json:"state_version"`
}

// clientFrame is a client frame. Unknown keys are ignored, as in the
// reference; topic_id and student_context are accepted and ignored. Keys
// match exactly (see unmarshalExact): "Type" or "MESSAGE" is an unknown
// key, ignored.
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
// client is told, in pydantic's words ("payload: Input should be a valid
// dictionary"), never Go's.
func decodeClientFrame(data []byte) (clientFrame, error) {
	var f clientFrame
	if err := unmarshalExact(data, &f); err != nil {
		return f, frameError("", err)
	}
	switch f.Type {
	case "chat", "get_state", "start_session":
	case "":
		return f, errors.New("type: Field required")
	default:
		return f, fmt.Errorf("type: unknown message type %q (use chat or get_state)", f.Type)
	}
	if f.Payload == nil {
		return f, nil
	}
	// The REST Idempotency-Key's rule: the id is stored, unique per session.
	if id := f.Payload.ClientTurnID; id != nil {
		if fe, bad := turnKeyIssue(nil, *id); bad {
			return f, errors.New("payload.client_turn_id: " + fe.Msg)
		}
	}
	if sc := f.Payload.StudentContext; len(sc) > 0 && string(sc) != "null" {
		if err := checkStudentContext(sc); err != nil {
			return f, err
		}
	}
	return f, nil
}

// checkStudentContext validates a chat's student_context as the spec's
// StudentContextInput has it (grade 1 to 12 and board required, a known
// language level), though the turn does not use it: the contract has it
// accepted, validated and ignored. Whole numbers are read as the
// reference's validator reads them: 7, 7.0 and "7" are all 7.
func checkStudentContext(raw json.RawMessage) error {
	const path = "payload.student_context"
	var present map[string]json.RawMessage
	if err := json.Unmarshal(raw, &present); err != nil {
		return frameError(path, err)
	}
	for _, field := range []string{"grade", "student_age"} {
		if v, ok := present[field]; ok {
			n, ok := laxInt(v)
			if !ok {
				return fmt.Errorf("%s.%s: Input should be a valid integer", path, field)
			}
			present[field] = n
		}
	}
	raw, err := json.Marshal(present)
	if err != nil {
		return frameError(path, err)
	}
	var sc tutor.StudentContext
	if err := unmarshalExact(raw, &sc); err != nil {
		return frameError(path, err)
	}
	for _, field := range []string{"grade", "board"} {
		if v, ok := present[field]; !ok || string(v) == "null" {
			return fmt.Errorf("%s.%s: Field required", path, field)
		}
	}
	switch {
	case sc.Grade < 1:
		return fmt.Errorf("%s.grade: Input should be greater than or equal to 1", path)
	case sc.Grade > 12:
		return fmt.Errorf("%s.grade: Input should be less than or equal to 12", path)
	}
	if _, ok := present["language_level"]; ok {
		switch sc.LanguageLevel {
		case "simple", "standard", "advanced":
		default:
			return fmt.Errorf("%s.language_level: Input should be 'simple', 'standard' or 'advanced'", path)
		}
	}
	return nil
}

// frameError describes why a client frame, or its part at path, did not
// decode: where, and what JSON value was expected there.
func frameError(path string, err error) error {
	msg := "Invalid JSON"
	var ute *json.UnmarshalTypeError
	if errors.As(err, &ute) {
		path = strings.Trim(path+"."+ute.Field, ".")
		msg = "Input should be a valid " + jsonKind(ute.Type)
	}
	if path == "" {
		return errors.New(msg)
	}
	return fmt.Errorf("%s: %s", path, msg)
}

// jsonKind names the JSON value a Go type decodes from, as pydantic does.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return jsonKind(t.Elem())
	case reflect.Struct, reflect.Map:
		return "dictionary"
	case reflect.Slice, reflect.Array:
		return "list"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	}
	return "value"
}

// wsConn is one WebSocket connection. Its frames leave in order: every
// write holds out, a turn's frames (typing, then assistant or error, then
// state_update) are not split by the state updates of other writers, which
// wait until the turn has sent its own, and a state_update older than one
// the connection has sent is dropped, so that a client never sees the
// session go back in time.
type wsConn struct {
	c       *websocket.Conn
	session uuid.UUID
	rateKey string // who the connection's turns count against (rateKey)
	// token is the access token the connection was opened with, "" for
	// none: the connection acts for its learner only while it verifies.
	token string
	// expires is when the token stops verifying (zero: never, or no
	// token). No frame is sent from then on, and expiry closes the
	// connection then, idle or not.
	expires time.Time
	expiry  *time.Timer

	mu   sync.Mutex
	busy bool          // a turn is in flight
	idle chan struct{} // closed when no turn is in flight; replaced when one starts

	pinging atomic.Bool // a keepalive ping waits for its pong

	// out is held while frames are written, and guards the fields below.
	out sync.Mutex
	// sent is the state version of the newest state_update sent.
	sent int64
	// pending is the newest state_update of another writer that arrived
	// while a turn was in flight, and wantState the get_state requests
	// that did: both are answered after the turn's frames.
	pending   *serverFrame
	wantState int

	// stateLimit paces get_state, which costs a session read and a full
	// state frame each; made on the first one.
	stateLimit *rate.Limiter
}

// get_state's pace on one connection: a client polling for its state
// needs a few a second at most.
const (
	stateRate  = 5
	stateBurst = 20
)

// write sends one frame; the caller holds w.out.
func (w *wsConn) write(ctx context.Context, f serverFrame) error {
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return w.c.Write(ctx, websocket.MessageText, b)
}

// writeLocked sends frames in order, dropping a state_update older than
// one already sent; the caller holds w.out. Once the token has expired it
// sends nothing: the session is no longer the caller's to watch, and the
// connection is being closed (see expiry).
func (w *wsConn) writeLocked(ctx context.Context, frames ...serverFrame) error {
	if !w.expires.IsZero() && !time.Now().Before(w.expires) {
		return nil
	}
	for _, f := range frames {
		if f.Type == "state_update" {
			if f.version < w.sent {
				continue
			}
			w.sent = f.version
		}
		if err := w.write(ctx, f); err != nil {
			return err
		}
	}
	return nil
}

// send sends frames that answer the client at once (errors about its
// frames): they may come between a turn's typing and its reply.
func (w *wsConn) send(ctx context.Context, frames ...serverFrame) error {
	w.out.Lock()
	defer w.out.Unlock()
	return w.writeLocked(ctx, frames...)
}

// inTurn reports whether a turn is in flight; the caller holds w.out.
func (w *wsConn) inTurn() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.busy
}

// deliver sends another writer's state update (a turn on another
// connection or over REST, a pause), unless the connection has sent as
// new a state already. While a turn is in flight it is held back and sent
// after the turn's frames, if it is still the newer.
func (w *wsConn) deliver(ctx context.Context, f serverFrame) {
	w.out.Lock()
	defer w.out.Unlock()
	if f.version <= w.sent {
		return
	}
	if w.inTurn() {
		if w.pending == nil || f.version > w.pending.version {
			w.pending = &f
		}
		return
	}
	w.writeLocked(ctx, f)
}

func stateFrame(s tutor.State, t *tutor.Topic, version int64) serverFrame {
	ws := wireState{StateDTO: s.DTO(t), TurnCount: s.TurnCount, StateVersion: version}
	return serverFrame{Type: "state_update", Payload: serverPayload{State: &ws}, version: version}
}

func sessionFrame(se orchestrator.Session) serverFrame {
	return stateFrame(se.State, se.Topic, se.Row.Version)
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
	// latest is the newest state version broadcast on each session with
	// connections here, so that a change announced twice (by this process
	// and by the database's notification) is sent once.
	latest  map[uuid.UUID]int64
	closing bool
	// open counts the connections of each session and each caller,
	// reserved before the upgrade, for the connection limits.
	open map[string]int

	pingOnce sync.Once
	stop     chan struct{} // ends the pinger
}

func newHub() *hub {
	return &hub{sessions: map[uuid.UUID][]*wsConn{}, latest: map[uuid.UUID]int64{}, open: map[string]int{}, stop: make(chan struct{})}
}

// pinger pings every open connection each interval, from one goroutine for
// all of them (an idle connection then costs no goroutine of its own). A
// connection that does not answer within timeout is dropped at once,
// without a close handshake: a peer that does not answer pings would not
// answer that either, and waiting for it would hold the connection longer.
// Its read loop then ends and releases it. Pongs are read by the
// connection's read loop, so a live client is never dropped for a turn in
// flight.
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
			if !w.pinging.CompareAndSwap(false, true) {
				continue // the last ping is still waiting (timeout > interval)
			}
			go func() {
				defer w.pinging.Store(false)
				ctx, cancel := context.WithTimeout(context.Background(), timeout)
				defer cancel()
				if err := w.c.Ping(ctx); err != nil {
					w.c.CloseNow()
				}
			}()
		}
	}
}

// reserve counts a connection about to open on session id by caller
// against the limits (zero: none), and reports false, counting nothing,
// when either is reached. release undoes it when the connection closes or
// does not open.
func (h *hub) reserve(id uuid.UUID, caller string, perSession, perCaller int) bool {
	sk, ck := "session:"+id.String(), "caller:"+caller
	h.mu.Lock()
	defer h.mu.Unlock()
	if perSession > 0 && h.open[sk] >= perSession || perCaller > 0 && h.open[ck] >= perCaller {
		return false
	}
	h.open[sk]++
	h.open[ck]++
	return true
}

func (h *hub) release(id uuid.UUID, caller string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, k := range []string{"session:" + id.String(), "caller:" + caller} {
		if h.open[k]--; h.open[k] <= 0 {
			delete(h.open, k)
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
		delete(h.latest, w.session)
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

// advance records that a session's state reached version and reports
// whether that is news for connections here: false when none is open on
// the session or a version as new was broadcast already.
func (h *hub) advance(id uuid.UUID, version int64) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.sessions[id]) == 0 || h.latest[id] >= version {
		return false
	}
	h.latest[id] = version
	return true
}

// sessionIDs returns the sessions with connections here.
func (h *hub) sessionIDs() []uuid.UUID {
	h.mu.Lock()
	defer h.mu.Unlock()
	ids := make([]uuid.UUID, 0, len(h.sessions))
	for id := range h.sessions {
		ids = append(ids, id)
	}
	return ids
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
	s.hub.advance(id, se.Row.Version)
	peers := s.hub.peers(id, skip)
	if len(peers) == 0 {
		return
	}
	f := sessionFrame(se)
	for _, w := range peers {
		// One goroutine per peer: a slow client must not hold up the turn
		// or request that caused the update. Their order does not matter:
		// deliver drops whatever is older than what a peer already has.
		go func() {
			defer s.recovered("delivery", id)
			w.deliver(context.Background(), f)
		}()
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

// SessionChanged tells the server that a session's state reached version,
// in this process or another one on the same database (tutord's
// replicas): connections here on the session get the new state, as they
// do after a turn made here. Connections on a deleted session are closed
// with the contract's code for a session not found.
func (s *Server) SessionChanged(id uuid.UUID, version int64) {
	if version == store.SessionDeleted {
		for _, w := range s.hub.peers(id, nil) {
			go func() { _ = w.c.Close(statusSessionNotFound, "Session not found") }()
		}
		return
	}
	if !s.hub.advance(id, version) {
		return
	}
	go func() {
		defer s.recovered("update", id)
		// No other notice of this change will come: a failed read is
		// tried again before the connections are left stale.
		var err error
		for attempt, wait := 1, 500*time.Millisecond; ; attempt, wait = attempt+1, 2*wait {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			se, lerr := s.deps.Sessions.Load(ctx, id)
			cancel()
			if lerr == nil {
				s.broadcast(id, se)
				return
			}
			if errors.Is(lerr, orchestrator.ErrSessionNotFound) {
				s.SessionChanged(id, store.SessionDeleted)
				return
			}
			if err = lerr; attempt == 3 {
				break
			}
			time.Sleep(wait)
		}
		s.log.Warn("load a session changed elsewhere", "session_id", id, "err", err)
	}()
}

// Resync brings the connections here up to date after changes made
// elsewhere may have been missed (the watch of the database's
// announcements was down): each session with connections gets its stored
// state, which a connection that has it already drops, and connections on
// a session deleted meanwhile are closed. Call it once the watch listens
// again, after the orchestrator forgot what it held.
func (s *Server) Resync() {
	for _, id := range s.hub.sessionIDs() {
		go func() {
			defer s.recovered("resync", id)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			se, err := s.deps.Sessions.Load(ctx, id)
			switch {
			case errors.Is(err, orchestrator.ErrSessionNotFound):
				s.SessionChanged(id, store.SessionDeleted)
			case err != nil:
				s.log.Warn("resync a session's connections", "session_id", id, "err", err)
			default:
				s.broadcast(id, se)
			}
		}()
	}
}

// The close codes of a session not found and of a token that does not
// verify (CONTRACT §3.1).
const (
	statusSessionNotFound websocket.StatusCode = 4004
	statusInvalidToken    websocket.StatusCode = 4001
)

// errTooManyConnections refuses a WebSocket over Options.WSPerSession or
// Options.WSPerCaller.
var errTooManyConnections = &Error{Status: http.StatusTooManyRequests, Code: "too_many_connections",
	Message: "Too many open connections; close another tab or window and try again"}

// websocket serves GET /sessions/ws/{id}: the session's state, the stored
// welcome when no turn has been taken yet, then chat.
func (s *Server) websocket(c echo.Context) error {
	// Browsers send any page's WebSocket to any server, with its Origin:
	// the same origins as REST's CORS may open one.
	if origin := c.Request().Header.Get("Origin"); origin != "" && !s.origins.allows(origin) {
		return errOriginNotAllowed
	}
	se, err := s.session(c)
	if err != nil {
		return err
	}
	// The connection outlives this request: its context ends when the
	// handler returns, which it does once the first frames are out.
	ctx := context.WithoutCancel(c.Request().Context())
	welcome := ""
	if se.State.TurnCount == 0 {
		// The reference harness waits for a second frame: the welcome.
		// Send the stored one, never a second generated welcome. Without
		// it the upgrade fails, and the client tries again, rather than
		// waiting for a frame that will not come.
		if welcome, err = s.deps.Sessions.Welcome(ctx, se.Row.ID); err != nil {
			return err
		}
	}
	// The first frames are made before the connection takes a place, so
	// that nothing but writing them stands between its registration and
	// its read loop.
	frames := []serverFrame{sessionFrame(se)}
	if welcome != "" {
		frames = append(frames, textFrame("assistant", welcome))
	}
	key := rateKey(c)
	if !s.hub.reserve(se.Row.ID, key, s.opts.WSPerSession, s.opts.WSPerCaller) {
		return errTooManyConnections
	}
	conn, err := websocket.Accept(c.Response(), c.Request(), &websocket.AcceptOptions{
		InsecureSkipVerify: true, // the origin is checked above, as REST's CORS checks it
	})
	if err != nil {
		s.hub.release(se.Row.ID, key)
		return nil // Accept has written the HTTP error
	}
	conn.SetReadLimit(wsReadLimit)
	who := callerOf(c)
	w := &wsConn{c: conn, session: se.Row.ID, rateKey: key, token: who.token, idle: closedChan()}
	if who.identity != nil {
		w.expires = who.identity.ExpiresAt
	}
	// The first frames go out before any state update of another writer,
	// which waits for out (and is dropped if it is not newer).
	w.out.Lock()
	if !s.hub.add(w) {
		w.out.Unlock()
		s.hub.release(se.Row.ID, key)
		conn.Close(websocket.StatusGoingAway, "server shutting down")
		return nil
	}
	if s.metrics != nil {
		s.metrics.wsOpened()
	}
	s.hub.pingOnce.Do(func() { go s.hub.pinger(s.opts.WSPingInterval, s.opts.WSIdleTimeout) })
	if !w.expires.IsZero() {
		// Closed as a frame after the expiry would close it (see
		// tokenValid), without waiting for one: an idle connection would
		// otherwise go on receiving the session's state updates.
		w.expiry = time.AfterFunc(time.Until(w.expires), func() { _ = w.c.Close(statusInvalidToken, "Invalid token") })
	}
	err = w.writeLocked(ctx, frames...)
	w.out.Unlock()
	if err != nil {
		s.closeConn(w)
		return nil
	}
	// Read on a fresh goroutine: this one's stack has grown with the
	// request's work, and an idle connection should cost as little as a
	// blocked read.
	go s.readLoop(ctx, w)
	go s.catchUp(ctx, w, se.Row.Version)
	return nil
}

// catchUp sends a new connection the session's state if it changed
// between the load that the connection's first frame shows and the
// connection's registration, when no broadcast could reach it.
func (s *Server) catchUp(ctx context.Context, w *wsConn, version int64) {
	defer s.recovered("catch-up", w.session)
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	se, err := s.deps.Sessions.Load(ctx, w.session)
	switch {
	case errors.Is(err, orchestrator.ErrSessionNotFound):
		// Deleted since the first load: its notice may have come before
		// the connection was registered.
		s.SessionChanged(w.session, store.SessionDeleted)
	case err == nil && se.Row.Version > version:
		// To every connection on the session, not just the new one: the
		// change is recorded as broadcast, so its own notice, if still to
		// come, reaches no one.
		s.broadcast(w.session, se)
	}
}

// recovered, deferred first in each of a connection's goroutines, logs a
// panic there instead of letting it end the process: Echo's recovery covers
// only request handlers.
func (s *Server) recovered(what string, id uuid.UUID) {
	if p := recover(); p != nil {
		s.log.Error("websocket "+what+" panicked", "session_id", id, "panic", p, "stack", string(debug.Stack()))
	}
}

func (s *Server) closeConn(w *wsConn) {
	if w.expiry != nil {
		w.expiry.Stop()
	}
	s.hub.remove(w)
	s.hub.release(w.session, w.rateKey)
	if s.metrics != nil {
		s.metrics.wsClosed()
	}
	w.c.CloseNow()
}

// readLoop handles a connection's frames until it closes: by the client,
// the read limit (1009), the keepalive, shutdown, its token's expiry or a
// frame after its token stopped verifying (4001).
func (s *Server) readLoop(ctx context.Context, w *wsConn) {
	defer s.closeConn(w)
	defer func() {
		// A bug in handling a frame ends this connection, not the process:
		// the client is told, and the close says internal error (1011),
		// not a dropped network it would reconnect to at once.
		if p := recover(); p != nil {
			s.log.Error("websocket connection panicked", "session_id", w.session, "panic", p, "stack", string(debug.Stack()))
			wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			w.send(wctx, textFrame("error", "Server error: Internal error"))
			_ = w.c.Close(websocket.StatusInternalError, "internal error")
		}
	}()
	for {
		typ, data, err := w.c.Read(ctx)
		if err != nil {
			return
		}
		if !s.tokenValid(ctx, w) {
			continue // refused; the read after a close ends the loop
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
			if w.stateLimit == nil {
				w.stateLimit = rate.NewLimiter(stateRate, stateBurst)
			}
			if !w.stateLimit.Allow() {
				w.send(ctx, textFrame("error", "Too many get_state requests; please slow down"))
				continue
			}
			s.sendState(ctx, w)
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

// tokenValid reports whether a client frame may be acted on: whether the
// token the connection was opened with, if any, verifies now as it would
// on a REST request. The upgrade's check does not cover a token that has
// expired since. One that no longer verifies closes the connection as the
// contract has it for an invalid token (4001). While the identity
// provider's keys are unavailable the frame is refused with an error and
// the connection kept, as REST answers 503 rather than 401 then.
func (s *Server) tokenValid(ctx context.Context, w *wsConn) bool {
	if w.token == "" {
		return true
	}
	_, err := s.verifyAccess(ctx, w.token)
	var apiErr *Error
	switch {
	case err == nil:
		return true
	case errors.As(err, &apiErr) && apiErr.Status == http.StatusServiceUnavailable:
		s.log.Warn("websocket token check failed", "session_id", w.session, "err", err)
		w.send(ctx, textFrame("error", apiErr.Message))
	default:
		_ = w.c.Close(statusInvalidToken, "Invalid token")
	}
	return false
}

func closedChan() chan struct{} {
	ch := make(chan struct{})
	close(ch)
	return ch
}

// sendState answers get_state with the session's current state; while a
// turn is in flight, after that turn's frames (as the reference, which
// reads the next frame only once a turn is done).
func (s *Server) sendState(ctx context.Context, w *wsConn) {
	w.out.Lock()
	defer w.out.Unlock()
	if w.inTurn() {
		w.wantState++
		return
	}
	lctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	w.writeLocked(ctx, s.currentState(lctx, w.session))
}

// currentState is a state_update with the session as stored, or, when it
// cannot be read, an error frame that says so: a client waiting for its
// answer to get_state is answered either way.
func (s *Server) currentState(ctx context.Context, id uuid.UUID) serverFrame {
	cur, err := s.deps.Sessions.Load(ctx, id)
	if err != nil {
		apiErr := s.toAPIError(err)
		if apiErr.Status >= 500 {
			s.log.Error("websocket state read failed", "session_id", id, "err", err)
		}
		return textFrame("error", "Server error: "+apiErr.Message)
	}
	return sessionFrame(cur)
}

// flushLocked sends what waited for a turn's frames: the answers to
// get_state, and the newest state update of another writer if it is newer
// than the turn's. The caller holds w.out.
func (s *Server) flushLocked(ctx context.Context, w *wsConn) {
	if n := w.wantState; n > 0 {
		w.wantState = 0
		lctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		f := s.currentState(lctx, w.session)
		for range n {
			w.writeLocked(ctx, f)
		}
	}
	if p := w.pending; p != nil {
		w.pending = nil
		if p.version > w.sent {
			w.writeLocked(ctx, *p)
		}
	}
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
		// The last frames go out even when the turn ran out of time.
		after := context.WithoutCancel(tctx)
		// finish sends the turn's last frames, then what waited for them.
		// The connection takes its next message as soon as the turn is done
		// (a client may send it as soon as it reads the reply); holding out
		// keeps that turn's frames after these.
		finished := false
		finish := func(frames ...serverFrame) {
			w.out.Lock()
			defer w.out.Unlock()
			w.mu.Lock()
			w.busy = false
			w.mu.Unlock()
			w.writeLocked(after, frames...)
			s.flushLocked(after, w)
			close(idle)
			finished = true
		}
		// fail answers the turn with an error and, as the reference does
		// after every chat, the session's state.
		fail := func(msg string) {
			frames := []serverFrame{textFrame("error", msg)}
			lctx, lcancel := context.WithTimeout(after, 10*time.Second)
			defer lcancel()
			if cur, err := s.deps.Sessions.Load(lctx, id); err == nil {
				frames = append(frames, sessionFrame(cur))
			}
			finish(frames...)
		}
		defer func() {
			// A bug in a turn answers that turn with an error; it must not
			// end the process and every other learner's connection.
			if p := recover(); p != nil {
				s.log.Error("websocket turn panicked", "session_id", id, "panic", p, "stack", string(debug.Stack()))
				if !finished {
					// The error, then the state, as after any failed turn;
					// if reading the state fails as badly, the error alone.
					func() {
						defer func() {
							if recover() != nil && !finished {
								finish(textFrame("error", "Internal error"))
							}
						}()
						fail("Internal error")
					}()
				}
			}
		}()
		if n := len([]rune(msg)); n > s.opts.MaxReplyChars {
			fail(fmt.Sprintf("Your message is %d characters; at most %d are accepted.", n, s.opts.MaxReplyChars))
			return
		}
		refund, replay, err := s.allowTurn(tctx, w.rateKey, id, msg, clientTurnID)
		var limited *Error
		switch {
		case errors.As(err, &limited) && limited.Code == "rate_limited":
			fail(fmt.Sprintf("Too many messages; try again in %d s", retrySeconds(limited.RetryAfter)))
			return
		case err != nil:
			apiErr := s.toAPIError(err)
			if apiErr.Status >= 500 {
				s.log.Error("websocket turn failed", "session_id", id, "err", err)
			}
			fail(apiErr.Message)
			return
		case replay != nil:
			// A retry of a committed turn (after a reconnect) gets its
			// reply whatever the rate: it runs nothing.
			w.send(tctx, serverFrame{Type: "typing"}) // the frames of any chat
			finish(textFrame("assistant", replay.Reply), sessionFrame(replay.Session))
			return
		}
		w.send(tctx, serverFrame{Type: "typing"})
		res, err := s.deps.Sessions.ProcessTurn(tctx, id, msg, clientTurnID)
		var conflict *orchestrator.ConflictError
		switch {
		case err == nil:
			if res.Replayed {
				refund()
			}
			finish(textFrame("assistant", res.Reply), sessionFrame(res.Session))
			if res.Committed && !res.Replayed {
				s.broadcast(id, res.Session, w)
			}
		case errors.As(err, &conflict):
			// Another replica or tab won: adopt its state.
			finish(textFrame("error", conflictMessage), stateFrame(conflict.State, conflict.Topic, conflict.Version))
		default:
			apiErr := s.toAPIError(err)
			if apiErr.Status >= 500 {
				s.log.Error("websocket turn failed", "session_id", id, "err", err)
			}
			fail(apiErr.Message)
		}
	}()
}
