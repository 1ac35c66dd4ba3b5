package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/google/uuid"

	"github.com/tutord/tutord/api"
	"github.com/tutord/tutord/curricula"
	"github.com/tutord/tutord/internal/agents/engine"
	"github.com/tutord/tutord/internal/agents/rules"
	"github.com/tutord/tutord/internal/auth"
	"github.com/tutord/tutord/internal/curriculum"
	"github.com/tutord/tutord/internal/httpapi"
	"github.com/tutord/tutord/internal/lessons"
	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/orchestrator"
	"github.com/tutord/tutord/internal/pgtest"
	"github.com/tutord/tutord/internal/store"
)

const testSecret = "test-secret-0123456789abcdef0123456789"

// spec is the API contract every response of these tests is checked
// against.
var spec = sync.OnceValues(func() (*openapi3.T, error) {
	doc, err := httpapi.LoadSpec(api.Spec)
	if err != nil {
		return nil, err
	}
	doc.Servers = nil
	return doc, nil
})

// apiServer is tutord's API on a real loopback HTTP server over a fresh
// database with the sample curriculum and the rules engine.
type apiServer struct {
	t       testing.TB
	URL     string
	st      *store.Store
	o       *orchestrator.Orchestrator
	srv     *httpapi.Server
	router  routers.Router
	subject map[string]uuid.UUID // guideline ids by subtopic key
}

type serverOption func(*httpapi.Options, *httpapi.Deps)

func newServer(t testing.TB, opts ...serverOption) *apiServer {
	t.Helper()
	doc, err := spec()
	if err != nil {
		t.Fatal(err)
	}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	st := store.New(pgtest.Pool(t))
	files, err := curriculum.LoadFS(curricula.FS())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lessons.Import(context.Background(), st, files, time.Time{}); err != nil {
		t.Fatal(err)
	}
	set, err := rules.New()
	if err != nil {
		t.Fatal(err)
	}
	metrics := httpapi.NewMetrics()
	o := orchestrator.New(orchestrator.Options{Store: st, Lessons: lessons.NewSource(st), Engines: engine.New(set, nil, st), FallbackSafety: set.Safety, Observer: metrics})
	v, err := auth.NewVerifier(auth.Config{Secret: testSecret, Audience: "tutord-test", Admin: auth.AdminRule{Claim: "role", Value: "admin"}})
	if err != nil {
		t.Fatal(err)
	}
	deps := httpapi.Deps{
		DB: st, Curriculum: st, Sessions: o, Learners: st, Profiles: st, Progress: st, AgentLogs: st,
		LLMConfig: st, Auth: httpapi.NewAuthenticator(v), Metrics: metrics, Version: "test",
		SchemaVersion: store.LatestVersion(),
	}
	options := httpapi.Options{AllowAnonymous: true, CORSOrigins: []string{"*"}, Validator: httpapi.NewValidator(mustSpecCopy(t))}
	for _, fn := range opts {
		fn(&options, &deps)
	}
	srv := httpapi.New(deps, options)
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	s := &apiServer{t: t, URL: hs.URL, st: st, o: o, srv: srv, router: router, subject: map[string]uuid.UUID{}}
	gs, _ := st.ListGuidelines(context.Background())
	for _, g := range gs {
		s.subject[g.Key] = g.ID
	}
	return s
}

// mustSpecCopy loads a fresh copy of the contract (the validator changes
// the document it is given).
func mustSpecCopy(t testing.TB) *openapi3.T {
	doc, err := httpapi.LoadSpec(api.Spec)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// token mints an access token for a learner.
func token(t testing.TB, sub string, admin bool) string {
	t.Helper()
	return tokenSignedIn(t, sub, admin, time.Time{})
}

// tokenSignedIn mints an access token for a learner who signed in at
// signedIn (now when zero).
func tokenSignedIn(t testing.TB, sub string, admin bool, signedIn time.Time) string {
	t.Helper()
	tok, err := auth.Mint([]byte(testSecret), auth.MintOptions{Subject: sub, Admin: admin, ClientID: "tutord-test", TTL: time.Hour,
		IssuedAt: signedIn, AdminRule: auth.AdminRule{Claim: "role", Value: "admin"}})
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

type response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into a generic value.
func (r response) JSON(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("body %q is not a JSON object: %v", r.Body, err)
	}
	return m
}

// detail returns the error body's detail.
func (r response) code(t testing.TB) string {
	t.Helper()
	m := r.JSON(t)
	e, _ := m["error"].(map[string]any)
	code, _ := e["code"].(string)
	return code
}

// do sends a request and checks the response against the contract: its
// status must be documented for the operation and its body must match.
func (s *apiServer) do(method, path string, body any, tok string, headers ...string) response {
	s.t.Helper()
	var rd io.Reader
	var raw []byte
	switch b := body.(type) {
	case nil:
	case string:
		raw = []byte(b)
	default:
		var err error
		if raw, err = json.Marshal(b); err != nil {
			s.t.Fatal(err)
		}
	}
	if raw != nil {
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, s.URL+path, rd)
	if err != nil {
		s.t.Fatal(err)
	}
	if raw != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	s.checkContract(req, raw, resp, out)
	return response{Status: resp.StatusCode, Header: resp.Header, Body: out}
}

// checkContract validates a response against the API contract.
func (s *apiServer) checkContract(req *http.Request, reqBody []byte, resp *http.Response, body []byte) {
	s.t.Helper()
	if req.Method == http.MethodOptions {
		return
	}
	route, params, err := s.router.FindRoute(req)
	if err != nil {
		if resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusMethodNotAllowed {
			return // not a route of the contract
		}
		s.t.Fatalf("%s %s: not in the contract: %v", req.Method, req.URL.Path, err)
	}
	if reqBody != nil {
		req.Body = io.NopCloser(bytes.NewReader(reqBody))
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}},
		Status: resp.StatusCode, Header: resp.Header, Body: io.NopCloser(bytes.NewReader(body)),
		Options: &openapi3filter.Options{IncludeResponseStatus: true},
	}
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		s.t.Fatalf("%s %s → %d does not match the contract: %v\nbody: %s", req.Method, req.URL.Path, resp.StatusCode, firstLines(err.Error(), 12), truncate(body, 2000))
	}
}

func firstLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

func truncate(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "..."
	}
	return string(b)
}

// createBody is a POST /sessions body like the frontend's.
func createBody(guideline uuid.UUID, mode string) map[string]any {
	b := map[string]any{
		"student": map[string]any{"id": "s1", "grade": 7, "prefs": map[string]any{"style": "standard", "lang": "en"}},
		"goal":    map[string]any{"topic": "Fractions", "syllabus": "CBSE-G7", "learning_objectives": []string{"Learn fractions"}, "guideline_id": guideline.String()},
	}
	if mode != "" {
		b["mode"] = mode
	}
	return b
}

const fractions = "mathematics/fractions/adding-and-subtracting-fractions"

// newSession creates a session and returns its id.
func (s *apiServer) newSession(key, mode, tok string) string {
	s.t.Helper()
	r := s.do("POST", "/sessions", createBody(s.subject[key], mode), tok)
	if r.Status != 200 {
		s.t.Fatalf("create session: %d %s", r.Status, r.Body)
	}
	return r.JSON(s.t)["session_id"].(string)
}

type llmProvider = llm.Provider

var errMissingKey = errors.New("provider needs its API key in the environment")

func newHTTPServer(t testing.TB, srv *httpapi.Server) string {
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	return hs.URL
}
