package explore

// DFS hands out the deepest open candidate first and, among candidates of
// equal depth, the most recently added one. Its zero value is ready to use.
type DFS struct {
	q queue
}

// NewDFS returns an empty DFS strategy.
func NewDFS() *DFS { return new(DFS) }

// deeperNewer orders by decreasing depth, then decreasing arrival.
func deeperNewer(depth int, seq int64) (int64, int64) { return -int64(depth), -seq }

// Add queues c.
func (s *DFS) Add(c *Candidate) { s.q.add(c, deeperNewer) }

// Update queues the candidates fb opened; DFS needs nothing else.
func (s *DFS) Update(fb Feedback) { addNew(fb, s.Add) }

// Next returns the deepest, most recent open candidate and marks it
// Pending.
func (s *DFS) Next() (*Candidate, bool) { return s.q.next() }

// Len returns the number of candidates queued.
func (s *DFS) Len() int { return s.q.Len() }

func (s *DFS) String() string { return "dfs" }
