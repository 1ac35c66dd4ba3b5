package llmtest

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// NewGemini starts a fake Gemini API server (generativelanguage v1beta).
func NewGemini(t testing.TB, replies ...Reply) *Server {
	return newServer(t, geminiDialect{}, "", replies)
}

type geminiDialect struct{}

func (geminiDialect) isStream(r *http.Request, _ []byte) bool {
	return strings.HasSuffix(r.URL.Path, ":streamGenerateContent")
}

func (geminiDialect) malformed() string { return `{"candidates": [{"content": ` }

func (geminiDialect) writeError(w http.ResponseWriter, _ Request, f Failure, retryAfter time.Duration) {
	code, status, msg := http.StatusInternalServerError, "INTERNAL", "An internal error has occurred."
	var details []any
	switch f {
	case RateLimited:
		code, status, msg = http.StatusTooManyRequests, "RESOURCE_EXHAUSTED", "Resource has been exhausted (e.g. check quota)."
		if retryAfter > 0 {
			details = append(details, map[string]any{
				"@type":      "type.googleapis.com/google.rpc.RetryInfo",
				"retryDelay": fmt.Sprintf("%gs", retryAfter.Seconds()),
			})
		}
	case Overloaded:
		code, status, msg = http.StatusServiceUnavailable, "UNAVAILABLE", "The model is overloaded. Please try again later."
	case ContextTooLong:
		code, status, msg = http.StatusBadRequest, "INVALID_ARGUMENT", "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576)."
	case Unauthorized:
		code, status, msg = http.StatusBadRequest, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key."
		details = append(details, map[string]any{
			"@type":  "type.googleapis.com/google.rpc.ErrorInfo",
			"reason": "API_KEY_INVALID",
			"domain": "googleapis.com",
		})
	}
	body := map[string]any{"code": code, "message": msg, "status": status}
	if details != nil {
		body["details"] = details
	}
	writeJSON(w, code, map[string]any{"error": body})
}

// geminiModel reads the model from a path like /v1beta/models/NAME:generateContent.
func geminiModel(req Request) string {
	name := req.Path[strings.LastIndex(req.Path, "/")+1:]
	name, _, _ = strings.Cut(name, ":")
	return name
}

func geminiUsage(u Usage) map[string]any {
	u = u.orDefault()
	return map[string]any{
		"promptTokenCount":        u.Input,
		"candidatesTokenCount":    u.Output,
		"totalTokenCount":         u.Input + u.Output,
		"cachedContentTokenCount": u.Cached,
	}
}

func geminiCalls(r Reply) []any {
	var parts []any
	for _, c := range r.ToolCalls {
		args, _ := jsonObject(c.Arguments)
		call := map[string]any{"name": c.Name, "args": args}
		if c.ID != "" {
			call["id"] = c.ID
		}
		parts = append(parts, map[string]any{"functionCall": call})
	}
	return parts
}

func geminiFinish(r Reply) string {
	if r.MaxTokens {
		return "MAX_TOKENS"
	}
	return "STOP"
}

// geminiBlocked is the answer to a blocked prompt: no candidates, only the
// prompt feedback.
func geminiBlocked(req Request, n int, r Reply) map[string]any {
	return map[string]any{
		"promptFeedback": map[string]any{"blockReason": "SAFETY", "blockReasonMessage": r.Refusal},
		"usageMetadata":  map[string]any{"promptTokenCount": r.Usage.orDefault().Input, "totalTokenCount": r.Usage.orDefault().Input},
		"modelVersion":   geminiModel(req),
		"responseId":     fmt.Sprintf("resp-%d", n),
	}
}

func (geminiDialect) writeReply(w http.ResponseWriter, req Request, n int, r Reply) {
	if r.Refusal != "" {
		writeJSON(w, http.StatusOK, geminiBlocked(req, n, r))
		return
	}
	var parts []any
	if r.Text != "" {
		parts = append(parts, map[string]any{"text": r.Text})
	}
	parts = append(parts, geminiCalls(r)...)
	writeJSON(w, http.StatusOK, map[string]any{
		"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": parts},
			"finishReason": geminiFinish(r),
			"index":        0,
		}},
		"usageMetadata": geminiUsage(r.Usage),
		"modelVersion":  geminiModel(req),
		"responseId":    fmt.Sprintf("resp-%d", n),
	})
}

func (geminiDialect) writeStream(w http.ResponseWriter, req Request, n int, r Reply) {
	s := startSSE(w)
	if r.Refusal != "" {
		s.event("", geminiBlocked(req, n, r))
		return
	}
	chunk := func(parts []any, last bool) map[string]any {
		cand := map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "index": 0}
		c := map[string]any{"modelVersion": geminiModel(req), "responseId": fmt.Sprintf("resp-%d", n)}
		if last {
			cand["finishReason"] = geminiFinish(r)
			c["usageMetadata"] = geminiUsage(r.Usage)
		}
		c["candidates"] = []any{cand}
		return c
	}
	texts := pieces(r.Text)
	calls := geminiCalls(r)
	for i, p := range texts {
		s.event("", chunk([]any{map[string]any{"text": p}}, i == len(texts)-1 && len(calls) == 0))
	}
	if len(calls) > 0 || len(texts) == 0 {
		s.event("", chunk(calls, true))
	}
}
