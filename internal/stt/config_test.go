package stt

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestConfigFromEnv(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		want    Config
		wantErr string
	}{
		{name: "empty", want: Config{Model: "whisper-1", Timeout: 60 * time.Second}},
		{
			name: "OpenAI",
			env:  map[string]string{EnvBaseURL: "https://api.openai.com/v1", EnvAPIKey: " " + testKey + "\n"},
			want: Config{BaseURL: "https://api.openai.com/v1", APIKey: testKey, Model: "whisper-1", Timeout: 60 * time.Second},
		},
		{
			name: "local server",
			env:  map[string]string{EnvBaseURL: "http://localhost:8000/v1", EnvModel: "Systran/faster-whisper-small", EnvTimeout: "2m"},
			want: Config{BaseURL: "http://localhost:8000/v1", Model: "Systran/faster-whisper-small", Timeout: 2 * time.Minute},
		},
		{name: "no scheme", env: map[string]string{EnvBaseURL: "api.openai.com/v1"}, wantErr: EnvBaseURL},
		{name: "unparsable", env: map[string]string{EnvBaseURL: "http://[::1"}, wantErr: EnvBaseURL},
		{name: "no host", env: map[string]string{EnvBaseURL: "http:///v1"}, wantErr: EnvBaseURL},
		{name: "query", env: map[string]string{EnvBaseURL: "https://api.openai.com/v1?key=x"}, wantErr: EnvBaseURL},
		{name: "key with a line break inside", env: map[string]string{EnvBaseURL: "https://api.openai.com/v1", EnvAPIKey: "sk-one\nsk-two"}, wantErr: EnvAPIKey},
		{name: "bad timeout", env: map[string]string{EnvTimeout: "60"}, wantErr: EnvTimeout},
		{name: "zero timeout", env: map[string]string{EnvTimeout: "0s"}, wantErr: EnvTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ConfigFromEnv(func(k string) string { return tt.env[k] })
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to name %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("config (-want +got):\n%s", diff)
			}
			if got.Configured() != (tt.want.BaseURL != "") {
				t.Errorf("Configured() = %v", got.Configured())
			}
		})
	}
}

func TestConfigMasksKey(t *testing.T) {
	cfg := Config{BaseURL: "https://user:pass@stt.test/v1", APIKey: testKey, Model: "whisper-1", Timeout: time.Minute}
	for _, format := range []string{"%v", "%+v", "%#v", "%s"} {
		if s := fmt.Sprintf(format, cfg); strings.Contains(s, testKey) || strings.Contains(s, "pass@") {
			t.Errorf("%s prints a secret: %s", format, s)
		}
	}
	if s := cfg.LogValue().String(); strings.Contains(s, testKey) || strings.Contains(s, "pass@") {
		t.Errorf("LogValue prints a secret: %s", s)
	}
}

// An API key read from a file or a Kubernetes secret often ends in a
// newline, which Go refuses to send in a header: every transcription would
// fail as "service unavailable" with nothing said at start-up. internal/config
// trims the key as ConfigFromEnv does; a key that still holds a control
// character is refused by New, naming the variable, so that tutord does
// not start with it.
func TestKeyAHeaderCannotCarryIsRefused(t *testing.T) {
	for _, key := range []string{testKey + "\n", testKey + "\r\n", "sk-one\nsk-two", "sk-\x00"} {
		_, err := New(Config{BaseURL: "https://api.openai.com/v1", APIKey: key, Model: DefaultModel, Timeout: DefaultTimeout})
		if err == nil || !strings.Contains(err.Error(), EnvAPIKey) {
			t.Errorf("New with key %q: err = %v; want it refused, naming %s", key, err, EnvAPIKey)
		}
		if err != nil && strings.Contains(err.Error(), testKey) {
			t.Errorf("the error repeats the key: %v", err)
		}
	}
}
