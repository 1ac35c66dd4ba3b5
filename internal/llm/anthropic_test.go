package llm

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/google/go-cmp/cmp"
)

func TestToAnthropicRequest(t *testing.T) {
	chat := []Message{{Role: RoleUser, Content: "hi"}}
	lookupSchema := `{"type":"object","properties":{"concept":{"type":"string"}},"required":["concept"],"additionalProperties":false}`
	for _, tc := range []struct {
		name           string
		req            Request
		want           string
		wantOutputTool string
	}{
		{"chat with the default limit; temperature is not sent",
			Request{System: "Be kind.", Messages: chat, Temperature: f64(0.3)},
			`{"model":"claude-haiku-4-5","max_tokens":4096,"system":[{"type":"text","text":"Be kind.","cache_control":{"type":"ephemeral"}}],
			  "messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}`, ""},
		{"effort none disables thinking",
			Request{Messages: chat, Effort: EffortNone, MaxOutputTokens: 100},
			`{"model":"claude-haiku-4-5","max_tokens":100,"thinking":{"type":"disabled"},
			  "messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}`, ""},
		{"effort minimal is the smallest thinking budget the API takes",
			Request{Messages: chat, Effort: EffortMinimal, MaxOutputTokens: 2000},
			`{"model":"claude-haiku-4-5","max_tokens":2000,"thinking":{"type":"enabled","budget_tokens":1024},
			  "messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}`, ""},
		{"effort medium's thinking budget fits within the limit, which counts thinking",
			Request{Messages: chat, Effort: EffortMedium, MaxOutputTokens: 3000},
			`{"model":"claude-haiku-4-5","max_tokens":3000,"thinking":{"type":"enabled","budget_tokens":2999},
			  "messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}`, ""},
		{"structured output is a forced strict tool",
			Request{Messages: chat, Output: schemaOf[lookupArgs]()},
			`{"model":"claude-haiku-4-5","max_tokens":4096,
			  "messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}],
			  "tools":[{"name":"lookup_args","description":"Give your answer by calling this tool: its input is your whole reply.","strict":true,"input_schema":` + lookupSchema + `}],
			  "tool_choice":{"type":"tool","name":"lookup_args"}}`, "lookup_args"},
		{"structured output with thinking uses the output format",
			Request{Messages: chat, Output: schemaOf[lookupArgs](), Effort: EffortLow},
			`{"model":"claude-haiku-4-5","max_tokens":5120,"thinking":{"type":"enabled","budget_tokens":1024},
			  "messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}],
			  "output_config":{"format":{"type":"json_schema","schema":` + lookupSchema + `}}}`, ""},
		{"structured output beside the caller's tools uses the output format",
			Request{Messages: chat, Output: schemaOf[tutorTurn](), Tools: []Tool{lookupTool}},
			`{"model":"claude-haiku-4-5","max_tokens":4096,
			  "messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}],
			  "tools":[{"name":"lookup","description":"Look a concept up.","strict":true,"input_schema":` + lookupSchema + `}],
			  "output_config":{"format":{"type":"json_schema","schema":` + string(schemaOf[tutorTurn]().anthropic) + `}}}`, ""},
		{"tool round trip; consecutive results share one user turn",
			Request{Messages: append(append([]Message(nil), toolConversation...),
				Message{Role: RoleTool, ToolCallID: "call_1", Content: "oops", IsError: true},
				Message{Role: RoleUser, Content: "thanks"}),
				Tools: []Tool{lookupTool}, ToolChoice: ToolChoice{Mode: ToolChoiceRequired}},
			`{"model":"claude-haiku-4-5","max_tokens":4096,
			  "messages":[
				{"role":"user","content":[{"type":"text","text":"What is a fraction?"}]},
				{"role":"assistant","content":[{"type":"text","text":"Let me look."},{"type":"tool_use","id":"call_1","name":"lookup","input":{"concept":"fraction"}}]},
				{"role":"user","content":[
					{"type":"tool_result","tool_use_id":"call_1","is_error":false,"content":[{"type":"text","text":"part of a whole"}]},
					{"type":"tool_result","tool_use_id":"call_1","is_error":true,"content":[{"type":"text","text":"oops"}]},
					{"type":"text","text":"thanks"}]}],
			  "tools":[{"name":"lookup","description":"Look a concept up.","strict":true,"input_schema":` + lookupSchema + `}],
			  "tool_choice":{"type":"any"}}`, ""},
		{"a tool with no output sends no content: the API refuses an empty text block",
			Request{Messages: append(append([]Message(nil), toolConversation...)[:2],
				Message{Role: RoleTool, ToolCallID: "call_1", Content: " "}), Tools: []Tool{lookupTool}},
			`{"model":"claude-haiku-4-5","max_tokens":4096,
			  "messages":[
				{"role":"user","content":[{"type":"text","text":"What is a fraction?"}]},
				{"role":"assistant","content":[{"type":"text","text":"Let me look."},{"type":"tool_use","id":"call_1","name":"lookup","input":{"concept":"fraction"}}]},
				{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_1","is_error":false}]}],
			  "tools":[{"name":"lookup","description":"Look a concept up.","strict":true,"input_schema":` + lookupSchema + `}]}`, ""},
		{"a forced tool goes without thinking, which the API refuses beside it",
			Request{Messages: chat, Tools: []Tool{lookupTool}, ToolChoice: ToolChoice{Mode: ToolChoiceTool, Name: "lookup"}, Effort: EffortLow},
			`{"model":"claude-haiku-4-5","max_tokens":4096,
			  "messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}],
			  "tools":[{"name":"lookup","description":"Look a concept up.","strict":true,"input_schema":` + lookupSchema + `}],
			  "tool_choice":{"type":"tool","name":"lookup"}}`, ""},
		{"the thinking before a tool call goes back first in its turn",
			Request{Messages: []Message{
				{Role: RoleUser, Content: "What is a fraction?"},
				{Role: RoleAssistant, Content: "Let me look.", ToolCalls: []ToolCall{{ID: "toolu_1", Name: "lookup", Arguments: json.RawMessage(`{"concept":"fraction"}`),
					Signature: []byte(`[{"type":"thinking","thinking":"Look it up.","signature":"sig1"},{"type":"redacted_thinking","data":"enc"}]`)}}},
				{Role: RoleTool, ToolCallID: "toolu_1", Content: "part of a whole"},
			}, Tools: []Tool{lookupTool}, Effort: EffortLow},
			`{"model":"claude-haiku-4-5","max_tokens":5120,"thinking":{"type":"enabled","budget_tokens":1024},
			  "messages":[
				{"role":"user","content":[{"type":"text","text":"What is a fraction?"}]},
				{"role":"assistant","content":[{"type":"thinking","thinking":"Look it up.","signature":"sig1"},{"type":"redacted_thinking","data":"enc"},
					{"type":"text","text":"Let me look."},{"type":"tool_use","id":"toolu_1","name":"lookup","input":{"concept":"fraction"}}]},
				{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","is_error":false,"content":[{"type":"text","text":"part of a whole"}]}]}],
			  "tools":[{"name":"lookup","description":"Look a concept up.","strict":true,"input_schema":` + lookupSchema + `}]}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, tool, err := toAnthropicRequest("claude-haiku-4-5", &tc.req)
			if err != nil {
				t.Fatal(err)
			}
			if tool != tc.wantOutputTool {
				t.Errorf("output tool = %q, want %q", tool, tc.wantOutputTool)
			}
			requireJSON(t, p, tc.want)
		})
	}
}

func TestFromAnthropicResponse(t *testing.T) {
	const usage = `"usage":{"input_tokens":20,"output_tokens":30,"cache_read_input_tokens":100,"cache_creation_input_tokens":5}`
	// input_tokens excludes the cache reads and writes; ours counts them all.
	wantUsage := Usage{InputTokens: 125, OutputTokens: 30, CachedInputTokens: 100, CacheWriteInputTokens: 5}
	for _, tc := range []struct {
		name       string
		body       string
		outputTool string
		want       *Response
		wantKind   ErrorKind
	}{
		{"text", `{"model":"claude-haiku-4-5-20251001","content":[{"type":"thinking","thinking":"hm","signature":"s"},{"type":"text","text":"Hel"},{"type":"text","text":"lo"}],"stop_reason":"end_turn",` + usage + `}`, "",
			&Response{Text: "Hello", StopReason: StopEnd, Model: "claude-haiku-4-5-20251001", Usage: wantUsage}, ""},
		{"structured via the output tool", `{"model":"m","content":[{"type":"tool_use","id":"toolu_1","name":"lookup_args","input":{"concept":"x"}}],"stop_reason":"tool_use",` + usage + `}`, "lookup_args",
			&Response{Text: `{"concept":"x"}`, StopReason: StopEnd, Model: "m", Usage: wantUsage}, ""},
		{"prose instead of the output tool", `{"model":"m","content":[{"type":"text","text":"Sure!"}],"stop_reason":"end_turn",` + usage + `}`, "lookup_args",
			&Response{Text: "Sure!", StopReason: StopEnd, Model: "m", Usage: wantUsage}, ""},
		{"tool calls", `{"model":"m","content":[{"type":"text","text":"Checking."},{"type":"tool_use","id":"toolu_2","name":"lookup","input":{"concept":"y"}}],"stop_reason":"tool_use",` + usage + `}`, "",
			&Response{Text: "Checking.", StopReason: StopToolUse, Model: "m", Usage: wantUsage, ToolCalls: []ToolCall{
				{ID: "toolu_2", Name: "lookup", Arguments: json.RawMessage(`{"concept":"y"}`)},
			}}, ""},
		{"tool calls after thinking keep it, to be sent back", `{"model":"m","content":[{"type":"thinking","thinking":"Look it up.","signature":"sig1"},{"type":"redacted_thinking","data":"enc"},
			{"type":"tool_use","id":"toolu_3","name":"lookup","input":{"concept":"y"}},{"type":"tool_use","id":"toolu_4","name":"lookup","input":{"concept":"z"}}],"stop_reason":"tool_use",` + usage + `}`, "",
			&Response{StopReason: StopToolUse, Model: "m", Usage: wantUsage, ToolCalls: []ToolCall{
				{ID: "toolu_3", Name: "lookup", Arguments: json.RawMessage(`{"concept":"y"}`),
					Signature: []byte(`[{"type":"thinking","thinking":"Look it up.","signature":"sig1"},{"type":"redacted_thinking","data":"enc"}]`)},
				{ID: "toolu_4", Name: "lookup", Arguments: json.RawMessage(`{"concept":"z"}`)},
			}}, ""},
		{"cut off", `{"model":"m","content":[{"type":"text","text":"Hel"}],"stop_reason":"max_tokens",` + usage + `}`, "",
			&Response{Text: "Hel", StopReason: StopMaxTokens, Model: "m", Usage: wantUsage}, ""},
		{"refusal", `{"model":"m","content":[],"stop_reason":"refusal","stop_details":{"type":"refusal","category":"cyber","explanation":"no"},` + usage + `}`, "",
			&Response{Model: "m", Usage: wantUsage}, KindRefused},
		{"context window", `{"model":"m","content":[],"stop_reason":"model_context_window_exceeded",` + usage + `}`, "",
			&Response{Model: "m", Usage: wantUsage}, KindContextTooLong},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var msg anthropic.Message
			if err := json.Unmarshal([]byte(tc.body), &msg); err != nil {
				t.Fatal(err)
			}
			got, err := fromAnthropicResponse(&msg, tc.outputTool)
			if KindOf(err) != tc.wantKind {
				t.Fatalf("error = %v, want kind %q", err, tc.wantKind)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestAnthropicError(t *testing.T) {
	apiErr := func(status int, body string, header http.Header) error {
		e := &anthropic.Error{StatusCode: status, Response: &http.Response{StatusCode: status, Header: header}}
		if err := e.UnmarshalJSON([]byte(body)); err != nil {
			t.Fatal(err)
		}
		return e
	}
	for _, tc := range []struct {
		name       string
		err        error
		want       ErrorKind
		retryAfter time.Duration
	}{
		{"rate limited", apiErr(429, `{"type":"error","error":{"type":"rate_limit_error","message":"slow"}}`, http.Header{"Retry-After": {"3"}}), KindRateLimited, 3 * time.Second},
		{"overloaded", apiErr(529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, nil), KindUnavailable, 0},
		{"api error", apiErr(500, `{"type":"error","error":{"type":"api_error","message":"boom"}}`, nil), KindUnavailable, 0},
		{"prompt too long", apiErr(400, `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 215000 tokens > 200000 maximum"}}`, nil), KindContextTooLong, 0},
		{"bad request", apiErr(400, `{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: must be positive"}}`, nil), KindInvalidRequest, 0},
		{"auth", apiErr(401, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`, nil), KindAuth, 0},
		{"no credit left", apiErr(402, `{"type":"error","error":{"type":"billing_error","message":"Your credit balance is too low"}}`, nil), KindAuth, 0},
		{"permission", apiErr(403, `{"type":"error","error":{"type":"permission_error","message":"no"}}`, nil), KindAuth, 0},
		{"deadline", context.DeadlineExceeded, KindTimeout, 0},
		{"network", errors.New("read: connection reset by peer"), KindUnavailable, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := anthropicError(tc.err)
			if e.Kind != tc.want || e.RetryAfter != tc.retryAfter {
				t.Errorf("anthropicError = %s (retry after %s), want %s (%s)", e.Kind, e.RetryAfter, tc.want, tc.retryAfter)
			}
		})
	}
}
