package httpapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/tutord/tutord/internal/stt"
)

// maxAudioBytes bounds an upload (25 MiB, as the reference).
const maxAudioBytes = 25 << 20

// Transcriber turns speech into text through a Whisper-compatible server.
type Transcriber interface {
	// Configured reports whether a server is set up.
	Configured() bool
	// Detect names the audio format of a file's first bytes.
	Detect(head []byte) (format string, ok bool)
	// Transcribe returns the text of the audio, spoken in language (an
	// ISO-639-1 code in lower case) or, when it is empty, in the language
	// the server detects. Its errors are ErrTranscriberUnavailable, or
	// carry a message safe to show.
	Transcribe(ctx context.Context, audio io.Reader, size int64, format, language string) (string, error)
}

// ErrTranscriberUnavailable reports that the speech-to-text server could
// not be reached or failed.
var ErrTranscriberUnavailable = errors.New("the speech-to-text service is unavailable")

// sttNotConfigured explains how to set transcription up.
const sttNotConfigured = "Transcription is not configured: set TUTORD_STT_BASE_URL (e.g. https://api.openai.com/v1, or a local whisper.cpp or faster-whisper server) and TUTORD_STT_API_KEY"

// transcribe serves POST /transcribe: one multipart `file` of at most
// 25 MiB in webm, ogg, mp4, mpeg, wav or flac, recognised by its content,
// not its name or declared type, and an optional `language`. Anonymous
// callers need anonymous use to be allowed (see withCaller); each caller's
// transcriptions are rate-limited like turns.
func (s *Server) transcribe(c echo.Context) error {
	if s.deps.Transcribe == nil || !s.deps.Transcribe.Configured() {
		return &Error{Status: http.StatusServiceUnavailable, Code: "unavailable", Message: sttNotConfigured}
	}
	// Before the upload is read: a refused caller costs no parsing.
	if err := s.allow(c, "transcribe"); err != nil {
		return err
	}
	// Beyond its first megabyte the upload goes to a temporary file (net/http
	// removes it after the request), not to memory for as long as the
	// transcription takes.
	r := c.Request()
	err := s.readBody(c, func() error {
		if err := r.ParseMultipartForm(1 << 20); err != nil && !errors.Is(err, http.ErrNotMultipart) {
			return err
		}
		return nil
	})
	if apiErr := (*Error)(nil); errors.As(err, &apiErr) && apiErr.Status == http.StatusRequestEntityTooLarge {
		return errFileTooLarge()
	}
	if err != nil {
		// A body cut off before its end, or a form without its boundary:
		// what was sent could not be read, which is not a missing field.
		return err
	}
	fh, err := c.FormFile("file")
	if err != nil && bodyTooLarge(err) {
		return errFileTooLarge()
	}
	var bad []fieldError
	if err != nil {
		bad = append(bad, missing("body", "file"))
	}
	language, fe := formLanguage(r)
	if fe != nil {
		bad = append(bad, *fe)
	}
	if len(bad) > 0 {
		return validationError(bad...)
	}
	if fh.Size > maxAudioBytes {
		return errFileTooLarge()
	}
	if fh.Size == 0 {
		return &Error{Status: http.StatusBadRequest, Code: "empty_audio", Message: "Empty audio file"}
	}
	f, err := fh.Open()
	if err != nil {
		return err
	}
	defer f.Close()
	head := make([]byte, 64)
	n, _ := io.ReadFull(f, head)
	format, ok := s.deps.Transcribe.Detect(head[:n])
	if !ok {
		return &Error{Status: http.StatusBadRequest, Code: "unsupported_audio_format",
			Message: fmt.Sprintf("Unsupported audio format: %s (send webm, ogg, mp4, mpeg, wav or flac)", fh.Header.Get("Content-Type"))}
	}
	audio := io.MultiReader(bytes.NewReader(head[:n]), f)
	text, err := s.deps.Transcribe.Transcribe(c.Request().Context(), audio, fh.Size, format, language)
	if err != nil {
		return transcriptionError(err)
	}
	return c.JSON(http.StatusOK, map[string]string{"text": text})
}

// formLanguage reads the form's optional `language`: the recording's
// ISO-639-1 code, in any case. Whisper otherwise guesses the language from
// the audio, often wrongly on a short clip. It returns the code in lower
// case ("" when absent), or the field's validation error. The value is not
// echoed back: it may be long.
func formLanguage(r *http.Request) (string, *fieldError) {
	v := r.PostForm["language"] // the form's fields, once parsed
	if len(v) == 0 {
		return "", nil
	}
	code, ok := stt.ParseLanguage(v[0])
	if !ok {
		return "", &fieldError{Type: "string_pattern_mismatch", Loc: []any{"body", "language"},
			Msg: "Language should be a two-letter ISO 639-1 code, such as en or hi", Input: nil}
	}
	return code, nil
}

// transcriptionError maps a failed transcription to the client's answer,
// with the speech-to-text error's user-safe message: its Error() text is
// for logs.
func transcriptionError(err error) error {
	var se *stt.Error
	switch {
	case errors.Is(err, ErrTranscriberUnavailable):
		e := &Error{Status: http.StatusServiceUnavailable, Code: "unavailable", Message: "Transcription is temporarily unavailable; please try again", Err: err}
		if errors.As(err, &se) {
			// The provider asked to wait (its 429 or 503): so does the client.
			e.RetryAfter = se.RetryAfter
		}
		return e
	case errors.Is(err, context.Canceled):
		return err
	case bodyTooLarge(err):
		e := errFileTooLarge()
		e.Err = err
		return e
	case errors.As(err, &se) && se.StatusCode == http.StatusRequestEntityTooLarge:
		// Within tutord's limit but over the provider's: the same answer
		// as an upload over tutord's own, with a message that says whose.
		return &Error{Status: http.StatusRequestEntityTooLarge, Code: "too_large", Message: se.Message, Err: err}
	case errors.As(err, &se) && se.Message != "":
		return &Error{Status: http.StatusBadRequest, Code: "transcription_failed", Message: "Transcription failed: " + se.Message, Err: err}
	}
	return &Error{Status: http.StatusBadRequest, Code: "transcription_failed", Message: "Transcription failed", Err: err}
}

// errFileTooLarge answers an upload over maxAudioBytes.
func errFileTooLarge() *Error {
	return &Error{Status: http.StatusRequestEntityTooLarge, Code: "too_large", Message: "File too large (max 25 MB)"}
}
