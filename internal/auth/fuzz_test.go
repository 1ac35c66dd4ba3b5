package auth

import (
	"context"
	"errors"
	"testing"

	"github.com/golang-jwt/jwt/v5"
)

// FuzzVerify feeds arbitrary strings to verifiers of both kinds: they must
// not panic, and must either accept a token with a subject or fail with an
// *Error that has a message.
func FuzzVerify(f *testing.F) {
	keys := testKeys(f)
	srv := newJWKSServer(f, map[string]any{"k1": keys.rsa1, "e1": keys.ec}, nil)
	cfg := hsConfig()
	cfg.JWKSURL = srv.URL
	c := newClock()
	cfg.Now = c.Now
	both, err := NewVerifier(cfg)
	if err != nil {
		f.Fatal(err)
	}
	cfg.JWKSURL = ""
	hsOnly, err := NewVerifier(cfg)
	if err != nil {
		f.Fatal(err)
	}

	for _, s := range []string{
		"", ".", "..", "...", "a.b.c", "Bearer x", "\x00", "eyJ.eyJ.", "eyJhbGciOiJub25lIn0.e30.",
		hs(f, accessClaims(nil)),
		hs(f, idClaims(nil)),
		sign(f, jwt.SigningMethodRS256, keys.rsa1, "k1", accessClaims(nil)),
		sign(f, jwt.SigningMethodES256, keys.ec, "e1", idClaims(nil)),
		forge(f, map[string]any{"alg": "RS256", "kid": "k1"}, accessClaims(nil), []byte(testSecret)),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		for _, v := range []*Verifier{both, hsOnly} {
			for _, verify := range []func(context.Context, string) (Claims, error){v.VerifyAccess, v.VerifyID} {
				c, err := verify(context.Background(), raw)
				var e *Error
				switch {
				case err == nil && c.Subject == "":
					t.Errorf("accepted %q without a subject", raw)
				case err != nil && (!errors.As(err, &e) || e.Message == ""):
					t.Errorf("error %v (%T) is not an *Error with a message", err, err)
				}
			}
		}
	})
}
