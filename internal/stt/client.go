// Package stt transcribes speech through a server with OpenAI's audio API
// (POST /audio/transcriptions): OpenAI's Whisper, a faster-whisper server
// (speaches), or whisper.cpp's whisper-server started with
// --inference-path /v1/audio/transcriptions (its own path is /inference)
// and --convert (without it, it reads WAV but not the WebM, Ogg Opus or
// MP4 that browsers record), and -l auto (without it, a request that names
// no language is transcribed as English). It also recognises audio formats
// by content.
package stt

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// MaxRequestSize is the largest request OpenAI's API accepts: 25 MiB
// (26214400 bytes) for the whole multipart body, the form fields and
// their framing included, not for the audio file alone; beyond it OpenAI
// answers 413 "Maximum content size limit (26214400) exceeded". So the
// largest file that can be sent is a few hundred bytes smaller: Transcribe
// works out the request's exact length and refuses a file that does not
// fit before sending it.
const MaxRequestSize = 25 * 1024 * 1024

// maxResponse bounds the response body: a transcript of the longest
// accepted recording is far smaller.
const maxResponse = 4 << 20

// Client transcribes audio. It is safe for concurrent use.
type Client struct {
	cfg      Config
	endpoint string
	http     *http.Client
	now      func() time.Time
}

// New returns a client for cfg. An unconfigured cfg gives a client whose
// Transcribe fails with ErrNotConfigured.
func New(cfg Config) (*Client, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Client{
		cfg:      cfg,
		endpoint: strings.TrimRight(cfg.BaseURL, "/") + "/audio/transcriptions",
		// A redirect is not followed: Go would follow it with a GET
		// without the audio, and the server's refusal of that would read
		// as a rejection of the learner's recording. It is reported as
		// the server being unavailable (see statusError).
		http: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
		now:  time.Now,
	}, nil
}

// Configured reports whether a server is configured.
func (c *Client) Configured() bool { return c.cfg.Configured() }

// Transcribe sends size bytes of audio in format f and returns the text.
// size must be the exact length of audio, and the request it makes at most
// MaxRequestSize bytes. The audio is streamed, not buffered. language, when
// not empty, is the ISO-639-1 code of the speech (see ParseLanguage): the
// server then transcribes that language rather than guessing it from the
// audio, which it often gets wrong on a short clip.
//
// Errors are *Error of kind ErrNotConfigured, ErrUnavailable, ErrRejected
// or ErrTimeout, except two: a failure to read audio is returned wrapped
// (so that errors.As finds an *http.MaxBytesError), and so is the caller's
// cancellation (errors.Is(err, context.Canceled)). A recording too large
// for a request is refused before sending, as an ErrRejected *Error that
// also matches *http.MaxBytesError, as an upload over a limit does, so
// that callers answer both alike. A recording the server refuses as too
// large (its 413) is an ErrRejected *Error with StatusCode 413.
func (c *Client) Transcribe(ctx context.Context, audio io.Reader, size int64, f Format, language string) (string, error) {
	switch {
	case !c.Configured():
		return "", &Error{Message: msgNotConfigured, kind: ErrNotConfigured}
	case f.Ext() == "":
		return "", &Error{Message: msgUnsupported, kind: ErrRejected}
	case language != "" && !validLanguage(language):
		return "", &Error{Message: msgLanguage, kind: ErrRejected}
	case size <= 0:
		return "", &Error{Message: msgEmpty, kind: ErrRejected}
	case size > MaxRequestSize: // before adding the framing, which could overflow
		return "", errTooLarge()
	}
	src := &audioReader{r: audio, left: size}
	body, contentType, length := c.multipart(src, size, f, strings.ToLower(language))
	if length > MaxRequestSize {
		return "", errTooLarge()
	}
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()

	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, body)
	if err != nil {
		return "", &Error{Message: msgUnavailable, Err: err, kind: ErrUnavailable}
	}
	req.ContentLength = length
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Accept", "application/json")
	if c.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}

	resp, err := c.http.Do(req)
	if err != nil {
		if err := src.failure(); err != nil {
			return "", fmt.Errorf("stt: read audio: %w", err)
		}
		return "", c.transportError(ctx, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", c.statusError(resp)
	}
	var out struct {
		Text   *string         `json:"text"`
		Error  json.RawMessage `json:"error"`
		Detail json.RawMessage `json:"detail"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxResponse)).Decode(&out); err != nil {
		return "", c.transportError(ctx, fmt.Errorf("decode response: %w", err))
	}
	if out.Text == nil {
		// Older whisper.cpp servers report failures with status 200 and
		// {"error": "..."}: the cause goes to the logs. One that could not
		// read the recording rejects it, as newer servers do (see
		// statusError).
		msg := c.errorMessage(out.Error, out.Detail)
		why := `response has no "text"`
		if msg != "" {
			why += ": " + msg
		}
		if unreadableAudio[msg] {
			return "", &Error{Message: msgUnreadable, Err: errors.New(why), kind: ErrRejected}
		}
		return "", &Error{Message: msgUnavailable, Err: errors.New(why), kind: ErrUnavailable}
	}
	// whisper.cpp's server starts each segment with a space and ends it
	// with a line break: the learner's message box gets the words alone.
	return strings.TrimSpace(*out.Text), nil
}

// errTooLarge refuses a recording whose request would exceed
// MaxRequestSize.
func errTooLarge() error {
	return &Error{Message: msgTooLarge, Err: &http.MaxBytesError{Limit: MaxRequestSize}, kind: ErrRejected}
}

// multipart returns the request body, its content type and its length.
// The form fields and the file part's header are built in memory and the
// audio streamed between them, so that the length is known up front: some
// servers refuse chunked uploads. An empty language is left out, for the
// server to detect it.
func (c *Client) multipart(audio io.Reader, size int64, f Format, language string) (io.Reader, string, int64) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	// Writes to a bytes.Buffer cannot fail.
	_ = w.WriteField("model", c.cfg.Model)
	_ = w.WriteField("response_format", "json")
	if language != "" {
		_ = w.WriteField("language", language)
	}
	h := make(textproto.MIMEHeader)
	h.Set("Content-Disposition", `form-data; name="file"; filename="recording.`+f.Ext()+`"`)
	h.Set("Content-Type", f.ContentType())
	_, _ = w.CreatePart(h)
	head := bytes.Clone(buf.Bytes())
	_ = w.Close()
	tail := buf.Bytes()[len(head):]
	body := io.MultiReader(bytes.NewReader(head), audio, bytes.NewReader(tail))
	return body, w.FormDataContentType(), int64(len(head)) + size + int64(len(tail))
}

// transportError classifies a failure to get a response: the deadline, the
// caller's cancellation, or an unreachable server.
func (c *Client) transportError(ctx context.Context, err error) error {
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return &Error{Message: msgTimeout, Err: err, kind: ErrTimeout}
	case errors.Is(ctx.Err(), context.Canceled):
		return fmt.Errorf("stt: %w", ctx.Err())
	}
	return &Error{Message: msgUnavailable, Err: err, kind: ErrUnavailable}
}

// statusError classifies an error response. Only a rejection of the audio
// shows the server's message to the learner; failures of tutord's own
// credentials or configuration keep it for the logs, whatever their 4xx
// status (OpenAI refuses an unknown model with 400). A recording that
// whisper.cpp could not read is rejected with tutord's own message, even
// on a 500 (see unreadableAudio).
func (c *Client) statusError(resp *http.Response) error {
	msg, setup := c.serverMessage(resp)
	code := resp.StatusCode
	switch {
	case code == http.StatusTooManyRequests || code == http.StatusServiceUnavailable:
		// Both may say how long to wait (RFC 9110): a rate limit, or an
		// overload or maintenance (OpenAI's "The engine is currently
		// overloaded").
		return &Error{Message: msgUnavailable, StatusCode: code, RetryAfter: retryAfter(resp.Header, c.now()),
			Err: errors.New(msg), kind: ErrUnavailable}
	case code == http.StatusRequestTimeout || code == http.StatusGatewayTimeout:
		return &Error{Message: msgTimeout, StatusCode: code, Err: errors.New(msg), kind: ErrTimeout}
	case code == http.StatusRequestEntityTooLarge:
		// The recording was within tutord's limit but not the server's (or
		// a proxy's before it, whose answer may be an HTML page): the
		// learner is told so, the server's words go to the logs.
		return &Error{Message: msgServerTooLarge, StatusCode: code, Err: errors.New(msg), kind: ErrRejected}
	case unreadableAudio[msg]:
		// whisper.cpp answers ffmpeg's failure with 500, but the fault is
		// the recording's: sent again, it would fail again. The learner is
		// asked for a new one; the server's words go to the logs.
		return &Error{Message: msgUnreadable, StatusCode: code, Err: errors.New(msg), kind: ErrRejected}
	case code >= 500 || code == http.StatusUnauthorized || code == http.StatusForbidden || code == http.StatusNotFound || (code >= 400 && setup):
		return &Error{Message: msgUnavailable, StatusCode: code, Err: errors.New(msg), kind: ErrUnavailable}
	case code >= 400:
		return &Error{Message: msg, StatusCode: code, kind: ErrRejected}
	}
	// Another 2xx or a 3xx that was not followed.
	return &Error{Message: msgUnavailable, StatusCode: code, Err: errors.New(msg), kind: ErrUnavailable}
}

// serverMessage extracts the error message of a response: OpenAI's
// {"error": {"message": ...}}, whisper.cpp's {"error": "..."}, FastAPI's
// {"detail": "..."} or its validation error {"detail": [{"loc": [...],
// "msg": ...}, ...]} (the messages joined); else the status text. The API
// key is removed from it, and it is cut to a readable length. setup
// reports that the error is about tutord's model or credentials, not the
// audio (see aboutSetup and detailAboutModel).
func (c *Client) serverMessage(resp *http.Response) (msg string, setup bool) {
	var body struct {
		Error  json.RawMessage `json:"error"`
		Detail json.RawMessage `json:"detail"`
	}
	if json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&body) == nil {
		msg = c.errorMessage(body.Error, body.Detail)
		setup = aboutSetup(body.Error, msg) || detailAboutModel(body.Detail)
	}
	if msg == "" {
		msg = http.StatusText(resp.StatusCode)
	}
	return msg, setup
}

// unreadableAudio holds the errors with which whisper.cpp's server
// (examples/server/server.cpp) refuses a recording it cannot decode. They
// are matched exactly: its other errors (its temporary file it cannot
// rename or remove, an inference that fails) are failures of the server.
var unreadableAudio = map[string]bool{
	// --convert: ffmpeg could not convert the upload to WAV (500; 200 on
	// older servers).
	"FFmpeg conversion failed.": true,
	// The handler's fallback message for the same failure.
	"Failed to execute ffmpeg command.": true,
	// --convert: ffmpeg's WAV holds no audio it can read (400).
	"failed to read WAV file": true,
	// Without --convert: audio it cannot decode, such as the WebM that
	// browsers record (400).
	"failed to read audio data": true,
}

// setupCodes are the error codes and types (OpenAI's, and those of servers
// that copy its shape) that blame the model or the key, not the audio.
var setupCodes = map[string]bool{
	"model_not_found": true, "invalid_model": true, "invalid_api_key": true,
	"authentication_error": true, "permission_error": true,
}

// setupMessage matches messages about the model itself or the key:
// OpenAI's "invalid model ID" (400, with no code), "The model `x` does not
// exist", "Model x is not installed". It does not match a model's limits
// on the audio ("longer than 1400 seconds which is the maximum for this
// model", "This model does not support the format you provided"), which
// are the learner's.
var setupMessage = regexp.MustCompile(`(?i)\b(?:invalid|unknown|unsupported) model\b|\bno such model\b|\bmodel\b.{0,120}?\b(?:does not exist|not found|is not (?:available|installed|supported))|\bapi[ _]key\b`)

// aboutSetup reports whether an error (the response's "error" member and
// its message) is about tutord's configuration, its model or its key,
// rather than the audio: by its code, type or param when it has them, else
// by its message.
func aboutSetup(errField json.RawMessage, msg string) bool {
	var e struct{ Code, Type, Param any }
	if json.Unmarshal(errField, &e) == nil {
		for _, v := range []any{e.Code, e.Type} {
			if s, ok := v.(string); ok && setupCodes[s] {
				return true
			}
		}
		if e.Param == "model" {
			return true
		}
	}
	return setupMessage.MatchString(msg)
}

// detailAboutModel reports whether a FastAPI validation error (a "detail"
// list) blames the request's model field, as OpenAI's param "model" does:
// tutord's configuration, not the audio.
func detailAboutModel(detail json.RawMessage) bool {
	var items []struct {
		Loc []any `json:"loc"`
	}
	if json.Unmarshal(detail, &items) != nil {
		return false
	}
	for _, d := range items {
		if n := len(d.Loc); n > 0 && d.Loc[n-1] == "model" {
			return true
		}
	}
	return false
}

// errorMessage returns the message of a response's "error" or "detail"
// member, in any of the shapes serverMessage reads, without the API key and
// cut to a readable length; "" when there is none.
func (c *Client) errorMessage(errField, detail json.RawMessage) string {
	var openai struct {
		Message string `json:"message"`
	}
	var fastapi []struct {
		Msg string `json:"msg"`
	}
	var msg string
	switch {
	case json.Unmarshal(errField, &openai) == nil && openai.Message != "":
		msg = openai.Message
	case json.Unmarshal(errField, &msg) == nil && msg != "":
	case json.Unmarshal(detail, &msg) == nil && msg != "":
	case json.Unmarshal(detail, &fastapi) == nil:
		// FastAPI's validation error (422): one item per issue.
		var msgs []string
		for _, d := range fastapi {
			if d.Msg != "" {
				msgs = append(msgs, d.Msg)
			}
		}
		msg = strings.Join(msgs, "; ")
	}
	if c.cfg.APIKey != "" {
		msg = strings.ReplaceAll(msg, c.cfg.APIKey, "[redacted]")
	}
	return truncate(msg, 300)
}

// maxRetryAfter caps a server's wait: a longer one would overflow a
// time.Duration.
const maxRetryAfter = 365 * 24 * time.Hour

// retryAfter reads how long a response asks us to wait: OpenAI's
// retry-after-ms, in milliseconds, which OpenAI's own SDKs prefer to the
// coarser Retry-After; else Retry-After, in seconds or as an HTTP date.
// A number may have a fraction ("1.5", "250.75"): RFC 9110 allows only
// whole seconds, but some servers send one, and OpenAI's SDKs read it. It
// is rounded up to the next whole millisecond, so that a client never
// retries early and a positive wait never becomes no wait. A zero,
// negative or malformed retry-after-ms gives way to Retry-After, and a
// negative or malformed Retry-After (or a date past) is no instruction:
// zero. Waits are capped at a year.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if d, ok := decimalMillis(h.Get("Retry-After-Ms"), 0); ok && d > 0 {
		return d
	}
	v := h.Get("Retry-After")
	if d, ok := decimalMillis(v, 3); ok {
		return d
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return min(t.Sub(now), maxRetryAfter)
	}
	return 0
}

// decimalNumber is a number of digits with an optional fraction, with no
// sign, exponent or space: "7", "1.5", ".5", "2.".
var decimalNumber = regexp.MustCompile(`^([0-9]*)(?:\.([0-9]*))?$`)

// decimalMillis reads v, a decimalNumber of units of 10^exp milliseconds
// (exp 0: milliseconds; 3: seconds), as a whole number of milliseconds,
// rounded up and capped at maxRetryAfter. It moves the decimal point exp
// digits to the right in the text, so that no float rounds the value.
// ok is false when v is not a decimalNumber (empty, "-1", "1e3", "Inf").
func decimalMillis(v string, exp int) (d time.Duration, ok bool) {
	m := decimalNumber.FindStringSubmatch(v)
	if m == nil || m[1]+m[2] == "" {
		return 0, false
	}
	digits := m[1] + m[2] + strings.Repeat("0", exp)
	point := len(m[1]) + exp
	whole, frac := digits[:point], digits[point:]
	// Only digits: the one possible error is a number too large for a
	// uint64, which parses as the largest one.
	ms, _ := strconv.ParseUint("0"+whole, 10, 64)
	if ms >= uint64(maxRetryAfter/time.Millisecond) {
		return maxRetryAfter, true
	}
	if strings.Trim(frac, "0") != "" {
		ms++ // a fraction of a millisecond
	}
	return time.Duration(ms) * time.Millisecond, true
}

// audioReader reads exactly left bytes of r and remembers why reading
// failed, so that Transcribe can tell a broken upload from a broken server.
// The transport reads it on its own goroutine, hence the lock.
type audioReader struct {
	r    io.Reader
	left int64

	mu  sync.Mutex
	err error
}

func (a *audioReader) Read(p []byte) (int, error) {
	if a.left <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > a.left {
		p = p[:a.left]
	}
	n, err := a.r.Read(p)
	a.left -= int64(n)
	if err == io.EOF && a.left > 0 {
		err = io.ErrUnexpectedEOF
	}
	if err != nil && err != io.EOF {
		a.mu.Lock()
		a.err = err
		a.mu.Unlock()
	}
	return n, err
}

// failure returns the error that ended reading, if any.
func (a *audioReader) failure() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.err
}

// truncate cuts s to at most n bytes on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xc0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
