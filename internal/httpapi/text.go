package httpapi

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Text that PostgreSQL cannot store — a NUL character, or bytes that are
// not UTF-8 — would fail deep in a query as a 500. The request readers
// (bindJSON and queryParams) refuse it up front, with a 422 that names the
// field. Chat messages are the exception: the orchestrator cleans them.

// maxTextIssues bounds the issues listed for one body.
const maxTextIssues = 20

// textIssue returns the 422 issue of a string at loc that is not storable
// text, and false when the string is fine.
func textIssue(loc []any, s string) (fieldError, bool) {
	switch {
	case !utf8.ValidString(s):
		return fieldError{Type: "string_unicode", Loc: loc,
			Msg: "Input should be a valid string, unable to parse raw data as a unicode string", Input: nil}, true
	case strings.IndexByte(s, 0) >= 0:
		return fieldError{Type: "value_error", Loc: loc, Msg: "Input should not contain NUL characters", Input: nil}, true
	}
	return fieldError{}, false
}

// bodyTextIssues lists the strings of a JSON document, keys included, that
// are not storable text: NUL characters, and invalid UTF-8 or lone UTF-16
// surrogates, which a JSON decoder silently turns into U+FFFD. The values of
// the top-level fields named in cleaned are skipped. A document that is not
// JSON has no issues here: decoding it reports that.
func bodyTextIssues(body []byte, cleaned ...string) []fieldError {
	type container struct {
		object  bool
		key     string // an object's current key
		index   int    // an array's current index
		wantKey bool   // an object's next token is a key
	}
	var (
		stack  []*container
		issues []fieldError
		prev   int64
	)
	loc := func() []any {
		l := []any{"body"}
		for _, c := range stack {
			if c.object {
				l = append(l, c.key)
			} else {
				l = append(l, c.index)
			}
		}
		return l
	}
	// valueDone moves the enclosing container past a value.
	valueDone := func() {
		if n := len(stack); n > 0 {
			if c := stack[n-1]; c.object {
				c.wantKey = true
			} else {
				c.index++
			}
		}
	}
	check := func(s string, raw []byte) {
		// Inside a cleaned field (its name is fine, or it would not be one).
		if len(stack) > 0 && stack[0].object && !stack[0].wantKey && slices.Contains(cleaned, stack[0].key) {
			return
		}
		if !utf8.Valid(raw) || loneSurrogate(raw) {
			s = "\xff" // the decoder replaced what was invalid
		}
		if fe, bad := textIssue(loc(), s); bad && len(issues) < maxTextIssues {
			issues = append(issues, fe)
		}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if err != nil {
			return issues
		}
		// The bytes since the last token: this one, and the delimiters and
		// spaces before it, which are ASCII.
		end := dec.InputOffset()
		raw := body[prev:end]
		prev = end
		var top *container
		if n := len(stack); n > 0 {
			top = stack[n-1]
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				stack = append(stack, &container{object: t == '{', wantKey: t == '{'})
			default:
				stack = stack[:len(stack)-1]
				valueDone()
			}
		case string:
			if top != nil && top.object && top.wantKey {
				top.key, top.wantKey = t, false
				check(t, raw)
				continue
			}
			check(t, raw)
			valueDone()
		default:
			valueDone()
		}
	}
}

// loneSurrogate reports whether JSON text holds a \u escape of a UTF-16
// surrogate that is not half of a pair.
func loneSurrogate(raw []byte) bool {
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' || i+1 >= len(raw) {
			continue
		}
		i++ // the escaped character
		if raw[i] != 'u' {
			continue
		}
		r1, ok := hex4(raw[i+1:])
		if !ok || !utf16.IsSurrogate(r1) {
			continue
		}
		i += 4 // the last digit
		if r1 < 0xDC00 && i+2 < len(raw) && raw[i+1] == '\\' && raw[i+2] == 'u' {
			if r2, ok := hex4(raw[i+3:]); ok && r2 >= 0xDC00 && r2 <= 0xDFFF {
				i += 6
				continue
			}
		}
		return true
	}
	return false
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// maxTurnKeyChars bounds a turn's idempotency key: the Idempotency-Key
// header of a REST step, the client_turn_id of a WebSocket chat.
const maxTurnKeyChars = 255

// turnKeyIssue returns the 422 issue of a turn's idempotency key at loc,
// and false when the key is fine: at most 255 characters of text without
// control characters (the key is stored and unique per session; a longer
// one does not fit the index).
func turnKeyIssue(loc []any, key string) (fieldError, bool) {
	if fe, bad := textIssue(loc, key); bad {
		return fe, true
	}
	if utf8.RuneCountInString(key) > maxTurnKeyChars {
		return fieldError{Type: "string_too_long", Loc: loc, Msg: "String should have at most 255 characters", Input: nil}, true
	}
	if strings.IndexFunc(key, unicode.IsControl) >= 0 {
		return fieldError{Type: "value_error", Loc: loc, Msg: "Input should not contain control characters", Input: nil}, true
	}
	return fieldError{}, false
}
