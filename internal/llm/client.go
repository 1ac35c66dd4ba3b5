package llm

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptrace"
	"sync/atomic"
	"time"
)

// Client is the one interface every agent uses to call a model. The clients
// Resolve returns add to a provider adapter: the component's configuration
// as defaults, the learner's budget, a deadline per call and per attempt,
// retries with backoff, a circuit breaker per provider and model, and a
// usage record per call. Their errors are *Error; on error the response is
// nil. Clients are safe for concurrent use.
type Client interface {
	// Generate sends req and returns the model's reply.
	Generate(ctx context.Context, req *Request) (*Response, error)
	// Stream sends req and passes the reply's text and tool-call deltas to
	// onDelta as they arrive, in order, then returns the same response
	// Generate would have. An attempt is retried only if it failed before
	// its first delta. If onDelta returns an error, the call stops with an
	// error of kind KindCanceled wrapping it.
	Stream(ctx context.Context, req *Request, onDelta func(Delta) error) (*Response, error)
}

// Options wire clients into the service. The zero value works: no usage
// records, no budget, a private set of breakers, default timeouts.
type Options struct {
	Recorder UsageRecorder
	Budget   *Budget
	// Breakers should be shared by all clients of the process.
	Breakers *Breakers
	Retry    RetryPolicy
	// AttemptTimeout bounds one attempt (default 60 s); for a stream, it
	// bounds the wait for its first event and for each next one instead, so
	// that a long reply that keeps coming is not cut. CallTimeout bounds a
	// call with its retries when the request has no Timeout (default 120 s).
	// The caller's context can only shorten them.
	AttemptTimeout time.Duration
	CallTimeout    time.Duration
	// HTTPClient is used by the provider SDKs; nil means a default client.
	HTTPClient *http.Client
	// Logger receives failures to record usage; nil means slog.Default().
	Logger *slog.Logger

	// Now, Sleep and Jitter replace the clock, the retry timer and the
	// backoff randomness (a number in [0, 1)) in tests.
	Now    func() time.Time
	Sleep  func(ctx context.Context, d time.Duration) error
	Jitter func() float64
}

func (o Options) withDefaults() Options {
	o.Retry = o.Retry.withDefaults()
	o.AttemptTimeout = cmp.Or(o.AttemptTimeout, 60*time.Second)
	o.CallTimeout = cmp.Or(o.CallTimeout, 120*time.Second)
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Sleep == nil {
		o.Sleep = sleep
	}
	if o.Jitter == nil {
		o.Jitter = rand.Float64
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Breakers == nil {
		o.Breakers = NewBreakers(BreakerOptions{Now: o.Now})
	}
	return o
}

// backend is a provider adapter: one attempt, no retries. It returns *Error
// values; it may return a response together with an error when the provider
// answered (a refusal, say, or a stream stopped before its end), so that the
// tokens it billed are recorded. An error raised before the request is sent
// (it cannot be put in the provider's form) is wrapped by notSent. stream
// calls onEvent for each event it receives, whether or not it makes a delta,
// so that the client can tell a slow stream from a stalled one.
type backend interface {
	generate(ctx context.Context, model string, req *Request) (*Response, error)
	stream(ctx context.Context, model string, req *Request, onEvent func(), onDelta func(Delta) error) (*Response, error)
}

type client struct {
	cfg     Config
	secret  string // the API key, never shown in an error
	backend backend
	breaker *breaker
	prices  PriceTable
	opts    Options
}

// recordTimeout bounds the write of a usage record, which runs even when the
// caller has given up.
const recordTimeout = 5 * time.Second

func newClient(cfg Config, b backend, prices PriceTable, o Options) *client {
	o = o.withDefaults()
	return &client{
		cfg:     cfg,
		backend: b,
		breaker: o.Breakers.get(cfg.Provider, cfg.Model),
		prices:  prices,
		opts:    o,
	}
}

// Generate implements Client.
func (c *client) Generate(ctx context.Context, req *Request) (*Response, error) {
	return c.call(ctx, req, nil)
}

// Stream implements Client.
func (c *client) Stream(ctx context.Context, req *Request, onDelta func(Delta) error) (*Response, error) {
	if onDelta == nil {
		return nil, c.errorf(KindInvalidRequest, "Stream needs a delta callback")
	}
	return c.call(ctx, req, onDelta)
}

func (c *client) call(ctx context.Context, req *Request, onDelta func(Delta) error) (*Response, error) {
	if req == nil {
		return nil, c.errorf(KindInvalidRequest, "nil request")
	}
	r := c.withDefaults(req)
	if err := r.validate(); err != nil {
		e := c.errorf(KindInvalidRequest, "%v", err)
		e.Err = err
		return nil, e
	}
	// The call's deadline runs from here: waiting for the learner's turn is
	// part of the call that Request.Timeout bounds.
	callCtx, cancel := context.WithTimeout(ctx, cmp.Or(r.Timeout, c.opts.CallTimeout))
	defer cancel()
	end, err := c.opts.Budget.begin(callCtx, r.Call.LearnerID)
	if err != nil {
		return nil, c.classify(callCtx, err)
	}
	defer end()
	// The spend is read within the call's deadline too: a slow query must
	// not hold the caller past it.
	if err := c.opts.Budget.Check(callCtx, r.Call.LearnerID); err != nil {
		e, ok := errors.AsType[*Error](err)
		switch {
		case ok:
		case callCtx.Err() != nil:
			e = c.classify(callCtx, err)
		default:
			// The spend could not be read: fail closed, the call would not
			// be accounted for either.
			e = &Error{Kind: KindUnavailable, Message: "checking the learner's budget failed", Err: err}
		}
		e.Provider, e.Model = c.cfg.Provider, c.cfg.Model
		return nil, e
	}

	start := c.opts.Now()
	resp, usage, attempts, err := c.attempts(callCtx, &r, onDelta)
	latency := c.opts.Now().Sub(start)
	c.record(ctx, &r, start, usage, attempts, latency, err)
	if err != nil {
		return nil, err
	}
	resp.Provider = c.cfg.Provider
	resp.Model = cmp.Or(resp.Model, c.cfg.Model)
	resp.Latency = latency
	resp.Attempts = attempts
	return resp, nil
}

// withDefaults returns a copy of req with the component's configuration
// filling what the request leaves unset.
func (c *client) withDefaults(req *Request) Request {
	r := *req
	if r.Temperature == nil {
		r.Temperature = c.cfg.Temperature
	}
	r.MaxOutputTokens = cmp.Or(r.MaxOutputTokens, c.cfg.MaxOutputTokens)
	r.Effort = cmp.Or(r.Effort, c.cfg.Effort)
	r.Call.Component = cmp.Or(r.Call.Component, c.cfg.Component)
	return r
}

// attempts runs the retry loop. It returns the tokens billed over all
// attempts, whether they succeeded or not.
func (c *client) attempts(ctx context.Context, req *Request, onDelta func(Delta) error) (*Response, Usage, int, error) {
	var (
		usage     Usage
		delivered bool
		stopped   error
		last      *Error
	)
	deliver := func(d Delta) error {
		delivered = true
		if err := onDelta(d); err != nil {
			stopped = err
			return err
		}
		return nil
	}
	for n := 1; ; n++ {
		wait, probe, ok := c.breaker.allow()
		if !ok {
			e := c.errorf(KindUnavailable, "circuit open after repeated failures; next probe in %s", wait.Round(time.Millisecond))
			e.RetryAfter = wait
			if last != nil {
				e.Err = last
			}
			return nil, usage, n - 1, e
		}

		var (
			resp *Response
			err  error
		)
		if onDelta == nil {
			resp, err = c.generateAttempt(ctx, req)
		} else {
			resp, err = c.streamAttempt(ctx, req, deliver)
		}
		if _, ok := errors.AsType[unsentError](err); ok {
			// The request could not be sent (the adapter could not put it
			// in the provider's form): nothing was learnt of the provider,
			// and sending it again would fail the same way.
			c.breaker.abandon(probe)
			return nil, usage, n - 1, c.classify(ctx, err)
		}
		if resp != nil {
			usage = usage.Add(resp.Usage)
		} else if err == nil {
			err = &Error{Kind: KindInvalidOutput, Message: "the adapter returned no reply"}
		}
		if stopped != nil {
			c.breaker.report(KindCanceled, probe)
			e := c.errorf(KindCanceled, "the stream consumer stopped the call")
			e.Err = stopped
			return nil, usage, n, e
		}
		if err == nil {
			c.breaker.report("", probe)
			return resp, usage, n, nil
		}

		e := c.classify(ctx, err)
		c.breaker.report(e.Kind, probe)
		last = e
		if !e.Kind.retryable() || delivered || n >= c.opts.Retry.MaxAttempts || ctx.Err() != nil {
			return nil, usage, n, e
		}
		d := c.opts.Retry.delay(n, e.RetryAfter, c.opts.Jitter())
		// Contexts run on the wall clock, so the deadline is compared with it.
		if deadline, ok := ctx.Deadline(); ok && d >= time.Until(deadline) {
			return nil, usage, n, e
		}
		if err := c.opts.Sleep(ctx, d); err != nil {
			return nil, usage, n, c.classify(ctx, e)
		}
	}
}

// generateAttempt sends one attempt that is not streamed, within
// AttemptTimeout. An attempt that ends without a reply after its request
// was sent, because it timed out or the caller cancelled it, has given the
// provider its prompt, which the provider bills though no usage comes
// back: its response then carries an estimate of the prompt's tokens
// (estimatedPromptTokens) beside the error, so that the learner's budget
// sees them. An attempt that failed before its request was written counts
// nothing.
func (c *client) generateAttempt(ctx context.Context, req *Request) (*Response, error) {
	var sent atomic.Bool
	actx, cancel := context.WithTimeout(httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		WroteRequest: func(w httptrace.WroteRequestInfo) {
			if w.Err == nil {
				sent.Store(true)
			}
		},
	}), c.opts.AttemptTimeout)
	defer cancel()
	resp, err := c.backend.generate(actx, c.cfg.Model, req)
	if resp == nil && err != nil && actx.Err() != nil && sent.Load() {
		resp = &Response{Usage: Usage{InputTokens: estimatedPromptTokens(req), Estimated: true}}
	}
	return resp, err
}

// errStreamIdle ends a streamed attempt whose next event is late.
var errStreamIdle = errors.New("llm: the stream is idle")

// streamAttempt sends one streamed attempt. AttemptTimeout bounds the wait
// for each event (the first one included, the time onDelta takes not
// counted) rather than the whole attempt: a long reply that keeps coming
// ends only with the call's deadline, while a reply that stops coming is
// cut as soon as it is late.
func (c *client) streamAttempt(ctx context.Context, req *Request, onDelta func(Delta) error) (*Response, error) {
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	idle := time.AfterFunc(c.opts.AttemptTimeout, func() { cancel(errStreamIdle) })
	defer idle.Stop()
	consume := func(d Delta) error {
		// The consumer's time (a learner's slow connection) is not the
		// provider's: the clock stops while it runs.
		idle.Stop()
		defer idle.Reset(c.opts.AttemptTimeout)
		return onDelta(d)
	}
	resp, err := c.backend.stream(actx, c.cfg.Model, req, func() { idle.Reset(c.opts.AttemptTimeout) }, consume)
	if err != nil && errors.Is(context.Cause(actx), errStreamIdle) {
		// The adapter saw its context canceled; the attempt timed out.
		err = &Error{Kind: KindTimeout, Message: fmt.Sprintf("no event from the stream for %s", c.opts.AttemptTimeout), Err: err}
	}
	return resp, err
}

// classify turns an attempt's error into an *Error of this client. When the
// call's own context has ended, that is the cause, whatever the adapter saw.
func (c *client) classify(ctx context.Context, err error) *Error {
	e, ok := errors.AsType[*Error](err)
	if !ok {
		e = &Error{Kind: KindUnavailable, Message: err.Error(), Err: err}
	}
	// Providers echo a wrong key in their messages ("Incorrect API key
	// provided: …"); secretLike catches the usual formats, the client's own
	// key any other. The message is cleaned before the error is wrapped
	// below, so that no error in the chain shows it.
	e.Message = providerMessage(e.Message, c.secret)
	switch ctxErr := ctx.Err(); {
	case errors.Is(ctxErr, context.DeadlineExceeded):
		e = &Error{Kind: KindTimeout, Message: "call deadline exceeded", Err: errors.Join(ctxErr, e)}
	case ctxErr != nil:
		e = &Error{Kind: KindCanceled, Message: "call canceled", Err: errors.Join(ctxErr, e)}
	case e.Kind == KindTimeout && e.Message == "":
		e.Message = "attempt timed out"
	}
	e.Provider, e.Model = c.cfg.Provider, c.cfg.Model
	return e
}

func (c *client) errorf(kind ErrorKind, format string, args ...any) *Error {
	return &Error{Kind: kind, Provider: c.cfg.Provider, Model: c.cfg.Model, Message: fmt.Sprintf(format, args...)}
}

func (c *client) record(ctx context.Context, req *Request, start time.Time, usage Usage, attempts int, latency time.Duration, err error) {
	if c.opts.Recorder == nil {
		return
	}
	rec := UsageRecord{
		Time:       start,
		LearnerID:  req.Call.LearnerID,
		SessionID:  req.Call.SessionID,
		Component:  req.Call.Component,
		Provider:   c.cfg.Provider,
		Model:      c.cfg.Model,
		Attempts:   attempts,
		Latency:    latency,
		Usage:      usage,
		ErrorKind:  KindOf(err),
		PromptHash: promptHash(req),
	}
	rec.CostUSD, rec.Priced = c.prices.Cost(c.cfg.Provider, c.cfg.Model, usage)
	if !rec.Priced {
		c.opts.Budget.unpriced(ctx, c.opts.Logger, c.cfg.Provider, c.cfg.Model)
	}
	// The tokens are spent even if the caller has gone: record them anyway.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordTimeout)
	defer cancel()
	if rerr := c.opts.Recorder.RecordUsage(rctx, rec); rerr != nil {
		c.opts.Logger.LogAttrs(ctx, slog.LevelWarn, "llm: recording usage failed",
			slog.String("component", string(rec.Component)),
			slog.String("provider", string(rec.Provider)),
			slog.String("model", rec.Model),
			slog.Any("error", rerr))
	}
}
