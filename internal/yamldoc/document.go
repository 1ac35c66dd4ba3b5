package yamldoc

import (
	"bytes"
	"errors"
	"unicode/utf8"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// Document parses data as a file of one YAML document and returns the
// document's body. When the data is not YAML, holds no document or more
// than one, it records the problem in is and returns false; kind names the
// file in that message ("a scenario file").
func Document(data []byte, kind string, is *Issues) (body ast.Node, ok bool) {
	defer func() {
		// The parser is third-party code: a panic on some input must not
		// take the caller down with it.
		if r := recover(); r != nil {
			is.Add(0, "", "cannot read the file: %v", r)
			body, ok = nil, false
		}
	}()
	// YAML allows a byte order mark at the start, as editors may save one.
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	// CR LF is one line break, as LF is; the parser folds a quoted text's
	// line breaks only when they are LF (a file saved on Windows would read
	// otherwise, and hash otherwise, than the same file on Linux). A CR the
	// author means is written as the escape \r.
	data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	// The parser reads each byte that is not UTF-8 (é saved as Latin-1 or
	// Windows-1252) as U+FFFD: the text would be silently garbled.
	if !utf8.Valid(data) {
		line, b := invalidUTF8(data)
		is.Add(line, "", "the file is not UTF-8: byte 0x%02X on this line is not a UTF-8 character; save the file as UTF-8", b)
		return nil, false
	}
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
		is.Add(line, "", "invalid YAML: %s", msg)
		return nil, false
	}
	var docs []*ast.DocumentNode
	for _, d := range tree.Docs {
		if d == nil || isNil(d.Body) {
			continue
		}
		// The parser makes a %YAML or %TAG directive a document of its
		// own, though it belongs to the document after it.
		if _, directive := d.Body.(*ast.DirectiveNode); !directive {
			docs = append(docs, d)
		}
	}
	switch len(docs) {
	case 0:
		is.Add(0, "", "the file is empty")
		return nil, false
	case 1:
		return docs[0].Body, true
	}
	is.Add(NodeLine(docs[1].Body), "", "%s holds one YAML document, not %d", kind, len(docs))
	return nil, false
}

// invalidUTF8 returns the 1-based line and the value of the first byte of
// data that does not start a UTF-8 character.
func invalidUTF8(data []byte) (line int, b byte) {
	line = 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 {
			return line, data[i]
		}
		if r == '\n' {
			line++
		}
		i += size
	}
	return 0, 0
}
