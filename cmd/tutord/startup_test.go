package main

import (
	"bufio"
	"context"
	"errors"
	"io/fs"
	"net"
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
	"github.com/tutord/tutord/internal/store"
)

// execInEmbedded runs sql on the tutord database of the (stopped) embedded
// cluster in dir.
func execInEmbedded(t *testing.T, dir, sql string) {
	t.Helper()
	ctx := context.Background()
	c, err := pgembed.Start(ctx, pgembed.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop(ctx)
	conn, err := pgx.Connect(ctx, c.ConnString("tutord"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql); err != nil {
		t.Fatal(err)
	}
}

// A migration interrupted half-way leaves the schema dirty: the start-up
// error names the command that gets the operator out, and `tutord migrate
// force` is that command (editing schema_migrations by hand was the only
// way).
func TestDirtySchemaHasAWayOut(t *testing.T) {
	dir := dataDir(t)
	env := []string{"TUTORD_DATA_DIR=" + dir}
	if out, code := runBinary(t, env, "migrate", "up"); code != 0 {
		t.Fatalf("migrate up: %s", out)
	}
	latest := store.LatestVersion()
	if out, code := runBinary(t, env, "migrate", "down", "1"); code != 0 {
		t.Fatalf("migrate down 1: %s", out)
	}
	// What an interrupted "up" of the latest migration leaves behind.
	execInEmbedded(t, dir, "UPDATE schema_migrations SET version = "+strconv.Itoa(int(latest))+", dirty = true")

	out, code := runBinary(t, append(env, "TUTORD_ADDR=127.0.0.1:0"), "serve")
	line := lastLine(out)
	t.Logf("serve on a dirty schema: exit %d, %q", code, line)
	if code == 0 {
		t.Fatal("serve started on a dirty schema")
	}
	if !strings.Contains(line, "tutord migrate") {
		t.Errorf("the start-up error does not say which tutord command gets the operator out: %q", line)
	}
	fixOut, fixCode := runBinary(t, env, "migrate", "force", strconv.Itoa(int(latest)-1))
	if fixCode != 0 {
		t.Errorf("no way to clear the dirty flag with tutord: migrate force %d: exit %d, %q", latest-1, fixCode, lastLine(fixOut))
	}
}

// An older tutord on a schema a newer one migrated (a rolled-back
// deployment) says so, and which version it knows, rather than "no
// migration found for version N: file does not exist".
func TestNewerSchemaSaysSo(t *testing.T) {
	dir := dataDir(t)
	env := []string{"TUTORD_DATA_DIR=" + dir}
	if out, code := runBinary(t, env, "migrate", "up"); code != 0 {
		t.Fatalf("migrate up: %s", out)
	}
	newer := int(store.LatestVersion()) + 1
	execInEmbedded(t, dir, "UPDATE schema_migrations SET version = "+strconv.Itoa(newer))
	out, code := runBinary(t, append(env, "TUTORD_ADDR=127.0.0.1:0"), "serve")
	line := lastLine(out)
	t.Logf("serve on a newer schema: exit %d, %q", code, line)
	if code == 0 {
		t.Fatal("serve started on a schema newer than the binary")
	}
	if !strings.Contains(line, "newer") || !strings.Contains(line, strconv.Itoa(int(store.LatestVersion()))) {
		t.Errorf("the error does not say the schema (%d) is newer than this binary's (%d): %q", newer, store.LatestVersion(), line)
	}
}

// SIGTERM while tutord starts (the embedded database starting) is a
// clean stop with status 0, as after it listens, not a failure of the step
// it interrupted.
func TestStopDuringStartUp(t *testing.T) {
	dir := dataDir(t)
	// Initialise the cluster first, so that the signal lands in the start of
	// an existing one.
	if out, code := runBinary(t, []string{"TUTORD_DATA_DIR=" + dir}, "migrate", "version"); code != 0 {
		t.Fatalf("migrate version: %s", out)
	}
	cmd := exec.Command(binary, "serve")
	cmd.Env = append(os.Environ(), "TUTORD_ADDR=127.0.0.1:0", "TUTORD_LOG_FORMAT=json", "TUTORD_DATABASE_URL=", "TUTORD_DATA_DIR="+dir)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	}()
	var log strings.Builder
	sc := bufio.NewScanner(stderr)
	signalled := false
	for sc.Scan() {
		line := sc.Text()
		log.WriteString(line + "\n")
		if !signalled && strings.Contains(line, "starting the embedded PostgreSQL") {
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			signalled = true
		}
	}
	err = cmd.Wait()
	if !signalled {
		t.Fatalf("never saw the embedded database start:\n%s", log.String())
	}
	if strings.Contains(log.String(), `"msg":"listening"`) {
		t.Fatal("setup: the whole start-up finished before the signal arrived")
	}
	if err != nil {
		t.Fatalf("SIGTERM during start-up: %v, last line %q; want a clean stop (exit 0)", err, lastLine(log.String()))
	}
}

// A first start killed while initdb runs (docker kill, the OOM killer, a
// power cut: tutord and initdb die at once) used to leave a pgdata with
// PG_VERSION and no usable cluster, and every later start failed. initdb
// now works in pgdata.initdb, renamed to pgdata when done; the next start
// removes the unfinished one and comes up.
func TestFirstStartKilledDuringInitdbRecovers(t *testing.T) {
	dir := dataDir(t)
	cmd := exec.Command(binary, "serve")
	cmd.Env = append(os.Environ(), "TUTORD_ADDR=127.0.0.1:0", "TUTORD_LOG_FORMAT=json", "TUTORD_DATABASE_URL=", "TUTORD_DATA_DIR="+dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	// Wait until initdb has begun writing the cluster (PG_VERSION is among
	// its first files), wherever it writes it, then kill everything at
	// once: tutord, and initdb's process group (initdb and the postgres it
	// runs in bootstrap mode).
	versionFiles := []string{filepath.Join(dir, "pgdata", "PG_VERSION"), filepath.Join(dir, "pgdata.initdb", "PG_VERSION")}
	written := func() bool {
		for _, f := range versionFiles {
			if _, err := os.Stat(f); err == nil {
				return true
			}
		}
		return false
	}
	deadline := time.Now().Add(30 * time.Second)
	var initdb int
	for {
		if initdb == 0 {
			initdb = childWith(cmd.Process.Pid, "initdb")
		}
		if initdb != 0 && written() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("setup: initdb never started writing its cluster")
		}
		time.Sleep(2 * time.Millisecond)
	}
	_ = cmd.Process.Kill()
	_ = syscall.Kill(-initdb, syscall.SIGKILL)
	_ = cmd.Wait()
	for deadline := time.Now().Add(10 * time.Second); running(initdb); {
		if time.Now().After(deadline) {
			t.Fatal("setup: initdb survived")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !written() {
		t.Fatal("setup: the kill left no PG_VERSION")
	}

	// The container restarts: tutord should come up.
	p := startServe(t, "TUTORD_DATA_DIR="+dir)
	p.waitReady(t)
}

// running reports whether process pid exists and is no zombie (whoever
// inherited a killed child may not reap it at once).
func running(pid int) bool {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	i := strings.LastIndexByte(string(stat), ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}

// childWith returns the first process whose parent is pid and whose
// command line holds word, or 0.
func childWith(pid int, word string) int {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid …: comm may hold spaces, so read after ")".
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(fields) < 2 || fields[1] != strconv.Itoa(pid) {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if strings.Contains(string(cmdline), word) {
			return child
		}
	}
	return 0
}

// A port in use is reported at once, before the embedded database is
// initialised and started (or a shared one migrated).
func TestPortInUseBeforeTheDatabase(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	dir := dataDir(t)
	out, code := runBinary(t, []string{"TUTORD_DATA_DIR=" + dir, "TUTORD_ADDR=" + ln.Addr().String()}, "serve")
	line := lastLine(out)
	if code == 0 || !strings.Contains(line, "address already in use") {
		t.Fatalf("serve on a busy port: exit %d, %q", code, line)
	}
	if _, err := os.Stat(filepath.Join(dir, "pgdata", "PG_VERSION")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("serve initialised and started the embedded database before finding its port taken (PG_VERSION: %v):\n%s", err, out)
	}
}

// --help shows the data directory serve uses, which follows XDG_DATA_HOME
// (it showed the default of an empty environment).
func TestHelpShowsTheDataDirServeUses(t *testing.T) {
	environ := map[string]string{"XDG_DATA_HOME": "/srv/xdg", "HOME": "/home/op"}
	for _, args := range [][]string{{"--help"}, {"serve", "--help"}} {
		var out strings.Builder
		if err := run(context.Background(), args, environ, strings.NewReader(""), &out, &out); err != errHelp {
			t.Fatalf("%v: err = %v", args, err)
		}
		cfg, _, err := loadConfig(env{environ: environ}, "serve", nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), `(default "`+cfg.DataDir+`")`) {
			t.Errorf("tutord %s: the --data-dir default is not %q, the directory serve uses:\n%s", strings.Join(args, " "), cfg.DataDir, lineWith(out.String(), "data-dir"))
		}
	}
}

// lineWith returns the line of s with word, and the line after it.
func lineWith(s, word string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.Contains(l, word) && i+1 < len(lines) {
			return l + "\n" + lines[i+1]
		}
	}
	return ""
}
