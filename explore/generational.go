package explore

import (
	"container/heap"
	"math/bits"
)

// Generational is SAGE's generational search. Every execution that
// leaves a path is queued with its bound, the depth below which its
// parent already expanded the path (0 for a seed, the origin's depth + 1
// otherwise), and its score, the number of branch outcomes it covered
// first. The execution with the highest score (the oldest among equals)
// is expanded: each Open side of its path from the bound down is handed
// out, shallowest first, as one generation; its children are queued as
// they come back. When the queue is empty, what is left Open anywhere is
// handed out at random (SAGE restarts from a new seed there).
type Generational struct {
	q    genQueue
	gen  []*Candidate // the generation being handed out
	rest *Random
}

// NewGenerational returns an empty Generational strategy; seed orders the
// leftovers of an exhausted queue.
func NewGenerational(seed int64) *Generational { return &Generational{rest: NewRandom(seed)} }

// Update queues the execution fb reports with its bound and score.
func (s *Generational) Update(fb Feedback) {
	addNew(fb, s.rest.Add)
	if fb.Event != Ran || fb.Outcome.Leaf == nil {
		return
	}
	e := genExec{leaf: fb.Outcome.Leaf, seq: s.q.seq}
	s.q.seq++
	if fb.Origin != nil {
		e.bound = fb.Origin.Depth() + 1
	}
	for _, b := range fb.Fresh {
		e.score += bits.OnesCount8(b)
	}
	heap.Push(&s.q, e)
}

// Next claims the next Open side of the generation being expanded,
// expanding the best queued execution when the generation is done.
func (s *Generational) Next() (*Candidate, bool) {
	for {
		for len(s.gen) > 0 {
			c := s.gen[0]
			s.gen = s.gen[1:]
			if c.claim() {
				return c, true
			}
		}
		if s.q.Len() == 0 {
			return s.rest.Next()
		}
		e := heap.Pop(&s.q).(genExec)
		s.gen = openOn(e.leaf.Path(), e.bound)
	}
}

// Len returns the number of candidates heard of that Next has not
// dropped.
func (s *Generational) Len() int { return s.rest.Len() }

func (s *Generational) String() string { return "generational" }

// genExec is a queued execution of Generational.
type genExec struct {
	leaf  *Node
	bound int
	score int
	seq   int
}

// genQueue orders executions by decreasing score, then arrival.
type genQueue struct {
	items []genExec
	seq   int
}

func (q *genQueue) Len() int { return len(q.items) }
func (q *genQueue) Less(i, j int) bool {
	a, b := q.items[i], q.items[j]
	if a.score != b.score {
		return a.score > b.score
	}
	return a.seq < b.seq
}
func (q *genQueue) Swap(i, j int) { q.items[i], q.items[j] = q.items[j], q.items[i] }
func (q *genQueue) Push(x any)    { q.items = append(q.items, x.(genExec)) }
func (q *genQueue) Pop() any {
	last := len(q.items) - 1
	e := q.items[last]
	q.items[last] = genExec{}
	q.items = q.items[:last]
	return e
}
