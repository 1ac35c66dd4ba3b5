package main

import (
	"context"
	"errors"
	"os"

	"github.com/tutord/tutord/internal/eval"
)

// runEval runs the evaluation harness: tutord eval run|import-mathdial|leak-bench|compare.
func runEval(ctx context.Context, e env, args []string) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	err = eval.Main(ctx, args, eval.Env{
		Stdout: e.stdout, Stderr: e.stderr,
		Getenv:   func(k string) string { return e.environ[k] },
		Embedded: embeddedServer(exe),
	})
	var ue *eval.UsageError
	switch {
	case errors.As(err, &ue):
		return usageError{ue.Msg}
	case errors.Is(err, eval.ErrHelp):
		return errHelp
	}
	return err
}

// embeddedServer starts a throwaway `tutord serve` on a fresh embedded
// database (the rules engine, no rate limits) for --embedded runs.
func embeddedServer(exe string) eval.Embedded {
	return func(ctx context.Context, cfg eval.EmbeddedConfig) (string, func(), error) {
		dir, err := os.MkdirTemp("", "tutord-eval-")
		if err != nil {
			return "", nil, err
		}
		extra := []string{"TUTORD_JWT_SECRET=" + cfg.JWTSecret, "TUTORD_JWT_JWKS_URL=", "TUTORD_JWT_ISSUER=", "TUTORD_JWT_AUDIENCE=",
			"TUTORD_JWT_ADMIN_CLAIM=role=admin", "TUTORD_ALLOW_ANONYMOUS=true", "TUTORD_LOAD_SAMPLE=true"}
		if cfg.CurriculumDir != "" {
			extra = append(extra, "TUTORD_CURRICULUM_DIR="+cfg.CurriculumDir)
		}
		srv, err := startChild(ctx, exe, dir, extra...)
		if err != nil {
			os.RemoveAll(dir)
			return "", nil, err
		}
		return srv.url, func() { srv.stop(); os.RemoveAll(dir) }, nil
	}
}
