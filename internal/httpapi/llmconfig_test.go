package httpapi_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/tutord/tutord/internal/agents/engine"
	"github.com/tutord/tutord/internal/agents/rules"
	"github.com/tutord/tutord/internal/httpapi"
	"github.com/tutord/tutord/internal/lessons"
	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/llm/llmtest"
	"github.com/tutord/tutord/internal/orchestrator"
	"github.com/tutord/tutord/internal/store"
	"github.com/tutord/tutord/internal/tutor"
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

	// Anthropic's API takes no temperature: one is refused rather than
	// stored and never sent.
	r = s.do("PUT", "/api/admin/llm-config/tutor", map[string]any{"provider": "anthropic", "model_id": "claude-sonnet-4-5", "temperature": 0.2}, admin)
	if r.Status != 400 || r.code(t) != "invalid_llm_config" || !strings.Contains(string(r.Body), "temperature") {
		t.Errorf("put anthropic with a temperature: %d %s; want 400 invalid_llm_config naming the temperature", r.Status, r.Body)
	}
	if p, _ := tutorModel(); p != "rules" {
		t.Errorf("after a refused put the tutor uses %s, want rules", p)
	}
}

// TestLLMConfigEffortsOfTheSpec: an admin page built from the API spec
// offers the reasoning efforts of LLMConfigUpdate.reasoning_effort; every
// one of them is stored, and listed back as set (null: the provider's
// default).
func TestLLMConfigEffortsOfTheSpec(t *testing.T) {
	doc, err := spec()
	if err != nil {
		t.Fatal(err)
	}
	efforts := doc.Components.Schemas["LLMConfigUpdate"].Value.Properties["reasoning_effort"].Value.Enum
	if len(efforts) < 5 {
		t.Fatalf("the spec offers reasoning efforts %v", efforts)
	}
	s := newServer(t)
	admin := token(t, "root", true)
	for _, effort := range efforts {
		r := s.do("PUT", "/api/admin/llm-config/tutor", map[string]any{
			"provider": "openai", "model_id": "gpt-5.2", "reasoning_effort": effort}, admin)
		if r.Status != 200 {
			t.Errorf("PUT with reasoning_effort %#v (a value of the spec): %d %s; want 200", effort, r.Status, r.Body)
			continue
		}
		if got := llmConfigRows(t, s, admin)["tutor"]["reasoning_effort"]; got != effort {
			t.Errorf("after PUT reasoning_effort %#v, GET lists %#v", effort, got)
		}
	}
}

// TestLLMConfigRowRoundTrip: an admin page reads the rows with GET
// /api/admin/llm-config and sends a row's editable fields back with PUT,
// changed or not. Unset knobs are listed as null, which PUT takes (not ""
// or 0, which it refuses), so every row read can be written back as it is.
func TestLLMConfigRowRoundTrip(t *testing.T) {
	s := newServer(t)
	admin := token(t, "root", true)
	for _, set := range []map[string]any{
		{"component": "tutor", "provider": "openai", "model_id": "gpt-4o"},
		{"component": "safety", "provider": "openai", "model_id": "gpt-5.2", "reasoning_effort": "low", "temperature": 0.2,
			"max_output_tokens": 300, "description": "Careful"},
	} {
		c := set["component"].(string)
		delete(set, "component")
		if r := s.do("PUT", "/api/admin/llm-config/"+c, set, admin); r.Status != 200 {
			t.Fatalf("put %s: %d %s", c, r.Status, r.Body)
		}
	}
	before := llmConfigRows(t, s, admin)
	if tutor := before["tutor"]; tutor["reasoning_effort"] != nil || tutor["max_output_tokens"] != nil || tutor["temperature"] != nil {
		t.Errorf("tutor row with unset knobs: %v; want them null", tutor)
	}
	for key, row := range before { // the rules engine's rows too
		body := map[string]any{"provider": row["provider"], "model_id": row["model_id"], "description": row["description"],
			"reasoning_effort": row["reasoning_effort"], "temperature": row["temperature"], "max_output_tokens": row["max_output_tokens"]}
		if r := s.do("PUT", "/api/admin/llm-config/"+key, body, admin); r.Status != 200 {
			t.Errorf("PUT of the %s row GET listed (%v): %d %s; want 200", key, body, r.Status, r.Body)
		}
	}
	after := llmConfigRows(t, s, admin)
	for key, row := range before {
		for _, field := range []string{"provider", "model_id", "description", "reasoning_effort", "temperature", "max_output_tokens"} {
			if after[key][field] != row[field] {
				t.Errorf("%s.%s = %#v after writing the row back, was %#v", key, field, after[key][field], row[field])
			}
		}
	}
	// And with another model, as the page's model picker sends it.
	body := map[string]any{"provider": "openai", "model_id": "gpt-4o-mini", "description": before["tutor"]["description"],
		"reasoning_effort": before["tutor"]["reasoning_effort"], "temperature": before["tutor"]["temperature"], "max_output_tokens": before["tutor"]["max_output_tokens"]}
	if r := s.do("PUT", "/api/admin/llm-config/tutor", body, admin); r.Status != 200 {
		t.Errorf("PUT of the tutor row with another model: %d %s; want 200", r.Status, r.Body)
	}
}

// llmConfigRows lists GET /api/admin/llm-config by component key.
func llmConfigRows(t *testing.T, s *apiServer, admin string) map[string]map[string]any {
	t.Helper()
	r := s.do("GET", "/api/admin/llm-config", nil, admin)
	var rows []map[string]any
	if err := json.Unmarshal(r.Body, &rows); err != nil || r.Status != 200 {
		t.Fatalf("list: %d %s", r.Status, r.Body)
	}
	out := make(map[string]map[string]any, len(rows))
	for _, row := range rows {
		out[row["component_key"].(string)] = row
	}
	return out
}

// TestLLMConfigReachesNewSessions: an operator switches the welcome
// component to a model (PUT → 200, "new sessions use the change"), and the
// next session created in the process uses it at once, not after the
// engine's cache of the table expires. (Other replicas see a change within
// that cache's lifetime, 5 s.)
func TestLLMConfigReachesNewSessions(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	s := newServer(t, withModels(t, fake.URL, quickRetries))
	tok := token(t, "learner", false)
	s.newSession(fractions, "teach_me", tok) // before the change: the rules engine, cached
	if r := s.do("PUT", "/api/admin/llm-config/welcome", map[string]any{"provider": "openai-compatible", "model_id": llmtest.CompatibleModel}, token(t, "root", true)); r.Status != 200 {
		t.Fatalf("put: %d %s", r.Status, r.Body)
	}
	fake.Push(llmtest.Reply{Text: `{"message": "Hello from the model! Ready to start?"}`})
	r := s.do("POST", "/sessions", createBody(s.subject[fractions], "teach_me"), tok)
	if r.Status != 200 {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	if len(fake.Requests()) == 0 {
		t.Fatalf("a session created after PUT welcome=openai-compatible/%s got welcome %q from the rules engine; the model was never called",
			llmtest.CompatibleModel, r.JSON(t)["first_turn"].(map[string]any)["message"])
	}
}

// pinnedOrchestrator returns an orchestrator over the server's store
// whose model settings are settings: the same database seen by a
// tutord started with another environment.
func pinnedOrchestrator(t *testing.T, st *store.Store, settings llm.Settings) *orchestrator.Orchestrator {
	t.Helper()
	set, err := rules.New()
	if err != nil {
		t.Fatal(err)
	}
	models := engine.LLMModels{Settings: settings}
	quickRetries(&models.Options, st)
	return orchestrator.New(orchestrator.Options{Store: st, Lessons: lessons.NewSource(st), Engines: engine.New(set, models, st), FallbackSafety: set.Safety})
}

// TestTurnAfterProviderRemoved: a session pinned its tutor to an
// OpenAI-compatible server; tutord is then restarted without
// TUTORD_OPENAI_COMPATIBLE_BASE_URL (or a hosted provider's key). Its
// steps answer as a failed model call does (CONTRACT §2.3.2: a 200 with
// the apology, nothing changed), not with a bare 500 on every message.
func TestTurnAfterProviderRemoved(t *testing.T) {
	var st *store.Store
	s := newServer(t, func(_ *httpapi.Options, d *httpapi.Deps) {
		st = d.Learners.(*store.Store)
		// The restarted process: no endpoint for openai-compatible.
		d.Sessions = pinnedOrchestrator(t, st, llm.Settings{Prices: llm.DefaultPrices()})
	})
	ctx := context.Background()
	cfg := llm.Config{Component: llm.ComponentTutor, Provider: llm.ProviderOpenAICompatible, Model: llmtest.CompatibleModel}
	if _, err := st.SetLLMConfig(ctx, cfg, "test", time.Time{}); err != nil {
		t.Fatal(err)
	}
	// Before the restart: the endpoint was set, the session pinned it.
	before := pinnedOrchestrator(t, st, llm.Settings{CompatibleBaseURL: "http://127.0.0.1:9/v1", Prices: llm.DefaultPrices()})
	created, err := before.CreateSession(ctx, orchestrator.CreateRequest{GuidelineID: s.subject[fractions], Mode: tutor.ModeTeachMe,
		Student: tutor.StudentContext{Grade: 7, Board: "CBSE", LanguageLevel: "standard"}})
	if err != nil {
		t.Fatal(err)
	}
	r := s.do("POST", "/sessions/"+created.Session.Row.ID.String()+"/step", map[string]any{"student_reply": "ready"}, "")
	if r.Status != 200 || !strings.Contains(string(r.Body), orchestrator.FailureReply) {
		t.Fatalf("step of a session pinned to a provider the restarted process lacks: %d %s; want 200 with the apology message", r.Status, r.Body)
	}
	if m := s.do("GET", "/sessions/"+created.Session.Row.ID.String(), nil, "").JSON(t); m["turn_count"] != float64(0) {
		t.Errorf("the failed turn changed the session: turn_count %v", m["turn_count"])
	}
}
