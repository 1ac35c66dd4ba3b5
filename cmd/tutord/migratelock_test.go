package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	migratedb "github.com/golang-migrate/migrate/v4/database"
	"github.com/jackc/pgx/v5"
)

// holdMigrationLock starts a database, migrates it and takes
// golang-migrate's advisory lock on it from another session, as a tutord
// migrating it would; it returns the database's connection string and that
// session.
func holdMigrationLock(t *testing.T) (string, *pgx.Conn) {
	t.Helper()
	ctx := context.Background()
	connString := externalDatabase(t)
	if out, code := runBinary(t, []string{"TUTORD_DATABASE_URL=" + connString}, "migrate", "up"); code != 0 {
		t.Fatalf("migrate up: %s", out)
	}
	holder, err := pgx.Connect(ctx, connString)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { holder.Close(context.Background()) })
	id, err := migratedb.GenerateAdvisoryLockId("tutord", "public", "schema_migrations")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := holder.Exec(ctx, "SELECT pg_advisory_lock("+id+")"); err != nil {
		t.Fatal(err)
	}
	return connString, holder
}

// While another process holds the migration lock (another tutord
// migrating, a migration stuck behind a long transaction), `migrate
// version` answers at once, since it only reads; what migrates gives up
// after TUTORD_DB_CONNECT_TIMEOUT saying why, and stops on Ctrl-C or
// SIGTERM, rather than waiting silently without a limit.
func TestMigrationLockHeldByAnotherProcess(t *testing.T) {
	connString, holder := holdMigrationLock(t)
	env := []string{"TUTORD_DATABASE_URL=" + connString, "TUTORD_DB_CONNECT_TIMEOUT=1s", "TUTORD_ADDR=127.0.0.1:0"}

	out, errOut, code := runWithin(t, 10*time.Second, env, "migrate", "version")
	if code != 0 || !strings.HasPrefix(out, "schema version ") || !strings.Contains(out, "(clean;") {
		t.Errorf("migrate version with the lock held: exit %d, %q %q; want the version", code, out, lastLine(errOut))
	}

	// A migration running marks the version dirty: version says it is
	// in progress, not failed, while the lock is held.
	if _, err := holder.Exec(context.Background(), `UPDATE schema_migrations SET dirty = true`); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = runWithin(t, 10*time.Second, env, "migrate", "version")
	if code != 0 || !strings.Contains(out, "a migration is in progress") {
		t.Errorf("migrate version, dirty with the lock held: exit %d, %q %q; want a migration in progress", code, out, lastLine(errOut))
	}
	if _, err := holder.Exec(context.Background(), `UPDATE schema_migrations SET dirty = false`); err != nil {
		t.Fatal(err)
	}

	for _, args := range [][]string{{"migrate", "up"}, {"serve"}} {
		_, errOut, code := runWithin(t, 10*time.Second, env, args...)
		if line := lastLine(errOut); code != 1 || !strings.Contains(line, "another process holds the migration lock (waited 1s, TUTORD_DB_CONNECT_TIMEOUT)") {
			t.Errorf("tutord %s with the lock held: exit %d, %q; want exit 1 saying another process holds the lock", strings.Join(args, " "), code, line)
		}
	}

	// A stop while waiting: serve stops cleanly, as anywhere in start-up.
	waitEnv := append(env[:len(env):len(env)], "TUTORD_DB_CONNECT_TIMEOUT=1m")
	for _, tc := range []struct {
		args []string
		code int
	}{{[]string{"migrate", "up"}, 1}, {[]string{"serve"}, 0}} {
		cmd := exec.Command(binary, tc.args...)
		cmd.Env = append(os.Environ(), append([]string{"TUTORD_LOG_FORMAT=json"}, waitEnv...)...)
		errOut := interrupt(t, cmd, func() { waitForLockWaiter(t, holder) }, syscall.SIGINT)
		if code := cmd.ProcessState.ExitCode(); code != tc.code {
			t.Errorf("tutord %s interrupted while waiting for the lock: exit %d, %q; want %d", strings.Join(tc.args, " "), code, lastLine(errOut), tc.code)
		}
	}
}

// interrupt starts cmd, sends it sig once ready returns, and waits for it
// to exit; it returns cmd's standard error. It fails the test, killing
// cmd, if cmd still runs 5 s after the signal.
func interrupt(t *testing.T, cmd *exec.Cmd, ready func(), sig os.Signal) string {
	t.Helper()
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	ready()
	_ = cmd.Process.Signal(sig)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("tutord %s still running 5s after %v", strings.Join(cmd.Args[1:], " "), sig)
	}
	return errOut.String()
}

// runWithin runs tutord with env and returns its standard output, standard
// error and exit status; it fails the test if tutord runs longer than d.
func runWithin(t *testing.T, d time.Duration, env []string, args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Env = append(os.Environ(), append([]string{"TUTORD_LOG_FORMAT=json"}, env...)...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	_ = cmd.Run()
	if ctx.Err() != nil {
		t.Errorf("tutord %s still running after %s", strings.Join(args, " "), d)
	}
	return out.String(), errOut.String(), cmd.ProcessState.ExitCode()
}

// waitForLockWaiter waits until a session waits for an advisory lock.
func waitForLockWaiter(t *testing.T, conn *pgx.Conn) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var n int
		if err := conn.QueryRow(context.Background(), `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("no session came to wait for the migration lock")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
