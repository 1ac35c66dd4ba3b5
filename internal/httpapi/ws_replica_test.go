package httpapi_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/google/uuid"

	"github.com/tutord/tutord/internal/agents/engine"
	"github.com/tutord/tutord/internal/agents/rules"
	"github.com/tutord/tutord/internal/httpapi"
	"github.com/tutord/tutord/internal/lessons"
	"github.com/tutord/tutord/internal/orchestrator"
	"github.com/tutord/tutord/internal/store"
)

// A turn taken through one replica reaches the WebSocket connections that
// another replica holds on the session, through the database's
// notifications.
func TestWebSocketUpdateFromAnotherReplica(t *testing.T) {
	s := newServer(t)
	set, err := rules.New()
	if err != nil {
		t.Fatal(err)
	}
	replica := func(st *store.Store) *apiServer {
		return newServerWith(t, s, orchestrator.New(orchestrator.Options{Store: st, Lessons: lessons.NewSource(st),
			Engines: engine.New(set, nil, st), FallbackSafety: set.Safety}))
	}
	a := replica(s.st)                                     // holds the WebSocket
	b := replica(store.New(s.st.Pool(), store.Announce())) // takes the turns, over REST
	ctx, cancel := context.WithCancel(context.Background())
	watched := make(chan error, 1)
	go func() { watched <- s.st.WatchSessions(ctx, nil, a.srv.SessionChanged) }()
	t.Cleanup(func() { cancel(); <-watched })

	id := s.newSession(fractions, "", "")
	w := a.joined(t, id, "")
	frames := make(chan frame, 10)
	go func() {
		for {
			f, err := w.readFrame()
			if err != nil {
				close(frames)
				return
			}
			frames <- f
		}
	}()
	// The watch may start listening after the first turn: step until the
	// connection hears of one.
	for turn := 1; ; turn++ {
		if r := b.do("POST", "/sessions/"+id+"/step", map[string]any{"student_reply": "ok"}, ""); r.Status != 200 {
			t.Fatalf("step on replica B: %d %s", r.Status, r.Body)
		}
		var f frame
		select {
		case f = <-frames:
		case <-time.After(time.Second):
			if turn == 5 {
				t.Fatal("replica A's connection heard of none of 5 turns taken on replica B")
			}
			continue
		}
		if f.Type != "state_update" {
			t.Fatalf("frame %s, want state_update", f.Type)
		}
		if got := f.state(t)["turn_count"]; got != float64(turn) {
			t.Fatalf("state_update with turn_count %v after turn %d", got, turn)
		}
		return
	}
}

// flakyLoads fails the next loads it is told to.
type flakyLoads struct {
	httpapi.Sessions
	failures atomic.Int32
}

func (f *flakyLoads) Load(ctx context.Context, id uuid.UUID) (orchestrator.Session, error) {
	if f.failures.Add(-1) >= 0 {
		return orchestrator.Session{}, errors.New("connection reset by peer")
	}
	return f.Sessions.Load(ctx, id)
}

// A change announced by another replica still reaches the connections
// when reading it fails once: it is read again.
func TestWebSocketUpdateSurvivesAFailedRead(t *testing.T) {
	s := newServer(t)
	fl := &flakyLoads{Sessions: s.o}
	a := httpapi.New(httpapi.Deps{DB: s.st, Curriculum: s.st, Sessions: fl, Learners: s.st, Profiles: s.st, Progress: s.st, AgentLogs: s.st},
		httpapi.Options{AllowAnonymous: true, CORSOrigins: []string{"*"}})
	as := &apiServer{t: t, URL: newHTTPServer(t, a), st: s.st, o: s.o, srv: a, router: s.router, subject: s.subject}
	id := s.newSession(fractions, "", "")
	w := as.joined(t, id, "")
	// The turn as another replica takes it: this server hears of it only
	// through the announcement.
	r, err := s.o.ProcessTurn(context.Background(), uuid.MustParse(id), "ok", "")
	if err != nil {
		t.Fatal(err)
	}
	fl.failures.Store(1)
	a.SessionChanged(uuid.MustParse(id), r.Session.Row.Version)
	if f := w.read(); f.Type != "state_update" || f.state(t)["turn_count"] != float64(1) {
		t.Fatalf("frame %s %v, want the state after the turn", f.Type, f.state(t)["turn_count"])
	}
}

// A change that another replica commits while a WebSocket opens here
// reaches the new connection by its catch-up, and the connections already
// open too, though the change's own notice then brings nothing new.
func TestWebSocketCatchUpReachesEveryConnection(t *testing.T) {
	hold := &holdFirstLoad{armed: make(chan struct{}), held: make(chan struct{}), release: make(chan struct{})}
	s := newServer(t, func(_ *httpapi.Options, d *httpapi.Deps) {
		hold.Sessions = d.Sessions
		d.Sessions = hold
	})
	id := s.newSession(fractions, "", "")
	open := s.joined(t, id, "")
	close(hold.armed)
	dialed := make(chan *wsClient, 1)
	go func() {
		w, _, err := s.dial(t, id, "")
		if err != nil {
			t.Error(err)
		}
		dialed <- w
	}()
	<-hold.held // the new connection has read the session before the turn
	// The other replica's turn, committed to the same database.
	res, err := s.o.ProcessTurn(context.Background(), uuid.MustParse(id), "ok", "")
	if err != nil {
		t.Fatal(err)
	}
	close(hold.release)
	w := <-dialed
	if w == nil {
		t.FailNow()
	}
	w.read() // the state before the turn
	w.read() // the welcome
	if f := w.read(); f.Type != "state_update" || f.state(t)["turn_count"] != float64(1) {
		t.Fatalf("the new connection's catch-up: %s %s", f.Type, f.Payload.State)
	}
	s.srv.SessionChanged(uuid.MustParse(id), res.Session.Row.Version) // the turn's notice
	if f := open.read(); f.Type != "state_update" || f.state(t)["turn_count"] != float64(1) {
		t.Fatalf("the connection open before: %s %s, want the state after the turn", f.Type, f.Payload.State)
	}
}

// TestWebSocketClosedWhenItsSessionIsDeleted: a learner deleted through
// any process closes the connections on their sessions with 4004 Session
// not found (CONTRACT §3.1), rather than leaving them open to fail.
func TestWebSocketClosedWhenItsSessionIsDeleted(t *testing.T) {
	s := newServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	probe := uuid.New()
	listening := make(chan struct{}, 1)
	watched := make(chan error, 1)
	go func() {
		watched <- s.st.WatchSessions(ctx, nil, func(id uuid.UUID, v int64) {
			if id == probe {
				listening <- struct{}{}
			}
			s.srv.SessionChanged(id, v)
		})
	}()
	t.Cleanup(func() { cancel(); <-watched })
	for heard := false; !heard; {
		if _, err := s.st.Pool().Exec(ctx, `SELECT pg_notify($1, $2)`, store.SessionChannel, probe.String()+":1"); err != nil {
			t.Fatal(err)
		}
		select {
		case <-listening:
			heard = true
		case <-time.After(200 * time.Millisecond):
		}
	}

	tok := token(t, "deleted-with-a-tab-open", false)
	id := s.newSession(fractions, "", tok)
	w := s.joined(t, id, tok)
	if _, err := store.New(s.st.Pool(), store.Announce()).DeleteLearner(ctx, "deleted-with-a-tab-open"); err != nil {
		t.Fatal(err)
	}
	w.wantClosed(4004, 20*time.Second)
}

// TestWebSocketClosedWhenItsLearnerIsDeletedHere: a learner deleted through
// this process (DELETE /auth/admin/user, one process, no announcements)
// has their connections here closed with 4004 too.
func TestWebSocketClosedWhenItsLearnerIsDeletedHere(t *testing.T) {
	s := newServer(t)
	tok := token(t, "deleted-here", false)
	id := s.newSession(fractions, "", tok)
	w := s.joined(t, id, tok)
	if r := s.do("DELETE", "/auth/admin/user?cognito_sub=deleted-here", nil, token(t, "root", true)); r.Status != 200 {
		t.Fatalf("delete learner: %d %s", r.Status, r.Body)
	}
	w.wantClosed(4004, 5*time.Second)
}

// TestWebSocketOpenedDuringDeletionIsClosed: a learner deleted while one of
// their tabs opens its WebSocket, after the upgrade read the session and
// before the connection could hear of the deletion, has that connection
// closed with 4004 too, not left open on a session that is gone.
func TestWebSocketOpenedDuringDeletionIsClosed(t *testing.T) {
	hold := &holdFirstLoad{armed: make(chan struct{}), held: make(chan struct{}), release: make(chan struct{})}
	s := newServer(t, func(_ *httpapi.Options, d *httpapi.Deps) {
		hold.Sessions = d.Sessions
		d.Sessions = hold
	})
	tok := token(t, "deleted-while-opening", false)
	id := s.newSession(fractions, "", tok)
	close(hold.armed)
	dialed := make(chan *wsClient, 1)
	go func() {
		w, _, err := s.dial(t, id, tok)
		if err != nil {
			t.Error(err)
		}
		dialed <- w
	}()
	<-hold.held // the upgrade has read the session
	if r := s.do("DELETE", "/auth/admin/user?cognito_sub=deleted-while-opening", nil, token(t, "root", true)); r.Status != 200 {
		t.Fatalf("delete learner: %d %s", r.Status, r.Body)
	}
	close(hold.release)
	w := <-dialed
	if w == nil {
		t.Fatal("the upgrade was refused; the test wants it to have read the session before the deletion")
	}
	w.wantClosed(4004, 5*time.Second)
}

// TestWebSocketClosedWhenAChangedSessionIsGone: a change announced for a
// session that is gone by the time it is read (deleted by a process that
// does not announce deletions) closes its connections with 4004.
func TestWebSocketClosedWhenAChangedSessionIsGone(t *testing.T) {
	s := newServer(t)
	tok := token(t, "gone-on-change", false)
	id := s.newSession(fractions, "", tok)
	w := s.joined(t, id, tok)
	if _, err := s.st.DeleteLearner(context.Background(), "gone-on-change"); err != nil {
		t.Fatal(err)
	}
	s.srv.SessionChanged(uuid.MustParse(id), 99)
	w.wantClosed(4004, 5*time.Second)
}

// wantClosed reads the frames the server still sends (logging them) until
// it closes the connection, within d, and fails unless it closes with code.
func (w *wsClient) wantClosed(code websocket.StatusCode, d time.Duration) {
	w.t.Helper()
	deadline := time.Now().Add(d)
	for {
		f, err := w.readWithin(time.Until(deadline))
		if err == nil {
			w.t.Logf("frame %s before the close", f.Type)
			continue
		}
		if got := websocket.CloseStatus(err); got != code {
			w.t.Fatalf("the connection ended with %v (close status %d); want close %d", err, got, code)
		}
		return
	}
}

// Changes made on another replica while this one's watch of the database
// was down (its connection lost, listening again after a backoff) are not
// announced again: once it listens again, Resync sends its connections the
// stored state, and closes those on a session deleted meanwhile. They kept
// the state from before the gap until the next change.
func TestWebSocketResyncAfterMissedChanges(t *testing.T) {
	s := newServer(t)
	set, err := rules.New()
	if err != nil {
		t.Fatal(err)
	}
	a := newServerWith(t, s, orchestrator.New(orchestrator.Options{Store: s.st, Lessons: lessons.NewSource(s.st),
		Engines: engine.New(set, nil, s.st), FallbackSafety: set.Safety}))
	kept, deleted := s.newSession(fractions, "", ""), s.newSession(fractions, "", "")
	w, gone := a.joined(t, kept, ""), a.joined(t, deleted, "")
	// Meanwhile, with no watch listening, replica B (the test server)
	// takes a turn on one session, and the other is deleted.
	if r := s.do("POST", "/sessions/"+kept+"/step", map[string]any{"student_reply": "ok"}, ""); r.Status != 200 {
		t.Fatalf("step on replica B: %d %s", r.Status, r.Body)
	}
	if _, err := s.st.Pool().Exec(context.Background(), `DELETE FROM sessions WHERE id = $1`, deleted); err != nil {
		t.Fatal(err)
	}
	a.srv.Resync()
	f, err := w.readWithin(5 * time.Second)
	if err != nil || f.Type != "state_update" || f.state(t)["turn_count"] != float64(1) {
		t.Fatalf("after the resync: %s (%v); want the state_update of turn 1", f.Type, err)
	}
	if _, err := gone.readWithin(5 * time.Second); websocket.CloseStatus(err) != 4004 {
		t.Fatalf("the deleted session's connection after the resync: %v; want close 4004", err)
	}
}
