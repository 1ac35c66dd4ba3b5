package scenario

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Suite is a set of scenarios read together.
type Suite struct {
	// Scenarios are the good scenarios, ordered by file.
	Scenarios []*Scenario
	// Issues are the problems of the files that could not be used.
	Issues []Issue
}

// Load reads the scenario files at paths: a directory stands for every
// *.yaml and *.yml file below it (hidden ones skipped, symbolic links to
// directories followed, each directory read once), in sorted order. A
// file with problems is left out and its problems are listed in the
// suite's Issues; so is a scenario whose name an earlier file already
// uses. A file named twice, however spelt (a directory and a file in it,
// "suite/x.yaml" and "./suite/x.yaml"), is read once, under its first
// spelling. The error is for paths that cannot be read at all.
func Load(paths ...string) (*Suite, error) {
	var names []string
	seen := map[string]bool{}
	add := func(name string) {
		key := name
		if abs, err := filepath.Abs(name); err == nil {
			key = abs // cleaned, so one file has one key
		}
		if !seen[key] {
			seen[key] = true
			names = append(names, name)
		}
	}
	w := &walker{walked: map[string]bool{}}
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			add(p)
			continue
		}
		found, err := w.files(p)
		if err != nil {
			return nil, err
		}
		for _, f := range found {
			add(f)
		}
	}
	s := &Suite{}
	byName := map[string]string{}
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		sc, err := Parse(name, data)
		var perr *Error
		switch {
		case errors.As(err, &perr):
			s.Issues = append(s.Issues, perr.Issues...)
			continue
		case err != nil:
			return nil, err
		}
		if other, dup := byName[sc.Name]; dup {
			s.Issues = append(s.Issues, Issue{File: name, Field: "name", Message: "scenario name " + sc.Name + " is also used by " + other})
			continue
		}
		byName[sc.Name] = name
		s.Scenarios = append(s.Scenarios, sc)
	}
	return s, nil
}

// walker finds the scenario files below directories. filepath.WalkDir
// follows no symbolic link, neither a root that is one (current -> v2) nor
// one within (shared -> ../shared): the walker walks the directory each
// names too, and names its files by the path through the link. It reads
// each directory once, however many links reach it, so a link back up
// cannot loop.
type walker struct {
	walked map[string]bool // absolute real paths of the directories read
	found  []string
}

// files returns the scenario files below the directory p, sorted, leaving
// out those of directories read before.
func (w *walker) files(p string) ([]string, error) {
	w.found = nil
	err := w.walk(p)
	sort.Strings(w.found)
	return w.found, err
}

// walk adds the scenario files below the directory p to found.
func (w *walker) walk(p string) error {
	root, err := filepath.EvalSymlinks(p)
	if err != nil {
		return err
	}
	return filepath.WalkDir(root, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, name) // name is below root
		hidden := strings.HasPrefix(d.Name(), ".") && name != root
		switch {
		case hidden && d.IsDir():
			return filepath.SkipDir
		case hidden:
			return nil
		case d.IsDir():
			return w.enter(name)
		case d.Type()&fs.ModeSymlink != 0:
			if info, err := os.Stat(name); err == nil && info.IsDir() {
				return w.walk(filepath.Join(p, rel))
			}
		}
		if ext := filepath.Ext(name); ext == ".yaml" || ext == ".yml" {
			w.found = append(w.found, filepath.Join(p, rel))
		}
		return nil
	})
}

// enter records that the real directory dir is being read, and skips it
// when it has been already.
func (w *walker) enter(dir string) error {
	key, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if w.walked[key] {
		return filepath.SkipDir
	}
	w.walked[key] = true
	return nil
}
