package explore

// DFS hands out the deepest open target first and, among targets of equal
// depth, the most recently added one. Its zero value is ready to use.
type DFS struct {
	q queue
}

// NewDFS returns an empty DFS strategy.
func NewDFS() *DFS { return new(DFS) }

// deeperNewer orders by decreasing depth, then decreasing arrival.
func deeperNewer(depth int, seq int64) (int64, int64) { return -int64(depth), -seq }

// Add queues t.
func (s *DFS) Add(t *Target) { s.q.add(t, deeperNewer) }

// Next returns the deepest, most recent open target and marks it Pending.
func (s *DFS) Next() (*Target, bool) { return s.q.next() }

// Len returns the number of targets queued.
func (s *DFS) Len() int { return s.q.Len() }

func (s *DFS) String() string { return "dfs" }
