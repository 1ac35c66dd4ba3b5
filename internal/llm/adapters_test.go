package llm

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tutord/tutord/internal/llm/llmtest"
)

// These tests drive every adapter, through Resolve and the resilient
// client, against a fake server speaking the provider's wire format.

const testKey = "sk-test-do-not-leak"

type providerCase struct {
	name     Provider
	model    string
	newFake  func(testing.TB, ...llmtest.Reply) *llmtest.Server
	settings func(url string) Settings
	// authHeader is where the key must travel.
	authHeader, authValue string
	// outputSchema returns the output schema of a request body in the
	// provider's form, and the form it must have.
	outputSchema func(body map[string]any) (got, want any)
	// lastMessage returns the last conversation entry of a request body.
	lastMessage func(body map[string]any) any
}

func providerCases() []providerCase {
	strict := func(s *Schema) any { return decodeJSON(s.strict) }
	return []providerCase{
		{
			name: ProviderOpenAI, model: "gpt-4o-mini", newFake: llmtest.NewOpenAI,
			settings:   func(url string) Settings { return Settings{OpenAIKey: testKey, OpenAIBaseURL: url} },
			authHeader: "Authorization", authValue: "Bearer " + testKey,
			outputSchema: func(body map[string]any) (any, any) {
				return body["response_format"], map[string]any{"type": "json_schema", "json_schema": map[string]any{
					"name": "tutor_turn", "strict": true, "schema": strict(schemaOf[tutorTurn]()),
				}}
			},
			lastMessage: func(body map[string]any) any { return last(body["messages"]) },
		},
		{
			name: ProviderOpenAICompatible, model: "llama3.1:8b", newFake: compatibleFake("llama3.1:8b"),
			settings:   func(url string) Settings { return Settings{CompatibleBaseURL: url, CompatibleKey: testKey} },
			authHeader: "Authorization", authValue: "Bearer " + testKey,
			outputSchema: func(body map[string]any) (any, any) {
				return body["response_format"], map[string]any{"type": "json_schema", "json_schema": map[string]any{
					"name": "tutor_turn", "strict": true, "schema": strict(schemaOf[tutorTurn]()),
				}}
			},
			lastMessage: func(body map[string]any) any { return last(body["messages"]) },
		},
		{
			name: ProviderAnthropic, model: "claude-haiku-4-5", newFake: llmtest.NewAnthropic,
			settings:   func(url string) Settings { return Settings{AnthropicKey: testKey, AnthropicBaseURL: url} },
			authHeader: "Authorization", authValue: "Bearer " + testKey,
			outputSchema: func(body map[string]any) (any, any) {
				got := map[string]any{"tools": body["tools"], "tool_choice": body["tool_choice"]}
				return got, map[string]any{
					"tools": []any{map[string]any{
						"name":         "tutor_turn",
						"description":  "Give your answer by calling this tool: its input is your whole reply.",
						"strict":       true,
						"input_schema": decodeJSON(schemaOf[tutorTurn]().anthropic),
					}},
					"tool_choice": map[string]any{"type": "tool", "name": "tutor_turn"},
				}
			},
			lastMessage: func(body map[string]any) any { return last(body["messages"]) },
		},
		{
			name: ProviderGoogle, model: "gemini-2.5-flash", newFake: llmtest.NewGemini,
			settings:   func(url string) Settings { return Settings{GoogleKey: testKey, GoogleBaseURL: url} },
			authHeader: "X-Goog-Api-Key", authValue: testKey,
			outputSchema: func(body map[string]any) (any, any) {
				gc, _ := body["generationConfig"].(map[string]any)
				got := map[string]any{"responseMimeType": gc["responseMimeType"], "responseJsonSchema": gc["responseJsonSchema"]}
				return got, map[string]any{"responseMimeType": "application/json", "responseJsonSchema": decodeJSON(schemaOf[tutorTurn]().gemini)}
			},
			lastMessage: func(body map[string]any) any { return last(body["contents"]) },
		},
	}
}

// compatibleFake returns a constructor of fake OpenAI-compatible servers
// that have loaded the given models.
func compatibleFake(models ...string) func(testing.TB, ...llmtest.Reply) *llmtest.Server {
	return func(t testing.TB, replies ...llmtest.Reply) *llmtest.Server {
		srv := llmtest.NewOpenAI(t, replies...)
		srv.SetModels(models...)
		return srv
	}
}

func schemaOf[T any]() *Schema {
	s, err := SchemaFor[T]()
	if err != nil {
		panic(err) // test types only
	}
	return s
}

func decodeJSON(b []byte) any {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		panic(err)
	}
	return v
}

func last(v any) any {
	list, _ := v.([]any)
	if len(list) == 0 {
		return nil
	}
	return list[len(list)-1]
}

func body(t *testing.T, r llmtest.Request) map[string]any {
	t.Helper()
	v, err := r.JSON()
	if err != nil {
		t.Fatalf("request body is not JSON: %v\n%s", err, r.Body)
	}
	return v
}

// newTestClient resolves a client for pc against srv, with a fake clock for
// waits and short timeouts.
func (pc providerCase) newTestClient(t *testing.T, srv *llmtest.Server, configure func(*Options)) (Client, *fakeTime) {
	t.Helper()
	clock := newFakeTime()
	o := Options{
		Sleep:          clock.Sleep,
		Jitter:         func() float64 { return 0 },
		AttemptTimeout: 5 * time.Second,
		CallTimeout:    10 * time.Second,
		Breakers:       NewBreakers(BreakerOptions{}),
	}
	if configure != nil {
		configure(&o)
	}
	c, err := Resolve(Config{Component: ComponentTutor, Provider: pc.name, Model: pc.model}, pc.settings(srv.URL), o)
	if err != nil {
		t.Fatal(err)
	}
	return c, clock
}

func tutorRequest() Request {
	return Request{
		Call:     CallInfo{LearnerID: "l1", SessionID: "s1"},
		System:   "You are a patient maths tutor.",
		Messages: []Message{{Role: RoleUser, Content: "Is 1/2 + 1/4 = 3/4?"}},
	}
}

var invalidTurnJSON = strings.Replace(validTurnJSON, `"intent": "answer"`, `"intent": "chitchat"`, 1)

func TestAdapterStructuredOutput(t *testing.T) {
	for _, pc := range providerCases() {
		t.Run(string(pc.name), func(t *testing.T) {
			srv := pc.newFake(t, llmtest.Reply{Text: validTurnJSON, Usage: llmtest.Usage{Input: 1200, Output: 150, Cached: 1000}})
			c, _ := pc.newTestClient(t, srv, nil)
			got, res, err := Structured[tutorTurn](context.Background(), c, tutorRequest())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(validTurn(), got); diff != "" {
				t.Errorf("decoded (-want +got):\n%s", diff)
			}
			want := &Response{
				Text: res.Last().Text, StopReason: StopEnd, Provider: pc.name, Model: pc.model, Attempts: 1,
				Usage: Usage{InputTokens: 1200, OutputTokens: 150, CachedInputTokens: 1000},
			}
			if diff := cmp.Diff(want, res.Last(), cmpopts.IgnoreFields(Response{}, "Latency")); diff != "" {
				t.Errorf("response (-want +got):\n%s", diff)
			}

			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests, want 1", len(reqs))
			}
			if got := reqs[0].Header.Get(pc.authHeader); got != pc.authValue {
				t.Errorf("%s header = %q, want the key", pc.authHeader, got)
			}
			gotSchema, wantSchema := pc.outputSchema(body(t, reqs[0]))
			if diff := cmp.Diff(wantSchema, gotSchema); diff != "" {
				t.Errorf("output schema in the request (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAdapterRepair(t *testing.T) {
	for _, pc := range providerCases() {
		t.Run(string(pc.name)+"/repaired", func(t *testing.T) {
			srv := pc.newFake(t, llmtest.Reply{Text: invalidTurnJSON}, llmtest.Reply{Text: validTurnJSON})
			c, _ := pc.newTestClient(t, srv, nil)
			got, res, err := Structured[tutorTurn](context.Background(), c, tutorRequest())
			if err != nil {
				t.Fatal(err)
			}
			if !res.Repaired() || got.Intent != "answer" {
				t.Errorf("repaired = %v, intent = %q", res.Repaired(), got.Intent)
			}
			reqs := srv.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d requests, want exactly 2", len(reqs))
			}
			repair, _ := json.Marshal(pc.lastMessage(body(t, reqs[1])))
			if !strings.Contains(string(repair), "chitchat") {
				t.Errorf("the repair request does not quote the validation error: %s", repair)
			}
			gotSchema, wantSchema := pc.outputSchema(body(t, reqs[1]))
			if diff := cmp.Diff(wantSchema, gotSchema); diff != "" {
				t.Errorf("repair request lost the schema (-want +got):\n%s", diff)
			}
		})
		t.Run(string(pc.name)+"/still invalid", func(t *testing.T) {
			srv := pc.newFake(t, llmtest.Reply{Text: invalidTurnJSON}, llmtest.Reply{Text: `{"response": "oops"}`})
			c, _ := pc.newTestClient(t, srv, nil)
			got, res, err := Structured[tutorTurn](context.Background(), c, tutorRequest())
			if !errors.Is(err, ErrInvalidOutput) {
				t.Fatalf("error = %v, want invalid output", err)
			}
			if !cmp.Equal(got, tutorTurn{}) || len(res.Calls) != 2 || len(srv.Requests()) != 2 {
				t.Errorf("value %+v, %d calls, %d requests; want zero value, 2, 2", got, len(res.Calls), len(srv.Requests()))
			}
		})
		// A reply cut off by the output limit is not repaired: the repair
		// would hit the same limit.
		t.Run(string(pc.name)+"/cut off", func(t *testing.T) {
			srv := pc.newFake(t, llmtest.Reply{Text: validTurnJSON[:len(validTurnJSON)/2], MaxTokens: true}, llmtest.Reply{Text: validTurnJSON})
			c, _ := pc.newTestClient(t, srv, nil)
			_, res, err := Structured[tutorTurn](context.Background(), c, tutorRequest())
			if !errors.Is(err, ErrInvalidOutput) || !strings.Contains(err.Error(), "output limit") {
				t.Fatalf("error = %v, want invalid output at the output limit", err)
			}
			if len(res.Calls) != 1 || len(srv.Requests()) != 1 {
				t.Errorf("%d calls, %d requests; want 1 and 1", len(res.Calls), len(srv.Requests()))
			}
		})
	}
}

// retriedFailure is a failed first attempt that the client retries, and
// the wait before the retry.
type retriedFailure struct {
	name      string
	first     llmtest.Reply
	wantSleep time.Duration
}

func retriedFailures() []retriedFailure {
	return []retriedFailure{
		// The fake clock's jitter is 0, so backoff waits half of 500 ms.
		{"429 with Retry-After", llmtest.Reply{Fail: llmtest.RateLimited, RetryAfter: time.Second}, time.Second},
		{"500", llmtest.Reply{Fail: llmtest.ServerError}, 250 * time.Millisecond},
		{"overloaded", llmtest.Reply{Fail: llmtest.Overloaded}, 250 * time.Millisecond},
		// A 200 reply that is not what was asked for: a proxy's error
		// page, a body cut short.
		{"malformed body", llmtest.Reply{Fail: llmtest.MalformedBody}, 250 * time.Millisecond},
		// A 200 reply cut before its first byte.
		{"empty body", llmtest.Reply{Fail: llmtest.EmptyBody}, 250 * time.Millisecond},
	}
}

func TestAdapterRetries(t *testing.T) {
	for _, pc := range providerCases() {
		for _, tc := range retriedFailures() {
			t.Run(string(pc.name)+"/"+tc.name, func(t *testing.T) {
				srv := pc.newFake(t, tc.first, llmtest.Reply{Text: validTurnJSON})
				c, clock := pc.newTestClient(t, srv, nil)
				_, res, err := Structured[tutorTurn](context.Background(), c, tutorRequest())
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff([]time.Duration{tc.wantSleep}, clock.Sleeps()); diff != "" {
					t.Errorf("waits (-want +got):\n%s", diff)
				}
				if len(srv.Requests()) != 2 || res.Last().Attempts != 2 {
					t.Errorf("%d requests, %d attempts; want 2", len(srv.Requests()), res.Last().Attempts)
				}
			})
		}
	}
}

// TestAdapterStreamRetries: Stream retries the failures Generate retries,
// when they come before the first delta; a 200 reply without a single
// event (not an event stream) is one of them.
func TestAdapterStreamRetries(t *testing.T) {
	const text = "Let's add the fractions."
	for _, pc := range providerCases() {
		for _, tc := range retriedFailures() {
			t.Run(string(pc.name)+"/"+tc.name, func(t *testing.T) {
				srv := pc.newFake(t, tc.first, llmtest.Reply{Text: text})
				c, clock := pc.newTestClient(t, srv, nil)
				var deltas strings.Builder
				resp, err := c.Stream(context.Background(), new(tutorRequest()), func(d Delta) error {
					deltas.WriteString(d.Text)
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff([]time.Duration{tc.wantSleep}, clock.Sleeps()); diff != "" {
					t.Errorf("waits (-want +got):\n%s", diff)
				}
				if len(srv.Requests()) != 2 || resp.Attempts != 2 {
					t.Errorf("%d requests, %d attempts; want 2", len(srv.Requests()), resp.Attempts)
				}
				if resp.Text != text || deltas.String() != text {
					t.Errorf("reply %q from deltas %q, want %q", resp.Text, deltas.String(), text)
				}
			})
		}
	}
}

// TestAdapterStoppedStreamRecordsBilledUsage: a stream stopped before its
// end, by its consumer (the learner closed the tab) or by the caller, has
// been billed for the prompt, which Anthropic reports in message_start and
// Gemini in every chunk. The call's usage record counts those tokens, so
// that the learner's budget does. (OpenAI reports usage in the stream's
// last chunk only: see TestOpenAIStoppedStreamRecordsEstimatedUsage.)
func TestAdapterStoppedStreamRecordsBilledUsage(t *testing.T) {
	for _, pc := range providerCases() {
		if pc.name != ProviderAnthropic && pc.name != ProviderGoogle {
			continue
		}
		for _, sc := range streamStops {
			t.Run(string(pc.name)+"/"+sc.name, func(t *testing.T) {
				r := stoppedStream(t, pc, sc, tutorRequest())
				if r.Usage.InputTokens != 20000 || r.Usage.Estimated || !r.Priced || r.CostUSD <= 0 || r.ErrorKind != KindCanceled {
					t.Errorf("recorded %+v; want the canceled call with the prompt's 20000 input tokens, priced", r)
				}
			})
		}
	}
}

// TestOpenAIStoppedStreamRecordsEstimatedUsage: a streamed OpenAI call
// stopped before its end, by its consumer (the learner closed the tab) or by
// the caller, has been billed for its prompt and the reply so far, but OpenAI
// reports usage only in the stream's last chunk. The usage record used to
// count no tokens at all, so that the learner's budget never saw them; it
// must count an estimate from the prompt and the text delivered.
func TestOpenAIStoppedStreamRecordsEstimatedUsage(t *testing.T) {
	// About 2,000 tokens of prompt.
	lesson := strings.Repeat("A fraction names parts of a whole. ", 230)
	for _, sc := range streamStops {
		t.Run(sc.name, func(t *testing.T) {
			req := tutorRequest()
			req.System += " " + lesson
			r := stoppedStream(t, providerCases()[0], sc, req)
			if r.Usage.InputTokens < 1000 || r.Usage.InputTokens > 4000 || r.Usage.OutputTokens < 1 || !r.Usage.Estimated || !r.Priced || r.CostUSD <= 0 || r.ErrorKind != KindCanceled {
				t.Errorf("recorded %+v; want the canceled call with an estimate of about 2000 input tokens and some output, marked estimated, priced", r)
			}
		})
	}
}

// errTabClosed is a stream consumer's reason to stop.
var errTabClosed = errors.New("the learner closed the tab")

// streamStop is a way a stream is stopped before its end: the fake's
// failure, the consumer's answer to each delta, and the error the call
// wraps then.
type streamStop struct {
	name    string
	fail    llmtest.Failure
	onDelta func(cancel context.CancelFunc) error
	want    error
}

// streamStops are the ways a stream is stopped before its end.
var streamStops = []streamStop{
	{"consumer stops", llmtest.NoFailure, func(context.CancelFunc) error { return errTabClosed }, errTabClosed},
	// The reply stalls after its deltas, so that the call can end only
	// by the caller's cancellation.
	{"caller cancels", llmtest.StallMidStream, func(cancel context.CancelFunc) error { cancel(); return nil }, context.Canceled},
}

// stoppedStream streams req from pc's fake, whose reply reports 20,000
// input tokens, stops it as sc does, and returns the call's one usage
// record.
func stoppedStream(t *testing.T, pc providerCase, sc streamStop, req Request) UsageRecord {
	t.Helper()
	srv := pc.newFake(t, llmtest.Reply{
		Text:  "Let's add the fractions step by step.",
		Usage: llmtest.Usage{Input: 20000, Output: 40},
		Fail:  sc.fail,
	})
	rec := &recorder{}
	c, _ := pc.newTestClient(t, srv, func(o *Options) { o.Recorder = rec })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := c.Stream(ctx, &req, func(Delta) error { return sc.onDelta(cancel) })
	if !errors.Is(err, ErrCanceled) || !errors.Is(err, sc.want) {
		t.Fatalf("error = %v, want canceled wrapping %v", err, sc.want)
	}
	if len(rec.records) != 1 {
		t.Fatalf("%d usage records, want 1", len(rec.records))
	}
	return rec.records[0]
}

// TestAdapterRetryAfterWaits checks on the wall clock that a sub-second
// Retry-After is honoured (retry-after-ms for OpenAI; RetryInfo for Gemini).
func TestAdapterRetryAfterWaits(t *testing.T) {
	for _, pc := range providerCases() {
		if pc.name == ProviderAnthropic {
			continue // Anthropic's Retry-After is whole seconds; covered above
		}
		t.Run(string(pc.name), func(t *testing.T) {
			srv := pc.newFake(t, llmtest.Reply{Fail: llmtest.RateLimited, RetryAfter: 200 * time.Millisecond}, llmtest.Reply{Text: "hi"})
			c, _ := pc.newTestClient(t, srv, func(o *Options) { o.Sleep = nil })
			start := time.Now()
			resp, err := c.Generate(context.Background(), new(tutorRequest()))
			if err != nil {
				t.Fatal(err)
			}
			if elapsed := time.Since(start); elapsed < 200*time.Millisecond || elapsed > 2*time.Second {
				t.Errorf("took %s, want just over the 200 ms Retry-After", elapsed)
			}
			if resp.Attempts != 2 {
				t.Errorf("attempts = %d", resp.Attempts)
			}
		})
	}
}

func TestAdapterHungServer(t *testing.T) {
	for _, pc := range providerCases() {
		t.Run(string(pc.name), func(t *testing.T) {
			srv := pc.newFake(t, llmtest.Reply{Fail: llmtest.Hang}, llmtest.Reply{Fail: llmtest.Hang}, llmtest.Reply{Fail: llmtest.Hang})
			c, _ := pc.newTestClient(t, srv, func(o *Options) {
				o.AttemptTimeout = 100 * time.Millisecond
				o.CallTimeout = 250 * time.Millisecond
				o.Sleep = nil
			})
			start := time.Now()
			_, err := c.Generate(context.Background(), new(tutorRequest()))
			if !errors.Is(err, ErrTimeout) {
				t.Fatalf("error = %v, want timeout", err)
			}
			if elapsed := time.Since(start); elapsed > 2*time.Second {
				t.Errorf("took %s; the deadline is 250 ms", elapsed)
			}
		})
	}
}

// TestAdapterStreamAttemptTimeout: for a stream, the attempt timeout
// bounds the wait for each event, not the whole reply. A reply that keeps
// coming, an event at a time, runs past it; one that hangs before its first
// event is retried; one that stalls after its first deltas ends by it.
func TestAdapterStreamAttemptTimeout(t *testing.T) {
	const (
		text    = "Let's add the fractions step by step."
		timeout = 150 * time.Millisecond
	)
	for _, pc := range providerCases() {
		t.Run(string(pc.name)+"/slow but steady", func(t *testing.T) {
			t.Parallel()
			srv := pc.newFake(t, llmtest.Reply{Text: text, Gap: 60 * time.Millisecond})
			c, _ := pc.newTestClient(t, srv, func(o *Options) { o.AttemptTimeout = timeout })
			start := time.Now()
			var deltas strings.Builder
			resp, err := c.Stream(context.Background(), new(tutorRequest()), func(d Delta) error {
				deltas.WriteString(d.Text)
				return nil
			})
			elapsed := time.Since(start)
			if err != nil {
				t.Fatalf("after %s: %v", elapsed.Round(time.Millisecond), err)
			}
			if resp.Text != text || deltas.String() != text || resp.Attempts != 1 {
				t.Errorf("reply %q from deltas %q in %d attempts, want %q in 1", resp.Text, deltas.String(), resp.Attempts, text)
			}
			if elapsed <= timeout {
				t.Errorf("the reply took %s; the test needs one longer than the %s attempt timeout", elapsed, timeout)
			}
		})
		t.Run(string(pc.name)+"/slow consumer", func(t *testing.T) {
			// The consumer's wait (a learner's slow connection) is not
			// the provider's: the stream is not cut while it runs.
			t.Parallel()
			srv := pc.newFake(t, llmtest.Reply{Text: text})
			c, _ := pc.newTestClient(t, srv, func(o *Options) { o.AttemptTimeout = timeout })
			var deltas strings.Builder
			resp, err := c.Stream(context.Background(), new(tutorRequest()), func(d Delta) error {
				if deltas.Len() == 0 {
					time.Sleep(2 * timeout)
				}
				deltas.WriteString(d.Text)
				return nil
			})
			if err != nil || resp.Text != text || deltas.String() != text || resp.Attempts != 1 {
				t.Fatalf("response %+v, deltas %q, error %v; want the whole reply in one attempt", resp, deltas.String(), err)
			}
		})
		t.Run(string(pc.name)+"/hangs before its first event", func(t *testing.T) {
			t.Parallel()
			srv := pc.newFake(t, llmtest.Reply{Fail: llmtest.Hang}, llmtest.Reply{Text: text})
			c, _ := pc.newTestClient(t, srv, func(o *Options) { o.AttemptTimeout = timeout })
			resp, err := c.Stream(context.Background(), new(tutorRequest()), func(Delta) error { return nil })
			if err != nil || resp.Text != text || resp.Attempts != 2 {
				t.Fatalf("response %+v, error %v; want the reply after a retry", resp, err)
			}
		})
		t.Run(string(pc.name)+"/stalls", func(t *testing.T) {
			t.Parallel()
			srv := pc.newFake(t, llmtest.Reply{Text: text, Fail: llmtest.StallMidStream}, llmtest.Reply{Text: text})
			c, _ := pc.newTestClient(t, srv, func(o *Options) { o.AttemptTimeout = timeout })
			start := time.Now()
			_, err := c.Stream(context.Background(), new(tutorRequest()), func(Delta) error { return nil })
			if !errors.Is(err, ErrTimeout) {
				t.Fatalf("error = %v, want timeout", err)
			}
			if elapsed := time.Since(start); elapsed > 2*time.Second {
				t.Errorf("took %s; the stream stalled for the %s attempt timeout", elapsed, timeout)
			}
			if n := len(srv.Requests()); n != 1 {
				t.Errorf("%d requests; a stream that delivered deltas must not be retried", n)
			}
		})
	}
}

func TestAdapterErrors(t *testing.T) {
	for _, pc := range providerCases() {
		for _, tc := range []struct {
			name  string
			reply llmtest.Reply
			want  ErrorKind
		}{
			{"refusal", llmtest.Reply{Refusal: "I can't help with that."}, KindRefused},
			{"context too long", llmtest.Reply{Fail: llmtest.ContextTooLong}, KindContextTooLong},
			{"bad key", llmtest.Reply{Fail: llmtest.Unauthorized}, KindAuth},
		} {
			t.Run(string(pc.name)+"/"+tc.name, func(t *testing.T) {
				srv := pc.newFake(t, tc.reply)
				rec := &recorder{}
				c, _ := pc.newTestClient(t, srv, func(o *Options) { o.Recorder = rec })
				_, err := c.Generate(context.Background(), new(tutorRequest()))
				if KindOf(err) != tc.want {
					t.Fatalf("error = %v, want kind %s", err, tc.want)
				}
				if len(srv.Requests()) != 1 {
					t.Errorf("%d requests; a %s must not be retried", len(srv.Requests()), tc.want)
				}
				if strings.Contains(err.Error(), testKey) {
					t.Errorf("the error shows the key: %v", err)
				}
				if len(rec.records) != 1 || rec.records[0].ErrorKind != tc.want {
					t.Errorf("usage records = %+v", rec.records)
				}
			})
		}
	}
}

// TestAdapterErrorHidesAnyKey: OpenAI quotes the key it was given in its
// 401; a key of no known format (a gateway's, a JWT, or a password pasted
// by mistake) must not reach the error either, however long it is.
func TestAdapterErrorHidesAnyKey(t *testing.T) {
	for _, tc := range []struct{ name, key string }{
		{"short", "tutord-gw-Q7rX2mPz9KvL"},
		{"longer than an error's message", "gw1." + strings.Repeat("Q7rX2mPz9KvLt4Wb", 20)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewOpenAI(t, llmtest.Reply{Fail: llmtest.Unauthorized})
			c, err := Resolve(Config{Component: ComponentTutor, Provider: ProviderOpenAI, Model: "gpt-4o-mini"},
				Settings{OpenAIKey: tc.key, OpenAIBaseURL: srv.URL}, Options{Breakers: NewBreakers(BreakerOptions{})})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Generate(context.Background(), new(tutorRequest()))
			if KindOf(err) != KindAuth {
				t.Fatalf("error = %v, want kind auth", err)
			}
			if strings.Contains(err.Error(), tc.key[:minKeyPart]) || !strings.Contains(err.Error(), "Incorrect API key provided: [redacted]") {
				t.Errorf("error = %q, want the provider's message with the key redacted", err)
			}
		})
	}
}

// TestAdapterUnknownModel: each provider answers a model it does not serve
// with 404 and its own error body (OpenAI model_not_found, Anthropic
// not_found_error, Gemini NOT_FOUND). That is a configuration mistake: an
// invalid request, sent once, that does not open the circuit breaker.
func TestAdapterUnknownModel(t *testing.T) {
	for _, pc := range providerCases() {
		t.Run(string(pc.name), func(t *testing.T) {
			srv := pc.newFake(t)
			srv.SetModels("some-other-model")
			rec := &recorder{}
			c, _ := pc.newTestClient(t, srv, func(o *Options) { o.Recorder = rec })
			calls := []func() error{
				func() error { _, err := c.Generate(context.Background(), new(tutorRequest())); return err },
				func() error {
					_, err := c.Stream(context.Background(), new(tutorRequest()), func(Delta) error { return nil })
					return err
				},
			}
			// More failures than open a breaker on a failing provider.
			for i := range 6 {
				err := calls[i%2]()
				var e *Error
				if !errors.As(err, &e) || e.Kind != KindInvalidRequest || e.StatusCode != 404 {
					t.Fatalf("call %d: error = %v, want invalid request with HTTP 404", i, err)
				}
				if !strings.Contains(e.Message, pc.model) {
					t.Errorf("call %d: message %q does not name the model", i, e.Message)
				}
			}
			if n := len(srv.Requests()); n != 6 {
				t.Errorf("%d requests for 6 calls; an unknown model must not be retried", n)
			}
			if len(rec.records) != 6 || rec.records[0].ErrorKind != KindInvalidRequest {
				t.Errorf("usage records = %+v", rec.records)
			}
			srv.SetModels(pc.model)
			srv.Push(llmtest.Reply{Text: "hi"})
			if _, err := c.Generate(context.Background(), new(tutorRequest())); err != nil {
				t.Errorf("after the model is served: %v (did the breaker open?)", err)
			}
		})
	}
}

// TestGeminiTakesEveryOutputSchema sends each checked output schema, as the
// response schema and as a tool's parameters (in two requests: Gemini 2.5
// takes no tools beside structured output), to the Gemini fake, which
// refuses enum members the real API refuses.
func TestGeminiTakesEveryOutputSchema(t *testing.T) {
	pc := providerCases()[3]
	for _, s := range geminiSchemas(t) {
		t.Run(s.Name(), func(t *testing.T) {
			srv := pc.newFake(t, llmtest.Reply{Text: "{}"}, llmtest.Reply{Text: "{}"})
			c, _ := pc.newTestClient(t, srv, nil)
			req := tutorRequest()
			req.Output = s
			if _, err := c.Generate(context.Background(), &req); err != nil {
				t.Fatal(err)
			}
			req = tutorRequest()
			req.Tools = []Tool{{Name: "record", Parameters: s}}
			if _, err := c.Generate(context.Background(), &req); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestFakesServeTheListedModels: the fakes serve by default the models this
// package lists for their provider (KnownModels and DefaultPrices); llmtest
// cannot import llm, so it keeps its own copy of the lists.
func TestFakesServeTheListedModels(t *testing.T) {
	for p, fake := range map[Provider][]string{
		ProviderOpenAI:    llmtest.OpenAIModels(),
		ProviderAnthropic: llmtest.AnthropicModels(),
		ProviderGoogle:    llmtest.GeminiModels(),
	} {
		want := slices.Clone(KnownModels()[p])
		for m := range DefaultPrices()[p] {
			if !slices.Contains(want, m) {
				want = append(want, m)
			}
		}
		if diff := cmp.Diff(want, fake, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
			t.Errorf("%s: the fake's models differ from the package's lists (-want +got):\n%s", p, diff)
		}
	}
}

// TestAdapterCacheUsage: every adapter reports the whole prompt as
// InputTokens, the part read from the cache as CachedInputTokens and the
// part written to it as CacheWriteInputTokens, whether the provider counts
// cached tokens inside its prompt count (OpenAI prompt_tokens, Gemini
// promptTokenCount) or beside it (Anthropic input_tokens); streams, whose
// final counts repeat earlier ones, give the same. The usage record prices
// each part at its own rate.
func TestAdapterCacheUsage(t *testing.T) {
	for _, pc := range providerCases() {
		t.Run(string(pc.name), func(t *testing.T) {
			// 2000 prompt tokens: 1200 read from the cache, 500 written to
			// it (only Anthropic reports writes), 300 neither.
			u := llmtest.Usage{Input: 2000, Output: 100, Cached: 1200, CacheWrite: 500}
			want := Usage{InputTokens: 2000, OutputTokens: 100, CachedInputTokens: 1200}
			if pc.name == ProviderAnthropic {
				want.CacheWriteInputTokens = 500
			}
			srv := pc.newFake(t, llmtest.Reply{Text: "hi", Usage: u}, llmtest.Reply{Text: "hi", Usage: u})
			rec := &recorder{}
			c, _ := pc.newTestClient(t, srv, func(o *Options) { o.Recorder = rec })
			resp, err := c.Generate(context.Background(), new(tutorRequest()))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, resp.Usage); diff != "" {
				t.Errorf("Generate usage (-want +got):\n%s", diff)
			}
			resp, err = c.Stream(context.Background(), new(tutorRequest()), func(Delta) error { return nil })
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, resp.Usage); diff != "" {
				t.Errorf("Stream usage (-want +got):\n%s", diff)
			}
			price, priced := DefaultPrices().Lookup(pc.name, pc.model)
			uncached := want.InputTokens - want.CachedInputTokens - want.CacheWriteInputTokens
			wantCost := (float64(uncached)*price.Input + float64(want.CachedInputTokens)*price.CachedInput +
				float64(want.CacheWriteInputTokens)*price.CacheWriteInput + float64(want.OutputTokens)*price.Output) / 1e6
			for _, r := range rec.records {
				if r.Priced != priced || math.Abs(r.CostUSD-wantCost) > 1e-12 {
					t.Errorf("record cost = %v (priced %v), want %v (priced %v)", r.CostUSD, r.Priced, wantCost, priced)
				}
			}
		})
	}
}

type lookupArgs struct {
	Concept string `json:"concept"`
}

func TestAdapterToolCalls(t *testing.T) {
	tools := []Tool{{Name: "lookup_concept", Description: "Look a concept up in the curriculum.", Parameters: schemaOf[lookupArgs]()}}
	call := ToolCall{ID: "call_1", Name: "lookup_concept", Arguments: json.RawMessage(`{"concept":"fractions"}`)}
	for _, pc := range providerCases() {
		t.Run(string(pc.name), func(t *testing.T) {
			srv := pc.newFake(t,
				llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: call.ID, Name: call.Name, Arguments: string(call.Arguments)}}},
				llmtest.Reply{Text: "Fractions are parts of a whole."},
			)
			c, _ := pc.newTestClient(t, srv, nil)
			req := tutorRequest()
			req.Tools = tools
			req.ToolChoice = ToolChoice{Mode: ToolChoiceRequired}
			resp, err := c.Generate(context.Background(), &req)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]ToolCall{call}, resp.ToolCalls); diff != "" {
				t.Errorf("tool calls (-want +got):\n%s", diff)
			}
			if resp.StopReason != StopToolUse {
				t.Errorf("stop reason = %s", resp.StopReason)
			}

			req.ToolChoice = ToolChoice{}
			req.Messages = append(req.Messages,
				Message{Role: RoleAssistant, ToolCalls: resp.ToolCalls},
				Message{Role: RoleTool, ToolCallID: "call_1", Content: "A fraction names part of a whole."},
			)
			resp, err = c.Generate(context.Background(), &req)
			if err != nil {
				t.Fatal(err)
			}
			if resp.Text != "Fractions are parts of a whole." {
				t.Errorf("text = %q", resp.Text)
			}
			want := map[Provider]any{
				ProviderOpenAI:           map[string]any{"role": "tool", "tool_call_id": "call_1", "content": "A fraction names part of a whole."},
				ProviderOpenAICompatible: map[string]any{"role": "tool", "tool_call_id": "call_1", "content": "A fraction names part of a whole."},
				ProviderAnthropic: map[string]any{"role": "user", "content": []any{map[string]any{
					"type": "tool_result", "tool_use_id": "call_1", "is_error": false,
					"content": []any{map[string]any{"type": "text", "text": "A fraction names part of a whole."}},
				}}},
				ProviderGoogle: map[string]any{"role": "user", "parts": []any{map[string]any{"functionResponse": map[string]any{
					"id": "call_1", "name": "lookup_concept", "response": map[string]any{"output": "A fraction names part of a whole."},
				}}}},
			}[pc.name]
			if diff := cmp.Diff(want, pc.lastMessage(body(t, srv.Requests()[1]))); diff != "" {
				t.Errorf("tool result in the request (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAdapterStream(t *testing.T) {
	replies := []struct {
		name  string
		reply llmtest.Reply
	}{
		{"text", llmtest.Reply{Text: "Let's add the fractions step by step.", Usage: llmtest.Usage{Input: 300, Output: 40, Cached: 100}}},
		{"structured", llmtest.Reply{Text: validTurnJSON}},
		{"tool calls", llmtest.Reply{Text: "Let me check.", ToolCalls: []llmtest.ToolCall{
			{ID: "call_1", Name: "lookup_concept", Arguments: `{"concept":"fractions"}`},
			{ID: "call_2", Name: "lookup_concept", Arguments: `{"concept":"decimals"}`},
		}}},
		{"cut off", llmtest.Reply{Text: "A long answer that", MaxTokens: true}},
	}
	for _, pc := range providerCases() {
		for _, r := range replies {
			t.Run(string(pc.name)+"/"+r.name, func(t *testing.T) {
				srv := pc.newFake(t, r.reply, r.reply)
				c, _ := pc.newTestClient(t, srv, nil)
				req := tutorRequest()
				if r.name == "structured" {
					req.Output = schemaOf[tutorTurn]()
				}
				if r.name == "tool calls" {
					req.Tools = []Tool{{Name: "lookup_concept", Parameters: schemaOf[lookupArgs]()}}
				}
				want, err := c.Generate(context.Background(), &req)
				if err != nil {
					t.Fatal(err)
				}
				var deltas []Delta
				got, err := c.Stream(context.Background(), &req, func(d Delta) error {
					deltas = append(deltas, d)
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				if !srv.Requests()[1].Stream || srv.Requests()[0].Stream {
					t.Error("Generate streamed or Stream did not")
				}
				if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(Response{}, "Latency")); diff != "" {
					t.Errorf("streamed response differs from Generate's (-generate +stream):\n%s", diff)
				}
				// The deltas, in order, rebuild the reply.
				var text strings.Builder
				args := map[int]string{}
				var ids []string
				textDeltas := 0
				for _, d := range deltas {
					text.WriteString(d.Text)
					if d.Text != "" {
						textDeltas++
					}
					if tc := d.ToolCall; tc != nil {
						if tc.ID != "" {
							ids = append(ids, tc.ID)
						}
						args[tc.Index] += tc.Arguments
					}
				}
				if text.String() != want.Text {
					t.Errorf("text deltas give %q, want %q", text.String(), want.Text)
				}
				if want.Text != "" && textDeltas < 2 {
					t.Errorf("%d text deltas; the fake sends several", textDeltas)
				}
				var wantIDs []string
				for i, call := range want.ToolCalls {
					wantIDs = append(wantIDs, call.ID)
					if !jsonEqual(args[i], string(call.Arguments)) {
						t.Errorf("tool call %d: argument deltas give %s, want %s", i, args[i], call.Arguments)
					}
				}
				if diff := cmp.Diff(wantIDs, ids); diff != "" {
					t.Errorf("tool call ids in delta order (-want +got):\n%s", diff)
				}
			})
		}
	}
}

func jsonEqual(a, b string) bool {
	var x, y any
	return json.Unmarshal([]byte(a), &x) == nil && json.Unmarshal([]byte(b), &y) == nil && cmp.Equal(x, y)
}

// TestAdapterIgnoresAmbientEnvironment checks that the SDKs' habit of
// reading their own environment variables cannot redirect a request or leak
// a key to an OpenAI-compatible server.
func TestAdapterIgnoresAmbientEnvironment(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-ambient")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
	t.Setenv("OPENAI_ORG_ID", "org-ambient")
	t.Setenv("ANTHROPIC_API_KEY", "sk-ambient")
	t.Setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:1")
	t.Setenv("GEMINI_API_KEY", "sk-ambient")
	t.Setenv("GOOGLE_GEMINI_BASE_URL", "http://127.0.0.1:1")
	t.Setenv("GOOGLE_GENAI_USE_VERTEXAI", "true")
	for _, pc := range providerCases() {
		t.Run(string(pc.name), func(t *testing.T) {
			srv := pc.newFake(t, llmtest.Reply{Text: "hi"})
			c, _ := pc.newTestClient(t, srv, nil)
			if _, err := c.Generate(context.Background(), new(tutorRequest())); err != nil {
				t.Fatal(err)
			}
			h := srv.Requests()[0].Header
			for name, values := range h {
				for _, v := range values {
					if strings.Contains(v, "ambient") {
						t.Errorf("header %s carries an ambient setting: %q", name, v)
					}
				}
			}
		})
	}
	t.Run("openai-compatible without a key sends none", func(t *testing.T) {
		srv := compatibleFake("llama3.1")(t, llmtest.Reply{Text: "hi"})
		c, err := Resolve(Config{Component: ComponentTutor, Provider: ProviderOpenAICompatible, Model: "llama3.1"},
			Settings{CompatibleBaseURL: srv.URL}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Generate(context.Background(), new(tutorRequest())); err != nil {
			t.Fatal(err)
		}
		if auth := srv.Requests()[0].Header.Get("Authorization"); auth != "" {
			t.Errorf("Authorization = %q, want none", auth)
		}
	})
}

func TestAnthropicThinkingUsesOutputFormat(t *testing.T) {
	srv := llmtest.NewAnthropic(t, llmtest.Reply{Text: validTurnJSON})
	pc := providerCases()[2]
	c, _ := pc.newTestClient(t, srv, nil)
	req := tutorRequest()
	req.Effort = EffortHigh
	req.MaxOutputTokens = 20000
	got, _, err := Structured[tutorTurn](context.Background(), c, req)
	if err != nil {
		t.Fatal(err)
	}
	if got.Intent != "answer" {
		t.Errorf("intent = %q", got.Intent)
	}
	b := body(t, srv.Requests()[0])
	want := map[string]any{
		"output_config": map[string]any{"format": map[string]any{"type": "json_schema", "schema": decodeJSON(schemaOf[tutorTurn]().anthropic)}},
		"thinking":      map[string]any{"type": "enabled", "budget_tokens": 16384.0},
		"max_tokens":    20000.0,
		"tool_choice":   nil,
		"tools":         nil,
	}
	gotParts := map[string]any{}
	for k := range want {
		gotParts[k] = b[k]
	}
	if diff := cmp.Diff(want, gotParts); diff != "" {
		t.Errorf("request (-want +got):\n%s", diff)
	}
}

// TestAnthropicTokenLimitCoversThinking: an admin caps a component's
// output at MaxOutputTokens, which OpenAI (max_completion_tokens) and Gemini
// (maxOutputTokens) apply to the reply and its reasoning together. With
// extended thinking, Anthropic's calls were sent max_tokens of the limit
// plus the thinking budget (1000 became 17384 at effort high), and billed
// up to that many output tokens. The request the provider receives must
// keep max_tokens, which counts thinking, within the limit, and the
// thinking budget below max_tokens as the API requires; a limit left at
// zero keeps the adapter's default room for the answer beside the budget.
func TestAnthropicTokenLimitCoversThinking(t *testing.T) {
	for _, tc := range []struct {
		name      string
		model     string
		effort    Effort
		limit     int
		maxTokens float64
		thinking  any
	}{
		{"budget within the limit", "claude-haiku-4-5", EffortMedium, 8000, 8000, map[string]any{"type": "enabled", "budget_tokens": 4096.0}},
		{"budget cut to fit the limit", "claude-haiku-4-5", EffortHigh, 2000, 2000, map[string]any{"type": "enabled", "budget_tokens": 1999.0}},
		// The API takes no budget under 1024 tokens: no room to think.
		{"limit too small to think", "claude-haiku-4-5", EffortLow, 1000, 1000, nil},
		{"no limit: default answer room beside the budget", "claude-haiku-4-5", EffortHigh, 0, 4096 + 16384, map[string]any{"type": "enabled", "budget_tokens": 16384.0}},
		{"adaptive thinking within the limit", "claude-opus-4-6", EffortHigh, 1000, 1000, map[string]any{"type": "adaptive"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewAnthropic(t, llmtest.Reply{Text: "Yes."})
			pc := providerCases()[2]
			pc.model = tc.model
			c, _ := pc.newTestClient(t, srv, nil)
			req := tutorRequest()
			req.Effort = tc.effort
			req.MaxOutputTokens = tc.limit
			if _, err := c.Generate(context.Background(), &req); err != nil {
				t.Fatal(err)
			}
			b := body(t, srv.Requests()[0])
			if diff := cmp.Diff(map[string]any{"max_tokens": tc.maxTokens, "thinking": tc.thinking},
				map[string]any{"max_tokens": b["max_tokens"], "thinking": b["thinking"]}); diff != "" {
				t.Errorf("request (-want +got):\n%s", diff)
			}
		})
	}
}

// TestAnthropicLargeTokenLimit: a non-streaming call whose max_tokens the
// SDK would deem too long for a plain request (thinking budget included)
// still goes out and is answered.
func TestAnthropicLargeTokenLimit(t *testing.T) {
	srv := llmtest.NewAnthropic(t, llmtest.Reply{Text: validTurnJSON})
	c, _ := providerCases()[2].newTestClient(t, srv, nil)
	req := tutorRequest()
	req.Effort = EffortHigh
	req.MaxOutputTokens = 32000
	if _, _, err := Structured[tutorTurn](context.Background(), c, req); err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Fatalf("%d requests reached the server, want 1", n)
	}
}

// TestOpenAIQuotaExhausted: OpenAI's 429 insufficient_quota is an account
// problem, not a rate limit: one request, no retry, kind auth.
func TestOpenAIQuotaExhausted(t *testing.T) {
	srv := llmtest.NewOpenAI(t, llmtest.Reply{Fail: llmtest.QuotaExhausted}, llmtest.Reply{Text: validTurnJSON})
	c, _ := providerCases()[0].newTestClient(t, srv, nil)
	_, err := c.Generate(context.Background(), new(tutorRequest()))
	if KindOf(err) != KindAuth || !strings.Contains(err.Error(), "quota") {
		t.Fatalf("error = %v, want kind auth naming the quota", err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests; quota exhaustion must not be retried", n)
	}
}

// TestOpenAIRequestsThatCannotFit: a request that no wait lets through
// fails at once, with kind context_too_long in the error and the usage
// record: OpenAI's 429 for a request over the whole tokens-per-minute
// limit, and llama.cpp's answer to a prompt longer than its context.
// OpenAI's ordinary 429, which names tokens per minute too, is still
// retried.
func TestOpenAIRequestsThatCannotFit(t *testing.T) {
	openaiCase, compatCase := providerCases()[0], providerCases()[1]
	for _, tc := range []struct {
		name     string
		pc       providerCase
		fail     llmtest.Failure
		want     ErrorKind
		requests int
	}{
		{"openai/request over the per-minute limit", openaiCase, llmtest.RequestTooLarge, KindContextTooLong, 1},
		{"openai/rate limited", openaiCase, llmtest.RateLimited, "", 2},
		{"llama.cpp/prompt over the context size", compatCase, llmtest.ContextSizeExceeded, KindContextTooLong, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := tc.pc.newFake(t, llmtest.Reply{Fail: tc.fail}, llmtest.Reply{Text: "hi"})
			rec := &recorder{}
			c, _ := tc.pc.newTestClient(t, srv, func(o *Options) { o.Recorder = rec })
			_, err := c.Generate(context.Background(), new(tutorRequest()))
			if KindOf(err) != tc.want {
				t.Fatalf("error = %v, want kind %q", err, tc.want)
			}
			if n := len(srv.Requests()); n != tc.requests {
				t.Errorf("%d requests, want %d", n, tc.requests)
			}
			if len(rec.records) != 1 || rec.records[0].ErrorKind != tc.want {
				t.Errorf("usage records = %+v, want one with error kind %q", rec.records, tc.want)
			}
		})
	}
}

// TestAnthropicAdaptiveThinking: on Claude Opus 4.6, where budgeted
// thinking is deprecated, an effort asks for adaptive thinking at that
// effort (minimal, which these models lack, at low); the answer's schema
// still goes in output_config.
func TestAnthropicAdaptiveThinking(t *testing.T) {
	for _, tc := range []struct {
		effort    Effort
		want      string
		maxTokens float64
	}{
		{EffortMedium, "medium", 1000},
		{EffortMinimal, "low", 1000},
	} {
		t.Run(string(tc.effort), func(t *testing.T) {
			req := tutorRequest()
			req.Effort = tc.effort
			req.MaxOutputTokens = 1000
			req.Output = schemaOf[tutorTurn]()
			p, outputTool, err := toAnthropicRequest("claude-opus-4-6", &req)
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(p)
			if err != nil {
				t.Fatal(err)
			}
			var got map[string]any
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatal(err)
			}
			want := map[string]any{
				"thinking":      map[string]any{"type": "adaptive"},
				"output_config": map[string]any{"effort": tc.want, "format": map[string]any{"type": "json_schema", "schema": decodeJSON(schemaOf[tutorTurn]().anthropic)}},
				"max_tokens":    tc.maxTokens,
			}
			for k, w := range want {
				if diff := cmp.Diff(w, got[k]); diff != "" {
					t.Errorf("%s (-want +got):\n%s", k, diff)
				}
			}
			if outputTool != "" || got["tool_choice"] != nil {
				t.Errorf("a forced output tool beside thinking: %q, %v", outputTool, got["tool_choice"])
			}
		})
	}
}

// TestAdapterAbandonedCallRecordsEstimatedUsage: a call that is not
// streamed and ends without a reply after its request was sent (the caller
// cancelled it, as a learner who leaves mid-turn does, or its attempts
// timed out) has given the provider its prompt, which the provider bills
// though it sends no usage. The usage record used to count no tokens, so
// that a learner who left before each reply spent without the budget
// seeing it; it must count an estimate of the prompt for every attempt
// sent, and nothing for a call never sent.
func TestAdapterAbandonedCallRecordsEstimatedUsage(t *testing.T) {
	// About 2,000 tokens of prompt.
	lesson := strings.Repeat("A fraction names parts of a whole. ", 230)
	req := func() *Request {
		r := tutorRequest()
		r.System += " " + lesson
		return &r
	}
	for _, pc := range providerCases() {
		t.Run(string(pc.name)+"/caller cancels", func(t *testing.T) {
			srv := pc.newFake(t, llmtest.Reply{Fail: llmtest.Hang})
			rec := &recorder{}
			c, _ := pc.newTestClient(t, srv, func(o *Options) { o.Recorder = rec })
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() {
				for len(srv.Requests()) == 0 {
					time.Sleep(5 * time.Millisecond)
				}
				cancel()
			}()
			if _, err := c.Generate(ctx, req()); !errors.Is(err, ErrCanceled) {
				t.Fatalf("error = %v, want canceled", err)
			}
			r := oneRecord(t, rec)
			if r.Usage.InputTokens < 1000 || r.Usage.InputTokens > 4000 || r.Usage.OutputTokens != 0 || !r.Usage.Estimated || (r.Priced && r.CostUSD <= 0) || r.ErrorKind != KindCanceled {
				t.Errorf("recorded %+v; want the canceled call with an estimate of about 2000 input tokens, and its cost when priced", r)
			}
		})
		t.Run(string(pc.name)+"/attempts time out", func(t *testing.T) {
			srv := pc.newFake(t, llmtest.Reply{Fail: llmtest.Hang}, llmtest.Reply{Fail: llmtest.Hang}, llmtest.Reply{Fail: llmtest.Hang})
			rec := &recorder{}
			c, _ := pc.newTestClient(t, srv, func(o *Options) {
				o.Recorder = rec
				o.AttemptTimeout = 100 * time.Millisecond
				o.Retry.MaxAttempts = 2
			})
			if _, err := c.Generate(context.Background(), req()); !errors.Is(err, ErrTimeout) {
				t.Fatalf("error = %v, want timeout", err)
			}
			r := oneRecord(t, rec)
			if r.Attempts != 2 || r.Usage.InputTokens < 2000 || r.Usage.InputTokens > 8000 || !r.Usage.Estimated || r.ErrorKind != KindTimeout {
				t.Errorf("recorded %+v; want 2 timed-out attempts with an estimate of about 2000 input tokens each", r)
			}
		})
		t.Run(string(pc.name)+"/never sent", func(t *testing.T) {
			srv := pc.newFake(t)
			rec := &recorder{}
			c, _ := pc.newTestClient(t, srv, func(o *Options) { o.Recorder = rec })
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			if _, err := c.Generate(ctx, req()); !errors.Is(err, ErrCanceled) {
				t.Fatalf("error = %v, want canceled", err)
			}
			if len(srv.Requests()) != 0 {
				t.Fatalf("the fake got %d requests; want none", len(srv.Requests()))
			}
			for _, r := range rec.records {
				if r.Usage != (Usage{}) {
					t.Errorf("recorded %+v for a call never sent; want no tokens", r)
				}
			}
		})
	}
}

// oneRecord returns rec's one usage record.
func oneRecord(t *testing.T, rec *recorder) UsageRecord {
	t.Helper()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.records) != 1 {
		t.Fatalf("%d usage records, want 1", len(rec.records))
	}
	return rec.records[0]
}

// TestCompatibleStreamWithoutUsageRecordsEstimatedUsage: some
// OpenAI-compatible servers ignore stream_options.include_usage, so that a
// whole stream reports no usage. The usage record used to count no tokens
// for it; it counts an estimate of the prompt and the reply instead, as for
// a stream stopped before its usage came.
func TestCompatibleStreamWithoutUsageRecordsEstimatedUsage(t *testing.T) {
	pc := providerCases()[1]
	if pc.name != ProviderOpenAICompatible {
		t.Fatalf("providerCases()[1] is %s", pc.name)
	}
	lesson := strings.Repeat("A fraction names parts of a whole. ", 230) // about 2,000 tokens
	req := tutorRequest()
	req.System += " " + lesson
	srv := pc.newFake(t, llmtest.Reply{Text: "Let's add the fractions step by step.", NoStreamUsage: true})
	rec := &recorder{}
	c, _ := pc.newTestClient(t, srv, func(o *Options) { o.Recorder = rec })
	resp, err := c.Stream(context.Background(), &req, func(Delta) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	r := oneRecord(t, rec)
	if u := r.Usage; u.InputTokens < 1000 || u.InputTokens > 4000 || u.OutputTokens < 1 || !u.Estimated || u != resp.Usage {
		t.Errorf("recorded %+v, returned %+v; want an estimate of about 2000 input tokens and some output in both", r.Usage, resp.Usage)
	}
	// A server that reports usage is believed.
	srv = pc.newFake(t, llmtest.Reply{Text: "Fine.", Usage: llmtest.Usage{Input: 7, Output: 3}})
	rec = &recorder{}
	c, _ = pc.newTestClient(t, srv, func(o *Options) { o.Recorder = rec })
	if _, err := c.Stream(context.Background(), &req, func(Delta) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if u := oneRecord(t, rec).Usage; u.InputTokens != 7 || u.OutputTokens != 3 || u.Estimated {
		t.Errorf("recorded %+v; want the reported 7 and 3", u)
	}
}
