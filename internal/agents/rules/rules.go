package rules

import (
	"encoding/json"

	"github.com/tutord/tutord/internal/agents"
)

// Provider is the provider name of the rules engine, in a session's pinned
// configuration and in agent logs.
const Provider = "rules"

// New returns the rules engine's agents, one per component. The error
// reports a malformed safety pattern file, which the package's tests rule
// out.
func New() (agents.Set, error) {
	safety, err := NewSafety()
	if err != nil {
		return agents.Set{}, err
	}
	return agents.Set{
		Safety:         safety,
		Tutor:          NewTutor(),
		ExamGenerator:  NewExamGenerator(),
		ExamEvaluator:  NewExamEvaluator(),
		Welcome:        NewWelcomer(),
		PostCompletion: NewPostCompletion(),
	}, nil
}

// call records a rules agent's answer for the agent log: provider "rules",
// no model, no prompt, no tokens. The caller measures latency.
func call(agent string, output any) agents.Call {
	b, err := json.Marshal(output)
	if err != nil {
		b = nil
	}
	return agents.Call{Agent: agent, Provider: Provider, Output: b, Attempts: 1}
}
