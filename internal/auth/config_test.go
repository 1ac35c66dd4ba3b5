package auth

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestConfigFromEnv(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		want    Config
		wantErr string
	}{
		{
			name: "empty",
			want: Config{Leeway: DefaultLeeway, Admin: AdminRule{Claim: "role", Value: "admin"}},
		},
		{
			name: "everything",
			env: map[string]string{
				EnvSecret: " " + testSecret + "\n", EnvJWKSURL: "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_X/.well-known/jwks.json",
				EnvIssuer: testIssuer, EnvAudience: testAudience, EnvLeeway: "5s", EnvAdmin: "cognito:groups=admins",
			},
			want: Config{
				Secret: testSecret, JWKSURL: "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_X/.well-known/jwks.json",
				Issuer: testIssuer, Audience: testAudience, Leeway: 5 * time.Second,
				Admin: AdminRule{Claim: "cognito:groups", Value: "admins"},
			},
		},
		{name: "short secret", env: map[string]string{EnvSecret: "dev"}, wantErr: EnvSecret},
		{name: "bad leeway", env: map[string]string{EnvLeeway: "30"}, wantErr: EnvLeeway},
		{name: "negative leeway", env: map[string]string{EnvLeeway: "-1s"}, wantErr: EnvLeeway},
		{name: "JWKS URL without scheme", env: map[string]string{EnvJWKSURL: "example.com/jwks"}, wantErr: EnvJWKSURL},
		{name: "JWKS URL of another scheme", env: map[string]string{EnvJWKSURL: "file:///etc/jwks.json"}, wantErr: EnvJWKSURL},
		{name: "JWKS URL without host", env: map[string]string{EnvJWKSURL: "https:///jwks"}, wantErr: EnvJWKSURL},
		{name: "JWKS URL unparsable", env: map[string]string{EnvJWKSURL: "http://[::1"}, wantErr: EnvJWKSURL},
		{name: "bad admin rule", env: map[string]string{EnvAdmin: "admin"}, wantErr: EnvAdmin},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ConfigFromEnv(func(k string) string { return tt.env[k] })
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to name %s", err, tt.wantErr)
				}
				if strings.Contains(err.Error(), "dev") && tt.env[EnvSecret] == "dev" {
					t.Errorf("error repeats the secret: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreFields(Config{}, "Now", "HTTPClient")); diff != "" {
				t.Errorf("config (-want +got):\n%s", diff)
			}
		})
	}
}

func TestConfigMasksSecret(t *testing.T) {
	cfg := Config{Secret: testSecret, JWKSURL: "https://user:pass@issuer.test/jwks", Admin: AdminRule{Claim: "role", Value: "admin"}}
	for _, format := range []string{"%v", "%+v", "%#v", "%s"} {
		s := fmt.Sprintf(format, cfg)
		if strings.Contains(s, testSecret) || strings.Contains(s, "pass@") {
			t.Errorf("%s prints a secret: %s", format, s)
		}
	}
	if s := cfg.LogValue().String(); strings.Contains(s, testSecret) || strings.Contains(s, "pass@") {
		t.Errorf("LogValue prints a secret: %s", s)
	}
}

// An operator grants admin through an OAuth scope, the usual way with a
// Cognito resource server (access tokens carry "scope":
// "aws.cognito.signin.user.admin tutord/admin") or Keycloak and Auth0
// client scopes: TUTORD_JWT_ADMIN_CLAIM=scope=tutord/admin. The scope
// claim is a list written space-separated (RFC 6749 §3.3, RFC 9068
// §2.2.3): a member matches, as a list claim's does; a substring does not.
// The whole string was compared, and nobody was ever an admin.
func TestAdminRuleOnScopeClaim(t *testing.T) {
	for _, tt := range []struct {
		rule, scope string
		want        bool
	}{
		{"scope=tutord/admin", "aws.cognito.signin.user.admin tutord/admin", true},
		{"scope=admin", "openid profile admin", true},
		{"scope=admin", "openid tutord/admin", false},
		{"scope=admin", "openid superadmin", false},
	} {
		rule, err := ParseAdminRule(tt.rule)
		if err != nil {
			t.Fatal(err)
		}
		cfg := hsConfig()
		cfg.Admin = rule
		v, _ := newVerifier(t, cfg)
		c, err := v.VerifyAccess(context.Background(), hs(t, accessClaims(jwt.MapClaims{"scope": tt.scope})))
		if err != nil {
			t.Fatal(err)
		}
		if c.Admin != tt.want {
			t.Errorf("rule %s, scope %q: Admin = %v, want %v", tt.rule, tt.scope, c.Admin, tt.want)
		}
	}
}
