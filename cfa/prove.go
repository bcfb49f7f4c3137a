package cfa

// This file proves condition outcomes unreachable from a run's entry
// (stage 0 of the abstraction-driven search: the control-flow graph and
// the call graph alone, no values).
//
// The claim: an outcome is unreachable when its site is mapped and its
// function is not among the functions reached below, or when the syntax
// proves the site's code dead (dead.go). Both outcomes of a site go
// together: nothing here reads a condition.
//
// Why the reached functions are all that can run. An execution of the
// worker runs the package initialisers, then calls the entry; code of
// ours runs only when something calls it, and the callers we do not see
// are the danger: go/ssa builds bodies for our packages only, and CHA
// resolves no call from code it has no body for. So the walk starts from
// every function such a caller could reach and follows every way our
// code can start a function:
//
//   - The entry, the initialisers of every package (package variables'
//     initialisers run in them), and main in a main package.
//   - Every method with an exported name: the standard library and other
//     packages call them through interfaces of their own (fmt's String,
//     sort's Less, error's Error), reflection through Method and
//     MethodByName, and a type may be converted to an interface in code
//     we have no body for (an instance of a generic function of another
//     package), so which types reach an interface is unknown. A method
//     with an unexported name can be called through an interface only by
//     code of its own package (the name is qualified by it): that code is
//     ours, and an invoke of the method's name reaches every method of
//     that name (by types.Func.Id, which ignores the receiver's type and
//     so takes in whatever CHA's implements check would).
//   - Every function whose value our reached code makes: a function or
//     method named as an operand (a func value, a method value's bound
//     wrapper, a method expression's thunk, a closure, a goroutine, a
//     deferred call) is taken as called. Code we have no body for (a
//     callback of sort.Slice, a handler, a finaliser, reflect's Call, an
//     iterator's yield) can call only values it was given, and every such
//     value was made by reached code; package-level function values are
//     made by the initialisers. So dynamic calls of func values need no
//     edges of their own.
//   - In every package of the graph but the entry's, every exported
//     function: a package outside the graph (uninstrumented, of the same
//     build) may import it and call it. The entry's package is imported
//     only by the worker's entry (or, for an external fuzz test, by the
//     test package, which is then in the graph and open itself).
//   - Every function named by a //go:linkname directive, in our packages
//     or in any package of the import graph, and every function of a
//     package with assembly, cgo or other non-Go files (their code calls
//     ours by symbol).
//   - Synthetic functions (wrappers, instantiation wrappers of generic
//     functions) are walked like ours; one without a body stands for its
//     origin and for the declared function of its object.
//
// Panics, recover and defers add no start: a deferred call is a call
// instruction of a reached block, a recovered panic resumes in its
// function's Recover block, which returns to a caller already reached.
// go/ssa keeps only the blocks of a function that its entry or Recover
// block reaches, so a reached function's every block is taken as reached.
//
// What is never claimed: an unmapped site (its If is unknown), except a
// dead one; an implicit check or a standard package's site (not goals);
// anything when there is no entry or no graph (a build of go/ssa that
// failed costs the proof, not the run).

import (
	"go/token"
	"go/types"
	"strings"

	"github.com/gocolic/gocolic/sites"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
)

// Unreachable returns the condition outcomes of the graph's packages that
// no execution can take, by site, when executions start at the entries:
// the first is the function under test (or the fuzz target), whose
// package no code outside the graph imports; the others are more starts
// of that package (the functions a test binary's main calls). Nil when
// there is no entry or one is not a function of the graph.
func (g *Graph) Unreachable(entries ...*types.Func) []sites.Outcome {
	if len(entries) == 0 {
		return nil
	}
	var starts []*ssa.Function
	for _, e := range entries {
		f := g.fnOf(e)
		if f == nil {
			return nil
		}
		starts = append(starts, f)
	}
	reached := g.reach(starts, entries[0].Pkg())
	var out []sites.Outcome
	for _, id := range g.mapped {
		br := g.branches[id]
		if g.goal[id] && !reached[br.Func] {
			out = append(out, sites.OutcomeOf(id, false), sites.OutcomeOf(id, true))
		}
	}
	for _, u := range g.unmapped {
		if u.Dead && g.conds[u.Site] {
			out = append(out, sites.OutcomeOf(u.Site, false), sites.OutcomeOf(u.Site, true))
		}
	}
	return out
}

// fnOf returns the function of the graph that declares f, nil if none
// does.
func (g *Graph) fnOf(f *types.Func) *ssa.Function {
	if f == nil {
		return nil
	}
	for _, fn := range g.funcs {
		if fn.Object() == f {
			return fn
		}
	}
	return nil
}

// reach returns the functions that may run in an execution that starts
// at starts, whose package is closed (see the file's comment).
func (g *Graph) reach(starts []*ssa.Function, closed *types.Package) map[*ssa.Function]bool {
	ours := map[*ssa.Function]bool{}
	byObj := map[types.Object]*ssa.Function{}
	byID := map[string][]*ssa.Function{} // methods, by types.Func.Id
	for _, f := range g.funcs {
		ours[f] = true
		if obj, ok := f.Object().(*types.Func); ok {
			byObj[obj] = f
			if f.Signature.Recv() != nil {
				byID[obj.Id()] = append(byID[obj.Id()], f)
			}
		}
	}
	reached := map[*ssa.Function]bool{}
	var work []*ssa.Function
	push := func(f *ssa.Function) {
		if f != nil && !reached[f] {
			reached[f] = true
			work = append(work, f)
		}
	}
	for _, f := range starts {
		push(f)
	}
	for _, f := range g.roots(closed) {
		push(f)
	}
	var ops []*ssa.Value
	for len(work) > 0 {
		f := work[len(work)-1]
		work = work[:len(work)-1]
		if len(f.Blocks) == 0 {
			// A function without a body: another package's (it calls
			// ours only through values and exported methods), or a
			// synthetic one standing for what it wraps.
			push(f.Origin())
			if obj, ok := f.Object().(*types.Func); ok {
				push(byObj[obj])
			}
			continue
		}
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if c, ok := in.(ssa.CallInstruction); ok && c.Common().IsInvoke() {
					for _, m := range byID[c.Common().Method.Id()] {
						push(m)
					}
				}
				for _, op := range in.Operands(ops[:0]) {
					if fn, ok := (*op).(*ssa.Function); ok {
						push(fn)
					}
				}
			}
		}
	}
	return reached
}

// roots returns the functions that code we see no body of may start
// (the file's comment): initialisers, main, methods with exported names,
// the exported functions of packages other than closed, functions named
// by //go:linkname, and all functions of packages with non-Go files.
func (g *Graph) roots(closed *types.Package) []*ssa.Function {
	var out []*ssa.Function
	open := map[*types.Package]bool{} // every function is a root
	for i, p := range g.pkgs {
		sp := g.ssaPkgs[i]
		if sp == nil {
			continue
		}
		if init, ok := sp.Members["init"].(*ssa.Function); ok {
			out = append(out, init)
		}
		if m, ok := sp.Members["main"].(*ssa.Function); ok && p.Name == "main" {
			out = append(out, m)
		}
		if len(p.OtherFiles) > 0 || usesCgo(p) {
			open[p.Types] = true
		}
	}
	linked, whole := g.linknamed()
	for _, f := range g.funcs {
		obj, _ := f.Object().(*types.Func)
		switch {
		case f.Pkg != nil && (open[f.Pkg.Pkg] || whole[f.Pkg.Pkg.Path()]):
		case obj == nil:
			continue // a literal: reached through the closure that makes it
		case linked[obj.Pkg().Path()+"."+obj.Name()] && f.Signature.Recv() == nil:
		case !token.IsExported(obj.Name()):
			continue
		case f.Signature.Recv() != nil:
		case obj.Pkg() != closed:
		default:
			continue
		}
		out = append(out, f)
	}
	return out
}

// usesCgo reports whether a file of p imports "C".
func usesCgo(p *packages.Package) bool {
	for _, f := range p.Syntax {
		for _, im := range f.Imports {
			if im.Path.Value == `"C"` {
				return true
			}
		}
	}
	return false
}

// linknamed returns the functions that //go:linkname directives name,
// in the graph's packages and in every package they import: the local
// name of a directive in a package of the graph, and the symbol a
// directive names, each as path.name. A symbol of a graph package that
// is not a plain name (a method's, path.(*T).m) puts the whole package in
// whole: every function of it is a root.
func (g *Graph) linknamed() (names, whole map[string]bool) {
	names, whole = map[string]bool{}, map[string]bool{}
	ours := map[string]bool{}
	for _, p := range g.pkgs {
		ours[p.PkgPath] = true
	}
	packages.Visit(g.pkgs, nil, func(p *packages.Package) {
		for _, f := range p.Syntax {
			for _, cg := range f.Comments {
				for _, c := range cg.List {
					rest, ok := strings.CutPrefix(c.Text, "//go:linkname ")
					if !ok {
						continue
					}
					fields := strings.Fields(rest)
					if len(fields) > 0 && ours[p.PkgPath] {
						names[p.PkgPath+"."+fields[0]] = true
					}
					if len(fields) < 2 {
						continue
					}
					sym := fields[1]
					names[sym] = true
					// The path is what comes before the first dot after
					// the last slash.
					slash := strings.LastIndex(sym, "/") + 1
					dot := strings.Index(sym[slash:], ".")
					if dot < 0 {
						continue
					}
					path, name := sym[:slash+dot], sym[slash+dot+1:]
					if ours[path] && !token.IsIdentifier(name) {
						whole[path] = true
					}
				}
			}
		}
	})
	return names, whole
}

// StaticCalls returns the call instructions of the graph's functions that
// call f statically, and ok true when those calls are the only way f can
// start: f is a declared function or method without type parameters (of
// its own or its receiver's), not a root of any run (an exported function
// or method, an initialiser, a linknamed one, one of a package with non-Go
// files: see roots), and no instruction names it other than as the callee
// of a static call (a function value, a go or defer statement, a closure,
// a method value's or method expression's wrapper). A method must also be
// out of reach of dynamic calls (methodEscapes). When ok is false the
// calls are nil: what holds at every call site need not hold for f.
func (g *Graph) StaticCalls(f *ssa.Function) (calls []*ssa.Call, ok bool) {
	obj, _ := f.Object().(*types.Func)
	if obj == nil || f.TypeParams() != nil || f.Origin() != nil || f.Synthetic != "" {
		return nil, false
	}
	g.callsOnce.Do(g.indexCalls)
	if g.escapes[f] || g.named[obj] {
		return nil, false
	}
	if recv := f.Signature.Recv(); recv != nil && g.methodEscapes(obj, recv.Type()) {
		return nil, false
	}
	return g.calls[f], true
}

// methodEscapes reports whether the method m, whose receiver has type
// recv, may start other than through a static call. Its name is not
// exported (exported methods are roots), so only code of its own package,
// which the graph holds, can name it: through an interface of that
// package (an invoke of a method with m's Id) or a wrapper (named, see
// indexCalls); reflection calls only exported methods. Conservatively, a
// conversion of the receiver's type (value or pointer, or any type that
// holds it: reflection reaches fields) to any interface also counts, and
// so does a receiver type that is generic or of a package importing
// reflect.
func (g *Graph) methodEscapes(m *types.Func, recv types.Type) bool {
	if p, ok := recv.(*types.Pointer); ok {
		recv = p.Elem()
	}
	named, ok := recv.(*types.Named)
	if !ok || named.TypeParams().Len() > 0 || named.TypeArgs().Len() > 0 {
		return true
	}
	if g.invoked[m.Id()] || g.boxed[named.Obj()] {
		return true
	}
	for _, p := range g.pkgs {
		if p.Types == m.Pkg() {
			_, refl := p.Imports["reflect"]
			return refl
		}
	}
	return true // not a package of the graph: its code is not all seen
}

// indexCalls finds, once, the static calls of each function and the
// functions that may start otherwise (StaticCalls): those named as values,
// the methods a wrapper names (g.named), the method Ids interfaces invoke
// (g.invoked) and the named types that may reach an interface (g.boxed:
// converted, or given as a type argument to a function that may convert).
func (g *Graph) indexCalls() {
	g.calls, g.escapes = map[*ssa.Function][]*ssa.Call{}, map[*ssa.Function]bool{}
	g.named, g.invoked, g.boxed = map[types.Object]bool{}, map[string]bool{}, map[types.Object]bool{}
	for _, r := range g.roots(nil) {
		g.escapes[r] = true
	}
	var ops []*ssa.Value
	for _, fn := range g.funcs {
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				switch in := in.(type) {
				case *ssa.DebugRef:
					continue // names, does not run
				case *ssa.MakeInterface:
					g.box(in.X.Type())
				case ssa.CallInstruction:
					if in.Common().IsInvoke() {
						g.invoked[in.Common().Method.Id()] = true
					}
				}
				c, isCall := in.(*ssa.Call)
				for _, op := range in.Operands(ops[:0]) {
					f, ok := (*op).(*ssa.Function)
					if !ok {
						continue
					}
					if f.Synthetic != "" && f.Object() != nil {
						// A wrapper (bound method, thunk, instance)
						// starts what it wraps.
						g.named[f.Object()] = true
					}
					for _, t := range f.TypeArgs() {
						g.box(t)
					}
					if isCall && !c.Call.IsInvoke() && op == &c.Call.Value {
						g.calls[f] = append(g.calls[f], c)
					} else {
						g.escapes[f] = true // f as a value: it may start anywhere
					}
				}
			}
		}
	}
}

// box marks the named types that a value of type t holds or points to as
// possibly in an interface: reflection on the interface reaches them.
func (g *Graph) box(t types.Type) {
	seen := map[types.Type]bool{}
	var walk func(t types.Type)
	walk = func(t types.Type) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		switch t := t.(type) {
		case *types.Named:
			g.boxed[t.Origin().Obj()] = true
			for i := range t.TypeArgs().Len() {
				walk(t.TypeArgs().At(i))
			}
			walk(t.Underlying())
		case *types.Alias:
			walk(types.Unalias(t))
		case *types.Pointer:
			walk(t.Elem())
		case *types.Slice:
			walk(t.Elem())
		case *types.Array:
			walk(t.Elem())
		case *types.Chan:
			walk(t.Elem())
		case *types.Map:
			walk(t.Key())
			walk(t.Elem())
		case *types.Struct:
			for i := range t.NumFields() {
				walk(t.Field(i).Type())
			}
		case *types.Tuple:
			for i := range t.Len() {
				walk(t.At(i).Type())
			}
		case *types.Signature:
			walk(t.Params())
			walk(t.Results())
		case *types.TypeParam:
			// Its instances are boxed where they are made (type
			// arguments); the constraint bounds nothing here.
		}
	}
	walk(t)
}
