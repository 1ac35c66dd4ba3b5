package rules

import (
	"cmp"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

// rank orders difficulties from easy to hard; an unset difficulty counts
// as medium, as the domain treats it.
func rank(d tutor.Difficulty) int {
	switch d {
	case tutor.Easy:
		return 0
	case tutor.Hard:
		return 2
	}
	return 1
}

// candidate is a bank question with the keys that order the choice.
type candidate struct {
	q     tutor.BankQuestion
	asked bool
	keys  []int
	tie   uint64
}

// choose returns the first bank question that keep accepts, ordered by:
// not yet asked in the session, then the keys that key returns (smallest
// first), then a hash of the session id, salt and question id. The hash
// varies the choice between sessions; nothing varies it between reruns.
func choose(t *tutor.Topic, r record, session, salt string, keep func(tutor.BankQuestion) bool, key func(tutor.BankQuestion) []int) (tutor.BankQuestion, bool) {
	var cs []candidate
	for _, q := range t.Questions {
		if keep(q) {
			cs = append(cs, candidate{q: q, asked: r.asked[q.ID], keys: key(q), tie: hash(session, salt, q.ID)})
		}
	}
	if len(cs) == 0 {
		return tutor.BankQuestion{}, false
	}
	best := slices.MinFunc(cs, func(a, b candidate) int {
		if a.asked != b.asked {
			if a.asked {
				return 1
			}
			return -1
		}
		if c := slices.Compare(a.keys, b.keys); c != 0 {
			return c
		}
		return cmp.Compare(a.tie, b.tie)
	})
	return best.q, true
}

// sameConcept reports whether a question checks concept c; plan concepts
// and question concepts are matched ignoring case and surrounding space,
// as the domain does.
func sameConcept(q tutor.BankQuestion, c string) bool {
	return strings.EqualFold(strings.TrimSpace(q.Concept), strings.TrimSpace(c))
}

// forStep chooses the question for a check or practice step: one on the
// step's concept, not asked before when possible, easiest first, varied
// between sessions by the session id and the step.
func forStep(t *tutor.Topic, r record, session string, st tutor.Step) (tutor.BankQuestion, bool) {
	return choose(t, r, session, "step "+strconv.Itoa(st.ID),
		func(q tutor.BankQuestion) bool { return sameConcept(q, st.Concept) },
		func(q tutor.BankQuestion) []int { return []int{rank(q.Difficulty)} })
}

// simpler chooses a question to step back to after repeated misses on q: on
// the same concept, one not asked yet, no harder than q, the easiest such.
// A harder one is no step back: with none, the caller goes on otherwise.
func simpler(t *tutor.Topic, r record, session string, q *tutor.Question) (tutor.BankQuestion, bool) {
	cur := rank(tutor.Hard)
	if bq, ok := t.Question(q.QuestionID); ok {
		cur = rank(bq.Difficulty)
	}
	exp := q.Expected(t)
	return choose(t, r, session, "simpler "+q.QuestionID,
		func(b tutor.BankQuestion) bool {
			// Not one whose text gives the pending answer away: stuck on
			// "what is this spreading called?", "In which state does
			// diffusion happen fastest?" would tell.
			return b.ID != q.QuestionID && !r.asked[b.ID] && sameConcept(b, q.Concept) && rank(b.Difficulty) <= cur &&
				!givesAway(questionText(b), exp, q.QuestionText, nil)
		},
		func(b tutor.BankQuestion) []int { return []int{rank(b.Difficulty)} })
}

// harder chooses a question for after the lesson: one not asked yet, on any
// concept, the hardest first.
func harder(t *tutor.Topic, r record, session string) (tutor.BankQuestion, bool) {
	return choose(t, r, session, "harder",
		func(q tutor.BankQuestion) bool { return !r.asked[q.ID] },
		func(q tutor.BankQuestion) []int { return []int{-rank(q.Difficulty)} })
}

// questionText is the question as the learner sees it: the bank text and,
// for a choice question whose text does not name its options, the options
// lettered A, B, C...
func questionText(q tutor.BankQuestion) string {
	text := strings.TrimSpace(q.Text)
	if len(q.Options) == 0 {
		return text
	}
	lower := strings.ToLower(text)
	named := true
	opts := make([]string, len(q.Options))
	for i, o := range q.Options {
		o = strings.TrimSpace(o)
		if !strings.Contains(lower, strings.ToLower(o)) {
			named = false
		}
		opts[i] = string(rune('A'+i%26)) + ") " + o
	}
	if named {
		return text
	}
	return text + " Is it " + joinOr(opts) + "?"
}

// joinOr joins items as "a, b or c".
func joinOr(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

// answerName is how praise names a right answer: the option's text for a
// choice question, else the learner's own form when the evaluator found a
// short one, else the bank's answer when it is short; "" when the answer
// is too long to name in passing.
func answerName(q tutor.BankQuestion, res answer.Result) string {
	if i, ok := optionIndex(q, q.Answer); ok && len(q.Options) > 0 {
		if o := strings.TrimSpace(q.Options[i]); utf8.RuneCountInString(o) <= 40 {
			return o
		}
		return ""
	}
	// The learner's own form of the answer ("0.5" for 1/2, "5 metres")
	// unless it carries letters the answer does not have: a slip of
	// spelling ("chlorophyl") or a word that is no unit ("14 hai") is not
	// repeated back.
	x := echo(res.Extracted)
	if x != "" && res.Kind != answer.KindText && (hasLetter(q.Answer) || !hasLetter(x)) {
		return x
	}
	return echo(q.Answer)
}

func hasLetter(s string) bool {
	return strings.IndexFunc(s, unicode.IsLetter) >= 0
}

// optionIndex returns the option an answer names, by letter or by text.
func optionIndex(q tutor.BankQuestion, a string) (int, bool) {
	a = strings.TrimSpace(a)
	if len(a) == 1 {
		if i := int(strings.ToUpper(a)[0]) - 'A'; i >= 0 && i < len(q.Options) {
			return i, true
		}
	}
	for i, o := range q.Options {
		if strings.EqualFold(strings.TrimSpace(o), a) {
			return i, true
		}
	}
	return 0, false
}

// idea returns the idea behind a question's answer, for specific praise:
// the first sentence of its worked solution that explains in words rather
// than only calculating, short enough to say aloud, or else its first hint,
// which names the idea to use.
func idea(q tutor.BankQuestion) string {
	for _, s := range sentences(oneLine(q.Solution)) {
		n := 0
		for _, w := range words(s) {
			if len(w) >= 3 && !isDigits(w) {
				n++
			}
		}
		if n >= 4 && utf8.RuneCountInString(s) <= 160 {
			return s
		}
	}
	if len(q.Hints) > 0 && utf8.RuneCountInString(q.Hints[0]) <= 160 {
		return strings.TrimSpace(q.Hints[0])
	}
	return ""
}

// instructionVerbs open the hints that tell the learner what to do
// ("Divide both terms…", "Find the HCF…").
var instructionVerbs = map[string]bool{
	"add": true, "ask": true, "bring": true, "cancel": true, "change": true, "check": true,
	"collect": true, "compare": true, "convert": true, "count": true, "decide": true,
	"divide": true, "draw": true, "expand": true, "find": true, "group": true, "imagine": true,
	"keep": true, "look": true, "move": true, "multiply": true, "notice": true, "picture": true,
	"put": true, "remember": true, "remove": true, "rewrite": true, "share": true, "simplify": true,
	"split": true, "start": true, "subtract": true, "swap": true, "take": true, "think": true,
	"try": true, "turn": true, "undo": true, "use": true, "work": true, "write": true,
}

// instruction reports whether s tells the learner what to do: a sentence
// that opens on one of instructionVerbs.
func instruction(s string) bool {
	first, _, _ := strings.Cut(strings.TrimSpace(s), " ")
	return instructionVerbs[strings.ToLower(strings.TrimRight(first, ",:"))]
}

// bankOf returns the bank question of a pending question, or one made from
// the pending question itself when it is not from the bank.
func bankOf(t *tutor.Topic, q *tutor.Question) tutor.BankQuestion {
	if bq, ok := t.Question(q.QuestionID); ok {
		return bq
	}
	return tutor.BankQuestion{
		ID: q.QuestionID, Text: q.QuestionText, Answer: q.ExpectedAnswer, Kind: q.AnswerKind,
		Concept: q.Concept, Hints: q.Hints,
	}
}

// hint returns a question's hint at level 1 or 2, or a general one when the
// question has none.
func hint(q tutor.BankQuestion, level int) string {
	level = min(max(level, 1), 2)
	if level <= len(q.Hints) {
		if h := strings.TrimSpace(q.Hints[level-1]); h != "" {
			return h
		}
	}
	return fallbackHints[level-1]
}

// solution returns a question's worked solution on one line, or a plain
// statement of its answer when it has none.
func solution(q tutor.BankQuestion) string {
	if s := oneLine(q.Solution); s != "" {
		return s
	}
	if i, ok := optionIndex(q, q.Answer); ok && len(q.Options) > 0 {
		return "The answer is " + string(rune('A'+i%26)) + ", " + strings.TrimSpace(q.Options[i]) + "."
	}
	return "The answer is " + strings.TrimSpace(q.Answer) + "."
}

// stepResult is an intermediate result a question's worked solution or
// hints state: its value and the step that reaches it, in the lesson's
// words ("one part is 100 rupees").
type stepResult struct {
	value float64
	said  string
}

// numberRE matches a number as the lesson writes it: "1,800", "12.5",
// "100".
const numberRE = `\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`

var (
	numberPat = regexp.MustCompile(numberRE)
	// signedNumberPat matches a number with its sign, if any.
	signedNumberPat = regexp.MustCompile(`(?:(?:^|[^\w)])[-−] ?)?(?:` + numberRE + `)`)
	// resultPat matches a result: a number after "=" or "is", with any
	// rupee sign, percent sign and one word of unit ("= 100 rupees").
	resultPat = regexp.MustCompile(`(?:=|\bis)\s*(₹\s?)?(-?(?:` + numberRE + `))(%?)(\s+[a-z]+)?`)
)

// number reads a number as numberRE matches it.
func number(s string) (float64, bool) {
	f, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64)
	return f, err == nil
}

// numbers returns the values of the numbers in s.
func numbers(s string) []float64 {
	var out []float64
	for _, m := range numberPat.FindAllString(s, -1) {
		if f, ok := number(m); ok {
			out = append(out, f)
		}
	}
	return out
}

// signedNumbers returns the values of the numbers in s, with their signs
// ("-3", "− 3").
func signedNumbers(s string) []float64 {
	var out []float64
	for _, m := range signedNumberPat.FindAllString(s, -1) {
		if f, ok := number(numberPat.FindString(m)); ok {
			if strings.ContainsAny(m, "-−") {
				f = -f
			}
			out = append(out, f)
		}
	}
	return out
}

// stepResults returns the intermediate results of a question: the values
// its worked solution and hints state after "=" or "is" ("so one part is
// 900 ÷ 9 = 100 rupees"), leaving out a value that only starts a
// calculation ("is 900 ÷ 9") or a relation ("is 110% of the old wage"),
// the answer itself, a known wrong answer, a number the question gives,
// and a step whose words would give the answer away.
func stepResults(q tutor.BankQuestion) []stepResult {
	given := numbers(q.Text)
	exp := q.Expected()
	sol := sentences(oneLine(q.Solution))
	texts := slices.Clone(sol)
	for _, h := range q.Hints {
		texts = append(texts, sentences(h)...)
	}
	var out []stepResult
	solved := false // the solution has reached the answer: what follows checks it
	for i, s := range texts {
		if strings.HasPrefix(strings.ToLower(s), "check") || (solved && i < len(sol)) {
			continue
		}
		from := 0 // where the step of the next result may start
		for _, m := range resultPat.FindAllStringSubmatchIndex(s, -1) {
			if r, _ := utf8.DecodeRuneInString(s[m[7]:]); unicode.IsLetter(r) || strings.ContainsRune("(/", r) {
				continue // "= 2s + 18", "= 2(s + 16)": a term, not a value
			}
			valStart, end := m[4], m[1]
			if m[2] >= 0 {
				valStart = m[2]
			}
			if m[8] >= 0 && resultStops[strings.TrimSpace(s[m[8]:m[9]])] {
				end = m[7] // "is 36 and ...": "and" is no unit
			}
			rest := strings.TrimSpace(s[end:])
			if r, _ := utf8.DecodeRuneInString(rest); strings.ContainsRune("+-−×x*÷/=:0123456789", r) || strings.HasPrefix(rest, "of ") {
				continue
			}
			seg := s[clauseStart(s[:m[0]], from):end]
			from = end
			v, ok := number(s[m[4]:m[5]])
			val := strings.TrimSpace(s[valStart:end])
			switch {
			case !ok, slices.Contains(given, v), slices.ContainsFunc(out, func(r stepResult) bool { return r.value == v }):
				continue
			case answer.Evaluate(exp, val).Verdict != answer.Incorrect:
				solved = solved || i < len(sol)
				continue
			case q.ShowsMisconception(val):
				continue
			}
			said := stepWords(seg, val)
			if said == "" || givesAway(said, exp, q.Text, nil) {
				continue
			}
			out = append(out, stepResult{value: v, said: said})
		}
	}
	return out
}

// resultStops are the words after a result that are no unit of it.
var resultStops = wordSet(`and so then now of to for but or as because since which that`)

// clauseStart returns where the clause ending at the end of prefix starts:
// after the last comma, semicolon or colon since from, else at from.
func clauseStart(prefix string, from int) int {
	at := from
	for _, sep := range []string{", ", "; ", ": "} {
		if i := strings.LastIndex(prefix[from:], sep); i >= 0 {
			at = max(at, from+i+len(sep))
		}
	}
	return at
}

// stepWords says a step in the lesson's words: "the HCF of 15 and 25 is
// 5", "increase is 500 rupees" for "Increase = 3,000 - 2,500 = 500 rupees",
// and a calculation as it is ("4 + 5 = 9 parts").
func stepWords(seg, val string) string {
	w := strings.Fields(seg)
	for len(w) > 1 && resultStops[strings.ToLower(w[0])] {
		w = w[1:]
	}
	seg = strings.Join(w, " ")
	subject := seg
	if i := strings.IndexAny(subject, "="); i >= 0 {
		subject = subject[:i]
	}
	if i := strings.Index(subject, " is "); i >= 0 {
		subject = subject[:i]
	}
	subject = strings.TrimSpace(subject)
	if subject == "" {
		return ""
	}
	if !hasLetter(subject) {
		return lowerFirst(seg)
	}
	return lowerFirst(subject) + " is " + val
}
