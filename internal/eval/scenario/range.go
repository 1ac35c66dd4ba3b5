package scenario

import (
	"fmt"
	"strconv"
	"strings"
)

// Range bounds a number. In YAML a plain number means Equals; a mapping
// sets any of equals, at_least, at_most, above and below.
type Range struct {
	Equals  *float64 `yaml:"equals" json:"equals,omitempty"`
	AtLeast *float64 `yaml:"at_least" json:"at_least,omitempty"`
	AtMost  *float64 `yaml:"at_most" json:"at_most,omitempty"`
	Above   *float64 `yaml:"above" json:"above,omitempty"`
	Below   *float64 `yaml:"below" json:"below,omitempty"`
}

// Exactly returns the range holding only x.
func Exactly(x float64) Range { return Range{Equals: &x} }

// Contains reports whether x is in the range.
func (r Range) Contains(x float64) bool {
	const eps = 1e-9
	switch {
	case r.Equals != nil && (x < *r.Equals-eps || x > *r.Equals+eps):
		return false
	case r.AtLeast != nil && x < *r.AtLeast-eps:
		return false
	case r.AtMost != nil && x > *r.AtMost+eps:
		return false
	case r.Above != nil && x <= *r.Above:
		return false
	case r.Below != nil && x >= *r.Below:
		return false
	}
	return true
}

// IsZero reports whether the range sets no bound.
func (r Range) IsZero() bool {
	return r.Equals == nil && r.AtLeast == nil && r.AtMost == nil && r.Above == nil && r.Below == nil
}

// String describes the range: "= 3", "≥ 0.5 and < 1".
func (r Range) String() string {
	var parts []string
	add := func(op string, v *float64) {
		if v != nil {
			parts = append(parts, op+" "+strconv.FormatFloat(*v, 'g', -1, 64))
		}
	}
	add("=", r.Equals)
	add("≥", r.AtLeast)
	add(">", r.Above)
	add("≤", r.AtMost)
	add("<", r.Below)
	if len(parts) == 0 {
		return "any value"
	}
	return strings.Join(parts, " and ")
}

// check returns why the range can hold no value, or "".
func (r Range) check() string {
	if r.IsZero() {
		return "sets no bound: give a number or equals, at_least, at_most, above or below"
	}
	if !r.meets(-inf, inf) {
		return fmt.Sprintf("no number is %s", r)
	}
	return ""
}

// meets reports whether the range holds a number from low to high.
func (r Range) meets(low, high float64) bool {
	lo, loStrict, hi, hiStrict := low, false, high, false
	raise := func(v float64, strict bool) {
		if v > lo || v == lo && strict {
			lo, loStrict = v, strict
		}
	}
	lower := func(v float64, strict bool) {
		if v < hi || v == hi && strict {
			hi, hiStrict = v, strict
		}
	}
	if r.Equals != nil {
		raise(*r.Equals, false)
		lower(*r.Equals, false)
	}
	if r.AtLeast != nil {
		raise(*r.AtLeast, false)
	}
	if r.Above != nil {
		raise(*r.Above, true)
	}
	if r.AtMost != nil {
		lower(*r.AtMost, false)
	}
	if r.Below != nil {
		lower(*r.Below, true)
	}
	return lo < hi || lo == hi && !loStrict && !hiStrict
}

// largest returns the largest number the range names, or -inf.
func (r Range) largest() float64 {
	x := -inf
	for _, v := range []*float64{r.Equals, r.AtLeast, r.AtMost, r.Above, r.Below} {
		if v != nil {
			x = max(x, *v)
		}
	}
	return x
}

// inf is beyond every bound a scenario writes.
const inf = 1e308
