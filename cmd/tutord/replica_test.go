package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
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
	<-frames // state_update
	<-frames // welcome

	// B's watch may start listening after the first turn: step until A's
	// connection hears of one.
	for turn := 1; turn <= 5; turn++ {
		var stepped map[string]any
		postJSON(t, "http://"+b.addr+"/sessions/"+created.SessionID+"/step", `{"student_reply": "ok"}`, &stepped)
		select {
		case data := <-frames:
			var f struct {
				Type    string `json:"type"`
				Payload struct {
					State struct {
						TurnCount int `json:"turn_count"`
					} `json:"state"`
				} `json:"payload"`
			}
			if err := json.Unmarshal(data, &f); err != nil || f.Type != "state_update" || f.Payload.State.TurnCount != turn {
				t.Fatalf("A's connection got %s after turn %d through B", data, turn)
			}
			return
		case <-time.After(2 * time.Second):
		}
	}
	t.Fatal("A's WebSocket heard of none of 5 turns taken through B")
}
