package store_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	migratedb "github.com/golang-migrate/migrate/v4/database"
	"github.com/jackc/pgx/v5"

	"github.com/tutord/tutord/internal/pgtest"
	"github.com/tutord/tutord/internal/store"
)

// While another session holds golang-migrate's lock (another tutord
// migrating), a migrator gives up when its context ends, by deadline or by
// cancellation (Ctrl-C), instead of waiting without a limit; once the lock
// is free, it migrates.
func TestMigratorStopsWaitingForAHeldLock(t *testing.T) {
	connString := pgtest.ConnString(t)
	ctx := context.Background()
	holder, err := pgx.Connect(ctx, connString)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close(ctx)
	var dbName string
	if err := holder.QueryRow(ctx, `SELECT current_database()`).Scan(&dbName); err != nil {
		t.Fatal(err)
	}
	id, err := migratedb.GenerateAdvisoryLockId(dbName, "public", "schema_migrations")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := holder.Exec(ctx, `SELECT pg_advisory_lock($1)`, id); err != nil {
		t.Fatal(err)
	}

	deadline, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- store.MigrateContext(deadline, connString) }()
	select {
	case err := <-done:
		if !errors.Is(err, store.ErrMigrationLocked) {
			t.Errorf("migrate with the lock held, 300ms deadline: %v; want ErrMigrationLocked", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("migrate with the lock held still waiting 5s after its 300ms deadline")
	}
	// The wait ended on the server too: no session of the migrator is left
	// in the queue for the lock.
	var waiting int
	if err := holder.QueryRow(ctx, `SELECT count(*) FROM pg_locks l JOIN pg_database d ON d.oid = l.database
		WHERE d.datname = current_database() AND l.locktype = 'advisory' AND NOT l.granted`).Scan(&waiting); err != nil || waiting != 0 {
		t.Errorf("sessions still waiting for the lock after the migrator gave up: %d (%v)", waiting, err)
	}

	interrupted, interrupt := context.WithCancel(ctx)
	time.AfterFunc(100*time.Millisecond, interrupt)
	if _, err := store.NewMigratorContext(interrupted, connString); !errors.Is(err, context.Canceled) {
		t.Errorf("migrator interrupted while waiting for the lock: %v; want context.Canceled", err)
	}

	if _, err := holder.Exec(ctx, `SELECT pg_advisory_unlock($1)`, id); err != nil {
		t.Fatal(err)
	}
	deadline2, cancel2 := context.WithTimeout(ctx, 10*time.Second)
	defer cancel2()
	if err := store.MigrateContext(deadline2, connString); err != nil {
		t.Errorf("migrate with the lock free: %v", err)
	}
}

// The migrator takes the URL the pool takes (TUTORD_DATABASE_URL), pgx
// pool parameters included, rather than passing those to PostgreSQL as
// settings it refuses ("unrecognized configuration parameter"), which
// would stop `tutord migrate up` and serve on a URL the pool accepts.
func TestMigratorAcceptsPoolParameters(t *testing.T) {
	connString := pgtest.ConnString(t)
	for _, param := range []string{"pool_max_conns=5", "pool_max_conn_lifetime=30m"} {
		withParam := connString + " " + param
		if u, err := url.Parse(connString); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
			k, v, _ := strings.Cut(param, "=")
			q := u.Query()
			q.Set(k, v)
			u.RawQuery = q.Encode()
			withParam = u.String()
		}
		if err := store.Migrate(withParam); err != nil {
			t.Errorf("migrate with %s in the URL: %v", param, err)
		}
	}
}
