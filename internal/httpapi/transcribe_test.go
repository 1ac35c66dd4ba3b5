package httpapi_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tutord/tutord/internal/httpapi"
	"github.com/tutord/tutord/internal/stt"
)

// testWAV is the start of a WAV file: enough for its format to be recognised.
var testWAV = append([]byte("RIFF\x24\x00\x00\x00WAVEfmt "), make([]byte, 64)...)

// whisperStub is a Whisper-compatible server: it transcribes any audio as
// "three quarters", except audio holding "SHORT", which it refuses as
// OpenAI refuses a recording that is too short. calls counts requests;
// language is the last request's language field (nil when it had none).
type whisperStub struct {
	client   *stt.Client
	calls    atomic.Int64
	language atomic.Pointer[string]
}

// sttClient is a speech-to-text client of the Whisper-compatible server
// at url.
func sttClient(t *testing.T, url string) *stt.Client {
	t.Helper()
	c, err := stt.New(stt.Config{BaseURL: url + "/v1", APIKey: "sk-test", Model: "whisper-1", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// sttServer is a server option whose speech-to-text is a Whisper-
// compatible server answering with h.
func sttServer(t *testing.T, h http.HandlerFunc) serverOption {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	c := sttClient(t, srv.URL)
	return func(_ *httpapi.Options, d *httpapi.Deps) { d.Transcribe = httpapi.NewTranscriber(c) }
}

func newWhisperStub(t *testing.T) *whisperStub {
	t.Helper()
	w := &whisperStub{}
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		w.calls.Add(1)
		f, _, err := r.FormFile("file")
		if err != nil {
			http.Error(rw, `{"error":{"message":"no file"}}`, http.StatusBadRequest)
			return
		}
		audio, _ := io.ReadAll(f)
		f.Close()
		w.language.Store(nil)
		if v := r.MultipartForm.Value["language"]; len(v) > 0 {
			w.language.Store(&v[0])
		}
		if bytes.Contains(audio, []byte("SHORT")) {
			http.Error(rw, `{"error":{"message":"Audio file is too short. Minimum audio length is 0.1 seconds."}}`, http.StatusBadRequest)
			return
		}
		json.NewEncoder(rw).Encode(map[string]string{"text": "three quarters"})
	}))
	t.Cleanup(srv.Close)
	w.client = sttClient(t, srv.URL)
	return w
}

// transcriber sets the server's speech-to-text to the stub.
func (w *whisperStub) transcriber() serverOption {
	return func(_ *httpapi.Options, d *httpapi.Deps) { d.Transcribe = httpapi.NewTranscriber(w.client) }
}

// transcribe uploads audio to POST /transcribe, checked against the contract.
func (s *apiServer) transcribe(audio []byte, tok string) response {
	s.t.Helper()
	return s.transcribeWith(audio, tok, nil)
}

// transcribeWith uploads audio with the form fields given.
func (s *apiServer) transcribeWith(audio []byte, tok string, fields map[string]string) response {
	s.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	part, _ := mw.CreateFormFile("file", "recording.wav")
	part.Write(audio)
	for name, v := range fields {
		mw.WriteField(name, v)
	}
	mw.Close()
	return s.do("POST", "/transcribe", buf.String(), tok, "Content-Type", mw.FormDataContentType())
}

// TestTranscribeRefusesAnonymousCallers: with anonymous use off, an upload
// without a token is a 401 and never reaches the speech-to-text server.
func TestTranscribeRefusesAnonymousCallers(t *testing.T) {
	whisper := newWhisperStub(t)
	s := newServer(t, whisper.transcriber(), func(o *httpapi.Options, _ *httpapi.Deps) { o.AllowAnonymous = false })
	if r := s.transcribe(testWAV, ""); r.Status != 401 || r.code(t) != "unauthorized" {
		t.Fatalf("anonymous: %d %s; want 401", r.Status, r.Body)
	}
	if n := whisper.calls.Load(); n != 0 {
		t.Fatalf("the anonymous upload was transcribed (%d calls)", n)
	}
	if r := s.transcribe(testWAV, token(t, "learner-voice", false)); r.Status != 200 || !strings.Contains(string(r.Body), "three quarters") {
		t.Fatalf("with a token: %d %s", r.Status, r.Body)
	}
}

// TestTranscribeRateLimit: each learner, and each client address of
// anonymous callers, has a transcription bucket at the turn rate: 429 with
// Retry-After once it is empty, without calling the server. Turns keep a
// bucket of their own.
func TestTranscribeRateLimit(t *testing.T) {
	whisper := newWhisperStub(t)
	s := newServer(t, whisper.transcriber(), turnLimit(2))
	learner := token(t, "learner-chatty", false)
	for i := range 2 {
		if r := s.transcribe(testWAV, learner); r.Status != 200 {
			t.Fatalf("upload %d: %d %s", i+1, r.Status, r.Body)
		}
	}
	r := s.transcribe(testWAV, learner)
	if r.Status != 429 || r.code(t) != "rate_limited" || r.Header.Get("Retry-After") == "" {
		t.Fatalf("third upload: %d %v %s; want 429 with Retry-After", r.Status, r.Header, r.Body)
	}
	if n := whisper.calls.Load(); n != 2 {
		t.Fatalf("%d calls to the speech-to-text server, want 2", n)
	}
	// The learner's turns are not spent, and another learner has a bucket
	// of their own.
	if r := s.step(s.newSession(fractions, "", learner), learner); r.Status != 200 {
		t.Fatalf("a turn after the transcriptions: %d %s", r.Status, r.Body)
	}
	if r := s.transcribe(testWAV, token(t, "learner-quiet", false)); r.Status != 200 {
		t.Fatalf("another learner: %d %s", r.Status, r.Body)
	}
	// Anonymous callers share their address's bucket.
	for i := range 2 {
		if r := s.transcribe(testWAV, ""); r.Status != 200 {
			t.Fatalf("anonymous upload %d: %d %s", i+1, r.Status, r.Body)
		}
	}
	if r := s.transcribe(testWAV, ""); r.Status != 429 {
		t.Fatalf("third anonymous upload: %d %s; want 429", r.Status, r.Body)
	}
}

// TestTranscribeRejectedAudio: when the server refuses the audio, the
// learner reads its reason, not tutord's internal error text.
func TestTranscribeRejectedAudio(t *testing.T) {
	whisper := newWhisperStub(t)
	s := newServer(t, whisper.transcriber())
	r := s.transcribe(append(bytes.Clone(testWAV), "SHORT"...), "")
	if r.Status != 400 || r.code(t) != "transcription_failed" {
		t.Fatalf("refused audio: %d %s; want 400 transcription_failed", r.Status, r.Body)
	}
	var body struct {
		Detail string `json:"detail"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatal(err)
	}
	if want := "Transcription failed: Audio file is too short. Minimum audio length is 0.1 seconds."; body.Detail != want {
		t.Fatalf("detail %q, want %q", body.Detail, want)
	}
}

// oversizedUpload is the start of a form uploading a 27 MiB recording:
// its first part's head and the test clip, the rest to be sent after.
func oversizedUpload() (head *bytes.Buffer, mw *multipart.Writer) {
	head = new(bytes.Buffer)
	mw = multipart.NewWriter(head)
	part, _ := mw.CreateFormFile("file", "recording.wav")
	part.Write(testWAV)
	return head, mw
}

// tooLarge checks that an oversized upload got the route's 413 (CONTRACT
// §2.7, api/openapi.yaml): too_large, "File too large (max 25 MB)", not
// echo's generic "Request body too large" nor a 422 for a missing file.
func tooLarge(t *testing.T, how string, resp *http.Response) {
	t.Helper()
	body, _ := io.ReadAll(resp.Body)
	var e struct {
		Detail string `json:"detail"`
		Error  struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	json.Unmarshal(body, &e)
	if resp.StatusCode != http.StatusRequestEntityTooLarge || e.Error.Code != "too_large" || e.Detail != "File too large (max 25 MB)" {
		t.Fatalf("27 MiB upload %s: %d %s; want 413 too_large \"File too large (max 25 MB)\"", how, resp.StatusCode, body)
	}
}

// An upload over the body limit sent without Content-Length (chunked, as
// browsers and curl -T do for streams) is refused as too large before it
// reaches the speech-to-text server.
func TestChunkedOversizedUploadIs413(t *testing.T) {
	whisper := newWhisperStub(t)
	s := newServer(t, whisper.transcriber())

	head, mw := oversizedUpload()
	// The rest of the 27 MiB file is streamed, and the form closed after it.
	var tail bytes.Buffer
	tw := multipart.NewWriter(&tail)
	tw.SetBoundary(mw.Boundary())
	tw.Close()
	body := io.MultiReader(head, io.LimitReader(zeros{}, 27<<20), &tail)

	req, err := http.NewRequest("POST", s.URL+"/transcribe", io.NopCloser(body))
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = -1 // chunked
	req.Header.Set("Content-Type", mw.FormDataContentType())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	tooLarge(t, "sent chunked", resp)
	if n := whisper.calls.Load(); n != 0 {
		t.Fatalf("the oversized upload reached the speech-to-text server (%d calls)", n)
	}
}

// A browser uploads a 27 MiB recording (FormData: the request has a
// Content-Length, so it is refused before its handler runs). It gets the
// same 413 as a chunked upload.
func TestOversizedUploadSaysFileTooLarge(t *testing.T) {
	whisper := newWhisperStub(t)
	s := newServer(t, whisper.transcriber())

	head, mw := oversizedUpload()
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(20 * time.Second))
	fmt.Fprintf(conn, "POST /transcribe HTTP/1.1\r\nHost: x\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n", mw.FormDataContentType(), 27<<20)
	conn.Write(head.Bytes()) // the rest would follow: the server answers first
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	tooLarge(t, "with its Content-Length", resp)
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestTranscribeProviderBusy: when the speech-to-text provider answers 429
// with Retry-After, the learner's app gets 503 with the same Retry-After,
// so that it waits as long as the provider asked before sending again.
func TestTranscribeProviderBusy(t *testing.T) {
	s := newServer(t, sttServer(t, func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Retry-After", "30")
		rw.Header().Set("Content-Type", "application/json")
		rw.WriteHeader(http.StatusTooManyRequests)
		rw.Write([]byte(`{"error":{"message":"Rate limit reached for requests","type":"requests","code":"rate_limit_exceeded"}}`))
	}))
	r := s.transcribe(testWAV, "")
	if r.Status != 503 || r.code(t) != "unavailable" || r.Header.Get("Retry-After") != "30" {
		t.Fatalf("provider busy: %d, Retry-After %q, %s; want 503 unavailable with Retry-After 30", r.Status, r.Header.Get("Retry-After"), r.Body)
	}
}

// A speech-to-text server, or a proxy in front of it (nginx's HTML page
// here), refuses a recording within tutord's 25 MB as too large: the
// learner gets the route's 413 too_large with a message saying whose limit
// it was, not 400 "Transcription failed: Request Entity Too Large".
func TestProviderRefusingTheSizeIs413(t *testing.T) {
	s := newServer(t, sttServer(t, func(rw http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		rw.Header().Set("Content-Type", "text/html")
		rw.WriteHeader(http.StatusRequestEntityTooLarge)
		io.WriteString(rw, "<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n<center><h1>413 Request Entity Too Large</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n")
	}))
	r := s.transcribe(testWAV, "")
	if r.Status != http.StatusRequestEntityTooLarge || r.code(t) != "too_large" {
		t.Fatalf("provider's 413: %d %s; want 413 too_large", r.Status, r.Body)
	}
	if got := r.JSON(t)["detail"]; got != "File too large for the speech-to-text service" {
		t.Fatalf("detail %q, want %q", got, "File too large for the speech-to-text service")
	}
}

// The language a learner names with the recording reaches the speech-to-
// text server in lower case, so that it does not guess the language of a
// short clip; without one, none is sent.
func TestTranscribePassesLanguage(t *testing.T) {
	whisper := newWhisperStub(t)
	s := newServer(t, whisper.transcriber())
	for _, tt := range []struct{ sent, want string }{{"hi", "hi"}, {"EN", "en"}} {
		r := s.transcribeWith(testWAV, "", map[string]string{"language": tt.sent})
		if r.Status != 200 {
			t.Fatalf("language %q: %d %s", tt.sent, r.Status, r.Body)
		}
		if got := whisper.language.Load(); got == nil || *got != tt.want {
			t.Fatalf("language %q reached the server as %v, want %q", tt.sent, got, tt.want)
		}
	}
	if r := s.transcribe(testWAV, ""); r.Status != 200 {
		t.Fatalf("no language: %d %s", r.Status, r.Body)
	}
	if got := whisper.language.Load(); got != nil {
		t.Fatalf("no language given, but %q was sent", *got)
	}
}

// A language that is not a two-letter ISO 639-1 code is a 422 naming the
// field, and the recording is not sent.
func TestTranscribeRefusesBadLanguage(t *testing.T) {
	whisper := newWhisperStub(t)
	s := newServer(t, whisper.transcriber())
	for _, lang := range []string{"", "eng", "english", "e1", "en-US", "é"} {
		r := s.transcribeWith(testWAV, "", map[string]string{"language": lang})
		if r.Status != 422 || r.code(t) != "validation_error" {
			t.Fatalf("language %q: %d %s; want 422 validation_error", lang, r.Status, r.Body)
		}
		var body struct {
			Detail []struct {
				Loc []any  `json:"loc"`
				Msg string `json:"msg"`
			} `json:"detail"`
		}
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatal(err)
		}
		if len(body.Detail) != 1 || fmt.Sprint(body.Detail[0].Loc) != "[body language]" || !strings.Contains(body.Detail[0].Msg, "ISO 639-1") {
			t.Fatalf("language %q: detail %s; want one item at [body language] explaining the code", lang, r.Body)
		}
	}
	if n := whisper.calls.Load(); n != 0 {
		t.Fatalf("recordings with a bad language were transcribed (%d calls)", n)
	}
}
