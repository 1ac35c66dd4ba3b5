package tutor

import (
	"encoding/json"
	"errors"
	"time"
)

// Time is an instant in UTC with microsecond precision. It marshals the way
// the reference service writes timestamps: naive ISO-8601 without offset or
// "Z", the fraction only when it is not zero (2026-02-27T10:11:12.123456).
// It parses that form and, for robustness, RFC 3339 with any offset.
//
// Precision is cut to microseconds on construction so that a value survives a
// JSON round trip unchanged.
type Time struct{ t time.Time }

const naiveLayout = "2006-01-02T15:04:05"

// NewTime returns t in UTC, truncated to the microsecond.
func NewTime(t time.Time) Time { return Time{t.UTC().Truncate(time.Microsecond)} }

// ParseTime parses a naive ISO-8601 timestamp (taken as UTC; a space may
// stand for the "T") or an RFC 3339 timestamp.
func ParseTime(s string) (Time, error) {
	if len(s) > 10 && s[10] == ' ' {
		s = s[:10] + "T" + s[11:]
	}
	// When parsing, Go accepts a fractional second after the seconds field
	// even though the layout does not show one.
	if t, err := time.Parse(naiveLayout, s); err == nil {
		return NewTime(t), nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return Time{}, errors.New("invalid timestamp " + quote(s))
	}
	return NewTime(t), nil
}

// Time returns the instant as a time.Time in UTC.
func (t Time) Time() time.Time { return t.t }

// IsZero reports whether t is the zero instant.
func (t Time) IsZero() bool { return t.t.IsZero() }

// Equal reports whether t and u are the same instant.
func (t Time) Equal(u Time) bool { return t.t.Equal(u.t) }

// String returns the naive ISO-8601 form.
func (t Time) String() string { return string(t.AppendFormat(nil)) }

// AppendFormat appends the naive ISO-8601 form to b.
func (t Time) AppendFormat(b []byte) []byte {
	// The fields by hand: a state document holds a time per message, and
	// time.Time.AppendFormat reads its layout every time.
	if year, month, day := t.t.Date(); year >= 0 && year <= 9999 {
		hour, minute, sec := t.t.Clock()
		b = appendDigits(b, year, 4)
		b = appendDigits(append(b, '-'), int(month), 2)
		b = appendDigits(append(b, '-'), day, 2)
		b = appendDigits(append(b, 'T'), hour, 2)
		b = appendDigits(append(b, ':'), minute, 2)
		b = appendDigits(append(b, ':'), sec, 2)
	} else {
		b = t.t.AppendFormat(b, naiveLayout)
	}
	us := t.t.Nanosecond() / 1000
	if us == 0 {
		return b
	}
	return appendDigits(append(b, '.'), us, 6)
}

// appendDigits appends the n lowest decimal digits of v ≥ 0, with leading
// zeros.
func appendDigits(b []byte, v, n int) []byte {
	for div := pow10(n - 1); div > 0; div /= 10 {
		b = append(b, byte('0'+v/div%10))
	}
	return b
}

func pow10(n int) int {
	p := 1
	for range n {
		p *= 10
	}
	return p
}

// MarshalText implements encoding.TextMarshaler, which encoding/json
// writes as a JSON string. (A json.Marshaler's output would be parsed and
// compacted again on every document that holds the time.)
func (t Time) MarshalText() ([]byte, error) {
	return t.AppendFormat(make([]byte, 0, 26)), nil
}

// UnmarshalText implements encoding.TextUnmarshaler, the inverse of
// MarshalText (for a Time used as a map key, say).
func (t *Time) UnmarshalText(text []byte) error {
	p, err := ParseTime(string(text))
	if err != nil {
		return err
	}
	*t = p
	return nil
}

// UnmarshalJSON implements json.Unmarshaler. JSON null leaves t unchanged.
func (t *Time) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return errors.New("timestamp must be a JSON string")
	}
	p, err := ParseTime(s)
	if err != nil {
		return err
	}
	*t = p
	return nil
}

func quote(s string) string {
	const max = 40
	if len(s) > max {
		s = s[:max] + "..."
	}
	return `"` + s + `"`
}
