package store

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/tutord/tutord/internal/jsonenc"
)

// encodeLogs returns the JSON array of logs that a turn record holds, with
// now as the time of the entries that have none. It writes what
// json.Marshal would, in about a quarter of the time (BenchmarkEncodeLogs):
// a turn's trace is encoded on every commit, and its bytes are most of a
// turn's.
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
	b = jsonenc.AppendString(b, l.TurnID)
	b = append(b, `,"agent":`...)
	b = jsonenc.AppendString(b, l.Agent)
	b = append(b, `,"event":`...)
	b = jsonenc.AppendString(b, l.Event)
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
		b = append(b, `,"cost_usd":`...)
		var ok bool
		if b, ok = jsonenc.AppendFloat(b, l.CostUSD); !ok {
			return nil, fmt.Errorf("cost_usd: unsupported value %v", l.CostUSD)
		}
	}
	b = appendStringField(b, "input_summary", l.InputSummary)
	b = appendStringField(b, "prompt", l.Prompt)
	if len(l.Output) > 0 {
		b = append(b, `,"output":`...)
		var err error
		if b, err = jsonenc.AppendRaw(b, l.Output); err != nil {
			return nil, fmt.Errorf("output: %w", err)
		}
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
	if _, offset := at.Zone(); offset <= -24*60*60 || offset >= 24*60*60 {
		return nil, errors.New("created_at: timezone hour outside of range [0,23]")
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
	return jsonenc.AppendString(b, v)
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
