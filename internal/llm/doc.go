// Package llm is tutord's one way to call a language model.
//
// Agents use the Client interface: Generate for a reply, Stream for the same
// reply delivered as deltas, and Structured for a Go value decoded from a
// strict JSON output and validated against its schema, with one repair
// attempt. Resolve turns a component's Config (a row of llm_config) and the
// environment's Settings into a Client backed by one of the adapters:
//
//   - openai: Chat Completions with response_format json_schema, strict.
//   - openai-compatible: the same adapter on another base URL (Ollama, vLLM,
//     llama.cpp, LM Studio, OpenRouter). Servers that ignore strict mode are
//     still held to the schema by validation.
//   - anthropic: structured output through a strict tool the model is forced
//     to call; with extended thinking (which forbids forcing a tool) or with
//     tools of the caller's, through output_config's JSON-schema format.
//   - google (alias gemini): responseMimeType application/json with
//     responseJsonSchema, in which a nullable enum is anyOf with null
//     (Gemini takes no null among enum values).
//
// Provider SDK types stay inside their adapter file, behind pure toX / fromX
// converters.
//
// # Resilience
//
// The client owns the only retry loop; the SDKs' retries are off. It retries
// rate limits, provider failures and attempt timeouts with exponential
// backoff and jitter, or after the provider's Retry-After, within the call's
// deadline. A streamed attempt times out when its next event is late, not
// after a fixed time, so that a long reply is not cut. A circuit breaker per
// provider and model (Breakers) fails calls at once after consecutive
// provider failures, instead of letting every turn wait for its full
// timeout; a request that was never sent (the adapter could not put it in
// the provider's form) does not count. Every call, successful or not, is
// written through a UsageRecorder as soon as it completes, with its
// estimated cost from a PriceTable; a Budget caps each learner's daily
// spend. A call the provider billed without reporting its tokens (a stream
// stopped before OpenAI's last chunk, a stream from an OpenAI-compatible
// server that ignores include_usage, an attempt sent and then timed out or
// cancelled) records an estimate of them rather than none.
//
// # Errors
//
// Every failure is an *Error with a Kind (rate limited, timeout,
// unavailable, refused, context too long, invalid output, auth, invalid
// request, canceled, budget exceeded); errors.Is matches the ErrX sentinels
// by kind. Errors and logs never contain API keys.
package llm
