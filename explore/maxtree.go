package explore

import "math"

// bound is an upper bound on a queued candidate's rank in Learned.Next:
// candidates that are not heavy (class 1) rank above heavy ones (class 0)
// whatever their scores, and within a class the score decides. A
// removed slot has class -1.
type bound struct {
	class int8
	score float64
}

// less reports whether a ranks below b.
func (a bound) less(b bound) bool {
	return a.class < b.class || a.class == b.class && a.score < b.score
}

// gone marks a slot that holds no candidate.
var gone = bound{class: -1, score: math.Inf(-1)}

// maxTree holds a bound per slot, slots in the order of the learned
// strategy's pool, and finds the next slot whose bound reaches a
// threshold in O(log n): Next visits only the candidates that may win or
// tie, in pool order, so that it draws from its random source exactly as
// a scan of the whole pool does.
type maxTree struct {
	n    int     // slots in use
	size int     // leaves: a power of two ≥ n
	t    []bound // t[size+i] is slot i; t[k] the largest of t[2k], t[2k+1]
}

// reset empties the tree and fills it with bs, one slot each.
func (m *maxTree) reset(bs []bound) {
	m.n, m.size = len(bs), 1
	for m.size < len(bs) {
		m.size *= 2
	}
	if cap(m.t) >= 2*m.size {
		m.t = m.t[:2*m.size]
	} else {
		m.t = make([]bound, 2*m.size)
	}
	copy(m.t[m.size:], bs)
	for i := m.size + len(bs); i < 2*m.size; i++ {
		m.t[i] = gone
	}
	for k := m.size - 1; k >= 1; k-- {
		m.t[k] = maxBound(m.t[2*k], m.t[2*k+1])
	}
}

// push adds a slot with bound b after the others.
func (m *maxTree) push(b bound) {
	if m.n == m.size {
		bs := make([]bound, m.n, 2*m.n+1)
		copy(bs, m.t[m.size:m.size+m.n])
		m.reset(append(bs, b))
		return
	}
	m.n++
	m.set(m.n-1, b)
}

// set changes the bound of slot i.
func (m *maxTree) set(i int, b bound) {
	k := m.size + i
	m.t[k] = b
	for k /= 2; k >= 1; k /= 2 {
		m.t[k] = maxBound(m.t[2*k], m.t[2*k+1])
	}
}

// at returns the bound of slot i.
func (m *maxTree) at(i int) bound { return m.t[m.size+i] }

// next returns the first slot at or after from whose bound does not rank
// below thr, -1 if none.
func (m *maxTree) next(from int, thr bound) int {
	if from >= m.n || m.t[1].less(thr) {
		return -1
	}
	// Climb from the leaf until a subtree to the right of from may hold
	// a match, then descend into its leftmost match.
	k := m.size + from
	if !m.t[k].less(thr) {
		return from
	}
	for {
		for k%2 == 1 { // a right child: its parent's right part is done
			k /= 2
			if k == 1 {
				return -1
			}
		}
		k++ // the right sibling
		if !m.t[k].less(thr) {
			break
		}
	}
	for k < m.size {
		if !m.t[2*k].less(thr) {
			k = 2 * k
		} else {
			k = 2*k + 1
		}
	}
	if i := k - m.size; i < m.n {
		return i
	}
	return -1
}

func maxBound(a, b bound) bound {
	if a.less(b) {
		return b
	}
	return a
}
