package store_test

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tutord/tutord/internal/store"
)

// referenceLogs is what encodeLogs must match: json.Marshal of the entries,
// the missing times set to now, NUL characters replaced as PostgreSQL
// needs.
func referenceLogs(t testing.TB, logs []store.AgentLog, now time.Time) []byte {
	t.Helper()
	withTimes := make([]store.AgentLog, len(logs))
	for i, l := range logs {
		if l.CreatedAt.IsZero() {
			l.CreatedAt = now
		}
		withTimes[i] = l
	}
	b, err := json.Marshal(withTimes)
	if err != nil {
		t.Fatal(err)
	}
	return store.WithoutNUL(b)
}

func TestEncodeLogsWritesWhatEncodingJSONWrites(t *testing.T) {
	now := time.Date(2026, 11, 27, 4, 5, 6, 789000000, time.UTC)
	lat := 12
	cases := map[string][]store.AgentLog{
		"minimal": {{TurnID: "turn_1", Agent: "safety", Event: "completed"}},
		"every field": {{TurnID: "turn_2", Agent: "master_tutor", Event: "completed", Provider: "openai", Model: "gpt-x",
			LatencyMS: &lat, InputTokens: 1200, OutputTokens: 80, CachedTokens: 1024, CostUSD: 0.00123,
			InputSummary: "Student: 3/4", Prompt: "System:\n\tbe kind", Output: json.RawMessage(`{"response": "ok",  "n": [1, 2]}`),
			Reasoning: "r", Error: "e", CreatedAt: time.Date(2025, 1, 2, 3, 4, 5, 0, time.FixedZone("x", 5*3600+1800))}},
		"zero latency kept": {{TurnID: "turn_3", Agent: "a", Event: "e", LatencyMS: new(int)}},
		"output with HTML and line separators": {{TurnID: "turn_5", Agent: "a", Event: "e",
			Output: json.RawMessage("{\"response\": \"x < 3 & y > 2 \u2028 \\u003c\"}")}},
		"escapes": {{TurnID: "turn_4", Agent: "a\"b\\c", Event: "\x00\x01\x1f\b\f\n\r\t", InputSummary: "<b>&amp;</b> é 🙂",
			Prompt: "bad \xff\xfe utf-8 \xe2\x82", Reasoning: "\x7f del"}},
		"small and large costs": {{TurnID: "a", Agent: "a", Event: "e", CostUSD: 1e-7}, {TurnID: "b", Agent: "a", Event: "e", CostUSD: 2.5e21},
			{TurnID: "c", Agent: "a", Event: "e", CostUSD: 0.000001}, {TurnID: "d", Agent: "a", Event: "e", CostUSD: -3.25}, {TurnID: "e", Agent: "a", Event: "e", CostUSD: 123456789}},
	}
	// An AgentLog field added later, and forgotten by the encoder, must
	// show here: the "every field" entry sets them all.
	every := reflect.ValueOf(cases["every field"][0])
	for i := range every.NumField() {
		if every.Field(i).IsZero() {
			t.Errorf("the every-field case leaves %s unset", every.Type().Field(i).Name)
		}
	}
	for name, logs := range cases {
		got, err := store.EncodeLogs(logs, now)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if want := referenceLogs(t, logs, now); !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
	if got, err := store.EncodeLogs(nil, now); err != nil || string(got) != "[]" {
		t.Errorf("no logs: %s, %v; want []", got, err)
	}
}

// TestEncodeLogsRefusesWhatJSONCannotHold: an output that is not JSON, a
// cost that is not a number and a year JSON times cannot hold are errors,
// as with json.Marshal, not a document PostgreSQL would refuse.
func TestEncodeLogsRefusesWhatJSONCannotHold(t *testing.T) {
	now := time.Now()
	for name, l := range map[string]store.AgentLog{
		"output":   {TurnID: "t", Agent: "a", Event: "e", Output: json.RawMessage(`{"response": `)},
		"NaN cost": {TurnID: "t", Agent: "a", Event: "e", CostUSD: math.NaN()},
		"infinite": {TurnID: "t", Agent: "a", Event: "e", CostUSD: math.Inf(1)},
		"year":     {TurnID: "t", Agent: "a", Event: "e", CreatedAt: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)},
		"zone":     {TurnID: "t", Agent: "a", Event: "e", CreatedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.FixedZone("", 24*3600+60))},
	} {
		if _, err := store.EncodeLogs([]store.AgentLog{l}, now); err == nil || !strings.Contains(err.Error(), "encode agent logs") {
			t.Errorf("%s: %v; want an encode agent logs error", name, err)
		}
	}
}

// FuzzEncodeLogs: for any text, encodeLogs writes what json.Marshal writes.
func FuzzEncodeLogs(f *testing.F) {
	f.Add("turn_1", "Student: \u2028\u2029 <&>", "\xff", 0.5)
	f.Add("", "\x00", "\"\\", 1e-9)
	f.Add("t", "s", "x < 3 & y > 2 \u2028", 0.0)
	now := time.Unix(1700000000, 5).UTC()
	f.Fuzz(func(t *testing.T, id, summary, prompt string, cost float64) {
		if math.IsNaN(cost) || math.IsInf(cost, 0) {
			return
		}
		logs := []store.AgentLog{{TurnID: id, Agent: "a", Event: "e", InputSummary: summary, Prompt: prompt, CostUSD: cost,
			Output: json.RawMessage(`{"s":` + string(rawString(t, prompt)) + `}`)}}
		got, err := store.EncodeLogs(logs, now)
		if err != nil {
			t.Fatal(err)
		}
		if want := referenceLogs(t, logs, now); !bytes.Equal(got, want) {
			t.Errorf("got %s\nwant %s", got, want)
		}
	})
}

// rawString is s as a JSON string with <, > and & as they are, as a
// model's output can have them.
func rawString(t *testing.T, s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// BenchmarkEncodeLogs encodes a rules-engine turn's trace of five entries,
// beside json.Marshal of the same.
func BenchmarkEncodeLogs(b *testing.B) {
	now := time.Now()
	lat := 0
	safe := json.RawMessage(`{"is_safe":true,"violation_type":"","guidance":"","should_warn":false,"reasoning":"no safety pattern matched"}`)
	logs := []store.AgentLog{
		{TurnID: "turn_9", Agent: "orchestrator", Event: "turn_started", InputSummary: "Student: 15"},
		{TurnID: "turn_9", Agent: "safety", Event: "completed", Provider: "rules", LatencyMS: &lat, InputSummary: "Check: 15", Output: safe, Reasoning: "no safety pattern matched"},
		{TurnID: "turn_9", Agent: "master_tutor", Event: "completed", Provider: "rules", LatencyMS: &lat,
			Output:    json.RawMessage(`{"response":"Exactly, 15. Halving means splitting into two equal groups. That brings us to the end of the lesson: we've covered doubling and halving. Say yes if you'd like a harder question.","intent":"answer","answer_correct":true,"misconceptions_detected":[],"mastery_signal":"adequate","advance_to_step":5,"mastery_updates":[{"concept":"Halving","score":0.8}],"question_asked":null,"expected_answer":null,"question_concept":null,"session_complete":true,"turn_summary":"Step 4: half-2 correct; lesson complete","reasoning":"Rules engine: Step 4: half-2 correct; lesson complete."}`),
			Reasoning: "Rules engine: Step 4: half-2 correct; lesson complete."},
		{TurnID: "turn_9", Agent: "safety", Event: "completed", Provider: "rules", LatencyMS: &lat, InputSummary: "Check reply: Exactly, 15. Halving means splitting into two equal groups. That brings us to th...", Output: safe, Reasoning: "no safety pattern matched"},
		{TurnID: "turn_9", Agent: "orchestrator", Event: "turn_completed", LatencyMS: &lat, Output: json.RawMessage(`{"events":["mastery_updated","question_cleared","step_advanced","session_completed"],"intent":"answer"}`)},
	}
	b.Run("encodeLogs", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := store.EncodeLogs(logs, now); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json.Marshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			referenceLogs(b, logs, now)
		}
	})
}
