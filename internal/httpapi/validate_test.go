package httpapi_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// issue is a 422 detail item without its input.
type issue struct {
	Type string `json:"type"`
	Loc  []any  `json:"loc"`
	Msg  string `json:"msg"`
}

// TestValidationIssueLocations checks that every issue the request
// validator finds is located as the reference (pydantic) locates it:
// parameters by where they are and their name, body fields by their path
// with the missing field's name once.
func TestValidationIssueLocations(t *testing.T) {
	s := newServer(t)
	tok := token(t, "loc-learner", false)
	id := s.newSession(fractions, "", tok)
	step := "/sessions/" + id + "/step"
	body := func(edit func(b map[string]any)) map[string]any {
		b := createBody(s.subject[fractions], "")
		edit(b)
		return b
	}
	student := func(b map[string]any) map[string]any { return b["student"].(map[string]any) }

	tests := []struct {
		name      string
		method    string
		path      string
		body      any
		headers   []string
		want      []issue
		wantInput []any // the items' inputs, when the test cares
	}{
		{
			name: "missing top-level field", method: "POST", path: "/sessions",
			body: body(func(b map[string]any) { delete(b, "student") }),
			want: []issue{{"missing", []any{"body", "student"}, "Field required"}},
		},
		{
			name: "missing top-level fields", method: "POST", path: "/sessions", body: map[string]any{},
			want: []issue{
				{"missing", []any{"body", "student"}, "Field required"},
				{"missing", []any{"body", "goal"}, "Field required"},
			},
		},
		{
			name: "missing nested field", method: "POST", path: "/sessions",
			body: body(func(b map[string]any) { delete(student(b), "id") }),
			want: []issue{{"missing", []any{"body", "student", "id"}, "Field required"}},
		},
		{
			name: "missing field of a 3.1 schema", method: "POST", path: step, body: map[string]any{},
			want: []issue{{"missing", []any{"body", "student_reply"}, "Field required"}},
		},
		{
			name: "wrong type nested", method: "POST", path: "/sessions",
			body:      body(func(b map[string]any) { student(b)["grade"] = "seven" }),
			want:      []issue{{"int_parsing", []any{"body", "student", "grade"}, "Input should be a valid integer, unable to parse string as an integer"}},
			wantInput: []any{"seven"},
		},
		{
			name: "wrong type nested, not a string", method: "POST", path: "/sessions",
			body: body(func(b map[string]any) { b["goal"].(map[string]any)["topic"] = 5 }),
			want: []issue{{"string_type", []any{"body", "goal", "topic"}, "Input should be a valid string"}},
		},
		{
			name: "wrong type and extra field", method: "POST", path: step, body: map[string]any{"student_reply": 5, "extra": true},
			want: []issue{
				{"string_type", []any{"body", "student_reply"}, "Input should be a valid string"},
				{"extra_forbidden", []any{"body", "extra"}, "Extra inputs are not permitted"},
			},
			wantInput: []any{5.0, true},
		},
		{
			name: "value out of an enum", method: "POST", path: "/sessions",
			body: body(func(b map[string]any) { b["mode"] = "sing" }),
			want: []issue{{"enum", []any{"body", "mode"}, "Input should be 'teach_me', 'clarify_doubts' or 'exam'"}},
		},
		{
			name: "query param out of range", method: "GET", path: "/sessions/history?page=0",
			want:      []issue{{"greater_than_equal", []any{"query", "page"}, "Input should be greater than or equal to 1"}},
			wantInput: []any{"0"},
		},
		{
			name: "query params out of range", method: "GET", path: "/sessions/history?page=0&page_size=500",
			want: []issue{
				{"greater_than_equal", []any{"query", "page"}, "Input should be greater than or equal to 1"},
				{"less_than_equal", []any{"query", "page_size"}, "Input should be less than or equal to 100"},
			},
			wantInput: []any{"0", "500"},
		},
		{
			name: "query param not an integer", method: "GET", path: "/sessions/history?page=abc",
			want:      []issue{{"int_parsing", []any{"query", "page"}, "Input should be a valid integer, unable to parse string as an integer"}},
			wantInput: []any{"abc"},
		},
		{
			name: "missing query param", method: "GET", path: "/sessions/resumable",
			want:      []issue{{"missing", []any{"query", "guideline_id"}, "Field required"}},
			wantInput: []any{nil},
		},
		{
			name: "bad header", method: "POST", path: step, body: map[string]any{"student_reply": "hi"},
			headers:   []string{"Idempotency-Key", strings.Repeat("k", 256)},
			want:      []issue{{"string_too_long", []any{"header", "Idempotency-Key"}, "String should have at most 255 characters"}},
			wantInput: []any{strings.Repeat("k", 256)},
		},
		{
			name: "empty header", method: "POST", path: step, body: map[string]any{"student_reply": "hi"},
			headers: []string{"Idempotency-Key", ""},
			want:    []issue{{"string_too_short", []any{"header", "Idempotency-Key"}, "String should have at least 1 character"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := s.do(tt.method, tt.path, tt.body, tok, tt.headers...)
			if r.Status != 422 || r.code(t) != "validation_error" {
				t.Fatalf("%d %s, want a 422", r.Status, r.Body)
			}
			var got struct {
				Detail []struct {
					issue
					Input any `json:"input"`
				} `json:"detail"`
			}
			if err := json.Unmarshal(r.Body, &got); err != nil {
				t.Fatal(err)
			}
			var issues []issue
			var inputs []any
			for _, d := range got.Detail {
				issues = append(issues, d.issue)
				inputs = append(inputs, d.Input)
			}
			if diff := cmp.Diff(tt.want, issues); diff != "" {
				t.Errorf("detail (-want +got):\n%s\nbody: %s", diff, r.Body)
			}
			if tt.wantInput != nil {
				if diff := cmp.Diff(tt.wantInput, inputs); diff != "" {
					t.Errorf("inputs (-want +got):\n%s", diff)
				}
			}
		})
	}
}
