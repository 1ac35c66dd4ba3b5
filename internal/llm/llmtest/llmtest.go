// Package llmtest provides fake model providers for tests: httptest servers
// that speak the wire formats of OpenAI Chat Completions (JSON and SSE), the
// Anthropic Messages API (JSON and SSE events) and the Gemini API
// (generateContent and streamGenerateContent SSE). Each answers with
// scripted replies, injects failures on demand and records every request.
// Like the real providers, each refuses a model it does not serve (see
// SetModels) with the provider's not-found error.
// It does not import package llm, so that llm's own tests can use it.
package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// Failure is a fault a reply injects instead of answering.
type Failure int

// The failures. Each is rendered in the provider's own error format.
const (
	// NoFailure answers normally.
	NoFailure Failure = iota
	// RateLimited answers 429, with Reply.RetryAfter as Retry-After (whole
	// seconds), retry-after-ms (OpenAI, fractions) or a RetryInfo detail
	// (Gemini).
	RateLimited
	// ServerError answers 500.
	ServerError
	// Overloaded answers 529 (Anthropic) or 503 (the others).
	Overloaded
	// ContextTooLong answers 400 with the provider's context-length error.
	ContextTooLong
	// Unauthorized answers the provider's bad-key error.
	Unauthorized
	// Hang never answers; the handler returns when the client gives up or
	// the server closes.
	Hang
	// MalformedBody answers 200 with a body that is not valid JSON.
	MalformedBody
	// QuotaExhausted answers OpenAI's 429 insufficient_quota: the account
	// has no credit left (OpenAI's fake only).
	QuotaExhausted
	// StallMidStream answers a stream without the events that end it
	// (OpenAI's finish and usage chunks, Anthropic's message_delta and
	// message_stop, Gemini's last chunk), then hangs like Hang: a reply
	// that stops coming. A request that does not stream hangs at once.
	StallMidStream
	// RequestTooLarge answers OpenAI's 429 for a request larger than the
	// whole tokens-per-minute limit, which no wait lets through (OpenAI's
	// fake only).
	RequestTooLarge
	// ContextSizeExceeded answers 400 as llama.cpp's server does a prompt
	// longer than its context: type exceed_context_size_error, a numeric
	// code and the token counts (OpenAI's fake only, standing in for an
	// OpenAI-compatible server).
	ContextSizeExceeded
	// EmptyBody answers 200 with the headers of the reply asked for (JSON,
	// or an event stream) and no body: a connection cut before the reply.
	EmptyBody
)

// Reply scripts one answer of a fake server.
type Reply struct {
	// Text is the model's text; for a structured request, the JSON document
	// (valid or not, as the test needs). Anthropic's fake returns it as the
	// input of the forced output tool when the request forces a tool and
	// Text is a JSON object.
	Text      string
	ToolCalls []ToolCall
	// MaxTokens says the reply was cut off by the output limit.
	MaxTokens bool
	// Refusal makes the model refuse (OpenAI refusal, Anthropic stop reason
	// refusal) or the provider block the prompt (Gemini safety block).
	Refusal string

	Fail       Failure
	RetryAfter time.Duration
	// Gap is the pause before each event of a streamed reply: a reply that
	// keeps coming, slowly.
	Gap time.Duration

	// Usage defaults to 100 input and 20 output tokens.
	Usage Usage
	// NoStreamUsage makes OpenAI's fake ignore stream_options.include_usage,
	// as some OpenAI-compatible servers do: a stream then reports no usage.
	NoStreamUsage bool
}

// ToolCall is a scripted tool call; Arguments is a JSON object.
type ToolCall struct {
	ID        string
	Name      string
	Arguments string
}

// Usage is the token count a reply reports. Input counts the whole prompt;
// Cached is the part read from the prompt cache and CacheWrite the part
// written to it. Each fake splits them as its provider does: OpenAI and
// Gemini count cached tokens inside the prompt count, Anthropic reports
// input_tokens without cache reads and writes beside cache_read_input_tokens
// and cache_creation_input_tokens. Only Anthropic reports cache writes.
type Usage struct {
	Input, Output, Cached, CacheWrite int
}

func (u Usage) orDefault() Usage {
	if u == (Usage{}) {
		return Usage{Input: 100, Output: 20}
	}
	return u
}

// Request is a request the fake received.
type Request struct {
	Method string
	Path   string
	Query  string
	Header http.Header
	Body   []byte
	Stream bool
}

// JSON decodes the request body into a generic value.
func (r Request) JSON() (map[string]any, error) {
	var v map[string]any
	err := json.Unmarshal(r.Body, &v)
	return v, err
}

// Server is a fake provider.
type Server struct {
	// URL is the base URL to configure the client with: it includes the
	// API version path where the provider's SDK expects it (OpenAI's /v1).
	URL string

	t       testing.TB
	srv     *httptest.Server
	dialect dialect
	stop    chan struct{}

	mu       sync.Mutex
	models   map[string]bool
	replies  []Reply
	requests []Request
}

// dialect renders replies in one provider's wire format.
type dialect interface {
	// isStream reports whether the request asks for a stream.
	isStream(r *http.Request, body []byte) bool
	// writeError answers with failure f; req is the request that fails.
	writeError(w http.ResponseWriter, req Request, f Failure, retryAfter time.Duration)
	writeReply(w http.ResponseWriter, req Request, n int, reply Reply)
	writeStream(w http.ResponseWriter, req Request, n int, reply Reply)
	malformed() string
	// model returns the model the request names.
	model(req Request) string
	// writeModelNotFound answers a request for a model the server does not
	// serve, as the provider does.
	writeModelNotFound(w http.ResponseWriter, req Request)
	// writeInvalid answers a request the provider would refuse for its
	// content, and reports whether it did.
	writeInvalid(w http.ResponseWriter, req Request) bool
}

func newServer(t testing.TB, d dialect, basePath string, models []string, replies []Reply) *Server {
	t.Helper()
	s := &Server{t: t, dialect: d, stop: make(chan struct{}), replies: replies}
	s.SetModels(models...)
	s.srv = httptest.NewServer(s)
	s.URL = s.srv.URL + basePath
	t.Cleanup(func() {
		close(s.stop) // release hanging handlers before Close waits for them
		s.srv.Close()
	})
	return s
}

// SetModels replaces the models the server serves. A request for any other
// model is answered with the provider's model-not-found error, without
// using a scripted reply. Each constructor starts with the models package
// llm lists for its provider (see OpenAIModels).
func (s *Server) SetModels(models ...string) {
	set := make(map[string]bool, len(models))
	for _, m := range models {
		set[m] = true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models = set
}

// Push appends scripted replies.
func (s *Server) Push(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.replies = append(s.replies, replies...)
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Pending returns how many scripted replies have not been used.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.replies)
}

// ServeHTTP answers with the next scripted reply. A request without one
// fails the test.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, "read body", http.StatusBadRequest)
		return
	}
	req := Request{
		Method: r.Method,
		Path:   r.URL.Path,
		Query:  r.URL.RawQuery,
		Header: r.Header.Clone(),
		Body:   body,
		Stream: s.dialect.isStream(r, body),
	}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	n := len(s.requests)
	known := s.models[s.dialect.model(req)]
	s.mu.Unlock()
	// The provider refuses these before anything else, whatever the script.
	if !known {
		s.dialect.writeModelNotFound(w, req)
		return
	}
	if s.dialect.writeInvalid(w, req) {
		return
	}
	s.mu.Lock()
	reply, ok := Reply{}, len(s.replies) > 0
	if ok {
		reply, s.replies = s.replies[0], s.replies[1:]
	}
	s.mu.Unlock()
	if !ok {
		s.t.Errorf("llmtest: request %d (%s %s) has no scripted reply", n, r.Method, r.URL.Path)
		s.dialect.writeError(w, req, ServerError, 0)
		return
	}

	hang := func() {
		select {
		case <-r.Context().Done():
		case <-s.stop:
		}
	}
	if reply.Gap > 0 {
		w = pacedWriter{ResponseWriter: w, pause: func() {
			t := time.NewTimer(reply.Gap)
			defer t.Stop()
			select {
			case <-t.C:
			case <-r.Context().Done():
			case <-s.stop:
			}
		}}
	}
	switch reply.Fail {
	case NoFailure:
	case Hang:
		hang()
		return
	case StallMidStream:
		if !req.Stream {
			hang()
			return
		}
		w = stallingWriter{ResponseWriter: w, hang: hang}
	case MalformedBody:
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, s.dialect.malformed())
		return
	case EmptyBody:
		if req.Stream {
			startSSE(w)
		} else {
			w.Header().Set("Content-Type", "application/json")
		}
		return
	default:
		s.dialect.writeError(w, req, reply.Fail, reply.RetryAfter)
		return
	}
	if req.Stream {
		s.dialect.writeStream(w, req, n, reply)
		return
	}
	s.dialect.writeReply(w, req, n, reply)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
}

// sse writes server-sent events, flushing each one.
type sse struct {
	w http.ResponseWriter
}

func startSSE(w http.ResponseWriter) sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return sse{w}
}

// event writes one event; name may be empty. data is marshalled unless it is
// a string.
func (s sse) event(name string, data any) {
	w := s.w
	if sw, ok := w.(stallingWriter); ok {
		w = sw.ResponseWriter
	}
	if p, ok := w.(pacedWriter); ok {
		p.pause()
	}
	if name != "" {
		fmt.Fprintf(s.w, "event: %s\n", name)
	}
	switch d := data.(type) {
	case string:
		fmt.Fprintf(s.w, "data: %s\n\n", d)
	default:
		b, _ := json.Marshal(d)
		fmt.Fprintf(s.w, "data: %s\n\n", b)
	}
	if f, ok := s.w.(http.Flusher); ok {
		f.Flush()
	}
}

// stallingWriter is the ResponseWriter of a stream that stalls
// (StallMidStream).
type stallingWriter struct {
	http.ResponseWriter
	hang func()
}

func (w stallingWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// pacedWriter is the ResponseWriter of a stream whose events come slowly
// (Reply.Gap).
type pacedWriter struct {
	http.ResponseWriter
	pause func()
}

func (w pacedWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// stalled is called by a dialect before the events that end its stream. For
// a stream that stalls, it hangs and reports true: the dialect then writes
// nothing more.
func (s sse) stalled() bool {
	w, ok := s.w.(stallingWriter)
	if ok {
		w.hang()
	}
	return ok
}

// pieces splits s into up to three pieces on rune boundaries, so that
// streams carry several deltas.
func pieces(s string) []string {
	if s == "" {
		return nil
	}
	n := utf8.RuneCountInString(s)
	size := max(1, (n+2)/3)
	var out []string
	for len(s) > 0 {
		i, count := 0, 0
		for i < len(s) && count < size {
			_, w := utf8.DecodeRuneInString(s[i:])
			i += w
			count++
		}
		out = append(out, s[:i])
		s = s[i:]
	}
	return out
}

// retryAfterSeconds renders d for a Retry-After header, or "" when d is not
// a whole number of seconds (then OpenAI's retry-after-ms is used).
func retryAfterSeconds(d time.Duration) string {
	if d <= 0 || d%time.Second != 0 {
		return ""
	}
	return strconv.Itoa(int(d / time.Second))
}

func setRetryAfter(h http.Header, d time.Duration, withMillis bool) {
	if s := retryAfterSeconds(d); s != "" {
		h.Set("Retry-After", s)
	} else if d > 0 {
		if withMillis {
			h.Set("Retry-After-Ms", strconv.FormatInt(d.Milliseconds(), 10))
		}
		h.Set("Retry-After", strconv.Itoa(int(math.Ceil(d.Seconds()))))
	}
}

// jsonObject decodes s when it is a JSON object.
func jsonObject(s string) (map[string]any, bool) {
	var v map[string]any
	if err := json.Unmarshal([]byte(s), &v); err != nil || v == nil {
		return nil, false
	}
	return v, true
}
