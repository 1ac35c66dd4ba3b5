package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/shared"
)

// openaiDefaultBaseURL is set explicitly because the SDK would otherwise
// read OPENAI_BASE_URL from the process environment.
const openaiDefaultBaseURL = "https://api.openai.com/v1/"

// openaiBackend speaks Chat Completions to OpenAI or, with compat set, to an
// OpenAI-compatible server.
type openaiBackend struct {
	client openai.Client
	compat bool
}

func newOpenAIBackend(baseURL, apiKey string, compat bool, hc *http.Client) *openaiBackend {
	opts := []option.RequestOption{
		// The SDK reads OPENAI_* variables from the process environment and
		// offers no way to stop it; every setting they could carry that
		// matters (endpoint, credentials, organisation) is overridden here,
		// so that a key can never be sent to another server.
		option.WithBaseURL(baseURL),
		option.WithAPIKey(apiKey),
		option.WithAdminAPIKey(""),
		option.WithHeaderDel("OpenAI-Organization"),
		option.WithHeaderDel("OpenAI-Project"),
		option.WithMaxRetries(0), // the client owns the retry loop
	}
	if hc != nil {
		opts = append(opts, option.WithHTTPClient(hc))
	}
	return &openaiBackend{client: openai.NewClient(opts...), compat: compat}
}

func (b *openaiBackend) generate(ctx context.Context, model string, req *Request) (*Response, error) {
	params, err := toOpenAIRequest(model, req, b.compat)
	if err != nil {
		return nil, notSent(err)
	}
	c, err := b.client.Chat.Completions.New(ctx, params)
	if err != nil {
		return nil, openaiError(err)
	}
	return fromOpenAIResponse(c)
}

func (b *openaiBackend) stream(ctx context.Context, model string, req *Request, onEvent func(), onDelta func(Delta) error) (*Response, error) {
	params, err := toOpenAIRequest(model, req, b.compat)
	if err != nil {
		return nil, notSent(err)
	}
	params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
	s := b.client.Chat.Completions.NewStreaming(ctx, params)
	defer s.Close()
	acc := &openai.ChatCompletionAccumulator{}
	received := false
	// billed returns, with the error of a stream that ends early (its
	// consumer or the caller stopped it, or it broke), the tokens billed so
	// far. OpenAI reports usage in the stream's last chunk only, after the
	// last delta: a stream stopped before it has none, though the provider
	// billed the prompt and what it generated. Without a count, the tokens
	// are estimated (openaiEstimatedUsage) rather than recorded as none, so
	// that the learner's budget sees them. A stream that sent nothing was
	// refused before generating and is billed nothing.
	billed := func() *Response {
		if !received {
			return nil
		}
		if u := acc.Usage; u.PromptTokens > 0 || u.CompletionTokens > 0 {
			return &Response{Usage: openaiUsage(u)}
		}
		return &Response{Usage: openaiEstimatedUsage(req, &acc.ChatCompletion)}
	}
	for s.Next() {
		onEvent()
		received = true
		chunk := s.Current()
		if !acc.AddChunk(chunk) {
			return billed(), &Error{Kind: KindInvalidOutput, Message: "inconsistent stream from the provider"}
		}
		for _, ch := range chunk.Choices {
			if ch.Index != 0 {
				continue
			}
			if ch.Delta.Content != "" {
				if err := onDelta(Delta{Text: ch.Delta.Content}); err != nil {
					return billed(), err
				}
			}
			for _, tc := range ch.Delta.ToolCalls {
				d := &ToolCallDelta{Index: int(tc.Index), ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments}
				if err := onDelta(Delta{ToolCall: d}); err != nil {
					return billed(), err
				}
			}
		}
	}
	if err := s.Err(); err != nil {
		return billed(), openaiError(err)
	}
	if !received {
		return nil, notAStreamError()
	}
	resp, err := fromOpenAIResponse(&acc.ChatCompletion)
	if resp != nil && resp.Usage == (Usage{}) {
		// The server ignored include_usage (some OpenAI-compatible ones
		// do): an estimate serves better than no tokens at all.
		resp.Usage = openaiEstimatedUsage(req, &acc.ChatCompletion)
	}
	return resp, err
}

// toOpenAIRequest converts req to Chat Completions parameters. compat
// selects the dialect of OpenAI-compatible servers.
func toOpenAIRequest(model string, req *Request, compat bool) (openai.ChatCompletionNewParams, error) {
	p := openai.ChatCompletionNewParams{Model: model}
	if req.System != "" {
		p.Messages = append(p.Messages, openai.SystemMessage(req.System))
	}
	for _, m := range req.Messages {
		switch m.Role {
		case RoleUser:
			p.Messages = append(p.Messages, openai.UserMessage(m.Content))
		case RoleAssistant:
			a := &openai.ChatCompletionAssistantMessageParam{}
			if m.Content != "" {
				a.Content.OfString = param.NewOpt(m.Content)
			}
			for _, c := range m.ToolCalls {
				a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
					OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
						ID: c.ID,
						Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{
							Name:      c.Name,
							Arguments: string(argumentsOrEmpty(c.Arguments)),
						},
					},
				})
			}
			p.Messages = append(p.Messages, openai.ChatCompletionMessageParamUnion{OfAssistant: a})
		case RoleTool:
			p.Messages = append(p.Messages, openai.ToolMessage(toolResultText(m), m.ToolCallID))
		default:
			return p, &Error{Kind: KindInvalidRequest, Message: fmt.Sprintf("unknown role %q", m.Role)}
		}
	}

	if s := req.Output; s != nil {
		p.ResponseFormat.OfJSONSchema = &shared.ResponseFormatJSONSchemaParam{
			JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{
				Name:   s.Name(),
				Schema: s.strict,
				Strict: openai.Bool(true),
			},
		}
	}
	for _, t := range req.Tools {
		fn := shared.FunctionDefinitionParam{Name: t.Name, Strict: openai.Bool(true)}
		if t.Description != "" {
			fn.Description = openai.String(t.Description)
		}
		fn.Parameters = toolSchema(t).strictMembers
		p.Tools = append(p.Tools, openai.ChatCompletionFunctionTool(fn))
	}
	if len(req.Tools) > 0 {
		switch req.ToolChoice.Mode {
		case "", ToolChoiceAuto:
		case ToolChoiceNone, ToolChoiceRequired:
			p.ToolChoice.OfAuto = param.NewOpt(string(req.ToolChoice.Mode))
		case ToolChoiceTool:
			p.ToolChoice.OfFunctionToolChoice = &openai.ChatCompletionNamedToolChoiceParam{
				Function: openai.ChatCompletionNamedToolChoiceFunctionParam{Name: req.ToolChoice.Name},
			}
		}
	}

	reasoning := !compat && openaiReasoningModel(model)
	// OpenAI's reasoning models reject temperature, except GPT-5.1 and
	// later with reasoning effort none, which is also their default.
	noEffort := req.Effort == EffortNone || req.Effort == EffortDefault
	samples := !reasoning || noEffort && openaiEffort(model, EffortNone) == shared.ReasoningEffortNone
	if req.Temperature != nil && samples {
		p.Temperature = openai.Float(*req.Temperature)
	}
	if req.MaxOutputTokens > 0 {
		if compat {
			// Ollama, llama.cpp and LM Studio know max_tokens only.
			p.MaxTokens = openai.Int(int64(req.MaxOutputTokens))
		} else {
			// OpenAI deprecated max_tokens; reasoning models reject it.
			p.MaxCompletionTokens = openai.Int(int64(req.MaxOutputTokens))
		}
	}
	switch {
	case req.Effort == EffortDefault:
	case compat:
		// Servers that do not reason ignore the field; those that do (gpt-oss
		// on vLLM, Ollama) understand OpenAI's values but minimal, which
		// Ollama refuses (400): low is the least they all take.
		effort := req.Effort
		if effort == EffortMinimal {
			effort = EffortLow
		}
		p.ReasoningEffort = shared.ReasoningEffort(effort)
	case reasoning:
		p.ReasoningEffort = openaiEffort(model, req.Effort)
	}
	return p, nil
}

// openaiReasoningModel reports whether model takes reasoning_effort (and
// refuses temperature): the o-series and GPT-5 families.
func openaiReasoningModel(model string) bool {
	m := strings.ToLower(model)
	if strings.HasPrefix(m, "gpt-5") {
		return !strings.Contains(m, "chat") // gpt-5-chat-latest does not reason
	}
	return len(m) > 1 && m[0] == 'o' && m[1] >= '1' && m[1] <= '9'
}

// openaiEffort maps an effort to reasoning_effort. "none" exists from
// GPT-5.1 on; earlier reasoning models get their lowest setting. "minimal"
// exists on GPT-5 only (GPT-5.1 replaced it with none); the others get
// their lowest setting that still reasons, "low".
func openaiEffort(model string, e Effort) shared.ReasoningEffort {
	if e != EffortNone && e != EffortMinimal {
		return shared.ReasoningEffort(e)
	}
	m := strings.ToLower(model)
	switch {
	case m == "gpt-5" || strings.HasPrefix(m, "gpt-5-"):
		return shared.ReasoningEffortMinimal
	case e == EffortMinimal || strings.HasPrefix(m, "o"):
		return shared.ReasoningEffortLow
	}
	return shared.ReasoningEffortNone
}

// fromOpenAIResponse converts a chat completion. A refusal or a content
// filter stop is an error of kind KindRefused; the response is returned with
// it for its usage.
func fromOpenAIResponse(c *openai.ChatCompletion) (*Response, error) {
	resp := &Response{Model: c.Model, Usage: openaiUsage(c.Usage)}
	if len(c.Choices) == 0 {
		return resp, &Error{Kind: KindInvalidOutput, Message: "the reply has no choices"}
	}
	ch := c.Choices[0]
	if ch.Message.Refusal != "" {
		return resp, &Error{Kind: KindRefused, Message: "the model refused: " + truncate(ch.Message.Refusal, 300)}
	}
	switch ch.FinishReason {
	case "stop":
		resp.StopReason = StopEnd
	case "length":
		resp.StopReason = StopMaxTokens
	case "tool_calls", "function_call":
		resp.StopReason = StopToolUse
	case "content_filter":
		return resp, &Error{Kind: KindRefused, Message: "the provider's content filter stopped the reply"}
	default:
		resp.StopReason = StopOther
	}
	resp.Text = ch.Message.Content
	for _, tc := range ch.Message.ToolCalls {
		if tc.Type != "" && tc.Type != "function" {
			continue
		}
		args := json.RawMessage(tc.Function.Arguments)
		if len(args) == 0 {
			args = json.RawMessage(`{}`)
		}
		if !json.Valid(args) {
			return resp, &Error{Kind: KindInvalidOutput, Message: fmt.Sprintf("tool call %s has arguments that are not JSON", tc.Function.Name)}
		}
		resp.ToolCalls = append(resp.ToolCalls, ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: args})
	}
	return resp, nil
}

func openaiUsage(u openai.CompletionUsage) Usage {
	return Usage{
		// prompt_tokens includes cached_tokens, as InputTokens does.
		InputTokens:       u.PromptTokens,
		OutputTokens:      u.CompletionTokens,
		CachedInputTokens: u.PromptTokensDetails.CachedTokens,
	}
}

// openaiEstimatedUsage estimates the tokens of a call whose stream ended
// before OpenAI reported them, or whose server never reports them: the
// prompt of req (see estimatedPromptTokens)
// and the part of the reply in c. It is a rough count, and a floor for
// reasoning models, whose hidden reasoning it cannot see; the usage record
// says it is an estimate, which serves the budget better than the zero it
// replaces.
func openaiEstimatedUsage(req *Request, c *openai.ChatCompletion) Usage {
	out := 0
	for _, ch := range c.Choices {
		if ch.Index != 0 {
			continue
		}
		out += len(ch.Message.Content) + len(ch.Message.Refusal)
		for _, tc := range ch.Message.ToolCalls {
			out += len(tc.Function.Name) + len(tc.Function.Arguments)
		}
	}
	return Usage{InputTokens: estimatedPromptTokens(req), OutputTokens: estimatedTokens(out), Estimated: true}
}

// openaiError maps an error of the openai SDK.
func openaiError(err error) *Error {
	if k := contextKind(err); k != "" {
		return &Error{Kind: k, Err: err}
	}
	ae, ok := errors.AsType[*openai.Error](err)
	if !ok {
		return transportError(err)
	}
	e := &Error{
		Kind:       kindForStatus(ae.StatusCode),
		StatusCode: ae.StatusCode,
		Message:    ae.Message, // cleaned by the client (providerMessage)
		Err:        err,
	}
	if ae.Response != nil {
		e.RetryAfter = retryAfter(ae.Response.Header)
	}
	switch {
	case ae.Code == "insufficient_quota":
		// A 429 too, but no wait brings the credit back: an account
		// problem for an admin, not a rate limit to retry.
		e.Kind, e.RetryAfter = KindAuth, 0
	case e.Kind == KindRateLimited && strings.Contains(strings.ToLower(ae.Message), "request too large"):
		// "Request too large for gpt-4o … on tokens per min (TPM): Limit
		// 30000, Requested 41563": a 429 too, but the request alone is over
		// the whole per-minute limit, so no wait lets it through.
		e.Kind, e.RetryAfter = KindContextTooLong, 0
	}
	if e.Kind == KindInvalidRequest {
		switch {
		// exceed_context_size_error is llama.cpp's type for it.
		case ae.Code == "context_length_exceeded" || ae.Type == "exceed_context_size_error" || looksLikeContextOverflow(ae.Message):
			e.Kind = KindContextTooLong
		case ae.Code == "content_policy_violation" || ae.Code == "content_filter" || ae.Code == "invalid_prompt":
			e.Kind = KindRefused
		case ae.Code == "invalid_api_key":
			e.Kind = KindAuth
		}
	}
	return e
}

// toolResultText marks failed tool results for providers that have no flag
// for them.
func toolResultText(m Message) string {
	if m.IsError {
		return "Error: " + m.Content
	}
	return m.Content
}
