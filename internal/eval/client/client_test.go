package client

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/google/go-cmp/cmp"
)

func TestDoRetriesRateLimits(t *testing.T) {
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		if got := r.Header.Get("Authorization"); got != "Bearer tok" {
			t.Errorf("Authorization = %q", got)
		}
		if calls < 3 {
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		w.Write([]byte(`{"subjects":["Mathematics"],"topics":null,"subtopics":null}`))
	}))
	defer srv.Close()
	c := &Client{BaseURL: srv.URL, Token: "tok", Retries: 5, MaxWait: time.Millisecond}
	cur, err := c.Curriculum(context.Background(), CurriculumQuery{Country: "India", Board: "CBSE", Grade: 7})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"Mathematics"}, cur.Subjects); diff != "" {
		t.Errorf("subjects (-want +got):\n%s", diff)
	}
	if calls != 3 || c.RateLimited != 2 {
		t.Errorf("%d calls, %d rate limited; want 3 and 2", calls, c.RateLimited)
	}

	c = &Client{BaseURL: srv.URL, Token: "tok", Retries: 0}
	calls = 0
	if status, _, err := c.Do(context.Background(), http.MethodGet, "/", nil); err != nil || status != http.StatusTooManyRequests {
		t.Errorf("without retries: %d %v, want the 429", status, err)
	}
}

func TestAPIError(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		want   string
	}{
		{"contract error body", 404, `{"detail":"Session not found","error":{"code":"session_not_found","message":"Session not found"}}`,
			"GET /sessions/x: 404 session_not_found: Session not found"},
		{"detail only", 400, `{"detail":"Only Teach Me sessions can be paused"}`, "GET /sessions/x: 400 Only Teach Me sessions can be paused"},
		{"plain text", 500, "Internal Server Error", "GET /sessions/x: 500 Internal Server Error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tt.status)
				w.Write([]byte(tt.body))
			}))
			defer srv.Close()
			_, err := (&Client{BaseURL: srv.URL}).Session(context.Background(), "x")
			var ae *APIError
			if !errors.As(err, &ae) || ae.Status != tt.status || err.Error() != tt.want {
				t.Errorf("error = %v, want %q", err, tt.want)
			}
		})
	}
}

// wsServer serves a WebSocket that sends frames, then closes with status.
func wsServer(t *testing.T, frames []string, binary bool, status websocket.StatusCode) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("token") != "tok" || !strings.HasPrefix(r.URL.Path, "/sessions/ws/") {
			t.Errorf("dialled %s", r.URL)
		}
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		for _, f := range frames {
			c.Write(r.Context(), websocket.MessageText, []byte(f))
		}
		if binary {
			c.Write(r.Context(), websocket.MessageBinary, []byte{1})
		}
		c.Close(status, "bye")
	}))
}

func TestConn(t *testing.T) {
	ok := []string{
		`{"type":"typing","payload":{"message":null,"state":null,"error":null}}`,
		`{"type":"assistant","payload":{"message":"Hi!","state":null,"error":null}}`,
		`{"type":"state_update","payload":{"message":null,"error":null,"state":{"current_step":2,"question_phase":"probe","last_answer_result":null,"mastery_estimates":{"a":0.5}}}}`,
		`{"type":"error","payload":{"message":null,"state":null,"error":"Too many messages; try again in 2 s"}}`,
	}
	srv := wsServer(t, ok, false, websocket.StatusInternalError)
	defer srv.Close()
	conn, err := (&Client{BaseURL: srv.URL, Token: "tok"}).Dial(context.Background(), "s-1")
	if err != nil {
		t.Fatal(err)
	}
	conn.Timeout = 5 * time.Second
	var got []string
	for range ok {
		f, err := conn.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, f.Type+"|"+f.Message+"|"+f.Error+"|"+f.State.Phase()+"|"+f.State.Result())
	}
	want := []string{"typing||||", "assistant|Hi!|||", "state_update|||probe|", "error||Too many messages; try again in 2 s||"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("frames (-want +got):\n%s", diff)
	}
	_, err = conn.Next(context.Background())
	if !errors.Is(err, ErrClosed) || !strings.Contains(err.Error(), "status 1011") {
		t.Errorf("after the close: %v, want ErrClosed with status 1011", err)
	}
}

func TestConnRejectsBadFrames(t *testing.T) {
	tests := []struct {
		name   string
		frame  string
		binary bool
		want   string
	}{
		{"not JSON", `hello`, false, "not the contract's JSON"},
		{"unknown type", `{"type":"shout","payload":{}}`, false, `unknown type "shout"`},
		{"state_update without a state", `{"type":"state_update","payload":{"state":null}}`, false, "without a state"},
		{"binary", "", true, "binary frame"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var frames []string
			if tt.frame != "" {
				frames = []string{tt.frame}
			}
			srv := wsServer(t, frames, tt.binary, websocket.StatusNormalClosure)
			defer srv.Close()
			conn, err := (&Client{BaseURL: srv.URL, Token: "tok"}).Dial(context.Background(), "s-1")
			if err != nil {
				t.Fatal(err)
			}
			defer conn.CloseNow()
			if _, err := conn.Next(context.Background()); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Next = %v, want an error with %q", err, tt.want)
			}
		})
	}
}

// A scenario stopped by its caller (Ctrl-C, the run's deadline) says so;
// only a server that sends nothing for the frame timeout is blamed for it.
func TestNextSaysWhyItStoppedWaiting(t *testing.T) {
	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		c.Read(r.Context()) // sends nothing until the client goes
	}))
	defer silent.Close()
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	expired, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	tests := []struct {
		name    string
		ctx     context.Context
		timeout time.Duration
		want    string
		is      error
	}{
		{"frame timeout", context.Background(), 50 * time.Millisecond, "no frame from the server within 50ms", context.DeadlineExceeded},
		{"cancelled", cancelled, time.Minute, "stopped waiting for a frame", context.Canceled},
		{"the caller's deadline", expired, time.Minute, "stopped waiting for a frame", context.DeadlineExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			conn, err := (&Client{BaseURL: silent.URL}).Dial(context.Background(), "s-1")
			if err != nil {
				t.Fatal(err)
			}
			defer conn.CloseNow()
			conn.Timeout = tt.timeout
			_, err = conn.Next(tt.ctx)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, tt.is) {
				t.Errorf("Next = %v, want an error with %q wrapping %v", err, tt.want, tt.is)
			}
		})
	}
}

func TestDialRefused(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNotFound)
	}))
	defer srv.Close()
	if _, err := (&Client{BaseURL: srv.URL}).Dial(context.Background(), "s-1"); err == nil || !strings.Contains(err.Error(), "HTTP 404") {
		t.Errorf("Dial = %v, want the 404", err)
	}
}

// A server that never answers fails the request after the client's
// Timeout, saying so; the caller's own end is not blamed on the server.
func TestDoTimesOutASilentServer(t *testing.T) {
	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	}))
	defer silent.Close()
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		want string
		is   error
	}{
		{"request timeout", context.Background(), "GET /sessions/s-1: no answer from the server within 50ms", context.DeadlineExceeded},
		{"cancelled", cancelled, "context canceled", context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Client{BaseURL: silent.URL, Timeout: 50 * time.Millisecond}
			_, err := c.Session(tt.ctx, "s-1")
			if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, tt.is) {
				t.Fatalf("Session = %v, want an error with %q wrapping %v", err, tt.want, tt.is)
			}
			if tt.ctx.Err() != nil && strings.Contains(err.Error(), "no answer from the server") {
				t.Errorf("Session = %v: the caller's end is blamed on the server", err)
			}
		})
	}
}

// A 503 that says when to come back (tutord's database_busy: "the request
// was not run", Retry-After: 1) is waited out like a 429, so that a replay
// does not fail a scenario on a moment's load; a 503 without Retry-After
// (a provider down) is the answer.
func TestDoWaitsOutABusyServer(t *testing.T) {
	calls := 0
	retryAfter := "1"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		if calls == 1 {
			if retryAfter != "" {
				w.Header().Set("Retry-After", retryAfter)
			}
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte(`{"detail":"The server is busy; please try again shortly","error":{"code":"database_busy","message":"The server is busy; please try again shortly"}}`))
			return
		}
		w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	c := &Client{BaseURL: srv.URL, Retries: 5, MaxWait: time.Millisecond}
	if status, _, err := c.Do(context.Background(), http.MethodGet, "/", nil); err != nil || status != http.StatusOK || calls != 2 || c.RateLimited != 0 {
		t.Errorf("503 with Retry-After: %d %v after %d calls, %d rate limited; want 200 after 2 calls, none rate limited", status, err, calls, c.RateLimited)
	}
	calls, retryAfter = 0, ""
	if status, _, err := c.Do(context.Background(), http.MethodGet, "/", nil); err != nil || status != http.StatusServiceUnavailable || calls != 1 {
		t.Errorf("503 without Retry-After: %d %v after %d calls; want the 503 after 1 call", status, err, calls)
	}
}
