package rt

import "embed"

// Sources holds this package's source files, which gocolic copies into the
// build overlay of the user's module. This file itself is left out there,
// and so are the files of OwnBuildOnly.
//
//go:embed *.go *.s
var Sources embed.FS

// ImportPath is this package's import path in gocolic's own module; the
// overlay rewrites imports of sym relative to it.
const ImportPath = "github.com/gocolic/gocolic/rt"

// OwnBuildOnly names the files of Sources that only gocolic's own build of
// this package uses: the assembly that reads a goroutine's identity, which
// a worker build cannot assemble in the overlay (see goroutine.go) and
// gets from instrument (entry.go) instead.
var OwnBuildOnly = map[string]bool{"g_asm.go": true, "g_amd64.s": true, "g_arm64.s": true}

// GArchs are the architectures the runtime has goroutine assembly for; elsewhere the
// runtime tells goroutines apart without it.
var GArchs = []string{"amd64", "arm64"}
