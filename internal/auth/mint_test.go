package auth

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestMintVerifies(t *testing.T) {
	v, _ := newVerifier(t, hsConfig())
	groups := AdminRule{Claim: "cognito:groups", Value: "admins"}
	tests := []struct {
		name   string
		opts   MintOptions
		verify func(*Verifier) func(context.Context, string) (Claims, error)
		rule   AdminRule
		want   Claims
	}{
		{
			name:   "access token",
			opts:   MintOptions{Subject: "learner-1", Issuer: testIssuer, ClientID: testAudience, Username: "asha"},
			verify: func(v *Verifier) func(context.Context, string) (Claims, error) { return v.VerifyAccess },
			want:   Claims{Subject: "learner-1", TokenUse: "access", Username: "asha", SignedInAt: t0, ExpiresAt: t0.Add(DefaultTTL)},
		},
		{
			name: "ID token",
			opts: MintOptions{Subject: "learner-1", TokenUse: UseID, Issuer: testIssuer, ClientID: testAudience,
				Email: "asha@example.com", Name: "Asha", Username: "asha", TTL: 30 * 24 * time.Hour},
			verify: func(v *Verifier) func(context.Context, string) (Claims, error) { return v.VerifyID },
			want: Claims{Subject: "learner-1", TokenUse: "id", Email: "asha@example.com", Name: "Asha", Username: "asha",
				SignedInAt: t0, ExpiresAt: t0.Add(30 * 24 * time.Hour)},
		},
		{
			name:   "admin with the default rule",
			opts:   MintOptions{Subject: "root", Admin: true, Issuer: testIssuer, ClientID: testAudience},
			verify: func(v *Verifier) func(context.Context, string) (Claims, error) { return v.VerifyAccess },
			rule:   AdminRule{Claim: "role", Value: "admin"},
			want:   Claims{Subject: "root", TokenUse: "access", Admin: true, SignedInAt: t0, ExpiresAt: t0.Add(DefaultTTL)},
		},
		{
			name:   "admin with a group rule",
			opts:   MintOptions{Subject: "root", Admin: true, AdminRule: groups, Issuer: testIssuer, ClientID: testAudience},
			verify: func(v *Verifier) func(context.Context, string) (Claims, error) { return v.VerifyAccess },
			rule:   groups,
			want:   Claims{Subject: "root", TokenUse: "access", Admin: true, SignedInAt: t0, ExpiresAt: t0.Add(DefaultTTL)},
		},
		{
			name:   "an admin rule cannot replace sub",
			opts:   MintOptions{Subject: "learner-1", Admin: true, AdminRule: AdminRule{Claim: "sub", Value: "root"}, Issuer: testIssuer, ClientID: testAudience},
			verify: func(v *Verifier) func(context.Context, string) (Claims, error) { return v.VerifyAccess },
			want:   Claims{Subject: "learner-1", TokenUse: "access", SignedInAt: t0, ExpiresAt: t0.Add(DefaultTTL)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := hsConfig()
			cfg.Admin = tt.rule
			v, _ := newVerifier(t, cfg)
			tt.opts.IssuedAt = t0
			token, err := Mint([]byte(testSecret), tt.opts)
			if err != nil {
				t.Fatalf("Mint: %v", err)
			}
			got, err := tt.verify(v)(context.Background(), token)
			if err != nil {
				t.Fatalf("verify: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("claims (-want +got):\n%s", diff)
			}
		})
	}

	t.Run("expired", func(t *testing.T) {
		token, err := Mint([]byte(testSecret), MintOptions{Subject: "learner-1", Issuer: testIssuer, ClientID: testAudience,
			IssuedAt: t0.Add(-2 * time.Hour), TTL: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		_, err = v.VerifyAccess(context.Background(), token)
		wantErr(t, err, ErrInvalidToken, "Invalid token: Signature has expired.")
	})
}

func TestMintErrors(t *testing.T) {
	tests := []struct {
		name   string
		secret string
		opts   MintOptions
		want   string
	}{
		{"short secret", "short", MintOptions{Subject: "s"}, "at least 32 bytes"},
		{"no subject", testSecret, MintOptions{}, "empty subject"},
		{"bad token use", testSecret, MintOptions{Subject: "s", TokenUse: "refresh"}, `token use "refresh"`},
		{"negative TTL", testSecret, MintOptions{Subject: "s", TTL: -time.Second}, "negative TTL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Mint([]byte(tt.secret), tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}
