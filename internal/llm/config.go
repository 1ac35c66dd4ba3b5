package llm

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// ErrInvalidConfig is wrapped by every configuration error: unknown
// component or provider, missing key, malformed base URL, negative budget.
var ErrInvalidConfig = errors.New("invalid llm configuration")

// ErrRulesEngine is returned by Resolve for a component configured with the
// rules provider: it has no model client, and the caller uses the built-in
// rules engine instead.
var ErrRulesEngine = errors.New("component uses the rules engine")

// Component names a part of tutord that calls a model. Each has its own row
// of configuration.
type Component string

// The components.
const (
	ComponentTutor         Component = "tutor"
	ComponentEvalEvaluator Component = "eval_evaluator"
	ComponentEvalSimulator Component = "eval_simulator"
	ComponentSafety        Component = "safety"
	ComponentExamGenerator Component = "exam_generator"
	ComponentExamEvaluator Component = "exam_evaluator"
	ComponentWelcome       Component = "welcome"
)

// Components returns every component, in a stable order.
func Components() []Component {
	return []Component{
		ComponentTutor, ComponentEvalEvaluator, ComponentEvalSimulator, ComponentSafety,
		ComponentExamGenerator, ComponentExamEvaluator, ComponentWelcome,
	}
}

// ParseComponent returns the component named s.
func ParseComponent(s string) (Component, error) {
	for _, c := range Components() {
		if string(c) == s {
			return c, nil
		}
	}
	return "", fmt.Errorf("%w: unknown component %q (want one of tutor, eval_evaluator, eval_simulator, safety, exam_generator, exam_evaluator, welcome)", ErrInvalidConfig, s)
}

// Provider names a model provider, or the rules engine.
type Provider string

// The providers.
const (
	ProviderOpenAI           Provider = "openai"
	ProviderAnthropic        Provider = "anthropic"
	ProviderGoogle           Provider = "google"
	ProviderOpenAICompatible Provider = "openai-compatible"
	// ProviderRules means: no model; use the built-in rules engine.
	ProviderRules Provider = "rules"
)

// Providers returns every provider, in a stable order.
func Providers() []Provider {
	return []Provider{ProviderOpenAI, ProviderAnthropic, ProviderGoogle, ProviderOpenAICompatible, ProviderRules}
}

// knownModels are the models a provider may be set to, in the order an
// admin page offers them: the reference's lists with tutord's additions,
// less gpt-5.3-codex (OpenAI serves codex models only on its Responses
// API, and tutord's adapter speaks Chat Completions) and less
// gemini-3-pro-preview (Google shut it down on 9 March 2026; its
// replacement is gemini-3.1-pro-preview). openai-compatible has no list: a
// local server serves whatever it has loaded.
var knownModels = map[Provider][]string{
	ProviderOpenAI:           {"gpt-5.2", "gpt-5.1", "gpt-4o", "gpt-4o-mini"},
	ProviderAnthropic:        {"claude-opus-4-6", "claude-sonnet-4-5", "claude-haiku-4-5-20251001", "claude-haiku-4-5"},
	ProviderGoogle:           {"gemini-3.1-pro-preview", "gemini-3-flash-preview", "gemini-2.5-flash"},
	ProviderOpenAICompatible: {},
	ProviderRules:            {"rules"},
}

// KnownModels returns the models each provider may be set to; a provider
// with an empty list takes any model id. The caller must not change it.
func KnownModels() map[Provider][]string { return knownModels }

// KnownModel reports whether a provider may be set to model: always for a
// provider without a fixed list.
func KnownModel(p Provider, model string) bool {
	valid := knownModels[p]
	return len(valid) == 0 || slices.Contains(valid, model)
}

// ParseProvider returns the provider named s. It accepts "gemini" as an
// alias of google, and ignores case and surrounding space.
func ParseProvider(s string) (Provider, error) {
	n := strings.ToLower(strings.TrimSpace(s))
	if n == "gemini" {
		return ProviderGoogle, nil
	}
	for _, p := range Providers() {
		if string(p) == n {
			return p, nil
		}
	}
	return "", fmt.Errorf("%w: unknown provider %q (want one of openai, anthropic, google (or gemini), openai-compatible, rules)", ErrInvalidConfig, s)
}

// Config is the model configuration of one component: a row of the
// llm_config table without its bookkeeping columns (updated at, updated by).
type Config struct {
	Component   Component
	Provider    Provider
	Model       string
	Description string
	Effort      Effort
	// Temperature is nil for the provider's default.
	Temperature *float64
	// MaxOutputTokens is 0 for the adapter's default.
	MaxOutputTokens int
}

// DefaultConfig returns the configuration of a component that has none
// stored: the rules engine, which needs no network and no key.
func DefaultConfig(c Component) Config {
	return Config{Component: c, Provider: ProviderRules}
}

// UsesRules reports whether the component runs on the rules engine.
func (c Config) UsesRules() bool { return c.Provider == ProviderRules }

// maxOutputTokensLimit is far above any current model's limit; it only
// catches typos such as an extra zero or a negative number cast to unsigned.
const maxOutputTokensLimit = 1 << 20

// Validate reports every problem of c that can be seen without the
// environment. Keys are checked by Settings.CheckProvider.
func (c Config) Validate() error {
	var errs []error
	if _, err := ParseComponent(string(c.Component)); err != nil {
		errs = append(errs, err)
	}
	p, err := ParseProvider(string(c.Provider))
	if err != nil {
		errs = append(errs, err)
	}
	if p != "" && p != ProviderRules {
		switch {
		case strings.TrimSpace(c.Model) == "":
			errs = append(errs, fmt.Errorf("%w: provider %s needs a model id", ErrInvalidConfig, p))
		case strings.ContainsAny(c.Model, " \t\r\n"):
			errs = append(errs, fmt.Errorf("%w: model id %q contains spaces", ErrInvalidConfig, c.Model))
		}
	}
	if _, err := ParseEffort(string(c.Effort)); err != nil {
		errs = append(errs, err)
	}
	if t := c.Temperature; t != nil && (math.IsNaN(*t) || *t < 0 || *t > 2) {
		errs = append(errs, fmt.Errorf("%w: temperature %v is outside [0, 2]", ErrInvalidConfig, *t))
	}
	if c.MaxOutputTokens < 0 || c.MaxOutputTokens > maxOutputTokensLimit {
		errs = append(errs, fmt.Errorf("%w: max output tokens %d is outside [0, %d]", ErrInvalidConfig, c.MaxOutputTokens, maxOutputTokensLimit))
	}
	return errors.Join(errs...)
}

// ValidateEdit is Validate for a configuration an admin sets: it also
// refuses a setting its provider would never receive, Anthropic's
// temperature (its Messages API takes none), rather than store it and
// ignore it. A stored configuration is not refused for it: the sessions
// pinned to one go on.
func (c Config) ValidateEdit() error {
	err := c.Validate()
	if c.Provider == ProviderAnthropic && c.Temperature != nil {
		err = errors.Join(err, fmt.Errorf("%w: provider anthropic takes no temperature; leave it unset", ErrInvalidConfig))
	}
	return err
}
