// Package pgembed runs a private PostgreSQL cluster from the server binaries
// installed on the machine, so that tutord (and its tests) work with no
// database configured.
//
// The cluster lives in one data directory:
//
//	<dir>/tutord.lock   an flock held while a process uses the cluster
//	<dir>/pgdata/       PGDATA, created by initdb on first use
//	<dir>/run/          the unix socket (the server listens on no TCP port)
//	<dir>/postgres.log  the server's log
//
// When the calling process runs as root, the server runs as an unprivileged
// account (initdb refuses root), "postgres" when it exists, else "nobody".
package pgembed

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Superuser is the name of the cluster's superuser role.
const Superuser = "tutord"

// maxSocketPath is the longest unix socket path Linux accepts (sun_path is
// 108 bytes including the terminating NUL).
const maxSocketPath = 107

// Options configure a cluster.
type Options struct {
	// DataDir holds the cluster; it is created when missing.
	DataDir string
	// BinDir holds initdb and postgres; empty means FindBinDir.
	BinDir string
	// RunAs names the account the server runs as when this process is root.
	// Empty means "postgres" when that account exists, else "nobody".
	RunAs string
	// Settings are extra server settings, passed as -c name=value
	// (tests turn fsync off, for instance).
	Settings map[string]string
	// StartTimeout bounds initdb plus server start; zero means 60 s.
	StartTimeout time.Duration
	// Logger receives progress messages; nil discards them.
	Logger *slog.Logger
	// StopWithParent makes the server shut down at once (SIGQUIT) when
	// this process dies without stopping it, a crash or a panicking test
	// binary, instead of living on; for throwaway clusters.
	StopWithParent bool
}

// Cluster is a running private PostgreSQL server.
type Cluster struct {
	dir       string
	pgdata    string
	socketDir string
	lock      *os.File
	log       *slog.Logger

	pid      int
	exited   chan struct{} // closed when a server we started exits; nil when adopted
	logStart int64         // the size of the server log when the server was last started
	stopped  bool
}

// Start starts the cluster in opt.DataDir, running initdb first when the
// directory holds none, and waits until it accepts connections. A server
// left running by a process that crashed is adopted. Start fails when another
// live process is using the same data directory.
func Start(ctx context.Context, opt Options) (_ *Cluster, err error) {
	if opt.DataDir == "" {
		return nil, errors.New("pgembed: no data directory given")
	}
	dir, err := filepath.Abs(opt.DataDir)
	if err != nil {
		return nil, fmt.Errorf("data directory %s: %w", opt.DataDir, err)
	}
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	timeout := opt.StartTimeout
	if timeout == 0 {
		timeout = 60 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	binDir := opt.BinDir
	if binDir == "" {
		if binDir, err = FindBinDir(); err != nil {
			return nil, err
		}
	}
	cred, account, err := serverCredential(opt.RunAs)
	if err != nil {
		return nil, err
	}

	c := &Cluster{
		dir:       dir,
		pgdata:    filepath.Join(dir, "pgdata"),
		socketDir: filepath.Join(dir, "run"),
		log:       log,
	}
	if n := len(filepath.Join(c.socketDir, ".s.PGSQL.5432")); n > maxSocketPath {
		return nil, fmt.Errorf("data directory %s: path too long for a unix socket (%d > %d bytes); choose a shorter TUTORD_DATA_DIR", dir, n, maxSocketPath)
	}
	if err := c.prepareDirs(cred, account); err != nil {
		return nil, err
	}
	if err := c.acquireLock(); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			c.releaseLock()
		}
	}()

	if _, statErr := os.Stat(filepath.Join(c.pgdata, "PG_VERSION")); errors.Is(statErr, fs.ErrNotExist) {
		if err := c.initdb(ctx, binDir, cred); err != nil {
			return nil, err
		}
	}
	if pid, ok := c.runningServer(); ok {
		log.Info("adopting a PostgreSQL server left running by an earlier process", "pid", pid, "data_dir", dir)
		c.pid = pid
	} else if err := c.startServer(binDir, cred, opt.Settings, opt.StopWithParent); err != nil {
		return nil, err
	}
	// Right after a crash, the dead server's helper processes may hold its
	// shared memory for a moment: the new server refuses to start until
	// they have gone, so it is started again until they have.
	deadline := time.Now().Add(shmemWait)
	for retried := false; ; retried = true {
		err := c.waitReady(ctx)
		if err == nil {
			break
		}
		if !errors.Is(err, errShmemInUse) || time.Now().After(deadline) {
			_ = c.Stop(context.Background())
			return nil, err
		}
		if !retried {
			log.Info("shared memory of an earlier server still in use; starting again until it is free", "data_dir", dir)
		}
		select {
		case <-time.After(shmemRetry):
		case <-ctx.Done():
			_ = c.Stop(context.Background())
			return nil, fmt.Errorf("%w (%w)", err, ctx.Err())
		}
		if err := c.startServer(binDir, cred, opt.Settings, opt.StopWithParent); err != nil {
			return nil, err
		}
	}
	log.Info("embedded PostgreSQL ready", "data_dir", dir, "pid", c.pid, "bin_dir", binDir)
	return c, nil
}

// DataDir returns the cluster's data directory.
func (c *Cluster) DataDir() string { return c.dir }

// SocketDir returns the directory holding the server's unix socket.
func (c *Cluster) SocketDir() string { return c.socketDir }

// PID returns the process id of the server.
func (c *Cluster) PID() int { return c.pid }

// ConnString returns a connection string (keyword/value form) for database
// dbname, understood by pgx and libpq tools such as psql and pgbench.
func (c *Cluster) ConnString(dbname string) string {
	return fmt.Sprintf("host=%s port=5432 user=%s dbname=%s sslmode=disable", quoteValue(c.socketDir), Superuser, quoteValue(dbname))
}

// quoteValue quotes a value of a keyword/value connection string, which
// may hold spaces ("/srv/tutord data/run").
func quoteValue(v string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(v) + "'"
}

// CreateDatabase creates database name unless it exists.
func (c *Cluster) CreateDatabase(ctx context.Context, name string) error {
	conn, err := pgx.Connect(ctx, c.ConnString("postgres"))
	if err != nil {
		return fmt.Errorf("connect to embedded PostgreSQL: %w", err)
	}
	defer conn.Close(context.Background())
	var exists bool
	if err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name).Scan(&exists); err != nil {
		return fmt.Errorf("look up database %s: %w", name, err)
	}
	if exists {
		return nil
	}
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == "42P04" { // created concurrently
			return nil
		}
		return fmt.Errorf("create database %s: %w", name, err)
	}
	return nil
}

// Stop shuts the server down (fast shutdown: sessions are disconnected and
// in-progress transactions rolled back) and releases the data directory.
// It escalates to an immediate shutdown if the server has not stopped when
// ctx ends or after 30 s. Stop is idempotent.
func (c *Cluster) Stop(ctx context.Context) error {
	if c.stopped {
		return nil
	}
	c.stopped = true
	defer c.releaseLock()
	if c.pid == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := syscall.Kill(c.pid, syscall.SIGINT); err != nil {
		if errors.Is(err, syscall.ESRCH) {
			return nil
		}
		return fmt.Errorf("stop PostgreSQL (pid %d): %w", c.pid, err)
	}
	if c.waitExit(ctx) {
		c.log.Info("embedded PostgreSQL stopped", "pid", c.pid)
		return nil
	}
	_ = syscall.Kill(c.pid, syscall.SIGQUIT)
	wait, cancelWait := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancelWait()
	if !c.waitExit(wait) {
		return fmt.Errorf("PostgreSQL (pid %d) did not stop", c.pid)
	}
	return fmt.Errorf("PostgreSQL (pid %d) needed an immediate shutdown; it will run crash recovery at next start", c.pid)
}

// waitExit reports whether the server exited before ctx ended.
func (c *Cluster) waitExit(ctx context.Context) bool {
	if c.exited != nil {
		select {
		case <-c.exited:
			return true
		case <-ctx.Done():
			return false
		}
	}
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		if !processAlive(c.pid) {
			return true
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			return false
		}
	}
}

// prepareDirs creates the data directory and its parts. When the server
// runs as another account, that account owns pgdata and run, and every
// ancestor directory must let it through.
func (c *Cluster) prepareDirs(cred *syscall.Credential, account string) error {
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return fmt.Errorf("data directory %s cannot be created: %w", c.dir, unwrapPathError(err))
	}
	if err := checkWritable(c.dir); err != nil {
		return err
	}
	for _, d := range []string{c.pgdata, c.socketDir} {
		if err := os.Mkdir(d, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("data directory %s is not writable: %w", c.dir, unwrapPathError(err))
		}
		if cred != nil {
			if err := os.Chown(d, int(cred.Uid), int(cred.Gid)); err != nil {
				return fmt.Errorf("give %s to account %s: %w", d, account, err)
			}
		}
	}
	if cred != nil {
		// The directory is ours: let the server account pass through it (not
		// list it); pgdata and run below stay private to that account.
		if fi, err := os.Stat(c.dir); err == nil && fi.Mode().Perm()&0o011 != 0o011 {
			if err := os.Chmod(c.dir, fi.Mode().Perm()|0o011); err != nil {
				return fmt.Errorf("data directory %s: %w", c.dir, unwrapPathError(err))
			}
		}
		if blocked := unreachableAncestor(c.dir, cred); blocked != "" {
			return fmt.Errorf("data directory %s is not reachable by account %s, which runs the server (root runs it unprivileged): %s is not searchable by that account; set TUTORD_DATA_DIR to a directory outside it, e.g. /var/lib/tutord", c.dir, account, blocked)
		}
	}
	return nil
}

func checkWritable(dir string) error {
	f, err := os.CreateTemp(dir, ".write-test-*")
	if err != nil {
		return fmt.Errorf("data directory %s is not writable: %w", dir, unwrapPathError(err))
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// unreachableAncestor returns the first directory from / down to dir (dir
// included) that the account of cred cannot search, or "".
func unreachableAncestor(dir string, cred *syscall.Credential) string {
	var chain []string
	for d := dir; ; d = filepath.Dir(d) {
		chain = append(chain, d)
		if d == filepath.Dir(d) {
			break
		}
	}
	for i := len(chain) - 1; i >= 0; i-- {
		fi, err := os.Stat(chain[i])
		if err != nil {
			return chain[i]
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok {
			continue
		}
		perm := fi.Mode().Perm()
		switch {
		case st.Uid == cred.Uid:
			if perm&0o100 == 0 {
				return chain[i]
			}
		case st.Gid == cred.Gid:
			if perm&0o010 == 0 {
				return chain[i]
			}
		default:
			if perm&0o001 == 0 {
				return chain[i]
			}
		}
	}
	return ""
}

// serverCredential returns the credential the server processes run with,
// or nil when this process is not root.
func serverCredential(runAs string) (*syscall.Credential, string, error) {
	if os.Geteuid() != 0 {
		return nil, "", nil
	}
	names := []string{runAs}
	if runAs == "" {
		names = []string{"postgres", "nobody"}
	}
	for _, name := range names {
		u, err := user.Lookup(name)
		if err != nil {
			continue
		}
		uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
		gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
		if err1 != nil || err2 != nil || uid == 0 {
			continue
		}
		return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, name, nil
	}
	return nil, "", fmt.Errorf("running as root, but no unprivileged account to run PostgreSQL as (tried %s); create one (e.g. useradd --system postgres) or run tutord as a normal user", strings.Join(names, ", "))
}

func (c *Cluster) initdb(ctx context.Context, binDir string, cred *syscall.Credential) error {
	if entries, _ := os.ReadDir(c.pgdata); len(entries) > 0 {
		// Not a cluster (no PG_VERSION), yet not empty: an operator's
		// files, a backup being restored. initdb would refuse it, and
		// nothing in it is ours to remove.
		return fmt.Errorf("data directory %s holds files but no PostgreSQL cluster (no PG_VERSION); move them away, or choose another TUTORD_DATA_DIR", c.pgdata)
	}
	c.log.Info("initialising embedded PostgreSQL cluster", "data_dir", c.pgdata)
	cmd := exec.CommandContext(ctx, filepath.Join(binDir, "initdb"),
		"-D", c.pgdata, "-U", Superuser, "--auth=trust", "-E", "UTF8", "--locale=C", "--no-instructions")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Setpgid: true}
	cmd.Dir = "/" // the server account may not be able to enter our working directory
	out, err := cmd.CombinedOutput()
	if err != nil && ctx.Err() != nil {
		err = fmt.Errorf("interrupted or timed out: %w", ctx.Err())
		out = nil
	}
	if err != nil {
		// initdb leaves a partial cluster behind in the directory, empty
		// before it ran; remove it so the next start retries cleanly.
		entries, _ := os.ReadDir(c.pgdata)
		for _, e := range entries {
			_ = os.RemoveAll(filepath.Join(c.pgdata, e.Name()))
		}
		return fmt.Errorf("initdb failed: %w: %s", err, lastLines(string(out), 5))
	}
	return nil
}

func (c *Cluster) startServer(binDir string, cred *syscall.Credential, settings map[string]string, stopWithParent bool) error {
	// runningServer found no live server of this data directory, and the
	// lock keeps others away: what a crashed server left is stale. Its
	// socket's lock file names a pid that another process may have now,
	// which PostgreSQL would take for a live server.
	_ = os.Remove(filepath.Join(c.pgdata, "postmaster.pid"))
	_ = os.Remove(filepath.Join(c.socketDir, ".s.PGSQL.5432.lock"))
	_ = os.Remove(filepath.Join(c.socketDir, ".s.PGSQL.5432"))
	logFile, err := os.OpenFile(filepath.Join(c.dir, "postgres.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("open server log: %w", err)
	}
	defer logFile.Close()
	if fi, err := logFile.Stat(); err == nil {
		c.logStart = fi.Size()
	}

	args := []string{"-D", c.pgdata,
		"-c", "listen_addresses=",
		"-c", "unix_socket_directories=" + c.socketDir,
		"-c", "unix_socket_permissions=0700",
	}
	for k, v := range settings {
		args = append(args, "-c", k+"="+v)
	}
	cmd := exec.Command(filepath.Join(binDir, "postgres"), args...)
	cmd.Stdout = logFile
	cmd.Stderr = logFile
	cmd.Dir = "/"
	// Own process group: a terminal's Ctrl-C reaches tutord, which then stops
	// the server in order, instead of reaching both at once.
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Setpgid: true}
	if stopWithParent {
		cmd.SysProcAttr.Pdeathsig = syscall.SIGQUIT
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start postgres: %w", err)
	}
	c.pid = cmd.Process.Pid
	c.exited = make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(c.exited)
	}()
	return nil
}

// errShmemInUse reports a server that would not start because processes of
// an earlier one still use its shared memory.
var errShmemInUse = errors.New("shared memory of an earlier server still in use")

// shmemWait is how long Start keeps starting the server while an earlier
// server's processes hold its shared memory, every shmemRetry.
const (
	shmemWait  = 10 * time.Second
	shmemRetry = 200 * time.Millisecond
)

func (c *Cluster) waitReady(ctx context.Context) error {
	tick := time.NewTicker(25 * time.Millisecond)
	defer tick.Stop()
	var lastErr error
	for {
		if c.exited != nil {
			select {
			case <-c.exited:
				since := c.logSinceStart()
				tail := lastLines(since, 5)
				if strings.Contains(since, "pre-existing shared memory block") {
					return fmt.Errorf("postgres exited during start-up: %w: %s", errShmemInUse, tail)
				}
				return fmt.Errorf("postgres exited during start-up: %s", tail)
			default:
			}
		} else if !processAlive(c.pid) {
			return fmt.Errorf("adopted postgres (pid %d) exited", c.pid)
		}
		conn, err := pgconn.Connect(ctx, c.ConnString("postgres"))
		if err == nil {
			conn.Close(ctx)
			return nil
		}
		if pce := (*pgconn.ParseConfigError)(nil); errors.As(err, &pce) {
			return fmt.Errorf("connect to postgres: %w", err) // no retry makes it right
		}
		lastErr = err
		select {
		case <-tick.C:
		case <-ctx.Done():
			return fmt.Errorf("postgres did not accept connections in time: %v; server log: %s", lastErr, lastLines(c.readLog(), 5))
		}
	}
}

// logSinceStart returns what the server logged since it was last started
// (its first 64 KiB: start-up says much less).
func (c *Cluster) logSinceStart() string {
	f, err := os.Open(filepath.Join(c.dir, "postgres.log"))
	if err != nil {
		return ""
	}
	defer f.Close()
	if _, err := f.Seek(c.logStart, io.SeekStart); err != nil {
		return ""
	}
	b, _ := io.ReadAll(io.LimitReader(f, 64<<10))
	return string(b)
}

func (c *Cluster) readLog() string {
	f, err := os.Open(filepath.Join(c.dir, "postgres.log"))
	if err != nil {
		return ""
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > 8192 {
		_, _ = f.Seek(-8192, io.SeekEnd)
	}
	b, _ := io.ReadAll(f)
	return string(b)
}

// runningServer reports whether postmaster.pid names a live postgres process
// serving this data directory: one left behind when the process that started
// it was killed. A pid file naming a dead or unrelated process is stale.
func (c *Cluster) runningServer() (int, bool) {
	b, err := os.ReadFile(filepath.Join(c.pgdata, "postmaster.pid"))
	if err != nil {
		return 0, false
	}
	lines := strings.Split(string(b), "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(lines[0]))
	if err != nil || pid <= 0 || !processAlive(pid) {
		return 0, false
	}
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return 0, false
	}
	args := strings.Split(string(cmdline), "\x00")
	if len(args) == 0 || filepath.Base(args[0]) != "postgres" {
		return 0, false
	}
	for i, a := range args {
		if a == "-D" && i+1 < len(args) && args[i+1] == c.pgdata {
			return pid, true
		}
	}
	return 0, false
}

func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	if err == nil || errors.Is(err, syscall.EPERM) {
		// A zombie child still answers signal 0; treat it as gone.
		stat, rerr := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if rerr == nil {
			if i := strings.LastIndexByte(string(stat), ')'); i > 0 && i+2 < len(stat) && stat[i+2] == 'Z' {
				return false
			}
		}
		return true
	}
	return false
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
