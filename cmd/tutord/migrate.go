package main

import (
	"context"
	"fmt"
	"strconv"

	"github.com/tutord/tutord/internal/store"
)

// runMigrate applies (up), rolls back (down N) or shows (version) the
// database migrations, or records a version without running any (force V,
// the way out of a migration interrupted half-way), on TUTORD_DATABASE_URL
// or the embedded database.
func runMigrate(ctx context.Context, e env, args []string) error {
	cfg, rest, err := loadConfig(e, "migrate", args, nil)
	if err != nil {
		return err
	}
	if len(rest) == 0 {
		return usageError{"migrate needs an action: up, down N, version or force V"}
	}
	action := rest[0]
	var steps int
	switch action {
	case "up", "version":
		if len(rest) != 1 {
			return usageError{fmt.Sprintf("migrate %s takes no further arguments", action)}
		}
	case "down":
		if len(rest) != 2 {
			return usageError{"migrate down needs the number of migrations to roll back, e.g. migrate down 1"}
		}
		steps, err = strconv.Atoi(rest[1])
		if err != nil || steps < 1 {
			return usageError{fmt.Sprintf("migrate down: %q is not a positive number", rest[1])}
		}
	case "force":
		if len(rest) != 2 {
			return usageError{"migrate force needs the version to record, e.g. migrate force 5"}
		}
		steps, err = strconv.Atoi(rest[1])
		if err != nil || steps < 0 || uint(steps) > store.LatestVersion() {
			return usageError{fmt.Sprintf("migrate force: %q is not a version from 0 to %d", rest[1], store.LatestVersion())}
		}
	default:
		return usageError{fmt.Sprintf("migrate: unknown action %q; use up, down N, version or force V", action)}
	}

	log := newLogger(cfg, e.stderr)
	db, err := openDatabase(ctx, cfg, log, dbUse{})
	if err != nil {
		return err
	}
	defer db.close(context.Background(), log)
	if action != "version" {
		m, err := newMigrator(ctx, cfg, db)
		if err != nil {
			return err
		}
		defer m.Close()
		switch action {
		case "up":
			err = m.Up()
		case "down":
			err = m.Down(steps)
		case "force":
			err = m.Force(steps)
		}
		if err != nil {
			return err
		}
	}
	// Read without the migration lock, which another process may hold for
	// as long as its migrations take.
	v, dirty, err := db.store.SchemaVersion(ctx)
	if err != nil {
		return err
	}
	state := "clean"
	if dirty {
		// A migration marks the version dirty while it runs: with its
		// lock held it is running (another tutord migrating), without it
		// it failed.
		state = "dirty: a migration failed; fix the cause, then migrate force"
		if locked, err := db.store.MigrationLocked(ctx); err == nil && locked {
			state = "dirty: a migration is in progress in another process"
		}
	}
	fmt.Fprintf(e.stdout, "schema version %d (%s; this binary's latest is %d)\n", v, state, store.LatestVersion())
	return nil
}
