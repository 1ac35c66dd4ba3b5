// Package pgtest gives each test a fresh, migrated PostgreSQL database in
// milliseconds: the migrations run once per test binary into a template
// database, and every test gets a CREATE DATABASE ... TEMPLATE copy that is
// dropped when the test ends.
//
// The server is the one at TUTORD_TEST_DATABASE_URL when that is set, and
// otherwise a private cluster that the test binary starts in a temporary
// directory with the same package tutord itself uses (pgembed). A package
// whose tests use pgtest runs them through Main:
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
//
// There is no skipping: when no server can be had, tests fail with a message
// that says what to install or set.
package pgtest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tutord/tutord/internal/pgembed"
	"github.com/tutord/tutord/internal/pguuid"
	"github.com/tutord/tutord/internal/store"
	"github.com/tutord/tutord/migrations"
)

// EnvURL names the variable holding an existing server's URL for tests.
const EnvURL = "TUTORD_TEST_DATABASE_URL"

type server struct {
	adminURL string          // the server's connection string, as given
	admin    *pgx.ConnConfig // connects to the maintenance database
	template string
	cluster  *pgembed.Cluster
	dir      string
}

var (
	once   sync.Once
	srv    *server
	srvErr error
)

// Main runs the package's tests and then stops the private cluster, if one
// was started, and removes its directory.
func Main(m *testing.M) {
	code := m.Run()
	if srv != nil && srv.cluster != nil {
		_ = srv.cluster.Stop(context.Background())
		os.RemoveAll(srv.dir)
	}
	os.Exit(code)
}

func get(t testing.TB) *server {
	t.Helper()
	once.Do(func() { srv, srvErr = setUp() })
	if srvErr != nil {
		t.Fatalf("test database: %v", srvErr)
	}
	return srv
}

func setUp() (*server, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s := &server{}
	url := os.Getenv(EnvURL)
	if url == "" {
		dir, err := os.MkdirTemp("", "tutord-test-pg-")
		if err != nil {
			return nil, err
		}
		s.dir = dir
		// Durability is pointless for throwaway databases; speed is not.
		c, err := pgembed.Start(ctx, pgembed.Options{DataDir: dir, StopWithParent: true, Settings: map[string]string{
			"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off",
			"max_connections": "300", "shared_buffers": "128MB",
		}})
		if err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("%w (or set %s to a PostgreSQL server tests may create databases on)", err, EnvURL)
		}
		s.cluster = c
		url = c.ConnString("postgres")
	}
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return s, fmt.Errorf("%s: %w", EnvURL, err)
	}
	s.admin = cfg
	s.adminURL = url
	if err := s.makeTemplate(ctx); err != nil {
		return s, err
	}
	return s, nil
}

// makeTemplate creates the migrated template database once. Its name holds
// a hash of the migrations, so a changed schema gets a new template; an
// advisory lock keeps concurrent test binaries on a shared server from
// building the same template twice.
func (s *server) makeTemplate(ctx context.Context) error {
	s.template = "tutord_tpl_" + migrationsHash()
	conn, err := pgx.ConnectConfig(ctx, s.admin)
	if err != nil {
		return fmt.Errorf("connect to test server: %w", err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock(7305511)`); err != nil {
		return err
	}
	defer conn.Exec(context.Background(), `SELECT pg_advisory_unlock(7305511)`)

	var exists bool
	if err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1 AND datistemplate)`, s.template).Scan(&exists); err != nil {
		return err
	}
	if exists {
		return nil
	}
	tpl := pgx.Identifier{s.template}.Sanitize()
	if _, err := conn.Exec(ctx, `DROP DATABASE IF EXISTS `+tpl); err != nil {
		return err
	}
	if _, err := conn.Exec(ctx, `CREATE DATABASE `+tpl); err != nil {
		return fmt.Errorf("create template database: %w", err)
	}
	if err := store.Migrate(s.connString(s.template)); err != nil {
		return fmt.Errorf("migrate template database: %w", err)
	}
	if _, err := conn.Exec(ctx, `ALTER DATABASE `+tpl+` WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`); err != nil {
		return err
	}
	return nil
}

// connString returns the server's connection string with the database
// replaced by db. (pgx's ConnConfig.ConnString returns the string it was
// parsed from, so the change must be made on the string.)
func (s *server) connString(db string) string {
	if u, err := url.Parse(s.adminURL); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		u.Path = "/" + db
		q := u.Query()
		q.Del("dbname")
		u.RawQuery = q.Encode()
		return u.String()
	}
	return s.adminURL + " dbname=" + db // later keywords win
}

func migrationsHash() string {
	h := sha256.New()
	_ = fs.WalkDir(migrations.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := fs.ReadFile(migrations.FS, path)
		h.Write([]byte(path))
		h.Write(b)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// ConnString creates a fresh migrated database for the test, dropped when
// the test ends, and returns its connection string.
func ConnString(t testing.TB) string {
	t.Helper()
	s := get(t)
	ctx := context.Background()
	name := "tutord_test_" + randomHex(8)
	conn, err := pgx.ConnectConfig(ctx, s.admin)
	if err != nil {
		t.Fatalf("connect to test server: %v", err)
	}
	defer conn.Close(ctx)
	// FILE_COPY: for a small template, copying its files beats writing
	// every page to the WAL.
	if _, err := conn.Exec(ctx, `CREATE DATABASE `+pgx.Identifier{name}.Sanitize()+
		` TEMPLATE `+pgx.Identifier{s.template}.Sanitize()+` STRATEGY FILE_COPY`); err != nil {
		t.Fatalf("create test database: %v", err)
	}
	t.Cleanup(func() {
		conn, err := pgx.ConnectConfig(context.Background(), s.admin)
		if err != nil {
			t.Errorf("drop test database: %v", err)
			return
		}
		defer conn.Close(context.Background())
		if _, err := conn.Exec(context.Background(), `DROP DATABASE IF EXISTS `+pgx.Identifier{name}.Sanitize()+` WITH (FORCE)`); err != nil {
			t.Errorf("drop test database: %v", err)
		}
	})
	return s.connString(name)
}

// Pool returns a pool on a fresh migrated database, closed when the test ends.
func Pool(t testing.TB) *pgxpool.Pool {
	t.Helper()
	return pool(t, 40, 0)
}

// BoundedPool returns a pool of conns connections on a fresh migrated
// database, whose statements wait at most bound for a free connection
// (store.BoundAcquire), closed when the test ends.
func BoundedPool(t testing.TB, conns int32, bound time.Duration) *pgxpool.Pool {
	t.Helper()
	return pool(t, conns, bound)
}

func pool(t testing.TB, conns int32, bound time.Duration) *pgxpool.Pool {
	t.Helper()
	cfg, err := pgxpool.ParseConfig(ConnString(t))
	if err != nil {
		t.Fatal(err)
	}
	cfg.MaxConns = conns
	cfg.AfterConnect = pguuid.AfterConnect
	store.BoundAcquire(cfg, bound)
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatalf("open pool: %v", err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// UnreachablePool returns a pool on a database that cannot be reached, as
// when PostgreSQL is down: a loopback port nothing listens on. Its
// statements fail to connect at once.
func UnreachablePool(t testing.TB) *pgxpool.Pool {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().(*net.TCPAddr)
	l.Close()
	pool, err := pgxpool.New(context.Background(), fmt.Sprintf("postgres://tutord@127.0.0.1:%d/tutord?sslmode=disable&connect_timeout=5", addr.Port))
	if err != nil {
		t.Fatalf("open pool: %v", err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// Cluster returns the private cluster tests run on, or nil when they use
// TUTORD_TEST_DATABASE_URL.
func Cluster(t testing.TB) *pgembed.Cluster {
	return get(t).cluster
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// RestartDatabase does to pool what a restart of PostgreSQL does: it makes
// sure the pool holds open connections (open of them, each idle for less
// than pgxpool's 1 s ping threshold), then terminates every backend on the
// pool's database and waits until they are gone. The database answers
// again at once, on new connections.
func RestartDatabase(tb testing.TB, pool *pgxpool.Pool, open int) {
	tb.Helper()
	ctx := context.Background()
	conns := make([]*pgxpool.Conn, 0, open)
	for range open {
		c, err := pool.Acquire(ctx)
		if err != nil {
			tb.Fatal(err)
		}
		conns = append(conns, c)
	}
	for _, c := range conns {
		c.Release()
	}
	admin, err := pgx.ConnectConfig(ctx, pool.Config().ConnConfig.Copy())
	if err != nil {
		tb.Fatal(err)
	}
	defer admin.Close(ctx)
	const others = `FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`
	var n int
	if err := admin.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) `+others).Scan(&n); err != nil || n == 0 {
		tb.Fatalf("terminated %d backends: %v", n, err)
	}
	for range 200 {
		if err := admin.QueryRow(ctx, `SELECT count(*) `+others).Scan(&n); err != nil {
			tb.Fatal(err)
		}
		if n == 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	tb.Fatal("backends still running")
}
