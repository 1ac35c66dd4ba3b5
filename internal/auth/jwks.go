package auth

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwk"
	"golang.org/x/sync/singleflight"
)

// The JWKS caching policy.
const (
	// jwksMaxAge is how long fetched keys are used before the next
	// verification fetches them again (the reference caches for an hour).
	jwksMaxAge = time.Hour
	// jwksMinInterval is the least time between two fetches. A token with
	// an unknown kid triggers a fetch only once the interval has passed,
	// so a stream of tokens with made-up kids (kid spraying) costs the
	// provider at most one request per interval, and a provider that is
	// down is not hammered either.
	jwksMinInterval = 30 * time.Second
	// jwksFetchTimeout bounds one fetch.
	jwksFetchTimeout = 5 * time.Second
	// jwksMaxBody bounds the key set document.
	jwksMaxBody = 1 << 20
	// minRSABits rejects RSA keys too short to trust.
	minRSABits = 2048
)

// jwksKey is one usable verification key of the set.
type jwksKey struct {
	key crypto.PublicKey // *rsa.PublicKey or *ecdsa.PublicKey
	alg string           // the JWK's alg, "" when it has none
}

// keySet caches the keys of a JWKS URL. It fetches lazily, never in the
// background, and serves keys it already has when a later fetch fails.
type keySet struct {
	url    string
	client *http.Client
	now    func() time.Time
	fetch  singleflight.Group

	mu        sync.Mutex
	keys      map[string]jwksKey // by kid
	fetchedAt time.Time          // of the last successful fetch
	triedAt   time.Time          // of the last fetch, successful or not
	lastErr   error              // of the last fetch
}

func newKeySet(url string, client *http.Client, now func() time.Time) *keySet {
	if client == nil {
		client = http.DefaultClient
	}
	return &keySet{url: url, client: client, now: now}
}

// key returns the key with the given kid. It fetches the set when the
// cache is empty or old, or when kid is unknown, at most once per
// jwksMinInterval. The error is an *Error: ErrInvalidToken when the kid is
// still unknown after a fetch, ErrKeysUnavailable when the set could not
// be fetched, or when the kid is unknown and the interval kept the set
// from being fetched again: a provider that rotated its keys just after
// the last fetch signs tokens that are good, and a client asked to retry
// (503) keeps its learner signed in, where a 401 would sign them out.
func (s *keySet) key(ctx context.Context, kid string) (jwksKey, error) {
	s.mu.Lock()
	k, ok := s.keys[kid]
	fresh := !s.fetchedAt.IsZero() && s.now().Sub(s.fetchedAt) < jwksMaxAge
	s.mu.Unlock()
	if ok && fresh {
		return k, nil
	}

	fetched, err := s.refresh(ctx)

	s.mu.Lock()
	k, ok = s.keys[kid]
	s.mu.Unlock()
	switch {
	case ok:
		// Possibly a stale key, when the refresh failed: better than
		// refusing every learner while the provider is down.
		return k, nil
	case err != nil:
		return jwksKey{}, &Error{Message: msgKeysUnavailable, Err: err, kind: ErrKeysUnavailable}
	case !fetched:
		return jwksKey{}, &Error{Message: msgKeysUnavailable, Err: errors.New("unknown kid; the key set was fetched too recently to fetch it again"), kind: ErrKeysUnavailable}
	}
	return jwksKey{}, invalid(msgKeyNotFound, nil)
}

// refresh fetches the set unless a fetch happened less than
// jwksMinInterval ago, in which case it returns that fetch's error and
// fetched false. Concurrent callers share one fetch; a caller whose ctx
// ends stops waiting, but the fetch goes on for the others.
func (s *keySet) refresh(ctx context.Context) (fetched bool, err error) {
	ch := s.fetch.DoChan("", func() (any, error) {
		s.mu.Lock()
		if !s.triedAt.IsZero() && s.now().Sub(s.triedAt) < jwksMinInterval {
			err := s.lastErr
			s.mu.Unlock()
			return false, err
		}
		s.triedAt = s.now()
		s.mu.Unlock()

		// The fetch serves every waiting caller, so it does not end with
		// the first one's context.
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), jwksFetchTimeout)
		keys, err := s.get(fctx)
		cancel()

		s.mu.Lock()
		defer s.mu.Unlock()
		s.lastErr = err
		if err == nil {
			s.keys = keys
			s.fetchedAt = s.now()
		}
		return true, err
	})
	select {
	case r := <-ch:
		return r.Val.(bool), r.Err
	case <-ctx.Done():
		return false, ctx.Err()
	}
}

// get fetches and parses the set.
func (s *keySet) get(ctx context.Context) (map[string]jwksKey, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.url, nil)
	if err != nil {
		return nil, fmt.Errorf("jwks: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("jwks: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("jwks: HTTP %d", resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, jwksMaxBody+1))
	if err != nil {
		return nil, fmt.Errorf("jwks: read: %w", err)
	}
	if len(body) > jwksMaxBody {
		return nil, errors.New("jwks: document larger than 1 MiB")
	}
	// Entries that cannot be parsed (an unknown kty, a weak key) are kept
	// as placeholders and skipped below, as RFC 7517 §5 asks, instead of
	// failing the whole set.
	set, err := jwk.Parse(body, jwk.WithStrictKeySetParsing(false))
	if err != nil {
		return nil, fmt.Errorf("jwks: %w", err)
	}
	keys := make(map[string]jwksKey, set.Len())
	for i := range set.Len() {
		k, _ := set.Key(i)
		if kid, key, ok := usable(k); ok {
			keys[kid] = key
		}
	}
	if len(keys) == 0 {
		return nil, errors.New("jwks: no RSA or EC signing key with a kid")
	}
	return keys, nil
}

// usable returns the kid and public key of k when k can verify
// signatures: it has a kid, is meant for signatures, and is an RSA key of
// at least 2048 bits or an EC key. Symmetric keys are never used, so that
// a key set can never turn into an HMAC secret.
func usable(k jwk.Key) (string, jwksKey, bool) {
	kid, _ := k.KeyID()
	if kid == "" {
		return "", jwksKey{}, false
	}
	if use, ok := k.KeyUsage(); ok && use != "sig" {
		return "", jwksKey{}, false
	}
	raw, err := jwk.PublicRawKeyOf(k)
	if err != nil {
		return "", jwksKey{}, false
	}
	switch pub := raw.(type) {
	case *rsa.PublicKey:
		if pub.N.BitLen() < minRSABits {
			return "", jwksKey{}, false
		}
	case *ecdsa.PublicKey:
	default:
		return "", jwksKey{}, false
	}
	var alg string
	if a, ok := k.Algorithm(); ok {
		alg = a.String()
	}
	return kid, jwksKey{key: raw, alg: alg}, true
}

// fits reports whether k may verify a token signed with alg.
func (k jwksKey) fits(alg string) bool {
	if k.alg != "" && k.alg != alg {
		return false
	}
	switch pub := k.key.(type) {
	case *rsa.PublicKey:
		return alg == "RS256"
	case *ecdsa.PublicKey:
		return alg == "ES256" && pub.Curve == elliptic.P256()
	}
	return false
}
