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
// subtopic key appears once in a country, board and grade, files that share
// a topic agree on its title and list no subtopic title twice (ignoring
// case and spacing), files of a subject agree on its name, and
// prerequisites name subtopics of the set without forming a cycle. The
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
	// walk adds the files of the directory p. WalkDir follows no symbolic
	// link, neither a root that is one (current -> releases/v1) nor one
	// within (grade-7 -> ../shared/grade-7): walk walks the directory each
	// names, once (a link back up would loop), and names its files by the
	// path through the link.
	walked := map[string]bool{}
	var walk func(p string) error
	walk = func(p string) error {
		root, err := filepath.EvalSymlinks(p)
		if err != nil || walked[root] {
			return err
		}
		walked[root] = true
		return filepath.WalkDir(root, func(name string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, name) // name is below root
			if d.Type()&fs.ModeSymlink != 0 && !strings.HasPrefix(d.Name(), ".") {
				if info, err := os.Stat(name); err == nil && info.IsDir() {
					return walk(filepath.Join(p, rel))
				}
			}
			return visit(name, root, d, func(string) { add(filepath.Join(p, rel)) })
		})
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
		if err := walk(p); err != nil {
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
// *.yml files (in any case) that are not hidden and not in hidden
// directories.
func visit(name, root string, d fs.DirEntry, add func(string)) error {
	hidden := strings.HasPrefix(d.Name(), ".") && name != root
	switch {
	case d.IsDir() && hidden:
		return fs.SkipDir
	case d.IsDir() || hidden:
		return nil
	}
	if ext := strings.ToLower(path.Ext(name)); ext == ".yaml" || ext == ".yml" {
		add(name) // STATES-OF-MATTER.YAML too, as a file system without case may name it
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

// subtopicID identifies a subtopic as the store does: a full key is unique
// within a country, board and grade, and another board or grade may use it
// for a subtopic of its own.
type subtopicID struct {
	country, board string
	grade          int
	key            string
}

// checkSet checks what only the whole set of files can tell.
func checkSet(set []*parsed) {
	type topicID struct {
		country, board string
		grade          int
		subject, key   string
	}
	type subjectID struct{ country, board, key string }
	topics := map[topicID]*parsed{}
	subjects := map[subjectID]*parsed{}
	subtopics := map[subtopicID]subtopicRef{}
	type titleID struct {
		topic topicID
		title string
	}
	titles := map[titleID]subtopicRef{}
	type topicTitleID struct {
		country, board string
		grade          int
		subject, title string
	}
	topicTitles := map[topicTitleID]*parsed{}
	byKey := map[string][]subtopicID{}
	var order []subtopicID
	complete := true
	for _, p := range set {
		f := p.file
		if f == nil {
			complete = false
			continue
		}
		sid := subjectID{f.Country, f.Board, Slug(f.Subject)}
		if other, ok := subjects[sid]; !ok {
			subjects[sid] = p
		} else if n := other.file.Subject; n != f.Subject {
			p.errorf("subject", "subject %q is written %q in %s", f.Subject, n, other.issues.File)
		}
		id := topicID{f.Country, f.Board, f.Grade, Slug(f.Subject), f.Topic.Key}
		if other, ok := topics[id]; !ok {
			topics[id] = p
		} else if t := other.file.Topic.Title; t != f.Topic.Title {
			p.errorf("topic.title", "topic %q is titled %q in %s", f.Topic.Key, t, other.issues.File)
		}
		// Learners choose a topic by its title: two topics of a subject and
		// grade with one title would be listed as one.
		ttid := topicTitleID{f.Country, f.Board, f.Grade, Slug(f.Subject), foldTitle(f.Topic.Title)}
		if other, ok := topicTitles[ttid]; !ok && ttid.title != "" {
			topicTitles[ttid] = p
		} else if ok && other.file.Topic.Key != f.Topic.Key {
			p.errorf("topic.title", "topic title %q is also that of topic %q in %s; learners choose a topic by its title",
				f.Topic.Title, other.file.Topic.Key, other.issues.File)
		}
		for i, s := range f.Subtopics {
			if s.Key == "" {
				continue
			}
			ref := subtopicRef{p, i}
			sid := subtopicID{f.Country, f.Board, f.Grade, key(f.Subject, f.Topic.Key, s.Key)}
			if other, ok := subtopics[sid]; ok {
				if other.p != p { // duplicates within a file are reported by Parse
					p.errorf(ref.field("key"), "duplicate subtopic %q: also at %s", sid.key, other.p.where(other.field("key")))
				}
				continue
			}
			subtopics[sid] = ref
			byKey[sid.key] = append(byKey[sid.key], sid)
			order = append(order, sid)
			// A topic split over files is one list of subtopics to the
			// learner, who picks one by its title.
			tid := titleID{id, foldTitle(s.Title)}
			if other, ok := titles[tid]; ok && other.p != p { // duplicates within a file are reported by Parse
				p.errorf(ref.field("title"), "duplicate subtopic title %q in topic %q: also at %s; learners choose a subtopic by its title",
					s.Title, f.Topic.Key, other.p.where(other.field("title")))
			} else if !ok && tid.title != "" {
				titles[tid] = ref
			}
		}
	}
	if !complete {
		return // a file that could not be read may hold the prerequisites
	}
	// A prerequisite names a full key: the subtopics of that key in the
	// same country and board, any grade, or, when there are none, wherever
	// the key is.
	prereqs := func(sid subtopicID, pre string) []subtopicID {
		all := byKey[pre]
		var near []subtopicID
		for _, o := range all {
			if o.country == sid.country && o.board == sid.board {
				near = append(near, o)
			}
		}
		if len(near) > 0 {
			return near
		}
		return all
	}
	for _, sid := range order {
		ref := subtopics[sid]
		for j, pre := range ref.subtopic().Prerequisites {
			if len(byKey[pre]) == 0 && keyPattern.MatchString(pre) {
				ref.p.errorf(ref.field("prerequisites[%d]", j), "unknown subtopic %q", pre)
			}
		}
	}
	checkCycles(order, subtopics, prereqs)
}

// checkCycles reports each cycle of prerequisites once, at the subtopic
// where the search closes it.
func checkCycles(order []subtopicID, subtopics map[subtopicID]subtopicRef, prereqs func(subtopicID, string) []subtopicID) {
	const (
		unseen = iota
		active
		done
	)
	state := map[subtopicID]int{}
	var stack []subtopicID
	var visit func(sid subtopicID)
	visit = func(sid subtopicID) {
		state[sid] = active
		stack = append(stack, sid)
		ref := subtopics[sid]
		for j, pre := range ref.subtopic().Prerequisites {
			for _, next := range prereqs(sid, pre) {
				switch state[next] {
				case unseen:
					visit(next)
				case active:
					var cycle []string
					for _, s := range stack[slices.Index(stack, next):] {
						cycle = append(cycle, s.key)
					}
					cycle = append(cycle, next.key)
					ref.p.errorf(ref.field("prerequisites[%d]", j), "prerequisites form a cycle: %s", strings.Join(cycle, " → "))
				}
			}
		}
		stack = stack[:len(stack)-1]
		state[sid] = done
	}
	for _, sid := range order {
		if state[sid] == unseen {
			visit(sid)
		}
	}
}

// foldTitle is a title as learners tell titles apart: in any case, with
// any spacing.
func foldTitle(title string) string {
	return strings.ToLower(strings.Join(strings.Fields(title), " "))
}
