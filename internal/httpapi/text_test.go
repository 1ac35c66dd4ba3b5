package httpapi

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestBodyTextIssues(t *testing.T) {
	for _, tt := range []struct {
		name, body string
		cleaned    []string
		want       [][]any // the locs of the issues
	}{
		{"fine", `{"a":"x","b":[1,"y",{"c":"\ufffd"}],"d":null,"e":"😀 \ud83d\ude00 \\ud800 �"}`, nil, nil},
		{"NUL in a value", `{"a":"x\u0000"}`, nil, [][]any{{"body", "a"}}},
		{"NUL in a key", `{"a\u0000":"x"}`, nil, [][]any{{"body", "a\x00"}}},
		{"nested", `{"a":{"b":[{"c":1},{"c":"\u0000"}]},"d":"ok"}`, nil, [][]any{{"body", "a", "b", 1, "c"}}},
		{"after a nested value", `{"a":{"b":[1,[2,3]]},"d":"\u0000"}`, nil, [][]any{{"body", "d"}}},
		{"in a top-level array", `["ok","\u0000"]`, nil, [][]any{{"body", 1}}},
		{"a top-level string", `"\u0000"`, nil, [][]any{{"body"}}},
		{"invalid UTF-8", "{\"a\":\"x\xffy\",\"b\":\"\xc3\"}", nil, [][]any{{"body", "a"}, {"body", "b"}}},
		{"a lone high surrogate", `{"a":"\ud800x"}`, nil, [][]any{{"body", "a"}}},
		{"a high surrogate at the end", `{"a":"\ud800"}`, nil, [][]any{{"body", "a"}}},
		{"a lone low surrogate", `{"a":"\uDC00"}`, nil, [][]any{{"body", "a"}}},
		{"two high surrogates", `{"a":"\ud800\ud800"}`, nil, [][]any{{"body", "a"}}},
		{"a cleaned field", `{"reply":"a\u0000\ud800","other":"\u0000"}`, []string{"reply"}, [][]any{{"body", "other"}}},
		{"inside a cleaned field", `{"reply":{"x":["\u0000"]}}`, []string{"reply"}, nil},
		{"a nested field named as a cleaned one", `{"a":{"reply":"\u0000"}}`, []string{"reply"}, [][]any{{"body", "a", "reply"}}},
		{"not JSON", `{"a":"\u0000"`, nil, [][]any{{"body", "a"}}},
		{"garbage", `nope`, nil, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got [][]any
			for _, fe := range bodyTextIssues([]byte(tt.body), tt.cleaned...) {
				got = append(got, fe.Loc)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("locs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBodyTextIssuesAreBounded(t *testing.T) {
	body := []byte(`[`)
	for i := range 100 {
		if i > 0 {
			body = append(body, ',')
		}
		body = append(body, `"\u0000"`...)
	}
	body = append(body, ']')
	if n := len(bodyTextIssues(body)); n != maxTextIssues {
		t.Fatalf("%d issues, want %d", n, maxTextIssues)
	}
}
