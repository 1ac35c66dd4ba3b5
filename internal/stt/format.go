package stt

import "bytes"

// Format is an audio container format that the transcription API accepts.
type Format string

// The formats. Their values are the subtypes of their audio/* media types.
const (
	WebM Format = "webm"
	Ogg  Format = "ogg"
	MP4  Format = "mp4"
	MPEG Format = "mpeg"
	WAV  Format = "wav"
	FLAC Format = "flac"
)

// SniffLen is the number of leading bytes Detect looks at; it needs no more.
const SniffLen = 12

// Ext returns the file name extension by which the transcription API
// recognises the format (OpenAI goes by the name): mp3 for MPEG, the
// format's own name for the others, "" for an unknown format.
func (f Format) Ext() string {
	switch f {
	case MPEG:
		return "mp3"
	case WebM, Ogg, MP4, WAV, FLAC:
		return string(f)
	}
	return ""
}

// ContentType returns the format's media type, e.g. audio/webm.
func (f Format) ContentType() string {
	if f.Ext() == "" {
		return "application/octet-stream"
	}
	return "audio/" + string(f)
}

// Detect recognises an audio format from the first bytes of a file (at
// least SniffLen of them, when the file is that long), never from its name
// or declared type:
//
//   - WebM: an EBML header (Matroska, of which WebM is a profile);
//   - Ogg: "OggS";
//   - MP4: an ftyp box whose brand is not an image's (M4A, isom, mp42, ...);
//   - MPEG: MP3 with an ID3v2 tag, or starting with an MPEG Layer III frame;
//   - WAV: RIFF of type WAVE;
//   - FLAC: "fLaC".
//
// It reports false for anything else.
func Detect(head []byte) (Format, bool) {
	switch {
	case bytes.HasPrefix(head, []byte("\x1a\x45\xdf\xa3")):
		return WebM, true
	case bytes.HasPrefix(head, []byte("OggS")):
		return Ogg, true
	case bytes.HasPrefix(head, []byte("fLaC")):
		return FLAC, true
	case len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WAVE":
		return WAV, true
	case len(head) >= 12 && string(head[4:8]) == "ftyp" && !imageBrand(string(head[8:12])):
		return MP4, true
	case isID3(head), isMP3Frame(head):
		return MPEG, true
	}
	return "", false
}

// imageBrand reports whether an ftyp major brand is one of the still-image
// formats built on the same box structure (HEIF, AVIF, JPEG XL, Canon raw).
func imageBrand(brand string) bool {
	switch brand {
	case "heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "avif", "avis", "jxl ", "crx ":
		return true
	}
	return false
}

// isID3 reports whether head starts with an ID3v2 tag header: "ID3", a
// major version 2 to 4, and a size of four 7-bit bytes.
func isID3(head []byte) bool {
	if len(head) < 10 || string(head[:3]) != "ID3" || head[3] < 2 || head[3] > 4 {
		return false
	}
	for _, b := range head[6:10] {
		if b >= 0x80 {
			return false
		}
	}
	return true
}

// isMP3Frame reports whether head starts with the header of an MPEG audio
// Layer III frame: 11 sync bits, then a version, layer, bitrate and sample
// rate that are not reserved. ADTS (AAC) has layer 0 and does not match.
func isMP3Frame(head []byte) bool {
	if len(head) < 4 || head[0] != 0xff || head[1]&0xe0 != 0xe0 {
		return false
	}
	version := head[1] >> 3 & 0x3
	layer := head[1] >> 1 & 0x3
	bitrate := head[2] >> 4
	rate := head[2] >> 2 & 0x3
	return version != 1 && layer == 1 && bitrate != 0 && bitrate != 0xf && rate != 3
}
