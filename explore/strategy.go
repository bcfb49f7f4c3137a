package explore

import (
	"container/heap"
	"fmt"
	"strings"
)

// A Strategy orders the candidates of a Tree, in the manner of a KLEE
// Searcher. The caller adds every candidate from Record's Outcome; Next hands
// them out. A candidate can stop being Open while it waits (an execution
// covered it, or the solver refuted it): Next drops such candidates.
type Strategy interface {
	// Add queues t.
	Add(t *Candidate)
	// Next removes and returns the next candidate whose side is still Open,
	// after marking it Pending. It returns false when none is left.
	Next() (*Candidate, bool)
	// Len returns the number of candidates queued, including any that have
	// stopped being Open and that Next will drop.
	Len() int
	// String returns the strategy's name, as accepted by New.
	String() string
}

// Names returns the names New accepts.
func Names() []string { return []string{"cover", "dfs", "bfs", "random"} }

// New returns the strategy called name. seed seeds the random choices.
// covered reports the branch outcomes covered so far and seen the
// novelties reached so far; only "cover" uses them, and they may be nil.
func New(name string, seed int64, covered func(site uint32, side bool) bool, seen func(key uint32) bool) (Strategy, error) {
	switch name {
	case "cover":
		if covered == nil {
			covered = func(uint32, bool) bool { return false }
		}
		return NewCover(covered, seen, seed), nil
	case "dfs":
		return NewDFS(), nil
	case "bfs":
		return NewBFS(), nil
	case "random":
		return NewRandom(seed), nil
	}
	return nil, fmt.Errorf("explore: unknown strategy %q (valid: %s)", name, strings.Join(Names(), ", "))
}

// queue is a priority queue of candidates, smallest key first, shared by the
// strategies that order by depth. The keys are fixed when a candidate is
// added, so the heap stays valid when candidates change state.
type queue struct {
	items []queued
	seq   int64 // number of candidates added so far
}

type queued struct {
	t          *Candidate
	key1, key2 int64
}

func (q *queue) Len() int { return len(q.items) }

func (q *queue) Less(i, j int) bool {
	a, b := q.items[i], q.items[j]
	if a.key1 != b.key1 {
		return a.key1 < b.key1
	}
	return a.key2 < b.key2
}

func (q *queue) Swap(i, j int) { q.items[i], q.items[j] = q.items[j], q.items[i] }

func (q *queue) Push(x any) { q.items = append(q.items, x.(queued)) }

func (q *queue) Pop() any {
	last := len(q.items) - 1
	it := q.items[last]
	q.items[last] = queued{} // let the candidate be collected
	q.items = q.items[:last]
	return it
}

// add queues t under the key computed by key from its depth and its
// arrival number.
func (q *queue) add(t *Candidate, key func(depth int, seq int64) (int64, int64)) {
	q.seq++
	k1, k2 := key(t.Depth(), q.seq)
	heap.Push(q, queued{t: t, key1: k1, key2: k2})
}

// next pops candidates until one can be claimed.
func (q *queue) next() (*Candidate, bool) {
	for len(q.items) > 0 {
		t := heap.Pop(q).(queued).t
		if t.claim() {
			return t, true
		}
	}
	return nil, false
}
