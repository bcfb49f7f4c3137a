package e2e

import "testing"

// containerTargets pass inputs through maps, append, copy and composite
// literals before a branch on 32 bits or more of them: a concrete value
// reaches each panic only if the construct keeps the shadows.
const containerTargets = `package cont

type P struct {
	X int32
	N string
}

var table = map[string]int32{"alpha": 1, "beta": 7, "gamma": 9}

func MapConst(b []byte) {
	if v, ok := table[string(b)]; ok && v == 7 {
		panic("found")
	}
}

func MapInput(m map[int32]int32, k int32) {
	if v, ok := m[k]; ok && v*3 == 1234567 {
		panic("found")
	}
}

func MapStore(x, y, k int32) {
	m := map[int32]int32{}
	m[x] = y
	m[x+1] = 5
	if m[k]^0x55aa == 0x12345678 && len(m) == 2 {
		panic("found")
	}
}

func MapDelete(x, k int32) {
	m := map[int32]int32{x: 0x7e57, 3: 4}
	delete(m, k)
	if len(m) == 1 && x*5 == 0x2b1d2a4 {
		panic("found")
	}
}

func Append(x, y uint32) {
	var s []uint32
	s = append(s, 1, x)
	s = append(s, []uint32{y}...)
	if s[1]*s[2] == 0x7ffffffe && y > 2 {
		panic("found")
	}
}

func Copy(x uint32) {
	src := []uint32{4, x}
	dst := make([]uint32, 2)
	if n := copy(dst, src); n == 2 && dst[1]^0xcafe == 0x1234cafe {
		panic("found")
	}
}

func AppendBytes(b []byte, c byte) {
	out := append([]byte("k="), b...)
	out = append(out, c)
	if string(out) == "k=go!" {
		panic("found")
	}
}

func StructLit(x int32, s string) {
	p := P{X: x * 3, N: s}
	if p.X == 1234567*3 && p.N == "ok" {
		panic("found")
	}
}

func PtrLit(x int32) {
	p := &P{X: x + 1}
	if p.X == 0x31415927 {
		panic("found")
	}
}

func SliceLit(x, y int64) {
	s := []int64{y, x}
	if s[1]-s[0] == 0x123456789 {
		panic("found")
	}
}

func ArrayLit(x uint32) {
	a := [2]uint32{7, x}
	if a[1]*7 == 0x7ffffffd {
		panic("found")
	}
}

func MapLit(k string, v int32) {
	m := map[string]int32{k: v, "z": 1}
	if m["key"] == 0x0badf00d {
		panic("found")
	}
}
`

// TestContainers checks that maps, append, copy and composite literals
// keep the shadows of what goes through them: Z3 alone reaches each panic.
func TestContainers(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{"cont/cont.go": containerTargets})
	expectPanics(t, dir, "./cont", []string{"MapConst", "MapInput", "MapStore", "MapDelete", "Append", "Copy", "AppendBytes", "StructLit", "PtrLit", "SliceLit", "ArrayLit", "MapLit"})
}
