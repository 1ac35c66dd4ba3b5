package llm

import (
	"encoding/json"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
)

// Role says who wrote a message.
type Role string

// The roles of a conversation. The system prompt is not a message: it is
// Request.System.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	// RoleTool carries the result of a tool call back to the model.
	RoleTool Role = "tool"
)

// Message is one turn of the conversation sent to the model.
type Message struct {
	Role Role
	// Content is the text: the learner's words, the model's earlier reply, or
	// a tool's result.
	Content string
	// ToolCalls are the calls an assistant message made.
	ToolCalls []ToolCall
	// ToolCallID names the call a tool message answers.
	ToolCallID string
	// IsError marks a tool message whose tool failed; Content says how.
	IsError bool
}

// ToolCall is the model's request to run a tool.
type ToolCall struct {
	ID   string
	Name string
	// Arguments is a JSON object. Validate it with the tool's Parameters
	// schema before use: not every provider enforces it.
	Arguments json.RawMessage
	// Signature is opaque provider state that must be sent back with the call
	// in the next request: Gemini's thought signature, or the thinking that
	// came before Anthropic's calls (on a reply's first call). Empty
	// elsewhere.
	Signature []byte
}

// Tool describes a function the model may call.
type Tool struct {
	// Name must match ^[a-zA-Z0-9_-]{1,64}$, the strictest of the providers.
	Name        string
	Description string
	// Parameters is the schema of the arguments; nil means no arguments.
	Parameters *Schema
}

// ToolChoiceMode says whether and how the model must call tools.
type ToolChoiceMode string

// The tool choice modes. The zero value means auto.
const (
	ToolChoiceAuto     ToolChoiceMode = "auto"
	ToolChoiceNone     ToolChoiceMode = "none"
	ToolChoiceRequired ToolChoiceMode = "required"
	// ToolChoiceTool forces the tool named in ToolChoice.Name.
	ToolChoiceTool ToolChoiceMode = "tool"
)

// ToolChoice constrains tool use. It only applies when Request.Tools is set.
type ToolChoice struct {
	Mode ToolChoiceMode
	Name string
}

// Effort is how much the model should reason before answering. Each adapter
// maps it to its provider's setting (reasoning_effort, thinking budget,
// thinking level). The zero value leaves the provider's default.
type Effort string

// The reasoning efforts.
const (
	EffortDefault Effort = ""
	// EffortNone asks for no reasoning; a model that cannot stop
	// reasoning reasons as little as it can.
	EffortNone Effort = "none"
	// EffortMinimal asks for the least reasoning a model does when it
	// reasons: OpenAI's GPT-5 "minimal", Gemini 3 Flash's minimal thinking
	// level, Anthropic's smallest thinking budget. A model without such a
	// level gets its lowest one ("low").
	EffortMinimal Effort = "minimal"
	EffortLow     Effort = "low"
	EffortMedium  Effort = "medium"
	EffortHigh    Effort = "high"
)

// ParseEffort returns the effort named s; "" is EffortDefault.
func ParseEffort(s string) (Effort, error) {
	switch e := Effort(s); e {
	case EffortDefault, EffortNone, EffortMinimal, EffortLow, EffortMedium, EffortHigh:
		return e, nil
	}
	return "", fmt.Errorf("%w: unknown reasoning effort %q (want none, minimal, low, medium or high)", ErrInvalidConfig, s)
}

// CallInfo says on whose behalf a call is made. It is written to the usage
// record and used for the learner's budget; it is never sent to the provider.
type CallInfo struct {
	LearnerID string
	SessionID string
	Component Component
}

// Request is one call to a model.
type Request struct {
	Call CallInfo

	System   string
	Messages []Message

	// Output asks for a JSON document valid against this schema instead of
	// free text. Structured sets it from a Go type.
	Output *Schema

	Tools      []Tool
	ToolChoice ToolChoice

	// Temperature, MaxOutputTokens and Effort override the component's
	// configuration when set. MaxOutputTokens caps the reply's output
	// tokens on every provider, reasoning included, as Usage.OutputTokens
	// counts them: a high effort under a small limit may leave little room
	// for the answer. Zero leaves the adapter's default.
	Temperature     *float64
	MaxOutputTokens int
	Effort          Effort

	// Timeout bounds the whole call, retries and the wait for the
	// learner's turn under a Budget included; zero means the client's
	// default.
	Timeout time.Duration
}

// validate checks what every provider would reject, so that a malformed
// request fails before it costs a round trip.
func (r *Request) validate() error {
	if len(r.Messages) == 0 {
		return fmt.Errorf("no messages")
	}
	tools := make(map[string]bool, len(r.Tools))
	for i, t := range r.Tools {
		if !validName(t.Name) {
			return fmt.Errorf("tool %d: name %q must match ^[a-zA-Z0-9_-]{1,64}$", i, t.Name)
		}
		if tools[t.Name] {
			return fmt.Errorf("tool %q declared twice", t.Name)
		}
		tools[t.Name] = true
	}
	if r.Output != nil && tools[r.Output.Name()] {
		return fmt.Errorf("tool %q has the name of the output schema", r.Output.Name())
	}
	switch r.ToolChoice.Mode {
	case "", ToolChoiceAuto, ToolChoiceNone, ToolChoiceRequired:
	case ToolChoiceTool:
		if !tools[r.ToolChoice.Name] {
			return fmt.Errorf("tool choice names %q, which is not among the tools", r.ToolChoice.Name)
		}
	default:
		return fmt.Errorf("unknown tool choice %q", r.ToolChoice.Mode)
	}
	if r.ToolChoice.Mode != "" && len(r.Tools) == 0 {
		return fmt.Errorf("tool choice %q without tools", r.ToolChoice.Mode)
	}
	if t := r.Temperature; t != nil && (math.IsNaN(*t) || *t < 0 || *t > 2) {
		return fmt.Errorf("temperature %v is outside [0, 2]", *t)
	}
	if r.MaxOutputTokens < 0 {
		return fmt.Errorf("max output tokens %d is negative", r.MaxOutputTokens)
	}
	if _, err := ParseEffort(string(r.Effort)); err != nil {
		return err
	}
	if r.Timeout < 0 {
		return fmt.Errorf("timeout %s is negative", r.Timeout)
	}
	calls := make(map[string]bool)
	for i, m := range r.Messages {
		switch m.Role {
		case RoleUser:
		case RoleAssistant:
			if m.Content == "" && len(m.ToolCalls) == 0 {
				return fmt.Errorf("message %d: assistant message without content or tool calls", i)
			}
			for _, c := range m.ToolCalls {
				if c.ID == "" || c.Name == "" {
					return fmt.Errorf("message %d: tool call without id or name", i)
				}
				if len(c.Arguments) > 0 && !isJSONObject(c.Arguments) {
					return fmt.Errorf("message %d: tool call %s: arguments are not a JSON object", i, c.ID)
				}
				calls[c.ID] = true
			}
		case RoleTool:
			if !calls[m.ToolCallID] {
				return fmt.Errorf("message %d: tool result for %q, which no earlier message called", i, m.ToolCallID)
			}
		default:
			return fmt.Errorf("message %d: unknown role %q", i, m.Role)
		}
	}
	return nil
}

func isJSONObject(b []byte) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(b, &m) == nil && m != nil
}

// validName reports whether s is a valid tool or schema name for every
// provider: OpenAI and Anthropic both require ^[a-zA-Z0-9_-]{1,64}$.
func validName(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for _, c := range []byte(s) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// noArguments is the schema of a tool without parameters. Building it
// cannot fail; it is made once, like SchemaFor's cache.
var noArguments = sync.OnceValue(func() *Schema {
	s, _ := NewSchema("no_arguments", &jsonschema.Schema{Type: "object"})
	return s
})

func toolSchema(t Tool) *Schema {
	if t.Parameters == nil {
		return noArguments()
	}
	return t.Parameters
}

func argumentsOrEmpty(args json.RawMessage) json.RawMessage {
	if len(args) == 0 {
		return json.RawMessage(`{}`)
	}
	return args
}
