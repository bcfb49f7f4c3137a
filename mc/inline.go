package mc

// This file is the bounded inlining of static callees (stage 2 of
// issue 19). A call of a function the encoder may inline is encoded in
// place of the havoc stage 1 gave it: the callee's parameters take the
// arguments' terms and addresses, its blocks are encoded in topological
// order with each block's reach condition (the disjunction of the edges
// into it), its phis become if-then-else terms over those edges, its
// results the same over its returns, and the call goes on only when
// some return is reached. A condition inside the callee (a divisor that
// is not zero) holds when its block is reached. Memory follows the
// callee's paths: a block starts with the cells all its incoming edges
// hold, each with the value they agree on or the if-then-else of their
// values over the edges, and the call ends likewise over its returns.
//
// What is inlined: a function with a body and an acyclic control-flow
// graph (a loop would need the abstraction's locations, which stay the
// caller's blocks), no recover, no defer, no free variable, at most
// maxInlineBlocks blocks, not in a package that imports unsafe, that
// Inlining.Allow accepts, called directly (not through an interface or a
// function value), not already on the stack, and at most Inlining.Depth
// calls deep. Any other call is havoc, as in stage 1.
//
// The callee's branches keep their identity: an If of a function inlined
// at a call of the path's own function is a Copy, the goal edge taken
// under its Guard there. A caller's graph (arg.go) decides the copies at
// each call of its own; a goal is then unreachable in the callee only
// when every call that can start it leaves its copy out (prove.go).

import (
	"go/constant"

	"github.com/gocolic/gocolic/sym"
	"golang.org/x/tools/go/ssa"
)

// DefaultInlineDepth is the inlining depth Prove uses: a callee and the
// callees it calls.
const DefaultInlineDepth = 2

// maxInlineBlocks bounds the size of an inlined callee.
const maxInlineBlocks = 64

// Inlining says which static callees an Encoder expands.
type Inlining struct {
	// Depth is the number of nested calls expanded (0: none).
	Depth int
	// Allow says whether a function may be expanded: gocolic's own
	// packages (those of the cfa graph). Nil allows none.
	Allow func(*ssa.Function) bool
}

// A Copy is a goal edge of a callee inlined at a call of the path's own
// function: the If of Block taking successor Succ, which the execution
// takes when Guard holds (over the callee's entry, given Conds[:Before]
// of the path, the conditions met before the call).
type Copy struct {
	Call   *ssa.Call
	Block  *ssa.BasicBlock
	Succ   int
	Guard  *sym.Expr
	Before int
}

// encFrame is what the encoder keeps per function being encoded: the path's
// own or an inlined callee's.
type encFrame struct {
	env   map[ssa.Value]*sym.Expr   // the latest term of each value
	ptr   map[ssa.Value]int         // addresses of pointer values (memory.go)
	tup   map[ssa.Value][]*sym.Expr // results of inlined calls with several
	lens  map[ssa.Value]*sym.Expr   // lengths of an inlined callee's parameters
	sink  *[]*sym.Expr              // where conditions go inside a callee
	depth int                       // calls inlined around this frame
	stack []*ssa.Function           // the functions of the frames, outermost first
}

// canInline reports whether g may be expanded (the file's comment),
// leaving the depth and the stack aside.
func (e *Encoder) canInline(g *ssa.Function) bool {
	if ok, seen := e.inlinable[g]; seen {
		return ok
	}
	ok := e.Inline.Allow != nil && e.Inline.Allow(g) && len(g.Blocks) > 0 && len(g.Blocks) <= maxInlineBlocks &&
		g.Recover == nil && len(g.FreeVars) == 0 && !importsUnsafe(g) && topo(g) != nil
	if ok {
	scan:
		for _, b := range g.Blocks {
			for _, in := range b.Instrs {
				switch in.(type) {
				case *ssa.Defer, *ssa.RunDefers:
					ok = false
					break scan
				}
			}
		}
	}
	if e.inlinable == nil {
		e.inlinable = map[*ssa.Function]bool{}
	}
	e.inlinable[g] = ok
	return ok
}

// topo returns g's blocks in topological order, nil when g has a cycle.
func topo(g *ssa.Function) []*ssa.BasicBlock {
	const (
		white = iota
		grey
		black
	)
	color := make([]int8, len(g.Blocks))
	var post []*ssa.BasicBlock
	cyclic := false
	var visit func(b *ssa.BasicBlock)
	visit = func(b *ssa.BasicBlock) {
		color[b.Index] = grey
		for _, s := range b.Succs {
			switch color[s.Index] {
			case grey:
				cyclic = true
			case white:
				visit(s)
			}
		}
		color[b.Index] = black
		post = append(post, b)
	}
	visit(g.Blocks[0])
	if cyclic {
		return nil
	}
	for i, j := 0, len(post)-1; i < j; i, j = i+1, j-1 {
		post[i], post[j] = post[j], post[i]
	}
	return post
}

// call encodes the call c: a builtin, an inlined callee, or havoc.
func (p *Path) call(c *ssa.Call) {
	p.redefined(c)
	if bi, ok := c.Call.Value.(*ssa.Builtin); ok {
		switch bi.Name() {
		case "len":
			if t := p.lenOf(c.Call.Args[0]); t != nil {
				p.env[c] = t
				return
			}
		case "cap", "min", "max", "real", "imag", "complex", "print", "println":
		default:
			p.clobber()
		}
	} else if res, ok := p.inline(c); ok {
		if len(res) > 1 {
			if p.tup == nil {
				p.tup = map[ssa.Value][]*sym.Expr{}
			}
			p.tup[c] = res
		} else if len(res) == 1 && res[0] != nil {
			p.env[c] = res[0]
			return
		}
		if _, _, ok := scalar(c.Type()); ok {
			p.havoc(c)
		}
		return
	} else {
		p.clobber()
	}
	if _, _, ok := scalar(c.Type()); !ok {
		return
	}
	if t := p.minMax(c); t != nil {
		p.env[c] = t
	} else {
		p.havoc(c)
	}
}

// lenOf returns the term of len(v): the length variable of a slice or
// string parameter of the path's function, the length an inlined
// callee's parameter was bound to, or a constant string's; nil (havoc)
// for any other value.
func (p *Path) lenOf(v ssa.Value) *sym.Expr {
	if t, ok := p.lens[v]; ok {
		return t
	}
	switch v := v.(type) {
	case *ssa.Parameter:
		if len(p.stack) != 1 {
			return nil // a callee's parameter without a bound length
		}
		for i, q := range p.enc.Fn.Params {
			if q == v {
				return p.enc.lens[i]
			}
		}
	case *ssa.Const:
		if v.Value != nil && v.Value.Kind() == constant.String && hasLen(v.Type()) {
			return p.enc.B.Const(uint64(len(constant.StringVal(v.Value))), intWidth())
		}
	}
	return nil
}

// inline encodes the call c in place (the file's comment) and returns the
// terms of its results (nil for one the encoder does not follow); ok is
// false when c is not expanded.
func (p *Path) inline(c *ssa.Call) (results []*sym.Expr, ok bool) {
	g, isFn := c.Call.Value.(*ssa.Function)
	if !isFn || c.Call.IsInvoke() || p.depth >= p.enc.Inline.Depth || !p.enc.canInline(g) {
		return nil, false
	}
	for _, f := range p.stack {
		if f == g {
			return nil, false
		}
	}
	if len(c.Call.Args) != len(g.Params) {
		return nil, false
	}
	b := p.enc.B
	// The callee's frame: parameters bound to the arguments.
	callee := encFrame{env: map[ssa.Value]*sym.Expr{}, ptr: map[ssa.Value]int{}, depth: p.depth + 1,
		stack: append(append([]*ssa.Function(nil), p.stack...), g)}
	for i, a := range c.Call.Args {
		if t := p.Value(a); t != nil {
			if w, _, ok := scalar(g.Params[i].Type()); ok && w == t.Width {
				callee.env[g.Params[i]] = t
			}
		}
		if isPointer(a.Type()) {
			callee.ptr[g.Params[i]] = p.addr(a)
		}
		if n := p.lenOf(a); n != nil && hasLen(g.Params[i].Type()) {
			if callee.lens == nil {
				callee.lens = map[ssa.Value]*sym.Expr{}
			}
			callee.lens[g.Params[i]] = n
		}
	}
	top := p.depth == 0
	before := len(p.Conds)
	caller, pre := p.encFrame, p.pre
	p.encFrame, p.pre = callee, nil

	order := topo(g)
	reach := map[*ssa.BasicBlock]*sym.Expr{g.Blocks[0]: b.Bool(true)}
	guard := map[*ssa.BasicBlock][2]*sym.Expr{} // the edges out of each block
	memOut := map[*ssa.BasicBlock]map[int]cell{}
	entryMem := p.mem
	var conds []*sym.Expr
	type ret struct {
		r    *sym.Expr
		vals []*sym.Expr
	}
	var rets []ret
	var retMem []map[int]cell
	var retConds []*sym.Expr
	var copies []Copy
	// into returns the condition of the edges from pred into blk.
	into := func(pred, blk *ssa.BasicBlock) *sym.Expr {
		t := b.Bool(false)
		for i, s := range pred.Succs {
			if s == blk && guard[pred][i] != nil {
				t = b.Or(t, guard[pred][i])
			}
		}
		return t
	}
	for _, blk := range order {
		r := reach[blk]
		if r == nil || r.Kind == sym.KFalse {
			continue
		}
		// Memory and phis at the block's entry.
		if blk == g.Blocks[0] {
			p.mem = merge(b, []map[int]cell{entryMem}, nil)
		} else {
			var ms []map[int]cell
			var in []*sym.Expr
			for _, q := range blk.Preds {
				if m, ok := memOut[q]; ok {
					if e := into(q, blk); e.Kind != sym.KFalse {
						ms, in = append(ms, m), append(in, e)
					}
				}
			}
			p.mem = merge(b, ms, in)
		}
		for _, in := range blk.Instrs {
			phi, isPhi := in.(*ssa.Phi)
			if !isPhi {
				break
			}
			if _, _, ok := scalar(phi.Type()); !ok {
				continue
			}
			var acc *sym.Expr
			for i := len(blk.Preds) - 1; i >= 0; i-- {
				q := blk.Preds[i]
				e := into(q, blk)
				if _, seen := memOut[q]; !seen || e.Kind == sym.KFalse {
					continue
				}
				t := p.Value(phi.Edges[i])
				if t == nil {
					acc = nil
					break
				}
				if acc == nil {
					acc = t
				} else {
					acc = b.Ite(e, t, acc)
				}
			}
			if acc == nil {
				p.havoc(phi)
			} else {
				p.env[phi] = acc
			}
		}
		var local []*sym.Expr
		p.sink = &local
		p.instrs(blk.Instrs)
		p.sink = nil
		for _, x := range local {
			conds = append(conds, b.Or(b.Not(r), x))
		}
		memOut[blk] = p.mem
		switch t := blk.Instrs[len(blk.Instrs)-1].(type) {
		case *ssa.If:
			cond := p.Value(t.Cond)
			g0, g1 := b.And(r, cond), b.And(r, b.Not(cond))
			guard[blk] = [2]*sym.Expr{g0, g1}
			if top {
				copies = append(copies, Copy{Call: c, Block: blk, Succ: 0, Guard: g0, Before: before},
					Copy{Call: c, Block: blk, Succ: 1, Guard: g1, Before: before})
			}
		case *ssa.Jump:
			guard[blk] = [2]*sym.Expr{r}
		case *ssa.Return:
			var vals []*sym.Expr
			for _, v := range t.Results {
				vals = append(vals, p.Value(v))
			}
			rets = append(rets, ret{r, vals})
			retMem, retConds = append(retMem, p.mem), append(retConds, r)
		}
		for i, s := range blk.Succs {
			if e := guard[blk][i]; e != nil {
				if reach[s] == nil {
					reach[s] = e
				} else {
					reach[s] = b.Or(reach[s], e)
				}
			}
		}
	}
	p.encFrame, p.pre = caller, pre
	p.mem = merge(b, retMem, retConds)

	// The call goes on when a return is reached; what the callee's
	// blocks need holds where they are reached.
	returns := b.Bool(false)
	for _, rt := range rets {
		returns = b.Or(returns, rt.r)
	}
	p.cond(returns)
	for _, x := range conds {
		p.cond(x)
	}
	p.Copies = append(p.Copies, copies...)
	if len(rets) == 0 {
		return nil, true
	}
	results = make([]*sym.Expr, len(rets[0].vals))
	for j := range results {
		acc := rets[len(rets)-1].vals[j]
		for i := len(rets) - 2; i >= 0 && acc != nil; i-- {
			if v := rets[i].vals[j]; v == nil {
				acc = nil
			} else {
				acc = b.Ite(rets[i].r, v, acc)
			}
		}
		results[j] = acc
	}
	return results, true
}
