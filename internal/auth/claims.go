package auth

import (
	"cmp"
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
	return c
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
