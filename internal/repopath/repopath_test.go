package repopath

import (
	"os"
	"testing"
)

func TestJoinFindsTheModuleRoot(t *testing.T) {
	if _, err := os.Stat(Join(t, "go.mod")); err != nil {
		t.Errorf("go.mod not found from %s: %v", must(os.Getwd()), err)
	}
	if _, err := os.Stat(Join(t, "migrations/0001_sessions.up.sql")); err != nil {
		t.Errorf("a file below the root: %v", err)
	}
}

func must(s string, _ error) string { return s }
