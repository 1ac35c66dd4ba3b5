package httpapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/tutord/tutord/internal/httpapi"
)

// preflight sends a browser's CORS preflight for POST /sessions. The
// contract has no OPTIONS operations, so a refusal's body is checked
// against its Error schema here.
func (s *apiServer) preflight(origin string) (*http.Response, map[string]any) {
	s.t.Helper()
	req, _ := http.NewRequest("OPTIONS", s.URL+"/sessions", nil)
	req.Header.Set("Origin", origin)
	req.Header.Set("Access-Control-Request-Method", "POST")
	req.Header.Set("Access-Control-Request-Headers", "authorization,content-type")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode == http.StatusOK {
		if len(body) != 0 {
			s.t.Fatalf("preflight answered with a body: %s", body)
		}
		return resp, nil
	}
	var v map[string]any
	if err := json.Unmarshal(body, &v); err != nil {
		s.t.Fatalf("preflight refused with %q, not the error body", body)
	}
	doc, _ := spec()
	if err := doc.Components.Schemas["Error"].Value.VisitJSON(map[string]any(v)); err != nil {
		s.t.Fatalf("preflight refusal %s does not match Error: %v", body, firstLines(err.Error(), 6))
	}
	return resp, v
}

// wsUpgrade is a WebSocket upgrade request with an Origin, sent through the
// contract check.
func (s *apiServer) wsUpgrade(id, origin string) response {
	s.t.Helper()
	return s.do("GET", "/sessions/ws/"+id, nil, "", "Origin", origin, "Connection", "Upgrade", "Upgrade", "websocket",
		"Sec-WebSocket-Version", "13", "Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
}

// TestCORSOriginList: with a list of origins (spaces, empty entries and a
// trailing slash tolerated), REST and the WebSocket allow the same
// origins exactly, and refuse the others with the error body.
func TestCORSOriginList(t *testing.T) {
	s := newServer(t, func(o *httpapi.Options, _ *httpapi.Deps) {
		o.CORSOrigins = []string{" https://app.example.com", "", " http://localhost:3000/ "}
	})
	for _, origin := range []string{"https://app.example.com", "http://localhost:3000"} {
		resp, _ := s.preflight(origin)
		h := resp.Header
		if resp.StatusCode != 200 || h.Get("Access-Control-Allow-Origin") != origin || h.Get("Access-Control-Allow-Credentials") != "true" ||
			h.Get("Access-Control-Allow-Headers") != "authorization,content-type" || h.Get("Access-Control-Allow-Methods") == "" {
			t.Fatalf("preflight from %s: %d %v", origin, resp.StatusCode, h)
		}
		r := s.do("GET", "/health", nil, "", "Origin", origin)
		if r.Header.Get("Access-Control-Allow-Origin") != origin || r.Header.Get("Access-Control-Allow-Credentials") != "true" {
			t.Fatalf("response to %s: %v", origin, r.Header)
		}
	}
	for _, origin := range []string{"https://evil.example", "https://app.example.com.evil.example", "http://app.example.com", "null"} {
		resp, body := s.preflight(origin)
		if resp.StatusCode != http.StatusForbidden || resp.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Fatalf("preflight from %s: %d %v", origin, resp.StatusCode, resp.Header)
		}
		if e, _ := body["error"].(map[string]any); e["code"] != "origin_not_allowed" {
			t.Fatalf("preflight from %s: body %v", origin, body)
		}
		// The browser withholds responses without CORS headers from the page.
		if r := s.do("GET", "/health", nil, "", "Origin", origin); r.Status != 200 || r.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Fatalf("response to %s: %d %v", origin, r.Status, r.Header)
		}
	}

	id := s.newSession(fractions, "", "")
	r := s.wsUpgrade(id, "https://evil.example")
	if r.Status != http.StatusForbidden || r.code(t) != "origin_not_allowed" {
		t.Fatalf("WebSocket upgrade from another origin: %d %s", r.Status, r.Body)
	}
	if _, resp, err := s.dial(t, id, "", http.Header{"Origin": {"https://evil.example"}}); err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("WebSocket from another origin: %v %v", err, resp)
	}
	w, _, err := s.dial(t, id, "", http.Header{"Origin": {"http://localhost:3000"}})
	if err != nil {
		t.Fatalf("WebSocket from an allowed origin: %v", err)
	}
	if f := w.read(); f.Type != "state_update" {
		t.Fatalf("first frame %s", f.Type)
	}
	// A client that is not a browser sends no Origin and is not concerned.
	if _, _, err := s.dial(t, id, ""); err != nil {
		t.Fatalf("WebSocket without an Origin: %v", err)
	}
}

// TestCORSAnyOrigin: with "*", REST and the WebSocket allow any origin.
func TestCORSAnyOrigin(t *testing.T) {
	s := newServer(t, func(o *httpapi.Options, _ *httpapi.Deps) { o.CORSOrigins = []string{" * "} })
	if resp, _ := s.preflight("https://anywhere.example"); resp.StatusCode != 200 || resp.Header.Get("Access-Control-Allow-Origin") != "https://anywhere.example" {
		t.Fatalf("preflight: %d %v", resp.StatusCode, resp.Header)
	}
	if r := s.do("GET", "/health", nil, "", "Origin", "https://anywhere.example"); r.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("response: %v", r.Header)
	}
	id := s.newSession(fractions, "", "")
	w, _, err := s.dial(t, id, "", http.Header{"Origin": {"https://anywhere.example"}})
	if err != nil {
		t.Fatal(err)
	}
	if f := w.read(); f.Type != "state_update" {
		t.Fatalf("first frame %s", f.Type)
	}
}
