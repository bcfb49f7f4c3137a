package sym

import "embed"

// Sources holds this package's source files, which gocolic copies into the
// build overlay of the user's module next to the runtime. This file itself
// is left out there.
//
//go:embed *.go
var Sources embed.FS
