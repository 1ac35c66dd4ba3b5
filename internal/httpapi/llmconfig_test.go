package httpapi_test

import (
	"encoding/json"
	"testing"
)

// TestLLMConfigModels checks that PUT /api/admin/llm-config/{key} takes
// only the models the options route lists for openai, anthropic and google
// (the reference's 400 otherwise: a model the provider does not serve
// would fail every later turn), and any model for openai-compatible.
func TestLLMConfigModels(t *testing.T) {
	s := newServer(t)
	admin := token(t, "root", true)
	put := func(provider, model string) response {
		t.Helper()
		return s.do("PUT", "/api/admin/llm-config/tutor", map[string]any{"provider": provider, "model_id": model}, admin)
	}
	tutorModel := func() (string, string) {
		t.Helper()
		m := s.do("GET", "/config/models", nil, "").JSON(t)["tutor"].(map[string]any)
		return m["provider"].(string), m["model_id"].(string)
	}

	// Every listed model is accepted.
	r := s.do("GET", "/api/admin/llm-config/options", nil, admin)
	var options map[string][]string
	if err := json.Unmarshal(r.Body, &options); err != nil || r.Status != 200 {
		t.Fatalf("options: %d %s", r.Status, r.Body)
	}
	for _, p := range []string{"openai", "anthropic", "google"} {
		if len(options[p]) == 0 {
			t.Fatalf("options list no %s model: %s", p, r.Body)
		}
		for _, m := range options[p] {
			if r := put(p, m); r.Status != 200 || r.JSON(t)["model_id"] != m {
				t.Errorf("put %s %s: %d %s", p, m, r.Status, r.Body)
			}
		}
	}
	if r := put("openai", "gpt-4o"); r.Status != 200 {
		t.Fatalf("put openai gpt-4o: %d %s", r.Status, r.Body)
	}

	// Others are the reference's 400, and change nothing.
	for _, tt := range []struct{ provider, model, detail string }{
		{"openai", "gpt-9", "Unknown model 'gpt-9' for provider 'openai'. Valid: ['gpt-5.2', 'gpt-5.1', 'gpt-4o', 'gpt-4o-mini']"},
		{"openai", "gpt-5.3-codex", "Unknown model 'gpt-5.3-codex' for provider 'openai'. Valid: ['gpt-5.2', 'gpt-5.1', 'gpt-4o', 'gpt-4o-mini']"},
		{"openai", "claude-opus-4-6", "Unknown model 'claude-opus-4-6' for provider 'openai'. Valid: ['gpt-5.2', 'gpt-5.1', 'gpt-4o', 'gpt-4o-mini']"},
		{"anthropic", "claude-haiku-4", "Unknown model 'claude-haiku-4' for provider 'anthropic'. Valid: ['claude-opus-4-6', 'claude-sonnet-4-5', 'claude-haiku-4-5-20251001', 'claude-haiku-4-5']"},
		{"gemini", "gemini-9", "Unknown model 'gemini-9' for provider 'google'. Valid: ['gemini-3.1-pro-preview', 'gemini-3-flash-preview', 'gemini-2.5-flash']"},
		{"rules", "gpt-4o", "Unknown model 'gpt-4o' for provider 'rules'. Valid: ['rules']"},
	} {
		r := put(tt.provider, tt.model)
		if r.Status != 400 || r.code(t) != "unknown_model" || r.JSON(t)["detail"] != tt.detail {
			t.Errorf("put %s %s: %d %s\nwant 400 unknown_model %q", tt.provider, tt.model, r.Status, r.Body, tt.detail)
		}
		if p, m := tutorModel(); p != "openai" || m != "gpt-4o" {
			t.Fatalf("after a refused put the tutor uses %s %s, want openai gpt-4o", p, m)
		}
	}

	// Any local server's model, but not none.
	if r := put("openai-compatible", "qwen2.5:7b-instruct"); r.Status != 200 {
		t.Fatalf("put openai-compatible: %d %s", r.Status, r.Body)
	}
	if p, m := tutorModel(); p != "openai-compatible" || m != "qwen2.5:7b-instruct" {
		t.Fatalf("tutor uses %s %s, want openai-compatible qwen2.5:7b-instruct", p, m)
	}
	if r := put("openai-compatible", ""); r.Status != 400 || r.code(t) != "invalid_llm_config" {
		t.Errorf("put openai-compatible without a model: %d %s", r.Status, r.Body)
	}
	if r := put("rules", ""); r.Status != 200 || r.JSON(t)["model_id"] != "rules" {
		t.Errorf("put rules: %d %s", r.Status, r.Body)
	}
}
