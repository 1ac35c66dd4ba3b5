package rules

import (
	"regexp"
	"slices"
	"strings"

	"github.com/tutord/tutord/internal/tutor"
)

// A science doubt put as a claim ("condensation takes in heat right?")
// hears Yes or No when a sentence of the lesson says the same thing, or
// says it with one word turned to its opposite ("Freezing and
// condensation give out heat."). Every other term of the claim must be in
// that sentence, so a claim about something the sentence does not speak
// of gets no verdict.

// opposites pairs the terms of a claim (stemmed and folded as claimTerms
// folds them) with the terms that say the opposite.
var opposites = func() map[string][]string {
	m := map[string][]string{}
	pair := func(a, b string) {
		a, b = fold(stem(a)), fold(stem(b))
		m[a], m[b] = append(m[a], b), append(m[b], a)
	}
	for _, p := range [][2]string{
		{"absorb", "release"}, {"gain", "lose"},
		{"rise", "fall"}, {"rise", "drop"}, {"rise", "decrease"}, {"expand", "contract"}, {"expand", "shrink"},
		{"expand", "smaller"}, {"more", "smaller"}, {"fast", "slow"}, {"faster", "slower"}, {"hot", "cold"},
		{"hotter", "colder"}, {"warm", "cool"}, {"warmer", "cooler"}, {"heat", "cool"}, {"strong", "weak"},
		{"stronger", "weaker"}, {"close", "far"}, {"closer", "farther"}, {"day", "night"}, {"light", "dark"},
		{"high", "smaller"}, {"higher", "smaller"},
	} {
		pair(p[0], p[1])
	}
	return m
}()

// fold is a term as claimTerms folds it in a science lesson.
func fold(w string) string {
	if same, ok := sameTerm[w]; ok {
		return same
	}
	if same, ok := sameInScience[w]; ok {
		return same
	}
	return w
}

// checkFact returns the sentence of the lesson (from src) that confirms or
// contradicts a claim a science doubt puts forward, and whether it
// confirms it. The claim must be put as a question ("…, right?", "does
// melting take in heat?"), deny nothing and have three terms at least; a
// sentence confirms it with every one of its terms, and contradicts it
// with all but one, whose opposite it has; either in the claim's order.
// ok is false when no sentence does either, or sentences do both.
func checkFact(t *tutor.Topic, src source, msg string) (sentence string, right, ok bool) {
	if !strings.EqualFold(t.Subject, "science") || !isQuestion(msg) || denies(msg) {
		return "", false, false
	}
	w := words(msg)
	for len(w) > 1 && openers[w[0]] {
		w = w[1:]
	}
	if len(w) == 0 || slices.Contains([]string{"what", "whats", "why", "how", "which", "when", "where", "who"}, w[0]) {
		return "", false, false
	}
	if notSimply.MatchString(msg) {
		return "", false, false
	}
	claim := slices.DeleteFunc(claimTerms(phrasal(msg), t.Subject), func(w string) bool { return tagQuestion[w] || openers[w] })
	if len(claim) < 3 || repeatsTerm(phrasal(msg)) {
		// "carbon dioxide enters and carbon dioxide leaves": a term said
		// twice may stand where the sentence has two.
		return "", false, false
	}
	var confirms, contradicts []string
	for _, p := range passages(t, src) {
		for _, s := range p.sents {
			if isMistakeSentence(s) || slices.Contains(confirms, s) || slices.Contains(contradicts, s) {
				continue
			}
			for _, clause := range factClause.Split(s, -1) {
				if denies(clause) || notSimply.MatchString(clause) {
					continue
				}
				switch factIn(claim, claimTerms(phrasal(clause), t.Subject)) {
				case 1:
					if directionLost(msg, clause) {
						continue // "seeps in" is no "seeps out"
					}
					confirms = append(confirms, s)
				case -1:
					contradicts = append(contradicts, s)
				}
			}
		}
	}
	switch {
	case len(confirms) > 0 && len(contradicts) == 0:
		return shortestOf(confirms), true, true
	case len(contradicts) > 0 && len(confirms) == 0:
		return shortestOf(contradicts), false, true
	}
	return "", false, false
}

// factIn reports whether a clause's terms (have) say the claim's (1), say
// it the other way round (-1), or neither (0).
func factIn(claim, have []string) int {
	var missing []string
	for _, c := range claim {
		if !slices.Contains(have, c) {
			missing = append(missing, c)
		}
	}
	switch {
	case len(missing) == 0 && inOrderIn(claim, have, "", ""):
		return 1
	case len(missing) == 1:
		for _, o := range opposites[missing[0]] {
			if slices.Contains(have, o) && !slices.Contains(claim, o) && inOrderIn(claim, have, missing[0], o) {
				return -1
			}
		}
	}
	return 0
}

// repeatsTerm reports whether a claim names one of its terms twice.
func repeatsTerm(s string) bool {
	var seen []string
	for _, w := range words(s) {
		if stopWords[w] || len(w) < 3 {
			continue
		}
		if w = stem(w); slices.Contains(seen, w) {
			return true
		}
		seen = append(seen, w)
	}
	return false
}

// directionLost reports whether a clause has a word of direction the claim
// lacks: "water seeps out through the pores" against "water seeps in …".
func directionLost(claim, clause string) bool {
	have := words(claim)
	return slices.ContainsFunc(words(phrasal(clause)), func(w string) bool { return directions[w] && !slices.Contains(have, w) })
}

var directions = wordSet(`in out up down away off into onto inside outside`)

// factClause splits a sentence into the clauses a claim is checked
// against one by one, so that the words of a claim cannot come from two
// of them: "A liquid has a fixed volume but flows and takes the shape of
// its container" says nothing of a liquid's fixed shape, nor "Carbon
// dioxide enters and oxygen leaves" of carbon dioxide leaving. "And"
// splits "freezing and condensation" too, which costs a verdict on
// freezing: a missed Yes is better than a false one.
var factClause = regexp.MustCompile(`(?i)\s*(?:[;:]|,\s*(?:and|but|so|which|while|whereas|because|as|though)?|\s(?:and|but|because|while|whereas|without|rather\s+than|unlike|except|instead\s+of)\s)\s*`)

// notSimply finds the words that make a clause or a claim more than a plain
// statement: "without leaving any liquid behind", "only at the surface".
var notSimply = regexp.MustCompile(`(?i)\b(?:without|except|unless|only|never|neither|nor|not|no)\b`)

// phrasal writes the phrasal verbs of heat and gases as one verb each, so
// that "gives out heat" is "releases heat", "takes in heat" "absorbs heat"
// and "takes heat away" neither.
func phrasal(s string) string {
	s = takesIn.ReplaceAllString(s, "absorbs")
	s = givesOut.ReplaceAllString(s, "releases")
	return takesAway.ReplaceAllString(s, "removes")
}

var (
	takesIn   = regexp.MustCompile(`(?i)\b(?:take|takes|taking|took|taken)\s+(?:in|up)\b`)
	givesOut  = regexp.MustCompile(`(?i)\b(?:give|gives|giving|gave|given)\s+(?:out|off)\b`)
	takesAway = regexp.MustCompile(`(?i)\b(?:take|takes|taking|took|taken)\b(?:\s+\w+)?\s+(?:away|out)\b`)
)

// inOrderIn reports whether the claim's terms come in the sentence's
// terms in the claim's order, with the claim's term from read as the
// sentence's to: "liquid turns into gas" is not "a gas turning into a
// liquid", though every term is the same.
func inOrderIn(claim, have []string, from, to string) bool {
	last := -1
	for _, c := range claim {
		if c == from {
			c = to
		}
		i := slices.Index(have, c)
		if i < last {
			return false
		}
		last = i
	}
	return true
}

func shortestOf(ss []string) string {
	return slices.MinFunc(ss, func(a, b string) int { return len(a) - len(b) })
}

// factVerdict returns Yes or No on the claim a science doubt puts forward
// (see checkFact), with the sentence that settles it, and the answer's
// other sentences without it.
func factVerdict(v *voice, t *tutor.Topic, src source, msg string, sents []string) (string, []string, bool) {
	s, right, ok := checkFact(t, src, msg)
	if !ok {
		return "", sents, false
	}
	rest := slices.DeleteFunc(slices.Clone(sents), func(x string) bool { return x == s })
	if right {
		return v.say(mFactRight, "{fact}", s), rest, true
	}
	return v.say(mFactWrong, "{fact}", s), rest, true
}
