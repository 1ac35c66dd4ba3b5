package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tutord/tutord/internal/config"
	"github.com/tutord/tutord/internal/pgembed"
	"github.com/tutord/tutord/internal/pguuid"
	"github.com/tutord/tutord/internal/store"
)

// database is an open database: the pool, and the private cluster behind it
// when tutord started one.
type database struct {
	pool       *pgxpool.Pool
	store      *store.Store
	connString string
	cluster    *pgembed.Cluster
}

// close closes the pool and then stops the private cluster, if any.
func (d *database) close(ctx context.Context, log *slog.Logger) {
	if d.pool != nil {
		d.pool.Close()
	}
	if d.cluster != nil {
		if err := d.cluster.Stop(ctx); err != nil {
			log.Error("stop embedded PostgreSQL", "err", err)
		}
	}
}

// closePool closes the pool, waiting for the connections in use to be
// released until ctx ends, and then no longer: a turn still running after
// the shutdown timeout (say behind a lock an operator holds) would keep
// tutord from exiting. Its transaction, never committed, is rolled back
// when the process's connections close, or the private cluster stops.
func (d *database) closePool(ctx context.Context, log *slog.Logger) {
	if d.pool == nil {
		return
	}
	pool, closed := d.pool, make(chan struct{})
	go func() {
		pool.Close()
		close(closed)
	}()
	select {
	case <-closed:
	case <-ctx.Done():
		log.Warn("database connections still in use after the shutdown timeout; leaving them")
	}
	// A second Close would wait for the first.
	d.pool = nil
}

// dbUse says how a command uses the database.
type dbUse struct {
	// migrate applies the migrations once connected.
	migrate bool
	// serve marks the server, which runs the private cluster of its data
	// directory itself. Other commands, on the data directory of a running
	// tutord, use that tutord's server as clients.
	serve bool
	// schema marks a command that reads and writes tutord's tables: without
	// migrate, it fails at once on a database at an older schema, saying
	// so, rather than on the first missing table or column. (The server
	// starts anyway and is not ready until another process migrates.)
	schema bool
}

// startDatabase returns the configured database URL, or starts the private
// cluster in cfg.DataDir (or, unless use.serve, attaches to the one another
// tutord runs there) and returns a connection string to its tutord
// database.
func startDatabase(ctx context.Context, cfg config.Config, log *slog.Logger, use dbUse) (*database, error) {
	if cfg.DatabaseURL != "" {
		if _, err := pgxpool.ParseConfig(cfg.DatabaseURL); err != nil {
			return nil, fmt.Errorf("TUTORD_DATABASE_URL is malformed: %s", cleanParseError(err))
		}
		return &database{connString: cfg.DatabaseURL}, nil
	}
	log.Info("no TUTORD_DATABASE_URL: starting the embedded PostgreSQL", "data_dir", cfg.DataDir)
	c, err := pgembed.Start(ctx, pgembed.Options{DataDir: cfg.DataDir, Logger: log, Attach: !use.serve})
	if err != nil {
		return nil, fmt.Errorf("embedded database: %w", err)
	}
	if err := c.CreateDatabase(ctx, "tutord"); err != nil {
		_ = c.Stop(context.Background())
		return nil, fmt.Errorf("embedded database: %w", err)
	}
	return &database{connString: c.ConnString("tutord"), cluster: c}, nil
}

// openDatabase starts or reaches the database, optionally migrates it, and
// opens the pool, failing fast with one clear line when the database cannot
// be reached.
func openDatabase(ctx context.Context, cfg config.Config, log *slog.Logger, use dbUse) (*database, error) {
	db, err := startDatabase(ctx, cfg, log, use)
	if err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			db.close(context.Background(), log)
		}
	}()
	pcfg, err := pgxpool.ParseConfig(db.connString)
	if err != nil {
		return nil, fmt.Errorf("database URL: %s", cleanParseError(err))
	}
	pcfg.MaxConns = cfg.DBMaxConns
	pcfg.ConnConfig.ConnectTimeout = cfg.DBConnectTimeout
	pcfg.AfterConnect = pguuid.AfterConnect
	store.BoundAcquire(pcfg, cfg.DBAcquireTimeout)
	pool, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		return nil, fmt.Errorf("database: %w", err)
	}
	db.pool = pool
	var opts []store.Option
	if cfg.ReplicaSync {
		opts = append(opts, store.Announce())
	}
	db.store = store.New(pool, opts...)
	pingCtx, cancel := context.WithTimeout(ctx, cfg.DBConnectTimeout)
	defer cancel()
	if err := pool.Ping(pingCtx); err != nil {
		return nil, fmt.Errorf("cannot reach the database (%s): %s", describeTarget(pcfg), cleanConnectError(err))
	}
	if use.migrate {
		m, err := newMigrator(ctx, cfg, db)
		if err != nil {
			return nil, err
		}
		err = m.Up()
		m.Close()
		if err != nil {
			return nil, err
		}
		log.Info("database migrated", "schema_version", store.LatestVersion())
	} else if use.schema {
		if err := schemaCurrent(ctx, db.store); err != nil {
			return nil, err
		}
	}
	ok = true
	return db, nil
}

// schemaCurrent reports a database whose schema is older than this
// tutord's, or left dirty by a failed migration, as an error that says
// what to run.
func schemaCurrent(ctx context.Context, st *store.Store) error {
	v, dirty, err := st.SchemaVersion(ctx)
	switch {
	case err != nil:
		return err
	case dirty:
		return fmt.Errorf("the database schema is at version %d and dirty (a migration failed): see tutord migrate force", v)
	case v < store.LatestVersion():
		return fmt.Errorf("the database schema is at version %d and this tutord needs %d: run tutord migrate up (TUTORD_MIGRATE is false)", v, store.LatestVersion())
	}
	return nil
}

// newMigrator opens a migrator on db, waiting for the migration lock as
// long as for the database to answer (TUTORD_DB_CONNECT_TIMEOUT), or until
// ctx ends (Ctrl-C).
func newMigrator(ctx context.Context, cfg config.Config, db *database) (*store.Migrator, error) {
	lockCtx, cancel := context.WithTimeout(ctx, cfg.DBConnectTimeout)
	defer cancel()
	m, err := store.NewMigratorContext(lockCtx, db.connString)
	if errors.Is(err, store.ErrMigrationLocked) {
		return nil, fmt.Errorf("%w (waited %s, TUTORD_DB_CONNECT_TIMEOUT): a tutord may be migrating this database; try again when it is done", store.ErrMigrationLocked, cfg.DBConnectTimeout)
	}
	return m, err
}

func describeTarget(c *pgxpool.Config) string {
	host := c.ConnConfig.Host
	if len(host) > 0 && host[0] == '/' {
		return fmt.Sprintf("unix socket in %s, database %s", host, c.ConnConfig.Database)
	}
	return fmt.Sprintf("%s, database %s", net.JoinHostPort(host, fmt.Sprint(c.ConnConfig.Port)), c.ConnConfig.Database)
}

// cleanParseError drops the connection string that pgx quotes in its parse
// errors: it may hold a password.
func cleanParseError(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, "`: "); i >= 0 {
		return msg[i+3:]
	}
	return "invalid connection string"
}

func cleanConnectError(err error) string {
	msg := err.Error()
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) && ce.Unwrap() != nil {
		msg = ce.Unwrap().Error()
	}
	// pgconn joins one error per address tried; the first says enough.
	first, _, _ := strings.Cut(msg, "\n")
	return first
}
