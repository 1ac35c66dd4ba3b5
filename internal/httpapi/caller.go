package httpapi

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/tutord/tutord/internal/store"
)

// Identity is who a verified token says the caller is.
type Identity struct {
	Subject      string
	Admin        bool
	Email        string
	Phone        string
	Name         string
	AuthProvider string // email, phone or google
	// SignedInAt is the earliest time the caller may have signed in:
	// when the token says they did (see auth.Claims), less the verifier's
	// leeway for clock skew. Zero when the token does not say.
	SignedInAt time.Time
	// ExpiresAt is when the token stops verifying: its exp plus the
	// verifier's leeway. Zero when unknown.
	ExpiresAt time.Time
}

// Authenticator verifies bearer tokens. Its errors carry messages that
// are safe to show the client (e.g. "Invalid token: Signature has expired.").
type Authenticator interface {
	// Access verifies an access token, which every route but /auth/sync takes.
	Access(ctx context.Context, token string) (Identity, error)
	// ID verifies an ID token, which /auth/sync takes.
	ID(ctx context.Context, token string) (Identity, error)
}

// caller is who made a request: a learner (with their identity), or
// nobody (anonymous).
type caller struct {
	identity *Identity
	learner  *store.Learner
	token    string // the access token that identified the learner
}

func (c caller) anonymous() bool { return c.learner == nil }
func (c caller) admin() bool     { return c.identity != nil && c.identity.Admin }

// mayUse reports whether the caller may use a session of owner (nil: an
// anonymous session, which anyone holding its id may use): its learner or
// an admin.
func (c caller) mayUse(owner *uuid.UUID) bool {
	return owner == nil || c.admin() || !c.anonymous() && c.learner.ID == *owner
}

// learnerID returns the caller's learner id, or nil when anonymous.
func (c caller) learnerID() *uuid.UUID {
	if c.learner == nil {
		return nil
	}
	id := c.learner.ID
	return &id
}

const (
	callerKey = "tutord.caller"
	signInKey = "tutord.sign-in" // the Identity of an ID token, at /auth/sync
)

func errUnauthorized(msg string) *Error {
	return &Error{Status: http.StatusUnauthorized, Code: "unauthorized", Message: msg}
}

// bearer returns the token of an Authorization header, or "" when there is none.
func bearer(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return "", false
	}
	scheme, token, ok := strings.Cut(h, " ")
	if !strings.EqualFold(scheme, "Bearer") {
		// Another scheme's credentials (a staging proxy's Basic, or those
		// a browser sends by itself behind HTTP authentication) are not
		// the learner's: as no header (CONTRACT §1.2), anonymous where
		// that is allowed.
		return "", false
	}
	if !ok || strings.TrimSpace(token) == "" {
		return "", true
	}
	return strings.TrimSpace(token), true
}

// bearerScheme reports whether a request's Authorization header is of the
// Bearer scheme, with a token or not.
func bearerScheme(r *http.Request) bool {
	scheme, _, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	return strings.EqualFold(scheme, "Bearer")
}

// authenticate resolves the caller of a request from its bearer token (or
// the WebSocket's token query parameter). No token means anonymous; a token
// that does not verify is a 401 (the reference silently fell back to
// anonymous, or crashed on a malformed token). A learner record is created
// on first use, unless the learner was deleted since they signed in, or
// the token does not say when that was (401 learner_deleted).
func (s *Server) authenticate(c echo.Context, token string, present bool) (caller, error) {
	if !present {
		return caller{}, nil
	}
	if token == "" {
		return caller{}, errUnauthorized("Not authenticated")
	}
	if s.deps.Auth == nil {
		return caller{}, errUnauthorized("Authentication not configured")
	}
	id, err := s.verifyAccess(c.Request().Context(), token)
	if err != nil {
		return caller{}, err
	}
	l, err := s.learners.get(c.Request().Context(), id.Subject, signedInSince(id))
	if err != nil {
		return caller{}, err
	}
	return caller{identity: &id, learner: &l, token: token}, nil
}

// signedInSince returns the time a learner's deletion is checked against
// for a caller: a learner deleted at or after it is not made again (see
// LearnerStore). A token that does not say when its learner signed in
// cannot show that it came after a deletion, so it is checked against
// the epoch, which is before any sign-in a token can state.
func signedInSince(id Identity) time.Time {
	if id.SignedInAt.IsZero() {
		return time.Unix(0, 0)
	}
	return id.SignedInAt
}

// verifyAccess verifies an access token as every request does: one that
// does not verify is a 401, one that cannot be verified for want of the
// identity provider's keys a 503.
func (s *Server) verifyAccess(ctx context.Context, token string) (Identity, error) {
	return verified(s.deps.Auth.Access(ctx, token))
}

// verifySignIn verifies the ID token of a sign-in (POST /auth/sync), with
// the errors of verifyAccess.
func (s *Server) verifySignIn(ctx context.Context, token string, present bool) (Identity, error) {
	if !present || token == "" {
		return Identity{}, errUnauthorized("Not authenticated")
	}
	if s.deps.Auth == nil {
		return Identity{}, errUnauthorized("Authentication not configured")
	}
	return verified(s.deps.Auth.ID(ctx, token))
}

// verified maps a verification's error to the client's: a 401, or a 503
// when the identity provider's keys are unavailable.
func verified(id Identity, err error) (Identity, error) {
	if errors.Is(err, errKeysUnavailable) {
		return Identity{}, &Error{Status: http.StatusServiceUnavailable, Code: "unavailable", Message: "Authentication is temporarily unavailable; please retry", Err: err}
	}
	if err != nil {
		return Identity{}, errUnauthorized(err.Error())
	}
	return id, nil
}

// withCaller authenticates every request that carries a token, except on
// the public routes, and keeps the caller for the handlers. It refuses an
// anonymous caller where a learner is needed (see anonymousRoute). It
// comes before anything reads the request's body: a caller it refuses
// learns nothing of how the body would have fared (CONTRACT §1.4), and
// the body is not read at all.
func (s *Server) withCaller(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		token, present := bearer(c.Request())
		if strings.HasPrefix(c.Path(), "/sessions/ws/") && !bearerScheme(c.Request()) {
			// The WebSocket's token is its ?token= (CONTRACT §3.1). A
			// Bearer header wins over it, but an Authorization header of
			// another scheme (a staging proxy's Basic credentials, or those
			// a browser sends by itself behind HTTP authentication) is
			// not the learner's and must not hide it.
			token = c.QueryParam("token")
			present = token != ""
		}
		switch c.Path() {
		case "/auth/sync":
			// It takes an ID token, not an access token.
			id, err := s.verifySignIn(c.Request().Context(), token, present)
			if err != nil {
				return refused(c, err)
			}
			c.Set(signInKey, id)
			return next(c)
		case "/curriculum", "/config/models", "/auth/phone/provision":
			// Public (no security in the contract, no auth in the
			// reference): the frontend sends its token everywhere, and an
			// expired one or an identity provider outage must not break them.
			return next(c)
		}
		who, err := s.authenticate(c, token, present)
		if err == nil && who.anonymous() && !(s.opts.AllowAnonymous && anonymousRoute(c.Request().Method, c.Path())) {
			err = errUnauthorized("Not authenticated")
		}
		if err != nil {
			return refused(c, err)
		}
		c.Set(callerKey, who)
		return next(c)
	}
}

// anonymousRoute reports whether a route serves anonymous callers where
// Options.AllowAnonymous lets them in: the routes of anonymous sessions
// (CONTRACT §1.4) and transcription. Every other route that authenticates
// needs a learner.
func anonymousRoute(method, path string) bool {
	switch path {
	case "/sessions":
		return method == http.MethodPost // GET lists the caller's own
	case "/sessions/:id", "/sessions/:id/step", "/sessions/:id/pause", "/sessions/:id/resume", "/sessions/:id/end-clarify",
		"/sessions/:id/end-exam", "/sessions/:id/summary", "/sessions/:id/replay", "/sessions/ws/:id", "/transcribe":
		return true
	}
	return false
}

// refused returns the error of a request refused before its body was
// read. A request with a body then closes its connection: net/http would
// otherwise read what is left of the body before answering, and wait for
// as long as a client takes to send it.
func refused(c echo.Context, err error) error {
	if c.Request().ContentLength != 0 {
		c.Response().Header().Set(echo.HeaderConnection, "close")
	}
	return err
}

func callerOf(c echo.Context) caller {
	who, _ := c.Get(callerKey).(caller)
	return who
}

// requireLearner returns the caller's learner, or a 401 for anonymous callers.
func requireLearner(c echo.Context) (*store.Learner, error) {
	who := callerOf(c)
	if who.anonymous() {
		return nil, errUnauthorized("Not authenticated")
	}
	return who.learner, nil
}

// adminOnly lets only admins through (see requireAdmin); the body of a
// request it refuses is not read.
func adminOnly(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if err := requireAdmin(c); err != nil {
			return refused(c, err)
		}
		return next(c)
	}
}

// requireAdmin returns 401 for an anonymous caller, 403 for a caller who
// is not an admin.
func requireAdmin(c echo.Context) error {
	who := callerOf(c)
	if who.anonymous() {
		return errUnauthorized("Not authenticated")
	}
	if !who.admin() {
		return &Error{Status: http.StatusForbidden, Code: "forbidden", Message: "Admin access required"}
	}
	return nil
}

// LearnerStore is what the server needs of learner records.
type LearnerStore interface {
	// SignedInLearner returns the learner of a caller who signed in at
	// signedIn, made on first use, or ErrLearnerGone for a learner deleted
	// since.
	SignedInLearner(ctx context.Context, externalID string, signedIn time.Time) (store.Learner, error)
}

// learnerCache remembers learner records by subject for a short while, so
// that an authenticated request does not cost a database round trip just
// to find its learner.
type learnerCache struct {
	st  LearnerStore
	ttl time.Duration

	mu sync.Mutex
	m  map[string]cachedLearner
}

type cachedLearner struct {
	l           store.Learner
	at, expires time.Time
}

// get returns the learner of a caller who signed in at signedIn. A sign-in
// after the learner was cached is looked up afresh: it may follow the
// learner's deletion on another process, and make a new learner.
func (lc *learnerCache) get(ctx context.Context, sub string, signedIn time.Time) (store.Learner, error) {
	lc.mu.Lock()
	e, ok := lc.m[sub]
	lc.mu.Unlock()
	if ok && time.Now().Before(e.expires) && !signedIn.After(e.at) {
		return e.l, nil
	}
	if lc.st == nil {
		return store.Learner{}, errors.New("no learner store")
	}
	l, err := lc.st.SignedInLearner(ctx, sub, signedIn)
	if err != nil {
		return store.Learner{}, err
	}
	lc.put(l)
	return l, nil
}

func (lc *learnerCache) put(l store.Learner) {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	if len(lc.m) > 100_000 {
		clear(lc.m)
	}
	now := time.Now()
	lc.m[l.ExternalID] = cachedLearner{l: l, at: now, expires: now.Add(lc.ttl)}
}

// forget drops a learner from the cache (after a profile change or deletion).
func (lc *learnerCache) forget(sub string) {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	delete(lc.m, sub)
}
