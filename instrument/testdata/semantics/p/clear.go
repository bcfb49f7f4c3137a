package p

// clearAll clears a slice of a type parameter.
func clearAll[S ~[]E, E any](x S) { clear(x) }

// Clears clears slices, byte slices and a map that hold values derived
// from the inputs, then branches on what they hold.
func Clears(a int64, s string, bs []byte) (int, string) {
	score := 0
	v := []int64{a, a + 1, a * 2}
	clear(v[1:])
	if v[0] == a && v[1] == 0 && v[2] == 0 {
		score++
	}
	b := []byte(s)
	clear(b[:len(b)/2])
	if len(b) > 0 && b[0] == 0 {
		score += 10
	}
	r := &rbuf{buf: append([]byte(nil), bs...)}
	clear(r.buf)
	if len(r.buf) > 1 && r.buf[1] == 0 {
		score += 100
	}
	m := map[string]int64{s: a}
	clear(m)
	if _, ok := m[s]; !ok && len(m) == 0 {
		score += 1000
	}
	w := []int32{int32(a), int32(len(s))}
	clearAll(w)
	if w[0] == 0 && w[1] == 0 {
		score += 10000
	}
	return score, string(b) + "|" + string(r.buf)
}

// bjob is what a backtracker pushes.
type bjob struct {
	pc  uint32
	pos int
	arg bool
}

// AppendLits pushes and pops literals with symbolic parts on a stack,
// as regexp's backtracker does, and branches on what it pops.
func AppendLits(a int64, s string) (int, int) {
	var jobs []bjob
	score := 0
	for i := 0; i < len(s) && i < 6; i++ {
		jobs = append(jobs, bjob{pc: uint32(s[i]), pos: i + int(a%3), arg: s[i] > 'a'})
		if i%2 == 1 {
			j := jobs[len(jobs)-1]
			jobs = jobs[:len(jobs)-1]
			if j.pc == 'b' || j.arg && j.pos > 2 {
				score++
			}
		}
	}
	spans := []struct{ start, end int }{}
	spans = append(spans, struct{ start, end int }{int(a), len(s)})
	if len(jobs) > 0 && jobs[0].pos == spans[0].end {
		score += 10
	}
	return score, len(jobs)
}
