package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// With TUTORD_REPLICA_SYNC, two tutord processes on one database keep
// each other's WebSockets up to date: a turn taken through B reaches a
// WebSocket held by A.
func TestReplicaSync(t *testing.T) {
	dir := dataDir(t)
	common := []string{"TUTORD_REPLICA_SYNC=true", "TUTORD_TURN_RATE=0", "TUTORD_CREATE_RATE=0"}
	a := startServe(t, append(common, "TUTORD_DATA_DIR="+dir)...)
	a.waitReady(t)
	// B uses A's embedded database as an external one.
	b := startServe(t, append(common, "TUTORD_DATABASE_URL=host="+filepath.Join(dir, "run")+" user=tutord dbname=tutord sslmode=disable")...)
	b.waitReady(t)

	var cur struct {
		Subtopics []struct {
			GuidelineID string `json:"guideline_id"`
		}
	}
	getJSON(t, "http://"+a.addr+"/curriculum?country=India&board=CBSE&grade=7&subject=Mathematics&topic=Fractions", &cur)
	var created struct {
		SessionID string `json:"session_id"`
	}
	postJSON(t, "http://"+a.addr+"/sessions", fmt.Sprintf(`{"student":{"id":"s","grade":7},"goal":{"topic":"F","syllabus":"CBSE","learning_objectives":[],"guideline_id":%q}}`, cur.Subtopics[0].GuidelineID), &created)

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws://"+a.addr+"/sessions/ws/"+created.SessionID, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	frames := make(chan []byte, 16)
	go func() {
		defer close(frames)
		for {
			_, data, err := c.Read(ctx)
			if err != nil {
				return
			}
			frames <- data
		}
	}()
	next := func() []byte {
		select {
		case data := <-frames:
			return data
		case <-time.After(10 * time.Second):
			t.Fatal("A's connection got no frame in 10 s")
			return nil
		}
	}
	next() // state_update
	next() // welcome

	// B's watch may start listening after the first turn: step until A's
	// connection hears of one.
	turnCount := func(data []byte) int {
		var f struct {
			Type    string `json:"type"`
			Payload struct {
				State struct {
					TurnCount int `json:"turn_count"`
				} `json:"state"`
			} `json:"payload"`
		}
		if err := json.Unmarshal(data, &f); err != nil || f.Type != "state_update" {
			t.Fatalf("A's connection got %s; want a state_update", data)
		}
		return f.Payload.State.TurnCount
	}
	step := func(s *proc) {
		var stepped map[string]any
		postJSON(t, "http://"+s.addr+"/sessions/"+created.SessionID+"/step", `{"student_reply": "ok"}`, &stepped)
	}
	heard := 0
	for turn := 1; turn <= 5 && heard == 0; turn++ {
		step(b)
		select {
		case data := <-frames:
			if n := turnCount(data); n != turn {
				t.Fatalf("A's connection got turn %d after turn %d through B", n, turn)
			}
			heard = turn
		case <-time.After(2 * time.Second):
		}
	}
	if heard == 0 {
		t.Fatal("A's WebSocket heard of none of 5 turns taken through B")
	}

	// A turn through A, then one through B, which A hears of: A's next turn
	// reads the session afresh instead of losing a compare-and-swap on the
	// copy it kept of its own turn.
	step(a)
	if n := turnCount(next()); n != heard+1 {
		t.Fatalf("A's connection got turn %d after A's turn %d", n, heard+1)
	}
	step(b)
	if n := turnCount(next()); n != heard+2 {
		t.Fatalf("A's connection got turn %d after B's turn %d", n, heard+2)
	}
	step(a)
	if n := turnCount(next()); n != heard+3 {
		t.Fatalf("A's connection got turn %d after A's turn %d", n, heard+3)
	}
	resp, err := http.Get("http://" + a.addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	metrics, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(metrics), "tutord_cas_conflicts_total 0") {
		t.Fatalf("A lost compare-and-swaps:\n%s", metrics)
	}
}
