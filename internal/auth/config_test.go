package auth

import (
	"fmt"
	"strings"
	"testing"
	"time"

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
		// An identity provider signs tokens for other applications too:
		// its key set comes with an audience, and a list of empty entries
		// (a template joining two missing values) is none.
		{name: "JWKS URL without audience", env: map[string]string{EnvJWKSURL: "https://idp.test/jwks", EnvIssuer: testIssuer}, wantErr: EnvAudience},
		{name: "JWKS URL with audience \",\"", env: map[string]string{EnvJWKSURL: "https://idp.test/jwks", EnvIssuer: testIssuer, EnvAudience: ","}, wantErr: EnvAudience},
		{name: "JWKS URL with audience \" , \"", env: map[string]string{EnvJWKSURL: "https://idp.test/jwks", EnvIssuer: testIssuer, EnvAudience: " , "}, wantErr: EnvAudience},
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
