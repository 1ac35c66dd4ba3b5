package main

import (
	"log/slog"

	"github.com/tutord/tutord/internal/agents/engine"
	"github.com/tutord/tutord/internal/config"
	"github.com/tutord/tutord/internal/httpapi"
	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/store"
)

// models holds what model-backed agents need: provider settings from the
// environment, the shared circuit breakers, the budget, and the usage store.
type models struct {
	settings llm.Settings
	budget   float64
	breakers *llm.Breakers
	log      *slog.Logger
	st       *store.Store
	metrics  *httpapi.Metrics
}

func newModels(cfg config.Config, environ map[string]string, log *slog.Logger) (*models, error) {
	s, err := llm.SettingsFromEnv(func(k string) string { return environ[k] })
	if err != nil {
		return nil, err
	}
	if cfg.LLMPrices != "" {
		prices, err := llm.ParsePrices([]byte(cfg.LLMPrices))
		if err != nil {
			return nil, err
		}
		s.Prices = s.Prices.With(prices)
	}
	return &models{settings: s, budget: cfg.DailyBudgetUSD, breakers: llm.NewBreakers(llm.BreakerOptions{}), log: log}, nil
}

// bind gives the models the usage store and the metrics once they exist.
func (m *models) bind(st *store.Store, metrics *httpapi.Metrics) { m.st, m.metrics = st, metrics }

// checkKey reports a provider whose key or base URL is missing.
func (m *models) checkKey(p llm.Provider) error { return m.settings.CheckProvider(p) }

// agents returns the builder of model-backed agents for the engine.
func (m *models) agents() engine.Models { return nil }
