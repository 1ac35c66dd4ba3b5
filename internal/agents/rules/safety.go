package rules

import (
	"context"
	_ "embed"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/tutor"
)

// The safety categories, in order of precedence: a message that matches
// several gets the first.
const (
	CategorySelfHarm     = "self_harm"
	CategoryAbuse        = "abuse" // the learner is being hurt by someone
	CategoryViolence     = "violence"
	CategorySexual       = "sexual"
	CategoryHate         = "hate"
	CategoryPersonalData = "personal_data"
)

var categories = []string{CategorySelfHarm, CategoryAbuse, CategoryViolence, CategorySexual, CategoryHate, CategoryPersonalData}

// supportive reports whether a category is about harm done to the learner,
// which gets support and never a warning.
func supportive(category string) bool {
	return category == CategorySelfHarm || category == CategoryAbuse
}

// guidance is the reply to a message of each category. The self-harm and
// abuse replies point to people and helplines: Tele-MANAS (14416, also 1-800-891-4416),
// India's free 24x7 mental-health helpline; Childline (1098), India's free
// 24x7 line for children in distress; and 112, India's emergency number.
// A deployment outside India should change these numbers.
var guidance = map[string]string{
	CategorySelfHarm: "I'm really sorry you're feeling this way, and I'm glad you told me. " +
		"Please talk to a parent, teacher or another adult you trust right now; in India you can call the Tele-MANAS helpline on 14416 (free, 24x7) or Childline on 1098. " +
		"If you are in danger, call 112 straight away.",
	CategoryAbuse: "Thank you for telling me: that took courage, and it is not your fault. " +
		"Please tell a teacher or another adult you trust as soon as you can; in India you can call Childline on 1098 (free, 24x7). " +
		"If you are in danger right now, call 112.",
	CategoryViolence: "I can't help with anything that could hurt someone. " +
		"If you or someone else might be in danger, please tell an adult you trust or call 112. Shall we get back to the lesson?",
	CategorySexual: "That's not something I can talk about here. " +
		"If anything online or offline is making you uncomfortable, please tell a parent or teacher you trust. Let's get back to the lesson.",
	CategoryHate: "Let's keep our words kind and respectful to everyone. Shall we get back to the lesson?",
	CategoryPersonalData: "Let's keep personal details like phone numbers, addresses and passwords private: I don't need them, and it's safest not to share them online. " +
		"Shall we get back to the lesson?",
}

// Guidance returns the engine's fixed reply to a student message of
// category, "" for a category it does not know. It is what the safety gate
// says when a model's own guidance for the category cannot be sent.
func Guidance(category string) string { return guidance[category] }

// tutorGuidance replaces a tutor reply that failed the check: the reference
// service's fixed redirect.
const tutorGuidance = "Let's keep our conversation focused on learning. How can I help you with the lesson?"

//go:embed patterns.txt
var patternFile string

// rule is one line of patterns.txt.
type rule struct {
	category string
	severe   bool
	re       *regexp.Regexp
	// unless holds the patterns of the phrases the rule leaves out: a match
	// of re that overlaps a match of one of them does not count.
	unless []*regexp.Regexp
	// only, when set, is the one writer ("student" or "tutor") whose text
	// the rule judges.
	only string
	// words holds sets of strings (lowercase): every match contains one
	// string of each set. Nil when the pattern gives none.
	words [][]string
	line  int
}

// Safety is the rules engine's content gate: a classifier over the
// patterns kept in patterns.txt. Make one with NewSafety (the zero value
// has no patterns and passes everything). It is safe for concurrent use.
type Safety struct {
	rules  []rule
	filter *matcher
}

// NewSafety returns the safety gate with the package's patterns. The error
// reports a malformed pattern file.
func NewSafety() (*Safety, error) {
	rules, err := parseRules(patternFile)
	if err != nil {
		return nil, err
	}
	words := make([][][]string, len(rules))
	for i, r := range rules {
		words[i] = r.words
	}
	return &Safety{rules: rules, filter: newMatcher(words)}, nil
}

var _ agents.Safety = (*Safety)(nil)

// parseRules reads a pattern file (see patterns.txt for the format).
func parseRules(text string) ([]rule, error) {
	var rules []rule
	// fragments holds the patterns named by define lines so far, each
	// already expanded and grouped.
	fragments := map[string]string{}
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if f[0] == "define" {
			if len(f) < 3 || !fragmentName(f[1]) {
				return nil, fmt.Errorf("patterns.txt:%d: want define <NAME> <pattern>, NAME in capitals, digits and _", i+1)
			}
			if _, ok := fragments[f[1]]; ok {
				return nil, fmt.Errorf("patterns.txt:%d: %s is defined twice", i+1, f[1])
			}
			body, err := expandFragments(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(strings.TrimPrefix(line, f[0])), f[1])), fragments)
			if err != nil {
				return nil, fmt.Errorf("patterns.txt:%d: %w", i+1, err)
			}
			// A fragment is checked where it is written, and grouped so
			// that "{{NAME}}*" repeats all of it.
			if _, err := regexp.Compile("(?i)" + body); err != nil {
				return nil, fmt.Errorf("patterns.txt:%d: %w", i+1, err)
			}
			fragments[f[1]] = "(?:" + body + ")"
			continue
		}
		if f[0] == "unless" {
			if len(rules) == 0 {
				return nil, fmt.Errorf("patterns.txt:%d: unless before any rule", i+1)
			}
			pattern, err := expandFragments(strings.TrimSpace(strings.TrimPrefix(line, f[0])), fragments)
			if err != nil {
				return nil, fmt.Errorf("patterns.txt:%d: %w", i+1, err)
			}
			re, err := regexp.Compile("(?i)" + pattern)
			if err != nil {
				return nil, fmt.Errorf("patterns.txt:%d: %w", i+1, err)
			}
			last := &rules[len(rules)-1]
			last.unless = append(last.unless, re)
			continue
		}
		if f[0] == "only" {
			if len(rules) == 0 {
				return nil, fmt.Errorf("patterns.txt:%d: only before any rule", i+1)
			}
			if len(f) != 2 || f[1] != "student" && f[1] != "tutor" {
				return nil, fmt.Errorf("patterns.txt:%d: want only student or only tutor", i+1)
			}
			rules[len(rules)-1].only = f[1]
			continue
		}
		if len(f) < 3 {
			return nil, fmt.Errorf("patterns.txt:%d: want <category> <level> <pattern>", i+1)
		}
		if !slices.Contains(categories, f[0]) {
			return nil, fmt.Errorf("patterns.txt:%d: unknown category %q", i+1, f[0])
		}
		if f[1] != "flag" && f[1] != "severe" {
			return nil, fmt.Errorf("patterns.txt:%d: level %q is not flag or severe", i+1, f[1])
		}
		pattern, err := expandFragments(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(strings.TrimPrefix(line, f[0])), f[1])), fragments)
		if err != nil {
			return nil, fmt.Errorf("patterns.txt:%d: %w", i+1, err)
		}
		re, err := regexp.Compile("(?i)" + pattern)
		if err != nil {
			return nil, fmt.Errorf("patterns.txt:%d: %w", i+1, err)
		}
		rules = append(rules, rule{category: f[0], severe: f[1] == "severe", re: re, line: i + 1, words: requiredWords(pattern)})
	}
	return rules, nil
}

// expandFragments replaces each {{NAME}} in pattern by the fragment of
// that name. Every "{{" begins a reference, which a repetition count ("{n}",
// "{n,m}") never does; a literal brace before a brace is written "\{".
func expandFragments(pattern string, fragments map[string]string) (string, error) {
	var b strings.Builder
	for {
		before, after, found := strings.Cut(pattern, "{{")
		b.WriteString(before)
		if !found {
			return b.String(), nil
		}
		name, rest, closed := strings.Cut(after, "}}")
		if !closed || !fragmentName(name) {
			return "", fmt.Errorf("\"{{\" begins no reference {{NAME}}")
		}
		fragment, ok := fragments[name]
		if !ok {
			return "", fmt.Errorf("{{%s}} is not defined above this line", name)
		}
		b.WriteString(fragment)
		pattern = rest
	}
}

// fragmentName reports whether s can name a fragment: a capital letter,
// then capitals, digits and underscores.
func fragmentName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('A' <= c && c <= 'Z' || i > 0 && ('0' <= c && c <= '9' || c == '_')) {
			return false
		}
	}
	return s != ""
}

// matches reports whether the rule matches text: some match of its pattern
// overlaps no match of its unless patterns.
func (r *rule) matches(text string) bool {
	if len(r.unless) == 0 {
		return r.re.MatchString(text)
	}
	for _, m := range r.re.FindAllStringIndex(text, -1) {
		if !r.excepted(text, m[0], m[1]) {
			return true
		}
	}
	return false
}

// excepted reports whether text[start:end] overlaps a match of one of the
// rule's unless patterns.
func (r *rule) excepted(text string, start, end int) bool {
	for _, u := range r.unless {
		for _, e := range u.FindAllStringIndex(text, -1) {
			if e[0] < end && start < e[1] {
				return true
			}
		}
	}
	return false
}

// Check judges text written by role ("student" or "tutor"). An unsafe
// student message gets the kind reply of its category as guidance, and a
// warning when the rule is severe or the session was flagged for the same
// category before; self-harm never earns a warning. An unsafe tutor reply
// gets the fixed redirect and never a warning. The error is ctx's, when it
// is done.
func (s *Safety) Check(ctx context.Context, role, text string, st tutor.State) (agents.SafetyVerdict, agents.Call, error) {
	if err := ctx.Err(); err != nil {
		return agents.SafetyVerdict{}, agents.Call{Agent: agents.NameSafety, Provider: Provider, Err: err}, err
	}
	v := s.classify(role, text, st)
	var c agents.Call
	if v == safe {
		c = agents.Call{Agent: agents.NameSafety, Provider: Provider, Output: safeOutput, Attempts: 1}
	} else {
		c = call(agents.NameSafety, v)
	}
	c.Reasoning = v.Reasoning
	return v, c, nil
}

// safe is the verdict on a message no rule matches, which is nearly every
// message; safeOutput is its encoding, shared by the calls that return it
// (an agent's output is read, never written).
var (
	safe       = agents.SafetyVerdict{Safe: true, Reasoning: "no safety pattern matched"}
	safeOutput = slices.Clip(call(agents.NameSafety, safe).Output) // an append copies
)

func (s *Safety) classify(role, text string, st tutor.State) agents.SafetyVerdict {
	norm := normalizeForSafety(text)
	// Most messages are safe: a rule whose required words are absent cannot
	// match, and one pass of the prefilter costs far less than the regular
	// expressions.
	var buf [1024]bool
	scratch := buf[:]
	if n := len(s.rules) + s.filter.nsets; n > len(scratch) {
		scratch = make([]bool, n)
	}
	candidate, seen := scratch[:len(s.rules)], scratch[len(s.rules):len(s.rules)+s.filter.nsets]
	s.filter.candidates(norm, candidate, seen)
	var hit *rule
	severe := false
	for i := range s.rules {
		r := &s.rules[i]
		if !candidate[i] || r.only != "" && r.only != role || !r.matches(norm) {
			continue
		}
		switch {
		case hit == nil || precedence(r.category) < precedence(hit.category):
			hit, severe = r, r.severe
		case r.category == hit.category:
			severe = severe || r.severe
		}
	}
	if hit == nil {
		return safe
	}
	v := agents.SafetyVerdict{
		Category:  hit.category,
		Guidance:  guidance[hit.category],
		Reasoning: fmt.Sprintf("matched the %s pattern on line %d of patterns.txt", hit.category, hit.line),
	}
	if role == "tutor" {
		v.Guidance = tutorGuidance
		return v
	}
	v.Warn = !supportive(hit.category) && (severe || slices.Contains(st.SafetyFlags, hit.category))
	return v
}

func precedence(c string) int { return slices.Index(categories, c) }

// normalizeForSafety straightens apostrophes and double quotation marks,
// drops invisible format characters, writes ſ and the Kelvin sign as s and
// k (case-insensitive patterns match them, but \b knows only ASCII letters)
// and collapses space, so that patterns see one spelling.
func normalizeForSafety(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		switch r {
		case '’', '‘', 'ʼ', '`':
			r = '\''
		case '“', '”', '„':
			r = '"'
		case 'ſ':
			r = 's'
		case '\u212a':
			r = 'k'
		case '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff':
			continue
		}
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}
