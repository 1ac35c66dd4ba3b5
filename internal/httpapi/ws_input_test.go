package httpapi_test

import (
	"strings"
	"testing"
)

// TestWebSocketRefusesBadFrames: a client_turn_id that breaks the REST
// Idempotency-Key rule, and a frame of the wrong shape, get an error frame
// in pydantic's words (a bad id was an "Internal error" and a lost turn);
// nothing is processed and the connection keeps working.
func TestWebSocketRefusesBadFrames(t *testing.T) {
	s := newServer(t)
	id := s.newSession(fractions, "", "")
	w := s.joined(t, id, "")
	for _, tt := range []struct {
		name, frame, want string
	}{
		{"long turn id", `{"type":"chat","payload":{"message":"ready","client_turn_id":"` + strings.Repeat("k", 20000) + `"}}`,
			"Invalid message format: payload.client_turn_id: String should have at most 255 characters"},
		{"turn id with NUL", `{"type":"chat","payload":{"message":"ready","client_turn_id":"a\u0000b"}}`,
			"Invalid message format: payload.client_turn_id: Input should not contain NUL characters"},
		{"turn id with a newline", `{"type":"chat","payload":{"message":"ready","client_turn_id":"a\nb"}}`,
			"Invalid message format: payload.client_turn_id: Input should not contain control characters"},
		{"payload a list", `{"type":"chat","payload":[]}`,
			"Invalid message format: payload: Input should be a valid dictionary"},
		{"grade a string", `{"type":"chat","payload":{"message":"ready","student_context":{"grade":"x"}}}`,
			"Invalid message format: payload.student_context.grade: Input should be a valid integer"},
		{"grade out of range", `{"type":"chat","payload":{"message":"ready","student_context":{"grade":99,"board":"CBSE"}}}`,
			"Invalid message format: payload.student_context.grade: Input should be less than or equal to 12"},
		{"no board", `{"type":"chat","payload":{"message":"ready","student_context":{"grade":7}}}`,
			"Invalid message format: payload.student_context.board: Field required"},
		{"not JSON", `nope`, "Invalid message format: Invalid JSON"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w.sendRaw([]byte(tt.frame))
			f := w.read()
			if f.Type != "error" || f.Payload.Error == nil || *f.Payload.Error != tt.want {
				t.Fatalf("frame %s %v, want error %q", f.Type, deref(f.Payload.Error), tt.want)
			}
		})
	}
	w.send(map[string]any{"type": "get_state"})
	if f := w.read(); f.Type != "state_update" || f.state(t)["turn_count"] != float64(0) {
		t.Fatalf("after refused frames: %s %s; want turn_count 0", f.Type, f.Payload.State)
	}
	if reply, errMsg, state := w.turn(map[string]any{"message": "ready", "client_turn_id": strings.Repeat("k", 255)}); reply == "" || errMsg != "" || state["turn_count"] != float64(1) {
		t.Fatalf("a turn with a 255-character id: reply %q, error %q, turn_count %v", reply, errMsg, state["turn_count"])
	}
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// TestStudentContextLaxNumbersAnswered: a chat's student_context is
// accepted, validated and ignored (CONTRACT §3.2), validated as the
// reference's pydantic model reads it: a grade sent as "7" (what a browser
// reads from a <select>) or 7.0 (what Python writes for a float) is 7, and
// the chat is answered rather than refused as an invalid frame.
func TestStudentContextLaxNumbersAnswered(t *testing.T) {
	s := newServer(t)
	for _, tt := range []struct {
		name  string
		frame string
	}{
		{"grade as a numeric string", `{"type":"chat","payload":{"message":"ready","student_context":{"grade":"7","board":"CBSE"}}}`},
		{"grade as 7.0", `{"type":"chat","payload":{"message":"ready","student_context":{"grade":7.0,"board":"CBSE"}}}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			id := s.newSession(fractions, "", "")
			w := s.joined(t, id, "")
			w.sendRaw([]byte(tt.frame))
			f := w.read()
			if f.Type != "typing" {
				t.Fatalf("chat with %s: first frame %s %q; want typing, then the tutor's reply (pydantic accepts this grade, and the context is ignored)",
					tt.name, f.Type, deref(f.Payload.Error))
			}
			if f := w.read(); f.Type != "assistant" {
				t.Fatalf("chat with %s: %s %q, want assistant", tt.name, f.Type, deref(f.Payload.Error))
			}
		})
	}
}
