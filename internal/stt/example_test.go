package stt_test

import (
	"fmt"

	"github.com/tutord/tutord/internal/stt"
)

func ExampleDetect() {
	for _, head := range [][]byte{
		[]byte("\x1a\x45\xdf\xa3\x9f\x42\x86\x81\x01"), // Chrome's MediaRecorder
		[]byte("ID3\x04\x00\x00\x00\x00\x01\x76"),      // an MP3 file
		[]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0d"),    // a picture named voice.webm
	} {
		f, ok := stt.Detect(head)
		fmt.Printf("%q %v %q\n", f, ok, f.Ext())
	}
	// Output:
	// "webm" true "webm"
	// "mpeg" true "mp3"
	// "" false ""
}
