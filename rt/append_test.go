package rt

import "testing"

// vjob is an element a backtracker pushes: a literal appended with
// AppendValue, its tracked field then stored at Last.
type vjob struct {
	pc  uint32
	pos int
}

// TestAppendValue checks append of one value: the old elements' cells
// follow them into a new array, the new element's field gets the term
// stored at Last, and a cell left in the spare capacity by an element
// popped before does not survive under the new value.
func TestAppendValue(t *testing.T) {
	own(t)
	reset(0)
	x := st.b.Var(1, 64)
	s := make([]vjob, 0, 1)
	s = AppendValue(1, s, vjob{pc: 1, pos: 0})
	Store(V[int]{C: 0, S: x}, &Last(s).pos)
	s = AppendValue(1, s, vjob{pc: 2, pos: 5}) // grows: element 0 moves
	if got := Load(1, &s[0].pos).S; got != x {
		t.Errorf("moved element: pos has %v, want %v", got, x)
	}
	if got := Load(1, &s[1].pos).S; got != nil {
		t.Errorf("concrete element: pos has %v, want none", got)
	}
	// Pop element 0's twin at index 1, push a literal there: the old
	// cell at that address must go even though the value is equal.
	Store(V[int]{C: 5, S: st.b.Var(2, 64)}, &s[1].pos)
	s = s[:1]
	s = AppendValue(1, s, vjob{pc: 3, pos: 5})
	if got := Load(1, &s[1].pos).S; got != nil {
		t.Errorf("pushed over a popped element: pos has %v, want none", got)
	}
	if got := Load(1, &s[0].pos).S; got != x {
		t.Errorf("element 0 in place: pos has %v, want %v", got, x)
	}
	for _, c := range takeConcrete(nil) {
		if c.Cause == CauseStale {
			t.Errorf("stale cell counted: %+v", c)
		}
	}
}
