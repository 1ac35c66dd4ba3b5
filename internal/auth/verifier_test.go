package auth

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/go-cmp/cmp"
)

func TestVerifyAccess(t *testing.T) {
	keys := testKeys(t)
	v, _ := newVerifier(t, hsConfig())

	tests := []struct {
		name    string
		token   string
		wantMsg string // "" means valid
	}{
		{name: "valid", token: hs(t, accessClaims(nil))},
		{name: "no token_use", token: hs(t, accessClaims(jwt.MapClaims{"token_use": nil}))},
		{name: "aud instead of client_id", token: hs(t, accessClaims(jwt.MapClaims{"client_id": nil, "aud": testAudience}))},
		{name: "aud list", token: hs(t, accessClaims(jwt.MapClaims{"client_id": nil, "aud": []string{"api", testAudience}}))},
		{name: "aud wins over client_id", token: hs(t, accessClaims(jwt.MapClaims{"client_id": "other", "aud": testAudience}))},
		{name: "expired within leeway", token: hs(t, accessClaims(jwt.MapClaims{"exp": t0.Add(-20 * time.Second).Unix()}))},
		{name: "nbf within leeway", token: hs(t, accessClaims(jwt.MapClaims{"nbf": t0.Add(20 * time.Second).Unix()}))},

		{name: "expired", token: hs(t, accessClaims(jwt.MapClaims{"exp": t0.Add(-time.Minute).Unix()})),
			wantMsg: "Invalid token: Signature has expired."},
		{name: "not yet valid", token: hs(t, accessClaims(jwt.MapClaims{"nbf": t0.Add(5 * time.Minute).Unix()})),
			wantMsg: "Invalid token: The token is not yet valid (nbf)"},
		{name: "no exp", token: hs(t, accessClaims(jwt.MapClaims{"exp": nil})),
			wantMsg: "Invalid token: no exp claim"},
		{name: "exp not a number", token: hs(t, accessClaims(jwt.MapClaims{"exp": "tomorrow"})),
			wantMsg: "Invalid token: malformed claims"},
		{name: "wrong secret", token: sign(t, jwt.SigningMethodHS256, []byte(strings.Repeat("x", 40)), "", accessClaims(nil)),
			wantMsg: "Invalid token: Signature verification failed."},
		{name: "tampered payload", token: tamper(t, hs(t, accessClaims(nil))),
			wantMsg: "Invalid token: Signature verification failed."},
		{name: "alg none", token: sign(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, "", accessClaims(nil)),
			wantMsg: "Invalid token: The specified alg value is not allowed"},
		{name: "HS512", token: sign(t, jwt.SigningMethodHS512, []byte(testSecret), "", accessClaims(nil)),
			wantMsg: "Invalid token: The specified alg value is not allowed"},
		{name: "RS256 without a JWKS", token: sign(t, jwt.SigningMethodRS256, keys.rsa1, "k1", accessClaims(nil)),
			wantMsg: "Invalid token: The specified alg value is not allowed"},
		{name: "RS256 header signed with the secret", token: forge(t, map[string]any{"alg": "RS256", "typ": "JWT"}, accessClaims(nil), []byte(testSecret)),
			wantMsg: "Invalid token: The specified alg value is not allowed"},
		{name: "unknown alg", token: forge(t, map[string]any{"alg": "XY9"}, accessClaims(nil), []byte(testSecret)),
			wantMsg: "Invalid token: The specified alg value is not allowed"},
		{name: "alg not a string", token: forge(t, map[string]any{"alg": 256}, accessClaims(nil), []byte(testSecret)),
			wantMsg: "Invalid token: The specified alg value is not allowed"},
		{name: "wrong issuer", token: hs(t, accessClaims(jwt.MapClaims{"iss": "https://evil.test"})),
			wantMsg: "Invalid token: Invalid issuer"},
		{name: "no issuer", token: hs(t, accessClaims(jwt.MapClaims{"iss": nil})),
			wantMsg: "Invalid token: Invalid issuer"},
		{name: "wrong client_id", token: hs(t, accessClaims(jwt.MapClaims{"client_id": "other-app"})),
			wantMsg: "Invalid token: wrong client_id"},
		{name: "neither client_id nor aud", token: hs(t, accessClaims(jwt.MapClaims{"client_id": nil})),
			wantMsg: "Invalid token: wrong client_id"},
		{name: "wrong aud", token: hs(t, accessClaims(jwt.MapClaims{"client_id": nil, "aud": "other-api"})),
			wantMsg: "Invalid token: Invalid audience"},
		{name: "aud not strings", token: hs(t, accessClaims(jwt.MapClaims{"aud": []any{1, 2}})),
			wantMsg: "Invalid token: malformed claims"},
		{name: "ID token", token: hs(t, idClaims(nil)),
			wantMsg: "Invalid token: expected token_use='access', got 'id'"},
		{name: "other token_use", token: hs(t, accessClaims(jwt.MapClaims{"token_use": "refresh"})),
			wantMsg: "Invalid token: expected token_use='access', got 'refresh'"},
		{name: "token_use not a string", token: hs(t, accessClaims(jwt.MapClaims{"token_use": 1})),
			wantMsg: "Invalid token: malformed claims"},
		{name: "no sub", token: hs(t, accessClaims(jwt.MapClaims{"sub": nil})),
			wantMsg: "Invalid token: no sub claim"},
		{name: "empty sub", token: hs(t, accessClaims(jwt.MapClaims{"sub": ""})),
			wantMsg: "Invalid token: no sub claim"},
		{name: "sub not a string", token: hs(t, accessClaims(jwt.MapClaims{"sub": 42})),
			wantMsg: "Invalid token: no sub claim"},
		{name: "NUL in sub", token: hs(t, accessClaims(jwt.MapClaims{"sub": "learner\x00-1"})),
			wantMsg: "Invalid token: malformed claims"},

		{name: "empty", token: "", wantMsg: "Invalid token: malformed token"},
		{name: "random string", token: "not-a-jwt", wantMsg: "Invalid token: malformed token"},
		{name: "three dots", token: "...", wantMsg: "Invalid token: malformed token"},
		{name: "three words", token: "a.b.c", wantMsg: "Invalid token: malformed token"},
		{name: "header not JSON", token: "bm90IGpzb24.e30.c2ln", wantMsg: "Invalid token: malformed token"},
		{name: "payload not an object", token: "eyJhbGciOiJIUzI1NiJ9.WzFd.c2ln", wantMsg: "Invalid token: malformed token"},
		{name: "bearer prefix", token: "Bearer " + hs(t, accessClaims(nil)), wantMsg: "Invalid token: malformed token"},
		{name: "too long", token: hs(t, accessClaims(jwt.MapClaims{"pad": strings.Repeat("a", maxTokenLen)})),
			wantMsg: "Invalid token: malformed token"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := v.VerifyAccess(context.Background(), tt.token)
			if tt.wantMsg != "" {
				wantErr(t, err, ErrInvalidToken, tt.wantMsg)
				return
			}
			if err != nil {
				t.Fatalf("VerifyAccess: %v", err)
			}
			if c.Subject != "learner-1" {
				t.Errorf("Subject = %q, want learner-1", c.Subject)
			}
		})
	}
}

// tamper changes the payload of a token and keeps its signature.
func tamper(t *testing.T, token string) string {
	t.Helper()
	parts := strings.Split(token, ".")
	claims := accessClaims(jwt.MapClaims{"sub": "learner-2"})
	forged := strings.Split(hs(t, claims), ".")
	return parts[0] + "." + forged[1] + "." + parts[2]
}

func TestVerifyID(t *testing.T) {
	v, _ := newVerifier(t, hsConfig())
	tests := []struct {
		name    string
		token   string
		want    Claims
		wantMsg string
	}{
		{
			name:  "email sign-in",
			token: hs(t, idClaims(nil)),
			want: Claims{Subject: "learner-1", TokenUse: "id", Email: "asha@example.com", Name: "Asha",
				Username: "asha", SignedInAt: t0, ExpiresAt: t0.Add(time.Hour)},
		},
		{
			name: "phone sign-in",
			token: hs(t, idClaims(jwt.MapClaims{"email": nil, "phone_number": "+919800000000",
				"phone_number_verified": true, "cognito:username": "+919800000000"})),
			want: Claims{Subject: "learner-1", TokenUse: "id", Phone: "+919800000000", PhoneVerified: true, Name: "Asha",
				Username: "+919800000000", SignedInAt: t0, ExpiresAt: t0.Add(time.Hour)},
		},
		{
			name: "Google through Cognito",
			token: hs(t, idClaims(jwt.MapClaims{"cognito:username": "google_1234", "identities": []any{
				map[string]any{"providerName": "Google", "providerType": "Google", "userId": "1234"}}})),
			want: Claims{Subject: "learner-1", TokenUse: "id", Email: "asha@example.com", Name: "Asha",
				Username: "google_1234", IdentityProvider: "Google", SignedInAt: t0, ExpiresAt: t0.Add(time.Hour)},
		},
		{
			name:  "NUL characters dropped from text claims",
			token: hs(t, idClaims(jwt.MapClaims{"name": "As\x00ha", "email": "asha@exam\x00ple.com"})),
			want: Claims{Subject: "learner-1", TokenUse: "id", Email: "asha@example.com", Name: "Asha",
				Username: "asha", SignedInAt: t0, ExpiresAt: t0.Add(time.Hour)},
		},
		{
			name: "identity claims of the wrong type are ignored",
			token: hs(t, idClaims(jwt.MapClaims{"email": 7, "name": []any{"x"}, "cognito:username": nil,
				"phone_number_verified": "yes", "identities": "Google"})),
			want: Claims{Subject: "learner-1", TokenUse: "id", SignedInAt: t0, ExpiresAt: t0.Add(time.Hour)},
		},
		{
			name:  "aud list",
			token: hs(t, idClaims(jwt.MapClaims{"aud": []string{"x", testAudience}, "email": nil, "name": nil})),
			want:  Claims{Subject: "learner-1", TokenUse: "id", Username: "asha", SignedInAt: t0, ExpiresAt: t0.Add(time.Hour)},
		},
		{
			// Cognito's auth_time is the sign-in a refreshed token carries
			// on; iat is the refresh.
			name:  "auth_time",
			token: hs(t, idClaims(jwt.MapClaims{"auth_time": t0.Add(-time.Hour).Unix(), "email": nil, "name": nil})),
			want:  Claims{Subject: "learner-1", TokenUse: "id", Username: "asha", SignedInAt: t0.Add(-time.Hour), ExpiresAt: t0.Add(time.Hour)},
		},
		{
			name:  "auth_time of the wrong type",
			token: hs(t, idClaims(jwt.MapClaims{"auth_time": "yesterday", "email": nil, "name": nil})),
			want:  Claims{Subject: "learner-1", TokenUse: "id", Username: "asha", SignedInAt: t0, ExpiresAt: t0.Add(time.Hour)},
		},
		{name: "access token", token: hs(t, accessClaims(nil)),
			wantMsg: "Invalid token: expected token_use='id', got 'access'"},
		{
			// An OpenID Connect ID token of Auth0 or Keycloak: no token_use.
			name:  "no token_use",
			token: hs(t, idClaims(jwt.MapClaims{"token_use": nil, "email": nil, "name": nil})),
			want:  Claims{Subject: "learner-1", Username: "asha", SignedInAt: t0, ExpiresAt: t0.Add(time.Hour)},
		},
		{name: "wrong aud", token: hs(t, idClaims(jwt.MapClaims{"aud": "other-app"})),
			wantMsg: "Invalid token: Invalid audience"},
		{name: "no aud", token: hs(t, idClaims(jwt.MapClaims{"aud": nil, "client_id": testAudience})),
			wantMsg: "Invalid token: Invalid audience"},
		{name: "wrong issuer", token: hs(t, idClaims(jwt.MapClaims{"iss": "https://evil.test"})),
			wantMsg: "Invalid token: Invalid issuer"},
		{name: "expired", token: hs(t, idClaims(jwt.MapClaims{"exp": t0.Add(-time.Hour).Unix()})),
			wantMsg: "Invalid token: Signature has expired."},
		{name: "no sub", token: hs(t, idClaims(jwt.MapClaims{"sub": nil})),
			wantMsg: "Invalid token: no sub claim"},
		{name: "garbage", token: "\x00\xff.\u00e9.", wantMsg: "Invalid token: malformed token"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := v.VerifyID(context.Background(), tt.token)
			if tt.wantMsg != "" {
				wantErr(t, err, ErrInvalidToken, tt.wantMsg)
				return
			}
			if err != nil {
				t.Fatalf("VerifyID: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("claims (-want +got):\n%s", diff)
			}
		})
	}
}

func TestVerifyWithoutIssuerOrAudience(t *testing.T) {
	v, _ := newVerifier(t, Config{Secret: testSecret})
	tests := []struct {
		name   string
		claims jwt.MapClaims
		verify func(context.Context, string) (Claims, error)
	}{
		{"access token from any issuer and client", accessClaims(jwt.MapClaims{"iss": "https://any.test", "client_id": "any"}), v.VerifyAccess},
		{"access token without iss or client_id", accessClaims(jwt.MapClaims{"iss": nil, "client_id": nil}), v.VerifyAccess},
		{"ID token without aud", idClaims(jwt.MapClaims{"aud": nil}), v.VerifyID},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := tt.verify(context.Background(), hs(t, tt.claims)); err != nil {
				t.Errorf("verify: %v", err)
			}
		})
	}
}

func TestVerifyClockMoves(t *testing.T) {
	v, clock := newVerifier(t, hsConfig())
	token := hs(t, accessClaims(nil)) // expires at t0+1h
	if _, err := v.VerifyAccess(context.Background(), token); err != nil {
		t.Fatalf("at t0: %v", err)
	}
	clock.Advance(time.Hour + DefaultLeeway)
	_, err := v.VerifyAccess(context.Background(), token)
	wantErr(t, err, ErrInvalidToken, "Invalid token: Signature has expired.")
}

func TestNotConfigured(t *testing.T) {
	v, err := NewVerifier(Config{})
	if err != nil {
		t.Fatal(err)
	}
	if v.Configured() {
		t.Error("Configured() = true for an empty config")
	}
	for name, verify := range map[string]func(context.Context, string) (Claims, error){
		"access": v.VerifyAccess, "id": v.VerifyID,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := verify(context.Background(), hs(t, accessClaims(nil)))
			wantErr(t, err, ErrNotConfigured, "Authentication not configured")
		})
	}
}

func TestNewVerifierRejectsInvalidConfig(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
	}{
		{"short secret", Config{Secret: "short"}},
		{"JWKS URL without scheme", Config{JWKSURL: "issuer.test/jwks.json"}},
		{"negative leeway", Config{Secret: testSecret, Leeway: -time.Second}},
		// Without an audience, the provider's tokens for any of its
		// applications would be accepted.
		{"JWKS URL without audience", Config{JWKSURL: "https://issuer.test/jwks.json", Issuer: testIssuer}},
		{"JWKS URL with an audience list of no entries", Config{JWKSURL: "https://issuer.test/jwks.json", Issuer: testIssuer, Audience: " , "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := NewVerifier(tt.cfg); err == nil {
				t.Error("NewVerifier succeeded")
			}
		})
	}
}

// TestAlgorithmConfusion covers the attacks that turn an RSA public key
// into an HMAC secret, against a verifier that has both a secret and a JWKS.
func TestAlgorithmConfusion(t *testing.T) {
	keys := testKeys(t)
	srv := newJWKSServer(t, map[string]any{"k1": keys.rsa1}, nil)
	cfg := hsConfig()
	cfg.JWKSURL = srv.URL
	v, _ := newVerifier(t, cfg)

	pubDER, err := x509.MarshalPKIXPublicKey(&keys.rsa1.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	pubPEM := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER})

	tests := []struct {
		name    string
		token   string
		wantMsg string
	}{
		{"RS256 header, HMAC with the shared secret",
			forge(t, map[string]any{"alg": "RS256", "kid": "k1"}, accessClaims(nil), []byte(testSecret)),
			"Invalid token: Signature verification failed."},
		{"RS256 header, HMAC with the public key",
			forge(t, map[string]any{"alg": "RS256", "kid": "k1"}, accessClaims(nil), pubPEM),
			"Invalid token: Signature verification failed."},
		{"HS256, HMAC with the public key PEM",
			forge(t, map[string]any{"alg": "HS256", "kid": "k1"}, accessClaims(nil), pubPEM),
			"Invalid token: Signature verification failed."},
		{"HS256, HMAC with the public key DER",
			forge(t, map[string]any{"alg": "HS256", "kid": "k1"}, accessClaims(nil), pubDER),
			"Invalid token: Signature verification failed."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := v.VerifyAccess(context.Background(), tt.token)
			wantErr(t, err, ErrInvalidToken, tt.wantMsg)
		})
	}

	t.Run("both kinds of valid token", func(t *testing.T) {
		for _, token := range []string{hs(t, accessClaims(nil)), sign(t, jwt.SigningMethodRS256, keys.rsa1, "k1", accessClaims(nil))} {
			if _, err := v.VerifyAccess(context.Background(), token); err != nil {
				t.Errorf("VerifyAccess: %v", err)
			}
		}
	})
}

func TestAdmin(t *testing.T) {
	tests := []struct {
		name   string
		rule   string
		claims jwt.MapClaims
		want   bool
	}{
		{"role string", "role=admin", jwt.MapClaims{"role": "admin"}, true},
		{"other role", "role=admin", jwt.MapClaims{"role": "learner"}, false},
		{"role differs in case", "role=admin", jwt.MapClaims{"role": "Admin"}, false},
		{"no role", "role=admin", jwt.MapClaims{}, false},
		{"role list", "role=admin", jwt.MapClaims{"role": []any{"learner", "admin"}}, true},
		{"cognito groups", "cognito:groups=admins", jwt.MapClaims{"cognito:groups": []any{"teachers", "admins"}}, true},
		{"cognito groups without it", "cognito:groups=admins", jwt.MapClaims{"cognito:groups": []any{"teachers"}}, false},
		{"keycloak realm roles", "realm_access.roles=admin", jwt.MapClaims{"realm_access": map[string]any{"roles": []any{"admin"}}}, true},
		{"path through a non-object", "realm_access.roles=admin", jwt.MapClaims{"realm_access": "admin"}, false},
		{"namespaced claim with dots", "https://tutord.test/roles=admin", jwt.MapClaims{"https://tutord.test/roles": []any{"admin"}}, true},
		{"boolean", "admin=true", jwt.MapClaims{"admin": true}, true},
		{"boolean false", "admin=true", jwt.MapClaims{"admin": false}, false},
		{"number", "level=9", jwt.MapClaims{"level": 9.0}, false},
		{"list of non-strings", "role=admin", jwt.MapClaims{"role": []any{1, map[string]any{"admin": true}}}, false},
		// An OAuth scope claim (Cognito resource servers, Keycloak and
		// Auth0 client scopes) is a space-separated list (RFC 6749 §3.3,
		// RFC 9068 §2.2.3): a member matches, a substring does not.
		{"scope member", "scope=tutord/admin", jwt.MapClaims{"scope": "aws.cognito.signin.user.admin tutord/admin"}, true},
		{"scope member among others", "scope=admin", jwt.MapClaims{"scope": "openid profile admin"}, true},
		{"scope with a prefix", "scope=admin", jwt.MapClaims{"scope": "openid tutord/admin"}, false},
		{"scope substring", "scope=admin", jwt.MapClaims{"scope": "openid superadmin"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rule, err := ParseAdminRule(tt.rule)
			if err != nil {
				t.Fatal(err)
			}
			cfg := hsConfig()
			cfg.Admin = rule
			v, _ := newVerifier(t, cfg)
			c, err := v.VerifyAccess(context.Background(), hs(t, accessClaims(tt.claims)))
			if err != nil {
				t.Fatal(err)
			}
			if c.Admin != tt.want {
				t.Errorf("Admin = %v, want %v", c.Admin, tt.want)
			}
		})
	}

	t.Run("zero rule", func(t *testing.T) {
		if (AdminRule{}).Match(map[string]any{"": "", "role": "admin"}) {
			t.Error("the zero rule matched")
		}
	})
}

func TestParseAdminRule(t *testing.T) {
	tests := []struct {
		in      string
		want    AdminRule
		wantErr bool
	}{
		{in: "role=admin", want: AdminRule{Claim: "role", Value: "admin"}},
		{in: " cognito:groups = admins ", want: AdminRule{Claim: "cognito:groups", Value: "admins"}},
		{in: "https://x.test/roles=a=b", want: AdminRule{Claim: "https://x.test/roles", Value: "a=b"}},
		{in: "", wantErr: true},
		{in: "admin", wantErr: true},
		{in: "=admin", wantErr: true},
		{in: "role=", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseAdminRule(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestAuthProvider(t *testing.T) {
	tests := []struct {
		name string
		c    Claims
		want string
	}{
		{"email", Claims{Email: "a@example.com", Username: "a"}, "email"},
		{"nothing", Claims{}, "email"},
		{"google", Claims{IdentityProvider: "Google", PhoneVerified: true}, "google"},
		{"verified phone", Claims{PhoneVerified: true, Email: "a@example.com"}, "phone"},
		{"phone username", Claims{Username: "+919800000000"}, "phone"},
		{"other federation", Claims{IdentityProvider: "SignInWithApple", Email: "a@example.com"}, "email"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := AuthProvider(tt.c); got != tt.want {
				t.Errorf("AuthProvider = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestBearerToken(t *testing.T) {
	tests := []struct {
		header string
		want   string
		ok     bool
	}{
		{"Bearer abc.def.ghi", "abc.def.ghi", true},
		{"bearer abc", "abc", true},
		{"BEARER  abc ", "abc", true},
		{"  Bearer abc", "abc", true},
		{"", "", false},
		{"Bearer", "", false},
		{"Bearer ", "", false},
		{"Basic dXNlcjpwYXNz", "", false},
		{"abc.def.ghi", "", false},
		{"Bearerabc", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.header, func(t *testing.T) {
			got, ok := BearerToken(tt.header)
			if got != tt.want || ok != tt.ok {
				t.Errorf("BearerToken(%q) = %q, %v; want %q, %v", tt.header, got, ok, tt.want, tt.ok)
			}
		})
	}
}

// Auth0's and Keycloak's ID tokens have no token_use (only Cognito sets
// it): they sign a learner in all the same, their audience checked.
func TestVerifyIDOpenIDConnectTokens(t *testing.T) {
	keys := testKeys(t)
	srv := newJWKSServer(t, map[string]any{"kc": keys.rsa1}, nil)
	v, _ := newVerifier(t, jwksConfig(srv.URL))
	base := jwt.MapClaims{
		"iss": testIssuer, "aud": testAudience, "sub": "0f3c-learner",
		"iat": t0.Unix(), "exp": t0.Add(5 * time.Minute).Unix(),
		"email": "asha@example.com", "name": "Asha",
	}
	tokens := map[string]jwt.MapClaims{
		"Keycloak ID token": with(base, jwt.MapClaims{"typ": "ID", "azp": testAudience, "preferred_username": "asha",
			"auth_time": t0.Unix(), "session_state": "s1", "email_verified": true}),
		"Auth0 ID token": with(base, jwt.MapClaims{"nickname": "asha", "sid": "s1"}),
	}
	for name, claims := range tokens {
		t.Run(name, func(t *testing.T) {
			c, err := v.VerifyID(context.Background(), sign(t, jwt.SigningMethodRS256, keys.rsa1, "kc", claims))
			if err != nil {
				t.Fatalf("VerifyID refused a valid OpenID Connect ID token: %v", err)
			}
			if c.Subject != "0f3c-learner" {
				t.Errorf("Subject = %q", c.Subject)
			}
		})
	}
}

// Auth0 names the API in its access tokens' aud and the client in its ID
// tokens': with both configured (a comma-separated TUTORD_JWT_AUDIENCE),
// both are taken, and a token for neither is refused.
func TestSeveralAudiences(t *testing.T) {
	cfg := hsConfig()
	cfg.Audience = "https://api.tutord.example, " + testAudience
	v, _ := newVerifier(t, cfg)
	ctx := context.Background()
	if _, err := v.VerifyAccess(ctx, hs(t, accessClaims(jwt.MapClaims{"client_id": nil, "aud": []string{"https://api.tutord.example", "https://tenant.auth0.com/userinfo"}}))); err != nil {
		t.Errorf("access token for the API: %v", err)
	}
	if _, err := v.VerifyAccess(ctx, hs(t, accessClaims(jwt.MapClaims{"client_id": testAudience}))); err != nil {
		t.Errorf("access token with the client as client_id: %v", err)
	}
	if _, err := v.VerifyID(ctx, hs(t, idClaims(jwt.MapClaims{"aud": testAudience}))); err != nil {
		t.Errorf("ID token for the client: %v", err)
	}
	if _, err := v.VerifyAccess(ctx, hs(t, accessClaims(jwt.MapClaims{"client_id": nil, "aud": "other-api"}))); err == nil {
		t.Error("accepted an access token for another audience")
	}
	if _, err := v.VerifyID(ctx, hs(t, idClaims(jwt.MapClaims{"aud": "https://api.tutord.example, " + testAudience}))); err == nil {
		t.Error("accepted an ID token whose aud is the configured list as one string")
	}
}

func TestAudiences(t *testing.T) {
	for in, want := range map[string][]string{"": nil, "a": {"a"}, " a , b,,": {"a", "b"}} {
		if got := Audiences(in); !slices.Equal(got, want) {
			t.Errorf("Audiences(%q) = %q, want %q", in, got, want)
		}
	}
	if got := FirstAudience(" a , b"); got != "a" {
		t.Errorf("FirstAudience = %q", got)
	}
}

// RFC 7515 §4.1.11: a token whose header marks an extension critical is
// refused, as tutord understands none.
func TestCritHeaderIsRefused(t *testing.T) {
	v, _ := newVerifier(t, hsConfig())
	token := forge(t, map[string]any{"alg": "HS256", "typ": "JWT", "crit": []string{"exp_restricted"}, "exp_restricted": true},
		accessClaims(nil), []byte(testSecret))
	if _, err := v.VerifyAccess(context.Background(), token); err == nil {
		t.Error(`accepted a token with an unknown critical header extension ("crit")`)
	}
}
