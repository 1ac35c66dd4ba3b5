package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"
	"unicode/utf8"
)

// encodeLogs returns the JSON array of logs that a turn record holds, with
// now as the time of the entries that have none. It writes what
// json.Marshal would (up to the escaping of <, > and &, which it leaves
// as they are), a few times faster: a turn's trace is encoded on every
// commit, and its bytes are most of a turn's.
func encodeLogs(logs []AgentLog, now time.Time) ([]byte, error) {
	if len(logs) == 0 {
		return []byte("[]"), nil
	}
	size := 2
	for _, l := range logs {
		size += 256 + len(l.InputSummary) + len(l.Prompt) + len(l.Output) + len(l.Reasoning) + len(l.Error)
	}
	b := make([]byte, 0, size)
	b = append(b, '[')
	for i, l := range logs {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = appendLog(b, l, now); err != nil {
			return nil, fmt.Errorf("encode agent logs: %w", err)
		}
	}
	b = append(b, ']')
	return withoutNUL(b), nil
}

// appendLog appends l as a JSON object, fields in AgentLog's order, the
// omitempty ones left out when empty.
func appendLog(b []byte, l AgentLog, now time.Time) ([]byte, error) {
	b = append(b, `{"turn_id":`...)
	b = appendString(b, l.TurnID)
	b = append(b, `,"agent":`...)
	b = appendString(b, l.Agent)
	b = append(b, `,"event":`...)
	b = appendString(b, l.Event)
	b = appendStringField(b, "provider", l.Provider)
	b = appendStringField(b, "model", l.Model)
	if l.LatencyMS != nil {
		b = append(b, `,"latency_ms":`...)
		b = strconv.AppendInt(b, int64(*l.LatencyMS), 10)
	}
	b = appendIntField(b, "input_tokens", l.InputTokens)
	b = appendIntField(b, "output_tokens", l.OutputTokens)
	b = appendIntField(b, "cached_tokens", l.CachedTokens)
	if l.CostUSD != 0 {
		if math.IsNaN(l.CostUSD) || math.IsInf(l.CostUSD, 0) {
			return nil, fmt.Errorf("cost_usd: unsupported value %v", l.CostUSD)
		}
		b = append(b, `,"cost_usd":`...)
		b = appendFloat(b, l.CostUSD)
	}
	b = appendStringField(b, "input_summary", l.InputSummary)
	b = appendStringField(b, "prompt", l.Prompt)
	if len(l.Output) > 0 {
		b = append(b, `,"output":`...)
		out := bytes.NewBuffer(b)
		if err := json.Compact(out, l.Output); err != nil {
			return nil, fmt.Errorf("output: %w", err)
		}
		b = out.Bytes()
	}
	b = appendStringField(b, "reasoning", l.Reasoning)
	b = appendStringField(b, "error", l.Error)
	at := l.CreatedAt
	if at.IsZero() {
		at = now
	}
	if y := at.Year(); y < 0 || y > 9999 {
		return nil, errors.New("created_at: year outside of range [0,9999]")
	}
	b = append(b, `,"created_at":"`...)
	b = at.AppendFormat(b, time.RFC3339Nano)
	return append(b, `"}`...), nil
}

func appendStringField(b []byte, key, v string) []byte {
	if v == "" {
		return b
	}
	b = append(b, `,"`...)
	b = append(b, key...)
	b = append(b, `":`...)
	return appendString(b, v)
}

func appendIntField(b []byte, key string, v int) []byte {
	if v == 0 {
		return b
	}
	b = append(b, `,"`...)
	b = append(b, key...)
	b = append(b, `":`...)
	return strconv.AppendInt(b, int64(v), 10)
}

// appendFloat formats f as encoding/json does (ES6 number formatting).
func appendFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' { // e-09 to e-9
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// appendString appends s as a JSON string: quotes, backslashes and control
// characters escaped, invalid UTF-8 replaced by U+FFFD.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
