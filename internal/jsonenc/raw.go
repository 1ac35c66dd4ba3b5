package jsonenc

import (
	"errors"
	"fmt"
)

// AppendRaw appends the JSON document src as json.Marshal writes a
// json.RawMessage: without insignificant space, and with <, >, &, U+2028
// and U+2029 escaped. It returns an error, and b[:len(b)] unchanged, when
// src is not one valid JSON value; an empty src is not (json.Marshal
// writes a nil RawMessage as null).
//
// It checks and copies a document a few times faster than json.Compact,
// whose scanner steps through the document a byte at a time: it walks
// from token to token and copies the plain runs of a string in one go.
func AppendRaw(b, src []byte) ([]byte, error) {
	w := walker{out: b, emit: true}
	if err := w.walk(src); err != nil {
		return b, err
	}
	return w.out, nil
}

// Valid reports whether src is one valid JSON value, as json.Valid does.
func Valid(src []byte) bool {
	w := walker{}
	return w.walk(src) == nil
}

// maxDepth is encoding/json's limit on nested arrays and objects.
const maxDepth = 10000

var errEnd = errors.New("unexpected end of JSON input")

func errAt(c byte, i int, context string) error {
	return fmt.Errorf("invalid character %q at offset %d %s", c, i, context)
}

// walker checks a document token by token, and appends each token to out
// when emit is set.
type walker struct {
	out  []byte
	emit bool
}

func (w *walker) put(tok ...byte) {
	if w.emit {
		w.out = append(w.out, tok...)
	}
}

func (w *walker) walk(src []byte) error {
	var open []byte // the open arrays and objects, innermost last
	i := skipSpace(src, 0)
	for {
		// A value starts at i.
		if i >= len(src) {
			return errEnd
		}
		switch c := src[i]; {
		case c == '{' || c == '[':
			if len(open) == maxDepth {
				return errors.New("exceeded max depth")
			}
			w.put(c)
			close := c + 2 // '}' and ']' follow '{' and '[' by two
			if i = skipSpace(src, i+1); i < len(src) && src[i] == close {
				w.put(close)
				i++
				break
			}
			open = append(open, c)
			if c == '{' {
				var err error
				if i, err = w.key(src, i); err != nil {
					return err
				}
			}
			continue
		case c == '"':
			var err error
			if i, err = w.str(src, i); err != nil {
				return err
			}
		case c == '-' || '0' <= c && c <= '9':
			end, err := number(src, i)
			if err != nil {
				return err
			}
			w.put(src[i:end]...)
			i = end
		case c == 't' || c == 'f' || c == 'n':
			end, err := literal(src, i)
			if err != nil {
				return err
			}
			w.put(src[i:end]...)
			i = end
		default:
			return errAt(c, i, "looking for beginning of value")
		}
		// A value ended before i: what follows it closes its containers,
		// or separates it from the next value.
		for {
			i = skipSpace(src, i)
			if len(open) == 0 {
				if i < len(src) {
					return errAt(src[i], i, "after top-level value")
				}
				return nil
			}
			if i >= len(src) {
				return errEnd
			}
			top := open[len(open)-1]
			switch c := src[i]; {
			case c == top+2:
				w.put(c)
				open = open[:len(open)-1]
				i++
				continue
			case c == ',':
				w.put(',')
				i = skipSpace(src, i+1)
				if top == '{' {
					var err error
					if i, err = w.key(src, i); err != nil {
						return err
					}
				}
			default:
				return errAt(c, i, "after array element or object value")
			}
			break
		}
	}
}

// key checks and emits an object key and its colon at i, and returns
// where the value starts.
func (w *walker) key(src []byte, i int) (int, error) {
	if i >= len(src) {
		return i, errEnd
	}
	if src[i] != '"' {
		return i, errAt(src[i], i, "looking for beginning of object key string")
	}
	i, err := w.str(src, i)
	if err != nil {
		return i, err
	}
	if i = skipSpace(src, i); i >= len(src) {
		return i, errEnd
	}
	if src[i] != ':' {
		return i, errAt(src[i], i, "after object key")
	}
	w.put(':')
	return skipSpace(src, i+1), nil
}

// plain marks the bytes a string copies as they are.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = true
	}
	for _, c := range []byte{'"', '\\', '<', '>', '&', 0xE2} {
		t[c] = false
	}
	return t
}()

// str checks and emits the string at i (src[i] is its quote), and
// returns the index after its closing quote.
func (w *walker) str(src []byte, i int) (int, error) {
	run := i // the start of the bytes not yet emitted
	for j := i + 1; ; {
		for j < len(src) && plain[src[j]] {
			j++
		}
		if j >= len(src) {
			return j, errEnd
		}
		switch c := src[j]; c {
		case '"':
			w.put(src[run : j+1]...)
			return j + 1, nil
		case '\\':
			if j+1 >= len(src) {
				return j, errEnd
			}
			switch src[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j += 2
			case 'u':
				for k := j + 2; k < j+6; k++ {
					if k >= len(src) {
						return k, errEnd
					}
					if !isHex(src[k]) {
						return k, errAt(src[k], k, "in \\u hexadecimal character escape")
					}
				}
				j += 6
			default:
				return j + 1, errAt(src[j+1], j+1, "in string escape code")
			}
		case '<', '>', '&':
			w.put(src[run:j]...)
			w.put('\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			j++
			run = j
		case 0xE2: // U+2028 and U+2029 are E2 80 A8 and E2 80 A9
			if j+2 < len(src) && src[j+1] == 0x80 && src[j+2]&^1 == 0xA8 {
				w.put(src[run:j]...)
				w.put('\\', 'u', '2', '0', '2', hex[src[j+2]&0xF])
				j += 3
				run = j
			} else {
				j++
			}
		default: // a control character
			return j, errAt(c, j, "in string literal")
		}
	}
}

const hex = "0123456789abcdef"

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// number returns the end of the number at i.
func number(src []byte, i int) (int, error) {
	digits := func(i int) (int, error) { // one or more
		if i >= len(src) {
			return i, errEnd
		}
		if !isDigit(src[i]) {
			return i, errAt(src[i], i, "in numeric literal")
		}
		for i < len(src) && isDigit(src[i]) {
			i++
		}
		return i, nil
	}
	if src[i] == '-' {
		i++
	}
	var err error
	if i < len(src) && src[i] == '0' {
		i++
	} else if i, err = digits(i); err != nil {
		return i, err
	}
	if i < len(src) && src[i] == '.' {
		if i, err = digits(i + 1); err != nil {
			return i, err
		}
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		i++
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
		if i, err = digits(i); err != nil {
			return i, err
		}
	}
	return i, nil
}

// literal returns the end of the true, false or null at i.
func literal(src []byte, i int) (int, error) {
	word := "null"
	switch src[i] {
	case 't':
		word = "true"
	case 'f':
		word = "false"
	}
	for k := 1; k < len(word); k++ {
		if i+k >= len(src) {
			return i + k, errEnd
		}
		if src[i+k] != word[k] {
			return i + k, errAt(src[i+k], i+k, "in literal "+word)
		}
	}
	return i + len(word), nil
}

func skipSpace(src []byte, i int) int {
	for i < len(src) {
		switch src[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}
