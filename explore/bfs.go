package explore

// BFS hands out the shallowest open candidate first and, among candidates
// of equal depth, the earliest added one. Its zero value is ready to use.
type BFS struct {
	q queue
}

// NewBFS returns an empty BFS strategy.
func NewBFS() *BFS { return new(BFS) }

// shallowerOlder orders by increasing depth, then increasing arrival.
func shallowerOlder(depth int, seq int64) (int64, int64) { return int64(depth), seq }

// Add queues c.
func (s *BFS) Add(c *Candidate) { s.q.add(c, shallowerOlder) }

// Update queues the candidates fb opened; BFS needs nothing else.
func (s *BFS) Update(fb Feedback) { addNew(fb, s.Add) }

// Next returns the shallowest, oldest open candidate and marks it Pending.
func (s *BFS) Next() (*Candidate, bool) { return s.q.next() }

// Len returns the number of candidates queued.
func (s *BFS) Len() int { return s.q.Len() }

func (s *BFS) String() string { return "bfs" }
