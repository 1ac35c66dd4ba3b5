// Package repopath finds files of the module from a test, whatever package
// directory the test runs in.
package repopath

import (
	"os"
	"path/filepath"
	"testing"
)

// Join returns the path of rel (slash-separated) under the module's root,
// the nearest directory above the working directory that holds go.mod. It
// fails the test when there is none.
func Join(t testing.TB, rel string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatalf("working directory: %v", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, filepath.FromSlash(rel))
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("no go.mod above %s: cannot find %s", dir, rel)
		}
		dir = parent
	}
}
