package llm

import (
	"net/http"
	"testing"
	"time"
)

func TestRetryDelay(t *testing.T) {
	p := RetryPolicy{}.withDefaults()
	for _, tc := range []struct {
		name       string
		n          int
		retryAfter time.Duration
		jitter     float64
		want       time.Duration
	}{
		{"first retry, no jitter", 1, 0, 0, 250 * time.Millisecond},
		{"first retry, full jitter", 1, 0, 0.999999, 500 * time.Millisecond},
		{"second retry doubles", 2, 0, 0, 500 * time.Millisecond},
		{"capped at MaxDelay", 10, 0, 0, 4 * time.Second},
		{"huge retry count stays capped", 1 << 20, 0, 1, 8 * time.Second},
		{"Retry-After wins", 3, 1200 * time.Millisecond, 0.7, 1200 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := p.delay(tc.n, tc.retryAfter, tc.jitter)
			if diff := got - tc.want; diff < -time.Microsecond || diff > time.Microsecond {
				t.Errorf("delay = %s, want %s", got, tc.want)
			}
		})
	}
}

func TestRetryAfterHeader(t *testing.T) {
	for _, tc := range []struct {
		name   string
		header map[string]string
		want   time.Duration
	}{
		{"none", nil, 0},
		{"seconds", map[string]string{"Retry-After": "1"}, time.Second},
		{"fractional seconds", map[string]string{"Retry-After": "0.25"}, 250 * time.Millisecond},
		{"milliseconds win", map[string]string{"Retry-After-Ms": "150", "Retry-After": "1"}, 150 * time.Millisecond},
		{"HTTP date", map[string]string{"Retry-After": "Sun, 01 Mar 2026 10:00:03 GMT", "Date": "Sun, 01 Mar 2026 10:00:00 GMT"}, 3 * time.Second},
		{"HTTP date without a Date header", map[string]string{"Retry-After": "Sun, 01 Mar 2026 10:00:03 GMT"}, 0},
		{"date in the past", map[string]string{"Retry-After": "Sun, 01 Mar 2026 09:00:00 GMT", "Date": "Sun, 01 Mar 2026 10:00:00 GMT"}, 0},
		{"negative", map[string]string{"Retry-After": "-5"}, 0},
		{"garbage", map[string]string{"Retry-After": "soon", "Retry-After-Ms": "x"}, 0},
		{"a daily quota", map[string]string{"Retry-After": "90000"}, 25 * time.Hour},
		{"a daily quota in milliseconds", map[string]string{"Retry-After-Ms": "90000000"}, 25 * time.Hour},
		{"absurdly long", map[string]string{"Retry-After": "1e12"}, 365 * 24 * time.Hour},
		{"NaN", map[string]string{"Retry-After": "NaN"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tc.header {
				h.Set(k, v)
			}
			if got := retryAfter(h); got != tc.want {
				t.Errorf("retryAfter = %s, want %s", got, tc.want)
			}
		})
	}
}
