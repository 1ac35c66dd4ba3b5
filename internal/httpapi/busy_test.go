package httpapi_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/tutord/tutord/internal/httpapi"
	"github.com/tutord/tutord/internal/pgtest"
	"github.com/tutord/tutord/internal/store"
)

// TestDatabaseBusyIs503: when every database connection stays taken for
// TUTORD_DB_ACQUIRE_TIMEOUT, a request fails fast with 503 database_busy
// and Retry-After, as the contract documents, instead of waiting as long
// as its client does; anonymous and learner routes alike.
func TestDatabaseBusyIs503(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.BoundedPool(t, 1, 50*time.Millisecond)
	busy := store.New(pool)
	s := newServer(t, func(_ *httpapi.Options, d *httpapi.Deps) { d.Curriculum, d.Progress = busy, busy })
	tok := token(t, "learner-busy", false)
	s.do(http.MethodGet, "/sessions", nil, tok) // registers the learner

	held, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	expect503(t, s, tok, "database_busy", "1")
}

// TestDatabaseDownIs503: with PostgreSQL down (restarting, failing over),
// a request fails with 503 database_unavailable and Retry-After, not 500
// "Internal error": clients and load balancers retry a 503, and an
// operator's alerts tell an outage from a bug. Anonymous and learner
// routes alike.
func TestDatabaseDownIs503(t *testing.T) {
	down := store.New(pgtest.UnreachablePool(t))
	s := newServer(t, func(_ *httpapi.Options, d *httpapi.Deps) { d.Curriculum, d.Progress = down, down })
	tok := token(t, "learner-down", false)
	expect503(t, s, tok, "database_unavailable", "5")
}

// expect503 checks that an anonymous route and a learner's (tok's) answer
// 503 with code and Retry-After retry.
func expect503(t *testing.T, s *apiServer, tok, code, retry string) {
	t.Helper()
	for _, r := range []struct{ path, tok string }{
		{"/curriculum?country=India&board=CBSE&grade=7", ""},
		{"/sessions", tok},
	} {
		resp := s.do(http.MethodGet, r.path, nil, r.tok)
		if resp.Status != http.StatusServiceUnavailable || resp.code(t) != code || resp.Header.Get("Retry-After") != retry {
			t.Errorf("GET %s = %d %s (Retry-After %q); want 503 %s, Retry-After %s",
				r.path, resp.Status, resp.Body, resp.Header.Get("Retry-After"), code, retry)
		}
	}
}
