package auth

import (
	"context"
	"crypto/x509"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/lestrrat-go/jwx/v3/jwa"
)

// jwksConfig is a JWKS configuration with issuer and audience.
func jwksConfig(url string) Config {
	return Config{JWKSURL: url, Issuer: testIssuer, Audience: testAudience, Leeway: DefaultLeeway}
}

func TestJWKSVerify(t *testing.T) {
	keys := testKeys(t)
	srv := newJWKSServer(t, map[string]any{"rsa": keys.rsa1, "ec": keys.ec, "pinned": keys.rsa2},
		map[string]jwa.SignatureAlgorithm{"pinned": jwa.RS256(), "rsa": jwa.RS256()})
	pubDER, err := x509.MarshalPKIXPublicKey(&keys.rsa1.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := newVerifier(t, jwksConfig(srv.URL))

	tests := []struct {
		name    string
		token   string
		wantMsg string
	}{
		{name: "RS256", token: sign(t, jwt.SigningMethodRS256, keys.rsa1, "rsa", accessClaims(nil))},
		{name: "ES256", token: sign(t, jwt.SigningMethodES256, keys.ec, "ec", accessClaims(nil))},
		{name: "RS256 with the JWK's alg", token: sign(t, jwt.SigningMethodRS256, keys.rsa2, "pinned", accessClaims(nil))},
		{name: "signed by another key", token: sign(t, jwt.SigningMethodRS256, keys.rsa2, "rsa", accessClaims(nil)),
			wantMsg: "Invalid token: Signature verification failed."},
		{name: "RS256 with an EC key's kid", token: sign(t, jwt.SigningMethodRS256, keys.rsa1, "ec", accessClaims(nil)),
			wantMsg: "Invalid token: key does not match the token's alg"},
		{name: "ES256 with an RSA key's kid", token: sign(t, jwt.SigningMethodES256, keys.ec, "rsa", accessClaims(nil)),
			wantMsg: "Invalid token: key does not match the token's alg"},
		{name: "RS512", token: sign(t, jwt.SigningMethodRS512, keys.rsa1, "rsa", accessClaims(nil)),
			wantMsg: "Invalid token: The specified alg value is not allowed"},
		{name: "PS256", token: sign(t, jwt.SigningMethodPS256, keys.rsa1, "rsa", accessClaims(nil)),
			wantMsg: "Invalid token: The specified alg value is not allowed"},
		{name: "no kid", token: sign(t, jwt.SigningMethodRS256, keys.rsa1, "", accessClaims(nil)),
			wantMsg: "Invalid token: no kid header"},
		{name: "HS256 without a secret", token: hs(t, accessClaims(nil)),
			wantMsg: "Invalid token: The specified alg value is not allowed"},
		{name: "HS256 keyed with the public key", token: forge(t, map[string]any{"alg": "HS256", "kid": "rsa"}, accessClaims(nil), pubDER),
			wantMsg: "Invalid token: The specified alg value is not allowed"},
		{name: "alg none", token: sign(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, "rsa", accessClaims(nil)),
			wantMsg: "Invalid token: The specified alg value is not allowed"},
		{name: "expired", token: sign(t, jwt.SigningMethodRS256, keys.rsa1, "rsa", accessClaims(jwt.MapClaims{"exp": t0.Add(-time.Hour).Unix()})),
			wantMsg: "Invalid token: Signature has expired."},
		{name: "wrong client_id", token: sign(t, jwt.SigningMethodRS256, keys.rsa1, "rsa", accessClaims(jwt.MapClaims{"client_id": "x"})),
			wantMsg: "Invalid token: wrong client_id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := v.VerifyAccess(context.Background(), tt.token)
			if tt.wantMsg != "" {
				wantErr(t, err, ErrInvalidToken, tt.wantMsg)
				return
			}
			if err != nil {
				t.Fatalf("VerifyAccess: %v", err)
			}
		})
	}
	if n := srv.fetches.Load(); n != 1 {
		t.Errorf("fetched the key set %d times, want 1", n)
	}
}

func TestJWKSRotation(t *testing.T) {
	keys := testKeys(t)
	srv := newJWKSServer(t, map[string]any{"k1": keys.rsa1}, nil)
	v, clock := newVerifier(t, jwksConfig(srv.URL))
	ctx := context.Background()
	verify := func(key any, kid string) error {
		_, err := v.VerifyAccess(ctx, sign(t, jwt.SigningMethodRS256, key, kid, accessClaims(jwt.MapClaims{"exp": clock.Now().Add(time.Hour).Unix()})))
		return err
	}
	wantFetches := func(n int32) {
		t.Helper()
		if got := srv.fetches.Load(); got != n {
			t.Fatalf("fetched the key set %d times, want %d", got, n)
		}
	}

	if err := verify(keys.rsa1, "k1"); err != nil {
		t.Fatalf("k1: %v", err)
	}
	wantFetches(1)

	// The provider rotates: k2 appears. A token signed with it triggers one
	// fetch, once the minimum interval since the last fetch has passed.
	srv.setKeys(t, map[string]any{"k1": keys.rsa1, "k2": keys.rsa2}, nil)
	clock.Advance(jwksMinInterval)
	if err := verify(keys.rsa2, "k2"); err != nil {
		t.Fatalf("k2 after rotation: %v", err)
	}
	wantFetches(2)
	if err := verify(keys.rsa2, "k2"); err != nil {
		t.Fatalf("k2 again: %v", err)
	}
	wantFetches(2)

	// An unknown kid fetches once more, then fails.
	clock.Advance(jwksMinInterval)
	err := verify(keys.rsa1, "k3")
	wantErr(t, err, ErrInvalidToken, "Invalid token: key not found after refresh")
	wantFetches(3)

	// Kid spraying: more unknown kids within the interval fetch nothing.
	// They are not refused as invalid (a 401 signs a learner out): the
	// provider may have rotated its keys just after the last fetch, and
	// the client is asked to try again.
	for _, kid := range []string{"k4", "k5", "k6"} {
		err := verify(keys.rsa1, kid)
		wantErr(t, err, ErrKeysUnavailable, "Authentication keys unavailable")
	}
	wantFetches(3)

	// Keys older than the cache's age are fetched again.
	clock.Advance(jwksMaxAge)
	if err := verify(keys.rsa1, "k1"); err != nil {
		t.Fatalf("k1 after an hour: %v", err)
	}
	wantFetches(4)
}

func TestJWKSUnavailable(t *testing.T) {
	keys := testKeys(t)
	token := func(kid string) string {
		return sign(t, jwt.SigningMethodRS256, keys.rsa1, kid, accessClaims(nil))
	}

	t.Run("server down", func(t *testing.T) {
		srv := httptest.NewServer(http.NotFoundHandler())
		srv.Close()
		v, _ := newVerifier(t, jwksConfig(srv.URL))
		_, err := v.VerifyAccess(context.Background(), token("k1"))
		wantErr(t, err, ErrKeysUnavailable, "Authentication keys unavailable")
	})

	encOnly := `{"keys": [{"kty": "RSA", "use": "enc", "kid": "k1", "e": "AQAB", "n": "` + b64(keys.rsa1.N.Bytes()) + `"}]}`
	bad := []struct {
		name   string
		status int
		body   string
	}{
		{"HTTP 500", http.StatusInternalServerError, `{"keys": []}`},
		{"HTML", http.StatusOK, `<html>login</html>`},
		{"no keys", http.StatusOK, `{"keys": []}`},
		{"only a symmetric key", http.StatusOK, `{"keys": [{"kty": "oct", "kid": "k1", "k": "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA"}]}`},
		{"only an encryption key", http.StatusOK, encOnly},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			srv := newJWKSServer(t, map[string]any{"k1": keys.rsa1}, nil)
			srv.setBody(tt.status, []byte(tt.body))
			v, _ := newVerifier(t, jwksConfig(srv.URL))
			_, err := v.VerifyAccess(context.Background(), token("k1"))
			wantErr(t, err, ErrKeysUnavailable, "Authentication keys unavailable")
			// Within the interval, the failure is remembered, not retried.
			_, err = v.VerifyAccess(context.Background(), token("k1"))
			wantErr(t, err, ErrKeysUnavailable, "Authentication keys unavailable")
			if n := srv.fetches.Load(); n != 1 {
				t.Errorf("fetched %d times, want 1", n)
			}
		})
	}

	t.Run("stale keys serve while the provider is down", func(t *testing.T) {
		srv := newJWKSServer(t, map[string]any{"k1": keys.rsa1}, nil)
		v, clock := newVerifier(t, jwksConfig(srv.URL))
		ctx := context.Background()
		if _, err := v.VerifyAccess(ctx, token("k1")); err != nil {
			t.Fatal(err)
		}
		srv.setBody(http.StatusServiceUnavailable, nil)
		clock.Advance(jwksMaxAge)
		claims := accessClaims(jwt.MapClaims{"exp": clock.Now().Add(time.Hour).Unix()})
		if _, err := v.VerifyAccess(ctx, sign(t, jwt.SigningMethodRS256, keys.rsa1, "k1", claims)); err != nil {
			t.Fatalf("known kid with the provider down: %v", err)
		}
		if n := srv.fetches.Load(); n != 2 {
			t.Errorf("fetched %d times, want 2", n)
		}
		_, err := v.VerifyAccess(ctx, sign(t, jwt.SigningMethodRS256, keys.rsa1, "k9", claims))
		wantErr(t, err, ErrKeysUnavailable, "Authentication keys unavailable")
	})

	t.Run("caller gives up on a hanging provider", func(t *testing.T) {
		release := make(chan struct{})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}))
		t.Cleanup(srv.Close)
		t.Cleanup(func() { close(release) })
		v, _ := newVerifier(t, jwksConfig(srv.URL))
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		_, err := v.VerifyAccess(ctx, token("k1"))
		wantErr(t, err, ErrKeysUnavailable, "Authentication keys unavailable")
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v, want it to wrap context.DeadlineExceeded", err)
		}
	})
}

func TestJWKSConcurrentFirstUse(t *testing.T) {
	keys := testKeys(t)
	srv := newJWKSServer(t, map[string]any{"k1": keys.rsa1}, nil)
	v, _ := newVerifier(t, jwksConfig(srv.URL))
	token := sign(t, jwt.SigningMethodRS256, keys.rsa1, "k1", accessClaims(nil))

	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for range 20 {
		wg.Go(func() {
			_, err := v.VerifyAccess(context.Background(), token)
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("VerifyAccess: %v", err)
		}
	}
	if n := srv.fetches.Load(); n != 1 {
		t.Errorf("fetched %d times, want 1", n)
	}
}

func TestJWKSIgnoresWeakAndUnusableKeys(t *testing.T) {
	keys := testKeys(t)
	// A 1024-bit key and a symmetric key sit beside a good key.
	srv := newJWKSServer(t, map[string]any{"good": keys.rsa1}, nil)
	body := `{"keys": [
		{"kty": "RSA", "kid": "good", "e": "AQAB", "n": "` + b64(keys.rsa1.N.Bytes()) + `"},
		{"kty": "RSA", "kid": "weak", "e": "AQAB", "n": "` + b64(make1024(keys.rsa1.N.Bytes())) + `"},
		{"kty": "oct", "kid": "hmac", "k": "` + b64([]byte(testSecret)) + `"}
	]}`
	srv.setBody(http.StatusOK, []byte(body))
	v, clock := newVerifier(t, jwksConfig(srv.URL))

	if _, err := v.VerifyAccess(context.Background(), sign(t, jwt.SigningMethodRS256, keys.rsa1, "good", accessClaims(nil))); err != nil {
		t.Fatalf("good key: %v", err)
	}
	clock.Advance(jwksMinInterval)
	_, err := v.VerifyAccess(context.Background(), forge(t, map[string]any{"alg": "RS256", "kid": "weak"}, accessClaims(nil), []byte(testSecret)))
	wantErr(t, err, ErrInvalidToken, "Invalid token: key not found after refresh")
	_, err = v.VerifyAccess(context.Background(), sign(t, jwt.SigningMethodHS256, []byte(testSecret), "hmac", accessClaims(nil)))
	wantErr(t, err, ErrInvalidToken, "Invalid token: The specified alg value is not allowed")
}

// make1024 returns the top 128 bytes of n: a 1024-bit modulus.
func make1024(n []byte) []byte { return n[:128] }

// A provider that starts signing with a new key just after the last fetch
// (within the least interval between fetches) issues good tokens: they
// are not refused as invalid, which would sign their learners out, but
// answered as keys unavailable, to try again.
func TestJWKSRotationJustAfterAFetch(t *testing.T) {
	keys := testKeys(t)
	srv := newJWKSServer(t, map[string]any{"k1": keys.rsa1}, nil)
	v, clock := newVerifier(t, jwksConfig(srv.URL))
	ctx := context.Background()
	if _, err := v.VerifyAccess(ctx, sign(t, jwt.SigningMethodRS256, keys.rsa1, "k1", accessClaims(nil))); err != nil {
		t.Fatalf("k1: %v", err)
	}
	// The provider rotates 5 s later and issues tokens signed by k2.
	srv.setKeys(t, map[string]any{"k1": keys.rsa1, "k2": keys.rsa2}, nil)
	clock.Advance(5 * time.Second)
	claims := accessClaims(jwt.MapClaims{"iat": clock.Now().Unix(), "exp": clock.Now().Add(time.Hour).Unix()})
	_, err := v.VerifyAccess(ctx, sign(t, jwt.SigningMethodRS256, keys.rsa2, "k2", claims))
	if errors.Is(err, ErrInvalidToken) {
		t.Errorf("a token signed by the provider's new key got a 401-class error without any refetch "+
			"(fetches: %d): %v", srv.fetches.Load(), err)
	}
}
