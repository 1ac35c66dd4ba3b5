package pgembed

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The data directory has two locks:
//
//   - tutord.lock: an exclusive flock held by the process that runs (started
//     or adopted) the server, for the life of the cluster, so that a second
//     one refuses to start instead of fighting over the server;
//   - tutord.clients: a shared flock held by each process that attached to
//     that server as a client (Options.Attach). The owner takes it
//     exclusively before stopping the server, so that it waits for them.
//
// The kernel drops a flock when its holder dies, so a crash never leaves the
// directory locked.
const (
	ownerLockName  = "tutord.lock"
	clientLockName = "tutord.clients"
)

// clientWait bounds how long Stop waits for attached clients to finish.
const clientWait = 15 * time.Second

// tryLock takes the owner lock. It reports false, with the pid that the lock
// file names (or "unknown"), when another process holds it.
func (c *Cluster) tryLock() (ok bool, holder string, err error) {
	path := filepath.Join(c.dir, ownerLockName)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return false, "", fmt.Errorf("data directory %s is not writable: %w", c.dir, unwrapPathError(err))
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		b, _ := os.ReadFile(path)
		f.Close()
		holder := strings.TrimSpace(string(b))
		if holder == "" {
			holder = "unknown"
		}
		return false, holder, nil
	}
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	c.lock = f
	return true, "", nil
}

// inUseError is the error of a process that finds the data directory held.
func (c *Cluster) inUseError(holder, why string) error {
	return fmt.Errorf("data directory %s is in use by another tutord process (pid %s)%s; stop it, or set TUTORD_DATA_DIR to another directory or TUTORD_DATABASE_URL to a shared database", c.dir, holder, why)
}

// lockClients takes the clients lock, shared (an attaching client) or
// exclusive (an owner about to stop the server), polling until ctx ends.
// It reports whether the lock was free at once.
func (c *Cluster) lockClients(ctx context.Context, how int) (atOnce bool, err error) {
	f, err := os.OpenFile(filepath.Join(c.dir, clientLockName), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return false, fmt.Errorf("data directory %s is not writable: %w", c.dir, unwrapPathError(err))
	}
	atOnce = true
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		if err == nil {
			c.clients = f
			return atOnce, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return false, fmt.Errorf("lock %s: %w", f.Name(), err)
		}
		if atOnce && how == syscall.LOCK_EX {
			c.log.Info("waiting for tutord commands that use the embedded PostgreSQL to finish", "data_dir", c.dir)
		}
		atOnce = false
		select {
		case <-tick.C:
		case <-ctx.Done():
			f.Close()
			return false, ctx.Err()
		}
	}
}

// releaseLock releases the owner lock, then the clients lock: a client
// waiting for the latter then finds the former free, and starts the server.
func (c *Cluster) releaseLock() {
	if c.lock != nil {
		_ = c.lock.Truncate(0)
		_ = syscall.Flock(int(c.lock.Fd()), syscall.LOCK_UN)
		c.lock.Close()
		c.lock = nil
	}
	if c.clients != nil {
		_ = syscall.Flock(int(c.clients.Fd()), syscall.LOCK_UN)
		c.clients.Close()
		c.clients = nil
	}
}
