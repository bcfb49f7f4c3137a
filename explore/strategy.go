package explore

import (
	"container/heap"
	"fmt"
	"slices"
	"strings"

	"github.com/gocolic/gocolic/sites"
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
func Names() []string {
	return []string{"cover", "dfs", "bfs", "random", "random-branch", "uniform-random", "generational", "priority", "cfds", "cgs", "learned"}
}

// ValidStrategy returns the error New returns for name, without building
// a strategy: nil if name is one of Names.
func ValidStrategy(name string) error {
	if slices.Contains(Names(), name) {
		return nil
	}
	return fmt.Errorf("explore: unknown strategy %q (valid: %s)", name, strings.Join(Names(), ", "))
}

// Config is what New hands the strategies beside their name. Each
// strategy reads the fields it needs; the zero value of a field is a
// usable default.
type Config struct {
	// Seed seeds the strategy's random choices.
	Seed int64
	// Std, if not nil, reports which branch sites belong to standard
	// packages instrumented in place (sites.Site.Std), whose uncovered
	// outcomes cover ranks after the target's.
	Std func(site uint32) bool
	// RandomShare is the fraction of priority's choices made at random
	// instead of by priority, in [0, 1].
	RandomShare float64
	// Static is the static graph of cfds, cgs and learned (UsesStatic);
	// nil without one, when every outcome is Far.
	Static Static
	// Weights are the learned strategy's (a weight file's Weights); nil
	// leaves them all 0. Sites and Props are what its features read of
	// the program: the site table and the sites' static properties.
	Weights []float64
	Sites   []sites.Site
	Props   map[uint32]SiteProps
}

// New returns the strategy called name, configured by cfg.
func New(name string, cfg Config) (Strategy, error) {
	st := cfg.Static
	if st == nil {
		st = noStatic{}
	}
	switch name {
	case "cover":
		return NewCover(cfg.Seed, cfg.Std), nil
	case "dfs":
		return NewDFS(), nil
	case "bfs":
		return NewBFS(), nil
	case "random":
		return NewRandom(cfg.Seed), nil
	case "random-branch":
		return NewRandomBranch(cfg.Seed), nil
	case "uniform-random":
		return NewUniformRandom(cfg.Seed), nil
	case "generational":
		return NewGenerational(cfg.Seed), nil
	case "priority":
		return NewPriority(cfg.Seed, cfg.RandomShare), nil
	case "cfds":
		return NewCFDS(cfg.Seed, st), nil
	case "cgs":
		return NewCGS(cfg.Seed, st), nil
	case "learned":
		// Without weights every score ties.
		theta := cfg.Weights
		if theta == nil {
			theta = make([]float64, NumFeatures)
		}
		return NewLearned(theta, LearnedInput{Sites: cfg.Sites, Props: cfg.Props, Static: cfg.Static, Seed: cfg.Seed})
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
