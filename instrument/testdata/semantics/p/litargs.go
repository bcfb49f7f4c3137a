package p

import "sync"

type argTok struct {
	kind int
	text string
}

type argToks []argTok

func (t *argToks) push(v argTok) { *t = append(*t, v) }

func (t *argToks) shift() (r argTok) {
	r = (*t)[0]
	copy(*t, (*t)[1:])
	*t = (*t)[:len(*t)-1]
	return
}

func argLen(v argTok) int { return len(v.text) + v.kind }

func argAfter(x int, v argTok) int { return x*10 + v.kind + len(v.text) }

func argReturn(s string) int { return argLen(argTok{len(s), s}) }

// LitArgs passes struct literals with symbolic parts to functions and
// methods of the package: as a call statement, in an assignment, in a
// return, and after an argument with an effect, whose order of
// evaluation against the literal must stay; it appends a struct variable.
func LitArgs(a int64, s string) (int, string, int, int, bool) {
	var ts argToks
	for i, r := range s {
		ts.push(argTok{i, string(r)})
	}
	order := ""
	note := func(c string) int { order += c; return len(order) }
	n := argLen(argTok{int(a % 5), s})
	m := argAfter(note("a"), argTok{note("b"), s + order})
	var first argTok
	same := false
	if len(ts) > 1 {
		first = ts.shift()
		second := ts.shift()
		same = first.text == second.text
	}
	kept := ts
	kept = append(kept, first)
	return n + m, order + first.text, len(kept), argReturn(s), same && kept[len(kept)-1].text == "a"
}

var capPool = sync.Pool{New: func() any { return new([]int) }}

// PoolCap makes slices with a length and capacity from the input and
// takes a buffer from a pool, which an execution on symbolic inputs gets
// fresh.
func PoolCap(a int64, s string) (int, int, int, int) {
	n := len(s) % 7
	xs := make([]int, n, n+int(a&3))
	ys := make([]uint16, 1, 2+n)
	ys = append(ys, uint16(n))
	bp := capPool.Get().(*[]int)
	*bp = append((*bp)[:0], n, len(xs))
	k := len(*bp)
	capPool.Put(bp)
	return len(xs), cap(xs), len(ys) + cap(ys), k
}

// IndexStores stores into slices and arrays at indices from the input (a
// bit set, flags, small counters), with =, |=, += and ++, reads them back
// at other indices, and panics on a store out of range when len(s)%5 is
// 4.
func IndexStores(a, b int64, s string) (uint32, uint32, int, [4]int8, bool) {
	visited := make([]uint32, 4)
	n := int(a & 127)
	visited[n/32] |= 1 << (uint(n) & 31)
	var small [4]int8
	i := int(b & 3)
	small[i] = int8(a)
	small[(i+1)&3] += int8(b)
	small[i]++
	xs := []int{1, 2, 3}
	xs[int(b&1)] = int(a) * 2
	var flags [4]bool
	flags[len(s)%5] = true
	return visited[1], visited[n/32], xs[0] + xs[1], small, flags[1]
}

// tokClass is a row of a lexer's class table.
type tokClass struct {
	lo, hi byte
	word   bool
	weight int16
}

var classes = [4]tokClass{{'a', 'z', true, 3}, {'0', '9', false, -1}, {' ', ' ', false, 0}, {0x80, 0xbf, true, 7}}

// ClassCopy copies rows of a table of structs at indices from the input
// (an array and a slice of it), compares the input with their fields,
// and panics out of range when len(s)%6 is 5.
func ClassCopy(a int64, s string) (bool, int16, byte, int) {
	c := classes[a&3]
	rows := classes[:]
	d := rows[len(s)%4]
	in := len(s) > 0 && s[0] >= c.lo && s[0] <= c.hi
	e := rows[len(s)%6]
	return in && c.word, c.weight + d.weight, d.hi, int(e.lo)
}
