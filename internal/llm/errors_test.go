package llm

import (
	"net/http"
	"strings"
	"testing"
)

func TestProviderMessage(t *testing.T) {
	// A key of no known format (a gateway's bearer token), longer than the
	// messages of our errors.
	key := "gw1." + strings.Repeat("Q7rX2mPz9KvLt4Wb", 20)
	filler := strings.Repeat("x", 280)
	for _, tc := range []struct {
		in, key, want string
	}{
		{"Incorrect API key provided: sk-proj-abcdefghijklmnop.", "", "Incorrect API key provided: [redacted]."},
		{"Incorrect API key provided: sk-proj-****************wxyz. See docs.", "", "Incorrect API key provided: [redacted]. See docs."},
		{"key AIzaSyA1234567890abcdef is invalid", "", "key [redacted] is invalid"},
		{"invalid x-api-key", "", "invalid x-api-key"},
		{"prompt is too long", "", "prompt is too long"},
		{strings.Repeat("é", 400), "", strings.Repeat("é", 150) + "…"},
		// The key is removed before the message is shortened, which would
		// cut it.
		{"Incorrect API key provided: " + key + ". You can find your API key at https://platform.openai.com/account/api-keys.", key,
			"Incorrect API key provided: [redacted]. You can find your API key at https://platform.openai.com/account/api-keys."},
		{filler + " token " + key, key, filler + " token [redacted]"},
		// The start of the key that ends a message cut by the provider, or
		// cut by the shortening, goes too.
		{"Invalid token gw1.Q7rX2mPz9KvL...", key, "Invalid token [redacted]..."},
		{filler + " token " + key[:40] + "**** is not valid", key, filler + " token [redacted]…"},
		{"Invalid token gw1.Q7rX2mP", key, "Invalid token [redacted]"},
		// Fewer characters tell little of the key and could be a word.
		{"Invalid token gw1.Q7r", key, "Invalid token gw1.Q7r"},
	} {
		if got := providerMessage(tc.in, tc.key); got != tc.want {
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
