package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tutord/tutord/internal/pgembed"
)

// binary is the tutord binary built once for the tests that run it as a
// subprocess, as a user would.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "tutord-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "tutord")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build tutord: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// dataDir returns an empty directory the server account can reach.
func dataDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "tutord-data-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

type proc struct {
	cmd    *exec.Cmd
	addr   string
	stderr *bytes.Buffer
	done   chan error
}

// startServe starts `tutord serve` and waits until it logs its address.
func startServe(t *testing.T, env ...string) *proc {
	t.Helper()
	cmd := exec.Command(binary, "serve")
	cmd.Env = append(os.Environ(), append([]string{"TUTORD_ADDR=127.0.0.1:0", "TUTORD_LOG_FORMAT=json", "TUTORD_DATABASE_URL="}, env...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &proc{cmd: cmd, stderr: &bytes.Buffer{}, done: make(chan error, 1)}
	addrc := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			p.stderr.WriteString(line + "\n")
			var rec struct{ Msg, Addr string }
			if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "listening" {
				addrc <- rec.Addr
			}
		}
		p.done <- cmd.Wait()
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-p.done:
			case <-time.After(30 * time.Second):
				_ = cmd.Process.Kill()
			}
		}
	})
	select {
	case p.addr = <-addrc:
	case err := <-p.done:
		t.Fatalf("tutord exited before listening: %v\n%s", err, p.stderr)
	case <-time.After(90 * time.Second):
		t.Fatalf("tutord did not start listening\n%s", p.stderr)
	}
	return p
}

func (p *proc) get(t *testing.T, path string) (int, string) {
	t.Helper()
	resp, err := http.Get("http://" + p.addr + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func (p *proc) waitReady(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		code, body := p.get(t, "/readyz")
		if code == http.StatusOK {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz = %d %s", code, body)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (p *proc) stop(t *testing.T) {
	t.Helper()
	p.stopWithin(t, 60*time.Second, "")
}

// stopWithin sends p SIGTERM and fails the test unless it exits 0 within
// d; still describes what was still running, if anything.
func (p *proc) stopWithin(t *testing.T, d time.Duration, still string) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-p.done:
		if err != nil {
			t.Fatalf("tutord exited with %v after SIGTERM\n%s", err, p.stderr)
		}
	case <-time.After(d):
		t.Fatalf("tutord did not exit within %s of SIGTERM%s\n%s", d, still, p.stderr)
	}
}

func postmasterPID(t *testing.T, dir string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "pgdata", "postmaster.pid"))
	if err != nil {
		t.Fatalf("no running embedded server: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0]))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

func TestServeWithEmbeddedDatabase(t *testing.T) {
	dir := dataDir(t)
	ctx := context.Background()
	conn := "host=" + filepath.Join(dir, "run") + " user=tutord dbname=tutord sslmode=disable"

	p := startServe(t, "TUTORD_DATA_DIR="+dir)
	p.waitReady(t)
	for path, want := range map[string]string{"/": `"status":"ok"`, "/health": `{"status":"ok"}`, "/health/db": `"database":"connected"`, "/healthz": `"ok"`} {
		if code, body := p.get(t, path); code != 200 || !strings.Contains(body, want) {
			t.Errorf("GET %s = %d %s; want 200 with %s", path, code, body, want)
		}
	}
	db, err := pgx.Connect(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(ctx, `INSERT INTO sessions (id, mode, state_json) VALUES ('7f5b6c2e-2a40-4a57-9a4e-000000000001', 'teach_me', '{"kept": true}')`); err != nil {
		t.Fatal(err)
	}
	db.Close(ctx)
	pid := postmasterPID(t, dir)
	p.stop(t)
	if err := syscall.Kill(pid, 0); err == nil {
		t.Fatalf("PostgreSQL (pid %d) still running after tutord exited", pid)
	}

	p = startServe(t, "TUTORD_DATA_DIR="+dir)
	p.waitReady(t)
	db, err = pgx.Connect(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(ctx)
	var kept bool
	if err := db.QueryRow(ctx, `SELECT (state_json->>'kept')::bool FROM sessions WHERE id = '7f5b6c2e-2a40-4a57-9a4e-000000000001'`).Scan(&kept); err != nil || !kept {
		t.Fatalf("data written before the restart: %v, %v", kept, err)
	}
}

func TestSecondServeOnSameDataDirRefuses(t *testing.T) {
	dir := dataDir(t)
	startServe(t, "TUTORD_DATA_DIR="+dir).waitReady(t)
	out, code := runBinary(t, []string{"TUTORD_DATA_DIR=" + dir, "TUTORD_ADDR=127.0.0.1:0"}, "serve")
	if code == 0 || !strings.Contains(lastLine(out), "in use by another tutord process") {
		t.Fatalf("second serve: exit %d, last line %q", code, lastLine(out))
	}
}

// A command on the data directory of a running `tutord serve` (README:
// llm-config changes reach running servers within 5 s) uses that serve's
// embedded server as a client: it used to fail with "in use by another
// tutord process". The server keeps running, untouched.
func TestCommandBesideServeUsesItsServer(t *testing.T) {
	dir := dataDir(t)
	p := startServe(t, "TUTORD_DATA_DIR="+dir)
	p.waitReady(t)
	pid := postmasterPID(t, dir)
	out, errOut, code := tutord(t, dir, "llm-config", "list")
	if code != 0 || !strings.Contains(out, "COMPONENT") {
		t.Fatalf("tutord llm-config list while tutord serve runs on the same data directory: exit %d, %q, %q", code, out, lastLine(errOut))
	}
	if _, errOut, code := tutord(t, dir, "curriculum", "export", "--out", t.TempDir()); code != 0 {
		t.Fatalf("tutord curriculum export beside tutord serve: exit %d, %q", code, lastLine(errOut))
	}
	if got := postmasterPID(t, dir); got != pid {
		t.Fatalf("the server is pid %d after the commands, want %d", got, pid)
	}
	p.waitReady(t)
}

// runBinary runs tutord to completion and returns its stderr and exit code.
func runBinary(t *testing.T, env []string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), append([]string{"TUTORD_LOG_FORMAT=json", "TUTORD_DATABASE_URL="}, env...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return stderr.String(), code
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

func TestBadStartupInputFailsWithOneClearLine(t *testing.T) {
	file := filepath.Join(dataDir(t), "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		env  []string
		want string
	}{
		{"malformed database URL", []string{"TUTORD_DATABASE_URL=postgres://u:hunter2@[::1"}, "TUTORD_DATABASE_URL is malformed"},
		{"unreachable database", []string{"TUTORD_DATABASE_URL=postgres://u:hunter2@127.0.0.1:1/x?connect_timeout=2"}, "cannot reach the database"},
		{"data dir not writable", []string{"TUTORD_DATA_DIR=" + filepath.Join(file, "data")}, "data directory"},
		{"bad log level", []string{"TUTORD_LOG_LEVEL=loud"}, "TUTORD_LOG_LEVEL"},
		{"bad duration", []string{"TUTORD_SHUTDOWN_TIMEOUT=soon"}, "TUTORD_SHUTDOWN_TIMEOUT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, code := runBinary(t, append(tt.env, "TUTORD_ADDR=127.0.0.1:0"), "serve")
			line := lastLine(out)
			if code == 0 {
				t.Fatalf("exit 0; want failure")
			}
			if !strings.HasPrefix(line, "tutord: ") || !strings.Contains(line, tt.want) {
				t.Fatalf("last line %q; want tutord: ... %s", line, tt.want)
			}
			if strings.Contains(out, "goroutine ") || strings.Contains(out, "panic") || strings.Contains(out, "hunter2") {
				t.Fatalf("output has a stack trace or a password:\n%s", out)
			}
		})
	}
}

// TestDatabasePasswordWithReservedCharactersNotLogged: a generated password
// holding an unencoded '#', '/' or '?' stays out of the configuration
// logged at start, whether pgx then connects with it or fails to parse.
func TestDatabasePasswordWithReservedCharactersNotLogged(t *testing.T) {
	for _, pw := range []string{"Xk#93secretpw", "Xk/93secretpw", "Xk?93secretpw"} {
		url := "postgres://tutord:" + pw + "@127.0.0.1:1/tutord"
		out, code := runBinary(t, []string{"TUTORD_DATABASE_URL=" + url, "TUTORD_DB_CONNECT_TIMEOUT=1s", "TUTORD_ADDR=127.0.0.1:0"}, "serve")
		if strings.Contains(out, "93secretpw") {
			t.Errorf("TUTORD_DATABASE_URL with password %q: tutord (exit %d) logged the password:\n%s", pw, code, out)
		}
	}
}

func TestCommandLine(t *testing.T) {
	tests := []struct {
		args     []string
		wantErr  string
		wantCode int
	}{
		{[]string{"frobnicate"}, `unknown command "frobnicate"`, 2},
		{[]string{"migrate"}, "migrate needs an action", 2},
		{[]string{"migrate", "down"}, "needs the number", 2},
		{[]string{"migrate", "down", "x"}, `"x" is not a positive number`, 2},
		{[]string{"migrate", "sideways"}, `unknown action "sideways"`, 2},
		{[]string{"serve", "extra"}, "serve takes no arguments", 2},
		{[]string{"serve", "--no-such-flag"}, "flag provided but not defined", 2},
		{[]string{"bench", "--rounds", "0"}, "counts must be positive", 2},
		{[]string{"bench", "--duration", "-1s"}, "durations and counts must be positive", 2},
		{[]string{"bench", "extra"}, "bench takes no arguments", 2},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			err := run(context.Background(), tt.args, map[string]string{}, strings.NewReader(""), &out, &errOut)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || exitCode(err) != tt.wantCode {
				t.Fatalf("err = %v (exit %d); want %q (exit %d)", err, exitCode(err), tt.wantErr, tt.wantCode)
			}
		})
	}
}

func TestHelpListsEverySetting(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), []string{"--help"}, nil, nil, &out, io.Discard); err != errHelp {
		t.Fatalf("err = %v", err)
	}
	for _, want := range []string{"TUTORD_ADDR", ":8080", "TUTORD_DATABASE_URL", "TUTORD_DATA_DIR", "TUTORD_MIGRATE", "TUTORD_LOG_LEVEL", "TUTORD_LOG_FORMAT", "migrate up | down N | version | force V", "-addr",
		// The flags with their defaults.
		"(TUTORD_MIGRATE) (default true)", `(TUTORD_ADDR) (default ":8080")`, `(TUTORD_LOG_LEVEL) (default "info")`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("--help does not mention %q", want)
		}
	}
}

// A command's --help lists its own flags, wherever it is on the line.
func TestCommandHelpListsItsFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"llm-config", "--help"}, []string{"Usage: tutord llm-config", "-effort", "-temperature", "-max-output-tokens", "-database-url"}},
		{[]string{"llm-config", "set", "tutor", "-h"}, []string{"-effort"}},
		{[]string{"token", "--help"}, []string{"Usage: tutord token", "-email", "-name"}},
		{[]string{"migrate", "--help"}, []string{"Usage: tutord migrate [flags] up | down N | version | force V", "(default true)"}},
	} {
		var out bytes.Buffer
		if err := run(context.Background(), tc.args, map[string]string{}, strings.NewReader(""), &out, io.Discard); err != errHelp {
			t.Fatalf("%v: err = %v", tc.args, err)
		}
		for _, w := range tc.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("tutord %s does not show %q:\n%s", strings.Join(tc.args, " "), w, out.String())
			}
		}
	}
}

func TestMigrateUpDownVersion(t *testing.T) {
	dir := dataDir(t)
	env := []string{"TUTORD_DATA_DIR=" + dir}
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(binary, args...)
		cmd.Env = append(os.Environ(), append([]string{"TUTORD_LOG_FORMAT=json", "TUTORD_DATABASE_URL="}, env...)...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("tutord %s: %v", strings.Join(args, " "), err)
		}
		return string(out)
	}
	if out := run("migrate", "version"); !strings.Contains(out, "schema version 0") {
		t.Fatalf("fresh database: %s", out)
	}
	if errOut, code := runBinary(t, env, "migrate", "down", "1"); code != 1 || !strings.Contains(lastLine(errOut), "only 0 migrations are applied") {
		t.Errorf("down 1 on a fresh database: exit %d, %q", code, lastLine(errOut))
	}
	latest := run("migrate", "up")
	if strings.Contains(latest, "schema version 0 ") {
		t.Fatalf("after up: %s", latest)
	}
	// Every down works: roll back all the way, then up again.
	var n int
	fmt.Sscanf(latest, "schema version %d", &n)
	if out := run("migrate", "down", strconv.Itoa(n)); !strings.Contains(out, "schema version 0") {
		t.Fatalf("after down %d: %s", n, out)
	}
	if out := run("migrate", "up"); out != latest {
		t.Fatalf("up after down: %q, want %q", out, latest)
	}
	// Rolling back more than is applied is refused, and changes nothing.
	errOut, code := runBinary(t, env, "migrate", "down", strconv.Itoa(n+1))
	if want := fmt.Sprintf("only %d migrations are applied; nothing was rolled back", n); code != 1 || !strings.Contains(lastLine(errOut), want) {
		t.Errorf("down %d: exit %d, %q; want %q", n+1, code, lastLine(errOut), want)
	}
	if out := run("migrate", "version"); out != latest {
		t.Fatalf("after a refused down: %q, want %q", out, latest)
	}
}

// externalDatabase starts a private cluster to stand for an operator's
// PostgreSQL and returns a connection string (keyword/value form) to an
// empty tutord database on it.
func externalDatabase(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	c, err := pgembed.Start(ctx, pgembed.Options{DataDir: dataDir(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Stop(context.Background()) })
	if err := c.CreateDatabase(ctx, "tutord"); err != nil {
		t.Fatal(err)
	}
	return c.ConnString("tutord")
}

// The README says that pgx's parameters apply in TUTORD_DATABASE_URL, and
// the pool takes its own (pool_max_conn_lifetime, pool_max_conns...): the
// migrations, which `migrate up` and serve (TUTORD_MIGRATE=true) run on
// their own connection, must accept the same URL rather than pass those
// parameters to PostgreSQL as settings it refuses ("unrecognized
// configuration parameter").
func TestPoolParametersInDatabaseURL(t *testing.T) {
	base := externalDatabase(t)
	for _, param := range []string{"pool_max_conn_lifetime=30m", "pool_max_conns=5"} {
		t.Run(param, func(t *testing.T) {
			env := []string{"TUTORD_DATABASE_URL=" + base + " " + param, "TUTORD_ADDR=127.0.0.1:0"}
			if out, code := runBinary(t, env, "migrate", "up"); code != 0 {
				t.Errorf("tutord migrate up with %s in TUTORD_DATABASE_URL: exit %d, %q; want the migrations applied", param, code, lastLine(out))
			}
		})
	}
}

func TestCheckAnswer(t *testing.T) {
	tests := []struct {
		args  []string
		stdin string
		want  string
	}{
		{[]string{"--expected", "3/4", "I think it's 0.75"}, "", `{"verdict":"correct","extracted":"0.75","kind":"fraction"}`},
		{[]string{"--expected", "3/4", "--kind", "fraction", "-"}, "the answer is 2/3", `{"verdict":"incorrect","extracted":"2/3","kind":"fraction"}`},
		{[]string{"--expected", "12 cm", "--require-unit", "12"}, "", `"verdict":"partial"`},
		{[]string{"--expected", "B", "--option", "2", "--option", "4", "the second one, 4"}, "", `"verdict":"correct"`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var out bytes.Buffer
			err := run(context.Background(), append([]string{"check-answer"}, tt.args...), nil, strings.NewReader(tt.stdin), &out, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), tt.want) {
				t.Fatalf("output %s; want %s", out.String(), tt.want)
			}
		})
	}
	for _, bad := range [][]string{{"x"}, {"--expected", "1"}, {"--expected", "1", "--kind", "colour", "1"}, {"--expected", "1", "--tolerance", "-1", "1"}} {
		err := run(context.Background(), append([]string{"check-answer"}, bad...), nil, nil, io.Discard, io.Discard)
		if exitCode(err) != 2 {
			t.Errorf("check-answer %v: err = %v, want a usage error", bad, err)
		}
	}
}
