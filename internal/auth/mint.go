package auth

import (
	"cmp"
	"errors"
	"fmt"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// DefaultTTL is the lifetime of a minted token when MintOptions.TTL is zero.
const DefaultTTL = time.Hour

// MintOptions describe a development token. Only Subject is required.
type MintOptions struct {
	Subject string
	// TokenUse is UseAccess (the default) or UseID.
	TokenUse string
	// Admin adds the claim of AdminRule (the default rule when zero), so
	// that a Verifier with the same rule treats the caller as an admin.
	Admin     bool
	AdminRule AdminRule
	// TTL is the token's lifetime; zero means DefaultTTL.
	TTL time.Duration
	// IssuedAt is the iat claim; zero means now.
	IssuedAt time.Time
	// Issuer is the iss claim, omitted when empty.
	Issuer string
	// ClientID is the audience: aud of an ID token, client_id of an access
	// token, as Cognito does. Omitted when empty.
	ClientID string
	// Email, Name and Username are identity claims, omitted when empty.
	// Username goes into cognito:username (ID token) or username (access
	// token).
	Email    string
	Name     string
	Username string
}

// Mint returns a token signed with the HS256 secret, shaped like Cognito's
// tokens so that the reference frontend accepts it too.
func Mint(secret []byte, o MintOptions) (string, error) {
	if len(secret) < MinSecretLen {
		return "", fmt.Errorf("mint: the secret must be at least %d bytes", MinSecretLen)
	}
	if o.Subject == "" {
		return "", errors.New("mint: empty subject")
	}
	use := cmp.Or(o.TokenUse, UseAccess)
	if use != UseAccess && use != UseID {
		return "", fmt.Errorf("mint: token use %q is not %q or %q", o.TokenUse, UseAccess, UseID)
	}
	if o.TTL < 0 {
		return "", fmt.Errorf("mint: negative TTL %s", o.TTL)
	}
	ttl := cmp.Or(o.TTL, DefaultTTL)
	iat := o.IssuedAt
	if iat.IsZero() {
		iat = time.Now()
	}

	claims := jwt.MapClaims{}
	if o.Admin {
		rule := o.AdminRule
		if rule.Claim == "" {
			rule, _ = ParseAdminRule(DefaultAdminRule)
		}
		claims[rule.Claim] = rule.Value
	}
	set := func(name, value string) {
		if value != "" {
			claims[name] = value
		}
	}
	set("iss", o.Issuer)
	set("email", o.Email)
	set("name", o.Name)
	if use == UseID {
		set("aud", o.ClientID)
		set("cognito:username", o.Username)
	} else {
		set("client_id", o.ClientID)
		set("username", o.Username)
	}
	// Last, so that no admin claim can replace them.
	claims["sub"] = o.Subject
	claims["token_use"] = use
	claims["iat"] = iat.Unix()
	claims["exp"] = iat.Add(ttl).Unix()

	return jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(secret)
}
