package auth

import (
	"cmp"
	"encoding/json"
	"math"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Claims is what a verified token says about the caller.
type Claims struct {
	// Subject is the sub claim: the learner's stable id.
	Subject string
	// TokenUse is the token_use claim: "access", "id", or "" when absent
	// (accepted as an access token).
	TokenUse string
	Email    string // email
	Phone    string // phone_number
	Name     string // name
	// Username is cognito:username (ID tokens), else username (Cognito
	// access tokens), else preferred_username (OpenID Connect).
	Username string
	// PhoneVerified is phone_number_verified: true, or the string "true".
	PhoneVerified bool
	// IdentityProvider is identities[0].providerName, e.g. "Google", set
	// by Cognito for federated sign-ins.
	IdentityProvider string
	// Admin reports whether the token satisfies the configured AdminRule.
	Admin bool
	// ExpiresAt is the exp claim.
	ExpiresAt time.Time
	// SignedInAt is when the learner signed in: the auth_time claim, or
	// the iat claim without it (a refreshed token has a new iat, the time
	// of the sign-in it carries on). Zero when the token has neither.
	SignedInAt time.Time
}

// The auth providers of a learner's profile.
const (
	ProviderEmail  = "email"
	ProviderPhone  = "phone"
	ProviderGoogle = "google"
)

// AuthProvider derives how the learner signed in, as the reference does: a
// Google identity, else a verified phone number or a username that is a
// phone number (starts with "+"), else email.
func AuthProvider(c Claims) string {
	switch {
	case strings.EqualFold(c.IdentityProvider, "Google"):
		return ProviderGoogle
	case c.PhoneVerified, strings.HasPrefix(c.Username, "+"):
		return ProviderPhone
	}
	return ProviderEmail
}

// claimsOf reads the claims of a verified token. Identity claims of the
// wrong type are read as absent: they describe the learner, they do not
// grant anything.
func claimsOf(mc jwt.MapClaims, sub, tokenUse string, admin AdminRule) Claims {
	// Text claims end up in the database, which cannot store NUL: a
	// provider's display name is not worth refusing a sign-in over.
	str := func(name string) string {
		s, _ := mc[name].(string)
		return strings.ReplaceAll(s, "\x00", "")
	}
	c := Claims{
		Subject:          sub,
		TokenUse:         tokenUse,
		Email:            str("email"),
		Phone:            str("phone_number"),
		Name:             str("name"),
		Username:         cmp.Or(str("cognito:username"), str("username"), str("preferred_username")),
		PhoneVerified:    truthy(mc["phone_number_verified"]),
		IdentityProvider: identityProvider(mc["identities"]),
		Admin:            admin.Match(mc),
	}
	if exp, err := mc.GetExpirationTime(); err == nil && exp != nil {
		c.ExpiresAt = exp.Time
	}
	if at, ok := seconds(mc["auth_time"]); ok {
		c.SignedInAt = at
	} else if iat, err := mc.GetIssuedAt(); err == nil && iat != nil {
		c.SignedInAt = iat.Time
	}
	return c
}

// seconds reads a time in seconds since the epoch, as JWT writes times.
func seconds(v any) (time.Time, bool) {
	var f float64
	switch v := v.(type) {
	case float64:
		f = v
	case json.Number:
		var err error
		if f, err = v.Float64(); err != nil {
			return time.Time{}, false
		}
	default:
		return time.Time{}, false
	}
	if math.IsNaN(f) || math.IsInf(f, 0) || f <= 0 || f > 1e11 {
		return time.Time{}, false
	}
	return time.Unix(int64(f), 0), true
}

// truthy accepts a JSON true and the string "true": Cognito has sent both.
func truthy(v any) bool {
	switch v := v.(type) {
	case bool:
		return v
	case string:
		return strings.EqualFold(v, "true")
	}
	return false
}

// identityProvider returns identities[0].providerName, or "".
func identityProvider(v any) string {
	list, _ := v.([]any)
	if len(list) == 0 {
		return ""
	}
	first, _ := list[0].(map[string]any)
	name, _ := first["providerName"].(string)
	return name
}
