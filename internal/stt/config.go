package stt

import (
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"
)

// The environment variables ConfigFromEnv reads.
const (
	EnvBaseURL = "TUTORD_STT_BASE_URL"
	EnvAPIKey  = "TUTORD_STT_API_KEY"
	EnvModel   = "TUTORD_STT_MODEL"
	EnvTimeout = "TUTORD_STT_TIMEOUT"
)

// Defaults of ConfigFromEnv.
const (
	DefaultModel   = "whisper-1"
	DefaultTimeout = 60 * time.Second
)

// Config points at a server with OpenAI's audio API: OpenAI itself, or a
// whisper.cpp or faster-whisper server. Format it freely (%v, slog): the
// key is masked.
type Config struct {
	// BaseURL is the API root to which /audio/transcriptions is appended,
	// e.g. https://api.openai.com/v1 or http://localhost:8000/v1.
	BaseURL string
	// APIKey is sent as a bearer token; local servers need none.
	APIKey string
	// Model is the model field of the request, e.g. whisper-1.
	Model string
	// Timeout bounds one transcription.
	Timeout time.Duration
}

// ConfigFromEnv reads the configuration through getenv (os.Getenv in main,
// a map lookup in tests) and validates it. Errors name the variable but
// never repeat the key or the URL.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	get := func(k string) string { return strings.TrimSpace(getenv(k)) }
	cfg := Config{
		BaseURL: get(EnvBaseURL),
		APIKey:  get(EnvAPIKey),
		Model:   get(EnvModel),
		Timeout: DefaultTimeout,
	}
	if cfg.Model == "" {
		cfg.Model = DefaultModel
	}
	if v := get(EnvTimeout); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return Config{}, fmt.Errorf("%s: %q is not a duration such as 60s", EnvTimeout, v)
		}
		cfg.Timeout = d
	}
	return cfg, cfg.Validate()
}

// Configured reports whether a server is set.
func (c Config) Configured() bool { return c.BaseURL != "" }

// Validate reports the first invalid setting. An unconfigured Config is
// valid: transcription is then off.
func (c Config) Validate() error {
	// Go refuses to send a header with a control character (a key read
	// from a file or a Kubernetes secret often ends in a newline), and
	// every transcription would fail as the service being unavailable.
	if strings.ContainsFunc(c.APIKey, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return fmt.Errorf("%s: contains a control character such as a newline, which an HTTP header cannot carry", EnvAPIKey)
	}
	if c.BaseURL != "" {
		u, err := url.Parse(c.BaseURL)
		switch {
		case err != nil:
			return fmt.Errorf("%s: not a valid URL", EnvBaseURL)
		case u.Scheme != "http" && u.Scheme != "https":
			return fmt.Errorf("%s: must start with https:// or http://", EnvBaseURL)
		case u.Host == "":
			return fmt.Errorf("%s: has no host", EnvBaseURL)
		case u.RawQuery != "" || u.Fragment != "":
			return fmt.Errorf("%s: must not have a query or fragment", EnvBaseURL)
		}
		if c.Model == "" {
			return fmt.Errorf("%s: empty model", EnvModel)
		}
	}
	if c.Timeout <= 0 {
		return fmt.Errorf("%s: must be positive, got %s", EnvTimeout, c.Timeout)
	}
	return nil
}

// String describes c with the key masked.
func (c Config) String() string {
	return fmt.Sprintf("base URL %s, key %s, model %q, timeout %s", redactURL(c.BaseURL), mask(c.APIKey), c.Model, c.Timeout)
}

// GoString keeps %#v from printing the key.
func (c Config) GoString() string { return "stt.Config{" + c.String() + "}" }

// LogValue logs c with the key masked.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("base_url", redactURL(c.BaseURL)),
		slog.String("api_key", mask(c.APIKey)),
		slog.String("model", c.Model),
		slog.Duration("timeout", c.Timeout),
	)
}

func mask(secret string) string {
	if secret == "" {
		return "unset"
	}
	return "set"
}

func redactURL(raw string) string {
	if raw == "" {
		return "unset"
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "(invalid)"
	}
	return u.Redacted()
}
