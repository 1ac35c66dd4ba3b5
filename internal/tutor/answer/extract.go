package answer

import "slices"

// This file picks the committed answer out of free text. A reply rarely holds
// just the answer: learners explain ("I did 12 + 3 = 15"), correct themselves
// ("not 5, it's 6", "12, I mean 14"), hedge ("5 or 6?") and worked solutions
// end with a sentence such as "So Julia bought a package of 4 spoons". Each
// number is scored by the role its neighbours give it (after "the answer
// is", the result of a computation, after "it's" or "is", "a total of", a
// plain mention, inside a "because" or "if" clause, an aside, an operand;
// roles.go reads the longer-range roles); the last statement that states a
// number is taken, a statement being a sentence or a concluding clause
// (", so ..."), and within it the number in the strongest role.

// answerLinks may stand between "answer" and its number: "the answer would be 5".
var answerLinks = map[string]bool{
	"is": true, "was": true, "be": true, "would": true, "should": true, "will": true, "must": true,
	":": true, "=": true, "equals": true, "it's": true, "i": true, "got": true, "get": true, "think": true,
}

// Scores of a number's role. Sentences compete by their best number; the
// numbers of the chosen sentence compete by score, the earlier winning a tie.
const (
	scoreOperand    = 0  // 12 in "12 + 3": an input, not a result
	scoreReason     = 5  // inside "because ..." / "since ...": a justification
	scoreInput      = 5  // a given quantity named in passing: an aside, the subject of "5 boxes are 60 pencils"
	scorePlain      = 10 // a plain mention
	scoreWeakResult = 15 // after "is", "are", "need" ...
	scoreResult     = 20 // after "it's", "got", "makes", "equals" ...
	scoreEqEarlier  = 25 // after an "=" that is not the sentence's last
	scoreEqLast     = 30 // after the sentence's last "=": the computation's result
	scoreRestated   = 31 // the result said again in another form: "= 0.45 which is 9/20"
	scoreAnswer     = 40 // after "the answer is"
)

var (
	// Words after which a number is the result of what came before.
	strongMarkers = map[string]bool{
		"it's": true, "its": true, "that's": true, "thats": true, "equals": true, "equal": true,
		"equaled": true, "equalled": true, "makes": true, "make": true, "made": true, "get": true,
		"gets": true, "got": true, "gives": true, "give": true, "gave": true, "giving": true,
		"becomes": true, "leaves": true, "it": true, "totals": true, "totaling": true,
		"totalling": true, "obtain": true, "obtained": true, "find": true, "found": true, "answered": true,
		"gotten": true,
	}
	weakMarkers = map[string]bool{
		"is": true, "are": true, "was": true, "were": true, "be": true, "been": true, "need": true,
		"needs": true, "needed": true, "has": true, "have": true, "had": true, "costs": true,
		"cost": true, "spent": true, "spend": true, "earn": true, "earns": true, "earned": true,
		"pay": true, "pays": true, "paid": true, "left": true, "remaining": true, "buy": true,
		"bought": true, "sold": true, "sell": true, "takes": true, "took": true, "take": true,
		"use": true, "used": true, "ate": true, "eat": true, "read": true, "ran": true, "run": true,
		"saved": true, "save": true, "contained": true, "contains": true, "contain": true,
	}
	// Words before "to" that make the number after it a result: "adds up
	// to 12", "comes to three quarters".
	resultTo = map[string]bool{
		"equal": true, "up": true, "comes": true, "come": true, "came": true, "amounts": true, "amount": true,
		"works": true, "worked": true, "simplifies": true, "simplified": true, "reduces": true, "reduced": true,
	}
	// Words that may sit between a marker and its number: "is only $5".
	fillers = map[string]bool{
		"only": true, "just": true, "about": true, "exactly": true, "actually": true, "really": true,
		"now": true, "still": true, "then": true, "approximately": true, "around": true, "roughly": true,
		"nearly": true, "almost": true, "a": true, "an": true, "the": true, "total": true, "of": true,
		"us": true, "you": true, "me": true, "them": true, "him": true, "her": true, "altogether": true,
		"in": true, "all": true, "indeed": true, "simply": true, "precisely": true, "overall": true,
		"definitely": true, "probably": true, "maybe": true, "perhaps": true, "surely": true,
		"\"": true,
	}
	// Sentence openers that mark a conclusion.
	conclusionOpeners = map[string]bool{
		"so": true, "therefore": true, "thus": true, "hence": true, "altogether": true,
		"finally": true, "overall": true, "consequently": true,
	}
	// Sentence openers that retract what came before.
	correctionOpeners = map[string]bool{
		"no": true, "wait": true, "actually": true, "sorry": true, "oops": true, "correction": true,
		"oh": true, "hmm": true, "hang": true, "err": true, "um": true, "i mean": true,
	}
	// Operations in words; a number next to them is an operand.
	opWords = map[string]bool{
		"times": true, "plus": true, "minus": true, "divided": true, "multiplied": true, "x": true,
		"add": true, "added": true, "adding": true, "subtract": true, "subtracted": true,
		"subtracting": true, "multiply": true, "multiplying": true, "divide": true, "dividing": true,
		"by": true, "from": true, "away": true, "into": true,
	}
	// Labels whose number names a thing rather than a quantity: "Step 3".
	labelWords = map[string]bool{
		"step": true, "steps": true, "question": true, "part": true, "line": true, "problem": true,
		"page": true, "chapter": true, "exercise": true, "example": true, "option": true, "choice": true,
		"number": true, "q": true, "item": true, "section": true, "round": true,
		"level": true, "stage": true, "task": true, "lesson": true, "unit": true, "grade": true,
		"class": true, "room": true, "table": true, "figure": true, "fig": true,
	}
	// Words that start a subordinate justification.
	reasonWords = map[string]bool{"because": true, "since": true, "cause": true, "cos": true, "coz": true}
)

func isNegator(w string) bool {
	if w == "not" || w == "never" || w == "isnt" || w == "wasnt" || w == "cannot" || w == "nor" {
		return true
	}
	return len(w) > 3 && w[len(w)-3:] == "n't"
}

func isOperatorSym(s string) bool {
	return s == "+" || s == "-" || s == "*" || s == "/" || s == "^"
}

func isSentenceEnd(t token) bool {
	if t.kind != tSym {
		return false
	}
	switch t.text {
	case ".", "!", "?", ";", "\n":
		return true
	}
	return false
}

func isClauseEnd(t token) bool {
	return isSentenceEnd(t) || t.kind == tSym && (t.text == "," || t.text == ":" || t.text == "(" || t.text == ")") ||
		t.kind == tWord && (t.text == "but" || t.text == "and" || t.text == "then")
}

// excluded reports whether the number at toks[i] is ruled out as the answer:
// negated ("not 5", "5 is wrong"), set aside ("instead of 5"), compared with
// ("more than 5"), or a label ("Step 3", list numbering).
func excluded(toks []token, i int) bool {
	// Look back within the clause.
	for k, n := i-1, 0; k >= 0 && n < 4; k, n = k-1, n+1 {
		t := toks[k]
		if isClauseEnd(t) || t.kind == tNum {
			break
		}
		if t.kind != tWord {
			continue
		}
		if isNegator(t.text) {
			return true
		}
		if n == 0 && labelWords[t.text] {
			return true
		}
		if k > 0 && t.text == "of" && (toks[k-1].text == "instead" || toks[k-1].text == "out") {
			return true
		}
		// A number after "than" is what the answer is compared with, or set
		// aside: "more than 10", "bigger than 10", "rather than 10".
		if t.text == "than" {
			return true
		}
		if t.text == "except" || t.text == "unlike" {
			return true
		}
	}
	// Look ahead: "5 is wrong", "5 apples isn't right", "5 is not it",
	// and Hindi, which says "not" after: "5 nahi, 6 hai".
	j := i + 1
	for j < len(toks) && j < i+3 && toks[j].kind == tWord && !isVerb(toks[j].text) && !isNegator(toks[j].text) && !hindiNotAfter[toks[j].text] {
		j++ // skip a unit: "5 apples is wrong"
	}
	if j < len(toks) && toks[j].kind == tWord {
		switch toks[j].text {
		case "isn't", "isnt", "wasn't", "wasnt", "aren't", "wrong", "incorrect", "nahi", "nahin", "nhi":
			return true
		case "is", "was", "would":
			if j+1 < len(toks) {
				switch toks[j+1].text {
				case "not", "wrong", "incorrect", "false":
					return true
				}
			}
		}
	}
	return listLabel(toks, i)
}

// hindiNotAfter are the spellings of the Hindi "not" that deny the number
// before them: "5 nahi" is "not 5". ("nai" is left out: it is also "new".)
var hindiNotAfter = map[string]bool{"nahi": true, "nahin": true, "nhi": true}

func isVerb(w string) bool {
	switch w {
	case "is", "was", "would", "are", "were", "wrong", "incorrect", "be":
		return true
	}
	return false
}

// listLabel reports whether toks[i] numbers a line ("1. ...", "2) ...") in a
// list with at least one neighbouring label; a lone "5. Because ..." is an
// answer, not a list.
func listLabel(toks []token, i int) bool {
	if !lineLabelAt(toks, i) {
		return false
	}
	v := toks[i].num.val
	for k := range toks {
		if k != i && toks[k].kind == tNum && lineLabelAt(toks, k) && (toks[k].num.val == v-1 || toks[k].num.val == v+1) {
			return true
		}
	}
	return false
}

func lineLabelAt(toks []token, i int) bool {
	t := toks[i]
	if t.kind != tNum || t.num.form != fInt || t.num.val < 0 || t.num.val > 99 || t.num.cur != "" {
		return false
	}
	if i > 0 && !(toks[i-1].kind == tSym && (toks[i-1].text == "\n" || toks[i-1].text == "(")) {
		return false
	}
	return i+2 < len(toks) && toks[i+1].kind == tSym && (toks[i+1].text == "." || toks[i+1].text == ")") && toks[i+2].kind == tWord
}

// isOperand reports whether the number at toks[i] is an input of a written
// computation: "12 + 3", "3 x 4", "divided by 3", "added 4 and 2".
func isOperand(toks []token, i int) bool {
	for j := i + 1; j < len(toks) && j <= i+5; j++ {
		n := toks[j]
		if n.kind == tSym && isOperatorSym(n.text) || n.kind == tWord && wordOperators[n.text] {
			// An operator needs a right operand: "32 students/class" and
			// "14 times." are counts, not computations.
			k := j + 1
			if k < len(toks) && toks[k].kind == tWord && toks[k].text == "by" {
				k++
			}
			return k < len(toks) && (toks[k].kind == tNum || toks[k].text == "(" ||
				n.kind == tWord && multiplicands[toks[k].text])
		}
		// Skip a unit: "100 minutes + 20 minutes", "6 (pears) + 4 (apples)".
		if n.kind == tSym && n.text == "(" && j+2 < len(toks) && toks[j+1].kind == tWord && toks[j+2].text == ")" {
			j += 2
			continue
		}
		if n.kind != tWord || startsPhrase(n.text) {
			break
		}
	}
	if i > 0 {
		p := toks[i-1]
		if p.kind == tWord && p.text == "by" && i > 1 && changeVerbs[toks[i-2].text] && percentAfter(toks, i) && !resultFollows(toks, i) {
			// "fell by 15%": the size of a change. ("Increased by $50
			// each time" still steps through a computation.)
			return false
		}
		if p.kind == tSym && isOperatorSym(p.text) || p.kind == tWord && opWords[p.text] {
			return true
		}
		// "added 4 and 2".
		if p.kind == tWord && p.text == "and" && i > 1 && toks[i-2].kind == tNum && isOperand(toks, i-2) {
			return true
		}
	}
	return false
}

// resultFollows reports whether a result follows the number at toks[i]:
// "= 120", "to 120" ("went up by 20% from 100 to 120").
func resultFollows(toks []token, i int) bool {
	for j := i + 1; j < len(toks); j++ {
		if toks[j].kind == tSym && toks[j].text == "=" {
			return true
		}
		if toks[j].kind == tWord && toks[j].text == "to" && slices.ContainsFunc(toks[j+1:min(j+3, len(toks))], func(t token) bool { return t.kind == tNum }) {
			return true
		}
	}
	return false
}

// percentAfter reports whether the number at toks[i] is a percentage:
// "15%", "15 percent", "15 per cent" (the lexer keeps the word with the
// number).
func percentAfter(toks []token, i int) bool {
	t := toks[i].text
	if j := i + 1; j < len(toks) && (toks[j].text == "%" || toks[j].text == "percent") {
		return true
	}
	for _, suffix := range []string{"%", "percent", "per cent"} {
		if len(t) > len(suffix) && t[len(t)-len(suffix):] == suffix {
			return true
		}
	}
	return false
}

// changeVerbs say how an amount changed; "by" after them gives the size
// of the change, not an operand.
var changeVerbs = map[string]bool{
	"fell": true, "falls": true, "fall": true, "fallen": true, "rose": true, "rises": true, "rise": true, "risen": true,
	"increased": true, "increases": true, "increase": true, "decreased": true, "decreases": true, "decrease": true,
	"reduced": true, "reduces": true, "reduce": true, "dropped": true, "drops": true, "drop": true, "grew": true,
	"grows": true, "grow": true, "up": true, "down": true, "raised": true, "cut": true, "went": true, "goes": true,
}

// wordOperators are operations written as words after a number: "3 times 4".
var wordOperators = map[string]bool{"x": true, "times": true, "plus": true, "minus": true, "divided": true, "multiplied": true}

// multiplicands may follow a word operator in place of a number: "two
// times that amount", "3 times as many".
var multiplicands = map[string]bool{"that": true, "this": true, "it": true, "as": true, "the": true, "her": true, "his": true, "their": true}

// sentenceEnd returns the end (exclusive) of the sentence that starts at a.
func sentenceEnd(toks []token, a int) int {
	for b := a; b < len(toks); b++ {
		if isSentenceEnd(toks[b]) {
			return b
		}
	}
	return len(toks)
}

// scoreNumber rates the role of the number at toks[i] in the sentence
// toks[a:b]. lastEq is the index of the sentence's last "=", or -1.
func scoreNumber(toks []token, a, i, lastEq int, assignments int) int {
	// The answer phrase: "the answer is 5", "my final answer: 5", and the
	// result of a computation that follows it: "my answer is 20 - 5 = 15"
	// answers 15, not 20.
	eq := prevEquals(toks, a, i)
	from := i
	if eq >= 0 {
		from = computationStart(toks, a, eq)
	}
	if answerPhrase(toks, a, from) && !(isOperand(toks, i) && hasResult(toks, i)) {
		return scoreAnswer
	}
	if isOperand(toks, i) {
		return scoreOperand
	}
	// A justification or a premise: "... because 3 + 3 = 6" is not the
	// answer, nor is "if she gets 5 more". It runs to the end of its clause:
	// "Since she had 5, she needs 10" concludes 10.
	premise := true // an "if" clause ends at "then": "if he makes 40 then his profit is 20"
	for k := i - 1; k >= a; k-- {
		if toks[k].kind == tSym && toks[k].text == "," {
			break
		}
		if toks[k].kind != tWord {
			continue
		}
		if toks[k].text == "then" {
			premise = false
		}
		if reasonWords[toks[k].text] || premise && toks[k].text == "if" {
			return scoreReason
		}
	}
	// A number in parentheses is an aside ("the third day (two days from
	// now)") or names the quantity just described, taking that
	// description's role: "to get the number of treats (180)" is a result,
	// "multiplied the number of houses (60)" an input.
	if open, gloss := parenthesised(toks, a, i); open >= 0 {
		if !gloss {
			return scoreInput
		}
		return glossScore(toks, a, open)
	}
	s := scorePlain
	// After "=": the last one holds the computation's result.
	if eq >= 0 {
		switch {
		case eq == lastEq || (assignments > 1 && isAssignment(toks, eq)):
			s = scoreEqLast
		default:
			s = scoreEqEarlier
		}
	} else if i >= a+2 && toks[i-1].text == "of" && aggregates[toks[i-2].text] && !listedOperand(toks, i) {
		// "a total of 14", "an average of 6".
		s = scoreResult
	} else if k := prevWord(toks, a, i); k >= 0 {
		w := toks[k].text
		switch {
		case isCopula(w) && k >= a+2 && toks[k-1].text == "which" && toks[k-2].kind == tNum && prevEquals(toks, a, k-2) >= 0:
			// "45/100 = 0.45 which is 9/20": the result, in the form
			// the learner ends on.
			s = scoreRestated
		case isCopula(w) && whichGloss(toks, a, k) >= 0:
			// ", which is 200" names the quantity that the clause before it
			// described: "to get the number of children, which is 200" is a
			// result.
			s = scoreWeakResult
			if glossScore(toks, a, whichGloss(toks, a, k)) == scoreResult {
				s = scoreResult
			}
		case strongMarkers[w] || (w == "to" && k > a && resultTo[toks[k-1].text]) || (w == "with" && k > a && toks[k-1].text == "up"):
			// "it comes to 12", "she ends up with 12"
			s = scoreResult
		case weakMarkers[w]:
			s = scoreWeakResult
		}
	}
	// The subject of a statement about another number is not the answer:
	// in "the chance to get 5 pieces is 30%" the answer is 30%. Nor is a
	// known quantity referred back to: "the 5 people brought in ...".
	if s < scoreEqEarlier && isSubject(toks, i) || s == scorePlain && definite(toks, a, i) {
		return scoreInput
	}
	return s
}

// prevEquals returns the index of the "=" (or "equals") that the number at i
// immediately follows, with only fillers, a unit or a currency sign between.
func prevEquals(toks []token, a, i int) int {
	for k, n := i-1, 0; k >= a && n < 3; k, n = k-1, n+1 {
		t := toks[k]
		if t.kind == tSym && t.text == "=" {
			return k
		}
		if t.kind == tWord && (fillers[t.text] || t.text == "is") {
			continue
		}
		break
	}
	return -1
}

// prevWord returns the index of the nearest word before i, skipping fillers.
func prevWord(toks []token, a, i int) int {
	for k := i - 1; k >= a && k >= i-4; k-- {
		t := toks[k]
		if t.kind == tSym && t.text != "\"" {
			if t.text == ":" && k > a && toks[k-1].kind == tWord {
				return k - 1
			}
			return -1
		}
		if t.kind != tWord {
			return -1
		}
		if !fillers[t.text] {
			return k
		}
	}
	return -1
}

// isAssignment reports whether the "=" at toks[eq] assigns a value to a
// single-letter variable: "x = 7".
func isAssignment(toks []token, eq int) bool {
	if eq == 0 {
		return false
	}
	v := toks[eq-1]
	if eq >= 2 && toks[eq-2].kind == tNum && toks[eq-2].end == v.start {
		return false // "2x = 16" is a step; "x = 8" solves it
	}
	return v.kind == tWord && len(v.text) == 1 && (eq == 1 || toks[eq-2].kind != tSym || toks[eq-2].text == "," || toks[eq-2].text == "\n")
}

// pickNumber returns the index of the token holding the reply's committed
// number, or -1. When the learner hedges between different values ("5 or
// 6?", "5, 6 or 7") first and last are the indexes of the first and the
// last value offered (see hedgedWith); otherwise both are -1.
//
// The last statement that states a number wins, because later statements
// conclude or supersede earlier ones; a statement is a sentence or a clause
// that concludes or corrects the one before it ("23, so there are 23", "12,
// I mean 14"). Within it, the number in the most conclusive role wins. An
// earlier "the answer is N" still beats later explanation unless a later
// statement corrects it ("No wait, it's 6") or concludes another value ("So
// she has 4 left").
func pickNumber(toks []token) (best, first, last int) {
	toks = withoutCheck(toks)
	if r := reasonAfterAnswer(toks); r > 0 {
		toks = toks[:r] // "16 because …, so one part is 4": the reason's numbers are no answer
	}
	best, first, last = -1, -1, -1
	answer, fallback := -1, -1
	corrected := false
	for a := 0; a < len(toks); {
		b := statementEnd(toks, a)
		lastEq, assignments := -1, 0
		for k := a; k < b; k++ {
			if toks[k].kind == tSym && toks[k].text == "=" {
				lastEq = k
				if isAssignment(toks, k) {
					assignments++
				}
			}
		}
		sBest, sScore := -1, -1
		for i := a; i < b; i++ {
			if toks[i].kind != tNum || excluded(toks, i) {
				continue
			}
			s := scoreNumber(toks, a, i, lastEq, assignments)
			if s > sScore {
				sBest, sScore = i, s
			}
			if s > scoreOperand {
				fallback = i
			}
		}
		if sScore >= scorePlain {
			// A correction, or a conclusion that states another value,
			// supersedes an earlier answer phrase.
			op := sentenceOpener(toks, a, b)
			if answer >= 0 && (correctionOpeners[op] || conclusionOpeners[op] && !sameValue(toks[sBest].num, toks[answer].num)) {
				corrected = true
			}
			best = sBest
			if sScore == scoreAnswer {
				answer, corrected = sBest, false
			}
		}
		a = b + 1
		if b < len(toks) && toks[b].kind == tWord && toks[b].text != "and" {
			a = b // a conclusion without a comma opens the next statement: "4 so 16"
		}
	}
	switch {
	case answer >= 0 && !corrected:
		best = answer
	case best < 0:
		best = fallback
	}
	if best >= 0 {
		first, last = hedgedWith(toks, best)
	}
	return best, first, last
}

// reasonAfterAnswer returns where the reason begins in a reply that gives
// one number first, in a few words, and then its reason: "16 because 20
// boys is 5 parts, so one part is 4", "the answer is 16 since …". It
// returns 0 for any other reply: "since she had 5, she needs 10", "I
// divided 24 by 4 because …".
func reasonAfterAnswer(toks []token) int {
	nums := 0
	for k, t := range toks {
		switch {
		case k > 6:
			return 0
		case t.kind == tNum:
			nums++
		case t.kind == tSym && t.text == "=":
			return 0
		case t.kind == tWord && reasonWords[t.text]:
			if nums != 1 {
				return 0
			}
			// One sentence only: a worked solution's lines each conclude
			// ("He has 2 sets left because 13 - 11 = 2" on its last line).
			for _, u := range toks[k:] {
				if u.kind == tSym && (u.text == "\n" || u.text == "!" || u.text == ";") {
					return 0
				}
			}
			for j := k; j+1 < len(toks); j++ {
				if toks[j].kind == tSym && toks[j].text == "." && toks[j+1].kind == tWord {
					return 0
				}
			}
			return k
		}
	}
	return 0
}

// withoutCheck returns toks without a check of the answer that follows it:
// "x = 14. Check: 14 + 9 = 23" and "x = 8 (check: 2*8-1=15)" answer with
// their first part. A check is a clause that opens with "check" or
// "verify" after an answer: a lone number or a statement with "=". A check
// that concludes something new is kept: "6, then I checked again and it is
// 7", "x = 3. Check: 2*3 = 6, wrong. x = 4".
func withoutCheck(toks []token) []token {
	for k, t := range toks {
		if t.kind != tWord || !checkWords[t.text] {
			continue
		}
		cut := k
		for cut > 0 && (toks[cut-1].kind == tSym && checkBounds[toks[cut-1].text] || checkLeads[toks[cut-1].text]) {
			cut--
		}
		if cut == k || cut == 0 || !answered(toks[:cut]) || concludes(toks[k+1:]) {
			return toks
		}
		return toks[:cut]
	}
	return toks
}

// answered reports whether toks state an answer before a check: one number,
// or a statement with "=".
func answered(toks []token) bool {
	nums := 0
	for _, t := range toks {
		switch {
		case t.kind == tSym && t.text == "=":
			return true
		case t.kind == tNum:
			nums++
		}
	}
	return nums == 1
}

// concludes reports whether a check states an answer of its own: a
// correction, a conclusion, "it is", or a new "x =".
func concludes(toks []token) bool {
	for i, t := range toks {
		switch {
		case t.kind == tWord && checkConclusions[t.text]:
			return true
		case t.kind == tWord && t.text == "it" && i+1 < len(toks) && toks[i+1].text == "is":
			return true
		case t.kind == tSym && t.text == "=" && isAssignment(toks, i):
			return true
		}
	}
	return false
}

var (
	checkWords       = map[string]bool{"check": true, "checking": true, "checked": true, "verify": true, "verifying": true, "verification": true}
	checkBounds      = map[string]bool{".": true, "(": true, ",": true, ";": true, ":": true, "-": true, "\n": true}
	checkConclusions = map[string]bool{"so": true, "answer": true, "wrong": true, "actually": true, "wait": true, "mean": true,
		"no": true, "oops": true, "instead": true, "its": true, "it's": true, "therefore": true}
	checkLeads = map[string]bool{"and": true, "to": true, "i": true, "we": true, "lets": true, "let's": true, "now": true, "then": true}
)

// startsPhrase reports whether w starts a new phrase rather than naming a unit.
func startsPhrase(w string) bool {
	return isNegator(w) || reasonWords[w] || w == "and" || w == "or" || w == "is" || w == "are" ||
		w == "was" || w == "so" || w == "then" || w == "but" || w == "which"
}

// sentenceOpener returns the conclusion or correction word that opens the
// sentence toks[a:b], or "".
func sentenceOpener(toks []token, a, b int) string {
	for k := a; k < b && k < a+3; k++ {
		t := toks[k]
		if t.kind != tWord {
			if t.kind == tSym && (t.text == "," || t.text == "-" || t.text == "\"") {
				continue
			}
			return ""
		}
		if conclusionOpeners[t.text] || correctionOpeners[t.text] && a > 0 {
			return t.text
		}
		if t.text == "i" && k+1 < b && toks[k+1].text == "mean" && a > 0 {
			return "i mean"
		}
		if t.text != "and" && t.text != "okay" && t.text != "ok" && t.text != "well" {
			// "In total, ..." / "In all, ..."
			if t.text == "in" && k+1 < b && (toks[k+1].text == "total" || toks[k+1].text == "all") {
				return "so"
			}
			return ""
		}
	}
	return ""
}

// hedgedWith returns the first and the last of the values offered alike
// with toks[i], when one of them differs from it, or -1, -1. Values joined
// by "or" ("5 or 6", "5 or maybe 6", "5, 6 or 7") are offered alike, and
// so are values named side by side with "and" ("6 and 12", "it's 12 aur
// 6", "5, 6 and 7"): the learner has not chosen one, whichever comes first.
// A value may have its unit ("6 cm or 12 cm") when the others have the
// same one: "6 apples and 12 pears" names two things, and "1/3 hour, or 10
// minutes" says one time twice, if wrongly.
func hedgedWith(toks []token, i int) (first, last int) {
	u, hasUnit, _ := valueAt(toks, i)
	or, and, differ := false, false, false
	join := func(k int, o, a bool) bool {
		if k < 0 {
			return false
		}
		if v, ok, _ := valueAt(toks, k); ok {
			if hasUnit && v.name != u.name {
				return false
			}
			u, hasUnit = v, true
		}
		or, and = or || o, and || a
		differ = differ || !sameValue(toks[k].num, toks[i].num)
		return true
	}
	first, last = i, i
	for {
		k, o, a := nextValue(toks, last)
		if !join(k, o, a) {
			break
		}
		last = k
	}
	for {
		k, o, a := prevValue(toks, first)
		if !join(k, o, a) {
			break
		}
		first = k
	}
	if !differ {
		return -1, -1
	}
	if _, _, end := valueAt(toks, last); !or && !(and && namedSideBySide(toks, first, end-1)) {
		return -1, -1
	}
	return first, last
}

// valueAt returns the unit of the number at toks[k], whether it has one,
// and the index after them. A word that links values ("12 aur 6") is no
// unit.
func valueAt(toks []token, k int) (unit, bool, int) {
	u, end, ok := unitAt(toks, k)
	if !ok || end > k+1 && hedgeLinks[toks[k+1].text] {
		return unit{}, false, k + 1
	}
	return u, true, end
}

// hedgeLinks are the words that join values offered alike: "ya" between
// numbers is the Hindi "or" ("5 ya 6?"), and "aur" the Hindi "and".
var hedgeLinks = map[string]bool{"or": true, "ya": true, "and": true, "aur": true}

// nextValue returns the index of the number after the value at toks[m]
// that a comma, "or" or "and" links to it ("5, 6", "5 or maybe 6"), and
// whether "or" and "and" are among the links; -1 when there is none.
func nextValue(toks []token, m int) (k int, or, and bool) {
	u, _, k := valueAt(toks, m)
	if u.known() && k < len(toks) && (toks[k].kind == tNum || toks[k].text == "and") {
		_, _, k, _ = quantityAt(toks, m) // "2 hours and 30 minutes" is one value
	}
	comma := false
	for n := 0; k < len(toks) && n < 4; k, n = k+1, n+1 {
		switch t := toks[k]; {
		case t.kind == tWord && (t.text == "or" || t.text == "ya"):
			or = true
		case t.kind == tWord && (t.text == "and" || t.text == "aur"):
			and = true
		case t.kind == tSym && t.text == ",":
			comma = true
		case t.kind == tWord && (fillers[t.text] || t.text == "is" || t.text == "it" || t.text == "it's"), t.kind == tSym && t.text == "$":
		case t.kind == tNum && (or || and || comma):
			return k, or, and
		default:
			return -1, false, false
		}
	}
	return -1, false, false
}

// prevValue is nextValue for the number before the value at toks[m].
func prevValue(toks []token, m int) (k int, or, and bool) {
	for p := m - 1; p >= 0 && p >= m-8; p-- {
		if toks[p].kind == tNum {
			if k, or, and = nextValue(toks, p); k == m {
				return p, or, and
			}
			break
		}
	}
	return -1, false, false
}

// namedSideBySide reports whether the numbers at toks[a] and toks[b], with
// "and" between them, are named as two answers: the later one ends the
// statement ("6 and 12", "the answer is 6 and 12."), and they do not bound
// a range ("between 6 and 12"). Numbers that more words go on about ("6
// and 12 are left") are two facts, not two answers.
func namedSideBySide(toks []token, a, b int) bool {
	return (b+1 == len(toks) || isSentenceEnd(toks[b+1])) && (a == 0 || toks[a-1].text != "between")
}

// sameValue reports whether two written numbers denote the same quantity.
func sameValue(a, b number) bool {
	return closeEnough(a.amount(), b.amount(), 0)
}

// sameQuantity reports whether the numbers at toks[i] and toks[k] state the
// same quantity in different units of one dimension: "120 minutes" and "2
// hours", "$1" and "100 cents".
func sameQuantity(toks []token, i, k int) bool {
	u, _, ok1 := unitAt(toks, i)
	v, _, ok2 := unitAt(toks, k)
	return ok1 && ok2 && u.known() && v.known() && u.dim == v.dim && u.name != v.name &&
		closeEnough(toks[i].num.amount()*u.factor, toks[k].num.amount()*v.factor, 0)
}

// quantityStart returns the index of the number that opens the compound
// quantity the number at toks[i] is a later part of ("30" of "2 hours 30
// minutes"), or i.
func quantityStart(toks []token, i int) int {
	for k := max(0, i-8); k < i; k++ { // the farthest first: "1 h 2 min 3 s"
		if toks[k].kind != tNum {
			continue
		}
		if _, _, end, _ := quantityAt(toks, k); end > i {
			return k
		}
	}
	return i
}

// restatement returns the index of the number that restates the one at
// toks[i] in other units, "120 minutes, or 2 hours", or -1.
func restatement(toks []token, i int) int {
	_, j, _ := unitAt(toks, i)
	if j < len(toks) && toks[j].text == "," {
		j++
	}
	if j+1 < len(toks) && toks[j].text == "or" && toks[j+1].kind == tNum && sameQuantity(toks, i, j+1) {
		return j + 1
	}
	return -1
}
