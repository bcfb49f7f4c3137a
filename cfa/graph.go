package cfa

// This file builds the interprocedural branch graph and measures
// distances on it.

import (
	"slices"

	"github.com/gocolic/gocolic/sites"
	"golang.org/x/tools/go/callgraph/cha"
	"golang.org/x/tools/go/ssa"
)

// link builds the branch graph. A block's head leads to its tail, through
// both outcomes of each comma-ok type assertion of the block in turn (at
// cost 1 into each) and the outcome of each implicit check that does not
// panic (at cost 0; the one that panics, at cost 1, leads nowhere), and
// to the entry of every function its calls may
// reach (by class hierarchy analysis, among the functions of the
// packages); its tail leads to both
// outcomes of its site, at cost 1, or, if its If is no site's, to its
// successors; an outcome leads to the block it branches to. A returning
// block of a function leads back to the tail of every block that calls
// it: CREST's graph has no return edges, but Go code puts its branches in
// small helpers, and without them every outcome of a helper whose own
// branches are covered would be Far from the rest of its caller. (Returns
// go to every caller, so a path may leave by another call than it came
// in: distances are a lower bound, as a heuristic's may be.)
func (g *Graph) link() {
	ours := map[*ssa.Function]bool{}
	for _, f := range g.funcs {
		ours[f] = true
		for _, b := range f.Blocks {
			g.head[b] = g.nodes
			g.nodes += 2
		}
	}
	at := map[*ssa.BasicBlock]uint32{}
	points := map[*ssa.BasicBlock][]*Branch{}
	for _, id := range g.mapped {
		g.outcome[id] = g.nodes
		g.nodes += 2
		br := g.branches[id]
		if br.Point || br.Check {
			points[br.Block] = append(points[br.Block], br)
			continue
		}
		for _, b := range append([]*ssa.BasicBlock{br.Block}, br.Also...) {
			at[b] = id
		}
	}
	g.succ = make([][]edge, g.nodes)
	add := func(from, to, cost int) { g.succ[from] = append(g.succ[from], edge{int32(to), int32(cost)}) }
	for _, f := range g.funcs {
		for _, b := range f.Blocks {
			h := g.head[b]
			from := []int{h}
			ps := points[b]
			slices.SortFunc(ps, func(x, y *Branch) int { return x.index - y.index })
			for _, p := range ps {
				o := g.outcome[p.Site]
				g.before[p.Site] = from
				if p.Check {
					// The panic leaves; passing the check enters no
					// branch a search must choose, so that distances
					// between conditions stay what they were.
					for _, n := range from {
						add(n, o+side(p.Panics), 1)
						add(n, o+side(!p.Panics), 0)
					}
					from = []int{o + side(!p.Panics)}
					continue
				}
				for _, n := range from {
					add(n, o, 1)
					add(n, o+1, 1)
				}
				from = []int{o, o + 1}
			}
			for _, n := range from {
				add(n, h+1, 0)
			}
			if id, ok := at[b]; ok {
				add(h+1, g.outcome[id], 1)
				add(h+1, g.outcome[id]+1, 1)
				continue
			}
			for _, s := range b.Succs {
				add(h+1, g.head[s], 0)
			}
		}
	}
	for _, id := range g.mapped {
		if br := g.branches[id]; !br.Point && !br.Check {
			add(g.outcome[id], g.head[br.False], 0)
			add(g.outcome[id]+1, g.head[br.True], 0)
		}
	}
	cg := cha.CallGraph(g.Prog)
	for _, f := range g.funcs {
		n := cg.Nodes[f]
		if n == nil {
			continue
		}
		for _, e := range n.Out {
			callee := e.Callee.Func
			if !ours[callee] || e.Site == nil {
				continue
			}
			call := g.head[e.Site.Block()]
			add(call, g.head[callee.Blocks[0]], 0)
			for _, b := range callee.Blocks {
				if _, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
					add(g.head[b]+1, call+1, 0)
				}
			}
		}
	}
	g.pred = make([][]edge, g.nodes)
	for from, es := range g.succ {
		for _, e := range es {
			g.pred[e.to] = append(g.pred[e.to], edge{int32(from), e.cost})
		}
	}
}

// side is the offset of an outcome's node from its site's false one.
func side(taken bool) int {
	if taken {
		return 1
	}
	return 0
}

// search runs a 0-1 breadth-first search over adj from the nodes of
// sources and returns every node's distance, Far where none reaches.
func (g *Graph) search(adj [][]edge, sources []int) []int32 {
	dist := make([]int32, g.nodes)
	for i := range dist {
		dist[i] = Far
	}
	// A deque as a ring would be tidier; two stacks of one level each
	// do: cost-0 edges stay on the level, cost-1 edges go to the next.
	cur, next := []int{}, []int{}
	for _, s := range sources {
		if dist[s] != 0 {
			dist[s] = 0
			cur = append(cur, s)
		}
	}
	for level := int32(0); len(cur) > 0 && level < Far; level++ {
		for len(cur) > 0 {
			u := cur[len(cur)-1]
			cur = cur[:len(cur)-1]
			if dist[u] != level {
				continue // reached at a lower level since
			}
			for _, e := range adj[u] {
				d := level + e.cost
				if d < dist[e.to] {
					dist[e.to] = d
					if e.cost == 0 {
						cur = append(cur, int(e.to))
					} else {
						next = append(next, int(e.to))
					}
				}
			}
		}
		cur, next = next, cur[:0]
	}
	return dist
}

// Distance returns the number of branches entered on a shortest path of
// the branch graph from taking side at site to an outcome of a condition
// site of the target that no execution has covered (Cover): 0 if that
// outcome is uncovered itself, Far if none can be reached or site is
// unmapped. It implements explore.Static.
func (g *Graph) Distance(site uint32, taken bool) int {
	o, ok := g.outcome[site]
	if !ok {
		return Far
	}
	if g.dirty {
		var goals []int
		for _, id := range g.mapped {
			for _, t := range []bool{false, true} {
				if g.goal[id] && !g.covered.Has(id, t) {
					goals = append(goals, g.outcome[id]+side(t))
				}
			}
		}
		g.dist = g.search(g.pred, goals)
		g.dirty = false
	}
	return int(g.dist[o+side(taken)])
}

// Cover marks outcomes as covered: Distance counts from them from now on.
// It implements explore.Static.
func (g *Graph) Cover(c sites.Coverage) {
	for site, bits := range c {
		if g.covered[site]|bits != g.covered[site] {
			g.covered[site] |= bits
			g.dirty = true
		}
	}
}

// From returns the distance from taking side at site to each mapped site
// it can reach: the number of branches entered on a shortest path, the
// site's own included.
func (g *Graph) From(site uint32, taken bool) map[uint32]int {
	o, ok := g.outcome[site]
	if !ok {
		return nil
	}
	return g.reached(g.search(g.succ, []int{o + side(taken)}))
}

// FromEntry returns the distance from the entry of f to each mapped site
// it can reach; nil if f is not a function of the graph.
func (g *Graph) FromEntry(f *ssa.Function) map[uint32]int {
	if f == nil || len(f.Blocks) == 0 {
		return nil
	}
	h, ok := g.head[f.Blocks[0]]
	if !ok {
		return nil
	}
	return g.reached(g.search(g.succ, []int{h}))
}

// reached returns the distances of the mapped sites dist reaches: the
// least distance of the tail of a block of the site (of the node before a
// comma-ok assertion), plus 1 for entering the site.
func (g *Graph) reached(dist []int32) map[uint32]int {
	out := map[uint32]int{}
	for _, id := range g.mapped {
		br := g.branches[id]
		d := dist[g.head[br.Block]+1]
		for _, b := range br.Also {
			d = min(d, dist[g.head[b]+1])
		}
		if br.Point || br.Check {
			d = Far
			for _, n := range g.before[id] {
				d = min(d, dist[n])
			}
		}
		if d < Far {
			out[id] = int(d) + 1
		}
	}
	return out
}
