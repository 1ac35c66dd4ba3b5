package rules

import (
	_ "embed"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// glossaryText holds the school words the engine can define (see
// glossary.txt for the format).
//
//go:embed glossary.txt
var glossaryText string

// glossary maps a word, in lower case, to its definition, and
// glossarySubject maps it to the subject of its section, "mathematics" or
// "science", or "" for everyday words: the sense a lesson of that subject
// uses it in.
var glossary, glossarySubject = mustGlossary(glossaryText)

func mustGlossary(text string) (defs, subjects map[string]string) {
	defs, subjects, err := parseGlossary(text)
	if err != nil {
		panic(err) // the embedded file is tested
	}
	return defs, subjects
}

func parseGlossary(text string) (defs, subjects map[string]string, err error) {
	defs, subjects = map[string]string{}, map[string]string{}
	subject := "mathematics"
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if section, ok := strings.CutPrefix(line, "# ---"); ok {
			switch section = strings.TrimSpace(section); {
			case strings.HasPrefix(section, "science"):
				subject = "science"
			case strings.HasPrefix(section, "everyday"):
				subject = ""
			default:
				subject = "mathematics"
			}
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		names, def, ok := strings.Cut(line, ": ")
		def = strings.TrimSpace(def)
		if !ok || def == "" || strings.TrimSpace(names) == "" {
			return nil, nil, fmt.Errorf("glossary line %d: want <word>[, <word>...]: <definition>", i+1)
		}
		for _, n := range strings.Split(names, ",") {
			n = strings.ToLower(strings.TrimSpace(n))
			if _, dup := defs[n]; dup || n == "" {
				return nil, nil, fmt.Errorf("glossary line %d: %q defined twice or empty", i+1, n)
			}
			defs[n], subjects[n] = def, subject
		}
	}
	return defs, subjects, nil
}

// askedWord reads the word a question asks the meaning of: "what does
// product mean?", "what is a numerator?", "what are particles", "I still
// don't get what product is", "define quotient", "meaning of LCM".
var askedWord = regexp.MustCompile(`(?i)^(?:\W*(?:so|but|and|wait|ok|okay|sorry|um|hmm|sir|miss|i still|still)\W+)*` +
	`(?:what\s+(?:does|do)\s+(?:the\s+word\s+|the\s+term\s+)?(.+?)\s+mean|` +
	`(?:define|definition\s+of|meaning\s+of|what\s+is\s+meant\s+by)\s+(?:an?\s+|the\s+)?(.+?)|` +
	`what(?:'s|s|\s+is|\s+are)\s+(?:an?\s+|the\s+)?(.+?)|` +
	`(?:i\s+)?(?:don'?t|do\s+not)\s+(?:get|understand|know)\s+what\s+(?:an?\s+|the\s+)?(.+?)\s+(?:is|are|means?))` +
	`(?:\s+(?:here|again|exactly|actually|please|pls|in\s+maths|in\s+math|in\s+science|tho|though))*\W*$`)

// whichIs asks which of two things a word names: "which one is the
// denominator, the top or bottom?".
var whichIs = regexp.MustCompile(`(?i)\bwhich\s+(?:one|number|part)\s+is\s+(?:an?\s+|the\s+)?([a-z]+)\b`)

// glossed returns the word a question asks the meaning of and the
// glossary's definition of it. A question that puts forward what a word
// means ("condensation is when gas turns into solid right?") gets the
// definition too, opened with "Not quite" when it names another state of
// matter than the definition does.
func glossed(question string) (word, def string, ok bool) {
	if m := claimedWord.FindStringSubmatch(strings.TrimSpace(question)); m != nil {
		w := strings.ToLower(m[1])
		for _, try := range []string{w, strings.TrimSuffix(w, "s")} {
			if d, known := glossary[try]; known {
				if otherState(m[2], d) {
					d = "Not quite: " + lowerFirst(d)
				}
				return try, d, true
			}
		}
	}
	m := askedWord.FindStringSubmatch(strings.TrimSpace(question))
	if m == nil {
		// "which one is the denominator, the top or the bottom?"
		if m = whichIs.FindStringSubmatch(question); m == nil {
			return "", "", false
		}
	}
	for _, w := range m[1:] {
		if w != "" {
			word = strings.ToLower(strings.Trim(w, `"'“”‘’`))
			break
		}
	}
	low := strings.ToLower(question)
	if idioms[word] && strings.Contains(low, "the "+word) && !strings.Contains(low, "mean") {
		return "", "", false // "what's the matter?", "what's the difference?"; not "what is a sum?"
	}
	for _, try := range []string{word, strings.TrimSuffix(word, "s"), strings.TrimSuffix(word, "es")} {
		if d, ok := glossary[try]; ok {
			return try, d, true
		}
	}
	// "the LCM of 4 and 6", "the HCF of two numbers": the word before
	// "of", when numbers follow; "the mass of the box" asks for a value.
	if head, rest, cut := strings.Cut(word, " of "); cut && (strings.ContainsAny(rest, "0123456789") || ofNumbers.MatchString(rest)) && !idioms[head] {
		if d, ok := glossary[head]; ok {
			return head, d, true
		}
	}
	return "", "", false
}

// claimedWord reads a question that says what a word means: "condensation
// is when gas turns into solid right?", "so evaporation means …?".
var claimedWord = regexp.MustCompile(`(?i)^(?:(?:so|and|but|wait|ok)\s+)*(?:is\s+)?([a-z]+(?:\s+[a-z]+)?)\s+(?:is|means)\s+(?:when|where|if|that)\s+(.+?)[\s,]*(?:right|correct|na|isn'?t\s+it)?\s*\?+\s*$`)

// aboutWord returns the sentences that name word.
func aboutWord(sents []string, word string) []string {
	return slices.DeleteFunc(slices.Clone(sents), func(s string) bool {
		return !strings.Contains(strings.ToLower(s), word)
	})
}

// otherState reports whether a claim names a state of matter and the
// definition names states, none of them the claim's: "gas turns into
// solid" against "a gas … turning back into a liquid".
func otherState(claim, def string) bool {
	c, d := statesIn(claim), statesIn(def)
	if len(c) == 0 || len(d) == 0 {
		return false
	}
	for _, w := range c {
		if !slices.Contains(d, w) {
			return true
		}
	}
	// "liquid turns into gas" for condensation: the same states, the
	// other way round.
	return len(c) >= 2 && len(d) >= 2 && c[0] != d[0]
}

// statesIn returns the states of matter a text names, in order.
func statesIn(s string) []string {
	var out []string
	ws := words(s)
	for i, w := range ws {
		state := ""
		switch w {
		case "solid", "solids":
			state = "solid"
		case "water":
			if i+1 < len(ws) && (ws[i+1] == "vapour" || ws[i+1] == "vapor") {
				continue // "water vapour" is a gas
			}
			state = "liquid"
		case "liquid", "liquids":
			state = "liquid"
		case "gas", "gases", "gasses", "vapour", "vapor", "steam":
			state = "gas"
		}
		if state != "" && !slices.Contains(out, state) {
			out = append(out, state)
		}
	}
	return out
}

// ofNumbers is what "the HCF of …" is of, in general: "two numbers",
// "two fractions".
var ofNumbers = regexp.MustCompile(`^(?:two|three|some|any|the)?\s*(?:whole\s+)?(?:numbers|fractions|integers|terms)\b`)

// idioms are glossary words that a question names without asking what
// they mean: "what's the matter?", "what's the difference?", "what is the
// sum of 3 and 4?".
var idioms = map[string]bool{"matter": true, "difference": true, "total": true, "sum": true}

// asksMeaning reports whether a message asks what a word of the glossary
// means, with or without a question mark ("I don't get what product is").
func asksMeaning(msg string) bool {
	_, _, ok := glossed(msg)
	return ok
}

// definesWord reports whether one of sents says what word is: it opens on
// the word ("The HCF of two numbers is …", "Numerators are …") or names it
// ("… is called the numerator", "Per cent means …", "Two numbers are
// reciprocals of each other when …").
func definesWord(sents []string, word string) bool {
	low := lowered(sents)
	def, ok := glossary[word]
	if !ok {
		return definesSpelling(low, word)
	}
	return definesMeaning(low, def)
}

// definesMeaning is definesWord for the glossary definition def, on
// lower-case sentences: any spelling of it counts ("the HCF" defines
// "highest common factor").
func definesMeaning(low []string, def string) bool {
	return slices.ContainsFunc(spellings[def], func(w string) bool { return definesSpelling(low, w) })
}

// spellings maps each definition of the glossary to its words, in
// alphabetical order.
var spellings = func() map[string][]string {
	m := map[string][]string{}
	for w, def := range glossary {
		m[def] = append(m[def], w)
	}
	for _, ws := range m {
		slices.Sort(ws)
	}
	return m
}()

func lowered(sents []string) []string {
	low := make([]string, len(sents))
	for i, s := range sents {
		low[i] = strings.ToLower(s)
	}
	return low
}

// defining are the words after a word that open what it is.
var defining = []string{" is ", " are ", " means ", " mean ", " (", " of ", " such as ", " compares ", " tells ", " says ", " counts ", " refers ", ",", ":"}

// definesSpelling is definesWord for one spelling, on lower-case sentences.
func definesSpelling(low []string, word string) bool {
	for _, low := range low {
		for _, a := range []string{"", "the ", "a ", "an "} {
			// "Evaporation is …", "The LCM of two numbers is …", "A ratio
			// compares …"; not "Evaporation cools the liquid left behind".
			if rest, ok := strings.CutPrefix(low, a+word); ok && slices.ContainsFunc(defining, func(d string) bool { return strings.HasPrefix(rest, d) }) {
				return true
			}
		}
		if strings.Contains(low, "called "+word) || strings.Contains(low, "called the "+word) ||
			strings.Contains(low, word+" means") || strings.Contains(low, word+"s are ") ||
			strings.Contains(low, " are "+word+"s ") {
			return true
		}
	}
	return false
}

// asksWord reports whether a question asks what a word of the glossary
// means.
func asksWord(question string) bool {
	_, _, ok := glossed(question)
	return ok
}
