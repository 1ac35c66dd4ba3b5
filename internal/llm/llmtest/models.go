package llmtest

// The models each fake serves by default: the models package llm lists for
// the provider, in llm.KnownModels and llm.DefaultPrices. This package cannot
// import llm (llm's tests use it), so the lists are repeated here, and a test
// in llm fails when the two drift apart.

// CompatibleModel is the model NewOpenAI also serves by default, standing in
// for what an OpenAI-compatible server (Ollama, vLLM) has loaded.
const CompatibleModel = "fake-model"

// OpenAIModels returns the models of OpenAI that NewOpenAI serves by default.
func OpenAIModels() []string {
	return []string{
		"gpt-5.2", "gpt-5.1", "gpt-5", "gpt-5-mini", "gpt-5-nano",
		"gpt-4.1", "gpt-4.1-mini", "gpt-4.1-nano", "gpt-4o", "gpt-4o-mini",
		"o3", "o3-mini", "o4-mini",
	}
}

// AnthropicModels returns the models NewAnthropic serves by default.
func AnthropicModels() []string {
	return []string{
		"claude-opus-4-6", "claude-opus-4-5", "claude-opus-4",
		"claude-sonnet-4-5", "claude-sonnet-4", "claude-3-7-sonnet",
		"claude-haiku-4-5-20251001", "claude-haiku-4-5", "claude-3-5-haiku",
	}
}

// GeminiModels returns the models NewGemini serves by default.
func GeminiModels() []string {
	return []string{
		"gemini-3.1-pro-preview", "gemini-3.1-pro", "gemini-3-pro",
		"gemini-3-flash-preview", "gemini-3-flash",
		"gemini-2.5-pro", "gemini-2.5-flash", "gemini-2.5-flash-lite", "gemini-2.0-flash",
	}
}
