package llm

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/openai/openai-go/v3"
)

// requireJSON compares the JSON encoding of got with want, a JSON literal,
// as values (key order and spacing do not matter).
func requireJSON(t *testing.T, got any, want string) {
	t.Helper()
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	var g, w any
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad want literal: %v", err)
	}
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("JSON (-want +got):\n%s\ngot: %s", diff, b)
	}
}

func f64(v float64) *float64 { return &v }

// toolConversation has every kind of message.
var toolConversation = []Message{
	{Role: RoleUser, Content: "What is a fraction?"},
	{Role: RoleAssistant, Content: "Let me look.", ToolCalls: []ToolCall{{ID: "call_1", Name: "lookup", Arguments: json.RawMessage(`{"concept":"fraction"}`)}}},
	{Role: RoleTool, ToolCallID: "call_1", Content: "part of a whole"},
}

var lookupTool = Tool{Name: "lookup", Description: "Look a concept up.", Parameters: schemaOf[lookupArgs]()}

func TestToOpenAIRequest(t *testing.T) {
	chat := []Message{{Role: RoleUser, Content: "hi"}}
	for _, tc := range []struct {
		name   string
		model  string
		compat bool
		req    Request
		want   string
	}{
		{"chat", "gpt-4o", false,
			Request{System: "Be kind.", Messages: chat, Temperature: f64(0.2), MaxOutputTokens: 300},
			`{"model":"gpt-4o","messages":[{"role":"system","content":"Be kind."},{"role":"user","content":"hi"}],"temperature":0.2,"max_completion_tokens":300}`},
		{"effort is not sent to a model that does not reason", "gpt-4o", false,
			Request{Messages: chat, Effort: EffortHigh},
			`{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}]}`},
		{"reasoning model: effort, no temperature", "gpt-5.2", false,
			Request{Messages: chat, Effort: EffortLow, Temperature: f64(0.7)},
			`{"model":"gpt-5.2","messages":[{"role":"user","content":"hi"}],"reasoning_effort":"low"}`},
		{"gpt-5.1 on takes temperature at effort none", "gpt-5.2", false,
			Request{Messages: chat, Effort: EffortNone, Temperature: f64(0.7)},
			`{"model":"gpt-5.2","messages":[{"role":"user","content":"hi"}],"temperature":0.7,"reasoning_effort":"none"}`},
		{"gpt-5.1 on reason with effort none by default, so take temperature", "gpt-5.2", false,
			Request{Messages: chat, Temperature: f64(0.2)},
			`{"model":"gpt-5.2","messages":[{"role":"user","content":"hi"}],"temperature":0.2}`},
		{"gpt-5 reasons by default: no temperature", "gpt-5-mini", false,
			Request{Messages: chat, Temperature: f64(0.2)},
			`{"model":"gpt-5-mini","messages":[{"role":"user","content":"hi"}]}`},
		{"gpt-5 has minimal, not none, and no temperature", "gpt-5-mini", false,
			Request{Messages: chat, Effort: EffortNone, Temperature: f64(0.7)},
			`{"model":"gpt-5-mini","messages":[{"role":"user","content":"hi"}],"reasoning_effort":"minimal"}`},
		{"o-series lowest is low", "o4-mini", false,
			Request{Messages: chat, Effort: EffortNone},
			`{"model":"o4-mini","messages":[{"role":"user","content":"hi"}],"reasoning_effort":"low"}`},
		{"gpt-5 reasons minimally", "gpt-5-nano", false,
			Request{Messages: chat, Effort: EffortMinimal, Temperature: f64(0.7)},
			`{"model":"gpt-5-nano","messages":[{"role":"user","content":"hi"}],"reasoning_effort":"minimal"}`},
		{"gpt-5.1 on have no minimal: the least that reasons is low", "gpt-5.2", false,
			Request{Messages: chat, Effort: EffortMinimal, Temperature: f64(0.7)},
			`{"model":"gpt-5.2","messages":[{"role":"user","content":"hi"}],"reasoning_effort":"low"}`},
		{"o-series minimal is low", "o3", false,
			Request{Messages: chat, Effort: EffortMinimal},
			`{"model":"o3","messages":[{"role":"user","content":"hi"}],"reasoning_effort":"low"}`},
		{"compatible server: minimal is low (Ollama refuses minimal with a 400)", "gpt-oss:20b", true,
			Request{Messages: chat, Effort: EffortMinimal},
			`{"model":"gpt-oss:20b","messages":[{"role":"user","content":"hi"}],"reasoning_effort":"low"}`},
		{"compatible server dialect", "llama3.1", true,
			Request{Messages: chat, Effort: EffortLow, Temperature: f64(0), MaxOutputTokens: 64},
			`{"model":"llama3.1","messages":[{"role":"user","content":"hi"}],"reasoning_effort":"low","temperature":0,"max_tokens":64}`},
		{"tools, forced tool and a tool round trip", "gpt-4o", false,
			Request{Messages: toolConversation, Tools: []Tool{lookupTool}, ToolChoice: ToolChoice{Mode: ToolChoiceTool, Name: "lookup"}},
			`{"model":"gpt-4o","messages":[
				{"role":"user","content":"What is a fraction?"},
				{"role":"assistant","content":"Let me look.","tool_calls":[{"id":"call_1","type":"function","function":{"name":"lookup","arguments":"{\"concept\":\"fraction\"}"}}]},
				{"role":"tool","tool_call_id":"call_1","content":"part of a whole"}],
			 "tools":[{"type":"function","function":{"name":"lookup","description":"Look a concept up.","strict":true,
				"parameters":{"type":"object","properties":{"concept":{"type":"string"}},"required":["concept"],"additionalProperties":false}}}],
			 "tool_choice":{"type":"function","function":{"name":"lookup"}}}`},
		{"tool without parameters, choice required, failed tool", "gpt-4o", false,
			Request{Messages: []Message{
				{Role: RoleUser, Content: "go"},
				{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c", Name: "ping"}}},
				{Role: RoleTool, ToolCallID: "c", Content: "timeout", IsError: true},
			}, Tools: []Tool{{Name: "ping"}}, ToolChoice: ToolChoice{Mode: ToolChoiceRequired}},
			`{"model":"gpt-4o","messages":[
				{"role":"user","content":"go"},
				{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"ping","arguments":"{}"}}]},
				{"role":"tool","tool_call_id":"c","content":"Error: timeout"}],
			 "tools":[{"type":"function","function":{"name":"ping","strict":true,
				"parameters":{"type":"object","properties":{},"additionalProperties":false}}}],
			 "tool_choice":"required"}`},
		{"structured output", "gpt-4o-mini", false,
			Request{Messages: chat, Output: schemaOf[lookupArgs]()},
			`{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}],
			 "response_format":{"type":"json_schema","json_schema":{"name":"lookup_args","strict":true,
				"schema":{"type":"object","properties":{"concept":{"type":"string"}},"required":["concept"],"additionalProperties":false}}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := toOpenAIRequest(tc.model, &tc.req, tc.compat)
			if err != nil {
				t.Fatal(err)
			}
			requireJSON(t, p, tc.want)
		})
	}
}

func TestFromOpenAIResponse(t *testing.T) {
	const usage = `"usage":{"prompt_tokens":120,"completion_tokens":30,"total_tokens":150,"prompt_tokens_details":{"cached_tokens":100}}`
	wantUsage := Usage{InputTokens: 120, OutputTokens: 30, CachedInputTokens: 100}
	for _, tc := range []struct {
		name     string
		body     string
		want     *Response
		wantKind ErrorKind
	}{
		{"text", `{"model":"gpt-4o-2024-08-06","choices":[{"index":0,"message":{"role":"assistant","content":"Hello"},"finish_reason":"stop"}],` + usage + `}`,
			&Response{Text: "Hello", StopReason: StopEnd, Model: "gpt-4o-2024-08-06", Usage: wantUsage}, ""},
		{"cut off", `{"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"Hel"},"finish_reason":"length"}],` + usage + `}`,
			&Response{Text: "Hel", StopReason: StopMaxTokens, Model: "m", Usage: wantUsage}, ""},
		{"tool calls", `{"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[
			{"id":"call_a","type":"function","function":{"name":"lookup","arguments":"{\"concept\":\"x\"}"}},
			{"id":"call_b","type":"function","function":{"name":"ping","arguments":""}}]},"finish_reason":"tool_calls"}],` + usage + `}`,
			&Response{StopReason: StopToolUse, Model: "m", Usage: wantUsage, ToolCalls: []ToolCall{
				{ID: "call_a", Name: "lookup", Arguments: json.RawMessage(`{"concept":"x"}`)},
				{ID: "call_b", Name: "ping", Arguments: json.RawMessage(`{}`)},
			}}, ""},
		{"refusal", `{"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":"I can't."},"finish_reason":"stop"}],` + usage + `}`,
			&Response{Model: "m", Usage: wantUsage}, KindRefused},
		{"content filter", `{"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":""},"finish_reason":"content_filter"}],` + usage + `}`,
			&Response{Model: "m", Usage: wantUsage}, KindRefused},
		{"no choices", `{"model":"m","choices":[],` + usage + `}`, &Response{Model: "m", Usage: wantUsage}, KindInvalidOutput},
		{"arguments that are not JSON", `{"model":"m","choices":[{"index":0,"message":{"role":"assistant","tool_calls":[
			{"id":"c","type":"function","function":{"name":"f","arguments":"{\"a\":"}}]},"finish_reason":"tool_calls"}],` + usage + `}`,
			nil, KindInvalidOutput},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c openai.ChatCompletion
			if err := json.Unmarshal([]byte(tc.body), &c); err != nil {
				t.Fatal(err)
			}
			got, err := fromOpenAIResponse(&c)
			if KindOf(err) != tc.wantKind {
				t.Fatalf("error = %v, want kind %q", err, tc.wantKind)
			}
			if tc.want != nil {
				if diff := cmp.Diff(tc.want, got); diff != "" {
					t.Errorf("(-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestOpenAIError(t *testing.T) {
	apiErr := func(status int, code, msg string, header http.Header) error {
		return &openai.Error{StatusCode: status, Code: code, Message: msg, Response: &http.Response{StatusCode: status, Header: header}}
	}
	for _, tc := range []struct {
		name       string
		err        error
		want       ErrorKind
		retryAfter time.Duration
	}{
		{"rate limited", apiErr(429, "rate_limit_exceeded", "slow", http.Header{"Retry-After": {"2"}}), KindRateLimited, 2 * time.Second},
		{"rate limited in ms", apiErr(429, "", "slow", http.Header{"Retry-After-Ms": {"300"}}), KindRateLimited, 300 * time.Millisecond},
		{"rate limited on tokens per minute", apiErr(429, "rate_limit_exceeded",
			"Rate limit reached for gpt-4o in organization org-abc on tokens per min (TPM): Limit 30000, Used 29990, Requested 120. Please try again in 20ms.",
			http.Header{"Retry-After-Ms": {"20"}}), KindRateLimited, 20 * time.Millisecond},
		{"request over the whole per-minute limit", apiErr(429, "rate_limit_exceeded",
			"Request too large for gpt-4o in organization org-abc on tokens per min (TPM): Limit 30000, Requested 41563. The input or output tokens must be reduced in order to run successfully.",
			http.Header{"Retry-After": {"1"}}), KindContextTooLong, 0},
		{"server error", apiErr(500, "", "boom", nil), KindUnavailable, 0},
		{"overloaded", apiErr(503, "", "busy", nil), KindUnavailable, 0},
		{"context length", apiErr(400, "context_length_exceeded", "too long", nil), KindContextTooLong, 0},
		{"context length from a compatible server", apiErr(400, "", "This model's maximum context length is 8192 tokens", nil), KindContextTooLong, 0},
		{"llama.cpp context size", apiErr(400, "400", "request (9120 tokens) exceeds the available context size (8192 tokens), try increasing it", nil), KindContextTooLong, 0},
		{"older llama.cpp context size", apiErr(400, "400", "the request exceeds the available context size, try increasing it", nil), KindContextTooLong, 0},
		{"context size exceeded", apiErr(400, "", "context size exceeded", nil), KindContextTooLong, 0},
		{"policy", apiErr(400, "content_policy_violation", "no", nil), KindRefused, 0},
		{"bad request", apiErr(400, "invalid_value", "bad", nil), KindInvalidRequest, 0},
		{"unknown model", apiErr(404, "model_not_found", "no such model", nil), KindInvalidRequest, 0},
		{"bad key", apiErr(401, "invalid_api_key", "bad key", nil), KindAuth, 0},
		{"deadline", context.DeadlineExceeded, KindTimeout, 0},
		{"canceled", context.Canceled, KindCanceled, 0},
		{"connection refused", &url.Error{Op: "Post", URL: "http://x", Err: errors.New("connection refused")}, KindUnavailable, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := openaiError(tc.err)
			if e.Kind != tc.want || e.RetryAfter != tc.retryAfter {
				t.Errorf("openaiError = %s (retry after %s), want %s (%s)", e.Kind, e.RetryAfter, tc.want, tc.retryAfter)
			}
			if !errors.Is(e, tc.err) {
				t.Error("the SDK error is not wrapped")
			}
		})
	}
}

func TestOpenAIReasoningModel(t *testing.T) {
	for model, want := range map[string]bool{
		"gpt-5": true, "gpt-5.2": true, "gpt-5-mini": true, "gpt-5-chat-latest": false,
		"o1": true, "o3-mini": true, "o4-mini": true, "gpt-4o": false, "gpt-4.1": false, "omni": false, "": false,
	} {
		if got := openaiReasoningModel(model); got != want {
			t.Errorf("openaiReasoningModel(%q) = %v, want %v", model, got, want)
		}
	}
}
