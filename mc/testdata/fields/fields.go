// Package fields holds the tests of fields of pointer parameters in the
// model checker's state: a field read and written only through the
// parameter is remembered from one block to the next; one that a store
// through another pointer or a call not inlined may write is not.
package fields

// reader is an input stream that remembers reading past its end.
type reader struct {
	data []byte
	next int
	eof  bool
}

// get is the next byte, 0 once past the end, where it sets eof for good.
func (r *reader) get() byte {
	if r.eof {
		return 0
	}
	if r.next >= len(r.data) {
		r.eof = true
		return 0
	}
	b := r.data[r.next]
	r.next++
	return b
}

// at is byte i of the data, 0 past its end.
func (r *reader) at(i int) byte {
	if i < len(r.data) {
		return r.data[i]
	}
	return 0
}

// Count counts the 7s in three reads: once a read set eof, r.eof holds
// at every later one.
func Count(r *reader) int {
	n := 0
	for i := 0; i < 3; i++ {
		if r.get() == 7 {
			n++
		}
	}
	return n
}

// Aliased is Count with a store through b after each read, which may be
// r.eof.
func Aliased(r *reader, b *bool) int {
	n := 0
	for i := 0; i < 3; i++ {
		if r.get() == 7 {
			n++
		}
		*b = false
	}
	return n
}

// reset has a loop, so it is never inlined; it may write any field.
func reset(r *reader) {
	for i := 0; i < 1; i++ {
		r.eof = false
	}
}

// Opaque is Count with a call of reset after each read.
func Opaque(r *reader) int {
	n := 0
	for i := 0; i < 3; i++ {
		if r.get() == 7 {
			n++
		}
		reset(r)
	}
	return n
}

// Pair reads two bytes through at once the data has two: the length at
// reads is the one Pair checked.
func Pair(r *reader) int {
	if len(r.data) < 2 {
		return 0
	}
	if r.at(0) == r.at(1) {
		return 1
	}
	return 2
}

// PairAliased is Pair with a store through s, which may be r.data,
// between the check and the reads.
func PairAliased(r *reader, s *[]byte) int {
	if len(r.data) < 2 {
		return 0
	}
	*s = nil
	if r.at(0) == r.at(1) {
		return 1
	}
	return 2
}

// grow has a loop, so it is never inlined; it may change the data.
func grow(r *reader) {
	for i := 0; i < 1; i++ {
		r.data = r.data[:0]
	}
}

// PairOpaque is Pair with a call of grow between the check and the
// reads.
func PairOpaque(r *reader) int {
	if len(r.data) < 2 {
		return 0
	}
	grow(r)
	if r.at(0) == r.at(1) {
		return 1
	}
	return 2
}

// cursor is the seed's input stream: next only ever increases by one
// from 0, a counter (cfa.Graph.Counter), so an increment never wraps.
type cursor struct {
	data []byte
	next int
}

func (c *cursor) take() byte {
	i := c.next
	c.next++
	if i < len(c.data) {
		return c.data[i]
	}
	return 0
}

// Scan counts the 7s in three reads: once a read is past the end, so is
// every later one.
func Scan(c *cursor) int {
	n := 0
	for j := 0; j < 3; j++ {
		if c.take() == 7 {
			n++
		}
	}
	return n
}

// seeker is cursor with a position Seek sets to any value: at the
// largest int, an increment wraps round to the smallest, before the end
// again.
type seeker struct {
	data []byte
	pos  int
}

func (s *seeker) pull() byte {
	i := s.pos
	s.pos++
	if i < len(s.data) {
		return s.data[i]
	}
	return 0
}

// Seek moves the position.
func (s *seeker) Seek(n int) { s.pos = n }

// ScanSeeker is Scan over a seeker.
func ScanSeeker(s *seeker) int {
	n := 0
	for j := 0; j < 3; j++ {
		if s.pull() == 7 {
			n++
		}
	}
	return n
}

// Run is the entry of the package's tests (cfa.Graph.SetEntries): it
// takes no struct, so the fields above are the package's own to set.
func Run(data []byte) int {
	r := &reader{data: data}
	var b bool
	var s []byte
	return Count(r) + Aliased(r, &b) + Opaque(r) + Pair(r) + PairAliased(r, &s) + PairOpaque(r) +
		Scan(&cursor{data: data}) + ScanSeeker(&seeker{data: data})
}
