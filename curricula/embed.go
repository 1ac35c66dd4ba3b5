// Package curricula ships tutord's default curriculum. README.md documents
// the file format and schema.json is its JSON Schema; the content lives in
// one directory per country.
package curricula

import (
	"embed"
	"io/fs"
)

//go:embed india
var files embed.FS

// FS returns the shipped curriculum files, for curriculum.LoadFS.
func FS() fs.FS { return files }
