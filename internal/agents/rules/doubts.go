package rules

import (
	"cmp"
	"math"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode"
	"weak"

	"github.com/tutord/tutord/internal/tutor"
)

// passage is what the engine can say about one concept: the sentences of
// the explanations of its steps (and, from a wider source, of its
// questions' hints and solutions), with their terms, and the terms of its
// name and step titles.
type passage struct {
	concept string          // "" for the guideline's own text
	single  bool            // answers with one sentence at most: its sentences are separate points
	name    map[string]bool // the terms of the concept's name
	title   map[string]bool // and of its steps' titles
	body    map[string]bool
	sents   []string
	terms   [][]string // the terms of each sentence
}

func newPassage(concept string) passage {
	p := passage{concept: concept, name: map[string]bool{}, title: map[string]bool{}, body: map[string]bool{}}
	for _, w := range lessonTerms(concept) {
		p.name[w] = true
	}
	return p
}

// source is what a doubt may be answered from, beyond the lesson's
// explanations.
type source int

const (
	// lessonOnly is the explanations of the plan's steps and the
	// guideline's common misconceptions, each introduced as a mistake (a
	// learner's doubt is often the misconception itself: "do plants make
	// food at night?").
	lessonOnly source = iota
	// withHints adds the question bank's hints, filed under their
	// questions' concepts. Hints never give an answer away, so a lesson
	// with questions still to come may quote them.
	withHints
	// withSolutions adds the bank's worked solutions too: for a doubts
	// session, which asks no questions of its own.
	withSolutions
)

// passages returns one passage per plan concept that has something to say,
// in plan order. The guideline's teaching approach is written for
// teachers, not learners, so it is a passage only when no step has content
// of its own (a plan without the default plan's steps, which teach from
// it). The guideline's common misconceptions come last, in a passage of
// their own. Sources past lessonOnly add the texts src names.
func passages(t *tutor.Topic, src source) []passage {
	var out []passage
	taught := false
	for _, c := range t.Concepts() {
		p := newPassage(c)
		for _, st := range t.Steps {
			if st.Concept != c {
				continue
			}
			for _, w := range lessonTerms(st.Concept + " " + st.Title) {
				p.title[w] = true
			}
			for _, para := range paragraphs(st.Content) {
				for _, s := range sentences(para) {
					p.addNew(s)
				}
			}
		}
		taught = taught || len(p.sents) > 0
		if src >= withHints {
			for _, q := range t.Questions {
				if !sameConcept(q, c) {
					continue
				}
				for _, h := range q.Hints {
					for _, s := range sentences(strings.TrimSpace(h)) {
						p.addNew(s)
					}
				}
				if src >= withSolutions {
					for _, s := range sentences(oneLine(q.Solution)) {
						p.addNew(s)
					}
				}
			}
		}
		if len(p.sents) > 0 {
			out = append(out, p)
		}
	}
	if !taught {
		g := newPassage("")
		for _, para := range paragraphs(t.Guideline.TeachingApproach) {
			for _, s := range sentences(para) {
				g.add(s)
			}
		}
		if len(g.sents) > 0 {
			out = append(out, g)
		}
	}
	m := newPassage("")
	m.single = true
	for _, c := range t.Guideline.CommonMisconceptions {
		if c = strings.TrimSpace(c); c != "" {
			// "Adding the denominators as well as the numerators." is a
			// mistake to avoid, not a rule to follow: say so.
			m.addNew("A common mistake: " + lowerFirst(strings.TrimRight(c, ".")) + ".")
		}
	}
	if len(m.sents) > 0 {
		out = append(out, m)
	}
	return out
}

func (p *passage) add(s string) {
	ts := append(lessonTerms(s), forms(s)...)
	ts = append(ts, namedStopWords(s)...)
	if slices.ContainsFunc(words(s), func(w string) bool { return colours[w] }) && !slices.Contains(ts, "colour") {
		// "Iodine solution is brown" says what colour iodine is.
		ts = append(ts, "colour")
	}
	p.sents = append(p.sents, s)
	p.terms = append(p.terms, ts)
	for _, w := range ts {
		p.body[w] = true
	}
}

// colours are the names of colours: a sentence that names one answers
// "what colour is …?".
var colours = wordSet("red orange yellow green blue purple violet pink brown black white grey gray")

// addNew adds s unless the passage has it already.
func (p *passage) addNew(s string) {
	if !slices.Contains(p.sents, s) {
		p.add(s)
	}
}

// operations maps the nouns of the four operations to their verbs' terms,
// so that a doubt about dividing finds "Division undoes multiplication"
// and one about multiplying the lesson's "Sign rules for multiplication".
var operations = map[string]string{
	"addition": "add", "subtraction": "subtract", "multiplication": "multiply", "division": stem("divide"),
	// and the changes a science lesson names: "does water evaporate in
	// winter?" finds "Evaporation happens at any temperature".
	"evaporation": stem("evaporate"), "condensation": stem("condense"), "diffusion": stem("diffuse"),
	"respiration": stem("respire"), "absorption": stem("absorb"), "sublimation": stem("sublime"),
	// and what particles do: "do gas particles attract each other?" finds
	// "very weak attraction between them".
	"attraction": stem("attract"),
}

// lessonTerms returns the terms of s (see terms), with the nouns of the
// operations as their verbs (see operations): what a doubt and a lesson's
// sentences are matched by.
func lessonTerms(s string) []string {
	ts := terms(strings.ReplaceAll(s, "%", " percentage ")) // as askedTerms reads "27%"
	for i, w := range ts {
		if v, ok := operations[w]; ok {
			ts[i] = v
		}
	}
	return slices.Compact(ts)
}

// weights gives each term the inverse of how often the topic's sentences
// use it, log(1 + sentences/uses): a word in every sentence of a lesson on
// fractions ("fraction") says little about which sentence answers a doubt;
// a rare one ("keep", "stomata") says much. A term the topic never uses
// weighs most of all (the second result).
func weights(ps []passage) (map[string]float64, float64) {
	uses, n := map[string]int{}, 0
	for _, p := range ps {
		for _, ts := range p.terms {
			n++
			for _, w := range ts {
				uses[w]++
			}
		}
		for w := range p.title {
			if !p.body[w] {
				uses[w]++
			}
		}
	}
	out := make(map[string]float64, len(uses))
	for w, u := range uses {
		out[w] = math.Log1p(float64(n) / float64(u))
	}
	return out, math.Log1p(float64(n))
}

// minCoverage is the share of a question's term weight that a passage must
// exceed for the engine to answer from it. At or below it the question is
// about something the lesson does not explain ("how do I add fractions" in
// a lesson on photosynthesis shares only "add", which the lesson uses once
// and so weighs as much as "fractions", which it never uses; "do plants
// breathe?" shares only "plant", which a lesson on photosynthesis uses so
// often that it weighs little beside "breathe", which it never uses), and
// the honest reply is to say so rather than quote an unrelated sentence.
// A word the lesson never uses weighs most of all (see weights), so one
// such word outweighs a common lesson word, while a question whose words a
// passage all uses is covered in full. Numbers weigh nothing in the share when
// the question has words: "how do I divide 60 in the ratio 2:3?" is about
// dividing in a ratio whatever the numbers.
const minCoverage = 0.5

// frameWords are the words that frame a question rather than say what it
// is about: "what does X mean", "how do I find X", "what happens to X",
// "what is the main idea of X in maths?", "how come?", "hmm, why?", and
// the words of conversation around them: "wait, what is a denominator
// again?", "sorry, what's a numerator?", "remind me what like fractions
// are", "my teacher told us ...", "does it become -5?". A lesson rarely
// uses them, so as terms they would weigh most and sink the share of the
// question a passage covers; and a question of nothing else asks about the
// answer just given (see followUp).
var frameWords = wordSet(`mean means meant meaning find finds finding found work works working worked happen
	happens happened happening use uses used using define defined definition call called calls say says said
	show shows showed give gives given talk learn learnt study help example examples exactly actually basically
	simple simply word words doubt doubts idea ideas main concept concepts topic topics chapter class subject
	maths math mathematics science come hmm hm umm um uh huh oh ah interesting
	wait sorry remind reminds remember recall forgot forget forgotten pardon excuse quick quickly hey erm er
	become becomes became teacher teachers told thats true`)

// happening are the forms of "happen": a frame word after a question
// word or a pronoun ("what happens to X", "why does this happen?"), but
// the verb of what the question names after a name ("does evaporation
// happen …", "where does photosynthesis happen?"), where it says what the
// question is about if the lesson uses it.
var happening = wordSet("happen happens happened happening")

// framesHappening reports whether the words before a "happen" make it
// frame the question: a question word or a pronoun, past the auxiliaries
// between them ("what will happen", "how does it happen").
func framesHappening(before []string) bool {
	for i := len(before) - 1; i >= 0; i-- {
		if !auxiliaries[before[i]] {
			return framingWords[before[i]]
		}
	}
	return true
}

var (
	auxiliaries  = wordSet("do does did will would can could should may might to not")
	framingWords = wordSet("what whats why how when where which who it this that these those they there")
)

// everydayVerbs are verbs of everyday talk that say what a question is
// about only in a lesson that uses them: "make" in "plants make food", not
// in "why does subtracting a negative make it bigger?".
var everydayVerbs = wordSet(`make makes made making get gets got getting put puts keep keeps kept go goes going went take takes took`)

// everydayTerms are the terms of everydayVerbs.
var everydayTerms = func() map[string]bool {
	m := map[string]bool{}
	for w := range everydayVerbs {
		for _, t := range lessonTerms(w) {
			m[t] = true
		}
	}
	return m
}()

// comparingWords frame a question that compares two things ("what's the
// difference between an expression and an equation?"), or a value with a
// bound ("does evaporation happen below 100 degrees?"), unless the lesson
// uses them itself: a lesson on integers finds "the difference between the
// sizes".
var comparingWords = wordSet("difference differences between differ compare comparing versus vs below above")

// differenceBetween finds a doubt that asks how two things differ: "what
// is the difference between a ratio and a proportion?".
var differenceBetween = regexp.MustCompile(`(?i)\bdifferences?\s+between\s+(.+?)\s+and\s+(.+?)\s*[?.!]*\s*$`)

// twoSides returns the two things a "difference between X and Y" doubt
// compares, each to be asked about on its own; ok is false for any other
// doubt, or when a side names no word ("between -3 and 5"). A side of one
// word shares the other's last word: "like and unlike fractions" compares
// like fractions with unlike fractions.
func twoSides(question string) (x, y string, ok bool) {
	m := differenceBetween.FindStringSubmatch(question)
	if m == nil {
		return "", "", false
	}
	x, y = m[1], m[2]
	if wx, wy := words(x), words(y); len(wx) == 1 && len(wy) > 1 {
		x += " " + wy[len(wy)-1]
	}
	named := func(s string) bool { return slices.ContainsFunc(terms(s), func(w string) bool { return !isDigits(w) }) }
	return x, y, named(x) && named(y)
}

// everyday maps a learner's everyday words to the words a lesson uses for
// them: "what is the bottom number called?" asks about the denominator.
// The first lesson word the lesson uses replaces the learner's; a single
// everyday word is replaced only when the lesson does not use it itself
// (a lesson that says "times" keeps it). The list is short on purpose: it
// holds the school words learners most often say differently.
var everyday = map[string][]string{
	"bottom number": {"denominator"}, "bottom numbers": {"denominator"},
	"top number": {"numerator"}, "top numbers": {"numerator"},
	"lowest common multiple": {"LCM"}, "least common multiple": {"LCM"},
	"take away": {"subtract"}, "minus": {"subtract"}, "takeaway": {"subtract"},
	"sum": {"add"}, "plus": {"add"}, "total": {"add"},
	"times": {"multiply"}, "multiplication": {"multiply"},
	"share": {"divide"}, "split": {"divide"}, "division": {"divide"},
	"percent": {"percentage"}, "per cent": {"percentage"},
	"squash": {"compress"}, "squeeze": {"compress"}, "press": {"compress"},
	"flip": {"upside down", "reciprocal"}, "upside down": {"reciprocal"},
	"vapour": {"gas"}, "vapor": {"gas"}, "steam": {"boil", "gas"},
	"old price": {"original"}, "old": {"original"}, "new price": {"new"},
	"feel cold": {"cools"}, "feel cool": {"cools"}, "get cold": {"cools"}, "cold after": {"cools"},
	"bigger": {"greater", "larger", "expand"}, "larger": {"greater", "expand"},
	"temp": {"temperature"}, "co2": {"carbon dioxide"},
	"colder": {"fall", "drop", "decrease"}, "warmer": {"rise", "increase"}, "owe": {"debt"}, "owes": {"debt"},
	"zero":     {"0"},
	"variable": {"unknown"}, "variables": {"unknown"},
	"other side": {"balance both sides", "both sides"}, "across": {"balance both sides", "both sides"},
	"different bottoms": {"different denominators"}, "different bottom": {"different denominators"},
	"same bottoms": {"same denominator"}, "same bottom": {"same denominator"},
	"ingredients": {"takes in"}, "ingredient": {"takes in"},
	// Signs said as operations: "why is minus times minus a plus?"
	"minus times minus": {"same sign"}, "minus into minus": {"same sign"}, "minus times a minus": {"same sign"},
	"negative times negative": {"same sign"}, "negative times a negative": {"same sign"}, "minus multiplied by minus": {"same sign"},
	"minus times plus": {"signs are different"}, "minus into plus": {"signs are different"}, "plus times minus": {"signs are different"},
	"a plus": {"positive"}, "a minus": {"negative"},
	"need to make": {"takes in"}, "needs to make": {"takes in"}, "needed to make": {"takes in"},
	// A comparison the lesson makes the other way round: "why is -2 not
	// smaller than -7?" asks about "-2 is greater than -7".
	"smaller than": {"greater"}, "less than": {"greater"}, "lower than": {"greater"},
}

// questionTag is a tag after a claim, with what ends it.
// A tag ends the message or its sentence; "left or right?" and "move
// right" keep their "right".
var questionTag = regexp.MustCompile(`(?i)(\b(?:or|the|to|move|moves|moving|turn|go|goes)\b)?[,\s]+(?:right|correct|na|naa|isn'?t\s+(?:it|that)|aren'?t\s+they|don'?t\s+they|doesn'?t\s+it|hai\s+na|right\s+na)\s*(\?|[!.]*\s*$)`)

// evenFiller are the words after an "even" that is no even number: "even
// though", "dry even in winter".
var evenFiller = wordSet(`though tho if when in on at after so then with without`)

// perCent is "per cent" or "percent": the word itself when a question asks
// what it means (the lessons write "Per cent means ..."; see terms), else a
// percentage ("how do I change 0.5 into a percent?").
var perCent = regexp.MustCompile(`(?i)\bper\s*cent\b`)

// temperatureUnit are the words a learner writes after a temperature.
var temperatureUnit = map[string]bool{"degree": true, "degrees": true, "celsius": true, "centigrade": true}

// askedTerms returns the terms of a learner's question that say what it is
// about (see contentTerms), with everyday words in the lesson's words (see
// everyday) and its notation read as words (see notation); uses reports
// whether the lesson uses a term, says whether its text has a phrase of
// words. "Like" before a number means "such as" ("fractions with different
// bottoms like 1/3 and 1/5"), and "same" in "is X the same as Y?" only
// frames the question: neither says what it is about.
func askedTerms(question string, uses func(string) bool, says func([]string) bool) []string {
	// "5%" is a percentage: the lessons write "per cent" only to say what
	// the word means.
	// "…, right?", "… isn't it": a tag asks whether a claim is so, and
	// says nothing of what it is about.
	q := questionTag.ReplaceAllStringFunc(question, func(m string) string {
		sub := questionTag.FindStringSubmatch(m)
		if sub[1] != "" {
			return m // "left or right?"
		}
		return sub[2]
	})
	q = strings.ReplaceAll(q, "%", " percentage ")
	if slices.ContainsFunc(words(q), func(w string) bool { return definingWords[w] }) {
		q = perCent.ReplaceAllString(q, "percent")
	} else {
		q = perCent.ReplaceAllString(q, "percentage")
	}
	ws := words(q)
	var out []string
	add := func(ts ...string) {
		for _, t := range ts {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	for i := 0; i < len(ws); i++ {
		if ts, k := inLessonWords(ws[i:], uses, says); k > 0 {
			add(ts...)
			i += k - 1
			continue
		}
		next := ""
		if i+1 < len(ws) {
			next = ws[i+1]
		}
		switch {
		case happening[ws[i]] && !framesHappening(ws[:i]) && slices.ContainsFunc(lessonTerms(ws[i]), uses):
			// "does evaporation happen all through the liquid?": what
			// evaporation does, which the lesson says ("It happens at
			// any temperature, but only at the surface").
			add(lessonTerms(ws[i])...)
		case frameWords[ws[i]] || continuationWords[ws[i]]:
		case (comparingWords[ws[i]] || everydayVerbs[ws[i]]) && !slices.ContainsFunc(lessonTerms(ws[i]), uses):
		case ws[i] == "like" && isDigits(next), ws[i] == "same" && next == "as":
		case ws[i] == "even" && evenFiller[next]:
			// "even though", "dry even in winter": no even number.
		case i > 0 && isDigits(ws[i-1]) && temperatureUnit[ws[i]]:
			// "100 degrees": the lessons write "100 °C", whose "C" is no
			// term.
		case algebraRe.MatchString(ws[i]):
			// "2x" is notation, read as a form (see forms).
		default:
			add(lessonTerms(ws[i])...)
		}
	}
	// An operation ("+") says what a question is about only beside
	// numbers the lesson is about ("1/2 + 1/4" in a lesson on fractions)
	// or words of its own: a lesson on photosynthesis "adds" iodine.
	// A fraction, a decimal or a ratio written out counts whether the
	// lesson uses the word or not, as any other word does: "add 2/5 and
	// 1/5" is about fractions, which a lesson on photosynthesis (which
	// "adds" iodine) does not answer. A minus sign is no such sure sign
	// of negative numbers ("+7 becomes -7" moves a term).
	add(namedStopWords(question)...)
	read, ops := notation(question)
	for _, w := range read {
		if uses(w) || w == "fraction" || w == "decimal" || w == "ratio" {
			add(w)
		}
	}
	for _, w := range forms(question) {
		if uses(w) {
			add(w)
		}
	}
	if slices.ContainsFunc(out, func(w string) bool { return !isDigits(w) }) {
		for _, w := range ops {
			if uses(w) {
				add(w)
			}
		}
	}
	return out
}

var (
	decimalRe = regexp.MustCompile(`\d\.\d`)
	fracRe    = regexp.MustCompile(`\d\s*/\s*(\d+)`)
	ratioRe   = regexp.MustCompile(`(\d+)\s*:\s*(\d+)`)
	opRe      = regexp.MustCompile(`[\d)]\s*([-+×÷*])\s*-?[\d(]`)
	negRe     = regexp.MustCompile(`-\s*\d`)
	timesRe   = regexp.MustCompile(`([\d)])\s*[xX]\s*([(\d])`)
	linearRe  = regexp.MustCompile(`\b(\d*)[a-z]\s*[-+]\s*\d+\s*=\s*-?\d`)
	algebraRe = regexp.MustCompile(`^\d+[a-z]$`)
	formRe    = regexp.MustCompile(`(\(?\s*-\s*)?\d+\s*\)?\s*([-+×÷*])\s*(\(?\s*-\s*)?\d+`)
)

// notation returns the terms that a question's mathematical notation
// stands for: "0.5" is a decimal, "1/4" a fraction, "1/2 + 1/4" fractions
// with different denominators, "1/4 + 2/4" with the same one, "2:3" a ratio, and a ratio beside its
// reverse ("is 2:3 the same as 3:2?") asks about the order of its terms,
// and "-3" is a negative number. ops are the operations it names, with
// the words for their results: "1/2 + 1/4" adds, "5 - (-3)" subtracts,
// "×" (or "x" or "*" between numbers: "(-7) x 6") multiplies to a product
// and "÷" divides to a quotient.
func notation(question string) (out, ops []string) {
	question = timesRe.ReplaceAllString(question, "$1 × $2")
	if decimalRe.MatchString(question) {
		out = append(out, "decimal")
	}
	denoms := map[string]bool{}
	for _, m := range fracRe.FindAllStringSubmatch(question, -1) {
		denoms[m[1]] = true
	}
	switch {
	case len(denoms) > 1:
		out = append(out, "fraction", "different", "denominator")
	case len(denoms) == 1 && len(fracRe.FindAllString(question, -1)) > 1:
		// "1/4 + 2/4": like fractions, which the lesson tells apart from
		// unlike ones by "the same denominator".
		out = append(out, "fraction", stem("same"), "denominator", stem("like"))
	case len(denoms) == 1:
		out = append(out, "fraction")
	}
	seen := map[string]bool{}
	for _, m := range ratioRe.FindAllStringSubmatch(question, -1) {
		if len(seen) == 0 {
			out = append(out, "ratio")
		}
		if seen[m[2]+":"+m[1]] && m[1] != m[2] {
			out = append(out, "order")
		}
		seen[m[1]+":"+m[2]] = true
	}
	for _, m := range negRe.FindAllStringIndex(question, -1) {
		if signs(question, m[0]) {
			out = append(out, stem("negative"))
			break
		}
	}
	for _, m := range opRe.FindAllStringSubmatch(question, -1) {
		switch m[1] {
		case "+":
			ops = append(ops, "add")
		case "-":
			ops = append(ops, "subtract")
		case "×", "*":
			ops = append(ops, "multiply", "product")
		case "÷":
			ops = append(ops, stem("divide"), "quotient")
		}
	}
	return out, ops
}

// forms returns the forms of the sums, differences, products and
// quotients of two numbers that s works, as terms: "-3 + -4" and
// "-5 + (-3)" both add two negative numbers ("form:n+n"), "5 - (-3)"
// subtracts a negative number from a positive one ("form:p-n"). A
// sentence that works a sum of the very form a doubt asks about answers it
// best. Sums and products are the same whichever number comes first.
func forms(s string) []string {
	s = timesRe.ReplaceAllString(s, "$1 × $2")
	var out []string
	for _, m := range formRe.FindAllStringSubmatchIndex(s, -1) {
		// Not the sum of two numbers but of parts of them: "3/4 - 1/4",
		// "2.5 + 1.5".
		if strings.ContainsAny(lastRune(s[:m[0]]), "/.") || m[1]+1 < len(s) && strings.ContainsRune("/.", rune(s[m[1]])) && isDigits(s[m[1]+1:m[1]+2]) {
			continue
		}
		a, b := "p", "p"
		// A minus after a number or a bracket subtracts: in "9 - 4 - 1"
		// the second difference is "4 - 1", not "-4 - 1".
		if m[2] >= 0 && signs(s, m[0]) {
			a = "n"
		}
		if m[6] >= 0 {
			b = "n"
		}
		op := s[m[4]:m[5]]
		if op == "*" {
			op = "×"
		}
		if (op == "+" || op == "×") && a > b {
			a, b = b, a
		}
		if f := "form:" + a + op + b; !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	// An equation that adds to or takes from the unknown, times a number
	// ("2x + 3 = 11", a two-step equation) or not ("x + 7 = 15").
	for _, m := range linearRe.FindAllStringSubmatch(strings.ToLower(s), -1) {
		f := "form:x±b=c"
		if m[1] != "" {
			f = "form:ax±b=c"
		}
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// signs reports whether the minus at s[i] (or the first after it) is the
// sign of a number, not a subtraction: it follows no number, closing
// bracket or unknown ("x - 3", "2x - 6"), but may follow a word ("is -3").
func signs(s string, i int) bool {
	i += strings.IndexByte(s[i:], '-')
	f := strings.Fields(s[:i])
	if len(f) == 0 {
		return true
	}
	prev := []rune(f[len(f)-1])
	last := prev[len(prev)-1]
	if unicode.IsLetter(last) {
		return len(prev) > 1 && !unicode.IsDigit(prev[len(prev)-2])
	}
	return !unicode.IsDigit(last) && last != ')'
}

// lastRune returns the last character of s, "" for an empty s.
func lastRune(s string) string {
	r := []rune(s)
	if len(r) == 0 {
		return ""
	}
	return string(r[len(r)-1])
}

// quotedWord finds a word in quotation marks: the word "of".
var quotedWord = regexp.MustCompile(`["“‘']([A-Za-z]+)["”’']`)

// namedStopWords returns the stop words that a text names as words, which
// terms leaves out: one in quotation marks (the lesson's 'The word "of"
// also means multiply.') or the one a question asks the meaning of ("what
// does of mean?"). Such a word is what the question is about.
func namedStopWords(s string) []string {
	var out []string
	for _, m := range quotedWord.FindAllStringSubmatch(s, -1) {
		if w := strings.ToLower(m[1]); stopWords[w] && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	if m := askedWord.FindStringSubmatch(strings.TrimSpace(s)); m != nil {
		// "what does X mean", "meaning of X"; not "what is it?" nor "what
		// does that mean?", which ask about the last answer.
		g := m[1] + m[2]
		if w := strings.ToLower(strings.Trim(g, `"'“”‘’`)); stopWords[w] && !pointers[w] && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// pointers are the words that point to what was said rather than name a
// word: "what does this mean?".
var pointers = wordSet("it this that these those they them he she you i we something anything everything all")

// inLessonWords returns the lesson's terms for the everyday phrase that
// ws opens with, longest first, and how many words of ws it takes; 0 when
// none applies. says reports whether the lesson's text has a phrase.
func inLessonWords(ws []string, uses func(string) bool, says func([]string) bool) ([]string, int) {
	for k := min(3, len(ws)); k >= 1; k-- {
		alts, ok := everyday[strings.Join(ws[:k], " ")]
		// A lesson that says "per cent" itself keeps it.
		if !ok || k == 1 && slices.ContainsFunc(lessonTerms(ws[0]), uses) || k > 1 && says(ws[:k]) {
			continue
		}
		for _, a := range alts {
			if ts := lessonTerms(a); len(ts) > 0 && !slices.ContainsFunc(ts, func(t string) bool { return !uses(t) }) {
				return ts, k
			}
		}
	}
	return nil, 0
}

// keyTerms returns the terms that name what a lesson teaches: those of its
// topic's name, its concepts and step titles, and its learning objectives
// (without their opening verb: "State", "Describe").
func keyTerms(t *tutor.Topic) map[string]bool {
	key := map[string]bool{}
	texts := []string{t.TopicName}
	for _, st := range t.Steps {
		texts = append(texts, st.Concept, st.Title)
	}
	for _, o := range t.Guideline.LearningObjectives {
		if _, rest, ok := strings.Cut(strings.TrimSpace(o), " "); ok {
			texts = append(texts, rest)
		}
	}
	for _, s := range texts {
		for _, w := range lessonTerms(s) {
			key[w] = true
		}
	}
	return key
}

// asked is a learner's question as weighed against one set of passages:
// its terms, each term's weight, the weight of a term the passages never
// use, and which terms name something the lesson itself is about (see
// explain).
type asked struct {
	terms   []string
	idf     map[string]float64
	unknown float64
	topical func(string) bool
	defines bool // the question asks what a word means or what a thing is called
}

func (a asked) weight(w string) float64 {
	if wt, ok := a.idf[w]; ok {
		return wt
	}
	return a.unknown
}

// share returns the share of the question's weight that a text covers,
// has reporting whether the text has a term: only topical terms count as
// covered, a term the topic never uses weighs as unknown, and numbers are
// left out when the question has words (see minCoverage).
func (a asked) share(has func(string) bool) float64 {
	words := slices.ContainsFunc(a.terms, func(w string) bool { return !isDigits(w) })
	var covered, total float64
	for _, w := range a.terms {
		if words && isDigits(w) {
			continue
		}
		total += a.weight(w)
		if has(w) && a.topical(w) {
			covered += a.weight(w)
		}
	}
	if total == 0 {
		return 0
	}
	return covered / total
}

// score returns the passage's relevance to a question, each shared term
// counting its weight, twice when it is in the concept's name or step
// titles; and the share of the question the passage covers. Weighted word
// overlap is crude, but it is deterministic, cheap and easy to reason
// about, and the passages are short and on one topic.
func (p *passage) score(a asked) (float64, float64) {
	var score float64
	for _, w := range a.terms {
		if p.title[w] {
			score += 2 * a.weight(w)
		}
		if p.body[w] {
			score += a.weight(w)
		}
	}
	return score, a.share(func(w string) bool { return p.title[w] || p.body[w] })
}

// unsaid returns the terms of the concept's name that the question does
// not say, and whether it says any: "how do I multiply a fraction by a
// fraction?" leaves "times whole number" of "Fraction times a whole
// number" unsaid, and only "times" of "Fraction times a fraction".
func (p *passage) unsaid(a asked) (rest map[string]bool, some bool) {
	rest = map[string]bool{}
	for w := range p.name {
		if slices.Contains(a.terms, w) {
			some = true
		} else {
			rest[w] = true
		}
	}
	return rest, some
}

// narrower reports whether every key of a is a key of b, and b has more.
func narrower(a, b map[string]bool) bool {
	if len(a) >= len(b) {
		return false
	}
	for w := range a {
		if !b[w] {
			return false
		}
	}
	return true
}

// vocabulary returns the terms that passages use, in their sentences or
// their concepts' names and titles.
func vocabulary(ps []passage) map[string]bool {
	v := map[string]bool{}
	for _, p := range ps {
		for w := range p.body {
			v[w] = true
		}
		for w := range p.title {
			v[w] = true
		}
	}
	return v
}

// explain answers a question from the topic: the (at most n) sentences of
// the most relevant passage that share the most weight of terms with the
// question (none that share nothing, unless no sentence shares anything),
// in their original order, keeping only sentences that keep accepts (nil
// keeps all). It answers from the lesson's explanations when they cover
// the question, else from the wider source src. It returns the passage's
// concept and false when no passage covers more of the question than
// minCoverage, or the sentences chosen, read with the concept's name, do
// not: a passage can cover a question with words spread over sentences
// that each say something else. Ties go to the earlier passage and
// sentence.
//
// A question must also name something the lesson itself is about: a key
// term (see keyTerms), or a word of its explanations, its common
// misconceptions or its questions. Words found only in the bank's hints
// and solutions are not: they are the everyday words of its word problems
// ("water", "made" in "what is water made of?" asked of a lesson on
// fractions) and of its nudges ("Think of the gas that animals breathe
// out."), which cover no question on their own ("do plants breathe?").
func explain(t *tutor.Topic, src source, question string, n int, keep func(string) bool) (string, []string, bool) {
	if x, y, ok := twoSides(question); ok {
		// "what is the difference between a ratio and a proportion?": what
		// the lesson says of each, the best sentence on each once, when it
		// says something of both.
		cx, sx, okx := explain(t, src, x, 1, keep)
		_, sy, oky := explain(t, src, y, 1, keep)
		if okx && oky {
			for _, s := range sy {
				if !slices.Contains(sx, s) {
					sx = append(sx, s)
				}
			}
			return cx, sx, true
		}
	}
	lt, ok := readLesson(t, src, question)
	if !ok {
		return "", nil, false
	}
	// The first tier's answer stands unless none of its sentences says the
	// whole question and one of a wider source's answer does: "does
	// photosynthesis happen in the dark?" is answered by a worked
	// solution's "Photosynthesis needs the energy of light, so it does not
	// take place in the dark.", not by the lesson's sentences on a plant
	// kept in the dark, which name photosynthesis only in their step's
	// title.
	var concept string
	var sents []string
	found := false
	for tier := range lt.tiers {
		c, ss, whole, ok := lt.answer(tier, n, keep)
		if !ok || found && !whole {
			continue
		}
		concept, sents, found = c, ss, true
		if whole {
			break
		}
	}
	return concept, sents, found
}

// answer is explain's answer from one tier of the lesson's text; whole
// reports whether one of its sentences says every word of the question
// itself (not through its concept's name), and ok is false when the tier
// does not answer.
func (lt lessonText) answer(tier, n int, keep func(string) bool) (string, []string, bool, bool) {
	p, a, ok := lt.best(tier, false)
	if !ok {
		return "", nil, false, false
	}
	idx := pick(p, a, n, keep)
	// The answer itself must cover the question, not just the passage
	// around it: its sentences, read with the concept's name.
	says := func(w string) bool {
		return p.title[w] || slices.ContainsFunc(idx, func(i int) bool { return slices.Contains(p.terms[i], w) })
	}
	if len(idx) == 0 || a.share(says) <= minCoverage {
		return "", nil, false, false
	}
	concept, sents := p.concept, p.sentences(idx)
	if p.single {
		// A common mistake is no explanation on its own: it goes
		// with the sentence of the lesson that says the right way.
		if c, right, ok := rightWay(lt.tiers[0], mistakeTerms(p.sents[idx[0]]), keep); ok {
			concept, sents = c, []string{right, p.sents[idx[0]]}
		}
	}
	whole := slices.ContainsFunc(sents, func(s string) bool {
		if _, ok := lt.nudges[s]; ok {
			return false // a hint nudges towards another question's answer
		}
		ts := append(lessonTerms(s), forms(s)...)
		if i := slices.Index(p.sents, s); i >= 0 {
			ts = p.terms[i]
		}
		return !slices.ContainsFunc(a.terms, func(w string) bool { return !isDigits(w) && !slices.Contains(ts, w) })
	})
	return concept, lt.withProblem(sents), whole, true
}

// problemOfKind introduces a bank question quoted with its hint.
const problemOfKind = "Here is a problem of this kind: "

// withProblem returns the sentences of an answer, in a doubts session
// (which asks no questions of its own), with the bank question that the
// first hint among them nudges towards, quoted before it: a hint ("Work
// out 15% of 800 first.") means nothing without its question, and a
// concept that only a practice step teaches ("Percentage problems") has
// nothing else to be answered from. The hints of other questions are left
// out, and the question's answer is not given. A lesson's answer is
// returned as it is: its questions to come are its own to ask.
func (lt lessonText) withProblem(sents []string) []string {
	if lt.src < withSolutions {
		return sents
	}
	q := ""
	var out []string
	for _, s := range sents {
		switch hinted, ok := lt.nudges[s]; {
		case !ok:
			out = append(out, s)
		case q == "":
			q = hinted
			out = append(out, problemOfKind+q, s)
		case hinted == q:
			out = append(out, s)
		}
	}
	return out
}

// explainMore answers a follow-up on a question explain answered ("why?",
// "what do you mean?"): from the passage that covers the question best,
// leaving aside the guideline's common misconceptions (each a point of its
// own, so that another of them is no more on the question), the (at most
// n) sentences that keep accepts, those that share the most with the
// question first, and the passage's first ones when none shares anything.
// It answers from the lesson's explanations when they have more to say,
// else from the wider source's passage on the same concept, with
// sentences that share something with the question. It returns the
// passage's concept, and no sentences when neither has more; ok is false
// when explain would not answer the question.
func explainMore(t *tutor.Topic, src source, question string, n int, keep func(string) bool) (concept string, sents []string, ok bool) {
	if _, _, ok := explain(t, src, question, n, nil); !ok {
		return "", nil, false
	}
	lt, _ := readLesson(t, src, question)
	found := false
	for k := range lt.tiers {
		p, a, ok := lt.best(k, true)
		if !ok || found && p.concept != concept {
			continue
		}
		if !found {
			concept, found = p.concept, true
		}
		// A sentence that shares nothing with the question is about
		// something else, not more on this one: of a hint, a nudge towards
		// another question's answer; of the lesson, what its passage says
		// before it comes to the question's words. After them, it goes
		// on with the thought ("Opposite poles attract and like poles
		// repel." "A magnet attracts iron.").
		shares := func(s string) bool {
			return slices.ContainsFunc(lessonTerms(s), func(w string) bool { return slices.Contains(a.terms, w) })
		}
		from := len(p.sents)
		if k == 0 {
			from = slices.IndexFunc(p.sents, shares) + 1
			if from == 0 {
				from = len(p.sents)
			}
		}
		more := func(s string) bool {
			return (keep == nil || keep(s)) && (shares(s) || slices.Index(p.sents[from:], s) >= 0)
		}
		if idx := pick(p, a, n, more); len(idx) > 0 {
			return p.concept, lt.withProblem(p.sentences(idx)), true
		}
	}
	return concept, nil, true
}

// lessonText is what a question about a topic is answered from: the passages
// of the lesson's explanations and of the wider source (see explain), the
// question's terms, and which terms name something the lesson itself is
// about.
type lessonText struct {
	*reading
	q       []string
	topical func(string) bool
	defines bool
}

// signsNamed writes "minus" and "plus" said of a sign, not between two
// numbers, as the lessons' words: "why is minus times minus a plus?" asks
// why a negative times a negative is a positive. "5 minus 3" is left.
func signsNamed(s string) string {
	var b strings.Builder
	last := 0
	for _, m := range signWord.FindAllStringIndex(s, -1) {
		before := strings.Fields(s[:m[0]])
		if n := len(before); n > 0 {
			prev := strings.TrimRight(before[n-1], ".,;:")
			next := strings.Fields(s[m[1]:])
			operand := func(w string) bool {
				w = strings.Trim(w, ".,;:?!")
				return w != "" && (strings.ContainsAny(w, "0123456789)²³") || numberWords[strings.ToLower(w)] ||
					len(w) == 1 && !strings.EqualFold(w, "a") && !strings.EqualFold(w, "i"))
			}
			// "5 minus 3", "x minus y", "a minus b", "ten minus three":
			// a subtraction, whose "minus" stands between two operands.
			if operand(prev) || len(next) > 0 && operand(next[0]) && (len(prev) == 1 || numberWords[strings.ToLower(prev)]) {
				continue
			}
		}
		b.WriteString(s[last:m[0]])
		if strings.EqualFold(s[m[0]:m[1]], "minus") {
			b.WriteString("negative")
		} else {
			b.WriteString("positive")
		}
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// lostTail finds a complaint after a doubt: "it doesn't make sense", "I
// still don't get it". It follows the doubt's end or names what it is
// about ("it", "this"): "what doesn't make sense" is a doubt itself.
var lostTail = regexp.MustCompile(`(?i)(?:(?:[.?!,;]\s*(?:(?:it|this|that)\s+)?|\s(?:it|this|that)\s+)(?:(?:does\s*n[o']?t|doesnt|dont|don't)\s+make\s+(?:any\s+)?sense|makes\s+no\s+sense)|[.?!,;]\s*i\s+(?:still\s+)?(?:don'?t|dont|do\s+not)\s+(?:get|understand)(?:\s+(?:it|this|that))?|\s+i\s+(?:still\s+)?(?:don'?t|dont|do\s+not)\s+(?:get|understand)\s+(?:it|this|that))\W*$`)

// numberWords are the numbers a learner writes in words.
var numberWords = wordSet(`zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
	sixteen seventeen eighteen nineteen twenty thirty forty fifty hundred`)

// signWord finds "minus" or "plus".
var signWord = regexp.MustCompile(`(?i)\b(?:minus|plus)\b`)

// readLesson prepares the answer to a question from a topic; ok is false
// when the question names nothing the lesson is about (see explain).
func readLesson(t *tutor.Topic, src source, question string) (lessonText, bool) {
	if t == nil {
		return lessonText{}, false
	}
	r := readingOf(t, src)
	lt := lessonText{reading: r}
	if strings.EqualFold(t.Subject, "mathematics") {
		question = signsNamed(question) // "why is minus times minus a plus?"
	}
	if q := lostTail.ReplaceAllString(question, ""); strings.TrimSpace(q) != "" {
		question = q // "…? it doesnt make sense": how the learner feels, not what they ask
	}
	// A word of the lesson's title or objectives that its text never
	// uses ("variable") is still said in the words its text uses.
	lt.q = askedTerms(question, func(w string) bool { return r.all[w] }, r.says)
	lt.topical = func(w string) bool { return r.own[w] || r.key[w] || isDigits(w) || strings.HasPrefix(w, "form:") }
	// A word the lesson never uses whose opposite it does ("do gas
	// particles attract each other strongly?", "does evaporation warm
	// us?") asks about what the lesson says in the opposite word ("very
	// weak attraction", "evaporation cools"): that sentence answers it,
	// where the word itself would leave only the rest of the question to
	// match, or none of it.
	for i, w := range lt.q {
		if lt.topical(w) {
			continue
		}
		if o := slices.IndexFunc(opposites[w], func(o string) bool { return r.own[o] }); o >= 0 && !slices.Contains(lt.q, opposites[w][o]) {
			lt.q[i] = opposites[w][o]
		}
	}
	lt.defines = slices.ContainsFunc(words(question), func(w string) bool { return definingWords[w] })
	return lt, len(lt.q) > 0 && slices.ContainsFunc(lt.q, lt.topical)
}

// reading is the part of a lessonText that depends on the topic and the
// source alone: worked out once for each topic value and source (see
// readingOf), and only read after that. Its tiers are the passages of the lesson's explanations and,
// with a wider source, the passages of that source; idf and unknown are
// each tier's term weights (see weights).
type reading struct {
	tiers   [][]passage
	idf     []map[string]float64
	unknown []float64
	steps   map[string]questionSteps // by bank question id: see stepResults and stepClues
	own     map[string]bool          // the terms of the lesson's explanations and of its questions
	all     map[string]bool          // the terms of the widest tier
	key     map[string]bool          // see keyTerms
	nudges  map[string]string        // the sentences of the bank's hints, found nowhere else, and the question of each
	text    string                   // the widest tier's words, each between spaces
	src     source                   // the widest tier's source
}

func newReading(t *tutor.Topic, src source) *reading {
	lesson := passages(t, lessonOnly)
	r := &reading{tiers: [][]passage{lesson}, src: src}
	if src > lessonOnly {
		r.tiers = append(r.tiers, passages(t, src))
	}
	for _, ps := range r.tiers {
		idf, unknown := weights(ps)
		r.idf, r.unknown = append(r.idf, idf), append(r.unknown, unknown)
	}
	r.key = keyTerms(t)
	r.steps = make(map[string]questionSteps, len(t.Questions))
	for _, bq := range t.Questions {
		r.steps[bq.ID] = newQuestionSteps(bq)
	}
	r.own, r.all = vocabulary(lesson), vocabulary(r.tiers[len(r.tiers)-1])
	r.nudges = map[string]string{}
	for _, bq := range t.Questions {
		for _, h := range bq.Hints {
			for _, s := range sentences(strings.TrimSpace(h)) {
				if _, ok := r.nudges[s]; !ok {
					r.nudges[s] = strings.TrimSpace(bq.Text)
				}
			}
		}
	}
	for _, bq := range t.Questions {
		for _, s := range sentences(oneLine(bq.Solution)) {
			delete(r.nudges, s)
		}
	}
	for _, p := range lesson {
		for _, s := range p.sents {
			delete(r.nudges, s)
		}
	}
	for _, bq := range t.Questions {
		for _, w := range lessonTerms(bq.Text) {
			r.own[w] = true
		}
	}
	var b strings.Builder
	b.WriteString(" ")
	for _, p := range r.tiers[len(r.tiers)-1] {
		for _, sent := range p.sents {
			b.WriteString(strings.Join(words(sent), " ") + " ")
		}
	}
	r.text = b.String()
	return r
}

// says reports whether the widest tier has the words ws in a row.
func (r *reading) says(ws []string) bool {
	return strings.Contains(r.text, " "+strings.Join(ws, " ")+" ")
}

// readingKey identifies a reading. The topic is held weakly: a reading
// goes when its topic does (a lesson's new plan version is a new topic).
type readingKey struct {
	t   weak.Pointer[tutor.Topic]
	src source
}

// readings holds the reading of each topic and source in use.
var readings sync.Map // readingKey → *reading

// readingOf returns the reading of t from src, working it out on first
// use of this *Topic (the lesson source hands out one while it caches a
// plan version, and a new one when it reloads it). Topics are not changed
// once built, so a reading never goes stale.
func readingOf(t *tutor.Topic, src source) *reading {
	k := readingKey{weak.Make(t), src}
	if r, ok := readings.Load(k); ok {
		return r.(*reading)
	}
	r, loaded := readings.LoadOrStore(k, newReading(t, src))
	if !loaded {
		runtime.AddCleanup(t, func(k readingKey) { readings.Delete(k) }, k)
	}
	return r.(*reading)
}

// best returns the passage of ps most relevant to the question, among
// those that cover more of it than minCoverage, and the question as
// weighed against ps; ok is false when none does. A concept whose name of
// two terms or more the question says in full leaves aside those whose
// names add to it what the question does not say: "what is fraction
// times a fraction?" is about "Fraction times a fraction", whatever
// "Fraction times a whole number" shares with it. Of two passages that
// score the same, whose names the question both says in part, the one
// whose unsaid name terms are fewer, and all of the other's, wins ("how
// do I multiply a fraction by a fraction?" does not say "whole number");
// other ties go to the earlier passage. With points set, the passage of
// the guideline's common misconceptions is left aside.
func (lt lessonText) best(tier int, points bool) (passage, asked, bool) {
	ps := lt.tiers[tier]
	a := asked{terms: lt.q, idf: lt.idf[tier], unknown: lt.unknown[tier], topical: lt.topical, defines: lt.defines}
	type candidate struct {
		i      int
		score  float64
		unsaid map[string]bool
		some   bool
	}
	var cands []candidate
	for i := range ps {
		if points && ps[i].single {
			continue
		}
		if s, c := ps[i].score(a); s > 0 && c > minCoverage {
			rest, some := ps[i].unsaid(a)
			cands = append(cands, candidate{i, s, rest, some})
		}
	}
	// A name of two terms or more said in full ("fraction times a
	// fraction") leaves aside the names that add to it terms the question
	// does not say ("fraction times a whole number").
	refined := func(c candidate) bool {
		return len(c.unsaid) > 0 && slices.ContainsFunc(cands, func(o candidate) bool {
			return o.some && len(o.unsaid) == 0 && len(ps[o.i].name) > 1 && narrower(ps[o.i].name, ps[c.i].name)
		})
	}
	best := -1
	var top candidate
	for _, c := range cands {
		if refined(c) {
			continue
		}
		if best < 0 || c.score > top.score || c.score == top.score && c.some && top.some && narrower(c.unsaid, top.unsaid) {
			best, top = c.i, c
		}
	}
	if best < 0 {
		return passage{}, a, false
	}
	return ps[best], a, true
}

// pick returns the indexes of the (at most n) sentences of p that share
// the most weight of terms with the question, keeping only sentences that
// keep accepts (nil keeps all), in their original order. Ties go to the
// earlier sentence.
func pick(p passage, a asked, n int, keep func(string) bool) []int {
	type scored struct {
		i    int
		w, n float64 // the weight of the words and of the numbers shared
	}
	var ranked []scored
	numeric := slices.ContainsFunc(a.terms, isDigits)
	for i, ts := range p.terms {
		r := scored{i: i}
		for _, x := range ts {
			switch {
			case !slices.Contains(a.terms, x):
			case isDigits(x):
				r.n += a.weight(x)
			default:
				r.w += a.weight(x)
			}
		}
		// A sentence whose subject is "it" or "they" is about the subject
		// of the sentence before: "It happens at any temperature, but only
		// at the surface" after "Evaporation is different from boiling."
		if subj := heldOver(p, i); subj != "" && slices.Contains(a.terms, subj) && !slices.Contains(ts, subj) {
			r.w += a.weight(subj)
		}
		// A worked step ("Multiply the top and bottom of 1/4 by 3 to get
		// 3/12") answers a question about its own example, not one about
		// an idea; a sentence that says what a word means or what a thing
		// is called answers a question that asks just that.
		if workedStep(ts) && !numeric {
			r.w /= 2
		}
		// A step in the middle of a worked example ("Subtract 2x from
		// both sides: x - 6 = 2.") means nothing without the equation it
		// works on: a question about an idea hears the idea ("Expand the
		// brackets first, …"), not the middle of an example.
		if continuesExample(p.sents[i]) && !numeric {
			r.w = 0
		}
		if a.defines && defines(p.sents[i]) {
			r.w *= 1.5
		}
		ranked = append(ranked, r)
	}
	// Most weight of words first, then of numbers: the words say what the
	// question asks, the numbers only which example it has in mind. A
	// stable sort keeps ties in text order. Sentences sharing nothing with
	// the question are used only when none does (the question matched the
	// concept's name): then the first ones.
	slices.SortStableFunc(ranked, func(a, b scored) int { return cmp.Or(cmp.Compare(b.w, a.w), cmp.Compare(b.n, a.n)) })
	if keep != nil {
		// keep can be costly (a leak check): it is asked, in rank order,
		// only about the sentences that may be used, at most two more
		// than n. It must have no side effects.
		kept := ranked[:0]
		for _, r := range ranked {
			if len(kept) == max(n, 2) {
				break
			}
			if keep(p.sents[r.i]) {
				kept = append(kept, r)
			}
		}
		ranked = kept
	}
	if p.single {
		n = 1
	}
	// A sentence that leans back on the best one ("Undo them in reverse
	// order." after the example it undoes) finishes its thought: it comes
	// next, before a sentence that shares only numbers with the question.
	if len(ranked) > 1 && n > 1 && ranked[0].w > 0 && ranked[1].w == 0 {
		if next := ranked[0].i + 1; next < len(p.sents) && followsOn(p.sents[next]) && (keep == nil || keep(p.sents[next])) {
			ranked = slices.DeleteFunc(ranked, func(r scored) bool { return r.i == next })
			ranked = slices.Insert(ranked, 1, scored{i: next, w: ranked[0].w})
		}
	}
	ranked = ranked[:min(n, len(ranked))]
	if len(ranked) > 0 && ranked[0].w+ranked[0].n > 0 {
		ranked = slices.DeleteFunc(ranked, func(r scored) bool { return r.w+r.n == 0 })
	}
	// A sentence leaning on the one before it ("This is called
	// sublimation.", "It happens at any temperature, …") comes after that
	// one: the best-ranked such sentence, wherever it stands, so that an
	// answer grows by one sentence at most.
	withPrev := -1
	for _, r := range ranked {
		prev := r.i - 1
		if prev >= 0 && followsOn(p.sents[r.i]) && !slices.ContainsFunc(ranked, func(o scored) bool { return o.i == prev }) &&
			(keep == nil || keep(p.sents[prev])) {
			withPrev = r.i
			break
		}
	}
	// Another that leans back without its sentence before says too little
	// on its own ("Their cells contain …"): left out, when others remain,
	// and so is one whose sentence before was just left out.
	for {
		rest := slices.DeleteFunc(slices.Clone(ranked), func(r scored) bool {
			return r.i != withPrev && r.i > 0 && followsOn(p.sents[r.i]) &&
				!slices.ContainsFunc(ranked, func(o scored) bool { return o.i == r.i-1 })
		})
		if len(rest) == 0 || len(rest) == len(ranked) {
			break
		}
		ranked = rest
	}
	// The sentence before may lean back in turn ("Each answer is 2 more
	// than the one before, …" before "So when …"): it brings its own, and
	// the answer is that thought alone, if it is the best one; else the
	// sentence is left out, and the best one kept.
	from := withPrev - 1
	if from > 0 && followsOn(p.sents[from]) && (keep == nil || keep(p.sents[from-1])) {
		if len(ranked) > 0 && ranked[0].i == withPrev {
			from--
			ranked = slices.DeleteFunc(ranked, func(r scored) bool { return r.i != withPrev })
		} else {
			ranked = slices.DeleteFunc(ranked, func(r scored) bool { return r.i == withPrev })
			withPrev = -1
		}
	}
	slices.SortFunc(ranked, func(a, b scored) int { return a.i - b.i })
	var idx []int
	for _, r := range ranked {
		if r.i == withPrev {
			for i := from; i < r.i; i++ {
				idx = append(idx, i)
			}
		}
		idx = append(idx, r.i)
	}
	// A lead-in ("Evaporation is different from boiling.") says little
	// without the sentence that says what it leads to ("It happens at any
	// temperature, but only at the surface, ..."): that one follows it,
	// once.
	for k, i := range idx {
		next := i + 1
		if len(words(p.sents[i])) <= 5 && next < len(p.sents) && !slices.Contains(idx, next) &&
			followsOn(p.sents[next]) && (keep == nil || keep(p.sents[next])) {
			return slices.Insert(idx, k+1, next)
		}
	}
	// The step that goes on with an example the answer ends by stating
	// ("In 5x + 3 = 2x + 18 the unknown appears on both sides." "Subtract
	// 2x from both sides …") follows it, when there is room.
	if k := len(idx); !numeric && k > 0 && k < n {
		if next := idx[k-1] + 1; next < len(p.sents) && continuesExample(p.sents[next]) && (keep == nil || keep(p.sents[next])) {
			idx = append(idx, next)
		}
	}
	return idx
}

// heldOver returns the term a pronoun subject ("It …", "They …") of the
// passage's sentence i stands for, the first term of the sentence before;
// "" when the sentence opens otherwise.
func heldOver(p passage, i int) string {
	if w := words(p.sents[i]); i == 0 || len(w) == 0 || w[0] != "it" && w[0] != "they" || len(p.terms[i-1]) == 0 {
		return ""
	}
	return p.terms[i-1][0]
}

// rightWay returns the sentence of the lesson's explanations that says
// the right way against a common mistake, with mistake its terms, and its
// concept: the sentence (that keep accepts; nil keeps all) sharing the most
// weight of the mistake's terms, when that is at least half of it (a term
// the explanations never use weighs most, as in weights: "Green plants
// make their own food." says nothing right about "plants make food at
// night"). When none shares that much, a sentence with the opposite of a
// term shares it too (see turnsRound): it says the right way by turning
// that term round. Worked
// steps ("Multiply the top and bottom of 1/4 by 3") say how one example
// goes, not what the mistake gets wrong, and are left aside. ok is false
// when no sentence shares enough.
func rightWay(lesson []passage, mistake []string, keep func(string) bool) (string, string, bool) {
	explained := slices.DeleteFunc(slices.Clone(lesson), func(p passage) bool { return p.single })
	idf, unknown := weights(explained)
	weight := func(w string) float64 {
		if wt, ok := idf[w]; ok {
			return wt
		}
		return unknown
	}
	var total float64
	for _, w := range mistake {
		// An everyday verb the explanations never use ("makes" in
		// "division always makes a number smaller") says nothing the
		// right way must (see everydayVerbs).
		if _, used := idf[w]; !isDigits(w) && !slices.Contains(mistakeWords, w) && (used || !everydayTerms[w]) {
			total += weight(w)
		}
	}
	find := func(turned bool) (string, string, bool) {
		concept, sent, top := "", "", 0.0
		for _, p := range explained {
			for i, ts := range p.terms {
				if workedStep(ts) || leansBack(p.sents[i]) || keep != nil && !keep(p.sents[i]) {
					continue
				}
				var shared float64
				for _, w := range mistake {
					if !isDigits(w) && (slices.Contains(ts, w) || turned && turnsRound(mistake, ts, w)) {
						shared += weight(w)
					}
				}
				if shared > top {
					concept, sent, top = p.concept, p.sents[i], shared
				}
			}
		}
		return concept, sent, total > 0 && top >= total/2
	}
	if concept, sent, ok := find(false); ok {
		return concept, sent, true
	}
	return find(true)
}

// turnsRound reports whether a sentence, by its terms ts, says the
// opposite of the mistake's term w (see opposites) of what the mistake is
// about (its first word's term): "dividing by a fraction less than 1
// gives an answer bigger than the number divided" sets right "division
// always makes a number smaller" by the very word it turns round. Not
// when the mistake has the opposite itself ("at night as well as in the
// day"), nor in a sentence on something else ("subtract the smaller size
// from the larger size" against "-7 is bigger").
func turnsRound(mistake, ts []string, w string) bool {
	o := opposites[fold(w)]
	has := func(terms []string) bool {
		return slices.ContainsFunc(terms, func(x string) bool { return slices.Contains(o, fold(x)) })
	}
	about := slices.IndexFunc(mistake, func(x string) bool { return !isDigits(x) })
	return len(o) > 0 && has(ts) && !has(mistake) && about >= 0 && slices.Contains(ts, mistake[about])
}

// mistakeWords are the terms of the words that introduce a common mistake.
var mistakeWords = lessonTerms("A common mistake")

// workedStep reports whether a sentence, by its terms, is a step of a
// worked example: more numbers than words.
func workedStep(ts []string) bool {
	n := 0
	for _, w := range ts {
		if isDigits(w) {
			n++
		}
	}
	return 2*n > len(ts)
}

// stepOpeners open a sentence that goes on with a worked example: "Then
// 3/2 × 12/5 = 36/10", "Check: 5 × 5 + 3 = 28".
var stepOpeners = wordSet("then first next now finally check or here")

// stepVerbs open a step of a worked example: "Subtract 3: 3x = 15."
var stepVerbs = wordSet("subtract add divide multiply expand cancel simplify")

// continuesExample reports whether a sentence is a step in the middle of
// a worked example, which works on an equation or a sum an earlier
// sentence states: it has an equals sign and opens with a word that goes
// on ("Then …", "Check: …"), or with an operation done to the example
// before a colon and its result ("Subtract 2x from both sides: x - 6 =
// 2.", "Divide by 3: x = 5."). A rule with an example of its own ("Add the
// numerators and keep the denominator: 2/7 + 3/7 = 5/7.") does not.
func continuesExample(sent string) bool {
	eq := strings.Index(sent, "=")
	w := words(sent)
	if eq < 0 || len(w) == 0 {
		return false
	}
	if stepOpeners[w[0]] {
		return true
	}
	before, _, ok := strings.Cut(sent, ":")
	if !ok || len(before) > eq || !stepVerbs[w[0]] {
		return false
	}
	bw := words(before)
	return len(bw) <= 3 || strings.Contains(" "+strings.Join(bw, " ")+" ", " both sides ")
}

// sentences returns the passage's sentences at idx.
func (p *passage) sentences(idx []int) []string {
	out := make([]string, 0, len(idx))
	for _, i := range idx {
		out = append(out, p.sents[i])
	}
	return out
}

// leansBack reports whether a sentence opens with a word that points back
// to the sentence before it ("This", "It", "They"...), or names a reverse
// or an opposite without saying of what ("The reverse is...", "Freezing is
// the reverse: ...", but not "Condensation is the reverse of evaporation").
func leansBack(sent string) bool {
	w := words(sent)
	if len(w) == 0 {
		return false
	}
	switch w[0] {
	case "this", "these", "that", "those", "it", "its", "they", "them", "their", "such":
		return true
	}
	// "To find it, we...", "Undo them in reverse order.": a pronoun in
	// the opening words, before any comma, leans back too.
	opening := words(strings.SplitN(sent, ",", 2)[0])
	for _, x := range opening[:min(len(opening), 4)] {
		switch x {
		case "it", "them", "this", "these", "those", "they":
			return true
		}
	}
	for i := 0; i < min(len(w), 5); i++ {
		if (w[i] == "reverse" || w[i] == "opposite") && i > 0 && w[i-1] == "the" && (i+1 == len(w) || w[i+1] != "of") {
			return true
		}
	}
	// A short sentence that says "this" or "these" anywhere ("The signs
	// do not change this order.") speaks of what came before.
	if len(w) <= 8 && slices.ContainsFunc(w, func(x string) bool { return x == "this" || x == "these" }) {
		return true
	}
	// "… come from the air in this way.", "Each answer is 2 more than the
	// one before".
	all := " " + strings.Join(w, " ") + " "
	return strings.Contains(all, " in this way ") || strings.Contains(all, " the one before ")
}

// followsOn reports whether a sentence cannot open an answer: it leans on
// the one before (see leansBack), concludes from it ("So a solid has a
// fixed shape..."), or, after a leading participle phrase, has a pronoun
// for a subject ("Using the energy of sunlight, trapped by chlorophyll, it
// turns them into glucose"). A conclusion still says the right way
// against a mistake on its own (see rightWay).
func followsOn(sent string) bool {
	if leansBack(sent) {
		return true
	}
	w := words(sent)
	if len(w) == 0 {
		return false
	}
	switch w[0] {
	case "so", "therefore", "thus", "hence":
		return true
	}
	if strings.HasSuffix(w[0], "ing") || openingPhrase[w[0]] && !hasVerb(strings.SplitN(sent, ",", 2)[0]) {
		// "At a certain temperature, the melting point, they break free":
		// a pronoun for a subject after the opening phrase.
		clauses := strings.Split(sent, ",")
		for _, c := range clauses[1:min(len(clauses), 4)] {
			if cw := words(c); len(cw) > 0 && (cw[0] == "it" || cw[0] == "they") {
				return true
			}
		}
	}
	return false
}

// openingPhrase are the words that open a phrase before a sentence's
// subject: "At a certain temperature, …". An opening clause with a verb
// of its own ("When a solid is heated, it melts.") names what the pronoun
// stands for itself.
var openingPhrase = wordSet("at in on after before during with when as once")

// hasVerb reports whether a clause has a verb of being or having.
func hasVerb(clause string) bool {
	for _, w := range words(clause) {
		switch w {
		case "is", "are", "was", "were", "be", "been", "has", "have", "had", "gets", "get", "becomes", "become":
			return true
		}
	}
	return false
}

// definingWords are the words of a question that asks what a word means
// or what a thing is called.
var definingWords = wordSet("mean means meaning called call define definition")

// defines reports whether a sentence says what a word means or what a
// thing is called: "Per cent means ...", "... are called like fractions".
func defines(sent string) bool {
	w := " " + strings.Join(words(sent), " ") + " "
	return strings.Contains(w, " means ") || strings.Contains(w, " called ") || strings.Contains(w, " is known as ")
}
