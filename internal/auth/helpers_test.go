package auth

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"
)

const (
	testSecret   = "test-secret-0123456789abcdef-0123456789"
	testIssuer   = "https://issuer.test/pool"
	testAudience = "tutord-dev"
)

// t0 is the tests' "now".
var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// clock is a settable clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *clock { return &clock{now: t0} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// newVerifier returns a Verifier of cfg on a clock at t0.
func newVerifier(t *testing.T, cfg Config) (*Verifier, *clock) {
	t.Helper()
	c := newClock()
	cfg.Now = c.Now
	v, err := NewVerifier(cfg)
	if err != nil {
		t.Fatalf("NewVerifier: %v", err)
	}
	return v, c
}

// hsConfig is a shared-secret configuration with issuer and audience.
func hsConfig() Config {
	return Config{Secret: testSecret, Issuer: testIssuer, Audience: testAudience, Leeway: DefaultLeeway}
}

// accessClaims are the claims of a valid Cognito access token at t0, with
// over applied; a nil value in over deletes the claim.
func accessClaims(over jwt.MapClaims) jwt.MapClaims {
	return with(jwt.MapClaims{
		"sub":       "learner-1",
		"token_use": "access",
		"client_id": testAudience,
		"iss":       testIssuer,
		"iat":       t0.Unix(),
		"exp":       t0.Add(time.Hour).Unix(),
		"username":  "asha",
	}, over)
}

// idClaims are the claims of a valid Cognito ID token at t0, with over.
func idClaims(over jwt.MapClaims) jwt.MapClaims {
	return with(jwt.MapClaims{
		"sub":              "learner-1",
		"token_use":        "id",
		"aud":              testAudience,
		"iss":              testIssuer,
		"iat":              t0.Unix(),
		"exp":              t0.Add(time.Hour).Unix(),
		"email":            "asha@example.com",
		"name":             "Asha",
		"cognito:username": "asha",
	}, over)
}

func with(base, over jwt.MapClaims) jwt.MapClaims {
	out := maps.Clone(base)
	for k, v := range over {
		if v == nil {
			delete(out, k)
		} else {
			out[k] = v
		}
	}
	return out
}

// sign signs claims with method and key, adding a kid header when set.
func sign(t testing.TB, method jwt.SigningMethod, key any, kid string, claims jwt.MapClaims) string {
	t.Helper()
	tok := jwt.NewWithClaims(method, claims)
	if kid != "" {
		tok.Header["kid"] = kid
	}
	s, err := tok.SignedString(key)
	if err != nil {
		t.Fatalf("sign: %v", err)
	}
	return s
}

// hs signs claims with the test secret.
func hs(t testing.TB, claims jwt.MapClaims) string {
	t.Helper()
	return sign(t, jwt.SigningMethodHS256, []byte(testSecret), "", claims)
}

// forge builds a token with any header, signed by HMAC-SHA256 with key:
// the algorithm-confusion attacks.
func forge(t testing.TB, header map[string]any, claims jwt.MapClaims, key []byte) string {
	t.Helper()
	enc := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return base64.RawURLEncoding.EncodeToString(b)
	}
	input := enc(header) + "." + enc(claims)
	sig, err := jwt.SigningMethodHS256.Sign(input, key)
	if err != nil {
		t.Fatal(err)
	}
	return input + "." + base64.RawURLEncoding.EncodeToString(sig)
}

// wantErr checks that err is an *Error of kind with message msg.
func wantErr(t *testing.T, err, kind error, msg string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v (%T), want *Error %q", err, err, msg)
	}
	if !errors.Is(err, kind) {
		t.Errorf("err = %v, not of kind %v", err, kind)
	}
	if e.Message != msg {
		t.Errorf("message = %q, want %q", e.Message, msg)
	}
}

// testKeys are generated once: RSA generation is slow.
type keys struct {
	rsa1, rsa2 *rsa.PrivateKey
	ec         *ecdsa.PrivateKey
}

var generateKeys = sync.OnceValues(func() (keys, error) {
	var k keys
	var err error
	if k.rsa1, err = rsa.GenerateKey(rand.Reader, 2048); err != nil {
		return k, err
	}
	if k.rsa2, err = rsa.GenerateKey(rand.Reader, 2048); err != nil {
		return k, err
	}
	k.ec, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	return k, err
})

func testKeys(t testing.TB) keys {
	t.Helper()
	k, err := generateKeys()
	if err != nil {
		t.Fatalf("generate keys: %v", err)
	}
	return k
}

// jwksServer serves a key set that tests can change, and counts fetches.
type jwksServer struct {
	*httptest.Server
	fetches atomic.Int32

	mu     sync.Mutex
	body   []byte
	status int
}

// newJWKSServer serves the public halves of keys (kid → key); entries of
// algs (kid → alg) set the JWK's alg.
func newJWKSServer(t testing.TB, keys map[string]any, algs map[string]jwa.SignatureAlgorithm) *jwksServer {
	t.Helper()
	s := &jwksServer{status: http.StatusOK}
	s.setKeys(t, keys, algs)
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.fetches.Add(1)
		s.mu.Lock()
		status, body := s.status, s.body
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write(body)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *jwksServer) setKeys(t testing.TB, keys map[string]any, algs map[string]jwa.SignatureAlgorithm) {
	t.Helper()
	set := jwk.NewSet()
	for kid, raw := range keys {
		k, err := jwk.PublicKeyOf(raw)
		if err != nil {
			t.Fatalf("jwk: %v", err)
		}
		if err := k.Set(jwk.KeyIDKey, kid); err != nil {
			t.Fatal(err)
		}
		if alg, ok := algs[kid]; ok {
			if err := k.Set(jwk.AlgorithmKey, alg); err != nil {
				t.Fatal(err)
			}
		}
		if err := set.AddKey(k); err != nil {
			t.Fatal(err)
		}
	}
	body, err := json.Marshal(set)
	if err != nil {
		t.Fatal(err)
	}
	s.setBody(http.StatusOK, body)
}

func (s *jwksServer) setBody(status int, body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.status, s.body = status, body
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }
