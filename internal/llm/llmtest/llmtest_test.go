package llmtest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tutord/tutord/internal/llm/llmtest"
)

// post sends body to srv's URL plus path and returns the status and the
// decoded reply.
func post(t *testing.T, url, body string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Post(url, "application/json", bytes.NewBufferString(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("reply is not a JSON object: %v\n%s", err, b)
	}
	return resp.StatusCode, v
}

// TestModelNotFound checks each fake's answer to a model it does not serve
// against the provider's documented error: OpenAI 404 model_not_found,
// Anthropic 404 not_found_error, Gemini 404 NOT_FOUND. The request uses no
// scripted reply.
func TestModelNotFound(t *testing.T) {
	for _, tc := range []struct {
		name string
		new  func(testing.TB, ...llmtest.Reply) *llmtest.Server
		path string
		body string
		want map[string]any
	}{
		{"openai", llmtest.NewOpenAI, "/chat/completions", `{"model": "gpt-9", "messages": []}`, map[string]any{"error": map[string]any{
			"message": "The model `gpt-9` does not exist or you do not have access to it.",
			"type":    "invalid_request_error", "param": nil, "code": "model_not_found",
		}}},
		{"anthropic", llmtest.NewAnthropic, "/v1/messages", `{"model": "claude-x", "max_tokens": 10, "messages": []}`, map[string]any{
			"type": "error", "error": map[string]any{"type": "not_found_error", "message": "model: claude-x"},
		}},
		{"gemini", llmtest.NewGemini, "/v1beta/models/gemini-9:generateContent", `{"contents": []}`, map[string]any{"error": map[string]any{
			"code": 404.0, "status": "NOT_FOUND",
			"message": "models/gemini-9 is not found for API version v1beta, or is not supported for generateContent. " +
				"Call ListModels to see the list of available models and their supported methods.",
		}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := tc.new(t, llmtest.Reply{Text: "unused"})
			status, got := post(t, srv.URL+tc.path, tc.body)
			if status != http.StatusNotFound {
				t.Errorf("status = %d, want 404", status)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
			if srv.Pending() != 1 || len(srv.Requests()) != 1 {
				t.Errorf("%d replies pending, %d requests recorded; want 1 and 1", srv.Pending(), len(srv.Requests()))
			}
		})
	}
}

func TestSetModels(t *testing.T) {
	srv := llmtest.NewOpenAI(t, llmtest.Reply{Text: "hi"})
	if status, _ := post(t, srv.URL+"/chat/completions", `{"model": "llama3.1", "messages": []}`); status != http.StatusNotFound {
		t.Errorf("an unlisted model: status %d, want 404", status)
	}
	srv.SetModels("llama3.1")
	if status, _ := post(t, srv.URL+"/chat/completions", `{"model": "gpt-4o", "messages": []}`); status != http.StatusNotFound {
		t.Errorf("a model no longer served: status %d, want 404", status)
	}
	if status, _ := post(t, srv.URL+"/chat/completions", `{"model": "llama3.1", "messages": []}`); status != http.StatusOK {
		t.Errorf("a served model: status %d, want 200", status)
	}
}

// TestGeminiRefusesNullEnumMembers: Gemini's JSON Schema subset takes enum
// members that are strings or numbers; it answers a null or empty one with
// 400 INVALID_ARGUMENT "enum[n]: cannot be empty".
func TestGeminiRefusesNullEnumMembers(t *testing.T) {
	const nullable = `{"type": ["null", "string"], "enum": ["strong", null]}`
	const anyOf = `{"anyOf": [{"type": "string", "enum": ["strong", ""]}, {"type": "null"}]}`
	for _, tc := range []struct {
		name, body, want string
	}{
		{"response schema", `{"generationConfig": {"responseMimeType": "application/json", "responseJsonSchema":
			{"type": "object", "properties": {"signal": ` + nullable + `}}}}`,
			"* GenerateContentRequest.generation_config.response_json_schema.properties[signal].enum[1]: cannot be empty\n"},
		{"tool parameters", `{"tools": [{"functionDeclarations": [{"name": "f", "parametersJsonSchema":
			{"type": "object", "properties": {"list": {"type": "array", "items": ` + anyOf + `}}}}]}]}`,
			"* GenerateContentRequest.tools[0].function_declarations[0].parameters_json_schema.properties[list].items.anyOf[0].enum[1]: cannot be empty\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewGemini(t)
			status, got := post(t, srv.URL+"/v1beta/models/gemini-2.5-flash:generateContent", tc.body)
			want := map[string]any{"error": map[string]any{"code": 400.0, "status": "INVALID_ARGUMENT", "message": tc.want}}
			if status != http.StatusBadRequest {
				t.Errorf("status = %d, want 400", status)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("nullable enum as anyOf", func(t *testing.T) {
		srv := llmtest.NewGemini(t, llmtest.Reply{Text: `{"signal": null}`})
		body := `{"generationConfig": {"responseJsonSchema": {"type": "object", "properties": {"signal":
			{"anyOf": [{"type": "string", "enum": ["strong", "weak"]}, {"type": "null"}]}}}}}`
		if status, got := post(t, srv.URL+"/v1beta/models/gemini-2.5-flash:generateContent", body); status != http.StatusOK {
			t.Errorf("status = %d, want 200: %v", status, got)
		}
	})
}

// TestAnthropicRefusesThinkingBudgetsOutsideMaxTokens: Anthropic's
// max_tokens counts thinking, so the API answers 400 invalid_request_error
// to a thinking budget that is not below max_tokens, or under its minimum
// of 1024; the fake must too, so that an adapter that sends one fails its
// tests as it would fail in production.
func TestAnthropicRefusesThinkingBudgetsOutsideMaxTokens(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		status     int
	}{
		{"budget below max_tokens", `{"model": "claude-haiku-4-5", "max_tokens": 2000, "thinking": {"type": "enabled", "budget_tokens": 1999}, "messages": []}`, http.StatusOK},
		{"budget equal to max_tokens", `{"model": "claude-haiku-4-5", "max_tokens": 2000, "thinking": {"type": "enabled", "budget_tokens": 2000}, "messages": []}`, http.StatusBadRequest},
		{"budget under the minimum", `{"model": "claude-haiku-4-5", "max_tokens": 2000, "thinking": {"type": "enabled", "budget_tokens": 512}, "messages": []}`, http.StatusBadRequest},
		{"no thinking", `{"model": "claude-haiku-4-5", "max_tokens": 100, "messages": []}`, http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewAnthropic(t, llmtest.Reply{Text: "hi"})
			status, got := post(t, srv.URL+"/v1/messages", tc.body)
			if status != tc.status {
				t.Fatalf("status = %d, want %d: %v", status, tc.status, got)
			}
			if e, _ := got["error"].(map[string]any); tc.status == http.StatusBadRequest && e["type"] != "invalid_request_error" {
				t.Errorf("error = %v, want invalid_request_error", got)
			}
		})
	}
}
