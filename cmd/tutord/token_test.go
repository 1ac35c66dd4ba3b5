package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/tutord/tutord/internal/auth"
)

const tokenSecret = "token-test-secret-0123456789abcdef"

// mintWithCLI runs `tutord token` in-process and returns what it printed.
func mintWithCLI(t *testing.T, environ map[string]string, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := run(context.Background(), append([]string{"token"}, args...), environ, strings.NewReader(""), &out, io.Discard)
	return strings.TrimSpace(out.String()), err
}

func TestTokenCommand(t *testing.T) {
	environ := map[string]string{"TUTORD_JWT_SECRET": tokenSecret, "TUTORD_JWT_AUDIENCE": "tutord-web", "TUTORD_JWT_ISSUER": "https://id.example.com"}
	v, err := auth.NewVerifier(auth.Config{Secret: tokenSecret, Audience: "tutord-web", Issuer: "https://id.example.com",
		Admin: auth.AdminRule{Claim: "role", Value: "admin"}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		args    []string
		admin   bool
		ttl     time.Duration
		idToken bool
	}{
		{"access token", []string{"--sub", "learner-1"}, false, 24 * time.Hour, false},
		{"admin", []string{"--sub", "learner-1", "--admin"}, true, 24 * time.Hour, false},
		{"ttl", []string{"--sub", "learner-1", "--ttl", "90m"}, false, 90 * time.Minute, false},
		{"id token", []string{"--sub", "learner-1", "--id", "--email", "asha@example.com", "--name", "Asha", "--ttl", "5m"}, false, 5 * time.Minute, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := time.Now()
			tok, err := mintWithCLI(t, environ, tt.args...)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Count(tok, ".") != 2 || strings.Contains(tok, "\n") {
				t.Fatalf("output %q is not one JWT", tok)
			}
			verify := v.VerifyAccess
			if tt.idToken {
				verify = v.VerifyID
				if _, err := v.VerifyAccess(context.Background(), tok); err == nil {
					t.Error("an ID token is accepted as an access token")
				}
			}
			c, err := verify(context.Background(), tok)
			if err != nil {
				t.Fatalf("the server's verifier refuses the token: %v", err)
			}
			if c.Subject != "learner-1" || c.Admin != tt.admin {
				t.Errorf("sub %q admin %v; want learner-1 %v", c.Subject, c.Admin, tt.admin)
			}
			// exp has one-second resolution.
			if lo, hi := before.Add(tt.ttl).Add(-time.Second), time.Now().Add(tt.ttl).Add(time.Second); c.ExpiresAt.Before(lo) || c.ExpiresAt.After(hi) {
				t.Errorf("expires at %v; want about now + %v", c.ExpiresAt, tt.ttl)
			}
			if tt.idToken && (c.Email != "asha@example.com" || c.Name != "Asha") {
				t.Errorf("email %q name %q", c.Email, c.Name)
			}
		})
	}

	// An admin by the configured claim, not the default one.
	custom := map[string]string{"TUTORD_JWT_SECRET": tokenSecret, "TUTORD_JWT_ADMIN_CLAIM": "groups=tutors"}
	tok, err := mintWithCLI(t, custom, "--sub", "boss", "--admin")
	if err != nil {
		t.Fatal(err)
	}
	vc, _ := auth.NewVerifier(auth.Config{Secret: tokenSecret, Admin: auth.AdminRule{Claim: "groups", Value: "tutors"}})
	if c, err := vc.VerifyAccess(context.Background(), tok); err != nil || !c.Admin {
		t.Errorf("TUTORD_JWT_ADMIN_CLAIM=groups=tutors: admin %v, %v", c.Admin, err)
	}

	for _, bad := range []struct {
		name    string
		environ map[string]string
		args    []string
		code    int
		want    string
	}{
		{"no secret", map[string]string{}, []string{"--sub", "x"}, 1, "TUTORD_JWT_SECRET is not set"},
		{"short secret", map[string]string{"TUTORD_JWT_SECRET": "too-short"}, []string{"--sub", "x"}, 1, "TUTORD_JWT_SECRET: must be at least 32 bytes"},
		{"no sub", environ, nil, 2, "needs --sub"},
		{"an argument", environ, []string{"--sub", "x", "extra"}, 2, "takes no arguments"},
		{"zero ttl", environ, []string{"--sub", "x", "--ttl", "0s"}, 2, "--ttl must be positive"},
		{"negative ttl", environ, []string{"--sub", "x", "--ttl", "-1h"}, 2, "--ttl must be positive"},
		{"ttl not a duration", environ, []string{"--sub", "x", "--ttl", "tomorrow"}, 2, "invalid value"},
		{"unknown flag", environ, []string{"--sub", "x", "--role", "admin"}, 2, "flag provided but not defined"},
	} {
		t.Run(bad.name, func(t *testing.T) {
			out, err := mintWithCLI(t, bad.environ, bad.args...)
			if err == nil || exitCode(err) != bad.code || !strings.Contains(err.Error(), bad.want) {
				t.Fatalf("err = %v (exit %d); want %q (exit %d)", err, exitCode(err), bad.want, bad.code)
			}
			// A bad flag prints the usage; no token is printed.
			if strings.Contains(out, "eyJ") {
				t.Fatalf("printed a token on failure: %q", out)
			}
		})
	}
}
