package explore

import "strings"

// A Prediction is the branch bit-vector a Candidate expects its execution to
// produce: the outcomes of the branches leading to the candidate's node, then
// the candidate's side. The candidates found by one execution share the packed
// outcomes of its path, so a prediction costs no copy however deep it is.
// The zero Prediction is empty.
type Prediction struct {
	prefix []uint64 // packed outcomes; bit i of the path is bit i%64 of word i/64
	n      int      // length, last bit included
	last   bool     // bit n-1, which overrides prefix
}

// pack returns the outcomes of path as packed bits.
func pack(path []Branch) []uint64 {
	w := make([]uint64, (len(path)+63)/64)
	for i, br := range path {
		if br.Taken {
			w[i/64] |= 1 << (i % 64)
		}
	}
	return w
}

// Len returns the number of predicted outcomes: the candidate's depth plus 1.
func (p Prediction) Len() int { return p.n }

// At returns the predicted outcome of the branch at depth i < p.Len().
func (p Prediction) At(i int) bool {
	if i < 0 || i >= p.n {
		panic("explore: prediction index out of range")
	}
	if i == p.n-1 {
		return p.last
	}
	return p.prefix[i/64]&(1<<(i%64)) != 0
}

// Bools returns the predicted outcomes as a new slice.
func (p Prediction) Bools() []bool {
	bs := make([]bool, p.n)
	for i := range bs {
		bs[i] = p.At(i)
	}
	return bs
}

// Mismatch returns the first depth at which path departs from p: where
// its outcome differs, or len(path) if it ends before p does. It returns
// -1 if path follows all of p.
func (p Prediction) Mismatch(path []Branch) int {
	for i := 0; i < p.n; i++ {
		if i >= len(path) {
			return len(path)
		}
		if path[i].Taken != p.At(i) {
			return i
		}
	}
	return -1
}

// String returns the outcomes as 1 (true) and 0 (false), root first.
func (p Prediction) String() string {
	var sb strings.Builder
	sb.Grow(p.n)
	for i := 0; i < p.n; i++ {
		if p.At(i) {
			sb.WriteByte('1')
		} else {
			sb.WriteByte('0')
		}
	}
	return sb.String()
}
