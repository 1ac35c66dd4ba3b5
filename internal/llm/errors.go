package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"
)

// ErrorKind classifies a failed model call. Callers branch on the kind, never
// on provider error messages, so that every adapter can be swapped for another.
type ErrorKind string

// The kinds of failure. The string values are stable: they are stored in usage
// records and may appear in API error codes.
const (
	// KindRateLimited: the provider asked us to slow down (HTTP 429). The
	// error's RetryAfter says for how long, when the provider said so.
	KindRateLimited ErrorKind = "rate_limited"
	// KindTimeout: the call or one of its attempts ran out of time.
	KindTimeout ErrorKind = "timeout"
	// KindUnavailable: the provider failed (5xx, overloaded, connection
	// refused, a reply body that is not JSON) or its circuit breaker is open.
	KindUnavailable ErrorKind = "unavailable"
	// KindRefused: the model refused, or the provider's safety system blocked
	// the prompt or the answer.
	KindRefused ErrorKind = "refused"
	// KindContextTooLong: the prompt does not fit the model's context
	// window, or the request is larger than the provider takes at all (HTTP
	// 413, or OpenAI's 429 for a request over the whole tokens-per-minute
	// limit): only a shorter request can succeed.
	KindContextTooLong ErrorKind = "context_too_long"
	// KindInvalidOutput: the model's output could not be used: not JSON or
	// not valid against the requested schema even after the repair attempt,
	// a malformed tool call, or a reply without content.
	KindInvalidOutput ErrorKind = "invalid_output"
	// KindAuth: the provider rejected the credentials, they are missing, or
	// the account has no credit left (OpenAI's insufficient_quota).
	KindAuth ErrorKind = "auth"
	// KindInvalidRequest: the request or the configuration is wrong (unknown
	// model, unsupported parameter, malformed message list).
	KindInvalidRequest ErrorKind = "invalid_request"
	// KindCanceled: the caller canceled the call.
	KindCanceled ErrorKind = "canceled"
	// KindBudgetExceeded: the learner has spent the daily budget.
	KindBudgetExceeded ErrorKind = "budget_exceeded"
)

// Error is the one error type every call returns. Use errors.As to read its
// fields, or errors.Is with the sentinels below (ErrRateLimited, ...), which
// match on Kind alone. Its message never contains API keys or prompt text.
type Error struct {
	Kind     ErrorKind
	Provider Provider
	Model    string
	// StatusCode is the provider's HTTP status, when there was one.
	StatusCode int
	// RetryAfter is how long the provider asked us to wait (rate limits), or
	// zero when it did not say.
	RetryAfter time.Duration
	// Message is a short, log-safe description.
	Message string
	// Err is the underlying cause, when there is one.
	Err error
}

// Error describes the failure on one line: provider, model, kind, status,
// message and the provider's requested wait.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("llm")
	if e.Provider != "" {
		b.WriteString(" ")
		b.WriteString(string(e.Provider))
		if e.Model != "" {
			b.WriteString("/")
			b.WriteString(e.Model)
		}
	}
	b.WriteString(": ")
	b.WriteString(string(e.Kind))
	if e.StatusCode != 0 {
		fmt.Fprintf(&b, " (HTTP %d)", e.StatusCode)
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if e.RetryAfter > 0 {
		fmt.Fprintf(&b, " (retry after %s)", e.RetryAfter)
	}
	return b.String()
}

// Unwrap returns the underlying cause, such as the SDK's error or a
// context error.
func (e *Error) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrRateLimited) and friends match any *Error of the
// same kind: the sentinels carry nothing but a kind.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Kind == e.Kind && t.Provider == "" && t.Message == "" && t.Err == nil
}

// Sentinels for errors.Is. Each matches every *Error of its kind.
var (
	ErrRateLimited    = &Error{Kind: KindRateLimited}
	ErrTimeout        = &Error{Kind: KindTimeout}
	ErrUnavailable    = &Error{Kind: KindUnavailable}
	ErrRefused        = &Error{Kind: KindRefused}
	ErrContextTooLong = &Error{Kind: KindContextTooLong}
	ErrInvalidOutput  = &Error{Kind: KindInvalidOutput}
	ErrAuth           = &Error{Kind: KindAuth}
	ErrInvalidRequest = &Error{Kind: KindInvalidRequest}
	ErrCanceled       = &Error{Kind: KindCanceled}
	ErrBudgetExceeded = &Error{Kind: KindBudgetExceeded}
)

// KindOf returns the kind of err: its *Error's kind, KindTimeout or
// KindCanceled for bare context errors, and "" for nil or anything else.
func KindOf(err error) ErrorKind {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return KindTimeout
	case errors.Is(err, context.Canceled):
		return KindCanceled
	}
	return ""
}

// retryable reports whether a failure of this kind may succeed if the same
// request is sent again.
func (k ErrorKind) retryable() bool {
	switch k {
	case KindRateLimited, KindTimeout, KindUnavailable:
		return true
	}
	return false
}

// countsAgainstBreaker reports whether a failure of this kind says the
// provider itself is unhealthy. Refusals, bad requests and rate limits are
// answers from a working provider, so they do not open the circuit.
func (k ErrorKind) countsAgainstBreaker() bool {
	return k == KindUnavailable || k == KindTimeout
}

// kindForStatus maps an HTTP status of a provider error to a kind. Adapters
// refine it with what the body says (context length, safety).
func kindForStatus(status int) ErrorKind {
	switch {
	case status == http.StatusTooManyRequests:
		return KindRateLimited
	case status == http.StatusUnauthorized || status == http.StatusForbidden || status == http.StatusPaymentRequired:
		// 402: the account has no credit left (Anthropic's billing_error).
		return KindAuth
	case status == http.StatusRequestTimeout || status == http.StatusGatewayTimeout:
		return KindTimeout
	case status == http.StatusRequestEntityTooLarge:
		return KindContextTooLong
	case status == http.StatusConflict || status >= 500:
		return KindUnavailable
	case status >= 400:
		return KindInvalidRequest
	}
	return KindUnavailable
}

// contextKind maps a context error seen by an adapter to a kind, or "" when
// err is not a context error.
func contextKind(err error) ErrorKind {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return KindTimeout
	case errors.Is(err, context.Canceled):
		return KindCanceled
	}
	return ""
}

// looksLikeContextOverflow reports whether a provider's message says the
// prompt is too long. Providers signal it only in prose (Anthropic, Gemini,
// most OpenAI-compatible servers), so this is the one place that reads it.
func looksLikeContextOverflow(msg string) bool {
	m := strings.ToLower(msg)
	for _, s := range []string{
		"context_length_exceeded",
		"maximum context length",
		"context length",
		"prompt is too long",
		"input token count",
		"exceeds the maximum number of tokens",
		"too many tokens",
		"context window",
		// llama.cpp's server: "request (9120 tokens) exceeds the available
		// context size (8192 tokens)", and forks' "context size exceeded".
		"context size",
	} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// secretLike matches API keys as providers echo them in error messages,
// partly masked or not ("Incorrect API key provided: sk-proj-abc…").
var secretLike = regexp.MustCompile(`(sk-|sk_|AIza|key-)[A-Za-z0-9_*\-]{6,}`)

// minKeyPart is the shortest start of a key that redactKeyStart removes:
// shorter ones tell little of the key and would match ordinary words.
const minKeyPart = 8

// providerMessage makes a provider's error message fit for our errors and
// logs: without key (the client's own, when it has at least 6 characters,
// or anything that looks like one) and shortened. The key is removed before
// the message is cut, which could leave only its start; a start of the key
// that ends the shortened message (one the provider cut, or one that showed
// part of the key) goes too.
func providerMessage(s, key string) string {
	if len(key) >= 6 {
		s = strings.ReplaceAll(s, key, "[redacted]")
	}
	s = truncate(secretLike.ReplaceAllString(s, "[redacted]"), 300)
	return redactKeyStart(s, key)
}

// redactKeyStart replaces the longest start of key, of at least minKeyPart
// bytes, with which s ends, ahead of any dots or ellipsis that mark a cut.
func redactKeyStart(s, key string) string {
	text := strings.TrimRight(s, ".…")
	for n := min(len(key), len(text)); n >= minKeyPart; n-- {
		if strings.HasSuffix(text, key[:n]) {
			return text[:len(text)-n] + "[redacted]" + s[len(text):]
		}
	}
	return s
}

// transportError maps an SDK error that is not an error response of the
// API: a network failure, or a reply body that could not be decoded (a
// proxy's error page, a cut connection). Both are the provider's fault and
// worth another attempt. The client cleans the message (providerMessage).
func transportError(err error) *Error {
	return &Error{Kind: KindUnavailable, Message: err.Error(), Err: err}
}

// unsentError marks the error of an attempt that failed before its request
// was sent: the adapter could not put it in the provider's form. Nothing
// was learnt of the provider, so the circuit breaker does not count it.
type unsentError struct{ err error }

func (e unsentError) Error() string { return e.err.Error() }
func (e unsentError) Unwrap() error { return e.err }

// notSent marks err, an adapter's error, as raised before its request was
// sent.
func notSent(err error) error { return unsentError{err} }

// notAStreamError is the failure of a streamed attempt whose reply held no
// event at all: a proxy's error page, or a body cut before its first event.
// Like a body Generate cannot decode, it is the provider's fault and worth
// another attempt, which nothing delivered to the caller prevents.
func notAStreamError() *Error {
	return &Error{Kind: KindUnavailable, Message: "the reply is not an event stream"}
}

// truncate shortens provider messages before they go into errors and logs.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	// Cut on a rune boundary.
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
