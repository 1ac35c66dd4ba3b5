package main

import (
	"context"
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

// agents returns the builder of model-backed agents for the engine. Every
// call is recorded (store and metrics) as soon as it completes, and checked
// against the learner's daily budget when one is set.
func (m *models) agents() engine.Models {
	o := llm.Options{Recorder: usageRecorder{m}, Breakers: m.breakers, Logger: m.log}
	if m.budget > 0 {
		o.Budget = &llm.Budget{DailyUSD: m.budget, Spend: m.st}
	}
	return engine.LLMModels{Settings: m.settings, Options: o}
}

// usageRecorder writes each call's usage to the store and the metrics.
type usageRecorder struct{ m *models }

func (u usageRecorder) RecordUsage(ctx context.Context, r llm.UsageRecord) error {
	if u.m.metrics != nil {
		u.m.metrics.LLMCall(string(r.Component), string(r.Provider), r.Model, r.Latency,
			int(r.Usage.InputTokens), int(r.Usage.OutputTokens), int(r.Usage.CachedInputTokens), string(r.ErrorKind))
	}
	if u.m.st == nil {
		return nil
	}
	return u.m.st.RecordUsage(ctx, r)
}
