package answer

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxTextWords bounds a machine-checkable text answer (articles left out).
// Longer expected answers
// are explanations whose wording varies too much for a normalised comparison.
const maxTextWords = 4

// normWord is one word of a normalised text with the span it came from.
type normWord struct {
	w          string
	start, end int
	es         bool // a plural in "-es" made singular by dropping the "s": "gases" is "gase"
}

// sameWord reports whether two normalised words are the same word. A
// plural in "-es" matches its singular with or without the "e": "gases"
// matches "gas" as "houses" matches "house".
func sameWord(a, b normWord) bool {
	return a.w == b.w || a.es && a.w == b.w+"e" || b.es && b.w == a.w+"e"
}

// normalize reduces text to comparable words: lower case, no punctuation, no
// articles, singular forms, numbers in one canonical spelling (so "0.5" and
// "1/2" and "a half" agree), and subscript digits read as digits (so "CO₂"
// and "CO2" agree). Superscripts stay out: ² is a power, not a 2.
func normalize(toks []token) []normWord {
	out := make([]normWord, 0, len(toks))
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch t.kind {
		case tSym:
			if _, ok := subscriptDigit(t.text); !ok {
				continue
			}
			// A run of subscript digits is one number: "C₆H₁₂O₆".
			var v int64
			j := i
			for ; j < len(toks) && (j == i || toks[j].start == toks[j-1].end); j++ {
				d, ok := subscriptDigit(toks[j].text)
				if !ok {
					break
				}
				v = min(v*10+d, 1e15)
			}
			i = j - 1
			w := strconv.FormatFloat(float64(v), 'g', 12, 64)
			out = append(out, normWord{w: w, start: t.start, end: toks[i].end})
		case tWord:
			w := strings.Trim(t.text, "'")
			if w == "a" || w == "an" || w == "the" || w == "" {
				continue
			}
			es := false
			if len(w) > 3 {
				es = strings.HasSuffix(w, "es")
				w = singular(w)
				es = es && strings.HasSuffix(w, "e")
			}
			out = append(out, normWord{w: w, start: t.start, end: t.end, es: es})
		case tNum:
			w := strconv.FormatFloat(t.num.amount(), 'g', 12, 64)
			if t.num.cur != "" {
				out = append(out, normWord{w: t.num.cur, start: t.start, end: t.start + len(t.num.cur)})
			}
			out = append(out, normWord{w: w, start: t.start, end: t.end})
		}
	}
	return out
}

// subscriptDigit returns the value of a subscript digit, ₀ to ₉.
func subscriptDigit(s string) (int64, bool) {
	r, size := utf8.DecodeRuneInString(s)
	if size != len(s) || r < '₀' || r > '₉' {
		return 0, false
	}
	return int64(r - '₀'), true
}

// doubted reports whether the words at hay[i] are put forward only to be
// doubted: "I don't think it's carbon dioxide", "I do not believe it is
// oxygen".
func doubted(hay []normWord, i int) bool {
	for k := i - 1; k > 0 && k >= i-4; k-- {
		switch w := hay[k].w; {
		case w == "think" || w == "believe" || w == "suppose":
			neg := func(w string) bool { return isNegator(w) || w == "dont" || w == "doesnt" || w == "didnt" }
			return neg(hay[k-1].w) || k > 1 && hay[k-1].w == "really" && neg(hay[k-2].w)
		case !doubtLinks[w]:
			return false // "I don't think so, it's carbon dioxide"
		}
	}
	return false
}

// doubtLinks may stand between "I don't think" and what it doubts.
var doubtLinks = map[string]bool{"that": true, "it'": true, "it's": true, "its": true, "it": true, "is": true, "was": true,
	"the": true, "a": true, "an": true, "answer": true, "it'll": true, "be": true, "would": true}

// findWords returns the index in hay where the word sequence needle starts,
// skipping occurrences that are negated ("not photosynthesis") or that
// start before from; -1 if there is none.
func findWords(hay, needle []normWord, from int) int {
	if len(needle) == 0 {
		return -1
	}
outer:
	for i := from; i+len(needle) <= len(hay); i++ {
		for j := range needle {
			if !sameWord(hay[i+j], needle[j]) {
				continue outer
			}
		}
		if i > 0 && isNegator(hay[i-1].w) || i > 1 && isNegator(hay[i-2].w) && hay[i-1].w != "but" || doubted(hay, i) {
			continue
		}
		if k := i + len(needle); k < len(hay) && hindiNot[hay[k].w] {
			continue // "neela kala nahi": Hindi says "not" after
		}
		if k := i + len(needle); k < len(hay) && hay[k].start == hay[k-1].end && hay[k].w[0] >= '0' && hay[k].w[0] <= '9' {
			continue // a formula goes on: H2O is not in "H2O2"
		}
		return i
	}
	return -1
}

// hindiNot are the words of Hindi that deny what comes before them.
var hindiNot = map[string]bool{"nahi": true, "nahin": true, "nai": true}

// hindiTag is a Hindi question tag ending a reply: "liquid, nahi?" asks
// "liquid, isn't it?", and denies nothing.
var hindiTag = regexp.MustCompile(`(?i)[,\s]+(?:nahi|nahin|nhi|nai)\s*\?+\s*$`)

// idkPhrases mark a reply that declines to answer.
var idkPhrases = []string{
	"i don't know", "i dont know", "i do not know", "idk", "dunno", "no idea", "not sure",
	"no clue", "i'm stuck", "im stuck", "i give up", "nahi pata", "pata nahi", "can't solve",
	"cannot solve", "don't understand", "dont understand", "do not understand", "i forgot",
}

// fillerWords carry no answer on their own.
var fillerWords = map[string]bool{
	"hmm": true, "hm": true, "hmmm": true, "um": true, "umm": true, "uh": true, "uhh": true, "er": true,
	"erm": true, "ok": true, "okay": true, "well": true, "what": true, "why": true, "how": true,
	"huh": true, "so": true, "oh": true, "ah": true, "wait": true, "let": true, "me": true, "think": true,
	"i": true, "it": true, "is": true, "that": true, "this": true, "please": true, "help": true,
	"can": true, "you": true, "repeat": true, "again": true, "sorry": true, "mean": true, "do": true,
	"does": true, "explain": true, "hint": true, "give": true, "a": true, "the": true, "maybe": true,
	"hi": true, "hello": true, "thanks": true, "thank": true, "question": true,
}

// declines reports whether a reply holds no answer: "I don't know", "hmm",
// "why?".
func declines(reply string, toks []token) bool {
	return saysIDK(reply) || allFiller(toks)
}

// saysIDK reports whether a reply says the learner does not know.
func saysIDK(reply string) bool {
	low := strings.ReplaceAll(strings.ToLower(reply), "’", "'")
	for _, p := range idkPhrases {
		if strings.Contains(low, p) {
			return true
		}
	}
	return false
}

// textCandidates returns the normalised expected answer and its accepted
// alternatives. With glosses, an answer glossed in brackets ("Halving
// (dividing by 2)", "NaCl (sodium chloride)") is also accepted as the
// answer before the gloss and as the gloss itself; an example ("Mammals
// (e.g. dogs)") or a negated gloss ("Evaporation (not boiling)") only as
// the answer before it.
func textCandidates(exp Expected, glosses bool) [][]normWord {
	c := make([][]normWord, 0, 1+len(exp.Accept))
	for _, s := range append([]string{exp.Answer}, exp.Accept...) {
		if n := normalize(lex(s)); len(n) > 0 {
			c = append(c, n)
		}
		if head, gloss, ok := glossed(s); ok && glosses {
			for _, g := range []string{head, gloss} {
				if n := normalize(lex(g)); len(n) > 0 {
					c = append(c, n)
				}
			}
		}
	}
	return c
}

// glossed splits an answer that ends in a gloss in brackets into the answer
// and the gloss, which is "" when it gives an example or a negation.
func glossed(s string) (head, gloss string, ok bool) {
	s = strings.TrimSpace(s)
	open := strings.LastIndexByte(s, '(')
	if open <= 0 || !strings.HasSuffix(s, ")") || strings.Count(s, "(") != 1 || strings.Count(s, ")") != 1 {
		return "", "", false
	}
	head, gloss = strings.TrimSpace(s[:open]), strings.TrimSpace(s[open+1:len(s)-1])
	if head == "" {
		return "", "", false
	}
	low := strings.ToLower(gloss)
	for _, p := range glossLeads {
		if strings.HasPrefix(low, p) {
			gloss = strings.TrimSpace(gloss[len(p):])
			break
		}
	}
	low = strings.ToLower(gloss)
	if w, _, _ := strings.Cut(low, " "); isNegator(w) || slices.ContainsFunc(glossExamples, func(p string) bool { return strings.HasPrefix(low, p) }) {
		gloss = ""
	}
	return head, gloss, true
}

// glossLeads introduce a gloss that says the answer again ("Halving (or
// dividing by 2)"); glossExamples one that gives an example or a condition
// ("Boiling (at 100 °C)").
var (
	glossLeads    = []string{"i.e.", "i.e", "ie ", "or ", "aka ", "also called ", "also known as ", "that is ", "called "}
	glossExamples = []string{"e.g", "eg ", "eg.", "for example", "for instance", "such as", "like ", "in ", "at ", "when ", "if ", "with "}
)

func evalText(exp Expected, reply string, toks []token, res *Result) {
	cands := textCandidates(exp, true)
	got := normalize(toks)
	long := true
	for _, c := range cands {
		if equalWords(c, got) {
			res.Verdict, res.Extracted = Correct, strings.TrimSpace(reply)
			return
		}
		if len(c) <= maxTextWords {
			long = false
		}
	}
	if long {
		res.Verdict, res.Reason = CannotCheck, "the expected answer is an explanation"
		return
	}
	for _, c := range cands {
		if len(c) > maxTextWords {
			continue
		}
		if i := findWords(got, c, 0); i >= 0 {
			res.Verdict = Correct
			res.Extracted = reply[got[i].start:got[i+len(c)-1].end]
			return
		}
	}
	if declines(reply, toks) {
		res.Verdict, res.Reason = NotAttempt, "no answer in the reply"
		return
	}
	// Spelling slips: "chlorophyl", "deffusion", "carbon di oxide".
	for _, c := range cands {
		if len(c) > maxTextWords {
			continue
		}
		if i, n := findMisspelt(got, c); i >= 0 {
			res.Verdict = Correct
			res.Extracted = reply[got[i].start:got[i+n-1].end]
			return
		}
	}
	res.Verdict, res.Extracted = Incorrect, strings.TrimSpace(reply)
}

// findMisspelt finds in hay the words of needle written with a slip: the
// same letters with the spaces dropped or split differently ("di oxide"),
// two neighbours swapped in a word of four or five letters ("soild"), one
// letter wrong, missing, extra or swapped in a word of six to nine, and in
// a longer one that or two letters left out or doubled after the first
// ("clorophyl"). It returns the first word
// and how many words of hay matched, or -1. A negated match ("not
// chlorophyl") does not count.
func findMisspelt(hay, needle []normWord) (int, int) {
	want := ""
	for _, w := range needle {
		want += w.w
	}
	if len(want) < 4 {
		return -1, 0
	}
	slips := func(got string) bool {
		switch {
		case len(want) < 6:
			return len(got) == len(want) && oneSlip(got, want) && sameLetters(got, want)
		case len(want) < 10:
			return oneSlip(got, want) || soundsAlike(got, want)
		default:
			// Two letters left out or doubled, not changed: "clorophyl"
			// is chlorophyll, "refraction" is not reflection, and a
			// dropped prefix ("reversible") changes the first letter.
			return oneSlip(got, want) || got[0] == want[0] && indels(got, want) <= 2 || soundsAlike(got, want)
		}
	}
	for i := range hay {
		if i > 0 && isNegator(hay[i-1].w) || doubted(hay, i) {
			continue
		}
		got := ""
		for n := 1; i+n <= len(hay) && n <= len(needle)+1; n++ {
			got += hay[i+n-1].w
			if len(got) > len(want)+2 {
				break
			}
			if slips(got) && (i+n >= len(hay) || !hindiNot[hay[i+n].w]) {
				return i, n
			}
		}
	}
	return -1, 0
}

// soundsAlike reports whether two words of six letters or more are spelt
// the same way by ear: "chlorofil" is chlorophyll ("ph" written "f", "y"
// written "i", a double letter written once).
func soundsAlike(a, b string) bool {
	return len(a) >= 6 && len(b) >= 6 && byEar(a) == byEar(b)
}

// byEar folds the spellings of one sound together: "ph" and "f", "y" and
// "i", "ck" and "k", "tion", "sion" and "shun" ("evaporashun"), double
// letters and single ones.
func byEar(w string) string {
	w = earSpellings.Replace(w)
	var b strings.Builder
	for i := 0; i < len(w); i++ {
		if i == 0 || w[i] != w[i-1] {
			b.WriteByte(w[i])
		}
	}
	return b.String()
}

var earSpellings = strings.NewReplacer("ph", "f", "ck", "k", "y", "i", "tion", "shun", "sion", "shun", "shon", "shun", "shan", "shun")

// oneSlip reports whether a and b are equal or differ by one letter
// substituted, inserted, deleted, or two neighbours swapped.
func oneSlip(a, b string) bool {
	if a == b {
		return true
	}
	if d := len(a) - len(b); d > 1 || d < -1 {
		return false
	}
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	switch {
	case len(a) == len(b):
		if a[i+1:] == b[i+1:] {
			return true // substituted
		}
		return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:] // swapped
	case len(a) > len(b):
		return a[i+1:] == b[i:] // inserted in a
	default:
		return a[i:] == b[i+1:] // deleted from a
	}
}

// sameLetters reports whether a and b are made of the same letters: with
// oneSlip, a swap of neighbours rather than a letter changed.
func sameLetters(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	var n [256]int
	for i := 0; i < len(a); i++ {
		n[a[i]]++
		n[b[i]]--
	}
	return n == [256]int{}
}

// indels returns how many letters must be inserted or deleted, none
// changed, to turn a into b.
func indels(a, b string) int {
	// len(a) + len(b) - 2 × the longest common subsequence.
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			if a[i-1] == b[j-1] {
				cur[j] = prev[j-1] + 1
			} else {
				cur[j] = max(prev[j], cur[j-1])
			}
		}
		prev, cur = cur, prev
	}
	return len(a) + len(b) - 2*prev[len(b)]
}

func equalWords(a, b []normWord) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameWord(a[i], b[i]) {
			return false
		}
	}
	return true
}

// Boolean words. Strong words answer the question; weak ones ("right",
// "sure") are also used as discourse markers ("Right, it's false"), so they
// count only when no strong word is present. "OK" is no answer: a learner
// says it to go on, not to agree that two ratios are in proportion.
var (
	strongYes = map[string]bool{"yes": true, "yeah": true, "yep": true, "yup": true, "ya": true, "yea": true, "yess": true, "true": true, "haan": true, "han": true, "affirmative": true,
		"tru": true, "ture": true, "treu": true, "trve": true} // "tru": a slip for true
	strongNo = map[string]bool{"no": true, "nope": true, "nah": true, "false": true, "nahi": true, "nahin": true, "negative": true,
		"flase": true, "fasle": true, "fals": true, "flse": true, "falce": true, "faulse": true}
	weakYes = map[string]bool{"correct": true, "right": true, "sure": true, "definitely": true, "absolutely": true, "certainly": true, "agree": true}
	weakNo  = map[string]bool{"wrong": true, "incorrect": true, "never": true, "disagree": true, "untrue": true}
)

// textedBool are the texting spellings of the Hindi "yes" and "no" ("ha",
// "haa"; "nhi", "nai"), strong words in a learner's reply. They stay out of
// boolWord, which also reads expected answers and the tutor's words, where
// "ha" is a hectare or a laugh.
var textedBool = map[string]bool{"ha": true, "haa": true, "nhi": false, "nai": false}

// boolWord returns the truth value a single word stands for.
func boolWord(w string) (bool, bool) {
	switch {
	case strongYes[w] || weakYes[w]:
		return true, true
	case strongNo[w] || weakNo[w]:
		return false, true
	}
	return false, false
}

func evalBoolean(etoks []token, reply string, toks []token, res *Result) {
	want, _, ok := boolValue(etoks)
	if !ok {
		res.Verdict, res.Reason = CannotCheck, "the expected answer is not yes or no"
		return
	}
	if saysIDK(reply) { // before boolValue: "no idea" and "not sure" are not "no"
		res.Verdict, res.Reason = NotAttempt, "no answer in the reply"
		return
	}
	toks = afterPromptLabel(toks)
	got, at, ok := boolValue(toks)
	if !ok && at != [2]int{} {
		// "true/false", "yes or no": the learner has not chosen, and is
		// asked to, as after "5 or 6".
		res.Verdict, res.Reason, res.Extracted = NotAttempt, "hedged between both values", reply[at[0]:at[1]]
		return
	}
	if !ok {
		got, at, ok = boolLetter(etoks, toks)
	}
	if !ok {
		res.Verdict, res.Reason = NotAttempt, "no yes or no in the reply"
		return
	}
	res.Extracted = reply[at[0]:at[1]]
	if got == want {
		res.Verdict = Correct
	} else {
		res.Verdict = Incorrect
	}
}

// afterPromptLabel returns the tokens of a reply after the question's
// prompt copied back as a label, when the reply opens with one: "True/False:
// True", "True or false: F", "Yes or no: no". The label names both values,
// but the answer follows it; without a label "true/false" is a hedge (see
// boolValue).
func afterPromptLabel(toks []token) []token {
	if len(toks) < 4 || toks[1].text != "/" && toks[1].text != "or" || toks[3].kind != tSym || toks[3].text != ":" {
		return toks
	}
	a, aok := boolWord(toks[0].text)
	b, bok := boolWord(toks[2].text)
	if !aok || !bok || a == b {
		return toks
	}
	return toks[4:]
}

// trueFalseWords are the boolean words of a true-or-false question, whose
// answers are written "T" and "F"; the others ("yes", "nope") answer a
// yes-or-no one, written "Y" and "N".
var trueFalseWords = map[string]bool{"true": true, "false": true, "tru": true, "ture": true, "treu": true, "trve": true,
	"flase": true, "fasle": true, "fals": true, "flse": true, "falce": true, "faulse": true}

// boolLetter reads a reply that answers with a letter: "F" or "(t)" to a
// question whose expected answer is true or false, "Y" or "n." to one whose
// answer is yes or no. The letter must come first and stand alone ("F,
// they need light"); elsewhere a letter is an option's, a variable's or a
// word's ("f = ma"), so boolWord does not read it.
func boolLetter(etoks []token, toks []token) (bool, [2]int, bool) {
	yes, no := "", ""
	for _, t := range etoks {
		if trueFalseWords[t.text] {
			yes, no = "t", "f"
			break
		}
		if strongYes[t.text] || strongNo[t.text] {
			yes, no = "y", "n"
			break
		}
	}
	for i, t := range toks {
		if t.kind != tWord {
			continue
		}
		if yes != "" && (t.text == yes || t.text == no) && (i+1 == len(toks) || isSentenceEnd(toks[i+1]) || toks[i+1].text == "," || toks[i+1].text == ")" || toks[i+1].text == "]") {
			return t.text == yes, [2]int{t.start, t.end}, true
		}
		break
	}
	return false, [2]int{}, false
}

// boolValue reads the truth value a reply commits to and the span of the
// words that say it. Negation flips the word it precedes ("not true", "isn't
// right"); "I think so" is yes and "I don't think so" is no; "yes or no"
// commits to nothing, and nor do both values named side by side, "true
// and false" or "True/False" (the question's prompt copied back), in
// either order: for those, ok is false and span covers both values, where
// it is empty for a reply with no value at all.
func boolValue(toks []token) (v bool, span [2]int, ok bool) {
	type vote struct {
		v    bool
		span [2]int
	}
	var strong, weak []vote
	prevOr := false
	for i, t := range toks {
		if t.kind != tWord {
			continue
		}
		v, ok := boolWord(t.text)
		texted := false
		if !ok {
			v, texted = textedBool[t.text]
			// "ha ha": a laugh, not a yes.
			texted = texted && !(v && (i > 0 && laugh(toks[i-1].text) || i+1 < len(toks) && laugh(toks[i+1].text)))
			ok = texted
		}
		if !ok {
			if t.text == "so" && i > 0 && toks[i-1].text == "think" {
				neg := i > 2 && isNegator(toks[i-2].text)
				from := i - 1
				if neg {
					from = i - 2
				}
				strong = append(strong, vote{!neg, [2]int{toks[from].start, t.end}})
			}
			if isNegator(t.text) && t.text != "never" && (i+1 == len(toks) || isSentenceEnd(toks[i+1])) {
				strong = append(strong, vote{false, [2]int{t.start, t.end}}) // "it is not", "it isn't."
			}
			prevOr = t.text == "or" || prevOr && fillers[t.text]
			continue
		}
		span := [2]int{t.start, t.end}
		switch {
		case i > 0 && isNegator(toks[i-1].text):
			v, span[0] = !v, toks[i-1].start
		case i > 1 && toks[i-1].text == "quite" && isNegator(toks[i-2].text):
			v, span[0] = !v, toks[i-2].start
		}
		list := &weak
		if strongYes[t.text] || strongNo[t.text] || texted {
			list = &strong
		}
		// "true and false", "true/false": the word before this one joins
		// it to the last one read.
		joined := i >= 2 && (toks[i-1].kind == tWord && toks[i-1].text == "and" || toks[i-1].kind == tSym && toks[i-1].text == "/") &&
			len(*list) > 0 && (*list)[len(*list)-1].span[1] == toks[i-2].end
		if (prevOr || joined) && len(*list) > 0 && (*list)[len(*list)-1].v != v {
			return false, [2]int{(*list)[len(*list)-1].span[0], span[1]}, false // "yes or no"
		}
		prevOr = false
		*list = append(*list, vote{v, span})
	}
	switch {
	case len(strong) > 0:
		return strong[0].v, strong[0].span, true
	case len(weak) > 0:
		return weak[0].v, weak[0].span, true
	}
	return false, [2]int{}, false
}

// laugh reports whether w is a word of laughing: "ha ha", "haha".
func laugh(w string) bool { return w == "ha" || w == "haha" || w == "hahaha" || w == "lol" }

// choiceLetter reads an option letter written on its own: "B", "(b)", "b)", "b.".
func choiceLetter(s string) (int, bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(strings.TrimSuffix(s, "."), ")")
	s = strings.TrimPrefix(strings.TrimPrefix(s, "("), "[")
	s = strings.TrimSuffix(s, "]")
	if len(s) != 1 {
		return 0, false
	}
	c := s[0] | 0x20
	if c < 'a' || c > 'j' {
		return 0, false
	}
	return int(c - 'a'), true
}

// optionKeywords introduce an option by letter or number: "option b", "choice 2".
var optionKeywords = map[string]bool{"option": true, "choice": true, "letter": true, "answer": true, "alternative": true}

// choiceMention is one option the reply names.
type choiceMention struct {
	idx      int
	tok      int  // index of the first token
	excluded bool // negated or given as a reason
	span     [2]int
}

// choiceMentions lists the options a reply names by letter, number or text.
func choiceMentions(reply string, toks []token, options []string) []choiceMention {
	var out []choiceMention
	nopts := max(len(options), 4)
	for i, t := range toks {
		idx := -1
		switch {
		case t.kind == tWord && len(t.text) == 1 && t.text[0] >= 'a' && int(t.text[0]-'a') < nopts:
			if choiceLetterAt(reply, toks, i) || len(options) > 0 && letterBeforeWord(toks, i) {
				idx = int(t.text[0] - 'a')
			}
		case t.kind == tNum && t.num.form == fInt && i > 0 && optionKeywords[toks[i-1].text] &&
			t.num.val >= 1 && int(t.num.val) <= nopts:
			idx = int(t.num.val) - 1
		}
		if idx >= 0 {
			out = append(out, choiceMention{idx: idx, tok: i, excluded: choiceExcluded(toks, i), span: [2]int{t.start, t.end}})
		}
	}
	if len(options) > 0 {
		got := normalize(toks)
		for oi, o := range options {
			ow := normalize(lex(o))
			if len(ow) == 0 {
				continue
			}
			for from := 0; ; {
				k := findWordsAny(got, ow, from)
				if k < 0 {
					break
				}
				ti := tokenAt(toks, got[k].start)
				negated := k > 0 && isNegator(got[k-1].w) || k > 1 && isNegator(got[k-2].w)
				out = append(out, choiceMention{idx: oi, tok: ti, excluded: negated || choiceExcluded(toks, ti),
					span: [2]int{got[k].start, got[k+len(ow)-1].end}})
				from = k + 1
			}
		}
	}
	return out
}

// keywordMentions names the option a reply picks by a word that only that
// option has ("less" of "greater than 3/4 / less than 3/4 / equal to
// 3/4"), or one meaning the same ("smaller"), when the reply's words
// before any reason ("because …") name no other option's. It returns
// nothing when no one option is named so.
func keywordMentions(toks []token, options []string) []choiceMention {
	if len(options) < 2 {
		return nil
	}
	count := map[string]int{}
	keys := make([]map[string]bool, len(options))
	for i, o := range options {
		keys[i] = map[string]bool{}
		for _, w := range normalize(lex(o)) {
			if k := keyword(w.w); k != "" && !keys[i][k] {
				keys[i][k] = true
				count[k]++
			}
		}
	}
	var found []choiceMention
	for ti, t := range toks {
		if t.kind != tWord {
			continue
		}
		if reasonWords[t.text] {
			break
		}
		k := keyword(t.text)
		for oi := range options {
			if k != "" && keys[oi][k] && count[k] == 1 {
				negated := ti > 0 && isNegator(toks[ti-1].text) || ti > 1 && isNegator(toks[ti-2].text)
				if negated {
					return nil
				}
				if len(found) > 0 && found[0].idx != oi {
					return nil // two options named: no choice
				}
				found = append(found, choiceMention{idx: oi, tok: ti, span: [2]int{t.start, t.end}})
			}
		}
	}
	return found[:min(len(found), 1)]
}

// keyword returns a word of an option as keywordMentions compares it: a
// comparison word in one form ("smaller" is "less"), no numbers, no words
// of one or two letters.
func keyword(w string) string {
	if k, ok := comparisonWords[w]; ok {
		return k
	}
	if len(w) < 3 || w[0] >= '0' && w[0] <= '9' || w[0] == '-' {
		return ""
	}
	return w
}

var comparisonWords = map[string]string{
	"less": "less", "smaller": "less", "lower": "less", "fewer": "less", "lesser": "less",
	"greater": "greater", "bigger": "greater", "larger": "greater", "more": "greater", "higher": "greater",
	"equal": "equal", "same": "equal", "equals": "equal",
}

// findWordsAny is findWords without the negation filter.
func findWordsAny(hay, needle []normWord, from int) int {
outer:
	for i := from; i+len(needle) <= len(hay); i++ {
		for j := range needle {
			if !sameWord(hay[i+j], needle[j]) {
				continue outer
			}
		}
		return i
	}
	return -1
}

func tokenAt(toks []token, start int) int {
	for i, t := range toks {
		if t.start >= start {
			return i
		}
	}
	return len(toks) - 1
}

// choiceLetterAt reports whether the one-letter word at toks[i] names an
// option rather than being an article or a pronoun: it is bracketed,
// introduced by "option", followed by no word, or an upper-case letter other
// than "A" and "I" (which are words).
func choiceLetterAt(reply string, toks []token, i int) bool {
	if i > 0 && (toks[i-1].text == "(" || optionKeywords[toks[i-1].text]) {
		return true
	}
	if i+1 < len(toks) && toks[i+1].text == ")" {
		return true
	}
	if i+1 == len(toks) || toks[i+1].kind != tWord {
		return toks[i].text != "i" || reply[toks[i].start] == 'I' && len(toks) == 1
	}
	c := reply[toks[i].start]
	return 'B' <= c && c <= 'J' && c != 'I'
}

// letterBeforeWord reports whether the lowercase one-letter word at
// toks[i], followed by a word, names an option: "c is correct", "c sir",
// "c only", "c hai", "c because …", as learners type on phones. Only a
// letter that is no English word (not "a" nor "i") counts, and only
// before a word that a chosen letter takes after it; "a is correct" and
// "i think" keep their words.
func letterBeforeWord(toks []token, i int) bool {
	c := toks[i].text[0]
	return c != 'a' && c != 'i' && i+1 < len(toks) && letterFollowers[toks[i+1].text]
}

// letterFollowers are the words that follow an option's letter: a verb
// of stating it, a word of address, "only", a reason, "i think".
var letterFollowers = wordSet("is", "sir", "maam", "ma'am", "mam", "madam", "ji", "didi", "bhaiya", "only", "hai", "h",
	"hoga", "option", "because", "since", "coz", "cause", "i", "correct", "right")

// choiceExcluded reports whether the option at toks[i] is negated ("not B",
// "B is wrong") or given as a reason ("because C is too small").
func choiceExcluded(toks []token, i int) bool {
	for k := i - 1; k >= 0 && k >= i-3; k-- {
		if isClauseEnd(toks[k]) {
			break
		}
		if isNegator(toks[k].text) {
			return true
		}
	}
	for k := i - 1; k >= 0; k-- {
		if isSentenceEnd(toks[k]) {
			break
		}
		if reasonWords[toks[k].text] {
			return true
		}
	}
	j := i + 1
	if j < len(toks) && toks[j].text == ")" {
		j++
	}
	if j < len(toks) {
		switch toks[j].text {
		case "isn't", "isnt", "wrong", "incorrect":
			return true
		case "is", "was":
			if j+1 < len(toks) && (toks[j+1].text == "wrong" || toks[j+1].text == "not" || toks[j+1].text == "incorrect") {
				return true
			}
		}
	}
	return false
}

// OrdinalChoice reads a reply that picks one of n options by its place:
// "the last one", "the third option", "2nd one", "option 3". It returns
// the place, 0-based, in the order the learner saw the options, which
// only the caller knows.
func OrdinalChoice(reply string, n int) (int, bool) {
	m := ordinalPick.FindStringSubmatch(strings.TrimSpace(reply))
	if m == nil || n == 0 {
		return 0, false
	}
	k := -1
	switch w := strings.ToLower(m[1] + m[2]); w {
	case "first", "1st", "1":
		k = 0
	case "second", "2nd", "2":
		k = 1
	case "third", "3rd", "3":
		k = 2
	case "fourth", "4th", "4":
		k = 3
	case "last":
		k = n - 1
	}
	return k, k >= 0 && k < n
}

var ordinalPick = regexp.MustCompile(`(?i)^(?:i\s+think\s+|it'?s\s+|its\s+)?(?:the\s+)?(?:(first|second|third|fourth|last|1st|2nd|3rd|4th)(?:\s+(?:one|option|answer))?|option\s+(?:no\.?\s*)?([1-4]))\s*[.!]*$`)

func evalChoice(exp Expected, etoks []token, reply string, toks []token, res *Result) {
	want, ok := choiceLetter(exp.Answer)
	if !ok {
		want = -1
		ew := normalize(etoks)
		for i, o := range exp.Options {
			if equalWords(ew, normalize(lex(o))) {
				want = i
				break
			}
		}
	}
	if want < 0 {
		// Not a letter and not one of the options: compare the text.
		evalText(exp, reply, toks, res)
		return
	}
	ms := choiceMentions(reply, toks, exp.Options)
	if len(ms) == 0 {
		// "less, because 2/5 is less than 1" for "less than 3/4".
		ms = keywordMentions(toks, exp.Options)
	}
	first := -1
	for k, m := range ms {
		// The first option named; of two named from the same word, the
		// longer ("carbon dioxide and water" over "carbon dioxide").
		if !m.excluded && (first < 0 || m.tok < ms[first].tok ||
			m.tok == ms[first].tok && m.span[1]-m.span[0] > ms[first].span[1]-ms[first].span[0]) {
			first = k
		}
	}
	if first < 0 {
		if declines(reply, toks) || len(ms) > 0 {
			res.Verdict, res.Reason = NotAttempt, "no option chosen"
			return
		}
		res.Verdict, res.Reason, res.Extracted = Incorrect, "no option recognised", strings.TrimSpace(reply)
		return
	}
	chosen := ms[first]
	res.Extracted = reply[chosen.span[0]:chosen.span[1]]
	// "B or C": a hedge between options.
	for _, m := range ms {
		if m.excluded || m.idx == chosen.idx || m.tok <= chosen.tok || m.span[0] < chosen.span[1] {
			continue // not after the chosen option, or inside its words
		}
		between := toks[chosen.tok+1 : m.tok]
		if (hasWord(between, "and") || hasWord(between, "aur")) && len(between) <= 2 && (chosen.idx == want || m.idx == want) && !optionsWithAnd(exp.Options) {
			// "fat and glucose", "glucose aur fat": the right option named
			// beside another.
			res.Extracted = reply[chosen.span[0]:m.span[1]]
			res.Verdict, res.Reason = Partial, ReasonAnother
			return
		}
		if hasWord(between, "or") && len(between) <= 4 {
			res.Extracted = reply[chosen.span[0]:m.span[1]]
			if chosen.idx == want || m.idx == want {
				res.Verdict, res.Reason = NotAttempt, "hedged between two options"
			} else {
				res.Verdict, res.Reason = Incorrect, "hedged between two options, neither right"
			}
			return
		}
	}
	if chosen.idx == want {
		res.Verdict = Correct
	} else {
		res.Verdict = Incorrect
	}
}

// optionsWithAnd reports whether an option's own text holds "and" or
// "aur" ("carbon dioxide and water"), which a reply naming it must not
// split.
func optionsWithAnd(options []string) bool {
	return slices.ContainsFunc(options, func(o string) bool {
		o = " " + strings.ToLower(o) + " "
		return strings.Contains(o, " and ") || strings.Contains(o, " aur ")
	})
}

func hasWord(toks []token, w string) bool {
	for _, t := range toks {
		if t.text == w {
			return true
		}
	}
	return false
}
