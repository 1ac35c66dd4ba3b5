package httpapi

import (
	"fmt"
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
