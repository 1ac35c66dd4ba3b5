package pgembed

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// acquireLock takes an exclusive flock on <dir>/tutord.lock for the life of
// the cluster, so that a second process on the same data directory refuses
// to start instead of fighting over the server. The kernel drops the lock
// when the holder dies, so a crash never leaves the directory locked.
func (c *Cluster) acquireLock() error {
	path := filepath.Join(c.dir, "tutord.lock")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return fmt.Errorf("data directory %s is not writable: %w", c.dir, unwrapPathError(err))
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		b, _ := os.ReadFile(path)
		f.Close()
		holder := strings.TrimSpace(string(b))
		if holder == "" {
			holder = "unknown"
		}
		return fmt.Errorf("data directory %s is in use by another tutord process (pid %s); stop it, or set TUTORD_DATA_DIR to another directory or TUTORD_DATABASE_URL to a shared database", c.dir, holder)
	}
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	c.lock = f
	return nil
}

func (c *Cluster) releaseLock() {
	if c.lock == nil {
		return
	}
	_ = c.lock.Truncate(0)
	_ = syscall.Flock(int(c.lock.Fd()), syscall.LOCK_UN)
	c.lock.Close()
	c.lock = nil
}
