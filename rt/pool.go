package rt

import "sync"

// PoolGet stands for p.Get() in instrumented code. An execution on
// symbolic inputs gets a fresh value, p.New's or nil (a pool may always
// come up empty), rather than one an earlier execution of the worker put
// back: what such a value holds, a slice's capacity above all, depends on
// the process's history, so the same input could take other branches in
// the next execution (regexp's backtracker compares the capacity of its
// reused bit set with a size computed from the input's length). Concrete
// executions keep the pool and its speed.
func PoolGet(p *sync.Pool) any {
	if st.symbolic && tracking() {
		if p.New != nil {
			return p.New()
		}
		return nil
	}
	return p.Get()
}
