package stt

import (
	"bytes"
	"context"
	"testing"
)

// A language given with the recording reaches the server as the form's
// language field, in lower case; without one the form has no such field,
// and the server detects the language itself.
func TestTranscribeSendsLanguage(t *testing.T) {
	tests := []struct {
		name, language string
		want           *string
	}{
		{"none", "", nil},
		{"hindi", "hi", ptr("hi")},
		{"upper case", "EN", ptr("en")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newFakeOpenAI(t, testKey)
			c := newClient(t, Config{BaseURL: srv.URL + "/v1", APIKey: testKey})
			audio := audioOf(chromeWebM, 1024)
			if _, err := c.Transcribe(context.Background(), bytes.NewReader(audio), int64(len(audio)), WebM, tt.language); err != nil {
				t.Fatalf("Transcribe: %v", err)
			}
			got := srv.got.Load()
			if got == nil {
				t.Fatal("no upload")
			}
			switch {
			case tt.want == nil && got.language != nil:
				t.Errorf("language field %q sent, want none", *got.language)
			case tt.want != nil && (got.language == nil || *got.language != *tt.want):
				t.Errorf("language field %v, want %q", got.language, *tt.want)
			}
		})
	}
}

// A language that is not an ISO-639-1 code is refused before anything is
// sent.
func TestTranscribeRefusesUnknownLanguageCode(t *testing.T) {
	srv := newFakeOpenAI(t, testKey)
	c := newClient(t, Config{BaseURL: srv.URL + "/v1", APIKey: testKey})
	for _, lang := range []string{"eng", "e", "english", "e1", "é", "en-US"} {
		_, err := c.Transcribe(context.Background(), bytes.NewReader(audioOf(chromeWebM, 1024)), 1024, WebM, lang)
		wantErr(t, err, ErrRejected, msgLanguage)
	}
	if n := srv.requests.Load(); n != 0 {
		t.Errorf("sent %d requests, want none", n)
	}
}

func TestParseLanguage(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"en", "en", true},
		{"HI", "hi", true},
		{"Ta", "ta", true},
		{"", "", false},
		{"eng", "", false},
		{"e", "", false},
		{"e1", "", false},
		{"en-US", "", false},
		{" en", "", false},
		{"é", "", false}, // two bytes, not two letters
		{"[]", "", false},
	}
	for _, tt := range tests {
		if got, ok := ParseLanguage(tt.in); got != tt.want || ok != tt.ok {
			t.Errorf("ParseLanguage(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func ptr(s string) *string { return &s }
