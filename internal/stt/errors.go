package stt

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// The kinds of failure. Every error of Transcribe, except a failure to read
// the audio and the caller's own cancellation, is an *Error that matches
// exactly one of them with errors.Is.
var (
	// ErrNotConfigured: no transcription server is configured. The
	// error's message says how to configure one.
	ErrNotConfigured = errors.New("speech-to-text not configured")
	// ErrUnavailable: the server could not be reached, failed (5xx,
	// except whisper.cpp's 500 for a recording ffmpeg cannot convert,
	// which is ErrRejected), asked us to slow down (429, or 503, with
	// RetryAfter when it says how long), or refused tutord's credentials
	// or model (401, 403, 404, or another 4xx whose error names the model
	// or the key, as OpenAI's 400 "invalid model ID").
	// Worth trying again later; HTTP 503 for the client.
	ErrUnavailable = errors.New("speech-to-text unavailable")
	// ErrRejected: the server refused this audio (400, 413, 415, 422...)
	// or could not read it (whisper.cpp's "FFmpeg conversion failed.",
	// a 500, or its "failed to read audio data", whatever the status), or
	// it was never sent (empty, too large, unknown format or language).
	// Sending it again does not help. The message says why (to record an
	// unreadable recording again, the server's words in Err); HTTP 400 for
	// the client, or 413 when the recording is too large (StatusCode 413,
	// or *http.MaxBytesError).
	ErrRejected = errors.New("audio rejected")
	// ErrTimeout: the transcription took longer than Config.Timeout or
	// the caller's deadline.
	ErrTimeout = errors.New("speech-to-text timed out")
)

// Error is a failed transcription. Message is safe to show a client: it
// never holds the API key; Err, when set, is the cause, for logs.
type Error struct {
	Message string
	// StatusCode is the server's HTTP status, when there was one.
	StatusCode int
	// RetryAfter is how long the server asked us to wait, or zero.
	RetryAfter time.Duration
	Err        error
	kind       error
}

// Error describes the failure for logs.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("stt: ")
	b.WriteString(e.Message)
	if e.StatusCode != 0 {
		fmt.Fprintf(&b, " (HTTP %d)", e.StatusCode)
	}
	if e.RetryAfter > 0 {
		fmt.Fprintf(&b, " (retry after %s)", e.RetryAfter)
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is the error's kind (ErrNotConfigured,
// ErrUnavailable, ErrRejected or ErrTimeout).
func (e *Error) Is(target error) bool { return target == e.kind }

// User-facing messages; the first three are the reference's.
const (
	msgEmpty         = "Empty audio file"
	msgTooLarge      = "File too large (max 25 MB)"
	msgUnsupported   = "Unsupported audio format"
	msgNotConfigured = "Speech-to-text is not configured: set " + EnvBaseURL + " (e.g. https://api.openai.com/v1) and " + EnvAPIKey
	msgUnavailable   = "Speech-to-text service unavailable"
	msgTimeout       = "Speech-to-text service timed out"

	// The recording was within tutord's 25 MB, but not the server's limit.
	msgServerTooLarge = "File too large for the speech-to-text service"
	msgLanguage       = "Unsupported language: use a two-letter ISO 639-1 code, such as en or hi"

	// The server could not decode or convert the recording (see
	// unreadableAudio): a broken or unusual file, which only a new
	// recording fixes.
	msgUnreadable = "The recording could not be read; please record it again, or send it in a common format such as WAV or MP3"
)
