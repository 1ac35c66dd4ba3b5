// Package pgembed runs a private PostgreSQL cluster from the server binaries
// installed on the machine, so that tutord (and its tests) work with no
// database configured.
//
// The cluster lives in one data directory:
//
//	<dir>/tutord.lock     an flock held by the process that runs the server
//	<dir>/tutord.clients  an flock shared by the processes attached to it
//	<dir>/pgdata/         PGDATA, made by initdb in pgdata.initdb on first use
//	<dir>/run/            the unix socket (the server listens on no TCP port)
//	<dir>/postgres.log    the server's log
//
// When the path of <dir> holds a comma, the socket goes in a directory of
// its own under /tmp instead of <dir>/run: libpq and pgx read a comma in a
// connection string's host as a list separator, which nothing escapes.
//
// When the calling process runs as root, the server runs as an unprivileged
// account (initdb refuses root), "postgres" when it exists, else "nobody".
package pgembed

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
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
	// Attach lets Start, when another process runs the cluster and its
	// server accepts connections, return a Cluster attached to that server
	// as a client (see Attached) instead of failing. An attached Cluster
	// neither starts, stops nor adopts the server; the process that runs it
	// waits for attached ones (up to 15 s) before stopping it.
	Attach bool
}

// Cluster is a running private PostgreSQL server.
type Cluster struct {
	dir       string
	pgdata    string
	socketDir string
	lock      *os.File // the owner lock, while this process runs the server
	clients   *os.File // the clients lock: shared while attached, exclusive while stopping
	log       *slog.Logger
	attached  bool

	pid      int
	exited   chan struct{} // closed when a server we started exits; nil when adopted
	logStart int64         // the size of the server log when the server was last started
	stopped  bool
}

// Start starts the cluster in opt.DataDir, running initdb first when the
// directory holds none, and waits until it accepts connections. A server
// left running by a process that crashed is adopted. Start fails when another
// live process is using the same data directory, unless opt.Attach lets it
// attach to that process's server.
func Start(ctx context.Context, opt Options) (_ *Cluster, err error) {
	if opt.DataDir == "" {
		return nil, errors.New("pgembed: no data directory given")
	}
	dir, err := filepath.Abs(opt.DataDir)
	if err != nil {
		return nil, fmt.Errorf("data directory %s: %w", opt.DataDir, err)
	}
	if err := checkPath(dir); err != nil {
		return nil, err
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
		dir:    dir,
		pgdata: filepath.Join(dir, "pgdata"),
		log:    log,
	}
	if err := c.prepareDirs(cred, account); err != nil {
		return nil, err
	}
	if opt.Attach {
		// Shared before looking at the owner lock: an owner that is
		// stopping its server holds the clients lock until it has released
		// the owner lock, so this process then runs the server itself.
		if _, err := c.lockClients(ctx, syscall.LOCK_SH); err != nil {
			return nil, fmt.Errorf("data directory %s: %w", dir, err)
		}
	}
	ok, holder, err := c.tryLock()
	if err == nil && !ok {
		err = c.inUseError(holder, "")
		if opt.Attach {
			if c.attach(ctx) {
				log.Info("using the embedded PostgreSQL of another tutord process", "data_dir", dir, "holder_pid", holder, "pid", c.pid)
				return c, nil
			}
			err = c.inUseError(holder, ", and its server does not accept connections (yet)")
		}
	}
	if err != nil {
		c.releaseLock()
		return nil, err
	}
	defer func() {
		if err != nil {
			c.releaseLock()
		}
	}()
	if c.clients != nil { // this process runs the server: it is no client
		_ = syscall.Flock(int(c.clients.Fd()), syscall.LOCK_UN)
		c.clients.Close()
		c.clients = nil
	}

	if _, statErr := os.Stat(filepath.Join(c.pgdata, "PG_VERSION")); errors.Is(statErr, fs.ErrNotExist) {
		if err := c.initdb(ctx, binDir, cred); err != nil {
			return nil, err
		}
	}
	if pf, ok := c.runningServer(); ok {
		log.Info("adopting a PostgreSQL server left running by an earlier process", "pid", pf.pid, "data_dir", dir)
		c.pid = pf.pid
		if pf.socketDir != "" {
			c.socketDir = pf.socketDir
		}
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

// PID returns the process id of the server (0 when attached to a server
// whose pid file this process cannot read).
func (c *Cluster) PID() int { return c.pid }

// Attached reports whether c is attached as a client to a server that
// another process runs (see Options.Attach).
func (c *Cluster) Attached() bool { return c.attached }

// attach reports whether the server of the process that holds the data
// directory accepts connections, and if so makes c its client.
func (c *Cluster) attach(ctx context.Context) bool {
	if pf, ok := c.runningServer(); ok {
		c.pid = pf.pid
		if pf.socketDir != "" {
			c.socketDir = pf.socketDir
		}
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	conn, err := pgconn.Connect(ctx, c.ConnString("postgres"))
	if err != nil {
		c.log.Debug("the server of the data directory's holder does not accept connections", "data_dir", c.dir, "err", err)
		return false
	}
	conn.Close(ctx)
	c.attached = true
	return true
}

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
// It first waits (up to 15 s, or until ctx ends) for the processes attached
// to the server to finish, and escalates to an immediate shutdown if the
// server has not stopped when ctx ends or after 30 s. An attached Cluster
// only detaches. Stop is idempotent.
func (c *Cluster) Stop(ctx context.Context) error {
	if c.stopped {
		return nil
	}
	c.stopped = true
	defer c.releaseLock()
	if c.pid == 0 || c.attached {
		return nil
	}
	clientsCtx, cancelClients := context.WithTimeout(ctx, clientWait)
	if _, err := c.lockClients(clientsCtx, syscall.LOCK_EX); err != nil {
		c.log.Warn("stopping the embedded PostgreSQL while tutord commands still use it", "data_dir", c.dir, "err", err)
	}
	cancelClients()
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

// checkPath refuses a data directory whose path PostgreSQL cannot record:
// it writes the path, and the socket directory's, as lines of its lock files
// (postmaster.pid), which a line break or other control character would
// corrupt. Other characters are fine: the socket directory is quoted where
// PostgreSQL reads it as a list (unix_socket_directories), and a path with
// a comma, which no connection string can name as a host, gets its socket
// elsewhere (socketDirFor).
func checkPath(dir string) error {
	for _, r := range dir {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("data directory %q: the path holds a control character (%U), which PostgreSQL's lock files cannot record; choose another TUTORD_DATA_DIR", dir, r)
		}
	}
	return nil
}

// socketDirFor returns the directory for the server's unix socket: dir/run,
// unless that path holds a comma. libpq and pgx split a connection string's
// host at commas (a list of hosts to try), with no way to escape one, so no
// client could name such a directory; the socket then goes in
// /tmp/tutord-HASH, named after the data directory's real path. Adopted and
// attached servers are reached where their pid file says.
func socketDirFor(dir string) string {
	run := filepath.Join(dir, "run")
	if !strings.Contains(run, ",") {
		return run
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	sum := sha256.Sum256([]byte(dir))
	return filepath.Join("/tmp", "tutord-"+hex.EncodeToString(sum[:8]))
}

// prepareDirs creates the data directory and its parts. When the server
// runs as another account, that account owns pgdata and the socket
// directory, and every ancestor directory must let it through.
func (c *Cluster) prepareDirs(cred *syscall.Credential, account string) error {
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return fmt.Errorf("data directory %s cannot be created: %w", c.dir, unwrapPathError(err))
	}
	c.socketDir = socketDirFor(c.dir)
	if n := len(filepath.Join(c.socketDir, ".s.PGSQL.5432")); n > maxSocketPath {
		return fmt.Errorf("data directory %s: path too long for a unix socket (%d > %d bytes); choose a shorter TUTORD_DATA_DIR", c.dir, n, maxSocketPath)
	}
	if err := checkWritable(c.dir); err != nil {
		return err
	}
	for _, d := range []string{c.pgdata, c.socketDir} {
		if err := os.Mkdir(d, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("data directory %s is not writable: %w", c.dir, unwrapPathError(err))
		}
		if d == c.socketDir && filepath.Dir(d) != c.dir {
			// A shared directory (/tmp): anyone could have made d first.
			if err := checkOwnDir(d, cred); err != nil {
				return err
			}
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

// checkOwnDir refuses a socket directory outside the data directory that is
// a symlink, or that belongs to an account other than this process's and
// the server's, or that others may write to.
func checkOwnDir(d string, cred *syscall.Credential) error {
	fi, err := os.Lstat(d)
	if err != nil {
		return fmt.Errorf("socket directory %s: %w", d, unwrapPathError(err))
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || !ok {
		return fmt.Errorf("socket directory %s is not a directory; remove it", d)
	}
	if owner := int(st.Uid); owner != os.Geteuid() && (cred == nil || st.Uid != cred.Uid) {
		return fmt.Errorf("socket directory %s belongs to another account (uid %d); remove it", d, owner)
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("socket directory %s is writable by other accounts; remove it", d)
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
	// initdb works in a sibling directory that becomes pgdata only once it
	// has finished: a start killed during initdb (kill -9, the OOM killer, a
	// power cut) leaves no half-made cluster in pgdata that later starts
	// would take for one. What such a start left in the sibling is removed
	// here; the lock keeps other processes away from it.
	tmp := c.pgdata + ".initdb"
	if err := os.RemoveAll(tmp); err != nil {
		return fmt.Errorf("remove the unfinished cluster of an interrupted start: %w", err)
	}
	if err := os.Mkdir(tmp, 0o700); err != nil {
		return fmt.Errorf("data directory %s is not writable: %w", c.dir, unwrapPathError(err))
	}
	if cred != nil {
		if err := os.Chown(tmp, int(cred.Uid), int(cred.Gid)); err != nil {
			_ = os.RemoveAll(tmp)
			return fmt.Errorf("give %s to the server's account: %w", tmp, err)
		}
	}
	c.log.Info("initialising embedded PostgreSQL cluster", "data_dir", c.pgdata)
	cmd := exec.CommandContext(ctx, filepath.Join(binDir, "initdb"),
		"-D", tmp, "-U", Superuser, "--auth=trust", "-E", "UTF8", "--locale=C", "--no-instructions")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Setpgid: true}
	cmd.Dir = "/" // the server account may not be able to enter our working directory
	out, err := cmd.CombinedOutput()
	if err != nil && ctx.Err() != nil {
		err = fmt.Errorf("interrupted or timed out: %w", ctx.Err())
		out = nil
	}
	if err != nil {
		_ = os.RemoveAll(tmp)
		return fmt.Errorf("initdb failed: %w: %s", err, lastLines(string(out), 5))
	}
	// initdb has synced the cluster; the rename replaces the empty pgdata
	// at once (os.Rename refuses a directory as target), and syncing the
	// data directory makes it durable.
	if err := syscall.Rename(tmp, c.pgdata); err != nil {
		_ = os.RemoveAll(tmp)
		return fmt.Errorf("move the new cluster into place: %w", err)
	}
	if d, err := os.Open(c.dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

func (c *Cluster) startServer(binDir string, cred *syscall.Credential, settings map[string]string, stopWithParent bool) error {
	// runningServer found no live server of this data directory, and the
	// lock keeps others away: what a crashed server left is stale. Its
	// socket's lock file names a pid that another process may have now,
	// which PostgreSQL would take for a live server. A live server's files
	// are never removed, whoever's process it is.
	pidFile := filepath.Join(c.pgdata, "postmaster.pid")
	socketLock := filepath.Join(c.socketDir, ".s.PGSQL.5432.lock")
	for _, f := range []string{pidFile, socketLock} {
		if pf, ok := readPidFile(f); ok && c.serves(pf.pid) {
			return fmt.Errorf("a PostgreSQL server (pid %d) is already serving %s (%s names it); stop it first", pf.pid, c.pgdata, f)
		}
	}
	_ = os.Remove(pidFile)
	_ = os.Remove(socketLock)
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
		"-c", "unix_socket_directories=" + quoteListItem(c.socketDir),
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

// quoteListItem quotes a directory for a setting that PostgreSQL reads as
// a comma-separated list (unix_socket_directories): between double quotes,
// with a double quote doubled, nothing else is special (backslashes
// included), so any path is one item.
func quoteListItem(dir string) string {
	return `"` + strings.ReplaceAll(dir, `"`, `""`) + `"`
}

// pidFile is what a PostgreSQL lock file (postmaster.pid, or the socket's
// .s.PGSQL.5432.lock) says: the server's pid on its first line, and, in
// postmaster.pid, its socket directory on the fifth.
type pidFile struct {
	pid       int
	socketDir string
}

func readPidFile(path string) (pidFile, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return pidFile{}, false
	}
	lines := strings.Split(string(b), "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(lines[0]))
	if err != nil || pid <= 0 {
		return pidFile{}, false
	}
	pf := pidFile{pid: pid}
	if len(lines) > 4 && filepath.IsAbs(lines[4]) {
		pf.socketDir = lines[4]
	}
	return pf, true
}

// runningServer reports whether postmaster.pid names a live postgres process
// serving this data directory: one left behind when the process that started
// it was killed. A pid file naming a dead or unrelated process is stale.
func (c *Cluster) runningServer() (pidFile, bool) {
	pf, ok := readPidFile(filepath.Join(c.pgdata, "postmaster.pid"))
	if !ok || !c.serves(pf.pid) {
		return pidFile{}, false
	}
	return pf, true
}

// serves reports whether pid is a live postgres server of this data
// directory, however the directory was spelled when it was started (through
// a symlink, say): its -D argument, or else its working directory (the
// server works in its data directory), is the same file as pgdata.
func (c *Cluster) serves(pid int) bool {
	if pid <= 0 || !processAlive(pid) {
		return false
	}
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return false
	}
	args := strings.Split(string(cmdline), "\x00")
	if len(args) == 0 || filepath.Base(args[0]) != "postgres" {
		return false
	}
	for i, a := range args {
		if a == "-D" && i+1 < len(args) && sameFile(args[i+1], c.pgdata) {
			return true
		}
	}
	return sameFile(fmt.Sprintf("/proc/%d/cwd", pid), c.pgdata)
}

// sameFile reports whether paths a and b name the same existing file.
func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
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
