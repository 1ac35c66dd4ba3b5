package rules

import (
	"slices"
	"strings"

	"github.com/tutord/tutord/internal/tutor"
)

// restated returns the guideline's common misconception that a learner's
// question puts forward as true ("so plants eat soil for food?" of
// "Believing that plants get their food from the soil."), without its
// final stop. The question must say what the misconception says, not a
// neighbour of it ("is oxygen a product of photosynthesis?" is no "oxygen
// is a raw material"): at least two shared terms, at most one term of the
// question that the misconception lacks and the lesson never uses ("eat"
// for "get"; none in a question of two terms), three quarters of the misconception's terms, every qualifier it
// hangs on ("only", "always", "instead", "without", "night"), and "not"
// on both sides or neither ("so plants don't get food from the soil?" has
// it right). Questions that ask what or how something is are no claims.
func restated(t *tutor.Topic, msg string) (string, bool) {
	if !isQuestion(msg) {
		return "", false
	}
	if w := words(msg); len(w) > 0 && (w[0] == "what" || w[0] == "whats" || w[0] == "how" || w[0] == "which") {
		return "", false
	}
	asked := claimTerms(msg)
	if len(asked) < 2 {
		return "", false
	}
	own := readingOf(t, lessonOnly).own
	best, bestShared := "", 0
	for _, c := range t.Guideline.CommonMisconceptions {
		ct := claimTerms(c)
		shared, extra := 0, 0
		for _, w := range asked {
			switch {
			case slices.Contains(ct, w):
				shared++
			case own[w]:
				extra = 2 // a term of the lesson in place of the misconception's: another claim
			default:
				extra++
			}
		}
		qualified := !slices.ContainsFunc(ct, func(w string) bool { return qualifiers[w] && !slices.Contains(asked, w) })
		if shared >= 2 && (extra == 0 || extra == 1 && len(asked) >= 3) && 4*shared >= 3*len(ct) && qualified &&
			denies(c) == denies(msg) && shared > bestShared {
			best, bestShared = strings.TrimRight(strings.TrimSpace(c), "."), shared
		}
	}
	return best, best != ""
}

// qualifiers are the terms a misconception hangs on: a question without
// them says something else ("does evaporation happen below the boiling
// point?" of "evaporation only happens at the boiling point").
var qualifiers = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`only always never every all instead without night well both either`) {
		m[stem(w)] = true
	}
	return m
}()

// claimTerms returns the distinct terms of a claim, without the words that
// frame a belief ("believing that", "thinking") or a question ("so",
// "right").
func claimTerms(s string) []string {
	var out []string
	for _, w := range terms(s) {
		if !beliefTerms[w] {
			out = append(out, w)
		}
	}
	return out
}

var beliefTerms = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`believe believing belief think thinking thought that so right true correct`) {
		m[stem(w)] = true
	}
	return m
}()

// denies reports whether a sentence says "not": "gases have no mass",
// "plants don't get food from the soil".
func denies(s string) bool {
	for _, w := range words(s) {
		switch w {
		case "not", "no", "dont", "doesnt", "didnt", "isnt", "arent", "cannot", "cant", "never", "nahi":
			return true
		}
	}
	return false
}

// isMistakeSentence reports whether a sentence of an answer is one of the
// guideline's common misconceptions, as explain quotes them.
func isMistakeSentence(s string) bool { return strings.HasPrefix(s, "A common mistake: ") }
