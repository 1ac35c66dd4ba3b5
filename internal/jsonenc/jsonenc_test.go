package jsonenc_test

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/tutord/tutord/internal/jsonenc"
)

func TestAppendStringWritesWhatEncodingJSONWrites(t *testing.T) {
	for _, s := range []string{"", "plain", "a\"b\\c", "\x00\x01\x1f\x7f\b\f\n\r\t", "<b>&amp;</b>", "é 🙂 \u2028\u2029",
		"bad \xff\xfe utf-8 \xe2\x82", "\xed\xa0\x80 surrogate"} {
		checkString(t, s)
	}
}

func TestAppendFloatWritesWhatEncodingJSONWrites(t *testing.T) {
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -3.25, 0.1, 1e-6, 9.99e-7, 1e-7, 1e20, 1e21, 2.5e21, -1e-300, math.MaxFloat64, math.SmallestNonzeroFloat64} {
		checkFloat(t, f)
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if b, ok := jsonenc.AppendFloat([]byte("x"), f); ok || string(b) != "x" {
			t.Errorf("%v: %q, %v; want the buffer unchanged and false", f, b, ok)
		}
	}
}

func FuzzAppend(f *testing.F) {
	f.Add("<&>\u2028", 1e-9)
	f.Add("\xff\"", 123456.789)
	f.Fuzz(func(t *testing.T, s string, x float64) {
		checkString(t, s)
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			checkFloat(t, x)
		}
	})
}

func checkString(t *testing.T, s string) {
	t.Helper()
	want, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := jsonenc.AppendString([]byte("x"), s); !bytes.Equal(got, append([]byte("x"), want...)) {
		t.Errorf("%q: got %s; want x%s", s, got, want)
	}
}

func checkFloat(t *testing.T, f float64) {
	t.Helper()
	want, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := jsonenc.AppendFloat(nil, f); !ok || !bytes.Equal(got, want) {
		t.Errorf("%v: got %s, %v; want %s", f, got, ok, want)
	}
}
