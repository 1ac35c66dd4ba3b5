// Package httpapi serves tutord's HTTP API with Echo: the reference's REST
// routes, the WebSocket, health and metrics. Handlers translate HTTP and
// WebSocket messages to orchestrator calls; they return errors, and one
// error handler maps them to status codes and the one error body.
package httpapi

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/tutord/tutord/internal/llm"
)

// Database is what the health endpoints need of the store.
type Database interface {
	Ping(ctx context.Context) error
	// SchemaVersion returns the applied migration version and whether a
	// failed migration left the schema dirty.
	SchemaVersion(ctx context.Context) (uint, bool, error)
}

// migrationLocker is what a Database may add (the store does) for /readyz
// to tell a migration at work from a failed one: without it, a dirty schema
// is reported as failed.
type migrationLocker interface {
	// MigrationLocked reports whether a migrator holds the migration lock.
	MigrationLocked(ctx context.Context) (bool, error)
}

// Deps are the server's collaborators. Routes whose collaborator is nil
// answer 503.
type Deps struct {
	DB            Database
	SchemaVersion uint // the migration version this binary expects
	Version       string
	Logger        *slog.Logger

	Curriculum Curriculum
	Sessions   Sessions
	Learners   LearnerStore
	Profiles   Profiles
	Progress   Progress
	AgentLogs  AgentLogs
	Auth       Authenticator
	LLMConfig  LLMConfigStore
	// LLMKeys reports a provider whose API key is missing from the
	// environment (setting it up for a component then fails clearly).
	LLMKeys    func(llm.Provider) error
	Transcribe Transcriber
	Metrics    *Metrics
}

// Options are the API's settings.
type Options struct {
	// AllowAnonymous lets callers without a token create and use
	// anonymous sessions (a development default).
	AllowAnonymous bool
	// MaxReplyChars bounds a learner message (413 beyond).
	MaxReplyChars int
	// CORSOrigins lists the allowed browser origins, exactly as browsers
	// send them ("https://app.example.com"); "*" allows any. Spaces around
	// entries and empty entries are ignored. REST's CORS and the
	// WebSocket's origin check both follow it.
	CORSOrigins []string
	// TrustedProxies are the reverse proxies whose X-Forwarded-For header
	// names the client address (for the per-address rate limits of
	// anonymous callers). Without any, the peer address is the client's and
	// the header, which any client can set, is ignored.
	TrustedProxies []netip.Prefix
	// TurnRate and CreateRate limit turns and session creations per learner
	// (or client address, for anonymous callers): a sustained rate per
	// second and a burst. Zero disables the limit. REST steps and WebSocket
	// chats take turns from the same bucket; transcriptions are limited at
	// TurnRate too, in a bucket of their own.
	TurnRate, CreateRate RateLimit
	// WSPingInterval is how often the server pings each WebSocket, and
	// WSIdleTimeout how long it then waits for the pong: a connection that
	// does not answer in time (a vanished peer, a half-open TCP connection)
	// is dropped, at most WSPingInterval + WSIdleTimeout after its last
	// sign of life. Zero means 30 s and 2 min.
	WSIdleTimeout, WSPingInterval time.Duration
	// BodyTimeout bounds how long a request may take to send its body
	// (an upload to /transcribe included), plus a second for each 16 KiB
	// that arrives: a client that stalls part way must not hold a
	// connection and a handler for ever, but a large upload on a slow link
	// must arrive. Zero means 1 min.
	BodyTimeout time.Duration
	// WriteTimeout bounds how long a response may take to be sent once its
	// handler starts sending it: a client that stops reading must not hold
	// a connection, a handler and its response for ever. The time a
	// handler takes to compute its response (a turn's model calls) does
	// not count, and WebSockets have their own keepalive. Zero means 1 min.
	WriteTimeout time.Duration
	// WSPerSession and WSPerCaller bound the WebSockets open at once on
	// this process on one session and by one caller (a learner, or a
	// client address for anonymous callers): a further upgrade gets 429
	// too_many_connections. Zero means no limit.
	WSPerSession, WSPerCaller int
	// Validator validates requests against the API contract; nil skips it.
	Validator echo.MiddlewareFunc
	// MetricsToken, when set, is the bearer token /metrics requires
	// (Prometheus's authorization.credentials); empty leaves /metrics
	// open, for a scraper on a private network.
	MetricsToken string
}

// RateLimit is a token bucket: Rate tokens a second, Burst at most.
type RateLimit struct {
	Rate  float64
	Burst int
}

// Server is the HTTP API.
type Server struct {
	echo     *echo.Echo
	deps     Deps
	opts     Options
	log      *slog.Logger
	learners *learnerCache
	limiter  *limiter
	hub      *hub
	metrics  *Metrics
	origins  origins
	draining atomic.Bool // set by Drain: /readyz answers 503
}

// New builds the server and its routes.
func New(d Deps, opts ...Options) *Server {
	o := Options{AllowAnonymous: true, MaxReplyChars: 4000, CORSOrigins: []string{"*"}, WSIdleTimeout: 2 * time.Minute, WSPingInterval: 30 * time.Second}
	if len(opts) > 0 {
		o = opts[0]
		if o.MaxReplyChars == 0 {
			o.MaxReplyChars = 4000
		}
		if o.WSIdleTimeout == 0 {
			o.WSIdleTimeout = 2 * time.Minute
		}
		if o.WSPingInterval == 0 {
			o.WSPingInterval = 30 * time.Second
		}
	}
	if o.BodyTimeout == 0 {
		o.BodyTimeout = time.Minute
	}
	if o.WriteTimeout == 0 {
		o.WriteTimeout = time.Minute
	}
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	s := &Server{echo: e, deps: d, opts: o, log: d.Logger, metrics: d.Metrics,
		learners: &learnerCache{st: d.Learners, ttl: time.Minute, m: map[string]cachedLearner{}},
		limiter:  newLimiter(), hub: newHub(), origins: newOrigins(o.CORSOrigins)}
	e.HTTPErrorHandler = s.handleError
	e.IPExtractor = ipExtractor(o.TrustedProxies)
	// A handler's panic is recovered inside the access log and the
	// metrics, which then count its 500 like any other; the outer
	// recovery is for the middleware's own.
	e.Use(s.writeDeadline, s.recoverPanics, requestID, s.accessLog, s.cors)
	if s.metrics != nil {
		e.Use(s.metrics.httpMiddleware)
	}
	e.Use(s.recoverPanics)

	e.GET("/", s.root)
	// Uptime monitors and load balancers often probe with HEAD: the health
	// routes answer it as GET, without the body.
	getHead := []string{http.MethodGet, http.MethodHead}
	e.Match(getHead, "/health", s.health)
	e.Match(getHead, "/health/db", s.healthDB)
	e.Match(getHead, "/healthz", s.healthz)
	e.Match(getHead, "/readyz", s.readyz)
	if s.metrics != nil {
		e.GET("/metrics", echo.WrapHandler(s.metrics.Handler()), s.metricsAuth)
	}

	// Authentication comes first: a caller without a valid token gets 401
	// whatever the body (CONTRACT §1.4), which is then not read. The body
	// limits come next: the request validator reads the whole body, and a
	// body over the limit must be refused before it is read.
	api := routes{e: e, mw: []echo.MiddlewareFunc{s.withCaller, s.bodyLimits()}}
	// The admin routes check the caller is an admin next: what they
	// accept is the admins' business.
	admin := routes{e: e, mw: []echo.MiddlewareFunc{s.withCaller, adminOnly, s.bodyLimits()}}
	if o.Validator != nil {
		api.mw = append(api.mw, o.Validator)
		admin.mw = append(admin.mw, o.Validator)
	}
	api.GET("/curriculum", s.getCurriculum)
	api.GET("/config/models", s.configModels)

	api.GET("/sessions", s.listSessions)
	api.GET("/sessions/history", s.history)
	api.GET("/sessions/stats", s.stats)
	api.GET("/sessions/report-card", s.reportCard)
	api.GET("/sessions/subtopic-progress", s.subtopicProgress)
	api.GET("/sessions/resumable", s.resumable)
	api.POST("/sessions", s.createSession)
	api.POST("/sessions/:id/step", s.step)
	api.POST("/sessions/:id/pause", s.pause)
	api.POST("/sessions/:id/resume", s.resume)
	api.POST("/sessions/:id/end-clarify", s.endClarify)
	api.POST("/sessions/:id/end-exam", s.endExam)
	api.GET("/sessions/:id/summary", s.summary)
	api.GET("/sessions/:id/replay", s.getSession)
	admin.GET("/sessions/:id/agent-logs", s.agentLogs)
	api.GET("/sessions/:id", s.getSession)
	api.GET("/sessions/ws/:id", s.websocket)

	api.POST("/transcribe", s.transcribe)

	api.GET("/profile", s.getProfile)
	api.PUT("/profile", s.putProfile)
	api.GET("/profile/export", s.exportProfile)
	api.POST("/auth/sync", s.authSync)
	api.POST("/auth/phone/provision", s.phoneProvision)
	admin.DELETE("/auth/admin/user", s.deleteUser)

	admin.GET("/api/admin/llm-config", s.listLLMConfig)
	admin.GET("/api/admin/llm-config/options", s.llmConfigOptions)
	admin.PUT("/api/admin/llm-config/:component", s.putLLMConfig)
	return s
}

// routes adds routes with their middleware. Unlike an echo.Group with
// middleware, it adds no catch-all route, which would answer a wrong
// method on a known path 404 instead of 405 (CONTRACT §0.3).
type routes struct {
	e  *echo.Echo
	mw []echo.MiddlewareFunc
}

func (r routes) GET(path string, h echo.HandlerFunc)    { r.e.GET(path, h, r.mw...) }
func (r routes) POST(path string, h echo.HandlerFunc)   { r.e.POST(path, h, r.mw...) }
func (r routes) PUT(path string, h echo.HandlerFunc)    { r.e.PUT(path, h, r.mw...) }
func (r routes) DELETE(path string, h echo.HandlerFunc) { r.e.DELETE(path, h, r.mw...) }

// requestID gives each request an id, in its X-Request-ID response header
// and its context's "request_id", for the logs: the client's own when it
// sends a usable one, else a fresh one. The client's is logged and echoed
// back, so it is taken only up to 128 bytes of printable ASCII.
func requestID(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := c.Request().Header.Get(echo.HeaderXRequestID)
		if !usableRequestID(id) {
			id = rand.Text()
		}
		c.Response().Header().Set(echo.HeaderXRequestID, id)
		c.Set("request_id", id)
		return next(c)
	}
}

// usableRequestID reports whether id is a request id worth keeping: 1 to
// 128 bytes of printable ASCII.
func usableRequestID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for i := range len(id) {
		if id[i] < 0x20 || id[i] > 0x7e {
			return false
		}
	}
	return true
}

// bodyLimits limits request bodies: 26 MiB for an upload to /transcribe
// (a 25 MiB file and its form; "MiB": echo reads "M" as a million bytes),
// 1 MB for anything else. A body over the limit is a 413, from its
// Content-Length before anything is read, or as soon as reading passes the
// limit; an upload's says the file is too large, as when its handler finds
// it so. A body not sent within Options.BodyTimeout is a 408: any other
// body is read here, whole, under that deadline (the upload is read by its
// handler, see readBody).
func (s *Server) bodyLimits() echo.MiddlewareFunc {
	small, upload := middleware.BodyLimit("1M"), middleware.BodyLimit("26MiB")
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		smallNext, uploadNext := small(s.readWhole(next)), upload(next)
		return func(c echo.Context) error {
			if c.Path() != "/transcribe" {
				return smallNext(c)
			}
			err := uploadNext(c)
			var he *echo.HTTPError
			if errors.As(err, &he) && he.Code == http.StatusRequestEntityTooLarge {
				return errFileTooLarge()
			}
			return err
		}
	}
}

// readWhole reads a request's body before the handler runs (see readBody),
// and presents a JSON body as the reference reads one (see jsonBody).
func (s *Server) readWhole(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if r.Body == nil || r.Body == http.NoBody {
			return next(c)
		}
		var body []byte
		err := s.readBody(c, func() (err error) {
			body, err = io.ReadAll(r.Body)
			return err
		})
		if err != nil {
			return err
		}
		body = jsonBody(r, body)
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		return next(c)
	}
}

// jsonBody returns a request's body as the reference (FastAPI) reads it:
// a body sent without a Content-Type, or with any application/*+json type,
// is JSON, like one sent as application/json (it is labelled so here, for
// the request validator), and a UTF-8 byte order mark before a JSON body
// is dropped (json.loads of bytes skips it). Other bodies are left as they
// are.
func jsonBody(r *http.Request, body []byte) []byte {
	if len(body) == 0 {
		return body
	}
	ct := r.Header.Get(echo.HeaderContentType)
	media, _, _ := strings.Cut(ct, ";")
	sub, isApp := strings.CutPrefix(strings.ToLower(strings.TrimSpace(media)), "application/")
	switch {
	case ct == "", isApp && sub != "json" && strings.HasSuffix(sub, "+json"):
		r.Header.Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
	case isApp && sub == "json":
	default:
		return body
	}
	return bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))
}

// minBodyRate is the pace, in bytes a second, at which a body's read
// deadline moves on as it arrives (see readBody): 16 KiB/s, 128 kbit/s, a
// slow mobile link.
const minBodyRate = 16 << 10

// readBody runs read, which reads the request's body, under a read
// deadline of Options.BodyTimeout, moved on by a second for each 16 KiB
// that arrives (minBodyRate): a large upload on a slow link that keeps
// coming arrives, while a body that stalls is dropped at BodyTimeout and
// one that trickles holds the connection no longer than its size allows.
// A body read whole lifts the deadline: left on the connection, it would
// end a long turn's request context. A body over its limit is a 413, one
// not sent in time a 408; after a failed read the connection closes
// (net/http would otherwise wait for the rest of the body), the deadline
// still on it.
func (s *Server) readBody(c echo.Context, read func() error) error {
	rc := http.NewResponseController(c.Response())
	start := time.Now()
	deadline := rc.SetReadDeadline(start.Add(s.opts.BodyTimeout)) == nil
	if r := c.Request(); deadline && r.Body != nil {
		body := r.Body
		defer func() { r.Body = body }()
		r.Body = &pacedBody{ReadCloser: body, arrived: func(total int64) {
			_ = rc.SetReadDeadline(start.Add(s.opts.BodyTimeout + time.Duration(total)*time.Second/minBodyRate))
		}}
	}
	err := read()
	if err == nil {
		if deadline {
			_ = rc.SetReadDeadline(time.Time{})
		}
		return nil
	}
	c.Response().Header().Set(echo.HeaderConnection, "close")
	var ne net.Error
	switch {
	case bodyTooLarge(err):
		return &Error{Status: http.StatusRequestEntityTooLarge, Code: "too_large", Message: "Request body too large"}
	case errors.As(err, &ne) && ne.Timeout():
		return &Error{Status: http.StatusRequestTimeout, Code: "request_timeout", Message: "The request body did not arrive in time"}
	}
	return &Error{Status: http.StatusBadRequest, Code: "bad_request", Message: "The request body could not be read", Err: err}
}

// pacedBody is a request body that reports the bytes that have arrived
// after each read.
type pacedBody struct {
	io.ReadCloser
	total   int64
	arrived func(total int64)
}

func (b *pacedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		b.total += int64(n)
		b.arrived(b.total)
	}
	return n, err
}

// writeDeadline puts a write deadline of Options.WriteTimeout on the
// connection when a response starts: a write that cannot finish by then
// fails, and net/http closes the connection. The deadline stays on the
// connection, so each request first lifts the one its predecessor on the
// connection left (it would cut a 100-continue, or a WebSocket's frames).
// A WebSocket's handshake sets none.
func (s *Server) writeDeadline(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		rc := http.NewResponseController(c.Response().Writer)
		if rc.SetWriteDeadline(time.Time{}) != nil {
			return next(c) // a connection without deadlines
		}
		c.Response().Before(func() {
			if c.Response().Status != http.StatusSwitchingProtocols {
				_ = rc.SetWriteDeadline(time.Now().Add(s.opts.WriteTimeout))
			}
		})
		return next(c)
	}
}

// Handler returns the server's http.Handler.
func (s *Server) Handler() http.Handler { return s.echo }

// HTTPServer returns an http.Server for addr with timeouts suited to the API.
func (s *Server) HTTPServer(addr string) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           s.echo,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
}

// Drain marks the server as going away: /readyz answers 503 "shutting
// down" from now on, so that load balancers stop sending it new requests,
// while it still serves those that come.
func (s *Server) Drain() { s.draining.Store(true) }

// Shutdown closes every WebSocket with 1001 (going away) once its turn in
// flight, if any, has finished, or ctx ends.
func (s *Server) Shutdown(ctx context.Context) {
	s.hub.shutdown(ctx)
}

// accessLog logs each request at info level: method, route, status,
// latency and request id — never bodies or messages, since learners are
// often minors.
func (s *Server) accessLog(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		err := next(c)
		if err != nil {
			c.Error(err)
		}
		status := c.Response().Status
		level := slog.LevelInfo
		if status >= 500 {
			level = slog.LevelError
		}
		s.log.LogAttrs(c.Request().Context(), level, "request",
			slog.String("method", c.Request().Method), slog.String("route", c.Path()),
			slog.Int("status", status), slog.Duration("latency", time.Since(start)),
			slog.String("request_id", c.Response().Header().Get(echo.HeaderXRequestID)))
		return nil
	}
}

// metricsAuth lets through to /metrics only the scrapers that send
// Options.MetricsToken as their bearer token, when it is set.
func (s *Server) metricsAuth(next echo.HandlerFunc) echo.HandlerFunc {
	want := []byte(s.opts.MetricsToken)
	if len(want) == 0 {
		return next
	}
	return func(c echo.Context) error {
		got, _ := bearer(c.Request())
		if subtle.ConstantTimeCompare([]byte(got), want) != 1 {
			c.Response().Header().Set(echo.HeaderWWWAuthenticate, `Bearer realm="tutord metrics"`)
			return errUnauthorized("The metrics need the scrape token (TUTORD_METRICS_TOKEN) as a bearer token")
		}
		return next(c)
	}
}
