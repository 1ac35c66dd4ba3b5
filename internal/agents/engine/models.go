package engine

import (
	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/agents/llmagent"
	"github.com/tutord/tutord/internal/llm"
)

// LLMModels builds model-backed agents: one client per component
// configuration, resolved with the provider settings of the environment and
// the shared client options (usage recorder, budget, circuit breakers).
type LLMModels struct {
	Settings llm.Settings
	Options  llm.Options
}

var _ Models = LLMModels{}

func (m LLMModels) client(cfg llm.Config) (llm.Client, error) {
	return llm.Resolve(cfg, m.Settings, m.Options)
}

func (m LLMModels) agentOptions() llmagent.Options {
	return llmagent.Options{Prices: m.Settings.Prices}
}

// Safety implements Models.
func (m LLMModels) Safety(cfg llm.Config) (agents.Safety, error) {
	c, err := m.client(cfg)
	if err != nil {
		return nil, err
	}
	return llmagent.NewSafety(c, cfg, m.agentOptions()), nil
}

// Tutor implements Models; the post-completion reply uses the tutor's model.
func (m LLMModels) Tutor(cfg llm.Config) (agents.Tutor, agents.PostCompletion, error) {
	c, err := m.client(cfg)
	if err != nil {
		return nil, nil, err
	}
	return llmagent.NewTutor(c, cfg, m.agentOptions()), llmagent.NewPostCompletion(c, cfg, m.agentOptions()), nil
}

// ExamGenerator implements Models.
func (m LLMModels) ExamGenerator(cfg llm.Config) (agents.ExamGenerator, error) {
	c, err := m.client(cfg)
	if err != nil {
		return nil, err
	}
	return llmagent.NewExamGenerator(c, cfg, m.agentOptions()), nil
}

// ExamEvaluator implements Models.
func (m LLMModels) ExamEvaluator(cfg llm.Config) (agents.ExamEvaluator, error) {
	c, err := m.client(cfg)
	if err != nil {
		return nil, err
	}
	return llmagent.NewExamEvaluator(c, cfg, m.agentOptions()), nil
}

// Welcomer implements Models.
func (m LLMModels) Welcomer(cfg llm.Config) (agents.Welcomer, error) {
	c, err := m.client(cfg)
	if err != nil {
		return nil, err
	}
	return llmagent.NewWelcomer(c, cfg, m.agentOptions()), nil
}
