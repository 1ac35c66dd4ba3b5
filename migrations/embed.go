// Package migrations holds tutord's SQL schema migrations, embedded in the
// binary. Files are named NNNN_name.up.sql / NNNN_name.down.sql as
// golang-migrate expects; every up has a working down.
package migrations

import "embed"

// FS holds the migration files.
//
//go:embed *.sql
var FS embed.FS
