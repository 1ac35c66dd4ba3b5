package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"time"

	"github.com/tutord/tutord/internal/config"
	"github.com/tutord/tutord/internal/store"
)

// runAgentLogs manages the stored agent logs:
//
//	tutord agent-logs purge [--older-than D]
//
// purge deletes at once what TUTORD_AGENT_LOG_RETENTION has serve delete
// hourly: for an operator who lowers the retention, or keeps it at 0 and
// purges on a schedule of their own.
//
// --older-than overrides TUTORD_AGENT_LOG_RETENTION as the common flags
// override their variables: the variable's value, whatever it is, then
// does not matter.
func runAgentLogs(ctx context.Context, e env, args []string) error {
	cfg, rest, err := loadConfig(e, "agent-logs", args, func(fs *flag.FlagSet, c *config.Config) {
		fs.Var((*durationFlag)(&c.AgentLogRetention), "older-than", "purge: delete entries older than this `duration`, such as 720h (TUTORD_AGENT_LOG_RETENTION)")
	})
	if err != nil {
		return err
	}
	if len(rest) != 1 || rest[0] != "purge" {
		return usageError{"agent-logs needs an action: purge [--older-than D]"}
	}
	olderThan := cfg.AgentLogRetention
	if olderThan <= 0 {
		return usageError{"agent-logs purge needs --older-than D (or TUTORD_AGENT_LOG_RETENTION), a positive duration such as 720h"}
	}
	log := newLogger(cfg, e.stderr)
	db, err := openDatabase(ctx, cfg, log, dbUse{migrate: cfg.Migrate, schema: true})
	if err != nil {
		return err
	}
	defer db.close(context.Background(), log)
	p, err := db.store.PurgeAgentLogs(ctx, time.Now().Add(-olderThan))
	// What a failed purge removed stays removed: say so either way.
	fmt.Fprintf(e.stdout, "deleted the agent logs of %d turns and %d other entries older than %s\n", p.Turns, p.Rows, olderThan)
	return err
}

// purgeAgentLogs deletes the agent-log entries older than retention, at
// once and then every interval, until ctx ends.
func purgeAgentLogs(ctx context.Context, st *store.Store, retention, interval time.Duration, log *slog.Logger) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		p, err := st.PurgeAgentLogs(ctx, time.Now().Add(-retention))
		switch {
		case err != nil && ctx.Err() == nil:
			log.Warn("purge agent logs", "err", err, "turns", p.Turns, "entries", p.Rows)
		case p != (store.PurgedLogs{}):
			log.Info("purged agent logs", "turns", p.Turns, "entries", p.Rows, "retention", retention)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
