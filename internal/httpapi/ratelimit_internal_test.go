package httpapi

import (
	"fmt"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"
)

// TestLimiterBounded: a flood of new keys does not grow the limiter past
// maxBuckets.
func TestLimiterBounded(t *testing.T) {
	l := newLimiter()
	rl := RateLimit{Rate: 0.001, Burst: 1}
	start := time.Now()
	for i := range maxBuckets + 1000 {
		l.take(fmt.Sprintf("flood-%d", i), rl, start)
	}
	if n := len(l.buckets); n > maxBuckets {
		t.Fatalf("%d buckets, want at most %d", n, maxBuckets)
	}
}

// TestLimiterSweepKeepsEmptyBuckets: the sweep of idle buckets does not
// hand a caller a fresh burst before their bucket has refilled. With 3
// session creations per 1,000 s, a caller who spent them and waits 11
// minutes has earned 0.66 of one, not 3.
func TestLimiterSweepKeepsEmptyBuckets(t *testing.T) {
	l := newLimiter()
	rl := RateLimit{Rate: 0.001, Burst: 3}
	start := time.Now()
	for range 3 {
		if ok, _ := l.take("slow", rl, start); !ok {
			t.Fatal("the burst was refused")
		}
	}
	later := start.Add(11 * time.Minute)
	if ok, wait := l.take("slow", rl, later); ok {
		t.Fatalf("11 minutes after spending the burst: allowed; want to wait (about %v)", wait)
	}
	if ok, _ := l.take("slow", rl, start.Add(1001*time.Second)); !ok {
		t.Fatal("a token earned in 1,000 s was refused")
	}
}

// TestIPExtractor: the client address is the peer's, unless the peer is a
// trusted proxy, whose X-Forwarded-For is read from the right to the first
// untrusted entry. Operators rely on it for per-address rate limits: a
// client cannot pick its own address, and clients behind a proxy that
// writes ports into the header ("203.0.113.7:51000", as Azure Application
// Gateway does) are still told apart.
func TestIPExtractor(t *testing.T) {
	proxies := []string{"10.0.0.0/8", "2001:db8:ffff::/48"}
	for _, tt := range []struct {
		name    string
		trusted []string
		peer    string
		xff     []string
		want    string
	}{
		{"no trusted proxies", nil, "10.0.0.1:5000", []string{"203.0.113.7"}, "10.0.0.1"},
		{"untrusted peer", proxies, "198.51.100.1:5000", []string{"203.0.113.7"}, "198.51.100.1"},
		{"loopback is not trusted by itself", proxies, "127.0.0.1:5000", []string{"203.0.113.7"}, "127.0.0.1"},
		{"no header", proxies, "10.0.0.1:5000", nil, "10.0.0.1"},
		{"address", proxies, "10.0.0.1:5000", []string{"203.0.113.7"}, "203.0.113.7"},
		{"address and port", proxies, "10.0.0.1:5000", []string{"203.0.113.7:51000"}, "203.0.113.7"},
		{"IPv6", proxies, "10.0.0.1:5000", []string{"2001:db8::1"}, "2001:db8::1"},
		{"IPv6 in brackets", proxies, "10.0.0.1:5000", []string{"[2001:db8::1]"}, "2001:db8::1"},
		{"IPv6 and port", proxies, "10.0.0.1:5000", []string{"[2001:db8::1]:443"}, "2001:db8::1"},
		{"IPv4 in IPv6 and port", proxies, "10.0.0.1:5000", []string{"[::ffff:203.0.113.7]:80"}, "203.0.113.7"},
		{"the client's own entries", proxies, "10.0.0.1:5000", []string{"198.51.100.1:1, 203.0.113.7:51000"}, "203.0.113.7"},
		{"through trusted proxies", proxies, "10.0.0.1:5000", []string{"203.0.113.7:51000, 10.1.2.3:443", "[2001:db8:ffff::9]:443"}, "203.0.113.7"},
		{"all trusted: the leftmost", proxies, "10.0.0.1:5000", []string{"10.9.9.9:80, 10.1.1.1"}, "10.9.9.9"},
		{"IPv4 in IPv6 peer", proxies, "[::ffff:10.0.0.1]:5000", []string{"203.0.113.7:51000"}, "203.0.113.7"},
		{"IPv4 in IPv6 proxy range", []string{"::ffff:10.0.0.0/104"}, "10.0.0.1:5000", []string{"203.0.113.7"}, "203.0.113.7"},
		{"not an address", proxies, "10.0.0.1:5000", []string{"203.0.113.7, unknown"}, "10.0.0.1"},
		{"bad port", proxies, "10.0.0.1:5000", []string{"203.0.113.7:99999"}, "10.0.0.1"},
		{"empty port", proxies, "10.0.0.1:5000", []string{"203.0.113.7:"}, "10.0.0.1"},
		{"zone", proxies, "10.0.0.1:5000", []string{"fe80::1%eth0"}, "10.0.0.1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var trusted []netip.Prefix
			for _, p := range tt.trusted {
				trusted = append(trusted, netip.MustParsePrefix(p))
			}
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tt.peer
			for _, v := range tt.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			if got := ipExtractor(trusted)(r); got != tt.want {
				t.Errorf("peer %s, X-Forwarded-For %q: %q, want %q", tt.peer, tt.xff, got, tt.want)
			}
		})
	}
}

// TestLimiterFloodKeepsSpentBuckets: a flood of new client addresses (a
// host with many IPv6 /64s) that fills the limiter must not evict a spent
// bucket, which would hand its caller a fresh burst: the callers who spent
// theirs are still refused after the flood. Callers new while the limiter
// is full of spent buckets share one, so the flood is limited too.
func TestLimiterFloodKeepsSpentBuckets(t *testing.T) {
	l := newLimiter()
	rl := RateLimit{Rate: 0.001, Burst: 2}
	now := time.Now()
	spent := func(i int) string { return fmt.Sprintf("turn|ip:2001:db8:1:%x::/64", i) }
	for i := range 100 {
		for range 2 {
			if ok, _ := l.take(spent(i), rl, now); !ok {
				t.Fatal("the burst was refused")
			}
		}
	}
	allowed := 0
	for i := range 2 * maxBuckets {
		key := fmt.Sprintf("turn|ip:2001:db8:%x:%x::/64", 2+i/65536, i%65536)
		if ok, _ := l.take(key, rl, now); ok {
			allowed++
		}
	}
	for i := range 100 {
		if ok, _ := l.take(spent(i), rl, now); ok {
			t.Fatalf("after a flood of new addresses, caller %d, who spent their burst, was allowed again", i)
		}
	}
	if n := len(l.buckets); n > maxBuckets {
		t.Fatalf("%d buckets, want at most %d", n, maxBuckets)
	}
	// Until the limiter filled, each new address had its burst; after, the
	// rest shared one.
	if want := maxBuckets - 100 + rl.Burst; allowed > want {
		t.Errorf("the flood's %d addresses were allowed %d times; want at most %d", 2*maxBuckets, allowed, want)
	}
	// Once the spent buckets have refilled, new callers get their own
	// again.
	later := now.Add(2001 * time.Second)
	if ok, _ := l.take("turn|ip:2001:db8:ffff::/64", rl, later); !ok {
		t.Fatal("a new caller after the buckets refilled was refused")
	}
	if _, ok := l.buckets["turn|ip:2001:db8:ffff::/64"]; !ok {
		t.Error("a new caller after the buckets refilled has no bucket of their own")
	}
}
