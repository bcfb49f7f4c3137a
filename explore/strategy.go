package explore

import (
	"container/heap"
	"fmt"
	"slices"
	"strings"
)

// A Strategy orders the candidates of a Tree, in the manner of a KLEE
// Searcher. The caller tells it what every execution did, and what the
// solver said when no execution follows, through Update; the new
// candidates reach it that way, and Next hands them out. A candidate can
// stop being Open while it waits (an execution covered it, or the solver
// refuted it): Next drops such candidates.
type Strategy interface {
	// Update takes in what one event did and queues the candidates it
	// opened (fb.Outcome.NewCandidates).
	Update(fb Feedback)
	// Next removes and returns the next candidate whose side is still
	// Open, after marking it Pending. It returns false when none is left.
	Next() (*Candidate, bool)
	// Len returns the number of candidates queued, including any that
	// have stopped being Open and that Next will drop.
	Len() int
	// String returns the strategy's name, as accepted by New.
	String() string
}

// Names returns the names New accepts, the default first.
func Names() []string { return []string{"cover", "dfs", "bfs", "random", "learned"} }

// ValidStrategy returns the error New returns for name, without building
// a strategy: nil if name is one of Names.
func ValidStrategy(name string) error {
	if slices.Contains(Names(), name) {
		return nil
	}
	return fmt.Errorf("explore: unknown strategy %q (valid: %s)", name, strings.Join(Names(), ", "))
}

// New returns the strategy called name. seed seeds its random choices;
// std, if not nil, reports which branch sites belong to standard packages
// instrumented in place (sites.Site.Std), whose uncovered outcomes cover
// ranks after the target's. The classic orders ignore it.
func New(name string, seed int64, std func(site uint32) bool) (Strategy, error) {
	switch name {
	case "cover":
		return NewCover(seed, std), nil
	case "dfs":
		return NewDFS(), nil
	case "bfs":
		return NewBFS(), nil
	case "random":
		return NewRandom(seed), nil
	case "learned":
		// Without weights every score ties: NewLearned gives it its own.
		return NewLearned(make([]float64, NumFeatures), LearnedInput{Seed: seed})
	}
	return nil, ValidStrategy(name)
}

// addNew hands the candidates fb opened to add, in the order Record found
// them: root first.
func addNew(fb Feedback, add func(*Candidate)) {
	for _, c := range fb.Outcome.NewCandidates {
		add(c)
	}
}

// queue is a priority queue of candidates, smallest key first, shared by the
// strategies that order by depth. The keys are fixed when a candidate is
// added, so the heap stays valid when candidates change state.
type queue struct {
	items []queued
	seq   int64 // number of candidates added so far
}

type queued struct {
	c          *Candidate
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

// add queues c under the key computed by key from its depth and its
// arrival number.
func (q *queue) add(c *Candidate, key func(depth int, seq int64) (int64, int64)) {
	q.seq++
	k1, k2 := key(c.Depth(), q.seq)
	heap.Push(q, queued{c: c, key1: k1, key2: k2})
}

// next pops candidates until one can be claimed.
func (q *queue) next() (*Candidate, bool) {
	for len(q.items) > 0 {
		c := heap.Pop(q).(queued).c
		if c.claim() {
			return c, true
		}
	}
	return nil, false
}
