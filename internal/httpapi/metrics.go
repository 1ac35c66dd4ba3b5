package httpapi

import (
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/tutord/tutord/internal/tutor"
)

// Metrics are tutord's Prometheus metrics, on their own registry.
type Metrics struct {
	reg          *prometheus.Registry
	httpDuration *prometheus.HistogramVec
	turnDuration *prometheus.HistogramVec
	turns        *prometheus.CounterVec
	conflicts    prometheus.Counter
	websockets   prometheus.Gauge
	sessions     *prometheus.CounterVec
	llmDuration  *prometheus.HistogramVec
	llmTokens    *prometheus.CounterVec
	llmErrors    *prometheus.CounterVec
}

// NewMetrics registers tutord's metrics and the Go runtime's.
func NewMetrics() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		httpDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "tutord_http_request_duration_seconds", Help: "HTTP request latency by route template, method and status.",
			// Past the defaults' 10 s: a step or a session's creation runs
			// model calls (60 s an attempt), a transcription waits up to
			// its 60 s timeout.
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120},
		}, []string{"route", "method", "status"}),
		turnDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "tutord_turn_duration_seconds", Help: "Turn latency by mode and engine.",
			// A turn's model call may take 120 s, a WebSocket turn 5 min.
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120, 300},
		}, []string{"mode", "engine"}),
		turns: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tutord_turns_total", Help: "Committed turns by mode and engine (rules or a model provider).",
		}, []string{"mode", "engine"}),
		conflicts: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "tutord_cas_conflicts_total", Help: "Turns and session changes that lost to another writer, reported to the client as a conflict.",
		}),
		websockets: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "tutord_websockets_open", Help: "Open WebSocket connections.",
		}),
		sessions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tutord_sessions_created_total", Help: "Sessions created by mode.",
		}, []string{"mode"}),
		llmDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "tutord_llm_call_duration_seconds", Help: "Model call latency by component, provider and model.",
			Buckets: []float64{.1, .25, .5, 1, 2, 4, 8, 16, 32, 64},
		}, []string{"component", "provider", "model"}),
		llmTokens: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tutord_llm_tokens_total", Help: "Model tokens by component, model and kind (input, output, cached).",
		}, []string{"component", "model", "kind"}),
		llmErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tutord_llm_errors_total", Help: "Failed model calls by component, model and error kind.",
		}, []string{"component", "model", "kind"}),
	}
	m.reg.MustRegister(m.httpDuration, m.turnDuration, m.turns, m.conflicts, m.websockets, m.sessions,
		m.llmDuration, m.llmTokens, m.llmErrors,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

func (m *Metrics) httpMiddleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		err := next(c)
		if err != nil {
			c.Error(err)
		}
		route := c.Path()
		if route == "" {
			route = "unmatched"
		}
		m.httpDuration.WithLabelValues(route, methodLabel(c.Request().Method), strconv.Itoa(c.Response().Status)).Observe(time.Since(start).Seconds())
		return nil
	}
}

// methodLabel is a request's method as a label: any client may send any
// method, and each new label value would be a new series.
func methodLabel(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return m
	}
	return "other"
}

// TurnCompleted records a committed turn (it implements orchestrator.Observer).
func (m *Metrics) TurnCompleted(mode tutor.Mode, engine string, d time.Duration) {
	m.turns.WithLabelValues(string(mode), engine).Inc()
	m.turnDuration.WithLabelValues(string(mode), engine).Observe(d.Seconds())
}

// Conflict records a lost compare-and-swap (it implements orchestrator.Observer).
func (m *Metrics) Conflict() { m.conflicts.Inc() }

// LLMCall records a model call.
func (m *Metrics) LLMCall(component, provider, model string, d time.Duration, in, out, cached int, errKind string) {
	m.llmDuration.WithLabelValues(component, provider, model).Observe(d.Seconds())
	// A provider's odd report (a negative count) must not panic a counter.
	m.llmTokens.WithLabelValues(component, model, "input").Add(float64(max(in, 0)))
	m.llmTokens.WithLabelValues(component, model, "output").Add(float64(max(out, 0)))
	m.llmTokens.WithLabelValues(component, model, "cached").Add(float64(max(cached, 0)))
	if errKind != "" {
		m.llmErrors.WithLabelValues(component, model, errKind).Inc()
	}
}

func (m *Metrics) sessionCreated(mode string) { m.sessions.WithLabelValues(mode).Inc() }
func (m *Metrics) wsOpened()                  { m.websockets.Inc() }
func (m *Metrics) wsClosed()                  { m.websockets.Dec() }
