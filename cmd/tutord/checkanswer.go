package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/tutord/tutord/internal/tutor/answer"
)

// kinds lists the answer kinds check-answer accepts.
var kinds = []answer.Kind{
	answer.KindInteger, answer.KindDecimal, answer.KindFraction, answer.KindMixedNumber,
	answer.KindPercentage, answer.KindUnit, answer.KindChoice, answer.KindText,
	answer.KindBoolean, answer.KindList, answer.KindSet, answer.KindExpression, answer.KindRatio,
}

// runCheckAnswer judges one reply with the deterministic evaluator, so that
// curriculum authors and support staff can try it from the shell:
//
//	tutord check-answer --expected 3/4 [--kind fraction] "I think it's 0.75"
//
// The reply "-" is read from standard input.
func runCheckAnswer(_ context.Context, e env, args []string) error {
	fs := flag.NewFlagSet("tutord check-answer", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	expected := fs.String("expected", "", "the expected answer (required)")
	kind := fs.String("kind", "", "answer kind; inferred from --expected when empty")
	var options, accept stringList
	fs.Var(&options, "option", "an option of a multiple-choice question, in order (repeatable)")
	fs.Var(&accept, "accept", "another accepted answer (repeatable)")
	simplest := fs.Bool("simplest", false, "a fraction must be in lowest terms to be fully correct")
	requireUnit := fs.Bool("require-unit", false, "a number without its unit is only partially correct")
	tolerance := fs.Float64("tolerance", 0, "absolute tolerance for numbers")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return errHelp
		}
		return usageError{err.Error()}
	}
	if *expected == "" {
		return usageError{"check-answer needs --expected"}
	}
	if fs.NArg() != 1 {
		return usageError{`check-answer needs exactly one reply argument (use "-" to read it from standard input)`}
	}
	k := answer.Kind(*kind)
	if k != answer.KindAuto && !validKind(k) {
		names := make([]string, len(kinds))
		for i, k := range kinds {
			names[i] = string(k)
		}
		return usageError{fmt.Sprintf("unknown --kind %q; use one of %s", *kind, strings.Join(names, ", "))}
	}
	if *tolerance < 0 {
		return usageError{"--tolerance must not be negative"}
	}
	reply := fs.Arg(0)
	if reply == "-" {
		b, err := io.ReadAll(io.LimitReader(e.stdin, 1<<20))
		if err != nil {
			return fmt.Errorf("read the reply from standard input: %w", err)
		}
		reply = string(b)
	}
	res := answer.Evaluate(answer.Expected{
		Answer: *expected, Kind: k, Accept: accept, Options: options,
		Tolerance: *tolerance, Simplest: *simplest, RequireUnit: *requireUnit,
	}, reply)
	out := struct {
		Verdict   answer.Verdict `json:"verdict"`
		Extracted string         `json:"extracted"`
		Kind      answer.Kind    `json:"kind"`
		Reason    string         `json:"reason,omitempty"`
	}{res.Verdict, res.Extracted, res.Kind, res.Reason}
	enc := json.NewEncoder(e.stdout)
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

func validKind(k answer.Kind) bool {
	for _, x := range kinds {
		if x == k {
			return true
		}
	}
	return false
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }

func (l *stringList) Set(s string) error {
	*l = append(*l, s)
	return nil
}
