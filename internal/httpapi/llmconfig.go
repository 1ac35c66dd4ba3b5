package httpapi

import (
	"context"
	"errors"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/store"
	"github.com/tutord/tutord/internal/tutor"
)

// LLMConfigStore reads and writes the llm_config table.
type LLMConfigStore interface {
	ListLLMConfig(ctx context.Context) ([]store.LLMConfig, error)
	SetLLMConfig(ctx context.Context, c llm.Config, by string, now time.Time) (store.LLMConfig, error)
}

// checkModel returns the reference's 400 for a model that a provider with
// a fixed list does not serve (CONTRACT §2.8), so that a typo is a 400 and
// not a 503 on every later turn.
func checkModel(p llm.Provider, model string) error {
	if llm.KnownModel(p, model) {
		return nil
	}
	return &Error{Status: http.StatusBadRequest, Code: "unknown_model",
		Message: "Unknown model '" + model + "' for provider '" + string(p) + "'. Valid: " + pythonList(llm.KnownModels()[p])}
}

// pythonList formats names as the reference's messages do: a Python list's
// repr, ['a', 'b'].
func pythonList[S ~string](names []S) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = "'" + string(n) + "'"
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}

// llmConfigRow is a component's configuration as the admin routes list
// it. Unset knobs are null, as PUT takes them, so that a row read can be
// written back.
type llmConfigRow struct {
	ComponentKey    string      `json:"component_key"`
	Provider        string      `json:"provider"`
	ModelID         string      `json:"model_id"`
	Description     *string     `json:"description"`
	UpdatedAt       *tutor.Time `json:"updated_at"`
	UpdatedBy       *string     `json:"updated_by"`
	ReasoningEffort *string     `json:"reasoning_effort"`
	Temperature     *float64    `json:"temperature"`
	MaxOutputTokens *int        `json:"max_output_tokens"`
}

// newLLMConfigRow returns the row of a stored configuration.
func newLLMConfigRow(c llm.Config, updatedAt time.Time, by string) llmConfigRow {
	t := tutor.NewTime(updatedAt)
	var maxTokens *int
	if c.MaxOutputTokens > 0 {
		maxTokens = &c.MaxOutputTokens
	}
	return llmConfigRow{
		ComponentKey: string(c.Component), Provider: string(c.Provider), ModelID: c.Model,
		Description: nonEmpty(c.Description), UpdatedAt: &t, UpdatedBy: nonEmpty(by),
		ReasoningEffort: nonEmpty(string(c.Effort)), Temperature: c.Temperature, MaxOutputTokens: maxTokens,
	}
}

// effectiveConfig returns every component's configuration: its row, or
// the rules engine.
func (s *Server) effectiveConfig(ctx context.Context) ([]llmConfigRow, error) {
	byKey := map[string]llmConfigRow{}
	if s.deps.LLMConfig != nil {
		rows, err := s.deps.LLMConfig.ListLLMConfig(ctx)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			byKey[string(r.Config.Component)] = newLLMConfigRow(r.Config, r.UpdatedAt, r.UpdatedBy)
		}
	}
	var out []llmConfigRow
	for _, c := range llm.Components() {
		r, ok := byKey[string(c)]
		if !ok {
			d := "Built-in rules engine"
			r = llmConfigRow{ComponentKey: string(c), Provider: "rules", ModelID: "rules", Description: &d}
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ComponentKey < out[j].ComponentKey })
	return out, nil
}

// configModels serves GET /config/models: each component's provider and model.
func (s *Server) configModels(c echo.Context) error {
	rows, err := s.effectiveConfig(c.Request().Context())
	if err != nil {
		return err
	}
	out := make(map[string]any, len(rows))
	for _, r := range rows {
		out[r.ComponentKey] = map[string]any{"provider": r.Provider, "model_id": r.ModelID, "description": r.Description}
	}
	return c.JSON(http.StatusOK, out)
}

func (s *Server) listLLMConfig(c echo.Context) error {
	if err := requireAdmin(c); err != nil {
		return err
	}
	rows, err := s.effectiveConfig(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, rows)
}

func (s *Server) llmConfigOptions(c echo.Context) error {
	if err := requireAdmin(c); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, llm.KnownModels())
}

type llmConfigUpdate struct {
	Provider        string   `json:"provider"`
	ModelID         string   `json:"model_id"`
	Description     *string  `json:"description"`
	ReasoningEffort *string  `json:"reasoning_effort"`
	Temperature     *float64 `json:"temperature"`
	MaxOutputTokens *int     `json:"max_output_tokens"`
}

// putLLMConfig serves PUT /api/admin/llm-config/{component_key}. New
// sessions use the change; running sessions keep the configuration they
// were created with.
func (s *Server) putLLMConfig(c echo.Context) error {
	if err := requireAdmin(c); err != nil {
		return err
	}
	if s.deps.LLMConfig == nil {
		return &Error{Status: http.StatusServiceUnavailable, Code: "unavailable", Message: "LLM configuration is not available"}
	}
	var u llmConfigUpdate
	if err := bindJSON(c, &u); err != nil {
		return err
	}
	badRequest := func(code, msg string) error {
		return &Error{Status: http.StatusBadRequest, Code: code, Message: msg}
	}
	component, err := llm.ParseComponent(c.Param("component"))
	if err != nil {
		return badRequest("unknown_component", "Unknown component '"+c.Param("component")+"'. Valid: [tutor, eval_evaluator, eval_simulator, safety, exam_generator, exam_evaluator, welcome]")
	}
	provider, err := llm.ParseProvider(u.Provider)
	if err != nil {
		return badRequest("unknown_provider", "Unknown provider '"+u.Provider+"'. Valid: "+pythonList(llm.Providers()))
	}
	cfg := llm.Config{Component: component, Provider: provider, Model: strings.TrimSpace(u.ModelID), Temperature: u.Temperature}
	if provider == llm.ProviderRules && cfg.Model == "" {
		cfg.Model = "rules"
	}
	if u.Description != nil {
		cfg.Description = *u.Description
	}
	if u.ReasoningEffort != nil {
		cfg.Effort = llm.Effort(*u.ReasoningEffort)
	}
	if u.MaxOutputTokens != nil {
		cfg.MaxOutputTokens = *u.MaxOutputTokens
	}
	if err := cfg.ValidateEdit(); err != nil {
		return badRequest("invalid_llm_config", strings.TrimPrefix(err.Error(), llm.ErrInvalidConfig.Error()+": "))
	}
	if s.deps.LLMKeys != nil && provider != llm.ProviderRules {
		if err := s.deps.LLMKeys(provider); err != nil {
			return badRequest("missing_api_key", err.Error())
		}
	}
	if err := checkModel(provider, cfg.Model); err != nil {
		return err
	}
	by := ""
	if id := callerOf(c).identity; id != nil {
		by = id.Email
		if by == "" {
			by = id.Subject
		}
	}
	row, err := s.deps.LLMConfig.SetLLMConfig(c.Request().Context(), cfg, by, time.Now())
	if err != nil {
		if errors.Is(err, store.ErrInvalid) {
			return badRequest("invalid_llm_config", "the configuration is out of range")
		}
		return err
	}
	return c.JSON(http.StatusOK, newLLMConfigRow(cfg, row.UpdatedAt, by))
}
