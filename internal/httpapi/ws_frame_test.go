package httpapi

import (
	"strings"
	"testing"
)

// TestDecodeClientFrameErrors: what a client is told about a frame that
// does not decode names the field and the JSON value expected, never Go
// types; a client_turn_id follows the Idempotency-Key rule.
func TestDecodeClientFrameErrors(t *testing.T) {
	for _, tt := range []struct {
		frame, want string
	}{
		{`nope`, "Invalid JSON"},
		{`[1,2]`, "Input should be a valid dictionary"},
		{`"chat"`, "Input should be a valid dictionary"},
		{`{"type":7}`, "type: Input should be a valid string"},
		{`{"payload":{}}`, "type: Field required"},
		{`{"type":"chat","payload":[]}`, "payload: Input should be a valid dictionary"},
		{`{"type":"chat","payload":{"message":5}}`, "payload.message: Input should be a valid string"},
		{`{"type":"chat","payload":{"client_turn_id":true}}`, "payload.client_turn_id: Input should be a valid string"},
		{`{"type":"chat","payload":{"student_context":[]}}`, "payload.student_context: Input should be a valid dictionary"},
		{`{"type":"chat","payload":{"student_context":{"grade":"x"}}}`, "payload.student_context.grade: Input should be a valid integer"},
		{`{"type":"chat","payload":{"student_context":{"grade":7.5}}}`, "payload.student_context.grade: Input should be a valid integer"},
		{`{"type":"chat","payload":{"student_context":{"preferred_examples":"x"}}}`, "payload.student_context.preferred_examples: Input should be a valid list"},
		{`{"type":"chat","payload":{"message":"hi","client_turn_id":"` + strings.Repeat("k", 20000) + `"}}`, "payload.client_turn_id: String should have at most 255 characters"},
		{`{"type":"chat","payload":{"message":"hi","client_turn_id":"` + strings.Repeat("é", 256) + `"}}`, "payload.client_turn_id: String should have at most 255 characters"},
		{`{"type":"chat","payload":{"message":"hi","client_turn_id":"a\u0000b"}}`, "payload.client_turn_id: Input should not contain NUL characters"},
		{`{"type":"chat","payload":{"message":"hi","client_turn_id":"a\tb"}}`, "payload.client_turn_id: Input should not contain control characters"},
		{`{"type":"chat","payload":{"message":"hi","client_turn_id":"a\u0085b"}}`, "payload.client_turn_id: Input should not contain control characters"},
		{`{"type":"chat","payload":{"message":"hi","client_turn_id":"` + strings.Repeat("é", 255) + `"}}`, ""},
		{`{"type":"chat","payload":{"message":"hi","client_turn_id":"turn-1"}}`, ""},
		{`{"type":"chat","payload":{"message":"hi","client_turn_id":""}}`, ""},
		{`{"type":"chat","payload":{"student_context":{"grade":7,"board":"CBSE"}}}`, ""},
		{`{"type":"chat","payload":{"student_context":{"grade":12,"board":"CBSE","language_level":"advanced","student_name":null}}}`, ""},
		// Whole numbers as pydantic's lax mode reads them.
		{`{"type":"chat","payload":{"student_context":{"grade":"7","board":"CBSE"}}}`, ""},
		{`{"type":"chat","payload":{"student_context":{"grade":" 7 ","board":"CBSE","student_age":"12"}}}`, ""},
		{`{"type":"chat","payload":{"student_context":{"grade":7.0,"board":"CBSE","student_age":12.0}}}`, ""},
		{`{"type":"chat","payload":{"student_context":{"grade":"7.00","board":"CBSE"}}}`, ""},
		{`{"type":"chat","payload":{"student_context":{"grade":"7.5","board":"CBSE"}}}`, "payload.student_context.grade: Input should be a valid integer"},
		{`{"type":"chat","payload":{"student_context":{"grade":"7e0","board":"CBSE"}}}`, "payload.student_context.grade: Input should be a valid integer"},
		{`{"type":"chat","payload":{"student_context":{"grade":true,"board":"CBSE"}}}`, "payload.student_context.grade: Input should be a valid integer"},
		{`{"type":"chat","payload":{"student_context":{"grade":"13","board":"CBSE"}}}`, "payload.student_context.grade: Input should be less than or equal to 12"},
		{`{"type":"chat","payload":{"student_context":{"grade":1e100,"board":"CBSE"}}}`, "payload.student_context.grade: Input should be a valid integer"},
		{`{"type":"chat","payload":{"student_context":{"grade":7,"board":"CBSE","student_age":"ten"}}}`, "payload.student_context.student_age: Input should be a valid integer"},
		{`{"type":"chat","payload":{"student_context":{"grade":7,"board":"CBSE","student_age":null}}}`, ""},
		{`{"type":"chat","payload":{"student_context":{}}}`, "payload.student_context.grade: Field required"},
		{`{"type":"chat","payload":{"student_context":{"grade":7}}}`, "payload.student_context.board: Field required"},
		{`{"type":"chat","payload":{"student_context":{"grade":null,"board":"CBSE"}}}`, "payload.student_context.grade: Field required"},
		{`{"type":"chat","payload":{"student_context":{"grade":0,"board":"CBSE"}}}`, "payload.student_context.grade: Input should be greater than or equal to 1"},
		{`{"type":"chat","payload":{"student_context":{"grade":99,"board":"CBSE"}}}`, "payload.student_context.grade: Input should be less than or equal to 12"},
		{`{"type":"chat","payload":{"student_context":{"grade":7,"board":"CBSE","language_level":"expert"}}}`,
			"payload.student_context.language_level: Input should be 'simple', 'standard' or 'advanced'"},
	} {
		name := tt.frame
		if len(name) > 80 {
			name = name[:80]
		}
		t.Run(name, func(t *testing.T) {
			_, err := decodeClientFrame([]byte(tt.frame))
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("error %q, want %q", got, tt.want)
			}
		})
	}
}
