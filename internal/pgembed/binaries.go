package pgembed

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// ErrNoBinaries reports that no PostgreSQL server binaries were found. Its
// message names both ways out, because whoever sees it is setting tutord up.
var ErrNoBinaries = errors.New("no PostgreSQL server binaries (initdb, postgres) found on PATH, via pg_config --bindir, or under /usr/lib/postgresql/*/bin: " +
	"install the PostgreSQL server package (e.g. apt-get install postgresql) or set TUTORD_DATABASE_URL to use an existing database")

// FindBinDir returns a directory holding both initdb and postgres. It looks,
// in order, at the directories on PATH, at `pg_config --bindir`, and at
// /usr/lib/postgresql/*/bin, newest version first.
func FindBinDir() (string, error) {
	return findBinDir(os.Getenv("PATH"), "/usr/lib/postgresql")
}

func findBinDir(path, libRoot string) (string, error) {
	var candidates []string
	if p, err := lookPathIn("postgres", path); err == nil {
		candidates = append(candidates, filepath.Dir(p))
	}
	if pgConfig, err := lookPathIn("pg_config", path); err == nil {
		if out, err := exec.Command(pgConfig, "--bindir").Output(); err == nil {
			candidates = append(candidates, strings.TrimSpace(string(out)))
		}
	}
	candidates = append(candidates, versionDirs(libRoot)...)
	for _, dir := range candidates {
		if dir, ok := serverBinDir(dir); ok {
			return dir, nil
		}
	}
	return "", ErrNoBinaries
}

// serverBinDir reports whether dir (after resolving a symlinked postgres to
// its real directory, as Debian's /usr/local/bin links do) holds initdb and
// postgres, and returns that real directory.
func serverBinDir(dir string) (string, bool) {
	if dir == "" {
		return "", false
	}
	pg := filepath.Join(dir, "postgres")
	if real, err := filepath.EvalSymlinks(pg); err == nil {
		dir = filepath.Dir(real)
	}
	for _, name := range []string{"postgres", "initdb"} {
		if !isExecutable(filepath.Join(dir, name)) {
			return "", false
		}
	}
	return dir, true
}

// versionDirs lists root/<version>/bin, newest version first.
func versionDirs(root string) []string {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	type versioned struct {
		dir string
		v   []int
	}
	var vs []versioned
	for _, e := range entries {
		v, ok := parseVersion(e.Name())
		if !ok {
			continue
		}
		vs = append(vs, versioned{filepath.Join(root, e.Name(), "bin"), v})
	}
	sort.Slice(vs, func(i, j int) bool { return versionLess(vs[j].v, vs[i].v) })
	dirs := make([]string, len(vs))
	for i, v := range vs {
		dirs[i] = v.dir
	}
	return dirs
}

func parseVersion(s string) ([]int, bool) {
	var v []int
	for _, part := range strings.Split(s, ".") {
		n, err := strconv.Atoi(part)
		if err != nil {
			return nil, false
		}
		v = append(v, n)
	}
	return v, len(v) > 0
}

func versionLess(a, b []int) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return len(a) < len(b)
}

func lookPathIn(name, path string) (string, error) {
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, name)
		if isExecutable(p) {
			return p, nil
		}
	}
	return "", exec.ErrNotFound
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}
