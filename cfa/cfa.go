// Package cfa is the control-flow automaton of the instrumented packages:
// their SSA form (golang.org/x/tools/go/ssa), the map between gocolic's
// branch sites (sites.Site) and the If instructions of that form, the
// interprocedural branch graph built on it, and the facts the directed
// strategies read from it (explore.Static): distances to uncovered
// branch outcomes and dominators.
//
// The map is exact or absent. A condition atom is compiled by go/ssa into
// an If whose condition is the atom's value, and, built with debug
// information, go/ssa notes that value's source expression (a DebugRef)
// right before the If; a site maps to an If when that expression spans
// exactly the site's source. A `!` swaps the If's successors in go/ssa
// and is left out of the atom by the rewrite, so the If's first successor
// is always the site's true outcome. A value of a tagged switch case is
// compared with the tag by an == whose position is the value's; a type
// switch case tests its type at the clause's `case` keyword. What matches
// nothing, or more than one If, is reported in Unmapped with the reason,
// never guessed: range loops that assign no variable (a range loop's
// test has no position in SSA form; the loop is found by the key or value
// its body assigns first), code go/ssa dropped as unreachable, and the
// implicit checks that no single instruction makes. Three kinds of sites
// decide no If: the last operand of && or || in a value context
// (Branch.Joined), a comma-ok type assertion (Branch.Point), and an
// implicit check (Branch.Check: an index or slice bound, a division, a
// shift, an assertion without comma-ok), which go/ssa does not branch on
// but maps to the one instruction that panics (check.go). gocolic has no
// sites for nil dereferences.
//
// Unreachable (prove.go) proves which condition outcomes no execution
// from a run's entry can take, by the call graph and by dead code
// (dead.go); the argument for its soundness is written there.
package cfa

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sync"

	"github.com/gocolic/gocolic/sites"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// Far is the distance of what cannot be reached: explore.Far, which
// explore.Static's Distance returns.
const Far = 10000

// A Branch is where a site is in SSA form: the block that ends with its
// If, and the blocks its two outcomes lead to.
type Branch struct {
	Site        uint32
	Func        *ssa.Function
	Block       *ssa.BasicBlock
	True, False *ssa.BasicBlock
	// Also are the other blocks whose If decides the site, with the
	// same successors: a range loop over an integer tests for another
	// element once before the body and again at its end.
	Also []*ssa.BasicBlock
	// Joined marks the last operand of && or || whose value is the
	// value of the whole expression (return a && b): go/ssa does not
	// branch on it, Block computes it and jumps to the block that joins
	// the operands' values, which both outcomes lead to (True == False).
	Joined bool
	// Point marks a comma-ok type assertion (v, ok := x.(T)): go/ssa
	// tests the type inside Block without branching, and both outcomes
	// go on in Block after the test (True and False are nil).
	Point bool
	// Check marks an implicit check (check.go): the instruction at
	// index panics on one outcome, Panics (true for a division or
	// shift, false for a bound or an assertion), and goes on in Block
	// on the other (True and False are nil).
	Check, Panics bool
	// Optional marks a range loop's condition: the runtime reports its
	// outcome only while the loop's length is symbolic (a concrete
	// range stays on the fast path, unrecorded), so a trace may pass
	// its If without an outcome.
	Optional bool
	index    int // the instruction of Block that decides the site
}

// Unmapped is a branch site with no If of its own, and why.
type Unmapped struct {
	Site uint32
	Why  string
	// Dead says that the syntax proves the site's code unreachable
	// (dead.go): it follows a statement that always leaves its
	// statement list, with no label in between, and go/ssa built no
	// block for it. Such a site is the one unmapped site that Unreachable
	// may claim.
	Dead bool
}

// Graph is the control-flow automaton of a set of packages. It is not
// safe for concurrent use: Distance recomputes lazily.
type Graph struct {
	Prog     *ssa.Program
	branches map[uint32]*Branch
	bySite   []*Branch // branches by site, for Dominates
	mapped   []uint32  // the keys of branches, in increasing order
	unmapped []Unmapped
	funcs    []*ssa.Function // the functions with bodies of the packages
	pkgs     []*packages.Package
	ssaPkgs  []*ssa.Package
	goal     map[uint32]bool // sites whose uncovered outcomes Distance aims at
	conds    map[uint32]bool // the condition sites of the table outside the standard packages

	// The branch graph: nodes are the heads and tails of blocks (a call
	// leaves from the head, the block's branch or successors from the
	// tail) and the two outcomes of each mapped site.
	nodes   int
	head    map[*ssa.BasicBlock]int
	outcome map[uint32]int   // site → node of its false outcome; +1 is the true one
	before  map[uint32][]int // a comma-ok assertion → the nodes that lead into it
	succ    [][]edge
	pred    [][]edge

	covered sites.Coverage
	dist    []int32 // to the nearest uncovered goal outcome, by node
	dirty   bool

	// The static calls of each function, and the functions that may
	// start otherwise (StaticCalls), found on first use (once: the model
	// checker's rounds run beside the search, which reads distances).
	callsOnce sync.Once
	calls     map[*ssa.Function][]*ssa.Call
	escapes   map[*ssa.Function]bool
	named     map[types.Object]bool // functions a wrapper starts
	invoked   map[string]bool       // method Ids that interfaces call
	boxed     map[types.Object]bool // named types that may be in an interface

	// The addresses of struct fields the packages take, found on first
	// use; the entries' inputs (SetEntries), and the verdicts of Counter
	// by field (counters.go).
	fieldsOnce sync.Once
	fieldAddrs []*ssa.FieldAddr
	generic    map[*types.Package]bool
	countersMu sync.Mutex
	inputs     *inputTypes
	counters   map[*types.Var]bool
}

type edge struct {
	to   int32
	cost int32 // 1 into an outcome of a branch, 0 otherwise
}

// Build builds the SSA form of pkgs, loaded with syntax and type
// information (load.Mode), maps the sites of table to it and builds the
// branch graph. Calls through interfaces and function values are
// resolved by class hierarchy analysis (callgraph/cha). A panic of go/ssa
// is the caller's to catch (guard).
func Build(pkgs []*packages.Package, table []sites.Site) (*Graph, error) {
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("cfa: no packages")
	}
	prog, ssaPkgs := ssautil.Packages(pkgs, ssa.GlobalDebug)
	for i, p := range ssaPkgs {
		if p == nil {
			return nil, fmt.Errorf("cfa: package %s has type errors", pkgs[i].PkgPath)
		}
	}
	prog.Build()
	g := &Graph{Prog: prog, branches: map[uint32]*Branch{}, goal: map[uint32]bool{}, conds: map[uint32]bool{},
		head: map[*ssa.BasicBlock]int{}, outcome: map[uint32]int{}, before: map[uint32][]int{}, covered: sites.Coverage{}, dirty: true}
	syn := newSyntax(prog.Fset)
	for i, p := range pkgs {
		g.collect(ssaPkgs[i], p)
		for _, f := range p.Syntax {
			syn.add(f, p.TypesInfo)
		}
	}
	g.pkgs, g.ssaPkgs = pkgs, ssaPkgs
	g.mapSites(table, syn)
	g.mapChecks(table, syn, g.instrAt())
	slices.Sort(g.mapped)
	if len(g.mapped) > 0 {
		g.bySite = make([]*Branch, g.mapped[len(g.mapped)-1]+1)
		for _, id := range g.mapped {
			g.bySite[id] = g.branches[id]
		}
	}
	slices.SortFunc(g.unmapped, func(a, b Unmapped) int { return cmp.Compare(a.Site, b.Site) })
	g.link()
	return g, nil
}

// collect adds the functions of pkg that have bodies: declared functions
// and methods, package initialisers, and the literals inside them.
func (g *Graph) collect(pkg *ssa.Package, p *packages.Package) {
	var add func(f *ssa.Function)
	add = func(f *ssa.Function) {
		if f == nil || len(f.Blocks) == 0 {
			return
		}
		g.funcs = append(g.funcs, f)
		for _, a := range f.AnonFuncs {
			add(a)
		}
	}
	if init, ok := pkg.Members["init"].(*ssa.Function); ok {
		add(init)
	}
	for _, file := range p.Syntax {
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if obj, ok := p.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					add(g.Prog.FuncValue(obj))
				}
			}
		}
	}
}

// A span is a source range as sites.Site keeps it: file and offsets.
type span struct {
	file       string
	start, end int
}

// syntax holds what the map needs of the source beyond SSA: the case
// values of tagged switches, the clauses of type switches, and the range
// loops by their key and value variables.
type syntax struct {
	fset       *token.FileSet
	checks     map[span]check                // expressions that make implicit checks (check.go)
	dead       map[span]bool                 // statements after one that always leaves their list (dead.go)
	caseValue  map[token.Pos]ast.Expr        // by position
	typeClause map[token.Pos]*ast.CaseClause // by the position of its `case`
	info       map[*ast.CaseClause]*types.Info
	rangeVar   map[token.Pos]*ast.RangeStmt      // by the position of its key or value
	assert     map[token.Pos]*ast.TypeAssertExpr // by the position of its (
}

func newSyntax(fset *token.FileSet) *syntax {
	return &syntax{fset: fset, checks: map[span]check{}, dead: map[span]bool{}, caseValue: map[token.Pos]ast.Expr{}, typeClause: map[token.Pos]*ast.CaseClause{},
		info: map[*ast.CaseClause]*types.Info{}, rangeVar: map[token.Pos]*ast.RangeStmt{}, assert: map[token.Pos]*ast.TypeAssertExpr{}}
}

func (s *syntax) add(f *ast.File, info *types.Info) {
	sp := func(n ast.Node) span {
		p, q := s.fset.Position(n.Pos()), s.fset.Position(n.End())
		return span{p.Filename, p.Offset, q.Offset}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		s.addCheck(n, sp)
		s.addDead(n, info, sp)
		switch x := n.(type) {
		case *ast.TypeAssertExpr:
			if x.Type != nil {
				s.assert[x.Lparen] = x
			}
		case *ast.RangeStmt:
			for _, v := range []ast.Expr{x.Key, x.Value} {
				if id, ok := v.(*ast.Ident); ok && id.Name != "_" {
					s.rangeVar[id.Pos()] = x
				}
			}
		case *ast.SwitchStmt:
			if x.Tag == nil {
				break
			}
			for _, c := range x.Body.List {
				for _, v := range c.(*ast.CaseClause).List {
					s.caseValue[v.Pos()] = v
				}
			}
		case *ast.TypeSwitchStmt:
			for _, c := range x.Body.List {
				cc := c.(*ast.CaseClause)
				s.typeClause[cc.Case] = cc
				s.info[cc] = info
				for _, v := range cc.List {
					if tv, ok := info.Types[v]; ok && tv.IsNil() {
						s.caseValue[v.Pos()] = v // compared with == nil
					}
				}
			}
		}
		return true
	})
}

// mapSites maps each branch site of table to the If that decides it.
func (g *Graph) mapSites(table []sites.Site, syn *syntax) {
	bySpan := map[span]uint32{} // condition atoms
	loops := map[span]uint32{}  // range loops, by the span of what they range over
	for _, s := range table {
		switch s.Kind {
		case sites.Cond, sites.Test:
			bySpan[span{s.Pos.Filename, s.Pos.Offset, s.End.Offset}] = s.ID
		case sites.Loop:
			loops[span{s.Pos.Filename, s.Pos.Offset, s.End.Offset}] = s.ID
		}
	}
	found := map[uint32][]*Branch{}
	joined := map[uint32][]*Branch{}
	points := map[uint32][]*Branch{}
	fset := g.Prog.Fset
	spanOf := func(e ast.Node) span {
		p, q := fset.Position(e.Pos()), fset.Position(e.End())
		return span{p.Filename, p.Offset, q.Offset}
	}
	for _, f := range g.funcs {
		for _, b := range f.Blocks {
			_, jump := b.Instrs[len(b.Instrs)-1].(*ssa.Jump)
			for i, in := range b.Instrs {
				switch in := in.(type) {
				case *ssa.DebugRef:
					if id, ok := bySpan[spanOf(in.Expr)]; ok && jump && !in.IsAddr {
						joined[id] = append(joined[id], &Branch{Site: id, Func: f, Block: b, True: b.Succs[0], False: b.Succs[0], Joined: true, index: i})
					}
				case *ssa.TypeAssert:
					if e := syn.assert[in.Pos()]; e != nil && in.CommaOk {
						if id, ok := bySpan[spanOf(e)]; ok {
							points[id] = append(points[id], &Branch{Site: id, Func: f, Block: b, Point: true, index: i})
						}
					}
				}
			}
			iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
			if !ok {
				continue
			}
			var e ast.Expr
			if ref := lastRef(b, iff.Cond); ref != nil {
				e = ref.Expr
			} else {
				e = syn.compared(iff.Cond)
			}
			id, ok := uint32(0), false
			switch {
			case e != nil:
				id, ok = bySpan[spanOf(e)]
			default:
				if r := syn.ranged(b.Succs[0]); r != nil {
					id, ok = loops[spanOf(r.X)]
				}
			}
			if !ok {
				continue
			}
			found[id] = append(found[id], &Branch{Site: id, Func: f, Block: b, True: b.Succs[0], False: b.Succs[1], index: len(b.Instrs) - 1})
		}
	}
	for _, s := range table {
		if s.Kind == sites.Cond && !s.Std {
			g.conds[s.ID] = true
		}
		if !s.IsBranch() || s.Kind == sites.Implicit && !s.Std {
			continue // implicit checks: mapChecks
		}
		bs := found[s.ID]
		if len(bs) == 0 {
			bs = joined[s.ID]
		}
		if len(bs) == 0 {
			bs = points[s.ID]
		}
		if len(bs) > 1 && s.Kind == sites.Loop && sameEdges(bs) {
			for _, o := range bs[1:] {
				bs[0].Also = append(bs[0].Also, o.Block)
			}
			bs = bs[:1]
		}
		switch {
		case len(bs) == 1:
			bs[0].Optional = s.Kind == sites.Loop
			g.branches[s.ID] = bs[0]
			g.mapped = append(g.mapped, s.ID)
			if s.Kind == sites.Cond && !s.Std {
				g.goal[s.ID] = true
			}
		case len(bs) > 1:
			g.unmapped = append(g.unmapped, Unmapped{Site: s.ID, Why: fmt.Sprintf("%d If instructions decide it", len(bs))})
		case syn.isDead(s):
			g.unmapped = append(g.unmapped, Unmapped{Site: s.ID, Why: "dead code: after a return, panic, goto, break or continue of its statement list (go/ssa drops it)", Dead: true})
		default:
			g.unmapped = append(g.unmapped, Unmapped{Site: s.ID, Why: whyUnmapped(s)})
		}
	}
}

// whyUnmapped says why a site of this kind has no If.
func whyUnmapped(s sites.Site) string {
	switch {
	case s.Std:
		return "a standard package's, outside the graph"
	case s.Kind == sites.Loop:
		return "range loop that assigns no key or value: go/ssa gives its test no position"
	case s.Kind == sites.Implicit:
		return "implicit check: SSA form does not branch on it"
	}
	return "no instruction of the SSA form decides it"
}

// lastRef returns the last DebugRef of b that names v: the source
// expression whose value an If at the end of b tests, which go/ssa notes
// right after computing it.
func lastRef(b *ssa.BasicBlock, v ssa.Value) *ssa.DebugRef {
	for i := len(b.Instrs) - 2; i >= 0; i-- {
		if r, ok := b.Instrs[i].(*ssa.DebugRef); ok && r.X == v && !r.IsAddr {
			return r
		}
	}
	return nil
}

// compared returns the case of a switch that cond tests, nil if it tests
// none: a tagged switch's == against a case value (or a type switch's
// == nil), at the value's position, or a type switch's type test.
func (s *syntax) compared(cond ssa.Value) ast.Expr {
	switch c := cond.(type) {
	case *ssa.BinOp:
		if c.Op == token.EQL {
			return s.caseValue[c.Pos()]
		}
	case *ssa.Extract:
		ta, ok := c.Tuple.(*ssa.TypeAssert)
		if !ok || c.Index != 1 || !ta.CommaOk {
			return nil
		}
		cc := s.typeClause[ta.Pos()]
		if cc == nil {
			return nil
		}
		for _, v := range cc.List {
			if tv, ok := s.info[cc].Types[v]; ok && !tv.IsNil() && types.Identical(tv.Type, ta.AssertedType) {
				return v
			}
		}
	}
	return nil
}

// sameEdges reports whether the branches all lead to the same two blocks.
func sameEdges(bs []*Branch) bool {
	for _, b := range bs[1:] {
		if b.True != bs[0].True || b.False != bs[0].False {
			return false
		}
	}
	return true
}

// ranged returns the range loop whose body starts with the block body,
// nil if none does. go/ssa gives a range loop's test for another element
// no position (nor, once blocks are fused, a block comment to go by), but
// the body's first block assigns the loop's key or value, and the
// DebugRef of that assignment names the variable where the range
// statement declares it; no other DebugRef names that position. An If
// whose true successor is that block is a test of the loop (a loop that
// assigns neither variable is not found), and its true outcome, another
// element, is gocolic's Loop site's true one.
func (s *syntax) ranged(body *ssa.BasicBlock) *ast.RangeStmt {
	for _, in := range body.Instrs {
		if r, ok := in.(*ssa.DebugRef); ok {
			if id, ok := r.Expr.(*ast.Ident); ok {
				if rs := s.rangeVar[id.Pos()]; rs != nil {
					return rs
				}
			}
		}
	}
	return nil
}

// Branch returns where site is in SSA form, nil if it is unmapped.
func (g *Graph) Branch(site uint32) *Branch { return g.branches[site] }

// Unmapped returns the branch sites with no If (or, for an implicit
// check, instruction) of their own, by site.
func (g *Graph) Unmapped() []Unmapped { return g.unmapped }

// Dominates reports whether d and b are mapped sites of one function and
// d's (first) If runs before each of b's on every path from the
// function's entry. The learned strategy and cgs ask it for every branch
// they walk back over: it reads the dense table bySite and go/ssa's
// dominator tree numbering, and allocates nothing.
func (g *Graph) Dominates(d, b uint32) bool {
	if d == b || int(d) >= len(g.bySite) || int(b) >= len(g.bySite) {
		return false
	}
	x, y := g.bySite[d], g.bySite[b]
	if x == nil || y == nil || x.Func != y.Func {
		return false
	}
	if !x.before(y.Block, y.index) {
		return false
	}
	for _, yb := range y.Also {
		if !x.before(yb, len(yb.Instrs)-1) { // the If of a further test
			return false
		}
	}
	return true
}

// before reports whether x's deciding instruction runs before
// instruction i of block yb on every path to it.
func (x *Branch) before(yb *ssa.BasicBlock, i int) bool {
	return x.Block.Dominates(yb) && (x.Block != yb || x.index <= i)
}

// Funcs returns the functions with bodies of the packages, literals
// included.
func (g *Graph) Funcs() []*ssa.Function { return g.funcs }

// Mapped returns the sites that have a Branch, in increasing order. The
// caller must not modify the slice.
func (g *Graph) Mapped() []uint32 { return g.mapped }
