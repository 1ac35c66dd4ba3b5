package yamldoc

import (
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// Decoder fills Go values from a YAML syntax tree by their yaml struct
// tags. It reports every unknown field (suggesting the closest known one)
// and every value of the wrong shape, and records the line of every field it
// meets, so that the checks after it can name lines too.
//
// Text fields take any scalar as written ("0.50" stays "0.50"), so authors
// need not quote answers such as 12 or 0.5. A null value leaves its field
// as it was, except a text field, which it empties. Aliases are refused.
// It supports structs, pointers, slices, maps with text keys, strings,
// ints, uint64s, float64s and bools.
type Decoder struct {
	// Hook, when set, is offered every value before the decoder handles it,
	// and reports whether it did; it is how a caller reads a type of its own
	// (a plain number meaning a range, say).
	Hook func(d *Decoder, path string, n ast.Node, v reflect.Value) bool

	is    *Issues
	lines map[string]int // field path → line
}

// NewDecoder returns a decoder that reports to is.
func NewDecoder(is *Issues) *Decoder {
	return &Decoder{is: is, lines: map[string]int{}}
}

// Decode reads the document body n into v, a pointer to the root value.
// Fields left out of the document keep their values.
func (d *Decoder) Decode(body ast.Node, v any) {
	d.lines[""] = NodeLine(body) // where missing top-level fields are reported
	d.DecodeValue("", body, reflect.ValueOf(v).Elem())
}

// Line returns the line of the field at path, or of the closest field that
// holds it when the field is absent.
func (d *Decoder) Line(path string) int {
	for {
		if l, ok := d.lines[path]; ok {
			return l
		}
		if path == "" {
			return 0
		}
		path = parent(path)
	}
}

// Present reports whether the document wrote the field at path.
func (d *Decoder) Present(path string) bool {
	_, ok := d.lines[path]
	return ok
}

// Errorf reports an issue with the field at path, at its line, unless the
// field or one that holds it has an issue already: a field of the wrong
// shape is not also reported as, say, out of range.
func (d *Decoder) Errorf(path, format string, args ...any) {
	if d.is.Reported(path) {
		return
	}
	d.is.Add(d.Line(path), path, format, args...)
}

// ErrorAt reports an issue with the field at path, at the line of node n.
func (d *Decoder) ErrorAt(n ast.Node, path, format string, args ...any) {
	d.is.Add(NodeLine(n), path, format, args...)
}

// DecodeValue reads node n into v; path names v in issues.
func (d *Decoder) DecodeValue(path string, n ast.Node, v reflect.Value) {
	n = unwrap(n)
	if _, ok := n.(*ast.AliasNode); ok {
		d.ErrorAt(n, path, "aliases are not supported")
		return
	}
	if _, null := n.(*ast.NullNode); null && v.Kind() != reflect.String {
		return // absent
	}
	if d.Hook != nil && d.Hook(d, path, n, v) {
		return
	}
	if (v.Kind() == reflect.Int || v.Kind() == reflect.Uint64) && leadingZero(n) {
		// An author who writes "grade: 010" means ten, which YAML reads
		// as the octal number 8 (and 08, no octal number, as text):
		// refused, rather than stored as a value the author never wrote.
		d.ErrorAt(n, path, "must be an integer without a leading zero, not %s: YAML reads a number with a leading zero as octal", Describe(n))
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		d.DecodeValue(path, n, v.Elem())
	case reflect.Struct:
		d.decodeStruct(path, n, v)
	case reflect.Slice:
		d.decodeSlice(path, n, v)
	case reflect.Map:
		d.decodeMap(path, n, v)
	case reflect.String:
		s, ok := scalarText(n)
		if !ok {
			d.ErrorAt(n, path, "must be text, not %s", Describe(n))
			return
		}
		v.SetString(s)
	case reflect.Int:
		x, ok := integerValue(n)
		if !ok || v.OverflowInt(x) {
			d.ErrorAt(n, path, "must be an integer, not %s", Describe(n))
			return
		}
		v.SetInt(x)
	case reflect.Uint64:
		x, ok := integerValue(n)
		if !ok || x < 0 {
			d.ErrorAt(n, path, "must be a whole number of at least 0, not %s", Describe(n))
			return
		}
		v.SetUint(uint64(x))
	case reflect.Float64:
		x, ok := NumberValue(n)
		if !ok {
			d.ErrorAt(n, path, "must be a number, not %s", Describe(n))
			return
		}
		v.SetFloat(x)
	case reflect.Bool:
		b, ok := n.(*ast.BoolNode)
		if !ok {
			d.ErrorAt(n, path, "must be true or false, not %s", Describe(n))
			return
		}
		v.SetBool(b.Value)
	default:
		d.ErrorAt(n, path, "cannot hold a value of Go type %s", v.Type())
	}
}

// MappingPairs returns the key-value pairs of a mapping node, and false for
// any other node.
func MappingPairs(n ast.Node) ([]*ast.MappingValueNode, bool) {
	switch m := n.(type) {
	case *ast.MappingNode:
		return m.Values, true
	case *ast.MappingValueNode:
		return []*ast.MappingValueNode{m}, true
	}
	return nil, false
}

func (d *Decoder) decodeStruct(path string, n ast.Node, v reflect.Value) {
	pairs, ok := MappingPairs(n)
	if !ok {
		d.ErrorAt(n, path, "must be a mapping, not %s", Describe(n))
		return
	}
	fields := yamlFields(v.Type())
	for _, kv := range pairs {
		name, ok := scalarText(unwrap(kv.Key))
		if !ok || name == "" {
			d.ErrorAt(kv.Key, path, "keys must be plain text, not %s", Describe(kv.Key))
			continue
		}
		fpath := join(path, name)
		i, ok := fields[name]
		if !ok {
			d.ErrorAt(kv.Key, fpath, "unknown field%s", suggest(name, fields))
			continue
		}
		d.lines[fpath] = NodeLine(kv.Key)
		d.DecodeValue(fpath, kv.Value, v.Field(i))
	}
}

// decodeSlice reads a list; an empty list leaves the slice as none would.
func (d *Decoder) decodeSlice(path string, n ast.Node, v reflect.Value) {
	seq, ok := n.(*ast.SequenceNode)
	if !ok {
		d.ErrorAt(n, path, "must be a list, not %s", Describe(n))
		return
	}
	if len(seq.Values) == 0 {
		return
	}
	s := reflect.MakeSlice(v.Type(), len(seq.Values), len(seq.Values))
	for i, item := range seq.Values {
		ipath := fmt.Sprintf("%s[%d]", path, i)
		d.lines[ipath] = NodeLine(item)
		d.DecodeValue(ipath, item, s.Index(i))
	}
	v.Set(s)
}

func (d *Decoder) decodeMap(path string, n ast.Node, v reflect.Value) {
	pairs, ok := MappingPairs(n)
	if !ok {
		d.ErrorAt(n, path, "must be a mapping, not %s", Describe(n))
		return
	}
	if v.Type().Key().Kind() != reflect.String {
		d.ErrorAt(n, path, "cannot hold a value of Go type %s", v.Type())
		return
	}
	m := reflect.MakeMapWithSize(v.Type(), len(pairs))
	for _, kv := range pairs {
		name, ok := scalarText(unwrap(kv.Key))
		if !ok || name == "" {
			d.ErrorAt(kv.Key, path, "keys must be plain text, not %s", Describe(kv.Key))
			continue
		}
		kpath := join(path, name)
		d.lines[kpath] = NodeLine(kv.Key)
		elem := reflect.New(v.Type().Elem()).Elem()
		d.DecodeValue(kpath, kv.Value, elem)
		m.SetMapIndex(reflect.ValueOf(name).Convert(v.Type().Key()), elem)
	}
	v.Set(m)
}

// join appends a field name to a path.
func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// FieldNames returns the yaml names of a struct type's fields, sorted: the
// keys a mapping read into it may hold.
func FieldNames(t reflect.Type) []string {
	var names []string
	for name := range yamlFields(t) {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// yamlFields maps the yaml names of a struct's fields to their indexes.
func yamlFields(t reflect.Type) map[string]int {
	fields := make(map[string]int, t.NumField())
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
		if name != "" && name != "-" {
			fields[name] = i
		}
	}
	return fields
}

// suggest names the known field closest to an unknown one, or lists them all.
func suggest(name string, fields map[string]int) string {
	names := make([]string, 0, len(fields))
	for f := range fields {
		names = append(names, f)
	}
	slices.Sort(names)
	best, dist := "", 3
	for _, f := range names {
		if d := editDistance(name, f); d < dist {
			best, dist = f, d
		}
	}
	if best != "" {
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	return "; known fields: " + strings.Join(names, ", ")
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// unwrap looks through anchors, tags and key wrappers at the value they mark.
func unwrap(n ast.Node) ast.Node {
	for {
		switch x := n.(type) {
		case *ast.AnchorNode:
			n = x.Value
		case *ast.TagNode:
			n = x.Value
		case *ast.MappingKeyNode:
			n = x.Value
		default:
			if isNil(n) {
				return &ast.NullNode{}
			}
			return n
		}
	}
}

// leadingZero reports whether n is a plain (unquoted) number of digits
// with a leading zero: "010", "-08", "00". An octal number written as such
// ("0o10") is not one.
func leadingZero(n ast.Node) bool {
	switch x := n.(type) {
	case *ast.IntegerNode:
	case *ast.StringNode:
		if x.Token == nil || x.Token.Type != token.StringType {
			return false // quoted: text, reported as such
		}
	default:
		return false
	}
	tk := n.GetToken()
	return tk != nil && zeroPadded.MatchString(tk.Value)
}

func integerValue(n ast.Node) (int64, bool) {
	if i, ok := n.(*ast.IntegerNode); ok {
		switch x := i.Value.(type) {
		case int64:
			return x, true
		case uint64:
			return int64(x), x <= math.MaxInt64
		}
	}
	return 0, false
}

// NumberValue returns the finite number a node holds.
func NumberValue(n ast.Node) (float64, bool) {
	switch x := n.(type) {
	case *ast.FloatNode:
		return x.Value, !math.IsNaN(x.Value) && !math.IsInf(x.Value, 0)
	case *ast.StringNode:
		// The parser reads an exponent without a point (1e-05, as YAML
		// writes small numbers) as a plain string; quoted, it is one.
		if x.Token == nil || x.Token.Type != token.StringType || !exponent.MatchString(x.Value) {
			return 0, false
		}
		f, err := strconv.ParseFloat(x.Value, 64)
		return f, err == nil && !math.IsInf(f, 0)
	case *ast.IntegerNode:
		switch v := x.Value.(type) {
		case int64:
			return float64(v), true
		case uint64:
			return float64(v), true
		}
	}
	return 0, false
}

// scalarText returns a scalar as written, and "" for null.
func scalarText(n ast.Node) (string, bool) {
	switch s := n.(type) {
	case *ast.StringNode:
		return s.Value, true
	case *ast.LiteralNode:
		if s.Value == nil {
			return "", true
		}
		return s.Value.Value, true
	case *ast.NullNode:
		return "", true
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.InfinityNode, *ast.NanNode:
		if tk := s.GetToken(); tk != nil {
			return tk.Value, true
		}
	}
	return "", false
}

// Describe names a node for error messages: its kind, or a scalar as
// written (quoted, cut at 40 characters).
func Describe(n ast.Node) string {
	switch n.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	case *ast.SequenceNode:
		return "a list"
	case *ast.NullNode:
		return "nothing"
	}
	if s, ok := scalarText(n); ok {
		if r := []rune(s); len(r) > 40 {
			s = string(r[:40]) + "..."
		}
		return strconv.Quote(s)
	}
	if isNil(n) {
		return "nothing"
	}
	return n.Type().String()
}

// NodeLine returns the 1-based line of a node, or 0 when unknown.
func NodeLine(n ast.Node) int {
	if isNil(n) {
		return 0
	}
	if tk := n.GetToken(); tk != nil && tk.Position != nil {
		return tk.Position.Line
	}
	return 0
}

// isNil reports whether n is nil or a nil pointer, which the parser leaves
// for values it could not read.
func isNil(n ast.Node) bool {
	if n == nil {
		return true
	}
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// zeroPadded is an integer written with a leading zero.
var zeroPadded = regexp.MustCompile(`^[-+]?0[0-9_]+$`)

// exponent is a number in exponent notation, as YAML 1.2 has it.
var exponent = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)[eE][-+]?[0-9]+$`)
