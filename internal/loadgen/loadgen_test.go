package loadgen

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// A learner whose lesson completes starts a new session; when that
// session's WebSocket cannot be opened (here the server refuses the
// upgrade), the learner stops with no connection, and Run's clean-up used to
// close that nil connection and panic.
func TestRunSurvivesARestartWhoseDialFails(t *testing.T) {
	var sessions atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("POST /sessions", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"session_id":"s%d"}`, sessions.Add(1))
	})
	mux.HandleFunc("GET /sessions/ws/{id}", func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("id") != "s1" {
			http.Error(w, "no more sessions", http.StatusForbidden)
			return
		}
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		ctx := r.Context()
		for _, f := range []string{`{"type":"state"}`, `{"type":"welcome"}`} {
			if c.Write(ctx, websocket.MessageText, []byte(f)) != nil {
				return
			}
		}
		// Every turn completes the lesson.
		for {
			if _, _, err := c.Read(ctx); err != nil {
				return
			}
			if c.Write(ctx, websocket.MessageText, []byte(`{"type":"state_update","payload":{"state":{"is_complete":true}}}`)) != nil {
				return
			}
		}
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	res, err := Run(context.Background(), Target{URL: srv.URL, GuidelineID: "g"}, 1, time.Minute, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if res.Turns != 1 || sessions.Load() != 2 {
		t.Fatalf("turns %d, sessions %d; want 1 turn, then a second session whose dial fails", res.Turns, sessions.Load())
	}
}
