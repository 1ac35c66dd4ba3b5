package llm

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// benchRequest is a tutor turn of realistic size: a 3 kB system prompt and
// a short conversation.
func benchRequest() Request {
	return Request{
		Call:   CallInfo{LearnerID: "learner-1", SessionID: "session-1", Component: ComponentTutor},
		System: strings.Repeat("You are a patient maths tutor for a grade 5 learner. ", 60),
		Messages: []Message{
			{Role: RoleUser, Content: "I think 1/2 + 1/4 is 2/6."},
			{Role: RoleAssistant, Content: "Let's check with a picture: what is half of a pizza plus a quarter?"},
			{Role: RoleUser, Content: "Three quarters, so 3/4!"},
		},
	}
}

// BenchmarkStructuredOverhead measures what a structured call costs besides
// the network, for the tutor's output shape: schema lookup, building the
// provider request and encoding it as the SDK does before sending it, then
// decoding and validating the reply (schema and Validate).
func BenchmarkStructuredOverhead(b *testing.B) {
	// encode builds a provider request and returns its JSON body.
	encode := map[string]func(*Request) ([]byte, error){
		"openai": func(r *Request) ([]byte, error) {
			p, err := toOpenAIRequest("gpt-5.2", r, false)
			if err != nil {
				return nil, err
			}
			return p.MarshalJSON() // what the SDK sends
		},
		"anthropic": func(r *Request) ([]byte, error) {
			p, _, err := toAnthropicRequest("claude-sonnet-4-5", r)
			if err != nil {
				return nil, err
			}
			return p.MarshalJSON()
		},
		"google": func(r *Request) ([]byte, error) {
			// genai re-encodes the request through maps of its own; the
			// plain encoding of our part stands in for it.
			contents, cfg, err := toGoogleRequest("gemini-2.5-flash", r)
			if err != nil {
				return nil, err
			}
			return json.Marshal(struct {
				Contents any `json:"contents"`
				Config   any `json:"generationConfig"`
			}{contents, cfg})
		},
	}
	for _, name := range []string{"openai", "anthropic", "google"} {
		b.Run(name, func(b *testing.B) {
			base := benchRequest()
			b.ReportAllocs()
			for b.Loop() {
				s, err := SchemaFor[tutorTurn]()
				if err != nil {
					b.Fatal(err)
				}
				req := base
				req.Output = s
				if _, err := encode[name](&req); err != nil {
					b.Fatal(err)
				}
				if _, err := decode[tutorTurn](s, validTurnJSON); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkStructuredClient runs Structured through the resilient client
// with an in-memory backend: everything but the SDK and the network
// (defaults, validation of the request, budget, breaker, prompt hash, usage
// record, decode and validation).
func BenchmarkStructuredClient(b *testing.B) {
	backend := &benchBackend{resp: Response{Text: validTurnJSON, StopReason: StopEnd, Usage: Usage{InputTokens: 1200, OutputTokens: 200}}}
	c := newClient(Config{Component: ComponentTutor, Provider: ProviderOpenAI, Model: "gpt-5.2"}, backend, DefaultPrices(),
		Options{Recorder: discardRecorder{}})
	req := benchRequest()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Structured[tutorTurn](ctx, c, req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecode isolates decoding and validating the tutor's output.
func BenchmarkDecode(b *testing.B) {
	s := mustSchema[tutorTurn](b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decode[tutorTurn](s, validTurnJSON); err != nil {
			b.Fatal(err)
		}
	}
}

type benchBackend struct{ resp Response }

func (b *benchBackend) generate(context.Context, string, *Request) (*Response, error) {
	r := b.resp
	return &r, nil
}

func (b *benchBackend) stream(ctx context.Context, model string, req *Request, _ func(), _ func(Delta) error) (*Response, error) {
	return b.generate(ctx, model, req)
}

type discardRecorder struct{}

func (discardRecorder) RecordUsage(context.Context, UsageRecord) error { return nil }
