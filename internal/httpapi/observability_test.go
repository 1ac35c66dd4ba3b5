package httpapi_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tutord/tutord/internal/httpapi"
	"github.com/tutord/tutord/internal/tutor"
)

// logBuffer is a goroutine-safe log sink.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *logBuffer) records(t *testing.T) []map[string]any {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(b.b.Bytes()))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("log line %q is not JSON: %v", sc.Text(), err)
		}
		out = append(out, m)
	}
	return out
}

// panickyDB is a database whose Ping panics, as a bug (a nil
// pointer in a driver, a store method) would.
type panickyDB struct{}

func (panickyDB) Ping(context.Context) error { panic("a bug while pinging") }
func (panickyDB) SchemaVersion(context.Context) (uint, bool, error) {
	return 0, false, nil
}

func doRequest(t *testing.T, method, url string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// TestPanicCountedInRequestMetrics: a handler that panics answers 500, and
// that 500 is counted like any other in tutord_http_request_duration_seconds,
// the request metric error-rate alerts are built on.
func TestPanicCountedInRequestMetrics(t *testing.T) {
	m := httpapi.NewMetrics()
	srv := httptest.NewServer(httpapi.New(httpapi.Deps{DB: panickyDB{}, Metrics: m, Version: "test"}).Handler())
	defer srv.Close()

	// A normal request, to show the request metrics work otherwise.
	doRequest(t, "GET", srv.URL+"/healthz")
	if code, body := doRequest(t, "GET", srv.URL+"/readyz"); code != http.StatusInternalServerError {
		t.Fatalf("GET /readyz with a panicking database = %d %s, want 500", code, body)
	}
	_, metrics := doRequest(t, "GET", srv.URL+"/metrics")
	if !strings.Contains(metrics, `tutord_http_request_duration_seconds_count{method="GET",route="/healthz",status="200"} 1`) {
		t.Fatalf("GET /healthz is not in the request metrics at all:\n%s", metrics)
	}
	want := `tutord_http_request_duration_seconds_count{method="GET",route="/readyz",status="500"} 1`
	if !strings.Contains(metrics, want) {
		var got []string
		for _, l := range strings.Split(metrics, "\n") {
			if strings.HasPrefix(l, "tutord_http_request_duration_seconds_count") {
				got = append(got, l)
			}
		}
		t.Errorf("a request answered 500 after a handler panic is missing from the request metrics:\nwant line %s\nrequest count series: %q", want, got)
	}
}

// TestPanicAccessLogged: the 500 of a handler that panicked is in the
// access log too.
func TestPanicAccessLogged(t *testing.T) {
	var buf logBuffer
	log := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo}))
	srv := httptest.NewServer(httpapi.New(httpapi.Deps{DB: panickyDB{}, Logger: log, Version: "test"}).Handler())
	defer srv.Close()

	if code, body := doRequest(t, "GET", srv.URL+"/readyz"); code != http.StatusInternalServerError {
		t.Fatalf("GET /readyz with a panicking database = %d %s, want 500", code, body)
	}
	// A normal request, to show the access log works otherwise.
	doRequest(t, "GET", srv.URL+"/healthz")

	var sawHealthz, sawPanic500 bool
	var msgs []string
	for _, r := range buf.records(t) {
		msgs = append(msgs, fmt.Sprint(r["msg"], " ", r["route"], " ", r["status"]))
		if r["msg"] != "request" {
			continue
		}
		switch r["route"] {
		case "/healthz":
			sawHealthz = true
		case "/readyz":
			if r["status"] == float64(500) {
				sawPanic500 = true
			}
		}
	}
	if !sawHealthz {
		t.Fatalf("no access-log record for GET /healthz at all: %q", msgs)
	}
	if !sawPanic500 {
		t.Errorf("GET /readyz answered 500 after a panic but has no access-log record (msg=request, status=500); records: %q", msgs)
	}
}

// TestMetricsMethodLabelBounded: any client, with no token, may send any
// method; each new method label value would be a new series on every
// route, growing tutord's memory and the Prometheus server's.
func TestMetricsMethodLabelBounded(t *testing.T) {
	m := httpapi.NewMetrics()
	srv := httptest.NewServer(httpapi.New(httpapi.Deps{Metrics: m, Version: "test"}).Handler())
	defer srv.Close()

	const n = 50
	for i := range n {
		doRequest(t, fmt.Sprintf("PROBE%d", i), srv.URL+"/healthz")
	}
	_, metrics := doRequest(t, "GET", srv.URL+"/metrics")
	methods := map[string]bool{}
	for _, l := range strings.Split(metrics, "\n") {
		if !strings.HasPrefix(l, "tutord_http_request_duration_seconds_count{") {
			continue
		}
		_, rest, _ := strings.Cut(l, `method="`)
		meth, _, _ := strings.Cut(rest, `"`)
		methods[meth] = true
	}
	// GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS, CONNECT, TRACE and one
	// bucket for anything else would be 10 at most.
	if len(methods) > 10 {
		t.Errorf("%d requests with made-up methods created %d distinct method label values in tutord_http_request_duration_seconds (want a bounded set, e.g. the standard methods plus \"other\"); e.g. PROBE0 present: %v",
			n, len(methods), methods["PROBE0"])
	}
}

// TestLLMCallNegativeTokensDoNotPanic: token counts come from the
// provider's reply, and an OpenAI-compatible server may report anything; a
// counter panics on a negative value, which would fail the learner's turn
// and lose the spend's record.
func TestLLMCallNegativeTokensDoNotPanic(t *testing.T) {
	m := httpapi.NewMetrics()
	var p any
	func() {
		defer func() { p = recover() }()
		m.LLMCall("tutor", "openai_compatible", "local-model", 0, 120, 30, -1, "")
	}()
	if p != nil {
		t.Errorf("LLMCall with a provider-reported cached token count of -1 panicked (%v); it must clamp or skip the count, not crash the call that reports it", p)
	}
}

// topBucket returns the largest finite bucket bound of a histogram in a
// /metrics exposition.
func topBucket(t *testing.T, exposition, name string) float64 {
	t.Helper()
	top := math.Inf(-1)
	for _, l := range strings.Split(exposition, "\n") {
		_, rest, ok := strings.Cut(l, name+`_bucket{`)
		if !ok {
			continue
		}
		_, rest, _ = strings.Cut(rest, `le="`)
		le, _, _ := strings.Cut(rest, `"`)
		if v, err := strconv.ParseFloat(le, 64); err == nil && !math.IsInf(v, 1) {
			top = max(top, v)
		}
	}
	if math.IsInf(top, -1) {
		t.Fatalf("no %s buckets in /metrics", name)
	}
	return top
}

// TestLatencyHistogramsCoverTheirTimeouts: a turn holds model calls (up to
// 120 s) and a WebSocket turn may take 5 min; a step, a session's creation
// or a transcription request may take 60 s and more. Buckets that stop
// short put every slow one in +Inf, where quantiles and alerts cannot see
// it.
func TestLatencyHistogramsCoverTheirTimeouts(t *testing.T) {
	m := httpapi.NewMetrics()
	m.TurnCompleted(tutor.Mode("teach_me"), "openai", 45*time.Second)
	m.LLMCall("tutor", "openai", "gpt", 44*time.Second, 1, 1, 0, "")
	srv := httptest.NewServer(httpapi.New(httpapi.Deps{Metrics: m, Version: "test"}).Handler())
	defer srv.Close()
	doRequest(t, "GET", srv.URL+"/healthz")
	_, exp := doRequest(t, "GET", srv.URL+"/metrics")

	if turn, llm := topBucket(t, exp, "tutord_turn_duration_seconds"), topBucket(t, exp, "tutord_llm_call_duration_seconds"); turn < max(llm, 300) {
		t.Errorf("tutord_turn_duration_seconds tops out at le=%g; want at least a model call's le=%g and a WebSocket turn's 300 s", turn, llm)
	}
	if top := topBucket(t, exp, "tutord_http_request_duration_seconds"); top < 60 {
		t.Errorf("tutord_http_request_duration_seconds tops out at le=%g; want at least the API's 60 s timeouts", top)
	}
}

// TestClientRequestIDIsBounded: a client's X-Request-ID is logged and
// echoed back, so only a short printable one is kept; any other is
// replaced by a fresh id.
func TestClientRequestIDIsBounded(t *testing.T) {
	var buf logBuffer
	log := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo}))
	srv := httptest.NewServer(httpapi.New(httpapi.Deps{Logger: log, Version: "test"}).Handler())
	defer srv.Close()

	tests := []struct {
		name, id string
		kept     bool
	}{
		{"short", "req-42:abc", true},
		{"128 bytes", strings.Repeat("a", 128), true},
		{"129 bytes", strings.Repeat("b", 129), false},
		{"64 KiB", strings.Repeat("c", 64<<10), false},
		{"not ASCII", "req-\u00e9t\u00e9", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest("GET", srv.URL+"/healthz", nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("X-Request-ID", tt.id)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			got := resp.Header.Get("X-Request-ID")
			if tt.kept && got != tt.id || !tt.kept && (got == tt.id || got == "" || len(got) > 128) {
				t.Errorf("X-Request-ID %.40q... answered with %.40q...; kept %v, want kept %v (else a fresh id)", tt.id, got, got == tt.id, tt.kept)
			}
		})
	}
	for _, r := range buf.records(t) {
		if id, _ := r["request_id"].(string); len(id) > 128 {
			t.Errorf("access log has a request id of %d bytes", len(id))
		}
	}
}

// TestMetricsToken: with Options.MetricsToken (TUTORD_METRICS_TOKEN),
// /metrics answers only a scraper that sends it as a bearer token; anyone
// else gets 401 and no metrics. Without it, /metrics stays open, for a
// scraper on a private network.
func TestMetricsToken(t *testing.T) {
	const token = "scrape-7c1f0e9a4b"
	srv := httptest.NewServer(httpapi.New(httpapi.Deps{DB: panickyDB{}, Metrics: httpapi.NewMetrics(), Version: "test"},
		httpapi.Options{MetricsToken: token}).Handler())
	defer srv.Close()
	scrape := func(auth string) (*http.Response, string) {
		t.Helper()
		req, err := http.NewRequest("GET", srv.URL+"/metrics", nil)
		if err != nil {
			t.Fatal(err)
		}
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp, string(body)
	}
	for _, auth := range []string{"", "Bearer wrong-token", "Bearer " + token + "x", "Basic " + token, token} {
		resp, body := scrape(auth)
		if resp.StatusCode != http.StatusUnauthorized || strings.Contains(body, "tutord_") ||
			resp.Header.Get("WWW-Authenticate") == "" || !strings.Contains(body, `"code":"unauthorized"`) {
			t.Errorf("Authorization %q: %d %s %q; want 401 unauthorized with WWW-Authenticate and no metrics",
				auth, resp.StatusCode, resp.Header.Get("WWW-Authenticate"), body)
		}
	}
	if resp, body := scrape("Bearer " + token); resp.StatusCode != http.StatusOK || !strings.Contains(body, "tutord_") {
		t.Errorf("the right token: %d %q; want 200 with the metrics", resp.StatusCode, body)
	}

	open := httptest.NewServer(httpapi.New(httpapi.Deps{DB: panickyDB{}, Metrics: httpapi.NewMetrics(), Version: "test"}).Handler())
	defer open.Close()
	if code, body := doRequest(t, "GET", open.URL+"/metrics"); code != http.StatusOK || !strings.Contains(body, "tutord_") {
		t.Errorf("without a token configured: %d %q; want 200 with the metrics", code, body)
	}
}
