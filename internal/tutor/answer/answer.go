// Package answer decides, without a model, whether a learner's free-text reply
// answers a question correctly, and whether a tutor's reply gives an answer away.
//
// It is part of the tutoring domain: pure Go, no I/O, no clock, no global
// randomness. The turn pipeline, the curriculum validator and the evaluation
// harness all use the same evaluator and the same leak detector.
package answer

// Kind says how an expected answer is compared with a learner's reply.
type Kind string

// The answer kinds. KindAuto (the empty string) means "infer from the expected answer".
const (
	KindAuto        Kind = ""
	KindInteger     Kind = "integer"      // 42, -7, 1,200
	KindDecimal     Kind = "decimal"      // 3.14 (compared with a tolerance)
	KindFraction    Kind = "fraction"     // 3/4 = 6/8 = 0.75
	KindMixedNumber Kind = "mixed_number" // 1 1/2 = 3/2 = 1.5
	KindPercentage  Kind = "percentage"   // 75% = 0.75 = 3/4 (written as a percentage when Expected.RequireUnit)
	KindUnit        Kind = "unit"         // 12 cm (a number with a unit)
	KindChoice      Kind = "choice"       // multiple choice: a letter or the option's text
	KindText        Kind = "text"         // exact text after normalisation
	KindBoolean     Kind = "boolean"      // yes / no, true / false
	KindList        Kind = "list"         // ordered elements
	KindSet         Kind = "set"          // unordered elements
	KindExpression  Kind = "expression"   // simple algebra: 2(x+3) = 2x+6
	KindRatio       Kind = "ratio"        // 3:5 = 3 to 5 = 6:10, in order (5:3 is another ratio); 2:3:5
	// KindJudged is an answer only a model judges: a generated multiple-
	// choice question's "B) 16", whose options are in the question's text.
	// Evaluate finds it CannotCheck, but for a hedge between letters.
	KindJudged Kind = "judged"
)

// Numeric reports whether an answer of kind k is one number: an integer, a
// decimal, a fraction, a mixed number, a percentage or a quantity with a
// unit.
func (k Kind) Numeric() bool {
	switch k {
	case KindInteger, KindDecimal, KindFraction, KindMixedNumber, KindPercentage, KindUnit:
		return true
	}
	return false
}

// Verdict is the evaluator's judgement of one reply.
type Verdict string

// The verdicts.
const (
	Correct     Verdict = "correct"
	Partial     Verdict = "partial" // e.g. right value, wrong or missing unit
	Incorrect   Verdict = "incorrect"
	NotAttempt  Verdict = "not_attempt"  // the reply holds no answer ("hmm", "why?")
	CannotCheck Verdict = "cannot_check" // the expected answer is not machine-checkable: a model must judge
)

// Known reports whether the verdict settles correctness (correct, partial or incorrect).
func (v Verdict) Known() bool { return v == Correct || v == Partial || v == Incorrect }

// Expected describes the answer a question expects.
type Expected struct {
	Answer      string   // the canonical answer, e.g. "3/4", "12 cm", "B", "x = 7"
	Kind        Kind     // KindAuto infers the kind from Answer
	Accept      []string // other accepted answers, of the same kind (text answers: synonyms, spellings)
	Options     []string // the options of a multiple-choice question, in order (A, B, C, ...)
	Tolerance   float64  // absolute tolerance for numbers; 0 means exact up to floating-point noise (see Evaluate for rounded decimals)
	Simplest    bool     // a fraction or ratio must be in lowest terms (and a mixed number proper) to be fully correct
	RequireUnit bool     // a number without its unit is partial rather than correct, and so is a percentage not written as one (60 or 0.6 for 60%)
}

// KindOf returns the kind of the expected answer: Kind, or the kind
// InferKind reads from Answer when Kind is KindAuto.
func (e Expected) KindOf() Kind {
	if e.Kind == KindAuto {
		return InferKind(e.Answer)
	}
	return e.Kind
}

// Result is the outcome of Evaluate.
type Result struct {
	Verdict   Verdict `json:"verdict"`
	Extracted string  `json:"extracted"` // the answer found in the reply, as written by the learner
	Kind      Kind    `json:"kind"`      // the kind used (inferred when Expected.Kind was KindAuto)
	Reason    string  `json:"reason,omitempty"`
}
