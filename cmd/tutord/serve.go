package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/tutord/tutord/api"
	"github.com/tutord/tutord/internal/agents/engine"
	"github.com/tutord/tutord/internal/agents/rules"
	"github.com/tutord/tutord/internal/auth"
	"github.com/tutord/tutord/internal/config"
	"github.com/tutord/tutord/internal/httpapi"
	"github.com/tutord/tutord/internal/lessons"
	"github.com/tutord/tutord/internal/orchestrator"
	"github.com/tutord/tutord/internal/store"
	"github.com/tutord/tutord/internal/stt"
)

// runServe runs the server until ctx ends (SIGINT or SIGTERM), then shuts
// down in order: stop accepting and let in-flight requests finish, let the
// turns in flight on WebSockets finish, close the WebSockets, close the
// pool, stop the embedded database.
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

	authn, err := newAuthenticator(cfg)
	if err != nil {
		return err
	}
	sttClient, err := stt.New(stt.Config{BaseURL: cfg.STTBaseURL, APIKey: cfg.STTAPIKey, Model: cfg.STTModel, Timeout: cfg.STTTimeout})
	if err != nil {
		return err
	}
	doc, err := httpapi.LoadSpec(api.Spec)
	if err != nil {
		return err
	}
	models, err := newModels(cfg, e.environ, log)
	if err != nil {
		return err
	}

	// The address first: a port in use is reported at once, before the
	// database is started and migrated. Connections wait in the backlog
	// until the server serves them.
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	defer ln.Close() // also closed by the server's shutdown; a second close is harmless
	// A stop (SIGTERM, Ctrl-C) while starting is a stop, not a failure of
	// whatever step it interrupted.
	interrupted := func(err error) error {
		if ctx.Err() != nil {
			log.Info("stopped during start-up", "step_error", err.Error())
			return nil
		}
		return err
	}
	db, err := openDatabase(ctx, cfg, log, dbUse{migrate: cfg.Migrate, serve: true})
	if err != nil {
		return interrupted(err)
	}
	defer db.close(context.Background(), log)
	if err := importAtStart(ctx, cfg, db, log); err != nil {
		return interrupted(err)
	}

	rulesSet, err := rules.New()
	if err != nil {
		return err
	}
	metrics := httpapi.NewMetrics()
	models.bind(db.store, metrics)
	eng := engine.New(rulesSet, models.agents(), db.store)
	eng.SetTimeLimit(cfg.SessionTimeLimit)
	orch := orchestrator.New(orchestrator.Options{
		Store: db.store, Lessons: lessons.NewSource(db.store), Engines: eng, FallbackSafety: rulesSet.Safety,
		Logger: log, Observer: metrics,
	})
	deps := httpapi.Deps{
		DB: db.store, SchemaVersion: store.LatestVersion(), Version: buildVersion(), Logger: log,
		Curriculum: db.store, Sessions: orch, Learners: db.store, Profiles: db.store, Progress: db.store,
		AgentLogs: db.store, LLMConfig: db.store, LLMKeys: models.checkKey, Metrics: metrics,
		Transcribe: httpapi.NewTranscriber(sttClient),
	}
	if authn != nil {
		deps.Auth = authn
	}
	apiServer := httpapi.New(deps, httpapi.Options{
		AllowAnonymous: cfg.AllowAnonymous, MaxReplyChars: cfg.MaxReplyChars,
		CORSOrigins: cfg.CORSOrigins, TrustedProxies: cfg.TrustedProxies,
		TurnRate:     httpapi.RateLimit{Rate: cfg.TurnRate, Burst: cfg.TurnBurst},
		CreateRate:   httpapi.RateLimit{Rate: cfg.CreateRate, Burst: cfg.CreateBurst},
		WSPerSession: cfg.WSPerSession, WSPerCaller: cfg.WSPerCaller,
		Validator: httpapi.NewValidator(doc), MetricsToken: cfg.MetricsToken,
	})

	hs := apiServer.HTTPServer(cfg.Addr)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	log.Info("listening", "addr", ln.Addr().String())
	purgeCtx, stopPurge := context.WithCancel(ctx)
	defer stopPurge()
	go purgeAnonymous(purgeCtx, db.store, orch, cfg.AnonymousRetention, log)
	if cfg.AgentLogRetention > 0 {
		go purgeAgentLogs(purgeCtx, db.store, cfg.AgentLogRetention, time.Hour, log)
	}
	if cfg.ReplicaSync {
		go watchSessions(purgeCtx, db.store, log, func() { orch.Forget(); apiServer.Resync() }, orch.SessionChanged, apiServer.SessionChanged)
	}

	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	apiServer.Drain()
	if cfg.ShutdownDelay > 0 {
		// Serving on while the load balancer, which now finds /readyz
		// failing, stops sending requests here.
		log.Info("draining: /readyz fails, requests are still served", "delay", cfg.ShutdownDelay)
		time.Sleep(cfg.ShutdownDelay)
	}
	log.Info("shutting down", "timeout", cfg.ShutdownTimeout)
	sctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		log.Warn("in-flight requests did not finish in time; closing their connections", "err", err)
		// Closing the pool waits for every connection in use: a request
		// still running (say behind a lock an operator holds) would keep
		// tutord from exiting past its timeout. Closing its connection
		// cancels its context, and with it its statement.
		hs.Close()
	}
	if err := orch.Stop(sctx); err != nil {
		log.Warn("turns in flight did not finish in time", "err", err)
	}
	apiServer.Shutdown(sctx)
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Warn("server stopped with an error", "err", err)
	}
	db.closePool(sctx, log)
	log.Info("stopped")
	return nil
}

func newAuthenticator(cfg config.Config) (httpapi.Authenticator, error) {
	rule, err := auth.ParseAdminRule(cfg.JWTAdminClaim)
	if err != nil {
		return nil, fmt.Errorf("TUTORD_JWT_ADMIN_CLAIM: %w", err)
	}
	ac := auth.Config{Secret: cfg.JWTSecret, JWKSURL: cfg.JWTJWKSURL, Issuer: cfg.JWTIssuer, Audience: cfg.JWTAudience, Leeway: cfg.JWTLeeway, Admin: rule}
	if !ac.Configured() {
		return nil, nil
	}
	v, err := auth.NewVerifier(ac)
	if err != nil {
		return nil, err
	}
	return httpapi.NewAuthenticator(v), nil
}

// watchSessions passes the session changes that the database announces,
// those of other tutord processes included, to each of fns (the
// orchestrator's session cache and the server's WebSockets), listening again
// after a lost connection. Changes made while it was not listening are not
// announced again: once it listens again, it calls resync (which drops the
// sessions held in memory and sends open WebSockets their stored state).
func watchSessions(ctx context.Context, st *store.Store, log *slog.Logger, resync func(), fns ...func(id uuid.UUID, version int64)) {
	changed := func(id uuid.UUID, version int64) {
		for _, fn := range fns {
			fn(id, version)
		}
	}
	const maxBackoff = 30 * time.Second
	backoff := time.Second
	for listened := false; ; {
		start := time.Now()
		err := st.WatchSessions(ctx, func() {
			if listened {
				resync()
			}
			listened = true
		}, changed)
		if ctx.Err() != nil {
			return
		}
		if time.Since(start) > maxBackoff {
			backoff = time.Second // it ran a while: a fresh failure
		}
		log.Warn("watching session changes; listening again", "err", err, "in", backoff)
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, maxBackoff)
	}
}

// purgeAnonymous deletes anonymous sessions idle longer than retention,
// at start and then hourly.
func purgeAnonymous(ctx context.Context, st *store.Store, orch *orchestrator.Orchestrator, retention time.Duration, log *slog.Logger) {
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		n, err := st.PurgeAnonymous(ctx, time.Now().Add(-retention))
		switch {
		case err != nil && ctx.Err() == nil:
			log.Warn("purge anonymous sessions", "err", err)
		case n > 0:
			orch.Forget()
			log.Info("purged anonymous sessions", "count", n, "retention", retention)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
