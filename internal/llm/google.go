package llm

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"google.golang.org/genai"
)

// googleDefaultBaseURL is set explicitly because the SDK would otherwise
// read GOOGLE_GEMINI_BASE_URL from the process environment.
const googleDefaultBaseURL = "https://generativelanguage.googleapis.com/"

// googleCallIDPrefix marks tool call ids made up by the adapter for
// function calls that came without one; they are not sent back.
const googleCallIDPrefix = "tutord-call-"

type googleBackend struct {
	client *genai.Client
}

func newGoogleBackend(ctx context.Context, baseURL, apiKey string, hc *http.Client) (*googleBackend, error) {
	one := int32(1)
	c, err := genai.NewClient(ctx, &genai.ClientConfig{
		// Backend and key are explicit so that GOOGLE_GENAI_USE_VERTEXAI and
		// the key variables of the process environment cannot change them.
		Backend:    genai.BackendGeminiAPI,
		APIKey:     apiKey,
		HTTPClient: hc,
		HTTPOptions: genai.HTTPOptions{
			BaseURL: baseURL,
			// One attempt: the client owns the retry loop (genai's own
			// ignores Retry-After).
			RetryOptions: &genai.HTTPRetryOptions{Attempts: &one},
		},
	})
	if err != nil {
		// genai's errors can print the whole ClientConfig, key included.
		return nil, fmt.Errorf("%w: creating the Gemini client: %s", ErrInvalidConfig, providerMessage(err.Error(), apiKey))
	}
	return &googleBackend{client: c}, nil
}

func (b *googleBackend) generate(ctx context.Context, model string, req *Request) (*Response, error) {
	contents, cfg, err := toGoogleRequest(model, req)
	if err != nil {
		return nil, notSent(err)
	}
	r, err := b.client.Models.GenerateContent(ctx, model, contents, cfg)
	if err != nil {
		return nil, googleError(err)
	}
	if len(r.Candidates) == 0 && r.PromptFeedback == nil && r.UsageMetadata == nil {
		// genai decodes an empty body (a connection cut before the reply)
		// into an empty reply, without error; Gemini's own replies always
		// count their tokens. Like a body that is not JSON, it is the
		// provider's fault and worth another attempt.
		return nil, &Error{Kind: KindUnavailable, Message: "the reply is empty"}
	}
	return fromGoogleResponse(r)
}

func (b *googleBackend) stream(ctx context.Context, model string, req *Request, onEvent func(), onDelta func(Delta) error) (*Response, error) {
	contents, cfg, err := toGoogleRequest(model, req)
	if err != nil {
		return nil, notSent(err)
	}
	var chunks []*genai.GenerateContentResponse
	// billed returns, with the error of a stream that ends early (its
	// consumer or the caller stopped it, or it broke), the tokens counted so
	// far: Gemini reports the usage in every chunk, the prompt's from the
	// first one on.
	billed := func() *Response {
		return &Response{Usage: googleUsage(mergeGoogleChunks(chunks).UsageMetadata)}
	}
	calls := 0
	for chunk, err := range b.client.Models.GenerateContentStream(ctx, model, contents, cfg) {
		if err != nil {
			return billed(), googleError(err)
		}
		onEvent()
		chunks = append(chunks, chunk)
		for _, part := range firstCandidateParts(chunk) {
			switch {
			case part.FunctionCall != nil:
				// Gemini sends each call whole, in one chunk.
				args, err := googleArgs(part.FunctionCall.Args)
				if err != nil {
					return billed(), err
				}
				d := &ToolCallDelta{Index: calls, ID: googleCallID(part.FunctionCall.ID, calls), Name: part.FunctionCall.Name, Arguments: string(args)}
				calls++
				if err := onDelta(Delta{ToolCall: d}); err != nil {
					return billed(), err
				}
			case part.Text != "" && !part.Thought:
				if err := onDelta(Delta{Text: part.Text}); err != nil {
					return billed(), err
				}
			}
		}
	}
	if len(chunks) == 0 {
		return nil, notAStreamError()
	}
	return fromGoogleResponse(mergeGoogleChunks(chunks))
}

// googleBefore3 reports whether model is of a Gemini series before 3.
func googleBefore3(model string) bool {
	m := strings.TrimPrefix(strings.ToLower(model), "models/")
	return strings.HasPrefix(m, "gemini-1") || strings.HasPrefix(m, "gemini-2")
}

// toGoogleRequest converts req to generateContent arguments.
func toGoogleRequest(model string, req *Request) ([]*genai.Content, *genai.GenerateContentConfig, error) {
	cfg := &genai.GenerateContentConfig{
		// One request per attempt: continuing a cut-off reply is the
		// caller's decision (it sees StopMaxTokens).
		AutomaticContinuation: genai.Ptr(false),
	}
	if req.System != "" {
		cfg.SystemInstruction = &genai.Content{Parts: []*genai.Part{{Text: req.System}}}
	}
	names := map[string]string{} // tool call id → function name
	var contents []*genai.Content
	for i, m := range req.Messages {
		var c *genai.Content
		switch m.Role {
		case RoleUser:
			c = &genai.Content{Role: genai.RoleUser, Parts: []*genai.Part{{Text: m.Content}}}
		case RoleAssistant:
			c = &genai.Content{Role: genai.RoleModel}
			if m.Content != "" {
				c.Parts = append(c.Parts, &genai.Part{Text: m.Content})
			}
			for _, call := range m.ToolCalls {
				var args map[string]any
				if err := json.Unmarshal(argumentsOrEmpty(call.Arguments), &args); err != nil {
					return nil, nil, &Error{Kind: KindInvalidRequest, Message: fmt.Sprintf("message %d: tool call %s: arguments must be a JSON object", i, call.ID)}
				}
				fc := &genai.FunctionCall{Name: call.Name, Args: args}
				if !strings.HasPrefix(call.ID, googleCallIDPrefix) {
					fc.ID = call.ID
				}
				c.Parts = append(c.Parts, &genai.Part{FunctionCall: fc, ThoughtSignature: call.Signature})
				names[call.ID] = call.Name
			}
		case RoleTool:
			name, ok := names[m.ToolCallID]
			if !ok {
				return nil, nil, &Error{Kind: KindInvalidRequest, Message: fmt.Sprintf("message %d: tool result for unknown call %q", i, m.ToolCallID)}
			}
			key := "output"
			if m.IsError {
				key = "error"
			}
			fr := &genai.FunctionResponse{Name: name, Response: map[string]any{key: m.Content}}
			if !strings.HasPrefix(m.ToolCallID, googleCallIDPrefix) {
				fr.ID = m.ToolCallID
			}
			c = &genai.Content{Role: genai.RoleUser, Parts: []*genai.Part{{FunctionResponse: fr}}}
		default:
			return nil, nil, &Error{Kind: KindInvalidRequest, Message: fmt.Sprintf("unknown role %q", m.Role)}
		}
		// Consecutive messages of one role form one turn: the responses to
		// a turn's calls go together.
		if n := len(contents); n > 0 && contents[n-1].Role == c.Role {
			contents[n-1].Parts = append(contents[n-1].Parts, c.Parts...)
			continue
		}
		contents = append(contents, c)
	}

	if req.Output != nil && len(req.Tools) > 0 && googleBefore3(model) {
		// Answered with 400 INVALID_ARGUMENT: structured output beside
		// function calling came with Gemini 3.
		return nil, nil, &Error{Kind: KindInvalidRequest, Message: model + " cannot combine structured output with tools (Gemini 3 models can)"}
	}
	if s := req.Output; s != nil {
		cfg.ResponseMIMEType = "application/json"
		cfg.ResponseJsonSchema = s.gemini
	}
	if len(req.Tools) > 0 {
		decls := make([]*genai.FunctionDeclaration, len(req.Tools))
		for i, t := range req.Tools {
			decls[i] = &genai.FunctionDeclaration{Name: t.Name, Description: t.Description, ParametersJsonSchema: toolSchema(t).gemini}
		}
		cfg.Tools = []*genai.Tool{{FunctionDeclarations: decls}}
		fc := &genai.FunctionCallingConfig{}
		switch req.ToolChoice.Mode {
		case "", ToolChoiceAuto:
			fc.Mode = genai.FunctionCallingConfigModeAuto
		case ToolChoiceNone:
			fc.Mode = genai.FunctionCallingConfigModeNone
		case ToolChoiceRequired:
			fc.Mode = genai.FunctionCallingConfigModeAny
		case ToolChoiceTool:
			fc.Mode = genai.FunctionCallingConfigModeAny
			fc.AllowedFunctionNames = []string{req.ToolChoice.Name}
		}
		cfg.ToolConfig = &genai.ToolConfig{FunctionCallingConfig: fc}
	}
	if req.Temperature != nil {
		cfg.Temperature = genai.Ptr(float32(*req.Temperature))
	}
	if req.MaxOutputTokens > 0 {
		cfg.MaxOutputTokens = int32(min(req.MaxOutputTokens, maxOutputTokensLimit))
	}
	cfg.ThinkingConfig = googleThinking(model, req.Effort)
	return contents, cfg, nil
}

// googleThinking maps an effort to a thinking configuration: thinking
// levels for Gemini 3, token budgets for Gemini 2.5, nothing for models that
// do not think.
func googleThinking(model string, e Effort) *genai.ThinkingConfig {
	if e == EffortDefault {
		return nil
	}
	m := strings.ToLower(strings.TrimPrefix(model, "models/"))
	switch {
	case strings.HasPrefix(m, "gemini-3"):
		level := genai.ThinkingLevelHigh
		switch e {
		case EffortNone, EffortMinimal:
			// Only Flash can think minimally; Pro cannot stop thinking.
			level = genai.ThinkingLevelLow
			if strings.Contains(m, "flash") {
				level = genai.ThinkingLevelMinimal
			}
		case EffortLow:
			level = genai.ThinkingLevelLow
		case EffortMedium:
			level = genai.ThinkingLevelMedium
		}
		return &genai.ThinkingConfig{ThinkingLevel: level}
	case strings.HasPrefix(m, "gemini-2.5"):
		var budget int32 = 24576
		switch e {
		case EffortNone:
			budget = 0
			if strings.Contains(m, "pro") {
				budget = 128 // 2.5 Pro's minimum: it cannot stop thinking
			}
		case EffortMinimal:
			budget = 512 // Flash-Lite's minimum, within Flash's and Pro's ranges
		case EffortLow:
			budget = 1024
		case EffortMedium:
			budget = 8192
		}
		return &genai.ThinkingConfig{ThinkingBudget: &budget}
	}
	return nil
}

// fromGoogleResponse converts a generateContent reply. A blocked prompt or
// a reply stopped by the safety filters is an error of kind KindRefused.
func fromGoogleResponse(r *genai.GenerateContentResponse) (*Response, error) {
	resp := &Response{Model: r.ModelVersion, Usage: googleUsage(r.UsageMetadata)}
	if f := r.PromptFeedback; f != nil && f.BlockReason != "" {
		msg := "the provider blocked the prompt (" + string(f.BlockReason) + ")"
		if f.BlockReasonMessage != "" {
			msg += ": " + truncate(f.BlockReasonMessage, 300)
		}
		return resp, &Error{Kind: KindRefused, Message: msg}
	}
	if len(r.Candidates) == 0 || r.Candidates[0] == nil {
		return resp, &Error{Kind: KindInvalidOutput, Message: "the reply has no candidates"}
	}
	c := r.Candidates[0]
	switch c.FinishReason {
	case genai.FinishReasonStop, genai.FinishReasonUnspecified, "":
		resp.StopReason = StopEnd
	case genai.FinishReasonMaxTokens, genai.FinishReasonContinuation:
		// CONTINUATION: cut at the per-request limit, with more to come
		// (automatic continuation is off): as cut off as MAX_TOKENS.
		resp.StopReason = StopMaxTokens
	case genai.FinishReasonSafety, genai.FinishReasonProhibitedContent, genai.FinishReasonBlocklist,
		genai.FinishReasonSPII, genai.FinishReasonRecitation, genai.FinishReasonImageSafety,
		genai.FinishReasonImageProhibitedContent:
		return resp, &Error{Kind: KindRefused, Message: "the provider's safety filters stopped the reply (" + string(c.FinishReason) + ")"}
	case genai.FinishReasonMalformedFunctionCall, genai.FinishReasonUnexpectedToolCall:
		return resp, &Error{Kind: KindInvalidOutput, Message: "the model made a malformed tool call (" + string(c.FinishReason) + ")"}
	default:
		resp.StopReason = StopOther
	}
	var text strings.Builder
	if c.Content != nil {
		for _, part := range c.Content.Parts {
			switch {
			case part == nil:
			case part.FunctionCall != nil:
				args, err := googleArgs(part.FunctionCall.Args)
				if err != nil {
					return resp, err
				}
				resp.ToolCalls = append(resp.ToolCalls, ToolCall{
					ID:        googleCallID(part.FunctionCall.ID, len(resp.ToolCalls)),
					Name:      part.FunctionCall.Name,
					Arguments: args,
					Signature: part.ThoughtSignature,
				})
			case !part.Thought:
				text.WriteString(part.Text)
			}
		}
	}
	resp.Text = text.String()
	if len(resp.ToolCalls) > 0 && resp.StopReason == StopEnd {
		// Gemini says STOP after function calls.
		resp.StopReason = StopToolUse
	}
	return resp, nil
}

func googleUsage(u *genai.GenerateContentResponseUsageMetadata) Usage {
	if u == nil {
		return Usage{}
	}
	return Usage{
		// promptTokenCount includes cachedContentTokenCount, as InputTokens
		// does; toolUsePromptTokenCount is not part of it (totalTokenCount
		// adds the two) and is billed as input.
		InputTokens:       int64(u.PromptTokenCount) + int64(u.ToolUsePromptTokenCount),
		OutputTokens:      int64(u.CandidatesTokenCount) + int64(u.ThoughtsTokenCount),
		CachedInputTokens: int64(u.CachedContentTokenCount),
	}
}

func firstCandidateParts(r *genai.GenerateContentResponse) []*genai.Part {
	if r == nil || len(r.Candidates) == 0 || r.Candidates[0] == nil || r.Candidates[0].Content == nil {
		return nil
	}
	return r.Candidates[0].Content.Parts
}

// mergeGoogleChunks folds a stream into the reply generateContent would
// have given: the parts of all chunks in order (adjacent text joined), and
// the last finish reason (OTHER when no chunk had one), usage and feedback.
func mergeGoogleChunks(chunks []*genai.GenerateContentResponse) *genai.GenerateContentResponse {
	merged := &genai.GenerateContentResponse{}
	cand := &genai.Candidate{Content: &genai.Content{Role: genai.RoleModel}}
	for _, ch := range chunks {
		if ch == nil {
			continue
		}
		merged.ModelVersion = cmp.Or(ch.ModelVersion, merged.ModelVersion)
		if ch.UsageMetadata != nil {
			merged.UsageMetadata = ch.UsageMetadata
		}
		if ch.PromptFeedback != nil {
			merged.PromptFeedback = ch.PromptFeedback
		}
		if len(ch.Candidates) == 0 || ch.Candidates[0] == nil {
			continue
		}
		c := ch.Candidates[0]
		if c.FinishReason != "" {
			cand.FinishReason = c.FinishReason
		}
		for _, p := range firstCandidateParts(ch) {
			if p == nil {
				continue
			}
			parts := cand.Content.Parts
			if n := len(parts); n > 0 && isPlainText(parts[n-1]) && isPlainText(p) && p.Thought == parts[n-1].Thought {
				joined := *parts[n-1]
				joined.Text += p.Text
				parts[n-1] = &joined
				continue
			}
			cand.Content.Parts = append(parts, p)
		}
	}
	if len(chunks) > 0 {
		if cand.FinishReason == "" {
			// The stream ended before its last chunk: the reply may be cut
			// short, which a reply that says STOP never is.
			cand.FinishReason = genai.FinishReasonOther
		}
		merged.Candidates = []*genai.Candidate{cand}
	}
	return merged
}

func isPlainText(p *genai.Part) bool {
	return p.FunctionCall == nil && p.FunctionResponse == nil && p.InlineData == nil && len(p.ThoughtSignature) == 0
}

func googleArgs(args map[string]any) (json.RawMessage, error) {
	if args == nil {
		return json.RawMessage(`{}`), nil
	}
	b, err := json.Marshal(args)
	if err != nil {
		return nil, &Error{Kind: KindInvalidOutput, Message: "tool call arguments cannot be encoded", Err: err}
	}
	return b, nil
}

// googleCallID returns the call's id, or makes one up: our messages need
// ids to pair tool results with calls, and Gemini does not always send them.
func googleCallID(id string, index int) string {
	if id != "" {
		return id
	}
	return googleCallIDPrefix + strconv.Itoa(index)
}

// googleError maps an error of the genai SDK.
func googleError(err error) *Error {
	if k := contextKind(err); k != "" {
		return &Error{Kind: k, Err: err}
	}
	var ae genai.APIError
	if p, ok := errors.AsType[*genai.APIError](err); ok {
		ae = *p
	} else if v, ok := errors.AsType[genai.APIError](err); ok {
		ae = v
	} else {
		return transportError(err)
	}
	e := &Error{
		Kind:       kindForStatus(ae.Code),
		StatusCode: ae.Code,
		Message:    ae.Message, // cleaned by the client (providerMessage)
		RetryAfter: googleRetryDelay(ae.Details),
		Err:        err,
	}
	switch {
	case e.Kind != KindInvalidRequest:
	case strings.Contains(strings.ToLower(ae.Message), "api key"):
		e.Kind = KindAuth
	case looksLikeContextOverflow(ae.Message):
		e.Kind = KindContextTooLong
	}
	return e
}

// googleRetryDelay reads the retry delay Google APIs put in a
// google.rpc.RetryInfo detail (they send no Retry-After header).
func googleRetryDelay(details []map[string]any) time.Duration {
	for _, d := range details {
		if t, _ := d["@type"].(string); !strings.HasSuffix(t, "google.rpc.RetryInfo") {
			continue
		}
		s, _ := d["retryDelay"].(string)
		if delay, err := time.ParseDuration(s); err == nil && delay > 0 {
			return delay
		}
	}
	return 0
}
