package eval

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"time"

	"github.com/tutord/tutord/curricula"
	"github.com/tutord/tutord/internal/auth"
	"github.com/tutord/tutord/internal/curriculum"
	"github.com/tutord/tutord/internal/eval/client"
	"github.com/tutord/tutord/internal/eval/learner"
	"github.com/tutord/tutord/internal/eval/report"
	"github.com/tutord/tutord/internal/eval/runner"
	"github.com/tutord/tutord/internal/eval/scenario"
)

// runOptions are the flags of run.
type runOptions struct {
	url, secret, token, curriculum, filter string
	out, reportFile, junit, markdown, html string
	concurrency                            int
	seed                                   uint64
	embedded, json                         bool
	frameTimeout, requestTimeout           time.Duration
}

func runSuite(ctx context.Context, args []string, env Env) error {
	var o runOptions
	fs := newFlags("run")
	fs.StringVar(&o.url, "url", "", "")
	fs.StringVar(&o.secret, "jwt-secret", "", "")
	fs.StringVar(&o.token, "token", "", "")
	fs.StringVar(&o.curriculum, "curriculum", "", "")
	fs.StringVar(&o.filter, "filter", "", "")
	fs.StringVar(&o.out, "out", "", "")
	fs.StringVar(&o.reportFile, "report", "", "")
	fs.StringVar(&o.junit, "junit", "", "")
	fs.StringVar(&o.markdown, "markdown", "", "")
	fs.StringVar(&o.html, "html", "", "")
	fs.IntVar(&o.concurrency, "concurrency", 4, "")
	fs.Uint64Var(&o.seed, "seed", 1, "")
	fs.BoolVar(&o.embedded, "embedded", false, "")
	fs.BoolVar(&o.json, "json", false, "")
	fs.DurationVar(&o.frameTimeout, "frame-timeout", 90*time.Second, "")
	fs.DurationVar(&o.requestTimeout, "request-timeout", client.DefaultTimeout, "")
	paths, err := parse(fs, args, env)
	if err != nil {
		return err
	}
	switch {
	case len(paths) == 0:
		return usagef("run needs a suite: a directory of scenario files, or files")
	case o.embedded == (o.url != ""):
		return usagef("run needs exactly one of --url URL and --embedded")
	case o.secret != "" && o.token != "":
		return usagef("run takes --jwt-secret or --token, not both")
	case o.embedded && o.token != "":
		return usagef("--embedded mints its own tokens: drop --token")
	case o.concurrency < 1 || o.concurrency > 256:
		return usagef("--concurrency must be from 1 to 256, not %d", o.concurrency)
	case o.frameTimeout <= 0:
		return usagef("--frame-timeout must be positive")
	case o.requestTimeout <= 0:
		return usagef("--request-timeout must be positive")
	}
	var filter *regexp.Regexp
	if o.filter != "" {
		if filter, err = regexp.Compile(o.filter); err != nil {
			return usagef("--filter: %v", err)
		}
	}
	suite, err := scenario.Load(paths...)
	if err != nil {
		return err
	}
	for _, is := range suite.Issues {
		fmt.Fprintf(env.Stderr, "invalid scenario: %s\n", is)
	}
	scenarios := suite.Scenarios
	if filter != nil {
		scenarios = scenarios[:0:0]
		for _, sc := range suite.Scenarios {
			if filter.MatchString(sc.Name) {
				scenarios = append(scenarios, sc)
			}
		}
	}
	if len(scenarios) == 0 && len(suite.Issues) == 0 {
		return fmt.Errorf("no scenario to run in %v", paths)
	}
	bank, err := loadBank(o.curriculum)
	if err != nil {
		return err
	}

	a := runner.Auth{Token: o.token}
	authName := "anonymous sessions"
	switch {
	case o.token != "":
		authName = "one given learner token"
	case o.embedded:
		if a.Secret, err = randomSecret(o.secret); err != nil {
			return err
		}
	default:
		a.Secret = o.secret
		if a.Secret == "" {
			a.Secret = env.Getenv(auth.EnvSecret)
		}
		a.Issuer, a.Audience = env.Getenv(auth.EnvIssuer), auth.FirstAudience(env.Getenv(auth.EnvAudience))
	}
	if a.Secret != "" {
		claim := env.Getenv(auth.EnvAdmin)
		if o.embedded || claim == "" {
			claim = auth.DefaultAdminRule
		}
		if a.Admin, err = auth.ParseAdminRule(claim); err != nil {
			return fmt.Errorf("%s: %w", auth.EnvAdmin, err)
		}
		authName = "a minted token per scenario"
	}

	base := o.url
	if o.embedded {
		var stop func()
		if base, stop, err = startEmbedded(ctx, env, EmbeddedConfig{CurriculumDir: o.curriculum, JWTSecret: a.Secret}); err != nil {
			return err
		}
		defer stop()
	}
	if err := checkAlive(ctx, env, base, o.requestTimeout); err != nil {
		return err
	}

	cfg := runner.Config{
		BaseURL: base, HTTP: env.HTTP, Auth: a, Concurrency: o.concurrency, Seed: o.seed, Bank: bank,
		Now: env.Now, FrameTimeout: o.frameTimeout, RequestTimeout: o.requestTimeout, Done: progress(env.Stderr),
	}
	start := env.Now()
	results := runner.Run(ctx, cfg, scenarios)
	elapsed := env.Now().Sub(start)
	suiteName := paths[0]
	if len(paths) > 1 {
		suiteName = fmt.Sprint(paths)
	}
	rep := &report.Report{
		Tool: report.Tool, Suite: suiteName, URL: base, StartedAt: start.UTC(), Seed: o.seed, Concurrency: cfg.Parallelism(),
		Auth: authName, Summary: runner.Summarize(results, elapsed, len(scenario.FilesOf(suite.Issues))),
		Judge:   report.Judge{Status: "skipped", Reason: "no judge model is configured; only the deterministic metrics were computed"},
		Invalid: suite.Issues, Scenarios: results,
	}
	if rep.Invalid == nil {
		rep.Invalid = []scenario.Issue{}
	}
	if err := writeReports(rep, o); err != nil {
		return err
	}
	if o.json {
		err = printJSON(env.Stdout, rep.Compact())
	} else {
		err = report.WriteMarkdown(env.Stdout, rep.Compact())
	}
	if err != nil {
		return err
	}
	if rep.Failed() {
		return &FailedError{Failed: rep.Summary.Failed, Errors: rep.Summary.Errors, Invalid: len(rep.InvalidFiles())}
	}
	return nil
}

// loadBank reads the curriculum the suite runs on: dir, or the sample.
func loadBank(dir string) (*learner.Bank, error) {
	var files []*curriculum.File
	var err error
	if dir != "" {
		files, err = curriculum.LoadPaths(dir)
	} else {
		files, err = curriculum.LoadFS(curricula.FS())
	}
	if err != nil {
		return nil, fmt.Errorf("the curriculum: %w", err)
	}
	return learner.NewBank(files), nil
}

// randomSecret returns secret, or a new random one when it is empty.
func randomSecret(secret string) (string, error) {
	if secret != "" {
		return secret, nil
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// startEmbedded starts the embedded tutord.
func startEmbedded(ctx context.Context, env Env, cfg EmbeddedConfig) (string, func(), error) {
	if env.Embedded == nil {
		return "", nil, errors.New("this build cannot start an embedded tutord")
	}
	fmt.Fprintln(env.Stderr, "starting an embedded tutord...")
	url, stop, err := env.Embedded(ctx, cfg)
	if err != nil {
		return "", nil, fmt.Errorf("start the embedded tutord: %w", err)
	}
	if stop == nil {
		stop = func() {}
	}
	return url, stop, nil
}

// checkAlive checks that tutord answers GET /health/db, the reference
// harness's liveness probe, within timeout (0 means client.DefaultTimeout).
func checkAlive(ctx context.Context, env Env, base string, timeout time.Duration) error {
	c := &client.Client{BaseURL: base, HTTP: env.HTTP, Timeout: timeout}
	status, _, err := c.Do(ctx, http.MethodGet, "/health/db", nil)
	if err == nil && status != http.StatusOK {
		err = fmt.Errorf("GET /health/db answered %d", status)
	}
	if err != nil {
		return fmt.Errorf("tutord at %s is not answering: %w", base, err)
	}
	return nil
}

// progress prints a line as each scenario ends.
func progress(w io.Writer) func(*runner.Result) {
	return func(r *runner.Result) {
		line := fmt.Sprintf("%-6s %s (%d messages, %.1f s)", map[runner.Status]string{runner.Passed: "PASS", runner.Failed: "FAIL", runner.Error: "ERROR"}[r.Status],
			r.Name, r.Metrics.Turns, float64(r.Duration)/1000)
		switch {
		case r.Error != "":
			line += ": " + r.Error
		case len(r.Failures) > 0:
			line += ": " + r.Failures[0].String()
			if n := len(r.Failures); n > 1 {
				line += fmt.Sprintf(" (and %d more)", n-1)
			}
		}
		fmt.Fprintln(w, line)
	}
}

// writeReports writes the report files the options ask for.
func writeReports(rep *report.Report, o runOptions) error {
	type output struct {
		name  string
		write func(io.Writer, *report.Report) error
	}
	var outs []output
	if o.out != "" {
		outs = append(outs,
			output{filepath.Join(o.out, "report.json"), report.WriteJSON},
			output{filepath.Join(o.out, "junit.xml"), report.WriteJUnit},
			output{filepath.Join(o.out, "report.md"), report.WriteMarkdown},
			output{filepath.Join(o.out, "report.html"), report.WriteHTML})
	}
	for _, x := range []output{{o.reportFile, report.WriteJSON}, {o.junit, report.WriteJUnit}, {o.markdown, report.WriteMarkdown}, {o.html, report.WriteHTML}} {
		if x.name != "" {
			outs = append(outs, x)
		}
	}
	for _, x := range outs {
		if err := writeFile(x.name, func(w io.Writer) error { return x.write(w, rep) }); err != nil {
			return err
		}
	}
	return nil
}
