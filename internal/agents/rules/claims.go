package rules

import (
	"cmp"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file works the arithmetic a doubt asks about. "what is (-7) x 6?"
// gets "(-7) × 6 = -42.", "is -3 + -4 = 7?" gets "Not quite: -3 + (-4) =
// -7, not 7.", and "is x = 4 the answer to 2x + 3 = 11?" puts 4 in place of
// x. Doubts sessions use it, where no question is pending, and lessons
// between questions, for sums that no question still to come asks (see
// lesson.spoils).

// worked returns the sentence that works the arithmetic of a doubt, and
// whether the doubt had any: the LCM or HCF of numbers (see common), a
// sharing in a ratio (see shared), a price by the unitary method (see
// unitary), which
// of two numbers is greater (see compared), a
// check of claims (equations without an unknown, "=" also written "is",
// "makes" or "gives": the first wrong one is named, else the first), a
// comparison of two values (see sameValue), a value in another form (see
// converted), a check of a solution (an equation with an unknown and
// values given for it: "Yes" when one of them works), like terms collected
// or brackets expanded in one unknown (see collected), a linear equation
// in one unknown solved (see solved), or a calculation. Changes in per
// cent ("from 60 to 50 is a 20% decrease?"), one amount as a percentage of
// another, ratios to simplify, mixed numbers and amounts in other units
// ("2 m is 200 cm?") are worked too, and operations said in words between
// numbers ("-20 divided by 4", "minus 3 into minus 4") are read as
// symbols.
// Numbers that are no sums are left alone:
// times and ratios ("3:15", "2:3"), dates ("12/05/2010"), thousands
// ("1,000") and ranges or scores ("pages 5-10", "3-1") unless the doubt
// asks for a result ("=", "what is").
func worked(msg string) (string, bool) {
	// Checks written in words come first: their numbers ("12:18", "20%")
	// are no sums for what follows.
	for _, check := range wordedChecks {
		if text, ok := check(msg); ok {
			return text, true
		}
	}
	// A claim checked right may come before a sum worked wrong ("0.5 = 50%
	// so 50% of 40 = 30?"): the sum's No wins.
	yes := ""
	for _, check := range claimChecks {
		if text, ok := check(msg); ok {
			if !strings.HasPrefix(text, "Yes") {
				return text, true
			}
			yes = text
			break
		}
	}
	text, ok := sums(msg)
	if yes != "" && !(ok && (strings.HasPrefix(text, "No") || strings.HasPrefix(text, "Not quite") || strings.HasPrefix(text, "Nearly"))) {
		return yes, true
	}
	return text, ok
}

// sums works the sums, equations and expressions of a doubt (see worked).
func sums(msg string) (string, bool) {
	if notSums.MatchString(msg) || hyphened.MatchString(msg) && !asksResult.MatchString(msg) {
		return "", false
	}
	// A power or a root is read as nothing, and the number it works on
	// with it: "(-1) to the power 5" is no "(-1)", and "5 squared is 25
	// so is 25 + 5 = 31?" still checks 25 + 5.
	msg = powerWords.ReplaceAllString(msg, " ; ")
	if !comparesWords.MatchString(msg) {
		// "is 5 more than 3 times 2" compares, which compared leaves
		// alone.
		msg = inSymbols(msg)
	}
	// "-3 + -4 is positive 7": a claim, as "-3 + -4 = 7" is.
	msg = saidEquals.ReplaceAllStringFunc(msg, func(m string) string {
		sub := saidEquals.FindStringSubmatch(m)
		sign := ""
		if sub[3] != "" {
			sign = "-"
		}
		return sub[1] + " = " + sign + sub[4]
	})
	runs := mathRuns(msg)
	if text, ok := sameValue(msg, runs); ok {
		return text, true
	}
	if text, ok := converted(msg, runs); ok {
		return text, true
	}
	unknown := ""
	var values []*big.Rat
	var written []string // each value as the doubt writes it, when a single number
	for _, r := range runs {
		// "x = 4": a value the doubt gives the unknown.
		if v, ok := assigns(r); ok && (unknown == "" || unknown == r[0].text) {
			values, unknown = append(values, v), r[0].text
			w := ""
			switch {
			case len(r) == 3 && r[2].kind == mNum:
				w = r[2].text
			case len(r) == 4 && r[2].kind == mOp && r[2].text == "-" && r[3].kind == mNum:
				w = "-" + r[3].text
			}
			if strings.HasSuffix(w, "%") {
				w = "" // a per cent is no decimal written for the root
			}
			written = append(written, w)
		}
	}
	var right, wrong string
	for _, r := range runs {
		show := ratString
		if slices.ContainsFunc(r, func(t mathToken) bool { return t.kind == mNum && strings.Contains(t.text, "/") }) {
			show = fractionString // fractions in, fractions out
		}
		sides := splitEq(r)
		switch {
		case len(sides) == 2 && len(values) > 0 && usesVar(r, unknown) && !isAssignment(r):
			var first string
			for k, value := range values {
				l, lok := evalTokens(sides[0], unknown, value)
				rv, rok := evalTokens(sides[1], unknown, value)
				if !lok || !rok {
					continue
				}
				with := "with " + unknown + " = " + show(value) + ", " + showTokens(sides[0], unknown, value)
				if l.Cmp(rv) == 0 {
					return "Yes: " + with + " = " + show(l) + ", so both sides are equal.", true
				}
				if root, places, rounded, ok := roundedRoot(sides, unknown, value, written[k]); ok && first == "" {
					// "3x = 10, is x = 3.33?": the root, rounded or cut.
					how := " is that to "
					if !rounded {
						how = " is that cut to "
					}
					first = "Nearly: " + unknown + " = " + fractionString(root) + " exactly, and " + written[k] + how +
						decimalPlaces(places) + ": " + showTokens(sides[0], unknown, value) + " = " + show(l) +
						", just off " + claimed(sides[1], unknown, value, show(rv)) + "."
				}
				if first == "" {
					first = "No: " + with + " = " + show(l) + ", not " + claimed(sides[1], unknown, value, show(rv)) + "."
				}
			}
			if first != "" {
				return first, true
			}
		case !usesVar(r, "") && dividesByZero(sides[0]) && wrong == "" && right == "":
			// "is -12 / 0 = 0?" gets "No"; "is 10 ÷ 0 undefined?" and
			// "what is 10 / 0?" the fact.
			fact := "dividing by 0 is not possible, so " + showTokens(sides[0], "", nil) + " has no value."
			switch _, number := evalTokens(sides[min(1, len(sides)-1)], "", nil); {
			case len(sides) >= 2 && number:
				wrong = "No: " + fact
			case noValue.MatchString(msg):
				right = "Yes: " + fact
			default:
				right = strings.ToUpper(fact[:1]) + fact[1:]
			}
		case len(sides) > 2 && !usesVar(r, ""):
			// "3/4 ÷ 1/2 = 4/3 x 1/2 = 2/3?": each link of the chain.
			if text, isWrong, ok := chain(sides, show); ok && isWrong && wrong == "" {
				wrong = text
			} else if ok && !isWrong && right == "" {
				right = text
			}
		case len(sides) == 2 && !usesVar(r, ""):
			l, lok := evalTokens(sides[0], "", nil)
			rv, rok := evalTokens(sides[1], "", nil)
			if !lok || !rok || !hasOp(sides[0]) {
				continue
			}
			switch {
			case l.Cmp(rv) != 0 && wrong == "":
				wrong = "Not quite: " + showTokens(sides[0], "", nil) + " = " + show(l) + ", not " + claimed(sides[1], "", nil, show(rv)) + "."
			case l.Cmp(rv) == 0 && right == "":
				right = "Yes: " + showTokens(sides[0], "", nil) + " = " + show(l) + "."
			}
		case len(values) == 0 && usesVar(r, "") && !powers.MatchString(msg) && !(len(sides) == 2 && asksFor(msg, unknownOf(r))):
			// "5x - 3x is 2?", "what is 3x + 2x?": like terms collected
			// ("solve 5x - 3x = 2" is solved, and "5x²" is no x).
			switch text, isWrong, ok := collected(sides); {
			case ok && isWrong && wrong == "":
				wrong = text
			case ok && !isWrong && right == "":
				right = text
			}
		case len(sides) == 1 && !usesVar(r, "") && hasOp(r) && right == "" && wrong == "":
			if v, ok := evalTokens(r, "", nil); ok {
				right = showTokens(r, "", nil) + " = " + show(v) + "."
				// "is (-2) x (-3) x (-4) positive?": the sign checked, of
				// the one sum the doubt works.
				if claim, ok := signClaimed(msg); ok && len(runs) == 1 {
					sum := showTokens(r, "", nil) + " = " + show(v) + ", which is " + signName(v)
					if v.Sign() == claim {
						right = "Yes: " + sum + "."
					} else {
						right, wrong = "", "No: "+sum+"."
					}
				}
			}
		}
	}
	if wrong != "" {
		return wrong, true
	}
	if right == "" && len(values) == 0 && !powers.MatchString(msg) {
		return solved(msg, runs)
	}
	return right, right != ""
}

// solved solves a linear equation in one unknown that a doubt asks to
// solve ("solve 2x + 3 = 7", "what is x if 4x = 20?") or gives a worked
// value for ("3x = 12 so x = 12 - 3 = 9?": "Not quite: …, not 9.").
func solved(msg string, runs [][]mathToken) (string, bool) {
	for i, r := range runs {
		sides := splitEq(r)
		name := unknownOf(r)
		if len(sides) != 2 || name == "" || isAssignment(r) {
			continue
		}
		claim, claimed := claimedValue(runs, i, name)
		if !claimed && !asksFor(msg, name) {
			return "", false
		}
		a, b, ok := linearEquation(sides, name)
		if !ok {
			return "", false
		}
		ta, tb, single := termEquals(sides, name)
		if single {
			a, b = ta, tb // "-2x = 8": x = 8 ÷ (-2)
		}
		x := new(big.Rat).Quo(b, a)
		ax, ok := linearString(a, new(big.Rat), name)
		if !ok {
			return "", false
		}
		text := writtenOut(r)
		if !single {
			how := "collect"
			if slices.ContainsFunc(r, func(t mathToken) bool { return t.kind == mOpen }) {
				how = "multiply out the brackets and collect"
			}
			text += ": " + how + " the " + name + " terms on one side and the numbers on the other, " + ax + " = " + ratString(b)
		}
		if a.Cmp(big.NewRat(1, 1)) != 0 {
			div := ratString(a)
			if a.Sign() < 0 {
				div = "(" + div + ")"
			}
			text += ", so " + name + " = " + ratString(b) + " ÷ " + div + " = " + ratString(x)
		}
		switch {
		case !claimed:
			return text + ".", true
		case claim.Cmp(x) == 0:
			return "Yes: " + text + ".", true
		}
		return "Not quite: " + text + ", not " + ratString(claim) + ".", true
	}
	return "", false
}

// solutionOf solves the equation of a doubt that checks a value for its
// unknown ("x + 7 = 10, I got x = 17"), for a doubts session to show after
// its No: "To solve x + 7 = 10: …, x = 3."
func solutionOf(msg string) (string, bool) {
	for _, r := range mathRuns(inSymbols(msg)) {
		if len(splitEq(r)) != 2 || unknownOf(r) == "" || isAssignment(r) {
			continue
		}
		if text, ok := solved("solve "+writtenOut(r), [][]mathToken{r}); ok && !strings.HasPrefix(text, "Yes") && !strings.HasPrefix(text, "Not quite") {
			return "To solve it: " + text, true
		}
	}
	return "", false
}

// dividesByZero reports whether a sum divides by zero: "-12 / 0", "5 ÷ (3
// - 3)".
func dividesByZero(side []mathToken) bool {
	for i, t := range side {
		if t.kind != mOp || t.text != "÷" && t.text != "/" || i+1 >= len(side) {
			continue
		}
		rest := side[i+1:]
		if rest[0].kind == mOpen {
			depth, end := 0, len(rest)
			for j, u := range rest {
				if u.kind == mOpen {
					depth++
				} else if u.kind == mClose {
					if depth--; depth == 0 {
						end = j + 1
						break
					}
				}
			}
			rest = rest[:end]
		} else {
			rest = rest[:1]
		}
		if v, ok := evalTokens(rest, "", nil); ok && v.Sign() == 0 {
			return true
		}
	}
	return false
}

// chain checks a chain of equal signs, "3/4 ÷ 1/2 = 3/4 × 2 = 3/2": right
// when every link has the first one's value, else the first link that
// has not is named.
func chain(sides [][]mathToken, show func(*big.Rat) string) (text string, wrong, ok bool) {
	// The first side that works something out is the reference: "6 = 2 ×
	// 3 = 3 + 4" is measured by 2 × 3.
	ref := slices.IndexFunc(sides, hasOp)
	if ref < 0 {
		return "", false, false
	}
	want, ok := evalTokens(sides[ref], "", nil)
	if !ok {
		return "", false, false
	}
	for _, side := range sides {
		v, ok := evalTokens(side, "", nil)
		if !ok {
			return "", false, false
		}
		if v.Cmp(want) == 0 {
			continue
		}
		if hasOp(side) && ref > 0 {
			// "6 = 2 × 3 = 3 + 4": 3 + 4 is the link that is wrong.
			return "Not quite: " + showTokens(side, "", nil) + " = " + show(v) + ", not " + show(want) + ".", true, true
		}
		return "Not quite: " + showTokens(sides[ref], "", nil) + " = " + show(want) + ", not " + showTokens(side, "", nil) + ".", true, true
	}
	return "Yes: " + showTokens(sides[ref], "", nil) + " = " + show(want) + ".", false, true
}

// slipIn finds where a learner's worked chain goes wrong after a right
// start: in "7/2 - 5/4 = 14/4 - 5/4 = 8/4 = 2" every link up to 14/4 - 5/4
// has the first one's value, and 8/4 has not. It returns the last right
// link, written out, and ok when there is such a slip after at least one
// right step; what the wrong step should have been is not said, since it
// is the answer or leads straight to it. A single sum worked wrong ("so
// 36 + 18 = 56") is a slip in that sum: sum is true, and step is the sum.
//
// Only plain arithmetic is read: a chain with a per cent ("1800/12000 ×
// 100 = 15%") or an unknown is left alone, a rounded decimal ("10 ÷ 3 =
// 3.33") is no slip, and neither is a running total that goes on with a
// new sum ("5 + 3 = 8 = 8 + 2 = 10"). Thousands separators are read as
// such ("3,000 - 500").
func slipIn(msg string) (step string, sum, ok bool) {
	for again := true; again; {
		next := thousands.ReplaceAllString(msg, "$1$2") // "3,000,000" needs two passes
		msg, again = next, next != msg
	}
	for _, run := range mathRuns(msg) {
		if n := len(run); n >= 2 && run[n-1].kind == mVar && run[n-2].kind == mNum {
			run = run[:n-1] // a unit: "= 2 m"
		}
		sides := splitEq(run)
		if len(sides) < 2 || !hasOp(sides[0]) || slices.ContainsFunc(sides, func(s []mathToken) bool { return len(s) == 0 }) ||
			slices.ContainsFunc(run, func(t mathToken) bool { return t.kind == mVar || strings.Contains(t.text, "%") }) {
			continue
		}
		want, ok := evalTokens(sides[0], "", nil)
		if !ok {
			continue
		}
		for k := 1; k < len(sides); k++ {
			v, ok := evalTokens(sides[k], "", nil)
			if !ok || v.Cmp(want) == 0 || rounded(sides[k], v, want) {
				if !ok {
					break
				}
				continue
			}
			switch {
			case hasOp(sides[k]):
				// A new sum, not a value of the last: a running total.
			case len(sides) == 2:
				return showTokens(sides[0], "", nil), true, true
			case k >= 2:
				return showTokens(sides[k-1], "", nil), false, true
			}
			break // wrong from the first step: no right working to build on
		}
	}
	return "", false, false
}

// equationSlip finds the step of a learner's chain of equations in one
// unknown where the solution changes: "2x - 7 = 9, 2x = 2, x = 1" goes
// wrong from 2x - 7 = 9 (x = 8) to 2x = 2 (x = 1). It returns the two
// equations as written; what the unknown is, is not said.
func equationSlip(msg string) (from, to string, ok bool) {
	from, to, _, ok = equationSlipAt(msg)
	return from, to, ok
}

// equationSlipAt is equationSlip, with the solution of the equation
// before the slip.
func equationSlipAt(msg string) (from, to string, before *big.Rat, ok bool) {
	var prev *big.Rat
	var prevText, name string
	for _, r := range mathRuns(inSymbols(msg)) {
		sides := splitEq(r)
		v := unknownOf(r)
		if len(sides) != 2 || v == "" || name != "" && v != name {
			continue
		}
		a, b, ok := linearEquation(sides, v)
		if ta, tb, single := termEquals(sides, v); single {
			a, b, ok = ta, tb, true
		}
		if !ok || a.Sign() == 0 {
			continue
		}
		x := new(big.Rat).Quo(b, a)
		if prev != nil && x.Cmp(prev) != 0 {
			if side := sides[len(sides)-1]; isAssignment(r) && rounded(side, x, prev) {
				continue // "3x = 10, x = 3.33": rounded, no slip
			}
			return prevText, writtenOut(r), prev, true
		}
		prev, prevText, name = x, writtenOut(r), v
	}
	return "", "", nil, false
}

// rounded reports whether a side that is one decimal number is want
// rounded or cut short to its places: 3.33 for 10/3, 0.66 for 2/3.
func rounded(side []mathToken, v, want *big.Rat) bool {
	if len(side) != 1 || side[0].kind != mNum {
		return false
	}
	_, frac, ok := strings.Cut(side[0].text, ".")
	if !ok || len(frac) == 0 || len(frac) > 12 {
		return false
	}
	// Rounded (within half a unit of its last place) or cut short
	// (below want by less than a unit, away from zero).
	unit := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(len(frac))), nil))
	half := new(big.Rat).Mul(unit, big.NewRat(1, 2))
	short := new(big.Rat).Sub(new(big.Rat).Abs(want), new(big.Rat).Abs(v)) // how far the value falls short of want in size
	diff := new(big.Rat).Sub(v, want)
	return diff.Abs(diff).Cmp(half) <= 0 || v.Sign() == want.Sign() && short.Sign() >= 0 && short.Cmp(unit) < 0
}

// thousands finds a thousands separator: "3,000".
var thousands = regexp.MustCompile(`(\d),(\d{3})\b`)

// partsNamed reads a number of the fractions just shown used as a name in
// the plural ("why dont we add the 7s too?" after "2/7 + 3/7 = 5/7") as the
// part of a fraction it is: "the denominators". A number that is both a
// numerator and a denominator there, or neither, or is not in the plural
// ("the 2 numbers", "the 2 + 3"), is left as it is.
func partsNamed(msg, shown string) string {
	ms := numberNamed.FindAllStringSubmatchIndex(msg, -1)
	if len(ms) == 0 {
		return msg
	}
	tops, bottoms := map[string]bool{}, map[string]bool{}
	for _, f := range shownFraction.FindAllStringSubmatch(shown, -1) {
		tops[f[1]], bottoms[f[2]] = true, true
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		if m[1] < len(msg) && (msg[m[1]] == '/' || unicode.IsDigit(rune(msg[m[1]]))) {
			continue // "the 5/14": a value
		}
		n, plural := msg[m[2]:m[3]], m[4] >= 0
		if !plural {
			continue // "the 2 numbers", "the 2 + 3": a count or a sum, not a name
		}
		name := ""
		switch {
		case bottoms[n] && !tops[n]:
			name = "denominator"
		case tops[n] && !bottoms[n]:
			name = "numerator"
		default:
			continue
		}
		if plural {
			name += "s"
		}
		b.WriteString(msg[last:m[0]])
		b.WriteString("the " + name)
		last = m[1]
	}
	b.WriteString(msg[last:])
	return b.String()
}

var (
	numberNamed   = regexp.MustCompile(`(?i)\bthe\s+(\d+)('?s)?\b`)
	shownFraction = regexp.MustCompile(`(\d+)\s*/\s*(\d+)`)
)

// noValue finds a doubt that says a sum has no value: "undefined", "not
// possible", "no answer".
var noValue = regexp.MustCompile(`(?i)\b(?:undefined|not\s+(?:possible|defined|allowed)|no\s+(?:answer|value)|impossible|can'?t\s+be\s+done)\b`)

// linearEquation reads an equation in one unknown as a·x = b, with the
// unknown's terms collected on the side that leaves a positive: "5 = x +
// 2" is x = 3, not -x = -3. ok is false when a side is not linear or the
// unknown cancels out.
func linearEquation(sides [][]mathToken, name string) (a, b *big.Rat, ok bool) {
	if len(sides) != 2 {
		return nil, nil, false
	}
	a1, b1, ok1 := linear(sides[0], name)
	a2, b2, ok2 := linear(sides[1], name)
	if !ok1 || !ok2 || a1.Cmp(a2) == 0 {
		return nil, nil, false
	}
	a, b = new(big.Rat).Sub(a1, a2), new(big.Rat).Sub(b2, b1)
	if a.Sign() < 0 {
		a.Neg(a)
		b.Neg(b)
	}
	return a, b, true
}

// termEquals returns a and b of an equation that is already one term of
// the unknown equal to a number, a·x = b ("4x = 20", "-2x = 8"), which
// needs no collecting.
func termEquals(sides [][]mathToken, name string) (a, b *big.Rat, ok bool) {
	if simplifiable(sides[0]) {
		return nil, nil, false // "5x - 3x = 2", "2(x + 1) = 8"
	}
	a1, b1, ok1 := linear(sides[0], name)
	a2, b2, ok2 := linear(sides[1], name)
	if !ok1 || !ok2 || b1.Sign() != 0 || a2.Sign() != 0 || a1.Sign() == 0 {
		return nil, nil, false
	}
	return a1, b2, true
}

// claimedValue finds the value a doubt works out for the unknown of the
// equation runs[eq] in another run: "x = 12 - 3 = 9" gives 9.
func claimedValue(runs [][]mathToken, eq int, name string) (*big.Rat, bool) {
	for i, r := range runs {
		if i == eq || len(r) < 3 || r[0].kind != mVar || r[0].text != name || r[1].kind != mEq {
			continue
		}
		sides := splitEq(r)
		if v, ok := evalTokens(sides[len(sides)-1], "", nil); ok && !usesVar(sides[len(sides)-1], "") {
			return v, true
		}
	}
	return nil, false
}

// asksFor reports whether a doubt asks to solve, or asks for the value of
// the unknown name ("what is x if …"; not "what is a variable in …").
func asksFor(msg, name string) bool {
	for _, m := range asksSolve.FindAllStringSubmatch(msg, -1) {
		if l := cmp.Or(m[1], m[2], m[3], m[4]); l == "" || strings.EqualFold(l, name) {
			return true
		}
	}
	return false
}

// powers finds a power or a product of unknowns written side by side
// ("5x²", "x^2", "xx"), which the linear reading of a doubt cannot hold.
var powers = regexp.MustCompile(`(?i)[\^²³]|\b\d*(?:xx|yy|xy|yx)\b`)

// powerWords name powers and roots, which the sums here do not read.
var powerWords = regexp.MustCompile(`(?i)[-(]?\d+(?:\.\d+)?\)?\s*(?:to\s+the\s+power(?:\s+of)?\s*\d+|squared|cubed)|\b(?:square|cube)\s+root\s+of\s+\d+(?:\.\d+)?`)

// asksSolve finds a doubt that asks to solve, or for the value of an
// unknown (the submatches hold its letter).
var asksSolve = regexp.MustCompile(`(?i)\b(?:solve|solving|find\s+(?:the\s+value\s+of\s+)?([a-z])\b|what(?:'s|s|\s+is|\s+will\s+be)\s+(?:the\s+value\s+of\s+)?([a-z])\b|value\s+of\s+([a-z])\b)|\b([a-z])\s*=\s*\?`)

// claimChecks are claims about one number or one step, tried in order
// after wordedChecks.
var claimChecks = []func(string) (string, bool){percentEquals, reciprocalClaim, flippedDivision}

// wordedChecks are the sums a doubt states in words, tried in order.
var wordedChecks = []func(string) (string, bool){partOf, common, shared, unitRatio, simplifiedRatio, simplestRatio, unitary, compared, percentMeans, upThenDown, percentChange, percentOf, discounted, converts, partOfWhole, numberPuzzle, dividedUnknown, piecesFrom, howManyFor}

// partOf works "what is 2/3 of 12?" and "what is 15% of 80?" step by step,
// as a teacher shows it, rather than the product alone: a learner who asks
// wants the method.
func partOf(msg string) (string, bool) {
	m := asksPartOf.FindStringSubmatch(msg)
	if m == nil {
		return "", false
	}
	whole, ok := new(big.Rat).SetString(m[5])
	if !ok || len(m[5]) > 9 {
		return "", false
	}
	// The whole in its unit, and the part in the same: "₹80", "80 kg".
	unit := func(v string) string {
		switch {
		case m[4] != "":
			return "₹" + v
		case m[6] != "":
			return v + " " + m[6]
		}
		return v
	}
	w := ratString(whole)
	if m[3] != "" { // a per cent
		p, ok := new(big.Rat).SetString(m[3])
		if !ok || len(m[3]) > 6 {
			return "", false
		}
		v := new(big.Rat).Mul(new(big.Rat).Quo(p, big.NewRat(100, 1)), whole)
		prod := new(big.Rat).Mul(p, whole)
		return "To find " + ratString(p) + "% of " + unit(w) + ", take " + ratString(p) + " hundredths of it: " + ratString(p) + "/100 × " + w +
			" = " + ratString(prod) + " ÷ 100 = " + decimalOrFraction(v) + ". So " + ratString(p) + "% of " + unit(w) + " = " + unit(decimalOrFraction(v)) + ".", true
	}
	a, ok1 := new(big.Int).SetString(m[1], 10)
	b, ok2 := new(big.Int).SetString(m[2], 10)
	if !ok1 || !ok2 || b.Sign() == 0 || len(m[1]) > 6 || len(m[2]) > 6 {
		return "", false
	}
	part := new(big.Rat).Quo(whole, new(big.Rat).SetInt(b))
	v := new(big.Rat).Mul(part, new(big.Rat).SetInt(a))
	how := "divide " + w + " into " + m[2] + " equal parts and take " + m[1] + " of them"
	if a.Cmp(b) > 0 {
		how = "divide " + w + " by " + m[2] + " and multiply by " + m[1] // "take 7 of 3 parts" reads oddly
	}
	return "To find " + m[1] + "/" + m[2] + " of " + unit(w) + ", " + how + ": " +
		w + " ÷ " + m[2] + " = " + decimalOrFraction(part) + ", and " + m[1] + " × " + decimalOrFraction(part) + " = " + decimalOrFraction(v) +
		". So " + m[1] + "/" + m[2] + " of " + unit(w) + " = " + unit(decimalOrFraction(v)) + ".", true
}

// partOfWhole works a word problem that takes a fraction or a per cent of
// the one amount it names: "a rope is 15 m long. 2/5 of it is cut off.
// how long is the cut piece?" is 2/5 of 15 m (see partOf).
func partOfWhole(msg string) (string, bool) {
	if !isQuestion(msg) && !strings.Contains(msg, "?") {
		return "", false
	}
	m := partOfIt.FindStringSubmatchIndex(msg)
	if m == nil {
		return "", false
	}
	part := msg[m[2]:m[3]]
	rest := msg[:m[0]] + " " + msg[m[1]:]
	if partOfIt.MatchString(rest) || fractionOrPercent.MatchString(rest) || !asksThePart(msg, m[0]) {
		return "", false // another part, or a question about what is left: not this sum
	}
	wholes := amounts(rest)
	if len(wholes) != 1 || len(amounts(msg[m[1]:])) > 0 {
		return "", false // the whole must come before, and alone
	}
	whole := wholes[0]
	text := "what is " + part + " of " + whole[1] + whole[2]
	if whole[3] != "" {
		text += " " + whole[3]
	}
	return partOf(text)
}

// amounts returns the amounts of a text that are no per cent or fraction,
// each as amountWithUnit's groups.
func amounts(text string) [][]string {
	var out [][]string
	for _, m := range amountWithUnit.FindAllStringSubmatchIndex(text, -1) {
		after := strings.TrimLeft(text[m[5]:], " ")
		if strings.HasPrefix(after, "%") || strings.HasPrefix(after, "/") || m[4] > 0 && text[m[4]-1] == '/' ||
			strings.HasPrefix(strings.ToLower(after), "per") {
			continue
		}
		g := make([]string, 4)
		for k := range 4 {
			if m[2*k] >= 0 {
				g[k] = text[m[2*k]:m[2*k+1]]
			}
		}
		out = append(out, g)
	}
	return out
}

// asksThePart reports whether the question a word problem ends with asks
// for the part it names at index at, not what the part leaves: it shares a
// word with the part's own sentence ("how many wear glasses?" of "25% of
// them wear glasses"), and has no word of what is left ("left", "keep",
// "not", "after", "empty") nor a plural the problem names nowhere else
// ("how many boys?" of "3/4 of them are girls").
func asksThePart(msg string, at int) bool {
	ask := ""
	sents := sentences(msg)
	switch {
	case len(sents) >= 2:
		ask = sents[len(sents)-1]
	default:
		i := strings.LastIndex(msg, ",")
		if i < at {
			return false
		}
		ask = msg[i+1:]
	}
	rest := strings.Replace(msg, ask, " ", 1)
	if strings.Contains(rest, ask) || strings.TrimSpace(ask) == "" || strings.Index(msg, ask) <= at {
		return false
	}
	others := terms(rest)
	partSent := rest
	if i := strings.LastIndexAny(rest[:min(at, len(rest))], ".?!,"); i >= 0 {
		partSent = rest[i+1:]
	}
	part := terms(partSent)
	shared := false
	for _, w := range words(ask) {
		if leftOver[w] || plural(w) && !slices.Contains(others, stem(w)) {
			return false
		}
		if t := stem(pastOf(w)); !stopWords[w] && len(w) > 2 && slices.Contains(part, t) {
			shared = true
		}
	}
	return shared
}

// pastOf returns the present of a few irregular past forms a word problem
// uses ("spent" for "spend"), and any other word as it is.
func pastOf(w string) string {
	switch w {
	case "spend":
		return "spent"
	case "keep":
		return "kept"
	case "buy":
		return "bought"
	case "sell":
		return "sold"
	}
	return w
}

// plural reports whether w reads as a plural noun: "boys", "glasses".
func plural(w string) bool {
	return len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") &&
		!strings.HasSuffix(w, "is") && !strings.HasSuffix(w, "as")
}

// leftOver are the words of a question about what a part leaves.
var leftOver = wordSet(`left remaining remain remains rest other others not after now still keep kept save saved
	empty unused dont doesnt didnt no without male female except besides`)

// fractionOrPercent finds a fraction or a per cent.
var fractionOrPercent = regexp.MustCompile(`\d+\s*/\s*\d+|\d+(?:\.\d+)?\s*(?:%|per\s?cent)`)

var (
	// partOfIt finds a fraction or a per cent of an amount named before:
	// "2/5 of it", "20% of them", "3/4 of the rope".
	partOfIt = regexp.MustCompile(`(?i)\b(\d+\s*/\s*\d+|\d+(?:\.\d+)?\s*(?:%|per\s?cent))\s+of\s+(?:it|them|this|that|the\s+\w+)\b`)
	// amountWithUnit is an amount with its unit: "15 m", "₹450", "80 kg".
	amountWithUnit = regexp.MustCompile(`(?i)(₹\s*|rs\.?\s*)?\b(\d+(?:\.\d+)?)\s*(rupees|rs|kg|g|m|cm|km|l|ml|marks|students|people|apples)?\b`)
)

// numberPuzzle writes a number puzzle as an equation and solves it: "the
// sum of a number and 12 is 30. what is the number?" is x + 12 = 30. The
// puzzle must be a whole statement: "3 times a number plus 4 is 19" holds
// "a number plus 4 is 19" but is not it.
func numberPuzzle(msg string) (string, bool) {
	for _, p := range puzzles {
		m := p.re.FindStringSubmatchIndex(msg)
		if m == nil || partOfMore(msg[:m[0]], msg[m[5]:]) {
			continue
		}
		eq := strings.NewReplacer("A", msg[m[2]:m[3]], "B", msg[m[4]:m[5]]).Replace(p.eq)
		if text, ok := solved("solve "+eq, mathRuns(eq)); ok && !strings.HasPrefix(text, "Yes") && !strings.HasPrefix(text, "Not quite") {
			return "Call the number x. Then " + text, true
		}
	}
	return "", false
}

// partOfMore reports whether the words around a puzzle make it part of a
// longer one: a number, "times" or "of" before it ("3 times a number plus
// 4 is 19"), or a comparison or more arithmetic after it ("… is 27 more
// than the number").
func partOfMore(before, after string) bool {
	if strings.HasSuffix(strings.TrimRight(before, " "), "-") || strings.HasSuffix(strings.TrimRight(before, " "), "−") {
		return true // "-3 times a number": the sign is the puzzle's
	}
	if a := strings.TrimLeft(after, " "); a != "" && strings.ContainsAny(a[:1], "/-+×*÷^%") {
		return true // "is 2/3", "is 10 - 3": more than a number
	}
	bw, aw := words(before), words(after)
	if n := len(bw); n > 0 {
		switch w := bw[n-1]; {
		case isDigits(w), w == "times", w == "twice", w == "thrice", w == "double", w == "half", w == "of", w == "plus", w == "minus",
			w == "than", w == "the", w == "product", w == "sum", w == "difference", w == "and":
			return true
		}
	}
	if strings.HasPrefix(strings.TrimLeft(after, " "), ".") && len(after) > 1 && after[1] >= '0' && after[1] <= '9' {
		return true // "2.5": the number goes on
	}
	if len(aw) > 0 {
		switch aw[0] {
		case "more", "less", "than", "times", "plus", "minus", "percent", "of", "divided", "multiplied", "over", "by":
			return true
		}
	}
	return false
}

// puzzles are the number puzzles numberPuzzle reads, with their equation
// in A and B.
var puzzles = func() []struct {
	re *regexp.Regexp
	eq string
} {
	const num = `(\d+(?:\.\d+)?)`
	var ps []struct {
		re *regexp.Regexp
		eq string
	}
	for _, p := range [][2]string{
		{`(?:the\s+)?sum\s+of\s+(?:a|the)\s+number\s+and\s+` + num + `\s+is\s+` + num, "x + A = B"},
		{`(?:a|the)\s+number\s+(?:increased\s+by|plus)\s+` + num + `\s+is\s+` + num, "x + A = B"},
		{num + `\s+more\s+than\s+(?:a|the)\s+number\s+is\s+` + num, "x + A = B"},
		{`(?:a|the)\s+number\s+(?:decreased\s+by|minus)\s+` + num + `\s+is\s+` + num, "x - A = B"},
		{num + `\s+less\s+than\s+(?:a|the)\s+number\s+is\s+` + num, "x - A = B"},
		{num + `\s+times\s+(?:a|the)\s+number\s+is\s+` + num, "Ax = B"},
	} {
		ps = append(ps, struct {
			re *regexp.Regexp
			eq string
		}{regexp.MustCompile(`(?i)\b` + p[0] + `\b`), p[1]})
	}
	return ps
}()

// dividedUnknown solves an unknown divided by a number: "x/3 = 7, what
// is x?", "a number divided by 3 is 7": x = 7 × 3 = 21. (The linear
// solver reads no division of the unknown.)
func dividedUnknown(msg string) (string, bool) {
	var name, d, v string
	switch m := dividedEq.FindStringSubmatch(msg); {
	case m != nil && strings.Count(msg, "=") == 1:
		name, d, v = m[1], m[2], m[3]
	default:
		i := dividedPuzzle.FindStringSubmatchIndex(msg)
		if i == nil || partOfMore(msg[:i[0]], msg[i[5]:]) {
			return "", false
		}
		name, d, v = "x", msg[i[2]:i[3]], msg[i[4]:i[5]]
	}
	dv, ok1 := new(big.Rat).SetString(d)
	vv, ok2 := new(big.Rat).SetString(v)
	if !ok1 || !ok2 || dv.Sign() == 0 || len(d) > 6 || len(v) > 9 {
		return "", false
	}
	x := new(big.Rat).Mul(vv, dv)
	text := name + " ÷ " + d + " = " + v + ", so multiply both sides by " + d + ": " + name + " = " + v + " × " + d + " = " + decimalOrFraction(x) + "."
	if name == "x" && dividedEq.FindStringSubmatch(msg) == nil {
		return "Call the number x. Then " + text, true
	}
	return "To solve it: " + text, true
}

var (
	// dividedEq is an unknown divided by a number: "x/3 = 7", "y ÷ 4 = -2".
	dividedEq = regexp.MustCompile(`(?i)(?:^|[^\w./])([a-z])\s*(?:/|÷)\s*(\d+)\s*=\s*(-?\d+(?:\.\d+)?)(?:[^\w/.]|\.\s|\.$|$)`)
	// dividedPuzzle is the same said in words.
	dividedPuzzle = regexp.MustCompile(`(?i)\b(?:a|the)\s+number\s+divided\s+by\s+(\d+)\s+is\s+(\d+(?:\.\d+)?)\b`)
)

// piecesFrom works "how many 1/2 m pieces can be cut from 5 m of rope?":
// the whole divided by one piece, when a whole number of pieces fit.
func piecesFrom(msg string) (string, bool) {
	m := piecesOf.FindStringSubmatch(msg)
	if m == nil || m[2] != m[5] {
		return "", false // "1/2 m pieces from 5 cm": units to convert first
	}
	piece, ok1 := new(big.Rat).SetString(strings.ReplaceAll(m[1], " ", ""))
	whole, ok2 := new(big.Rat).SetString(m[4])
	if !ok1 || !ok2 || piece.Sign() <= 0 || len(m[4]) > 9 {
		return "", false
	}
	n := new(big.Rat).Quo(whole, piece)
	if !n.IsInt() {
		return "", false
	}
	unit := ""
	if m[2] != "" {
		unit = " " + m[2]
	}
	shown := strings.Join(strings.Fields(strings.ReplaceAll(m[1], "/", " / ")), "")
	how := m[4] + " ÷ " + shown
	if !piece.IsInt() {
		how += " = " + m[4] + " × " + fractionString(new(big.Rat).Inv(piece))
	}
	return "Divide the whole by one piece: " + how + " = " + ratString(n) + ", so you get " + ratString(n) + " " + m[3] + " of " + shown + unit + ".", true
}

// piecesOf asks how many pieces of one size come from a whole of the same
// unit.
var piecesOf = regexp.MustCompile(`(?i)\bhow\s+many\s+(\d+\s*/\s*\d+|\d+(?:\.\d+)?)\s*(m|cm|mm|km|kg|g|l|ml)?\s*(pieces|packets|parts|bottles|bags|glasses|lengths|strips|bits|cups)\b[^?]*?\bfrom\s+(?:a\s+|an\s+)?(\d+(?:\.\d+)?)\s*(m|cm|mm|km|kg|g|l|ml)?\b`)

// howManyFor works "if 3 pens cost 45 rupees, how many pens can I buy for
// 60 rupees?": the price of one, then how many the money buys, when a
// whole number does.
func howManyFor(msg string) (string, bool) {
	m := costOf.FindStringSubmatchIndex(msg)
	if m == nil || notPlain.MatchString(msg) {
		return "", false
	}
	count, noun, price := msg[m[2]:m[3]], strings.ToLower(msg[m[4]:m[5]]), msg[m[6]:m[7]]
	f := buyFor.FindStringSubmatch(msg[m[1]:])
	if f == nil || singular(strings.ToLower(f[1])) != singular(noun) {
		return "", false
	}
	n, ok1 := new(big.Rat).SetString(count)
	p, ok2 := new(big.Rat).SetString(price)
	money, ok3 := new(big.Rat).SetString(strings.ReplaceAll(cmp.Or(f[2], f[3]), ",", ""))
	if !ok1 || !ok2 || !ok3 || n.Sign() <= 0 || p.Sign() <= 0 {
		return "", false
	}
	one := new(big.Rat).Quo(p, n)
	k := new(big.Rat).Quo(money, one)
	if !k.IsInt() || !new(big.Rat).Mul(one, big.NewRat(100, 1)).IsInt() {
		return "", false
	}
	return "One " + singular(noun) + " costs " + price + " ÷ " + count + " = ₹" + decimalOrFraction(one) + ", so ₹" + ratString(money) +
		" buys " + ratString(money) + " ÷ " + decimalOrFraction(one) + " = " + ratString(k) + " " + strings.ToLower(f[1]) + ".", true
}

// buyFor asks how many of a thing an amount buys: "how many pens can I buy
// for 60 rupees", "how many pens for ₹60".
var buyFor = regexp.MustCompile(`(?i)\bhow\s+many\s+(\w+)\b[^?]*?\bfor\s+(?:₹\s*|rs\.?\s*)?(?:(\d[\d,]*(?:\.\d+)?)\s*(?:rupees|rs)?|(\d[\d,]*(?:\.\d+)?))`)

// asksPartOf finds a doubt that asks for a fraction or a per cent of a
// number, and nothing else: "what is 2/3 of 12?", "find 15% of 80".
var asksPartOf = regexp.MustCompile(`(?i)^\W*(?:(?:so|wait|ok|okay|and|but|then|hmm)\W+)*(?:what\s+is|what'?s|whats|find|calculate|work\s+out|how\s+much\s+is)\s+(?:(\d+)\s*/\s*(\d+)|(\d+(?:\.\d+)?)\s*(?:%|per\s?cent))\s+of\s+(₹\s*|rs\.?\s*)?(\d+(?:\.\d+)?)\s*(rupees|rs|kg|g|m|cm|km|l|ml|marks|students|people|apples)?\s*\??\s*$`)

// sameValue answers "is 25% the same as 1/4?", "is 0.5 the same as 5%?"
// and "is 50% of 20 the same as 20% of 50?": two values the doubt asks to
// compare.
func sameValue(msg string, runs [][]mathToken) (string, bool) {
	// The two values stand right around the phrase: "is step 2 the same
	// as step 3?" compares steps, not numbers.
	if !sameAround.MatchString(msg) || len(runs) != 2 {
		return "", false
	}
	a, aok := evalTokens(runs[0], "", nil)
	b, bok := evalTokens(runs[1], "", nil)
	if !aok || !bok {
		return "", false
	}
	sa, sb := showTokens(runs[0], "", nil), showTokens(runs[1], "", nil)
	switch {
	case a.Cmp(b) == 0 && (hasOp(runs[0]) || hasOp(runs[1])):
		return "Yes: " + sa + " = " + ratString(a) + " and " + sb + " = " + ratString(b) + ".", true
	case a.Cmp(b) == 0:
		return "Yes: " + sa + " = " + sb + ".", true
	case hasOp(runs[0]) && hasOp(runs[1]):
		return "No: " + sa + " = " + ratString(a) + ", but " + sb + " = " + ratString(b) + ".", true
	case hasOp(runs[0]):
		return "No: " + sa + " = " + ratString(a) + ", not " + sb + ".", true
	case hasOp(runs[1]):
		return "No: " + sb + " = " + ratString(b) + ", not " + sa + ".", true
	}
	// Plain values: the first written in the form of the second.
	var as string
	switch t := runs[1][len(runs[1])-1].text; {
	case strings.HasSuffix(t, "%"):
		as = percentString(a)
	case strings.Contains(t, "/"):
		as = fractionString(a)
	default:
		as = decimalString(a)
	}
	if strings.TrimPrefix(as, "about ") == sb {
		return "Nearly: " + sa + " is about " + sb + ", but not exactly.", true
	}
	return "No: " + sa + " = " + as + ", not " + sb + ".", true
}

// common answers "what is the LCM of 4 and 6?" and "HCF of 12, 18 and
// 30": the lowest common multiple or the highest common factor of whole
// numbers.
func common(msg string) (string, bool) {
	m := commonOf.FindStringSubmatch(msg)
	if m == nil {
		return "", false
	}
	var ns []*big.Int
	for _, f := range digitRun.FindAllString(m[2], -1) {
		n, ok := new(big.Int).SetString(f, 10)
		if !ok || n.Sign() == 0 || len(f) > 9 || len(ns) == 6 {
			return "", false
		}
		ns = append(ns, n)
	}
	name := "HCF"
	if w := strings.ToLower(m[1]); strings.HasPrefix(w, "l") {
		name = "LCM"
	}
	r := new(big.Int).Set(ns[0])
	for _, n := range ns[1:] {
		g := new(big.Int).GCD(nil, nil, r, n)
		if name == "LCM" {
			r.Div(r.Mul(r, n), g)
		} else {
			r = g
		}
	}
	list := make([]string, len(ns))
	for i, n := range ns {
		list[i] = n.String()
	}
	and := strings.Join(list[:len(list)-1], ", ") + " and " + list[len(list)-1]
	return "The " + name + " of " + and + " is " + r.String() + ".", true
}

// shared works "how do I share 20 sweets in the ratio 2:3?": the parts, one
// part, and each share.
func shared(msg string) (string, bool) {
	mi := shareIn.FindStringSubmatchIndex(msg)
	if mi == nil {
		return "", false
	}
	if after := msg[mi[1]:]; len(after) > 0 && (strings.ContainsAny(after[:1], ".,/:") && len(after) > 1 && isDigits(after[1:2])) {
		return "", false // "2:3.5", "2:3/4", "2:3:4:5:6": not terms shared here
	}
	m := make([]string, len(mi)/2)
	for i := range m {
		if mi[2*i] >= 0 {
			m[i] = msg[mi[2*i]:mi[2*i+1]]
		}
	}
	total, ok := new(big.Rat).SetString(m[2])
	if !ok || total.Sign() <= 0 {
		return "", false
	}
	var terms []*big.Rat
	var names []string
	sum := new(big.Rat)
	for _, t := range digitRun.FindAllString(m[3], -1) {
		v, ok := new(big.Rat).SetString(t)
		if !ok || v.Sign() == 0 || len(t) > 6 {
			return "", false
		}
		terms, names = append(terms, v), append(names, t)
		sum.Add(sum, v)
	}
	if len(terms) < 2 || len(terms) > 4 {
		return "", false
	}
	one := new(big.Rat).Quo(total, sum)
	cur := ""
	if rupees.MatchString(msg) {
		cur = "₹"
	}
	shares := make([]string, len(terms))
	for i, v := range terms {
		shares[i] = names[i] + " × " + ratString(one) + " = " + cur + ratString(new(big.Rat).Mul(v, one))
	}
	return "There are " + strings.Join(names, " + ") + " = " + ratString(sum) + " parts, so one part is " +
		m[2] + " ÷ " + ratString(sum) + " = " + cur + ratString(one) + ", and the shares are " +
		strings.Join(shares[:len(shares)-1], ", ") + " and " + shares[len(shares)-1] + ".", true
}

// unitary works "if 5 pens cost 40 rupees, how much do 8 pens cost?" by
// the unitary method: one first, then as many as asked. It answers only
// whole counts of things (no "kg", no "each", no paise), the count asked
// after "how much" or "how many" when the doubt says so, and exact prices.
func unitary(msg string) (string, bool) {
	m := costOf.FindStringSubmatchIndex(msg)
	if m == nil || notPlain.MatchString(msg) {
		return "", false
	}
	count, noun, price := msg[m[2]:m[3]], strings.ToLower(msg[m[4]:m[5]]), msg[m[6]:m[7]]
	if m[7] < len(msg) && strings.ContainsAny(msg[m[7]:m[7]+1], ".,:/") && m[7]+1 < len(msg) && isDigits(msg[m[7]+1:m[7]+2]) {
		return "", false // "₹1,200": a number that goes on
	}
	rest := msg[m[1]:]
	if i := askedFor.FindStringIndex(rest); i != nil {
		rest = rest[i[0]:] // the count asked, not one told on the way
	}
	single := singular(noun)
	want, plural := "", ""
	for _, c := range manyOf.FindAllStringSubmatchIndex(rest, -1) {
		w := strings.ToLower(rest[c[4]:c[5]])
		if singular(w) == single && !(c[3] < len(rest) && strings.ContainsAny(rest[c[3]:c[3]+1], ".,/")) && (c[2] == 0 || !strings.ContainsAny(rest[c[2]-1:c[2]], ".,/")) {
			want, plural = rest[c[2]:c[3]], w
			break
		}
	}
	n, ok1 := new(big.Rat).SetString(count)
	p, ok2 := new(big.Rat).SetString(price)
	w, ok3 := new(big.Rat).SetString(want)
	if !ok1 || !ok2 || !ok3 || n.Sign() <= 0 || want == count || units[single] {
		return "", false
	}
	one := new(big.Rat).Quo(p, n)
	if !new(big.Rat).Mul(one, big.NewRat(100, 1)).IsInt() {
		return "", false // not a price in rupees and paise
	}
	if w.Cmp(big.NewRat(1, 1)) == 0 {
		plural = single
	}
	cur := ""
	if rupees.MatchString(msg) {
		cur = "₹"
	}
	verb := "cost"
	if plural == single {
		verb = "costs"
	}
	return "One " + single + " costs " + price + " ÷ " + count + " = " + cur + ratString(one) + ", so " + want + " " + plural +
		" " + verb + " " + want + " × " + ratString(one) + " = " + cur + ratString(new(big.Rat).Mul(w, one)) + ".", true
}

// singular returns the singular of a plural count noun: "pens" → "pen",
// "boxes" → "box", "mangoes" → "mango", "candies" → "candy", "children"
// → "child".
func singular(w string) string {
	switch {
	case w == "children":
		return "child"
	case w == "people":
		return "person"
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "oes"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		return w[:len(w)-1]
	}
	return w
}

// units are measures, not things counted: "if 2 kg cost 90 rupees" is a
// rate the unitary method answers only with care for the units.
var units = map[string]bool{"kg": true, "g": true, "gram": true, "kilogram": true, "litre": true, "liter": true, "l": true,
	"ml": true, "m": true, "metre": true, "meter": true, "cm": true, "km": true, "hour": true, "minute": true, "dozen": true}

// simplifiedRatio checks "so 12:18 simplifies to 3:2?": a ratio claimed
// equal to another.
func simplifiedRatio(msg string) (string, bool) {
	mi := ratioClaim.FindStringSubmatchIndex(msg)
	if mi == nil {
		return "", false
	}
	if before := strings.TrimRight(msg[:mi[0]], " "); before != "" && strings.ContainsAny(before[len(before)-1:], "+-*/:x") ||
		strings.HasSuffix(before, "×") || strings.HasSuffix(before, "÷") {
		return "", false // "2:3 + 1:3 = 3:6": a sum of ratios, which means nothing
	}
	m := ratioClaim.FindStringSubmatch(msg[mi[0]:])
	var v [4]*big.Int
	for i := range v {
		n, ok := new(big.Int).SetString(m[i+1], 10)
		if !ok || n.Sign() == 0 || len(m[i+1]) > 9 {
			return "", false
		}
		v[i] = n
	}
	g := new(big.Int).GCD(nil, nil, v[0], v[1])
	sa, sb := new(big.Int).Quo(v[0], g), new(big.Int).Quo(v[1], g)
	from := m[1] + " : " + m[2]
	simplest := sa.String() + " : " + sb.String()
	claim := m[3] + " : " + m[4]
	same := new(big.Int).Mul(v[0], v[3]).Cmp(new(big.Int).Mul(v[1], v[2])) == 0
	switch {
	case same && claim == simplest:
		return "Yes: " + from + " = " + simplest + " in its simplest form (both divided by " + g.String() + ").", true
	case same:
		return "Yes: " + from + " = " + claim + ", and in its simplest form " + from + " = " + simplest + ".", true
	case new(big.Int).Mul(v[0], v[2]).Cmp(new(big.Int).Mul(v[1], v[3])) == 0 && from == simplest:
		// "is 2:3 the same as 3:2?": no "2 : 3 = 2 : 3".
		return "No: " + claim + " is the ratio " + from + " the other way round.", true
	case new(big.Int).Mul(v[0], v[2]).Cmp(new(big.Int).Mul(v[1], v[3])) == 0:
		return "No: " + from + " = " + simplest + "; " + claim + " is the ratio the other way round.", true
	}
	return "No: " + from + " = " + simplest + " in its simplest form, not " + claim + ".", true
}

// percentMeans checks "so 50% means 50?": a percentage read as a plain
// number rather than so many out of 100.
func percentMeans(msg string) (string, bool) {
	m := meansPercent.FindStringSubmatch(msg)
	if m == nil {
		return "", false
	}
	x, ok1 := new(big.Rat).SetString(m[1])
	y, ok2 := new(big.Rat).SetString(m[2])
	if !ok1 || !ok2 {
		return "", false
	}
	p := new(big.Rat).Quo(x, big.NewRat(100, 1))
	of := m[1] + "% = " + m[1] + "/100 = " + fractionString(p)
	switch {
	case m[3] != "" && x.Cmp(y) == 0:
		return "Yes: " + m[1] + "% means " + m[1] + " out of 100.", true
	case m[3] != "":
		return "", false
	case y.Cmp(p) == 0:
		return "Yes: " + of + ".", true
	}
	return "No: " + m[1] + "% means " + m[1] + " out of 100, so " + of + ".", true
}

// percentChange works "so from 60 to 50 is a 20% decrease?" and "what is
// the percentage increase from 400 to 500?": the change compared with the
// amount it starts from. A claim that compared it with the new amount
// instead hears so.
func percentChange(msg string) (string, bool) {
	m := fromTo.FindStringSubmatchIndex(msg)
	if m == nil || !changeWords.MatchString(msg) {
		return "", false
	}
	a, ok1 := new(big.Rat).SetString(strings.ReplaceAll(msg[m[2]:m[3]], ",", ""))
	b, ok2 := new(big.Rat).SetString(strings.ReplaceAll(msg[m[4]:m[5]], ",", ""))
	if !ok1 || !ok2 || a.Sign() <= 0 || b.Sign() < 0 || a.Cmp(b) == 0 {
		return "", false
	}
	diff := new(big.Rat).Sub(b, a)
	kind := "an increase"
	if diff.Sign() < 0 {
		kind, diff = "a decrease", diff.Neg(diff)
	}
	pct := new(big.Rat).Quo(diff, a)
	from, to, change := ratString(a), ratString(b), ratString(diff)
	// "10 ÷ 60 = 1/6 = about 16.67%": the fraction, then the percentage.
	worked := "the change is " + change + ", and " + change + " ÷ " + from + " = " + fractionString(pct) + " = " + percentString(pct)
	rest := msg[:m[0]] + " " + msg[m[1]:]
	c := claimedPercent.FindStringSubmatch(rest)
	if c == nil {
		return "From " + from + " to " + to + " " + worked + ": " + kind + " of " + percentString(pct) + ".", true
	}
	x, ok := new(big.Rat).SetString(c[1])
	if !ok {
		return "", false
	}
	x.Quo(x, big.NewRat(100, 1))
	_, decimals, _ := strings.Cut(c[1], ".")
	up, down := risesWords.MatchString(rest), fallsWords.MatchString(rest)
	switch {
	case up != down && up != (kind == "an increase"):
		// "from 60 to 50 is a 16.67% increase?"
		return "Not quite: from " + from + " to " + to + " is " + kind + ": " + worked + ".", true
	case x.Cmp(pct) == 0:
		return "Yes: " + worked + ", so it is " + kind + " of " + percentString(pct) + ".", true
	case new(big.Rat).Mul(pct, big.NewRat(100, 1)).FloatString(len(decimals)) == c[1]:
		// "16.67%" for 1/6: right to the places the learner gave.
		places := "the nearest whole number"
		switch len(decimals) {
		case 0:
		case 1:
			places = "1 decimal place"
		default:
			places = strconv.Itoa(len(decimals)) + " decimal places"
		}
		return "Yes, to " + places + ": " + worked + ".", true
	case x.Cmp(new(big.Rat).Quo(diff, b)) == 0:
		return "Not quite: the change is compared with the amount you start from, " + from + ": " + change + " ÷ " + from + " = " +
			fractionString(pct) + " = " + percentString(pct) + ", so it is " + kind + " of " + percentString(pct) + ", not " + c[1] + "%.", true
	}
	return "Not quite: " + worked + ", so it is " + kind + " of " + percentString(pct) + ", not " + c[1] + "%.", true
}

// decimalOrFraction writes v as a decimal when it has one (a product of
// decimals always has), else as a fraction.
func decimalOrFraction(v *big.Rat) string {
	ten := big.NewRat(10, 1)
	x := new(big.Rat).Set(v)
	for places := 0; places <= 12; places++ {
		if x.IsInt() {
			return v.FloatString(places)
		}
		x.Mul(x, ten)
	}
	return fractionString(v)
}

// signClaimed returns the sign a doubt says a sum has: 1 for "positive",
// -1 for "negative", when it says just one of them after its numbers
// ("(-2) x (-3) is positive right?"; not "what is negative 3 times 4?").
func signClaimed(msg string) (int, bool) {
	if w := words(msg); len(w) > 0 && (w[0] == "what" || w[0] == "whats" || w[0] == "how") {
		return 0, false
	}
	last := strings.LastIndexFunc(msg, unicode.IsDigit)
	if last < 0 {
		return 0, false
	}
	ws := words(msg[last:])
	pos, neg := slices.Contains(ws, "positive"), slices.Contains(ws, "negative")
	switch {
	case pos && !neg:
		return 1, true
	case neg && !pos:
		return -1, true
	}
	return 0, false
}

// signName says whether v is positive or negative.
func signName(v *big.Rat) string {
	switch v.Sign() {
	case 1:
		return "positive"
	case -1:
		return "negative"
	}
	return "neither positive nor negative"
}

// percentEquals checks "0.5 = 5%?" and "is 0.27 = 27% and 0.5 = 5%?": a
// number said to be a percentage. A number that ends a sum ("100 ÷ 400 is
// 25%") or a percentage of something ("10 is 25% of 40") is no such
// claim.
func percentEquals(msg string) (string, bool) {
	if amountWords.MatchString(msg) {
		return "", false // "out of 40 she got 10, so 10 is 25%?": a part of an amount
	}
	var right []string
	for _, m := range numberIsPercent.FindAllStringSubmatchIndex(msg, -1) {
		if beforeOperand.MatchString(msg[:m[2]]) || percentOfWhat.MatchString(msg[m[1]:]) || strings.HasSuffix(strings.TrimSpace(msg[:m[2]]), ":") {
			return "", false
		}
		n, pct := msg[m[2]:m[3]], msg[m[4]:m[5]]
		if !strings.ContainsAny(n, "./") {
			return "", false // "10 is 25%": a whole number is a part of something
		}
		x, ok1 := numberValue(n)
		p, ok2 := new(big.Rat).SetString(pct)
		if !ok1 || !ok2 {
			return "", false
		}
		is := new(big.Rat).Mul(x, big.NewRat(100, 1))
		_, places, _ := strings.Cut(pct, ".")
		// Right to the places given, rounded or cut off: 2/3 = 66.7% or
		// 66.6%.
		unit := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(len(places))), nil))
		if off := new(big.Rat).Abs(new(big.Rat).Sub(is, p)); off.Cmp(unit) >= 0 {
			return "No: " + n + " = " + percentString(x) + ", not " + pct + "%.", true
		}
		if is.Cmp(p) != 0 {
			pct = "about " + pct // "1/3 = 33.33%": right to the places given
		}
		right = append(right, n+" = "+pct+"%")
	}
	if len(right) == 0 {
		return "", false
	}
	return "Yes: " + joinList(right) + ".", true
}

var (
	numberIsPercent = regexp.MustCompile(`(?i)(?:^|[^\d./\s]|[^\d]\s)((?:\d+)?\.\d+|\d+/\d+)\s*(?:=|is|equals|means)\s*(\d+(?:\.\d+)?)\s*(?:%|per\s?cent\b)`)
	// amountWords put a percentage to an amount, not to a number.
	amountWords   = regexp.MustCompile(`(?i)\b(?:out\s+of|of|increase[sd]?|decrease[sd]?|profit|loss|discount|marks?|price|from)\b`)
	percentOfWhat = regexp.MustCompile(`(?i)^\s*of\b`)
)

// reciprocalClaim checks "reciprocal of 2 1/3 is 3/7?": a mixed number's
// reciprocal is that of its improper fraction.
func reciprocalClaim(msg string) (string, bool) {
	m := reciprocalOf.FindStringSubmatch(msg)
	if m == nil {
		return "", false
	}
	x, ok1 := numberValue(m[1])
	y, ok2 := numberValue(m[2])
	if !ok1 || !ok2 || x.Sign() == 0 {
		return "", false
	}
	r := new(big.Rat).Inv(x)
	of := "the reciprocal of " + m[1] + " is " + fractionString(r)
	if mixed := strings.Contains(strings.TrimSpace(m[1]), " "); mixed {
		of = m[1] + " = " + fractionString(x) + ", so its reciprocal is " + fractionString(r)
	}
	if r.Cmp(y) == 0 {
		return "Yes: " + of + ".", true
	}
	return "No: " + of + ", not " + m[2] + ".", true
}

var reciprocalOf = regexp.MustCompile(`(?i)\breciprocal\s+of\s+(\d+(?:\s+\d+/\d+|/\d+|\.\d+)?)\s+(?:is|=|equals|will\s+be)\s+(\d+(?:\s+\d+/\d+|/\d+|\.\d+)?)(?:[^\d/.]|\.(?:\D|$)|$)`)

// flippedDivision checks how a doubt turns a division of fractions into a
// product: "for 3/4 ÷ 1/8 i flip the first one so 4/3 x 1/8 right?"
// flips the wrong fraction; "3/4 ÷ 1/8 = 3/4 x 8/1?" the right one.
func flippedDivision(msg string) (string, bool) {
	ds, ps := fractionQuotient.FindAllStringSubmatchIndex(msg, -1), fractionProduct.FindAllStringSubmatchIndex(msg, -1)
	if len(ds) != 1 || len(ps) != 1 || ps[0][2] < ds[0][3] {
		return "", false // one division, then one product
	}
	sub := func(m []int, i int) string { return msg[m[2*i]:m[2*i+1]] }
	d := []string{"", sub(ds[0], 1), sub(ds[0], 2)}
	p := []string{"", sub(ps[0], 1), sub(ps[0], 2)}
	var v [4]*big.Rat
	for i, s := range []string{d[1], d[2], p[1], p[2]} {
		x, ok := numberValue(s)
		if !ok || x.Sign() == 0 {
			return "", false
		}
		v[i] = x
	}
	a, b, c, e := v[0], v[1], v[2], v[3]
	if a.Cmp(b) == 0 || a.Cmp(new(big.Rat).Inv(b)) == 0 {
		return "", false // 1/3 ÷ 1/3, 2/3 ÷ 3/2: either flip reads the same
	}
	inv := func(x *big.Rat) *big.Rat { return new(big.Rat).Inv(x) }
	q := new(big.Rat).Quo(a, b)
	right := d[1] + " ÷ " + d[2] + " = " + d[1] + " × " + fractionString(inv(b)) + " = " + fractionString(q)
	switch {
	case c.Cmp(a) == 0 && e.Cmp(inv(b)) == 0:
		return "Yes: " + right + ".", true
	case c.Cmp(inv(a)) == 0 && e.Cmp(b) == 0:
		return "No: keep the first fraction and flip only the one you divide by: " + right + ", not " +
			p[1] + " × " + p[2] + " = " + fractionString(new(big.Rat).Mul(c, e)) + ".", true
	}
	return "", false
}

var (
	// A fraction on its own: not the fraction part of a mixed number
	// ("1 1/2"), of a decimal or of a negative number.
	fractionQuotient = regexp.MustCompile(`(?i)(?:^|[^\d./\s-]|[^\d.\s-]\s)(\d+/\d+)\s*(?:÷|divided\s+by)\s*(\d+/\d+)(?:[^\d/.]|\.(?:\D|$)|$)`)
	fractionProduct  = regexp.MustCompile(`(?i)(?:^|[^\d./\s-]|[^\d.\s-]\s)(\d+/\d+)\s*(?:×|x|\*|times)\s*(\d+(?:/\d+)?)(?:[^\d/.]|\.(?:\D|$)|$)`)
)

// upThenDown works two changes in per cent one after the other: "if a price
// goes up 10% and then down 10% is it the same?". The second per cent is of
// the amount the first change left, so up and down by the same per cent
// ends below the start. A claim that the two cancel ("is it the same?",
// "do I get back to ₹500?") or do not ("it ends lower, right?") hears Yes
// or No; a question why or how hears the working alone. The amount is the
// one the doubt gives in rupees, else 100.
func upThenDown(msg string) (string, bool) {
	ms := percentSteps.FindAllStringSubmatchIndex(msg, -1)
	if len(ms) != 2 || !inSequence.MatchString(msg[ms[0][1]:ms[1][0]]) {
		return "", false
	}
	type step struct {
		pct  *big.Rat
		text string
		up   bool
	}
	var steps []step
	for _, m := range ms {
		// "up 10%" fills the first two groups, "a 10% rise" the last two.
		var w, n string
		if m[2] >= 0 {
			w, n = msg[m[2]:m[3]], msg[m[4]:m[5]]
		} else {
			w, n = msg[m[8]:m[9]], msg[m[6]:m[7]]
		}
		w = strings.ToLower(w)
		up := w == "up" || w == "rose" || w == "more" ||
			slices.ContainsFunc([]string{"increas", "ris", "rais", "hik"}, func(p string) bool { return strings.HasPrefix(w, p) })
		v, ok := new(big.Rat).SetString(n)
		if !ok || v.Sign() <= 0 || !up && v.Cmp(big.NewRat(100, 1)) >= 0 {
			return "", false
		}
		steps = append(steps, step{v, n + "%", up})
	}
	if steps[0].up == steps[1].up {
		return "", false
	}
	start, cur := big.NewRat(100, 1), ""
	rest := percentSteps.ReplaceAllString(msg, " ; ")
	for _, m := range rupeeAmount.FindAllStringSubmatchIndex(rest, -1) {
		if toward.MatchString(rest[:m[0]]) {
			continue // "up 10% to ₹550" is where the change ends
		}
		n := rest[max(m[2], m[4]):max(m[3], m[5])]
		if v, ok := new(big.Rat).SetString(strings.ReplaceAll(n, ",", "")); ok && v.Sign() > 0 {
			start, cur = v, "₹"
		}
		break
	}
	amount := func(v *big.Rat) string {
		if cur != "" && !v.IsInt() {
			return cur + strings.TrimSuffix(v.FloatString(2), ".00")
		}
		return cur + ratString(v)
	}
	a := start
	var worked []string
	for i, st := range steps {
		change := new(big.Rat).Mul(a, new(big.Rat).Quo(st.pct, big.NewRat(100, 1)))
		if cur != "" {
			change.SetString(change.FloatString(2)) // to the paisa
		}
		next, dir, op := new(big.Rat).Add(a, change), "up", " + "
		if !st.up {
			next, dir, op = new(big.Rat).Sub(a, change), "down", " - "
		}
		of := ""
		if i > 0 {
			of = st.text + " of " + amount(a) + " is " + amount(change) + ", so "
		}
		worked = append(worked, of+dir+" "+st.text+" makes it "+amount(a)+op+amount(change)+" = "+amount(next))
		a = next
	}
	why := "the second " + steps[1].text + " is of the new amount, not of the one you started with. Take " + amount(start) + ": " +
		strings.Join(worked, "; then ")
	end := a.Cmp(start)
	claimsSame := backToStart.MatchString(rest) && !denies(rest) && !endsLower.MatchString(rest)
	claimsLower := endsLower.MatchString(rest) || backToStart.MatchString(rest) && denies(rest)
	switch w := words(msg); {
	case len(w) > 0 && (w[0] == "why" || w[0] == "how"):
	case claimsSame && end == 0, claimsLower && end < 0:
		return "Yes: " + why + ".", true
	case claimsSame:
		return "No: " + why + ", not " + amount(start) + ".", true
	case claimsLower:
		return "No: " + why + ".", true
	}
	return strings.ToUpper(why[:1]) + why[1:] + ".", true
}

// noAgain drops the "No: " a check opens with, for a reply that has said
// No already.
func noAgain(calc string) string {
	if rest, ok := strings.CutPrefix(calc, "No: "); ok && rest != "" {
		r, size := utf8.DecodeRuneInString(rest)
		return string(unicode.ToUpper(r)) + rest[size:]
	}
	return calc
}

// selfContained reports whether a worked check says all a doubt asks, so
// that the lesson's sentences would only distract: a solution checked by
// putting the value in (": with x = …"), or two changes in per cent worked
// through (see upThenDown).
func selfContained(calc string) bool {
	return strings.Contains(calc, ": with ") || strings.HasPrefix(calc, "Nearly: ") || strings.Contains(calc, " is of the new amount, not of the one you started with") ||
		strings.HasPrefix(calc, "To find ") || strings.HasPrefix(calc, "Call the number x.") ||
		strings.HasPrefix(calc, "To solve it: ") || strings.HasPrefix(calc, "Divide the whole by one piece")
}

var (
	// percentSteps finds a change in per cent with its direction: "up
	// 10%", "increased by 10%", "a rise of 10%", "a 10% decrease", "10%
	// off".
	percentSteps = regexp.MustCompile(`(?i)\b(up|down|increas(?:e|es|ed|ing)|decreas(?:e|es|ed|ing)|ris(?:e|es|en|ing)|rose|rais(?:e|es|ed|ing)|hik(?:e|es|ed|ing)|fall(?:s|ing)?|fell|drop(?:s|ped|ping)?|reduc(?:e|es|ed|ing)|cut)\s+(?:it\s+)?(?:by\s+|of\s+)?(\d+(?:\.\d+)?)\s*(?:%|per\s?cent\b)|\b(\d+(?:\.\d+)?)\s*(?:%|per\s?cent\b)\s+(?:of\s+(?:the\s+)?(?:new\s+)?(?:price|amount|cost)\s+)?(increase|rise|hike|decrease|fall|drop|reduction|cut|discount|off|more|less)\b`)
	// inSequence joins two changes made one after the other.
	inSequence = regexp.MustCompile(`(?i)\b(?:then|followed|after|afterwards|later|next)\b`)
	// rupeeAmount is an amount in rupees: "₹500", "Rs. 1,200", "500 rupees".
	rupeeAmount = regexp.MustCompile(`(?i)(?:₹|\brs\.?)\s*(\d[\d,]*(?:\.\d+)?)|\b(\d[\d,]*(?:\.\d+)?)\s*(?:rupees|rs)\b`)
	// toward ends the words before an amount a change ends at.
	toward = regexp.MustCompile(`(?i)\b(?:to|becomes|is\s+now)\s*$`)
	// backToStart claims the two changes cancel.
	backToStart = regexp.MustCompile(`(?i)\b(?:same|back|original|equal|cancel|cancels|unchanged|no\s+change)\b`)
	// endsLower claims the two changes end below the start.
	endsLower = regexp.MustCompile(`(?i)\b(?:lower|less|below|smaller|cheaper)\b`)
)

var (
	// fromTo finds the two amounts of a change: "from 60 to 50", "from
	// ₹2,500 to ₹3,000".
	fromTo = regexp.MustCompile(`(?i)\bfrom\s+(?:₹|rs\.?\s*)?(\d[\d,]*(?:\.\d+)?)\s+(?:\w+\s+)?to\s+(?:₹|rs\.?\s*)?(\d[\d,]*(?:\.\d+)?)\b`)
	// changeWords asks for a change in per cent.
	changeWords    = regexp.MustCompile(`(?i)(?:%|\bper\s?cent(?:age)?\b).*\b(?:increase|decrease|rise|fall|drop|change|up|down|more|less|off|profit|loss)\b|\b(?:increase|decrease|rise|fall|drop|change|up|down)\b.*(?:%|\bper\s?cent(?:age)?\b)`)
	risesWords     = regexp.MustCompile(`(?i)\b(?:increase|increased|rise|rose|up|more|profit|gain)\b`)
	fallsWords     = regexp.MustCompile(`(?i)\b(?:decrease|decreased|fall|fell|drop|dropped|down|less|off|loss|discount)\b`)
	claimedPercent = regexp.MustCompile(`(\d+(?:\.\d+)?)\s*(?:%|per\s?cent\b)`)
)

// inSymbols writes the operations a doubt says in words between numbers in
// symbols, and "negative 6" as -6: "-20 divided by 4 is 5" is "-20 ÷ 4 is
// 5", "negative 6 times 2" is "-6 × 2" ("into" is "times", as in "minus
// into minus").
func inSymbols(msg string) string {
	if dividesInto.MatchString(msg) {
		// "divide 12 into 4 equal parts": "into" names the parts.
		msg = dividesInto.ReplaceAllStringFunc(msg, func(m string) string { return strings.Replace(m, "into", "in", 1) })
	}
	for range 4 { // "2 times 3 times 4": the matches overlap
		next := wordOp.ReplaceAllStringFunc(msg, func(m string) string {
			sub := wordOp.FindStringSubmatch(m)
			op := "×"
			switch w := strings.ToLower(strings.Join(strings.Fields(sub[2]), " ")); w {
			case "divided by":
				op = "÷"
			case "plus":
				op = "+"
			case "minus":
				op = "-"
			}
			sign := ""
			if sub[3] != "" || sub[4] != "" {
				sign = "-" // "negative 5", "-5"
			}
			return sub[1] + " " + op + " " + sign + sub[5]
		})
		if next == msg {
			break
		}
		msg = next
	}
	return negativeWord.ReplaceAllString(msg, "${1}-$2")
}

var (
	dividesInto   = regexp.MustCompile(`(?i)\b(?:divide|divided|split|share|shared|cut|break|broken|convert|converted|turn|turned)\s+(?:[\w₹]+\s+){0,3}into\b`)
	comparesWords = regexp.MustCompile(`(?i)\b(?:more|less|greater|bigger|smaller|larger|fewer)\s+than\b`)
	wordOp        = regexp.MustCompile(`(?i)(\d|\))\s+(divided\s+by|multiplied\s+by|times|into|plus|minus)\s+(?:(negative|minus)\s+|(-))?(\d|\()`)
	negativeWord  = regexp.MustCompile(`(?i)(^|[^\d)\s]\s*|\s)(?:negative|minus)\s+(\d)`)
)

// mixedString writes a value greater than 1 that is no whole number as a
// mixed number ("1 5/12"), and anything else as "".
func mixedString(v *big.Rat) string {
	if v.IsInt() || v.Sign() <= 0 {
		return ""
	}
	whole := new(big.Int).Quo(v.Num(), v.Denom())
	if whole.Sign() == 0 {
		return ""
	}
	rest := new(big.Rat).Sub(v, new(big.Rat).SetInt(whole))
	return whole.String() + " " + rest.String()
}

// simplestRatio answers "simplify 12:18" and "what is 12:18 in its
// simplest form?".
func simplestRatio(msg string) (string, bool) {
	m := simplestOf.FindStringSubmatch(msg)
	if m == nil || threeParts.MatchString(msg) {
		return "", false // "simplify 12:18:24": not a ratio of two terms
	}
	a, b := cmp.Or(m[1], m[3]), cmp.Or(m[2], m[4])
	x, ok1 := new(big.Int).SetString(a, 10)
	y, ok2 := new(big.Int).SetString(b, 10)
	if !ok1 || !ok2 || x.Sign() == 0 || y.Sign() == 0 || len(a) > 9 || len(b) > 9 {
		return "", false
	}
	g := new(big.Int).GCD(nil, nil, x, y)
	if g.Cmp(big.NewInt(1)) == 0 {
		return a + " : " + b + " is in its simplest form already: " + a + " and " + b + " have no common factor but 1.", true
	}
	return a + " : " + b + " = " + new(big.Int).Quo(x, g).String() + " : " + new(big.Int).Quo(y, g).String() +
		" in its simplest form (both divided by " + g.String() + ", their HCF).", true
}

var threeParts = regexp.MustCompile(`\d\s*:\s*\d+\s*:\s*\d`)

var simplestOf = regexp.MustCompile(`(?i)\b(?:simplify|reduce)\s+(?:the\s+ratio\s+)?(\d+)\s*:\s*(\d+)\b|` +
	`\b(\d+)\s*:\s*(\d+)\s+(?:in|to)\s+(?:its\s+)?(?:simplest|lowest)\s+(?:form|terms)`)

// percentOf answers "what percent is 45 of 60?" and "45 is what percent
// of 60": one amount as a percentage of another.
func percentOf(msg string) (string, bool) {
	m := whatPercent.FindStringSubmatch(msg)
	if m == nil || m[3] != "" && (strings.Count(strings.ToLower(msg), "out of") > 1 || otherPart.MatchString(msg)) {
		// "40 out of 50 passed, what percent failed?" asks the rest.
		return "", false
	}
	part, whole := cmp.Or(m[1], m[3], m[5]), cmp.Or(m[2], m[4], m[6])
	a, ok1 := new(big.Rat).SetString(strings.ReplaceAll(part, ",", ""))
	b, ok2 := new(big.Rat).SetString(strings.ReplaceAll(whole, ",", ""))
	if !ok1 || !ok2 || b.Sign() == 0 {
		return "", false
	}
	v := new(big.Rat).Quo(a, b)
	return ratString(a) + " ÷ " + ratString(b) + " = " + fractionString(v) + " = " + percentString(v) + ", so " + ratString(a) + " is " + percentString(v) + " of " + ratString(b) + ".", true
}

var otherPart = regexp.MustCompile(`(?i)\b(?:fail|failed|failing|didn'?t|did\s+not|not|rest|others?|remaining|left)\b`)

var whatPercent = regexp.MustCompile(`(?i)\bwhat\s+(?:percent|percentage|per\s?cent|%)\s+(?:is|of)\s+(\d[\d,]*(?:\.\d+)?)\s+(?:is\s+)?(?:of|out\s+of|from)\s+(\d[\d,]*(?:\.\d+)?)|` +
	`\b(\d[\d,]*(?:\.\d+)?)\s+(?:is\s+what\s+(?:percent|percentage|per\s?cent|%)\s+of|out\s+of)\s+(\d[\d,]*(?:\.\d+)?)\b.*\bwhat\s+(?:percent|percentage|per\s?cent|%)|` +
	`\b(\d[\d,]*(?:\.\d+)?)\s+is\s+what\s+(?:percent|percentage|per\s?cent|%)\s+of\s+(\d[\d,]*(?:\.\d+)?)`)

// converts checks "2 m is 200 cm right?" and answers "how many cm are in
// 2 m?": an amount in one unit written in another of the same measure.
func converts(msg string) (string, bool) {
	right := ""
	for _, mi := range unitClaim.FindAllStringSubmatchIndex(msg, -1) {
		if before := strings.TrimSpace(msg[:mi[2]]); sumBefore.MatchString(before) {
			return "", false // "3 × 2 m is 600 cm?": a sum, not a conversion
		}
		m := make([]string, 5)
		for k := 1; k <= 4; k++ {
			m[k] = strings.ReplaceAll(msg[mi[2*k]:mi[2*k+1]], ",", "")
		}
		a, ua, okA := amountIn(m[1], m[2])
		b, ub, okB := amountIn(m[3], m[4])
		if !okA || !okB || ua.measure != ub.measure || ua.per.Cmp(ub.per) == 0 {
			return "", false
		}
		from, to := m[1]+" "+m[2], m[3]+" "+m[4] // as the learner wrote them
		if a.Cmp(b) != 0 {
			// The first wrong claim is named, whatever comes before it.
			return "Not quite: " + from + " = " + ub.amount(new(big.Rat).Quo(a, ub.per)) + ", not " + to + ".", true
		}
		if right == "" {
			right = "Yes: " + from + " = " + to + "."
		}
	}
	if right != "" {
		return right, true
	}
	if m := howManyIn.FindStringSubmatch(msg); m != nil {
		ub, ok := measures[strings.ToLower(m[1])]
		a, ua, okA := amountIn(m[2], m[3])
		if !ok || !okA || ua.measure != ub.measure || ua.per.Cmp(ub.per) == 0 {
			return "", false
		}
		return m[2] + " " + m[3] + " = " + ub.amount(new(big.Rat).Quo(a, ub.per)) + ".", true
	}
	return "", false
}

// unitRatio works "what is the ratio of 1 hour to 30 minutes?" and checks
// "ratio of 50 paise to 2 rupees is 1:4?": both amounts in one unit
// first, then the ratio in its simplest form.
func unitRatio(msg string) (string, bool) {
	m := ratioOfAmounts.FindStringSubmatch(msg)
	if m == nil {
		return "", false
	}
	a, ua, okA := amountIn(strings.ReplaceAll(m[1], ",", ""), m[2])
	b, ub, okB := amountIn(strings.ReplaceAll(m[3], ",", ""), m[4])
	if !okA || !okB || ua.measure != ub.measure || !a.IsInt() || !b.IsInt() || a.Sign() == 0 || b.Sign() == 0 {
		return "", false
	}
	small := ua // the smaller unit, which both amounts are written in
	if ub.per.Cmp(ua.per) < 0 {
		small = ub
	}
	x, y := new(big.Rat).Quo(a, small.per), new(big.Rat).Quo(b, small.per)
	if !x.IsInt() || !y.IsInt() {
		return "", false
	}
	g := new(big.Int).GCD(nil, nil, x.Num(), y.Num())
	sx, sy := new(big.Int).Quo(x.Num(), g), new(big.Int).Quo(y.Num(), g)
	same := "In the same unit: " + small.amount(x) + " to " + small.amount(y) + ", so the ratio is " + x.Num().String() + " : " + y.Num().String()
	if g.Cmp(big.NewInt(1)) != 0 {
		same += " = " + sx.String() + " : " + sy.String()
	}
	cx, okX := new(big.Rat).SetString(m[5])
	cy, okY := new(big.Rat).SetString(m[6])
	if m[5] == "" || !okX || !okY || cx.Sign() <= 0 || cy.Sign() <= 0 || hedgedRatio.MatchString(msg) || strings.Count(msg, "ratio of") > 1 {
		// No claim, or one this cannot check ("1:2 or 2:1", "not 1:30",
		// a second ratio): the ratio only.
		return same + ".", true
	}
	if new(big.Rat).Mul(cx, new(big.Rat).SetInt(sy)).Cmp(new(big.Rat).Mul(cy, new(big.Rat).SetInt(sx))) == 0 {
		return "Yes: " + lowerFirst(same) + ".", true
	}
	return "Not quite: " + lowerFirst(same) + ", not " + m[5] + " : " + m[6] + ".", true
}

var hedgedRatio = regexp.MustCompile(`(?i)\d\s*:\s*\d[\d.]*\s+or\s+\d|\bnot\s+\d+(?:\.\d+)?\s*:|\d\s*:\s*\d[\d.]*\s*:\s*\d`)

var ratioOfAmounts = regexp.MustCompile(`(?i)\bratio\s+of\s+(\d[\d,]*)\s*([a-z]+)\s+to\s+(\d[\d,]*)\s*([a-z]+)\b(?:\s+(?:is|=|will\s+be)\s+(\d+(?:\.\d+)?)\s*:\s*(\d+(?:\.\d+)?))?`)

// discounted answers "a shirt costs 500 and there is a 20% discount, what
// do I pay?": the discount, then the price after it.
func discounted(msg string) (string, bool) {
	if !asksPrice.MatchString(msg) {
		return "", false
	}
	var price, pct string
	if m := priceThenOff.FindStringSubmatch(msg); m != nil {
		price, pct = m[1], m[2]
	} else if m := offThenPrice.FindStringSubmatch(msg); m != nil {
		pct, price = m[1], m[2]
	} else {
		return "", false
	}
	p, ok1 := new(big.Rat).SetString(strings.ReplaceAll(price, ",", ""))
	r, ok2 := new(big.Rat).SetString(pct)
	if !ok1 || !ok2 || p.Sign() <= 0 || r.Sign() <= 0 || r.Cmp(big.NewRat(100, 1)) > 0 {
		return "", false
	}
	off := new(big.Rat).Mul(p, new(big.Rat).Quo(r, big.NewRat(100, 1)))
	cur := ""
	if rupees.MatchString(msg) {
		cur = "₹"
	}
	return pct + "% of " + cur + ratString(p) + " = " + cur + ratString(off) + ", so the price after the discount is " +
		cur + ratString(p) + " - " + cur + ratString(off) + " = " + cur + ratString(new(big.Rat).Sub(p, off)) + ".", true
}

var (
	asksPrice    = regexp.MustCompile(`(?i)\b(?:how\s+much|what|pay|price|cost|costs)\b`)
	priceThenOff = regexp.MustCompile(`(?i)(?:₹|\brs\.?\s*)?(\d[\d,]*(?:\.\d+)?)\s*(?:rupees|rs)?\b[^%]*?\b(\d+(?:\.\d+)?)\s*(?:%|percent|per\s?cent)\s+(?:discount|off)\b`)
	offThenPrice = regexp.MustCompile(`(?i)\b(\d+(?:\.\d+)?)\s*(?:%|percent|per\s?cent)\s+(?:discount|off)\b\D*?(\d[\d,]*(?:\.\d+)?)`)
)

// unit is a unit of measure: how many of its measure's smallest unit it
// holds, and its name as the reply writes it.
type unit struct {
	measure, name string
	per           *big.Rat
}

// amount writes v of the unit: "200 cm", "1 hour", "90 minutes".
func (u unit) amount(v *big.Rat) string {
	name := u.name
	if v.Cmp(big.NewRat(1, 1)) == 0 && len(name) > 2 {
		name = strings.TrimSuffix(name, "s")
	}
	return ratString(v) + " " + name
}

// amountIn reads "2" "m" as 2 m, in the measure's smallest unit.
func amountIn(n, u string) (*big.Rat, unit, bool) {
	v, ok := new(big.Rat).SetString(n)
	un, known := measures[strings.ToLower(u)]
	if !ok || !known {
		return nil, unit{}, false
	}
	return v.Mul(v, un.per), un, true
}

// measures are the units a doubt converts between, by spelling.
var measures = func() map[string]unit {
	m := map[string]unit{}
	for _, u := range []struct {
		measure, name string
		per           int64
		spellings     string
	}{
		{"length", "km", 1000000, "km kilometre kilometres kilometer kilometers"},
		{"length", "m", 1000, "m metre metres meter meters"},
		{"length", "cm", 10, "cm centimetre centimetres centimeter centimeters"},
		{"length", "mm", 1, "mm millimetre millimetres millimeter millimeters"},
		{"mass", "kg", 1000, "kg kilogram kilograms kgs"},
		{"mass", "g", 1, "g gram grams gm gms"},
		{"volume", "l", 1000, "l litre litres liter liters"},
		{"volume", "ml", 1, "ml millilitre millilitres milliliter milliliters"},
		{"time", "hours", 3600, "hour hours hr hrs h"},
		{"time", "minutes", 60, "minute minutes min mins"},
		{"time", "seconds", 1, "second seconds sec secs s"},
		{"money", "rupees", 100, "rupee rupees rs"},
		{"money", "paise", 1, "paise paisa"},
	} {
		for _, sp := range strings.Fields(u.spellings) {
			m[sp] = unit{u.measure, u.name, big.NewRat(u.per, 1)}
		}
	}
	return m
}()

var (
	unitWord  = `([a-z]+)(?:[^\w²³^/]|$)`
	unitClaim = regexp.MustCompile(`(?i)(?:^|[^\d.,])(\d[\d,]*(?:\.\d+)?)\s*([a-z]+)\s+(?:is|are|=|equals|makes|means)\s+(\d[\d,]*(?:\.\d+)?)\s*` + unitWord)
	// sumBefore finds a sum an amount is part of: "3 ×", "half of",
	// "20% of".
	sumBefore = regexp.MustCompile(`(?i)(?:[-+×*÷/%x]|\d|\b(?:of|times|into|by|plus|minus|half))$`)
	howManyIn = regexp.MustCompile(`(?i)\bhow\s+many\s+([a-z]+)\s+(?:are\s+|is\s+)?(?:there\s+)?in\s+(?:a\s+|an\s+)?(\d+(?:\.\d+)?)\s*` + unitWord)
)

// claimed writes the claimed side of an equation: a number as the learner
// wrote it ("6/15", not 2/5), a sum by its value (7 for "3 + 4").
func claimed(side []mathToken, unknown string, value *big.Rat, worked string) string {
	if len(side) == 1 {
		return showTokens(side, unknown, value)
	}
	return worked
}

// compared checks "is -5 bigger than -2?" and "so -3 is less than -7
// right?": which of two numbers is the greater.
func compared(msg string) (string, bool) {
	if w := words(msg); len(w) > 0 && (w[0] == "why" || w[0] == "how") {
		return "", false // "why is -2 bigger than -7?" asks for the reason
	}
	msg = signsWritten(msg) // "is minus 7 greater than minus 2?"
	m := comparison.FindStringSubmatchIndex(msg)
	if m == nil {
		if m = comparisonAsked.FindStringSubmatchIndex(msg); m == nil {
			return "", false
		}
	}
	if afterOperand.MatchString(msg[m[7]:]) {
		return "", false
	}
	sub := func(i int) string { return msg[m[2*i]:m[2*i+1]] }
	m1, m2, m3 := sub(1), sub(2), sub(3)
	a, aok := numberValue(strings.ReplaceAll(m1, "−", "-"))
	b, bok := numberValue(strings.ReplaceAll(m3, "−", "-"))
	if !aok || !bok {
		return "", false
	}
	if beforeOperand.MatchString(msg[:m[2]]) {
		// "so 3/4 x 2/5 is less than 3/4?": the product is compared, not
		// its last factor.
		end := m[3]
		if strings.HasPrefix(msg[end:], ")") {
			end++ // "(-3) x (-4) is less than 0"
		}
		runs := mathRuns(inSymbols(msg[:end]))
		if len(runs) == 0 {
			return "", false
		}
		r := runs[len(runs)-1]
		v, ok := evalTokens(r, "", nil)
		if !ok || !hasOp(r) {
			return "", false
		}
		show := fractionString
		if slices.ContainsFunc(r, func(t mathToken) bool { return t.kind == mNum && strings.Contains(t.text, ".") }) {
			show = decimalOrFraction // decimals in, decimals out
		}
		a, m1 = v, showTokens(r, "", nil)+" = "+show(v)+", which"
	}
	claim := 1 // a > b
	if k := strings.ToLower(m2); k == "smaller" || k == "less" || k == "lower" {
		claim = -1
	}
	got := a.Cmp(b)
	worked := strings.HasSuffix(m1, ", which")
	say := func(x, y string, c int) string {
		switch {
		case c == 1:
			return x + " is greater than " + y
		case c == -1:
			return x + " is less than " + y
		case worked:
			return x + " is equal to " + y
		}
		return x + " and " + y + " are equal"
	}
	if got == claim {
		return "Yes: " + say(m1, m3, got) + ".", true
	}
	return "No: " + say(m1, m3, got) + ".", true
}

// converted answers "what is 0.25 as a percentage?", "write 3/5 as a
// decimal" and "change 40% into a fraction": one value the doubt asks for
// in another form, or a sum worked out in that form ("3/5 + 1/5 as a
// decimal").
func converted(msg string, runs [][]mathToken) (string, bool) {
	m := asForm.FindStringSubmatch(msg)
	if m == nil || len(runs) != 1 || usesVar(runs[0], "") {
		return "", false
	}
	v, ok := evalTokens(runs[0], "", nil)
	if !ok {
		return "", false
	}
	from := showTokens(runs[0], "", nil)
	var to string
	switch form := strings.ToLower(m[1]); {
	case strings.HasPrefix(form, "per"):
		to = percentString(v)
	case strings.HasPrefix(form, "mixed"):
		if to = mixedString(v); to == "" {
			return "", false // no whole part: not a mixed number
		}
	case strings.HasSuffix(form, "fraction"):
		to = fractionString(v)
	default:
		to = decimalString(v)
	}
	if to == from {
		return "", false // in that form already: the lesson's words say more
	}
	return from + " = " + to + ".", true
}

var (
	// shareIn is "share 20 sweets in the ratio 2:3", "divide ₹600 in the
	// ratio 2 : 3 : 5".
	shareIn = regexp.MustCompile(`(?i)\b(?:share|divide|split)\s+(₹|rs\.?\s*)?(\d+)\s*(?:[a-z]+\s+){0,4}?in\s+(?:the\s+|a\s+)?ratio\s+(?:of\s+)?(\d+\s*:\s*\d+(?:\s*:\s*\d+){0,2})`)
	// costOf is "if 5 pens cost 40 rupees", "if 6 notebooks cost ₹210";
	// manyOf a count of things after it ("how much do 8 pens cost").
	costOf = regexp.MustCompile(`(?i)\bif\s+(\d+)\s+([a-z]+)\s+costs?\s+(?:₹\s*|rs\.?\s*)?(\d+(?:\.\d+)?)`)
	manyOf = regexp.MustCompile(`(?i)\b(\d+)\s+([a-z]+)`)
	// askedFor opens the count a price doubt asks about; notPlain marks
	// one the unitary method cannot take as it stands.
	askedFor = regexp.MustCompile(`(?i)\bhow\s+(?:much|many)\b|\bwhat\s+(?:do|does|will|would)\b|\bcost\s+of\b|\bprice\s+of\b`)
	notPlain = regexp.MustCompile(`(?i)\beach\b|\bper\b|\bpaise\b|\blost\b|\bdiscount\b|%`)
	rupees   = regexp.MustCompile(`(?i)₹|\brs\b|\brupees?\b`)
	// comparison is "-5 is bigger than -2", comparisonAsked "is -2 greater
	// than -7"; "3 more than 5" is a sum, not a comparison.
	comparison      = regexp.MustCompile(`(?i)(?:^|[^\d/.,])([-−]?\d+(?:\.\d+)?(?:/\d+)?%?)\)?\s+(?:is|are)\s+(bigger|greater|larger|more|higher|smaller|less|lower)\s+than\s+([-−]?\d+(?:\.\d+)?(?:/\d+)?%?)([^\d/.,%]|$)`)
	comparisonAsked = regexp.MustCompile(`(?i)^\W*(?:(?:so|and|but|wait|ok|then)\W+)*is\s+([-−]?\d+(?:\.\d+)?(?:/\d+)?%?)\s+(bigger|greater|larger|more|higher|smaller|less|lower)\s+than\s+([-−]?\d+(?:\.\d+)?(?:/\d+)?%?)([^\d/.,%]|$)`)
	// ratioClaim is "12:18 simplifies to 3:2", "is 12 : 18 = 2 : 3", and
	// asked: "is 12:18 the same as 2:3?", "does 12:18 simplify to 2:3?".
	ratioClaim = regexp.MustCompile(`(\d+)\s*:\s*(\d+)\s+(?:simplif(?:y|ies)\s+to|simplified\s+is|(?:is\s+)?the\s+same\s+as|is|equals?|=|becomes?)\s+(\d+)\s*:\s*(\d+)`)
	// meansPercent is "50% means 50", "25% is 0.25", "50% means 50 out of
	// 100".
	meansPercent = regexp.MustCompile(`(?i)(?:^|[^\d.])(\d+(?:\.\d+)?)\s*(?:%|percent|per\s*cent)\s+(?:means|is|equals|=)\s+(?:just\s+)?(\d+(?:\.\d+)?)(\s+out\s+of\s+100)?(?:\s*$|\s*[?!.,]|\s+(?:right|then|too|isn|is\s+it)\b)`)
	// afterOperand continues the second number of a comparison into a sum:
	// "5 more than 3 times 2", "2 less than 10 - 9".
	// beforeOperand finds an operation right before a number: the number
	// ends a sum.
	beforeOperand = regexp.MustCompile(`(?i)(?:[-+×x*/÷]|\b(?:times|plus|minus|into|by|of))\s*\(?$`)
	afterOperand  = regexp.MustCompile(`(?i)^\s*(?:[-+×x*/÷]\s*[-−]?\d|(?:times|plus|minus|divided|multiplied|add|added|take)\b)`)
	commonOf      = regexp.MustCompile(`(?i)\b(lcm|l\.c\.m\.?|lowest common multiple|least common multiple|hcf|h\.c\.f\.?|gcd|gcf|highest common factor|greatest common (?:factor|divisor))\s+of\s+(\d+(?:\s*(?:,\s*(?:and\s+)?|and\s+|&\s*)\d+)+)`)
	digitRun      = regexp.MustCompile(`\d+`)
	// saidEquals is "is", "makes" or "gives" written between a
	// sum and its claimed result, with the result's sign in words.
	saidEquals = regexp.MustCompile(`(?i)(\d[abkmnptxy]|\b[xy]|[\d)%])\s+(?:is|makes?|gives?|will be|would be)\s+(?:(positive|plus)\s+|(negative|minus)\s+)?([-−]?\d)`)
	// asForm asks for a value in another form, after the value.
	asForm = regexp.MustCompile(`(?i)\d%?\s*\)?\s+(?:as|to|into|in)\s+(?:an?\s+)?(percentage|percent|per\s?cent|mixed\s+(?:number|fraction)|improper\s+fraction|fraction|decimal)s?\b`)
	// sameAround finds a doubt that compares two values written right
	// around the phrase.
	sameAround = regexp.MustCompile(`(?i)[\d%)]\s*(?:is\s+|are\s+)?(?:the\s+)?(?:same as|equal to|equals|equivalent to)\s*[-−(]?\s*\d`)
	// notSums finds numbers that are no sums: times and ratios, dates,
	// thousands.
	notSums = regexp.MustCompile(`\d\s*:\s*\d|\d+/\d+/\d+|\d,\d{3}`)
	// hyphened finds a hyphen between digits: a range, a score, a date.
	hyphened   = regexp.MustCompile(`\d-\d`)
	asksResult = regexp.MustCompile(`(?i)=|\bwhat(?:'s|s| is)\b|\bwork out\b|\bcalculate\b`)
)

// assigns returns the value a run such as "x = 4" or "m = -3" gives its
// unknown.
func assigns(r []mathToken) (*big.Rat, bool) {
	if !isAssignment(r) {
		return nil, false
	}
	return evalTokens(r[2:], "", nil)
}

// roundedRoot returns the root of a linear equation (sides, in unknown)
// when the decimal the learner wrote for it is that root rounded or cut
// to the places written ("3.33" or "3.3" for 10/3), with the places and
// whether it was rounded (else cut).
func roundedRoot(sides [][]mathToken, unknown string, value *big.Rat, written string) (root *big.Rat, places int, rounded, ok bool) {
	dot := strings.IndexByte(written, '.')
	if dot < 0 || len(sides) != 2 {
		return nil, 0, false, false
	}
	places = len(written) - dot - 1
	at := func(x *big.Rat) (*big.Rat, bool) {
		l, lok := evalTokens(sides[0], unknown, x)
		r, rok := evalTokens(sides[1], unknown, x)
		if !lok || !rok {
			return nil, false
		}
		return new(big.Rat).Sub(l, r), true
	}
	f0, ok0 := at(big.NewRat(0, 1))
	f1, ok1 := at(big.NewRat(1, 1))
	if !ok0 || !ok1 {
		return nil, 0, false, false
	}
	a := new(big.Rat).Sub(f1, f0)
	if a.Sign() == 0 {
		return nil, 0, false, false
	}
	// The root of the line through x = 0 and x = 1; the equation's own
	// root only if it holds there (a cubic can pass through both points).
	root = new(big.Rat).Quo(new(big.Rat).Neg(f0), a)
	if f, ok := at(root); !ok || f.Sign() != 0 || root.Cmp(value) == 0 {
		return nil, 0, false, false
	}
	if f, ok := at(big.NewRat(2, 1)); !ok || new(big.Rat).Sub(f, f1).Cmp(a) != 0 {
		return nil, 0, false, false // not linear: maybe more roots than one
	}
	scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(places)), nil)
	cut := new(big.Rat).SetFrac(new(big.Int).Quo(new(big.Int).Mul(root.Num(), scale), root.Denom()), scale) // towards 0
	switch {
	case root.FloatString(places) == value.FloatString(places):
		return root, places, true, true
	case cut.Cmp(value) == 0:
		return root, places, false, true
	}
	return nil, 0, false, false
}

// decimalPlaces says n decimal places: "1 decimal place", "2 decimal
// places".
func decimalPlaces(n int) string {
	if n == 1 {
		return "1 decimal place"
	}
	return strconv.Itoa(n) + " decimal places"
}

func isAssignment(r []mathToken) bool {
	return len(r) >= 3 && r[0].kind == mVar && r[1].kind == mEq && !usesVar(r[2:], "") && len(splitEq(r)) == 2
}

type mathKind int

const (
	mNone mathKind = iota
	mNum
	mOp
	mOpen
	mClose
	mEq
	mVar
)

type mathToken struct {
	kind mathKind
	text string // the number's digits, the operator (+ - × ÷), the variable
}

// mathRuns splits a message into its runs of arithmetic: numbers,
// operators, brackets, "=" and one-letter unknowns, broken by any word.
func mathRuns(msg string) [][]mathToken {
	var runs [][]mathToken
	var cur []mathToken
	flush := func() {
		if len(cur) > 0 {
			runs = append(runs, cur)
			cur = nil
		}
	}
	rs := []rune(msg)
	xUnknown := unknownX.MatchString(msg) // "x = 2", "2x": x is no times sign
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsSpace(r):
			i++
		case unicode.IsDigit(r):
			j := digitsEnd(rs, i)
			if j+1 < len(rs) && rs[j] == '/' && unicode.IsDigit(rs[j+1]) {
				j = digitsEnd(rs, j+1) // "1/2": a fraction, not a division
			}
			text := string(rs[i:j])
			if j < len(rs) && rs[j] == '%' {
				text, j = text+"%", j+1
			}
			if n := len(cur); n > 0 && strings.Contains(text, "/") && !strings.Contains(text, "%") && cur[n-1].kind == mNum && isWhole(cur[n-1].text) {
				// "2 1/2": a mixed number.
				cur[n-1].text += " " + text
			} else {
				cur = append(cur, mathToken{mNum, text})
			}
			i = j
		case strings.ContainsRune("+-−–×*÷/", r):
			op := map[rune]string{'+': "+", '-': "-", '−': "-", '–': "-", '×': "×", '*': "×", '÷': "÷", '/': "÷"}[r]
			cur = append(cur, mathToken{mOp, op})
			i++
		case r == '(':
			cur = append(cur, mathToken{kind: mOpen, text: "("})
			i++
		case r == ')':
			cur = append(cur, mathToken{kind: mClose, text: ")"})
			i++
		case r == '=':
			cur = append(cur, mathToken{kind: mEq, text: "="})
			i++
		case unicode.IsLetter(r):
			j := i
			for j < len(rs) && unicode.IsLetter(rs[j]) {
				j++
			}
			w := string(rs[i:j])
			switch {
			case w == "of" && len(cur) > 0 && cur[len(cur)-1].kind == mNum && strings.ContainsAny(cur[len(cur)-1].text, "%/"):
				// "20% of 50", "3/4 of 20": multiplying.
				cur = append(cur, mathToken{mOp, "of"})
			case (w == "x" || w == "X") && !xUnknown && timesAt(cur, rs, j):
				// "(-7) x 6": x between numbers multiplies.
				cur = append(cur, mathToken{mOp, "×"})
			case i > 0 && (rs[i-1] == '\'' || rs[i-1] == '’'):
				flush() // "what's": the end of a word, not an unknown
			case len([]rune(w)) == 1 && (w != "a" && w != "i" && w != "I" || i > 0 && unicode.IsDigit(rs[i-1]) || opNext(rs, j)):
				cur = append(cur, mathToken{kind: mVar, text: strings.ToLower(w)})
			default:
				flush()
			}
			i = j
		default:
			flush()
			i++
		}
	}
	flush()
	return runs
}

// timesAt reports whether an "x" ending at rs[j] stands between a number
// (or a closing bracket) and a number (or an opening bracket or a sign).
func timesAt(cur []mathToken, rs []rune, j int) bool {
	if len(cur) == 0 || cur[len(cur)-1].kind != mNum && cur[len(cur)-1].kind != mClose {
		return false
	}
	for j < len(rs) && unicode.IsSpace(rs[j]) {
		j++
	}
	return j < len(rs) && (unicode.IsDigit(rs[j]) || strings.ContainsRune("(-−", rs[j]))
}

func splitEq(r []mathToken) [][]mathToken {
	var sides [][]mathToken
	from := 0
	for i, t := range r {
		if t.kind == mEq {
			sides = append(sides, r[from:i])
			from = i + 1
		}
	}
	return append(sides, r[from:])
}

// collected simplifies an expression in one unknown that has like terms
// to collect or brackets to expand ("5x - 3x", "2(x + 3)"), alone or
// claimed equal to a simplified form ("5x - 3x = 2", "2(x + 3) = 2x + 3"),
// and reports whether the claim is wrong. A claim that gets neither the
// unknown's coefficient nor the number right is an equation to solve, not
// a simplification, and is left alone, as is any expression that is not
// linear.
func collected(sides [][]mathToken) (text string, wrong, ok bool) {
	lhs := sides[0]
	name := unknownOf(lhs)
	if name == "" || len(sides) > 2 || !simplifiable(lhs) {
		return "", false, false
	}
	a, b, ok := linear(lhs, name)
	if !ok {
		return "", false, false
	}
	form, ok := linearString(a, b, name)
	if !ok {
		return "", false, false
	}
	// "2(x + 3)" as written, not "2 × (x + 3)".
	said := writtenOut(lhs)
	if len(sides) == 1 {
		return said + " = " + form + ".", false, true
	}
	rhs := sides[1]
	if simplifiable(rhs) {
		return "", false, false
	}
	ra, rb, ok := linear(rhs, name)
	if !ok {
		return "", false, false
	}
	switch claim := writtenOut(rhs); {
	case ra.Cmp(a) == 0 && rb.Cmp(b) == 0:
		return "Yes: " + said + " = " + form + ".", false, true
	case ra.Sign() == 0 && b.Sign() == 0 && rb.Cmp(a) == 0:
		// "5x - 3x = 2": the unknown dropped.
		return "Not quite: " + said + " = " + form + ", not " + claim + "; the " + name + " stays: it's " + ratString(a) + " times " + name + ".", true, true
	case ra.Sign() != 0 && (ra.Cmp(a) == 0 || rb.Cmp(b) == 0):
		return "Not quite: " + said + " = " + form + ", not " + claim + ".", true, true
	}
	return "", false, false
}

// writtenOut writes algebra as a learner would: "2(x + 3) = 2x + 6", not
// "2 × (x + 3)=2x + 6".
func writtenOut(r []mathToken) string {
	s := strings.ReplaceAll(showTokens(r, "", nil), " × (", "(")
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "=", " = ")), " ")
}

// simplifiable reports whether an expression has like terms to collect or
// brackets to expand: the unknown twice, or a bracket.
func simplifiable(side []mathToken) bool {
	vars := 0
	for _, t := range side {
		switch t.kind {
		case mVar:
			vars++
		case mOpen:
			return slices.ContainsFunc(side, func(t mathToken) bool { return t.kind == mVar })
		}
	}
	return vars >= 2
}

// linear reads an expression in one unknown as a·x + b: its values at 0, 1
// and 2 must lie on a line.
func linear(side []mathToken, name string) (a, b *big.Rat, ok bool) {
	var f [3]*big.Rat
	for x := range f {
		if f[x], ok = evalTokens(side, name, big.NewRat(int64(x), 1)); !ok {
			return nil, nil, false
		}
	}
	a = new(big.Rat).Sub(f[1], f[0])
	if new(big.Rat).Sub(f[2], f[1]).Cmp(a) != 0 {
		return nil, nil, false
	}
	return a, f[0], true
}

// linearString writes a·x + b as a learner would: "2x", "-x", "2x + 6",
// "3x - 5", "4". Fractional coefficients are not written.
func linearString(a, b *big.Rat, name string) (string, bool) {
	if !a.IsInt() {
		return "", false
	}
	var s string
	switch c := a.Num().String(); c {
	case "0":
		return ratString(b), true
	case "1":
		s = name
	case "-1":
		s = "-" + name
	default:
		s = c + name
	}
	switch b.Sign() {
	case 1:
		s += " + " + ratString(b)
	case -1:
		s += " - " + ratString(new(big.Rat).Neg(b))
	}
	return s, true
}

func usesVar(r []mathToken, name string) bool {
	for _, t := range r {
		if t.kind == mVar && (name == "" || t.text == name) {
			return true
		}
	}
	return false
}

// hasOp reports whether a side works something: an operator after its
// first token ("-7" alone is a number, "5 - 3" a calculation).
func hasOp(r []mathToken) bool {
	for i, t := range r {
		if t.kind == mOp && i > 0 {
			return true
		}
	}
	return false
}

// evalTokens evaluates an arithmetic expression exactly, the unknown
// standing for value. It reports false for anything it cannot read, for a
// division by zero and for an unknown without a value.
func evalTokens(ts []mathToken, unknown string, value *big.Rat) (*big.Rat, bool) {
	p := &mathParser{ts: ts, unknown: unknown, value: value}
	v, ok := p.expr()
	return v, ok && p.i == len(ts)
}

type mathParser struct {
	ts      []mathToken
	i       int
	unknown string
	value   *big.Rat
}

func (p *mathParser) peek() (mathToken, bool) {
	if p.i < len(p.ts) {
		return p.ts[p.i], true
	}
	return mathToken{}, false
}

func (p *mathParser) expr() (*big.Rat, bool) {
	v, ok := p.term()
	for ok {
		t, more := p.peek()
		if !more || t.kind != mOp || t.text != "+" && t.text != "-" {
			break
		}
		p.i++
		var w *big.Rat
		if w, ok = p.term(); ok {
			if t.text == "+" {
				v = new(big.Rat).Add(v, w)
			} else {
				v = new(big.Rat).Sub(v, w)
			}
		}
	}
	return v, ok
}

func (p *mathParser) term() (*big.Rat, bool) {
	v, ok := p.factor()
	for ok {
		t, more := p.peek()
		switch {
		case more && t.kind == mOp && (t.text == "×" || t.text == "÷" || t.text == "of"):
			p.i++
			if t.text == "of" {
				t.text = "×"
			}
		case more && (t.kind == mVar || t.kind == mOpen):
			// "2x", "3(x + 1)": multiplication without a sign.
			t.text = "×"
		default:
			return v, ok
		}
		var w *big.Rat
		if w, ok = p.factor(); !ok {
			break
		}
		if t.text == "×" {
			v = new(big.Rat).Mul(v, w)
		} else if w.Sign() == 0 {
			return nil, false
		} else {
			v = new(big.Rat).Quo(v, w)
		}
	}
	return v, ok
}

func (p *mathParser) factor() (*big.Rat, bool) {
	t, ok := p.peek()
	if !ok {
		return nil, false
	}
	p.i++
	switch t.kind {
	case mOp:
		if t.text != "-" && t.text != "+" {
			return nil, false
		}
		v, ok := p.factor()
		if ok && t.text == "-" {
			v = new(big.Rat).Neg(v)
		}
		return v, ok
	case mNum:
		return numberValue(t.text)
	case mVar:
		if t.text != p.unknown || p.value == nil {
			return nil, false
		}
		return p.value, true
	case mOpen:
		v, ok := p.expr()
		if c, more := p.peek(); !ok || !more || c.kind != mClose {
			return nil, false
		}
		p.i++
		return v, true
	}
	return nil, false
}

// showTokens writes an expression out, spaced, with a negative number
// after an operator in brackets ("-3 + (-4)") and the unknown replaced by
// its value when one is given ("2 × 4 + 3").
func showTokens(ts []mathToken, unknown string, value *big.Rat) string {
	var b strings.Builder
	skip := false // the number after a bracketed sign, written with it
	for i, t := range ts {
		if skip {
			skip = false
			continue
		}
		prev := mathToken{kind: mNone}
		if i > 0 {
			prev = ts[i-1]
		}
		switch {
		case t.kind == mVar && t.text == unknown && value != nil:
			if prev.kind == mNum || prev.kind == mClose {
				b.WriteString(" × ")
			}
			s := ratString(value)
			if value.Sign() < 0 {
				s = "(" + s + ")"
			}
			b.WriteString(s)
			continue
		case t.kind == mOp && (prev.kind == mNum || prev.kind == mClose || prev.kind == mVar):
			b.WriteString(" " + t.text + " ")
			continue
		case t.kind == mOp && t.text == "-" && prev.kind == mOp && (i+1 < len(ts) && ts[i+1].kind == mNum):
			b.WriteString("(-" + ts[i+1].text + ")")
			skip = true
			continue
		case t.kind == mOpen && (prev.kind == mNum || prev.kind == mClose || prev.kind == mVar):
			b.WriteString(" × ")
		}
		b.WriteString(t.text)
	}
	return b.String()
}

// decimalString writes a value as a decimal, to four places at most ("about
// 0.3333" when it does not end there).
func decimalString(v *big.Rat) string {
	s := strings.TrimRight(strings.TrimRight(v.FloatString(4), "0"), ".")
	if back, ok := new(big.Rat).SetString(s); !ok || back.Cmp(v) != 0 {
		return "about " + s
	}
	return s
}

// percentString writes a proportion as a percentage, to two decimal
// places at most: 1/4 is "25%", 1/3 "about 33.33%".
func percentString(v *big.Rat) string {
	p := new(big.Rat).Mul(v, big.NewRat(100, 1))
	s := strings.TrimRight(strings.TrimRight(p.FloatString(2), "0"), ".")
	if back, ok := new(big.Rat).SetString(s); !ok || back.Cmp(p) != 0 {
		return "about " + s + "%"
	}
	return s + "%"
}

// fractionString writes an exact value as an integer or a fraction in
// lowest terms.
func fractionString(v *big.Rat) string {
	if v.IsInt() {
		return v.Num().String()
	}
	return v.String()
}

// ratString writes an exact value as an integer, a fraction in lowest
// terms or a short decimal.
func ratString(v *big.Rat) string {
	if v.IsInt() {
		return v.Num().String()
	}
	if s := v.FloatString(4); strings.TrimRight(strings.TrimRight(s, "0"), ".") != "" {
		if back, ok := new(big.Rat).SetString(s); ok && back.Cmp(v) == 0 {
			return strings.TrimRight(strings.TrimRight(s, "0"), ".")
		}
	}
	return v.String()
}

func digitsEnd(rs []rune, i int) int {
	for i < len(rs) && (unicode.IsDigit(rs[i]) || rs[i] == '.' && i+1 < len(rs) && unicode.IsDigit(rs[i+1])) {
		i++
	}
	return i
}

func isWhole(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return !unicode.IsDigit(r) }) < 0
}

// numberValue reads a number as mathRuns writes it: "12", "2.5", "3/4",
// "2 1/2", "20%".
func numberValue(s string) (*big.Rat, bool) {
	if p, ok := strings.CutSuffix(s, "%"); ok {
		v, ok := new(big.Rat).SetString(p)
		if !ok {
			return nil, false
		}
		return v.Quo(v, big.NewRat(100, 1)), true
	}
	whole, frac, mixed := strings.Cut(s, " ")
	if !mixed {
		return new(big.Rat).SetString(s)
	}
	w, ok1 := new(big.Rat).SetString(whole)
	f, ok2 := new(big.Rat).SetString(frac)
	if !ok1 || !ok2 {
		return nil, false
	}
	return w.Add(w, f), true
}

// unknownX finds x used as an unknown: given a value, or written after a
// number.
var unknownX = regexp.MustCompile(`(?i)\bx\s*=|\dx\b|\dx\s*[-+=)]|\(x`)

// opNext reports whether an operator, "=" or ")" comes next after rs[j],
// spaces aside: "a = 3", "a + 2".
func opNext(rs []rune, j int) bool {
	for j < len(rs) && unicode.IsSpace(rs[j]) {
		j++
	}
	return j < len(rs) && strings.ContainsRune("+-−–×*÷/=)", rs[j])
}
