package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/jackc/pgx/v5"

	"github.com/tutord/tutord/internal/pgembed"
)

// slowModel is an OpenAI-compatible server that answers every chat
// completion with a valid tutor turn after a delay.
func slowModel(t *testing.T, delay time.Duration) *httptest.Server {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
		content := `{"response":"Good thinking — what would you try next?","intent":"continuation","answer_correct":null,"misconceptions_detected":[],"mastery_signal":null,"advance_to_step":null,"mastery_updates":[],"question_asked":null,"expected_answer":null,"question_concept":null,"session_complete":false,"turn_summary":"kept going","reasoning":"r"}`
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "slow",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": content}}},
			"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
		})
	}))
	t.Cleanup(s.Close)
	return s
}

// TestGracefulShutdownWithTurnsInFlight sends SIGTERM while 50 WebSocket
// turns wait on a slow model: each turn finishes (or fails cleanly), every
// connection is closed with 1001, the server exits 0, and no session is
// half-written.
func TestGracefulShutdownWithTurnsInFlight(t *testing.T) {
	model := slowModel(t, 1500*time.Millisecond)
	dir := dataDir(t)
	env := []string{"TUTORD_DATA_DIR=" + dir, "TUTORD_OPENAI_COMPATIBLE_BASE_URL=" + model.URL,
		"TUTORD_TURN_RATE=0", "TUTORD_CREATE_RATE=0", "TUTORD_SHUTDOWN_TIMEOUT=20s"}
	if out, code := runBinary(t, env, "llm-config", "set", "tutor", "openai-compatible", "slow"); code != 0 {
		t.Fatalf("llm-config: %s", out)
	}
	p := startServe(t, env...)
	p.waitReady(t)
	base := "http://" + p.addr

	// 50 sessions on the sample's first subtopic, each with a WebSocket.
	var cur struct {
		Subtopics []struct {
			GuidelineID string `json:"guideline_id"`
		}
	}
	getJSON(t, base+"/curriculum?country=India&board=CBSE&grade=7&subject=Mathematics&topic=Fractions", &cur)
	const n = 50
	conns := make([]*websocket.Conn, n)
	ids := make([]string, n)
	for i := range n {
		body := fmt.Sprintf(`{"student":{"id":"s","grade":7},"goal":{"topic":"F","syllabus":"CBSE","learning_objectives":[],"guideline_id":%q}}`, cur.Subtopics[0].GuidelineID)
		var created struct {
			SessionID string `json:"session_id"`
		}
		postJSON(t, base+"/sessions", body, &created)
		ids[i] = created.SessionID
		c, _, err := websocket.Dial(context.Background(), "ws://"+p.addr+"/sessions/ws/"+created.SessionID, nil)
		if err != nil {
			t.Fatal(err)
		}
		conns[i] = c
		for range 2 { // state_update, welcome
			if _, _, err := c.Read(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
	}
	type outcome struct {
		frames []string
		close  websocket.StatusCode
	}
	results := make([]outcome, n)
	var wg sync.WaitGroup
	for i, c := range conns {
		if err := c.Write(context.Background(), websocket.MessageText, []byte(`{"type":"chat","payload":{"message":"ok"}}`)); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			for {
				_, data, err := c.Read(ctx)
				if err != nil {
					results[i].close = websocket.CloseStatus(err)
					return
				}
				var f struct{ Type string }
				json.Unmarshal(data, &f)
				results[i].frames = append(results[i].frames, f.Type)
			}
		}()
	}
	// Every turn is now waiting on the model; stop the server.
	time.Sleep(300 * time.Millisecond)
	p.stop(t)
	wg.Wait()
	for i, r := range results {
		got := strings.Join(r.frames, ",")
		if got != "typing,assistant,state_update" && got != "typing,error,state_update" {
			t.Errorf("connection %d got %q; want the turn finished or failed cleanly", i, got)
		}
		if r.close != websocket.StatusGoingAway {
			t.Errorf("connection %d closed with %d, want 1001", i, r.close)
		}
	}

	// No half-written session: every committed turn has its two messages
	// and its turn record.
	c, err := pgembed.Start(context.Background(), pgembed.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop(context.Background())
	db, err := pgx.Connect(context.Background(), c.ConnString("tutord"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(context.Background())
	var bad int
	err = db.QueryRow(context.Background(), `
SELECT count(*) FROM sessions s
WHERE s.message_count <> (SELECT count(*) FROM session_messages m WHERE m.session_id = s.id)
   OR s.message_count <> 1 + 2 * (s.state_version - 1)
   OR s.state_version - 1 <> (SELECT count(*) FROM session_turns r WHERE r.session_id = s.id)`).Scan(&bad)
	if err != nil || bad != 0 {
		t.Fatalf("%d inconsistent sessions (%v)", bad, err)
	}
	var turns int
	db.QueryRow(context.Background(), `SELECT count(*) FROM session_turns`).Scan(&turns)
	if turns != n {
		t.Errorf("%d turns committed, want all %d in-flight turns finished", turns, n)
	}
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

func postJSON(t *testing.T, url, body string, v any) {
	t.Helper()
	resp, err := http.Post(url, "application/json", bytes.NewBufferString(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("POST %s: %d %s", url, resp.StatusCode, b)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

// TestShutdownDelayDrains: with TUTORD_SHUTDOWN_DELAY, tutord goes on
// serving after SIGTERM, /readyz answering 503 "shutting down" so that a
// load balancer stops sending it requests, and then exits 0. Without the
// delay, it closed its listener at once, and requests still routed to it
// were refused.
func TestShutdownDelayDrains(t *testing.T) {
	p := startServe(t, "TUTORD_DATA_DIR="+dataDir(t), "TUTORD_SHUTDOWN_DELAY=3s")
	p.waitReady(t)
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for {
		code, body := p.get(t, "/readyz")
		if code == http.StatusServiceUnavailable && strings.Contains(body, "shutting down") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz after SIGTERM = %d %s; want 503 shutting down", code, body)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if code, body := p.get(t, "/healthz"); code != http.StatusOK {
		t.Errorf("a request while draining: %d %s", code, body)
	}
	select {
	case err := <-p.done:
		if err != nil {
			t.Fatalf("tutord exited with %v\n%s", err, p.stderr)
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("tutord did not exit after its delay\n%s", p.stderr)
	}
}

// TestShutdownTimeoutBoundsAStuckRequest: an operator's transaction holds
// a lock (a long ALTER TABLE, a forgotten psql session) that a request
// waits behind, and tutord gets SIGTERM with TUTORD_SHUTDOWN_TIMEOUT=1s.
// tutord waited for that request for as long as the lock was held, past
// its timeout, since closing the pool waits for every connection in use;
// it should give up on the request after the timeout and exit.
func TestShutdownTimeoutBoundsAStuckRequest(t *testing.T) {
	connString := externalDatabase(t)
	p := startServe(t, "TUTORD_DATABASE_URL="+connString, "TUTORD_LOAD_SAMPLE=true", "TUTORD_SHUTDOWN_TIMEOUT=1s")
	p.waitReady(t)

	lockTable(t, connString, "guidelines")
	go func() {
		resp, err := http.Get("http://" + p.addr + "/curriculum?country=India&board=CBSE&grade=7&subject=Mathematics&topic=Fractions")
		if err == nil {
			resp.Body.Close()
		}
	}()
	waitForTableLockWaiter(t, connString)

	p.stopWithin(t, 15*time.Second, " with TUTORD_SHUTDOWN_TIMEOUT=1s, a request stuck behind a lock")
}

// TestShutdownTimeoutBoundsAStuckTurn: a WebSocket turn waits behind a
// lock an operator's transaction holds on the sessions, and tutord gets
// SIGTERM with TUTORD_SHUTDOWN_TIMEOUT=1s. tutord closed the WebSocket
// after its timeout but went on waiting for the turn, for as long as the
// lock was held; it should give up on the turn and exit.
func TestShutdownTimeoutBoundsAStuckTurn(t *testing.T) {
	ctx := context.Background()
	connString := externalDatabase(t)
	p := startServe(t, "TUTORD_DATABASE_URL="+connString, "TUTORD_LOAD_SAMPLE=true", "TUTORD_SHUTDOWN_TIMEOUT=1s")
	p.waitReady(t)
	base := "http://" + p.addr
	var cur struct {
		Subtopics []struct {
			GuidelineID string `json:"guideline_id"`
		}
	}
	getJSON(t, base+"/curriculum?country=India&board=CBSE&grade=7&subject=Mathematics&topic=Fractions", &cur)
	var created struct {
		SessionID string `json:"session_id"`
	}
	postJSON(t, base+"/sessions", fmt.Sprintf(`{"student":{"id":"s","grade":7},"goal":{"topic":"F","syllabus":"CBSE","learning_objectives":[],"guideline_id":%q}}`, cur.Subtopics[0].GuidelineID), &created)
	c, _, err := websocket.Dial(ctx, "ws://"+p.addr+"/sessions/ws/"+created.SessionID, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	for range 2 { // state_update, welcome
		if _, _, err := c.Read(ctx); err != nil {
			t.Fatal(err)
		}
	}

	lockTable(t, connString, "sessions")
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"type":"chat","payload":{"message":"ok"}}`)); err != nil {
		t.Fatal(err)
	}
	go func() {
		for {
			if _, _, err := c.Read(ctx); err != nil {
				return
			}
		}
	}()
	waitForTableLockWaiter(t, connString)

	p.stopWithin(t, 15*time.Second, " with TUTORD_SHUTDOWN_TIMEOUT=1s, a turn stuck behind a lock")
}

// lockTable holds an access-exclusive lock on table, as an operator's
// transaction would, until the test ends.
func lockTable(t *testing.T, connString, table string) {
	t.Helper()
	ctx := context.Background()
	holder, err := pgx.Connect(ctx, connString)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { holder.Close(ctx) })
	tx, err := holder.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "LOCK TABLE "+table+" IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
}

// waitForTableLockWaiter waits until a session of the database waits for
// a table lock.
func waitForTableLockWaiter(t *testing.T, connString string) {
	t.Helper()
	ctx := context.Background()
	watcher, err := pgx.Connect(ctx, connString)
	if err != nil {
		t.Fatal(err)
	}
	defer watcher.Close(ctx)
	for deadline := time.Now().Add(10 * time.Second); ; {
		var n int
		if err := watcher.QueryRow(ctx, `SELECT count(*) FROM pg_locks WHERE locktype = 'relation' AND NOT granted`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("nothing came to wait behind the lock")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
