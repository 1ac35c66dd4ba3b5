package httpapi_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tutord/tutord/internal/httpapi"
)

// TestStalledBodyIsDropped: a client that sends its headers and part of a
// body, then stalls, gets 408 after Options.BodyTimeout rather than
// holding a connection and a handler for ever (slow-POST).
func TestStalledBodyIsDropped(t *testing.T) {
	s := newServer(t, func(o *httpapi.Options, _ *httpapi.Deps) { o.BodyTimeout = time.Second })
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /sessions HTTP/1.1\r\nHost: tutord\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to a request whose body stalled after 1 of 1000 bytes: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusRequestTimeout {
		t.Fatalf("a stalled body got %d, want 408", resp.StatusCode)
	}
	body, _ := io.ReadAll(resp.Body)
	req, _ := http.NewRequest("POST", s.URL+"/sessions", nil)
	req.Header.Set("Content-Type", "application/json")
	s.checkContract(req, []byte("{}"), resp, body)
}

// blockingTranscriber is a configured speech-to-text that accepts WAV and,
// inside Transcribe, reports how much heap the request holds, then waits.
type blockingTranscriber struct {
	inside  chan uint64 // heap in use while the upload is being transcribed
	release chan struct{}
}

func (b *blockingTranscriber) Configured() bool { return true }
func (b *blockingTranscriber) Detect(head []byte) (string, bool) {
	return "wav", strings.HasPrefix(string(head), "RIFF")
}
func (b *blockingTranscriber) Transcribe(ctx context.Context, audio io.Reader, size int64, format, language string) (string, error) {
	b.inside <- heapInUse()
	<-b.release
	return "three quarters", nil
}

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestTranscribeUploadIsNotHeldInMemory: an upload to /transcribe (up to
// 25 MB, anonymous callers included, several at once) is spooled to disk,
// not held in memory for as long as its transcription runs.
func TestTranscribeUploadIsNotHeldInMemory(t *testing.T) {
	tr := &blockingTranscriber{inside: make(chan uint64, 1), release: make(chan struct{})}
	s := newServer(t, func(_ *httpapi.Options, d *httpapi.Deps) { d.Transcribe = tr })
	defer close(tr.release)

	const size = 20 << 20 // 20 MiB of audio, well under the 25 MB limit
	req := uploadRequest(t, s.URL, (size-len(testWAV))/(64<<10)+1, 64<<10, 0)
	before := heapInUse()
	done := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		done <- err
	}()
	var during uint64
	select {
	case during = <-tr.inside:
	case err := <-done:
		t.Fatalf("the upload ended before reaching the transcriber: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("the upload did not reach the transcriber")
	}
	grown := int64(during) - int64(before)
	t.Logf("heap before %d MiB, during transcription %d MiB", before>>20, during>>20)
	if grown > 8<<20 {
		t.Fatalf("a %d MiB upload to /transcribe holds %d MiB of heap while it is transcribed", size>>20, grown>>20)
	}
}

// TestSlowUploadArrives: a recording uploaded over a slow mobile link
// takes longer than Options.BodyTimeout, but keeps coming: it is
// transcribed, not cut off with 408. The time a body may take grows with
// what has arrived (a second per 16 KiB), so a body that stalls is still
// dropped (TestStalledBodyIsDropped).
func TestSlowUploadArrives(t *testing.T) {
	tr := &blockingTranscriber{inside: make(chan uint64, 1), release: make(chan struct{})}
	close(tr.release)
	s := newServer(t, func(o *httpapi.Options, d *httpapi.Deps) { o.BodyTimeout = 300 * time.Millisecond; d.Transcribe = tr })
	// 96 KiB in 12 pieces over about 1.2 s: 80 KiB a second, four times
	// BodyTimeout in all.
	req := uploadRequest(t, s.URL, 12, 8<<10, 100*time.Millisecond)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "three quarters") {
		t.Fatalf("a slow upload that kept coming: %d %s; want 200 with its transcript", resp.StatusCode, body)
	}
}

// uploadRequest returns a POST /transcribe to the server at url whose
// body, a multipart form, streams a WAV recording: testWAV, then n pieces
// of size bytes, each after a pause of gap.
func uploadRequest(t *testing.T, url string, n, size int, gap time.Duration) *http.Request {
	t.Helper()
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		part, err := mw.CreateFormFile("file", "recording.wav")
		if err != nil {
			pw.CloseWithError(err)
			return
		}
		part.Write(testWAV)
		chunk := make([]byte, size)
		for range n {
			time.Sleep(gap)
			if _, err := part.Write(chunk); err != nil {
				pw.CloseWithError(err)
				return
			}
		}
		pw.CloseWithError(mw.Close())
	}()
	req, err := http.NewRequest("POST", url+"/transcribe", pr)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return req
}
