package httpapi

import (
	"bytes"
	"encoding"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// unmarshalExact is json.Unmarshal with field names matched exactly, as
// the reference (pydantic) matches them: encoding/json would fill
// "message" from "Message" or "MESSAGE" too. A key that names no field
// exactly is unknown, and ignored as encoding/json ignores unknown keys.
func unmarshalExact(data []byte, v any) error {
	return json.Unmarshal(exactKeys(data, reflect.TypeOf(v)), v)
}

// exactKeys returns data, a JSON value to be decoded into a value of type
// t, with each key of an object decoded into a struct that is not exactly
// the JSON name of one of its fields renamed to "", a key no field has and
// encoding/json then ignores; objects nested in struct fields, slices and
// map values are done too. Everything else is left as it was, byte for
// byte (key order included, and so which error encoding/json reports
// first). Data that is not valid JSON is returned as it is, for
// encoding/json to refuse.
func exactKeys(data []byte, t reflect.Type) []byte {
	if !json.Valid(data) {
		return data
	}
	w := keyWalker{data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	w.dec.UseNumber()
	if w.value(t) != nil || len(w.spans) == 0 {
		return data
	}
	out := make([]byte, 0, len(data))
	last := 0
	for _, s := range w.spans {
		out = append(out, data[last:s[0]]...)
		out = append(out, `""`...)
		last = s[1]
	}
	return append(out, data[last:]...)
}

// keyWalker reads a JSON value token by token, noting the byte spans of
// the keys that exactKeys renames.
type keyWalker struct {
	data  []byte
	dec   *json.Decoder
	spans [][2]int
}

// value reads one value that is decoded into type t (nil: a type whose
// keys are not field names, or no type at all).
func (w *keyWalker) value(t reflect.Type) error {
	t = structuredType(t)
	tok, err := w.dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		var fields map[string]reflect.Type
		if t != nil && t.Kind() == reflect.Struct {
			fields = jsonFields(t)
		}
		for w.dec.More() {
			start := int(w.dec.InputOffset())
			key, err := w.dec.Token()
			if err != nil {
				return err
			}
			end := int(w.dec.InputOffset())
			var et reflect.Type
			switch {
			case fields != nil:
				ft, ok := fields[key.(string)]
				if !ok {
					// Only a comma and spaces come before the key's quote.
					start += bytes.IndexByte(w.data[start:end], '"')
					w.spans = append(w.spans, [2]int{start, end})
				}
				et = ft
			case t != nil && t.Kind() == reflect.Map:
				et = t.Elem()
			}
			if err := w.value(et); err != nil {
				return err
			}
		}
		_, err = w.dec.Token() // }
		return err
	case json.Delim('['):
		var et reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			et = t.Elem()
		}
		for w.dec.More() {
			if err := w.value(et); err != nil {
				return err
			}
		}
		_, err = w.dec.Token() // ]
		return err
	}
	return nil // a scalar
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// structuredType returns t without its pointers when encoding/json
// decodes it field by field (a struct) or element by element (a slice, an
// array, a map), and nil otherwise: an interface, a type that decodes
// itself (json.RawMessage, time.Time, uuid.UUID), a scalar.
func structuredType(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil {
		return nil
	}
	if t.Implements(jsonUnmarshaler) || reflect.PointerTo(t).Implements(jsonUnmarshaler) ||
		t.Implements(textUnmarshaler) || reflect.PointerTo(t).Implements(textUnmarshaler) {
		return nil
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Slice, reflect.Array, reflect.Map:
		return t
	}
	return nil
}

var jsonFieldCache sync.Map // reflect.Type → map[string]reflect.Type

// jsonFields returns the fields encoding/json decodes a struct type's
// object into, by their JSON names: the tag's name, else the Go name;
// fields of an untagged embedded struct are promoted, "-" is left out.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	if m, ok := jsonFieldCache.Load(t); ok {
		return m.(map[string]reflect.Type)
	}
	m := map[string]reflect.Type{}
	// VisibleFields lists shallower fields first: they win over promoted
	// ones of the same name, as in encoding/json.
	var named [][]int // embedded fields decoded as one field: not promoted
	for _, f := range reflect.VisibleFields(t) {
		if slices.ContainsFunc(named, func(p []int) bool { return len(f.Index) > len(p) && slices.Equal(f.Index[:len(p)], p) }) {
			continue
		}
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		switch {
		case tag == "-":
			named = append(named, f.Index)
			continue
		case f.Anonymous && name == "" && ft.Kind() == reflect.Struct:
			continue // its fields are promoted
		case f.Anonymous:
			named = append(named, f.Index)
			if !f.IsExported() {
				continue
			}
		case !f.IsExported():
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, taken := m[name]; !taken {
			m[name] = f.Type
		}
	}
	jsonFieldCache.Store(t, m)
	return m
}
