package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
)

// anthropicDefaultMaxTokens is used when neither the request nor the
// configuration sets a limit: the Messages API requires one.
const anthropicDefaultMaxTokens = 4096

// anthropicMinThinkingBudget is the smallest thinking budget the API takes.
const anthropicMinThinkingBudget = 1024

// anthropicThinkingBudget maps an effort to an extended-thinking budget in
// tokens (minimal and low both get the API's minimum). max_tokens counts
// thinking: when the request sets no limit, the budget is added to the
// adapter's default, so that the answer keeps its own allowance; a limit
// the request sets is kept, thinking included, as OpenAI and Gemini keep
// theirs (see toAnthropicRequest).
func anthropicThinkingBudget(e Effort) int64 {
	switch e {
	case EffortMinimal, EffortLow:
		return anthropicMinThinkingBudget
	case EffortMedium:
		return 4096
	case EffortHigh:
		return 16384
	}
	return 0
}

// anthropicAdaptive reports whether a model thinks adaptively
// (thinking.type adaptive with an effort) rather than to a token budget,
// which Anthropic deprecated from Claude 4.6 on.
func anthropicAdaptive(model string) bool {
	return strings.HasPrefix(model, "claude-opus-4-6")
}

type anthropicBackend struct {
	client anthropic.Client
}

func newAnthropicBackend(baseURL, apiKey string, hc *http.Client) *anthropicBackend {
	opts := []option.RequestOption{
		// Settings come from our caller, never from ANTHROPIC_* variables
		// or profile files the SDK would otherwise read.
		option.WithoutEnvironmentDefaults(),
		option.WithAPIKey(apiKey),
		option.WithMaxRetries(0), // the client owns the retry loop
	}
	if baseURL != "" {
		opts = append(opts, option.WithBaseURL(baseURL))
	}
	if hc != nil {
		opts = append(opts, option.WithHTTPClient(hc))
	}
	return &anthropicBackend{client: anthropic.NewClient(opts...)}
}

func (b *anthropicBackend) generate(ctx context.Context, model string, req *Request) (*Response, error) {
	params, outputTool, err := toAnthropicRequest(model, req)
	if err != nil {
		return nil, notSent(err)
	}
	// The SDK refuses, before sending anything, a non-streaming request
	// whose max_tokens could take it over ten minutes, unless the request
	// has a timeout of its own. The call's deadline is the caller's (ctx);
	// this only tells the SDK one is in force.
	timeout := anthropicRequestTimeout
	if d, ok := ctx.Deadline(); ok {
		timeout = max(time.Until(d), time.Second)
	}
	msg, err := b.client.Messages.New(ctx, params, option.WithRequestTimeout(timeout))
	if err != nil {
		return nil, anthropicError(err)
	}
	return fromAnthropicResponse(msg, outputTool)
}

// anthropicRequestTimeout is a request's timeout when its context has no
// deadline.
const anthropicRequestTimeout = 10 * time.Minute

func (b *anthropicBackend) stream(ctx context.Context, model string, req *Request, onEvent func(), onDelta func(Delta) error) (*Response, error) {
	params, outputTool, err := toAnthropicRequest(model, req)
	if err != nil {
		return nil, notSent(err)
	}
	s := b.client.Messages.NewStreaming(ctx, params)
	defer s.Close()
	var msg anthropic.Message
	// billed returns, with the error of a stream that ends early (its
	// consumer or the caller stopped it, or it broke), the tokens counted so
	// far: message_start reports the prompt's, which the provider bills,
	// and message_delta the reply's.
	billed := func() *Response { return &Response{Usage: anthropicUsage(msg.Usage)} }
	deltas := anthropicDeltas{outputTool: outputTool, outputIndex: -1, calls: map[int64]int{}}
	received := false
	for s.Next() {
		onEvent()
		received = true
		ev := s.Current()
		if err := msg.Accumulate(ev); err != nil {
			return billed(), &Error{Kind: KindInvalidOutput, Message: "inconsistent stream: " + truncate(err.Error(), 200), Err: err}
		}
		if d, ok := deltas.next(ev); ok {
			if err := onDelta(d); err != nil {
				return billed(), err
			}
		}
	}
	if err := s.Err(); err != nil {
		return billed(), anthropicError(err)
	}
	if !received {
		return nil, notAStreamError()
	}
	return fromAnthropicResponse(&msg, outputTool)
}

// anthropicDeltas turns stream events into deltas.
type anthropicDeltas struct {
	outputTool  string
	outputIndex int64         // content block of the output tool, or -1
	calls       map[int64]int // content block → index among the caller's tool calls
}

func (a *anthropicDeltas) next(ev anthropic.MessageStreamEventUnion) (Delta, bool) {
	switch ev.Type {
	case "content_block_start":
		cb := ev.ContentBlock
		switch {
		case cb.Type != "tool_use":
		case cb.Name == a.outputTool:
			a.outputIndex = ev.Index
		default:
			i := len(a.calls)
			a.calls[ev.Index] = i
			return Delta{ToolCall: &ToolCallDelta{Index: i, ID: cb.ID, Name: cb.Name}}, true
		}
	case "content_block_delta":
		switch d := ev.Delta; {
		case d.Type == "text_delta" && d.Text != "":
			return Delta{Text: d.Text}, true
		case d.Type != "input_json_delta" || d.PartialJSON == "":
		case ev.Index == a.outputIndex:
			// The output tool's input is the structured answer: stream it
			// as text, as the other providers do.
			return Delta{Text: d.PartialJSON}, true
		default:
			if i, ok := a.calls[ev.Index]; ok {
				return Delta{ToolCall: &ToolCallDelta{Index: i, Arguments: d.PartialJSON}}, true
			}
		}
	}
	return Delta{}, false
}

// toAnthropicRequest converts req to Messages API parameters. When req asks
// for structured output without extended thinking or tools of its own, the
// output schema becomes a strict tool the model is forced to call; its name
// is returned so that the reply can be read back. Otherwise the schema goes
// into output_config.format, because the API does not allow a forced tool
// together with extended thinking.
func toAnthropicRequest(model string, req *Request) (anthropic.MessageNewParams, string, error) {
	p := anthropic.MessageNewParams{
		Model:     anthropic.Model(model),
		MaxTokens: int64(req.MaxOutputTokens),
	}
	if p.MaxTokens == 0 {
		p.MaxTokens = anthropicDefaultMaxTokens
	}
	if req.System != "" {
		// Marked for caching: a session's system prompt is the same on every turn.
		p.System = []anthropic.TextBlockParam{{Text: req.System, CacheControl: anthropic.NewCacheControlEphemeralParam()}}
	}
	// Consecutive messages of one role form one turn: the tool results of a
	// turn must all be in the user message that follows it.
	type turn struct {
		user   bool
		blocks []anthropic.ContentBlockParamUnion
	}
	var turns []turn
	for _, m := range req.Messages {
		var t turn
		switch m.Role {
		case RoleUser:
			t = turn{true, []anthropic.ContentBlockParamUnion{anthropic.NewTextBlock(m.Content)}}
		case RoleAssistant:
			for _, c := range m.ToolCalls {
				// The reply's thinking, which the API wants back, first.
				blocks, err := anthropicThinkingBlocks(c.Signature)
				if err != nil {
					return p, "", err
				}
				t.blocks = append(t.blocks, blocks...)
			}
			if m.Content != "" {
				t.blocks = append(t.blocks, anthropic.NewTextBlock(m.Content))
			}
			for _, c := range m.ToolCalls {
				t.blocks = append(t.blocks, anthropic.NewToolUseBlock(c.ID, argumentsOrEmpty(c.Arguments), c.Name))
			}
		case RoleTool:
			// Tool results travel in a user message. A tool with no output
			// sends no content: the API refuses an empty text block.
			block := anthropic.NewToolResultBlock(m.ToolCallID, m.Content, m.IsError)
			if strings.TrimSpace(m.Content) == "" {
				block.OfToolResult.Content = nil
			}
			t = turn{true, []anthropic.ContentBlockParamUnion{block}}
		default:
			return p, "", &Error{Kind: KindInvalidRequest, Message: fmt.Sprintf("unknown role %q", m.Role)}
		}
		if n := len(turns); n > 0 && turns[n-1].user == t.user {
			turns[n-1].blocks = append(turns[n-1].blocks, t.blocks...)
			continue
		}
		turns = append(turns, t)
	}
	for _, t := range turns {
		if t.user {
			p.Messages = append(p.Messages, anthropic.NewUserMessage(t.blocks...))
		} else {
			p.Messages = append(p.Messages, anthropic.NewAssistantMessage(t.blocks...))
		}
	}

	// A forced tool choice cannot be combined with extended thinking: the
	// call the caller forces wins, and the model does not think first.
	forced := len(req.Tools) > 0 && (req.ToolChoice.Mode == ToolChoiceRequired || req.ToolChoice.Mode == ToolChoiceTool)
	// MaxOutputTokens caps the reply with its thinking, as on the other
	// providers (max_tokens counts both); only a request without a limit
	// gets room for thinking beside the adapter's default.
	limited := req.MaxOutputTokens > 0
	switch budget := anthropicThinkingBudget(req.Effort); {
	case forced:
	case budget > 0 && anthropicAdaptive(model):
		// Budgeted thinking is deprecated on these models: they decide
		// how much to think, guided by the effort, within max_tokens.
		// Their efforts are low, medium, high and max: minimal is low.
		effort := req.Effort
		if effort == EffortMinimal {
			effort = EffortLow
		}
		p.Thinking.OfAdaptive = &anthropic.ThinkingConfigAdaptiveParam{}
		p.OutputConfig.Effort = anthropic.OutputConfigEffort(effort)
		if !limited {
			p.MaxTokens += budget
		}
	case budget > 0 && !limited:
		p.Thinking = anthropic.ThinkingConfigParamOfEnabled(budget)
		p.MaxTokens += budget
	case budget > 0 && p.MaxTokens > anthropicMinThinkingBudget:
		// The API wants the budget below max_tokens. A limit that leaves
		// no room for the smallest budget leaves none to think.
		p.Thinking = anthropic.ThinkingConfigParamOfEnabled(min(budget, p.MaxTokens-1))
	case req.Effort == EffortNone:
		p.Thinking.OfDisabled = &anthropic.ThinkingConfigDisabledParam{}
	}
	// Messages API v2 has no sampling temperature: req.Temperature is not sent.

	for _, t := range req.Tools {
		p.Tools = append(p.Tools, anthropicTool(t.Name, t.Description, toolSchema(t)))
	}
	if len(req.Tools) > 0 {
		switch req.ToolChoice.Mode {
		case "", ToolChoiceAuto:
		case ToolChoiceNone:
			p.ToolChoice.OfNone = &anthropic.ToolChoiceNoneParam{}
		case ToolChoiceRequired:
			p.ToolChoice.OfAny = &anthropic.ToolChoiceAnyParam{}
		case ToolChoiceTool:
			p.ToolChoice = anthropic.ToolChoiceParamOfTool(req.ToolChoice.Name)
		}
	}

	outputTool := ""
	if s := req.Output; s != nil {
		if p.Thinking.OfEnabled != nil || p.Thinking.OfAdaptive != nil || len(req.Tools) > 0 {
			p.OutputConfig.Format = anthropic.JSONOutputFormatParam{Schema: s.anthropicMembers}
		} else {
			p.Tools = append(p.Tools, anthropicTool(s.Name(), "Give your answer by calling this tool: its input is your whole reply.", s))
			p.ToolChoice = anthropic.ToolChoiceParamOfTool(s.Name())
			outputTool = s.Name()
		}
	}
	return p, outputTool, nil
}

// anthropicTool declares a strict tool whose input schema is s.
func anthropicTool(name, description string, s *Schema) anthropic.ToolUnionParam {
	schema := anthropic.ToolInputSchemaParam{
		Properties:  s.anthropicMembers["properties"],
		Required:    s.required,
		ExtraFields: make(map[string]any, len(s.anthropicMembers)),
	}
	for k, v := range s.anthropicMembers {
		if k != "type" && k != "properties" && k != "required" {
			schema.ExtraFields[k] = v
		}
	}
	tool := &anthropic.ToolParam{Name: name, InputSchema: schema, Strict: anthropic.Bool(true)}
	if description != "" {
		tool.Description = anthropic.String(description)
	}
	return anthropic.ToolUnionParam{OfTool: tool}
}

// fromAnthropicResponse converts a message. outputTool names the forced
// output tool, whose input is the structured reply.
func fromAnthropicResponse(msg *anthropic.Message, outputTool string) (*Response, error) {
	resp := &Response{Model: string(msg.Model), Usage: anthropicUsage(msg.Usage)}
	switch msg.StopReason {
	case anthropic.StopReasonRefusal:
		why := "the model refused"
		if d := msg.StopDetails; d.Explanation != "" || d.Category != "" {
			why += " (" + strings.TrimSpace(string(d.Category)+": "+truncate(d.Explanation, 300)) + ")"
		}
		return resp, &Error{Kind: KindRefused, Message: why}
	case anthropic.StopReasonModelContextWindowExceeded:
		return resp, &Error{Kind: KindContextTooLong, Message: "the reply reached the end of the context window"}
	case anthropic.StopReasonMaxTokens:
		resp.StopReason = StopMaxTokens
	case anthropic.StopReasonToolUse:
		resp.StopReason = StopToolUse
	case anthropic.StopReasonEndTurn, anthropic.StopReasonStopSequence:
		resp.StopReason = StopEnd
	default:
		resp.StopReason = StopOther
	}
	var text strings.Builder
	var thinking []anthropicThinking
	for _, b := range msg.Content {
		switch b.Type {
		case "thinking":
			thinking = append(thinking, anthropicThinking{Type: b.Type, Thinking: b.Thinking, Signature: b.Signature})
		case "redacted_thinking":
			thinking = append(thinking, anthropicThinking{Type: b.Type, Data: b.Data})
		case "text":
			text.WriteString(b.Text)
		case "tool_use":
			if outputTool != "" && b.Name == outputTool {
				resp.Text = string(b.Input)
				continue
			}
			resp.ToolCalls = append(resp.ToolCalls, ToolCall{ID: b.ID, Name: b.Name, Arguments: argumentsOrEmpty(b.Input)})
		}
	}
	switch {
	case outputTool == "":
		resp.Text = text.String()
	case resp.Text == "":
		// The model answered in prose instead of calling the output tool;
		// validation will say so, and the repair prompt will ask again.
		resp.Text = text.String()
	}
	if outputTool != "" && resp.StopReason == StopToolUse && len(resp.ToolCalls) == 0 {
		resp.StopReason = StopEnd
	}
	if len(thinking) > 0 && len(resp.ToolCalls) > 0 {
		// With extended thinking, the assistant turn that called tools must
		// go back with its thinking, unchanged, ahead of the calls.
		sig, err := json.Marshal(thinking)
		if err != nil {
			return resp, err
		}
		resp.ToolCalls[0].Signature = sig
	}
	return resp, nil
}

func anthropicUsage(u anthropic.Usage) Usage {
	return Usage{
		// input_tokens excludes cache reads and writes; ours includes them.
		InputTokens:           u.InputTokens + u.CacheReadInputTokens + u.CacheCreationInputTokens,
		OutputTokens:          u.OutputTokens,
		CachedInputTokens:     u.CacheReadInputTokens,
		CacheWriteInputTokens: u.CacheCreationInputTokens,
	}
}

// anthropicThinking is a thinking or redacted_thinking block of a reply,
// kept in the Signature of the reply's first tool call.
type anthropicThinking struct {
	Type      string `json:"type"`
	Thinking  string `json:"thinking,omitempty"`
	Signature string `json:"signature,omitempty"`
	Data      string `json:"data,omitempty"`
}

// anthropicThinkingBlocks returns the thinking blocks kept in a tool
// call's signature (none when it is empty).
func anthropicThinkingBlocks(sig []byte) ([]anthropic.ContentBlockParamUnion, error) {
	if len(sig) == 0 {
		return nil, nil
	}
	var kept []anthropicThinking
	if err := json.Unmarshal(sig, &kept); err != nil {
		return nil, &Error{Kind: KindInvalidRequest, Message: "a tool call's signature is not an Anthropic reply's thinking: " + err.Error()}
	}
	blocks := make([]anthropic.ContentBlockParamUnion, len(kept))
	for i, k := range kept {
		switch k.Type {
		case "thinking":
			blocks[i] = anthropic.NewThinkingBlock(k.Signature, k.Thinking)
		case "redacted_thinking":
			blocks[i] = anthropic.NewRedactedThinkingBlock(k.Data)
		default:
			return nil, &Error{Kind: KindInvalidRequest, Message: fmt.Sprintf("a tool call's signature holds a %q block", k.Type)}
		}
	}
	return blocks, nil
}

// anthropicError maps an error of the anthropic SDK.
func anthropicError(err error) *Error {
	if k := contextKind(err); k != "" {
		return &Error{Kind: k, Err: err}
	}
	ae, ok := errors.AsType[*anthropic.Error](err)
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
	switch t := string(ae.Type()); {
	case t == "overloaded_error" || ae.StatusCode == 529:
		e.Kind = KindUnavailable
	case t == "rate_limit_error":
		e.Kind = KindRateLimited
	case t == "authentication_error" || t == "permission_error" || t == "billing_error":
		e.Kind = KindAuth
	case e.Kind == KindInvalidRequest && looksLikeContextOverflow(ae.Message):
		e.Kind = KindContextTooLong
	}
	return e
}
