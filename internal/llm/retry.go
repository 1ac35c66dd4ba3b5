package llm

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// RetryPolicy says how a client retries attempts that failed with a
// retryable error (rate limited, unavailable, attempt timeout).
//
// The client owns the only retry loop: the SDKs' own retries are turned off
// (openai and anthropic WithMaxRetries(0), genai one attempt), because genai
// ignores Retry-After, none of them reports how many attempts it made, and
// none lets a circuit breaker see each attempt.
type RetryPolicy struct {
	// MaxAttempts counts the first attempt; 1 disables retries. Default 3.
	MaxAttempts int
	// BaseDelay is the backoff before the first retry; it doubles with each
	// further retry up to MaxDelay. Defaults 500 ms and 8 s. A provider's
	// Retry-After replaces the backoff.
	BaseDelay time.Duration
	MaxDelay  time.Duration
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = 3
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = 500 * time.Millisecond
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = 8 * time.Second
	}
	return p
}

// delay returns the wait before retry number n (1 for the first retry).
// retryAfter, when positive, is the provider's own instruction and wins.
// jitter is a number in [0, 1).
func (p RetryPolicy) delay(n int, retryAfter time.Duration, jitter float64) time.Duration {
	if retryAfter > 0 {
		return retryAfter
	}
	d := p.BaseDelay
	for i := 1; i < n && d < p.MaxDelay; i++ {
		d *= 2
	}
	d = min(d, p.MaxDelay)
	// Equal jitter: wait between half and all of the backoff, so that
	// clients that failed together do not retry together.
	return d/2 + time.Duration(jitter*float64(d/2))
}

// retryAfter reads how long a response asks us to wait: the
// retry-after-ms header (OpenAI), else Retry-After in seconds or as an HTTP
// date, which is read against the response's own Date so that no clock is
// needed. It returns 0 when there is no usable instruction. A long wait (a
// daily quota spent) is kept, so that the call ends at once with it in the
// error's RetryAfter; waits are capped at a year.
func retryAfter(h http.Header) time.Duration {
	if h == nil {
		return 0
	}
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && ms > 0 {
			return capWait(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s > 0 {
			return capWait(s * float64(time.Second))
		}
		return 0
	}
	at, err := http.ParseTime(v)
	if err != nil {
		return 0
	}
	now, err := http.ParseTime(h.Get("Date"))
	if err != nil || !at.After(now) {
		return 0
	}
	return capWait(float64(at.Sub(now)))
}

// capWait converts a wait in nanoseconds to a Duration of at most a year
// (a float would overflow the conversion; NaN is no wait).
func capWait(ns float64) time.Duration {
	const year = 365 * 24 * time.Hour
	if !(ns > 0) {
		return 0
	}
	return time.Duration(min(ns, float64(year)))
}

// sleep waits for d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
