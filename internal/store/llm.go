package store

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/tutord/tutord/internal/llm"
)

// LLMConfig is one row of llm_config: the provider and model a component
// uses. Components without a row use the rules engine.
type LLMConfig struct {
	Config    llm.Config
	UpdatedAt time.Time
	UpdatedBy string
}

// ListLLMConfig returns every configured component, sorted by component key.
func (s *Store) ListLLMConfig(ctx context.Context) ([]LLMConfig, error) {
	rows, err := s.db.Query(ctx, `
SELECT component_key, provider, model_id, coalesce(description, ''), reasoning_effort, temperature,
    max_output_tokens, updated_at, coalesce(updated_by, '')
FROM llm_config ORDER BY component_key`)
	if err != nil {
		return nil, interpretError("list llm config", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (LLMConfig, error) {
		var c LLMConfig
		var component, provider, effort string
		err := r.Scan(&component, &provider, &c.Config.Model, &c.Config.Description, &effort, &c.Config.Temperature,
			&c.Config.MaxOutputTokens, &c.UpdatedAt, &c.UpdatedBy)
		c.Config.Component, c.Config.Provider, c.Config.Effort = llm.Component(component), llm.Provider(provider), llm.Effort(effort)
		return c, err
	})
	return out, interpretError("list llm config", err)
}

// SetLLMConfig creates or replaces a component's configuration. The caller
// validates it (llm.Config.Validate) first.
func (s *Store) SetLLMConfig(ctx context.Context, c llm.Config, by string, now time.Time) (LLMConfig, error) {
	const q = `
INSERT INTO llm_config (component_key, provider, model_id, description, reasoning_effort, temperature,
    max_output_tokens, updated_at, updated_by)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
ON CONFLICT (component_key) DO UPDATE SET
    provider = EXCLUDED.provider, model_id = EXCLUDED.model_id, description = EXCLUDED.description,
    reasoning_effort = EXCLUDED.reasoning_effort, temperature = EXCLUDED.temperature,
    max_output_tokens = EXCLUDED.max_output_tokens, updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by`
	now = timeOrNow(now)
	if _, err := s.db.Exec(ctx, q, string(c.Component), string(c.Provider), c.Model, nullString(c.Description),
		string(c.Effort), c.Temperature, c.MaxOutputTokens, now, nullString(by)); err != nil {
		return LLMConfig{}, interpretError("set llm config "+string(c.Component), err)
	}
	s.llmConfigs.Add(1)
	return LLMConfig{Config: c, UpdatedAt: now, UpdatedBy: by}, nil
}

// DeleteLLMConfig removes a component's configuration (it then uses the
// rules engine). Removing an absent row is not an error.
func (s *Store) DeleteLLMConfig(ctx context.Context, component llm.Component) error {
	_, err := s.db.Exec(ctx, `DELETE FROM llm_config WHERE component_key = $1`, string(component))
	if err == nil {
		s.llmConfigs.Add(1)
	}
	return interpretError("delete llm config", err)
}

// LLMConfigVersion counts the changes made to llm_config through this store
// (SetLLMConfig, DeleteLLMConfig) since it was created, so that a cache of
// the table in the same process sees a change at once: it rereads the
// table when the count moves. Changes made by other processes are not
// counted.
func (s *Store) LLMConfigVersion() uint64 { return s.llmConfigs.Load() }

// RecordUsage stores one model call's usage (it implements llm.UsageRecorder).
func (s *Store) RecordUsage(ctx context.Context, r llm.UsageRecord) error {
	learner, err := optionalUUID(r.LearnerID)
	if err != nil {
		return fmt.Errorf("record usage: learner id: %w", err)
	}
	session, err := optionalUUID(r.SessionID)
	if err != nil {
		return fmt.Errorf("record usage: session id: %w", err)
	}
	_, err = s.db.Exec(ctx, `
INSERT INTO llm_usage (learner_id, session_id, component, provider, model, attempts, latency_ms,
    input_tokens, output_tokens, cached_tokens, cost_usd, priced, error_kind, prompt_hash, created_at, estimated)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
		learner, session, string(r.Component), string(r.Provider), r.Model, r.Attempts, r.Latency.Milliseconds(),
		r.Usage.InputTokens, r.Usage.OutputTokens, r.Usage.CachedInputTokens, r.CostUSD, r.Priced,
		nullString(string(r.ErrorKind)), nullString(r.PromptHash), timeOrNow(r.Time), r.Usage.Estimated)
	return interpretError("record usage", err)
}

// LearnerSpendSince returns the estimated cost of a learner's model calls
// since a time (it implements llm.SpendReader).
func (s *Store) LearnerSpendSince(ctx context.Context, learnerID string, since time.Time) (float64, error) {
	id, err := uuid.Parse(learnerID)
	if err != nil {
		return 0, fmt.Errorf("learner spend: %w", err)
	}
	var spend float64
	err = s.db.QueryRow(ctx, `SELECT coalesce(sum(cost_usd), 0) FROM llm_usage WHERE learner_id = $1 AND created_at >= $2`,
		id, since).Scan(&spend)
	return spend, interpretError("learner spend", err)
}

// AnonymousSpendSince returns the estimated cost of the model calls of
// anonymous sessions since a time (it implements llm.SpendReader).
func (s *Store) AnonymousSpendSince(ctx context.Context, since time.Time) (float64, error) {
	var spend float64
	err := s.db.QueryRow(ctx, `SELECT coalesce(sum(cost_usd), 0) FROM llm_usage WHERE learner_id IS NULL AND created_at >= $1`,
		since).Scan(&spend)
	return spend, interpretError("anonymous spend", err)
}

func optionalUUID(s string) (*uuid.UUID, error) {
	if s == "" {
		return nil, nil
	}
	id, err := uuid.Parse(s)
	if err != nil {
		return nil, err
	}
	return &id, nil
}

var (
	_ llm.UsageRecorder = (*Store)(nil)
	_ llm.SpendReader   = (*Store)(nil)
)
