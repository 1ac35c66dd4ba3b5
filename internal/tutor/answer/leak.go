package answer

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Roles of the speakers in a dialogue.
const (
	RoleStudent = "student"
	RoleTutor   = "tutor"
)

// Utterance is one turn of a dialogue.
type Utterance struct {
	Role string `json:"role"` // RoleStudent or RoleTutor
	Text string `json:"text"`
}

// LeakCheck is what DetectLeaks needs to judge a tutor's reply: the answer
// to protect, the question (whose numbers are not the tutor's to take back),
// the dialogue so far (what the learner already said is no longer secret)
// and the reply itself.
type LeakCheck struct {
	Expected Expected
	Question string
	Dialogue []Utterance
	Reply    string
	// Quoted are other questions the reply may quote as they are (a new
	// question it asks). A question quoted word for word, this one or
	// another, gives no answer away: "Is x = 4 a solution of 3x + 5 = 5x - 3?
	// Answer yes or no." states neither "yes" nor 5.
	Quoted []string
	// OtherLanguage reports that the reply may be written in a language
	// other than English ("सही उत्तर 14 है", "Jawab 14 hai"), whose answer
	// phrases DetectLeaks cannot read: a numeric answer's value then leaks
	// wherever a statement holds it, unless the question or the learner
	// wrote it.
	OtherLanguage bool
}

// Sentence is a sentence of a text with its byte span: text[Start:End] == Text.
type Sentence struct {
	Text       string `json:"text"`
	Start, End int
}

// Leak is one sentence of a reply that gives the answer away.
type Leak struct {
	Sentence Sentence `json:"sentence"`
	Form     string   `json:"form"`   // the words that reveal the answer, as written: "three quarters", "$25,000"
	Reason   string   `json:"reason"` // how it is revealed: "stated as the answer", "result of a computation", ...
}

// SplitSentences splits text into sentences at ".", "!" or "?" followed by a
// space, at the full stops and marks of other scripts ("।", "॥", "。", "！",
// "？", "؟", "۔"), and at line breaks. Decimal points, "e.g." and similar
// abbreviations do not end a sentence, and closing quotes and brackets
// after a mark belong to the sentence it ends. Spans exclude surrounding
// spaces.
func SplitSentences(text string) []Sentence {
	var out []Sentence
	start := 0
	emit := func(end int) {
		s, e := start, end
		for s < e && isSpaceByte(text[s]) {
			s++
		}
		for e > s && isSpaceByte(text[e-1]) {
			e--
		}
		if e > s {
			out = append(out, Sentence{Text: text[s:e], Start: s, End: e})
		}
		start = end
	}
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '\n':
			emit(i)
		case c == '.' || c == '!' || c == '?':
			j := marksEnd(text, i+1)
			if j < len(text) && !isSpaceByte(text[j]) && !strings.HasPrefix(text[j:], "\u00a0") {
				i = j - 1
				continue
			}
			if c == '.' && abbreviationBefore(text, i) {
				continue
			}
			emit(j)
			i = j - 1
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(text[i:])
			if !scriptStop(r) || lastDigitLen(text[:i]) > 0 && digitLen(text[i+size:]) > 0 {
				// Not a full stop of another script, or one between
				// digits, which would be a decimal point.
				i += size - 1
				continue
			}
			// These marks end a sentence without a space after them:
			// Chinese and Japanese put none.
			j := marksEnd(text, i+size)
			emit(j)
			i = j - 1
		}
	}
	emit(len(text))
	return out
}

// scriptStop reports whether r ends a sentence in a script other than
// Latin: the Devanagari danda and double danda, the CJK full stop and
// full-width marks, the Arabic question mark and the Urdu full stop.
func scriptStop(r rune) bool {
	switch r {
	case '।', '॥', '。', '！', '？', '؟', '۔':
		return true
	}
	return false
}

// marksEnd returns the end of the run of sentence marks, closing quotes
// and closing brackets that starts at text[i]: "?!", ".\"", "।\"", "。」".
func marksEnd(text string, i int) int {
	for i < len(text) {
		switch c := text[i]; {
		case c == '.' || c == '!' || c == '?' || c == '"' || c == ')' || c == '\'':
			i++
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(text[i:])
			switch {
			case scriptStop(r), r == '”', r == '’', r == '」', r == '』', r == '）':
				i += size
			default:
				return i
			}
		default:
			return i
		}
	}
	return i
}

func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'
}

// abbreviationBefore reports whether the "." at text[i] ends a common
// abbreviation rather than a sentence.
func abbreviationBefore(text string, i int) bool {
	j := i
	for j > 0 && (isLetter(text[j-1]) || text[j-1] == '.') {
		j--
	}
	switch strings.ToLower(text[j:i]) {
	case "e.g", "i.e", "mr", "mrs", "ms", "dr", "vs", "etc", "approx", "no", "st", "eg", "ie", "cf":
		return true
	}
	return false
}

// maskQuoted returns reply with the questions it quotes word for word
// blanked out: each question whole, and each of its sentences, with spaces
// of the same length, so that byte offsets stay those of reply.
func maskQuoted(reply string, questions []string) string {
	var b []byte
	mask := func(q string) {
		if q = strings.TrimSpace(q); len(q) < 12 {
			return // too short to be a question rather than a phrase
		}
		for from := 0; ; {
			i := strings.Index(reply[from:], q)
			if i < 0 {
				return
			}
			if b == nil {
				b = []byte(reply)
			}
			for j := from + i; j < from+i+len(q); j++ {
				b[j] = ' '
			}
			from += i + len(q)
		}
	}
	for _, q := range questions {
		mask(q)
		for _, s := range SplitSentences(q) {
			mask(s.Text)
		}
	}
	if b == nil {
		return reply
	}
	return string(b)
}

// DetectLeaks returns the sentences of c.Reply that reveal the expected
// answer, in order; none when the reply keeps it back.
//
// A sentence leaks when it states the answer or an equivalent form (3/4,
// 0.75, 75%, "three quarters", "3 out of 4", 120 mm for 12 cm) as the answer
// ("the answer is 12", "so it's 12, not 10") or as the result of a
// computation ("4 x 3 = 12", "which gives 12"). Coincidences do not count: a
// number that is a label ("Step 3") or an operand ("12 x 2"), a plain mention
// of a number from the question, and an echo of a value the learner has
// already stated ("You said 12 — let's check that") unless the tutor
// declares it the answer. Text answers leak when the reply contains them and
// neither the question nor the learner did.
func DetectLeaks(c LeakCheck) []Leak {
	if strings.TrimSpace(c.Expected.Answer) == "" || strings.TrimSpace(c.Reply) == "" {
		return nil
	}
	if slashKind(c.Expected.Kind) && spacedSlash(c.Expected.Answer) {
		// "3 / 5" is the fraction 3/5, as Evaluate reads it.
		c.Expected.Answer = closeSlashes(c.Expected.Answer)
	}
	kind := c.Expected.KindOf()
	var find func(s Sentence, toks []token) (form, reason string, ok bool)
	switch {
	case kind.Numeric():
		d, ok := newNumberLeaks(c, kind)
		if !ok {
			return nil
		}
		find = d.find
	case kind == KindExpression:
		d, ok := newExprLeaks(c)
		if !ok {
			return nil
		}
		find = d.find
		if v, ok := assignedValue(c.Expected.Answer); ok {
			// "x = 5" is also given away as "the answer is 5" or
			// "x = 10/2 = 5".
			vc := c
			vc.Expected = Expected{Answer: v, Tolerance: c.Expected.Tolerance}
			if n, ok := newNumberLeaks(vc, InferKind(v)); ok {
				find = func(s Sentence, toks []token) (string, string, bool) {
					if form, reason, ok := d.find(s, toks); ok {
						return form, reason, ok
					}
					return n.find(s, toks)
				}
			}
		}
	case kind == KindChoice:
		find = choiceLeaks(c)
	case kind == KindBoolean:
		find = booleanLeaks(c)
	case kind == KindRatio:
		find = ratioLeaks(c)
	default:
		find = textLeaks(c)
	}
	if find == nil {
		return nil
	}
	var leaks []Leak
	masked := maskEmphasis(maskQuoted(c.Reply, append([]string{c.Question}, c.Quoted...)))
	sents := SplitSentences(c.Reply)
	for k := 0; k < len(sents); k++ {
		s := sents[k]
		toks := lex(masked[s.Start:s.End])
		if k+1 < len(sents) && leadsIn(toks) {
			// "The answer is... 14!", "Answer:\n14": the answer phrase and
			// its value are read as one sentence, without the pause
			// between them.
			lead := strings.TrimRight(masked[s.Start:s.End], ".…—– ")
			s = Sentence{Text: c.Reply[s.Start:sents[k+1].End], Start: s.Start, End: sents[k+1].End}
			toks = lex(lead + strings.Repeat(" ", sents[k+1].Start-s.Start-len(lead)) + masked[sents[k+1].Start:s.End])
			k++
		} else if q := masked[s.Start:s.End]; k+1 < len(sents) && isQuestion(toks) && strings.LastIndexByte(q, '?') >= 0 && affirms(sents[k+1].Text) {
			// "Is it 14? Yes!": the question answers itself.
			at := strings.LastIndexByte(q, '?')
			q = q[:at] + " " + q[at+1:]
			next := sents[k+1]
			s = Sentence{Text: c.Reply[s.Start:next.End], Start: s.Start, End: next.End}
			toks = lex(q + masked[s.Start+len(q):s.End])
			k++
		}
		if form, reason, ok := find(s, toks); ok {
			leaks = append(leaks, Leak{Sentence: s, Form: form, Reason: reason})
		}
	}
	return leaks
}

// assignedValue returns the number an expected answer such as "x = 5"
// gives its one unknown.
func assignedValue(answer string) (string, bool) {
	name, value, ok := strings.Cut(answer, "=")
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	if !ok || len(name) != 1 || name[0] < 'a' || name[0] > 'z' || !InferKind(value).Numeric() {
		return "", false
	}
	return value, true
}

// affirms reports whether a short sentence says yes to the question
// before it: "Yes!", "Yes, it could!", "Exactly."
func affirms(sentence string) bool {
	ws := strings.Fields(strings.ToLower(sentence))
	if len(ws) == 0 || len(ws) > 5 {
		return false
	}
	for _, w := range ws {
		if w = strings.Trim(w, ".,!"); w == "not" || w == "no" || strings.HasSuffix(w, "n't") {
			return false
		}
	}
	switch strings.Trim(ws[0], ".,!") {
	case "yes", "yep", "yeah", "yup", "exactly", "correct", "right":
		return true
	}
	return false
}

// leadsIn reports whether a sentence ends in an answer phrase that waits
// for its value: "The answer is...", "Answer:".
func leadsIn(toks []token) bool {
	n := len(toks)
	for n > 0 && toks[n-1].kind == tSym && strings.Trim(toks[n-1].text, ".…—–") == "" {
		n--
	}
	return n > 0 && toks[n-1].kind != tNum && answerPhrase(toks, 0, n)
}

// maskEmphasis returns s with Markdown emphasis and code marks blanked
// out, byte for byte: "**14**", "__14__" and "`14`" read as 14, as does
// "*14*", a single asterisk that hugs a word on one side only ("3*4" and
// "3 * 4" stay products).
func maskEmphasis(s string) string {
	if !strings.ContainsAny(s, "*_`") {
		return s
	}
	b := []byte(s)
	space := func(i int) bool {
		return i < 0 || i >= len(b) || isSpaceByte(b[i]) || strings.IndexByte(".,!?;:()", b[i]) >= 0
	}
	for i := 0; i < len(b); i++ {
		switch {
		case i+1 < len(b) && (b[i] == '*' && b[i+1] == '*' || b[i] == '_' && b[i+1] == '_'):
			b[i], b[i+1] = ' ', ' '
			i++
		case b[i] == '*' && space(i-1) != space(i+1), b[i] == '`':
			b[i] = ' '
		}
	}
	return string(b)
}

// numberLeaks finds a numeric answer.
type numberLeaks struct {
	want     number
	wantUnit unit
	hasUnit  bool
	tol      float64
	// What the question and the learner said of the value, worked out
	// (by context) only for a reply that holds it: most replies do not.
	c          LeakCheck
	read       bool
	echoed     bool // the learner has stated the value
	inQuestion bool // the question holds the value
	// asked are the question's numbers of the value, as written: only a
	// reply that writes the value as the question does mentions the
	// question's number ("6/8" of "Simplify 6/8"); "3/4" gives the
	// answer.
	asked []writtenNumber
}

// writtenNumber is a number as written, with its unit.
type writtenNumber struct {
	n number
	u unit
}

// fromQuestion reports whether the number at toks[i] is written as one of
// the question's numbers of the value.
func (d *numberLeaks) fromQuestion(toks []token, i int) bool {
	n := toks[i].num
	u, _, _ := unitAt(toks, i)
	for _, q := range d.asked {
		if q.n.form == n.form && q.n.val == n.val && q.n.num == n.num && q.n.den == n.den && q.n.pct == n.pct &&
			(!q.u.known() || !u.known() || q.u.factor == u.factor && q.u.dim == u.dim) {
			return true
		}
	}
	return false
}

func newNumberLeaks(c LeakCheck, kind Kind) (*numberLeaks, bool) {
	want, u, hasUnit, ok := expectedNumber(lex(c.Expected.Answer), kind)
	if !ok {
		return nil, false
	}
	return &numberLeaks{want: want, wantUnit: u, hasUnit: hasUnit, tol: c.Expected.Tolerance, c: c}, true
}

// context works out echoed and inQuestion, once.
func (d *numberLeaks) context() {
	if d.read {
		return
	}
	d.read = true
	qt := lex(d.c.Question)
	for k, q := range qt {
		if q.kind == tNum && d.matches(qt, k) {
			d.inQuestion = true
			u, _, _ := unitAt(qt, k)
			d.asked = append(d.asked, writtenNumber{q.num, u})
		}
	}
	for _, utt := range d.c.Dialogue {
		if utt.Role == RoleStudent && d.stated(utt.Text) {
			d.echoed = true
			break
		}
	}
}

// matches reports whether the number at toks[i] is the expected value, in any
// equivalent form or unit.
func (d *numberLeaks) matches(toks []token, i int) bool {
	got := toks[i].num
	if numbersMatch(d.want, got, d.tol) {
		return true
	}
	if d.hasUnit && d.wantUnit.known() {
		// In any unit of the dimension, and as a compound quantity: "2
		// hours 30 minutes" of 150 min.
		if q, u, _, ok := quantityAt(toks, i); ok && u.known() && u.dim == d.wantUnit.dim {
			q.val = q.val * u.factor / d.wantUnit.factor
			return numbersMatch(d.want, q, d.tol)
		}
	}
	return false
}

// stated reports whether the learner's text states the value: as the answer
// it commits to, or as the result of a step ("12 + 3 = 15", "which was 30%").
func (d *numberLeaks) stated(text string) bool {
	if containsAnyFold(text, " or ", " and ") && strings.HasPrefix(Evaluate(d.c.Expected, text).Reason, "hedged") {
		return false // "is it 8 or 9?" and "8 and 9" state neither value
	}
	toks := lex(text)
	if i, _, _ := pickNumber(toks); i >= 0 && d.matches(toks, i) {
		return true
	}
	for a := 0; a < len(toks); {
		b := sentenceEnd(toks, a)
		lastEq := lastEquals(toks, a, b)
		for i := a; i < b; i++ {
			if toks[i].kind != tNum || !d.matches(toks, i) {
				continue
			}
			// Restating the question ("Aivo is 5 months older") is not
			// stating a result.
			if sc := scoreNumber(toks, a, i, lastEq, 0); sc >= scoreResult || sc == scoreWeakResult && !d.inQuestion {
				return true
			}
		}
		a = b + 1
	}
	return false
}

// lastEquals returns the index of the last "=" in toks[a:b], or -1.
func lastEquals(toks []token, a, b int) int {
	eq := -1
	for k := a; k < b; k++ {
		if toks[k].kind == tSym && toks[k].text == "=" {
			eq = k
		}
	}
	return eq
}

// find returns the first number of the sentence that reveals the answer, as
// written, and how it reveals it. Declaring a value the answer or the
// correction of a wrong one always counts; otherwise the learner's own
// values are echoes, and a number from the question counts only as the
// result of a computation.
func (d *numberLeaks) find(s Sentence, toks []token) (string, string, bool) {
	lastEq := lastEquals(toks, 0, len(toks))
	conclusion := conclusionOpeners[sentenceOpener(toks, 0, len(toks))]
	// "It is 14, right?" states the value and asks only to be agreed with.
	asks := isQuestion(toks) && !tagQuestion(toks)
	for i, t := range toks {
		if t.kind != tNum || !d.matches(toks, i) || excluded(toks, i) && !correctsTo(toks, i) && !d.replacesLearners(toks, i) {
			continue
		}
		d.context()
		if d.replacesLearners(toks, i) && !asks {
			return s.Text[t.start:t.end], "given as the correction of the learner's value", true
		}
		end := t.end
		if _, _, j, ok := quantityAt(toks, i); ok && j > i+1 {
			end = toks[j-1].end
		}
		form := s.Text[t.start:end]
		score := scoreNumber(toks, 0, i, lastEq, 0)
		switch {
		case score == scoreAnswer && !attributed(toks, i):
			return form, "stated as the answer", true
		case correctsTo(toks, i) && !attributed(toks, i):
			return form, "given as the correction of a wrong value", true
		case score >= scoreWeakResult && declaredCorrect(toks, i) && !attributed(toks, i):
			return form, "stated as the correct value", true
		case confirmedAfter(toks, i) && !d.echoed && !attributed(toks, i) && !asks:
			return form, "confirmed as correct", true
		case namesUnknown(toks, i) && !d.echoed && !asks:
			return form, "given as the unknown's value", true
		case d.echoed:
			continue
		case (whatCleft(toks, i) || exclaimed(toks, i)) && !d.fromQuestion(toks, i) && !attributed(toks, i) && !asks:
			return form, "stated as a result", true
		case d.c.OtherLanguage && !asks && !d.fromQuestion(toks, i) && !d.learnerSaid(t.num):
			// The words around the value cannot be read: a statement
			// that holds it may well say it is the answer.
			return form, "stated in a reply not in English", true
		case score <= scoreOperand:
			continue
		case score >= scoreEqEarlier && !(d.fromQuestion(toks, i) && namedEquals(toks, i)):
			return form, "result of a computation", true
		case d.fromQuestion(toks, i) || attributed(toks, i) || asks:
			// A number from the question, a quote of the learner or a
			// question back to them counts only when computed or declared.
			continue
		case score >= scoreWeakResult || conclusion && score >= scorePlain:
			return form, "stated as a result", true
		}
	}
	return "", "", false
}

// whatCleft reports whether the number at toks[i] is what a clause after
// it describes: "14 is what you get when ...", "Fourteen is what two
// groups of 7 make".
func whatCleft(toks []token, i int) bool {
	return i+2 < len(toks) && (toks[i+1].text == "is" || toks[i+1].text == "'s" || toks[i+1].text == "was") && toks[i+2].text == "what"
}

// exclaimed reports whether the number at toks[i], with its unit, is the
// whole of an exclamation: "14!", "14 apples!". A number alone before a
// full stop may be a list's ("2. Add the ones."), and is not read so.
func exclaimed(toks []token, i int) bool {
	j := i + 1
	if _, _, end, ok := quantityAt(toks, i); ok && end > j {
		j = end
	}
	for k := 0; k < i; k++ {
		if toks[k].kind != tSym || isSentenceEnd(toks[k]) {
			return false
		}
	}
	if j >= len(toks) || toks[j].text != "!" {
		return false
	}
	for ; j < len(toks); j++ {
		if toks[j].kind != tSym {
			return false
		}
	}
	return true
}

// tagWords may make up the tag of a question that states something and
// asks to be agreed with: "..., right?", "..., isn't it?".
var tagWords = map[string]bool{
	"right": true, "correct": true, "yes": true, "yeah": true, "ok": true, "okay": true,
	"isn't": true, "it": true, "true": true, "agreed": true, "no": true,
}

// tagQuestion reports whether a question is a statement with a tag:
// "It is 14, right?", "It's 14, isn't it?".
func tagQuestion(toks []token) bool {
	n := len(toks) - 1 // the "?"
	k := n - 1
	for k >= 0 && k >= n-3 && toks[k].kind == tWord && tagWords[toks[k].text] {
		k--
	}
	return k >= 1 && k < n-1 && toks[k].text == ","
}

// namesUnknown reports whether the number at toks[i] is said to be the
// value of a one-letter unknown: "x equals 5", "so x is 5", "the value of
// x is 5".
func namesUnknown(toks []token, i int) bool {
	k := i - 1
	for k >= 0 && toks[k].kind == tWord && fillers[toks[k].text] {
		k--
	}
	if k < 1 || toks[k].text != "is" && toks[k].text != "equals" {
		return false
	}
	v := toks[k-1].text
	return toks[k-1].kind == tWord && len(v) == 1 && v[0] >= 'a' && v[0] <= 'z' && v != "a" && v != "i"
}

// namedEquals reports whether the number at toks[i] follows "=" after a
// quantity's name, not a computation: "width = 4 cm" restates a given.
func namedEquals(toks []token, i int) bool {
	eq := prevEquals(toks, 0, i)
	return eq > 0 && toks[eq-1].kind == tWord && len(toks[eq-1].text) > 1
}

// correctsTo reports whether the number at toks[i] is offered in place of
// another: "163, not 197", "$100 instead of $1".
func correctsTo(toks []token, i int) bool {
	j := i + 1
	for j < len(toks) && j <= i+3 && toks[j].kind == tWord && !isNegator(toks[j].text) && toks[j].text != "instead" && toks[j].text != "rather" {
		j++ // a unit
	}
	if j < len(toks) && toks[j].text == "," {
		j++
	}
	switch {
	case j+1 < len(toks) && toks[j].text == "not":
		j++
	case j+2 < len(toks) && (toks[j].text == "instead" || toks[j].text == "rather") && (toks[j+1].text == "of" || toks[j+1].text == "than"):
		j += 2
	default:
		return false
	}
	return j < len(toks) && toks[j].kind == tNum && !sameValue(toks[j].num, toks[i].num)
}

// replacesLearners reports whether the number at toks[i] is put in the
// place of another that the learner gave: "not 12 but 14", "you said 12
// instead of 14", "12 rather than 14". The other way round ("14 instead of
// 12") is correctsTo's; "instead of 14" alone sets 14 aside.
func (d *numberLeaks) replacesLearners(toks []token, i int) bool {
	k := i - 1
	switch {
	case k >= 1 && toks[k].text == "but":
		k--
	case k >= 2 && toks[k].text == "of" && toks[k-1].text == "instead",
		k >= 2 && toks[k].text == "than" && toks[k-1].text == "rather":
		k -= 2
	default:
		return false
	}
	if k >= 0 && toks[k].text == "," {
		k--
	}
	for n := 0; k >= 0 && n < 2 && toks[k].kind == tWord && !isNegator(toks[k].text); n++ {
		k-- // a unit: "not 12 apples but 14"
	}
	if k < 0 || toks[k].kind != tNum || sameValue(toks[k].num, toks[i].num) {
		return false
	}
	if toks[i-1].text == "but" {
		return k > 0 && isNegator(toks[k-1].text) // "not 12 but 14"
	}
	return d.learnerSaid(toks[k].num)
}

// learnerSaid reports whether one of the learner's messages holds the
// number n.
func (d *numberLeaks) learnerSaid(n number) bool {
	for _, utt := range d.c.Dialogue {
		if utt.Role != RoleStudent {
			continue
		}
		for _, t := range lex(utt.Text) {
			if t.kind == tNum && sameValue(t.num, n) {
				return true
			}
		}
	}
	return false
}

// declaredCorrect reports whether the sentence calls the value correct
// before stating it: "the correct total would be ... 780", "the right
// amount is 12". "You're correct that ..." affirms the learner instead.
func declaredCorrect(toks []token, i int) bool {
	for k := i - 1; k > 0; k-- {
		switch toks[k].text {
		case "correct", "right", "actual":
			if p := toks[k-1].text; p == "the" || p == "a" || p == "an" {
				return true
			}
		}
	}
	return false
}

// confirmedAfter reports whether the sentence calls the number at
// toks[i] right after stating it: "16 is right", "16 is the correct answer".
func confirmedAfter(toks []token, i int) bool {
	for k, n := i+1, 0; k < len(toks) && n < 5; k, n = k+1, n+1 {
		switch toks[k].text {
		case "is", "was", "would", "be", "'s", "indeed", "definitely", "the", "a", "—", "–", "that's", "thats", "that", "which":
			continue
		case "right", "correct", "answer":
			return true
		}
		if toks[k].kind == tWord && fillers[toks[k].text] {
			continue
		}
		return false
	}
	return false
}

// attributed reports whether the sentence credits the number to the learner:
// "you said 12", "your answer of 12", "you got 12".
func attributed(toks []token, i int) bool {
	for k := i - 1; k >= 0 && k >= i-8; k-- {
		if isClauseEnd(toks[k]) || toks[k].kind == tNum {
			// "You said 16, but it's 8", "your 16 should be 8": the
			// learner's words end before this number.
			return false
		}
		switch toks[k].text {
		case "your":
			return true
		case "you", "you've", "you'd":
			if k+1 < i {
				switch toks[k+1].text {
				case "said", "got", "found", "calculated", "wrote", "mentioned", "had", "computed", "answered",
					"put", "gave", "came", "initially", "originally", "first", "correctly", "did", "worked", "have", "figured", "arrived", "used", "already", "just":
					return true
				}
			}
		}
	}
	return false
}

// isQuestion reports whether a sentence asks rather than tells.
func isQuestion(toks []token) bool {
	return len(toks) > 0 && toks[len(toks)-1].kind == tSym && toks[len(toks)-1].text == "?"
}

// exprLeaks finds an algebraic answer.
type exprLeaks struct {
	want   []assignment
	vars   string
	echoed bool
}

func newExprLeaks(c LeakCheck) (*exprLeaks, bool) {
	etoks := lex(c.Expected.Answer)
	vars, ok := exprVars(etoks)
	if !ok {
		return nil, false
	}
	want, ok := parseExpected(etoks, vars)
	if !ok {
		return nil, false
	}
	d := &exprLeaks{want: want, vars: vars}
	for _, u := range c.Dialogue {
		if u.Role == RoleStudent {
			if _, ok := d.match(lex(u.Text)); ok {
				d.echoed = true
			}
		}
	}
	if _, ok := d.match(lex(c.Question)); ok {
		d.echoed = true
	}
	return d, true
}

func (d *exprLeaks) match(toks []token) (exprRun, bool) {
	for _, r := range exprRuns(toks, d.vars) {
		if r.negated || r.to-r.from < 1 {
			continue
		}
		rt := runTokens(toks, r)
		for _, w := range d.want {
			if len(d.want) == 1 && w.v == 0 && !w.equation && !runHasVar(toks, r, d.vars) && len(d.vars) > 0 {
				continue // a bare number is not the expression
			}
			var e expr
			var ok bool
			if w.v != 0 && len(rt) > 2 && rt[0].text == string(w.v) && rt[1].text == "=" {
				e, ok = parseExpr(rt[2:], d.vars)
			} else {
				e, ok = parseRun(toks, r, d.vars, w.equation)
				if w.v != 0 && !w.equation {
					continue // a value for x must be given as "x = ..."
				}
			}
			if ok && equivalent(w.e, e, w.equation) {
				return r, true
			}
		}
	}
	return exprRun{}, false
}

func (d *exprLeaks) find(s Sentence, toks []token) (string, string, bool) {
	if d.echoed {
		return "", "", false
	}
	if r, ok := d.match(toks); ok {
		return s.Text[toks[r.from].start:toks[r.to-1].end], "states the expression", true
	}
	return "", "", false
}

// choiceLeaks finds the right option named as the answer ("the answer is B",
// "B is correct"); naming an option while discussing it is not a leak.
func choiceLeaks(c LeakCheck) func(Sentence, []token) (string, string, bool) {
	want, ok := choiceLetter(c.Expected.Answer)
	if !ok {
		want = -1
		ew := normalize(lex(c.Expected.Answer))
		for i, o := range c.Expected.Options {
			if equalWords(ew, normalize(lex(o))) {
				want = i
			}
		}
	}
	if want < 0 {
		return textLeaks(c)
	}
	for _, u := range c.Dialogue {
		if u.Role != RoleStudent {
			continue
		}
		r := Evaluate(Expected{Answer: c.Expected.Answer, Kind: KindChoice, Options: c.Expected.Options}, u.Text)
		if r.Verdict == Correct {
			return nil // the learner chose it already
		}
	}
	return func(s Sentence, toks []token) (string, string, bool) {
		for _, m := range choiceMentions(s.Text, toks, c.Expected.Options) {
			if m.idx != want || m.excluded {
				continue
			}
			if declared(toks, m.tok) {
				return s.Text[m.span[0]:m.span[1]], "stated as the answer", true
			}
		}
		return "", "", false
	}
}

// declared reports whether the mention at toks[i] is declared the answer:
// "the answer is B", "B is correct", "it's B".
func declared(toks []token, i int) bool {
	for k := i - 1; k >= 0 && k >= i-4; k-- {
		w := toks[k].text
		if w == "answer" || w == "it's" || w == "correct" || w == "right" {
			return true
		}
		// "it is true", "the statement is false"
		if w == "is" && k > 0 && (toks[k-1].text == "it" || toks[k-1].text == "statement") {
			return true
		}
		// "pick C", "go with option C", "choose B"
		if pickWords[w] && (k == i-1 || k == i-2 && toks[i-1].text == "option") && !isQuestion(toks) {
			return true
		}
		if toks[k].kind == tSym && (toks[k].text == "(" || toks[k].text == ":") {
			continue // "the answer is (C)", "Answer: C"
		}
		if isClauseEnd(toks[k]) {
			break
		}
	}
	j := i + 1
	if j < len(toks) && toks[j].text == ")" {
		j++
	}
	if j+1 < len(toks) && (toks[j].text == "is" || toks[j].text == "was") {
		switch toks[j+1].text {
		case "correct", "right", "the":
			return true
		}
	}
	return false
}

// pickWords recommend an option: "pick C", "go with option C".
var pickWords = map[string]bool{"pick": true, "choose": true, "select": true, "with": true}

// booleanLeaks finds a yes/no answer declared outright: "the answer is yes",
// "it's true".
func booleanLeaks(c LeakCheck) func(Sentence, []token) (string, string, bool) {
	want, _, ok := boolValue(lex(c.Expected.Answer))
	if !ok {
		return nil
	}
	for _, u := range c.Dialogue {
		if u.Role == RoleStudent {
			if got, _, ok := boolValue(afterPromptLabel(lex(u.Text))); ok && got == want {
				return nil
			}
		}
	}
	return func(s Sentence, toks []token) (string, string, bool) {
		for i, t := range toks {
			v, ok := boolWord(t.text)
			if !ok || !(strongYes[t.text] || strongNo[t.text]) || i == 0 {
				continue
			}
			if i > 0 && isNegator(toks[i-1].text) {
				v = !v
			}
			if v == want && declared(toks, i) {
				return s.Text[t.start:t.end], "stated as the answer", true
			}
		}
		return "", "", false
	}
}

// ratioLeaks finds a ratio answer stated in any of its written forms
// ("3:5", "3 to 5", "three is to five", and 3/5 for a two-term ratio). An
// equivalent ratio is no leak: the question often holds one ("Simplify
// 15 : 25"); nor is the ratio when the question holds it. Once the learner
// has stated it, only declaring it the answer counts ("The answer is 3:5"),
// as for numbers.
func ratioLeaks(c LeakCheck) func(Sentence, []token) (string, string, bool) {
	etoks := lex(c.Expected.Answer)
	runs := ratioRuns(etoks)
	if len(runs) == 0 {
		return textLeaks(c)
	}
	want := ratioTerms(etoks, runs[0])
	find := func(toks []token) []ratioRun {
		var out []ratioRun
		for _, r := range candidates(toks) {
			if got := candidateTerms(toks, r); slices.EqualFunc(want, got, func(a, b float64) bool { return closeEnough(a, b, 0) }) {
				out = append(out, r)
			}
		}
		return out
	}
	if len(find(lex(c.Question))) > 0 {
		return nil
	}
	echoed := false
	for _, u := range c.Dialogue {
		if u.Role == RoleStudent && len(find(lex(u.Text))) > 0 {
			echoed = true
		}
	}
	return func(s Sentence, toks []token) (string, string, bool) {
		lastEq := lastEquals(toks, 0, len(toks))
		for _, r := range find(toks) {
			form := s.Text[toks[r.first].start:toks[r.last].end]
			switch {
			case attributed(toks, r.first):
			case scoreNumber(toks, 0, r.first, lastEq, 0) == scoreAnswer || declaredCorrect(toks, r.first):
				return form, "stated as the answer", true
			case !echoed && !isQuestion(toks):
				return form, "states the ratio", true
			}
		}
		return "", "", false
	}
}

// textLeaks finds a text answer (or any accepted form) that neither the
// question nor the learner has used.
func textLeaks(c LeakCheck) func(Sentence, []token) (string, string, bool) {
	// The words of a gloss ("Halving (dividing by 2)") may explain the
	// answer without giving it: only the whole answer is looked for.
	cands := textCandidates(c.Expected, false)
	q := normalize(lex(c.Question))
	var said [][]normWord
	for _, u := range c.Dialogue {
		if u.Role == RoleStudent {
			said = append(said, normalize(lex(u.Text)))
		}
	}
	live := cands[:0:0]
	for _, cand := range cands {
		if len(cand) > maxTextWords || findWordsAny(q, cand, 0) >= 0 {
			continue
		}
		echoed := false
		for _, s := range said {
			if findWordsAny(s, cand, 0) >= 0 {
				echoed = true
			}
		}
		if !echoed {
			live = append(live, cand)
		}
	}
	if len(live) == 0 {
		return nil
	}
	return func(s Sentence, toks []token) (string, string, bool) {
		got := normalize(toks)
		for _, cand := range live {
			if k := findWords(got, cand, 0); k >= 0 {
				return s.Text[got[k].start:got[k+len(cand)-1].end], "states the answer", true
			}
		}
		return "", "", false
	}
}
