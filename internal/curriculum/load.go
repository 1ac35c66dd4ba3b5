package curriculum

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tutord/tutord/internal/yamldoc"
)

// LoadPaths reads and checks the curriculum files at paths. A directory
// stands for every *.yaml and *.yml file below it, skipping hidden files and
// directories; a file is read whatever its name. Files are read in sorted
// order, so the result does not depend on the order of the paths.
//
// Besides what [Parse] checks, LoadPaths checks the set as a whole: a full
// subtopic key appears once, files that share a topic agree on its title,
// and prerequisites name subtopics of the set without forming a cycle. The
// error, if any, is a *ValidationError listing the problems of every file,
// or an error reading the files.
func LoadPaths(paths ...string) ([]*File, error) {
	var names []string
	seen := map[string]bool{}
	add := func(name string) {
		// The same file may be named twice, as itself and within a directory.
		id, err := filepath.Abs(name)
		if err != nil {
			id = name
		}
		if !seen[id] {
			seen[id] = true
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
		err = filepath.WalkDir(p, func(name string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			return visit(name, p, d, add)
		})
		if err != nil {
			return nil, err
		}
	}
	return load(names, os.ReadFile)
}

// LoadFS reads and checks every *.yaml and *.yml file of fsys, such as an
// embedded copy of the curriculum, as [LoadPaths] does for a directory.
func LoadFS(fsys fs.FS) ([]*File, error) {
	var names []string
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return visit(name, ".", d, func(name string) { names = append(names, name) })
	})
	if err != nil {
		return nil, err
	}
	return load(names, func(name string) ([]byte, error) { return fs.ReadFile(fsys, name) })
}

// visit adds the curriculum files met on a walk from root: the *.yaml and
// *.yml files that are not hidden and not in hidden directories.
func visit(name, root string, d fs.DirEntry, add func(string)) error {
	hidden := strings.HasPrefix(d.Name(), ".") && name != root
	switch {
	case d.IsDir() && hidden:
		return fs.SkipDir
	case d.IsDir() || hidden:
		return nil
	}
	if ext := path.Ext(name); ext == ".yaml" || ext == ".yml" {
		add(name)
	}
	return nil
}

func load(names []string, read func(string) ([]byte, error)) ([]*File, error) {
	slices.Sort(names)
	set := make([]*parsed, 0, len(names))
	for _, name := range names {
		data, err := read(name)
		if err != nil {
			return nil, err
		}
		set = append(set, parse(name, data))
	}
	checkSet(set)
	groups := make([]*yamldoc.Issues, len(set))
	files := make([]*File, len(set))
	for i, p := range set {
		groups[i], files[i] = p.issues, p.file
	}
	if err := asError(groups...); err != nil {
		return nil, err
	}
	return files, nil
}

// errorf reports an issue with a field of the file found by checking the
// set, unless the file's own checks have reported the field already.
func (p *parsed) errorf(field, format string, args ...any) {
	p.dec.Errorf(field, format, args...)
}

// where names the file and line of a field.
func (p *parsed) where(field string) string {
	return fmt.Sprintf("%s:%d", p.issues.File, p.dec.Line(field))
}

// subtopicRef locates a subtopic within a set of files.
type subtopicRef struct {
	p *parsed
	i int
}

func (r subtopicRef) subtopic() *Subtopic { return &r.p.file.Subtopics[r.i] }

func (r subtopicRef) field(format string, args ...any) string {
	return fmt.Sprintf("subtopics[%d].", r.i) + fmt.Sprintf(format, args...)
}

// checkSet checks what only the whole set of files can tell.
func checkSet(set []*parsed) {
	type topicID struct {
		country, board string
		grade          int
		subject, key   string
	}
	topics := map[topicID]*parsed{}
	subtopics := map[string]subtopicRef{}
	var order []string
	complete := true
	for _, p := range set {
		f := p.file
		if f == nil {
			complete = false
			continue
		}
		id := topicID{f.Country, f.Board, f.Grade, Slug(f.Subject), f.Topic.Key}
		if other, ok := topics[id]; !ok {
			topics[id] = p
		} else if t := other.file.Topic.Title; t != f.Topic.Title {
			p.errorf("topic.title", "topic %q is titled %q in %s", f.Topic.Key, t, other.issues.File)
		}
		for i, s := range f.Subtopics {
			if s.Key == "" {
				continue
			}
			ref := subtopicRef{p, i}
			k := key(f.Subject, f.Topic.Key, s.Key)
			if other, ok := subtopics[k]; ok {
				if other.p != p { // duplicates within a file are reported by Parse
					p.errorf(ref.field("key"), "duplicate subtopic %q: also at %s", k, other.p.where(other.field("key")))
				}
				continue
			}
			subtopics[k] = ref
			order = append(order, k)
		}
	}
	if !complete {
		return // a file that could not be read may hold the prerequisites
	}
	for _, k := range order {
		ref := subtopics[k]
		for j, pre := range ref.subtopic().Prerequisites {
			if _, ok := subtopics[pre]; !ok && keyPattern.MatchString(pre) {
				ref.p.errorf(ref.field("prerequisites[%d]", j), "unknown subtopic %q", pre)
			}
		}
	}
	checkCycles(order, subtopics)
}

// checkCycles reports each cycle of prerequisites once, at the subtopic
// where the search closes it.
func checkCycles(order []string, subtopics map[string]subtopicRef) {
	const (
		unseen = iota
		active
		done
	)
	state := map[string]int{}
	var stack []string
	var visit func(k string)
	visit = func(k string) {
		state[k] = active
		stack = append(stack, k)
		ref := subtopics[k]
		for j, pre := range ref.subtopic().Prerequisites {
			if _, ok := subtopics[pre]; !ok {
				continue
			}
			switch state[pre] {
			case unseen:
				visit(pre)
			case active:
				cycle := append(slices.Clone(stack[slices.Index(stack, pre):]), pre)
				ref.p.errorf(ref.field("prerequisites[%d]", j), "prerequisites form a cycle: %s", strings.Join(cycle, " → "))
			}
		}
		stack = stack[:len(stack)-1]
		state[k] = done
	}
	for _, k := range order {
		if state[k] == unseen {
			visit(k)
		}
	}
}
