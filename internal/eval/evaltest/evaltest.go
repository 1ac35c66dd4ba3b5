// Package evaltest runs tutord in-process for the evaluation harness's
// tests: the real HTTP API and WebSocket on a loopback port, over a fresh
// test database, with the rules engine and a curriculum (the shipped sample
// unless a directory is given).
//
// Packages whose tests use it need pgtest's TestMain:
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
package evaltest

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/tutord/tutord/api"
	"github.com/tutord/tutord/curricula"
	"github.com/tutord/tutord/internal/agents/engine"
	"github.com/tutord/tutord/internal/agents/rules"
	"github.com/tutord/tutord/internal/auth"
	"github.com/tutord/tutord/internal/curriculum"
	"github.com/tutord/tutord/internal/httpapi"
	"github.com/tutord/tutord/internal/lessons"
	"github.com/tutord/tutord/internal/orchestrator"
	"github.com/tutord/tutord/internal/pgtest"
	"github.com/tutord/tutord/internal/store"
)

// Secret is the HS256 secret the servers of this package verify tokens
// with; tokens need no audience or issuer, and the claim role=admin makes
// an admin.
const Secret = "evaltest-secret-0123456789abcdef0123456789"

// Options configure a server.
type Options struct {
	// CurriculumDir is a directory of curriculum files to serve instead of
	// the shipped sample.
	CurriculumDir string
	// Secret is the HS256 secret tokens are verified with; empty means
	// Secret (the package constant).
	Secret string
	// Wrap, when set, wraps the API's handler, e.g. to break connections.
	Wrap func(http.Handler) http.Handler
	// Logger receives the server's logs; nil discards them.
	Logger *slog.Logger
}

// Start starts tutord for the test and returns its base URL. The server
// and its database are removed when the test ends.
func Start(t testing.TB, o Options) string {
	t.Helper()
	url, err := start(t, o)
	if err != nil {
		t.Fatal(err)
	}
	return url
}

func start(t testing.TB, o Options) (string, error) {
	ctx := context.Background()
	st := store.New(pgtest.Pool(t))
	var files []*curriculum.File
	var err error
	if o.CurriculumDir != "" {
		files, err = curriculum.LoadPaths(o.CurriculumDir)
	} else {
		files, err = curriculum.LoadFS(curricula.FS())
	}
	if err != nil {
		return "", err
	}
	if _, err := lessons.Import(ctx, st, files, time.Time{}); err != nil {
		return "", err
	}
	set, err := rules.New()
	if err != nil {
		return "", err
	}
	orch := orchestrator.New(orchestrator.Options{Store: st, Lessons: lessons.NewSource(st), Engines: engine.New(set, nil, st), FallbackSafety: set.Safety, Logger: o.Logger})
	rule, err := auth.ParseAdminRule(auth.DefaultAdminRule)
	if err != nil {
		return "", err
	}
	secret := o.Secret
	if secret == "" {
		secret = Secret
	}
	v, err := auth.NewVerifier(auth.Config{Secret: secret, Admin: rule})
	if err != nil {
		return "", err
	}
	doc, err := httpapi.LoadSpec(api.Spec)
	if err != nil {
		return "", err
	}
	srv := httpapi.New(httpapi.Deps{
		DB: st, SchemaVersion: store.LatestVersion(), Version: "evaltest",
		Curriculum: st, Sessions: orch, Learners: st, Profiles: st, Progress: st, AgentLogs: st, LLMConfig: st,
		Auth: httpapi.NewAuthenticator(v), Logger: o.Logger,
	}, httpapi.Options{AllowAnonymous: true, CORSOrigins: []string{"*"}, Validator: httpapi.NewValidator(doc)})
	var h http.Handler = srv.Handler()
	if o.Wrap != nil {
		h = o.Wrap(h)
	}
	hs := httptest.NewServer(h)
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
		hs.Close()
		_ = orch.Stop(sctx)
	})
	return hs.URL, nil
}
