package answer

import (
	"math"
	"slices"
	"strings"
	"unicode"
)

// Evaluate judges a learner's free-text reply against the expected answer.
//
// It first finds the answer the reply commits to ("I think it's 42 apples" →
// 42 apples; "not 5, it's 6" and "5 nahi, 6 hai" → 6; "my answer is 20 - 5 = 15" → 15; "so they
// had a total of 14" → 14; "to get the number of treats (180)" → 180), then
// compares it with exp according to the kind (exp.Kind, or
// InferKind(exp.Answer) when that is KindAuto):
//
//   - Numbers (integer, decimal, fraction, mixed number) compare by value, so
//     0.5, 1/2, 1 / 2, 2/4, "a half" and "point five" are equal (a fraction
//     spaced out, in the reply or the expected answer, is the fraction). Without exp.Tolerance the
//     comparison is exact up to floating-point noise, except that a decimal
//     with at least two places that is the value rounded to those places
//     (0.33 for 1/3, 3.14 for 3.14159) is accepted. With exp.Simplest an unsimplified fraction
//     (2/4) is Partial, and so is an improper fraction where a mixed number
//     was expected.
//   - Percentages: 75%, 0.75, 3/4 and "75 percent" are all correct for 75%.
//     A bare 75 is read as 75 percent, since the question asked for a
//     percentage. exp.RequireUnit asks for the answer written as a
//     percentage: then 75 (no sign) and 0.75 or 3/4 (another form) are Partial.
//     An expected percentage written without the sign is its number (25
//     means 25%) unless it is a proportion below one (0.25 and 1/4 mean 25%).
//   - Numbers with units: units of one dimension convert (120 mm = 12 cm). The
//     right number with a different unit is Partial; a missing unit is
//     Partial only with exp.RequireUnit. An answer restated in other units
//     ("120 minutes, or 2 hours") is right when either statement is.
//   - "N out of M" is the proportion N/M, or the count N when a whole
//     number (or a number with a unit) is expected: "28 out of 30 points"
//     answers 28.
//   - Ratios: the terms in order, "3:5", "3 : 5", "3 to 5", "3 is to 5" or
//     "3 ratio 5";
//     5:3 is Incorrect. An equivalent ratio (6:10) is correct, or Partial
//     with exp.Simplest, like a fraction. A fraction 3/5 is the two-term
//     ratio 3:5 written the other school way; a single number (0.6) is not a
//     ratio.
//   - Multiple choice: a letter ("B", "(b)", "option b", and, where the
//     question has options, "c is correct", "c sir"), the option's number
//     ("option 2"), the option's text, or the one word that sets it apart
//     from the others ("less" or "smaller" for "less than 3/4" beside
//     "greater than 3/4"), before any reason ("because …").
//   - Text: compared after normalisation (case, punctuation, whitespace,
//     the articles a, an, the, and subscript digits: CO₂ is CO2);
//     exp.Accept lists other accepted answers, and an answer with a gloss
//     in brackets ("Halving (dividing by 2)") is right as the words before
//     the gloss or as the gloss. An expected text of more
//     than four words (articles left out), with no accepted form that short,
//     is an explanation, which only a model can judge: CannotCheck.
//   - Any other kind: a reply that is not right against the expected
//     answer is right when it is right against one of exp.Accept.
//   - Booleans: yes / yeah / true / correct / right ... against no / nope /
//     false / wrong ..., with negation ("not true"); a reply that starts
//     with a lone "T" or "F" answers a true-or-false question, "Y" or "N" a
//     yes-or-no one. The question's prompt copied back as a label is read
//     past: "True/False: True" answers true.
//   - Lists compare in order, sets in any order; some but not all elements
//     right is Partial.
//   - Expressions compare by value at fixed points (2(x+3) = 2x+6);
//     assignments ("x = 7", "x = 7, y = 2") compare per variable, with some
//     but not all variables right Partial.
//
// A reply with no answer in it ("hmm", "why?", "I don't know") is
// NotAttempt, and so is a question back to the tutor that is not right
// ("what is the HCF of 15 and 25?"; see AsksBack) or a request to hear the
// question again (see AsksQuestionAgain), and so is a reply about an earlier
// question (see RefersBack), right or not. A reply that hedges between
// different values ("5 or 6?", "5, 6 or 7", "6 cm and 12 cm", "is it solid
// or gas", "A or C"), or whose minus sign may be an "Ans" label's dash
// ("ans-5" for -5; "ans-5" is 5 otherwise), has not committed to an answer:
// it is NotAttempt when one of the values is right, so that the learner is
// asked to choose rather than credited or penalised, and Incorrect when none
// is. Evaluate never panics and its result depends only on its arguments.
func Evaluate(exp Expected, reply string) (res Result) {
	reply = hindiTag.ReplaceAllString(reply, "?")
	if slashKind(exp.Kind) && spacedSlash(exp.Answer) {
		// "3 / 5": an author may space out a fraction as a learner may,
		// and means the fraction too. Only the expected answer's value is
		// read, never quoted, so it needs no offsets of its own.
		exp.Answer = closeSlashes(exp.Answer)
	} else if exp.Kind == KindAuto {
		if closed, _, ok := closedAnswer(exp.Answer); ok {
			exp.Answer = closed
		}
	}
	// Typical answers and replies are short: lex them on the stack.
	var ebuf, rbuf [24]token
	etoks := appendTokens(ebuf[:0], exp.Answer)
	kind := exp.Kind
	if kind == KindAuto {
		kind = inferKind(strings.TrimSpace(exp.Answer), etoks)
	}
	res = Result{Kind: kind}
	if strings.TrimSpace(exp.Answer) == "" && (kind != KindText || len(exp.Accept) == 0) {
		res.Verdict, res.Reason = CannotCheck, "no expected answer"
		return res
	}
	if kind == KindFraction || kind == KindMixedNumber {
		if f, ok := divisionFraction(reply); ok {
			// "3÷4": the sign of phone keyboards for 3/4.
			orig := strings.TrimSpace(reply)
			reply = f
			defer func() {
				if res.Extracted != "" {
					res.Extracted = orig
				}
			}()
		}
	}
	if (slashKind(kind) || numberKind(kind)) && spacedSlash(reply) {
		// A fraction spaced out where a number is expected ("3 / 5" for
		// 0.6) is the fraction, as "3/5" is.
		orig := reply
		reply = closeSlashes(reply)
		// What was extracted is quoted as the learner wrote it.
		defer func() { res.Extracted = spanIn(orig, res.Extracted) }()
	}
	toks := appendTokens(rbuf[:0], reply)
	if len(toks) == 0 {
		res.Verdict, res.Reason = NotAttempt, "empty reply"
		return res
	}
	switch kind {
	case KindInteger, KindDecimal, KindFraction, KindMixedNumber, KindPercentage, KindUnit, KindRatio:
		// What the lexer reads: the reply, with its decimal commas as
		// points when they can be nothing else. It has the reply's
		// offsets, so that what is extracted is quoted from the reply.
		text := reply
		if kind != KindRatio && fractional(etoks) {
			if text = decimalCommas(reply); text != reply {
				toks = appendTokens(rbuf[:0], text)
			}
		}
		if i := correction(toks); i > 0 {
			// "14, no wait, 15": the learner's last word counts.
			reply, text = reply[toks[i].start:], text[toks[i].start:]
			toks = appendTokens(rbuf[:0], text)
		}
		if kind == KindRatio {
			evalRatio(exp, etoks, reply, toks, &res)
		} else {
			evalNumber(exp, etoks, kind, reply, toks, &res)
		}
	case KindChoice:
		evalChoice(exp, etoks, reply, toks, &res)
		orHedged(exp, kind, reply, toks, &res)
	case KindText:
		evalText(exp, reply, toks, &res)
		orHedged(exp, kind, reply, toks, &res)
	case KindBoolean:
		evalBoolean(etoks, reply, toks, &res)
	case KindList, KindSet:
		evalList(exp, kind, reply, toks, &res)
	case KindExpression:
		evalExpression(etoks, reply, toks, &res)
	case KindJudged:
		res.Verdict, res.Reason = CannotCheck, "judged by a model"
		if letterHedge(exp.Answer, toks) {
			res.Verdict, res.Reason, res.Extracted = NotAttempt, "hedged between two answers", strings.TrimSpace(reply)
		}
		return res
	default:
		res.Verdict, res.Reason = CannotCheck, "unknown answer kind"
		return res
	}
	defer func() {
		switch {
		case res.Verdict != NotAttempt && RefersBack(reply):
			// "is the answer to the last one -3?": not this question's,
			// even when the value would be right here.
			res = Result{Kind: kind, Verdict: NotAttempt, Reason: "about an earlier question, not this one"}
		case (res.Verdict == Incorrect || res.Verdict == Partial) && (AsksBack(reply) || AsksQuestionAgain(reply)):
			// "what is diffusion?", "what is the hcf of 15 and 25": a
			// question to the tutor, whose words or numbers are no answer.
			res = Result{Kind: kind, Verdict: NotAttempt, Reason: "a question back, not an answer"}
		case res.Verdict != NotAttempt && SaysLost(reply) && !lostWordAnswers(exp, reply),
			res.Verdict == Incorrect && kind != KindBoolean && bareAck(toks) && !ackAnswers(exp, reply),
			res.Verdict == Incorrect && kind == KindText && remark.MatchString(reply):
			// "I don't get it" (whose "nahi" in "samajh nahi aaya" is no
			// "no"), "yes", "ok" to a question that is not a yes-or-no
			// one, "this is so dumb": no answer.
			res = Result{Kind: kind, Verdict: NotAttempt, Reason: "no answer in the reply"}
		}
	}()
	if res.Verdict != Correct && kind != KindText {
		// Another accepted answer: "-145" for "how many metres below sea
		// level" answered 145.
		for _, a := range exp.Accept {
			alt := exp
			alt.Answer, alt.Kind, alt.Accept = a, kind, nil
			if r := Evaluate(alt, reply); r.Verdict == Correct {
				return r
			}
		}
	}
	return res
}

// divisionFraction returns a reply that is two whole numbers joined by the
// division sign alone ("3÷4", "3 ÷ 4", give or take a full stop) as the
// fraction it writes, "3/4". Anything more ("12 ÷ 4 = 3", "3 ÷ 4 × 2") is
// working, read as it is written.
func divisionFraction(reply string) (string, bool) {
	a, b, ok := strings.Cut(strings.TrimSpace(reply), "÷")
	a, b = strings.TrimSpace(a), strings.TrimRight(strings.TrimSpace(b), ".!")
	if !ok || !allDigits(a) || !allDigits(b) {
		return "", false
	}
	return a + "/" + b, true
}

// allDigits reports whether s is a run of at most nine digits, of any
// script: "३÷४" is 3/4 too.
func allDigits(s string) bool {
	n := 0
	for i := 0; i < len(s); n++ {
		d := digitLen(s[i:])
		if d == 0 || n == 9 {
			return false
		}
		i += d
	}
	return n > 0
}

// lostWordAnswers reports whether a reply that says the learner is lost
// may answer with its words: "not clear" where the answer or an option is
// "clear" (is lime water clear?), "lost" where one is "lost".
func lostWordAnswers(exp Expected, reply string) bool {
	for _, w := range []string{"clear", "lost"} {
		if !containsAnyFold(reply, w) {
			continue
		}
		for _, a := range slices.Concat([]string{exp.Answer}, exp.Accept, exp.Options) {
			if slices.Contains(strings.FieldsFunc(strings.ToLower(a), func(r rune) bool { return !unicode.IsLetter(r) }), w) {
				return true
			}
		}
	}
	return false
}

// fractional reports whether the number of an expected answer is not a
// whole number (12.5, 1/4, 2.5 kg): then a reply's "12,5" is that
// number written with a decimal comma, where against a whole number it is
// more likely a list ("2,3").
func fractional(etoks []token) bool {
	for _, t := range etoks {
		if t.kind == tNum {
			return t.num.val != math.Trunc(t.num.val) && !math.IsInf(t.num.val, 0)
		}
	}
	return false
}

// decimalCommas returns s with each decimal comma written as a point: a
// comma between digits with one or two digits after it ("12,5", "0,25"),
// which no thousands grouping writes. A comma in a list of numbers
// ("1,5,7") or in a grouping ("1,20,000") is left alone. The result has
// the offsets of s.
func decimalCommas(s string) string {
	var b []byte
	for c := strings.IndexByte(s, ','); c >= 0; {
		if lastDigitLen(s[:c]) > 0 {
			// The digits, of any script ("०,५"), run from s[i] to the
			// comma and from it to s[k], n of them after it.
			k, n := c+1, 0
			for d := digitLen(s[k:]); d > 0; d = digitLen(s[k:]) {
				k, n = k+d, n+1
			}
			i := c
			for d := lastDigitLen(s[:i]); d > 0; d = lastDigitLen(s[:i]) {
				i -= d
			}
			list := i > 0 && (s[i-1] == ',' || s[i-1] == '.') || // "1,2,5", "1.2,5"
				k < len(s) && (digitLen(s[k:]) > 0 || (s[k] == ',' || s[k] == '.') && digitLen(s[k+1:]) > 0) // "1,20,000", "1,5.2"
			if (n == 1 || n == 2) && !list {
				if b == nil {
					b = []byte(s)
				}
				b[c] = '.'
			}
		}
		next := strings.IndexByte(s[c+1:], ',')
		if next < 0 {
			break
		}
		c += 1 + next
	}
	if b == nil {
		return s
	}
	return string(b)
}

// InferKind infers how an expected answer should be compared when
// Expected.Kind is KindAuto:
//
//	"42", "-7", "1,200"         KindInteger (and "1,20,000": Indian digit grouping)
//	"3.14"                      KindDecimal
//	"3/4"                       KindFraction
//	"1 1/2"                     KindMixedNumber
//	"75%", "75 percent"         KindPercentage
//	"12 cm", "$5", "42 apples"  KindUnit
//	"3:5", "2:3:5"              KindRatio
//	"B", "(b)"                  KindChoice
//	"yes", "false"              KindBoolean
//	"[1, 2, 3]", "(1, 2)"       KindList (brackets mean order matters)
//	"{2, 3}", "2, 3, 5"         KindSet
//	"2x + 6", "x = 7"           KindExpression
//	anything else               KindText
func InferKind(expected string) Kind {
	if _, k, ok := closedAnswer(expected); ok {
		return k
	}
	s := strings.TrimSpace(expected)
	return inferKind(s, lex(s))
}

// closedAnswer reads an expected answer without a kind whose fraction is
// spaced out ("3 / 5", "1 1 / 2", "3 / 5 cm"): it returns the answer with
// the spaces beside its slashes dropped, and that answer's kind, when that
// is a fraction, a mixed number, a ratio or another number (see slashKind
// and numberKind). An author who spaces out a fraction means it as a
// learner does. ok is false for any other answer.
func closedAnswer(expected string) (closed string, k Kind, ok bool) {
	s := strings.TrimSpace(expected)
	if !spacedSlash(s) {
		return "", "", false
	}
	closed = closeSlashes(s)
	if k = inferKind(closed, lex(closed)); slashKind(k) || numberKind(k) {
		return closed, k, true
	}
	return "", "", false
}

// inferKind is InferKind for a trimmed answer and its tokens.
func inferKind(s string, toks []token) Kind {
	if s == "" {
		return KindText
	}
	if _, ok := boolWord(strings.ToLower(strings.Trim(s, ".!"))); ok && !strings.ContainsAny(s, " ") {
		return KindBoolean
	}
	if _, ok := choiceLetter(s); ok {
		return KindChoice
	}
	if k, ok := numericKind(toks); ok {
		return k
	}
	if isRatio(toks) {
		return KindRatio
	}
	if isExpression(toks) {
		return KindExpression
	}
	if items, ordered, ok := splitItems(s); ok && looksLikeItems(s, items) {
		if ordered {
			return KindList
		}
		return KindSet
	}
	return KindText
}

// numericKind reports the kind of an answer that is one number, optionally
// with a unit.
func numericKind(toks []token) (Kind, bool) {
	if len(toks) == 0 || toks[0].kind != tNum {
		return "", false
	}
	end := len(toks)
	for end > 1 && toks[end-1].kind == tSym && toks[end-1].text == "." {
		end--
	}
	n := toks[0].num
	if end > 1 {
		_, u, j, ok := quantityAt(toks, 0)
		if !ok || j != end || !u.known() && j != 2 {
			// "42 red apples" is still a count of apples.
			if !ok || !allWords(toks[j:end]) {
				return "", false
			}
		}
		return KindUnit, true
	}
	switch {
	case n.pct:
		return KindPercentage, true
	case n.cur != "":
		return KindUnit, true
	case n.form == fFrac:
		return KindFraction, true
	case n.form == fMixed:
		return KindMixedNumber, true
	case n.form == fDec:
		return KindDecimal, true
	}
	return KindInteger, true
}

// looksLikeItems reports whether a split answer is a list of short items
// rather than a sentence that happens to contain "and".
func looksLikeItems(s string, items []string) bool {
	if !strings.ContainsAny(s, ",;") {
		return false
	}
	for _, it := range items {
		if strings.Count(strings.TrimSpace(it), " ") >= 4 {
			return false
		}
	}
	return true
}

func allWords(toks []token) bool {
	for _, t := range toks {
		if t.kind != tWord {
			return false
		}
	}
	return true
}

// evalNumber handles the numeric kinds.
func evalNumber(exp Expected, etoks []token, kind Kind, reply string, toks []token, res *Result) {
	want, wantUnit, wantHasUnit, ok := expectedNumber(etoks, kind)
	if !ok {
		res.Verdict, res.Reason = CannotCheck, "the expected answer is not a number"
		return
	}

	i, first, last := pickNumber(toks)
	if i < 0 {
		res.Verdict, res.Reason = NotAttempt, "no number in the reply"
		return
	}
	if first >= 0 {
		// "5, 6 or 7", "12 cm or 6 cm": the learner has not chosen, and
		// is asked to when one of the values is right, in any unit of the
		// expected one's dimension ("6 cm or 12 cm" holds 60 mm).
		_, _, end := valueAt(toks, last)
		res.Extracted = reply[toks[first].start:toks[end-1].end]
		res.Verdict, res.Reason = Incorrect, "hedged between two values, neither right"
		for k := first; k >= 0; k, _, _ = nextValue(toks, k) {
			n, u, _, hasUnit := quantityAt(toks, k)
			if wantHasUnit && hasUnit && wantUnit.known() && u.known() && wantUnit.dim == u.dim && u.dim != "rate" {
				n.val, n.den = n.val*u.factor/wantUnit.factor, 0
			}
			if numbersMatch(want, n, exp.Tolerance) {
				res.Verdict, res.Reason = NotAttempt, "hedged between two values"
			}
			if k == last {
				break
			}
		}
		return
	}
	if !numbersMatch(want, toks[i].num, exp.Tolerance) {
		// "120 minutes, or 2 hours": the same answer in other units.
		if r := restatement(toks, i); r >= 0 {
			i = r
		}
	}
	i = quantityStart(toks, i)
	got, gotUnit, uend, gotHasUnit := quantityAt(toks, i)
	res.Extracted = reply[toks[i].start:toks[i].end]
	if gotHasUnit && uend > i+1 && !(toks[uend-1].text == "h" && wantUnit.dim != "time") {
		// "3 by 4 h" is "3 by 4 hai" where no time is asked for: what is
		// quoted back leaves the particle out.
		res.Extracted = reply[toks[i].start:toks[uend-1].end]
	}
	if got.outOf && (kind == KindInteger || kind == KindUnit) && !numbersMatch(want, got, exp.Tolerance) {
		// "28 out of 30 points" answers a count with 28.
		got = number{val: float64(got.num), num: got.num, den: 1, form: fInt}
		// Found in the reply, not in the token's text, whose digits may
		// be shorter than the reply's ("२८ out of ३०").
		if k := strings.Index(lowerASCII(reply[toks[i].start:toks[i].end]), "out of"); k > 0 {
			res.Extracted = strings.TrimRight(reply[toks[i].start:toks[i].start+k], " \t")
		}
	}
	if labelSign(reply, toks, i) && !numbersMatch(want, got, exp.Tolerance) && numbersMatch(want, negate(got), exp.Tolerance) {
		// "ans-5" for -5: "Ans - 5" written tight, or "Ans: -5"; either
		// reading may be meant, and only one is right.
		res.Extracted = reply[toks[i].start-1 : toks[i].end]
		res.Verdict, res.Reason = NotAttempt, "hedged between two values"
		return
	}

	// Units: convert within a dimension; compare the bare numbers otherwise.
	if wantHasUnit && gotHasUnit && wantUnit.known() && gotUnit.known() && wantUnit.dim == gotUnit.dim && wantUnit.dim != "rate" && wantUnit.name != gotUnit.name {
		conv := got
		conv.val = got.val * gotUnit.factor / wantUnit.factor
		conv.den = 0
		if numbersMatch(want, conv, exp.Tolerance) {
			res.Verdict, res.Reason = Correct, "same quantity in "+gotUnit.name
			return
		}
	}
	if !numbersMatch(want, got, exp.Tolerance) {
		res.Verdict = Incorrect
		return
	}
	if wantHasUnit {
		// A noun the expected answer does not use ("42 because", "42 pears"
		// for "42 apples") says nothing about the unit; a unit of measure does.
		relevant := gotHasUnit && (gotUnit.known() || gotUnit.name == wantUnit.name)
		// "100 degrees" for 100 °C: a degree of the temperature asked for.
		same := gotUnit.name == wantUnit.name || gotUnit.name == "°" && strings.HasPrefix(wantUnit.dim, "temperature")
		switch {
		case relevant && !same:
			res.Verdict, res.Reason = Partial, "right number, wrong unit"
			return
		case !relevant && exp.RequireUnit:
			res.Verdict, res.Reason = Partial, "right number, unit missing"
			return
		}
	}
	if got.pct && !want.pct && (exp.Kind == KindInteger || exp.Kind == KindDecimal) && !closeEnough(want.amount(), got.amount(), exp.Tolerance) {
		// "54%" for "15% of 360" confuses the amount with a percentage. Only
		// for a declared kind: an inferred bare number may be a percentage
		// written without its sign ("What percentage ...?" answered "60").
		res.Verdict, res.Reason = Partial, "right number, but not a percentage"
		return
	}
	if kind == KindPercentage && exp.RequireUnit && !got.pct {
		// Asked for a percentage: 60 lacks the sign, 0.6 and 3/5 are the
		// value in another form.
		res.Verdict, res.Reason = Partial, "right value, not written as a percentage"
		if closeEnough(want.val, got.val, exp.Tolerance) {
			res.Reason = "right number, percent sign missing"
		}
		return
	}
	if exp.Simplest && (kind == KindFraction || kind == KindMixedNumber) {
		if (got.form == fDec || got.pct) && numbersMatch(want, got, exp.Tolerance) {
			// "45/100 = 9/20 which is 0.45": the value is also written
			// as the fraction asked for.
			for j, t := range toks {
				if j > 0 && toks[j-1].kind == tWord && isNegator(toks[j-1].text) {
					continue // "not 9/20, it's 0.45"
				}
				if n := t.num; t.kind == tNum && (n.form == fFrac || n.form == fMixed) && n.den > 0 &&
					gcd(abs64(n.num), n.den) == 1 && numbersMatch(want, n, exp.Tolerance) {
					got, res.Extracted = n, reply[toks[j].start:toks[j].end]
					break
				}
			}
		}
		if got.form == fDec || got.pct {
			// Asked for a fraction in simplest form: 0.45 and 45% are the
			// value, not the fraction.
			res.Verdict, res.Reason = Partial, "right value, not written as a fraction"
			if kind == KindMixedNumber {
				res.Reason = "right value, not written as a mixed number"
			}
			return
		}
		if (got.form == fFrac || got.form == fMixed) && got.den > 0 && gcd(abs64(got.num), got.den) != 1 {
			res.Verdict, res.Reason = Partial, "not in simplest form"
			return
		}
		if kind == KindMixedNumber && got.form == fFrac && abs64(got.num) > got.den {
			res.Verdict, res.Reason = Partial, "improper fraction, expected a mixed number"
			return
		}
	}
	res.Verdict = Correct
}

// labelSign reports whether the number at toks[i] follows the dash of an
// "Ans" label that touches both ("ans-5"), which may as well be its minus
// sign (see labelDash).
func labelSign(reply string, toks []token, i int) bool {
	if i == 0 || toks[i-1].kind != tWord || toks[i-1].text != "ans" && toks[i-1].text != "answer" {
		return false
	}
	return toks[i].start == toks[i-1].end+1 && reply[toks[i-1].end] == '-'
}

// expectedNumber reads the number of a numeric expected answer and its unit.
func expectedNumber(etoks []token, kind Kind) (want number, u unit, hasUnit, ok bool) {
	for i, t := range etoks {
		if t.kind != tNum {
			continue
		}
		want, u, _, hasUnit = quantityAt(etoks, i)
		if kind == KindPercentage && !want.pct {
			// An expected percentage written without the sign is its number
			// (25 means 25%), unless it is a proportion below one (0.25, 1/4).
			if want.form != fInt && math.Abs(want.val) < 1 {
				want.val *= 100
				want.den = 0
			}
			want.pct = true
		}
		return want, u, hasUnit, true
	}
	return number{}, unit{}, false, false
}

// numbersMatch reports whether got denotes the expected number want.
func numbersMatch(want, got number, tol float64) bool {
	target := want.amount()
	if closeEnough(target, got.amount(), tol) || tol <= 0 && roundedMatch(target, want, got) {
		return true
	}
	// A bare 75 for 75%, or 75% for an expected 75: the learner wrote the
	// percentage's number.
	if want.pct != got.pct && closeEnough(want.val, got.val, tol) {
		return true
	}
	// "100 lakhs" for 100 (how many lakhs make a crore?), and 5 for an
	// expected "5 thousand": the count of a scale word, which reads as its
	// unit.
	switch {
	case got.scale > 0 && want.scale == 0:
		return closeEnough(target, got.val/float64(got.scale), tol)
	case want.scale > 0 && got.scale == 0:
		return closeEnough(want.val/float64(want.scale), got.amount(), tol)
	}
	return false
}

// closeEnough compares two values with an absolute tolerance, or, when tol is
// zero, a relative one that absorbs floating-point noise only.
func closeEnough(a, b, tol float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return false
	}
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return a == b
	}
	if tol <= 0 || math.IsNaN(tol) {
		tol = 1e-9 * math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
	}
	return math.Abs(a-b) <= tol
}

// roundedMatch accepts a decimal with at least two places that is the other
// value rounded to those places: 0.33 or 0.333 for 1/3, 3.14 for 3.14159,
// and 2/3 for an expected 0.67. One place is too coarse to tell a rounding
// from a mistake (0.3 for 1/3).
func roundedMatch(target float64, want, got number) bool {
	try := func(exact float64, dec number) bool {
		if dec.form != fDec || dec.decimals < 2 || dec.decimals > 9 || dec.pct {
			return false
		}
		p := math.Pow10(dec.decimals)
		r := math.Round(exact*p) / p
		return r != exact && closeEnough(r, dec.val, 0)
	}
	return try(target, got) || try(got.amount(), want)
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// slashKind reports whether an answer of kind k may be written with a
// slash between numbers that means a fraction: a fraction, a mixed number
// or a ratio (3/5 is the ratio 3:5).
func slashKind(k Kind) bool {
	return k == KindFraction || k == KindMixedNumber || k == KindRatio
}

// numberKind reports whether an answer of kind k is a number of another
// form, which a fraction may give too ("3/5" for 0.6 or 60%).
func numberKind(k Kind) bool {
	return k == KindInteger || k == KindDecimal || k == KindPercentage || k == KindUnit
}

// spacedSlash reports whether s has a space beside a slash ("3 / 5", "3/ 5").
func spacedSlash(s string) bool {
	return strings.Contains(s, " /") || strings.Contains(s, "/ ")
}

// spanIn returns the text of orig that closeSlashes turned into ext: ext
// with the spaces around its slashes put back.
func spanIn(orig, ext string) string {
	if ext == "" || strings.Contains(orig, ext) {
		return ext
	}
	for i := range len(orig) {
		j, k := i, 0
		for j < len(orig) && k < len(ext) {
			switch {
			case orig[j] == ext[k]:
				j, k = j+1, k+1
			case orig[j] == ' ' && k > 0 && (ext[k] == '/' || ext[k-1] == '/'):
				j++
			default:
				k = -1
			}
			if k < 0 {
				break
			}
		}
		if k == len(ext) {
			return orig[i:j]
		}
	}
	return ext
}

// closeSlashes writes "7 / 9" as "7/9" when a fraction is expected: a
// learner who spaces out a fraction means the fraction, not a division to
// carry out.
func closeSlashes(s string) string {
	b := []byte(s)
	out := b[:0:0]
	for i := 0; i < len(b); i++ {
		if b[i] == ' ' {
			// Drop spaces between a digit and "/" and between "/" and a digit.
			j := i
			for j < len(b) && b[j] == ' ' {
				j++
			}
			// out ends as s does before the spaces: spaces are dropped
			// only before a "/" or after one.
			prevDigit := lastDigitLen(s[:i]) > 0
			prevSlash := len(out) > 0 && out[len(out)-1] == '/'
			nextSlash := j < len(b) && b[j] == '/'
			nextDigit := digitLen(s[j:]) > 0
			if (prevDigit && nextSlash) || (prevSlash && nextDigit) {
				i = j - 1
				continue
			}
		}
		out = append(out, b[i])
	}
	return string(out)
}

// correction returns the index of the first token after the last
// self-correction in a reply ("no wait", "actually", "I mean", "oops",
// "sorry") that has a number after it, or -1.
func correction(toks []token) int {
	for i := len(toks) - 2; i >= 0; i-- {
		t := toks[i]
		if t.kind != tWord {
			continue
		}
		marker := t.text == "wait" || t.text == "actually" || t.text == "oops" || t.text == "sorry" ||
			t.text == "mean" && i > 0 && toks[i-1].text == "i"
		if !marker {
			continue
		}
		for j := i + 1; j < len(toks); j++ {
			if toks[j].kind == tNum {
				if j := i + 1; toks[j].kind == tSym && toks[j].text == "," && j+1 < len(toks) {
					return j + 1
				}
				return i + 1
			}
		}
	}
	return -1
}

var (
	// restating are the words with which "or" restates an answer rather
	// than offer another.
	restating = map[string]bool{"rather": true, "exactly": true, "precisely": true, "mean": true, "called": true, "known": true, "also": true}
	// formulaNames pairs common chemical formulas with their names, both
	// ways, so that "carbon dioxide or CO2" names one substance twice.
	formulaNames = func() map[string]string {
		m := map[string]string{}
		for _, p := range [][2]string{{"co2", "carbon dioxide"}, {"o2", "oxygen"}, {"h2o", "water"}, {"n2", "nitrogen"},
			{"h2", "hydrogen"}, {"nacl", "sodium chloride"}, {"c6h12o6", "glucose"}, {"co", "carbon monoxide"}, {"ch4", "methane"}} {
			m[p[0]], m[p[1]] = p[1], p[0]
		}
		return m
	}()
)

// orHedged turns a reply that gives the right answer beside another with
// "or" ("is it solid or gas", "A or C") into a hedge, whichever of the two
// the evaluator took: the learner has not committed to one. Each side is a short answer; an expected answer that holds "or"
// itself is left alone.
func orHedged(exp Expected, kind Kind, reply string, toks []token, res *Result) {
	if res.Verdict != Correct && res.Verdict != Incorrect || strings.Contains(" "+strings.ToLower(exp.Answer)+" ", " or ") {
		return
	}
	at := -1
	for i, t := range toks {
		if t.kind == tWord && t.text == "or" {
			if at >= 0 {
				return // "A or B or C": more than a choice between two
			}
			at = i
		}
	}
	if at <= 0 || at == len(toks)-1 {
		return
	}
	left, right := reply[:toks[at].start], reply[toks[at].end:]
	if len(strings.Fields(left)) > 5 || len(strings.Fields(right)) > 5 {
		return
	}
	// "solid, not liquid or gas": both other options ruled out. "solid
	// or, more exactly, crystalline": the answer restated.
	if at >= 2 && toks[at-2].kind == tWord && isNegator(toks[at-2].text) {
		return
	}
	for _, t := range toks[at+1 : min(len(toks), at+4)] {
		if t.kind == tWord && restating[t.text] {
			return
		}
	}
	one := exp
	one.Kind = kind
	l, r := Evaluate(one, left).Verdict == Correct, Evaluate(one, right).Verdict == Correct
	if l == r {
		return
	}
	// "carbon dioxide or CO2": a name and its formula.
	other := right
	if r {
		other = left
	}
	if f, ok := formulaNames[strings.ToLower(strings.TrimSpace(strings.Trim(other, " ,.?!")))]; ok && Evaluate(one, f).Verdict == Correct {
		return
	}
	res.Verdict, res.Reason = NotAttempt, "hedged between two answers"
}

// letterHedge reports whether a reply names two or more options by their
// letters, one of them the expected answer's, with "or" ("B or C", "b/c",
// "either A or B?"): the learner has not committed to one. The expected
// answer is a generated choice's, its letter first ("B) 16").
func letterHedge(expected string, toks []token) bool {
	e := strings.ToLower(strings.TrimPrefix(expected, "("))
	if len(e) < 2 || e[0] < 'a' || e[0] > 'f' || e[1] != ')' {
		return false
	}
	right := e[:1]
	letters := map[string]bool{}
	or := false
	for _, t := range toks {
		switch {
		case t.kind == tWord && len(t.text) == 1 && t.text[0] >= 'a' && t.text[0] <= 'f':
			letters[t.text] = true
		case t.kind == tWord && (t.text == "or" || t.text == "either"), t.kind == tSym && t.text == "/":
			or = or || t.text != "either"
		case t.kind == tSym && strings.Contains("?,.()", t.text):
		default:
			return false // more than letters: the model reads it
		}
	}
	return or && len(letters) >= 2 && letters[right]
}

// AndAnother returns res, Evaluate's result for reply, marked partly
// right when it is a right word answer named beside another thing with
// "and" ("oxygen and glucose" for the one gas given out, "sunlight and
// chlorophyll" for the pigment): the learner has not picked the one thing
// asked for. Both sides are short names; a side that says something about
// the answer ("chlorophyll and it traps light"), names part of it ("roots
// and root hairs") or its formula, and an expected answer that holds "and"
// itself, are left alone. It is for grading; Evaluate itself finds the
// answer in such a reply.
//
// names, when not nil, reports whether the other side names something
// that could be an answer (a word of the lesson, say): "oxygen and
// thanks" names nothing.
func AndAnother(exp Expected, reply string, res Result, names func(other string) bool) Result {
	// A choice is left to the evaluator, which reads two options named
	// with "and" as partly right: beside the right option, words of the
	// lesson are as often true ("melting and boiling" for what takes in
	// heat) as not.
	if res.Verdict != Correct || res.Kind != KindText || strings.Contains(" "+strings.ToLower(exp.Answer)+" ", " and ") {
		return res
	}
	var buf [24]token
	toks := appendTokens(buf[:0], reply)
	at := -1
	for i, t := range toks {
		if t.kind == tWord && t.text == "and" {
			if at >= 0 {
				return res
			}
			at = i
		}
	}
	if at <= 0 || at == len(toks)-1 {
		return res
	}
	left, right := reply[:toks[at].start], reply[toks[at].end:]
	one := exp
	one.Kind = KindText
	if Evaluate(one, strings.TrimSpace(left)+"-"+strings.TrimSpace(right)).Verdict == Correct {
		return res // "blue and black" for blue-black: one answer in two words
	}
	l, r := Evaluate(one, left).Verdict == Correct, Evaluate(one, right).Verdict == Correct
	if l == r {
		return res
	}
	other := left
	if l {
		other = right
	}
	words := strings.Fields(strings.ToLower(strings.Trim(other, " ,.?!")))
	if len(words) == 0 || len(words) > 3 {
		return res
	}
	for _, w := range words {
		w = strings.Trim(w, ",.?!")
		if sayingWords[w] || isNegator(w) {
			return res
		}
		for _, a := range strings.Fields(strings.ToLower(exp.Answer)) {
			if len(w) >= 4 && len(a) >= 4 && w[:4] == a[:4] {
				return res
			}
		}
	}
	if f, ok := formulaNames[strings.Join(words, " ")]; ok && Evaluate(one, f).Verdict == Correct {
		return res
	}
	if names != nil && !names(strings.Join(words, " ")) {
		return res
	}
	res.Verdict, res.Reason = Partial, ReasonAnother
	return res
}

// ReasonAnother is the reason of a right answer named beside another with
// "and" (see andAnother).
const ReasonAnother = "names another answer beside the right one"

// ReasonUnseenLetter is the reason of a NotAttempt for an option's letter
// ("C") given to a question that names its options without letters: the
// learner never saw which letter is which.
const ReasonUnseenLetter = "a letter for options shown without letters"

// ReasonLetterNoOptions is the reason of a NotAttempt for a bare letter
// ("B") given to a question that has no options at all.
const ReasonLetterNoOptions = "a letter for a question without options"

// sayingWords make a side of "and" a statement rather than a name.
var sayingWords = map[string]bool{
	"it": true, "its": true, "it's": true, "is": true, "are": true, "was": true, "were": true, "they": true,
	"this": true, "that": true, "because": true, "so": true, "then": true, "also": true, "both": true,
	"makes": true, "make": true, "gives": true, "helps": true, "traps": true, "called": true, "i": true,
	"think": true, "sure": true, "im": true, "i'm": true, "not": true, "thats": true, "that's": true,
	"in": true, "on": true, "at": true, "from": true, "by": true, "with": true, "for": true, "to": true, "into": true,
	"absorbs": true, "absorb": true, "takes": true, "uses": true, "needs": true, "has": true, "have": true,
	"nothing": true, "else": true, "thanks": true, "done": true, "stuff": true,
}
