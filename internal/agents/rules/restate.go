package rules

import (
	"regexp"
	"slices"
	"strings"

	"github.com/tutord/tutord/internal/tutor"
)

// restated returns the guideline's common misconception that a learner's
// question, or objection ("… though"; see objects), puts forward as true
// ("so plants eat soil for food?" of "Believing that plants get their food
// from the soil."), without its final stop. The question must say what
// the misconception says, not a neighbour of it ("is oxygen a product of
// photosynthesis?" is no "oxygen is a raw material"): at least two shared
// terms, at most one term of the question that the misconception lacks
// and the lesson never uses ("eat" for "get"; none in a question of two
// terms), no number the misconception lacks and its numbers in its order,
// three quarters of the misconception's terms (without the reason it
// gives; see misconceptionCut), every qualifier it hangs on ("only",
// "always", "instead", "without", "night"), no word of how much it lacks
// ("much"), and "not" on both sides or neither ("so plants don't get food
// from the soil?" has it right). Questions that ask what or how something
// is are no claims.
func restated(t *tutor.Topic, msg string) (string, bool) {
	return claimOf(t, msg, t.Guideline.CommonMisconceptions, true)
}

// restatedAs reports whether msg puts forward the common misconception
// that the lesson's answer to it quotes ("A common mistake: …"): the
// same tests as restated but for how many of the misconception's terms
// the question names ("so the glass is leaking?"), since the answer
// already chose it.
func restatedAs(t *tutor.Topic, msg string, sents []string) (string, bool) {
	for _, s := range sents {
		if c, ok := quotedMistake(t, s); ok {
			return claimOf(t, msg, []string{c}, false)
		}
	}
	return "", false
}

// putForward returns the common mistake a doubt puts forward, by its own
// words (restated) or as the answer to it quotes it (restatedAs, with the
// answer's sentences); none when checked, the check of the doubt's sum,
// says Yes: "is -2 greater than -7?" is no "-7 is greater than -2".
func putForward(t *tutor.Topic, msg, checked string, sents []string) (string, bool) {
	if strings.HasPrefix(checked, "Yes") {
		return "", false
	}
	if m, ok := restated(t, msg); ok {
		return m, true
	}
	return restatedAs(t, msg, sents)
}

// setRight returns the sentences that answer a doubt. For a doubt that put
// a mistake forward: without the mistakes quoted and, when nothing is
// left, what sets it right (see rightIdea, which may quote the bank
// questions may allows). Else with the right idea before a mistake quoted
// alone (see withRightIdea).
func setRight(t *tutor.Topic, src source, msg, mistake string, wrong bool, sents []string, may func(tutor.BankQuestion) bool) []string {
	if !wrong {
		return withRightIdea(t, src, msg, sents, may)
	}
	sents = slices.DeleteFunc(sents, isMistakeSentence)
	if len(sents) == 0 {
		sents = rightIdea(t, src, mistake, may)
	}
	return sents
}

// quotedMistake returns the guideline's common misconception that a
// sentence of an answer quotes ("A common mistake: …"; see passages).
func quotedMistake(t *tutor.Topic, sentence string) (string, bool) {
	if !isMistakeSentence(sentence) {
		return "", false
	}
	m := strings.TrimSuffix(strings.TrimPrefix(sentence, "A common mistake: "), ".")
	for _, c := range t.Guideline.CommonMisconceptions {
		if strings.EqualFold(strings.TrimRight(strings.TrimSpace(c), "."), m) {
			return c, true
		}
	}
	return "", false
}

// withRightIdea puts what sets a common misconception right (see
// rightIdea; else the lesson's answer to msg, the doubt, without its
// mistakes) before an answer that is nothing but the misconception: a
// learner who asks "carbon dioxide and water are the raw materials, isn't
// it?" should not hear only "A common mistake: thinking that oxygen is a
// raw material of photosynthesis", as if that were what they said.
func withRightIdea(t *tutor.Topic, src source, msg string, sents []string, may func(tutor.BankQuestion) bool) []string {
	if len(sents) != 1 {
		return sents
	}
	c, ok := quotedMistake(t, sents[0])
	if !ok {
		return sents
	}
	right := slices.DeleteFunc(rightIdea(t, src, strings.TrimRight(strings.TrimSpace(c), "."), may), func(s string) bool { return s == sents[0] })
	if len(right) == 0 && msg != "" {
		// Else the lesson's answer to the doubt beside its mistakes: "how
		// can dividing make it bigger?" is answered by what makes it so.
		_, right, _ = explain(t, src, msg, 2, func(s string) bool { return !isMistakeSentence(s) })
	}
	return append(right, sents...)
}

// prepositions may open a question before its question word.
var prepositions = map[string]bool{"in": true, "at": true, "on": true, "for": true, "by": true, "from": true, "to": true, "with": true, "into": true}

// claimOf returns the misconception of cands that msg puts forward (see
// restated); coverage asks for three quarters of its terms.
func claimOf(t *tutor.Topic, msg string, cands []string, coverage bool) (string, bool) {
	// An objection ("… though") is checked only against every term of a
	// misconception (see restated).
	if !isQuestion(msg) && !(coverage && objects(msg)) {
		return "", false
	}
	w := words(msg)
	for len(w) > 1 && openers[w[0]] {
		w = w[1:]
	}
	if len(w) > 1 && prepositions[w[0]] {
		w = w[1:] // "in what order …", "at which temperature …"
	}
	if len(w) > 0 && (w[0] == "what" || w[0] == "whats" || w[0] == "how" || w[0] == "which") {
		return "", false
	}
	hedged := slices.ContainsFunc(w, func(x string) bool { return hedges[x] })
	compares := comparesTo.MatchString(msg)
	// The claim with the reason the learner gives for it, and without it:
	// "so gases have no mass because you can't see them?" puts forward
	// the misconception whatever the reason, and a reason may be the
	// misconception itself.
	claims := []string{msg}
	if c := misconceptionCut(msg); c != msg && denies(c) == denies(msg) {
		claims = append(claims, c)
	}
	// And the question a longer message opens with, when what follows
	// gives a reason for it ("plants get their food from the soil right?
	// thats why we put fertiliser"), not when it takes it back ("…? no
	// wait, they make it in their leaves").
	if m := sentenceEnd.FindStringIndex(msg); m != nil && isQuestion(msg[:m[0]+1]) && reasonFollows.MatchString(msg[m[1]-1:]) {
		claims = append(claims, msg[:m[0]+1])
	}
	own := readingOf(t, lessonOnly).own
	best, bestShared := "", 0
	for _, claim := range claims {
		asked := claimTerms(signsWritten(claim), t.Subject)
		if len(asked) < 2 {
			continue
		}
		for _, c := range cands {
			ct, alts := misconceptionTerms(c, t.Subject)
			if hedged && !slices.ContainsFunc(words(c), func(x string) bool { return hedges[x] }) {
				continue // "gases dont weigh much" is no "gases have no mass"
			}
			if compares && !comparesTo.MatchString(c) {
				continue // "multiplying by more than one always makes it bigger" has it right
			}
			if !inOrder(signedNumber.FindAllString(misconceptionCut(c), -1), signedNumber.FindAllString(signsWritten(claim), -1)) {
				continue // "is -2 greater than -7?" is no "-7 is greater than -2"
			}
			shared, extra, other := 0, 0, false
			for _, w := range asked {
				switch {
				case slices.Contains(ct, w):
					shared++
				case own[w], isDigits(w):
					// A term of the lesson, or a number, in place of the
					// misconception's: another claim.
					other = true
				default:
					extra++
				}
			}
			// Words the lesson never uses say where or when ("when iron
			// is heated"): one is allowed beside two other terms, two
			// beside every term of the misconception.
			full := 4*shared >= 3*(len(ct)-alts)
			fits := extra == 0 || extra == 1 && len(asked) >= 3 || extra == 2 && shared >= len(ct)-alts
			qualified := !slices.ContainsFunc(ct, func(w string) bool { return qualifiers[w] && !slices.Contains(asked, w) })
			if shared >= 2 && !other && fits && (!coverage || full) && qualified &&
				denies(misconceptionCut(c)) == denies(claim) && shared > bestShared {
				best, bestShared = strings.TrimRight(strings.TrimSpace(c), "."), shared
			}
		}
	}
	return best, best != ""
}

// rightIdea returns what sets a common misconception right, for after the
// "No": the sentence of a bank question's worked solution or hints whose
// own misconception says much the same (a quarter of the terms of the two
// in common, two at least; see fixFor), when may allows that
// question to be quoted, or else the lesson's sentences on the
// misconception's own terms, without the misconception itself.
func rightIdea(t *tutor.Topic, src source, mistake string, may func(tutor.BankQuestion) bool) []string {
	mt, _ := misconceptionTerms(mistake, t.Subject)
	best, bestScore := "", 0.25 // at least a quarter of the two misconceptions' terms in common
	for _, q := range t.Questions {
		if q.Misconception == "" || !may(q) {
			continue
		}
		qt := claimTerms(q.Misconception, t.Subject)
		shared := 0
		for _, w := range qt {
			if slices.Contains(mt, w) {
				shared++
			}
		}
		score := float64(shared) / float64(len(mt)+len(qt)-shared)
		if fix := fixFor(q); fix != "" && shared >= 2 && score >= bestScore {
			best, bestScore = fix, score
		}
	}
	if best != "" {
		return []string{best}
	}
	claim := mistake
	for _, frame := range []string{"Believing that ", "Thinking that ", "Believing ", "Thinking "} {
		if c, ok := strings.CutPrefix(claim, frame); ok {
			claim = c
			break
		}
	}
	_, sents, ok := explain(t, src, claim+"?", 2, nil)
	if !ok {
		return nil
	}
	return slices.DeleteFunc(sents, isMistakeSentence)
}

// qualifiers are the terms a misconception hangs on: a question without
// them says something else ("does evaporation happen below the boiling
// point?" of "evaporation only happens at the boiling point").
var qualifiers = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`only always never every all instead without night well both either while`) {
		m[stem(w)] = true
	}
	return m
}()

// claimTerms returns the distinct terms of a claim, without the words that
// frame a belief ("believing that", "thinking"), a question ("so",
// "right") or what someone said ("my didi said", "my book says"), and with
// a few ways of saying the same thing folded together ("also" for "as well
// as", "bigger" for "expand", "100 degrees" for the boiling point).
func claimTerms(s, subject string) []string {
	science := strings.EqualFold(subject, "science")
	maths := strings.EqualFold(subject, "mathematics")
	if maths {
		s = productOfNegatives(s)
	}
	s = namedPoint.ReplaceAllString(s, "${1}point") // "the boiling point" is "100 degrees", one term
	var out []string
	for _, w := range terms(s) {
		if same, ok := sameTerm[w]; ok {
			w = same
		} else if same, ok := sameInScience[w]; ok && science {
			w = same
		} else if same, ok := sameInMaths[w]; ok && maths {
			w = same
		}
		if !beliefTerms[w] && w != "" && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	// "also" and "too", stop words elsewhere, say "as well".
	if ws := words(s); (slices.Contains(ws, "also") || slices.Contains(ws, "too")) && !slices.Contains(out, "well") {
		out = append(out, "well")
	}
	return out
}

// misconceptionCut returns a misconception up to what sets it right
// ("…, rather than moving differently") or gives a reason for it
// ("because they cannot be seen": why someone believes it, not what they
// believe). "Instead of" stays: "dividing by the new amount instead of the
// original" hangs on "instead", a qualifier.
func misconceptionCut(c string) string {
	low := strings.ToLower(c)
	for _, cut := range []string{" rather than ", ", rather ", " because "} {
		if i := strings.Index(low, cut); i > 0 {
			return c[:i]
		}
	}
	return c
}

// misconceptionTerms returns the terms of a misconception (see
// misconceptionCut and claimTerms), and how many of them are alternatives
// to another ("expand or melt": one is enough).
func misconceptionTerms(c, subject string) (ts []string, alts int) {
	c = misconceptionCut(c)
	ts = claimTerms(c, subject)
	ws := words(c)
	for i := 1; i+1 < len(ws); i++ {
		if ws[i] == "or" {
			alts++
		}
	}
	return ts, alts
}

// productOfNegatives writes a product of two negatives said the way
// learners say it ("a negative times a negative", "minus into minus") as
// the lessons say it, unless a third factor follows ("a negative times a
// negative times a negative" is no product of two).
func productOfNegatives(s string) string {
	var b strings.Builder
	last := 0
	for _, m := range signProduct.FindAllStringIndex(s, -1) {
		if anotherFactor.MatchString(s[m[1]:]) {
			return s
		}
		b.WriteString(s[last:m[0]])
		b.WriteString("the product of two negative numbers")
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

var anotherFactor = regexp.MustCompile(`(?i)^\s*(?:times|into|multiplied|x|×|\*)\b`)

// signProduct is a product of two negatives said the way learners say it.
var signProduct = regexp.MustCompile(`(?i)\b(?:an?\s+)?(?:negative|minus)\s+(?:number\s+)?(?:times|into|multiplied\s+by|x|×)\s+(?:an?\s+)?(?:negative|minus)(?:\s+numbers?)?\b|\btwo\s+(?:negatives|minuses)\s+multiplied\b|\bmultiplying\s+two\s+(?:negatives|minuses)\b`)

// mistakeTerms returns the terms of a common mistake as explain quotes it
// ("A common mistake: thinking that gases have no mass because they cannot
// be seen."), in the lesson's words: what is believed ("gases", "mass"),
// without the words that frame it and the reason given for it.
func mistakeTerms(sentence string) []string {
	c := misconceptionCut(strings.TrimPrefix(sentence, "A common mistake: "))
	return slices.DeleteFunc(lessonTerms(c), func(w string) bool { return beliefTerms[w] })
}

// namedPoint is a temperature named by what happens at it: one term, apart
// from the verb ("boiling only happens at 100" is about boiling, not
// about the boiling point).
var namedPoint = regexp.MustCompile(`(?i)\b(boiling|melting|freezing)\s+point\b`)

// signsWritten writes "minus 7" and "negative 7" as -7.
func signsWritten(s string) string {
	return saidSign.ReplaceAllString(strings.ReplaceAll(s, "−", "-"), "-$1")
}

var saidSign = regexp.MustCompile(`(?i)\b(?:minus|negative)\s+(\d)`)

// inOrder reports whether the numbers of a misconception come in a claim in
// the same order, with the same signs (see signedNumber).
func inOrder(want, claim []string) bool {
	i := 0
	for _, n := range claim {
		if i < len(want) && n == want[i] {
			i++
		}
	}
	return i == len(want)
}

// sentenceEnd ends a sentence that more text follows.
var sentenceEnd = regexp.MustCompile(`[?!.]\s+\S`)

// reasonFollows opens a sentence that gives a reason for the one before.
var reasonFollows = regexp.MustCompile(`(?i)^(?:that'?s\s+why|thats\s+why|because|coz|cause|since|so\s+that'?s)\b`)

// comparesTo sets a condition on a claim: "by something more than one".
var comparesTo = regexp.MustCompile(`(?i)\b(?:more|less|greater|bigger|smaller|larger)\s+than\b`)

// hedges say how much: a claim with one says something else than a
// misconception without.
var hedges = wordSet(`much little`)

var beliefTerms = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`believe believing belief think thinking thought that so right true correct
		say said says told tell heard hear read book teacher didi bhaiya friend mom mother dad father sister brother
		someone somebody people everyone themselves itself`) {
		m[stem(w)] = true
	}
	return m
}()

// sameTerm folds ways of saying the same thing in a claim onto one term,
// and sameInScience those of a science lesson ("" drops a term: 100
// degrees is the boiling point of water there, not in a lesson on angles).
var sameTerm, sameInScience = stems([][2]string{
	{"bigger", "expand"}, {"larger", "expand"}, {"grow", "expand"}, {"swell", "expand"},
	{"division", stem("divide")}, {"multiplication", stem("multiply")}, {"subtraction", stem("subtract")}, {"addition", stem("add")},
	{"evaporation", stem("evaporate")}, {"condensation", stem("condense")}, {"diffusion", stem("diffuse")},
	{"respiration", stem("respire")}, {"absorption", stem("absorb")},
	{"temp", stem("temperature")}, {"up", stem("rise")}, {"increase", stem("rise")}, {"o2", stem("oxygen")},
	{"less", stem("smaller")}, {"lower", stem("smaller")},
}), stems([][2]string{
	{"100", stem("boilingpoint")}, {"hundred", stem("boilingpoint")}, {"degree", ""}, {"celsius", ""},
	{"weigh", "mass"}, {"weight", "mass"}, {"weighs", "mass"},
})

// sameInMaths folds the words of a maths claim: a product is what
// multiplying gives, and a sign said as "plus" or "minus" is positive or
// negative ("minus times minus is plus").
var sameInMaths = stems([][2]string{
	{"product", stem("multiply")}, {"plus", stem("positive")}, {"minus", stem("negative")},
})

func stems(pairs [][2]string) map[string]string {
	m := map[string]string{}
	for _, p := range pairs {
		m[stem(p[0])] = p[1]
	}
	return m
}

// denies reports whether a sentence says "not": "gases have no mass",
// "plants don't get food from the soil".
func denies(s string) bool {
	ws := words(s)
	// "…, isn't it?" asks whether the claim is so; it denies nothing.
	if n := len(ws); n >= 2 && tagQuestion[ws[n-2]+" "+ws[n-1]] {
		ws = ws[:n-2]
	} else if n >= 1 && tagQuestion[ws[n-1]] {
		ws = ws[:n-1]
	}
	for _, w := range ws {
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
