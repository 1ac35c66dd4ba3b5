package llm

import (
	"cmp"
	"context"
	"errors"
	"fmt"
)

// Resolve returns a ready client for a component's configuration. Resolve
// the configuration once, when a session starts, and keep the client (or the
// Config) with the session, so that editing the table does not change
// running sessions.
//
// It returns ErrRulesEngine for the rules provider, and an error wrapping
// ErrInvalidConfig when cfg is invalid or the environment lacks what the
// provider needs. It makes no network call.
func Resolve(cfg Config, s Settings, o Options) (Client, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("llm: component %s: %w", cfg.Component, err)
	}
	p, err := ParseProvider(string(cfg.Provider))
	if err != nil {
		return nil, err
	}
	cfg.Provider = p
	if p == ProviderRules {
		return nil, ErrRulesEngine
	}
	if err := s.CheckProvider(p); err != nil {
		return nil, fmt.Errorf("llm: component %s: %w", cfg.Component, err)
	}
	if err := o.Budget.Validate(); err != nil {
		return nil, fmt.Errorf("llm: %w", err)
	}
	for _, u := range []struct{ name, url string }{
		{"Settings.OpenAIBaseURL", s.OpenAIBaseURL},
		{"Settings.AnthropicBaseURL", s.AnthropicBaseURL},
		{"Settings.GoogleBaseURL", s.GoogleBaseURL},
	} {
		if u.url != "" {
			if err := checkBaseURL(u.name, u.url); err != nil {
				return nil, fmt.Errorf("llm: %w", err)
			}
		}
	}

	var (
		b   backend
		key string
	)
	switch p {
	case ProviderOpenAI:
		key = s.OpenAIKey
		b = newOpenAIBackend(cmp.Or(s.OpenAIBaseURL, openaiDefaultBaseURL), key, false, o.HTTPClient)
	case ProviderOpenAICompatible:
		key = s.CompatibleKey
		b = newOpenAIBackend(s.CompatibleBaseURL, key, true, o.HTTPClient)
	case ProviderAnthropic:
		key = s.AnthropicKey
		b = newAnthropicBackend(s.AnthropicBaseURL, key, o.HTTPClient)
	case ProviderGoogle:
		key = s.GoogleKey
		// With an API key, genai's constructor does no I/O; the context is
		// only used to look up cloud credentials, which are not used here.
		b, err = newGoogleBackend(context.Background(), cmp.Or(s.GoogleBaseURL, googleDefaultBaseURL), key, o.HTTPClient)
		if err != nil {
			return nil, err
		}
	default:
		return nil, errors.New("llm: unreachable: provider without adapter")
	}
	prices := s.Prices
	if prices == nil {
		prices = DefaultPrices()
	}
	c := newClient(cfg, b, prices, o)
	c.secret = key
	return c, nil
}
