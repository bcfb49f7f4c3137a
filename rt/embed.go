package rt

import "embed"

// Sources holds this package's source files, which gocolic copies into the
// build overlay of the user's module. This file itself is left out there.
//
//go:embed *.go
var Sources embed.FS

// ImportPath is this package's import path in gocolic's own module; the
// overlay rewrites imports of sym relative to it.
const ImportPath = "github.com/gocolic/gocolic/rt"
