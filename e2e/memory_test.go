package e2e

import "testing"

// memoryTargets panic behind branches on values that pass through memory:
// struct fields, pointers, array and slice elements, copies of structs,
// table lookups at an input index. Each condition is an equality on 32
// bits or more, so a concrete value reaches it only by luck.
const memoryTargets = `package mem

type acc struct {
	sum  uint32
	n    int
	name string
	in   struct{ f float64 }
}

func Fields(x uint32, s string) {
	var a acc
	a.sum = x * 3
	a.name = s
	a.in.f = float64(x)
	if a.sum == 0x9e3779b1 && a.name == "ok" {
		panic("found")
	}
}

func Pointer(x uint32) {
	a := &acc{}
	a.sum = x ^ 0x5bd1e995
	b := a
	if b.sum == 0xdeadbeef {
		panic("found")
	}
}

func OpAssign(x uint32, y int) {
	var a acc
	a.sum += x
	a.sum *= 7
	a.n++
	a.n += y
	if a.sum == 0x12345677 && a.n == 1000001 {
		panic("found")
	}
}

func Copy(x uint32) {
	var a acc
	a.sum = x
	b := a
	var arr [2]acc
	arr[1] = b
	if arr[1].sum == 0xcafef00d {
		panic("found")
	}
}

var table = func() (t [256]uint32) {
	for i := range t {
		c := uint32(i)
		for k := 0; k < 8; k++ {
			if c&1 == 1 {
				c = 0xedb88320 ^ c>>1
			} else {
				c >>= 1
			}
		}
		t[i] = c
	}
	return
}()

func Lookup(b byte) {
	if table[b] == 0x2d02ef8d {
		panic("found")
	}
}

func check(a acc, k uint32) bool { return a.sum == k }

func (a acc) magic() bool { return a.sum^0xffff == 0x0badcafe }

func Args(x uint32) {
	var a acc
	a.sum = x
	if check(a, 0x7f4a7c15) {
		panic("found")
	}
}

func Receiver(x uint32) {
	var a acc
	a.sum = x
	if a.magic() {
		panic("found")
	}
}

func Range(x uint32) {
	xs := make([]uint32, 3)
	xs[1] = x
	for _, v := range xs {
		if v == 0x6a09e667 {
			panic("found")
		}
	}
}

func MakeLen(n uint8, x uint32) {
	if n < 2 {
		return
	}
	buf := make([]uint32, n)
	for i := range buf {
		buf[i] = x + uint32(i)
	}
	if len(buf) == 5 && buf[4] == 0x243f6a88 {
		panic("found")
	}
}

func Elements(x, y uint32, i int) {
	xs := make([]uint32, 4)
	xs[0], xs[3] = 1, 2
	xs[1] = x
	xs[2] = y + 1
	if i >= 0 && i < 4 && xs[i] == 0x31415927 && i == 2 {
		panic("found")
	}
}
`

// TestMemory checks that values stay symbolic through memory: Z3 alone
// reaches each panic.
func TestMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{"mem/mem.go": memoryTargets})
	expectPanics(t, dir, "./mem", []string{"Fields", "Pointer", "OpAssign", "Copy", "Lookup", "Elements", "Args", "Receiver", "Range", "MakeLen"})
}
