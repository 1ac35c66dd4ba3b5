package curriculum

import (
	"errors"
	"reflect"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// Parse reads and checks one curriculum file. filename names the file in
// error messages. The error, if any, is a *ValidationError listing every
// problem found (up to a cap), each with the file, the line and the field.
//
// Parse checks what one file can tell. Whether the prerequisites exist and
// whether keys clash with other files is checked by [LoadPaths] and [LoadFS].
func Parse(filename string, data []byte) (*File, error) {
	p := parse(filename, data)
	if err := asError(p.issues); err != nil {
		return nil, err
	}
	return p.file, nil
}

// parsed is a file with what the checks of a set of files need to know.
type parsed struct {
	file   *File // nil when the file is not YAML or holds no document
	dec    *decoder
	issues *issues
}

func parse(filename string, data []byte) *parsed {
	is := &issues{file: filename}
	p := &parsed{dec: newDecoder(is), issues: is}
	tree, err := parser.ParseBytes(data, 0)
	if err != nil {
		line, msg := 0, err.Error()
		var yerr yaml.Error
		if errors.As(err, &yerr) {
			msg = yerr.GetMessage()
			if tk := yerr.GetToken(); tk != nil && tk.Position != nil {
				line = tk.Position.Line
			}
		}
		is.add(line, "", "invalid YAML: %s", msg)
		return p
	}
	var docs []*ast.DocumentNode
	for _, d := range tree.Docs {
		if d != nil && d.Body != nil {
			docs = append(docs, d)
		}
	}
	switch len(docs) {
	case 0:
		is.add(0, "", "the file is empty")
		return p
	case 1:
	default:
		is.add(nodeLine(docs[1].Body), "", "a curriculum file holds one YAML document, not %d", len(docs))
		return p
	}
	f := &File{}
	p.dec.lines[""] = nodeLine(docs[0].Body) // where missing top-level fields are reported
	p.dec.decode("", docs[0].Body, reflect.ValueOf(f).Elem())
	f.Name = filename
	check(f, p.dec, is)
	p.file = f
	return p
}
