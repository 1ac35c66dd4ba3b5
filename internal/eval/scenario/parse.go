package scenario

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// Parse reads and checks one scenario file; filename names it in errors
// and gives the scenario its default name. The error, if any, is an *Error
// listing every problem found, each with the file, the line and the field.
func Parse(filename string, data []byte) (sc *Scenario, err error) {
	is := &issues{file: filename}
	defer func() {
		// The YAML parser is third-party code: a panic on some input must
		// not take the suite down with it.
		if r := recover(); r != nil {
			sc, err = nil, &Error{Issues: []Issue{{File: filename, Message: fmt.Sprintf("cannot read the file: %v", r)}}}
		}
	}()
	body, ok := document(filename, data, is)
	if !ok {
		return nil, is.err()
	}
	sc = &Scenario{File: filename}
	d := newDecoder(is)
	d.lines[""] = nodeLine(body)
	d.decode("", body, reflect.ValueOf(sc).Elem())
	if strings.TrimSpace(sc.Name) == "" {
		base := filepath.Base(filename)
		sc.Name = strings.TrimSuffix(base, filepath.Ext(base))
	}
	if sc.Mode == "" {
		sc.Mode = TeachMe
	}
	c := &checker{d: d, is: is, sc: sc}
	c.scenario()
	if err := is.err(); err != nil {
		return nil, err
	}
	return sc, nil
}

// document returns the body of the file's one YAML document.
func document(filename string, data []byte, is *issues) (ast.Node, bool) {
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
		return nil, false
	}
	var docs []*ast.DocumentNode
	for _, d := range tree.Docs {
		if d != nil && !isNil(d.Body) {
			docs = append(docs, d)
		}
	}
	switch len(docs) {
	case 0:
		is.add(0, "", "the file is empty")
		return nil, false
	case 1:
		return docs[0].Body, true
	}
	is.add(nodeLine(docs[1].Body), "", "a scenario file holds one YAML document, not %d", len(docs))
	return nil, false
}
