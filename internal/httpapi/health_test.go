package httpapi_test

import (
	"context"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/google/go-cmp/cmp"

	"github.com/tutord/tutord/internal/httpapi"
	"github.com/tutord/tutord/internal/pgtest"
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
