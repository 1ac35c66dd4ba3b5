package llm

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseProvider(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Provider
		ok   bool
	}{
		{"openai", ProviderOpenAI, true},
		{"anthropic", ProviderAnthropic, true},
		{"google", ProviderGoogle, true},
		{"gemini", ProviderGoogle, true},
		{" Gemini ", ProviderGoogle, true},
		{"openai-compatible", ProviderOpenAICompatible, true},
		{"rules", ProviderRules, true},
		{"", "", false},
		{"azure", "", false},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseProvider(tc.in)
			if got != tc.want || (err == nil) != tc.ok {
				t.Fatalf("ParseProvider(%q) = %q, %v", tc.in, got, err)
			}
			if err != nil && (!errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), "unknown provider")) {
				t.Errorf("error %q is not a clear config error", err)
			}
		})
	}
}

func TestParseComponent(t *testing.T) {
	for _, c := range Components() {
		if got, err := ParseComponent(string(c)); got != c || err != nil {
			t.Errorf("ParseComponent(%q) = %q, %v", c, got, err)
		}
	}
	if _, err := ParseComponent("tutorr"); !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), `unknown component "tutorr"`) {
		t.Errorf("ParseComponent(tutorr) = %v", err)
	}
}

func TestDefaultConfig(t *testing.T) {
	for _, c := range Components() {
		cfg := DefaultConfig(c)
		if !cfg.UsesRules() || cfg.Component != c {
			t.Errorf("DefaultConfig(%s) = %+v, want the rules engine", c, cfg)
		}
		if err := cfg.Validate(); err != nil {
			t.Errorf("DefaultConfig(%s) is invalid: %v", c, err)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	temp := func(f float64) *float64 { return &f }
	valid := Config{Component: ComponentTutor, Provider: ProviderOpenAI, Model: "gpt-5.2", Effort: EffortNone, Temperature: temp(0.7), MaxOutputTokens: 2000}
	for _, tc := range []struct {
		name   string
		change func(*Config)
		want   []string // substrings of the error; none means valid
	}{
		{"valid", func(*Config) {}, nil},
		{"gemini alias", func(c *Config) { c.Provider = "gemini" }, nil},
		{"unknown component", func(c *Config) { c.Component = "grader" }, []string{`unknown component "grader"`}},
		{"unknown provider", func(c *Config) { c.Provider = "azure" }, []string{`unknown provider "azure"`}},
		{"missing model", func(c *Config) { c.Model = " " }, []string{"needs a model id"}},
		{"model with spaces", func(c *Config) { c.Model = "gpt 5" }, []string{"contains spaces"}},
		{"rules needs no model", func(c *Config) { c.Provider, c.Model = ProviderRules, "" }, nil},
		// The API spec offers minimal beside none, low, medium and high.
		{"minimal effort", func(c *Config) { c.Effort = EffortMinimal }, nil},
		{"unknown effort", func(c *Config) { c.Effort = "extreme" }, []string{`unknown reasoning effort "extreme"`}},
		{"temperature", func(c *Config) { c.Temperature = temp(2.5) }, []string{"temperature 2.5"}},
		{"negative max tokens", func(c *Config) { c.MaxOutputTokens = -1 }, []string{"max output tokens -1"}},
		{"every problem at once", func(c *Config) { c.Component, c.Provider = "x", "y" }, []string{`component "x"`, `provider "y"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := valid
			tc.change(&cfg)
			err := cfg.Validate()
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("Validate = %v", err)
				}
				return
			}
			if !errors.Is(err, ErrInvalidConfig) {
				t.Fatalf("Validate = %v, want ErrInvalidConfig", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestSettingsFromEnv(t *testing.T) {
	for _, tc := range []struct {
		name    string
		env     map[string]string
		check   func(*testing.T, Settings)
		wantErr string
	}{
		{name: "empty", env: nil, check: func(t *testing.T, s Settings) {
			if s.DailyBudgetUSD != 0 || s.OpenAIKey != "" || s.Prices == nil {
				t.Errorf("settings = %+v", s)
			}
		}},
		{name: "keys", env: map[string]string{
			EnvOpenAIKey: "sk-o ", EnvAnthropicKey: "sk-a", EnvGoogleKey: "g-old", EnvGeminiKey: "g-new",
			EnvCompatibleBaseURL: "http://localhost:11434/v1", EnvCompatibleKey: "ollama",
		}, check: func(t *testing.T, s Settings) {
			want := []string{"sk-o", "sk-a", "g-new", "http://localhost:11434/v1", "ollama"}
			got := []string{s.OpenAIKey, s.AnthropicKey, s.GoogleKey, s.CompatibleBaseURL, s.CompatibleKey}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		}},
		{name: "GOOGLE_API_KEY alone", env: map[string]string{EnvGoogleKey: "g"}, check: func(t *testing.T, s Settings) {
			if s.GoogleKey != "g" {
				t.Errorf("GoogleKey = %q", s.GoogleKey)
			}
		}},
		{name: "budget", env: map[string]string{EnvDailyBudget: "0.50"}, check: func(t *testing.T, s Settings) {
			if s.DailyBudgetUSD != 0.5 {
				t.Errorf("budget = %v", s.DailyBudgetUSD)
			}
		}},
		{name: "price override", env: map[string]string{EnvPrices: `{"openai": {"gpt-4o": {"input": 1, "output": 2}}, "gemini": {"my-tuned": {"input": 3, "output": 4, "cached_input": 0.5}}}`},
			check: func(t *testing.T, s Settings) {
				got := []Price{s.Prices[ProviderOpenAI]["gpt-4o"], s.Prices[ProviderGoogle]["my-tuned"], s.Prices[ProviderOpenAI]["gpt-4o-mini"]}
				want := []Price{{Input: 1, Output: 2, CachedInput: 1, CacheWriteInput: 1}, {Input: 3, Output: 4, CachedInput: 0.5, CacheWriteInput: 3}, DefaultPrices()[ProviderOpenAI]["gpt-4o-mini"]}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("(-want +got):\n%s", diff)
				}
			}},
		{name: "negative budget", env: map[string]string{EnvDailyBudget: "-1"}, wantErr: EnvDailyBudget},
		{name: "budget not a number", env: map[string]string{EnvDailyBudget: "ten"}, wantErr: EnvDailyBudget},
		{name: "budget NaN", env: map[string]string{EnvDailyBudget: "NaN"}, wantErr: EnvDailyBudget},
		{name: "base URL without scheme", env: map[string]string{EnvCompatibleBaseURL: "localhost:11434/v1"}, wantErr: "must start with http"},
		{name: "base URL unparsable", env: map[string]string{EnvCompatibleBaseURL: "http://[::1"}, wantErr: "not a valid URL"},
		{name: "base URL without host", env: map[string]string{EnvCompatibleBaseURL: "http:///v1"}, wantErr: "has no host"},
		{name: "malformed prices", env: map[string]string{EnvPrices: `{"openai": {"gpt-4o": {"input": -1, "output": 2}}}`}, wantErr: "negative"},
		{name: "prices for an unknown provider", env: map[string]string{EnvPrices: `{"azure": {}}`}, wantErr: "unknown provider"},
		// The operator is told which variable to fix.
		{name: "prices with text after the table", env: map[string]string{EnvPrices: `{"openai": {}}}`}, wantErr: EnvPrices + ": "},
		{name: "prices of one model under two names", env: map[string]string{EnvPrices: `{"google": {"g": {"input": 1, "output": 1}}, "gemini": {"g": {"input": 2, "output": 2}}}`}, wantErr: `priced under both "gemini" and "google"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := SettingsFromEnv(env(tc.env))
			if tc.wantErr != "" {
				if !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("SettingsFromEnv = %v, want a config error mentioning %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, s)
		})
	}
}

func TestCheckProvider(t *testing.T) {
	full := Settings{OpenAIKey: "a", AnthropicKey: "b", GoogleKey: "c", CompatibleBaseURL: "http://localhost:8000/v1"}
	for _, tc := range []struct {
		p       Provider
		s       Settings
		wantErr string
	}{
		{ProviderOpenAI, full, ""},
		{ProviderOpenAI, Settings{}, "needs OPENAI_API_KEY"},
		{ProviderAnthropic, Settings{}, "needs ANTHROPIC_API_KEY"},
		{ProviderGoogle, Settings{}, "needs GEMINI_API_KEY (or GOOGLE_API_KEY)"},
		{"gemini", Settings{}, "needs GEMINI_API_KEY"},
		{ProviderOpenAICompatible, Settings{}, "needs TUTORD_OPENAI_COMPATIBLE_BASE_URL"},
		{ProviderOpenAICompatible, Settings{CompatibleBaseURL: "ftp://x"}, "must start with http"},
		{ProviderOpenAICompatible, full, ""},
		{ProviderRules, Settings{}, ""},
		{"bogus", full, "unknown provider"},
	} {
		t.Run(string(tc.p)+tc.wantErr, func(t *testing.T) {
			err := tc.s.CheckProvider(tc.p)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("CheckProvider = %v, want %q", err, tc.wantErr)
			}
		})
	}
}

func TestSettingsNeverShowKeys(t *testing.T) {
	s := Settings{OpenAIKey: "sk-secret-1", AnthropicKey: "sk-secret-2", GoogleKey: "sk-secret-3",
		CompatibleBaseURL: "https://user:sk-secret-4@router.example/v1", CompatibleKey: "sk-secret-5"}
	var logged strings.Builder
	slog.New(slog.NewTextHandler(&logged, nil)).Info("settings", "llm", s)
	for _, out := range []string{fmt.Sprint(s), fmt.Sprintf("%v %+v %#v %s", s, s, s, s), logged.String()} {
		if strings.Contains(out, "sk-secret") {
			t.Errorf("a key leaked: %s", out)
		}
	}
}

func TestResolve(t *testing.T) {
	settings := Settings{OpenAIKey: "sk-test", AnthropicKey: "sk-ant", GoogleKey: "g", CompatibleBaseURL: "http://localhost:11434/v1"}
	for _, tc := range []struct {
		name    string
		cfg     Config
		s       Settings
		o       Options
		wantErr error
		want    string
	}{
		{name: "openai", cfg: Config{Component: ComponentTutor, Provider: ProviderOpenAI, Model: "gpt-5.2"}, s: settings},
		{name: "anthropic", cfg: Config{Component: ComponentSafety, Provider: ProviderAnthropic, Model: "claude-haiku-4-5"}, s: settings},
		{name: "gemini alias", cfg: Config{Component: ComponentWelcome, Provider: "gemini", Model: "gemini-2.5-flash"}, s: settings},
		{name: "openai-compatible", cfg: Config{Component: ComponentEvalSimulator, Provider: ProviderOpenAICompatible, Model: "llama3.1"}, s: settings},
		{name: "rules", cfg: DefaultConfig(ComponentTutor), s: settings, wantErr: ErrRulesEngine},
		{name: "invalid config", cfg: Config{Component: "nope", Provider: ProviderOpenAI, Model: "m"}, s: settings, wantErr: ErrInvalidConfig, want: "unknown component"},
		{name: "missing key", cfg: Config{Component: ComponentTutor, Provider: ProviderAnthropic, Model: "claude-haiku-4-5"}, s: Settings{}, wantErr: ErrInvalidConfig, want: "ANTHROPIC_API_KEY"},
		{name: "malformed base URL", cfg: Config{Component: ComponentTutor, Provider: ProviderOpenAICompatible, Model: "m"}, s: Settings{CompatibleBaseURL: "localhost"}, wantErr: ErrInvalidConfig, want: "http"},
		{name: "malformed provider base URL", cfg: Config{Component: ComponentTutor, Provider: ProviderOpenAI, Model: "m"}, s: Settings{OpenAIKey: "k", OpenAIBaseURL: "::"}, wantErr: ErrInvalidConfig, want: "OpenAIBaseURL"},
		{name: "negative budget", cfg: Config{Component: ComponentTutor, Provider: ProviderOpenAI, Model: "m"}, s: settings,
			o: Options{Budget: &Budget{DailyUSD: -2, Spend: fixedSpend(0)}}, wantErr: ErrInvalidConfig, want: "non-negative"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Resolve(tc.cfg, tc.s, tc.o)
			if tc.wantErr == nil {
				if err != nil || c == nil {
					t.Fatalf("Resolve = %v, %v", c, err)
				}
				return
			}
			if !errors.Is(err, tc.wantErr) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Resolve error = %v, want %v mentioning %q", err, tc.wantErr, tc.want)
			}
			for _, key := range []string{"sk-test", "sk-ant"} {
				if strings.Contains(err.Error(), key) {
					t.Errorf("error shows a key: %v", err)
				}
			}
		})
	}
}
