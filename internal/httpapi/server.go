// Package httpapi serves tutord's HTTP API with Echo: health and readiness
// now, and the REST and WebSocket tutoring API. Handlers return errors;
// one error handler maps them to status codes and the error body.
package httpapi

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
)

// Database is what the health endpoints need of the store.
type Database interface {
	Ping(ctx context.Context) error
	// SchemaVersion returns the applied migration version and whether a
	// failed migration left the schema dirty.
	SchemaVersion(ctx context.Context) (uint, bool, error)
}

// Deps are the server's collaborators.
type Deps struct {
	DB            Database
	Curriculum    Curriculum
	SchemaVersion uint // the migration version this binary expects
	Version       string
	Logger        *slog.Logger
}

// Server is the HTTP API.
type Server struct {
	echo *echo.Echo
	deps Deps
	log  *slog.Logger
}

// New builds the server and its routes.
func New(d Deps) *Server {
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	s := &Server{echo: e, deps: d, log: d.Logger}
	e.HTTPErrorHandler = s.handleError
	e.Use(s.recoverPanics)

	e.GET("/", s.root)
	e.GET("/health", s.health)
	e.GET("/health/db", s.healthDB)
	e.GET("/healthz", s.healthz)
	e.GET("/readyz", s.readyz)
	e.GET("/curriculum", s.getCurriculum)
	return s
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
