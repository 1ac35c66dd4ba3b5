package httpapi_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tutord/tutord/internal/httpapi"
	"github.com/tutord/tutord/internal/pgtest"
	"github.com/tutord/tutord/internal/pguuid"
	"github.com/tutord/tutord/internal/store"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// contractRouter finds the contract's operation of a request.
var contractRouter = sync.OnceValues(func() (routers.Router, error) {
	doc, err := spec()
	if err != nil {
		return nil, err
	}
	return gorillamux.NewRouter(doc)
})

// get sends a GET to a server built outside newServer and decodes the
// body; the response is checked against the contract, as do checks those
// of newServer's servers.
func get(t *testing.T, rawURL string) (int, map[string]any) {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	router, err := contractRouter()
	if err != nil {
		t.Fatal(err)
	}
	c := &apiServer{t: t, URL: u.Scheme + "://" + u.Host, router: router}
	r := c.do("GET", u.RequestURI(), nil, "")
	return r.Status, r.JSON(t)
}

func TestHealthEndpoints(t *testing.T) {
	pool := pgtest.Pool(t)
	st := store.New(pool)
	srv := httptest.NewServer(httpapi.New(httpapi.Deps{DB: st, SchemaVersion: store.LatestVersion(), Version: "test"}).Handler())
	defer srv.Close()

	tests := []struct {
		path string
		code int
		want map[string]any
	}{
		{"/", 200, map[string]any{"status": "ok", "service": "tutord", "version": "test"}},
		{"/health", 200, map[string]any{"status": "ok"}},
		{"/health/db", 200, map[string]any{"status": "ok", "database": "connected"}},
		{"/healthz", 200, map[string]any{"status": "ok"}},
		{"/readyz", 200, map[string]any{"status": "ok", "schema_version": float64(store.LatestVersion())}},
		{"/no/such/route", 404, map[string]any{"detail": "Not Found", "error": map[string]any{"code": "not_found", "message": "Not Found"}}},
	}
	for _, tt := range tests {
		code, body := get(t, srv.URL+tt.path)
		if code != tt.code {
			t.Errorf("GET %s = %d, want %d", tt.path, code, tt.code)
		}
		if diff := cmp.Diff(tt.want, body); diff != "" {
			t.Errorf("GET %s body (-want +got):\n%s", tt.path, diff)
		}
	}

	// A failed migration leaves the schema dirty: not ready.
	if _, err := pool.Exec(context.Background(), `UPDATE schema_migrations SET dirty = true`); err != nil {
		t.Fatal(err)
	}
	if code, body := get(t, srv.URL+"/readyz"); code != 503 || body["status"] != "unavailable" {
		t.Errorf("dirty schema: /readyz = %d %v, want 503", code, body)
	}
	// A binary newer than the schema: not ready.
	srvNew := httptest.NewServer(httpapi.New(httpapi.Deps{DB: st, SchemaVersion: store.LatestVersion() + 1}).Handler())
	defer srvNew.Close()
	if _, err := pool.Exec(context.Background(), `UPDATE schema_migrations SET dirty = false`); err != nil {
		t.Fatal(err)
	}
	if code, _ := get(t, srvNew.URL+"/readyz"); code != 503 {
		t.Errorf("old schema: /readyz = %d, want 503", code)
	}

	// The database gone: /health/db still answers 200 (as the reference), /readyz 503.
	pool.Close()
	if code, body := get(t, srv.URL+"/health/db"); code != 200 || body["status"] != "error" {
		t.Errorf("database down: /health/db = %d %v, want 200 with status error", code, body)
	}
	if code, body := get(t, srv.URL+"/readyz"); code != 503 || body["reason"] != "database unreachable" {
		t.Errorf("database down: /readyz = %d %v, want 503", code, body)
	}
}

// TestHealthRoutesAnswerHEAD: uptime monitors and load balancers probe with
// HEAD; the health routes answer it as GET, without the body.
func TestHealthRoutesAnswerHEAD(t *testing.T) {
	st := store.New(pgtest.Pool(t))
	srv := httptest.NewServer(httpapi.New(httpapi.Deps{DB: st, SchemaVersion: store.LatestVersion(), Version: "test"}).Handler())
	defer srv.Close()
	for _, path := range []string{"/health", "/health/db", "/healthz", "/readyz"} {
		if code, body := doRequest(t, "HEAD", srv.URL+path); code != http.StatusOK || body != "" {
			t.Errorf("HEAD %s = %d %q, want 200 without a body", path, code, body)
		}
	}
}

// TestWrongMethodIs405: a wrong method on a known route is 405 Method Not
// Allowed (CONTRACT §0.3), on the health routes as on the API's (an Echo
// group with middleware would add a catch-all answering 404); an unknown
// path stays 404.
func TestWrongMethodIs405(t *testing.T) {
	srv := httptest.NewServer(httpapi.New(httpapi.Deps{Metrics: httpapi.NewMetrics(), Version: "test"}).Handler())
	defer srv.Close()
	for _, c := range []struct{ method, path string }{
		{"POST", "/readyz"},
		{"DELETE", "/health/db"},
		{"PUT", "/healthz"},
		{"DELETE", "/sessions"},
		{"GET", "/sessions/abc/step"},
		{"HEAD", "/config/models"},
	} {
		code, body := doRequest(t, c.method, srv.URL+c.path)
		if code != http.StatusMethodNotAllowed || c.method != "HEAD" && !strings.Contains(body, `"detail":"Method Not Allowed"`) {
			t.Errorf("%s %s = %d %s; want 405 {\"detail\":\"Method Not Allowed\"}", c.method, c.path, code, body)
		}
	}
	for _, method := range []string{"GET", "POST"} {
		if code, body := doRequest(t, method, srv.URL+"/no/such/route"); code != http.StatusNotFound || !strings.Contains(body, `"detail":"Not Found"`) {
			t.Errorf("%s /no/such/route = %d %s; want 404 Not Found", method, code, body)
		}
	}
}

// migrationInProgress puts a fresh database at the schema before the
// latest migration, then starts migrating it and holds the latest
// migration part way (its CREATE TABLE waits for another transaction
// creating the same table), as a long migration of a new release would be.
// It returns the store and a function that lets the migration finish.
func migrationInProgress(t *testing.T) (*store.Store, func()) {
	t.Helper()
	ctx := context.Background()
	cs := pgtest.ConnString(t)
	m, err := store.NewMigrator(cs)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Down(1); err != nil {
		t.Fatal(err)
	}
	m.Close()

	blocker, err := pgx.Connect(ctx, cs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { blocker.Close(context.Background()) })
	tx, err := blocker.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tx.Rollback(context.Background()) })
	// The latest migration, 0009, alters llm_usage: it waits for this.
	if _, err := tx.Exec(ctx, `LOCK TABLE llm_usage IN ACCESS SHARE MODE`); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- store.Migrate(cs) }()

	pcfg, err := pgxpool.ParseConfig(cs)
	if err != nil {
		t.Fatal(err)
	}
	pcfg.AfterConnect = pguuid.AfterConnect
	pool, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	st := store.New(pool)
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		v, dirty, err := st.SchemaVersion(ctx)
		if err == nil && dirty && v == store.LatestVersion() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the migration never started: version %d dirty %v err %v", v, dirty, err)
		}
	}
	finish := func() {
		_ = tx.Rollback(ctx)
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("migration: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("the migration did not finish")
		}
	}
	return st, finish
}

// readyz answers GET /readyz of a server that expects schema version want.
func readyz(t *testing.T, st *store.Store, want uint) (int, map[string]any) {
	t.Helper()
	srv := httptest.NewServer(httpapi.New(httpapi.Deps{DB: st, SchemaVersion: want, Version: "test"}).Handler())
	defer srv.Close()
	return get(t, srv.URL+"/readyz")
}

// TestReadyzDuringMigrationSaysInProgress: while a migration runs, its
// version is recorded dirty. With the migration lock held, /readyz says a
// migration is in progress, not that one failed, which would send the
// operator to `migrate force` a schema being changed under them.
func TestReadyzDuringMigrationSaysInProgress(t *testing.T) {
	st, finish := migrationInProgress(t)
	defer finish()

	code, body := readyz(t, st, store.LatestVersion())
	reason, _ := body["reason"].(string)
	if code != http.StatusServiceUnavailable || strings.Contains(reason, "failed") || !strings.Contains(reason, "in progress") {
		t.Errorf("/readyz of the new release during its migration = %d %v; want 503 saying a migration is in progress", code, body)
	}
}

// TestReadyzOfOlderReplicaDuringMigration: dirty at version N with the
// migration lock held means N-1 is complete, so a replica that expects
// N-1 stays ready while N runs: a rolling deploy does not take the whole
// fleet out of the load balancer.
func TestReadyzOfOlderReplicaDuringMigration(t *testing.T) {
	st, finish := migrationInProgress(t)

	old := store.LatestVersion() - 1
	if code, body := readyz(t, st, old); code != http.StatusOK || body["schema_version"] != float64(old) {
		t.Errorf("/readyz of a replica expecting %d while migration %d runs = %d %v; want 200 at %d", old, old+1, code, body, old)
	}
	finish()
	if code, body := readyz(t, st, old); code != http.StatusOK {
		t.Errorf("after the migration: /readyz = %d %v", code, body)
	}
}

// TestReadyzAfterDatabaseRestart: right after PostgreSQL restarted (every
// pooled connection dead) and came back, /readyz and /health/db probe it
// and find it up: Ping does not report the dead connection it took, but
// pings again on a fresh one. A 503 there would take every replica out of
// rotation at once for a database that answers.
func TestReadyzAfterDatabaseRestart(t *testing.T) {
	s := newServer(t)
	if r := s.do("GET", "/readyz", nil, ""); r.Status != 200 {
		t.Fatalf("readyz before: %d %s", r.Status, r.Body)
	}
	pgtest.RestartDatabase(t, s.st.Pool(), 6)
	if r := s.do("GET", "/readyz", nil, ""); r.Status != 200 {
		t.Errorf("readyz with the database up: %d %s; want 200", r.Status, r.Body)
	}
	if r := s.do("GET", "/health/db", nil, ""); r.Status != 200 || r.JSON(t)["database"] != "connected" {
		t.Errorf("health/db with the database up: %d %s; want connected", r.Status, r.Body)
	}
}
