package httpapi_test

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tutord/tutord/internal/httpapi"
)

// issue is a 422 detail item without its input.
type issue struct {
	Type string `json:"type"`
	Loc  []any  `json:"loc"`
	Msg  string `json:"msg"`
}

// requireIssue checks that r is a 422 whose detail is the one issue want.
func requireIssue(t *testing.T, r response, want issue) {
	t.Helper()
	if r.Status != 422 {
		t.Fatalf("%d %s; want 422", r.Status, r.Body)
	}
	var got struct{ Detail []issue }
	if err := json.Unmarshal(r.Body, &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]issue{want}, got.Detail); diff != "" {
		t.Errorf("detail (-want +got):\n%s\nbody: %s", diff, r.Body)
	}
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
			// pydantic's lax int: a fraction is int_from_float (7.0 is taken,
			// see TestWholeNumberForAnInteger).
			name: "fractional number for an integer", method: "POST", path: "/sessions",
			body:      body(func(b map[string]any) { student(b)["grade"] = 7.5 }),
			want:      []issue{{"int_from_float", []any{"body", "student", "grade"}, "Input should be a valid integer, got a number with a fractional part"}},
			wantInput: []any{7.5},
		},
		{
			// pydantic's lax int takes "7" (see TestNumericStringForAnInteger),
			// not "7.5".
			name: "decimal string for an integer", method: "POST", path: "/sessions",
			body:      body(func(b map[string]any) { student(b)["grade"] = "7.5" }),
			want:      []issue{{"int_parsing", []any{"body", "student", "grade"}, "Input should be a valid integer, unable to parse string as an integer"}},
			wantInput: []any{"7.5"},
		},
		{
			// A string read as an integer has its range checked, and is the
			// input as sent.
			name: "numeric string out of range", method: "POST", path: "/sessions",
			body:      body(func(b map[string]any) { student(b)["grade"] = "13" }),
			want:      []issue{{"less_than_equal", []any{"body", "student", "grade"}, "Input should be less than or equal to 12"}},
			wantInput: []any{"13"},
		},
		{
			name: "boolean for an integer", method: "POST", path: "/sessions",
			body: body(func(b map[string]any) { student(b)["grade"] = true }),
			want: []issue{{"int_type", []any{"body", "student", "grade"}, "Input should be a valid integer"}},
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
			// Read as pydantic reads an int ("0.0" is 0), refused as sent.
			name: "query param out of range, as a float", method: "GET", path: "/sessions/history?page=0.0",
			want:      []issue{{"greater_than_equal", []any{"query", "page"}, "Input should be greater than or equal to 1"}},
			wantInput: []any{"0.0"},
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

// TestWholeNumberForAnInteger: an integer field takes a number without a
// fraction ("grade": 7.0, as Python's json.dumps writes a float grade; or
// 7e0), as the reference's pydantic does, and a value it cannot take gets
// pydantic's type, from the request validator or, without one, from the
// handler alike. Clients that compute a grade or age as a float rely on
// the first; clients that branch on the 422's type, on the second.
func TestWholeNumberForAnInteger(t *testing.T) {
	for _, validator := range []bool{true, false} {
		t.Run(map[bool]string{true: "validator", false: "handler"}[validator], func(t *testing.T) {
			s := newServer(t, func(o *httpapi.Options, _ *httpapi.Deps) {
				if !validator {
					o.Validator = nil
				}
			})
			learner := token(t, "whole-number-learner", false)
			create := func(grade string) string {
				return `{"student":{"id":"s1","grade":` + grade + `},"goal":{"topic":"Fractions","syllabus":"CBSE Grade 7",` +
					`"learning_objectives":[],"guideline_id":"` + s.subject[fractions].String() + `"}}`
			}
			for _, grade := range []string{"7.0", "7e0", "7.000"} {
				if r := s.do("POST", "/sessions", create(grade), learner); r.Status != 200 {
					t.Errorf(`POST /sessions with "grade": %s: %d %s; want 200`, grade, r.Status, truncate(r.Body, 300))
				}
			}
			if r := s.do("PUT", "/profile", `{"age":12.0,"grade":7.0}`, learner); r.Status != 200 {
				t.Errorf(`PUT /profile with "age": 12.0: %d %s; want 200`, r.Status, truncate(r.Body, 300))
			} else if p := r.JSON(t); p["age"] != float64(12) || p["grade"] != float64(7) {
				t.Errorf("profile after the update: age %v, grade %v; want 12 and 7", p["age"], p["grade"])
			}

			for _, tt := range []struct {
				name, method, path, body string
				want                     issue
			}{
				{"fraction", "POST", "/sessions", create("7.5"),
					issue{"int_from_float", []any{"body", "student", "grade"}, "Input should be a valid integer, got a number with a fractional part"}},
				{"decimal string", "POST", "/sessions", create(`"7.5"`),
					issue{"int_parsing", []any{"body", "student", "grade"}, "Input should be a valid integer, unable to parse string as an integer"}},
				{"boolean", "POST", "/sessions", create("true"),
					issue{"int_type", []any{"body", "student", "grade"}, "Input should be a valid integer"}},
				{"profile fraction", "PUT", "/profile", `{"age":12.5}`,
					issue{"int_from_float", []any{"body", "age"}, "Input should be a valid integer, got a number with a fractional part"}},
			} {
				t.Run(tt.name, func(t *testing.T) {
					r := s.do(tt.method, tt.path, tt.body, learner)
					requireIssue(t, r, tt.want)
				})
			}
		})
	}
}

// TestNumericStringForAnInteger: every integer field of a REST body takes
// a string holding an integer ("grade": "7", from a form field or a
// client that sends everything as text), as the reference's pydantic (lax
// mode) and the WebSocket's student_context do, from the request validator
// or, without one, from the handler alike; a string that holds no integer
// ("seven", "7.5", "") is still a 422 int_parsing.
func TestNumericStringForAnInteger(t *testing.T) {
	for _, validator := range []bool{true, false} {
		t.Run(map[bool]string{true: "validator", false: "handler"}[validator], func(t *testing.T) {
			s := newServer(t, func(o *httpapi.Options, _ *httpapi.Deps) {
				if !validator {
					o.Validator = nil
				}
			})
			learner := token(t, "numeric-string-learner", false)
			admin := token(t, "numeric-string-admin", true)
			create := func(grade string) string {
				return `{"student":{"id":"s1","grade":` + grade + `},"goal":{"topic":"Fractions","syllabus":"CBSE Grade 7",` +
					`"learning_objectives":[],"guideline_id":"` + s.subject[fractions].String() + `"}}`
			}
			for _, grade := range []string{`"7"`, `" 7 "`, `"7.0"`} {
				if r := s.do("POST", "/sessions", create(grade), learner); r.Status != 200 {
					t.Errorf(`POST /sessions with "grade": %s: %d %s; want 200`, grade, r.Status, truncate(r.Body, 300))
				}
			}
			if r := s.do("PUT", "/profile", `{"age":"12","grade":"7"}`, learner); r.Status != 200 {
				t.Errorf(`PUT /profile with "age": "12": %d %s; want 200`, r.Status, truncate(r.Body, 300))
			} else if p := r.JSON(t); p["age"] != float64(12) || p["grade"] != float64(7) {
				t.Errorf("profile after the update: age %v, grade %v; want 12 and 7", p["age"], p["grade"])
			}
			r := s.do("PUT", "/api/admin/llm-config/tutor", `{"provider":"rules","model_id":"rules","max_output_tokens":"1000"}`, admin)
			if r.Status != 200 || r.JSON(t)["max_output_tokens"] != float64(1000) {
				t.Errorf(`PUT llm-config with "max_output_tokens": "1000": %d %s; want 200 with 1000`, r.Status, truncate(r.Body, 300))
			}

			parsing := "Input should be a valid integer, unable to parse string as an integer"
			for _, tt := range []struct {
				name, method, path, body string
				want                     issue
			}{
				{"word", "POST", "/sessions", create(`"seven"`), issue{"int_parsing", []any{"body", "student", "grade"}, parsing}},
				{"decimal", "POST", "/sessions", create(`"7.5"`), issue{"int_parsing", []any{"body", "student", "grade"}, parsing}},
				{"empty", "POST", "/sessions", create(`""`), issue{"int_parsing", []any{"body", "student", "grade"}, parsing}},
				{"profile word", "PUT", "/profile", `{"age":"twelve"}`, issue{"int_parsing", []any{"body", "age"}, parsing}},
				{"llm config decimal", "PUT", "/api/admin/llm-config/tutor", `{"provider":"rules","model_id":"rules","max_output_tokens":"1e3"}`,
					issue{"int_parsing", []any{"body", "max_output_tokens"}, parsing}},
			} {
				t.Run(tt.name, func(t *testing.T) {
					tok := learner
					if strings.Contains(tt.path, "llm-config") {
						tok = admin
					}
					r := s.do(tt.method, tt.path, tt.body, tok)
					requireIssue(t, r, tt.want)
				})
			}
		})
	}
}

// An integer query parameter sent as " 7", "7 " or "7.0" (a client that
// formats numbers as floats, a padded form field) is read as 7, as the
// reference's pydantic reads it, by the request validator or, without
// one, by the handler; "7.5" and "seven" are still 422 int_parsing.
func TestLaxIntegerQueryParameters(t *testing.T) {
	for _, validator := range []bool{true, false} {
		t.Run(map[bool]string{true: "validator", false: "handler"}[validator], func(t *testing.T) {
			s := newServer(t, func(o *httpapi.Options, _ *httpapi.Deps) {
				if !validator {
					o.Validator = nil
				}
			})
			for _, grade := range []string{"7.0", " 7", "7 "} {
				r := s.do("GET", "/curriculum?country=India&board=CBSE&grade="+url.QueryEscape(grade), nil, "")
				if r.Status != 200 {
					t.Errorf("grade=%q: %d %s; want 200", grade, r.Status, truncate(r.Body, 300))
					continue
				}
				if subjects, _ := r.JSON(t)["subjects"].([]any); len(subjects) != 2 {
					t.Errorf("grade=%q: subjects %v; want the two of grade 7", grade, subjects)
				}
			}
			tok := token(t, "lax-query", false)
			if r := s.do("GET", "/sessions/history?page=1.0&page_size=%205", nil, tok); r.Status != 200 || r.JSON(t)["page_size"] != float64(5) {
				t.Errorf("history?page=1.0&page_size=%%205: %d %s; want 200, page size 5", r.Status, truncate(r.Body, 300))
			}
			for _, grade := range []string{"7.5", "seven"} {
				r := s.do("GET", "/curriculum?country=India&board=CBSE&grade="+grade, nil, "")
				if r.Status != 422 || !strings.Contains(string(r.Body), `"int_parsing"`) || !strings.Contains(string(r.Body), `"input":"`+grade+`"`) {
					t.Errorf("grade=%q: %d %s; want 422 int_parsing with the input as sent", grade, r.Status, truncate(r.Body, 300))
				}
			}
		})
	}
}
