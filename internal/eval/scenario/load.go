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
// *.yaml and *.yml file below it (hidden ones skipped), in sorted order. A
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
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			add(p)
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(name string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			hidden := strings.HasPrefix(d.Name(), ".") && name != p
			switch {
			case d.IsDir() && hidden:
				return filepath.SkipDir
			case d.IsDir() || hidden:
				return nil
			}
			if ext := filepath.Ext(name); ext == ".yaml" || ext == ".yml" {
				found = append(found, name)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		sort.Strings(found)
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
