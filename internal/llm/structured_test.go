package llm

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// scriptedClient is a Client that answers from a script and records what it
// was asked.
type scriptedClient struct {
	mu       sync.Mutex
	replies  []scripted
	requests []Request
}

type scripted struct {
	text string
	err  error
}

func (c *scriptedClient) Generate(_ context.Context, req *Request) (*Response, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.requests = append(c.requests, *req)
	if len(c.replies) == 0 {
		return nil, &Error{Kind: KindUnavailable, Message: "script exhausted"}
	}
	r := c.replies[0]
	c.replies = c.replies[1:]
	if r.err != nil {
		return nil, r.err
	}
	return &Response{Text: r.text, StopReason: StopEnd, Usage: Usage{InputTokens: 10, OutputTokens: 5}, Attempts: 1}, nil
}

func (c *scriptedClient) Stream(ctx context.Context, req *Request, onDelta func(Delta) error) (*Response, error) {
	resp, err := c.Generate(ctx, req)
	if err == nil {
		err = onDelta(Delta{Text: resp.Text})
	}
	return resp, err
}

func TestDecode(t *testing.T) {
	valid := validTurn()
	replace := func(old, new string) string {
		if !strings.Contains(validTurnJSON, old) {
			t.Fatalf("test bug: %q not in validTurnJSON", old)
		}
		return strings.Replace(validTurnJSON, old, new, 1)
	}
	for _, tc := range []struct {
		name    string
		in      string
		want    *tutorTurn
		wantErr string
	}{
		{name: "valid", in: validTurnJSON, want: &valid},
		{name: "in a code fence", in: "```json\n" + validTurnJSON + "\n```", want: &valid},
		{name: "nulls where nullable", in: replace(`"mastery_signal": "strong"`, `"mastery_signal": null`), want: func() *tutorTurn {
			v := validTurn()
			v.MasterySignal = nil
			return &v
		}()},
		{name: "not JSON", in: `{"response": "Good`, wantErr: "is not valid JSON"},
		{name: "empty", in: ``, wantErr: "is not valid JSON"},
		{name: "array at the root", in: `[]`, wantErr: "does not match the schema"},
		{name: "missing field", in: replace(`"reasoning": "The student added numerators correctly."`, `"x": 1`), wantErr: "does not match the schema"},
		{name: "unknown field", in: replace(`"session_complete": false,`, `"session_complete": false, "extra": 1,`), wantErr: "does not match the schema"},
		{name: "field in another case", in: replace(`"reasoning":`, `"Reasoning":`), wantErr: "does not match the schema"},
		{name: "enum value not allowed", in: replace(`"intent": "answer"`, `"intent": "chitchat"`), wantErr: "does not match the schema"},
		{name: "nullable enum value not allowed", in: replace(`"mastery_signal": "strong"`, `"mastery_signal": "great"`), wantErr: "does not match the schema"},
		{name: "null where not nullable", in: replace(`"session_complete": false`, `"session_complete": null`), wantErr: "does not match the schema"},
		{name: "null array", in: replace(`"misconceptions_detected": []`, `"misconceptions_detected": null`), wantErr: "does not match the schema"},
		{name: "wrong type", in: replace(`"advance_to_step": 2`, `"advance_to_step": "2"`), wantErr: "does not match the schema"},
		{name: "fraction for an integer", in: replace(`"advance_to_step": 2`, `"advance_to_step": 2.5`), wantErr: "does not match the schema"},
		{name: "integer overflow", in: replace(`"advance_to_step": 2`, `"advance_to_step": 1e300`), wantErr: "cannot be decoded"},
		{name: "semantic rule", in: replace(`"score": 0.8`, `"score": 1.8`), wantErr: "breaks a rule"},
		{name: "trailing garbage", in: validTurnJSON + "}", wantErr: "is not valid JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Decode[tutorTurn]([]byte(tc.in))
			if tc.wantErr != "" {
				if !errors.Is(err, ErrInvalidOutput) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Decode error = %v, want invalid output containing %q", err, tc.wantErr)
				}
				if diff := cmp.Diff(tutorTurn{}, got); diff != "" {
					t.Errorf("Decode returned a partial value on error:\n%s", diff)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(*tc.want, got); diff != "" {
				t.Errorf("Decode (-want +got):\n%s", diff)
			}
		})
	}
}

func TestStructured(t *testing.T) {
	invalid := strings.Replace(validTurnJSON, `"intent": "answer"`, `"intent": "chitchat"`, 1)
	refused := &Error{Kind: KindRefused, Message: "no"}
	for _, tc := range []struct {
		name      string
		replies   []scripted
		wantCalls int
		wantKind  ErrorKind
	}{
		{"valid at once", []scripted{{text: validTurnJSON}}, 1, ""},
		{"repaired", []scripted{{text: invalid}, {text: validTurnJSON}}, 2, ""},
		{"repaired from prose", []scripted{{text: "Sure! Here it is."}, {text: validTurnJSON}}, 2, ""},
		{"still invalid after repair", []scripted{{text: invalid}, {text: invalid}}, 2, KindInvalidOutput},
		{"provider error", []scripted{{err: refused}}, 1, KindRefused},
		{"provider error during repair", []scripted{{text: invalid}, {err: refused}}, 2, KindRefused},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &scriptedClient{replies: tc.replies}
			req := Request{System: "You are a tutor.", Messages: []Message{{Role: RoleUser, Content: "1/2 + 1/2?"}}}
			got, res, err := Structured[tutorTurn](context.Background(), c, req)
			if len(c.requests) != tc.wantCalls {
				t.Errorf("made %d calls, want %d", len(c.requests), tc.wantCalls)
			}
			if KindOf(err) != tc.wantKind {
				t.Fatalf("error = %v, want kind %q", err, tc.wantKind)
			}
			if err != nil {
				if diff := cmp.Diff(tutorTurn{}, got); diff != "" {
					t.Errorf("a value came back with the error:\n%s", diff)
				}
				return
			}
			if diff := cmp.Diff(validTurn(), got); diff != "" {
				t.Errorf("value (-want +got):\n%s", diff)
			}
			if res.Repaired() != (tc.wantCalls == 2) || len(res.Calls) != tc.wantCalls {
				t.Errorf("result has %d calls, repaired=%v", len(res.Calls), res.Repaired())
			}
			if want := (Usage{InputTokens: 10 * int64(tc.wantCalls), OutputTokens: 5 * int64(tc.wantCalls)}); res.Usage() != want {
				t.Errorf("usage = %+v, want %+v", res.Usage(), want)
			}
			for i, r := range c.requests {
				if r.Output == nil || r.Output.Name() != "tutor_turn" {
					t.Errorf("request %d has output schema %v", i, r.Output)
				}
			}
		})
	}
}

func TestStructuredRepairRequest(t *testing.T) {
	invalid := strings.Replace(validTurnJSON, `"intent": "answer"`, `"intent": "chitchat"`, 1)
	c := &scriptedClient{replies: []scripted{{text: invalid}, {text: validTurnJSON}}}
	msgs := []Message{{Role: RoleUser, Content: "1/2 + 1/2?"}}
	if _, _, err := Structured[tutorTurn](context.Background(), c, Request{Messages: msgs}); err != nil {
		t.Fatal(err)
	}
	repair := c.requests[1].Messages
	if len(repair) != 3 {
		t.Fatalf("repair request has %d messages, want 3", len(repair))
	}
	if diff := cmp.Diff(Message{Role: RoleAssistant, Content: invalid}, repair[1]); diff != "" {
		t.Errorf("repair message 1 (-want +got):\n%s", diff)
	}
	if repair[2].Role != RoleUser || !strings.Contains(repair[2].Content, "chitchat") || !strings.Contains(repair[2].Content, `"tutor_turn"`) {
		t.Errorf("repair prompt does not quote the problem and the schema:\n%s", repair[2].Content)
	}
	if len(msgs) != 1 {
		t.Error("Structured changed the caller's messages")
	}
}

// FuzzDecode feeds arbitrary model output to Decode. It must never panic,
// and whatever it accepts must be valid: the input itself against the schema,
// and the decoded value against the type's rules.
func FuzzDecode(f *testing.F) {
	f.Add(validTurnJSON)
	f.Add(strings.Replace(validTurnJSON, `"intent": "answer"`, `"intent": "x"`, 1))
	f.Add(strings.Replace(validTurnJSON, `"score": 0.8`, `"score": -1`, 1))
	f.Add(strings.Replace(validTurnJSON, `"advance_to_step": 2`, `"advance_to_step": 1e400`, 1))
	f.Add("```json\n" + validTurnJSON + "\n```")
	f.Add(`{"response":null}`)
	f.Add(`null`)
	f.Add(`[`)
	f.Add("\x00\xff")
	schema := mustSchema[tutorTurn](f)
	f.Fuzz(func(t *testing.T, in string) {
		got, err := Decode[tutorTurn]([]byte(in))
		if err != nil {
			if !errors.Is(err, ErrInvalidOutput) {
				t.Fatalf("error of the wrong kind: %v", err)
			}
			if !cmp.Equal(got, tutorTurn{}) {
				t.Fatalf("value returned with an error: %+v", got)
			}
			return
		}
		doc := stripCodeFence(in)
		if !json.Valid([]byte(doc)) {
			t.Fatalf("accepted invalid JSON %q", in)
		}
		if err := schema.Validate([]byte(doc)); err != nil {
			t.Fatalf("accepted a document the schema rejects: %v", err)
		}
		if err := got.Validate(); err != nil {
			t.Fatalf("accepted a value that breaks its rules: %v", err)
		}
		// Accepted arrays decode to non-nil slices, so the value re-encodes
		// to a document the schema accepts too.
		out, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(out); err != nil {
			t.Fatalf("decoded value re-encodes to an invalid document %s: %v", out, err)
		}
	})
}
