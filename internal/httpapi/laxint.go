package httpapi

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// laxInt returns a JSON integer, null, a number with no fraction or a
// string holding one (" 7 ", "7.0") as a JSON integer or null, and false
// for anything else, as pydantic's lax mode reads an int.
func laxInt(v json.RawMessage) (json.RawMessage, bool) {
	var x any
	d := json.NewDecoder(bytes.NewReader(v))
	d.UseNumber()
	if d.Decode(&x) != nil {
		return nil, false
	}
	var text string
	switch x := x.(type) {
	case nil:
		return v, true
	case json.Number:
		text = x.String()
	case string:
		// "7.0" too, not "7.5" nor "7e0".
		text = strings.TrimSpace(x)
		if whole, zeros, ok := strings.Cut(text, "."); ok && zeros != "" && strings.Trim(zeros, "0") == "" {
			text = whole
		}
	default:
		return nil, false
	}
	if n, err := strconv.ParseInt(text, 10, 32); err == nil {
		return strconv.AppendInt(nil, n, 10), true
	}
	if _, isString := x.(string); isString {
		return nil, false
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > math.MaxInt32 {
		return nil, false
	}
	return strconv.AppendInt(nil, int64(f), 10), true
}
