package llmtest

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// NewGemini starts a fake Gemini API server (generativelanguage v1beta). It
// serves GeminiModels until SetModels says otherwise. Like the real API, it
// answers 400 INVALID_ARGUMENT to a response or parameters JSON schema with
// an enum member that is not a non-empty string or a number.
func NewGemini(t testing.TB, replies ...Reply) *Server {
	return newServer(t, geminiDialect{}, "", GeminiModels(), replies)
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

func (geminiDialect) model(req Request) string { return geminiModel(req) }

// writeModelNotFound answers as the Gemini API does a model it does not
// serve.
func (geminiDialect) writeModelNotFound(w http.ResponseWriter, req Request) {
	version, method := "v1beta", "generateContent"
	if p := strings.Split(strings.TrimPrefix(req.Path, "/"), "/"); len(p) > 1 {
		version = p[0]
	}
	if _, m, ok := strings.Cut(req.Path[strings.LastIndex(req.Path, "/")+1:], ":"); ok {
		method = m
	}
	msg := fmt.Sprintf("models/%s is not found for API version %s, or is not supported for %s. "+
		"Call ListModels to see the list of available models and their supported methods.", geminiModel(req), version, method)
	writeJSON(w, http.StatusNotFound, map[string]any{"error": map[string]any{"code": http.StatusNotFound, "message": msg, "status": "NOT_FOUND"}})
}

// writeInvalid refuses a request whose response or parameters JSON schema
// has an enum member Gemini does not take: its JSON Schema subset allows
// enum for strings and numbers, and it reports a null or empty member as
// "enum[n]: cannot be empty".
func (geminiDialect) writeInvalid(w http.ResponseWriter, req Request) bool {
	var body struct {
		GenerationConfig struct {
			ResponseJSONSchema any `json:"responseJsonSchema"`
		} `json:"generationConfig"`
		Tools []struct {
			FunctionDeclarations []struct {
				ParametersJSONSchema any `json:"parametersJsonSchema"`
			} `json:"functionDeclarations"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(req.Body, &body); err != nil {
		return false
	}
	var problems []string
	checkGeminiEnums(body.GenerationConfig.ResponseJSONSchema, "GenerateContentRequest.generation_config.response_json_schema", &problems)
	for i, t := range body.Tools {
		for j, f := range t.FunctionDeclarations {
			checkGeminiEnums(f.ParametersJSONSchema, fmt.Sprintf("GenerateContentRequest.tools[%d].function_declarations[%d].parameters_json_schema", i, j), &problems)
		}
	}
	if len(problems) == 0 {
		return false
	}
	var msg strings.Builder
	for _, p := range problems {
		fmt.Fprintf(&msg, "* %s\n", p)
	}
	writeJSON(w, http.StatusBadRequest, map[string]any{"error": map[string]any{
		"code": http.StatusBadRequest, "message": msg.String(), "status": "INVALID_ARGUMENT",
	}})
	return true
}

// checkGeminiEnums appends to problems each enum member of schema (and its
// subschemas) that Gemini refuses.
func checkGeminiEnums(schema any, path string, problems *[]string) {
	s, ok := schema.(map[string]any)
	if !ok {
		return
	}
	if enum, ok := s["enum"].([]any); ok {
		for i, v := range enum {
			switch v := v.(type) {
			case float64:
			case string:
				if v == "" {
					*problems = append(*problems, fmt.Sprintf("%s.enum[%d]: cannot be empty", path, i))
				}
			case nil:
				*problems = append(*problems, fmt.Sprintf("%s.enum[%d]: cannot be empty", path, i))
			default:
				*problems = append(*problems, fmt.Sprintf("%s.enum[%d]: only strings and numbers are allowed", path, i))
			}
		}
	}
	for _, key := range []string{"properties", "$defs"} {
		if m, ok := s[key].(map[string]any); ok {
			for _, name := range slices.Sorted(maps.Keys(m)) {
				checkGeminiEnums(m[name], fmt.Sprintf("%s.%s[%s]", path, key, name), problems)
			}
		}
	}
	for _, key := range []string{"anyOf", "oneOf", "prefixItems"} {
		if list, ok := s[key].([]any); ok {
			for i, sub := range list {
				checkGeminiEnums(sub, fmt.Sprintf("%s.%s[%d]", path, key, i), problems)
			}
		}
	}
	for _, key := range []string{"items", "additionalProperties"} {
		checkGeminiEnums(s[key], path+"."+key, problems)
	}
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

// geminiPromptUsage is the usage of a stream's chunks before the last.
func geminiPromptUsage(u Usage) map[string]any {
	u = u.orDefault()
	return map[string]any{
		"promptTokenCount":        u.Input,
		"totalTokenCount":         u.Input,
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
		// As in the Gemini API, every chunk reports the usage so far: the
		// prompt's from the first chunk on; the reply's, here, in the last.
		if last {
			cand["finishReason"] = geminiFinish(r)
			c["usageMetadata"] = geminiUsage(r.Usage)
		} else {
			c["usageMetadata"] = geminiPromptUsage(r.Usage)
		}
		c["candidates"] = []any{cand}
		return c
	}
	texts := pieces(r.Text)
	calls := geminiCalls(r)
	var chunks []map[string]any
	for i, p := range texts {
		chunks = append(chunks, chunk([]any{map[string]any{"text": p}}, i == len(texts)-1 && len(calls) == 0))
	}
	if len(calls) > 0 || len(texts) == 0 {
		chunks = append(chunks, chunk(calls, true))
	}
	for i, c := range chunks {
		if i == len(chunks)-1 && s.stalled() {
			return
		}
		s.event("", c)
	}
}
