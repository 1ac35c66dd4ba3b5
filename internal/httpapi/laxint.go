package httpapi

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
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

// laxIntString returns a string that laxInt reads as an integer ("7",
// " 7 ", "7.0") as that integer, and false for any other string ("seven",
// "7.5").
func laxIntString(s string) (json.Number, bool) {
	raw, err := json.Marshal(s)
	if err != nil {
		return "", false
	}
	n, ok := laxInt(raw)
	return json.Number(n), ok
}

// laxSchemaInts replaces, in a JSON value decoded with UseNumber, each
// string where its schema wants an integer (and neither a number nor a
// string) by the integer laxIntString reads in it, as pydantic's lax mode
// fills an int field from "7". Other strings are left for the validator to
// refuse (int_parsing).
func laxSchemaInts(v any, ref *openapi3.SchemaRef) any {
	if ref == nil || ref.Value == nil {
		return v
	}
	s := ref.Value
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if p, ok := s.Properties[k]; ok {
				v[k] = laxSchemaInts(e, p)
			} else if s.AdditionalProperties.Schema != nil {
				v[k] = laxSchemaInts(e, s.AdditionalProperties.Schema)
			}
		}
	case []any:
		for i, e := range v {
			v[i] = laxSchemaInts(e, s.Items)
		}
	case string:
		if t := s.Type; t != nil && t.Includes(openapi3.TypeInteger) && !t.Includes(openapi3.TypeNumber) && !t.Includes(openapi3.TypeString) {
			if n, ok := laxIntString(v); ok {
				return n
			}
		}
	}
	return v
}

// laxGoInts returns a JSON value decoded with UseNumber with each number
// that has no fraction written as an integer (7.0 as 7), and each string
// that laxIntString reads as an integer where t, the Go type it is to be
// decoded into, has an integer ("7" as 7); changed reports whether it
// changed anything. A nil t (an interface, or a key t has no field for)
// has numbers changed, strings not.
func laxGoInts(v any, t reflect.Type) (out any, changed bool) {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			var et reflect.Type
			switch {
			case t == nil:
			case t.Kind() == reflect.Struct:
				et = jsonFieldType(t, k)
			case t.Kind() == reflect.Map:
				et = t.Elem()
			}
			if n, ok := laxGoInts(e, et); ok {
				v[k], changed = n, true
			}
		}
	case []any:
		var et reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			et = t.Elem()
		}
		for i, e := range v {
			if n, ok := laxGoInts(e, et); ok {
				v[i], changed = n, true
			}
		}
	case json.Number:
		if n, ok := laxInt(json.RawMessage(v)); ok && string(n) != string(v) {
			return json.Number(n), true
		}
	case string:
		if t != nil && isIntKind(t.Kind()) {
			if n, ok := laxIntString(v); ok {
				return n, true
			}
		}
	}
	return v, changed
}

// jsonFieldType returns the type of the field of struct type t whose JSON
// name is key exactly (see jsonFields), or nil.
func jsonFieldType(t reflect.Type, key string) reflect.Type {
	return jsonFields(t)[key]
}

func isIntKind(k reflect.Kind) bool {
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	}
	return false
}
