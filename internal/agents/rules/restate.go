package rules

import (
	"slices"
	"strings"

	"github.com/tutord/tutord/internal/tutor"
)

// restated returns the guideline's common misconception that a learner's
// question puts forward as true ("so plants eat soil for food?" of
// "Believing that plants get their food from the soil."), without its
// final stop: most of the question's terms, and at least two, are the
// misconception's, they make at least half of its terms, and neither says
// "not" where the other does not ("so plants don't get food from the
// soil?" has it right). Questions that ask what or how something is are
// no claims.
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
	best, bestShared := "", 0
	for _, c := range t.Guideline.CommonMisconceptions {
		ct := claimTerms(c)
		shared := 0
		for _, w := range asked {
			if slices.Contains(ct, w) {
				shared++
			}
		}
		if shared >= 2 && 3*shared >= 2*len(asked) && 2*shared >= len(ct) && denies(c) == denies(msg) && shared > bestShared {
			best, bestShared = strings.TrimRight(strings.TrimSpace(c), "."), shared
		}
	}
	return best, best != ""
}

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
