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
	if s.draining.Load() {
		return notReady("shutting down")
	}
	if err := s.deps.DB.Ping(ctx); err != nil {
		return notReady("database unreachable")
	}
	v, dirty, err := s.deps.DB.SchemaVersion(ctx)
	if err != nil {
		return notReady("cannot read the schema version")
	}
	if dirty {
		migrating, err := s.migrationLocked(ctx)
		switch {
		case err != nil:
			return notReady(fmt.Sprintf("schema version %d is dirty, and whether a migration holds the lock cannot be read", v))
		case !migrating:
			return notReady(fmt.Sprintf("schema version %d is dirty: a migration failed", v))
		}
		// A migration is at work, version v marked dirty while it runs:
		// those before v are complete. (Rolling back v+1, it marks v:
		// the schema is then at least v, v-1 understates it.) A replica
		// that needs no more stays ready through a rolling deploy.
		if v == 0 || v-1 < s.deps.SchemaVersion {
			return notReady(fmt.Sprintf("a migration to schema version %d is in progress; this tutord needs version %d", v, s.deps.SchemaVersion))
		}
		v--
	}
	if v < s.deps.SchemaVersion {
		return notReady(fmt.Sprintf("schema version %d, want %d: run tutord migrate up", v, s.deps.SchemaVersion))
	}
	return c.JSON(http.StatusOK, map[string]any{"status": "ok", "schema_version": v})
}

// migrationLocked reports whether a migrator holds the migration lock;
// false when the database cannot tell.
func (s *Server) migrationLocked(ctx context.Context) (bool, error) {
	ml, ok := s.deps.DB.(migrationLocker)
	if !ok {
		return false, nil
	}
	return ml.MigrationLocked(ctx)
}
