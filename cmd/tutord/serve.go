package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"

	"github.com/tutord/tutord/internal/httpapi"
	"github.com/tutord/tutord/internal/store"
)

// runServe runs the server until ctx ends (SIGINT or SIGTERM), then shuts
// down in order: stop accepting, let in-flight requests finish within the
// shutdown timeout, close the pool, stop the embedded database.
func runServe(ctx context.Context, e env, args []string) error {
	cfg, rest, err := loadConfig(e, "serve", args, nil)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageError{fmt.Sprintf("serve takes no arguments, got %q", rest)}
	}
	log := newLogger(cfg, e.stderr)
	log.Info("starting tutord", "version", buildVersion(), "config", cfg)

	db, err := openDatabase(ctx, cfg, log, cfg.Migrate)
	if err != nil {
		return err
	}
	defer db.close(context.Background(), log)
	if err := importAtStart(ctx, cfg, db, log); err != nil {
		return err
	}

	api := httpapi.New(httpapi.Deps{
		DB:            db.store,
		Curriculum:    db.store,
		SchemaVersion: store.LatestVersion(),
		Version:       buildVersion(),
		Logger:        log,
	})
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	hs := api.HTTPServer(cfg.Addr)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	log.Info("listening", "addr", ln.Addr().String())

	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	log.Info("shutting down", "timeout", cfg.ShutdownTimeout)
	sctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		log.Warn("in-flight requests did not finish in time", "err", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Warn("server stopped with an error", "err", err)
	}
	log.Info("stopped")
	return nil
}
