package answer

import "strings"

// StatedValue returns the value that an expected answer written as a
// statement gives, after its last "=" or "is" (16 of "Double 8 is 16.",
// "8 + 8 = 16" or "The answer is 16"), or before "is the answer" (16 of
// "16 is the answer"). A model that asks a question of its own often
// writes its expected answer so, and judged against the whole statement
// the learner's "16" would be wrong. Anything else is returned as it is: a
// value, a text answer ("Photosynthesis is how plants make food"), a
// statement that ends in no value, and algebra ("x = 5", "y = 2x + 3"),
// which the evaluator reads as a whole.
func StatedValue(expected string) string {
	s := strings.TrimSpace(expected)
	if InferKind(s).Numeric() {
		return expected
	}
	cut, eq := strings.LastIndexByte(s, '='), true
	if i := strings.LastIndex(s, " is "); i > cut {
		cut, eq = i, false
	}
	if cut <= 0 {
		return expected
	}
	head := strings.TrimSpace(s[:cut])
	value := strings.TrimSpace(strings.TrimRight(s[cut+1:], ".!"))
	if !eq {
		value = strings.TrimSpace(strings.TrimRight(s[cut+len(" is"):], ".!"))
	}
	if !eq && statesAnswer[strings.ToLower(value)] && InferKind(head).Numeric() {
		return head // "16 is the answer"
	}
	if head == "" || !InferKind(value).Numeric() {
		return expected
	}
	if vars, ok := exprVars(lex(head)); eq && ok && vars != "" {
		return expected // an equation or an assignment
	}
	return value
}

// statesAnswer are what may follow "<value> is" to say the value is the
// answer: "16 is the answer", "16 is correct".
var statesAnswer = map[string]bool{
	"the answer": true, "the correct answer": true, "the right answer": true, "the final answer": true,
	"my answer": true, "correct": true, "right": true, "the result": true, "the sum": true,
}
