package httpapi_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tutord/tutord/internal/httpapi"
)

// TestStalledReaderIsDropped: a client that asks for a large response and
// stops reading it does not hold the connection, its handler and the
// response for ever: after Options.WriteTimeout the server gives up and
// closes the connection.
func TestStalledReaderIsDropped(t *testing.T) {
	const timeout = 500 * time.Millisecond
	s := newServer(t, func(o *httpapi.Options, _ *httpapi.Deps) { o.WriteTimeout = timeout })
	tok := token(t, "stalled-reader", false)
	id := uuid.MustParse(s.newSession(fractions, "clarify_doubts", tok))
	// An export larger than what the two ends' socket buffers hold (the
	// server's send buffer grows to 4 MB on Linux).
	for range 2500 {
		if _, err := s.o.ProcessTurn(context.Background(), id, "why do we need a common denominator?", ""); err != nil {
			t.Fatal(err)
		}
	}
	full := s.do("GET", "/profile/export", nil, tok)
	if full.Status != 200 {
		t.Fatalf("export: %d %s", full.Status, full.Body)
	}
	if len(full.Body) < 5<<20 {
		t.Fatalf("the export is %d bytes, too small to fill the socket buffers", len(full.Body))
	}

	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		var err error
		c.Control(func(fd uintptr) { err = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
		return err
	}}
	conn, err := d.Dial("tcp", strings.TrimPrefix(s.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET /profile/export HTTP/1.1\r\nHost: tutord\r\nAuthorization: Bearer %s\r\n\r\n", tok)
	time.Sleep(4 * timeout) // the client reads nothing

	conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no response head: %v", err)
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err == nil {
		t.Fatalf("a client that stopped reading for %v still got the whole export (%d bytes): the server waited on it", 4*timeout, n)
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("the server neither finished the export nor closed the connection: %v", err)
	}
}
