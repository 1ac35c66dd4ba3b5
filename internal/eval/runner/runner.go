// Package runner plays evaluation scenarios against a running tutord and
// scores them.
//
// Each scenario is its own learner: with a JWT secret the runner mints it
// a token of its own (and an admin token to read sessions unredacted);
// with a fixed token every scenario is that learner, one at a time;
// otherwise sessions are anonymous. A scenario drives tutord as the
// reference harness does: REST to create the session (and for lifecycle
// actions), the WebSocket for the conversation. After each turn it reads
// the session document to learn which question waits for an answer, and
// with that the runner checks the scenario's expectations and measures
// what an education researcher wants to know: whether answers were given
// away before the explain phase, internal language, reply length against
// the pacing, completion, mastery, exam scores, safety flags, conflicts
// and latency.
//
// A scenario that cannot be played to its end (a dropped WebSocket, an
// error answer) is an error of that scenario only; the others run on.
package runner

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/tutord/tutord/internal/auth"
	"github.com/tutord/tutord/internal/eval/client"
	"github.com/tutord/tutord/internal/eval/learner"
	"github.com/tutord/tutord/internal/eval/scenario"
)

// Config configures a run.
type Config struct {
	// BaseURL is tutord's base URL.
	BaseURL string
	// HTTP sends the requests; nil means http.DefaultClient.
	HTTP *http.Client
	Auth Auth
	// Concurrency is how many scenarios run at once (at least 1). A fixed
	// token runs them one at a time.
	Concurrency int
	// Seed seeds the simulated learners of scenarios without a seed.
	Seed uint64
	// Bank is the curriculum the scenarios run on, as the harness knows
	// it; nil when unknown (answers are then taken from the session
	// document, which needs the admin token).
	Bank *learner.Bank
	// Country and Board place subtopics the bank does not know; empty
	// means India and CBSE.
	Country, Board string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// FrameTimeout bounds the wait for each WebSocket frame; 0 means 90 s,
	// as the reference harness waits.
	FrameTimeout time.Duration
	// RequestTimeout bounds each REST request, its answer read in full,
	// and the WebSocket's opening handshake; 0 means 30 s, as the
	// reference harness waits (client.DefaultTimeout).
	RequestTimeout time.Duration
	// RunID names this run's learners (eval-<run id>-<scenario>); empty
	// means one from the clock and a random suffix.
	RunID string
	// Done, when set, is called with each result as its scenario ends,
	// one call at a time.
	Done func(*Result)
}

// Auth says how scenarios authenticate.
type Auth struct {
	// Secret is tutord's HS256 secret (TUTORD_JWT_SECRET): the runner
	// mints each scenario a learner token, and an admin token to read
	// session documents unredacted. Issuer, Audience and Admin must match
	// tutord's settings (TUTORD_JWT_ISSUER, TUTORD_JWT_AUDIENCE,
	// TUTORD_JWT_ADMIN_CLAIM).
	Secret   string
	Issuer   string
	Audience string
	Admin    auth.AdminRule
	// Token is a learner's access token to use for every scenario when
	// there is no secret.
	Token string
}

// Run plays the scenarios and returns their results in the same order.
// It returns early only when ctx ends; the scenarios not played then are
// errors.
func Run(ctx context.Context, cfg Config, scenarios []*scenario.Scenario) []Result {
	cfg = cfg.withDefaults()
	r := &runner{cfg: cfg, resolve: newResolver(cfg.client(""), cfg.Bank, cfg.Country, cfg.Board)}
	results := make([]Result, len(scenarios))
	err := r.preflight(ctx)
	var mu sync.Mutex // serialises Done
	var g errgroup.Group
	g.SetLimit(cfg.Concurrency)
	for i, sc := range scenarios {
		g.Go(func() error {
			if err != nil {
				results[i] = r.failed(sc, err)
			} else {
				results[i] = r.play(ctx, i, sc)
			}
			if cfg.Done != nil {
				mu.Lock()
				defer mu.Unlock()
				cfg.Done(&results[i])
			}
			return nil
		})
	}
	_ = g.Wait() // plays never fail: their errors are in their results
	return results
}

// Parallelism reports how many scenarios Run plays at once: Concurrency,
// but 1 when it is unset or with a fixed token (every scenario is then
// the same learner). Reports give this figure, not the one asked for.
func (c Config) Parallelism() int {
	if c.Concurrency < 1 || c.Auth.Secret == "" && c.Auth.Token != "" {
		return 1
	}
	return c.Concurrency
}

func (c Config) withDefaults() Config {
	c.Concurrency = c.Parallelism()
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.FrameTimeout == 0 {
		c.FrameTimeout = 90 * time.Second
	}
	if c.Country == "" {
		c.Country = "India"
	}
	if c.Board == "" {
		c.Board = "CBSE"
	}
	if c.RunID == "" {
		b := make([]byte, 3)
		_, _ = rand.Read(b)
		c.RunID = c.Now().UTC().Format("20060102t150405") + "-" + hex.EncodeToString(b)
	}
	return c
}

// client returns a REST client of tutord that calls with token ("" for
// none).
func (c Config) client(token string) *client.Client {
	return &client.Client{BaseURL: c.BaseURL, HTTP: c.HTTP, Token: token, Retries: maxResends, MaxWait: 30 * time.Second, Timeout: c.RequestTimeout}
}

type runner struct {
	cfg     Config
	resolve *resolver
}

// preflight checks the admin token once before the scenarios share it:
// a refused secret fails fast with one clear error, and the learner record
// of the admin is made by one request rather than by many at once.
func (r *runner) preflight(ctx context.Context) error {
	if r.cfg.Auth.Secret == "" {
		return nil
	}
	token, err := r.mint(r.adminSubject(), true)
	if err != nil {
		return err
	}
	status, body, err := r.cfg.client(token).Do(ctx, http.MethodGet, "/profile", nil)
	if err == nil && status != http.StatusOK {
		err = fmt.Errorf("tutord refuses the harness's tokens (GET /profile answered %d %s): check --jwt-secret and TUTORD_JWT_ISSUER, TUTORD_JWT_AUDIENCE, TUTORD_JWT_ADMIN_CLAIM", status, clip(string(body), 200))
	}
	return err
}

// failed is the result of a scenario that could not start.
func (r *runner) failed(sc *scenario.Scenario, err error) Result {
	return Result{Name: sc.Name, File: sc.File, Description: sc.Description, Tags: sc.Tags, Subtopic: sc.Subtopic,
		Mode: string(sc.Mode), Persona: sc.Learner.Persona, Status: Error, Error: err.Error(), StartedAt: r.cfg.Now()}
}

func (r *runner) adminSubject() string { return "eval-" + r.cfg.RunID + "-admin" }

// mint returns an access token for subject.
func (r *runner) mint(subject string, admin bool) (string, error) {
	a := r.cfg.Auth
	return auth.Mint([]byte(a.Secret), auth.MintOptions{
		Subject: subject, Admin: admin, AdminRule: a.Admin, Issuer: a.Issuer, ClientID: a.Audience,
		TTL: 12 * time.Hour, IssuedAt: r.cfg.Now(),
	})
}

var unsafeSubject = regexp.MustCompile(`[^a-z0-9]+`)

// subject names the learner of the scenario at index i.
func (r *runner) subject(i int, name string) string {
	slug := strings.Trim(unsafeSubject.ReplaceAllString(strings.ToLower(name), "-"), "-")
	if len(slug) > 60 {
		slug = slug[:60]
	}
	return "eval-" + r.cfg.RunID + "-" + strconv.Itoa(i) + "-" + slug
}
