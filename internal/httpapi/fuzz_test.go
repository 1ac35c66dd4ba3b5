package httpapi

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
)

func FuzzDecodeClientFrame(f *testing.F) {
	for _, s := range []string{
		`{"type":"chat","payload":{"message":"hi"}}`, `{"type":"get_state"}`, `{"type":"chat","payload":null}`,
		`{"type":"chat","payload":{"student_context":{"grade":7,"board":"CBSE"}}}`, `nope`, `[]`, `{"type":7}`, ``,
		`{"type":"chat","payload":{"message":"x","client_turn_id":"c1"}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fr, err := decodeClientFrame(data)
		if err == nil && fr.Type != "chat" && fr.Type != "get_state" && fr.Type != "start_session" {
			t.Fatalf("accepted frame type %q", fr.Type)
		}
	})
}

func FuzzBindStep(f *testing.F) {
	for _, s := range []string{`{"student_reply":"hi"}`, `{"student_reply":5}`, `{`, `null`, `{"student_reply":"\u0000"}`, `[1]`} {
		f.Add(s)
	}
	e := echo.New()
	f.Fuzz(func(t *testing.T, body string) {
		req := httptest.NewRequest(http.MethodPost, "/sessions/x/step", strings.NewReader(body))
		c := e.NewContext(req, httptest.NewRecorder())
		var r stepRequest
		if err := bindJSON(c, &r); err != nil {
			var apiErr *Error
			if !asError(err, &apiErr) || apiErr.Status != http.StatusUnprocessableEntity {
				t.Fatalf("bind error %v is not a 422", err)
			}
		}
	})
}

func asError(err error, target **Error) bool {
	e, ok := err.(*Error)
	if ok {
		*target = e
	}
	return ok
}
