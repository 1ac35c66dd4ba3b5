package auth

import "strings"

// BearerToken returns the token of an Authorization header value
// "Bearer <token>". The scheme is case-insensitive (RFC 9110 §11.1); it
// reports false for another scheme or an empty token.
func BearerToken(header string) (string, bool) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(header), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}
