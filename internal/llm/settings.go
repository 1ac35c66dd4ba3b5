package llm

import (
	"cmp"
	"fmt"
	"log/slog"
	"math"
	"net/url"
	"strconv"
	"strings"
)

// The environment variables SettingsFromEnv reads.
const (
	EnvOpenAIKey         = "OPENAI_API_KEY"
	EnvAnthropicKey      = "ANTHROPIC_API_KEY"
	EnvGeminiKey         = "GEMINI_API_KEY"
	EnvGoogleKey         = "GOOGLE_API_KEY"
	EnvCompatibleBaseURL = "TUTORD_OPENAI_COMPATIBLE_BASE_URL"
	EnvCompatibleKey     = "TUTORD_OPENAI_COMPATIBLE_API_KEY"
	EnvDailyBudget       = "TUTORD_DAILY_BUDGET_USD"
	// EnvPrices holds a JSON price table (see ParsePrices) that overrides
	// entries of DefaultPrices.
	EnvPrices = "TUTORD_LLM_PRICES"
)

// Settings are what the environment says about model providers: keys and
// endpoints, which never come from the database, plus the budget and
// prices. Format it freely (%v, slog): the keys are masked.
type Settings struct {
	OpenAIKey    string
	AnthropicKey string
	GoogleKey    string

	// CompatibleBaseURL is the endpoint of an OpenAI-compatible server
	// (Ollama, vLLM, llama.cpp, LM Studio, OpenRouter), e.g.
	// http://localhost:11434/v1; CompatibleKey is optional.
	CompatibleBaseURL string
	CompatibleKey     string

	// Base URLs of the hosted providers; empty means their public endpoint.
	// They are not read from the environment: tests point them at fake
	// servers, and a deployment behind a gateway may set them in code.
	OpenAIBaseURL    string
	AnthropicBaseURL string
	GoogleBaseURL    string

	// DailyBudgetUSD caps each learner's daily spend; 0 means no cap.
	DailyBudgetUSD float64
	// Prices estimate the cost of calls; nil means DefaultPrices.
	Prices PriceTable
}

// SettingsFromEnv reads the settings through getenv (os.Getenv in main, a
// map lookup in tests). Malformed values are errors that name the variable
// but never repeat a secret.
func SettingsFromEnv(getenv func(string) string) (Settings, error) {
	get := func(k string) string { return strings.TrimSpace(getenv(k)) }
	s := Settings{
		OpenAIKey:         get(EnvOpenAIKey),
		AnthropicKey:      get(EnvAnthropicKey),
		GoogleKey:         cmp.Or(get(EnvGeminiKey), get(EnvGoogleKey)),
		CompatibleBaseURL: get(EnvCompatibleBaseURL),
		CompatibleKey:     get(EnvCompatibleKey),
		Prices:            DefaultPrices(),
	}
	if s.CompatibleBaseURL != "" {
		if err := checkBaseURL(EnvCompatibleBaseURL, s.CompatibleBaseURL); err != nil {
			return Settings{}, err
		}
	}
	if v := get(EnvDailyBudget); v != "" {
		b, err := strconv.ParseFloat(v, 64)
		if err != nil || b < 0 || math.IsNaN(b) || math.IsInf(b, 0) {
			return Settings{}, fmt.Errorf("%w: %s=%q must be a non-negative number of US dollars", ErrInvalidConfig, EnvDailyBudget, v)
		}
		s.DailyBudgetUSD = b
	}
	if v := get(EnvPrices); v != "" {
		p, err := ParsePrices([]byte(v))
		if err != nil {
			return Settings{}, fmt.Errorf("%s: %w", EnvPrices, err)
		}
		s.Prices = s.Prices.With(p)
	}
	return s, nil
}

// CheckProvider reports whether the environment has what provider p needs:
// a clear error naming the missing variable, or nil.
func (s Settings) CheckProvider(p Provider) error {
	p, err := ParseProvider(string(p))
	if err != nil {
		return err
	}
	missing := func(vars string) error {
		return fmt.Errorf("%w: provider %s needs %s in the environment, which is not set", ErrInvalidConfig, p, vars)
	}
	switch p {
	case ProviderOpenAI:
		if s.OpenAIKey == "" {
			return missing(EnvOpenAIKey)
		}
	case ProviderAnthropic:
		if s.AnthropicKey == "" {
			return missing(EnvAnthropicKey)
		}
	case ProviderGoogle:
		if s.GoogleKey == "" {
			return missing(EnvGeminiKey + " (or " + EnvGoogleKey + ")")
		}
	case ProviderOpenAICompatible:
		if s.CompatibleBaseURL == "" {
			return missing(EnvCompatibleBaseURL)
		}
		return checkBaseURL(EnvCompatibleBaseURL, s.CompatibleBaseURL)
	}
	return nil
}

// checkBaseURL accepts absolute http(s) URLs with a host. The error does not
// repeat the URL, which may carry credentials.
func checkBaseURL(name, raw string) error {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return fmt.Errorf("%w: %s is not a valid URL", ErrInvalidConfig, name)
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("%w: %s must start with http:// or https://", ErrInvalidConfig, name)
	case u.Host == "":
		return fmt.Errorf("%w: %s has no host", ErrInvalidConfig, name)
	case u.RawQuery != "" || u.Fragment != "":
		return fmt.Errorf("%w: %s must not have a query or fragment", ErrInvalidConfig, name)
	}
	return nil
}

// String describes s with its keys masked.
func (s Settings) String() string {
	return fmt.Sprintf("openai key %s, anthropic key %s, google key %s, openai-compatible %s (key %s), daily budget $%g",
		mask(s.OpenAIKey), mask(s.AnthropicKey), mask(s.GoogleKey),
		cmp.Or(redactURL(s.CompatibleBaseURL), "unset"), mask(s.CompatibleKey), s.DailyBudgetUSD)
}

// GoString keeps %#v from printing the keys.
func (s Settings) GoString() string { return "llm.Settings{" + s.String() + "}" }

// LogValue logs s with its keys masked.
func (s Settings) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("openai_key", mask(s.OpenAIKey)),
		slog.String("anthropic_key", mask(s.AnthropicKey)),
		slog.String("google_key", mask(s.GoogleKey)),
		slog.String("openai_compatible_base_url", redactURL(s.CompatibleBaseURL)),
		slog.String("openai_compatible_key", mask(s.CompatibleKey)),
		slog.Float64("daily_budget_usd", s.DailyBudgetUSD),
	)
}

func mask(secret string) string {
	if secret == "" {
		return "unset"
	}
	return "set"
}

func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(invalid)"
	}
	return u.Redacted()
}
