package httpapi

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/tutord/tutord/internal/orchestrator"
)

// limiter holds one token bucket per (action, caller): a learner, or a
// client address for anonymous callers; and the actions a caller has
// running where only one may run at a time.
type limiter struct {
	mu      sync.Mutex
	buckets map[string]*bucket
	sweep   time.Time
	running map[string]struct{}
	// overflow holds, per limit, the bucket that callers new while
	// buckets is full share (see evict), and evicted when evict last ran.
	overflow map[RateLimit]*bucket
	evicted  time.Time
}

// bucket is a token bucket: tokens at last, refilled at its limit's rate up
// to its burst.
type bucket struct {
	rl     RateLimit
	tokens float64
	last   time.Time
	seen   time.Time // the last take, refused or not
}

// at returns the bucket's tokens at now.
func (b *bucket) at(now time.Time) float64 {
	return min(float64(b.rl.Burst), b.tokens+b.rl.Rate*max(now.Sub(b.last), 0).Seconds())
}

func newLimiter() *limiter {
	return &limiter{buckets: map[string]*bucket{}, sweep: time.Now(), running: map[string]struct{}{}, overflow: map[RateLimit]*bucket{}}
}

// begin marks an action as running for a key; it reports false, marking
// nothing, when it already is. Each true must be followed by one end.
func (l *limiter) begin(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.running[key]; ok {
		return false
	}
	l.running[key] = struct{}{}
	return true
}

// end marks an action begun for a key as no longer running.
func (l *limiter) end(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.running, key)
}

// take takes a token; when none is left it returns how long until one is.
func (l *limiter) take(key string, rl RateLimit, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.sweep) > time.Minute {
		// A bucket idle for a while goes, once it has refilled: a new one
		// would be full, so no caller gains a burst by waiting (a slow
		// rate refills in longer than the idle time).
		for k, b := range l.buckets {
			if now.Sub(b.seen) > 10*time.Minute && b.at(now) >= float64(b.rl.Burst) {
				delete(l.buckets, k)
			}
		}
		l.sweep = now
	}
	b, ok := l.buckets[key]
	if !ok && len(l.buckets) >= maxBuckets && now.Sub(l.evicted) >= time.Second {
		l.evict(now)
	}
	switch {
	case ok:
	case len(l.buckets) < maxBuckets:
		b = &bucket{rl: rl, tokens: float64(rl.Burst), last: now}
		l.buckets[key] = b
	default:
		if b = l.overflow[rl]; b == nil {
			b = &bucket{rl: rl, tokens: float64(rl.Burst), last: now}
			l.overflow[rl] = b
		}
	}
	b.seen = now
	if rl.Burst < 1 {
		return false, time.Second
	}
	t := b.at(now)
	if t < 1 {
		return false, time.Duration((1 - t) / rl.Rate * float64(time.Second))
	}
	b.tokens, b.last = t-1, now
	return true, 0
}

// refund gives back a token taken for a key.
func (l *limiter) refund(key string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if b, ok := l.buckets[key]; ok {
		b.tokens, b.last = min(float64(b.rl.Burst), b.at(now)+1), now
	}
}

// maxBuckets bounds the limiter's memory: a flood of new client addresses
// must not grow it without end.
const maxBuckets = 100_000

// evict makes room for a bucket: it drops the buckets that have refilled,
// which a new bucket would stand for as well. It drops no other: that
// would hand their callers a fresh burst, which a flood of new client
// addresses (a host with many IPv6 /64s) could then force for itself. When
// every bucket is still refilling, callers new until one has refilled share
// a bucket per limit (take): the flood is limited as one caller, and the
// limiter's memory stays bounded. It reads every bucket, so take runs it
// at most once a second.
func (l *limiter) evict(now time.Time) {
	l.evicted = now
	for k, b := range l.buckets {
		if b.at(now) >= float64(b.rl.Burst) {
			delete(l.buckets, k)
		}
	}
}

// rateKey is who a caller's rate limits count against: their learner, or
// for anonymous callers their client address. The address comes from the
// server's IP extractor, which believes X-Forwarded-For only from trusted
// proxies (see ipExtractor): a client cannot name itself anew to get a
// fresh bucket. WebSocket turns use the key of the upgrade request, so
// that REST and WebSocket turns share one bucket whatever the session.
//
// An IPv6 client counts as its /64: one host commonly has a whole /64 to
// pick addresses from.
func rateKey(c echo.Context) string {
	who := callerOf(c)
	if who.anonymous() {
		return "ip:" + addressKey(c.RealIP())
	}
	return "learner:" + who.learner.ID.String()
}

// addressKey is the rate-limit key of a client address: an IPv4 address
// itself, an IPv6 one's /64.
func addressKey(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	a = a.Unmap()
	if a.Is4() {
		return a.String()
	}
	p, _ := a.WithZone("").Prefix(64)
	return p.String()
}

// allow applies the rate limit of an action ("turn", "create",
// "transcribe" or "export") to the caller: 429 with Retry-After when exhausted. The
// header goes with the error, not on the response at once: a handler may
// answer a refused retry of a committed turn with its stored 200.
func (s *Server) allow(c echo.Context, action string) error {
	wait, ok := s.take(action, rateKey(c))
	if ok {
		return nil
	}
	return rateLimited(wait)
}

// rateLimited is the 429 of a caller who may act again in wait.
func rateLimited(wait time.Duration) *Error {
	secs := retrySeconds(wait)
	return &Error{Status: http.StatusTooManyRequests, Code: "rate_limited",
		Message: fmt.Sprintf("Too many requests; try again in %d s", secs), RetryAfter: time.Duration(secs) * time.Second}
}

// take takes a token of an action's bucket for a rate key; when none is
// left it returns how long until one is. Transcriptions have a bucket of
// their own at the turn rate: a spoken message costs a transcription and
// then a turn. Exports have theirs, at exportBurst and exportEvery, while
// the turn rate is on (a turn rate of 0 turns the rate limits off).
func (s *Server) take(action, key string) (time.Duration, bool) {
	_, wait, ok := s.reserve(action, key)
	return wait, ok
}

// reserve is take, also returning the function that gives the token back.
func (s *Server) reserve(action, key string) (refund func(), wait time.Duration, ok bool) {
	rl := s.opts.TurnRate
	switch {
	case action == "create":
		rl = s.opts.CreateRate
	case action == "export" && rl.Rate > 0:
		rl = RateLimit{Rate: 1 / exportEvery.Seconds(), Burst: exportBurst}
	}
	if rl.Rate <= 0 {
		return func() {}, 0, true
	}
	key = action + "|" + key
	if ok, wait := s.limiter.take(key, rl, time.Now()); !ok {
		return nil, wait, false
	}
	return func() { s.limiter.refund(key, time.Now()) }, 0, true
}

// allowTurn admits a turn for the caller's rate, and returns the function
// to call when the turn ran nothing (a retry answered with its stored
// result): it gives the token back. A retry of a turn already committed,
// or still running in this process (sent again by a client that
// reconnected), is admitted whatever the rate; the refusal, when the turn
// is a new one, is allow's.
func (s *Server) allowTurn(ctx context.Context, key string, id uuid.UUID, message, clientTurnID string) (refund func(), replay *orchestrator.TurnResult, err error) {
	refund, wait, ok := s.reserve("turn", key)
	if ok {
		return refund, nil, nil
	}
	if res, done, err := s.deps.Sessions.Committed(ctx, id, message, clientTurnID); done || err != nil {
		return nil, &res, err
	}
	if s.deps.Sessions.Running(id, clientTurnID) {
		return func() {}, nil, nil
	}
	return nil, nil, rateLimited(wait)
}

// GET /profile/export is limited per learner to exportBurst at once, then
// one every exportEvery. An export reads everything stored about the
// learner, in one transaction on a pooled connection, and builds the
// document in memory; a learner needs one now and then, not a stream.
const (
	exportBurst = 3
	exportEvery = 30 * time.Second
)

// exportRetry is the Retry-After of an export refused because another one
// of the learner is still running: most take well under a second, a long
// history a few seconds.
const exportRetry = 5 * time.Second

// errExportRunning refuses an export while another one of the same
// learner runs on this process.
var errExportRunning = &Error{Status: http.StatusTooManyRequests, Code: "export_in_progress",
	Message: "An export of your data is already running; try again when it has finished", RetryAfter: exportRetry}

// beginExport admits an export of the caller's data: one at a time per
// learner on this process (429 export_in_progress while another runs), at
// a slow rate (429 rate_limited; see exportEvery). A refused export takes
// no token. The caller calls the returned function once the export is
// done.
func (s *Server) beginExport(c echo.Context) (func(), error) {
	key := "export|" + rateKey(c)
	if !s.limiter.begin(key) {
		return nil, errExportRunning
	}
	if err := s.allow(c, "export"); err != nil {
		s.limiter.end(key)
		return nil, err
	}
	return func() { s.limiter.end(key) }, nil
}

// retrySeconds rounds a wait up to whole seconds, at least one.
func retrySeconds(wait time.Duration) int {
	return max(int(math.Ceil(wait.Seconds())), 1)
}

// ipExtractor finds a request's client address. By default it is the peer
// address: X-Forwarded-For and X-Real-IP are set by whoever sends the
// request, so believing them would let a client pick its own rate-limit
// bucket (Echo's RealIP does believe them when no extractor is set). Behind
// reverse proxies, X-Forwarded-For is read from the right, through the
// trusted proxies, to the first address that is not one; when all are
// trusted, the leftmost is the client. An entry may carry a port, as some
// proxies write it ("203.0.113.7:51000", "[2001:db8::1]:443"): the address
// is the client's (Echo's ExtractIPFromXFFHeader took such an entry for a
// forgery and named the proxy, so that every client behind it shared one
// bucket). An entry that is no address at all makes the peer the client.
func ipExtractor(trusted []netip.Prefix) echo.IPExtractor {
	if len(trusted) == 0 {
		return echo.ExtractIPDirect()
	}
	peer := echo.ExtractIPDirect()
	var ranges []netip.Prefix
	for _, p := range trusted {
		if a := p.Addr(); a.Is4In6() && p.Bits() >= 96 {
			p = netip.PrefixFrom(a.Unmap(), p.Bits()-96)
		}
		ranges = append(ranges, p.Masked())
	}
	trust := func(a netip.Addr) bool {
		for _, p := range ranges {
			if p.Contains(a) {
				return true
			}
		}
		return false
	}
	return func(r *http.Request) string {
		direct := peer(r)
		xff := r.Header.Values(echo.HeaderXForwardedFor)
		if len(xff) == 0 {
			return direct
		}
		hops := append(strings.Split(strings.Join(xff, ","), ","), direct)
		var a netip.Addr
		for i := len(hops) - 1; i >= 0; i-- {
			var ok bool
			if a, ok = forwardedAddr(hops[i]); !ok {
				return direct
			}
			if !trust(a) {
				return a.String()
			}
		}
		return a.String()
	}
}

// forwardedAddr reads an X-Forwarded-For entry: an IP address, IPv6 in
// brackets or not, with or without a port. IPv4 in IPv6 is the IPv4
// address.
func forwardedAddr(s string) (netip.Addr, bool) {
	s = strings.TrimSpace(s)
	a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(s, "["), "]"))
	if err != nil {
		ap, perr := netip.ParseAddrPort(s)
		a, err = ap.Addr(), perr
	}
	return a.Unmap(), err == nil && a.Zone() == ""
}
