package rules

import (
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
)

// The safety classifier runs a hundred regular expressions, and nearly every
// message is safe. A prefilter finds, in one pass over the message, which
// rules can match at all: each rule is given a set of strings one of which
// every match contains, and an Aho–Corasick automaton over all those strings
// reports the rules whose strings occur. Only those rules run their regular
// expression.

// maxExact bounds the exact strings kept for one part of a pattern; a part
// with more (a long alternation of alternations) is treated as unknown.
const maxExact = 64

// patternInfo describes what a (sub)pattern can match.
type patternInfo struct {
	// exact lists every string the pattern can match, lowercased, when they
	// are few; nil when they are not known.
	exact []string
	// groups lists sets of strings: every match contains one string of
	// each set. Empty when none is known.
	groups [][]string
}

// requiredWords returns sets of lowercase strings such that every match of
// the pattern (matched case-insensitively) contains one string of each set,
// or nil when it cannot tell. The strings are to be looked for in text
// folded by foldForFilter.
func requiredWords(pattern string) [][]string {
	re, err := syntax.Parse(pattern, syntax.Perl|syntax.FoldCase)
	if err != nil {
		return nil
	}
	var out [][]string
	for _, g := range analyze(re.Simplify()).required() {
		// The matcher ignores ASCII case only: a set with other letters
		// is left out.
		if !slices.ContainsFunc(g, func(w string) bool { return !ascii(w) }) {
			out = append(out, g)
		}
	}
	return out
}

func analyze(re *syntax.Regexp) patternInfo {
	switch re.Op {
	case syntax.OpLiteral:
		s := strings.ToLower(string(re.Rune))
		return exactly(s)
	case syntax.OpCharClass:
		if letters := classLetters(re.Rune); letters != nil {
			return exactly(letters...)
		}
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return exactly("")
	case syntax.OpCapture:
		return analyze(re.Sub[0])
	case syntax.OpQuest:
		sub := analyze(re.Sub[0])
		if sub.exact != nil {
			return exactly(append([]string{""}, sub.exact...)...)
		}
	case syntax.OpPlus:
		return patternInfo{groups: analyze(re.Sub[0]).required()}
	case syntax.OpRepeat:
		sub := analyze(re.Sub[0])
		if re.Min == re.Max && sub.exact != nil {
			out := []string{""}
			for range re.Min {
				if out = product(out, sub.exact); out == nil {
					break
				}
			}
			if out != nil {
				return exactly(out...)
			}
		}
		if re.Min >= 1 {
			return patternInfo{groups: sub.required()}
		}
	case syntax.OpAlternate:
		var exact, required []string
		exactOK, requiredOK := true, true
		for _, sub := range re.Sub {
			info := analyze(sub)
			if info.exact == nil {
				exactOK = false
			}
			exact = append(exact, info.exact...)
			// A match contains one of the strings of any one set of
			// each branch: the most selective will do.
			w := mostSelective(info.required())
			if w == nil {
				requiredOK = false
			}
			required = append(required, w...)
		}
		switch {
		case exactOK && len(exact) <= maxExact:
			return exactly(exact...)
		case requiredOK:
			slices.Sort(required)
			return patternInfo{groups: [][]string{slices.Compact(required)}}
		}
	case syntax.OpConcat:
		return concat(re.Sub)
	}
	return patternInfo{}
}

// concat joins the parts of a concatenation: runs of parts with known
// strings multiply out into longer strings, and each run (and each part of
// unknown strings) gives a set that every match contains one of.
func concat(parts []*syntax.Regexp) patternInfo {
	var groups [][]string
	add := func(g []string) {
		if g != nil && !slices.Contains(g, "") && !slices.ContainsFunc(groups, func(h []string) bool { return slices.Equal(g, h) }) {
			groups = append(groups, g)
		}
	}
	all := []string{""}
	run := []string{""}
	for _, p := range parts {
		info := analyze(p)
		if info.exact == nil {
			add(normal(run))
			for _, g := range info.groups {
				add(g)
			}
			run, all = []string{""}, nil
			continue
		}
		if next := product(run, info.exact); next != nil {
			run = next
		} else {
			// Too many strings: start a new run here.
			add(normal(run))
			run = info.exact
		}
		if all != nil {
			all = product(all, info.exact)
		}
	}
	add(normal(run))
	if all != nil {
		return exactly(all...)
	}
	return patternInfo{groups: groups}
}

// mostSelective returns the set whose shortest string is longest.
func mostSelective(groups [][]string) []string {
	var best []string
	for _, g := range groups {
		if best == nil || shortest(g) > shortest(best) {
			best = g
		}
	}
	return best
}

func shortest(words []string) int {
	n := -1
	for _, w := range words {
		if n < 0 || len(w) < n {
			n = len(w)
		}
	}
	return n
}

func exactly(words ...string) patternInfo {
	return patternInfo{exact: normal(words)}
}

func normal(words []string) []string {
	slices.Sort(words)
	return slices.Compact(words)
}

// required returns the sets of strings that every match contains one of
// each: the exact strings when they are known and none is empty.
func (p patternInfo) required() [][]string {
	if p.exact != nil {
		if slices.Contains(p.exact, "") {
			return nil
		}
		return [][]string{p.exact}
	}
	return p.groups
}

// product returns every a+b, or nil when there would be more than maxExact.
func product(as, bs []string) []string {
	if len(as)*len(bs) > maxExact {
		return nil
	}
	out := make([]string, 0, len(as)*len(bs))
	for _, a := range as {
		for _, b := range bs {
			out = append(out, a+b)
		}
	}
	return out
}

// classLetters returns the characters of a small character class,
// lowercased (a case-folded letter such as [Ssſ] is "s", as
// normalizeForSafety writes ſ), or nil for a class of more than four.
func classLetters(ranges []rune) []string {
	var out []string
	for i := 0; i+1 < len(ranges); i += 2 {
		if ranges[i+1]-ranges[i] > 4 {
			return nil
		}
		for r := ranges[i]; r <= ranges[i+1]; r++ {
			c := unicode.ToLower(r)
			switch r {
			case 'ſ':
				c = 's'
			case '\u212a': // Kelvin sign
				c = 'k'
			}
			out = append(out, string(c))
		}
	}
	out = normal(out)
	if len(out) > 4 {
		return nil
	}
	return out
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// matcher is an Aho–Corasick automaton over bytes that tells which rules'
// sets of strings all occur in a text, ignoring ASCII case.
type matcher struct {
	class  [256]uint8 // the byte's column in next: 0 for bytes in no string
	width  int32      // columns per state
	next   []int32    // next[state*width+class]: the following state
	out    [][]int32  // out[state]: the sets with a string ending here (suffix links included)
	first  []int32    // first[rule]: the rule's first set; its sets are first[rule]..first[rule+1]-1
	nsets  int
	always []int // rules without sets: they always run
}

// newMatcher builds the matcher of the rules' sets of (lowercase ASCII)
// strings; a rule without sets always runs.
func newMatcher(rules [][][]string) *matcher {
	m := &matcher{first: make([]int32, len(rules)+1)}
	for _, sets := range rules {
		for _, set := range sets {
			for _, w := range set {
				for i := 0; i < len(w); i++ {
					if m.class[w[i]] == 0 {
						m.width++
						m.class[w[i]] = uint8(m.width)
					}
				}
			}
		}
	}
	m.width++
	for c := 'A'; c <= 'Z'; c++ {
		m.class[c] = m.class[c+'a'-'A']
	}
	m.next = make([]int32, m.width)
	m.out = [][]int32{nil}
	for rule, sets := range rules {
		m.first[rule] = int32(m.nsets)
		if len(sets) == 0 {
			m.always = append(m.always, rule)
		}
		for _, set := range sets {
			id := int32(m.nsets)
			m.nsets++
			for _, w := range set {
				state := int32(0)
				for i := 0; i < len(w); i++ {
					at := state*m.width + int32(m.class[w[i]])
					if m.next[at] == 0 {
						m.next[at] = int32(len(m.out))
						m.next = append(m.next, make([]int32, m.width)...)
						m.out = append(m.out, nil)
					}
					state = m.next[at]
				}
				if !slices.Contains(m.out[state], id) {
					m.out[state] = append(m.out[state], id)
				}
			}
		}
	}
	m.first[len(rules)] = int32(m.nsets)
	// Breadth first: each state's failure link is final before its
	// children are reached, so missing transitions can be copied from it.
	fail := make([]int32, len(m.out))
	var queue []int32
	for c := range m.width {
		if s := m.next[c]; s != 0 {
			queue = append(queue, s)
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, id := range m.out[fail[s]] {
			if !slices.Contains(m.out[s], id) {
				m.out[s] = append(m.out[s], id)
			}
		}
		for c := range m.width {
			t := m.next[s*m.width+c]
			if t == 0 {
				m.next[s*m.width+c] = m.next[fail[s]*m.width+c]
				continue
			}
			fail[t] = m.next[fail[s]*m.width+c]
			queue = append(queue, t)
		}
	}
	return m
}

// candidates sets hit[rule] for each rule that can match text: one whose
// every set has a string in text, or one that always runs. seen is scratch
// space of m.nsets entries, all false.
func (m *matcher) candidates(text string, hit, seen []bool) {
	state := int32(0)
	for i := 0; i < len(text); i++ {
		state = m.next[state*m.width+int32(m.class[text[i]])]
		for _, id := range m.out[state] {
			seen[id] = true
		}
	}
	for rule := range len(m.first) - 1 {
		hit[rule] = !slices.Contains(seen[m.first[rule]:m.first[rule+1]], false)
	}
}
