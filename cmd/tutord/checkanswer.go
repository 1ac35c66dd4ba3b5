package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
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
// The reply "-" is read from standard input. Flags go anywhere, as with
// the other commands.
func runCheckAnswer(ctx context.Context, e env, args []string) error {
	var expected, kind string
	var options, accept stringList
	var simplest, requireUnit bool
	var tolerance float64
	flags := func(fs *flag.FlagSet) {
		fs.StringVar(&expected, "expected", "", "the expected answer (required)")
		fs.StringVar(&kind, "kind", "", "answer kind; inferred from --expected when empty")
		fs.Var(&options, "option", "an option of a multiple-choice question, in order (repeatable)")
		fs.Var(&accept, "accept", "another accepted answer (repeatable)")
		fs.BoolVar(&simplest, "simplest", false, "a fraction must be in lowest terms to be fully correct")
		fs.BoolVar(&requireUnit, "require-unit", false, "a number without its unit is only partially correct")
		fs.Float64Var(&tolerance, "tolerance", 0, "absolute tolerance for numbers")
	}
	if helpRequested(args) {
		printCommandUsage(e.stdout, e.environ, "check-answer", false, flags)
		return errHelp
	}
	fs := flag.NewFlagSet("tutord check-answer", flag.ContinueOnError)
	flags(fs)
	rest, err := parseFlags(fs, "check-answer", args)
	if err != nil {
		return err
	}
	if expected == "" {
		return usageError{"check-answer needs --expected"}
	}
	if len(rest) != 1 {
		return usageError{`check-answer needs exactly one reply argument (use "-" to read it from standard input)`}
	}
	k := answer.Kind(kind)
	if k != answer.KindAuto && !validKind(k) {
		names := make([]string, len(kinds))
		for i, k := range kinds {
			names[i] = string(k)
		}
		return usageError{fmt.Sprintf("unknown --kind %q; use one of %s", kind, strings.Join(names, ", "))}
	}
	// With an infinite tolerance every number would be correct.
	if tolerance < 0 || math.IsNaN(tolerance) || math.IsInf(tolerance, 0) {
		return usageError{"--tolerance must be a finite number, not negative"}
	}
	reply := rest[0]
	if reply == "-" {
		if reply, err = readReply(ctx, e.stdin); err != nil {
			return err
		}
	}
	res := answer.Evaluate(answer.Expected{
		Answer: expected, Kind: k, Accept: accept, Options: options,
		Tolerance: tolerance, Simplest: simplest, RequireUnit: requireUnit,
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

// readReply reads the reply (up to 1 MiB) from r until it ends or ctx does:
// a terminal or a stalled pipe must not outlast Ctrl-C.
func readReply(ctx context.Context, r io.Reader) (string, error) {
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		b, err := io.ReadAll(io.LimitReader(r, 1<<20))
		done <- result{b, err}
	}()
	select {
	case res := <-done:
		if res.err != nil {
			return "", fmt.Errorf("read the reply from standard input: %w", res.err)
		}
		return string(res.b), nil
	case <-ctx.Done():
		return "", errors.New("interrupted while reading the reply from standard input")
	}
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
