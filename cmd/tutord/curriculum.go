package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tutord/tutord/curricula"
	"github.com/tutord/tutord/internal/config"
	"github.com/tutord/tutord/internal/curriculum"
	"github.com/tutord/tutord/internal/lessons"
	"github.com/tutord/tutord/internal/store"
)

// runCurriculum manages the curriculum: import PATH..., export --out DIR,
// approve KEY, unapprove KEY.
func runCurriculum(ctx context.Context, e env, args []string) error {
	var out string
	cfg, rest, err := loadConfig(e, "curriculum", args, func(fs *flag.FlagSet, _ *config.Config) {
		fs.StringVar(&out, "out", "", "export: directory to write the files to")
	})
	if err != nil {
		return err
	}
	if len(rest) == 0 {
		return usageError{"curriculum needs an action: import PATH..., export --out DIR, approve KEY or unapprove KEY"}
	}
	action, rest := rest[0], rest[1:]
	switch action {
	case "import":
		if len(rest) == 0 {
			return usageError{"curriculum import needs at least one file or directory"}
		}
	case "export":
		if out == "" || len(rest) > 0 {
			return usageError{"curriculum export needs --out DIR"}
		}
	case "approve", "unapprove":
		if len(rest) != 1 {
			return usageError{fmt.Sprintf("curriculum %s needs one subtopic key, e.g. mathematics/fractions/adding-and-subtracting-fractions", action)}
		}
	default:
		return usageError{fmt.Sprintf("curriculum: unknown action %q; use import, export, approve or unapprove", action)}
	}
	// Validate files before touching the database: a malformed file is
	// reported with its file, line and field, and nothing is imported.
	var files []*curriculum.File
	if action == "import" {
		if files, err = loadCurriculum(rest...); err != nil {
			return err
		}
	}

	log := newLogger(cfg, e.stderr)
	db, err := openDatabase(ctx, cfg, log, dbUse{migrate: cfg.Migrate, schema: true})
	if err != nil {
		return err
	}
	defer db.close(context.Background(), log)

	switch action {
	case "import":
		res, err := lessons.Import(ctx, db.store, files, time.Now())
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "imported %d files: %d subtopics created, %d updated, %d unchanged, %d new plan versions\n",
			len(files), res.Created, res.Updated, res.Unchanged, res.PlanVersions)
	case "export":
		files, err := lessons.Export(ctx, db.store)
		if err != nil {
			return err
		}
		for _, f := range files {
			b, err := curriculum.Marshal(f)
			if err != nil {
				return fmt.Errorf("export %s: %w", f.Name, err)
			}
			path := filepath.Join(out, f.Name)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return fmt.Errorf("export: %w", err)
			}
			if err := os.WriteFile(path, b, 0o644); err != nil {
				return fmt.Errorf("export: %w", err)
			}
		}
		fmt.Fprintf(e.stdout, "exported %d files to %s\n", len(files), out)
	case "approve", "unapprove":
		n, err := db.store.SetApproved(ctx, rest[0], action == "approve", time.Now())
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("no subtopic has the key %q", rest[0])
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%sd %s (%d changed)\n", action, rest[0], n)
	}
	return nil
}

// importAtStart imports the shipped sample curriculum (with the embedded
// database and no TUTORD_CURRICULUM_DIR, or when TUTORD_LOAD_SAMPLE=true)
// and TUTORD_CURRICULUM_DIR. Imports are idempotent, so this is cheap on
// every start. (Both at once, a directory that revises a sample subtopic
// would take it back and forth, a plan version each way, at every start.)
func importAtStart(ctx context.Context, cfg config.Config, db *database, log *slog.Logger) error {
	sample := cfg.LoadSample == "true" || (cfg.LoadSample == "auto" && db.cluster != nil && cfg.CurriculumDir == "")
	if (sample || cfg.CurriculumDir != "") && !cfg.Migrate {
		// An import writes tutord's tables: on an older schema it would
		// fail on the first missing one.
		if err := schemaCurrent(ctx, db.store); err != nil {
			return fmt.Errorf("curriculum import at start: %w", err)
		}
	}
	if sample {
		files, err := curriculum.LoadFS(curricula.FS())
		if err != nil {
			return fmt.Errorf("sample curriculum: %w", err)
		}
		res, err := lessons.Import(ctx, db.store, files, time.Now())
		if err != nil {
			return fmt.Errorf("sample curriculum: %w", err)
		}
		log.Info("sample curriculum imported", "created", res.Created, "updated", res.Updated, "unchanged", res.Unchanged)
	}
	if cfg.CurriculumDir != "" {
		files, err := loadCurriculum(cfg.CurriculumDir)
		if err != nil {
			return fmt.Errorf("TUTORD_CURRICULUM_DIR: %w", err)
		}
		res, err := lessons.Import(ctx, db.store, files, time.Now())
		if err != nil {
			return fmt.Errorf("TUTORD_CURRICULUM_DIR: %w", err)
		}
		log.Info("curriculum imported", "dir", cfg.CurriculumDir, "created", res.Created, "updated", res.Updated, "unchanged", res.Unchanged)
	}
	return nil
}

// loadCurriculum reads and checks the curriculum files at paths, and fails
// if there are none: importing nothing is a mistake (a wrong or empty
// directory), not a success that a deployment script, or an operator whose
// server starts without the curriculum, would not notice.
func loadCurriculum(paths ...string) ([]*curriculum.File, error) {
	files, err := curriculum.LoadPaths(paths...)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no curriculum file in %s: a directory is searched for *.yaml and *.yml files", strings.Join(paths, ", "))
	}
	return files, nil
}
