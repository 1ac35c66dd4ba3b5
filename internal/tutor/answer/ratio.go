package answer

import (
	"math"
	"slices"
)

// A ratio is two or more terms in order: "3:5", "2 : 3 : 5", "3 to 5",
// "3 is to 5", "3 ratio 5". Ratios compare by proportion, so 6:10 is 3:5,
// but not by value alone: 5:3 is another ratio, and a single number is not
// a ratio.

// ratioRun is a ratio written in a text: the indices of its first and last
// terms.
type ratioRun struct{ first, last int }

// ratioTerm reports whether toks[i] can be a term of a ratio: a plain whole
// number or decimal, in digits or words.
func ratioTerm(toks []token, i int) bool {
	n := toks[i].num
	return toks[i].kind == tNum && (n.form == fInt || n.form == fDec) && !n.pct && n.cur == ""
}

// ratioAt reads the ratio that starts at toks[i]: terms joined by ":" or by
// "to" / "is to" / "ratio" / "ratio to", one separator throughout, so that
// "simplify 6:10 to 3:5" holds two ratios rather than one of four terms.
// It returns the index of the last term, or -1 when toks[i] does not start
// a ratio.
func ratioAt(toks []token, i int) int {
	if !ratioTerm(toks, i) {
		return -1
	}
	// "from 3 to 5" is a range, "add 3 to 5" a sum.
	words := i == 0 || toks[i-1].text != "from" && toks[i-1].text != "between" && !opWords[toks[i-1].text]
	colon := false
	last := -1
	for k := i; ; {
		j := k + 1
		switch {
		case j < len(toks) && toks[j].text == ":" && (last < 0 || colon):
			colon = true
			j++
		case j < len(toks) && toks[j].text == "to" && words && (last < 0 || !colon):
			j++
		case j+1 < len(toks) && toks[j].text == "is" && toks[j+1].text == "to" && words && (last < 0 || !colon):
			j += 2
		case j < len(toks) && toks[j].text == "ratio" && words && (last < 0 || !colon):
			// "3 ratio 5", "3 ratio to 5": the sign said aloud.
			j++
			if j < len(toks) && toks[j].text == "to" {
				j++
			}
		default:
			return last
		}
		if j >= len(toks) || !ratioTerm(toks, j) {
			return last
		}
		if !colon && isRange(toks, j) {
			return last
		}
		last, k = j, j
	}
}

// isRange reports whether the number at toks[j], the second of "a to b",
// ends a range rather than a ratio: "3 to 5 minutes", "3 to 5 times".
func isRange(toks []token, j int) bool {
	if j+1 < len(toks) && toks[j+1].text == "times" {
		return true
	}
	u, _, ok := unitAt(toks, j)
	return ok && u.known()
}

// ratioRuns lists the ratios of a text that are not ruled out ("not 5:3",
// "5:3 is wrong").
func ratioRuns(toks []token) []ratioRun {
	return slices.DeleteFunc(candidates(toks), func(c ratioRun) bool { return c.first == c.last })
}

// isRatio reports whether an expected answer is a ratio written with colons
// and nothing else: "3:5", "2:3:5", "1.5 : 2". Two whole numbers whose
// second has two digits ("3:15", "12:00") may be a time of day: that takes
// kind ratio said outright.
func isRatio(toks []token) bool {
	if len(toks) < 3 || toks[1].text != ":" || ratioAt(toks, 0) != len(toks)-1 {
		return false
	}
	return !(len(toks) == 3 && toks[0].num.form == fInt && toks[2].num.form == fInt && len(toks[2].text) == 2)
}

// ratioTerms returns the values of the terms of r.
func ratioTerms(toks []token, r ratioRun) []float64 {
	var out []float64
	for k := r.first; k <= r.last; k++ {
		if toks[k].kind == tNum {
			out = append(out, toks[k].num.val)
		}
	}
	return out
}

// proportional reports whether got is want scaled by a positive factor
// (6:10 for 3:5), in the same order.
func proportional(want, got []float64, tol float64) bool {
	if len(want) != len(got) {
		return false
	}
	scale := math.NaN()
	for k := range want {
		if want[k] != 0 && math.IsNaN(scale) {
			scale = got[k] / want[k]
		}
	}
	if !(scale > 0) || math.IsInf(scale, 0) {
		return false
	}
	for k := range want {
		if !closeEnough(want[k]*scale, got[k], tol) {
			return false
		}
	}
	return true
}

// lowestTerms reports whether a ratio's terms are whole numbers with no
// common factor: 3:5, not 6:10 or 1.5:2.5.
func lowestTerms(terms []float64) bool {
	var g int64
	for _, v := range terms {
		if v != math.Trunc(v) || math.Abs(v) > 1e15 {
			return false
		}
		g = gcd(g, abs64(int64(v)))
	}
	return g == 1
}

// evalRatio handles KindRatio.
func evalRatio(exp Expected, etoks []token, reply string, toks []token, res *Result) {
	var want []float64
	if r := ratioRuns(etoks); len(r) > 0 {
		want = ratioTerms(etoks, r[0])
	}
	if len(want) == 0 {
		res.Verdict, res.Reason = CannotCheck, "the expected answer is not a ratio"
		return
	}

	// The committed number (pickNumber reads corrections, conclusions and
	// reasons) chooses among the ratios of the reply; a number outside them
	// leaves the last ratio. "15:25 simplifies to 3:5" concludes the second.
	runs := ratioRuns(toks)
	best, _, _ := pickNumber(toks)
	k := len(runs) - 1
	for i, r := range runs {
		if r.first <= best && best <= r.last {
			k = i
		}
	}
	for k >= 0 && k+1 < len(runs) && leadsTo(toks, runs[k], runs[k+1]) {
		k++
	}
	var chosen ratioRun
	switch {
	case k >= 0:
		chosen = runs[k]
	case best >= 0:
		chosen = ratioRun{best, best}
	default:
		res.Verdict, res.Reason = NotAttempt, "no ratio in the reply"
		return
	}
	got := candidateTerms(toks, chosen)
	res.Extracted = reply[toks[chosen.first].start:toks[chosen.last].end]
	if o, ok := ratioHedge(toks, chosen); ok {
		res.Extracted = reply[toks[min(chosen.first, o.first)].start:toks[max(chosen.last, o.last)].end]
		if proportional(want, got, exp.Tolerance) || proportional(want, candidateTerms(toks, o), exp.Tolerance) {
			res.Verdict, res.Reason = NotAttempt, "hedged between two values"
		} else {
			res.Verdict, res.Reason = Incorrect, "hedged between two values, neither right"
		}
		return
	}
	if len(got) < 2 {
		res.Verdict, res.Reason = Incorrect, "not a ratio"
		return
	}

	switch {
	case !proportional(want, got, exp.Tolerance):
		res.Verdict = Incorrect
		if len(got) == 2 && proportional(want, []float64{got[1], got[0]}, exp.Tolerance) {
			res.Reason = ReasonReversed
		}
	case exp.Simplest && !lowestTerms(got):
		res.Verdict, res.Reason = Partial, "not in simplest form"
	default:
		res.Verdict = Correct
	}
}

// ReasonReversed is the Reason of a wrong ratio that is the right one with
// its terms the other way round: 5:3 for 3:5.
const ReasonReversed = "terms the other way round"

// leadsTo reports whether ratio a turns into ratio b: "15:25 to 3:5",
// "15:25 reduces to 3:5".
func leadsTo(toks []token, a, b ratioRun) bool {
	gap := b.first - a.last - 1
	return toks[b.first-1].text == "to" && (gap == 1 || gap == 2 && toks[a.last+1].kind == tWord && !isNegator(toks[a.last+1].text))
}

// candidates lists what a reply offers as answers, in order: its ratios
// (not ruled out), and the numbers outside them.
func candidates(toks []token) []ratioRun {
	var out []ratioRun
	for i := 0; i < len(toks); i++ {
		if last := ratioAt(toks, i); last >= 0 {
			if !excluded(toks, i) && !excluded(toks, last) {
				out = append(out, ratioRun{i, last})
			}
			i = last
			continue
		}
		if toks[i].kind == tNum && !excluded(toks, i) {
			out = append(out, ratioRun{i, i})
		}
	}
	return out
}

// candidateTerms returns the terms of a candidate: a ratio's, a fraction's
// numerator and denominator (3/5 is the ratio 3:5 written the other school
// way), or a single number's value, which is not a ratio.
func candidateTerms(toks []token, c ratioRun) []float64 {
	if c.first < c.last {
		return ratioTerms(toks, c)
	}
	n := toks[c.first].num
	if n.form == fFrac && !n.outOf {
		return []float64{float64(n.num), float64(n.den)}
	}
	return []float64{n.val}
}

// ratioHedge returns another answer offered as an alternative to the
// chosen one ("3:5 or 5:3", "3/5 or 5/3", "3:5 or 6"), or named beside it
// as numbers are ("3:5 and 5:3", see hedgedWith), when the two differ.
// The same value in another form ("3:5 or 6:10", "3:5 or 0.6") is no
// alternative.
func ratioHedge(toks []token, chosen ratioRun) (ratioRun, bool) {
	apart := func(a, b ratioRun) bool { // b follows a, with "or" or "and" between
		sawOr, sawAnd := false, false
		for j := a.last + 1; j < b.first; j++ {
			switch t := toks[j]; {
			case t.text == "or":
				sawOr = true
			case t.text == "and" || t.text == "aur":
				sawAnd = true
			case t.text == "," || fillers[t.text] || t.text == "is" || t.text == "it":
			default:
				return false
			}
		}
		return sawOr || sawAnd && namedSideBySide(toks, a.first, b.last)
	}
	same := func(a, b []float64) bool {
		switch {
		case len(a) == len(b):
			return proportional(a, b, 0)
		case len(a) == 1 && len(b) == 2 && b[1] != 0:
			return closeEnough(a[0], b[0]/b[1], 0)
		case len(b) == 1 && len(a) == 2 && a[1] != 0:
			return closeEnough(b[0], a[0]/a[1], 0)
		}
		return false
	}
	cands := candidates(toks)
	k := slices.IndexFunc(cands, func(c ratioRun) bool { return c.first <= chosen.first && chosen.last <= c.last })
	if k < 0 {
		return ratioRun{}, false
	}
	terms := candidateTerms(toks, cands[k])
	for _, o := range []int{k + 1, k - 1} {
		if o < 0 || o >= len(cands) {
			continue
		}
		a, b := cands[min(k, o)], cands[max(k, o)]
		if apart(a, b) && !same(terms, candidateTerms(toks, cands[o])) {
			return cands[o], true
		}
	}
	return ratioRun{}, false
}
