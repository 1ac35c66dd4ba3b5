package main

import (
	"context"
	"flag"
	"fmt"
	"time"

	"github.com/tutord/tutord/internal/auth"
	"github.com/tutord/tutord/internal/config"
)

// runToken mints a development token signed with TUTORD_JWT_SECRET:
//
//	tutord token --sub ID [--admin] [--ttl 24h] [--id] [--email E] [--name N]
func runToken(_ context.Context, e env, args []string) error {
	var sub, email, name string
	var admin, idToken bool
	var ttl time.Duration
	cfg, rest, err := loadConfig(e, "token", args, func(fs *flag.FlagSet, _ *config.Config) {
		fs.StringVar(&sub, "sub", "", "the learner's subject (required)")
		fs.BoolVar(&admin, "admin", false, "make the token an admin's")
		ttl = 24 * time.Hour
		fs.Var((*durationFlag)(&ttl), "ttl", "how long the token is valid, a `duration` such as 24h or 90m")
		fs.BoolVar(&idToken, "id", false, "mint an ID token (for /auth/sync) instead of an access token")
		fs.StringVar(&email, "email", "", "email claim")
		fs.StringVar(&name, "name", "", "name claim")
	})
	if err != nil {
		return err
	}
	if len(rest) > 0 || sub == "" {
		return usageError{"token needs --sub ID and takes no arguments"}
	}
	if ttl <= 0 {
		return usageError{"--ttl must be positive"}
	}
	if cfg.JWTSecret == "" {
		return fmt.Errorf("token: TUTORD_JWT_SECRET is not set; tokens can only be minted with a shared secret")
	}
	// The check serve makes of the secret, whose error names the variable
	// (the secret has no flag); a server would refuse to start with it.
	if err := (auth.Config{Secret: cfg.JWTSecret}).Validate(); err != nil {
		return err
	}
	rule, err := auth.ParseAdminRule(cfg.JWTAdminClaim)
	if err != nil {
		return fmt.Errorf("TUTORD_JWT_ADMIN_CLAIM: %w", err)
	}
	use := "access"
	if idToken {
		use = "id"
	}
	tok, err := auth.Mint([]byte(cfg.JWTSecret), auth.MintOptions{
		Subject: sub, TokenUse: use, Admin: admin, AdminRule: rule, TTL: ttl,
		Issuer: cfg.JWTIssuer, ClientID: auth.FirstAudience(cfg.JWTAudience), Email: email, Name: name,
	})
	if err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, tok)
	return nil
}
