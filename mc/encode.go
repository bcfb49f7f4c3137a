// Package mc is the model checker of abstraction-driven testing: it works
// on the go/ssa form that cfa builds, with the concolic engine's own terms
// (sym), so that the two engines share one semantics.
//
// The parts: the path encoder (this file), with the callees it inlines
// (inline.go) and the memory it knows (memory.go); the predicate
// abstraction and its cartesian abstract post (abstract.go); Algorithm 2
// of seed 002,
// which builds an abstract reachability graph of one function towards
// the uncovered branch outcomes and claims unreachable those its closed
// graph leaves out (arg.go), the goals of inlined callees decided at
// their calls (callees.go); the check of abstract paths and refinement
// by weakest preconditions sliced by an unsat core (refine.go); the
// monitor of a closed graph and its replay on executed traces
// (monitor.go); and Prove, which runs the checker over a graph's
// functions (prove.go, gocolic's -abstraction).
//
// This file is the path encoder. A path is a sequence of SSA blocks of one
// function, each a successor of the one before; its formula says that an
// execution goes through those blocks in that order. Integer and boolean
// SSA values are bit-vector and boolean terms at their Go widths, built by
// the same sym operations the runtime (rt/ops.go) uses for each operator,
// so wraparound, signed division and the shift rules are Go's; a division
// or a signed shift on the path adds the condition under which it does
// not panic. A call of a static callee is expanded in place within the
// Inline bounds (inline.go), and a load of an integer or boolean through
// a pointer, a field or a global returns what the path stored there, as
// far as type-based aliasing knows it (memory.go); the fields of a pointer
// parameter's struct start as variables (paramField), and so do the
// lengths of its slice fields. What the encoder does
// not follow (other calls but the builtin min and max, other loads,
// floats, strings, values defined before the path starts) is havoc: a
// fresh variable each time it is computed. Implicit checks other than
// division and shift counts (bounds, nil, assertions) add no condition,
// which only widens the set of executions a formula admits.
package mc

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/gocolic/gocolic/cfa"
	"github.com/gocolic/gocolic/sym"
	"golang.org/x/tools/go/ssa"
)

// HavocBase is the number of the first havoc variable. Parameters are the
// variables numbered by their position, so the two never meet.
const HavocBase = 1 << 32

// LenBase is the number of the first length variable: the length of
// slice or string parameter i is variable LenBase+i, between the
// parameters' and the havoc variables' numbers.
const LenBase = 1 << 31

// FieldBase is the number of the first field variable: field k of the
// fields a path's memory starts with (Encoder.fields) is variable
// FieldBase+k, above every havoc variable and below the state variables.
const FieldBase = 1 << 40

// maxFields bounds the field variables of one function: the fields past
// it are loaded as havoc, which only costs precision.
const maxFields = 32

// sizes gives int, uint and uintptr their width (cfa.Sizes).
var sizes = cfa.Sizes

// An Encoder builds path formulas of one function with one sym.Builder.
// It is not safe for concurrent use.
type Encoder struct {
	B  *sym.Builder
	Fn *ssa.Function
	// params[i] is the variable of parameter i, nil when it is not an
	// integer or a boolean.
	params []*sym.Expr
	// lens[i] is the variable of the length of parameter i, nil when it
	// is not a slice or a string.
	lens []*sym.Expr
	next uint64 // the next havoc variable
	// Inline bounds the expansion of static callees (inline.go); the
	// zero value expands none, as stage 1 did.
	Inline Inlining
	// memory says whether loads and stores are modelled (memory.go):
	// not in a package that imports unsafe.
	memory    bool
	inlinable map[*ssa.Function]bool
	// fields are the fields of pointer parameters that an edge's
	// formula reads from variables (paramField).
	fields []paramField
	// Counter, when set, says whether field i of a struct type is a
	// counter (cfa.Graph.Counter): never negative and far from wrapping,
	// which every path then assumes of the field's variable at its start
	// (Path.Assume).
	Counter func(st *types.Struct, i int) bool
}

// A paramField is an integer or boolean field of the struct a pointer
// parameter points to, or the length of a slice or string field: a
// variable of the abstraction's state, which the memory of every path
// holds at the field's address when the path starts (startFields), so
// that a load reads it, a store replaces it and whatever may write the
// field (memory.go) forgets it.
type paramField struct {
	param, field int
	length       bool
	typ          types.Type    // the field's underlying type
	st           *types.Struct // the struct it is a field of
	v            *sym.Expr
	counter      int8 // Encoder.Counter's answer: 0 not asked yet, 1 yes, -1 no
}

// NewEncoder returns an Encoder of fn's paths whose terms b makes.
func NewEncoder(b *sym.Builder, fn *ssa.Function) *Encoder {
	e := &Encoder{B: b, Fn: fn, next: HavocBase, memory: !importsUnsafe(fn)}
	for i, p := range fn.Params {
		if w, _, ok := scalar(p.Type()); ok {
			e.params = append(e.params, b.Var(uint64(i), w))
		} else {
			e.params = append(e.params, nil)
		}
		if hasLen(p.Type()) {
			e.lens = append(e.lens, b.Var(LenBase+uint64(i), intWidth()))
		} else {
			e.lens = append(e.lens, nil)
		}
		if e.memory {
			e.addFields(i, p.Type())
		}
	}
	return e
}

// addFields adds the field variables of parameter i of type t, when t
// points to a struct: its integer and boolean fields, and the lengths of
// its slice and string fields.
func (e *Encoder) addFields(i int, t types.Type) {
	ptr, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return
	}
	st, ok := ptr.Elem().Underlying().(*types.Struct)
	if !ok {
		return
	}
	for f := 0; f < st.NumFields() && len(e.fields) < maxFields; f++ {
		ft := st.Field(f).Type()
		pf := paramField{param: i, field: f, typ: ft.Underlying(), st: st}
		switch w, _, ok := scalar(ft); {
		case ok:
			pf.v = e.B.Var(FieldBase+uint64(len(e.fields)), w)
		case hasLen(ft):
			pf.length = true
			pf.v = e.B.Var(FieldBase+uint64(len(e.fields)), intWidth())
		default:
			continue
		}
		e.fields = append(e.fields, pf)
	}
}

// hasLen reports whether t is a slice or a string: a value whose length
// does not change, so that one variable stands for it along a path.
func hasLen(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return true
	case *types.Basic:
		return u.Info()&types.IsString != 0
	}
	return false
}

// intWidth is the width of int.
func intWidth() uint8 { return uint8(sizes.Sizeof(types.Typ[types.Int]) * 8) }

// ParamLen returns the variable of the length of parameter i, nil when
// it is not a slice or a string: len(p) of a parameter p is that one
// variable at every use, in the function and in the callees inlined
// with p as an argument.
func (e *Encoder) ParamLen(i int) *sym.Expr { return e.lens[i] }

// Param returns the variable of the function's parameter i (receiver
// first, as go/ssa numbers them): variable number i, at the parameter's
// width (0 for a boolean). It is nil for a parameter of another type,
// which the encoder treats as havoc wherever it is read. Relating it to
// an execution's inputs is the caller's: equate it with the value the
// input had.
func (e *Encoder) Param(i int) *sym.Expr { return e.params[i] }

// Bind makes v the term of parameter i, in place of variable number i:
// gocolic's input variable of that parameter (rt.Layout numbers them),
// so that the encoder's formulas and the runtime's terms speak of the same
// inputs. v must have the parameter's width. Paths started before Bind
// keep the old term.
func (e *Encoder) Bind(i int, v *sym.Expr) error {
	if e.params[i] == nil || v.Width != e.params[i].Width || v.IsBool() != e.params[i].IsBool() {
		return fmt.Errorf("mc: parameter %d of %s cannot be bound to %v", i, e.Fn, v)
	}
	e.params[i] = v
	return nil
}

// scalar reports whether t is an integer or boolean type the encoder
// follows, with its width (0 for bool) and signedness.
func scalar(t types.Type) (w uint8, signed, ok bool) {
	bt, isBasic := t.Underlying().(*types.Basic)
	if !isBasic {
		return 0, false, false
	}
	info := bt.Info()
	switch {
	case info&types.IsBoolean != 0:
		return 0, false, true
	case info&types.IsInteger != 0 && info&types.IsUntyped == 0:
		return uint8(sizes.Sizeof(bt) * 8), info&types.IsUnsigned == 0, true
	}
	return 0, false, false
}

// A Path is the formula of a path being built: Start, then Step to each
// next block, and Exit at a return.
type Path struct {
	enc    *Encoder
	Blocks []*ssa.BasicBlock
	// Conds are the conjuncts of the formula: the guards of the edges
	// taken and the conditions under which an instruction goes on instead
	// of panicking (a non-zero divisor, a non-negative signed shift
	// count). At[i] is the index in Blocks of the block whose edge or
	// instruction gave Conds[i].
	Conds []*sym.Expr
	At    []int
	// Assume are what the memory at the path's start meets whatever the
	// path: the range of counter fields (Encoder.Counter). They are no
	// edge's condition, so refinement never turns them into predicates.
	Assume []*sym.Expr
	// Havoc are the fresh variables the path made, in order.
	Havoc []*sym.Expr
	// Results are the terms of the returned values when the path ended
	// with Exit (nil for a result the encoder does not follow).
	Results []*sym.Expr

	done bool // the body of the last block is encoded
	// pre, when set, gives the term of a value the path has not defined
	// (nil for havoc): the abstraction's state variables (abstract.go).
	pre func(ssa.Value) *sym.Expr

	// Copies are the goal edges of the callees inlined at calls of the
	// path's own function, with the condition of taking each (inline.go).
	Copies []Copy

	encFrame                // the values of the function being encoded
	objs     map[objKey]int // addresses derived from others (memory.go)
	mem      map[int]cell   // the memory the path knows, by address
	nobj     int            // addresses numbered so far
	// fieldAt[k] is the address of the cell of the encoder's field k
	// (paramField), fieldEnd[k] its term at the path's end once asked
	// (fieldOut); none when memory is not modelled.
	fieldAt  []int
	fieldEnd map[int]*sym.Expr
}

// Start begins a path at block b, whose phis (with no edge to choose
// from) are havoc.
func (e *Encoder) Start(b *ssa.BasicBlock) (*Path, error) {
	return e.start(b, nil)
}

// start begins a path at block b whose values not yet defined (b's phis
// included) take their terms from pre, havoc where it gives none.
func (e *Encoder) start(b *ssa.BasicBlock, pre func(ssa.Value) *sym.Expr) (*Path, error) {
	if b.Parent() != e.Fn {
		return nil, fmt.Errorf("mc: block %d is not in %s", b.Index, e.Fn)
	}
	p := &Path{enc: e, Blocks: []*ssa.BasicBlock{b}, pre: pre,
		encFrame: encFrame{env: map[ssa.Value]*sym.Expr{}, stack: []*ssa.Function{e.Fn}}, objs: map[objKey]int{}, mem: map[int]cell{}}
	p.startFields()
	for _, in := range b.Instrs {
		if phi, ok := in.(*ssa.Phi); ok {
			p.Value(phi)
		}
	}
	return p, nil
}

// Encode returns the formula of the path through blocks, which arrives at
// the entry of the last block; if the last block returns, its body and
// results are encoded too (Exit).
func (e *Encoder) Encode(blocks []*ssa.BasicBlock) (*Path, error) {
	if len(blocks) == 0 {
		return nil, fmt.Errorf("mc: empty path in %s", e.Fn)
	}
	p, err := e.Start(blocks[0])
	if err != nil {
		return nil, err
	}
	for _, b := range blocks[1:] {
		if err := p.Step(b); err != nil {
			return nil, err
		}
	}
	if _, ok := p.last().Instrs[len(p.last().Instrs)-1].(*ssa.Return); ok {
		if err := p.Exit(); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// Edge returns the formula of the edge from b to c: b's definitions, the
// guard of the edge and c's phis for b.
func (e *Encoder) Edge(b, c *ssa.BasicBlock) (*Path, error) {
	p, err := e.Start(b)
	if err != nil {
		return nil, err
	}
	return p, p.Step(c)
}

// Formula returns the conjunction of the path's conditions and
// assumptions.
func (p *Path) Formula() *sym.Expr {
	f := p.enc.B.Bool(true)
	for _, cs := range [][]*sym.Expr{p.Conds, p.Assume} {
		for _, c := range cs {
			f = p.enc.B.And(f, c)
		}
	}
	return f
}

// Value returns the current term of v on the path: the term of its latest
// definition, a constant, a parameter's variable, or havoc for a value
// the path has not defined. It is nil when v is not an integer or a
// boolean.
func (p *Path) Value(v ssa.Value) *sym.Expr {
	if t, ok := p.env[v]; ok {
		return t
	}
	w, signed, ok := scalar(v.Type())
	if !ok {
		return nil
	}
	switch v := v.(type) {
	case *ssa.Const:
		return p.constant(v, w, signed)
	case *ssa.Parameter:
		for i, q := range p.enc.Fn.Params {
			if q == v {
				p.env[v] = p.enc.params[i]
				return p.enc.params[i]
			}
		}
	}
	if p.pre != nil {
		if t := p.pre(v); t != nil {
			p.env[v] = t
			return t
		}
	}
	// Defined before the path starts, a free variable or a global: one
	// unknown value, the same at every use until the path defines it.
	return p.havoc(v)
}

func (p *Path) constant(c *ssa.Const, w uint8, signed bool) *sym.Expr {
	b := p.enc.B
	if c.Value == nil { // the zero value
		if w == 0 {
			return b.Bool(false)
		}
		return b.Const(0, w)
	}
	if w == 0 {
		return b.Bool(constant.BoolVal(c.Value))
	}
	if signed {
		n, _ := constant.Int64Val(c.Value)
		return b.Const(uint64(n)&sym.Mask(w), w)
	}
	n, _ := constant.Uint64Val(c.Value)
	return b.Const(n, w)
}

// havoc gives v a fresh variable.
func (p *Path) havoc(v ssa.Value) *sym.Expr {
	w, _, ok := scalar(v.Type())
	if !ok {
		return nil
	}
	t := p.fresh(w)
	p.env[v] = t
	return t
}

func (p *Path) last() *ssa.BasicBlock { return p.Blocks[len(p.Blocks)-1] }

func (p *Path) cond(c *sym.Expr) {
	if c.Kind == sym.KTrue {
		return
	}
	if p.sink != nil { // in an inlined callee's block
		*p.sink = append(*p.sink, c)
		return
	}
	p.Conds = append(p.Conds, c)
	p.At = append(p.At, len(p.Blocks)-1)
}

// Branch encodes the body of the last block, if not yet done, and returns
// the term of the condition of its If, or nil when it ends otherwise.
func (p *Path) Branch() *sym.Expr {
	p.body()
	if i, ok := p.last().Instrs[len(p.last().Instrs)-1].(*ssa.If); ok {
		return p.Value(i.Cond)
	}
	return nil
}

// Step extends the path by c, a successor of its last block: the last
// block's body, the guard of the edge (the If's condition or its
// negation) and c's phis, assigned together from the values on the edge.
func (p *Path) Step(c *ssa.BasicBlock) error {
	b := p.last()
	succ := -1
	for i, s := range b.Succs {
		if s == c {
			succ = i
		}
	}
	if succ < 0 {
		return fmt.Errorf("mc: block %d of %s is not a successor of block %d", c.Index, p.enc.Fn, b.Index)
	}
	if cond := p.Branch(); cond != nil && b.Succs[0] != b.Succs[1] {
		if succ == 0 {
			p.cond(cond)
		} else {
			p.cond(p.enc.B.Not(cond))
		}
	}
	pred := -1
	for i, q := range c.Preds {
		if q == b {
			pred = i
		}
	}
	// Phis read the values before any of them is assigned.
	var phis []*ssa.Phi
	var terms []*sym.Expr
	for _, in := range c.Instrs {
		phi, ok := in.(*ssa.Phi)
		if !ok {
			break
		}
		phis = append(phis, phi)
		terms = append(terms, p.Value(phi.Edges[pred]))
	}
	p.Blocks = append(p.Blocks, c)
	p.done = false
	for i, phi := range phis {
		p.redefined(phi)
		if terms[i] == nil {
			p.havoc(phi)
		} else {
			p.env[phi] = terms[i]
		}
	}
	return nil
}

// Exit encodes the body of the last block, which must end with a
// return, and sets Results.
func (p *Path) Exit() error {
	ret, ok := p.last().Instrs[len(p.last().Instrs)-1].(*ssa.Return)
	if !ok {
		return fmt.Errorf("mc: block %d of %s does not return", p.last().Index, p.enc.Fn)
	}
	p.body()
	p.Results = nil
	for _, r := range ret.Results {
		p.Results = append(p.Results, p.Value(r))
	}
	return nil
}

// body encodes the definitions of the last block, once per visit.
func (p *Path) body() {
	if p.done {
		return
	}
	p.done = true
	p.instrs(p.last().Instrs)
}

// instrs encodes the definitions, stores and calls of ins, phis aside.
func (p *Path) instrs(ins []ssa.Instruction) {
	for _, in := range ins {
		switch in := in.(type) {
		case *ssa.Phi:
			continue
		case *ssa.Store:
			p.store(in)
			continue
		case *ssa.Call:
			p.call(in)
			continue
		case *ssa.Go, *ssa.Defer, *ssa.RunDefers, *ssa.Send, *ssa.Select:
			// Code that may run now or another goroutine that this
			// synchronises with may write any memory.
			p.clobber()
		case *ssa.UnOp:
			if in.Op == token.ARROW {
				p.clobber()
			}
		}
		v, ok := in.(ssa.Value)
		if !ok {
			continue
		}
		p.redefined(v)
		if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL && hasLen(u.Type()) {
			p.loadLen(u)
		}
		if _, _, ok := scalar(v.Type()); !ok {
			continue
		}
		if t := p.define(v); t != nil {
			p.env[v] = t
		} else {
			p.havoc(v)
		}
	}
}

// define returns the term of the definition v, or nil for havoc.
func (p *Path) define(v ssa.Value) *sym.Expr {
	b := p.enc.B
	switch v := v.(type) {
	case *ssa.BinOp:
		return p.binOp(v)
	case *ssa.UnOp:
		if v.Op == token.MUL {
			return p.load(v)
		}
		x := p.Value(v.X)
		if x == nil {
			return nil
		}
		switch {
		case v.Op == token.NOT && x.Width == 0:
			return b.Not(x)
		case v.Op == token.SUB && x.Width != 0:
			return b.Neg(x)
		case v.Op == token.XOR && x.Width != 0:
			return b.Cpl(x)
		}
	case *ssa.Convert:
		w, _, _ := scalar(v.Type())
		fw, fromSigned, ok := scalar(v.X.Type())
		if ok && fw != 0 && w != 0 {
			return b.Convert(p.Value(v.X), w, fromSigned)
		}
	case *ssa.ChangeType:
		return p.Value(v.X)
	case *ssa.Call:
		return p.minMax(v)
	case *ssa.Extract:
		if ts := p.tup[v.Tuple]; v.Index < len(ts) {
			return ts[v.Index]
		}
	}
	return nil
}

// minMax returns the term of the builtin min or max over integers, folded
// left to right and built as rt.Min and rt.Max build it; nil for any
// other call.
func (p *Path) minMax(c *ssa.Call) *sym.Expr {
	bi, ok := c.Call.Value.(*ssa.Builtin)
	if !ok || bi.Name() != "min" && bi.Name() != "max" {
		return nil
	}
	w, signed, _ := scalar(c.Type())
	if w == 0 {
		return nil
	}
	k := sym.KULt
	if signed {
		k = sym.KSLt
	}
	b := p.enc.B
	var acc *sym.Expr
	for _, a := range c.Call.Args {
		x := p.Value(a)
		switch {
		case x == nil:
			return nil
		case acc == nil:
			acc = x
		case bi.Name() == "min":
			acc = b.Ite(b.Cmp(k, x, acc), x, acc)
		default:
			acc = b.Ite(b.Cmp(k, acc, x), x, acc)
		}
	}
	return acc
}

// binOp returns the term of an integer or boolean operation, as the
// runtime's operator of the same name builds it (rt/ops.go).
func (p *Path) binOp(v *ssa.BinOp) *sym.Expr {
	b := p.enc.B
	x, y := p.Value(v.X), p.Value(v.Y)
	if x == nil || y == nil {
		return nil // strings, floats, pointers: havoc
	}
	_, signed, _ := scalar(v.X.Type())
	if x.Width == 0 || y.Width == 0 {
		switch {
		case x.Width != y.Width:
			return nil
		case v.Op == token.EQL:
			return b.Eq(x, y)
		case v.Op == token.NEQ:
			return b.Not(b.Eq(x, y))
		}
		return nil
	}
	pick := func(s, u sym.Kind) sym.Kind {
		if signed {
			return s
		}
		return u
	}
	switch v.Op {
	case token.ADD:
		return b.Bin(sym.KAdd, x, y)
	case token.SUB:
		return b.Bin(sym.KSub, x, y)
	case token.MUL:
		return b.Bin(sym.KMul, x, y)
	case token.AND:
		return b.Bin(sym.KAnd, x, y)
	case token.OR:
		return b.Bin(sym.KOr, x, y)
	case token.XOR:
		return b.Bin(sym.KXor, x, y)
	case token.AND_NOT:
		return b.Bin(sym.KAnd, x, b.Cpl(y))
	case token.QUO, token.REM:
		// Past the division, the divisor was not zero (else it panicked).
		p.cond(b.Not(b.Eq(y, b.Const(0, y.Width))))
		if v.Op == token.QUO {
			return b.Bin(pick(sym.KSDiv, sym.KUDiv), x, y)
		}
		return b.Bin(pick(sym.KSRem, sym.KURem), x, y)
	case token.SHL, token.SHR:
		// Past the shift, a signed count was not negative.
		if _, countSigned, _ := scalar(v.Y.Type()); countSigned {
			p.cond(b.Not(b.Cmp(sym.KSLt, y, b.Const(0, y.Width))))
		}
		if v.Op == token.SHL {
			return b.Shift(sym.KShl, x, y)
		}
		return b.Shift(pick(sym.KAShr, sym.KLShr), x, y)
	case token.EQL:
		return b.Eq(x, y)
	case token.NEQ:
		return b.Not(b.Eq(x, y))
	case token.LSS:
		return b.Cmp(pick(sym.KSLt, sym.KULt), x, y)
	case token.LEQ:
		return b.Cmp(pick(sym.KSLe, sym.KULe), x, y)
	case token.GTR:
		return b.Cmp(pick(sym.KSLt, sym.KULt), y, x)
	case token.GEQ:
		return b.Cmp(pick(sym.KSLe, sym.KULe), y, x)
	}
	return nil
}
