package curriculum

import (
	"golang.org/x/text/unicode/norm"

	"github.com/tutord/tutord/internal/yamldoc"
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
	dec    *yamldoc.Decoder
	issues *yamldoc.Issues
}

func parse(filename string, data []byte) *parsed {
	is := &yamldoc.Issues{File: filename, Max: maxIssues}
	p := &parsed{dec: yamldoc.NewDecoder(is), issues: is}
	// Text is read in one Unicode form (NFC: "é" as one character, not "e"
	// and a combining accent, as some editors save it), so that titles,
	// subjects and answers that print alike are alike.
	data = norm.NFC.Bytes(data)
	body, ok := yamldoc.Document(data, "a curriculum file", is)
	if !ok {
		return p
	}
	f := &File{}
	p.dec.Decode(body, f)
	f.Name = filename
	check(f, p.dec)
	p.file = f
	return p
}
