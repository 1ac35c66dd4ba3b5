package httpapi_test

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/tutord/tutord/internal/httpapi"
)

// TestWebSocketKeepalive: a connection that does not answer the server's
// pings is dropped; one that answers stays open.
func TestWebSocketKeepalive(t *testing.T) {
	s := newServer(t, func(o *httpapi.Options, _ *httpapi.Deps) {
		o.WSPingInterval, o.WSIdleTimeout = 50*time.Millisecond, 200*time.Millisecond
	})
	id := s.newSession(fractions, "", "")

	// A client that answers pings: it is always reading (coder/websocket
	// answers pings as it reads).
	live, _, err := s.dial(t, id, "")
	if err != nil {
		t.Fatal(err)
	}
	frames, done := make(chan frame), make(chan struct{})
	t.Cleanup(func() { close(done) })
	go func() {
		for {
			f, err := live.readFrame()
			if err != nil {
				return
			}
			select {
			case frames <- f:
			case <-done:
				return
			}
		}
	}()
	next := func() frame {
		t.Helper()
		select {
		case f := <-frames:
			return f
		case <-time.After(20 * time.Second):
			t.Fatal("no frame from the live connection")
			return frame{}
		}
	}
	next() // state_update
	next() // welcome

	// A client that reads but never answers a ping.
	conn, br := rawWebSocket(t, s.URL, "/sessions/ws/"+id)
	conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	pings := 0
	for {
		op, payload, err := readRawFrame(br)
		var ne net.Error
		switch {
		case errors.As(err, &ne) && ne.Timeout():
			t.Fatalf("still open after 20 s and %d unanswered pings", pings)
		case errors.Is(err, errBadFrame):
			t.Fatal(err)
		}
		if err != nil {
			break // dropped by the server
		}
		switch op {
		case 0x1:
			if _, err := decodeServerFrame(payload); err != nil {
				t.Fatal(err)
			}
		case 0x9:
			pings++
		}
	}
	if pings == 0 {
		t.Fatal("dropped without a ping")
	}

	// The live connection was pinged as often, and still works.
	live.send(map[string]any{"type": "chat", "payload": map[string]any{"message": "ready"}})
	for _, want := range []string{"typing", "assistant", "state_update"} {
		if f := next(); f.Type != want {
			t.Fatalf("live connection: %s, want %s", f.Type, want)
		}
	}
}

// rawWebSocket opens a WebSocket by hand, so that the test controls what
// the client answers (here: nothing, not even to pings).
func rawWebSocket(t *testing.T, serverURL, path string) (net.Conn, *bufio.Reader) {
	t.Helper()
	u, err := url.Parse(serverURL)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	req, err := http.NewRequest("GET", serverURL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Connection", "Upgrade")
	req.Header.Set("Upgrade", "websocket")
	req.Header.Set("Sec-WebSocket-Version", "13")
	req.Header.Set("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
	if err := req.Write(conn); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("upgrade: %s", resp.Status)
	}
	return conn, br
}

var errBadFrame = errors.New("fragmented or masked server frame")

// readRawFrame reads one frame as a server sends it (unmasked, unfragmented).
func readRawFrame(br *bufio.Reader) (opcode byte, payload []byte, err error) {
	var h [2]byte
	if _, err := io.ReadFull(br, h[:]); err != nil {
		return 0, nil, err
	}
	if h[0]&0x80 == 0 || h[1]&0x80 != 0 {
		return 0, nil, errBadFrame
	}
	n := uint64(h[1] & 0x7f)
	switch n {
	case 126:
		var b [2]byte
		if _, err := io.ReadFull(br, b[:]); err != nil {
			return 0, nil, err
		}
		n = uint64(binary.BigEndian.Uint16(b[:]))
	case 127:
		var b [8]byte
		if _, err := io.ReadFull(br, b[:]); err != nil {
			return 0, nil, err
		}
		n = binary.BigEndian.Uint64(b[:])
	}
	payload = make([]byte, n)
	if _, err := io.ReadFull(br, payload); err != nil {
		return 0, nil, err
	}
	return h[0] & 0x0f, payload, nil
}
