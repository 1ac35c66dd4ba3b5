package pgembed

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// tempDir returns a fresh directory that an unprivileged server account can
// reach (t.TempDir's parent is private to root when tests run as root).
func tempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "pgembed-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func start(t *testing.T, dir string) *Cluster {
	t.Helper()
	c, err := Start(context.Background(), Options{DataDir: dir, Settings: map[string]string{"fsync": "off"}})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { _ = c.Stop(context.Background()) })
	return c
}

func TestStartStopRestartKeepsData(t *testing.T) {
	ctx := context.Background()
	dir := tempDir(t)
	c := start(t, dir)
	if err := c.CreateDatabase(ctx, "app"); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, c.ConnString("app"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `CREATE TABLE kept (v text); INSERT INTO kept VALUES ('hello')`); err != nil {
		t.Fatal(err)
	}
	conn.Close(ctx)
	pid := c.PID()
	if err := c.Stop(ctx); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if processAlive(pid) {
		t.Fatalf("postgres pid %d still alive after Stop", pid)
	}
	if _, err := os.Stat(filepath.Join(dir, "pgdata", "postmaster.pid")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("postmaster.pid left behind after Stop: %v", err)
	}

	c2 := start(t, dir)
	conn, err = pgx.Connect(ctx, c2.ConnString("app"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var v string
	if err := conn.QueryRow(ctx, `SELECT v FROM kept`).Scan(&v); err != nil || v != "hello" {
		t.Fatalf("data after restart = %q, %v; want hello", v, err)
	}
}

func TestNoTCPListener(t *testing.T) {
	c := start(t, tempDir(t))
	conn, err := pgx.Connect(context.Background(), c.ConnString("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var addrs string
	if err := conn.QueryRow(context.Background(), `SHOW listen_addresses`).Scan(&addrs); err != nil {
		t.Fatal(err)
	}
	if addrs != "" {
		t.Fatalf("listen_addresses = %q, want empty (unix socket only)", addrs)
	}
	if _, err := os.Stat(filepath.Join(c.SocketDir(), ".s.PGSQL.5432")); err != nil {
		t.Fatalf("socket not inside the data directory: %v", err)
	}
}

func TestSecondProcessOnSameDirRefuses(t *testing.T) {
	dir := tempDir(t)
	start(t, dir)
	_, err := Start(context.Background(), Options{DataDir: dir})
	if err == nil || !strings.Contains(err.Error(), "in use by another tutord process") {
		t.Fatalf("second Start on the same dir: err = %v, want an in-use error", err)
	}
}

func TestAdoptsServerLeftByCrashedProcess(t *testing.T) {
	dir := tempDir(t)
	c := start(t, dir)
	pid := c.PID()
	// Simulate the owning process dying: its lock goes away, the server stays.
	c.releaseLock()
	c.stopped = true

	c2 := start(t, dir)
	if c2.PID() != pid {
		t.Fatalf("adopted pid = %d, want the running server %d", c2.PID(), pid)
	}
	if err := c2.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	if processAlive(pid) {
		t.Fatal("adopted server still alive after Stop")
	}
}

// A server left by a crashed process is adopted when the data directory is
// spelled another way (through a symlink): the server is recognised by file
// identity, not by the text of its -D argument, and its pid file, socket
// and socket lock are never removed. (They were, and a second postmaster
// failed on the first one's shared memory.)
func TestAdoptsServerThroughASymlink(t *testing.T) {
	parent := tempDir(t)
	if err := os.Chmod(parent, 0o755); err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(parent, "real")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(parent, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	c := start(t, real)
	pid := c.PID()
	abandon(c)
	c.stopped = false // the cleanup of start stops the abandoned server
	c2, err := Start(context.Background(), Options{DataDir: link, StartTimeout: 20 * time.Second, Settings: map[string]string{"fsync": "off"}})
	if err != nil {
		t.Fatalf("Start through a symlink while a crashed process's server runs: %v", err)
	}
	defer c2.Stop(context.Background())
	if c2.PID() != pid {
		t.Fatalf("pid %d, want adopted %d", c2.PID(), pid)
	}
}

// A process that finds the data directory held by another whose server
// accepts connections attaches to it with Options.Attach: it uses the
// server without starting, adopting or stopping it, and the owner waits for
// it before stopping the server.
func TestAttachUsesTheRunningServer(t *testing.T) {
	ctx := context.Background()
	dir := tempDir(t)
	msgs := make(chan string, 100)
	owner, err := Start(ctx, Options{DataDir: dir, Settings: map[string]string{"fsync": "off"}, Logger: slog.New(msgHandler{msgs})})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = owner.Stop(ctx) })
	if _, err := Start(ctx, Options{DataDir: dir}); err == nil || !strings.Contains(err.Error(), "in use by another tutord process") {
		t.Fatalf("Start without Attach: err = %v, want an in-use error", err)
	}

	client, err := Start(ctx, Options{DataDir: dir, Attach: true})
	if err != nil {
		t.Fatalf("Start with Attach beside a running server: %v", err)
	}
	if !client.Attached() || client.PID() != owner.PID() {
		t.Fatalf("attached %v, pid %d; want attached to %d", client.Attached(), client.PID(), owner.PID())
	}
	conn, err := pgx.Connect(ctx, client.ConnString("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	conn.Close(ctx)

	// The owner stops: it waits for the client, whose server keeps running.
	stopped := make(chan error, 1)
	go func() { stopped <- owner.Stop(ctx) }()
	for msg := range msgs {
		if strings.HasPrefix(msg, "waiting for tutord commands") {
			break
		}
	}
	conn, err = pgx.Connect(ctx, client.ConnString("postgres"))
	if err != nil {
		t.Fatalf("connect while the owner waits for its clients: %v", err)
	}
	conn.Close(ctx)
	if err := client.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
	if processAlive(owner.PID()) {
		t.Fatal("the server outlived its owner's Stop")
	}
}

// A client may not attach to a server that does not answer (still in
// initdb, say): it gets the in-use error, and nothing is started.
func TestAttachToAHeldDirWithoutAServerRefuses(t *testing.T) {
	dir := tempDir(t)
	holder := &Cluster{dir: dir, log: slog.New(slog.DiscardHandler)}
	if ok, _, err := holder.tryLock(); !ok || err != nil {
		t.Fatalf("lock: %v, %v", ok, err)
	}
	defer holder.releaseLock()
	_, err := Start(context.Background(), Options{DataDir: dir, Attach: true})
	if err == nil || !strings.Contains(err.Error(), "does not accept connections") {
		t.Fatalf("err = %v, want an in-use error saying the server does not answer", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "pgdata", "PG_VERSION")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a client initialised a cluster: %v", err)
	}
}

// msgHandler sends the message of each log record to its channel, when
// there is room.
type msgHandler struct{ msgs chan string }

func (h msgHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h msgHandler) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h msgHandler) WithGroup(string) slog.Handler            { return h }
func (h msgHandler) Handle(_ context.Context, r slog.Record) error {
	select {
	case h.msgs <- r.Message:
	default:
	}
	return nil
}

func TestRecoversFromStalePidFile(t *testing.T) {
	dir := tempDir(t)
	c := start(t, dir)
	pid := c.PID()
	pidFile := filepath.Join(dir, "pgdata", "postmaster.pid")
	content, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	// A crash: the server dies without cleaning up.
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitDead(t, pid)
	c.releaseLock()
	c.stopped = true
	// Put the pid file back as a crash leaves it, naming our own (live, unrelated) pid.
	lines := strings.SplitN(string(content), "\n", 2)
	stale := []byte(strings.Join([]string{itoa(os.Getpid()), lines[1]}, "\n"))
	if err := os.WriteFile(pidFile, stale, 0o600); err != nil {
		t.Fatal(err)
	}
	c2 := start(t, dir)
	if c2.PID() == os.Getpid() {
		t.Fatal("adopted an unrelated process")
	}
}

// TestStartsOnceCrashedHelpersExit crashes a server whose helper processes
// (checkpointer, WAL writer, …) are slow to notice, as on a loaded machine:
// they still hold its shared memory when the next Start runs, which must
// wait for them rather than fail.
func TestStartsOnceCrashedHelpersExit(t *testing.T) {
	dir := tempDir(t)
	c := start(t, dir)
	pid := c.PID()
	helpers := childrenOf(t, pid)
	if len(helpers) == 0 {
		t.Fatalf("server %d has no helper processes", pid)
	}
	for _, h := range helpers {
		_ = syscall.Kill(h, syscall.SIGSTOP) // they cannot notice the crash
	}
	t.Cleanup(func() {
		for _, h := range helpers {
			_ = syscall.Kill(h, syscall.SIGKILL) // whatever happens below
		}
	})
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitDead(t, pid)
	c.releaseLock()
	c.stopped = true
	released := make(chan struct{})
	go func() {
		defer close(released)
		time.Sleep(time.Second)
		for _, h := range helpers {
			_ = syscall.Kill(h, syscall.SIGKILL)
		}
	}()
	c2 := start(t, dir)
	<-released
	conn, err := pgx.Connect(context.Background(), c2.ConnString("postgres"))
	if err != nil {
		t.Fatalf("connect after restart: %v", err)
	}
	conn.Close(context.Background())
	if log, _ := os.ReadFile(filepath.Join(dir, "postgres.log")); !strings.Contains(string(log), "pre-existing shared memory block") {
		t.Error("the first start after the crash did not meet the held shared memory: the test tested nothing")
	}
}

// TestHeldMemoryReadOnlyFromThisStart: a failed start is tried once, even
// when the log still holds an earlier start's shared-memory error.
func TestHeldMemoryReadOnlyFromThisStart(t *testing.T) {
	dir := tempDir(t)
	c := start(t, dir)
	if err := c.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	old := "FATAL:  pre-existing shared memory block (key 1, ID 1) is still in use\n"
	f, err := os.OpenFile(filepath.Join(dir, "postgres.log"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.WriteString(old)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	_, err = Start(context.Background(), Options{DataDir: dir, Settings: map[string]string{"shared_buffers": "bogus"}})
	if err == nil || errors.Is(err, errShmemInUse) {
		t.Fatalf("Start with a bad setting: err = %v, want a plain start-up failure", err)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "postgres.log"))
	if n := strings.Count(string(log), `"bogus"`); n != 1 {
		t.Errorf("the server was started %d times with the bad setting, want 1:\n%s", n, log)
	}
}

// childrenOf returns the processes whose parent is pid.
func childrenOf(t *testing.T, pid int) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var out []int
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
		if len(fields) > 1 && fields[1] == strconv.Itoa(pid) {
			out = append(out, child)
		}
	}
	return out
}

func TestUnreachableDataDir(t *testing.T) {
	if os.Geteuid() != 0 {
		dir := tempDir(t)
		ro := filepath.Join(dir, "ro")
		if err := os.Mkdir(ro, 0o500); err != nil {
			t.Fatal(err)
		}
		_, err := Start(context.Background(), Options{DataDir: filepath.Join(ro, "data")})
		if err == nil || !(strings.Contains(err.Error(), "not writable") || strings.Contains(err.Error(), "cannot be created")) {
			t.Fatalf("err = %v, want not writable", err)
		}
		return
	}
	// As root, the server runs as another account, which cannot pass a
	// root-only directory.
	dir := tempDir(t)
	private := filepath.Join(dir, "private")
	if err := os.Mkdir(private, 0o700); err != nil {
		t.Fatal(err)
	}
	_, err := Start(context.Background(), Options{DataDir: filepath.Join(private, "data")})
	if err == nil || !strings.Contains(err.Error(), "not reachable by account") {
		t.Fatalf("err = %v, want not reachable", err)
	}
}

func TestDataDirIsAFile(t *testing.T) {
	f := filepath.Join(tempDir(t), "file")
	if err := os.WriteFile(f, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Start(context.Background(), Options{DataDir: filepath.Join(f, "data")})
	if err == nil || !(strings.Contains(err.Error(), "not writable") || strings.Contains(err.Error(), "cannot be created")) {
		t.Fatalf("err = %v, want not writable", err)
	}
}

func TestFindBinDir(t *testing.T) {
	empty := t.TempDir()
	if _, err := findBinDir(empty, filepath.Join(empty, "none")); !errors.Is(err, ErrNoBinaries) {
		t.Fatalf("no binaries: err = %v, want ErrNoBinaries", err)
	}
	if !strings.Contains(ErrNoBinaries.Error(), "apt-get install postgresql") || !strings.Contains(ErrNoBinaries.Error(), "TUTORD_DATABASE_URL") {
		t.Fatalf("message does not name both ways out: %v", ErrNoBinaries)
	}

	// Versions are tried newest first, numerically (10 > 9).
	root := t.TempDir()
	for _, v := range []string{"9.6", "15", "10"} {
		bin := filepath.Join(root, v, "bin")
		if err := os.MkdirAll(bin, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"postgres", "initdb"} {
			if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	got, err := findBinDir(empty, root)
	if err != nil || got != filepath.Join(root, "15", "bin") {
		t.Fatalf("findBinDir = %q, %v; want the 15 directory", got, err)
	}
}

func waitDead(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for processAlive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("pid %d did not die", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestStopWithParent starts a cluster with StopWithParent in a child
// process (this test binary again) that then exits without stopping it:
// the server must go down with its parent.
func TestStopWithParent(t *testing.T) {
	if dir := os.Getenv("PGEMBED_TEST_CHILD_DIR"); dir != "" {
		c, err := Start(context.Background(), Options{DataDir: dir, StopWithParent: true, Settings: map[string]string{"fsync": "off"}})
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(2)
		}
		fmt.Println("pid", c.PID())
		os.Exit(0) // no Stop: as a crashed or panicking process would
	}
	dir := tempDir(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestStopWithParent$")
	cmd.Env = append(os.Environ(), "PGEMBED_TEST_CHILD_DIR="+dir)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	var pid int
	for _, line := range strings.Split(string(out), "\n") {
		if p, ok := strings.CutPrefix(line, "pid "); ok {
			pid, _ = strconv.Atoi(p)
		}
	}
	if pid == 0 {
		t.Fatalf("the child did not start a server:\n%s", out)
	}
	deadline := time.Now().Add(15 * time.Second)
	for processAlive(pid) {
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGQUIT)
			t.Fatalf("postgres pid %d outlived the process that started it", pid)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// abandon simulates the death of the process that owns c: its flock goes
// away with it, the server (if alive) stays.
func abandon(c *Cluster) {
	c.releaseLock()
	c.stopped = true
}

// After a crash, the socket's lock file names the dead server's pid, which
// another process of the server's account may have by now: PostgreSQL
// would refuse to start ("lock file already exists") until someone removed
// it by hand. A start that finds no live server removes it.
func TestStaleSocketLockAfterACrash(t *testing.T) {
	dir := tempDir(t)
	c := start(t, dir)
	pid := c.PID()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitDead(t, pid)
	abandon(c)
	lockPath := filepath.Join(dir, "run", ".s.PGSQL.5432.lock")
	content, err := os.ReadFile(lockPath)
	if err != nil {
		t.Fatalf("the crash left no socket lock file: %v", err)
	}
	// The crashed server's pid now belongs to another process of the
	// account the server runs as.
	other := exec.Command("sleep", "120")
	if os.Geteuid() == 0 {
		cred, _, err := serverCredential("")
		if err != nil {
			t.Fatal(err)
		}
		other.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	}
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = other.Process.Kill(); _ = other.Wait() })
	lines := strings.SplitN(string(content), "\n", 2)
	if err := os.WriteFile(lockPath, []byte(strconv.Itoa(other.Process.Pid)+"\n"+lines[1]), 0o600); err != nil {
		t.Fatal(err)
	}

	c2, err := Start(context.Background(), Options{DataDir: dir, Settings: map[string]string{"fsync": "off"}})
	if err != nil {
		t.Fatalf("Start after a crash whose pid was reused: %v", err)
	}
	_ = c2.Stop(context.Background())
}

// initdb works in pgdata.initdb, renamed to pgdata when it is done: what a
// start killed during initdb left there is removed by the next start, which
// makes the cluster again.
func TestUnfinishedInitdbIsRedone(t *testing.T) {
	dir := tempDir(t)
	unfinished := filepath.Join(dir, "pgdata.initdb")
	if err := os.MkdirAll(filepath.Join(unfinished, "global"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(unfinished, "PG_VERSION"), []byte("15\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	start(t, dir)
	if _, err := os.Stat(unfinished); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the unfinished cluster is still there: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "pgdata", "global", "pg_control")); err != nil {
		t.Fatalf("no cluster in pgdata: %v", err)
	}
}

// A pgdata that holds files but no cluster (a backup being restored) is
// refused, and nothing in it is removed; a failed initdb used to empty it.
func TestForeignFilesInPgdataAreKept(t *testing.T) {
	dir := tempDir(t)
	pgdata := filepath.Join(dir, "pgdata")
	if err := os.Mkdir(pgdata, 0o700); err != nil {
		t.Fatal(err)
	}
	precious := filepath.Join(pgdata, "restore-in-progress.tar")
	if err := os.WriteFile(precious, []byte("the only copy"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Start(context.Background(), Options{DataDir: dir, Settings: map[string]string{"fsync": "off"}})
	if err == nil {
		_ = c.Stop(context.Background())
		t.Fatal("Start initialised a cluster over a non-empty pgdata")
	}
	t.Logf("Start: %v", err)
	if _, statErr := os.Stat(precious); statErr != nil {
		t.Fatalf("a file that was in pgdata before Start is gone after the failed initdb: %v", statErr)
	}
}

// A data directory with a space in its path: the connection string quotes
// it (unquoted, it could not be parsed, and start-up waited its whole
// timeout for a server that was up).
func TestDataDirWithASpace(t *testing.T) {
	dir, err := os.MkdirTemp("", "pgembed space-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	begin := time.Now()
	c, err := Start(context.Background(), Options{DataDir: dir, StartTimeout: 15 * time.Second, Settings: map[string]string{"fsync": "off"}})
	if err != nil {
		t.Fatalf("Start in %q failed after %v: %v", dir, time.Since(begin).Round(time.Second), err)
	}
	defer c.Stop(context.Background())
	conn, err := pgx.Connect(context.Background(), c.ConnString("postgres"))
	if err != nil {
		t.Fatalf("connect with ConnString: %v", err)
	}
	conn.Close(context.Background())
}

// A data directory whose path holds a comma: unix_socket_directories, a
// comma-separated list, cut the path at the comma, and PostgreSQL exited.
// No connection string can name a socket directory with a comma in it
// (libpq and pgx split hosts at commas), so the socket goes elsewhere.
func TestDataDirWithACommaStarts(t *testing.T) {
	parent := tempDir(t)
	if err := os.Chmod(parent, 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(parent, "school,2025")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	c, err := Start(context.Background(), Options{DataDir: dir, StartTimeout: 20 * time.Second, Settings: map[string]string{"fsync": "off"}})
	if err != nil {
		t.Fatalf("Start in %q: %v", dir, err)
	}
	t.Cleanup(func() { os.RemoveAll(c.SocketDir()) })
	defer c.Stop(context.Background())
	conn, err := pgx.Connect(context.Background(), c.ConnString("postgres"))
	if err != nil {
		t.Fatalf("connect with ConnString: %v", err)
	}
	conn.Close(context.Background())
}

// Double quotes and backslashes in the path: the socket directory is
// double-quoted for unix_socket_directories (a quote doubled, backslashes as
// they are) and single-quoted, escaped, in the connection string.
func TestDataDirWithQuotesAndBackslashes(t *testing.T) {
	parent := tempDir(t)
	if err := os.Chmod(parent, 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(parent, `a "b" c\d's`)
	c, err := Start(context.Background(), Options{DataDir: dir, StartTimeout: 20 * time.Second, Settings: map[string]string{"fsync": "off"}})
	if err != nil {
		t.Fatalf("Start in %q: %v", dir, err)
	}
	defer c.Stop(context.Background())
	if c.SocketDir() != filepath.Join(dir, "run") {
		t.Fatalf("socket directory %q, want %q", c.SocketDir(), filepath.Join(dir, "run"))
	}
	conn, err := pgx.Connect(context.Background(), c.ConnString("postgres"))
	if err != nil {
		t.Fatalf("connect with ConnString: %v", err)
	}
	conn.Close(context.Background())
}

// A line break in the path would corrupt PostgreSQL's lock files, which
// hold the path as a line: it is refused, before anything is created.
func TestDataDirWithALineBreakIsRefused(t *testing.T) {
	dir := filepath.Join(tempDir(t), "two\nlines")
	_, err := Start(context.Background(), Options{DataDir: dir})
	if err == nil || !strings.Contains(err.Error(), "control character") {
		t.Fatalf("err = %v, want a refusal naming the control character", err)
	}
	if _, statErr := os.Stat(dir); !errors.Is(statErr, os.ErrNotExist) {
		t.Fatalf("the directory was created: %v", statErr)
	}
}
