package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tutord/tutord/internal/eval"
)

// The throwaway server of eval --embedded and bench starts whatever the
// caller's environment says of logging and authentication: it waits for
// its "listening" record, and it is given its own token settings.
func TestEmbeddedServerIgnoresTheCallersSettings(t *testing.T) {
	t.Setenv("TUTORD_LOG_LEVEL", "warn")
	t.Setenv("TUTORD_JWT_JWKS_URL", "https://idp.example.com/.well-known/jwks.json")
	t.Setenv("TUTORD_JWT_ISSUER", "https://idp.example.com/")
	t.Setenv("TUTORD_JWT_AUDIENCE", "tutord")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	url, stop, err := embeddedServer(binary)(ctx, eval.EmbeddedConfig{JWTSecret: "embedded-test-secret-0123456789abcdef"})
	if err != nil {
		t.Fatalf("the embedded server did not start: %v", err)
	}
	defer stop()
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Errorf("url %q", url)
	}
}

// When the throwaway server cannot start, the error says why.
func TestEmbeddedServerFailureSaysWhy(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	_, err := startChild(ctx, binary, dataDir(t), "TUTORD_TURN_RATE=fast")
	if err == nil || !strings.Contains(err.Error(), "exited during start-up: tutord: ") || !strings.Contains(err.Error(), "TUTORD_TURN_RATE") {
		t.Fatalf("err = %v, want the child's reason, naming TUTORD_TURN_RATE", err)
	}
}
