package curriculum

import (
	"strings"
	"unicode"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// Marshal writes a file in the curriculum format: fields in the documented
// order, optional fields left out when empty, multi-line text as literal
// blocks. The output depends only on f, and parsing it gives f back.
func Marshal(f *File) ([]byte, error) {
	node, err := yaml.ValueToNode(f,
		yaml.Indent(2),
		yaml.IndentSequence(true),
		yaml.UseLiteralStyleIfMultiline(true),
	)
	if err != nil {
		return nil, err
	}
	ast.Walk(blockQuoter{}, node)
	return []byte(node.String() + "\n"), nil
}

// blockQuoter double-quotes the strings that the encoder would write plain
// or as literal blocks but that would not read back unchanged that way.
type blockQuoter struct{}

func (q blockQuoter) Visit(n ast.Node) ast.Visitor {
	if s, ok := n.(*ast.StringNode); ok && s.Token.Type != token.DoubleQuoteType && !plainSafe(s.Value) {
		s.Token.Type = token.DoubleQuoteType
	}
	return q
}

// plainSafe reports whether s reads back unchanged as the encoder writes it
// unquoted: a multi-line string as a literal block without an indentation
// indicator. It holds only printable characters and line feeds, and if it
// has several lines, the first starts with a visible character and the
// text does not end with spaces.
func plainSafe(s string) bool {
	for _, r := range s {
		if r != '\n' && !unicode.IsPrint(r) {
			return false
		}
	}
	if !strings.Contains(s, "\n") {
		return true
	}
	return s[0] != ' ' && s[0] != '\n' && !strings.HasSuffix(strings.TrimRight(s, "\n"), " ")
}
