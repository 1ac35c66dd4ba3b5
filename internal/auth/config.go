package auth

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The environment variables ConfigFromEnv reads.
const (
	EnvSecret   = "TUTORD_JWT_SECRET"
	EnvJWKSURL  = "TUTORD_JWT_JWKS_URL"
	EnvIssuer   = "TUTORD_JWT_ISSUER"
	EnvAudience = "TUTORD_JWT_AUDIENCE"
	EnvLeeway   = "TUTORD_JWT_LEEWAY"
	EnvAdmin    = "TUTORD_JWT_ADMIN_CLAIM"
)

// Defaults of ConfigFromEnv.
const (
	DefaultLeeway = 30 * time.Second
	// DefaultAdminRule is the admin rule when TUTORD_JWT_ADMIN_CLAIM is unset.
	DefaultAdminRule = "role=admin"
)

// MinSecretLen is the shortest HS256 secret accepted: a shorter key is
// weaker than the hash (RFC 7518 §3.2).
const MinSecretLen = 32

// Config says which tokens a Verifier accepts. At least one of Secret and
// JWKSURL must be set for any token to be accepted. Format it freely (%v,
// slog): the secret is masked.
type Config struct {
	// Secret is the HS256 shared secret, at least MinSecretLen bytes.
	Secret string
	// JWKSURL is the key set of an OpenID provider (Cognito, Auth0,
	// Keycloak), for RS256 and ES256 tokens, e.g.
	// https://cognito-idp.<region>.amazonaws.com/<pool>/.well-known/jwks.json.
	JWKSURL string
	// Issuer, when set, must equal the iss claim.
	Issuer string
	// Audience, when set, is the client id: it must be in the aud claim, or
	// equal client_id for access tokens without aud (Cognito's). It may
	// list several, comma-separated, any of which will do: Auth0's access
	// tokens name the API, its ID tokens the client (see Audiences). It
	// must name at least one with JWKSURL.
	Audience string
	// Leeway absorbs clock skew in the exp and nbf checks.
	Leeway time.Duration
	// Admin says which claim makes a caller an admin. The zero rule makes
	// nobody an admin.
	Admin AdminRule

	// HTTPClient fetches the JWKS; nil means http.DefaultClient. Each
	// fetch is bounded to 5 seconds either way. Not read from the
	// environment.
	HTTPClient *http.Client
	// Now is the clock for expiry checks and JWKS caching; nil means
	// time.Now. Not read from the environment.
	Now func() time.Time
}

// ConfigFromEnv reads the configuration through getenv (os.Getenv in main,
// a map lookup in tests) and validates it. Errors name the variable but
// never repeat the secret.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	get := func(k string) string { return strings.TrimSpace(getenv(k)) }
	cfg := Config{
		Secret:   get(EnvSecret),
		JWKSURL:  get(EnvJWKSURL),
		Issuer:   get(EnvIssuer),
		Audience: get(EnvAudience),
		Leeway:   DefaultLeeway,
	}
	if v := get(EnvLeeway); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return Config{}, fmt.Errorf("%s: %q is not a duration such as 30s", EnvLeeway, v)
		}
		cfg.Leeway = d
	}
	rule := get(EnvAdmin)
	if rule == "" {
		rule = DefaultAdminRule
	}
	r, err := ParseAdminRule(rule)
	if err != nil {
		return Config{}, fmt.Errorf("%s: %w", EnvAdmin, err)
	}
	cfg.Admin = r
	return cfg, cfg.Validate()
}

// Configured reports whether any token can be verified: a secret or a JWKS
// URL is set.
func (c Config) Configured() bool { return c.Secret != "" || c.JWKSURL != "" }

// Validate reports the first invalid setting.
func (c Config) Validate() error {
	if c.Secret != "" && len(c.Secret) < MinSecretLen {
		return fmt.Errorf("%s: must be at least %d bytes, got %d", EnvSecret, MinSecretLen, len(c.Secret))
	}
	if c.JWKSURL != "" {
		// The URL is not repeated: it may carry credentials.
		u, err := url.Parse(c.JWKSURL)
		switch {
		case err != nil:
			return fmt.Errorf("%s: not a valid URL", EnvJWKSURL)
		case u.Scheme != "https" && u.Scheme != "http":
			return fmt.Errorf("%s: must start with https:// or http://", EnvJWKSURL)
		case u.Host == "":
			return fmt.Errorf("%s: has no host", EnvJWKSURL)
		}
	}
	if c.JWKSURL != "" && len(Audiences(c.Audience)) == 0 {
		// An identity provider signs tokens for every application it
		// serves: with no audience to check, any of them would be accepted.
		// A list of empty entries (",") counts as none.
		return fmt.Errorf("%s: required with %s: this application's client id (several comma-separated), got %q", EnvAudience, EnvJWKSURL, c.Audience)
	}
	if c.Leeway < 0 {
		return fmt.Errorf("%s: must not be negative, got %s", EnvLeeway, c.Leeway)
	}
	return nil
}

// String describes c with the secret masked.
func (c Config) String() string {
	return fmt.Sprintf("secret %s, jwks %s, issuer %q, audience %q, leeway %s, admin %s",
		mask(c.Secret), orUnset(redactURL(c.JWKSURL)), c.Issuer, c.Audience, c.Leeway, c.Admin)
}

// GoString keeps %#v from printing the secret.
func (c Config) GoString() string { return "auth.Config{" + c.String() + "}" }

// LogValue logs c with the secret masked.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("secret", mask(c.Secret)),
		slog.String("jwks_url", orUnset(redactURL(c.JWKSURL))),
		slog.String("issuer", c.Issuer),
		slog.String("audience", c.Audience),
		slog.Duration("leeway", c.Leeway),
		slog.String("admin", c.Admin.String()),
	)
}

func mask(secret string) string {
	if secret == "" {
		return "unset"
	}
	return "set"
}

func orUnset(s string) string {
	if s == "" {
		return "unset"
	}
	return s
}

func redactURL(raw string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "(invalid)"
	}
	return u.Redacted()
}

// AdminRule makes a caller an admin when the token's claim Claim holds
// Value: equal to it (a string, or "true"/"false" for a boolean), or, for a
// list claim such as cognito:groups, containing it. A Claim that names no
// top-level claim is read as a dotted path into nested objects, so that
// Keycloak's realm_access.roles works.
type AdminRule struct {
	Claim string
	Value string
}

// ParseAdminRule parses "claim=value", e.g. "role=admin" or
// "cognito:groups=admin". The claim may contain dots and colons, the value
// anything; the first "=" separates them.
func ParseAdminRule(s string) (AdminRule, error) {
	claim, value, ok := strings.Cut(s, "=")
	claim, value = strings.TrimSpace(claim), strings.TrimSpace(value)
	if !ok || claim == "" || value == "" {
		return AdminRule{}, errors.New(`admin rule must look like claim=value, e.g. role=admin or cognito:groups=admin, got ` + strconv.Quote(s))
	}
	return AdminRule{Claim: claim, Value: value}, nil
}

// String returns the rule as "claim=value", or "none" for the zero rule.
func (r AdminRule) String() string {
	if r.Claim == "" {
		return "none"
	}
	return r.Claim + "=" + r.Value
}

// Match reports whether claims (a decoded JWT payload) satisfy the rule. A
// list claim matches a member, and so does the space-separated string of
// an OAuth scope claim (scope, scp).
func (r AdminRule) Match(claims map[string]any) bool {
	if r.Claim == "" {
		return false
	}
	v, ok := claims[r.Claim]
	if !ok {
		v = lookupPath(claims, r.Claim)
	}
	switch v := v.(type) {
	case string:
		if r.Claim == "scope" || r.Claim == "scp" {
			// OAuth scopes are a list, written space-separated
			// (RFC 6749 §3.3, RFC 9068 §2.2.3).
			return slices.Contains(strings.Fields(v), r.Value)
		}
		return v == r.Value
	case bool:
		return strconv.FormatBool(v) == r.Value
	case []any:
		for _, e := range v {
			if s, ok := e.(string); ok && s == r.Value {
				return true
			}
		}
	}
	return false
}

// lookupPath follows a dotted path through nested objects, or returns nil.
func lookupPath(claims map[string]any, path string) any {
	var v any = claims
	for name := range strings.SplitSeq(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[name]
	}
	return v
}

// Audiences returns the audiences of a comma-separated list, spaces and
// empty entries dropped: "api://tutord, spa-client" is two.
func Audiences(list string) []string {
	var out []string
	for _, a := range strings.Split(list, ",") {
		if a = strings.TrimSpace(a); a != "" {
			out = append(out, a)
		}
	}
	return out
}

// FirstAudience returns the first audience of a comma-separated list, the
// one a minted token names; "" for none.
func FirstAudience(list string) string {
	if a := Audiences(list); len(a) > 0 {
		return a[0]
	}
	return ""
}
