package rules

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tutord/tutord/internal/tutor"
)

// mistake is a misconception a session recorded, in words for the learner.
type mistake struct {
	what string // what to watch out for: "adding the denominators too"
	fix  string // a sentence of the lesson that sets it right; "" when none
}

// maxMistakes is how many misconceptions a wrap-up names, each with the
// sentence that sets it right: one, so that the feedback stays short and
// two mistakes' words never run together.
const maxMistakes = 1

// mistakes returns the misconceptions a session recorded that its feedback
// names: of those in the state and the one this turn's answer shows (""
// when none), which the domain records after the reply, the one seen most
// often (then the first seen) that the engine can put in the learner's
// words (see phrase); one it cannot is left out rather than quoted.
func mistakes(s tutor.State, t *tutor.Topic, now string) []mistake {
	type seen struct {
		description string
		count       int
	}
	var all []seen
	for _, m := range s.Misconceptions {
		if !m.Resolved {
			all = append(all, seen{m.Description, m.Count})
		}
	}
	if now = oneSpaced(now); now != "" {
		if i := slices.IndexFunc(all, func(x seen) bool { return strings.EqualFold(oneSpaced(x.description), now) }); i >= 0 {
			all[i].count++
		} else {
			all = append(all, seen{now, 1})
		}
	}
	slices.SortStableFunc(all, func(a, b seen) int { return cmp.Compare(b.count, a.count) })
	var out []mistake
	for _, x := range all {
		if m, ok := phrase(t, x.description); ok && !slices.ContainsFunc(out, func(o mistake) bool { return o.what == m.what }) {
			out = append(out, m)
		}
		if len(out) == maxMistakes {
			break
		}
	}
	return out
}

// phrase puts a recorded misconception in words for the learner. A bank
// question's misconception ("Adds the denominators too and gets 7/18.")
// becomes what to watch out for ("adding the denominators too"), set right
// by the rule the question's solution or hints state (see fixFor); one that
// means little without its question ("Subtracts 5 from 65", "Calls it
// condensation") is not named at all: named by its concept instead ("the
// slip you made with what a ratio is") it tells the learner nothing they
// could watch out for. One of the guideline's common misconceptions is already
// written so ("Adding the denominators as well as the numerators"). A
// description the curriculum does not have is used only when it reads as
// a plain phrase: an id such as "add_denominators" is looked up among the
// curriculum's misconceptions by its words, and the learner is never
// called "the student".
func phrase(t *tutor.Topic, description string) (mistake, bool) {
	d := oneSpaced(description)
	if d == "" {
		return mistake{}, false
	}
	if t != nil {
		for _, q := range t.Questions {
			if sameMistake(q.Misconception, d) {
				return fromBank(q)
			}
		}
		for _, c := range t.Guideline.CommonMisconceptions {
			if sameMistake(c, d) {
				what, ok := watchFor(c)
				return mistake{what: what}, ok
			}
		}
		if !strings.Contains(d, " ") {
			return fromID(t, d)
		}
	}
	if d = withoutSubject(d); internal(d) {
		return mistake{}, false
	}
	what, ok := watchFor(d)
	return mistake{what: what}, ok
}

// fromBank puts a bank question's misconception in words (see phrase).
func fromBank(q tutor.BankQuestion) (mistake, bool) {
	// Written for one question, a bank misconception is named only with
	// the rule that sets it right: "watch out for writing the digits next
	// to each other" alone leaves the learner guessing. One bound to its
	// question is not named: its words need the question, and its concept
	// names no mistake.
	fix := fixFor(q)
	what, ok := watchFor(q.Misconception)
	if fix == "" || !ok || needsQuestion(what) {
		return mistake{}, false
	}
	return mistake{what: what, fix: fix}, true
}

// needsQuestion reports whether a mistake's words mean little without the
// question it was made on: they quote its numbers ("subtracting 5 from
// 65"), point at its answer ("calling it condensation") or give a wrong
// answer ("saying liquid, because ...").
func needsQuestion(what string) bool {
	if strings.ContainsAny(what, "0123456789") {
		return true
	}
	ws := words(what)
	if len(ws) > 0 {
		switch ws[0] {
		case "saying", "calling", "choosing", "picking", "answering", "naming", "guessing", "giving":
			return true
		}
	}
	return slices.ContainsFunc(ws, func(w string) bool { return w == "it" || w == "them" || w == "this" })
}

// fixFor returns the sentence of a bank question's worked solution, or
// else of its hints, that states the rule its misconception breaks ("The
// denominators are equal, so add the numerators and keep the
// denominator."): the first that says it in words, without the question's
// numbers (a worked step means nothing once the question is out of view)
// and without pointing at the question ("Think of the gas that animals
// breathe out."). "" when none does.
func fixFor(q tutor.BankQuestion) string {
	texts := sentences(oneLine(q.Solution))
	for _, h := range q.Hints {
		texts = append(texts, sentences(strings.TrimSpace(h))...)
	}
	for _, s := range texts {
		ws := words(s)
		if len(ws) == 0 || strings.ContainsAny(s, "0123456789") || leansBack(s) || utf8.RuneCountInString(s) > 160 {
			continue
		}
		switch ws[0] {
		case "think", "ask", "look", "try", "remember", "start", "use", "find", "write", "count", "check", "call", "let", "put", "draw", "mark", "name":
			continue
		}
		n := 0
		for _, w := range ws {
			if utf8.RuneCountInString(w) >= 3 {
				n++
			}
		}
		if n >= 4 {
			return s
		}
	}
	return ""
}

// sameMistake reports whether a curriculum misconception is the recorded
// description d: equal ignoring case and spacing, or its start when the
// domain cut a long description.
func sameMistake(curriculum, d string) bool {
	c := oneSpaced(curriculum)
	if c == "" {
		return false
	}
	return strings.EqualFold(c, d) || utf8.RuneCountInString(d) >= 100 && len(c) > len(d) && strings.EqualFold(c[:len(d)], d)
}

// fromID finds the curriculum misconception that an id such as
// "add_denominators" names: the first, bank questions' before the
// guideline's, that has every word of it. An id of one word ("fractions")
// says too little to pick one.
func fromID(t *tutor.Topic, id string) (mistake, bool) {
	want := terms(strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return ' '
	}, splitCamel(id)))
	if len(want) < 2 {
		return mistake{}, false
	}
	hasAll := func(text string) bool {
		have := terms(text)
		return !slices.ContainsFunc(want, func(w string) bool { return !slices.Contains(have, w) })
	}
	for _, q := range t.Questions {
		if q.Misconception != "" && hasAll(q.Misconception) {
			return fromBank(q)
		}
	}
	for _, c := range t.Guideline.CommonMisconceptions {
		if hasAll(c) {
			what, ok := watchFor(c)
			return mistake{what: what}, ok
		}
	}
	return mistake{}, false
}

// splitCamel puts a space before each inner capital: "addDenominators" →
// "add Denominators".
func splitCamel(s string) string {
	var b strings.Builder
	prev := rune(0)
	for _, r := range s {
		if unicode.IsUpper(r) && unicode.IsLower(prev) {
			b.WriteRune(' ')
		}
		b.WriteRune(r)
		prev = r
	}
	return b.String()
}

// internal reports whether a description reads as a note about the learner
// rather than words for them: it names the student or the learner, or
// looks like a field or an id.
func internal(d string) bool {
	if strings.ContainsAny(d, "_{}[]<>=") && !strings.ContainsAny(d, "0123456789") {
		return true
	}
	for _, w := range words(d) {
		switch w {
		case "student", "students", "learner", "learners", "misconception", "misconceptions", "user", "pupil":
			return true
		}
	}
	return false
}

// withoutSubject drops the subject a teacher's note opens with: "The
// student adds ..." → "adds ...", "They think ..." → "think ...".
func withoutSubject(d string) string {
	lower := strings.ToLower(d)
	for _, p := range []string{"the student ", "student ", "the learner ", "learner ", "the child ", "they ", "he ", "she "} {
		if strings.HasPrefix(lower, p) {
			return d[len(p):]
		}
	}
	return d
}

// watchFor turns a misconception into what to watch out for, a phrase that
// follows "watch out for": "Adds the denominators too and gets 7/18." →
// "adding the denominators too"; "Thinks that gases have no mass." →
// "thinking that gases have no mass". The wrong result it leads to ("and
// gets 7/18") goes: the question it answered is no longer in view. A
// description that does not open with a verb the engine knows, or that is
// too long to read out, is not put in words (ok is false).
func watchFor(d string) (string, bool) {
	d = strings.TrimRight(oneSpaced(d), ". ")
	for _, tail := range []string{", and gets ", " and gets ", " and so gets ", " and gives ", " and ends up with "} {
		if i := strings.Index(d, tail); i > 0 {
			d = d[:i]
		}
	}
	fields := strings.Fields(d)
	if len(fields) < 2 || utf8.RuneCountInString(d) > 140 {
		return "", false
	}
	first, ok := asGerund(fields[0], true)
	if !ok {
		return "", false
	}
	fields[0] = first
	// Verbs joined to the first keep its form: "... and divides it" →
	// "... and dividing it", "..., then adds" → "..., then adding".
	for i := 1; i < len(fields); i++ {
		prev := strings.ToLower(fields[i-1])
		if prev == "and" || prev == "then" || prev == "or" || strings.HasSuffix(prev, ",") {
			if g, ok := asGerund(fields[i], false); ok {
				fields[i] = g
			}
		}
	}
	return strings.Join(fields, " "), true
}

// asGerund returns the -ing form of a verb the engine knows, given in the
// third person ("adds", "multiplies", "cross-multiplies") or, when first
// is set, as a bare verb ("add") or already in the -ing form ("adding").
func asGerund(w string, first bool) (string, bool) {
	prefix := ""
	if i := strings.LastIndex(w, "-"); i > 0 {
		prefix, w = strings.ToLower(w[:i+1]), w[i+1:]
	}
	lw := strings.ToLower(w)
	if first && strings.HasSuffix(lw, "ing") && len(lw) > 4 && !strings.HasSuffix(lw, "thing") {
		return prefix + lw, true
	}
	base, ok := "", false
	switch n := len(lw); {
	case n > 3 && strings.HasSuffix(lw, "ies") && mistakeVerbs[lw[:n-3]+"y"]:
		base, ok = lw[:n-3]+"y", true
	case n > 2 && strings.HasSuffix(lw, "es") && mistakeVerbs[lw[:n-2]] && !mistakeVerbs[lw[:n-1]]:
		base, ok = lw[:n-2], true
	case n > 1 && strings.HasSuffix(lw, "s") && mistakeVerbs[lw[:n-1]]:
		base, ok = lw[:n-1], true
	case first && mistakeVerbs[lw]:
		base, ok = lw, true
	}
	if !ok {
		return "", false
	}
	return prefix + ingForm(base), true
}

// ingForm returns the -ing form of a bare verb: "divide" → "dividing",
// "forget" → "forgetting", "multiply" → "multiplying".
func ingForm(v string) string {
	switch {
	case doublesLast[v]:
		return v + v[len(v)-1:] + "ing"
	case strings.HasSuffix(v, "ie"):
		return v[:len(v)-2] + "ying"
	case strings.HasSuffix(v, "e") && !strings.HasSuffix(v, "ee") && len(v) > 2:
		return v[:len(v)-1] + "ing"
	}
	return v + "ing"
}

// mistakeVerbs are the verbs that misconceptions open with ("Adds",
// "Thinks", "Forgets"), bare.
var mistakeVerbs = wordSet(`add subtract multiply divide think believe call give take write treat say expand
	confuse use turn substitute reverse read mix look list keep get forget find expect compute compare cancel
	ignore swap count drop put flip miss leave assume misread place move change apply skip choose pick round
	convert mistake simplify rewrite guess copy start stop work answer carry borrow split share measure name
	mark square double halve invert remove leave lose omit confuse mix misplace reduce increase decrease
	raise lower add join separate cross`)

// doublesLast are the verbs of mistakeVerbs that double their last letter
// before -ing, in British spelling as the curriculum's ("cancelling").
var doublesLast = wordSet("get put forget swap drop flip skip stop cut set begin omit admit let cancel")

// oneSpaced returns s trimmed, with runs of spaces made one.
func oneSpaced(s string) string { return strings.Join(strings.Fields(s), " ") }

// watchList names mistakes for "watch out for ...": "X" or "X, and Y".
func watchList(ms []mistake) string {
	var whats []string
	for _, m := range ms {
		whats = append(whats, m.what)
	}
	return strings.Join(whats, ", and ")
}

// youDid puts a bank question's misconception, written of the learner
// ("Adds 9 to 23 instead of subtracting and gets 32."), as what the learner
// did ("added 9 to 23 instead of subtracting"), for the turn the wrong
// answer shows it. It reports false for a description that does not open
// with a verb of the learner's or speaks of "the student".
func youDid(misconception string) (string, bool) {
	d := strings.TrimRight(oneSpaced(misconception), ".")
	for _, cut := range []string{" and gets ", " and gives ", ", and gets ", " and so gets ", " and writes "} {
		if i := strings.Index(d, cut); i > 0 {
			d = d[:i]
		}
	}
	d = strings.TrimRight(d, ",;: ")
	verb, rest, _ := strings.Cut(d, " ")
	switch strings.ToLower(verb) {
	case "says", "answers", "calls", "chooses", "picks", "names", "guesses":
		// "Says liquid, because ...": only the learner's own answer again.
		return "", false
	}
	past, ok := pastTense(verb)
	if !ok || rest == "" || utf8.RuneCountInString(d) > 120 || strings.Contains(strings.ToLower(d), "student") {
		return "", false
	}
	// A second verb of the learner's: "compares the sizes only and picks
	// -7", "adds the whole parts, then adds the tops".
	ws := strings.Split(rest, " ")
	for i := 1; i < len(ws); i++ {
		if p := strings.TrimRight(ws[i-1], ","); (p == "and" || p == "then") && laterVerbs[ws[i]] {
			ws[i], _ = pastTense(ws[i])
		}
	}
	return past + " " + strings.Join(ws, " "), true
}

// laterVerbs are the verbs youDid puts in the past after "and" or "then".
var laterVerbs = map[string]bool{
	"picks": true, "adds": true, "subtracts": true, "multiplies": true, "divides": true, "writes": true,
	"gets": true, "gives": true, "takes": true, "keeps": true, "uses": true, "forgets": true, "treats": true,
	"ignores": true, "calls": true, "compares": true, "chooses": true, "expands": true, "computes": true,
}

// pastTense returns the past tense of a verb in the third person ("Adds" →
// "added", "Multiplies" → "multiplied", "Thinks" → "thought").
func pastTense(verb string) (string, bool) {
	v := strings.ToLower(verb)
	if irr, ok := irregularPast[v]; ok {
		return irr, true
	}
	if len(v) < 4 || !strings.HasSuffix(v, "s") || strings.HasSuffix(v, "ss") || strings.IndexFunc(v, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' }) >= 0 {
		return "", false
	}
	if base := strings.TrimSuffix(v, "s"); strings.HasSuffix(base, "e") {
		return base + "d", true // divide-s, multiplie-s, mixe-s
	} else {
		return base + "ed", true
	}
}

var irregularPast = map[string]string{
	"thinks": "thought", "takes": "took", "gives": "gave", "keeps": "kept", "forgets": "forgot", "writes": "wrote",
	"gets": "got", "makes": "made", "does": "did", "puts": "put", "reads": "read", "says": "said", "leaves": "left",
	"finds": "found", "sees": "saw", "chooses": "chose", "brings": "brought", "goes": "went", "has": "had",
	"mixes": "mixed", "confuses": "confused", "uses": "used", "reverses": "reversed", "sets": "set", "cuts": "cut",
	"stops": "stopped", "drops": "dropped", "misses": "missed", "counts": "counted",
}
