// Package eval is tutord's evaluation harness: the `tutord eval` commands.
//
//	run SUITE            play a suite of scenarios against a tutord and report
//	import-mathdial FILE turn MathDial conversations into a curriculum and scenarios, and replay them
//	leak-bench FILE      score the answer-leak detector against MRBench's labels
//	compare OLD NEW      compare two JSON reports and fail on a regression
//
// Main runs them; cmd/tutord supplies the Env. The harness talks to tutord
// only through its public REST and WebSocket API, as an outside client
// would: subpackage scenario reads the scenario format, learner plays
// simulated learners, client speaks the API, runner plays and scores
// scenarios, report writes the reports, and mathdial and mrbench bring in
// the public datasets.
package eval

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Env is what the commands need of their surroundings.
type Env struct {
	Stdout, Stderr io.Writer
	// Getenv reads the environment (TUTORD_JWT_SECRET and the other
	// TUTORD_JWT_* settings); nil reads nothing.
	Getenv func(string) string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Embedded starts a throwaway tutord for --embedded and
	// import-mathdial --run; nil makes those fail.
	Embedded Embedded
	// HTTP sends the harness's requests; nil means http.DefaultClient.
	HTTP *http.Client
}

// Embedded starts a throwaway tutord and returns its base URL and a
// function that stops it and removes what it made. The server must use an
// embedded database and the rules engine, serve the curriculum of
// cfg.CurriculumDir (the shipped sample when empty), verify HS256 tokens
// with cfg.JWTSecret (no issuer, no audience, admin claim role=admin),
// allow anonymous sessions and not rate-limit.
type Embedded func(ctx context.Context, cfg EmbeddedConfig) (baseURL string, stop func(), err error)

// EmbeddedConfig configures an embedded tutord.
type EmbeddedConfig struct {
	// CurriculumDir is a directory of curriculum files to serve (what
	// TUTORD_CURRICULUM_DIR does); empty serves the shipped sample.
	CurriculumDir string
	// JWTSecret is the HS256 secret the server verifies tokens with (what
	// TUTORD_JWT_SECRET does).
	JWTSecret string
}

// UsageError is a mistake in the command line (exit status 2).
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

func usagef(format string, args ...any) error { return &UsageError{Msg: fmt.Sprintf(format, args...)} }

// FailedError reports a run whose suite did not pass: failed or errored
// scenarios, or scenario files that could not be read (exit status 1).
type FailedError struct {
	Failed, Errors, Invalid int
}

func (e *FailedError) Error() string {
	return fmt.Sprintf("the suite did not pass: %d failed, %d errors, %d invalid scenario files", e.Failed, e.Errors, e.Invalid)
}

// RegressionError reports regressions found by compare (exit status 1).
type RegressionError struct {
	Regressions []string
}

func (e *RegressionError) Error() string {
	return fmt.Sprintf("%d regression(s): %s", len(e.Regressions), strings.Join(e.Regressions, "; "))
}

// ErrHelp is returned when usage was printed on request.
var ErrHelp = errors.New("help requested")

const usage = `Usage: tutord eval COMMAND [flags]

Commands:
  run SUITE...          play scenario files (or directories of them) against a tutord
      --url URL             tutord's base URL (or --embedded)
      --embedded            start a throwaway tutord (embedded database, rules engine) for the run
      --jwt-secret S        tutord's HS256 secret: each scenario gets its own learner token
                            (default $TUTORD_JWT_SECRET; issuer, audience and admin claim from
                            $TUTORD_JWT_ISSUER, $TUTORD_JWT_AUDIENCE, $TUTORD_JWT_ADMIN_CLAIM)
      --token T             one learner's access token for every scenario (they then run one at a time)
      --curriculum DIR      the curriculum the suite runs on (default: the shipped sample)
      --concurrency N       scenarios at once (default 4; 1 with --token)
      --seed S              seed of the simulated learners (default 1)
      --filter RE           run only the scenarios whose name matches RE
      --frame-timeout D     longest wait for a WebSocket frame (default 90s)
      --request-timeout D   longest wait for the answer to a REST request, and for the
                            WebSocket to open (default 30s); the scenario is then an error
      --out DIR             write report.json, junit.xml, report.md and report.html to DIR
      --report F, --junit F, --markdown F, --html F   write one report
      --json                print the report without transcripts as one JSON object
  import-mathdial FILE  make a curriculum and scenarios from MathDial conversations
      --out DIR             where to write them (curriculum/ and scenarios/)
      --run                 replay them against an embedded tutord and score them (only this
                            import's scenarios, not those an earlier import left in DIR);
                            fails if a replay errors or none is scored
      --limit N             only the first N labelled conversations
      --concurrency N       replays at once (default 8)
      --json                print the figures as one JSON object
  leak-bench FILE       score the answer-leak detector against MRBench's labels
      --verbose             list the responses it misjudges
      --json                print the figures as one JSON object
  compare OLD.json NEW.json   compare two run reports
      --threshold X         tolerated worsening: points of a rate, or relative rise of a count (default 0.05)
      --json                print the comparison as one JSON object

Every command exits 0 on success, 1 on failure (a failed suite or replay, a regression), 2 on a usage error.
`

// Main runs an eval command; args are its arguments after "eval".
func Main(ctx context.Context, args []string, env Env) error {
	if env.Stdout == nil {
		env.Stdout = io.Discard
	}
	if env.Stderr == nil {
		env.Stderr = io.Discard
	}
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	if env.Now == nil {
		env.Now = time.Now
	}
	if len(args) == 0 {
		fmt.Fprint(env.Stderr, usage)
		return usagef("eval needs a command: run, import-mathdial, leak-bench or compare")
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "run":
		return runSuite(ctx, rest, env)
	case "import-mathdial":
		return importMathDial(ctx, rest, env)
	case "leak-bench":
		return leakBench(rest, env)
	case "compare":
		return compare(rest, env)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(env.Stdout, usage)
		return ErrHelp
	}
	return usagef("unknown eval command %q; run tutord eval help", cmd)
}
