package httpapi_test

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
)

// whisperAnswering is a Whisper-compatible server answering every upload with
// the JSON body given.
func whisperAnswering(t *testing.T, body string) serverOption {
	t.Helper()
	return sttServer(t, func(rw http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		rw.Header().Set("Content-Type", "application/json")
		io.WriteString(rw, body)
	})
}

// A recording of 26,100,000 bytes (24.9 MiB) is under the reference's
// limit of 25 MiB (CONTRACT §2.7, §9.14) and README's: it is transcribed.
// (echo's body limit reads "26M" as 26,000,000 bytes, less than 25 MiB.)
func TestRecordingJustUnder25MiBIsAccepted(t *testing.T) {
	whisper := newWhisperStub(t)
	s := newServer(t, whisper.transcriber())
	audio := append(bytes.Clone(testWAV), make([]byte, 26_100_000-len(testWAV))...)
	r := s.transcribe(audio, "")
	if r.Status != 200 || !strings.Contains(string(r.Body), "three quarters") {
		t.Fatalf("24.9 MiB recording: %d %s; want 200 with the transcript (the limit is 25 MiB)", r.Status, truncate(r.Body, 300))
	}
}

// whisper.cpp's whisper-server (one of the servers README names for
// TUTORD_STT_BASE_URL) joins its segments, each starting with a space and
// ending with a line break: {"text":" Three quarters.\n"}. The learner's
// app gets "Three quarters.", as from OpenAI (CONTRACT §2.7), not a
// message box that starts with a space and ends with a line break.
func TestWhisperCppTranscriptIsTrimmed(t *testing.T) {
	s := newServer(t, whisperAnswering(t, `{"text":" Three quarters.\n"}`))
	r := s.transcribe(testWAV, "")
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	if got := r.JSON(t)["text"]; got != "Three quarters." {
		t.Fatalf("text %q, want %q", got, "Three quarters.")
	}
}

// A mobile client's upload is cut short (the multipart body ends before
// its closing boundary). The app gets 400 "The request body could not be
// read", as every route answers an unreadable body, not 422 "Field
// required" for a `file` field it did send: that 422 (CONTRACT §2.7) is
// for a well-formed form without one.
func TestUnreadableUploadIs400(t *testing.T) {
	whisper := newWhisperStub(t)
	s := newServer(t, whisper.transcriber())
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	part, _ := mw.CreateFormFile("file", "recording.wav")
	part.Write(testWAV)
	part.Write(make([]byte, 5000)) // no closing boundary: the body ends here
	r := s.do("POST", "/transcribe", buf.String(), "", "Content-Type", mw.FormDataContentType())
	if r.Status != 400 {
		t.Fatalf("truncated upload: %d %s; want 400 (the body could not be read), not a missing field", r.Status, r.Body)
	}
	if n := whisper.calls.Load(); n != 0 {
		t.Fatalf("the truncated upload was transcribed (%d calls)", n)
	}
}
