package answer

import "slices"

// This file reads the roles that a number's wider context gives it, beyond
// the word just before it: the answer phrase before a computation ("my
// answer is 20 - 5 = 15"), a quantity named in parentheses or by ", which
// is" after its description ("to get the number of treats (180)"), the
// subject of a statement about another number ("5 pieces ... is 30%"), and
// the clauses that conclude or correct the one before them (", so ...",
// ", I mean ...").

// concluders open a clause that draws a conclusion from the one before it:
// "21 + 2 = 23, so there are 23", "..., making 12 in all".
var concluders = map[string]bool{
	"so": true, "therefore": true, "thus": true, "hence": true, "then": true,
	"making": true, "giving": true, "leaving": true, "bringing": true,
}

// statementEnd returns the end (exclusive) of the statement that starts at
// a: the sentence, or the clause before a concluding or correcting one
// (", so ...", "and then ...", ", I mean ..."), which the later statement
// supersedes like a new sentence.
func statementEnd(toks []token, a int) int {
	for b := a; b < len(toks); b++ {
		t := toks[b]
		if isSentenceEnd(t) {
			return b
		}
		if b > a && b+2 < len(toks) && t.text == "," && toks[b+1].text == "i" && toks[b+2].text == "mean" {
			return b // "12, I mean 14"
		}
		if b > a && b+1 < len(toks) && (t.text == "," || t.text == "and") && concluders[toks[b+1].text] {
			if b+2 < len(toks) && toks[b+1].text == "so" && soNotConclusion[toks[b+2].text] {
				continue
			}
			return b
		}
		if bareConclusion(toks, a, b) {
			return b // "4 so 16": the statement after it starts at "so"
		}
	}
	return len(toks)
}

// bareConclusion reports whether toks[b] opens a conclusion written without
// a comma after a number, optionally with its unit: "4 so 16", "20 ÷ 5 = 4
// then 16", "4 girls so 16 boys". A number must follow it in the sentence.
func bareConclusion(toks []token, a, b int) bool {
	t := toks[b]
	if t.kind != tWord || b == a || b+1 >= len(toks) {
		return false
	}
	switch t.text {
	case "so", "then", "therefore", "thus", "hence":
	default:
		return false
	}
	if t.text == "so" && soNotConclusion[toks[b+1].text] {
		return false
	}
	p := b - 1
	if toks[p].kind == tWord && p > a && toks[p-1].kind == tNum && !startsPhrase(toks[p].text) {
		p-- // a unit: "4 girls so 16"
	}
	if toks[p].kind != tNum && !statedThenConcluded(toks, a, b) {
		return false
	}
	for k := b + 1; k < len(toks) && !isSentenceEnd(toks[k]); k++ {
		if toks[k].kind == tNum {
			return true
		}
	}
	return false
}

// statedThenConcluded reports whether the "so" (or "therefore", "hence",
// "thus") at toks[b] ends a statement about a number and concludes with a
// number alone, with at most its unit, at the end of the sentence: "24 is
// both breadths so 12 cm". A statement that names its number the answer
// ("12 is the answer so 24 is double") keeps it, and "then" may only go
// on to the next step.
func statedThenConcluded(toks []token, a, b int) bool {
	if toks[b].text == "then" || !slices.ContainsFunc(toks[a:b], func(u token) bool { return u.kind == tNum }) ||
		slices.ContainsFunc(toks[a:b], func(u token) bool { return u.kind == tWord && (u.text == "answer" || u.text == "answers") }) {
		return false
	}
	k := b + 1
	if k >= len(toks) || toks[k].kind != tNum {
		return false
	}
	k++
	if k < len(toks) && toks[k].kind == tWord && !isSentenceEnd(toks[k]) {
		k++ // its unit: "12 cm"
	}
	return k >= len(toks) || isSentenceEnd(toks[k])
}

// soNotConclusion follow a "so" that does not conclude: "so that", "so many".
var soNotConclusion = map[string]bool{"that": true, "many": true, "much": true, "far": true, "long": true, "on": true}

// answerPhrase reports whether the words before toks[from] say that what
// follows is the answer: "the answer is", "my answer would be".
func answerPhrase(toks []token, a, from int) bool {
	for k, n := from-1, 0; k >= a && n < 5; k, n = k-1, n+1 {
		w := toks[k].text
		switch {
		case w == "answer" || w == "answers" || w == "result" || w == "solution":
			return true
		case w == "total" && k+1 < len(toks) && toks[k+1].text == ":":
			return true // "Total: 14 apples"
		}
		if !answerLinks[w] && !fillers[w] && w != "—" && w != "–" && w != "…" {
			break
		}
	}
	return false
}

// inComputation reports whether toks[k] can be part of a written
// computation: a number, an operator, a bracket, or the unit of the number
// before it ("3 bags - 2 bags").
func inComputation(toks []token, k int) bool {
	t := toks[k]
	switch t.kind {
	case tNum:
		return true
	case tSym:
		return isOperatorSym(t.text) || t.text == "(" || t.text == ")"
	}
	return wordOperators[t.text] || t.text == "by" || k > 0 && toks[k-1].kind == tNum && !startsPhrase(t.text) && !notUnits[t.text]
}

// computationStart returns the index of the first token of the computation
// whose "=" is at toks[eq]: the 20 of "20 - 5 = 15".
func computationStart(toks []token, a, eq int) int {
	start := eq
	for k := eq - 1; k >= a && inComputation(toks, k); k-- {
		start = k
	}
	return start
}

// hasResult reports whether the computation that the operand at toks[i]
// starts ends in "=": "20 - 5 = 15" does, "20 - 5" does not.
func hasResult(toks []token, i int) bool {
	for k := i + 1; k < len(toks); k++ {
		if toks[k].kind == tSym && toks[k].text == "=" {
			return true
		}
		if !inComputation(toks, k) {
			return false
		}
	}
	return false
}

// aggregates are the nouns of "a total of 14", "an average of 6".
var aggregates = map[string]bool{
	"total": true, "sum": true, "average": true, "mean": true, "product": true,
	"difference": true, "quotient": true,
}

// listedOperand reports whether the number at toks[i] is the first of a
// list of inputs, as in "the sum of 3 and 4" or "the average of 2, 4 and 6".
func listedOperand(toks []token, i int) bool {
	j := i + 1
	if _, end, ok := unitAt(toks, i); ok {
		j = end
	}
	return j+1 < len(toks) && (toks[j].text == "and" || toks[j].text == ",") && toks[j+1].kind == tNum
}

// isCopula reports whether w links a subject to what it is: "is", "were".
func isCopula(w string) bool {
	return w == "is" || w == "was" || w == "are" || w == "were" || w == "be" || w == "equals"
}

// maxParen bounds how far parenthesised looks for the brackets around a
// number, and maxGloss how far glossScore reads the description before it.
const (
	maxParen = 8
	maxGloss = 16
)

// parenthesised reports how the number at toks[i] sits in parentheses in the
// sentence starting at a: open is the index of "(" or -1 when the number is
// not in parentheses or they hold a computation ("(25 + 10) x 3"), and
// gloss reports whether they hold nothing but the number, its unit and
// perhaps the same quantity in other units ("(100 cents or $1)").
func parenthesised(toks []token, a, i int) (open int, gloss bool) {
	open = -1
	// Parentheses that matter are short: look a few tokens either way.
	for k := i - 1; k >= a && k >= i-maxParen; k-- {
		t := toks[k]
		if t.kind == tSym && t.text == "(" {
			open = k
			break
		}
		if t.kind == tSym && t.text == ")" || isSentenceEnd(t) {
			return -1, false
		}
	}
	if open < 0 {
		return -1, false
	}
	gloss = true
	for k := open + 1; ; k++ {
		if k >= len(toks) || k > open+2*maxParen || isSentenceEnd(toks[k]) {
			return -1, false // unclosed, or too long to tell
		}
		t := toks[k]
		switch {
		case t.kind == tSym && t.text == ")":
			return open, gloss
		case t.kind == tSym && (isOperatorSym(t.text) || t.text == "=" || t.text == "("),
			t.kind == tWord && wordOperators[t.text]:
			return -1, false
		case t.kind == tNum, t.kind == tWord && t.text == "or":
		case t.kind == tWord && (toks[k-1].kind == tNum || k >= 2 && toks[k-2].kind == tNum && toks[k-1].kind == tWord):
			// A unit of one or two words: "(3 weeks)", "(20 square feet)".
			if startsPhrase(t.text) || notUnits[t.text] {
				gloss = false
			}
		default:
			gloss = false
		}
	}
}

// whichGloss returns the index of the comma of ", which is" or ", which
// would be" when toks[v] is that copula, or -1.
func whichGloss(toks []token, a, v int) int {
	k := v - 1
	if k > a && (toks[k].text == "would" || toks[k].text == "will") {
		k--
	}
	if k > a && toks[k].text == "which" && toks[k-1].kind == tSym && toks[k-1].text == "," {
		return k - 1
	}
	return -1
}

// glossScore rates a number that names the quantity described just before
// toks[end] ("(" or ","), by what the description says of it: the result of
// an operation ("to get the total number of weeks"), an input of one
// ("divided the total weight of the bag"), or a plain mention.
func glossScore(toks []token, a, end int) int {
	input := false
	for k := end - 1; k >= a && k >= end-maxGloss; k-- {
		t := toks[k]
		if isClauseEnd(t) && t.kind == tSym {
			break
		}
		switch {
		case t.kind == tSym && t.text == "=",
			t.kind == tWord && (strongMarkers[t.text] || t.text == "to" && k > a && resultTo[toks[k-1].text]):
			return scoreResult
		case t.kind == tWord && opWords[t.text] && !prepositions[t.text]:
			input = true
		}
	}
	if input {
		return scoreInput
	}
	return scorePlain
}

// prepositions are the operation words that also have everyday senses
// ("eaten by the household", "added from the red lights").
var prepositions = map[string]bool{"by": true, "from": true, "away": true, "into": true}

// subordinators start a clause inside a statement: "8 years old when Emily
// is 4".
var subordinators = map[string]bool{
	"when": true, "if": true, "while": true, "after": true, "before": true, "until": true,
	"unless": true, "whereas": true, "than": true, "as": true, "where": true, "who": true, "whose": true,
}

// definite reports whether the number at toks[i] refers back to a known
// quantity, "the 5 people", "these 3 boxes", rather than stating one.
func definite(toks []token, a, i int) bool {
	if i == a || i+1 >= len(toks) || toks[i+1].kind != tWord || notUnits[toks[i+1].text] {
		return false
	}
	switch toks[i-1].text {
	case "the", "these", "those":
		return true
	}
	return false
}

// isSubject reports whether the number at toks[i] is in the subject of a
// statement whose complement is another number: the 5 of "the chance to get
// 5 pieces is 30%" or of "5 boxes are 60 pencils".
func isSubject(toks []token, i int) bool {
	for j := i + 1; j < len(toks) && j <= i+8; j++ {
		t := toks[j]
		if t.kind != tWord || isClauseEnd(t) || startsPhrase(t.text) && !isCopula(t.text) || subordinators[t.text] {
			return false
		}
		if !isCopula(t.text) || t.text == "be" {
			continue
		}
		k := j + 1
		for k < len(toks) && toks[k].kind == tWord && (fillers[toks[k].text] || toks[k].text == "equal" || toks[k].text == "to") {
			k++
		}
		return k < len(toks) && toks[k].kind == tNum
	}
	return false
}
