//go:build amd64 || arm64

// This file and the assembly it declares are gocolic's own build of the
// runtime (its tests, its benchmarks); they are not copied into worker
// builds, whose entries install the same function from the target's
// package (see goroutine.go).

package rt

// asmG returns the address of the calling goroutine's runtime descriptor
// (g_amd64.s, g_arm64.s).
func asmG() uintptr

func init() { UseG(asmG) }
