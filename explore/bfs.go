package explore

// BFS hands out the shallowest open candidate first and, among candidates of
// equal depth, the earliest added one. Its zero value is ready to use.
type BFS struct {
	q queue
}

// NewBFS returns an empty BFS strategy.
func NewBFS() *BFS { return new(BFS) }

// shallowerOlder orders by increasing depth, then increasing arrival.
func shallowerOlder(depth int, seq int64) (int64, int64) { return int64(depth), seq }

// Add queues t.
func (s *BFS) Add(t *Candidate) { s.q.add(t, shallowerOlder) }

// Next returns the shallowest, oldest open candidate and marks it Pending.
func (s *BFS) Next() (*Candidate, bool) { return s.q.next() }

// Len returns the number of candidates queued.
func (s *BFS) Len() int { return s.q.Len() }

func (s *BFS) String() string { return "bfs" }
