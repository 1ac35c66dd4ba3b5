package pgtest

import (
	"context"
	"testing"
)

func TestMain(m *testing.M) { Main(m) }

func TestEachTestGetsItsOwnMigratedDatabase(t *testing.T) {
	ctx := context.Background()
	names := map[string]bool{}
	for range 3 {
		var name string
		var tables int
		pool := Pool(t)
		if err := pool.QueryRow(ctx, `SELECT current_database(), (SELECT count(*) FROM information_schema.tables WHERE table_name = 'sessions')`).Scan(&name, &tables); err != nil {
			t.Fatal(err)
		}
		if names[name] || name == "postgres" || name == srv.template {
			t.Fatalf("database %q is not a fresh per-test database", name)
		}
		if tables != 1 {
			t.Fatalf("database %q is not migrated", name)
		}
		names[name] = true
	}
}

func TestConnStringReplacesTheDatabase(t *testing.T) {
	for _, tt := range []struct{ admin, want string }{
		{"postgres://u:p@h:5432/postgres?sslmode=disable", "postgres://u:p@h:5432/x?sslmode=disable"},
		{"host=/tmp/s user=tutord dbname=postgres", "host=/tmp/s user=tutord dbname=postgres dbname=x"},
	} {
		s := &server{adminURL: tt.admin}
		if got := s.connString("x"); got != tt.want {
			t.Errorf("connString(%q) = %q, want %q", tt.admin, got, tt.want)
		}
	}
}
