// This file decides which pointer inputs alias, as 004 §4.5 does with its
// equivalence graph: the solver only proves a query satisfiable, and the
// pointer choices of its model are replaced by the fewest aliases and nils
// the query's reference constraints require.

package coordinator

import (
	"slices"

	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
)

// null is the equivalence graph's node for nil.
const null = -1

// aliasGraph canonicalises the pointer choices (rt.Param.Ref) of models.
// A solver may make inputs nil or aliases that no constraint asks for
// (p == q is also true when both are nil); such a model explores a
// structure nobody wanted and, worse, hides the paths of distinct
// objects. The graph's nodes are the pointer inputs and null; an edge is
// a positive literal of the query that equates two inputs' identities
// (rt.Idents), or one's with 0. Disequalities are ignored: the query is
// satisfiable, so they cannot be what forces an alias. In each class, a
// class with null is nil, and otherwise the input with the smallest number
// makes the object and the others alias it. The canonical model is used
// only if it still satisfies the query; otherwise the solver's stands.
type aliasGraph struct {
	b     *sym.Builder
	ps    []rt.Param
	offs  []int
	ptrs  []int                // the pointer inputs
	edges map[*sym.Expr][2]int // reference literals by node, made on first use
	// Fallbacks counts the models whose canonical form broke the query.
	Fallbacks int
}

// newAliasGraph returns the graph of the pointer inputs of ps, laid out at
// offs, whose terms b builds (the builder path conditions are decoded in).
func newAliasGraph(b *sym.Builder, ps []rt.Param, offs []int) *aliasGraph {
	g := &aliasGraph{b: b, ps: ps, offs: offs}
	for i, p := range ps {
		if p.Ref {
			g.ptrs = append(g.ptrs, i)
		}
	}
	return g
}

// literals builds the reference literals the runtime can record: each
// pointer input's identity equal to 0 (IsNil), and equal to the identity
// of another input of its type (PtrEq), both ways round. Inputs of a type
// are the classes of the Refs relation. The builder hash-conses, so the
// worker's literal decodes to the very node made here.
func (g *aliasGraph) literals() {
	g.edges = map[*sym.Expr][2]int{}
	ids := rt.NewIdents(g.b, g.ps, g.offs)
	zero := g.b.Const(0, 64)
	types := newUnion(len(g.ps))
	for _, j := range g.ptrs {
		g.edges[g.b.Eq(ids.Term(j), zero)] = [2]int{j, null}
		for _, r := range g.ps[j].Refs {
			types.union(j, r)
		}
	}
	for x, a := range g.ptrs {
		for _, c := range g.ptrs[x+1:] {
			if types.find(a) != types.find(c) {
				continue
			}
			g.edges[g.b.Eq(ids.Term(a), ids.Term(c))] = [2]int{a, c}
			g.edges[g.b.Eq(ids.Term(c), ids.Term(a))] = [2]int{a, c}
		}
	}
}

// canonical returns env, the solver's model merged into its base, with
// the pointer choices the model decides put into canonical form, when
// that still satisfies q; otherwise env itself.
func (g *aliasGraph) canonical(q solver.Query, env, model sym.Env) sym.Env {
	decided := slices.ContainsFunc(g.ptrs, func(j int) bool {
		_, ok := model[uint64(g.offs[j])]
		return ok
	})
	if !decided {
		return env
	}
	if g.edges == nil {
		g.literals()
	}
	classes := newUnion(len(g.ps) + 1) // null is the last node
	node := func(j int) int {
		if j == null {
			return len(g.ps)
		}
		return j
	}
	for _, lit := range append(slices.Clip(q.Constraints), q.Goal) {
		if e, ok := g.edges[lit]; ok {
			classes.union(node(e[0]), node(e[1]))
		}
	}
	out := sym.Env{}
	for k, v := range env {
		out[k] = v
	}
	for _, j := range g.ptrs {
		v := uint64(g.offs[j])
		if _, ok := model[v]; ok {
			out[v] = g.choice(j, classes, out[v])
		}
	}
	for _, c := range append(slices.Clip(q.Constraints), q.Goal) {
		if c != nil && !sym.Holds(c, out) {
			g.Fallbacks++
			return env
		}
	}
	return out
}

// choice returns input j's canonical choice under classes: nil in the
// class of null, else a new object for the class's smallest input and an
// alias of it for the others; old when j cannot alias that input.
func (g *aliasGraph) choice(j int, classes *union, old uint64) uint64 {
	root := classes.find(j)
	if root == classes.find(len(g.ps)) {
		return 1
	}
	first := j
	for _, i := range g.ptrs {
		if i < first && classes.find(i) == root {
			first = i
			break
		}
	}
	if first == j {
		return 0
	}
	if k := slices.Index(g.ps[j].Refs, first); k >= 0 {
		return uint64(2 + k)
	}
	return old
}

// union is a union-find over 0..n-1.
type union struct{ parent []int }

func newUnion(n int) *union {
	u := &union{parent: make([]int, n)}
	for i := range u.parent {
		u.parent[i] = i
	}
	return u
}

func (u *union) find(x int) int {
	for u.parent[x] != x {
		u.parent[x] = u.parent[u.parent[x]]
		x = u.parent[x]
	}
	return x
}

func (u *union) union(x, y int) { u.parent[u.find(x)] = u.find(y) }
