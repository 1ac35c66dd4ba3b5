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
// indicator. It holds only printable characters and line feeds; a single
// line does not start with an indicator that YAML reads as syntax there nor
// holds a value indicator or a comment; and if it has several lines, the
// first starts with a visible character and the text does not end with
// spaces.
func plainSafe(s string) bool {
	for _, r := range s {
		if r != '\n' && !unicode.IsPrint(r) {
			return false
		}
	}
	if !strings.Contains(s, "\n") {
		// A line starting with a quote is one the encoder has quoted.
		return strings.HasPrefix(s, `"`) || !plainIndicator(s)
	}
	return s[0] != ' ' && s[0] != '\n' && !strings.HasSuffix(strings.TrimRight(s, "\n"), " ")
}

// plainIndicator reports whether a plain scalar s would be read as YAML
// syntax: "?" (an explicit key, as in a fill-in-the-blank "? × 5 = 3"),
// "-" (a list item) or ":" (a value) at its start, alone or before a space;
// ": " (a value) or " #" (a comment) within it; or ":" at its end. The
// encoder quotes most of these, but not "? ".
func plainIndicator(s string) bool {
	if s != "" && strings.ContainsRune("?:-", rune(s[0])) && (len(s) == 1 || s[1] == ' ') {
		return true
	}
	return strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.HasSuffix(s, ":")
}
