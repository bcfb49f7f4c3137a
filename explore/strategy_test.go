package explore

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
)

// orderFixture builds a tree by three runs and returns every candidate they
// found, in discovery order:
//
//	A 1/0/f  B 2/1/t  C 3/2/f   from "1t 2f 3t"
//	D 4/3/f  E 5/4/t            from "1t 2f 3f 4t 5f", which covers C
//	F 6/1/f                     from "1f 6t", which covers A
//
// Open are B (depth 1), D (3), E (4) and F (1).
func orderFixture() (*Tree, []*Candidate) {
	b := sym.NewBuilder()
	tr := NewTree(b, Options{})
	var all []*Candidate
	for _, p := range []string{"1t 2f 3t", "1t 2f 3f 4t 5f", "1f 6t"} {
		all = append(all, tr.Record(path(b, p), sym.Env{}, nil).NewCandidates...)
	}
	return tr, all
}

// offer hands cs to s as the candidates one execution opened.
func offer(s Strategy, cs ...*Candidate) {
	s.Update(Feedback{Event: Ran, Outcome: Outcome{NewCandidates: cs}})
}

// drain returns the sites of the candidates s hands out, in order.
func drain(s Strategy) []uint32 {
	var sites []uint32
	for {
		t, ok := s.Next()
		if !ok {
			return sites
		}
		if t.State() != Pending {
			panic(fmt.Sprintf("Next returned %s", t))
		}
		sites = append(sites, t.Node.Site)
	}
}

func TestOrder(t *testing.T) {
	tests := []struct {
		name string
		want []uint32
	}{
		{"dfs", []uint32{5, 4, 6, 2}}, // deepest first; F before B: added later
		{"bfs", []uint32{2, 6, 4, 5}}, // shallowest first; B before F: added earlier
	}
	for _, tt := range tests {
		s, err := New(tt.name, Config{})
		if err != nil {
			t.Fatal(err)
		}
		_, all := orderFixture()
		offer(s, all...)
		if s.Len() != 6 {
			t.Errorf("%s: Len %d after 6 candidates", s, s.Len())
		}
		if got := drain(s); !slices.Equal(got, tt.want) {
			t.Errorf("%s: order %v, want %v", s, got, tt.want)
		}
		if s.Len() != 0 {
			t.Errorf("%s: Len %d when drained", s, s.Len())
		}
	}
}

func TestRandom(t *testing.T) {
	order := func(seed int64) []uint32 {
		b := sym.NewBuilder()
		tr := NewTree(b, Options{})
		var p strings.Builder
		for i := range 20 {
			fmt.Fprintf(&p, "%dt ", i+1)
		}
		s := NewRandom(seed)
		for _, tg := range tr.Record(path(b, p.String()), sym.Env{}, nil).NewCandidates {
			s.Add(tg)
		}
		got := drain(s)
		if st := tr.Stats(); st.Pending != 20 || st.Open != 0 {
			t.Errorf("seed %d: stats %+v after draining, want 20 pending", seed, st)
		}
		return got
	}
	a, again, other := order(1), order(1), order(2)
	sorted := slices.Sorted(slices.Values(a))
	for i, site := range sorted {
		if site != uint32(i+1) {
			t.Fatalf("seed 1 returned sites %v, want 1..20 once each", a)
		}
	}
	if !slices.Equal(a, again) {
		t.Errorf("seed 1 gave %v, then %v", a, again)
	}
	if slices.Equal(a, other) {
		t.Errorf("seeds 1 and 2 gave the same order %v", a)
	}
}

func TestNextSkipsClosedCandidates(t *testing.T) {
	for _, name := range Names() {
		s, err := New(name, Config{Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		b := sym.NewBuilder()
		tr := NewTree(b, Options{})
		ts := tr.Record(path(b, "1t 2f 3t 4f"), sym.Env{}, nil).NewCandidates
		offer(s, ts...)
		tr.Resolve(ts[1], solver.Unsat)                   // site 2: infeasible
		tr.Resolve(ts[2], solver.Unknown)                 // site 3: failed
		tr.Record(path(b, "1t 2f 3t 4t"), sym.Env{}, nil) // site 4: covered
		if got := drain(s); !slices.Equal(got, []uint32{1}) {
			t.Errorf("%s: returned sites %v, want only the open site 1", name, got)
		}
		// A candidate already handed out is Pending: adding it again is harmless.
		offer(s, ts[0])
		if tg, ok := s.Next(); ok {
			t.Errorf("%s: Next returned %s again", name, tg)
		}
		if s.Len() != 0 {
			t.Errorf("%s: Len %d when drained", name, s.Len())
		}
	}
}

func TestNew(t *testing.T) {
	for _, name := range Names() {
		s, err := New(name, Config{Seed: 1})
		if err != nil || s.String() != name {
			t.Errorf("New(%q) = %v, %v", name, s, err)
		}
	}
	_, err := New("astar", Config{Seed: 1})
	if err == nil {
		t.Fatal("New(astar) succeeded")
	}
	for _, name := range Names() {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("error %q does not list %q", err, name)
		}
	}
}

// TestValidStrategy checks that ValidStrategy accepts what New accepts
// and rejects the rest with New's error.
func TestValidStrategy(t *testing.T) {
	for _, name := range append(Names(), "astar", "", "DFS") {
		_, newErr := New(name, Config{Seed: 1})
		err := ValidStrategy(name)
		if (err == nil) != (newErr == nil) || err != nil && err.Error() != newErr.Error() {
			t.Errorf("ValidStrategy(%q) = %v, New's error %v", name, err, newErr)
		}
	}
	if ValidStrategy("astar") == nil {
		t.Error("ValidStrategy(astar) = nil")
	}
}
