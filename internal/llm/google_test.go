package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/genai"
)

func TestToGoogleRequest(t *testing.T) {
	chat := []Message{{Role: RoleUser, Content: "hi"}}
	const userHi = `[{"role":"user","parts":[{"text":"hi"}]}]`
	lookupSchema := `{"type":"object","properties":{"concept":{"type":"string"}},"required":["concept"],"additionalProperties":false}`
	for _, tc := range []struct {
		name         string
		model        string
		req          Request
		wantContents string
		wantConfig   string
	}{
		{"chat", "gemini-2.0-flash",
			Request{System: "Be kind.", Messages: chat, Temperature: f64(0.5), MaxOutputTokens: 256, Effort: EffortHigh},
			userHi,
			`{"automaticContinuation":false,"systemInstruction":{"parts":[{"text":"Be kind."}]},"temperature":0.5,"maxOutputTokens":256}`},
		{"2.5 flash: effort none turns thinking off", "gemini-2.5-flash",
			Request{Messages: chat, Effort: EffortNone}, userHi,
			`{"automaticContinuation":false,"thinkingConfig":{"thinkingBudget":0}}`},
		{"2.5 pro cannot stop thinking", "gemini-2.5-pro",
			Request{Messages: chat, Effort: EffortNone}, userHi,
			`{"automaticContinuation":false,"thinkingConfig":{"thinkingBudget":128}}`},
		{"2.5 budget for medium", "gemini-2.5-flash-lite",
			Request{Messages: chat, Effort: EffortMedium}, userHi,
			`{"automaticContinuation":false,"thinkingConfig":{"thinkingBudget":8192}}`},
		{"gemini 3 takes levels", "gemini-3-pro-preview",
			Request{Messages: chat, Effort: EffortHigh}, userHi,
			`{"automaticContinuation":false,"thinkingConfig":{"thinkingLevel":"HIGH"}}`},
		{"gemini 3 flash can think minimally", "gemini-3-flash-preview",
			Request{Messages: chat, Effort: EffortNone}, userHi,
			`{"automaticContinuation":false,"thinkingConfig":{"thinkingLevel":"MINIMAL"}}`},
		{"gemini 3 flash: effort minimal is its minimal level", "gemini-3-flash-preview",
			Request{Messages: chat, Effort: EffortMinimal}, userHi,
			`{"automaticContinuation":false,"thinkingConfig":{"thinkingLevel":"MINIMAL"}}`},
		{"gemini 3 pro has no minimal level: low", "gemini-3-pro-preview",
			Request{Messages: chat, Effort: EffortMinimal}, userHi,
			`{"automaticContinuation":false,"thinkingConfig":{"thinkingLevel":"LOW"}}`},
		{"2.5: effort minimal is a budget every 2.5 model takes", "gemini-2.5-flash-lite",
			Request{Messages: chat, Effort: EffortMinimal}, userHi,
			`{"automaticContinuation":false,"thinkingConfig":{"thinkingBudget":512}}`},
		{"structured output", "gemini-2.5-flash",
			Request{Messages: chat, Output: schemaOf[lookupArgs]()}, userHi,
			`{"automaticContinuation":false,"responseMimeType":"application/json","responseJsonSchema":` + lookupSchema + `}`},
		{"tools and a tool round trip", "gemini-2.5-flash",
			Request{Messages: append(append([]Message(nil), toolConversation...),
				Message{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: googleCallIDPrefix + "0", Name: "lookup", Arguments: json.RawMessage(`{}`), Signature: []byte("sig")}}},
				Message{Role: RoleTool, ToolCallID: googleCallIDPrefix + "0", Content: "down", IsError: true}),
				Tools: []Tool{lookupTool}, ToolChoice: ToolChoice{Mode: ToolChoiceTool, Name: "lookup"}},
			`[{"role":"user","parts":[{"text":"What is a fraction?"}]},
			  {"role":"model","parts":[{"text":"Let me look."},{"functionCall":{"id":"call_1","name":"lookup","args":{"concept":"fraction"}}}]},
			  {"role":"user","parts":[{"functionResponse":{"id":"call_1","name":"lookup","response":{"output":"part of a whole"}}}]},
			  {"role":"model","parts":[{"functionCall":{"name":"lookup"},"thoughtSignature":"c2ln"}]},
			  {"role":"user","parts":[{"functionResponse":{"name":"lookup","response":{"error":"down"}}}]}]`,
			`{"automaticContinuation":false,
			  "tools":[{"functionDeclarations":[{"name":"lookup","description":"Look a concept up.","parametersJsonSchema":` + lookupSchema + `}]}],
			  "toolConfig":{"functionCallingConfig":{"mode":"ANY","allowedFunctionNames":["lookup"]}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			contents, cfg, err := toGoogleRequest(tc.model, &tc.req)
			if err != nil {
				t.Fatal(err)
			}
			requireJSON(t, contents, tc.wantContents)
			requireJSON(t, cfg, tc.wantConfig)
		})
	}
}

func TestToGoogleRequestRejectsBadToolCalls(t *testing.T) {
	for _, msgs := range [][]Message{
		{{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c", Name: "f", Arguments: json.RawMessage(`[1]`)}}}},
		{{Role: RoleUser, Content: "x"}, {Role: RoleTool, ToolCallID: "nobody", Content: "y"}},
	} {
		if _, _, err := toGoogleRequest("gemini-2.5-flash", &Request{Messages: msgs}); KindOf(err) != KindInvalidRequest {
			t.Errorf("toGoogleRequest(%+v) = %v, want invalid request", msgs, err)
		}
	}
}

// Structured output beside function calling came with Gemini 3: the API
// refuses it from earlier models, and so does tutord, before sending.
func TestToGoogleRequestStructuredOutputWithTools(t *testing.T) {
	req := Request{Messages: []Message{{Role: RoleUser, Content: "x"}}, Output: schemaOf[lookupArgs](), Tools: []Tool{lookupTool}}
	if _, _, err := toGoogleRequest("gemini-2.5-flash", &req); KindOf(err) != KindInvalidRequest {
		t.Errorf("gemini-2.5-flash: %v, want invalid request", err)
	}
	_, cfg, err := toGoogleRequest("gemini-3-flash-preview", &req)
	if err != nil || cfg.ResponseMIMEType != "application/json" || len(cfg.Tools) != 1 {
		t.Errorf("gemini-3-flash-preview: %v, mime %q, %d tools", err, cfg.ResponseMIMEType, len(cfg.Tools))
	}
}

func TestFromGoogleResponse(t *testing.T) {
	const usage = `"usageMetadata":{"promptTokenCount":200,"candidatesTokenCount":40,"thoughtsTokenCount":10,"cachedContentTokenCount":150,"totalTokenCount":250}`
	wantUsage := Usage{InputTokens: 200, OutputTokens: 50, CachedInputTokens: 150}
	for _, tc := range []struct {
		name     string
		body     string
		want     *Response
		wantKind ErrorKind
	}{
		{"text, thoughts skipped", `{"modelVersion":"gemini-2.5-flash","candidates":[{"content":{"role":"model","parts":[{"text":"thinking...","thought":true},{"text":"Hel"},{"text":"lo"}]},"finishReason":"STOP"}],` + usage + `}`,
			&Response{Text: "Hello", StopReason: StopEnd, Model: "gemini-2.5-flash", Usage: wantUsage}, ""},
		{"function calls, with and without ids", `{"modelVersion":"m","candidates":[{"content":{"role":"model","parts":[
			{"functionCall":{"id":"fc_1","name":"lookup","args":{"concept":"x"}},"thoughtSignature":"c2ln"},
			{"functionCall":{"name":"ping"}}]},"finishReason":"STOP"}],` + usage + `}`,
			&Response{StopReason: StopToolUse, Model: "m", Usage: wantUsage, ToolCalls: []ToolCall{
				{ID: "fc_1", Name: "lookup", Arguments: json.RawMessage(`{"concept":"x"}`), Signature: []byte("sig")},
				{ID: googleCallIDPrefix + "1", Name: "ping", Arguments: json.RawMessage(`{}`)},
			}}, ""},
		{"cut off", `{"modelVersion":"m","candidates":[{"content":{"role":"model","parts":[{"text":"Hel"}]},"finishReason":"MAX_TOKENS"}],` + usage + `}`,
			&Response{Text: "Hel", StopReason: StopMaxTokens, Model: "m", Usage: wantUsage}, ""},
		{"cut off at the per-request limit, more to come", `{"modelVersion":"m","candidates":[{"content":{"role":"model","parts":[{"text":"Hel"}]},"finishReason":"CONTINUATION","continuationToken":"Y29udGludWU="}],` + usage + `}`,
			&Response{Text: "Hel", StopReason: StopMaxTokens, Model: "m", Usage: wantUsage}, ""},
		{"prompt blocked", `{"modelVersion":"m","promptFeedback":{"blockReason":"SAFETY"},` + usage + `}`,
			&Response{Model: "m", Usage: wantUsage}, KindRefused},
		{"reply stopped by safety", `{"modelVersion":"m","candidates":[{"content":{"role":"model","parts":[]},"finishReason":"SAFETY"}],` + usage + `}`,
			&Response{Model: "m", Usage: wantUsage}, KindRefused},
		{"malformed function call", `{"modelVersion":"m","candidates":[{"finishReason":"MALFORMED_FUNCTION_CALL"}],` + usage + `}`,
			&Response{Model: "m", Usage: wantUsage}, KindInvalidOutput},
		{"no candidates", `{"modelVersion":"m",` + usage + `}`, &Response{Model: "m", Usage: wantUsage}, KindInvalidOutput},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r genai.GenerateContentResponse
			if err := json.Unmarshal([]byte(tc.body), &r); err != nil {
				t.Fatal(err)
			}
			got, err := fromGoogleResponse(&r)
			if KindOf(err) != tc.wantKind {
				t.Fatalf("error = %v, want kind %q", err, tc.wantKind)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestMergeGoogleChunks(t *testing.T) {
	text := func(s string, thought bool) *genai.Part { return &genai.Part{Text: s, Thought: thought} }
	chunk := func(finish genai.FinishReason, parts ...*genai.Part) *genai.GenerateContentResponse {
		return &genai.GenerateContentResponse{ModelVersion: "m", Candidates: []*genai.Candidate{{Content: &genai.Content{Role: "model", Parts: parts}, FinishReason: finish}}}
	}
	call := &genai.Part{FunctionCall: &genai.FunctionCall{Name: "f"}}
	usage := &genai.GenerateContentResponseUsageMetadata{PromptTokenCount: 3}
	last := chunk(genai.FinishReasonStop, text("c", false))
	last.UsageMetadata = usage
	got := mergeGoogleChunks([]*genai.GenerateContentResponse{
		chunk("", text("plan", true)), chunk("", text("a", false)), chunk("", text("b", false), call), last,
	})
	want := &genai.GenerateContentResponse{
		ModelVersion:  "m",
		UsageMetadata: usage,
		Candidates: []*genai.Candidate{{FinishReason: genai.FinishReasonStop, Content: &genai.Content{Role: "model", Parts: []*genai.Part{
			text("plan", true), text("ab", false), call, text("c", false),
		}}}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestMergeGoogleChunksCutShort: a stream that ends with no chunk giving a
// finish reason (a proxy closed it) is not a finished reply.
func TestMergeGoogleChunksCutShort(t *testing.T) {
	got := mergeGoogleChunks([]*genai.GenerateContentResponse{
		{Candidates: []*genai.Candidate{{Content: &genai.Content{Role: "model", Parts: []*genai.Part{{Text: "To add 1/2 and 1/4, first "}}}}}},
	})
	resp, err := fromGoogleResponse(got)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StopReason != StopOther {
		t.Errorf("stop reason = %q, want %q", resp.StopReason, StopOther)
	}
}

func TestGoogleError(t *testing.T) {
	retryInfo := []map[string]any{{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "1.5s"}}
	for _, tc := range []struct {
		name       string
		err        error
		want       ErrorKind
		retryAfter time.Duration
	}{
		{"rate limited", genai.APIError{Code: 429, Status: "RESOURCE_EXHAUSTED", Details: retryInfo}, KindRateLimited, 1500 * time.Millisecond},
		{"wrapped pointer", fmt.Errorf("doRequest: %w", &genai.APIError{Code: 429, Details: retryInfo}), KindRateLimited, 1500 * time.Millisecond},
		{"overloaded", genai.APIError{Code: 503, Status: "UNAVAILABLE"}, KindUnavailable, 0},
		{"bad key", genai.APIError{Code: 400, Status: "INVALID_ARGUMENT", Message: "API key not valid. Please pass a valid API key."}, KindAuth, 0},
		{"too long", genai.APIError{Code: 400, Status: "INVALID_ARGUMENT", Message: "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576)."}, KindContextTooLong, 0},
		{"bad request", genai.APIError{Code: 400, Status: "INVALID_ARGUMENT", Message: "Invalid JSON payload"}, KindInvalidRequest, 0},
		{"permission", genai.APIError{Code: 403, Status: "PERMISSION_DENIED"}, KindAuth, 0},
		{"deadline", fmt.Errorf("doRequest: %w", context.DeadlineExceeded), KindTimeout, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := googleError(tc.err)
			if e.Kind != tc.want || e.RetryAfter != tc.retryAfter {
				t.Errorf("googleError = %s (retry after %s), want %s (%s)", e.Kind, e.RetryAfter, tc.want, tc.retryAfter)
			}
		})
	}
}
