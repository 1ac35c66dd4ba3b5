package answer

import (
	"math"
	"slices"
	"strings"
)

// Expressions are compared by value: two expressions are equivalent when
// they agree at a fixed set of points. With irrational-looking coordinates
// and several points, polynomials and rational functions of school algebra
// that differ cannot agree by accident, and the result is deterministic.

// exprOp is one instruction of a compiled expression (postfix order).
type exprOp struct {
	op  byte    // 'n' number, 'v' variable, '+', '-', '*', '/', '^', '~' negate, 's' square root
	val float64 // the number for 'n'
	v   byte    // the variable letter for 'v'
}

type expr []exprOp

// maxExprDepth bounds nesting so that hostile input cannot exhaust the stack.
const maxExprDepth = 64

// exprPoints are the coordinates at which expressions are compared; variable
// c at point p takes exprPoints[(p+3*(c-'a'))%len].
var exprPoints = [...]float64{
	0.7390851332, 1.4142135624, 2.7182818285, -1.3247179572, 3.1415926536,
	-0.5772156649, 1.6180339887, 2.2360679775, -2.0943951024, 0.4342944819,
	1.2599210499, -0.9189385332, 1.7320508076,
}

const numPoints = 6

// eval computes e with every variable set from point p. It returns NaN for
// malformed code.
func (e expr) eval(p int, stack []float64) float64 {
	stack = stack[:0]
	for _, o := range e {
		switch o.op {
		case 'n':
			stack = append(stack, o.val)
		case 'v':
			stack = append(stack, exprPoints[(p+3*int(o.v-'a'))%len(exprPoints)])
		case '~', 's':
			if len(stack) < 1 {
				return math.NaN()
			}
			if o.op == '~' {
				stack[len(stack)-1] = -stack[len(stack)-1]
			} else {
				stack[len(stack)-1] = math.Sqrt(stack[len(stack)-1])
			}
		default:
			if len(stack) < 2 {
				return math.NaN()
			}
			a, b := stack[len(stack)-2], stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			var r float64
			switch o.op {
			case '+':
				r = a + b
			case '-':
				r = a - b
			case '*':
				r = a * b
			case '/':
				r = a / b
			case '^':
				r = math.Pow(a, b)
			}
			stack[len(stack)-1] = r
		}
	}
	if len(stack) != 1 {
		return math.NaN()
	}
	return stack[0]
}

// equivalent reports whether a and b agree at the comparison points. With
// scale, b may also be a constant non-zero multiple of a, as equations are
// (2x = 6 is x = 3).
func equivalent(a, b expr, scale bool) bool {
	var sa, sb [32]float64
	compared := 0
	ratio := math.NaN()
	for p := range numPoints {
		x, y := a.eval(p, sa[:0]), b.eval(p, sb[:0])
		fx, fy := !math.IsNaN(x) && !math.IsInf(x, 0), !math.IsNaN(y) && !math.IsInf(y, 0)
		if !fx && !fy {
			continue
		}
		if fx != fy {
			return false
		}
		compared++
		if !scale {
			if !closeRel(x, y) {
				return false
			}
			continue
		}
		switch {
		case math.Abs(x) < 1e-12 && math.Abs(y) < 1e-12:
		case math.Abs(x) < 1e-12 || math.Abs(y) < 1e-12:
			return false
		case math.IsNaN(ratio):
			ratio = y / x
		case !closeRel(ratio, y/x):
			return false
		}
	}
	return compared >= 3
}

func closeRel(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// parser compiles a token range into an expr. vars holds the letters that
// may be variables; a word made only of them is their product ("xy").
//
// The tokens are passed to each method rather than held in the parser: a
// parser field would make escape analysis move the caller's stack buffer of
// tokens to the heap, since the code the parser appends to escapes.
type parser struct {
	p     int
	vars  string
	code  expr
	depth int
	err   bool
}

func parseExpr(toks []token, vars string) (expr, bool) {
	if len(toks) == 0 {
		return nil, false
	}
	ps := parser{vars: vars, code: make(expr, 0, 2*len(toks))}
	ps.sum(toks)
	if ps.err || ps.p != len(toks) || len(ps.code) == 0 {
		return nil, false
	}
	return ps.code, true
}

func (ps *parser) peek(toks []token) token {
	if ps.p < len(toks) {
		return toks[ps.p]
	}
	return token{}
}

func (ps *parser) emit(o exprOp) { ps.code = append(ps.code, o) }

func (ps *parser) sum(toks []token) {
	ps.product(toks)
	for !ps.err {
		t := ps.peek(toks)
		if t.kind != tSym || t.text != "+" && t.text != "-" {
			return
		}
		ps.p++
		ps.product(toks)
		ps.emit(exprOp{op: t.text[0]})
	}
}

func (ps *parser) product(toks []token) {
	ps.unary(toks)
	for !ps.err {
		t := ps.peek(toks)
		switch {
		case t.kind == tSym && (t.text == "*" || t.text == "/"):
			ps.p++
			ps.unary(toks)
			ps.emit(exprOp{op: t.text[0]})
		case ps.startsAtom(t):
			// Implicit multiplication: 2x, 2(x+3), (x+1)(x-1), x y.
			ps.power(toks)
			ps.emit(exprOp{op: '*'})
		default:
			return
		}
	}
}

// startsAtom reports whether t can start an implicit factor. A number right
// after another factor is not one ("2 3" is not 6).
func (ps *parser) startsAtom(t token) bool {
	switch t.kind {
	case tWord:
		return ps.isVarWord(t.text) || t.text == "sqrt"
	case tSym:
		return t.text == "(" || t.text == "["
	case tNum:
		return false
	}
	return false
}

func (ps *parser) unary(toks []token) {
	t := ps.peek(toks)
	if t.kind == tSym && (t.text == "-" || t.text == "+") {
		ps.p++
		if ps.enter() {
			return
		}
		ps.unary(toks)
		ps.depth--
		if t.text == "-" {
			ps.emit(exprOp{op: '~'})
		}
		return
	}
	ps.power(toks)
}

func (ps *parser) enter() bool {
	ps.depth++
	if ps.depth > maxExprDepth {
		ps.err = true
	}
	return ps.err
}

// power parses an atom with an optional exponent; "^" (or "**" or "²")
// binds tighter than a leading minus and associates to the right.
func (ps *parser) power(toks []token) {
	ps.atom(toks)
	if ps.err {
		return
	}
	t := ps.peek(toks)
	switch {
	case t.kind == tSym && t.text == "²":
		ps.p++
		ps.emit(exprOp{op: 'n', val: 2})
		ps.emit(exprOp{op: '^'})
	case t.kind == tSym && t.text == "^" ||
		t.kind == tSym && t.text == "*" && ps.p+1 < len(toks) && toks[ps.p+1].text == "*" && toks[ps.p+1].start == t.end:
		ps.p++
		if t.text == "*" {
			ps.p++
		}
		if ps.enter() {
			return
		}
		ps.unary(toks)
		ps.depth--
		ps.emit(exprOp{op: '^'})
	}
}

func (ps *parser) atom(toks []token) {
	t := ps.peek(toks)
	switch {
	case t.kind == tNum && !t.num.pct && t.num.cur == "":
		ps.p++
		ps.emit(exprOp{op: 'n', val: t.num.val})
	case t.kind == tWord && t.text == "sqrt":
		ps.p++
		if ps.enter() {
			return
		}
		ps.power(toks)
		ps.depth--
		ps.emit(exprOp{op: 's'})
	case t.kind == tWord && ps.isVarWord(t.text):
		ps.p++
		for i := 0; i < len(t.text); i++ {
			ps.emit(exprOp{op: 'v', v: t.text[i]})
			if i > 0 {
				ps.emit(exprOp{op: '*'})
			}
		}
	case t.kind == tSym && (t.text == "(" || t.text == "["):
		ps.p++
		if ps.enter() {
			return
		}
		ps.sum(toks)
		ps.depth--
		if c := ps.peek(toks); c.kind != tSym || c.text != ")" && c.text != "]" {
			ps.err = true
			return
		}
		ps.p++
	default:
		ps.err = true
	}
}

// isVarWord reports whether w is made only of variable letters.
func (ps *parser) isVarWord(w string) bool { return isVarWord(w, ps.vars) }

func isVarWord(w, vars string) bool {
	if w == "" || len(w) > 4 || vars == "" {
		return false
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' || strings.IndexByte(vars, w[i]) < 0 {
			return false
		}
	}
	return true
}

// commonWords are short English words that are never read as variables in
// an expected answer.
var commonWords = map[string]bool{
	"a": true, "an": true, "the": true, "is": true, "it": true, "of": true, "and": true, "or": true,
	"to": true, "in": true, "on": true, "at": true, "by": true, "be": true, "so": true, "no": true,
	"yes": true, "not": true, "are": true, "was": true, "for": true, "but": true, "i": true,
}

// exprVars returns the variable letters of an expected expression, or false
// when it holds words that are not variables.
func exprVars(toks []token) (string, bool) {
	var b [26]bool
	vars := make([]byte, 0, 4)
	for _, t := range toks {
		if t.kind != tWord || t.text == "sqrt" {
			continue
		}
		if len(t.text) > 3 || commonWords[t.text] && len(t.text) > 1 {
			return "", false
		}
		for i := 0; i < len(t.text); i++ {
			c := t.text[i]
			if c < 'a' || c > 'z' {
				return "", false
			}
			if !b[c-'a'] {
				b[c-'a'] = true
				vars = append(vars, c)
			}
		}
	}
	return string(vars), true
}

// isExpression reports whether an expected answer is algebra: variables with
// numbers or operators, or assignments such as "x = 7".
func isExpression(toks []token) bool {
	vars, ok := exprVars(toks)
	if !ok || vars == "" {
		return false
	}
	hasOp := false
	for _, t := range toks {
		switch t.kind {
		case tNum:
			if t.num.pct || t.num.cur != "" || t.num.word {
				return false
			}
			hasOp = true
		case tSym:
			switch t.text {
			case "+", "-", "*", "/", "^", "(", ")", "=", "²", "[", "]":
				hasOp = true
			case ",", ";":
			default:
				return false
			}
		}
	}
	if !hasOp {
		return false
	}
	_, ok = parseExpected(toks, vars)
	return ok
}

// assignment is one "x = 7" of an expected answer; an expected plain
// expression is one assignment with v == 0.
type assignment struct {
	v        byte
	e        expr
	equation bool // "2x + 3 = 7": compared as an equation, up to a constant factor
}

// parseExpected reads an expected expression, equation, or list of
// assignments ("x = 7, y = 2").
func parseExpected(toks []token, vars string) ([]assignment, bool) {
	var out []assignment
	for _, r := range splitTop(toks) {
		a, ok := parseAssignment(toks[r[0]:r[1]], vars)
		if !ok {
			return nil, false
		}
		out = append(out, a)
	}
	return out, len(out) > 0
}

// splitTop returns the ranges of toks between commas, semicolons and "and".
func splitTop(toks []token) [][2]int {
	var parts [][2]int
	from := 0
	for k, t := range toks {
		if t.kind == tSym && (t.text == "," || t.text == ";") || t.kind == tWord && t.text == "and" {
			if k > from {
				parts = append(parts, [2]int{from, k})
			}
			from = k + 1
		}
	}
	if from < len(toks) {
		parts = append(parts, [2]int{from, len(toks)})
	}
	return parts
}

func parseAssignment(toks []token, vars string) (assignment, bool) {
	eq := -1
	for k, t := range toks {
		if t.kind == tSym && t.text == "=" {
			if eq >= 0 {
				return assignment{}, false
			}
			eq = k
		}
	}
	if eq < 0 {
		e, ok := parseExpr(toks, vars)
		return assignment{e: e}, ok
	}
	if eq == 1 && toks[0].kind == tWord && len(toks[0].text) == 1 {
		e, ok := parseExpr(toks[2:], vars)
		return assignment{v: toks[0].text[0], e: e}, ok
	}
	l, ok1 := parseExpr(toks[:eq], vars)
	r, ok2 := parseExpr(toks[eq+1:], vars)
	if !ok1 || !ok2 {
		return assignment{}, false
	}
	// lhs - rhs, zero exactly when the equation holds.
	e := append(append(l, r...), exprOp{op: '-'})
	return assignment{e: e, equation: true}, true
}

// exprRun is a stretch of a reply that reads as algebra.
type exprRun struct {
	from, to int // token range
	negated  bool
}

// exprRuns finds the stretches of a reply made of numbers, variable words,
// operators and "=" ("x is 7" counts as "x = 7").
func exprRuns(toks []token, vars string) []exprRun {
	var runs []exprRun
	from := -1
	end := func(k int) {
		if from >= 0 {
			for k > from && toks[k-1].kind == tSym && !isCloser(toks[k-1].text) && toks[k-1].text != "²" {
				k-- // trailing operators or punctuation
			}
			if k > from {
				runs = append(runs, exprRun{from: from, to: k, negated: negatedBefore(toks, from)})
			}
		}
		from = -1
	}
	for k, t := range toks {
		ok := false
		switch t.kind {
		case tNum:
			ok = !t.num.pct
		case tWord:
			ok = isVarWord(t.text, vars) || t.text == "sqrt" ||
				(t.text == "is" || t.text == "equals") && from >= 0 && k == from+1 && isVarWord(toks[from].text, vars)
		case tSym:
			switch t.text {
			case "+", "-", "*", "/", "^", "(", ")", "[", "]", "=", "²":
				ok = true
			}
		}
		if !ok {
			end(k)
			continue
		}
		if from < 0 {
			if t.kind == tSym && (isCloser(t.text) || t.text == "=" || t.text == "*" || t.text == "/" || t.text == "^") {
				continue
			}
			from = k
		}
	}
	end(len(toks))
	return runs
}

func isCloser(s string) bool { return s == ")" || s == "]" }

func negatedBefore(toks []token, i int) bool {
	for k := i - 1; k >= 0 && k >= i-3; k-- {
		if isClauseEnd(toks[k]) {
			return false
		}
		if isNegator(toks[k].text) {
			return true
		}
	}
	return false
}

// runTokens returns the run's tokens with "is"/"equals" read as "=".
func runTokens(toks []token, r exprRun) []token {
	run := toks[r.from:r.to]
	var out []token // a copy, made only when a word needs replacing
	for k, t := range run {
		if t.kind == tWord && (t.text == "is" || t.text == "equals") {
			if out == nil {
				out = slices.Clone(run)
			}
			out[k] = token{kind: tSym, text: "=", start: t.start, end: t.end}
		}
	}
	if out == nil {
		return run
	}
	return out
}

func evalExpression(etoks []token, reply string, toks []token, res *Result) {
	vars, ok := exprVars(etoks)
	var want []assignment
	if ok {
		want, ok = parseExpected(etoks, vars)
	}
	if !ok {
		res.Verdict, res.Reason = CannotCheck, "the expected answer is not an expression"
		return
	}
	runs := exprRuns(toks, vars)
	if len(runs) == 0 {
		res.Verdict, res.Reason = NotAttempt, "no expression in the reply"
		if !declines(reply, toks) && !allFiller(toks) {
			res.Verdict, res.Reason, res.Extracted = Incorrect, "no expression found", strings.TrimSpace(reply)
		}
		return
	}
	// The reply's assignments, by variable, and its plain expressions.
	assigned := map[byte]exprRun{}
	var plain []exprRun
	for _, r := range runs {
		if r.negated {
			continue
		}
		rt := runTokens(toks, r)
		if len(rt) > 2 && rt[0].kind == tWord && len(rt[0].text) == 1 && rt[1].text == "=" {
			if _, seen := assigned[rt[0].text[0]]; !seen {
				assigned[rt[0].text[0]] = exprRun{from: r.from + 2, to: r.to}
			}
			continue
		}
		if v, eq, ok := reversedAssignment(rt, vars); ok {
			// "4 = x" states x = 4 the other way round.
			if _, seen := assigned[v]; !seen {
				assigned[v] = exprRun{from: r.from, to: r.from + eq}
			}
			continue
		}
		plain = append(plain, r)
	}
	right, tried := 0, 0
	var spans [][2]int
	for _, w := range want {
		var cand []exprRun
		if r, ok := assigned[w.v]; ok && w.v != 0 {
			cand = []exprRun{r}
		} else if w.equation {
			for i := len(runs) - 1; i >= 0; i-- {
				if !runs[i].negated {
					cand = append(cand, runs[i])
				}
			}
		} else if len(want) == 1 {
			cand = plainCandidates(toks, plain, runs, vars, w.v != 0)
		}
		for _, r := range cand {
			e, ok := parseRun(toks, r, vars, w.equation)
			if !ok {
				continue
			}
			tried++
			spans = append(spans, [2]int{toks[r.from].start, toks[r.to-1].end})
			if equivalent(w.e, e, w.equation) {
				right++
			}
			break
		}
	}
	if tried == 0 {
		res.Verdict, res.Reason = NotAttempt, "no expression found"
		if !declines(reply, toks) {
			res.Verdict, res.Reason = Incorrect, "no readable expression"
		}
		return
	}
	from, to := len(reply), 0
	for _, sp := range spans {
		from, to = min(from, sp[0]), max(to, sp[1])
	}
	res.Extracted = reply[from:to]
	switch {
	case right == len(want):
		res.Verdict = Correct
	case right > 0:
		res.Verdict, res.Reason = Partial, "some values right"
	default:
		res.Verdict = Incorrect
	}
}

// reversedAssignment reads a run "<number expression> = <letter>" ("4 =
// x", "-2 = y", "12 - 8 = x"): an assignment written value first. It
// returns the letter and the index of the "="; the value side holds no
// variable, so "2x = x" and "x + 1 = y" stay equations.
func reversedAssignment(rt []token, vars string) (v byte, eq int, ok bool) {
	n := len(rt)
	if n < 3 || rt[n-1].kind != tWord || len(rt[n-1].text) != 1 || !isVarWord(rt[n-1].text, vars) ||
		rt[n-2].kind != tSym || rt[n-2].text != "=" {
		return 0, 0, false
	}
	num := false
	for _, t := range rt[:n-2] {
		if t.kind == tWord || t.kind == tSym && t.text == "=" {
			return 0, 0, false
		}
		num = num || t.kind == tNum
	}
	return rt[n-1].text[0], n - 2, num
}

// plainCandidates orders the reply's expressions for a single expected one:
// the last expression wins (later statements supersede earlier ones),
// preferring those with a variable when the answer has one.
func plainCandidates(toks []token, plain, all []exprRun, vars string, valueOnly bool) []exprRun {
	if len(plain) == 0 {
		// Only assignments to other variables: "y = 7" for "x = 7" still
		// states 7.
		for i := len(all) - 1; i >= 0; i-- {
			if !all[i].negated {
				r := all[i]
				if rt := runTokens(toks, r); len(rt) > 2 && rt[1].text == "=" {
					r.from += 2
				}
				return []exprRun{r}
			}
		}
		return nil
	}
	out := make([]exprRun, 0, len(plain))
	if !valueOnly {
		for i := len(plain) - 1; i >= 0; i-- {
			if runHasVar(toks, plain[i], vars) {
				out = append(out, plain[i])
			}
		}
	}
	for i := len(plain) - 1; i >= 0; i-- {
		out = append(out, plain[i])
	}
	return out
}

func runHasVar(toks []token, r exprRun, vars string) bool {
	for _, t := range toks[r.from:r.to] {
		if t.kind == tWord && isVarWord(t.text, vars) {
			return true
		}
	}
	return false
}

// parseRun compiles a reply's run; for a plain expected expression an
// identity such as "2(x+3) = 2x+6" is read by its last side.
func parseRun(toks []token, r exprRun, vars string, equation bool) (expr, bool) {
	rt := runTokens(toks, r)
	if equation {
		a, ok := parseAssignment(rt, vars)
		if !ok {
			return nil, false
		}
		if a.v != 0 {
			// "x = 3" for the equation "2x = 6": x - 3.
			e := append(expr{{op: 'v', v: a.v}}, a.e...)
			return append(e, exprOp{op: '-'}), true
		}
		return a.e, a.equation
	}
	last := 0
	for k, t := range rt {
		if t.kind == tSym && t.text == "=" {
			last = k + 1
		}
	}
	return parseExpr(rt[last:], vars)
}

func allFiller(toks []token) bool {
	for _, t := range toks {
		if t.kind == tWord && !fillerWords[t.text] || t.kind == tNum {
			return false
		}
	}
	return true
}
