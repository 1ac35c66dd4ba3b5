// Package loadgen drives a running tutord as its learners would, over the
// public API (REST to create sessions, the WebSocket to chat), and measures
// what they see: turns per second at saturation, turn latency under load,
// and the server's memory per idle WebSocket.
package loadgen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// Target is the server under load.
type Target struct {
	URL         string                   // base URL, e.g. http://127.0.0.1:8080
	Token       func(learner int) string // a token for learner i; nil for anonymous learners
	GuidelineID string                   // the subtopic every session studies
	HTTP        *http.Client
}

// Latencies summarises turn latencies.
type Latencies struct {
	P50, P95, P99, Max time.Duration
}

func (l Latencies) String() string {
	return fmt.Sprintf("p50 %.1f ms, p95 %.1f ms, p99 %.1f ms, max %.1f ms", ms(l.P50), ms(l.P95), ms(l.P99), ms(l.Max))
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// Summarise returns the percentiles of lat, which it sorts.
func Summarise(lat []time.Duration) Latencies {
	if len(lat) == 0 {
		return Latencies{}
	}
	slices.Sort(lat)
	at := func(p float64) time.Duration { return lat[min(len(lat)-1, int(math.Ceil(p*float64(len(lat))))-1)] }
	return Latencies{P50: at(0.50), P95: at(0.95), P99: at(0.99), Max: lat[len(lat)-1]}
}

// Result is one load run.
type Result struct {
	Learners  int
	Duration  time.Duration
	Turns     int
	Errors    int // turns answered with an error frame, or dropped
	TurnsPerS float64
	Latency   Latencies
	Samples   []time.Duration // every turn's latency, in increasing order
}

// messages are what the simulated learners say, in turn: an attempt, a
// wrong number, a question, agreement.
var messages = []string{"ok", "3", "I think it is 7/9", "what does that mean?", "yes", "I don't know"}

// learner is one simulated learner on one WebSocket.
type learner struct {
	t    Target
	i    int
	conn *websocket.Conn
	n    int
}

func (t Target) client() *http.Client {
	if t.HTTP != nil {
		return t.HTTP
	}
	return http.DefaultClient
}

func (t Target) token(i int) string {
	if t.Token == nil {
		return ""
	}
	return t.Token(i)
}

// CreateSession creates a teach_me session for learner i and returns its id.
func (t Target) CreateSession(ctx context.Context, i int) (string, error) {
	body := fmt.Sprintf(`{"student":{"id":"load-%d","grade":7},"goal":{"topic":"load","syllabus":"CBSE","learning_objectives":[],"guideline_id":%q}}`, i, t.GuidelineID)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.URL+"/sessions", strings.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	if tok := t.token(i); tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := t.client().Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("create session: %d %s", resp.StatusCode, bytes.TrimSpace(b))
	}
	var out struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return "", err
	}
	return out.SessionID, nil
}

// Dial opens a session's WebSocket and reads the frames the server sends
// on connect (the state, and the welcome of a fresh session).
func (t Target) Dial(ctx context.Context, i int, session string, fresh bool) (*websocket.Conn, error) {
	u := "ws" + strings.TrimPrefix(t.URL, "http") + "/sessions/ws/" + session
	if tok := t.token(i); tok != "" {
		u += "?token=" + tok
	}
	c, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPClient: t.client()})
	if err != nil {
		return nil, err
	}
	c.SetReadLimit(1 << 20)
	want := 1
	if fresh {
		want = 2
	}
	for range want {
		if _, _, err := c.Read(ctx); err != nil {
			c.CloseNow()
			return nil, err
		}
	}
	return c, nil
}

func (l *learner) start(ctx context.Context) error {
	id, err := l.t.CreateSession(ctx, l.i)
	if err != nil {
		return err
	}
	if l.conn != nil {
		l.conn.CloseNow()
		l.conn = nil // closed: Run's clean-up must not close it again
	}
	conn, err := l.t.Dial(ctx, l.i, id, true)
	if err != nil {
		return err
	}
	l.conn, l.n = conn, 0
	return nil
}

// turn sends one chat and waits for its state_update. It reports whether
// the turn was answered (not with an error frame) and whether the session
// is complete.
func (l *learner) turn(ctx context.Context) (ok, complete bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	msg := messages[l.n%len(messages)]
	l.n++
	b, _ := json.Marshal(map[string]any{"type": "chat", "payload": map[string]any{"message": msg}})
	if err := l.conn.Write(ctx, websocket.MessageText, b); err != nil {
		return false, false, err
	}
	ok = true
	for {
		_, data, err := l.conn.Read(ctx)
		if err != nil {
			return false, false, err
		}
		var f struct {
			Type    string `json:"type"`
			Payload struct {
				State *struct {
					IsComplete bool `json:"is_complete"`
				} `json:"state"`
			} `json:"payload"`
		}
		if err := json.Unmarshal(data, &f); err != nil {
			return false, false, err
		}
		switch f.Type {
		case "error":
			ok = false
		case "state_update":
			return ok, f.Payload.State != nil && f.Payload.State.IsComplete, nil
		}
	}
}

// Run drives `learners` learners for d. With think == 0 each learner sends
// its next message as soon as the last is answered (a closed loop, to find
// the saturation throughput); otherwise each waits an exponentially
// distributed time with mean think between turns. A learner whose lesson
// completes starts a new session.
func Run(ctx context.Context, t Target, learners int, d time.Duration, think time.Duration, seed uint64) (Result, error) {
	ls := make([]*learner, learners)
	setup, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	var g sync.WaitGroup
	errs := make([]error, learners)
	for i := range ls {
		ls[i] = &learner{t: t, i: i}
		g.Add(1)
		go func() {
			defer g.Done()
			errs[i] = ls[i].start(setup)
		}()
		if i%16 == 15 {
			g.Wait() // do not storm the server with connections
		}
	}
	g.Wait()
	if err := errors.Join(errs...); err != nil {
		return Result{}, fmt.Errorf("start learners: %w", err)
	}
	defer func() {
		for _, l := range ls {
			if l.conn != nil { // nil when a restart's dial failed
				l.conn.Close(websocket.StatusNormalClosure, "")
			}
		}
	}()

	runCtx, stop := context.WithTimeout(ctx, d)
	defer stop()
	var turns, failed atomic.Int64
	var mu sync.Mutex
	var lat []time.Duration
	start := time.Now()
	for i, l := range ls {
		g.Add(1)
		go func() {
			defer g.Done()
			rng := rand.New(rand.NewPCG(seed, uint64(i)))
			if think > 0 { // spread the first messages out
				sleep(runCtx, time.Duration(rng.Float64()*float64(think)))
			}
			var mine []time.Duration
			defer func() {
				mu.Lock()
				lat = append(lat, mine...)
				mu.Unlock()
			}()
			for runCtx.Err() == nil {
				t0 := time.Now()
				ok, complete, err := l.turn(ctx)
				if err != nil {
					failed.Add(1)
					if runCtx.Err() == nil && l.start(ctx) != nil {
						return
					}
					continue
				}
				mine = append(mine, time.Since(t0))
				turns.Add(1)
				if !ok {
					failed.Add(1)
				}
				if complete && l.start(ctx) != nil {
					return
				}
				if think > 0 {
					sleep(runCtx, time.Duration(rng.ExpFloat64()*float64(think)))
				}
			}
		}()
	}
	g.Wait()
	elapsed := time.Since(start)
	return Result{
		Learners: learners, Duration: elapsed, Turns: int(turns.Load()), Errors: int(failed.Load()),
		TurnsPerS: float64(turns.Load()) / elapsed.Seconds(), Latency: Summarise(lat), Samples: lat,
	}, nil
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// HoldIdle opens n WebSockets spread over sessions (each session gets
// perSession connections) and returns them open; close them with the
// returned function.
func HoldIdle(ctx context.Context, t Target, n, perSession int) (func(), error) {
	var conns []*websocket.Conn
	closeAll := func() {
		for _, c := range conns {
			c.CloseNow()
		}
	}
	var session string
	for i := range n {
		if i%perSession == 0 {
			var err error
			if session, err = t.CreateSession(ctx, i); err != nil {
				closeAll()
				return nil, err
			}
		}
		c, err := t.Dial(ctx, i, session, true) // no turn yet: every connection gets the welcome
		if err != nil {
			closeAll()
			return nil, fmt.Errorf("connection %d: %w", i, err)
		}
		// Keep reading so that pings are answered.
		go func() {
			for {
				if _, _, err := c.Read(context.Background()); err != nil {
					return
				}
			}
		}()
		conns = append(conns, c)
	}
	return closeAll, nil
}
