package jsonenc_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tutord/tutord/internal/jsonenc"
)

// rawDocs are valid documents and invalid ones, each of which AppendRaw
// and Valid must judge as encoding/json does.
var rawDocs = []string{
	// valid
	`{}`, `[]`, `""`, `0`, `-0`, `1.5e+10`, `-12.25E-3`, `true`, `false`, `null`,
	` { "a" : [ 1 , 2.0 , { } , [ ] , "x" ] , "b" : { "c" : null } } `,
	"\t\r\n[\n\t1,\r\n2\n]\n",
	`{"response":"Hmm, 3 isn't it yet. <b>Halving</b> & doubling","intent":"answer","answer_correct":false,"mastery_updates":[{"concept":"Halving","score":0.3}]}`,
	`"escapes \" \\ \/ \b \f \n \r \t \u00e9 \uD83D\uDE42 \u2028"`,
	"\"raw \u2028 and \u2029, é, 🙂, bad \xff\xfe utf-8, lone \xe2\x80 and \xe2\x80\"",
	`"\u003c already escaped \u0026"`,
	`[[[[[[[[[[]]]]]]]]]]`,
	strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
	// invalid
	``, ` `, `{`, `[`, `"`, `"abc`, `"a\`, `"\x"`, `"\u12"`, `"\u12g4"`, "\"tab\there\"", "\"nul\x00\"",
	`{"a"}`, `{"a":}`, `{"a":1,}`, `{,}`, `{1:2}`, `{"a" 1}`, `[1,]`, `[,1]`, `[1 2]`, `[1}`, `{"a":1]`,
	`01`, `-`, `-a`, `1.`, `1.e3`, `1e`, `1e+`, `.5`, `+1`, `0x10`, `1_000`,
	`tru`, `truex`, `nul`, `nULL`, `False`, `undefined`, `NaN`,
	`{} {}`, `1 2`, `[] x`, `"a" "b"`,
	strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
}

func TestAppendRawWritesWhatJSONMarshalWrites(t *testing.T) {
	for _, doc := range rawDocs {
		checkRaw(t, []byte(doc))
	}
}

func FuzzAppendRaw(f *testing.F) {
	for _, doc := range rawDocs {
		if len(doc) < 1000 {
			f.Add([]byte(doc))
		}
	}
	f.Fuzz(func(t *testing.T, doc []byte) { checkRaw(t, doc) })
}

// checkRaw compares AppendRaw with json.Marshal of the document as a
// json.RawMessage (compact, HTML-escaped), and Valid with json.Valid.
func checkRaw(t *testing.T, doc []byte) {
	t.Helper()
	name := string(doc)
	if len(name) > 60 {
		name = name[:60] + "..."
	}
	if doc == nil { // json.Marshal writes a nil RawMessage as null; AppendRaw takes a document
		doc = []byte{}
	}
	want, wantErr := json.Marshal(json.RawMessage(doc))
	got, err := jsonenc.AppendRaw([]byte("x"), doc)
	switch {
	case (err != nil) != (wantErr != nil):
		t.Errorf("%q: error %v, want %v", name, err, wantErr)
	case err != nil && string(got) != "x":
		t.Errorf("%q: failed, but changed the buffer to %q", name, got)
	case err == nil && !bytes.Equal(got, append([]byte("x"), want...)):
		t.Errorf("%q:\n got x%s\nwant x%s", name, got[1:], want)
	}
	if v := jsonenc.Valid(doc); v != json.Valid(doc) {
		t.Errorf("%q: Valid %t, json.Valid %t", name, v, !v)
	}
}

func BenchmarkAppendRaw(b *testing.B) {
	doc := []byte(`{"response":"Hmm, 3 isn't it yet. Halving means splitting into two equal groups. Have another go.","intent":"answer","answer_correct":false,"misconceptions_detected":[],"mastery_signal":"needs_remediation","advance_to_step":null,"mastery_updates":[{"concept":"Halving","score":0.3}],"question_asked":null,"expected_answer":null,"question_concept":null,"session_complete":false,"turn_summary":"Step 4: half-1 incorrect, attempt 1","reasoning":"Rules engine: Step 4: half-1 incorrect, attempt 1."}`)
	b.SetBytes(int64(len(doc)))
	b.Run("AppendRaw", func(b *testing.B) {
		buf := make([]byte, 0, 1024)
		for b.Loop() {
			buf, _ = jsonenc.AppendRaw(buf[:0], doc)
		}
	})
	b.Run("json.Compact", func(b *testing.B) {
		var buf bytes.Buffer
		for b.Loop() {
			buf.Reset()
			_ = json.Compact(&buf, doc)
		}
	})
	b.Run("Valid", func(b *testing.B) {
		for b.Loop() {
			jsonenc.Valid(doc)
		}
	})
	b.Run("json.Valid", func(b *testing.B) {
		for b.Loop() {
			json.Valid(doc)
		}
	})
}
