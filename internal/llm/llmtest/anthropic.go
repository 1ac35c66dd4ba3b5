package llmtest

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"testing"
	"time"
)

// NewAnthropic starts a fake Anthropic Messages API server. It serves
// AnthropicModels until SetModels says otherwise.
func NewAnthropic(t testing.TB, replies ...Reply) *Server {
	return newServer(t, anthropicDialect{}, "", AnthropicModels(), replies)
}

type anthropicDialect struct{}

func (anthropicDialect) isStream(_ *http.Request, body []byte) bool {
	var v struct{ Stream bool }
	json.Unmarshal(body, &v)
	return v.Stream
}

func (anthropicDialect) malformed() string {
	return `{"id": "msg_broken", "type": "message", "content": [`
}

func (anthropicDialect) writeError(w http.ResponseWriter, _ Request, f Failure, retryAfter time.Duration) {
	status, typ, msg := http.StatusInternalServerError, "api_error", "Internal server error"
	switch f {
	case RateLimited:
		status, typ, msg = http.StatusTooManyRequests, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit."
		setRetryAfter(w.Header(), retryAfter, false)
	case Overloaded:
		status, typ, msg = 529, "overloaded_error", "Overloaded"
	case ContextTooLong:
		status, typ, msg = http.StatusBadRequest, "invalid_request_error", "prompt is too long: 215000 tokens > 200000 maximum"
	case Unauthorized:
		status, typ, msg = http.StatusUnauthorized, "authentication_error", "invalid x-api-key"
	}
	w.Header().Set("Request-Id", "req_fake")
	writeJSON(w, status, map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}})
}

// anthropicRequest is what the fake reads from a request.
type anthropicRequest struct {
	Model      string
	MaxTokens  int `json:"max_tokens"`
	ToolChoice struct {
		Type string
		Name string
	} `json:"tool_choice"`
	Thinking struct {
		Type         string
		BudgetTokens int `json:"budget_tokens"`
	}
}

func parseAnthropic(req Request) anthropicRequest {
	var v anthropicRequest
	json.Unmarshal(req.Body, &v)
	return v
}

func (anthropicDialect) model(req Request) string { return parseAnthropic(req).Model }

// writeModelNotFound answers as Anthropic does a model id it does not know.
func (anthropicDialect) writeModelNotFound(w http.ResponseWriter, req Request) {
	w.Header().Set("Request-Id", "req_fake")
	writeJSON(w, http.StatusNotFound, map[string]any{"type": "error", "error": map[string]any{
		"type": "not_found_error", "message": "model: " + parseAnthropic(req).Model,
	}})
}

// writeInvalid answers, as Anthropic does, a thinking budget under the
// API's minimum or not below max_tokens, which counts thinking.
func (anthropicDialect) writeInvalid(w http.ResponseWriter, req Request) bool {
	ar := parseAnthropic(req)
	if ar.Thinking.Type != "enabled" {
		return false
	}
	msg := ""
	switch {
	case ar.Thinking.BudgetTokens < 1024:
		msg = "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024"
	case ar.MaxTokens <= ar.Thinking.BudgetTokens:
		msg = "`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at " +
			"https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size"
	default:
		return false
	}
	w.Header().Set("Request-Id", "req_fake")
	writeJSON(w, http.StatusBadRequest, map[string]any{"type": "error", "error": map[string]any{"type": "invalid_request_error", "message": msg}})
	return true
}

// anthropicBlocks renders a reply's content blocks and stop reason.
func anthropicBlocks(req anthropicRequest, n int, r Reply) ([]map[string]any, string) {
	if r.Refusal != "" {
		return []map[string]any{}, "refusal"
	}
	var blocks []map[string]any
	stop := "end_turn"
	if obj, ok := jsonObject(r.Text); ok && req.ToolChoice.Type == "tool" {
		blocks = append(blocks, map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_out_%d", n), "name": req.ToolChoice.Name, "input": obj})
		stop = "tool_use"
	} else if r.Text != "" {
		blocks = append(blocks, map[string]any{"type": "text", "text": r.Text})
	}
	for _, c := range r.ToolCalls {
		input, _ := jsonObject(c.Arguments)
		if input == nil {
			input = map[string]any{}
		}
		blocks = append(blocks, map[string]any{"type": "tool_use", "id": c.ID, "name": c.Name, "input": input})
		stop = "tool_use"
	}
	if r.MaxTokens {
		stop = "max_tokens"
	}
	if blocks == nil {
		blocks = []map[string]any{}
	}
	return blocks, stop
}

func anthropicUsage(u Usage) map[string]any {
	u = u.orDefault()
	return map[string]any{
		// input_tokens excludes cache reads and writes, as in the real API.
		"input_tokens":                u.Input - u.Cached - u.CacheWrite,
		"output_tokens":               u.Output,
		"cache_read_input_tokens":     u.Cached,
		"cache_creation_input_tokens": u.CacheWrite,
		// The adapter asks for the default five-minute cache only.
		"cache_creation": map[string]any{"ephemeral_5m_input_tokens": u.CacheWrite, "ephemeral_1h_input_tokens": 0},
	}
}

func anthropicStopDetails(r Reply) any {
	if r.Refusal == "" {
		return nil
	}
	return map[string]any{"type": "refusal", "category": nil, "explanation": r.Refusal}
}

func (anthropicDialect) writeReply(w http.ResponseWriter, req Request, n int, r Reply) {
	ar := parseAnthropic(req)
	blocks, stop := anthropicBlocks(ar, n, r)
	writeJSON(w, http.StatusOK, map[string]any{
		"id":            fmt.Sprintf("msg_%d", n),
		"type":          "message",
		"role":          "assistant",
		"model":         ar.Model,
		"content":       blocks,
		"stop_reason":   stop,
		"stop_sequence": nil,
		"stop_details":  anthropicStopDetails(r),
		"usage":         anthropicUsage(r.Usage),
	})
}

func (anthropicDialect) writeStream(w http.ResponseWriter, req Request, n int, r Reply) {
	ar := parseAnthropic(req)
	blocks, stop := anthropicBlocks(ar, n, r)
	s := startSSE(w)
	usage := anthropicUsage(r.Usage)
	startUsage := maps.Clone(usage)
	startUsage["output_tokens"] = 1
	s.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": fmt.Sprintf("msg_%d", n), "type": "message", "role": "assistant", "model": ar.Model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": startUsage,
	}})
	s.event("ping", map[string]any{"type": "ping"})
	for i, b := range blocks {
		switch b["type"] {
		case "text":
			s.event("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "text", "text": ""}})
			for _, p := range pieces(b["text"].(string)) {
				s.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
					"delta": map[string]any{"type": "text_delta", "text": p}})
			}
		case "tool_use":
			s.event("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "tool_use", "id": b["id"], "name": b["name"], "input": map[string]any{}}})
			input, _ := json.Marshal(b["input"])
			for _, p := range pieces(string(input)) {
				s.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
					"delta": map[string]any{"type": "input_json_delta", "partial_json": p}})
			}
		}
		s.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	if s.stalled() {
		return
	}
	s.event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil, "stop_details": anthropicStopDetails(r)},
		// Counts in message_delta are cumulative: the input and cache counts
		// repeat those of message_start, and must not be added to them.
		"usage": map[string]any{
			"output_tokens":               usage["output_tokens"],
			"input_tokens":                usage["input_tokens"],
			"cache_read_input_tokens":     usage["cache_read_input_tokens"],
			"cache_creation_input_tokens": usage["cache_creation_input_tokens"],
		}})
	s.event("message_stop", map[string]any{"type": "message_stop"})
}
