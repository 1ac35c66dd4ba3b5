package stt

import (
	"math/rand/v2"
	"testing"
)

// Headers as recorders and encoders write them.
var (
	// Chrome's MediaRecorder (audio/webm;codecs=opus).
	chromeWebM = []byte("\x1a\x45\xdf\xa3\x9f\x42\x86\x81\x01\x42\xf7\x81\x01\x42\xf2\x81\x04\x42\xf3\x81\x08\x42\x82\x84webm\x42\x87\x81\x04\x42\x85\x81\x02")
	// Firefox's MediaRecorder (audio/ogg;codecs=opus): the first page.
	firefoxOgg = []byte("OggS\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x8d\x3e\x1f\x5b\x00\x00\x00\x00\x5a\x4f\x0e\x8c\x01\x13OpusHead\x01\x01\x38\x01\x80\xbb\x00\x00\x00\x00\x00")
	// Safari's MediaRecorder (audio/mp4).
	safariMP4 = []byte("\x00\x00\x00\x1cftypiso5\x00\x00\x02\x00iso5iso6mp41")
	// An AAC file from an encoder (.m4a).
	m4a = []byte("\x00\x00\x00\x20ftypM4A \x00\x00\x00\x00M4A mp42isom\x00\x00\x00\x00")
	// An MP4 from a phone's voice recorder.
	mp42 = []byte("\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom")
	// An MP3 with an ID3v2.4 tag.
	id3 = []byte("ID3\x04\x00\x00\x00\x00\x01\x76TIT2\x00\x00\x00\x06")
	// An MP3 without a tag: MPEG-1 Layer III, 128 kbit/s, 44.1 kHz.
	mp3Frame = []byte("\xff\xfb\x90\x64\x00\x00\x00\x00\x00\x00\x00\x00")
	// MPEG-2 Layer III, 64 kbit/s, 22.05 kHz, without CRC.
	mp3Frame2 = []byte("\xff\xf3\x80\xc4\x00\x00\x00\x00\x00\x00\x00\x00")
	// A 16-bit PCM WAV.
	wav = []byte("RIFF\x24\x08\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00")
	// A FLAC stream: marker, then the STREAMINFO block header.
	flac = []byte("fLaC\x00\x00\x00\x22\x10\x00\x10\x00")
)

func TestDetect(t *testing.T) {
	random := make([]byte, 64)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range random {
		random[i] = byte(r.UintN(256))
	}
	tests := []struct {
		name   string
		head   []byte
		want   Format
		wantOK bool
	}{
		{"webm from Chrome", chromeWebM, WebM, true},
		{"matroska", []byte("\x1a\x45\xdf\xa3\xa3\x42\x86\x81\x01\x42\x82\x88matroska"), WebM, true},
		{"ogg from Firefox", firefoxOgg, Ogg, true},
		{"mp4 from Safari", safariMP4, MP4, true},
		{"m4a", m4a, MP4, true},
		{"mp4 mp42", mp42, MP4, true},
		{"mp3 with ID3", id3, MPEG, true},
		{"mp3 frame", mp3Frame, MPEG, true},
		{"mpeg-2 layer III frame", mp3Frame2, MPEG, true},
		{"wav", wav, WAV, true},
		{"flac", flac, FLAC, true},
		{"exactly SniffLen bytes", mp42[:SniffLen], MP4, true},

		{"empty", nil, "", false},
		{"short ogg", []byte("Og"), "", false},
		{"text", []byte("hello, this is not audio"), "", false},
		{"JSON", []byte(`{"text": "hi"}`), "", false},
		{"PNG", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR"), "", false},
		{"JPEG", []byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01"), "", false},
		{"GIF", []byte("GIF89a\x01\x00\x01\x00\x80\x00"), "", false},
		{"PDF", []byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3"), "", false},
		{"AVI", []byte("RIFF\x24\x08\x00\x00AVI LIST"), "", false},
		{"WebP", []byte("RIFF\x24\x08\x00\x00WEBPVP8 "), "", false},
		{"HEIC", []byte("\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic"), "", false},
		{"AVIF", []byte("\x00\x00\x00\x1cftypavif\x00\x00\x00\x00avifmif1"), "", false},
		{"ftyp cut short", []byte("\x00\x00\x00\x18ftyp"), "", false},
		{"AAC ADTS", []byte("\xff\xf1\x50\x80\x02\x1f\xfc\x21\x00\x00\x00\x00"), "", false},
		{"MPEG frame with a reserved bitrate", []byte("\xff\xfb\xf0\x64\x00\x00\x00\x00"), "", false},
		{"MPEG frame with a reserved sample rate", []byte("\xff\xfb\x9c\x64\x00\x00\x00\x00"), "", false},
		{"MPEG layer II frame", []byte("\xff\xfd\x90\x64\x00\x00\x00\x00"), "", false},
		{"ID3 with a bad version", []byte("ID3\x09\x00\x00\x00\x00\x01\x76"), "", false},
		{"ID3 with a bad size", []byte("ID3\x03\x00\x00\x80\x00\x01\x76"), "", false},
		{"zip", []byte("PK\x03\x04\x14\x00\x00\x00\x08\x00"), "", false},
		{"random", random, "", false},
		{"zeros", make([]byte, 64), "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Detect(tt.head)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("Detect = %q, %v; want %q, %v", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestFormatNames(t *testing.T) {
	tests := []struct {
		f          Format
		ext, ctype string
	}{
		{WebM, "webm", "audio/webm"},
		{Ogg, "ogg", "audio/ogg"},
		{MP4, "mp4", "audio/mp4"},
		{MPEG, "mp3", "audio/mpeg"},
		{WAV, "wav", "audio/wav"},
		{FLAC, "flac", "audio/flac"},
		{"aiff", "", "application/octet-stream"},
	}
	for _, tt := range tests {
		t.Run(string(tt.f), func(t *testing.T) {
			if got := tt.f.Ext(); got != tt.ext {
				t.Errorf("Ext = %q, want %q", got, tt.ext)
			}
			if got := tt.f.ContentType(); got != tt.ctype {
				t.Errorf("ContentType = %q, want %q", got, tt.ctype)
			}
		})
	}
}

func FuzzDetect(f *testing.F) {
	for _, b := range [][]byte{chromeWebM, firefoxOgg, safariMP4, id3, mp3Frame, wav, flac, nil} {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, head []byte) {
		if got, ok := Detect(head); ok != (got != "") || (ok && got.Ext() == "") {
			t.Errorf("Detect = %q, %v", got, ok)
		}
	})
}
