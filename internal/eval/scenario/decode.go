package scenario

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
)

// decoder fills Go values from a YAML syntax tree by their yaml tags. It
// reports every unknown field and every value of the wrong shape instead
// of stopping at the first, and records the line of every field it meets
// so that the checks after it can name lines too. (The parser has already
// rejected duplicate keys.)
type decoder struct {
	lines map[string]int // field path → line
	is    *issues
}

func newDecoder(is *issues) *decoder { return &decoder{lines: map[string]int{}, is: is} }

// line returns the line of the field at path, or of the closest field that
// holds it.
func (d *decoder) line(path string) int {
	for {
		if l, ok := d.lines[path]; ok {
			return l
		}
		if path == "" {
			return 0
		}
		path = path[:max(strings.LastIndexAny(path, ".["), 0)]
	}
}

func (d *decoder) errorf(n ast.Node, path, format string, args ...any) {
	d.is.add(nodeLine(n), path, format, args...)
}

var rangeType = reflect.TypeFor[Range]()

func (d *decoder) decode(path string, n ast.Node, v reflect.Value) {
	n = unwrap(n)
	if _, ok := n.(*ast.AliasNode); ok {
		d.errorf(n, path, "aliases are not supported")
		return
	}
	_, null := n.(*ast.NullNode)
	if null && v.Kind() != reflect.String {
		return // absent
	}
	if v.Type() == rangeType {
		d.decodeRange(path, n, v)
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		d.decode(path, n, v.Elem())
	case reflect.Struct:
		d.decodeStruct(path, n, v)
	case reflect.Slice:
		d.decodeSlice(path, n, v)
	case reflect.Map:
		d.decodeMap(path, n, v)
	case reflect.String:
		s, ok := scalarText(n)
		if !ok {
			d.errorf(n, path, "must be text, not %s", describe(n))
			return
		}
		v.SetString(s)
	case reflect.Int:
		x, ok := integerValue(n)
		if !ok || v.OverflowInt(x) {
			d.errorf(n, path, "must be an integer, not %s", describe(n))
			return
		}
		v.SetInt(x)
	case reflect.Uint64:
		x, ok := integerValue(n)
		if !ok || x < 0 {
			d.errorf(n, path, "must be a whole number of at least 0, not %s", describe(n))
			return
		}
		v.SetUint(uint64(x))
	case reflect.Float64:
		x, ok := numberValue(n)
		if !ok {
			d.errorf(n, path, "must be a number, not %s", describe(n))
			return
		}
		v.SetFloat(x)
	case reflect.Bool:
		b, ok := n.(*ast.BoolNode)
		if !ok {
			d.errorf(n, path, "must be true or false, not %s", describe(n))
			return
		}
		v.SetBool(b.Value)
	default:
		d.errorf(n, path, "cannot hold a value of Go type %s", v.Type())
	}
}

// decodeRange reads a Range: a plain number means equals.
func (d *decoder) decodeRange(path string, n ast.Node, v reflect.Value) {
	if x, ok := numberValue(n); ok {
		v.Set(reflect.ValueOf(Exactly(x)))
		return
	}
	if _, ok := mappingPairs(n); !ok {
		d.errorf(n, path, "must be a number or a mapping of equals, at_least, at_most, above, below; not %s", describe(n))
		return
	}
	d.decodeStruct(path, n, v)
}

func mappingPairs(n ast.Node) ([]*ast.MappingValueNode, bool) {
	switch m := n.(type) {
	case *ast.MappingNode:
		return m.Values, true
	case *ast.MappingValueNode:
		return []*ast.MappingValueNode{m}, true
	}
	return nil, false
}

func (d *decoder) decodeStruct(path string, n ast.Node, v reflect.Value) {
	pairs, ok := mappingPairs(n)
	if !ok {
		d.errorf(n, path, "must be a mapping, not %s", describe(n))
		return
	}
	fields := yamlFields(v.Type())
	for _, kv := range pairs {
		name, ok := scalarText(unwrap(kv.Key))
		if !ok {
			d.errorf(kv.Key, path, "keys must be plain text, not %s", describe(kv.Key))
			continue
		}
		fpath := join(path, name)
		i, ok := fields[name]
		if !ok {
			d.errorf(kv.Key, fpath, "unknown field%s", suggest(name, fields))
			continue
		}
		d.lines[fpath] = nodeLine(kv.Key)
		d.decode(fpath, kv.Value, v.Field(i))
	}
}

func (d *decoder) decodeSlice(path string, n ast.Node, v reflect.Value) {
	seq, ok := n.(*ast.SequenceNode)
	if !ok {
		d.errorf(n, path, "must be a list, not %s", describe(n))
		return
	}
	s := reflect.MakeSlice(v.Type(), len(seq.Values), len(seq.Values))
	for i, item := range seq.Values {
		ipath := fmt.Sprintf("%s[%d]", path, i)
		d.lines[ipath] = nodeLine(item)
		d.decode(ipath, item, s.Index(i))
	}
	v.Set(s)
}

func (d *decoder) decodeMap(path string, n ast.Node, v reflect.Value) {
	pairs, ok := mappingPairs(n)
	if !ok {
		d.errorf(n, path, "must be a mapping, not %s", describe(n))
		return
	}
	m := reflect.MakeMapWithSize(v.Type(), len(pairs))
	for _, kv := range pairs {
		name, ok := scalarText(unwrap(kv.Key))
		if !ok || name == "" {
			d.errorf(kv.Key, path, "keys must be plain text, not %s", describe(kv.Key))
			continue
		}
		kpath := join(path, name)
		d.lines[kpath] = nodeLine(kv.Key)
		elem := reflect.New(v.Type().Elem()).Elem()
		d.decode(kpath, kv.Value, elem)
		m.SetMapIndex(reflect.ValueOf(name), elem)
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

// suggest names the known field closest to an unknown one, or lists them.
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

// unwrap looks through anchors, tags and key wrappers at the value.
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

func numberValue(n ast.Node) (float64, bool) {
	switch x := n.(type) {
	case *ast.FloatNode:
		return x.Value, !math.IsNaN(x.Value) && !math.IsInf(x.Value, 0)
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

// describe names a node's kind for error messages.
func describe(n ast.Node) string {
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

func nodeLine(n ast.Node) int {
	if isNil(n) {
		return 0
	}
	if tk := n.GetToken(); tk != nil && tk.Position != nil {
		return tk.Position.Line
	}
	return 0
}

// isNil reports whether n is nil or a nil pointer, which the YAML parser
// leaves for values it could not read.
func isNil(n ast.Node) bool {
	if n == nil {
		return true
	}
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Pointer && v.IsNil()
}
