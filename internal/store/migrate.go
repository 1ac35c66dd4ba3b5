package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"time"

	"github.com/golang-migrate/migrate/v4"
	"github.com/golang-migrate/migrate/v4/database"
	migratepgx "github.com/golang-migrate/migrate/v4/database/pgx/v5"
	"github.com/golang-migrate/migrate/v4/source/iofs"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/tutord/tutord/migrations"
)

// Migrator applies the embedded migrations to one database. It holds
// golang-migrate's advisory lock from the start to Close, so concurrent
// migrators on the same database wait for each other.
type Migrator struct {
	db *sql.DB
	m  *migrate.Migrate
}

// ErrMigrationLocked reports that another session held the migration lock
// until the wait for it ended.
var ErrMigrationLocked = errors.New("another process holds the migration lock")

// NewMigrator connects to the database at connString (URL or keyword/value
// form) for migrations, waiting as long as it takes for the migration lock.
func NewMigrator(connString string) (*Migrator, error) {
	return NewMigratorContext(context.Background(), connString)
}

// NewMigratorContext is NewMigrator waiting for the migration lock only
// until ctx ends: then it fails with ErrMigrationLocked (deadline) or
// ctx's error.
func NewMigratorContext(ctx context.Context, connString string) (*Migrator, error) {
	// Parsed as the pool parses it, so that the URL the pool accepts works
	// here too: pgx.ParseConfig would pass the pool's own parameters
	// (pool_max_conns...) to the server as settings, which it refuses.
	pcfg, err := pgxpool.ParseConfig(connString)
	if err != nil {
		return nil, fmt.Errorf("database URL: %w", err)
	}
	cfg := pcfg.ConnConfig
	// golang-migrate's driver waits for its lock without a context or a
	// limit. So its one connection takes the lock first, cancellably: the
	// driver's own lock on that session then returns at once (advisory
	// locks are re-entrant), and the session keeps it until Close. The
	// wait is cancelled on the server too, not only dropped by the client,
	// or the session would queue for the lock after tutord has gone.
	cfg.BuildContextWatcherHandler = func(c *pgconn.PgConn) ctxwatch.Handler {
		return &pgconn.CancelRequestContextWatcherHandler{Conn: c, DeadlineDelay: 5 * time.Second}
	}
	db := stdlib.OpenDB(*cfg, stdlib.OptionAfterConnect(func(_ context.Context, conn *pgx.Conn) error {
		return takeMigrationLock(ctx, conn)
	}))
	db.SetMaxOpenConns(1)
	drv, err := migratepgx.WithInstance(db, &migratepgx.Config{})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("connect for migrations: %w", err)
	}
	src, err := iofs.New(migrations.FS, ".")
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("read embedded migrations: %w", err)
	}
	m, err := migrate.NewWithInstance("iofs", src, "pgx5", drv)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("set up migrations: %w", err)
	}
	return &Migrator{db: db, m: m}, nil
}

// Close releases the migrator's connection.
func (m *Migrator) Close() error {
	srcErr, dbErr := m.m.Close()
	return errors.Join(srcErr, dbErr, m.db.Close())
}

// Up applies every pending migration. It refuses a schema a migration
// left dirty, or one newer than this binary's migrations, saying what to
// do.
func (m *Migrator) Up() error {
	if err := m.usable("migrate up"); err != nil {
		return err
	}
	if err := m.m.Up(); err != nil && !errors.Is(err, migrate.ErrNoChange) {
		return fmt.Errorf("migrate up: %w", err)
	}
	return nil
}

// usable reports a schema no migration can start from: dirty, or newer
// than the binary.
func (m *Migrator) usable(op string) error {
	v, dirty, err := m.Version()
	switch latest := LatestVersion(); {
	case err != nil:
		return err
	case dirty:
		return fmt.Errorf("%s: schema version %d is dirty: its migration was interrupted. Check the schema, then run `tutord migrate force %d` to run that migration again (or `tutord migrate force %d` if it is in place), and try again", op, v, max(int(v)-1, 0), v)
	case v > latest:
		return fmt.Errorf("%s: the database schema is at version %d, newer than this tutord's latest migration (%d): run a newer tutord, or roll the schema back to %d with it (tutord migrate down %d)", op, v, latest, latest, v-latest)
	}
	return nil
}

// Force records version v as the schema's, clean, without running any
// migration: the way out of a dirty schema once the operator has checked
// it (see Up). v is from 0 (no migration applied) to LatestVersion.
func (m *Migrator) Force(v int) error {
	if v < 0 || uint(v) > LatestVersion() {
		return fmt.Errorf("migrate force: version %d is not from 0 to %d", v, LatestVersion())
	}
	if v == 0 {
		v = database.NilVersion
	}
	if err := m.m.Force(v); err != nil {
		return fmt.Errorf("migrate force: %w", err)
	}
	return nil
}

// Down rolls back the last n applied migrations. It refuses, changing
// nothing, when fewer than n are applied.
func (m *Migrator) Down(n int) error {
	if n <= 0 {
		return fmt.Errorf("migrate down: the number of migrations must be positive, got %d", n)
	}
	if err := m.usable(fmt.Sprintf("migrate down %d", n)); err != nil {
		return err
	}
	// Migrations are numbered 1, 2, 3...: at version v, v are applied.
	v, _, err := m.Version()
	if err != nil {
		return err
	}
	if uint(n) > v {
		return fmt.Errorf("migrate down %d: only %d migrations are applied; nothing was rolled back", n, v)
	}
	if err := m.m.Steps(-n); err != nil && !errors.Is(err, migrate.ErrNoChange) {
		return fmt.Errorf("migrate down %d: %w", n, err)
	}
	return nil
}

// Version returns the applied schema version (0 when none) and whether a
// failed migration left the schema dirty.
func (m *Migrator) Version() (uint, bool, error) {
	v, dirty, err := m.m.Version()
	if errors.Is(err, migrate.ErrNilVersion) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("schema version: %w", err)
	}
	return v, dirty, nil
}

// takeMigrationLock takes golang-migrate's advisory lock (the driver's
// default one: this database, its current schema, schema_migrations) on
// conn, waiting until ctx ends.
func takeMigrationLock(ctx context.Context, conn *pgx.Conn) error {
	id, err := migrationLockID(ctx, conn)
	if err != nil {
		return fmt.Errorf("migration lock: %w", err)
	}
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, id); err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return ErrMigrationLocked
		}
		if ctx.Err() != nil {
			return fmt.Errorf("wait for the migration lock: %w", ctx.Err())
		}
		return fmt.Errorf("migration lock: %w", err)
	}
	return nil
}

// migrationLockID returns the key of golang-migrate's advisory lock on the
// database q is connected to (the driver's default one: this database, its
// current schema, schema_migrations).
func migrationLockID(ctx context.Context, q interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}) (string, error) {
	var dbName, schema string
	if err := q.QueryRow(ctx, `SELECT current_database(), current_schema()`).Scan(&dbName, &schema); err != nil {
		return "", err
	}
	return database.GenerateAdvisoryLockId(dbName, schema, migratepgx.DefaultMigrationsTable)
}

// MigrationLocked reports whether a session holds the migration lock: a
// migrator (tutord migrate, or a tutord starting with TUTORD_MIGRATE) is
// at work on this database. It only looks (pg_locks), taking nothing.
func (s *Store) MigrationLocked(ctx context.Context) (bool, error) {
	id, err := migrationLockID(ctx, s.db)
	if err != nil {
		return false, interpretError("read the migration lock", err)
	}
	// A bigint advisory key is held as its high half (classid) and low
	// half (objid), with objsubid 1.
	const q = `SELECT EXISTS (SELECT 1 FROM pg_locks
		WHERE locktype = 'advisory' AND granted AND objsubid = 1
		  AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
		  AND (classid::bigint << 32 | objid::bigint) = $1::bigint)`
	var held bool
	if err := s.db.QueryRow(ctx, q, id).Scan(&held); err != nil {
		return false, interpretError("read the migration lock", err)
	}
	return held, nil
}

// Migrate applies every pending migration to the database at connString.
func Migrate(connString string) error {
	return MigrateContext(context.Background(), connString)
}

// MigrateContext is Migrate waiting for the migration lock only until ctx
// ends (see NewMigratorContext).
func MigrateContext(ctx context.Context, connString string) error {
	m, err := NewMigratorContext(ctx, connString)
	if err != nil {
		return err
	}
	defer m.Close()
	return m.Up()
}

// LatestVersion returns the version of the newest embedded migration.
func LatestVersion() uint {
	var latest uint
	entries, _ := fs.ReadDir(migrations.FS, ".")
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		if !ok || !strings.HasSuffix(e.Name(), ".up.sql") {
			continue
		}
		if v, err := strconv.ParseUint(num, 10, 32); err == nil && uint(v) > latest {
			latest = uint(v)
		}
	}
	return latest
}

// SchemaVersion returns the schema version recorded in the database and
// whether it is dirty; 0 when no migration ran yet.
func (s *Store) SchemaVersion(ctx context.Context) (uint, bool, error) {
	var v int64
	var dirty bool
	// Read without golang-migrate, which would wait for its lock.
	err := s.db.QueryRow(ctx, `SELECT version, dirty FROM schema_migrations LIMIT 1`).Scan(&v, &dirty)
	if err != nil {
		var pgErr *pgconn.PgError
		if errors.Is(err, pgx.ErrNoRows) || (errors.As(err, &pgErr) && pgErr.Code == "42P01") { // no row, or no table yet
			return 0, false, nil
		}
		return 0, false, interpretError("read schema version", err)
	}
	// An interrupted roll-back of the first migration records -1, dirty.
	return uint(max(v, 0)), dirty, nil
}
