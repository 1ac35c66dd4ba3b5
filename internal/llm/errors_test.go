package llm

import (
	"net/http"
	"strings"
	"testing"
)

func TestProviderMessage(t *testing.T) {
	for _, tc := range []struct {
		in, want string
	}{
		{"Incorrect API key provided: sk-proj-abcdefghijklmnop.", "Incorrect API key provided: [redacted]."},
		{"Incorrect API key provided: sk-proj-****************wxyz. See docs.", "Incorrect API key provided: [redacted]. See docs."},
		{"key AIzaSyA1234567890abcdef is invalid", "key [redacted] is invalid"},
		{"invalid x-api-key", "invalid x-api-key"},
		{"prompt is too long", "prompt is too long"},
		{strings.Repeat("é", 400), strings.Repeat("é", 150) + "…"},
	} {
		if got := providerMessage(tc.in); got != tc.want {
			t.Errorf("providerMessage(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestKindForStatus(t *testing.T) {
	for status, want := range map[int]ErrorKind{
		http.StatusTooManyRequests:       KindRateLimited,
		http.StatusUnauthorized:          KindAuth,
		http.StatusForbidden:             KindAuth,
		http.StatusRequestTimeout:        KindTimeout,
		http.StatusGatewayTimeout:        KindTimeout,
		http.StatusRequestEntityTooLarge: KindContextTooLong,
		http.StatusConflict:              KindUnavailable,
		http.StatusInternalServerError:   KindUnavailable,
		529:                              KindUnavailable,
		http.StatusBadRequest:            KindInvalidRequest,
		http.StatusNotFound:              KindInvalidRequest,
	} {
		if got := kindForStatus(status); got != want {
			t.Errorf("kindForStatus(%d) = %s, want %s", status, got, want)
		}
	}
}
