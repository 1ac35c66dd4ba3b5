// Package auth verifies the bearer tokens of tutord's API: JWTs signed with
// an HS256 shared secret or by an OpenID provider whose keys are published
// as a JWKS (Cognito, Auth0, Keycloak). It also mints development tokens
// with the shared secret.
//
// Access tokens (token_use "access", or none) authenticate every route;
// ID tokens (token_use "id", or none) only sign a learner in. Claims follow
// Cognito's, which the reference frontend sends.
package auth

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// maxTokenLen bounds the work spent on a token: real ones are a few KiB.
const maxTokenLen = 32 << 10

// Token uses, the values of the token_use claim.
const (
	UseAccess = "access"
	UseID     = "id"
)

// Verifier verifies tokens. It is safe for concurrent use.
type Verifier struct {
	cfg       Config
	audiences []string // of cfg.Audience
	secret    []byte
	keys      *keySet // nil without a JWKS URL
	methods   []string
	parser    *jwt.Parser
}

// NewVerifier returns a Verifier for cfg, or the error of cfg.Validate: a
// JWKS URL without an audience is refused there, so that only a Verifier
// of the shared secret alone skips the audience check. It does not fetch
// the JWKS: that happens when the first token signed by the provider
// arrives. A Verifier of an unconfigured Config rejects every token with
// ErrNotConfigured.
func NewVerifier(cfg Config) (*Verifier, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	v := &Verifier{cfg: cfg, audiences: Audiences(cfg.Audience)}
	if cfg.Secret != "" {
		v.secret = []byte(cfg.Secret)
		v.methods = append(v.methods, jwt.SigningMethodHS256.Alg())
	}
	if cfg.JWKSURL != "" {
		v.keys = newKeySet(cfg.JWKSURL, cfg.HTTPClient, cfg.Now)
		v.methods = append(v.methods, jwt.SigningMethodRS256.Alg(), jwt.SigningMethodES256.Alg())
	}
	opts := []jwt.ParserOption{
		jwt.WithValidMethods(v.methods),
		jwt.WithExpirationRequired(),
		jwt.WithLeeway(cfg.Leeway),
		jwt.WithTimeFunc(cfg.Now),
	}
	if cfg.Issuer != "" {
		opts = append(opts, jwt.WithIssuer(cfg.Issuer))
	}
	v.parser = jwt.NewParser(opts...)
	return v, nil
}

// Configured reports whether any token can be verified.
func (v *Verifier) Configured() bool { return v.cfg.Configured() }

// Leeway returns the clock skew the Verifier allows (Config.Leeway): a
// token verifies until its exp plus Leeway, and a time it states may be
// off by as much.
func (v *Verifier) Leeway() time.Duration { return v.cfg.Leeway }

// VerifyAccess verifies an access token: token_use "access" or absent, and
// with an audience configured, aud containing it or, without aud,
// client_id equal to it. The error is an *Error of kind ErrNotConfigured,
// ErrInvalidToken or ErrKeysUnavailable.
func (v *Verifier) VerifyAccess(ctx context.Context, raw string) (Claims, error) {
	return v.verify(ctx, raw, UseAccess)
}

// VerifyID verifies an ID token: token_use "id" or absent (OpenID Connect
// ID tokens other than Cognito's have none) and, with an audience
// configured, aud containing it. Errors as VerifyAccess.
func (v *Verifier) VerifyID(ctx context.Context, raw string) (Claims, error) {
	return v.verify(ctx, raw, UseID)
}

func (v *Verifier) verify(ctx context.Context, raw, use string) (Claims, error) {
	if !v.Configured() {
		return Claims{}, &Error{Message: msgNotConfigured, kind: ErrNotConfigured}
	}
	if raw == "" || len(raw) > maxTokenLen {
		return Claims{}, invalid(msgMalformed, nil)
	}
	mc := jwt.MapClaims{}
	tok, err := v.parser.ParseWithClaims(raw, mc, func(t *jwt.Token) (any, error) {
		return v.keyFor(ctx, t)
	})
	if err != nil {
		return Claims{}, v.explain(tok, mc, err)
	}

	// The reference checks these after the signature, in this order,
	// except that it reads client_id before token_use, which turns an ID
	// token sent as an access token into "wrong client_id". The token_use
	// message says what actually went wrong.
	tokenUse, ok := optString(mc, "token_use")
	if !ok {
		return Claims{}, invalid(msgBadClaims, nil)
	}
	// Without token_use (Auth0's and Keycloak's tokens, OpenID Connect ID
	// tokens) a token serves either use; an ID token's audience is still
	// checked below.
	if tokenUse != use && tokenUse != "" {
		return Claims{}, invalid(fmt.Sprintf("expected token_use='%s', got '%s'", use, truncate(tokenUse, 32)), nil)
	}
	if len(v.audiences) > 0 {
		if err := v.checkAudience(mc, use); err != nil {
			return Claims{}, err
		}
	}
	sub, ok := optString(mc, "sub")
	if !ok || sub == "" {
		return Claims{}, invalid(msgNoSub, nil)
	}
	if strings.IndexByte(sub, 0) >= 0 {
		return Claims{}, invalid(msgBadClaims, nil) // an id no learner can have
	}
	return claimsOf(mc, sub, tokenUse, v.cfg.Admin), nil
}

// keyFor is the jwt.Keyfunc. The key follows from the algorithm, which the
// parser has already checked against v.methods: an RS256 or ES256 token is
// never checked with the shared secret, whatever its header says.
func (v *Verifier) keyFor(ctx context.Context, t *jwt.Token) (any, error) {
	if _, ok := t.Header["crit"]; ok {
		// RFC 7515 §4.1.11: a critical extension the verifier does not
		// understand (tutord understands none) voids the token.
		return nil, invalid(msgMalformed, nil)
	}
	alg := t.Method.Alg()
	if alg == jwt.SigningMethodHS256.Alg() {
		if v.secret == nil {
			return nil, invalid(msgAlgNotAllowed, nil)
		}
		return v.secret, nil
	}
	if v.keys == nil {
		return nil, invalid(msgAlgNotAllowed, nil)
	}
	kid, _ := t.Header["kid"].(string)
	if kid == "" {
		return nil, invalid(msgNoKid, nil)
	}
	k, err := v.keys.key(ctx, kid)
	if err != nil {
		return nil, err
	}
	if !k.fits(alg) {
		return nil, invalid(msgKeyMismatch, nil)
	}
	return k.key, nil
}

// explain turns a parse error into an *Error with the reference's message.
func (v *Verifier) explain(tok *jwt.Token, mc jwt.MapClaims, err error) *Error {
	var e *Error
	switch {
	case errors.As(err, &e):
		return e
	case errors.Is(err, jwt.ErrTokenMalformed):
		return invalid(msgMalformed, err)
	case tok == nil || tok.Method == nil || !slices.Contains(v.methods, tok.Method.Alg()):
		return invalid(msgAlgNotAllowed, err)
	case errors.Is(err, jwt.ErrTokenSignatureInvalid):
		return invalid(msgBadSignature, err)
	case errors.Is(err, jwt.ErrTokenExpired):
		return invalid(msgExpired, err)
	case errors.Is(err, jwt.ErrTokenNotValidYet):
		return invalid(msgNotYetValid, err)
	case errors.Is(err, jwt.ErrTokenInvalidIssuer):
		return invalid(msgInvalidIssuer, err)
	case errors.Is(err, jwt.ErrTokenRequiredClaimMissing):
		// exp or iss, the claims the parser requires.
		if iss, _ := mc["iss"].(string); v.cfg.Issuer != "" && iss == "" {
			return invalid(msgInvalidIssuer, err)
		}
		return invalid(msgNoExp, err)
	}
	return invalid(msgBadClaims, err)
}

// checkAudience checks the token's audience: aud must contain one of the
// configured audiences; an access token without aud (Cognito's) must
// instead have one as client_id.
func (v *Verifier) checkAudience(mc jwt.MapClaims, use string) error {
	aud, err := mc.GetAudience()
	if err != nil {
		return invalid(msgBadClaims, err)
	}
	if len(aud) > 0 || use == UseID {
		if !slices.ContainsFunc(aud, func(a string) bool { return slices.Contains(v.audiences, a) }) {
			return invalid(msgInvalidAudience, nil)
		}
		return nil
	}
	if clientID, _ := mc["client_id"].(string); !slices.Contains(v.audiences, clientID) {
		return invalid(msgWrongClientID, nil)
	}
	return nil
}

// optString returns the string claim name, "" when it is absent, and
// false when it is present but not a string.
func optString(mc jwt.MapClaims, name string) (string, bool) {
	v, ok := mc[name]
	if !ok || v == nil {
		return "", true
	}
	s, ok := v.(string)
	return s, ok
}

// truncate shortens a claim echoed in an error message.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
