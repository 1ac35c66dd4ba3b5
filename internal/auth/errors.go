package auth

import "errors"

// The kinds of verification failure. Every error the Verifier returns is an
// *Error that matches exactly one of them with errors.Is.
var (
	// ErrNotConfigured: neither a shared secret nor a JWKS URL is set, so no
	// token can be accepted.
	ErrNotConfigured = errors.New("authentication not configured")
	// ErrInvalidToken: the token is malformed, badly signed, expired, or its
	// claims do not fit (issuer, audience, token_use, sub). The client's
	// fault: HTTP 401.
	ErrInvalidToken = errors.New("invalid token")
	// ErrKeysUnavailable: the JWKS could not be fetched, so the token could
	// not be checked. The server's fault, not the client's: HTTP 503 rather
	// than a 401 that would sign the learner out.
	ErrKeysUnavailable = errors.New("signing keys unavailable")
)

// Error is a verification failure. Message is safe to show a client, in the
// reference's words ("Invalid token: Signature has expired."); Err, when
// set, is the cause, for logs.
type Error struct {
	Message string
	Err     error
	kind    error
}

// Error returns the message, followed by the cause when there is one.
func (e *Error) Error() string {
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is the error's kind (ErrNotConfigured,
// ErrInvalidToken or ErrKeysUnavailable).
func (e *Error) Is(target error) bool { return target == e.kind }

// invalid returns an ErrInvalidToken error with the message
// "Invalid token: " + reason.
func invalid(reason string, cause error) *Error {
	return &Error{Message: "Invalid token: " + reason, Err: cause, kind: ErrInvalidToken}
}

// Messages that clients may show, in the reference's words where it has
// them (python-jose's for signature and claim failures).
const (
	msgNotConfigured   = "Authentication not configured"
	msgKeyNotFound     = "key not found after refresh"
	msgExpired         = "Signature has expired."
	msgNotYetValid     = "The token is not yet valid (nbf)"
	msgBadSignature    = "Signature verification failed."
	msgAlgNotAllowed   = "The specified alg value is not allowed"
	msgInvalidIssuer   = "Invalid issuer"
	msgInvalidAudience = "Invalid audience"
	msgWrongClientID   = "wrong client_id"
	msgNoSub           = "no sub claim"
	msgMalformed       = "malformed token"
	msgBadClaims       = "malformed claims"
	msgNoExp           = "no exp claim"
	msgNoKid           = "no kid header"
	msgKeyMismatch     = "key does not match the token's alg"
	msgKeysUnavailable = "Authentication keys unavailable"
)
