package rules

import (
	"context"
	_ "embed"
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"

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
	// words holds strings one of which any match contains (lowercase);
	// nil when the pattern gives none.
	words []string
	line  int
}

// Safety is the rules engine's content gate: a classifier over the
// patterns kept in patterns.txt. Make one with NewSafety (the zero value
// has no patterns and passes everything). It is safe for concurrent use.
type Safety struct {
	rules []rule
}

// NewSafety returns the safety gate with the package's patterns. The error
// reports a malformed pattern file.
func NewSafety() (*Safety, error) {
	rules, err := parseRules(patternFile)
	if err != nil {
		return nil, err
	}
	return &Safety{rules: rules}, nil
}

var _ agents.Safety = (*Safety)(nil)

// parseRules reads a pattern file (see patterns.txt for the format).
func parseRules(text string) ([]rule, error) {
	var rules []rule
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 3 {
			return nil, fmt.Errorf("patterns.txt:%d: want <category> <level> <pattern>", i+1)
		}
		if !slices.Contains(categories, f[0]) {
			return nil, fmt.Errorf("patterns.txt:%d: unknown category %q", i+1, f[0])
		}
		if f[1] != "flag" && f[1] != "severe" {
			return nil, fmt.Errorf("patterns.txt:%d: level %q is not flag or severe", i+1, f[1])
		}
		pattern := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(strings.TrimPrefix(line, f[0])), f[1]))
		re, err := regexp.Compile("(?i)" + pattern)
		if err != nil {
			return nil, fmt.Errorf("patterns.txt:%d: %w", i+1, err)
		}
		rules = append(rules, rule{category: f[0], severe: f[1] == "severe", re: re, line: i + 1, words: requiredWords(pattern)})
	}
	return rules, nil
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
	c := call(agents.NameSafety, v)
	c.Reasoning = v.Reasoning
	return v, c, nil
}

func (s *Safety) classify(role, text string, st tutor.State) agents.SafetyVerdict {
	norm := normalizeForSafety(text)
	lower := strings.ToLower(norm)
	var hit *rule
	severe := false
	for i := range s.rules {
		r := &s.rules[i]
		// Most messages are safe: a rule whose required words are absent
		// cannot match, and a substring search costs far less than the
		// regular expression.
		if r.words != nil && !containsAny(lower, r.words) {
			continue
		}
		if !r.re.MatchString(norm) {
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
		return agents.SafetyVerdict{Safe: true, Reasoning: "no safety pattern matched"}
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

// normalizeForSafety straightens apostrophes, drops invisible format
// characters and collapses space, so that patterns see one spelling.
func normalizeForSafety(s string) string {
	s = strings.Map(func(r rune) rune {
		switch r {
		case '’', '‘', 'ʼ', '`':
			return '\''
		case '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff':
			return -1
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// requiredWords returns lowercase strings one of which every match of the
// pattern contains, or nil when it cannot tell.
func requiredWords(pattern string) []string {
	re, err := syntax.Parse(pattern, syntax.Perl|syntax.FoldCase)
	if err != nil {
		return nil
	}
	return literals(re.Simplify())
}

func literals(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		return []string{strings.ToLower(string(re.Rune))}
	case syntax.OpCapture, syntax.OpPlus:
		return literals(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return literals(re.Sub[0])
		}
	case syntax.OpConcat:
		// Every part must match, so any part's words will do: take the
		// most selective, the one whose shortest word is longest.
		var best []string
		for _, sub := range re.Sub {
			if w := literals(sub); w != nil && (best == nil || shortest(w) > shortest(best)) {
				best = w
			}
		}
		return best
	case syntax.OpAlternate:
		var out []string
		for _, sub := range re.Sub {
			w := literals(sub)
			if w == nil {
				return nil
			}
			out = append(out, w...)
		}
		return out
	}
	return nil
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
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
