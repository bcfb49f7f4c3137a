package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// walkTargets panic behind branches on functions gocolic does not
// instrument (the seed 000 cases) or on non-linear arithmetic.
const walkTargets = `package w

import (
	"fmt"
	"math"
	"strconv"

	"example.com/m/w/lib"
)

// The seed's Figure 1, example 1.
func Blind(x, y int) {
	z := x * x
	if x > 2 {
		if z == y+3 {
			panic("found")
		}
	}
}

// The seed's Figure 1, example 2: a float's bits.
func FloatBits(u float64) {
	v := math.Float64bits(u)
	w := v & 0x7ff0000000000000
	if w == 0x4090000000000000 {
		panic("found")
	}
}

func SinCos(x, y float64) {
	if math.Sin(x) > 0.99999 && math.Cos(y) < -0.9999 {
		panic("found")
	}
}

func Exp(x float64) {
	if math.Abs(math.Exp(x)-7.5) < 1e-9 {
		panic("found")
	}
}

func Sqrt(x float64) {
	if math.Sqrt(x) == 3.5 {
		panic("found")
	}
}

func Pow(x float64) {
	if x < 10.5 && math.Pow(x, 3) > 1000 {
		panic("found")
	}
}

// Hash's checksum, a CRC-32, is a function of another package (not
// instrumented, so an opaque call) over a byte slice; hash/crc32's, which
// gocolic models, would be solved by Z3 alone.
func Hash(b []byte) {
	if len(b) == 4 && lib.Hash(b)&0xff == 0x42 {
		panic("found")
	}
}

// Quote is a pure function of another package the walk can run too (fmt,
// which gocolic's runtime is built on, is never instrumented; strconv is,
// as a copy, since its calls are no longer opaque).
func Quote(n int) {
	if len(fmt.Sprintf("%q", fmt.Sprint(n))) > 1 && strconv.IntSize == 64 && half(n) == 12345 {
		panic("found")
	}
}

func half(n int) int { return int(math.Floor(float64(n) / 2)) }

// Panicky calls a function that panics for some inputs: the evaluator
// must survive it, and the walk must avoid those points.
func Panicky(x int) {
	if x != 0 && inv(x) == 0 && math.Sqrt(float64(x)) > 100 {
		panic("found")
	}
}

func inv(x int) int { return 1000000 / x }

// Hang calls a function of another package that never returns for
// negative inputs: evaluations there kill the evaluator, which is started
// again, and the walk goes on.
func Hang(x int) {
	if lib.Spin(x) == 1000 {
		panic("found")
	}
}
`

const walkLib = `package lib

// Hash is the IEEE CRC-32 of b, bit by bit.
func Hash(b []byte) uint32 {
	c := ^uint32(0)
	for _, x := range b {
		c ^= uint32(x)
		for i := 0; i < 8; i++ {
			c = c>>1 ^ 0xedb88320&-(c&1)
		}
	}
	return ^c
}

// Spin returns 2x, after spinning forever when x is negative.
func Spin(x int) int {
	for x < 0 {
	}
	return 2 * x
}
`

// TestWalk checks that the concolic walk reaches what Z3 alone cannot:
// with -solver auto (and walk) each panic is found, with -solver z3 the
// ones behind opaque calls are not, because their results are concrete.
func TestWalk(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{"w/w.go": walkTargets, "w/lib/lib.go": walkLib})
	tests := []struct {
		fn   string
		z3   bool // -solver z3 finds it too
		walk bool // -solver walk is run as well
	}{
		{"Blind", true, true},
		{"FloatBits", true, true},
		{"SinCos", false, true},
		{"Exp", false, false},
		{"Sqrt", false, false},
		{"Pow", false, false},
		{"Hash", false, true},
		{"Quote", false, false},
		{"Panicky", false, false},
		{"Hang", false, false},
	}
	for _, tt := range tests {
		modes := []string{"auto", "z3"}
		if tt.walk {
			modes = append(modes, "walk")
		}
		for _, mode := range modes {
			t.Run(tt.fn+"/"+mode, func(t *testing.T) {
				js := filepath.Join(t.TempDir(), "r.json")
				res := run(t, dir, 2*time.Minute, gocolic, "test", "-budget", "30s", "-workers", "1", "-seed", "1", "-lanes", "concolic",
					"-maxbugs", "1", "-notests", "-minimizetime", "0", "-timeout", "300ms", "-solver-timeout", "10s", "-solver", mode, "-json", js, "./w", tt.fn)
				if res.code != 0 {
					t.Fatalf("gocolic exited %d:\n%s", res.code, res.stderr)
				}
				rep := readReport(t, js)
				found := len(rep.Bugs) > 0 && rep.Bugs[0].Message == "found"
				want := mode != "z3" || tt.z3
				if found != want {
					t.Errorf("found %v, want %v (bugs %+v)\n%s", found, want, rep.Bugs, res.stderr)
				}
				layers := solverLayers(t, js)
				if _, ok := layers["walk"]; ok != (mode != "z3") {
					t.Errorf("walk layer in the report: %v, want %v (%v)", ok, mode != "z3", layers)
				}
				if mode == "auto" && !tt.z3 && layers["walk"]["sat"] == 0 {
					t.Errorf("the walk solved nothing: %v", layers)
				}
			})
		}
	}
}

// solverLayers returns the report's per-layer solver counts by layer name.
func solverLayers(t *testing.T, path string) map[string]map[string]int {
	t.Helper()
	r := readReport(t, path)
	out := map[string]map[string]int{}
	for _, l := range r.Solver.Layers {
		out[strings.ToLower(l.Name)] = map[string]int{"queries": l.Queries, "sat": l.Sat, "unknown": l.Unknown}
	}
	return out
}
