package rules

import (
	"hash/fnv"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

// words splits s into lowercase words of letters, marks and digits, with
// apostrophes dropped so that "don't" and "dont" are one word. The words
// of the lessons' subjects that learners write in Hinglish come in
// English ("raat" is "night"; see hinglish), so that "stomata raat ko band
// hote hai kya?" asks what "do stomata close at night?" asks.
func words(s string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			w := b.String()
			if e, ok := hinglish[w]; ok {
				w = e
			}
			out = append(out, w)
			b.Reset()
		}
	}
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsNumber(r):
			b.WriteRune(unicode.ToLower(r))
		case r == '\'' || r == '’' || r == 'ʼ' || r == '`':
		default:
			flush()
		}
	}
	flush()
	return out
}

// hinglish gives the English of the Hindi words, in Latin letters, that
// learners use for the lessons' things: colours, day and night, water,
// heat, the parts of a plant, the changes of state. Grammar words
// ("kya", "hai") are stop words instead (see stopWords).
var hinglish = map[string]string{
	"raat": "night", "din": "day", "band": "closed", "khula": "open", "khule": "open",
	"paani": "water", "pani": "water", "garam": "hot", "garm": "hot", "thanda": "cold", "thande": "cold", "thandi": "cold",
	"patti": "leaf", "patta": "leaf", "patte": "leaves", "pattiyan": "leaves", "jad": "root", "jadein": "roots", "jaden": "roots",
	"hawa": "air", "roshni": "light", "dhoop": "sunlight", "khana": "food", "paudha": "plant", "paudhe": "plants", "ped": "tree",
	"barf": "ice", "baraf": "ice", "bhaap": "steam", "bhap": "steam", "pighalna": "melt", "pighalta": "melts", "pighalti": "melts",
	"ubalna": "boil", "ubalta": "boils", "ubalti": "boils", "sukhna": "dry", "sukhta": "dries", "sukhte": "dry",
	"daalte": "put", "dalte": "put", "daalna": "put", "dalna": "put", "daala": "put", "dala": "put",
	"deta": "gives", "dete": "give", "deti": "gives", "leta": "takes", "lete": "take", "leti": "takes",
	"banate": "make", "banata": "makes", "banati": "makes", "karta": "do", "karte": "do", "karti": "do",
	"neela": "blue", "nila": "blue", "kala": "black", "kaala": "black", "hara": "green", "lal": "red", "safed": "white", "peela": "yellow",
}

// stem reduces a word to a common form well enough for matching words:
// plurals to the singular ("fractions" → "fraction", "bodies" → "body",
// "leaves" → "leaf") and the -ing and -ed forms of verbs to their stem
// ("adding" → "add", "boiled" → "boil", "simplified" → "simplify",
// "dropped" → "drop"). A final silent e goes too, so that "divide",
// "divides", "dividing" and "divided" are one word ("divid"). It is
// deliberately simple: both sides of a comparison go through it, so a crude
// stem that is consistent is as good as a correct one. Short words are left
// alone.
func stem(w string) string {
	if s, ok := irregular[w]; ok {
		return s
	}
	n := len(w)
	switch {
	case n <= 3:
		return w
	case strings.HasSuffix(w, "ies") && n > 4:
		return w[:n-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "ches"),
		strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "zes"):
		return dropE(w[:n-2])
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "s"):
		return dropE(w[:n-1])
	case strings.HasSuffix(w, "ing") && n > 5:
		return undouble(w[:n-3])
	case strings.HasSuffix(w, "ied") && n > 4:
		return w[:n-3] + "y" // "simplified" → "simplify"
	case strings.HasSuffix(w, "ed") && n > 4 && !strings.HasSuffix(w, "eed"):
		return undouble(w[:n-2])
	}
	return dropE(w)
}

// dropE drops the silent e that -ing and -ed forms lose ("divide" →
// "divid", as "dividing" and "divided"); a word of three letters or fewer,
// or ending in "ee", keeps it.
func dropE(w string) string {
	if n := len(w); n > 3 && w[n-1] == 'e' && w[n-2] != 'e' {
		return w[:n-1]
	}
	return w
}

// undouble undoes the doubled consonant of an -ing or -ed form
// ("dropped" → "drop", "getting" → "get"); l, s, z and f stay doubled, as
// in "filled", "pressed" and "stuffed", and so does a stem of three
// letters ("adding" → "add").
func undouble(w string) string {
	n := len(w)
	if n >= 4 && w[n-1] == w[n-2] && !strings.ContainsRune("aeioulszf", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

// irregular maps irregular plurals to their singular, and irregular forms
// of verbs to the stem of the verb ("taken" and "took" to "tak", as "takes").
var irregular = map[string]string{
	"leaves": "leaf", "halves": "half", "lives": "life", "knives": "knife", "wives": "wife", "shelves": "shelf",
	"children": "child", "people": "person", "men": "man", "women": "woman", "teeth": "tooth", "feet": "foot",
	"mice": "mouse", "geese": "goose", "stomata": "stoma",
	"taken": "tak", "took": "tak", "given": "giv", "gave": "giv", "made": "mak", "grown": "grow", "grew": "grow",
	"frozen": "freez", "froze": "freez", "eaten": "eat", "ate": "eat", "fallen": "fall", "fell": "fall",
	"written": "writ", "wrote": "writ", "chosen": "choos", "chose": "choos", "risen": "ris", "broken": "break", "broke": "break",
	// and adverbs of manner to their adjective: "do gas particles move
	// slowly?" asks whether they are slow.
	"slowly": "slow", "quickly": "quick", "strongly": "strong", "weakly": "weak", "freely": "free", "closely": "clos",
	"tightly": "tight", "loosely": "loos", "rapidly": "rapid", "evenly": "even", "equally": "equal", "easily": "easy",
}

// stopWords are words that say nothing about what a question is about:
// function words, question words and the filler of a request.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
		a an the and or but if of to in on at by for with from into onto about as than then so
		is are was were be been being am do does did doing done have has had having can could
		will would shall should may might must i me my mine we us our you your yours he him his
		she her it its they them their this that these those there here what which who whom
		whose why how when where whats hows whys please tell explain meaning know
		understand get got need want just also too very really much many more most some
		any all each every no not dont doesnt didnt isnt arent cant cannot yes ok okay thanks
		thank sir maam didi bhaiya again still one way thing something anything let lets
		though tho although actually basically yeah
		kya hai hain ka ki ke ko se mein aur kaise kyun kyu matlab batao samjhao hoga hogi hota hoti hote bhi toh`) {
		m[w] = true
	}
	return m
}()

// terms returns the distinct content terms of s: its words without stop
// words, stemmed, in order of first appearance.
func terms(s string) []string {
	var out []string
	ws := words(s)
	for i, w := range ws {
		switch {
		case w == "per" && i+1 < len(ws) && ws[i+1] == "cent":
			w = "percent" // "per cent" is how the lessons spell "percent"
		case w == "cent" && i > 0 && ws[i-1] == "per":
			continue
		}
		if stopWords[w] || (utf8.RuneCountInString(w) < 2 && !isDigits(w)) {
			continue
		}
		if t := stem(w); !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

func isDigits(s string) bool {
	for _, r := range s {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return s != ""
}

// sentences splits text into sentences with the leak detector's splitter,
// so that what the engine counts as a sentence is what the detector checks.
func sentences(text string) []string {
	var out []string
	for _, s := range answer.SplitSentences(text) {
		out = append(out, s.Text)
	}
	return out
}

// paragraphs splits text at blank lines; single line breaks inside a
// paragraph are kept as spaces.
func paragraphs(text string) []string {
	var out []string
	for _, p := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n") {
		if p = strings.Join(strings.Fields(p), " "); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// oneLine joins the lines of a multi-line text (a worked solution) into one
// paragraph. A line is a step that gets a full stop when it has no end
// mark, unless the sentence goes on in the next line: the line ends with a
// comma or the like, or the next begins in lower case ("...is very weak,
// / so they spread out").
func oneLine(text string) string {
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	for i, l := range lines {
		last := l[len(l)-1:]
		goesOn := strings.ContainsAny(last, ",;-(") ||
			i+1 < len(lines) && unicode.IsLower([]rune(lines[i+1])[0])
		switch {
		case strings.ContainsAny(last, ".!?:"), goesOn && i+1 < len(lines):
		case strings.ContainsAny(last, ",;-("):
			lines[i] = strings.TrimRight(l, ",;-( ") + "."
		default:
			lines[i] = l + "."
		}
	}
	return strings.Join(lines, " ")
}

// lowerFirst lowercases the first letter of a title for use inside a
// sentence ("Like fractions" → "like fractions"), unless its first word
// looks like an acronym or a name with inner capitals ("LCM", "McDonald").
func lowerFirst(s string) string {
	first, _, _ := strings.Cut(s, " ")
	r, size := utf8.DecodeRuneInString(first)
	if !unicode.IsUpper(r) || strings.IndexFunc(first[size:], unicode.IsUpper) >= 0 || first == "I" {
		return s
	}
	return string(unicode.ToLower(r)) + s[size:]
}

// joinList joins items as an English list: "a", "a and b", "a, b and c",
// and "a, b and c, and d" when an item holds an "and" of its own.
func joinList(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	sep := " and "
	if len(items) > 2 && slices.ContainsFunc(items, func(it string) bool { return strings.Contains(it, " and ") }) {
		// "what a ratio is, dividing in a ratio and proportion, and the
		// unitary method": the comma keeps an item's own "and" apart.
		sep = ", and "
	}
	return strings.Join(items[:len(items)-1], ", ") + sep + items[len(items)-1]
}

// cut returns s cut to at most n runes.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n]))
}

// hash returns a stable hash of its parts: the engine's only source of
// variety, so that a session never repeats itself word for word but a rerun
// of it is identical.
func hash(parts ...string) uint64 {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// isQuestion reports whether a message asks something: it has a question
// mark or opens with a question word or a request ("remind me what like
// fractions are"), after any words of conversation ("wait", "sorry, ...").
func isQuestion(msg string) bool {
	if strings.ContainsAny(msg, "?？") {
		return true
	}
	w := words(msg)
	if n := len(w); n >= 4 && (tagQuestion[w[n-1]] || n >= 5 && tagQuestion[w[n-2]+" "+w[n-1]]) {
		// "the particles in a solid dont move at all right", "a negative
		// times a negative is negative isnt it": a claim put as a question.
		return true
	}
	for len(w) > 1 && openers[w[0]] {
		w = w[1:]
	}
	if len(w) == 0 {
		return false
	}
	switch w[0] {
	case "what", "whats", "why", "how", "when", "where", "which", "who", "whose", "can", "could",
		"is", "are", "do", "does", "did", "should", "would", "will", "explain", "remind", "kya", "kaise", "kyun", "kyu":
		return true
	}
	return false
}

// objects reports whether a message answers what was said with a claim of
// its own: "multiplying always makes it bigger though", "but dividing
// makes it smaller". Not a question, but a claim to check as one (see
// claimOf).
func objects(msg string) bool {
	w := words(msg)
	n := len(w)
	return n >= 4 && (w[n-1] == "though" || w[n-1] == "tho" || w[0] == "but")
}

// tagQuestion are the tags that turn a claim into a question.
var tagQuestion = wordSet(`right correct isnt na naa`)

func init() {
	for _, t := range []string{"isnt it", "is it", "arent they", "dont they", "doesnt it", "hai na", "isnt that", "right na"} {
		tagQuestion[t] = true
	}
}

// openers are the words of conversation a question may open with: "wait,
// what is a denominator", "sorry, what's a numerator", "so how do I...".
var openers = wordSet(`wait sorry so um umm uh hmm hm oh ah erm er hey and but then`)

// questionIn returns the question a message asks, in its first clause or after
// one ("before we start, why does …"), and whether it asks one. For the
// first message of a lesson: later, "ok, how about 5" offers an answer.
func questionIn(msg string) (string, bool) {
	if isQuestion(msg) {
		return msg, true
	}
	_, rest, ok := strings.Cut(msg, ",")
	return rest, ok && isQuestion(rest)
}

// plainNo reports whether a message is a bare "no" ("no", "nope", "no
// thanks"), saying no more; a word of address after it ("no sir", "no
// ma'am") says no more either.
func plainNo(msg string) bool {
	w := words(msg)
	if n := len(w); n > 1 && addresses[w[n-1]] {
		w = w[:n-1]
	}
	if len(w) == 0 || len(w) > 2 || len(w) == 2 && w[1] != "thanks" && w[1] != "thank" {
		return false
	}
	return noWords[w[0]]
}

// noWords say no: in English, in Hindi and in its texting spellings
// ("nhi", "nai").
var noWords = wordSet(`no nope nah nahi nahin nhi nai na`)

// addresses are the words a learner addresses the tutor with.
var addresses = wordSet(`sir maam mam madam miss didi bhaiya`)

// nothingMore reports whether a "no" says there is nothing to go over:
// "no", "no thank you", "no questions", "nope, all good", "no, go on" — not
// "not yet" nor "no, explain again".
func nothingMore(msg string) bool {
	w := words(msg)
	return plainNo(msg) || isNo(msg) && w[0] != "not" && w[0] != "abhi" && !slices.ContainsFunc(w, func(w string) bool { return asksMore[w] && w != "question" })
}

// notYet reports whether a short message declines to go on: a bare "no",
// "not yet", "not really", "no not yet".
func notYet(msg string) bool {
	w := words(msg)
	return plainNo(msg) || isNo(msg) && len(w) <= 3 && !slices.ContainsFunc(w, func(w string) bool { return asksMore[w] })
}

// asksMore are words that make a "no" ask for something: "no, explain
// again", "no, what is a reciprocal?".
var asksMore = wordSet(`what why how which explain again repeat doubt question`)

// isNo reports whether a short message declines or disagrees: "no",
// "not really", "nahi", "nhi", "abhi nahi" (not now).
func isNo(msg string) bool {
	w := words(msg)
	if len(w) == 0 || len(w) > 6 {
		return false
	}
	switch w[0] {
	case "not":
		return len(w) > 1 && (w[1] == "really" || w[1] == "yet" || w[1] == "now" || w[1] == "ready")
	case "abhi":
		return len(w) > 1 && noWords[w[1]] && w[1] != "na"
	}
	return noWords[w[0]]
}

// discouraged reports whether a learner's message speaks badly of
// themselves ("I'm so stupid", "I'm bad at this": self) or of the task ("I
// hate maths", "this is too hard": task). A question ("why is this so
// hard?") or a negation before the words ("that wasn't so hard", "I don't
// hate maths") is neither.
func discouraged(msg string) (self, task bool) {
	if isQuestion(msg) || rude(msg) || bored(msg) {
		return false, false
	}
	// Each clause on its own: in "no, I'm so stupid" the "no" negates
	// nothing.
	for _, clause := range clauseSplit.Split(msg, -1) {
		w := " " + strings.Join(words(clause), " ") + " "
		negated := func(at int) bool {
			before := strings.Fields(w[:at])
			for _, x := range before[max(0, len(before)-2):] {
				switch x {
				case "not", "dont", "didnt", "doesnt", "wasnt", "isnt", "arent", "never":
					return true
				}
			}
			return false
		}
		find := func(phrases []string) bool {
			for _, p := range phrases {
				if at := strings.Index(w, p); at >= 0 && !negated(at) {
					return true
				}
			}
			return false
		}
		self = self || find([]string{" stupid ", " dumb ", " idiot ", " useless ", " hopeless ", " bad at ", " i suck ",
			" cant do anything ", " so slow ", " hate myself ", " hate me "})
		task = task || !self && find([]string{" hate ", " too hard ", " so hard ", " too difficult ", " so difficult ",
			" never get ", " never understand ", " never be able "})
	}
	return self, task
}

// clauseSplit splits a message into its clauses.
var clauseSplit = regexp.MustCompile(`[.;!]+`)

// rude reports whether a message insults the tutor: "you are stupid",
// "shut up", "I hate you". (Calling oneself stupid is discouraged.)
func rude(msg string) bool {
	if rudeOther.MatchString(msg) {
		return true
	}
	for _, m := range rudeWords.FindAllStringSubmatchIndex(msg, -1) {
		before := strings.ToLower(msg[:m[0]])
		if strings.HasSuffix(strings.TrimSpace(before), "if") || strings.HasSuffix(strings.TrimSpace(before), "when") {
			continue // "if you are useless at fractions, …"
		}
		// "your stupid" (for "you're"), not "your worst subject": after
		// "your", the insult ends the clause.
		if strings.EqualFold(msg[m[2]:m[3]], "your") && m[1] < len(msg) && !strings.ContainsAny(msg[m[1]:m[1]+1], ".,!?") &&
			!strings.HasPrefix(strings.TrimSpace(msg[m[1]:]), "and") {
			continue
		}
		return true
	}
	return false
}

var (
	rudeWords = regexp.MustCompile(`(?i)\b(you(?:'re|\s+are|re|r)?|u\s+r|ur|this\s+(?:bot|app|tutor)\s+is)\s+(?:so\s+|such\s+an?\s+|a\s+|an\s+|the\s+|really\s+|very\s+)?(?:stupid|dumb|idiot|useless|annoying|rubbish|trash|worst|bakwas|pagal)\b`)
	rudeOther = regexp.MustCompile(`(?i)\bshut\s+up\b|\byou\s+suck\b|\bi\s+hate\s+(?:you|u)\b|\bchup\s+(?:raho|kar)\b`)
)

// bored reports whether a message only says the lesson is dull: "this is
// boring", "this is stupid", "whatever", "I'm bored".
func bored(msg string) bool { return boredWords.MatchString(strings.TrimSpace(msg)) }

var boredWords = regexp.MustCompile(`(?i)^(?:(?:ugh|meh|lol|omg|so|and)[,.!]?\s+)*(?:` +
	`(?:this|it|that|maths?|science|this\s+(?:lesson|topic|chapter))(?:\s+is|'s|\s+s)?\s+(?:so\s+|very\s+|really\s+|kinda\s+|soo+\s+)?(?:boring|stupid|dumb|pointless|useless|lame)|` +
	`(?:i'?m|i\s+am|im)\s+(?:so\s+|very\s+|really\s+)?bored|whatever|meh|boring|so\s+boring)\s*[.!…]*$`)

// asksThatMeans reports whether a message asks what the last thing said
// means, naming no word: "what does that mean?", "meaning?".
func asksThatMeans(msg string) bool {
	switch strings.Join(words(msg), " ") {
	case "what does that mean", "what does it mean", "what does this mean", "what is that", "meaning", "matlab",
		"what does that even mean", "what is the meaning", "what that means":
		return true
	}
	return false
}

// isDiscouraged reports whether msg is discouraged in either way.
func isDiscouraged(msg string) bool {
	self, task := discouraged(msg)
	return self || task
}

// asksHelp reports whether a message with no answer in it asks for help
// with a pending question: confused, stuck, asking for a hint, or a bare
// "help".
func asksHelp(msg string) bool {
	return confused(msg) || asksHint(msg) || stuck(msg) || helpOnly(msg)
}

// confused reports whether a learner's message says the explanation did
// not land or asks to hear it again: "I don't get it", "can you explain
// again?", "repeat please", "what?", "kinda". "Again" on its own is not enough when
// the learner means to try something again ("let me try again").
func confused(msg string) bool {
	if isNo(msg) {
		return true
	}
	ws := words(msg)
	w := " " + strings.Join(ws, " ") + " "
	for _, p := range []string{" confused ", " confusing ", " dont understand ", " dont get ", " didnt understand ",
		" didnt get ", " lost ", " dont follow ", " what do you mean ", " samajh nahi ", " samjha nahi ", " samjhi nahi ",
		" repeat ", " once more ", " one more time ", " say that again ", " phir se ", " dobara ",
		" do not understand ", " did not understand ", " cant understand ", " cannot understand ", " couldnt understand ",
		" not understood ", " not clear ", " not getting ",
		" samajh nhi ", " samjh nahi ", " samjh nhi ", " samjha nhi ", " samjhi nhi ", " nahi samjha ", " nhi samjha ",
		" nahi samjhi ", " nhi samjhi ", " nahi samjhe ", " nhi samjhe "} {
		if strings.Contains(w, p) {
			return true
		}
	}
	if answer.SaysLost(msg) {
		return true
	}
	if len(ws) <= 3 {
		// "kinda", "sort of": followed only in part.
		for _, p := range []string{" kinda ", " kindof ", " sorta ", " sort of ", " kind of ", " a bit ", " a little ", " somewhat ", " partly ", " not fully ", " not completely "} {
			if strings.Contains(w, p) {
				return true
			}
		}
	}
	if strings.Contains(w, " again ") {
		for _, p := range []string{" try again ", " try it again ", " try that again ", " go again ", " attempt again ", " start again "} {
			if strings.Contains(w, p) {
				return false
			}
		}
		return true
	}
	// "What?", "huh?", "sorry?": a bare puzzled question.
	if len(ws) == 1 && strings.ContainsAny(msg, "?？") {
		switch ws[0] {
		case "what", "huh", "sorry", "pardon", "kya":
			return true
		}
	}
	return false
}

// continuationWords are the words of a question about the lesson itself
// rather than its content: "can we go on?", "what's the next step?",
// "can I have a hint for this question?".
var continuationWords = wordSet(`go goes going move moves moving next continue continuing start starting begin
	proceed carry carrying ahead ready done finish finished skip stop pause break more another question questions
	step steps lesson lessons now later yet hint hints clue clues help answer answers solve solving solved
	stuck try trying
	first this that it`)

// contentTerms returns the terms of a learner's question that say what it
// is about: without the words that frame a question (frameWords) or that
// are about the lesson's own course (continuationWords).
func contentTerms(msg string) []string {
	var out []string
	for _, w := range words(msg) {
		if frameWords[w] || continuationWords[w] {
			continue
		}
		for _, t := range terms(w) {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	for _, w := range namedStopWords(msg) { // "what does of mean?"
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// asksAbout reports whether a question asks about something a lesson could
// explain, rather than about the lesson's course ("can we go on?").
func asksAbout(msg string) bool { return len(contentTerms(msg)) > 0 }

// asksAnswer reports whether a message asks for the answer itself ("what's
// the answer?", "show me the solution") rather than for help towards it
// ("how do I start?", "can you tell me how to begin?") or what a word
// means ("what is a solution?").
func asksAnswer(msg string) bool {
	w := " " + strings.Join(words(msg), " ") + " "
	for _, p := range []string{" answer ", " the solution ", " solve it for me ", " just tell me "} {
		if strings.Contains(w, p) {
			return true
		}
	}
	return false
}

// asksHint reports whether a message asks for a hint or a clue ("give me
// a hint", "another clue please"), not thanks for one.
func asksHint(msg string) bool {
	ws := words(msg)
	return slices.ContainsFunc(ws, func(w string) bool { return w == "hint" || w == "hints" || w == "clue" || w == "clues" }) &&
		!slices.ContainsFunc(ws, func(w string) bool { return w == "thanks" || w == "thank" || w == "thx" })
}

// stuck reports whether a message says the learner is stuck: "I'm stuck",
// "still stuck".
func stuck(msg string) bool { return slices.Contains(words(msg), "stuck") }

// helpOnly reports whether a message is a bare call for help: "help",
// "help me please", "I need help".
func helpOnly(msg string) bool {
	rest := slices.DeleteFunc(words(msg), func(w string) bool {
		switch w {
		case "i", "need", "some", "me", "please", "pls", "plz", "sir", "maam", "can", "you", "a", "little", "bit", "of":
			return true
		}
		return false
	})
	return len(rest) == 1 && (rest[0] == "help" || rest[0] == "helpp")
}

// aboutQuestion reports whether a learner's question is about the pending
// question q: it names nothing else ("how do I start?", "can I have a
// hint?") or shares a term with the question, its options, hints or
// solution.
func aboutQuestion(msg string, q tutor.BankQuestion) bool {
	ts := contentTerms(msg)
	if len(ts) == 0 {
		return true
	}
	own := terms(strings.Join(slices.Concat([]string{q.Text, q.Solution}, q.Options, q.Hints), " "))
	return slices.ContainsFunc(ts, func(t string) bool { return slices.Contains(own, t) })
}
