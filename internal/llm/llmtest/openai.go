package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// NewOpenAI starts a fake OpenAI Chat Completions server (also standing in
// for OpenAI-compatible servers). Point the client at Server.URL. It serves
// OpenAIModels and CompatibleModel until SetModels says otherwise.
func NewOpenAI(t testing.TB, replies ...Reply) *Server {
	return newServer(t, openaiDialect{}, "/v1", append(OpenAIModels(), CompatibleModel), replies)
}

type openaiDialect struct{}

func (openaiDialect) isStream(_ *http.Request, body []byte) bool {
	var v struct{ Stream bool }
	json.Unmarshal(body, &v)
	return v.Stream
}

func (openaiDialect) malformed() string { return `{"id": "chatcmpl-broken", "choices": [` }

func (openaiDialect) writeError(w http.ResponseWriter, req Request, f Failure, retryAfter time.Duration) {
	status, typ, code, msg := http.StatusInternalServerError, "server_error", "", "The server had an error while processing your request."
	switch f {
	case RateLimited:
		status, typ, code = http.StatusTooManyRequests, "tokens", "rate_limit_exceeded"
		msg = fmt.Sprintf("Rate limit reached for %s in organization org-fake on tokens per min (TPM): Limit 200000, Used 199950, Requested 120. "+
			"Please try again in 20ms. Visit https://platform.openai.com/account/rate-limits to learn more.", openaiModel(req))
		setRetryAfter(w.Header(), retryAfter, true)
	case RequestTooLarge:
		status, typ, code = http.StatusTooManyRequests, "tokens", "rate_limit_exceeded"
		msg = fmt.Sprintf("Request too large for %s in organization org-fake on tokens per min (TPM): Limit 30000, Requested 41563. "+
			"The input or output tokens must be reduced in order to run successfully. "+
			"Visit https://platform.openai.com/account/rate-limits to learn more.", openaiModel(req))
	case ContextSizeExceeded:
		// llama.cpp's server: its own error type, the status as a number in
		// code, and the counts beside the message.
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": map[string]any{
			"code":            http.StatusBadRequest,
			"message":         "request (9120 tokens) exceeds the available context size (8192 tokens), try increasing it",
			"type":            "exceed_context_size_error",
			"n_prompt_tokens": 9120,
			"n_ctx":           8192,
		}})
		return
	case QuotaExhausted:
		status, typ, code = http.StatusTooManyRequests, "insufficient_quota", "insufficient_quota"
		msg = "You exceeded your current quota, please check your plan and billing details."
	case Overloaded:
		status, msg = http.StatusServiceUnavailable, "The engine is currently overloaded, please try again later."
	case ContextTooLong:
		status, typ, code = http.StatusBadRequest, "invalid_request_error", "context_length_exceeded"
		msg = "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens."
	case Unauthorized:
		// OpenAI quotes the key it was given (masked); the fake quotes it
		// whole, to check that clients never repeat it.
		key := strings.TrimPrefix(req.Header.Get("Authorization"), "Bearer ")
		status, typ, code, msg = http.StatusUnauthorized, "invalid_request_error", "invalid_api_key",
			"Incorrect API key provided: "+key+". You can find your API key at https://platform.openai.com/account/api-keys."
	}
	var c any
	if code != "" {
		c = code
	}
	writeJSON(w, status, map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": c}})
}

func openaiModel(req Request) string {
	var v struct{ Model string }
	json.Unmarshal(req.Body, &v)
	return v.Model
}

func (openaiDialect) model(req Request) string { return openaiModel(req) }

// writeModelNotFound answers as OpenAI does a model that does not exist or
// that the key may not use.
func (openaiDialect) writeModelNotFound(w http.ResponseWriter, req Request) {
	writeJSON(w, http.StatusNotFound, map[string]any{"error": map[string]any{
		"message": fmt.Sprintf("The model `%s` does not exist or you do not have access to it.", openaiModel(req)),
		"type":    "invalid_request_error",
		"param":   nil,
		"code":    "model_not_found",
	}})
}

func (openaiDialect) writeInvalid(http.ResponseWriter, Request) bool { return false }

func openaiUsage(u Usage) map[string]any {
	u = u.orDefault()
	return map[string]any{
		"prompt_tokens":         u.Input,
		"completion_tokens":     u.Output,
		"total_tokens":          u.Input + u.Output,
		"prompt_tokens_details": map[string]any{"cached_tokens": u.Cached},
	}
}

func openaiFinish(r Reply) string {
	switch {
	case r.MaxTokens:
		return "length"
	case len(r.ToolCalls) > 0:
		return "tool_calls"
	}
	return "stop"
}

func (openaiDialect) writeReply(w http.ResponseWriter, req Request, n int, r Reply) {
	msg := map[string]any{"role": "assistant", "content": nil, "refusal": nil}
	if r.Refusal != "" {
		msg["refusal"] = r.Refusal
	} else {
		msg["content"] = r.Text
	}
	if len(r.ToolCalls) > 0 {
		calls := make([]any, len(r.ToolCalls))
		for i, c := range r.ToolCalls {
			calls[i] = map[string]any{
				"id":       c.ID,
				"type":     "function",
				"function": map[string]any{"name": c.Name, "arguments": c.Arguments},
			}
		}
		msg["tool_calls"] = calls
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"id":      fmt.Sprintf("chatcmpl-%d", n),
		"object":  "chat.completion",
		"created": 1767225600,
		"model":   openaiModel(req),
		"choices": []any{map[string]any{
			"index":         0,
			"message":       msg,
			"logprobs":      nil,
			"finish_reason": openaiFinish(r),
		}},
		"usage": openaiUsage(r.Usage),
	})
}

func (openaiDialect) writeStream(w http.ResponseWriter, req Request, n int, r Reply) {
	s := startSSE(w)
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{
			"id":      fmt.Sprintf("chatcmpl-%d", n),
			"object":  "chat.completion.chunk",
			"created": 1767225600,
			"model":   openaiModel(req),
			"choices": []any{map[string]any{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": finish}},
		}
	}
	s.event("", chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	if r.Refusal != "" {
		for _, p := range pieces(r.Refusal) {
			s.event("", chunk(map[string]any{"refusal": p}, nil))
		}
	} else {
		for _, p := range pieces(r.Text) {
			s.event("", chunk(map[string]any{"content": p}, nil))
		}
	}
	for i, c := range r.ToolCalls {
		s.event("", chunk(map[string]any{"tool_calls": []any{map[string]any{
			"index": i, "id": c.ID, "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": ""},
		}}}, nil))
		for _, p := range pieces(c.Arguments) {
			s.event("", chunk(map[string]any{"tool_calls": []any{map[string]any{
				"index": i, "function": map[string]any{"arguments": p},
			}}}, nil))
		}
	}
	if s.stalled() {
		return
	}
	s.event("", chunk(map[string]any{}, openaiFinish(r)))
	var opts struct {
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
	}
	json.Unmarshal(req.Body, &opts)
	if opts.StreamOptions.IncludeUsage && !r.NoStreamUsage {
		s.event("", map[string]any{
			"id":      fmt.Sprintf("chatcmpl-%d", n),
			"object":  "chat.completion.chunk",
			"created": 1767225600,
			"model":   openaiModel(req),
			"choices": []any{},
			"usage":   openaiUsage(r.Usage),
		})
	}
	s.event("", "[DONE]")
}
