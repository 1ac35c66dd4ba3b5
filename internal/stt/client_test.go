package stt

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

const testKey = "sk-test-0123456789abcdef"

// fakeOpenAI is a transcription server that checks each request as
// OpenAI's API expects it and answers like it.
type fakeOpenAI struct {
	*httptest.Server
	t        *testing.T
	key      string // expected bearer token; "" means none
	requests atomic.Int32
	// respond, when set, answers instead of the default transcript.
	respond func(w http.ResponseWriter, r *http.Request)
	// got is the last request's upload.
	got atomic.Pointer[upload]
}

type upload struct {
	model, responseFormat   string
	language                *string // nil when the form has no language field
	filename, contentType   string
	audio                   []byte
	contentLength           int64
	transferEncodingChunked bool
}

func newFakeOpenAI(t *testing.T, key string) *fakeOpenAI {
	f := &fakeOpenAI{t: t, key: key}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeOpenAI) serve(w http.ResponseWriter, r *http.Request) {
	f.requests.Add(1)
	if f.respond != nil {
		f.respond(w, r)
		return
	}
	if r.Method != http.MethodPost || r.URL.Path != "/v1/audio/transcriptions" {
		f.fail(w, http.StatusNotFound, "%s %s: not the transcription endpoint", r.Method, r.URL.Path)
		return
	}
	wantAuth := ""
	if f.key != "" {
		wantAuth = "Bearer " + f.key
	}
	if got := r.Header.Get("Authorization"); got != wantAuth {
		f.fail(w, http.StatusUnauthorized, "Authorization = %q, want %q", got, wantAuth)
		return
	}
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		f.fail(w, http.StatusBadRequest, "Content-Type = %q, want multipart/form-data", r.Header.Get("Content-Type"))
		return
	}
	u := upload{contentLength: r.ContentLength}
	for _, te := range r.TransferEncoding {
		u.transferEncodingChunked = u.transferEncodingChunked || te == "chunked"
	}
	mr, err := r.MultipartReader()
	if err != nil {
		f.fail(w, http.StatusBadRequest, "multipart: %v", err)
		return
	}
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			f.fail(w, http.StatusBadRequest, "multipart part: %v", err)
			return
		}
		data, err := io.ReadAll(p)
		if err != nil {
			f.fail(w, http.StatusBadRequest, "read part: %v", err)
			return
		}
		switch p.FormName() {
		case "model":
			u.model = string(data)
		case "response_format":
			u.responseFormat = string(data)
		case "language":
			lang := string(data)
			u.language = &lang
		case "file":
			u.filename, u.contentType, u.audio = p.FileName(), p.Header.Get("Content-Type"), data
		default:
			f.fail(w, http.StatusBadRequest, "unexpected field %q", p.FormName())
			return
		}
	}
	f.got.Store(&u)
	if u.model == "" || u.filename == "" {
		f.fail(w, http.StatusBadRequest, "model and file are required")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"text": %q}`, fmt.Sprintf("%d bytes of %s", len(u.audio), u.filename))
}

// fail answers with OpenAI's error shape and fails the test.
func (f *fakeOpenAI) fail(w http.ResponseWriter, status int, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	f.t.Errorf("fake OpenAI: %s", msg)
	openAIError(w, status, msg)
}

func openAIError(w http.ResponseWriter, status int, msg string) {
	openAIErrorCode(w, status, msg, "", "")
}

// openAIErrorCode is openAIError with a code and a param ("": null).
func openAIErrorCode(w http.ResponseWriter, status int, msg, code, param string) {
	null := func(s string) any {
		if s == "" {
			return nil
		}
		return s
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
		"message": msg, "type": "invalid_request_error", "param": null(param), "code": null(code)}})
}

func newClient(t *testing.T, cfg Config) *Client {
	t.Helper()
	if cfg.Model == "" {
		cfg.Model = DefaultModel
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 5 * time.Second
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

// audioOf returns a recording of n bytes that starts with head.
func audioOf(head []byte, n int) []byte {
	b := bytes.Repeat([]byte{0x55}, n)
	copy(b, head)
	return b
}

func TestTranscribe(t *testing.T) {
	tests := []struct {
		name      string
		format    Format
		head      []byte
		size      int
		wantName  string
		wantCType string
	}{
		{"webm", WebM, chromeWebM, 200 << 10, "recording.webm", "audio/webm"},
		{"ogg", Ogg, firefoxOgg, 10 << 10, "recording.ogg", "audio/ogg"},
		{"mp4", MP4, safariMP4, 10 << 10, "recording.mp4", "audio/mp4"},
		{"mp3", MPEG, id3, 10 << 10, "recording.mp3", "audio/mpeg"},
		{"wav", WAV, wav, 3 << 20, "recording.wav", "audio/wav"},
		{"flac", FLAC, flac, 1, "recording.flac", "audio/flac"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newFakeOpenAI(t, testKey)
			c := newClient(t, Config{BaseURL: srv.URL + "/v1", APIKey: testKey})
			audio := audioOf(tt.head, tt.size)

			text, err := c.Transcribe(context.Background(), bytes.NewReader(audio), int64(len(audio)), tt.format, "")
			if err != nil {
				t.Fatalf("Transcribe: %v", err)
			}
			if want := fmt.Sprintf("%d bytes of %s", len(audio), tt.wantName); text != want {
				t.Errorf("text = %q, want %q", text, want)
			}
			got := srv.got.Load()
			if got == nil {
				t.Fatal("no upload")
			}
			if got.model != "whisper-1" || got.responseFormat != "json" {
				t.Errorf("model %q, response_format %q; want whisper-1, json", got.model, got.responseFormat)
			}
			if got.filename != tt.wantName || got.contentType != tt.wantCType {
				t.Errorf("file %q (%s), want %q (%s)", got.filename, got.contentType, tt.wantName, tt.wantCType)
			}
			if !bytes.Equal(got.audio, audio) {
				t.Errorf("uploaded %d bytes that differ from the %d sent", len(got.audio), len(audio))
			}
			if got.contentLength <= int64(len(audio)) || got.transferEncodingChunked {
				t.Errorf("Content-Length %d, chunked %v: want a known length", got.contentLength, got.transferEncodingChunked)
			}
		})
	}
}

func TestTranscribeLocalServer(t *testing.T) {
	// A local server: no key, its own model name, a base URL with a slash.
	srv := newFakeOpenAI(t, "")
	c := newClient(t, Config{BaseURL: srv.URL + "/v1/", Model: "Systran/faster-whisper-small"})
	audio := audioOf(wav, 4096)
	if _, err := c.Transcribe(context.Background(), bytes.NewReader(audio), int64(len(audio)), WAV, ""); err != nil {
		t.Fatalf("Transcribe: %v", err)
	}
	if got := srv.got.Load(); got == nil || got.model != "Systran/faster-whisper-small" {
		t.Errorf("upload %+v, want the configured model", got)
	}
}

func TestTranscribeErrors(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name           string
		respond        func(w http.ResponseWriter, r *http.Request)
		kind           error
		wantMsg        string
		wantStatus     int
		wantRetryAfter time.Duration
	}{
		{
			name: "server error",
			respond: func(w http.ResponseWriter, r *http.Request) {
				openAIError(w, 500, "The server had an error while processing your request.")
			},
			kind: ErrUnavailable, wantMsg: msgUnavailable, wantStatus: 500,
		},
		{
			name:    "bad gateway with HTML",
			respond: func(w http.ResponseWriter, r *http.Request) { http.Error(w, "<html>502</html>", http.StatusBadGateway) },
			kind:    ErrUnavailable, wantMsg: msgUnavailable, wantStatus: 502,
		},
		{
			name: "rate limited, seconds",
			respond: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Retry-After", "7")
				openAIError(w, 429, "Rate limit reached for whisper-1")
			},
			kind: ErrUnavailable, wantMsg: msgUnavailable, wantStatus: 429, wantRetryAfter: 7 * time.Second,
		},
		{
			name: "rate limited, date",
			respond: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Retry-After", now.Add(2*time.Minute).Format(http.TimeFormat))
				openAIError(w, 429, "Rate limit reached for whisper-1")
			},
			kind: ErrUnavailable, wantMsg: msgUnavailable, wantStatus: 429, wantRetryAfter: 2 * time.Minute,
		},
		{
			name:    "rate limited, no header",
			respond: func(w http.ResponseWriter, r *http.Request) { openAIError(w, 429, "You exceeded your current quota") },
			kind:    ErrUnavailable, wantMsg: msgUnavailable, wantStatus: 429,
		},
		{
			name: "wrong key",
			respond: func(w http.ResponseWriter, r *http.Request) {
				openAIError(w, 401, "Incorrect API key provided: "+testKey)
			},
			kind: ErrUnavailable, wantMsg: msgUnavailable, wantStatus: 401,
		},
		{
			name: "unknown model",
			respond: func(w http.ResponseWriter, r *http.Request) {
				openAIError(w, 404, "The model `whisper-9` does not exist")
			},
			kind: ErrUnavailable, wantMsg: msgUnavailable, wantStatus: 404,
		},
		{
			// What OpenAI answers for a model it does not have on this
			// endpoint (speaches-ai/speaches#17).
			name: "unknown model, OpenAI's 400",
			respond: func(w http.ResponseWriter, r *http.Request) {
				openAIError(w, 400, "invalid model ID")
			},
			kind: ErrUnavailable, wantMsg: msgUnavailable, wantStatus: 400,
		},
		{
			name: "unknown model, by its code",
			respond: func(w http.ResponseWriter, r *http.Request) {
				openAIErrorCode(w, 400, "No such thing: whisper-9", "model_not_found", "")
			},
			kind: ErrUnavailable, wantMsg: msgUnavailable, wantStatus: 400,
		},
		{
			name: "unknown model, by its param",
			respond: func(w http.ResponseWriter, r *http.Request) {
				openAIErrorCode(w, 400, "Invalid value: 'whisper-9'", "invalid_value", "model")
			},
			kind: ErrUnavailable, wantMsg: msgUnavailable, wantStatus: 400,
		},
		{
			name: "unknown model, Mistral's type",
			respond: func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(400)
				io.WriteString(w, `{"error": {"message": "Invalid model: voxtral-small-latest", "type": "invalid_model", "code": "1500"}}`)
			},
			kind: ErrUnavailable, wantMsg: msgUnavailable, wantStatus: 400,
		},
		{
			name: "model not installed, FastAPI",
			respond: func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(400)
				io.WriteString(w, `{"detail": "Model 'Systran/faster-whisper-small' is not installed locally"}`)
			},
			kind: ErrUnavailable, wantMsg: msgUnavailable, wantStatus: 400,
		},
		{
			// The model's limit on the audio: the learner's recording.
			name: "audio too long for the model",
			respond: func(w http.ResponseWriter, r *http.Request) {
				openAIErrorCode(w, 400, "audio duration 1830.5 seconds is longer than 1400 seconds which is the maximum for this model", "invalid_value", "")
			},
			kind: ErrRejected, wantMsg: "audio duration 1830.5 seconds is longer than 1400 seconds which is the maximum for this model", wantStatus: 400,
		},
		{
			name: "audio too short",
			respond: func(w http.ResponseWriter, r *http.Request) {
				openAIErrorCode(w, 400, "Audio file is too short. Minimum audio length is 0.1 seconds.", "audio_too_short", "file")
			},
			kind: ErrRejected, wantMsg: "Audio file is too short. Minimum audio length is 0.1 seconds.", wantStatus: 400,
		},
		{
			name: "format the model cannot read",
			respond: func(w http.ResponseWriter, r *http.Request) {
				openAIError(w, 400, "This model does not support the format you provided.")
			},
			kind: ErrRejected, wantMsg: "This model does not support the format you provided.", wantStatus: 400,
		},
		{
			name:    "gateway timeout",
			respond: func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(504) },
			kind:    ErrTimeout, wantMsg: msgTimeout, wantStatus: 504,
		},
		{
			name: "audio rejected by OpenAI",
			respond: func(w http.ResponseWriter, r *http.Request) {
				openAIError(w, 400, "Audio file might be corrupted or unsupported")
			},
			kind: ErrRejected, wantMsg: "Audio file might be corrupted or unsupported", wantStatus: 400,
		},
		{
			// Its words ask for a new recording: see
			// TestWhisperCppUnreadableRecordingIsRejected.
			name: "audio rejected by whisper.cpp",
			respond: func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(400)
				io.WriteString(w, `{"error": "failed to read audio data"}`)
			},
			kind: ErrRejected, wantMsg: msgUnreadable, wantStatus: 400,
		},
		{
			name: "audio rejected by faster-whisper",
			respond: func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(422)
				io.WriteString(w, `{"detail": "Audio too short"}`)
			},
			kind: ErrRejected, wantMsg: "Audio too short", wantStatus: 422,
		},
		{
			// A FastAPI server's own request validation: a list detail,
			// whose messages are the message.
			name: "audio rejected by a FastAPI server's validation",
			respond: func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(422)
				io.WriteString(w, `{"detail": [{"loc": ["body", "file"], "msg": "Audio file is empty", "type": "value_error"},`+
					` {"loc": ["body", "file"], "msg": "Unsupported sample rate", "type": "value_error", "input": null}]}`)
			},
			kind: ErrRejected, wantMsg: "Audio file is empty; Unsupported sample rate", wantStatus: 422,
		},
		{
			// ... but one about the model field is tutord's configuration.
			name: "unknown model, FastAPI's validation",
			respond: func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(422)
				io.WriteString(w, `{"detail": [{"loc": ["body", "model"], "msg": "Input should be 'large-v3'", "type": "literal_error"}]}`)
			},
			kind: ErrUnavailable, wantMsg: msgUnavailable, wantStatus: 422,
		},
		{
			name:    "rejection quoting the key",
			respond: func(w http.ResponseWriter, r *http.Request) { openAIError(w, 400, "bad request from key "+testKey) },
			kind:    ErrRejected, wantMsg: "bad request from key [redacted]", wantStatus: 400,
		},
		{
			name:    "rejection without a body",
			respond: func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(415) },
			kind:    ErrRejected, wantMsg: "Unsupported Media Type", wantStatus: 415,
		},
		{
			name: "long rejection",
			respond: func(w http.ResponseWriter, r *http.Request) {
				openAIError(w, 400, strings.Repeat("é", 400))
			},
			kind: ErrRejected, wantMsg: strings.Repeat("é", 150) + "…", wantStatus: 400,
		},
		{
			name: "not JSON",
			respond: func(w http.ResponseWriter, r *http.Request) {
				io.WriteString(w, "hello")
			},
			kind: ErrUnavailable, wantMsg: msgUnavailable,
		},
		{
			name: "JSON without text",
			respond: func(w http.ResponseWriter, r *http.Request) {
				io.WriteString(w, `{"transcript": "hello"}`)
			},
			kind: ErrUnavailable, wantMsg: msgUnavailable,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newFakeOpenAI(t, testKey)
			srv.respond = func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
				tt.respond(w, r)
			}
			c := newClient(t, Config{BaseURL: srv.URL + "/v1", APIKey: testKey})
			c.now = func() time.Time { return now }
			audio := audioOf(chromeWebM, 1024)

			_, err := c.Transcribe(context.Background(), bytes.NewReader(audio), int64(len(audio)), WebM, "")
			e := wantErr(t, err, tt.kind, tt.wantMsg)
			if e.StatusCode != tt.wantStatus || e.RetryAfter != tt.wantRetryAfter {
				t.Errorf("status %d, retry after %s; want %d, %s", e.StatusCode, e.RetryAfter, tt.wantStatus, tt.wantRetryAfter)
			}
			if strings.Contains(err.Error(), testKey) {
				t.Errorf("error leaks the key: %v", err)
			}
		})
	}
}

func TestTranscribeFailuresWithoutResponse(t *testing.T) {
	audio := audioOf(chromeWebM, 1024)

	t.Run("server down", func(t *testing.T) {
		srv := httptest.NewServer(http.NotFoundHandler())
		srv.Close()
		c := newClient(t, Config{BaseURL: srv.URL, APIKey: testKey})
		_, err := c.Transcribe(context.Background(), bytes.NewReader(audio), int64(len(audio)), WebM, "")
		wantErr(t, err, ErrUnavailable, msgUnavailable)
	})

	hang := func(t *testing.T) *fakeOpenAI {
		srv := newFakeOpenAI(t, testKey)
		srv.respond = func(w http.ResponseWriter, r *http.Request) {
			// The server notices a closed connection only after the body.
			io.Copy(io.Discard, r.Body)
			<-r.Context().Done()
		}
		return srv
	}

	t.Run("timeout", func(t *testing.T) {
		srv := hang(t)
		c := newClient(t, Config{BaseURL: srv.URL, APIKey: testKey, Timeout: 50 * time.Millisecond})
		_, err := c.Transcribe(context.Background(), bytes.NewReader(audio), int64(len(audio)), WebM, "")
		wantErr(t, err, ErrTimeout, msgTimeout)
	})

	t.Run("caller's deadline", func(t *testing.T) {
		srv := hang(t)
		c := newClient(t, Config{BaseURL: srv.URL, APIKey: testKey})
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		_, err := c.Transcribe(ctx, bytes.NewReader(audio), int64(len(audio)), WebM, "")
		wantErr(t, err, ErrTimeout, msgTimeout)
	})

	t.Run("caller cancels", func(t *testing.T) {
		srv := newFakeOpenAI(t, testKey)
		ctx, cancel := context.WithCancel(context.Background())
		srv.respond = func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			cancel()
			<-r.Context().Done()
		}
		c := newClient(t, Config{BaseURL: srv.URL, APIKey: testKey})
		_, err := c.Transcribe(ctx, bytes.NewReader(audio), int64(len(audio)), WebM, "")
		var e *Error
		if !errors.Is(err, context.Canceled) || errors.As(err, &e) {
			t.Errorf("err = %v, want a plain context.Canceled", err)
		}
	})
}

func TestTranscribeRefusesBeforeSending(t *testing.T) {
	srv := newFakeOpenAI(t, testKey)
	c := newClient(t, Config{BaseURL: srv.URL + "/v1", APIKey: testKey})
	tests := []struct {
		name    string
		size    int64
		format  Format
		wantMsg string
	}{
		{"empty", 0, WebM, "Empty audio file"},
		{"negative size", -1, WebM, "Empty audio file"},
		{"too large", MaxRequestSize + 1, WebM, "File too large (max 25 MB)"},
		{"no room for the form", MaxRequestSize, WebM, "File too large (max 25 MB)"},
		{"too large to add the form to", 1<<63 - 1, WebM, "File too large (max 25 MB)"},
		{"unknown format", 10, "aiff", "Unsupported audio format"},
		{"no format", 10, "", "Unsupported audio format"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.Transcribe(context.Background(), strings.NewReader("0123456789"), tt.size, tt.format, "")
			wantErr(t, err, ErrRejected, tt.wantMsg)
		})
	}
	if n := srv.requests.Load(); n != 0 {
		t.Errorf("sent %d requests, want none", n)
	}
}

// openAIRequestLimitServer answers as OpenAI does to a request body over
// its limit, which is the whole request's, not the file's: 413 with
// {"error": {"message": "Maximum content size limit (26214400) exceeded
// (... bytes read)", "type": "server_error"}}.
func openAIRequestLimitServer(t *testing.T) *fakeOpenAI {
	srv := newFakeOpenAI(t, testKey)
	srv.respond = func(w http.ResponseWriter, r *http.Request) {
		n, _ := io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		if n > MaxRequestSize {
			w.WriteHeader(http.StatusRequestEntityTooLarge)
			fmt.Fprintf(w, `{"error": {"message": "Maximum content size limit (%d) exceeded (%d bytes read)", "type": "server_error", "param": null, "code": null}}`, MaxRequestSize, n)
			return
		}
		io.WriteString(w, `{"text": "hello"}`)
	}
	return srv
}

// A learner's recording too large for OpenAI's request limit (25 MiB for
// the whole request, the form around the file included) is refused before
// it is sent, with tutord's own "File too large (max 25 MB)" and as an
// upload over a limit (the endpoint's 413), not sent to come back as
// OpenAI's confusing "Maximum content size limit (26214400) exceeded";
// and the largest recording that fits is transcribed.
func TestRecordingMustFitOpenAIsRequestLimit(t *testing.T) {
	srv := openAIRequestLimitServer(t)
	c := newClient(t, Config{BaseURL: srv.URL + "/v1", APIKey: testKey})
	_, _, framing := c.multipart(strings.NewReader(""), 0, WebM, "")
	largest := MaxRequestSize - int(framing)
	tests := []struct {
		name string
		size int
		fits bool
	}{
		{"25 MiB", MaxRequestSize, false},
		{"25 MiB less 100 bytes", MaxRequestSize - 100, false},
		{"one byte over what fits", largest + 1, false},
		{"the largest that fits", largest, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := srv.requests.Load()
			audio := audioOf(chromeWebM, tt.size)
			text, err := c.Transcribe(context.Background(), bytes.NewReader(audio), int64(tt.size), WebM, "")
			if tt.fits {
				if err != nil || text != "hello" {
					t.Fatalf("a %d-byte recording, whose request is exactly %d bytes: %q, %v; want it transcribed", tt.size, MaxRequestSize, text, err)
				}
				return
			}
			wantErr(t, err, ErrRejected, msgTooLarge)
			var mbe *http.MaxBytesError
			if !errors.As(err, &mbe) || mbe.Limit != MaxRequestSize {
				t.Errorf("err = %v; want it to match *http.MaxBytesError of limit %d, as an upload over the limit does", err, MaxRequestSize)
			}
			if n := srv.requests.Load() - before; n != 0 {
				t.Errorf("a %d-byte recording that cannot fit was sent (%d requests)", tt.size, n)
			}
		})
	}
}

func TestTranscribeAudioReadErrors(t *testing.T) {
	srv := newFakeOpenAI(t, testKey)
	srv.respond = func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		io.WriteString(w, `{"text": "unexpected"}`)
	}
	c := newClient(t, Config{BaseURL: srv.URL, APIKey: testKey})
	audio := audioOf(wav, 4096)

	t.Run("shorter than its size", func(t *testing.T) {
		_, err := c.Transcribe(context.Background(), bytes.NewReader(audio), int64(len(audio))+10, WAV, "")
		var e *Error
		if !errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, &e) {
			t.Errorf("err = %v, want a wrapped io.ErrUnexpectedEOF", err)
		}
	})

	t.Run("upload over a limit", func(t *testing.T) {
		r := http.MaxBytesReader(nil, io.NopCloser(bytes.NewReader(audio)), 1000)
		_, err := c.Transcribe(context.Background(), r, int64(len(audio)), WAV, "")
		var mbe *http.MaxBytesError
		if !errors.As(err, &mbe) {
			t.Errorf("err = %v, want a wrapped *http.MaxBytesError", err)
		}
	})
}

func TestNotConfigured(t *testing.T) {
	c, err := New(Config{Timeout: DefaultTimeout})
	if err != nil {
		t.Fatal(err)
	}
	if c.Configured() {
		t.Error("Configured() = true")
	}
	_, err = c.Transcribe(context.Background(), strings.NewReader("x"), 1, WebM, "")
	e := wantErr(t, err, ErrNotConfigured, msgNotConfigured)
	for _, s := range []string{"TUTORD_STT_BASE_URL", "https://api.openai.com/v1", "TUTORD_STT_API_KEY"} {
		if !strings.Contains(e.Message, s) {
			t.Errorf("message %q does not mention %s", e.Message, s)
		}
	}
}

// wantErr checks that err is an *Error of kind with message msg.
func wantErr(t *testing.T, err, kind error, msg string) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v (%T), want *Error", err, err)
	}
	if !errors.Is(err, kind) {
		t.Errorf("err = %v, not of kind %v", err, kind)
	}
	if e.Message != msg {
		t.Errorf("message = %q, want %q", e.Message, msg)
	}
	return e
}

// A redirect from the server is not followed (Go would follow it with a
// GET without the audio, whose refusal read as a rejection of the
// learner's recording): it is the server being unavailable.
func TestRedirectIsNotFollowed(t *testing.T) {
	var gets atomic.Int32
	srv := newFakeOpenAI(t, testKey)
	srv.respond = func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/v1/audio/transcriptions":
			io.Copy(io.Discard, r.Body)
			http.Redirect(w, r, "/moved/v1/audio/transcriptions", http.StatusMovedPermanently)
		case r.Method != http.MethodPost:
			gets.Add(1)
			openAIError(w, http.StatusMethodNotAllowed, "Invalid method for URL ("+r.Method+" "+r.URL.Path+")")
		default:
			io.Copy(io.Discard, r.Body)
			io.WriteString(w, `{"text": "hello"}`)
		}
	}
	c := newClient(t, Config{BaseURL: srv.URL + "/v1", APIKey: testKey})
	audio := audioOf(chromeWebM, 4096)
	_, err := c.Transcribe(context.Background(), bytes.NewReader(audio), int64(len(audio)), WebM, "")
	if errors.Is(err, ErrRejected) {
		t.Errorf("a redirect from the server was reported as a rejection of the learner's audio: %v", err)
	}
	if !errors.Is(err, ErrUnavailable) {
		t.Errorf("err = %v, want ErrUnavailable (HTTP 301)", err)
	}
	if n := gets.Load(); n != 0 {
		t.Errorf("the client followed the redirect with %d bodiless GET request(s)", n)
	}
}

// Older whisper.cpp servers answer failures with status 200 and
// {"error": "..."}: the server's words are kept for the logs.
func TestErrorWithStatus200IsKept(t *testing.T) {
	srv := newFakeOpenAI(t, "")
	srv.respond = func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"error":"failed to read WAV file"}`) // status 200, as cpp-httplib's default
	}
	c := newClient(t, Config{BaseURL: srv.URL + "/v1", Model: "whisper-1"})
	audio := audioOf(wav, 4096)
	_, err := c.Transcribe(context.Background(), bytes.NewReader(audio), int64(len(audio)), WAV, "")
	if err == nil {
		t.Fatal("Transcribe succeeded")
	}
	if !strings.Contains(err.Error(), "failed to read WAV file") {
		t.Errorf("the server's error is lost: err = %v", err)
	}
}

// A recording within tutord's 25 MB that the server, or a proxy in front of
// it, refuses as too large (413) is not shown to the learner as the
// server's "Request Entity Too Large" (an HTML page, from nginx): it is a
// rejection with StatusCode 413 and tutord's own message, the server's
// words kept for the logs.
func TestServerRefusingTheSizeIsTooLarge(t *testing.T) {
	tests := []struct {
		name, body, contentType, cause string
	}{
		{"nginx", "<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n<center><h1>413 Request Entity Too Large</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n",
			"text/html", "Request Entity Too Large"},
		{"OpenAI's shape", `{"error": {"message": "Maximum content size limit (10485760) exceeded", "type": "server_error", "param": null, "code": null}}`,
			"application/json", "Maximum content size limit (10485760) exceeded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newFakeOpenAI(t, testKey)
			srv.respond = func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
				w.Header().Set("Content-Type", tt.contentType)
				w.WriteHeader(http.StatusRequestEntityTooLarge)
				io.WriteString(w, tt.body)
			}
			c := newClient(t, Config{BaseURL: srv.URL + "/v1", APIKey: testKey})
			audio := audioOf(chromeWebM, 1024)
			_, err := c.Transcribe(context.Background(), bytes.NewReader(audio), int64(len(audio)), WebM, "")
			e := wantErr(t, err, ErrRejected, "File too large for the speech-to-text service")
			if e.StatusCode != http.StatusRequestEntityTooLarge {
				t.Errorf("status %d, want 413", e.StatusCode)
			}
			if !strings.Contains(err.Error(), tt.cause) {
				t.Errorf("the server's words are not kept for the logs: %v", err)
			}
		})
	}
}

// A server that is overloaded or down for maintenance answers 503 with
// Retry-After (OpenAI's "The engine is currently overloaded, please try
// again later."), as a rate-limited one answers 429 with it. tutord passed
// the 429's wait on to the learner's client but dropped the 503's, so the
// client retried at once into the same overload; and a wait too long for a
// time.Duration wrapped around to a negative or a tiny one. The wait is
// kept for both statuses, and a very long one is capped at a year.
func TestServerAskingToWaitIsKept(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name       string
		status     int
		retryAfter string
		want       time.Duration
	}{
		{"overloaded, seconds", http.StatusServiceUnavailable, "30", 30 * time.Second},
		{"overloaded, date", http.StatusServiceUnavailable, now.Add(5 * time.Minute).Format(http.TimeFormat), 5 * time.Minute},
		{"rate limited for longer than a Duration holds", http.StatusTooManyRequests, "99999999999", 365 * 24 * time.Hour},
		{"rate limited for 2^64 ns", http.StatusTooManyRequests, "18446744074", 365 * 24 * time.Hour},
		{"rate limited for more seconds than an int64 holds", http.StatusTooManyRequests, "99999999999999999999", 365 * 24 * time.Hour},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newFakeOpenAI(t, testKey)
			srv.respond = func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
				w.Header().Set("Retry-After", tt.retryAfter)
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tt.status)
				io.WriteString(w, `{"error": {"message": "The engine is currently overloaded, please try again later.", "type": "server_error", "param": null, "code": null}}`)
			}
			c := newClient(t, Config{BaseURL: srv.URL + "/v1", APIKey: testKey})
			c.now = func() time.Time { return now }
			audio := audioOf(chromeWebM, 1024)
			_, err := c.Transcribe(context.Background(), bytes.NewReader(audio), int64(len(audio)), WebM, "")
			e := wantErr(t, err, ErrUnavailable, msgUnavailable)
			if e.StatusCode != tt.status || e.RetryAfter != tt.want {
				t.Errorf("status %d, retry after %s; want %d, %s", e.StatusCode, e.RetryAfter, tt.status, tt.want)
			}
		})
	}
}

// whisperCppError answers as whisper.cpp's whisper-server does when it
// cannot use a request: status (cpp-httplib's default 200 on servers older
// than the ones that set it) and {"error":"..."}, with no space.
func whisperCppError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Server", "whisper.cpp")
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"error":%q}`, msg)
}

// whisper.cpp's server cannot read every recording: started with --convert,
// it answers 500 {"error":"FFmpeg conversion failed."} when ffmpeg cannot
// convert the upload (its handler's fallback for that failure is "Failed to
// execute ffmpeg command."), and 400 "failed to read WAV file" when the
// converted file cannot be read; without --convert, 400 "failed to read
// audio data"; older servers answer all of them with status 200. Sending
// the same recording again never helps, so none is "unavailable, try again
// later" (a 503 for the learner): each is a rejection of the recording that
// asks the learner to record again, the server's words kept for the logs.
// Other whisper.cpp failures, of the server itself, stay unavailable.
func TestWhisperCppUnreadableRecordingIsRejected(t *testing.T) {
	const unreadable = "The recording could not be read; please record it again, or send it in a common format such as WAV or MP3"
	tests := []struct {
		name   string
		status int
		msg    string
		kind   error
		// wantMsg is what the learner is told.
		wantMsg string
	}{
		{"ffmpeg cannot convert it", 500, "FFmpeg conversion failed.", ErrRejected, unreadable},
		{"ffmpeg cannot convert it, the handler's fallback", 500, "Failed to execute ffmpeg command.", ErrRejected, unreadable},
		{"the converted WAV cannot be read", 400, "failed to read WAV file", ErrRejected, unreadable},
		{"not a WAV, without --convert", 400, "failed to read audio data", ErrRejected, unreadable},
		{"ffmpeg cannot convert it, older server", 200, "FFmpeg conversion failed.", ErrRejected, unreadable},
		{"not a WAV, older server", 200, "failed to read audio data", ErrRejected, unreadable},
		// The server's own failures: its disk, or the inference.
		{"the server cannot rename its temporary file", 500, "Failed to rename the temporary file.", ErrUnavailable, msgUnavailable},
		{"the server cannot remove its temporary file", 500, "Failed to remove the original file.", ErrUnavailable, msgUnavailable},
		{"the inference fails", 500, "failed to process audio", ErrUnavailable, msgUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newFakeOpenAI(t, "")
			srv.respond = func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
				whisperCppError(w, tt.status, tt.msg)
			}
			c := newClient(t, Config{BaseURL: srv.URL + "/v1", Model: "whisper-1"})
			audio := audioOf(chromeWebM, 4096)
			_, err := c.Transcribe(context.Background(), bytes.NewReader(audio), int64(len(audio)), WebM, "")
			wantErr(t, err, tt.kind, tt.wantMsg)
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("the server's words are not kept for the logs: %v", err)
			}
		})
	}
}

// A server may ask to wait a fraction of a second: OpenAI sends
// retry-after-ms (milliseconds, maybe with a fraction), which its own SDKs
// prefer to Retry-After, and some servers send Retry-After as a decimal
// ("1.5"). tutord read neither and passed no wait on to the learner's
// client. Both are read, on a 429 and a 503, rounded up to a whole
// millisecond and capped at a year; retry-after-ms wins when it is usable,
// and a negative or malformed value is no instruction.
func TestServerAskingToWaitInFractionsIsKept(t *testing.T) {
	tests := []struct {
		name         string
		status       int
		retryAfter   string // "" when absent
		retryAfterMs string // "" when absent
		want         time.Duration
	}{
		{"decimal seconds", http.StatusTooManyRequests, "1.5", "", 1500 * time.Millisecond},
		{"decimal seconds, overloaded", http.StatusServiceUnavailable, "0.25", "", 250 * time.Millisecond},
		{"less than a millisecond", http.StatusTooManyRequests, "0.0001", "", time.Millisecond},
		{"milliseconds", http.StatusTooManyRequests, "", "1500", 1500 * time.Millisecond},
		{"milliseconds, overloaded", http.StatusServiceUnavailable, "", "20", 20 * time.Millisecond},
		{"decimal milliseconds", http.StatusTooManyRequests, "", "250.2", 251 * time.Millisecond},
		{"milliseconds win over seconds", http.StatusTooManyRequests, "2", "1500", 1500 * time.Millisecond},
		{"malformed milliseconds", http.StatusTooManyRequests, "3", "soon", 3 * time.Second},
		{"negative milliseconds", http.StatusTooManyRequests, "3", "-5", 3 * time.Second},
		{"milliseconds for longer than a Duration holds", http.StatusTooManyRequests, "", "99999999999999999999", 365 * 24 * time.Hour},
		{"negative decimal seconds", http.StatusTooManyRequests, "-1.5", "", 0},
		{"not a number", http.StatusTooManyRequests, "1.5.2", "", 0},
		{"infinity", http.StatusTooManyRequests, "Inf", "", 0},
		{"NaN milliseconds", http.StatusTooManyRequests, "", "NaN", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newFakeOpenAI(t, testKey)
			srv.respond = func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
				if tt.retryAfter != "" {
					w.Header().Set("Retry-After", tt.retryAfter)
				}
				if tt.retryAfterMs != "" {
					w.Header().Set("retry-after-ms", tt.retryAfterMs)
				}
				openAIError(w, tt.status, "Rate limit reached for whisper-1")
			}
			c := newClient(t, Config{BaseURL: srv.URL + "/v1", APIKey: testKey})
			audio := audioOf(chromeWebM, 1024)
			_, err := c.Transcribe(context.Background(), bytes.NewReader(audio), int64(len(audio)), WebM, "")
			e := wantErr(t, err, ErrUnavailable, msgUnavailable)
			if e.StatusCode != tt.status || e.RetryAfter != tt.want {
				t.Errorf("status %d, retry after %s; want %d, %s", e.StatusCode, e.RetryAfter, tt.status, tt.want)
			}
		})
	}
}
