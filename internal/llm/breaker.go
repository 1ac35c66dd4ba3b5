package llm

import (
	"sync"
	"time"
)

// BreakerState is the state of a circuit breaker.
type BreakerState string

// The breaker states.
const (
	// BreakerClosed: calls go through.
	BreakerClosed BreakerState = "closed"
	// BreakerOpen: calls fail at once with KindUnavailable until the cooldown
	// has passed.
	BreakerOpen BreakerState = "open"
	// BreakerHalfOpen: one probe call is going through; the others fail at
	// once until it succeeds (closing the circuit) or fails (reopening it).
	BreakerHalfOpen BreakerState = "half-open"
)

// BreakerOptions configure circuit breakers.
type BreakerOptions struct {
	// Failures is how many consecutive attempts that failed for the
	// provider's sake (5xx, overload, connection errors, timeouts) open the
	// circuit. Default 5.
	Failures int
	// Cooldown is how long an open circuit rejects calls before letting one
	// probe through. Default 30 s.
	Cooldown time.Duration
	// Now replaces time.Now in tests.
	Now func() time.Time
}

// Breakers holds one circuit breaker per provider and model. Share one
// Breakers between all clients (pass it in Options) so that every component
// using a dead model learns it at once and fails fast, instead of holding
// each turn for the full timeout. It is safe for concurrent use.
type Breakers struct {
	opts BreakerOptions
	mu   sync.Mutex
	m    map[breakerKey]*breaker
}

type breakerKey struct {
	provider Provider
	model    string
}

// NewBreakers returns an empty set of breakers; zero options take defaults.
func NewBreakers(o BreakerOptions) *Breakers {
	if o.Failures <= 0 {
		o.Failures = 5
	}
	if o.Cooldown <= 0 {
		o.Cooldown = 30 * time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Breakers{opts: o, m: make(map[breakerKey]*breaker)}
}

// State returns the state of the breaker of a provider and model, for health
// checks and metrics. An open circuit whose cooldown has passed reports
// half-open: the next call will probe.
func (b *Breakers) State(p Provider, model string) BreakerState {
	br := b.get(p, model)
	br.mu.Lock()
	defer br.mu.Unlock()
	if br.state == BreakerOpen && b.opts.Now().Sub(br.openedAt) >= b.opts.Cooldown {
		return BreakerHalfOpen
	}
	return br.state
}

func (b *Breakers) get(p Provider, model string) *breaker {
	k := breakerKey{p, model}
	b.mu.Lock()
	defer b.mu.Unlock()
	br := b.m[k]
	if br == nil {
		br = &breaker{opts: &b.opts, state: BreakerClosed}
		b.m[k] = br
	}
	return br
}

type breaker struct {
	opts *BreakerOptions

	mu       sync.Mutex
	state    BreakerState
	failures int
	openedAt time.Time
	probing  bool
}

// allow reports whether an attempt may be sent, and whether it is the
// half-open circuit's probe (report needs to know); when it may not be sent,
// wait says how long until the next probe.
func (b *breaker) allow() (wait time.Duration, probe, ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch b.state {
	case BreakerOpen:
		elapsed := b.opts.Now().Sub(b.openedAt)
		if elapsed < b.opts.Cooldown {
			return b.opts.Cooldown - elapsed, false, false
		}
		b.state, b.probing = BreakerHalfOpen, true
		return 0, true, true
	case BreakerHalfOpen:
		if b.probing {
			return b.opts.Cooldown, false, false
		}
		b.probing = true
		return 0, true, true
	}
	return 0, false, true
}

// abandon records that an allowed attempt was not sent after all: nothing
// was learnt about the provider. If it was the probe, another call may
// probe.
func (b *breaker) abandon(probe bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if probe {
		b.probing = false
	}
}

// report records the outcome of an allowed attempt: "" for success, else the
// kind of its error; probe is what allow said of the attempt.
func (b *breaker) report(kind ErrorKind, probe bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case kind.countsAgainstBreaker():
		b.failures++
		if b.state == BreakerHalfOpen || b.failures >= b.opts.Failures {
			b.state, b.openedAt, b.probing = BreakerOpen, b.opts.Now(), false
		}
	case kind == KindCanceled:
		// The caller gave up: nothing was learnt about the provider. If
		// this was the probe, let another call probe; an attempt sent
		// before the circuit opened leaves the probe in flight alone.
		if probe {
			b.probing = false
		}
	default:
		// Success, or an answer from a working provider (a refusal, a rate
		// limit, a rejected request).
		b.state, b.failures, b.probing = BreakerClosed, 0, false
	}
}
