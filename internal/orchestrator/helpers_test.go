package orchestrator_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tutord/tutord/internal/pguuid"
)

func openPool(t testing.TB, conn string) *pgxpool.Pool {
	t.Helper()
	cfg, err := pgxpool.ParseConfig(conn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.MaxConns = 40
	cfg.AfterConnect = pguuid.AfterConnect
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}
