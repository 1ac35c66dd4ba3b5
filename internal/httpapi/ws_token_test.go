package httpapi_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/tutord/tutord/internal/auth"
	"github.com/tutord/tutord/internal/httpapi"
)

// testClock is the clock of a verifier whose time a test moves on.
type testClock struct{ ahead atomic.Int64 }

func (c *testClock) Now() time.Time          { return time.Now().Add(time.Duration(c.ahead.Load())) }
func (c *testClock) advance(d time.Duration) { c.ahead.Add(int64(d)) }

// TestWebSocketClosesOnAFrameAfterItsTokenExpires: a learner's WebSocket
// acts for her only while the access token it was opened with verifies, as
// a REST request with that token would now. Within the verifier's leeway
// after the token's expiry her chat is still answered; past it her next
// frame closes the connection with the contract's 4001 "Invalid token"
// (CONTRACT §3.1), the turn not run, where REST answers the same token
// with 401. An anonymous session's WebSocket, opened without a token,
// chats on.
func TestWebSocketClosesOnAFrameAfterItsTokenExpires(t *testing.T) {
	clock := &testClock{}
	s := newServer(t, func(_ *httpapi.Options, d *httpapi.Deps) {
		v, err := auth.NewVerifier(auth.Config{Secret: testSecret, Audience: "tutord-test", Leeway: 30 * time.Second, Now: clock.Now})
		if err != nil {
			t.Fatal(err)
		}
		d.Auth = httpapi.NewAuthenticator(v)
	})
	alice := token(t, "alice", false) // expires in an hour
	id := s.newSession(fractions, "", alice)
	w := s.joined(t, id, alice)
	anon := s.joined(t, s.newSession(fractions, "", ""), "")

	clock.advance(time.Hour + 10*time.Second) // expired, within the leeway
	if r := s.do("GET", "/sessions/"+id, nil, alice); r.Status != 200 {
		t.Fatalf("REST within the leeway: %d %s; want 200", r.Status, r.Body)
	}
	if reply, errMsg, _ := w.chat("Can you explain that again?"); reply == "" {
		t.Fatalf("chat within the leeway: error %q; want the tutor's reply, as REST still takes the token", errMsg)
	}

	clock.advance(time.Minute) // past the leeway
	if r := s.do("GET", "/sessions/"+id, nil, alice); r.Status != 401 || r.JSON(t)["detail"] != "Invalid token: Signature has expired." {
		t.Fatalf("REST with the expired token: %d %s; want 401 Invalid token: Signature has expired.", r.Status, r.Body)
	}
	w.send(map[string]any{"type": "chat", "payload": map[string]any{"message": "And once more?"}})
	f, err := w.readWithin(10 * time.Second)
	if err == nil {
		t.Fatalf("chat with the expired token: frame %s; want the connection closed with 4001, the turn not run", f.Type)
	}
	var ce websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != 4001 || ce.Reason != "Invalid token" {
		t.Fatalf("chat with the expired token: the connection ended with %v; want close 4001 Invalid token", err)
	}
	doc := s.do("GET", "/sessions/"+id, nil, tokenSignedIn(t, "alice", false, clock.Now())).JSON(t)
	if doc["turn_count"] != float64(1) {
		t.Errorf("turn_count %v after a chat within the leeway and one past it; want 1", doc["turn_count"])
	}

	if reply, errMsg, _ := anon.chat("Can you explain that again?"); reply == "" {
		t.Errorf("an anonymous session's chat once the clock moved on: error %q; want the tutor's reply", errMsg)
	}
}

// outageAuth verifies tokens as the embedded Authenticator does, except
// while down, when verification fails as it does when the identity
// provider's keys cannot be fetched.
type outageAuth struct {
	httpapi.Authenticator
	keysDown httpapi.Authenticator
	rsaToken string // a token only keysDown's provider could verify
	down     atomic.Bool
}

func (a *outageAuth) Access(ctx context.Context, tok string) (httpapi.Identity, error) {
	if a.down.Load() {
		return a.keysDown.Access(ctx, a.rsaToken)
	}
	return a.Authenticator.Access(ctx, tok)
}

// TestWebSocketKeepsItsLearnerThroughAKeysOutage: while the identity
// provider's keys cannot be fetched, a learner's chat over her open
// WebSocket is refused with an error frame, as REST answers 503 rather
// than a 401 that signs her out; the connection stays open, and once the
// keys are back her chat is answered.
func TestWebSocketKeepsItsLearnerThroughAKeysOutage(t *testing.T) {
	a := &outageAuth{keysDown: keysDownAuth(t), rsaToken: rsaToken(t, "access")}
	s := newServer(t, func(_ *httpapi.Options, d *httpapi.Deps) {
		a.Authenticator = d.Auth
		d.Auth = a
	})
	alice := token(t, "alice", false)
	id := s.newSession(fractions, "", alice)
	w := s.joined(t, id, alice)

	a.down.Store(true)
	w.send(map[string]any{"type": "chat", "payload": map[string]any{"message": "Can you explain that again?"}})
	if f := w.read(); f.Type != "error" || f.Payload.Error == nil || *f.Payload.Error != "Authentication is temporarily unavailable; please retry" {
		t.Fatalf("chat while the keys are unavailable: frame %s %v; want error Authentication is temporarily unavailable; please retry", f.Type, f.Payload.Error)
	}
	a.down.Store(false)
	if reply, errMsg, st := w.chat("Can you explain that again?"); reply == "" || st["turn_count"] != float64(1) {
		t.Fatalf("chat once the keys are back: reply %q, error %q, turn_count %v; want the tutor's reply and one turn", reply, errMsg, st["turn_count"])
	}
}

// TestIdleWebSocketClosesWhenItsTokenExpires: a learner's WebSocket that
// sends nothing stops receiving her session when the access token it was
// opened with expires (its exp plus the verifier's leeway): it is closed
// then with 4001 "Invalid token", without waiting for a frame of hers, and
// is sent nothing about the session after. Until then the session's
// changes reach it; her other tab, opened with a fresh token, and an
// anonymous session's connection, opened without one, carry on.
func TestIdleWebSocketClosesWhenItsTokenExpires(t *testing.T) {
	const leeway, ttl = time.Second, 4 * time.Second
	s := newServer(t, func(_ *httpapi.Options, d *httpapi.Deps) {
		v, err := auth.NewVerifier(auth.Config{Secret: testSecret, Audience: "tutord-test", Leeway: leeway})
		if err != nil {
			t.Fatal(err)
		}
		d.Auth = httpapi.NewAuthenticator(v)
	})
	fresh := token(t, "alice", false) // expires in an hour
	issued := time.Unix(time.Now().Unix(), 0)
	short, err := auth.Mint([]byte(testSecret), auth.MintOptions{Subject: "alice", ClientID: "tutord-test", TTL: ttl, IssuedAt: issued})
	if err != nil {
		t.Fatal(err)
	}
	expires := issued.Add(ttl + leeway)
	id := s.newSession(fractions, "", fresh)
	w := s.joined(t, id, short)
	other := s.joined(t, id, fresh)
	anon := s.joined(t, s.newSession(fractions, "", ""), "")

	if r := s.do("POST", "/sessions/"+id+"/pause", nil, fresh); r.Status != 200 {
		t.Fatalf("pause: %d %s", r.Status, r.Body)
	}
	for name, c := range map[string]*wsClient{"the short token's connection": w, "the other tab": other} {
		if f, err := c.readWithin(time.Until(expires)); err != nil || f.Type != "state_update" || f.state(t)["is_paused"] != true {
			t.Fatalf("%s before the token expired: %s %v; want the paused state", name, f.Type, err)
		}
	}

	f, err := w.readWithin(time.Until(expires) + 5*time.Second)
	closed := time.Now()
	if err == nil {
		t.Fatalf("idle with an expiring token: frame %s; want the connection closed with 4001", f.Type)
	}
	var ce websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != 4001 || ce.Reason != "Invalid token" {
		t.Fatalf("idle with an expiring token: the connection ended with %v; want close 4001 Invalid token when the token expired", err)
	}
	if early := expires.Sub(closed); early > 100*time.Millisecond {
		t.Fatalf("the connection closed %s before its token expired (leeway included)", early)
	}

	if r := s.do("POST", "/sessions/"+id+"/resume", nil, fresh); r.Status != 200 {
		t.Fatalf("resume: %d %s", r.Status, r.Body)
	}
	if f, err := other.readWithin(5 * time.Second); err != nil || f.Type != "state_update" || f.state(t)["is_paused"] != false {
		t.Errorf("the other tab after the resume: %s %v; want the resumed state", f.Type, err)
	}
	if reply, errMsg, _ := anon.chat("Can you explain that again?"); reply == "" {
		t.Errorf("an anonymous session's chat after the token expired: error %q; want the tutor's reply", errMsg)
	}
}
