package httpapi_test

import (
	"context"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/tutord/tutord/internal/auth"
	"github.com/tutord/tutord/internal/httpapi"
)

// TestDeletedAccountNeedsASignInAfterTheDeletion: once an account is
// deleted, only a token that shows it was issued after the deletion makes
// it again. A token that says nothing of when its learner signed in (no
// auth_time, no iat) cannot show that, and one issued within the
// verifier's leeway after the deletion may have been issued before it by
// a clock that runs ahead: both get 401 learner_deleted, at /auth/sync as
// on the other routes, and make no account. A token issued past the
// leeway does.
func TestDeletedAccountNeedsASignInAfterTheDeletion(t *testing.T) {
	const leeway = 30 * time.Second
	s := newServer(t, func(_ *httpapi.Options, d *httpapi.Deps) {
		v, err := auth.NewVerifier(auth.Config{Secret: testSecret, Audience: "tutord-test", Leeway: leeway,
			Admin: auth.AdminRule{Claim: "role", Value: "admin"}})
		if err != nil {
			t.Fatal(err)
		}
		d.Auth = httpapi.NewAuthenticator(v)
	})
	ctx := context.Background()
	mint := func(use string, signedIn time.Time) string {
		t.Helper()
		tok, err := auth.Mint([]byte(testSecret), auth.MintOptions{Subject: "erased", TokenUse: use, ClientID: "tutord-test",
			TTL: time.Hour, IssuedAt: signedIn})
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	// undated mints a token without auth_time and iat, as some identity
	// providers' are.
	undated := func(use string) string {
		t.Helper()
		claims := jwt.MapClaims{"sub": "erased", "token_use": use, "exp": time.Now().Add(time.Hour).Unix()}
		if use == auth.UseID {
			claims["aud"] = "tutord-test"
		} else {
			claims["client_id"] = "tutord-test"
		}
		tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString([]byte(testSecret))
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}

	before := time.Now().Add(-time.Hour)
	if r := s.do("POST", "/auth/sync", nil, mint("id", before)); r.Status != 200 {
		t.Fatalf("sign-in: %d %s", r.Status, r.Body)
	}
	s.newSession(fractions, "", mint("access", before))
	if r := s.do("DELETE", "/auth/admin/user?cognito_sub=erased", nil, token(t, "root", true)); r.Status != 200 {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	var deleted time.Time
	if err := s.st.Pool().QueryRow(ctx, `SELECT deleted_at FROM deleted_learners WHERE subject_sha256 = sha256(convert_to('erased', 'UTF8'))`).Scan(&deleted); err != nil {
		t.Fatal(err)
	}

	withinLeeway := deleted.Add(leeway / 2)
	for _, call := range []struct{ name, method, path, tok string }{
		{"undated access token", "GET", "/profile", undated("access")},
		{"undated access token", "POST", "/sessions", undated("access")},
		{"undated ID token", "POST", "/auth/sync", undated("id")},
		{"access token issued within the leeway after the deletion", "GET", "/profile", mint("access", withinLeeway)},
		{"access token issued within the leeway after the deletion", "POST", "/sessions", mint("access", withinLeeway)},
		{"ID token issued within the leeway after the deletion", "POST", "/auth/sync", mint("id", withinLeeway)},
	} {
		var body any
		if call.method == "POST" && call.path == "/sessions" {
			body = createBody(s.subject[fractions], "")
		}
		if r := s.do(call.method, call.path, body, call.tok); r.Status != 401 || r.code(t) != "learner_deleted" {
			t.Errorf("%s %s, %s: %d %s; want 401 learner_deleted", call.method, call.path, call.name, r.Status, truncate(r.Body, 300))
		}
	}
	var n int
	if err := s.st.Pool().QueryRow(ctx, `SELECT count(*) FROM learners WHERE external_id = 'erased'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("the deleted account was made again by a token that does not show it came after the deletion (%d rows)", n)
	}

	after := deleted.Add(leeway + 2*time.Second)
	if r := s.do("POST", "/auth/sync", nil, mint("id", after)); r.Status != 200 {
		t.Fatalf("a sign-in past the leeway after the deletion: %d %s; want 200", r.Status, r.Body)
	}
	if r := s.do("GET", "/sessions", nil, mint("access", after)); r.Status != 200 || r.JSON(t)["total"] != float64(0) {
		t.Fatalf("the new account's sessions: %d %s; want none", r.Status, r.Body)
	}
}
