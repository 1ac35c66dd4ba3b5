package llm

import "time"

// StopReason says why the model stopped.
type StopReason string

// The stop reasons. Refusals and safety blocks are not stop reasons: they are
// errors of kind KindRefused.
const (
	StopEnd       StopReason = "end"
	StopMaxTokens StopReason = "max_tokens"
	StopToolUse   StopReason = "tool_use"
	StopOther     StopReason = "other"
)

// Usage counts the tokens of a call.
type Usage struct {
	// InputTokens counts the whole prompt, cached tokens included.
	InputTokens int64
	// OutputTokens counts the reply, reasoning tokens included (they are
	// billed as output by every provider).
	OutputTokens int64
	// CachedInputTokens is the part of InputTokens read from the provider's
	// prompt cache, billed at a lower price.
	CachedInputTokens int64
	// CacheWriteInputTokens is the part of InputTokens written to the
	// provider's prompt cache, billed at a higher price (Anthropic's
	// cache_creation_input_tokens; the other providers charge nothing extra
	// and report none).
	CacheWriteInputTokens int64
	// Estimated says the counts are tutord's estimate, not the provider's:
	// a call billed without a report of its tokens (see
	// estimatedPromptTokens).
	Estimated bool
}

// Add returns the sum of u and v, estimated when either is.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		InputTokens:           u.InputTokens + v.InputTokens,
		OutputTokens:          u.OutputTokens + v.OutputTokens,
		CachedInputTokens:     u.CachedInputTokens + v.CachedInputTokens,
		CacheWriteInputTokens: u.CacheWriteInputTokens + v.CacheWriteInputTokens,
		Estimated:             u.Estimated || v.Estimated,
	}
}

// Response is a model's reply to one call.
type Response struct {
	// Text is the reply's text; for a request with an Output schema, the JSON
	// document (not yet validated: Structured does that).
	Text       string
	ToolCalls  []ToolCall
	StopReason StopReason
	Usage      Usage

	Provider Provider
	// Model is the model that answered, as the provider names it.
	Model string
	// Latency is the wall time of the call, retries and waits included.
	Latency time.Duration
	// Attempts is how many requests were sent (1 without retries).
	Attempts int
}

// Delta is one increment of a streamed reply: text or a piece of a tool call.
type Delta struct {
	Text     string
	ToolCall *ToolCallDelta
}

// ToolCallDelta is a piece of a tool call. The first piece of a call carries
// its ID and Name; later pieces with the same Index append to Arguments.
type ToolCallDelta struct {
	Index     int
	ID        string
	Name      string
	Arguments string
}

// bytesPerToken and tokensPerMessage are OpenAI's rules of thumb for
// counting tokens without a tokenizer: about four bytes of English text per
// token, and a few tokens of framing per message. The other providers'
// tokenizers differ, but not by enough to matter to a budget's estimate.
const (
	bytesPerToken    = 4
	tokensPerMessage = 4
)

// estimatedTokens estimates the tokens of n bytes of text.
func estimatedTokens(n int) int64 { return int64((n + bytesPerToken - 1) / bytesPerToken) }

// estimatedPromptTokens estimates the input tokens of req: its system
// prompt, messages, output schema and tools. It counts calls the provider
// billed without reporting their usage (see openaiEstimatedUsage and
// client.attempts).
func estimatedPromptTokens(req *Request) int64 {
	in := len(req.System)
	for _, m := range req.Messages {
		in += len(m.Content) + len(m.ToolCallID)
		for _, tc := range m.ToolCalls {
			in += len(tc.ID) + len(tc.Name) + len(tc.Arguments)
		}
	}
	if req.Output != nil {
		in += len(req.Output.strict)
	}
	for _, t := range req.Tools {
		in += len(t.Name) + len(t.Description) + len(toolSchema(t).strict)
	}
	return estimatedTokens(in) + int64(tokensPerMessage*(len(req.Messages)+1))
}
