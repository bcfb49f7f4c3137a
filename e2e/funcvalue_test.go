package e2e

import "testing"

// funcValueTargets panic behind an equality on 32 bits or more of input
// that is computed by a package-level function reached through a
// function value: a parameter, a struct field, a package variable, a
// slice element, a value of a named function type, a map element with a
// variadic signature, and one with two results. Z3 reaches each panic only if the call goes to the function's
// twin, which the runtime finds from the value (rt.Dyn).
const funcValueTargets = `package fv

func scramble(x uint32) uint32 { return (x ^ 0x5a5a5a5a) * 0x9e3779b1 }

func apply(f func(uint32) uint32, x uint32) uint32 { return f(x) }

func Param(x uint32) {
	if apply(scramble, x) == 0x1234abcd {
		panic("found")
	}
}

func opens(s string) bool {
	if s == "open sesame" {
		panic("found")
	}
	return false
}

type door struct{ check func(string) bool }

func Field(s string) {
	d := &door{check: opens}
	d.check(s)
}

var hash = scramble

func PkgVar(x uint32) {
	if hash(x) == 0x2345bcde {
		panic("found")
	}
}

func neg(x int32) int32 { return -x * 3 }
func dbl(x int32) int32 { return x*2 + 1 }

var ops = []func(int32) int32{neg, dbl}

func Slice(x int32, i uint8) {
	if ops[i&1](x) == -0x3a3a3a3 {
		panic("found")
	}
}

type Op func(uint64) uint64

func rot(x uint64) uint64 { return x<<13 | x>>51 }

func Named(x uint64) {
	var o Op = rot
	if o(x) == 0x123456789abcdef0 {
		panic("found")
	}
}

func sum(base uint32, xs ...uint32) uint32 {
	for _, x := range xs {
		base = base*31 + x
	}
	return base
}

var folds = map[string]func(uint32, ...uint32) uint32{"sum": sum}

func Variadic(x uint32) {
	if folds["sum"](x, 1, 2) == 0x12345678 {
		panic("found")
	}
}

func split(x uint32) (uint32, uint32) { return x >> 16, x & 0xffff }

func TwoResults(x uint32) {
	f := split
	f = split // assigned twice: not bound to the twin statically
	hi, lo := f(x)
	if hi == 0x1234 && lo == 0xabcd {
		panic("found")
	}
}
`

// TestFuncValues checks that a call through a function value holding a
// package-level function keeps its arguments' and results' terms.
func TestFuncValues(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{"fv/fv.go": funcValueTargets})
	expectPanics(t, dir, "./fv", []string{"Param", "Field", "PkgVar", "Slice", "Named", "Variadic", "TwoResults"})
}
