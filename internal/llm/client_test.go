package llm

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tutord/tutord/internal/llm/llmtest"
)

// stubBackend answers attempts from a script.
type stubBackend struct {
	mu       sync.Mutex
	script   []attempt
	requests []Request
}

type attempt struct {
	resp   *Response
	err    error
	deltas []Delta
	hang   bool // block until the attempt's context ends
}

func (b *stubBackend) next(req *Request) attempt {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.requests = append(b.requests, *req)
	if len(b.script) == 0 {
		return attempt{err: &Error{Kind: KindInvalidRequest, Message: "stub: script exhausted"}}
	}
	a := b.script[0]
	b.script = b.script[1:]
	return a
}

func (b *stubBackend) generate(ctx context.Context, _ string, req *Request) (*Response, error) {
	return b.stream(ctx, "", req, func() {}, func(Delta) error { return nil })
}

func (b *stubBackend) stream(ctx context.Context, _ string, req *Request, onEvent func(), onDelta func(Delta) error) (*Response, error) {
	a := b.next(req)
	if a.hang {
		<-ctx.Done()
		return nil, &Error{Kind: KindTimeout, Err: ctx.Err()}
	}
	for _, d := range a.deltas {
		onEvent()
		if err := onDelta(d); err != nil {
			return nil, err
		}
	}
	return a.resp, a.err
}

func (b *stubBackend) calls() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.requests)
}

// recorder collects usage records.
type recorder struct {
	mu      sync.Mutex
	records []UsageRecord
	err     error
}

func (r *recorder) RecordUsage(_ context.Context, rec UsageRecord) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.records = append(r.records, rec)
	return r.err
}

// fakeTime is a clock whose Sleep only records the wait.
type fakeTime struct {
	mu     sync.Mutex
	now    time.Time
	sleeps []time.Duration
}

func newFakeTime() *fakeTime {
	return &fakeTime{now: time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)}
}

func (f *fakeTime) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *fakeTime) Advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(d)
}

func (f *fakeTime) Sleep(ctx context.Context, d time.Duration) error {
	f.mu.Lock()
	f.sleeps = append(f.sleeps, d)
	f.now = f.now.Add(d)
	f.mu.Unlock()
	return ctx.Err()
}

func (f *fakeTime) Sleeps() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]time.Duration(nil), f.sleeps...)
}

var testConfig = Config{Component: ComponentTutor, Provider: ProviderOpenAI, Model: "gpt-4o-mini"}

type clientSetup struct {
	client  *client
	backend *stubBackend
	clock   *fakeTime
	rec     *recorder
}

func setupClient(t *testing.T, script []attempt, configure func(*Options)) clientSetup {
	t.Helper()
	clock := newFakeTime()
	rec := &recorder{}
	o := Options{
		Recorder: rec,
		Now:      clock.Now,
		Sleep:    clock.Sleep,
		Jitter:   func() float64 { return 0.5 },
		Breakers: NewBreakers(BreakerOptions{Now: clock.Now}),
	}
	if configure != nil {
		configure(&o)
	}
	b := &stubBackend{script: script}
	return clientSetup{client: newClient(testConfig, b, DefaultPrices(), o), backend: b, clock: clock, rec: rec}
}

func userRequest(text string) *Request {
	return &Request{
		Call:     CallInfo{LearnerID: "learner-1", SessionID: "session-1"},
		System:   "You are a tutor.",
		Messages: []Message{{Role: RoleUser, Content: text}},
	}
}

func ok(text string) attempt {
	return attempt{resp: &Response{Text: text, StopReason: StopEnd, Model: "gpt-4o-mini-2024-07-18", Usage: Usage{InputTokens: 1000, OutputTokens: 100}}}
}

func fail(kind ErrorKind, retryAfter time.Duration) attempt {
	return attempt{err: &Error{Kind: kind, RetryAfter: retryAfter, Message: "injected"}}
}

func TestClientRetries(t *testing.T) {
	for _, tc := range []struct {
		name       string
		script     []attempt
		wantKind   ErrorKind
		wantCalls  int
		wantSleeps []time.Duration
	}{
		{"success", []attempt{ok("hi")}, "", 1, nil},
		{"rate limited honours Retry-After", []attempt{fail(KindRateLimited, time.Second), ok("hi")}, "", 2, []time.Duration{time.Second}},
		{"unavailable backs off with jitter", []attempt{fail(KindUnavailable, 0), fail(KindUnavailable, 0), ok("hi")}, "", 3,
			// Base 500 ms, doubled, with jitter 0.5: half plus a quarter.
			[]time.Duration{375 * time.Millisecond, 750 * time.Millisecond}},
		{"attempt timeout is retried", []attempt{fail(KindTimeout, 0), ok("hi")}, "", 2, []time.Duration{375 * time.Millisecond}},
		{"gives up after max attempts", []attempt{fail(KindUnavailable, 0), fail(KindUnavailable, 0), fail(KindUnavailable, 0)}, KindUnavailable, 3,
			[]time.Duration{375 * time.Millisecond, 750 * time.Millisecond}},
		{"refusal is not retried", []attempt{fail(KindRefused, 0)}, KindRefused, 1, nil},
		{"context too long is not retried", []attempt{fail(KindContextTooLong, 0)}, KindContextTooLong, 1, nil},
		{"auth is not retried", []attempt{fail(KindAuth, 0)}, KindAuth, 1, nil},
		{"Retry-After beyond the deadline fails at once", []attempt{fail(KindRateLimited, time.Hour)}, KindRateLimited, 1, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := setupClient(t, tc.script, nil)
			resp, err := s.client.Generate(context.Background(), userRequest("hello"))
			if KindOf(err) != tc.wantKind {
				t.Fatalf("error = %v, want kind %q", err, tc.wantKind)
			}
			if got := s.backend.calls(); got != tc.wantCalls {
				t.Errorf("attempts = %d, want %d", got, tc.wantCalls)
			}
			if diff := cmp.Diff(tc.wantSleeps, s.clock.Sleeps()); diff != "" {
				t.Errorf("waits (-want +got):\n%s", diff)
			}
			if err != nil {
				if resp != nil {
					t.Errorf("response %+v returned with error", resp)
				}
				e, _ := errors.AsType[*Error](err)
				if e.Provider != ProviderOpenAI || e.Model != "gpt-4o-mini" {
					t.Errorf("error not tagged with provider and model: %+v", e)
				}
				return
			}
			if resp.Attempts != tc.wantCalls || resp.Provider != ProviderOpenAI || resp.Text != "hi" {
				t.Errorf("response = %+v", resp)
			}
		})
	}
}

func TestClientRecordsUsage(t *testing.T) {
	s := setupClient(t, []attempt{fail(KindUnavailable, 0), ok("hi"), fail(KindRefused, 0)}, nil)
	req := userRequest("hello")
	if _, err := s.client.Generate(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if _, err := s.client.Generate(context.Background(), req); !errors.Is(err, ErrRefused) {
		t.Fatalf("second call: %v, want refused", err)
	}
	hash := promptHash(&Request{System: req.System, Messages: req.Messages})
	want := []UsageRecord{
		{
			Time: s.clock.now, LearnerID: "learner-1", SessionID: "session-1", Component: ComponentTutor,
			Provider: ProviderOpenAI, Model: "gpt-4o-mini", Attempts: 2, Latency: 375 * time.Millisecond,
			Usage: Usage{InputTokens: 1000, OutputTokens: 100}, PromptHash: hash,
			CostUSD: (1000*0.15 + 100*0.60) / 1e6, Priced: true,
		},
		{
			LearnerID: "learner-1", SessionID: "session-1", Component: ComponentTutor,
			Provider: ProviderOpenAI, Model: "gpt-4o-mini", Attempts: 1, ErrorKind: KindRefused, PromptHash: hash, Priced: true,
		},
	}
	if diff := cmp.Diff(want, s.rec.records, cmpopts.IgnoreFields(UsageRecord{}, "Time"), cmpopts.EquateApprox(0, 1e-12)); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
}

func TestClientRecordsUsageAfterCancel(t *testing.T) {
	s := setupClient(t, []attempt{{hang: true}}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for s.backend.calls() == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	_, err := s.client.Generate(ctx, userRequest("hello"))
	if !errors.Is(err, ErrCanceled) || !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v, want canceled", err)
	}
	if len(s.rec.records) != 1 || s.rec.records[0].ErrorKind != KindCanceled {
		t.Fatalf("records = %+v, want one canceled call", s.rec.records)
	}
}

func TestClientDeadline(t *testing.T) {
	hangs := make([]attempt, 50)
	for i := range hangs {
		hangs[i].hang = true
	}
	s := setupClient(t, hangs, func(o *Options) {
		o.AttemptTimeout = 30 * time.Millisecond
		o.Sleep = sleep // real waits, so that the call deadline passes
		o.Retry = RetryPolicy{MaxAttempts: 50, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}
	})
	req := userRequest("hello")
	req.Timeout = 100 * time.Millisecond
	start := time.Now()
	_, err := s.client.Generate(context.Background(), req)
	if !errors.Is(err, ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error = %v, want the call deadline", err)
	}
	if elapsed := time.Since(start); elapsed > time.Second {
		t.Errorf("took %s, want about the 100 ms deadline", elapsed)
	}
	if got := s.backend.calls(); got < 2 {
		t.Errorf("attempts = %d, want several, each cut at 30 ms", got)
	}
}

func TestClientAppliesConfig(t *testing.T) {
	temp := 0.3
	s := setupClient(t, []attempt{ok("a"), ok("b")}, nil)
	s.client.cfg.Temperature = &temp
	s.client.cfg.MaxOutputTokens = 500
	s.client.cfg.Effort = EffortLow
	if _, err := s.client.Generate(context.Background(), userRequest("x")); err != nil {
		t.Fatal(err)
	}
	override := 1.0
	req := userRequest("y")
	req.Temperature, req.MaxOutputTokens, req.Effort = &override, 50, EffortHigh
	req.Call.Component = ComponentSafety
	if _, err := s.client.Generate(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	type knobs struct {
		Temperature float64
		Max         int
		Effort      Effort
		Component   Component
	}
	var got []knobs
	for _, r := range s.backend.requests {
		got = append(got, knobs{*r.Temperature, r.MaxOutputTokens, r.Effort, r.Call.Component})
	}
	want := []knobs{{0.3, 500, EffortLow, ComponentTutor}, {1.0, 50, EffortHigh, ComponentSafety}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("request settings (-want +got):\n%s", diff)
	}
}

func TestClientRejectsBadRequests(t *testing.T) {
	schema := mustSchema[tutorTurn](t)
	bad := 3.0
	for _, tc := range []struct {
		name string
		req  *Request
		want string
	}{
		{"nil", nil, "nil request"},
		{"no messages", &Request{}, "no messages"},
		{"unknown role", &Request{Messages: []Message{{Role: "system", Content: "x"}}}, "unknown role"},
		{"orphan tool result", &Request{Messages: []Message{{Role: RoleTool, ToolCallID: "c1", Content: "x"}}}, "no earlier message called"},
		{"empty assistant", &Request{Messages: []Message{{Role: RoleAssistant}}}, "without content or tool calls"},
		{"bad tool name", &Request{Messages: []Message{{Role: RoleUser, Content: "x"}}, Tools: []Tool{{Name: "has space"}}}, "must match"},
		{"tool choice without tools", &Request{Messages: []Message{{Role: RoleUser, Content: "x"}}, ToolChoice: ToolChoice{Mode: ToolChoiceRequired}}, "without tools"},
		{"unknown forced tool", &Request{Messages: []Message{{Role: RoleUser, Content: "x"}}, Tools: []Tool{{Name: "a"}}, ToolChoice: ToolChoice{Mode: ToolChoiceTool, Name: "b"}}, "not among the tools"},
		{"tool named like the schema", &Request{Messages: []Message{{Role: RoleUser, Content: "x"}}, Tools: []Tool{{Name: "tutor_turn"}}, Output: schema}, "name of the output schema"},
		{"temperature", &Request{Messages: []Message{{Role: RoleUser, Content: "x"}}, Temperature: &bad}, "outside [0, 2]"},
		{"effort", &Request{Messages: []Message{{Role: RoleUser, Content: "x"}}, Effort: "max"}, "unknown reasoning effort"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := setupClient(t, nil, nil)
			_, err := s.client.Generate(context.Background(), tc.req)
			if !errors.Is(err, ErrInvalidRequest) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want invalid request containing %q", err, tc.want)
			}
			if s.backend.calls() != 0 || len(s.rec.records) != 0 {
				t.Error("a bad request reached the provider or was recorded")
			}
		})
	}
}

type fixedSpend float64

func (f fixedSpend) LearnerSpendSince(context.Context, string, time.Time) (float64, error) {
	return float64(f), nil
}

func (f fixedSpend) AnonymousSpendSince(context.Context, time.Time) (float64, error) {
	return float64(f), nil
}

func TestClientBudget(t *testing.T) {
	for _, tc := range []struct {
		name    string
		spent   float64
		learner string
		want    ErrorKind
	}{
		{"under budget", 0.99, "learner-1", ""},
		{"at budget", 1.00, "learner-1", KindBudgetExceeded},
		{"anonymous sessions under their budget", 0.99, "", ""},
		{"anonymous sessions at their budget", 1.00, "", KindBudgetExceeded},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := setupClient(t, []attempt{ok("hi")}, func(o *Options) {
				o.Budget = &Budget{DailyUSD: 1, Spend: fixedSpend(tc.spent), Now: o.Now}
			})
			req := userRequest("x")
			req.Call.LearnerID = tc.learner
			_, err := s.client.Generate(context.Background(), req)
			if KindOf(err) != tc.want {
				t.Fatalf("error = %v, want kind %q", err, tc.want)
			}
			if err != nil {
				e, _ := errors.AsType[*Error](err)
				// The clock says 10:00 UTC: the budget resets in 14 hours.
				if e.RetryAfter != 14*time.Hour {
					t.Errorf("RetryAfter = %s, want 14h", e.RetryAfter)
				}
				if s.backend.calls() != 0 {
					t.Error("an over-budget call reached the provider")
				}
			}
		})
	}
}

func TestBudgetValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		b    *Budget
		ok   bool
	}{
		{"nil", nil, true},
		{"off", &Budget{}, true},
		{"on", &Budget{DailyUSD: 2, Spend: fixedSpend(0)}, true},
		{"negative", &Budget{DailyUSD: -1, Spend: fixedSpend(0)}, false},
		{"no reader", &Budget{DailyUSD: 2}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.b.Validate()
			if (err == nil) != tc.ok || (err != nil && !errors.Is(err, ErrInvalidConfig)) {
				t.Errorf("Validate = %v, want ok=%v", err, tc.ok)
			}
		})
	}
}

func TestClientStream(t *testing.T) {
	deltas := []Delta{{Text: "Hel"}, {Text: "lo"}, {ToolCall: &ToolCallDelta{Index: 0, ID: "c1", Name: "look"}}, {ToolCall: &ToolCallDelta{Index: 0, Arguments: "{}"}}}
	t.Run("deltas in order", func(t *testing.T) {
		s := setupClient(t, []attempt{{resp: &Response{Text: "Hello"}, deltas: deltas}}, nil)
		var got []Delta
		resp, err := s.client.Stream(context.Background(), userRequest("x"), func(d Delta) error {
			got = append(got, d)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(deltas, got); diff != "" {
			t.Errorf("deltas (-want +got):\n%s", diff)
		}
		if resp.Text != "Hello" {
			t.Errorf("final text %q", resp.Text)
		}
	})
	t.Run("retried before the first delta", func(t *testing.T) {
		s := setupClient(t, []attempt{fail(KindUnavailable, 0), {resp: &Response{Text: "Hello"}, deltas: deltas[:2]}}, nil)
		if _, err := s.client.Stream(context.Background(), userRequest("x"), func(Delta) error { return nil }); err != nil {
			t.Fatal(err)
		}
		if s.backend.calls() != 2 {
			t.Errorf("attempts = %d, want 2", s.backend.calls())
		}
	})
	t.Run("not retried after a delta", func(t *testing.T) {
		s := setupClient(t, []attempt{{deltas: deltas[:1], err: &Error{Kind: KindUnavailable}}, ok("never")}, nil)
		_, err := s.client.Stream(context.Background(), userRequest("x"), func(Delta) error { return nil })
		if !errors.Is(err, ErrUnavailable) || s.backend.calls() != 1 {
			t.Errorf("error = %v after %d attempts, want unavailable after 1", err, s.backend.calls())
		}
	})
	t.Run("consumer stops the call", func(t *testing.T) {
		stop := errors.New("client went away")
		s := setupClient(t, []attempt{{resp: &Response{Text: "Hello"}, deltas: deltas}}, nil)
		n := 0
		_, err := s.client.Stream(context.Background(), userRequest("x"), func(Delta) error {
			n++
			return stop
		})
		if !errors.Is(err, ErrCanceled) || !errors.Is(err, stop) || n != 1 {
			t.Errorf("error = %v after %d deltas, want canceled wrapping the consumer's error after 1", err, n)
		}
	})
	t.Run("nil callback", func(t *testing.T) {
		s := setupClient(t, nil, nil)
		if _, err := s.client.Stream(context.Background(), userRequest("x"), nil); !errors.Is(err, ErrInvalidRequest) {
			t.Errorf("error = %v, want invalid request", err)
		}
	})
}

func TestClientBreakerFailsFast(t *testing.T) {
	var script []attempt
	for range 5 {
		script = append(script, fail(KindUnavailable, 0))
	}
	s := setupClient(t, append(script, ok("back")), func(o *Options) {
		o.Retry = RetryPolicy{MaxAttempts: 1}
		o.Breakers = NewBreakers(BreakerOptions{Failures: 5, Cooldown: 30 * time.Second, Now: o.Now})
	})
	for i := range 5 {
		if _, err := s.client.Generate(context.Background(), userRequest("x")); !errors.Is(err, ErrUnavailable) {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	_, err := s.client.Generate(context.Background(), userRequest("x"))
	e, _ := errors.AsType[*Error](err)
	if e == nil || e.Kind != KindUnavailable || !strings.Contains(e.Message, "circuit open") || e.RetryAfter != 30*time.Second {
		t.Fatalf("error = %v, want a fast circuit-open failure", err)
	}
	if s.backend.calls() != 5 {
		t.Errorf("the open circuit let a call through: %d attempts", s.backend.calls())
	}
	if rec := s.rec.records[len(s.rec.records)-1]; rec.Attempts != 0 || rec.ErrorKind != KindUnavailable {
		t.Errorf("fast failure recorded as %+v", rec)
	}

	s.clock.Advance(30 * time.Second)
	resp, err := s.client.Generate(context.Background(), userRequest("x"))
	if err != nil || resp.Text != "back" {
		t.Fatalf("probe after cooldown: %v, %v", resp, err)
	}
}

func TestKindOf(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want ErrorKind
	}{
		{nil, ""},
		{errors.New("x"), ""},
		{context.DeadlineExceeded, KindTimeout},
		{context.Canceled, KindCanceled},
		{&Error{Kind: KindRefused}, KindRefused},
		{errors.Join(errors.New("wrapped"), &Error{Kind: KindAuth}), KindAuth},
	} {
		if got := KindOf(tc.err); got != tc.want {
			t.Errorf("KindOf(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}

func TestErrorIs(t *testing.T) {
	err := &Error{Kind: KindRateLimited, Provider: ProviderAnthropic, Message: "slow down", RetryAfter: time.Second}
	if !errors.Is(err, ErrRateLimited) || errors.Is(err, ErrUnavailable) {
		t.Errorf("errors.Is does not match by kind")
	}
	if errors.Is(ErrRateLimited, err) {
		t.Errorf("a sentinel matched a detailed error")
	}
	want := "llm anthropic: rate_limited: slow down (retry after 1s)"
	if err.Error() != want {
		t.Errorf("Error() = %q, want %q", err.Error(), want)
	}
}

// Under a budget, a learner's calls take turns: a second call waits for the
// one in flight (whose spend it must see), and gives up with its caller;
// another learner's call, or an anonymous one, does not wait.
func TestBudgetCallsTakeTurns(t *testing.T) {
	b := &Budget{DailyUSD: 1, Spend: fixedSpend(0)}
	end, err := b.begin(context.Background(), "learner-1")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := b.begin(ctx, "learner-1"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a second call of the learner while one runs: %v; want to wait until its caller gives up", err)
	}
	for _, other := range []string{"learner-2", ""} {
		endOther, err := b.begin(context.Background(), other)
		if err != nil {
			t.Fatalf("learner %q: %v", other, err)
		}
		endOther()
	}
	end()
	end, err = b.begin(context.Background(), "learner-1")
	if err != nil {
		t.Fatalf("after the first call ended: %v", err)
	}
	end()
	if len(b.calls) != 0 {
		t.Fatalf("%d learners still held after their calls ended", len(b.calls))
	}
}

// TestClientTimeoutCoversWaitForLearnersTurn: under a budget a learner's
// calls take turns, and a call that waits for the one in flight (a turn in
// another tab) still ends by its own deadline, with kind timeout, without
// reaching the provider.
func TestClientTimeoutCoversWaitForLearnersTurn(t *testing.T) {
	pc := providerCases()[0]
	srv := pc.newFake(t, llmtest.Reply{Fail: llmtest.Hang}, llmtest.Reply{Text: "hi"})
	c, _ := pc.newTestClient(t, srv, func(o *Options) {
		o.Budget = &Budget{DailyUSD: 5, Spend: fixedSpend(0)}
		o.Retry = RetryPolicy{MaxAttempts: 1}
		o.AttemptTimeout = 1500 * time.Millisecond
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first := make(chan error, 1)
	go func() {
		_, err := c.Generate(ctx, new(tutorRequest()))
		first <- err
	}()
	for len(srv.Requests()) == 0 {
		select {
		case err := <-first:
			t.Fatalf("the first call ended before reaching the provider: %v", err)
		case <-time.After(time.Millisecond):
		}
	}

	req := tutorRequest() // the same learner
	req.Timeout = 200 * time.Millisecond
	start := time.Now()
	_, err := c.Generate(context.Background(), &req)
	elapsed := time.Since(start)
	cancel()
	if err := <-first; !errors.Is(err, ErrCanceled) {
		t.Errorf("first call: %v, want canceled", err)
	}
	if !errors.Is(err, ErrTimeout) || elapsed > time.Second {
		t.Errorf("call with a 200 ms timeout ended after %s with error %v; want a timeout within its 200 ms", elapsed.Round(time.Millisecond), err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests; the call that timed out waiting must not reach the provider", n)
	}
}

// TestClientUnsentRequestLeavesBreaker: a request the adapter refuses
// before sending it (Gemini 2.5 cannot combine structured output with
// tools) tells nothing of the provider. It neither resets the count of
// consecutive failures nor, as the probe of a half-open circuit, closes it.
func TestClientUnsentRequestLeavesBreaker(t *testing.T) {
	var pc providerCase
	for _, p := range providerCases() {
		if p.name == ProviderGoogle {
			pc = p
		}
	}
	srv := pc.newFake(t, llmtest.Reply{Fail: llmtest.ServerError}, llmtest.Reply{Fail: llmtest.ServerError}, llmtest.Reply{Text: "back"})
	clock := newFakeTime()
	breakers := NewBreakers(BreakerOptions{Failures: 2, Cooldown: time.Minute, Now: clock.Now})
	rec := &recorder{}
	c, _ := pc.newTestClient(t, srv, func(o *Options) {
		o.Breakers = breakers
		o.Recorder = rec
		o.Retry = RetryPolicy{MaxAttempts: 1}
	})
	unsent := tutorRequest()
	unsent.Output = schemaOf[tutorTurn]()
	unsent.Tools = []Tool{lookupTool}
	refused := func(step string) {
		t.Helper()
		_, err := c.Generate(context.Background(), &unsent)
		if !errors.Is(err, ErrInvalidRequest) {
			t.Fatalf("%s: error = %v, want invalid request", step, err)
		}
		if r := rec.records[len(rec.records)-1]; r.Attempts != 0 {
			t.Errorf("%s: recorded %d attempts; the request was not sent", step, r.Attempts)
		}
	}
	state := func(step string, want BreakerState) {
		t.Helper()
		if got := breakers.State(pc.name, pc.model); got != want {
			t.Fatalf("%s: breaker %s, want %s", step, got, want)
		}
	}

	if _, err := c.Generate(context.Background(), new(tutorRequest())); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("first failure: %v", err)
	}
	refused("between two failures")
	if _, err := c.Generate(context.Background(), new(tutorRequest())); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("second failure: %v", err)
	}
	state("after two consecutive failures of the provider", BreakerOpen)

	clock.Advance(time.Minute)
	refused("after the cooldown")
	state("after a request that was not sent", BreakerHalfOpen)
	resp, err := c.Generate(context.Background(), new(tutorRequest()))
	if err != nil || resp.Text != "back" {
		t.Fatalf("the probe: %v, %v", resp, err)
	}
	state("after the probe succeeded", BreakerClosed)
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("%d requests reached the provider, want 3", n)
	}
}

// slowSpend reads a learner's spend as a slow query does: after its delay,
// or when its context ends.
type slowSpend time.Duration

func (d slowSpend) LearnerSpendSince(ctx context.Context, _ string, since time.Time) (float64, error) {
	return d.AnonymousSpendSince(ctx, since)
}

func (d slowSpend) AnonymousSpendSince(ctx context.Context, _ time.Time) (float64, error) {
	t := time.NewTimer(time.Duration(d))
	defer t.Stop()
	select {
	case <-t.C:
		return 0, nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// TestClientTimeoutCoversBudgetCheck: the read of the learner's spend is
// part of the call that Request.Timeout bounds: a slow one ends the call
// by its deadline, with kind timeout, without reaching the provider.
func TestClientTimeoutCoversBudgetCheck(t *testing.T) {
	s := setupClient(t, []attempt{ok("hi")}, func(o *Options) {
		o.Budget = &Budget{DailyUSD: 1, Spend: slowSpend(time.Second)}
	})
	req := userRequest("x")
	req.Timeout = 100 * time.Millisecond
	start := time.Now()
	_, err := s.client.Generate(context.Background(), req)
	elapsed := time.Since(start)
	if !errors.Is(err, ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error = %v, want the call's deadline", err)
	}
	if elapsed > 500*time.Millisecond {
		t.Errorf("took %s, want about the 100 ms deadline", elapsed.Round(time.Millisecond))
	}
	if s.backend.calls() != 0 {
		t.Error("a call that timed out reading the budget reached the provider")
	}
}

// TestUnpricedModelUnderABudgetIsLogged: a model without a price (one
// served by an OpenAI-compatible server such as OpenRouter, which bills)
// costs nothing by the price table, so its calls never count against a
// daily budget. With a budget set, the operator is told so, once per model,
// rather than left to find out from the bill.
func TestUnpricedModelUnderABudgetIsLogged(t *testing.T) {
	for _, tc := range []struct {
		name   string
		budget *Budget
		cfg    Config
		want   int
	}{
		{"unpriced, with a budget", &Budget{DailyUSD: 1, Spend: fixedSpend(0)}, Config{Component: ComponentTutor, Provider: ProviderOpenAICompatible, Model: "openai/gpt-4o"}, 1},
		{"unpriced, no budget", nil, Config{Component: ComponentTutor, Provider: ProviderOpenAICompatible, Model: "openai/gpt-4o"}, 0},
		{"priced, with a budget", &Budget{DailyUSD: 1, Spend: fixedSpend(0)}, testConfig, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logs bytes.Buffer
			clock := newFakeTime()
			c := newClient(tc.cfg, &stubBackend{script: []attempt{ok("a"), ok("b")}}, DefaultPrices(), Options{
				Recorder: &recorder{}, Budget: tc.budget, Logger: slog.New(slog.NewTextHandler(&logs, nil)),
				Now: clock.Now, Sleep: clock.Sleep, Breakers: NewBreakers(BreakerOptions{Now: clock.Now}),
			})
			for range 2 {
				if _, err := c.Generate(context.Background(), userRequest("x")); err != nil {
					t.Fatal(err)
				}
			}
			if got := strings.Count(logs.String(), "has no price"); got != tc.want {
				t.Errorf("%d warnings about the missing price in two calls, want %d; log:\n%s", got, tc.want, logs.String())
			}
		})
	}
}
