package httpapi

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/time/rate"
)

// limiter holds one token bucket per (action, caller): a learner, or a
// client address for anonymous callers.
type limiter struct {
	mu      sync.Mutex
	buckets map[string]*bucket
	sweep   time.Time
}

type bucket struct {
	l    *rate.Limiter
	seen time.Time
}

func newLimiter() *limiter { return &limiter{buckets: map[string]*bucket{}, sweep: time.Now()} }

// take takes a token; when none is left it returns how long until one is.
func (l *limiter) take(key string, rl RateLimit, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.sweep) > time.Minute {
		for k, b := range l.buckets {
			if now.Sub(b.seen) > 10*time.Minute {
				delete(l.buckets, k)
			}
		}
		l.sweep = now
	}
	b, ok := l.buckets[key]
	if !ok {
		b = &bucket{l: rate.NewLimiter(rate.Limit(rl.Rate), rl.Burst)}
		l.buckets[key] = b
	}
	b.seen = now
	r := b.l.ReserveN(now, 1)
	if !r.OK() {
		return false, time.Second
	}
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}

// allow applies the rate limit of an action ("turn" or "create") to the
// caller: 429 with Retry-After when exhausted.
func (s *Server) allow(c echo.Context, action string) error {
	rl := s.opts.TurnRate
	if action == "create" {
		rl = s.opts.CreateRate
	}
	if rl.Rate <= 0 {
		return nil
	}
	who := callerOf(c)
	key := action + "|ip:" + c.RealIP()
	if !who.anonymous() {
		key = action + "|learner:" + who.learner.ID.String()
	}
	ok, wait := s.limiter.take(key, rl, time.Now())
	if ok {
		return nil
	}
	secs := int(math.Ceil(wait.Seconds()))
	c.Response().Header().Set("Retry-After", strconv.Itoa(max(secs, 1)))
	return &Error{Status: http.StatusTooManyRequests, Code: "rate_limited",
		Message: fmt.Sprintf("Too many requests; try again in %d s", max(secs, 1))}
}
