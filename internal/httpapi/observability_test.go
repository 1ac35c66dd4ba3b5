package httpapi_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/tutord/tutord/internal/httpapi"
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
