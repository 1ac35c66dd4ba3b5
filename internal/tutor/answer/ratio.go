package answer

import "math"

// A ratio is two or more terms in order: "3:5", "2 : 3 : 5", "3 to 5",
// "3 is to 5". Ratios compare by proportion, so 6:10 is 3:5, but not by
// value alone: 5:3 is another ratio, and a single number is not a ratio.

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
// "to" / "is to", one separator throughout, so that "simplify 6:10 to 3:5"
// holds two ratios rather than one of four terms. It returns the index of
// the last term, or -1 when toks[i] does not start a ratio.
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
		default:
			return last
		}
		if j >= len(toks) || !ratioTerm(toks, j) {
			return last
		}
		last, k = j, j
	}
}

// ratioRuns lists the ratios of a text that are not ruled out ("not 5:3",
// "5:3 is wrong").
func ratioRuns(toks []token) []ratioRun {
	var out []ratioRun
	for i := 0; i < len(toks); i++ {
		last := ratioAt(toks, i)
		if last < 0 {
			continue
		}
		if !excluded(toks, i) && !excluded(toks, last) {
			out = append(out, ratioRun{i, last})
		}
		i = last
	}
	return out
}

// isRatio reports whether an expected answer is a ratio written with colons
// and nothing else: "3:5", "2:3:5", "1.5 : 2".
func isRatio(toks []token) bool {
	return len(toks) >= 3 && toks[1].text == ":" && ratioAt(toks, 0) == len(toks)-1
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
	best, _ := pickNumber(toks)
	k := len(runs) - 1
	for i, r := range runs {
		if r.first <= best && best <= r.last {
			k = i
		}
	}
	for k >= 0 && k+1 < len(runs) && leadsTo(toks, runs[k], runs[k+1]) {
		k++
	}
	var got []float64
	switch {
	case k >= 0:
		r := runs[k]
		got = ratioTerms(toks, r)
		res.Extracted = reply[toks[r.first].start:toks[r.last].end]
		if h := ratioHedge(toks, runs, k); h >= 0 {
			o := runs[h]
			res.Extracted = reply[toks[min(r.first, o.first)].start:toks[max(r.last, o.last)].end]
			if proportional(want, got, exp.Tolerance) || proportional(want, ratioTerms(toks, o), exp.Tolerance) {
				res.Verdict, res.Reason = NotAttempt, "hedged between two values"
			} else {
				res.Verdict, res.Reason = Incorrect, "hedged between two values, neither right"
			}
			return
		}
	case best >= 0 && toks[best].num.form == fFrac && !toks[best].num.outOf:
		// A two-term ratio is also written as a fraction, a/b for a:b, as
		// textbooks do ("the ratio 3/5"). Its terms are compared as
		// written, so 6/10 is not in simplest form; "3 out of 5" is a part
		// of a whole, not this notation.
		n := toks[best].num
		got = []float64{float64(n.num), float64(n.den)}
		res.Extracted = reply[toks[best].start:toks[best].end]
	case best >= 0:
		res.Verdict, res.Reason, res.Extracted = Incorrect, "not a ratio", reply[toks[best].start:toks[best].end]
		return
	default:
		res.Verdict, res.Reason = NotAttempt, "no ratio in the reply"
		return
	}

	switch {
	case !proportional(want, got, exp.Tolerance):
		res.Verdict = Incorrect
	case exp.Simplest && !lowestTerms(got):
		res.Verdict, res.Reason = Partial, "not in simplest form"
	default:
		res.Verdict = Correct
	}
}

// leadsTo reports whether ratio a turns into ratio b: "15:25 to 3:5",
// "15:25 reduces to 3:5".
func leadsTo(toks []token, a, b ratioRun) bool {
	gap := b.first - a.last - 1
	return toks[b.first-1].text == "to" && (gap == 1 || gap == 2 && toks[a.last+1].kind == tWord && !isNegator(toks[a.last+1].text))
}

// ratioHedge returns the index in runs of a different ratio offered as an
// alternative to runs[k] ("3:5 or 5:3"), or -1.
func ratioHedge(toks []token, runs []ratioRun, k int) int {
	apart := func(a, b ratioRun) bool { // b follows a, with "or" between
		sawOr := false
		for j := a.last + 1; j < b.first; j++ {
			switch t := toks[j]; {
			case t.text == "or":
				sawOr = true
			case t.text == "," || fillers[t.text] || t.text == "is" || t.text == "it":
			default:
				return false
			}
		}
		return sawOr
	}
	differ := func(a, b ratioRun) bool {
		x, y := ratioTerms(toks, a), ratioTerms(toks, b)
		return !proportional(x, y, 0)
	}
	if k+1 < len(runs) && apart(runs[k], runs[k+1]) && differ(runs[k], runs[k+1]) {
		return k + 1
	}
	if k > 0 && apart(runs[k-1], runs[k]) && differ(runs[k-1], runs[k]) {
		return k - 1
	}
	return -1
}
