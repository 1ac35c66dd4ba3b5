// Package client talks to a running tutord as the evaluation harness does:
// REST for the curriculum, profiles, session creation, lifecycle actions
// and the session document, and the WebSocket for the conversation, as
// described in api/openapi.yaml.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Client calls tutord's REST API as one caller. It is not safe for
// concurrent use (it counts its rate-limited retries).
type Client struct {
	// BaseURL is tutord's base URL, e.g. http://localhost:8080.
	BaseURL string
	// HTTP sends the requests; nil means http.DefaultClient.
	HTTP *http.Client
	// Token is the caller's access token; "" calls anonymously.
	Token string
	// Retries bounds the retries of a request answered 429 (rate
	// limited), or 503 with a Retry-After (the database busy or
	// unavailable: the request was not run); each waits for the
	// Retry-After the server asks, at most MaxWait.
	Retries int
	MaxWait time.Duration
	// Timeout bounds each request until its answer is read in full (each
	// retry has its own), and the opening handshake of a WebSocket; 0
	// means DefaultTimeout. A server that never answers then fails the
	// request rather than hanging its caller.
	Timeout time.Duration
	// RateLimited counts the 429 answers met.
	RateLimited int
}

// DefaultTimeout bounds a request of a Client without a Timeout: the
// reference harness gives its REST calls 30 s.
const DefaultTimeout = 30 * time.Second

// APIError is an error answer of tutord.
type APIError struct {
	Method, Path string
	Status       int
	Code         string // the machine code of the error body, when there is one
	Message      string
}

// Error describes the request and the answer.
func (e *APIError) Error() string {
	msg := e.Message
	if e.Code != "" {
		msg = e.Code + ": " + msg
	}
	return fmt.Sprintf("%s %s: %d %s", e.Method, e.Path, e.Status, msg)
}

// Do sends a request with a JSON body (nil for none) and returns the
// status and body of the answer, retrying while it is rate limited or the
// server asks to come back later. Only a failure to get an answer is an
// error.
func (c *Client) Do(ctx context.Context, method, path string, body any) (int, []byte, error) {
	var raw []byte
	if body != nil {
		var err error
		if raw, err = json.Marshal(body); err != nil {
			return 0, nil, err
		}
	}
	for attempt := 0; ; attempt++ {
		status, out, wait, asked, err := c.send(ctx, method, path, raw)
		if err != nil || attempt >= c.Retries || status != http.StatusTooManyRequests && !(status == http.StatusServiceUnavailable && asked) {
			return status, out, err
		}
		if status == http.StatusTooManyRequests {
			c.RateLimited++
		}
		if c.MaxWait > 0 {
			wait = min(wait, c.MaxWait)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return 0, nil, ctx.Err()
		case <-t.C:
		}
	}
}

// timeout returns the bound of one request.
func (c *Client) timeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return DefaultTimeout
}

// send sends one request and reads its answer within the client's timeout.
// wait is the answer's Retry-After (1 s without one), and asked whether it
// had one.
func (c *Client) send(ctx context.Context, method, path string, body []byte) (status int, out []byte, wait time.Duration, asked bool, err error) {
	reqCtx, cancel := context.WithTimeout(ctx, c.timeout())
	defer cancel()
	status, out, wait, asked, err = c.sendOnce(reqCtx, method, path, body)
	// The caller's end (Ctrl-C, the run's deadline) is no fault of the
	// server: only the request's own deadline is.
	if err != nil && ctx.Err() == nil && errors.Is(reqCtx.Err(), context.DeadlineExceeded) {
		err = fmt.Errorf("%s %s: no answer from the server within %s: %w", method, path, c.timeout(), context.DeadlineExceeded)
	}
	return status, out, wait, asked, err
}

func (c *Client) sendOnce(ctx context.Context, method, path string, body []byte) (int, []byte, time.Duration, bool, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(c.BaseURL, "/")+path, rd)
	if err != nil {
		return 0, nil, 0, false, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return 0, nil, 0, false, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return 0, nil, 0, false, fmt.Errorf("%s %s: reading the answer: %w", method, path, err)
	}
	wait, asked := time.Second, false
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
		wait, asked = time.Duration(s)*time.Second, true
	}
	return resp.StatusCode, out, wait, asked, nil
}

// call sends a request and decodes a 200 answer into out (unless nil);
// any other status is an *APIError.
func (c *Client) call(ctx context.Context, method, path string, body, out any) error {
	status, raw, err := c.Do(ctx, method, path, body)
	if err != nil {
		return err
	}
	if status != http.StatusOK {
		return apiError(method, path, status, raw)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("%s %s: the answer is not the expected JSON: %w", method, path, err)
	}
	return nil
}

func apiError(method, path string, status int, body []byte) *APIError {
	e := &APIError{Method: method, Path: path, Status: status}
	var b struct {
		Detail json.RawMessage `json:"detail"`
		Error  struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &b) == nil {
		e.Code, e.Message = b.Error.Code, b.Error.Message
		if e.Message == "" {
			var s string
			if json.Unmarshal(b.Detail, &s) == nil {
				e.Message = s
			}
		}
	}
	if e.Message == "" {
		e.Message = strings.TrimSpace(string(body))
		if len(e.Message) > 200 {
			e.Message = e.Message[:200] + "..."
		}
	}
	return e
}

// CurriculumQuery selects a level of GET /curriculum.
type CurriculumQuery struct {
	Country, Board string
	Grade          int
	Subject, Topic string
}

// Curriculum is the answer of GET /curriculum: one of the lists is set.
type Curriculum struct {
	Subjects  []string        `json:"subjects"`
	Topics    []string        `json:"topics"`
	Subtopics []SubtopicEntry `json:"subtopics"`
}

// SubtopicEntry is a subtopic of GET /curriculum.
type SubtopicEntry struct {
	Subtopic    string `json:"subtopic"`
	GuidelineID string `json:"guideline_id"`
	Key         string `json:"key"`
}

// Curriculum browses the approved curriculum.
func (c *Client) Curriculum(ctx context.Context, q CurriculumQuery) (Curriculum, error) {
	v := url.Values{"country": {q.Country}, "board": {q.Board}, "grade": {strconv.Itoa(q.Grade)}}
	if q.Subject != "" {
		v.Set("subject", q.Subject)
	}
	if q.Topic != "" {
		v.Set("topic", q.Topic)
	}
	var out Curriculum
	err := c.call(ctx, http.MethodGet, "/curriculum?"+v.Encode(), nil, &out)
	return out, err
}

// Profile is the body of PUT /profile; nil fields are left as they are.
type Profile struct {
	Name    *string `json:"name,omitempty"`
	Age     *int    `json:"age,omitempty"`
	Grade   *int    `json:"grade,omitempty"`
	Board   *string `json:"board,omitempty"`
	AboutMe *string `json:"about_me,omitempty"`
}

// UpdateProfile writes the caller's profile.
func (c *Client) UpdateProfile(ctx context.Context, p Profile) error {
	return c.call(ctx, http.MethodPut, "/profile", p, nil)
}

// CreateRequest is the body of POST /sessions.
type CreateRequest struct {
	Student Student `json:"student"`
	Goal    Goal    `json:"goal"`
	Mode    string  `json:"mode,omitempty"`
}

// Student is the student of a CreateRequest.
type Student struct {
	ID    string `json:"id"`
	Grade int    `json:"grade"`
}

// Goal is the goal of a CreateRequest.
type Goal struct {
	Topic              string   `json:"topic"`
	Syllabus           string   `json:"syllabus"`
	LearningObjectives []string `json:"learning_objectives"`
	GuidelineID        string   `json:"guideline_id"`
}

// Created is the answer of POST /sessions.
type Created struct {
	SessionID string `json:"session_id"`
	FirstTurn struct {
		Message string `json:"message"`
	} `json:"first_turn"`
	Mode string `json:"mode"`
}

// CreateSession creates a session.
func (c *Client) CreateSession(ctx context.Context, r CreateRequest) (Created, error) {
	var out Created
	err := c.call(ctx, http.MethodPost, "/sessions", r, &out)
	if err == nil && out.SessionID == "" {
		err = errors.New("POST /sessions: the answer has no session_id")
	}
	return out, err
}

// Session returns the session document (GET /sessions/{id}).
func (c *Client) Session(ctx context.Context, id string) (Document, error) {
	var d Document
	err := c.call(ctx, http.MethodGet, "/sessions/"+url.PathEscape(id), nil, &d)
	return d, err
}

// Action calls a lifecycle endpoint, POST /sessions/{id}/<endpoint> with
// endpoint pause, resume, end-exam or end-clarify, and returns the status
// and body of the answer whatever the status.
func (c *Client) Action(ctx context.Context, id, endpoint string) (int, []byte, error) {
	return c.Do(ctx, http.MethodPost, "/sessions/"+url.PathEscape(id)+"/"+endpoint, nil)
}
