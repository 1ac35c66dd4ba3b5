package scenario

import (
	"path/filepath"
	"reflect"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/tutord/tutord/internal/yamldoc"
)

// Parse reads and checks one scenario file; filename names it in errors
// and gives the scenario its default name. The error, if any, is an *Error
// listing every problem found, each with the file, the line and the field.
func Parse(filename string, data []byte) (*Scenario, error) {
	is := &yamldoc.Issues{File: filename, Max: maxIssues}
	body, ok := yamldoc.Document(data, "a scenario file", is)
	if !ok {
		return nil, asError(is)
	}
	sc := &Scenario{File: filename}
	d := yamldoc.NewDecoder(is)
	d.Hook = decodeRange
	d.Decode(body, sc)
	if strings.TrimSpace(sc.Name) == "" {
		base := filepath.Base(filename)
		sc.Name = strings.TrimSuffix(base, filepath.Ext(base))
	}
	if sc.Mode == "" {
		sc.Mode = TeachMe
	}
	c := &checker{d: d, sc: sc}
	c.scenario()
	if err := asError(is); err != nil {
		return nil, err
	}
	return sc, nil
}

var rangeType = reflect.TypeFor[Range]()

// decodeRange reads a Range: a plain number means equals.
func decodeRange(d *yamldoc.Decoder, path string, n ast.Node, v reflect.Value) bool {
	if v.Type() != rangeType {
		return false
	}
	if x, ok := yamldoc.NumberValue(n); ok {
		v.Set(reflect.ValueOf(Exactly(x)))
		return true
	}
	if _, ok := yamldoc.MappingPairs(n); !ok {
		d.ErrorAt(n, path, "must be a number or a mapping of equals, at_least, at_most, above, below; not %s", yamldoc.Describe(n))
		return true
	}
	return false // a mapping: read as the struct it is
}
