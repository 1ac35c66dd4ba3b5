package llm

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"text/template"
)

// Validator is implemented by output types with rules a JSON Schema cannot
// express (ranges, relations between fields). Structured and Decode call it
// after schema validation, on a value or pointer receiver.
type Validator interface {
	Validate() error
}

// Result describes the model calls behind one structured answer: one, or two
// when the first reply had to be repaired. It is filled even when Structured
// fails, so that every call can be logged.
type Result struct {
	Calls []*Response
}

// Usage returns the tokens of all calls.
func (r Result) Usage() Usage {
	var u Usage
	for _, c := range r.Calls {
		u = u.Add(c.Usage)
	}
	return u
}

// Repaired reports whether a repair call was made.
func (r Result) Repaired() bool { return len(r.Calls) > 1 }

// Last returns the last call's response, or nil if no call returned one.
func (r Result) Last() *Response {
	if len(r.Calls) == 0 {
		return nil
	}
	return r.Calls[len(r.Calls)-1]
}

// Structured asks the model for a T. The request's Output is set to T's
// strict schema (SchemaFor). The reply is validated against that schema and
// T's Validator; if it fails, the model gets exactly one chance to repair it,
// with the validation error. If the repair fails too, the error is of kind
// KindInvalidOutput. A T is returned only when it passed every check.
//
// Structured is for answers, not tool loops: a reply that calls tools instead
// of answering is invalid output. Use Client.Generate with Tools for those.
func Structured[T any](ctx context.Context, c Client, req Request) (T, Result, error) {
	var zero T
	var res Result
	schema, err := SchemaFor[T]()
	if err != nil {
		return zero, res, &Error{Kind: KindInvalidRequest, Message: err.Error(), Err: err}
	}
	req.Output = schema

	resp, err := c.Generate(ctx, &req)
	if resp != nil {
		res.Calls = append(res.Calls, resp)
	}
	if err != nil {
		return zero, res, err
	}
	if err := cutOff(resp, &req); err != nil {
		// A repair would be cut off at the same limit: not worth a call.
		return zero, res, err
	}
	v, problem := decode[T](schema, resp.Text)
	if problem == nil {
		return v, res, nil
	}

	repair := req
	repair.Messages = append(slices.Clip(req.Messages),
		Message{Role: RoleAssistant, Content: nonEmpty(resp.Text)},
		Message{Role: RoleUser, Content: repairPrompt(schema, problem)},
	)
	resp, err = c.Generate(ctx, &repair)
	if resp != nil {
		res.Calls = append(res.Calls, resp)
	}
	if err != nil {
		return zero, res, err
	}
	if err := cutOff(resp, &repair); err != nil {
		return zero, res, err
	}
	v, problem = decode[T](schema, resp.Text)
	if problem != nil {
		return zero, res, &Error{
			Kind:     KindInvalidOutput,
			Provider: resp.Provider,
			Model:    resp.Model,
			Message:  "reply still invalid after one repair attempt: it " + truncate(problem.Error(), 300),
			Err:      problem,
		}
	}
	return v, res, nil
}

// cutOff reports a reply that the output limit cut off before its JSON
// ended: invalid output, said as such.
func cutOff(resp *Response, req *Request) error {
	if resp.StopReason != StopMaxTokens {
		return nil
	}
	return &Error{
		Kind:     KindInvalidOutput,
		Provider: resp.Provider,
		Model:    resp.Model,
		Message:  fmt.Sprintf("reply cut off at the output limit (max_output_tokens %d): raise the limit", req.MaxOutputTokens),
	}
}

// Decode parses a model's JSON output into a T and validates it as
// Structured does. Errors are of kind KindInvalidOutput.
func Decode[T any](data []byte) (T, error) {
	var zero T
	schema, err := SchemaFor[T]()
	if err != nil {
		return zero, &Error{Kind: KindInvalidRequest, Message: err.Error(), Err: err}
	}
	v, problem := decode[T](schema, string(data))
	if problem != nil {
		return zero, &Error{Kind: KindInvalidOutput, Message: "output " + truncate(problem.Error(), 300), Err: problem}
	}
	return v, nil
}

// decode returns a T that passed every check, or an error that completes the
// sentence "the reply …", for the repair prompt.
func decode[T any](schema *Schema, text string) (T, error) {
	var zero T
	data := []byte(stripCodeFence(text))
	// Validate the document itself, not the Go value: encoding/json ignores
	// unknown fields, matches names case-insensitively and turns null into
	// zero values, all of which the schema must see.
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		return zero, fmt.Errorf("is not valid JSON: %v", err)
	}
	if err := schema.validateValue(doc); err != nil {
		return zero, err
	}
	var v T
	if err := json.Unmarshal(data, &v); err != nil {
		return zero, fmt.Errorf("cannot be decoded: %v", err)
	}
	if val, ok := any(&v).(Validator); ok {
		if err := val.Validate(); err != nil {
			return zero, fmt.Errorf("breaks a rule: %w", err)
		}
	}
	return v, nil
}

// stripCodeFence removes a Markdown code fence around a JSON document, which
// servers without strict mode sometimes add.
func stripCodeFence(s string) string {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "```") || !strings.HasSuffix(s, "```") || len(s) < 6 {
		return s
	}
	body := s[3 : len(s)-3]
	if i := strings.IndexByte(body, '\n'); i >= 0 {
		body = body[i+1:] // drop the info string, e.g. "json"
	} else {
		return s
	}
	return strings.TrimSpace(body)
}

func nonEmpty(s string) string {
	if strings.TrimSpace(s) == "" {
		// Providers reject empty assistant messages.
		return "(empty reply)"
	}
	return s
}

//go:embed prompts/repair.tmpl
var promptFiles embed.FS

// repairTemplate is parsed once; the file is part of the binary, so a parse
// error is a build defect, caught by every test that repairs.
var repairTemplate = template.Must(template.ParseFS(promptFiles, "prompts/repair.tmpl"))

func repairPrompt(schema *Schema, problem error) string {
	var b bytes.Buffer
	err := repairTemplate.Execute(&b, struct{ Problem, Schema string }{
		Problem: truncate(problem.Error(), 2000),
		Schema:  schema.Name(),
	})
	if err != nil {
		// Only a broken template can fail; fall back to the bare facts.
		return "Your previous reply " + problem.Error() + ". Reply again with only a JSON document that matches the schema."
	}
	return strings.TrimSpace(b.String())
}
