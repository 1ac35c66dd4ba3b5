package main

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tutord/tutord/internal/config"
)

// runCLI runs tutord in-process and returns its standard output, its
// standard error and its error, as an operator's shell sees them apart.
func runCLI(t *testing.T, environ map[string]string, stdin string, args ...string) (string, string, error) {
	t.Helper()
	if environ == nil {
		environ = map[string]string{}
	}
	var out, errOut bytes.Buffer
	err := run(context.Background(), args, environ, strings.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), err
}

// A bad value of a common flag is a usage error (exit 2) that names the
// flag the operator typed, not the variable it overrides, which they may
// never have set.
func TestBadCommonFlagValueNamesTheFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"migrate", "--log-level", "loud", "version"}, `--log-level: "loud" is not one of debug, info, warn, error`},
		{[]string{"token", "--sub", "x", "--log-format", "xml"}, `--log-format: "xml" is not one of auto, json, text`},
		{[]string{"serve", "--addr", "80"}, `--addr: "80" is not host:port`},
		{[]string{"migrate", "version", "--database-url", "postgres://u:hunter2@[::1"}, "--database-url is malformed"},
	} {
		_, _, err := runCLI(t, map[string]string{"TUTORD_JWT_SECRET": tokenSecret}, "", tc.args...)
		if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "TUTORD_") || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("tutord %s: %v (exit %d); want a usage error (exit 2) with %q, naming no variable and no password",
				strings.Join(tc.args, " "), err, exitCode(err), tc.want)
		}
	}
	// A bad variable is still reported as the variable.
	_, _, err := runCLI(t, map[string]string{"TUTORD_LOG_LEVEL": "loud"}, "", "migrate", "version")
	if err == nil || !strings.Contains(err.Error(), "TUTORD_LOG_LEVEL") {
		t.Errorf("TUTORD_LOG_LEVEL=loud tutord migrate version: %v; want the variable named", err)
	}
}

// A flag overrides its variable even when the variable's value is bad (a
// systemd unit's or a container's, corrected on the command line): the
// flag's value is the one checked.
func TestFlagOverridesABadVariable(t *testing.T) {
	for _, tc := range []struct {
		variable, value string
		flag            []string
	}{
		{"TUTORD_LOG_LEVEL", "verbose", []string{"--log-level", "debug"}},
		{"TUTORD_LOG_FORMAT", "pretty", []string{"--log-format", "json"}},
		{"TUTORD_ADDR", "8080", []string{"--addr", ":8080"}},
	} {
		environ := map[string]string{"TUTORD_JWT_SECRET": tokenSecret, tc.variable: tc.value}
		out, _, err := runCLI(t, environ, "", append([]string{"token", "--sub", "x"}, tc.flag...)...)
		if err != nil || strings.Count(out, ".") != 2 {
			t.Errorf("%s=%s tutord token --sub x %s: %v (exit %d); want the flag to override the variable and a token printed",
				tc.variable, tc.value, strings.Join(tc.flag, " "), err, exitCode(err))
		}
	}
}

// A flag overrides its variable even when the variable's value cannot be
// read as a true/false (TUTORD_MIGRATE=maybe tutord serve --migrate=false):
// the flag's value is used. Without the flag, the variable is reported,
// with its value.
func TestFlagOverridesAnUnreadableBooleanVariable(t *testing.T) {
	environ := map[string]string{"TUTORD_MIGRATE": "maybe"}
	for _, tc := range []struct {
		flag string
		want bool
	}{{"--migrate=false", false}, {"--migrate", true}} {
		cfg, _, err := loadConfig(env{environ: environ}, "serve", []string{tc.flag}, nil)
		if err != nil || cfg.Migrate != tc.want {
			t.Errorf("TUTORD_MIGRATE=maybe tutord serve %s: migrate %v, %v; want the flag's %v", tc.flag, cfg.Migrate, err, tc.want)
		}
	}
	_, _, err := loadConfig(env{environ: environ}, "serve", nil, nil)
	if err == nil || exitCode(err) != 1 || !strings.Contains(err.Error(), `TUTORD_MIGRATE: strconv.ParseBool: parsing "maybe"`) {
		t.Errorf("TUTORD_MIGRATE=maybe tutord serve: %v; want an error (exit 1) naming the variable and its value", err)
	}
}

// The flags of the commands that use the database override unreadable
// variables too: --migrate a bad TUTORD_MIGRATE, and agent-logs'
// --older-than a TUTORD_AGENT_LOG_RETENTION that is no duration, or a
// negative one. Each flag's value is the one used.
func TestDatabaseCommandFlagsOverrideBadVariables(t *testing.T) {
	url := externalDatabase(t)
	purge := []string{"agent-logs", "purge", "--older-than", "720h"}
	environ := map[string]string{"TUTORD_DATABASE_URL": url, "TUTORD_MIGRATE": "maybe"}
	_, _, err := runCLI(t, environ, "", purge...)
	if err == nil || exitCode(err) != 1 || !strings.Contains(err.Error(), `TUTORD_MIGRATE: strconv.ParseBool: parsing "maybe"`) {
		t.Errorf("TUTORD_MIGRATE=maybe tutord %s: %v; want an error (exit 1) naming the variable and its value", strings.Join(purge, " "), err)
	}
	// The database is not migrated yet: with --migrate=false, purge says so.
	_, _, err = runCLI(t, environ, "", append(purge, "--migrate=false")...)
	if err == nil || !strings.Contains(err.Error(), "run tutord migrate up") {
		t.Errorf("TUTORD_MIGRATE=maybe tutord %s --migrate=false on an unmigrated database: %v; want it to say to run tutord migrate up", strings.Join(purge, " "), err)
	}
	// This first purge keeps ten years: the entries seeded next, written
	// after its cutoff, are the next purge's to remove.
	firstPurge := []string{"agent-logs", "purge", "--older-than", "87600h", "--migrate"}
	if _, errOut, err := runCLI(t, environ, "", firstPurge...); err != nil {
		t.Errorf("TUTORD_MIGRATE=maybe tutord %s: %v; want the database migrated and purged\n%s", strings.Join(firstPurge, " "), err, errOut)
	}

	seedAgentLogs(t, url)
	for _, tc := range []struct{ value, want string }{
		{"forever", `TUTORD_AGENT_LOG_RETENTION: unable to parse duration: time: invalid duration "forever"`},
		{"-1h", "TUTORD_AGENT_LOG_RETENTION: must not be negative"},
	} {
		environ := map[string]string{"TUTORD_DATABASE_URL": url, "TUTORD_AGENT_LOG_RETENTION": tc.value}
		_, _, err := runCLI(t, environ, "", "agent-logs", "purge")
		if err == nil || exitCode(err) != 1 || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("TUTORD_AGENT_LOG_RETENTION=%s tutord agent-logs purge: %v; want an error (exit 1) with %q", tc.value, err, tc.want)
		}
	}
	environ = map[string]string{"TUTORD_DATABASE_URL": url, "TUTORD_AGENT_LOG_RETENTION": "forever"}
	out, errOut, err := runCLI(t, environ, "", purge...)
	if want := "deleted the agent logs of 1 turns and 1 other entries older than 720h0m0s"; err != nil || !strings.Contains(out, want) {
		t.Errorf("TUTORD_AGENT_LOG_RETENTION=forever tutord %s: %q, %v; want %q\n%s", strings.Join(purge, " "), out, err, want, errOut)
	}
	// At -1h, the variable would fail serve; the flag's 1ns purges the rest.
	environ["TUTORD_AGENT_LOG_RETENTION"] = "-1h"
	out, errOut, err = runCLI(t, environ, "", "agent-logs", "purge", "--older-than", "1ns")
	if want := "of 1 turns and 0 other entries older than 1ns"; err != nil || !strings.Contains(out, want) {
		t.Errorf("TUTORD_AGENT_LOG_RETENTION=-1h tutord agent-logs purge --older-than 1ns: %q, %v; want %q\n%s", out, err, want, errOut)
	}
}

// The command comes first ("tutord [command] [flags] [arguments]"): flags
// before it are not taken for serve's, which would then call the command
// an argument of serve.
func TestFlagsBeforeTheCommandSaySo(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--database-url=postgres://u:hunter2@127.0.0.1:1/x", "migrate", "up"}, "flags go after the command: tutord migrate [flags]"},
		{[]string{"--log-level", "debug", "version"}, "flags go after the command: tutord version"},
	} {
		_, _, err := runCLI(t, nil, "", tc.args...)
		if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("tutord %q: %v (exit %d); want a usage error with %q (and no password)", tc.args, err, exitCode(err), tc.want)
		}
	}
	// Flags alone, or with arguments that are no command, are serve's.
	if _, _, err := runCLI(t, nil, "", "--addr", "127.0.0.1:0", "extra"); err == nil || !strings.Contains(err.Error(), "serve takes no arguments") {
		t.Errorf("tutord --addr 127.0.0.1:0 extra: %v; want serve's error", err)
	}
}

// version answers --help like every other command: its usage on standard
// output, and exit 0.
func TestVersionHelp(t *testing.T) {
	for _, h := range []string{"--help", "-h"} {
		out, _, err := runCLI(t, nil, "", "version", h)
		if err != errHelp || !strings.HasPrefix(out, "Usage: tutord version\n") {
			t.Errorf("tutord version %s: %v (exit %d), output %q; want its usage and exit 0", h, err, exitCode(err), out)
		}
	}
}

// A duration flag's error says what a duration looks like: "1d" and "10"
// are natural guesses, and the flag package's own error is only "parse
// error".
func TestDurationFlagErrorSaysWhatADurationIs(t *testing.T) {
	environ := map[string]string{"TUTORD_JWT_SECRET": tokenSecret}
	for _, ttl := range []string{"1d", "10"} {
		_, _, err := runCLI(t, environ, "", "token", "--sub", "x", "--ttl", ttl)
		if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), "-ttl: not a duration such as 24h or 90m") {
			t.Errorf("token --ttl %s: %v (exit %d); want a usage error saying a duration such as 24h is expected", ttl, err, exitCode(err))
		}
	}
	out, _, err := runCLI(t, environ, "", "token", "--help")
	if err != errHelp || !strings.Contains(out, "-ttl duration") || !strings.Contains(out, "(default 24h0m0s)") {
		t.Errorf("token --help: %v; want --ttl shown as a duration with its default:\n%s", err, out)
	}
	// bench too, whose flags go anywhere as well and whose help goes to
	// standard output.
	if _, _, err := runCLI(t, nil, "", "bench", "--json", "--duration", "1d"); err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), "-duration: not a duration") {
		t.Errorf("bench --duration 1d: %v (exit %d); want a usage error saying what a duration is", err, exitCode(err))
	}
	out, _, err = runCLI(t, nil, "", "bench", "--help")
	if err != errHelp || !strings.Contains(out, "-duration duration") || !strings.Contains(out, "(default 10s)") {
		t.Errorf("bench --help: %v; want its flags on standard output:\n%s", err, out)
	}
}

// Flags go anywhere on the line, the action's arguments included, so the
// usage errors do not tell the operator to put them before the action.
func TestUsageErrorsDoNotMisstateFlagOrder(t *testing.T) {
	for _, args := range [][]string{{"llm-config"}, {"llm-config", "frobnicate"}, {"curriculum", "export"}} {
		_, _, err := runCLI(t, nil, "", args...)
		if exitCode(err) != 2 || strings.Contains(err.Error(), "before the action") {
			t.Errorf("tutord %q: %v (exit %d); want a usage error that does not say flags go before the action", args, err, exitCode(err))
		}
	}
}

// seedAgentLogs migrates the database at url and stores a session with a
// turn committed 60 days ago, a turn committed now, each with one entry,
// and an agent_logs row of 60 days ago.
func seedAgentLogs(t *testing.T, url string) {
	t.Helper()
	if _, errOut, err := runCLI(t, map[string]string{"TUTORD_DATABASE_URL": url}, "", "migrate", "up"); err != nil {
		t.Fatalf("migrate up: %v\n%s", err, errOut)
	}
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	_, err = conn.Exec(context.Background(), `
WITH s AS (
    INSERT INTO sessions (id, mode, state_json) VALUES (gen_random_uuid(), 'teach_me', '{}') RETURNING id
), turns AS (
    INSERT INTO session_turns (session_id, version, response, created_at, logs)
    SELECT id, v, '{}', now() - make_interval(days => d), '[{"turn_id":"t","agent":"master_tutor","event":"completed","prompt":"Student: hi"}]'
    FROM s, (VALUES (2, 60), (3, 0)) AS t(v, d)
)
INSERT INTO agent_logs (session_id, turn_id, agent, event, created_at)
SELECT id, 'turn_0', 'welcome', 'completed', now() - interval '60 days' FROM s`)
	if err != nil {
		t.Fatal(err)
	}
}

// agentLogsLeft returns how many turns keep their trace and how many
// agent_logs rows are left in the database at url.
func agentLogsLeft(t *testing.T, url string) (turns, rows int) {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	err = conn.QueryRow(context.Background(), `
SELECT (SELECT count(*) FROM session_turns WHERE logs IS NOT NULL), (SELECT count(*) FROM agent_logs)`).Scan(&turns, &rows)
	if err != nil {
		t.Fatal(err)
	}
	return turns, rows
}

// `tutord agent-logs purge` deletes the entries older than --older-than,
// or than TUTORD_AGENT_LOG_RETENTION, and keeps the newer ones.
func TestAgentLogsPurgeCommand(t *testing.T) {
	for _, bad := range [][]string{{"agent-logs"}, {"agent-logs", "purge"}, {"agent-logs", "purge", "--older-than", "-1h"}, {"agent-logs", "prune"}} {
		if _, _, err := runCLI(t, nil, "", bad...); exitCode(err) != 2 {
			t.Errorf("%v: err = %v, want a usage error", bad, err)
		}
	}
	url := externalDatabase(t)
	seedAgentLogs(t, url)
	out, errOut, err := runCLI(t, map[string]string{"TUTORD_DATABASE_URL": url}, "", "agent-logs", "purge", "--older-than", "720h")
	if err != nil {
		t.Fatalf("purge: %v\n%s", err, errOut)
	}
	if want := "deleted the agent logs of 1 turns and 1 other entries older than 720h0m0s"; !strings.Contains(out, want) {
		t.Errorf("purge said %q, want %q", out, want)
	}
	if turns, rows := agentLogsLeft(t, url); turns != 1 || rows != 0 {
		t.Errorf("%d turns keep their trace and %d agent_logs rows are left; want the recent turn's only", turns, rows)
	}
	// The setting stands for the flag: at 1ns, the recent turn's trace goes too.
	env := map[string]string{"TUTORD_DATABASE_URL": url, "TUTORD_AGENT_LOG_RETENTION": "1ns"}
	if out, errOut, err := runCLI(t, env, "", "agent-logs", "purge"); err != nil || !strings.Contains(out, "of 1 turns and 0 other") {
		t.Errorf("purge by the setting: %q, %v\n%s", out, err, errOut)
	}
}

// With TUTORD_AGENT_LOG_RETENTION set, serve's purge runs at once, logs
// what it deleted, and stops when its context ends.
func TestServePurgesAgentLogsAtStart(t *testing.T) {
	url := externalDatabase(t)
	seedAgentLogs(t, url)
	cfg, err := config.Load(map[string]string{"TUTORD_DATABASE_URL": url})
	if err != nil {
		t.Fatal(err)
	}
	db, err := openDatabase(context.Background(), cfg, slog.New(slog.DiscardHandler), dbUse{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.close(context.Background(), slog.New(slog.DiscardHandler))

	var logged bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		purgeAgentLogs(ctx, db.store, 720*time.Hour, time.Hour, slog.New(slog.NewTextHandler(&logged, nil)))
	}()
	deadline := time.Now().Add(30 * time.Second)
	for turns, rows := agentLogsLeft(t, url); turns != 1 || rows != 0; turns, rows = agentLogsLeft(t, url) {
		if time.Now().After(deadline) {
			t.Fatalf("%d turns keep their trace and %d agent_logs rows are left; want the recent turn's only", turns, rows)
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-done
	if want := `msg="purged agent logs" turns=1 entries=1 retention=720h0m0s`; !strings.Contains(logged.String(), want) {
		t.Errorf("logged %q, want %q", logged.String(), want)
	}
}
