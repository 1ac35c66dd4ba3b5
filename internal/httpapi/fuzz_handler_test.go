package httpapi_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// FuzzRequestsThroughTheServer sends arbitrary bodies (to a step, a
// session creation and a profile update) and history query strings
// through the whole server (request validation, binding, the handlers, the
// store): whatever comes in, the answer is never a 500, and it is what the
// contract documents.
func FuzzRequestsThroughTheServer(f *testing.F) {
	s := newServer(f)
	id := s.newSession(fractions, "", "")
	for _, seed := range []struct{ body, query string }{
		{`{"student_reply":"ok"}`, `page=1&page_size=20`},
		{`{"student_reply":"3/4"}`, `subject=Mathematics`},
		{`{}`, `page=0`},
		{`{"student_reply":1}`, `page=abc`},
		{`{"student_reply":"a\u0000b"}`, `subject=%00`},
		{`{"student_reply":"ok","extra":true}`, `subject=%FF`},
		{`[]`, `page=9223372036854775807`},
		{`{"student_reply":"` + strings.Repeat("x", 5000) + `"}`, `page_size=101`},
		{`nul`, `mode=dance`},
		{"", "page=1&page=2"},
		{`{"student":{"id":"s","grade":7},"goal":{"topic":"F","syllabus":"CB\u0000SE","learning_objectives":[],"guideline_id":"00000000-0000-0000-0000-000000000000"}}`, ``},
		{`{"name":"Asha","grade":13,"board":"CBSE","preferred_examples":["a","b"]}`, ``},
		{`{"student":{"id":"s","grade":"seven"},"goal":{}}`, ``},
	} {
		f.Add(seed.body, seed.query)
	}
	tok := token(f, "fuzzer", false)
	f.Fuzz(func(t *testing.T, body, query string) {
		s := *s
		s.t = t // the contract check reports to this input's test
		check := func(req *http.Request, reqBody []byte) {
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			got, _ := io.ReadAll(resp.Body)
			if resp.StatusCode >= 500 {
				t.Fatalf("%s %s: %d %s", req.Method, req.URL, resp.StatusCode, got)
			}
			s.checkContract(req, reqBody, resp, got)
		}
		req, err := http.NewRequest("POST", s.URL+"/sessions/"+id+"/step", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		check(req, []byte(body))
		for _, to := range []struct{ method, path string }{{"POST", "/sessions"}, {"PUT", "/profile"}} {
			if req, err = http.NewRequest(to.method, s.URL+to.path, strings.NewReader(body)); err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+tok)
			check(req, []byte(body))
		}
		// Any parameters, sent as a client would encode them.
		params, err := url.ParseQuery(query)
		if err != nil {
			return
		}
		if req, err = http.NewRequest("GET", s.URL+"/sessions/history?"+params.Encode(), nil); err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+tok)
		check(req, nil)
	})
}
