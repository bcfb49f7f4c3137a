package rt

import (
	"bytes"
	"embed"
	"fmt"
)

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
// gets from GAssembly instead.
var OwnBuildOnly = map[string]bool{"g_asm.go": true, "g_amd64.s": true, "g_arm64.s": true}

// GArchs are the architectures GAssembly has assembly for; elsewhere the
// runtime tells goroutines apart without it.
var GArchs = []string{"amd64", "arm64"}

// GAssembly returns the assembly of a function named name, of type
// func() uintptr, that returns the calling goroutine's runtime descriptor
// as UseG wants it, for the package it is added to: one file per
// architecture of GArchs, by file name suffix ("_amd64.s").
func GAssembly(name string) (map[string][]byte, error) {
	out := make(map[string][]byte, len(GArchs))
	for _, arch := range GArchs {
		src, err := Sources.ReadFile("g_" + arch + ".s")
		if err != nil {
			return nil, fmt.Errorf("reading the runtime's assembly: %w", err)
		}
		const sym = "·asmG(SB)"
		if bytes.Count(src, []byte(sym)) != 1 {
			return nil, fmt.Errorf("g_%s.s does not define asmG once", arch)
		}
		src = bytes.ReplaceAll(src, []byte(sym), []byte("·"+name+"(SB)"))
		src = bytes.ReplaceAll(src, []byte("func asmG()"), []byte("func "+name+"()"))
		out["_"+arch+".s"] = src
	}
	return out, nil
}
