package answer

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokKind is the class of a token.
type tokKind uint8

const (
	tWord tokKind = iota + 1 // letters, with inner apostrophes: "it's"
	tNum                     // a number in any written form: 1,200  -3.5  3/4  1 1/2  75%  "three quarters"
	tSym                     // one symbol; "\n" marks a line break
)

// numForm records how a number was written, which matters for "simplest form"
// and for rounding comparisons.
type numForm uint8

const (
	fInt numForm = iota + 1
	fDec
	fFrac
	fMixed
)

// number is a number as written in a text.
type number struct {
	val      float64 // the value as written: 75 for "75%"
	num, den int64   // the exact value num/den when den > 0, as written (6/8 stays 6/8)
	form     numForm
	decimals int    // digits after the decimal point
	pct      bool   // written as a percentage
	word     bool   // written in words
	cur      string // currency symbol written before it
	outOf    bool   // written "3 out of 4": a proportion, or a count of 3
	scale    int64  // written as a count of a scale word: 1000 for "5 thousand", 100000 for "2.5 lakh"
}

// amount is the quantity the number stands for: 75% is 0.75.
func (n number) amount() float64 {
	if n.pct {
		return n.val / 100
	}
	return n.val
}

// token is one lexical unit of a text. Offsets index the original text so
// that callers can report spans; text is lower-cased (ASCII only, so that
// offsets stay valid), with the digits of other scripts written in ASCII
// ("४२" is "42"), so that only start and end index the original text.
type token struct {
	kind       tokKind
	start, end int
	text       string
	num        number
}

// lexer limits: the evaluator never needs more than this, and a hard bound
// keeps hostile input from costing more than linear time and bounded memory.
const maxTokens = 4096

// lex splits s into tokens and folds number words ("twenty-five", "three
// quarters", "3 out of 4", "75 percent") into number tokens.
func lex(s string) []token {
	// Room for a token per four bytes, which most texts need no more
	// than: one allocation instead of a doubling series. Past 256 tokens
	// the slice grows as it must, so that a long text of few tokens does
	// not take room for thousands.
	return appendTokens(make([]token, 0, min(256, len(s)/4+1)), s)
}

// appendTokens is lex appending to dst, so that callers can lex short texts
// into a buffer on their stack.
func appendTokens(dst []token, s string) []token {
	if toks, ok := appendTokensASCII(dst, s); ok {
		return toks
	}
	return appendScriptDigits(dst, s)
}

// appendTokensASCII is appendTokens for a text whose digits are all ASCII.
// It reports false, its tokens unfinished, at a digit of another script.
func appendTokensASCII(dst []token, s string) ([]token, bool) {
	low := lowerASCII(s)
	toks := dst[:0]
	for i := 0; i < len(low) && len(toks) < maxTokens; {
		c := low[i]
		switch {
		case c == '\n':
			if n := len(toks); n == 0 || toks[n-1].text != "\n" {
				toks = append(toks, token{kind: tSym, start: i, end: i + 1, text: "\n"})
			}
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '.' && i+1 < len(low) && isDigit(low[i+1]) && abbrevDot(toks, i):
			i++ // "Rs.500" is "Rs 500" and "Ans.5" is "Ans 5", not "Rs" and 0.5
		case c == '-' && labelDash(toks, low, i, 1):
			i++ // "Ans - 5" and "Ans-5" are "Ans 5", not "Ans" and -5
		case c == "–"[0] && strings.HasPrefix(low[i:], "–") && labelDash(toks, low, i, len("–")):
			i += len("–") // the dash of phone keyboards: "Ans – 5"
		case isDigit(c) || (c == '.' && i+1 < len(low) && isDigit(low[i+1]) && (i == 0 || !isDigit(low[i-1]))):
			toks, i = lexNumber(toks, low, i)
		case c < utf8.RuneSelf:
			if isLetter(c) {
				toks, i = lexWord(toks, low, i)
				toks, i = unitPower(toks, low, i)
				continue
			}
			toks = append(toks, token{kind: tSym, start: i, end: i + 1, text: low[i : i+1]})
			i++
		default:
			r, size := utf8.DecodeRuneInString(low[i:])
			if f, ok := vulgarFractions[r]; ok {
				toks = appendVulgar(toks, low, i, i+size, f)
				i += size
				continue
			}
			switch {
			case unicode.IsLetter(r):
				toks, i = lexWord(toks, low, i)
				continue
			case unicode.IsDigit(r):
				return nil, false
			case unicode.IsSpace(r):
			default:
				toks = append(toks, token{kind: tSym, start: i, end: i + size, text: symText(r, low[i:i+size])})
			}
			i += size
		}
	}
	return foldWords(low, toks), true
}

// appendScriptDigits is appendTokens for a text that writes digits of
// another script than ASCII: "४२" in Devanagari, as Hindi-medium learners
// and a model answering in Hindi write 42, or the full-width "４２". It
// lexes the text with those digits in ASCII, which every rule of the lexer
// reads, and moves the tokens' offsets back onto s, so that what callers
// quote or redact is what was written.
func appendScriptDigits(dst []token, s string) []token {
	b := make([]byte, 0, len(s))
	at := make([]int, 0, len(s)+1) // at[k] is the offset in s of b[k]
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if d, ok := digitValue(r); ok {
			b, at = append(b, '0'+d), append(at, i)
		} else {
			for k := range size {
				b, at = append(b, s[i+k]), append(at, i+k)
			}
		}
		i += size
	}
	at = append(at, len(s))
	toks, _ := appendTokensASCII(dst, string(b))
	for k := range toks {
		toks[k].start, toks[k].end = at[toks[k].start], at[toks[k].end]
	}
	return toks
}

// digitValue returns the value of a decimal digit of any script (Unicode
// category Nd): ४ and ４ are 4. Unicode encodes each script's digits in a
// run of ten code points from its zero, so each range of unicode.Nd starts
// at a zero.
func digitValue(r rune) (byte, bool) {
	for _, g := range unicode.Nd.R16 {
		if rune(g.Lo) <= r && r <= rune(g.Hi) {
			return byte((r - rune(g.Lo)) % 10), true
		}
	}
	for _, g := range unicode.Nd.R32 {
		if rune(g.Lo) <= r && r <= rune(g.Hi) {
			return byte((r - rune(g.Lo)) % 10), true
		}
	}
	return 0, false
}

// abbrevDot reports whether the "." at s[i] ends an "Rs" or an
// "Ans" written right before it: "Rs.500", "Ans.5" (the notebook's
// abbreviation of "answer").
func abbrevDot(toks []token, i int) bool {
	p := len(toks) - 1
	return p >= 0 && toks[p].kind == tWord && toks[p].end == i && (toks[p].text == "rs" || toks[p].text == "ans" || toks[p].text == "answer")
}

// labelDash reports whether the dash s[i:i+w] follows an "Ans" or "answer"
// that starts a line, as the label of the answer after it: "Ans - 5",
// "Ans-5", "Ans- 5", "Ans - -5", "so ans - 5". A dash spaced off the label
// but touching the number ("Ans -5") is its sign.
func labelDash(toks []token, s string, i, w int) bool {
	p := len(toks) - 1
	if p < 0 || toks[p].kind != tWord || toks[p].text != "ans" && toks[p].text != "answer" || !opensLine(toks, p) {
		return false
	}
	k := hspace(s, i+w)
	if toks[p].end != i && k == i+w {
		return false
	}
	return k < len(s) && (isDigit(s[k]) || s[k] == '-' && k+1 < len(s) && isDigit(s[k+1]))
}

// opensLine reports whether toks[p] starts a line, or follows a conclusion
// word that does ("so", "hence"), with or without the comma it usually
// takes: a learner who concludes with a label ("so ans - 5", "So, ans - 5")
// still labels the answer, where "my answer - 5" is a subtraction.
func opensLine(toks []token, p int) bool {
	c := p
	if c > 0 && toks[c-1].kind == tSym && toks[c-1].text == "," {
		c--
	}
	if c > 0 && toks[c-1].kind == tWord && conclusionOpeners[toks[c-1].text] {
		p = c - 1
	}
	return p == 0 || toks[p-1].text == "\n"
}

// unitPower appends the power of a unit written as a plain digit right
// after it, "cm2" and "m3" for cm² and m³, as the symbol it stands for.
// The word before it must be a unit that has the power ("co2" is a
// formula), and the digit must stand alone ("cm23" is not a power).
func unitPower(toks []token, s string, i int) ([]token, int) {
	if i >= len(s) || s[i] != '2' && s[i] != '3' || i+1 < len(s) && (isDigit(s[i+1]) || isLetter(s[i+1]) || s[i+1] == '.' && i+2 < len(s) && isDigit(s[i+2])) {
		return toks, i
	}
	w := toks[len(toks)-1].text
	if _, ok := unitTable[w+"^"+s[i:i+1]]; !ok {
		return toks, i
	}
	sym := "²"
	if s[i] == '3' {
		sym = "³"
	}
	return append(toks, token{kind: tSym, start: i, end: i + 1, text: sym}), i + 1
}

// vulgarFractions are the single-character fractions: ½, ⅚.
var vulgarFractions = map[rune][2]int64{
	'½': {1, 2}, '⅓': {1, 3}, '⅔': {2, 3}, '¼': {1, 4}, '¾': {3, 4}, '⅕': {1, 5}, '⅖': {2, 5},
	'⅗': {3, 5}, '⅘': {4, 5}, '⅙': {1, 6}, '⅚': {5, 6}, '⅐': {1, 7}, '⅛': {1, 8}, '⅜': {3, 8},
	'⅝': {5, 8}, '⅞': {7, 8}, '⅑': {1, 9}, '⅒': {1, 10},
}

// appendVulgar appends the vulgar fraction f written at s[i:end], joining
// it to a whole number written right before it: "3⅚" and "3 ⅚" are 3 5/6.
func appendVulgar(toks []token, s string, i, end int, f [2]int64) []token {
	n := number{val: float64(f[0]) / float64(f[1]), num: f[0], den: f[1], form: fFrac}
	if p := len(toks) - 1; p >= 0 && toks[p].kind == tNum && strings.TrimLeft(s[toks[p].end:i], " ") == "" {
		w := toks[p].num
		if w.form == fInt && !w.pct && !w.outOf && w.den == 1 && abs64(w.num) < math.MaxInt32 {
			num := w.num*f[1] + f[0]
			if w.num < 0 {
				num = w.num*f[1] - f[0]
			}
			w.val, w.num, w.den, w.form = float64(num)/float64(f[1]), num, f[1], fMixed
			toks[p].num, toks[p].end, toks[p].text = w, end, s[toks[p].start:end]
			return toks
		}
	}
	return append(toks, token{kind: tNum, start: i, end: end, text: s[i:end], num: n})
}

// symText maps typographic variants of operators and quotes to one spelling.
func symText(r rune, raw string) string {
	switch r {
	case '−', '–', '‐', '‑':
		return "-"
	case '×', '·', '⋅', '∙':
		return "*"
	case '÷', '⁄', '∕':
		return "/"
	case '∶': // the ratio sign, as in 3∶5
		return ":"
	case '²':
		return "²"
	}
	return raw
}

func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// lexWord reads letters with inner apostrophes ("don't", "it’s").
func lexWord(toks []token, s string, i int) ([]token, int) {
	start := i
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsLetter(r) {
			i += size
			continue
		}
		// Inner hyphens join words ("post-it", "second-hand") but not
		// single letters, which are variables ("x-y").
		if r == '-' && i-start >= 2 && i+2 < len(s) && isLetter(s[i+1]) && isLetter(s[i+2]) {
			i++
			continue
		}
		if (r == '\'' || r == '’') && i > start && i+size < len(s) {
			if next, _ := utf8.DecodeRuneInString(s[i+size:]); unicode.IsLetter(next) {
				i += size
				continue
			}
		}
		break
	}
	text := s[start:i]
	if strings.Contains(text, "’") {
		text = strings.ReplaceAll(text, "’", "'") // "it’s" reads as "it's"
	}
	return append(toks, token{kind: tWord, start: start, end: i, text: text}), i
}

// digitLen returns the length of the decimal digit, of any script, that
// s starts with: 1 for "4", 3 for "४"; 0 when it starts with none. The
// checks that read a reply's text around the lexer use it, as the lexer
// reads every script's digits.
func digitLen(s string) int {
	if s == "" || s[0] < utf8.RuneSelf && !isDigit(s[0]) {
		return 0
	}
	r, size := utf8.DecodeRuneInString(s)
	if !unicode.IsDigit(r) {
		return 0
	}
	return size
}

// lastDigitLen is digitLen for the digit that s ends with.
func lastDigitLen(s string) int {
	if s == "" || s[len(s)-1] < utf8.RuneSelf && !isDigit(s[len(s)-1]) {
		return 0
	}
	r, size := utf8.DecodeLastRuneInString(s)
	if !unicode.IsDigit(r) {
		return 0
	}
	return size
}

// digits reads a run of ASCII digits starting at i.
func digits(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

// lexNumber reads a numeral at i: thousands separators, decimals, a fraction
// written without spaces (3/4), a mixed number (1 1/2), a percent sign, an
// ordinal suffix (3rd, which is not a quantity), and a sign or currency
// symbol written right before it.
func lexNumber(toks []token, s string, i int) ([]token, int) {
	start := i
	var mant uint64
	overflow := false
	nd := 0 // significant digits read
	addDigit := func(c byte) {
		if mant > (math.MaxInt64-9)/10 {
			overflow = true
			return
		}
		mant = mant*10 + uint64(c-'0')
		nd++
	}
	j := i
	for j < len(s) && isDigit(s[j]) {
		addDigit(s[j])
		j++
	}
	// Thousands separators: 1,200 and 12,345,678 but not "2,3" (a list);
	// and the Indian grouping, lakhs and crores in pairs before the last
	// three digits: 1,20,000 and 12,34,56,789 but not "12,34" (a list).
	if k := indianGroups(s, i, j); k > j {
		for ; j < k; j++ {
			if s[j] != ',' {
				addDigit(s[j])
			}
		}
	} else if j-i <= 3 && j > i {
		for j+4 <= len(s) && s[j] == ',' && isDigit(s[j+1]) && isDigit(s[j+2]) && isDigit(s[j+3]) &&
			(j+4 == len(s) || !isDigit(s[j+4])) {
			for k := j + 1; k < j+4; k++ {
				addDigit(s[k])
			}
			j += 4
		}
	}
	n := number{form: fInt}
	if j+1 < len(s) && s[j] == '.' && isDigit(s[j+1]) {
		j++
		for j < len(s) && isDigit(s[j]) {
			if n.decimals < 18 {
				addDigit(s[j])
				n.decimals++
			}
			j++
		}
		n.form = fDec
	}
	if overflow {
		v, err := strconv.ParseFloat(stripCommas(s[start:j]), 64)
		if err != nil || math.IsInf(v, 0) {
			v = math.MaxFloat64
		}
		n.val = v
	} else {
		n.num = int64(mant)
		n.den = pow10i(n.decimals)
		n.val = float64(mant) / math.Pow10(n.decimals)
	}
	// Ordinals (3rd, 21st) are positions, not quantities.
	if j+2 <= len(s) && n.form == fInt && isOrdinalSuffix(s[j:j+2]) && (j+2 == len(s) || !isLetter(s[j+2])) {
		return append(toks, token{kind: tWord, start: start, end: j + 2, text: s[start : j+2]}), j + 2
	}
	if n.form == fInt && !overflow {
		// A fraction written without spaces: 3/4, and 3⁄4 with the
		// fraction slash.
		if w := slashLen(s, j); w > 0 && j+w < len(s) && isDigit(s[j+w]) {
			k := digits(s, j+w)
			if d, ok := atoi(s[j+w : k]); ok && (k == len(s) || s[k] != '.' || k+1 == len(s) || !isDigit(s[k+1])) {
				// A zero denominator gives an infinite (or NaN) value, which
				// equals nothing: "1/0" is a wrong answer, not a non-answer.
				n = number{val: float64(n.num) / float64(d), num: n.num, den: d, form: fFrac}
				j = k
			}
		} else if f := hspace(s, j); f > j && f+1 < len(s) && isDigit(s[f]) {
			// A mixed number: 1 1/2 (a proper fraction after a whole
			// number), with any run of spaces between: "2  1/2", and the
			// no-break space of phone keyboards.
			k := digits(s, f)
			if w := slashLen(s, k); w > 0 && k+w < len(s) && isDigit(s[k+w]) {
				m := digits(s, k+w)
				a, ok1 := atoi(s[f:k])
				b, ok2 := atoi(s[k+w : m])
				if ok1 && ok2 && b > 0 && a < b && n.num < math.MaxInt32 && b < math.MaxInt32 {
					num := n.num*b + a
					n = number{val: float64(num) / float64(b), num: num, den: b, form: fMixed}
					j = m
				}
			}
		} else if mixed, m, ok := hyphenMixed(toks, s, j, n); ok {
			n, j = mixed, m
		}
	}
	end := j
	k := j
	for k < len(s) && s[k] == ' ' {
		k++
	}
	if k < len(s) && s[k] == '%' {
		n.pct = true
		end = k + 1
	}
	tk := token{kind: tNum, start: start, end: end, text: s[start:end], num: n}
	// A sign or a currency symbol written right before the digits.
	for range 2 {
		p := len(toks) - 1
		if p < 0 || toks[p].kind != tSym || toks[p].end != tk.start && !spacedSign(s, toks, p, tk.start) {
			break
		}
		switch sym := toks[p].text; {
		case sym == "-" && tk.num.val >= 0 && signPosition(toks, p):
			tk.num = negate(tk.num)
		case sym == "+" && signPosition(toks, p):
			// An explicit positive sign, as integer lessons write: "+72".
		case isCurrency(sym) && tk.num.cur == "":
			tk.num.cur = sym
		default:
			p = -1
		}
		if p < 0 {
			break
		}
		tk.start = toks[p].start
		toks = toks[:p]
	}
	return append(toks, tk), end
}

// hyphenMixed reads a mixed number written with a hyphen or a dash between
// its whole number n (the digits before s[j]) and a proper fraction: "2-1/2"
// and "2–1/2" are 2 1/2, as learners write it. It returns the number and the
// index after it. A subtraction or a range keeps its reading: the dash must
// touch both numbers, the fraction must be proper, and neither side may
// continue a computation ("5-2-1/2", "2-1/2=3/2", "2-1/2+1"); "2 - 1/2"
// and "-1/2" are not of this shape.
func hyphenMixed(toks []token, s string, j int, n number) (number, int, bool) {
	if n.num < 1 || n.num >= math.MaxInt32 {
		return n, j, false
	}
	w := 0
	switch {
	case j < len(s) && s[j] == '-':
		w = 1
	case strings.HasPrefix(s[j:], "–"), strings.HasPrefix(s[j:], "‐"), strings.HasPrefix(s[j:], "‑"):
		w = len("–")
	default:
		return n, j, false
	}
	k := digits(s, j+w)
	bar := slashLen(s, k)
	if k == j+w || bar == 0 || k+bar >= len(s) || !isDigit(s[k+bar]) {
		return n, j, false
	}
	m := digits(s, k+bar)
	a, ok1 := atoi(s[j+w : k])
	b, ok2 := atoi(s[k+bar : m])
	if !ok1 || !ok2 || a < 1 || a >= b || b >= math.MaxInt32 {
		return n, j, false
	}
	if p := len(toks) - 1; p >= 0 {
		// "5-2-1/2", "(3)-1/2", "10 / 2-1/2": a computation.
		if prev := toks[p]; prev.kind == tNum || prev.kind == tSym && (prev.text == ")" || isOperatorSym(prev.text) && !signPosition(toks, p)) {
			return n, j, false
		}
	}
	rest := strings.TrimLeft(s[m:], " ")
	if rest != "" {
		r, _ := utf8.DecodeRuneInString(rest)
		if strings.ContainsRune("=+-*/^×÷−–‐‑.,", r) && (r != '.' && r != ',' || len(rest) > 1 && isDigit(rest[1])) || isDigit(rest[0]) {
			// "2-1/2=3/2", "2-1/2+1", "2-1/2.5": a computation or
			// something else.
			return n, j, false
		}
	}
	num := n.num*b + a
	return number{val: float64(num) / float64(b), num: num, den: b, form: fMixed}, m, true
}

// indianGroups returns the end of a number written in the Indian grouping
// whose first digits are s[i:j]: one or two digits, groups of two, and a
// last group of three ("1,20,000", "12,34,56,789"); j when there is none.
// A last group followed by more digits after a comma ("1,20,000,000") is
// no grouping of either kind, and is read as before.
func indianGroups(s string, i, j int) int {
	if j-i < 1 || j-i > 2 || i >= 2 && s[i-1] == ',' && isDigit(s[i-2]) {
		return j // in a list: "5,1,20,000"
	}
	end, pairs := j, 0
	for j+3 < len(s) && s[j] == ',' && isDigit(s[j+1]) && isDigit(s[j+2]) && s[j+3] == ',' {
		j += 3
		pairs++
	}
	if pairs == 0 || j+4 > len(s) || s[j] != ',' || !isDigit(s[j+1]) || !isDigit(s[j+2]) || !isDigit(s[j+3]) ||
		j+4 < len(s) && (isDigit(s[j+4]) || s[j+4] == ',' && j+5 < len(s) && isDigit(s[j+5])) {
		return end
	}
	return j + 4
}

// hspace returns the end of the run of horizontal whitespace at s[i]:
// spaces, tabs, the no-break space U+00A0 and the narrow no-break space
// U+202F; i when there is none.
func hspace(s string, i int) int {
	for i < len(s) {
		switch {
		case s[i] == ' ' || s[i] == '\t':
			i++
		case strings.HasPrefix(s[i:], "\u00a0"):
			i += len("\u00a0")
		case strings.HasPrefix(s[i:], "\u202f"):
			i += len("\u202f")
		default:
			return i
		}
	}
	return i
}

// slashLen returns the length of the fraction bar at s[i]: "/", the
// fraction slash "⁄" or the division slash "∕"; 0 when there is none.
func slashLen(s string, i int) int {
	switch {
	case i < len(s) && s[i] == '/':
		return 1
	case strings.HasPrefix(s[i:], "⁄") || strings.HasPrefix(s[i:], "∕"):
		return len("⁄")
	}
	return 0
}

func isOrdinalSuffix(s string) bool { return s == "st" || s == "nd" || s == "rd" || s == "th" }

func isCurrency(s string) bool { return s == "$" || s == "£" || s == "€" || s == "₹" || s == "¥" }

// signPosition reports whether the "-" or "+" at toks[p] is a sign rather
// than a subtraction or an addition: it starts the text or follows a symbol other than ")" or a word
// that is not a one-letter variable.
func signPosition(toks []token, p int) bool {
	if p == 0 {
		return true
	}
	prev := toks[p-1]
	switch prev.kind {
	case tNum:
		return false
	case tSym:
		return prev.text != ")" && prev.text != "]"
	default:
		return len(prev.text) > 1
	}
}

// spacedSign reports whether the "-" at toks[p], followed by spaces up to
// the digits at digits, is a sign all the same: at the start of the text
// ("- 3") or after "=", "(" or ":" ("m = - 3").
func spacedSign(s string, toks []token, p, digits int) bool {
	if toks[p].text != "-" || strings.Trim(s[toks[p].end:digits], " ") != "" {
		return false
	}
	if p == 0 {
		return true
	}
	prev := toks[p-1]
	return prev.kind == tSym && (prev.text == "=" || prev.text == "(" || prev.text == ":")
}

func negate(n number) number {
	n.val = -n.val
	n.num = -n.num
	return n
}

func stripCommas(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != ',' {
			b = append(b, s[i])
		}
	}
	return string(b)
}

func atoi(s string) (int64, bool) {
	if len(s) == 0 || len(s) > 18 {
		return 0, false
	}
	var v int64
	for i := 0; i < len(s); i++ {
		v = v*10 + int64(s[i]-'0')
	}
	return v, true
}

func pow10i(n int) int64 {
	v := int64(1)
	for range n {
		v *= 10
	}
	return v
}

// Number words. Ones and tens add up; scales multiply what precedes them.
var (
	smallNumbers = map[string]int64{
		"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
		"seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
		"thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
		"eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40,
		"fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
	}
	scaleWords = map[string]int64{
		"hundred": 100, "thousand": 1000, "million": 1000000, "billion": 1000000000,
		"lakh": 100000, "lakhs": 100000, "crore": 10000000, "crores": 10000000,
	}
	// Denominators; "half" alone means one half, the others need a count
	// ("a third", "two thirds") so that "the third step" stays an ordinal.
	fractionWords = map[string]int64{
		"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4,
		"fourth": 4, "fourths": 4, "fifth": 5, "fifths": 5, "sixth": 6, "sixths": 6,
		"seventh": 7, "sevenths": 7, "eighth": 8, "eighths": 8, "ninth": 9, "ninths": 9,
		"tenth": 10, "tenths": 10, "eleventh": 11, "elevenths": 11, "twelfth": 12, "twelfths": 12,
		"thirteenth": 13, "thirteenths": 13, "fourteenth": 14, "fourteenths": 14,
		"fifteenth": 15, "fifteenths": 15, "sixteenth": 16, "sixteenths": 16,
		"seventeenth": 17, "seventeenths": 17, "eighteenth": 18, "eighteenths": 18,
		"nineteenth": 19, "nineteenths": 19, "twentieth": 20, "twentieths": 20,
		"thirtieth": 30, "thirtieths": 30, "fortieth": 40, "fortieths": 40, "fiftieth": 50, "fiftieths": 50,
		"sixtieth": 60, "sixtieths": 60, "seventieth": 70, "seventieths": 70,
		"eightieth": 80, "eightieths": 80, "ninetieth": 90, "ninetieths": 90,
		"hundredth": 100, "hundredths": 100, "thousandth": 1000, "thousandths": 1000,
	}
	// Words after which "one" is a pronoun, not a count: "this one", "which one".
	pronounOne = map[string]bool{
		"this": true, "that": true, "which": true, "the": true, "each": true, "every": true,
		"any": true, "no": true, "another": true, "some": true, "one": true, "other": true,
		"last": true, "first": true, "next": true, "right": true, "wrong": true, "correct": true,
	}
)

// foldWords merges number words and "N percent" / "N out of M" / "negative N"
// into number tokens, compacting toks in place.
func foldWords(s string, toks []token) []token {
	out := toks[:0]
	for i := 0; i < len(toks); {
		t := toks[i]
		garbled := false
		if n, j, ok, g := leadingPoint(toks, i, out); ok {
			t = token{kind: tNum, start: toks[i].start, end: toks[j-1].end, num: n}
			i, garbled = j, g
		} else if n, j, ok := wordNumber(toks, i, out); ok {
			t = token{kind: tNum, start: toks[i].start, end: toks[j-1].end, num: n}
			i = j
		} else {
			i++
		}
		if t.kind == tNum && !garbled {
			t.num, i, garbled = foldPoint(toks, i, t.num)
		}
		if garbled {
			// "2 point oh", "3 point 2.5": a decimal that cannot be read
			// is no number, as an ordinal is none, so that the reply
			// states no answer here rather than the whole number alone.
			end := toks[i-1].end
			t = token{kind: tWord, start: t.start, end: end, text: s[t.start:end]}
		} else if t.kind == tNum {
			t.num, i = foldScale(toks, i, t.num)
			t.num, i = foldFraction(toks, i, t.num, false)
			if i > 0 {
				t.end = max(t.end, toks[i-1].end)
			}
			// "negative 7"; "minus 7" only where it cannot be a subtraction.
			if p := len(out) - 1; p >= 0 && out[p].kind == tWord && t.num.val > 0 &&
				(out[p].text == "negative" || out[p].text == "minus" && (p == 0 || out[p-1].kind != tNum)) {
				t.num = negate(t.num)
				t.start = out[p].start
				out = out[:p]
			} else if p >= 0 && out[p].kind == tWord && out[p].text == "plus" && (p == 0 || out[p-1].kind != tNum) {
				// "plus 72": the sign of a positive number, as "minus 72"
				// is of a negative one; "3 plus 4" is a sum.
				t.start = out[p].start
				out = out[:p]
			}
			// "75 percent", "75 per cent", and the usual misspellings.
			if i < len(toks) && toks[i].kind == tWord && !t.num.pct {
				switch {
				case percentWords[toks[i].text]:
					t.num.pct, t.end = true, toks[i].end
					i++
				case toks[i].text == "per" && i+1 < len(toks) && toks[i+1].text == "cent":
					t.num.pct, t.end = true, toks[i+1].end
					i += 2
				}
			}
			// "3 out of 4".
			if i+2 < len(toks) && toks[i].text == "out" && toks[i+1].text == "of" {
				if d, j, ok := wordNumber(toks, i+2, nil); ok || toks[i+2].kind == tNum {
					if !ok {
						d, j = toks[i+2].num, i+3
					}
					if t.num.form == fInt && d.form == fInt && d.num > 0 && !d.pct && !t.num.pct {
						t.num = number{val: float64(t.num.num) / float64(d.num), num: t.num.num, den: d.num, form: fFrac, word: true, outOf: true}
						t.end = toks[j-1].end
						i = j
					}
				}
			}
			t.text = s[t.start:t.end]
		}
		out = append(out, t)
	}
	return out
}

// foldPoint reads the decimal part of a number said aloud, "point" and
// its digits after the whole number n read before toks[i]: "3 point 25",
// "two point five", "three point one four", and the digits said one by
// one in words or numerals alike, as speech-to-text mixes them: "2 point
// oh 5", "2 point 0 5". It returns the number and the index after it; n
// and i when no digit follows "point", which is then a word ("1 point
// each"). garbled reports digits after "point" that make no decimal ("2
// point oh", "3 point 2.5"), with the index after them: the whole number
// alone is not what was said, and reading it would mark a right answer
// wrong.
func foldPoint(toks []token, i int, n number) (_ number, j int, garbled bool) {
	if i+1 >= len(toks) || toks[i].kind != tWord || toks[i].text != "point" ||
		n.form != fInt || n.pct || n.outOf || n.scale != 0 || n.den != 1 || abs64(n.num) >= 1e9 {
		return n, i, false
	}
	var frac, den int64 = 0, 1
	places := 0
	for j = i + 1; j < len(toks); j++ {
		t := toks[j]
		if t.kind == tNum {
			// "3 point 25", "point 05": digits as written, up to a
			// percent sign. Several digits make the whole decimal part;
			// after a digit only a single one continues it ("2 point 0 5").
			k := digits(t.text, 0)
			d := t.num
			if places > 0 && (k != 1 || d.form != fInt || den >= 1e9) {
				break
			}
			if d.form != fInt || d.cur != "" || k == 0 || k > 9 || k < len(t.text) && !d.pct {
				return n, j + 1, true
			}
			for _, c := range t.text[:k] {
				frac, den, places = frac*10+int64(c-'0'), den*10, places+1
			}
			if k > 1 || d.pct {
				n.pct = d.pct
				j++
				break
			}
			continue
		}
		// "point one four": digits said one by one.
		v, ok := spokenDigit(t.text)
		if !ok || den >= 1e9 {
			break
		}
		frac, den, places = frac*10+v, den*10, places+1
	}
	end := j
	for ; den > 1 && isOh(toks[j-1].text); j-- {
		// "2 point 5 oh wait, 2.6": a zero only before a digit, and the
		// word otherwise.
		frac, den, places = frac/10, den/10, places-1
	}
	if den == 1 {
		// Nothing but "oh" after the point ("2 point oh wait") is garbled;
		// no digit at all leaves "point" a word.
		return n, end, end > i+1
	}
	for _, t := range toks[i+1 : j] {
		n.word = n.word || t.kind == tWord
	}
	num := abs64(n.num)*den + frac
	if n.num < 0 {
		num = -num
	}
	n.num, n.den, n.val, n.form, n.decimals = num, den, float64(num)/float64(den), fDec, places
	return n, j, false
}

// spokenDigit reads a digit said aloud after a decimal point: "five", and
// for zero "nought" or the letter speech-to-text writes for it, "point oh
// five". Elsewhere "oh" is a word ("oh, 5", "oh I see").
func spokenDigit(w string) (int64, bool) {
	if w == "nought" || w == "naught" || isOh(w) {
		return 0, true
	}
	v, ok := smallNumbers[w]
	return v, ok && v <= 9
}

// isOh reports whether w is the letter O said for the digit zero.
func isOh(w string) bool { return w == "oh" || w == "o" }

// leadingPoint reads a number said aloud that starts with its point:
// "point 5", "point five", and "nought point five", where no "zero" says
// the whole number. A "point" after a word other than one that leads to a
// value names a point ("the point 5", "at point 3"), and "the point is 5"
// has no digits after it. garbled is foldPoint's: digits after the point
// that make no decimal.
func leadingPoint(toks []token, i int, prev []token) (_ number, j int, ok, garbled bool) {
	w := toks[i].text
	if toks[i].kind != tWord || w != "point" && w != "nought" && w != "naught" {
		return number{}, i, false, false
	}
	at := i
	if w != "point" {
		at++
		if at >= len(toks) || toks[at].text != "point" {
			return number{}, i, false, false
		}
	} else if p := len(prev) - 1; p >= 0 {
		// "it's point 5", "the answer is point 5", "so point 5".
		pw := prev[p].text
		if prev[p].kind == tNum || prev[p].kind == tWord && !strongMarkers[pw] && !weakMarkers[pw] && !answerLinks[pw] &&
			!conclusionOpeners[pw] && !(fillers[pw] && pw != "the" && pw != "a" && pw != "an" && pw != "of" && pw != "in") {
			return number{}, i, false, false
		}
	}
	n, j, garbled := foldPoint(toks, at, number{den: 1, form: fInt})
	return n, j, j > at, garbled
}

// foldFraction reads a fraction that continues the whole number n read
// before toks[i]: "3 and 5/6", "3 and 5 over 6", "three and five sixths"
// (mixed numbers),
// "7 over 12", "seven over twelve" and "5 sixths". It returns the number and
// the index after it; n and i when there is none. mixed says that n is the
// fraction part of a mixed number ("5" of "3 and 5 over 6").
func foldFraction(toks []token, i int, n number, mixed bool) (number, int) {
	if n.form != fInt || n.pct || n.cur != "" || n.num < 0 || n.num >= math.MaxInt32 || i >= len(toks) {
		return n, i
	}
	if toks[i].kind == tNum {
		// "2 1 by 4": the digits of 2 1/4 said with "by", as "2 1/4" is
		// written with a bar.
		return spacedMixed(toks, i, n)
	}
	if toks[i].kind != tWord {
		return n, i
	}
	// next reads the number at toks[k], in digits or in words.
	next := func(k int) (number, int, bool) {
		if k >= len(toks) {
			return number{}, k, false
		}
		if toks[k].kind == tNum {
			return toks[k].num, k + 1, !toks[k].num.pct && toks[k].num.cur == ""
		}
		return wordNumber(toks, k, nil)
	}
	switch w := toks[i].text; {
	case w == "and" || w == "whole":
		// "1 whole 1 by 2", "1 whole 1/2": how Indian classrooms read 1 1/2.
		f, j, ok := next(i + 1)
		if ok && f.form == fInt && j < len(toks) && toks[j].text != "and" {
			f, j = foldFraction(toks, j, f, true) // "3 and 5 over 6", "2 and 1 third"
		}
		if ok && f.form == fFrac && f.num > 0 && f.num < f.den && f.den < math.MaxInt32 {
			num := n.num*f.den + f.num
			return number{val: float64(num) / float64(f.den), num: num, den: f.den, form: fMixed, word: n.word || f.word}, j
		}
	case w == "over" || (w == "by" || w == "upon") && !operationBefore(toks, i):
		// "9 by 5" and "9 upon 5" are how Indian classrooms say 9/5, and
		// "x = 90 by 5" is 18; "multiply 9 by 5" is not.
		d, j, ok := next(i + 1)
		// "12 over 3 days" is a duration, not a fraction; "3 and 5 over 6
		// cm" is a length.
		if ok && d.form == fInt && d.num > 0 && (mixed || j == len(toks) || toks[j].kind != tWord || startsPhrase(toks[j].text) || fillers[toks[j].text] || fractionTail[toks[j].text]) {
			return number{val: float64(n.num) / float64(d.num), num: n.num, den: d.num, form: fFrac, word: n.word || d.word}, j
		}
	case !n.word:
		// "5 sixths", "1 third"; "2 third" is not a fraction.
		if d, ok := fractionWords[w]; ok && n.num > 0 && (strings.HasSuffix(w, "s") || n.num == 1) {
			return number{val: float64(n.num) / float64(d), num: n.num, den: d, form: fFrac}, i + 1
		}
	}
	return n, i
}

// spacedMixed reads a mixed number whose whole number n, in digits, is
// followed by its fraction said with "by", "upon" or "over": "2 1 by 4" is
// 2 1/4. The fraction must be proper and written in digits, and it must
// end the reply as a fraction said so does ("2 1 by 4 cm" is not read).
func spacedMixed(toks []token, i int, n number) (number, int) {
	a := toks[i].num
	if n.word || a.word || a.form != fInt || a.pct || a.cur != "" || a.outOf || a.num < 1 || i+1 >= len(toks) ||
		toks[i].start == toks[i-1].end || toks[i-1].kind != tNum || !fractionBars[toks[i+1].text] {
		return n, i
	}
	f, j := foldFraction(toks, i+1, a, false)
	if f.form != fFrac || f.word || f.num >= f.den || f.den >= math.MaxInt32 {
		return n, i
	}
	num := n.num*f.den + f.num
	return number{val: float64(num) / float64(f.den), num: num, den: f.den, form: fMixed}, j
}

// fractionBars say the bar of a fraction: "3 by 4", "3 upon 4", "3 over 4".
var fractionBars = map[string]bool{"by": true, "upon": true, "over": true}

// fractionTail are the words of Hinglish and of address that may end a
// reply after "N by D" without making D a count of something: "3 by 4
// hai", "3 by 4 sir", "3 upon 4 hoga". After any number they name no unit
// ("5 hai"), except "h", which is also hours.
var fractionTail = map[string]bool{
	"hai": true, "h": true, "hain": true, "hoga": true, "hogi": true, "aayega": true, "ayega": true, "aaega": true, "na": true,
	"sir": true, "maam": true, "ma'am": true, "mam": true, "madam": true, "ji": true, "didi": true, "bhaiya": true,
}

// operationBefore reports whether the clause before toks[i] names an
// operation whose operand "by" introduces: "multiply 9 by 5", "divided
// 12 by 4", "increased 50 by 10".
func operationBefore(toks []token, i int) bool {
	for k := i - 1; k >= 0; k-- {
		t := toks[k]
		if isClauseEnd(t) {
			return false
		}
		if t.kind == tWord && byOperations[t.text] {
			return true
		}
	}
	return false
}

var byOperations = map[string]bool{
	"multiply": true, "multiplied": true, "multiplying": true, "divide": true, "divided": true, "dividing": true,
	"times": true, "increase": true, "increased": true, "increasing": true, "decrease": true, "decreased": true,
	"decreasing": true, "reduce": true, "reduced": true, "reducing": true, "raise": true, "raised": true,
	"rose": true, "fell": true, "grew": true, "went": true, "go": true, "goes": true, "scale": true, "scaled": true,
	"round": true, "rounded": true, "shift": true, "shifted": true, "move": true, "moved": true,
}

// wordNumber reads a number written in words starting at toks[i]. prev holds
// the tokens already emitted (for the "this one" check). It returns the
// number and the index after it.
func wordNumber(toks []token, i int, prev []token) (number, int, bool) {
	if toks[i].kind != tWord {
		return number{}, i, false
	}
	w := toks[i].text
	// "half" on its own, "a half", "a third", "a quarter".
	if w == "half" || w == "a" || w == "an" {
		j := i
		if w != "half" {
			j++
			if j >= len(toks) || toks[j].kind != tWord {
				return number{}, i, false
			}
		}
		d, ok := fractionWords[toks[j].text]
		if !ok || (w == "half" && toks[j].text != "half") || toks[j].text == "halves" {
			// "a hundred", "a thousand".
			if w == "a" && j < len(toks) {
				if sc, ok := scaleWords[toks[j].text]; ok && sc <= 1000 {
					return wordNumberFrom(toks, j, 1)
				}
			}
			return number{}, i, false
		}
		if w == "half" && len(prev) > 0 && prev[len(prev)-1].kind == tWord && prev[len(prev)-1].text == "and" {
			return number{}, i, false
		}
		return number{val: 1 / float64(d), num: 1, den: d, form: fFrac, word: true}, j + 1, true
	}
	if h := strings.IndexByte(w, '-'); h > 0 {
		// "twenty-five", "three-quarters", "one-half".
		a, ok1 := smallNumbers[w[:h]]
		b, ok2 := smallNumbers[w[h+1:]]
		switch d, isFrac := fractionWords[w[h+1:]]; {
		case ok1 && ok2 && a >= 20 && a%10 == 0 && b > 0 && b < 10:
			return wordNumberFrom(toks, i, a+b)
		case ok1 && isFrac && a > 0:
			return number{val: float64(a) / float64(d), num: a, den: d, form: fFrac, word: true}, i + 1, true
		}
		return number{}, i, false
	}
	if sc, ok := scaleWords[w]; ok && sc <= 1000 && (len(prev) == 0 || prev[len(prev)-1].kind != tNum) {
		// "hundred degrees": a hundred.
		return wordNumberFrom(toks, i, 1)
	}
	v, ok := smallNumbers[w]
	if !ok {
		return number{}, i, false
	}
	if w == "one" && len(prev) > 0 && prev[len(prev)-1].kind == tWord && pronounOne[prev[len(prev)-1].text] {
		return number{}, i, false
	}
	return wordNumberFrom(toks, i, v)
}

// wordNumberFrom continues a number in words whose first word (at toks[i],
// worth first) has been read: tens and ones ("twenty-five"), scales ("three
// hundred and five"), fractions ("three quarters"), "one and a half".
func wordNumberFrom(toks []token, i int, first int64) (number, int, bool) {
	var total, scale int64 // scale: the last scale word, while the number is a count of it
	cur := first
	j := i + 1
	lastSmall := first // the last ones/tens value read, for "twenty-five"
	if _, ok := scaleWords[toks[i].text]; ok {
		cur = first * scaleWords[toks[i].text]
		lastSmall = -1
	}
	for j < len(toks) {
		t := toks[j]
		switch {
		case t.kind == tSym && t.text == "-" && j+1 < len(toks) && lastSmall >= 20 && lastSmall%10 == 0:
			if v, ok := smallNumbers[toks[j+1].text]; ok && v < 10 && v > 0 {
				cur += v
				lastSmall = v
				j += 2
				continue
			}
		case t.kind == tNum && lastSmall < 0 && cur%100 == 0 && j+1 < len(toks) && scaleWords[toks[j+1].text] > 0:
			// "2 lakh 50 thousand", "5 thousand 3 hundred".
			if v, ok := digitCount(toks, j); ok {
				cur += v
				lastSmall = v
				j++
				continue
			}
		case t.kind == tWord:
			if v, ok := smallNumbers[t.text]; ok {
				if lastSmall >= 20 && lastSmall%10 == 0 && v < 10 && v > 0 || lastSmall < 0 && cur%100 == 0 {
					cur += v
					lastSmall = v
					j++
					continue
				}
			}
			if sc, ok := scaleWords[t.text]; ok && cur > 0 {
				// "five thousand" and "one hundred lakhs" are counts of
				// their last scale word; "one lakh twenty thousand" is not.
				scale = 0
				if total == 0 {
					scale = sc
				}
				if sc == 100 && cur < 100 {
					cur *= 100
				} else if sc > 100 && cur < 1000 && total < math.MaxInt64/sc/2 {
					total += cur * sc
					cur = 0
				} else {
					scale = 0
					break
				}
				lastSmall = -1
				j++
				continue
			}
			// "one hundred and five".
			if t.text == "and" && lastSmall < 0 && j+1 < len(toks) {
				v, ok := smallNumbers[toks[j+1].text]
				if !ok {
					v, ok = digitCount(toks, j+1) // "5 hundred and 3"
				}
				if ok && v > 0 {
					cur += v
					lastSmall = v
					j += 2
					continue
				}
				// "one and a half".
				if j+2 < len(toks) && (toks[j+1].text == "a" || toks[j+1].text == "an") {
					if d, ok := fractionWords[toks[j+2].text]; ok && toks[j+2].text != "halves" {
						whole := total + cur
						return number{val: float64(whole) + 1/float64(d), num: whole*d + 1, den: d, form: fMixed, word: true}, j + 3, true
					}
				}
			}
			if t.text == "and" && j+2 < len(toks) && (toks[j+1].text == "a" || toks[j+1].text == "an") {
				if d, ok := fractionWords[toks[j+2].text]; ok && toks[j+2].text != "halves" && toks[j+2].text != "hundredth" {
					whole := total + cur
					return number{val: float64(whole) + 1/float64(d), num: whole*d + 1, den: d, form: fMixed, word: true}, j + 3, true
				}
			}
			// "three quarters", "two thirds", "one half".
			if d, ok := fractionWords[t.text]; ok && total == 0 && cur > 0 && cur < 1000 {
				return number{val: float64(cur) / float64(d), num: cur, den: d, form: fFrac, word: true}, j + 1, true
			}
		}
		break
	}
	if lastSmall >= 0 {
		scale = 0 // "five hundred and three"
	}
	v := total + cur
	return number{val: float64(v), num: v, den: 1, form: fInt, word: true, scale: scale}, j, true
}

// digitCount returns the whole number from 1 to 99 written in digits at
// toks[k], which a number in words takes in place of a word after a scale
// word: "5 hundred and 3", "2 lakh 50 thousand".
func digitCount(toks []token, k int) (int64, bool) {
	n := toks[k].num
	return n.num, toks[k].kind == tNum && n.form == fInt && !n.pct && n.cur == "" && n.num > 0 && n.num < 100
}

// foldScale reads a scale word after a number written in digits, which
// multiplies it: "5 thousand" is 5000, "2.5 lakh" 250000, "$2 million"
// 2000000 dollars; and "5 hundred and 3" and "2 lakh 50 thousand" go on as
// the number in words would. It returns the number and the index after it;
// n and i when there is none. "3 hundredths" is a fraction (foldFraction)
// and "3 hundreds" a count of hundreds.
func foldScale(toks []token, i int, n number) (number, int) {
	if n.word || n.pct || n.outOf || n.den <= 0 || n.form != fInt && n.form != fDec || i >= len(toks) || toks[i].kind != tWord {
		return n, i
	}
	sc, ok := scaleWords[toks[i].text]
	if !ok {
		return n, i
	}
	if n.form == fInt && n.num > 0 && n.num < 1000 {
		if w, j, _ := wordNumberFrom(toks, i-1, n.num); j > i {
			w.word, w.cur = false, n.cur
			return w, j
		}
	}
	// Shift the decimal point: 2.5 million is 25 times 100000.
	m, f := n, sc
	for f > 1 && m.decimals > 0 {
		m.decimals--
		f /= 10
	}
	if abs64(m.num) > math.MaxInt64/f {
		return n, i
	}
	m.num *= f
	m.den = pow10i(m.decimals)
	m.val = float64(m.num) / float64(m.den)
	if m.decimals == 0 {
		m.form = fInt
	}
	m.scale = sc
	return m, i + 1
}

// percentWords are "percent" and the ways learners misspell it.
var percentWords = map[string]bool{
	"percent": true, "percnt": true, "precent": true, "percant": true, "pecent": true, "percet": true,
	"persent": true, "percen": true, "prcnt": true, "pct": true, "percents": true, "perecent": true,
}
