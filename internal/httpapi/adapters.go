package httpapi

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/tutord/tutord/internal/auth"
	"github.com/tutord/tutord/internal/stt"
)

// errKeysUnavailable reports that the identity provider's keys could not be
// fetched: a 503, not a 401, since clients log out on a 401.
var errKeysUnavailable = errors.New("authentication keys unavailable")

// NewAuthenticator adapts a token verifier to the server.
func NewAuthenticator(v *auth.Verifier) Authenticator { return verifier{v} }

type verifier struct{ v *auth.Verifier }

func (a verifier) Access(ctx context.Context, token string) (Identity, error) {
	c, err := a.v.VerifyAccess(ctx, token)
	return a.identity(c), authError(err)
}

func (a verifier) ID(ctx context.Context, token string) (Identity, error) {
	c, err := a.v.VerifyID(ctx, token)
	return a.identity(c), authError(err)
}

func authError(err error) error {
	if errors.Is(err, auth.ErrKeysUnavailable) {
		// The cause (the provider's status, a DNS failure) stays for the
		// log; the client is told only that the keys are unavailable.
		return fmt.Errorf("%w: %w", errKeysUnavailable, err)
	}
	var ae *auth.Error
	if errors.As(err, &ae) {
		return shownError{ae.Message, err}
	}
	return err
}

// shownError is a verification failure as the client is told it ("Invalid
// token: Signature has expired."), without its cause, which stays for
// errors.Is and errors.As.
type shownError struct {
	message string
	cause   error
}

func (e shownError) Error() string { return e.message }
func (e shownError) Unwrap() error { return e.cause }

// identity is what the claims of a verified token say about the caller.
// Its times allow for the verifier's leeway, each in the direction that
// trusts the token less: the sign-in may be that much earlier than the
// token says (the issuer's clock may be ahead), and the token verifies
// until that much after its exp.
func (a verifier) identity(c auth.Claims) Identity {
	id := Identity{Subject: c.Subject, Admin: c.Admin, Email: c.Email, Phone: c.Phone, Name: c.Name, AuthProvider: auth.AuthProvider(c)}
	leeway := a.v.Leeway()
	if !c.SignedInAt.IsZero() {
		id.SignedInAt = c.SignedInAt.Add(-leeway)
	}
	if !c.ExpiresAt.IsZero() {
		id.ExpiresAt = c.ExpiresAt.Add(leeway)
	}
	return id
}

// NewTranscriber adapts a speech-to-text client to the server.
func NewTranscriber(c *stt.Client) Transcriber { return transcriber{c} }

type transcriber struct{ c *stt.Client }

func (t transcriber) Configured() bool { return t.c != nil && t.c.Configured() }

func (t transcriber) Detect(head []byte) (string, bool) {
	f, ok := stt.Detect(head)
	return string(f), ok
}

func (t transcriber) Transcribe(ctx context.Context, audio io.Reader, size int64, format, language string) (string, error) {
	text, err := t.c.Transcribe(ctx, audio, size, stt.Format(format), language)
	if errors.Is(err, stt.ErrUnavailable) || errors.Is(err, stt.ErrTimeout) || errors.Is(err, stt.ErrNotConfigured) {
		return "", errors.Join(ErrTranscriberUnavailable, err)
	}
	return text, err
}
