// Package instrument rewrites the source of a Go package so that, compiled,
// it tracks symbolic values as it runs (seed 004 §3: instrumentation).
//
// The rewrite works on the typed syntax tree and prints the result with
// //line directives, so compiler messages and stack traces keep pointing at
// the user's files; the user's files themselves are never written: the
// rewritten sources go into a build overlay.
//
// The scheme, in short (see ARCHITECTURE.md for the why):
//
//   - Every variable of a tracked type (integers, bool, string, []byte) whose
//     every assignment the rewriter understands and whose address is never
//     taken gets a shadow variable holding its symbolic term.
//   - Expressions of tracked types are evaluated as rt.V pairs (concrete
//     value, shadow) by generic runtime operators; the concrete half is the
//     original operator's result.
//   - Every function with tracked parameters or results gets a twin that
//     takes V parameters and returns shadow results after the ordinary
//     ones; calls inside the package call the twin, while the original
//     function becomes a thin wrapper, so function values, interfaces and
//     callers outside the package keep working.
//   - Conditions become rt.Br calls with a branch-site number; && and ||
//     operands are sites of their own. Divisions, indexing and slicing
//     record their implicit panic checks.
package instrument

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sites"
	"golang.org/x/tools/go/packages"
)

// Config controls a rewrite.
type Config struct {
	// RuntimePath is the import path under which the runtime package (rt)
	// is available in the overlay.
	RuntimePath string
	// Entry names the function under test.
	Entry string
	// FuzzTarget, instead of Entry, names a native fuzz target
	// func FuzzXxx(f *testing.F): the function given to f.Fuzz becomes the
	// entry. The package must have been loaded with its tests.
	FuzzTarget string
	// Support, instead of Entry or FuzzTarget, rewrites a package that
	// another instrumented package of the same build calls (the package
	// under test of an external test package): its exported functions'
	// twins get exported names, listed in Result.Exports, and the entry file
	// file only declares the shadows of its package-level variables.
	Support bool
	// SiteBase is the number of the first branch site, so that the sites
	// of several packages in one build do not collide.
	SiteBase uint32
	// Imported are the twins of other instrumented packages of the same
	// build (their Result.Exports, joined with Exports.Merge), which calls
	// from this package use.
	Imported Exports
	// Impure lists packages (import paths, covering their subpackages) and
	// functions (path.Func) whose calls must never become opaque terms,
	// beyond the standard packages that touch the world (call_opaque.go).
	Impure []string
	// MaxElems bounds the length of slice, map and variadic inputs;
	// zero means DefaultMaxElems.
	MaxElems int
	// Markers gives every rewritten function body an entry site
	// (sites.Func) and starts it with rt.Enter and a deferred rt.Leave,
	// so that a traced execution (rt.Request.Trace) tells the calls
	// apart; the model checker's monitors need them (-abstraction).
	// Without it the build pays nothing for them.
	Markers bool
}

// Exports are the twins a Support rewrite makes callable from other
// packages.
type Exports struct{ twins map[*types.Func]*twinInfo }

// Merge returns the twins of e and of o together, for a package that
// calls into several instrumented packages. Neither is changed.
func (e Exports) Merge(o Exports) Exports {
	m := make(map[*types.Func]*twinInfo, len(e.twins)+len(o.twins))
	for fn, t := range e.twins {
		m[fn] = t
	}
	for fn, t := range o.twins {
		m[fn] = t
	}
	return Exports{twins: m}
}

// Without returns e without the twins of the functions drop reports: the
// methods a copy of a standard package leaves to the original's type
// (build.AsCopy), which other packages must then call as they are.
// e is not changed.
func (e Exports) Without(drop func(*types.Func) bool) Exports {
	m := make(map[*types.Func]*twinInfo, len(e.twins))
	for fn, t := range e.twins {
		if !drop(fn) {
			m[fn] = t
		}
	}
	return Exports{twins: m}
}

// Param describes a parameter of the entry function.
type Param struct {
	Name string
	// Type is the parameter's type; []T for a variadic parameter.
	Type types.Type
	// Variadic says the parameter is the final ...T one.
	Variadic bool
	// Shape, for a parameter that is not a scalar, a string or a []byte,
	// says how its value is assembled from RTParams; nil otherwise, when
	// the parameter is the one RTParams element of its position.
	Shape *Shape
	// Leaf is the RTParams index of a parameter without a Shape.
	Leaf int
}

// Result is the outcome of a rewrite.
type Result struct {
	// Files maps each rewritten file's absolute path to its new content.
	Files map[string][]byte
	// EntrySource is the generated file that registers the entry function with
	// the runtime; EntryPath is where it goes in the overlay.
	EntrySource []byte
	EntryPath   string
	// Extra are the other files the package gets in the overlay, by
	// absolute path: the goroutine identity for the runtime (GFile).
	Extra  map[string][]byte
	Sites  []sites.Site
	Params []Param
	// RTParams are the parameters as the runtime's input layout sees them:
	// one per scalar, string or []byte parameter, and one per leaf (or
	// length, or pointer choice) of a composite one.
	RTParams []rt.Param
	// Func is the entry function, or the fuzz target FuzzXxx; nil for a
	// Support rewrite.
	Func *types.Func
	// Recv is the receiver when the entry is a method.
	Recv *Param
	// Method is the entry's name when it is a method (Recv is set).
	Method string
	// Results are the entry's result types.
	Results []types.Type
	// Pinnable says which results a generated test can compare.
	Pinnable []bool
	// ResultIsError says which results are of type error.
	ResultIsError []bool
	// Exports are the twins other packages may call (Config.Support).
	Exports Exports
	// Seeds are the fuzz target's f.Add calls, in source order, each with
	// its arguments' values or why they cannot be read.
	Seeds []Seed
	// Opaque are the qualified names of the functions whose calls may
	// become opaque terms (call_opaque.go), sorted.
	Opaque []string
	// Consts are the package's constants, for the mutation lane's
	// dictionary (consts.go).
	Consts Consts
}

// Added returns the files the rewrite adds to the package, by absolute
// path: the entry file and Extra.
func (r *Result) Added() map[string][]byte {
	m := map[string][]byte{r.EntryPath: r.EntrySource}
	for p, src := range r.Extra {
		m[p] = src
	}
	return m
}

// Package rewrites pkg, which must have been loaded with syntax and types.
func Package(pkg *packages.Package, cfg Config) (*Result, error) {
	if len(pkg.Errors) > 0 {
		return nil, fmt.Errorf("package %s has errors: %v", pkg.PkgPath, pkg.Errors[0])
	}
	for _, f := range pkg.CompiledGoFiles {
		if !strings.HasSuffix(f, ".go") || strings.Contains(f, "go-build") {
			return nil, fmt.Errorf("package %s uses cgo, which gocolic does not support", pkg.PkgPath)
		}
	}
	ins := &instrumenter{
		pkg:      pkg,
		info:     pkg.TypesInfo,
		fset:     pkg.Fset,
		cfg:      cfg,
		shadow:   make(map[types.Object]bool),
		twins:    make(map[*types.Func]*twinInfo),
		noTwin:   make(map[types.Object]bool),
		litTwins: make(map[*ast.FuncLit]*twinInfo),
		varTwins: make(map[types.Object]*twinInfo),
		objName:  make(map[types.Object]string),
	}
	var entry *types.Func
	var err error
	switch {
	case cfg.Support:
	case cfg.FuzzTarget != "":
		err = ins.findFuzz(cfg.FuzzTarget)
	default:
		entry, err = ins.findEntry(cfg.Entry)
	}
	if err != nil {
		return nil, err
	}
	ins.analyse()
	res := &Result{Files: make(map[string][]byte)}
	for i, f := range pkg.Syntax {
		path := pkg.CompiledGoFiles[i]
		src, err := ins.rewriteFile(f)
		if err != nil {
			return nil, fmt.Errorf("instrumenting %s: %w", path, err)
		}
		res.Files[path] = src
	}
	switch {
	case cfg.Support:
		err = ins.supportEntryFile(res)
	case ins.fuzz != nil:
		err = ins.fuzzEntryFile(res)
	default:
		err = ins.entryFile(entry, res)
	}
	if err != nil {
		return nil, err
	}
	res.Sites = ins.sites
	res.Func = entry
	if ins.fuzz != nil {
		res.Func, _ = ins.info.Defs[ins.fuzz.decl.Name].(*types.Func)
	}
	res.Consts = collectConsts(pkg)
	for name := range ins.opaque {
		res.Opaque = append(res.Opaque, name)
	}
	sort.Strings(res.Opaque)
	sort.Slice(res.Sites, func(i, j int) bool { return res.Sites[i].ID < res.Sites[j].ID })
	return res, nil
}

// instrumenter holds the state of one package's rewrite.
type instrumenter struct {
	pkg   *packages.Package
	info  *types.Info
	fset  *token.FileSet
	cfg   Config
	sites []sites.Site

	// shadow marks the variables that get a shadow.
	shadow map[types.Object]bool
	// twins maps each function or method with a twin to its description.
	twins  map[*types.Func]*twinInfo
	noTwin map[types.Object]bool
	// litTwins are the twins of function literals; varTwins the twins
	// that local function variables are bound to (closure.go).
	litTwins map[*ast.FuncLit]*twinInfo
	varTwins map[types.Object]*twinInfo
	// objName caches generated shadow names.
	objName map[types.Object]string

	// fuzz is the fuzz target, when instrumenting one.
	fuzz *fuzzTarget
	// opaque are the functions of opaque calls, by qualified name.
	opaque map[string]*types.Func
	// modelTwins describes the library models called so far (models.go).
	modelTwins map[*types.Func]*twinInfo
	// locals are the names declared inside functions (localNames), and
	// typeAliases the type names the rewrite refers to by an alias
	// because one of them may hide the type (topLevelName).
	locals      map[string]bool
	typeAliases map[string]bool

	// per-file state
	file    *ast.File
	imports map[string]string // import path -> name in file
	// typeImports are the packages the file imports again, under names
	// of the rewrite, to name their types (typeImport): import path ->
	// that name and a type of the package, which keeps the import used.
	typeImports map[string][2]string
	tmp         int
	// keepUsed are the pkg.Name expressions of modelled calls, which the
	// file declares "var _ =" so that their imports stay used.
	keepUsed map[string]bool
	fn       *funcCtx // innermost function being rewritten
	fnName   string
}

// funcCtx describes the function whose body is being rewritten.
type funcCtx struct {
	twin    *twinInfo      // nil unless rewriting a twin's body
	results *ast.FieldList // the function's results, for a bare return's named ones
	parent  *funcCtx
	// own is the variable that holds rt.Owner() for the body's branches,
	// made by the first branch (branchCall); nil while the body has none.
	own *ast.Ident
	// init marks package-level initialisers, which have no body to
	// declare own in: their branches ask the runtime each time.
	init bool
}

// branchCall returns the call that records the branch site on the value
// ve: rt.BrOwn with the function's own, or rt.Br outside a function body.
func (ins *instrumenter) branchCall(site uint32, ve ast.Expr) ast.Expr {
	f := ins.fn
	if f == nil || f.init {
		return rtCall(rtBr, siteLit(site), ve)
	}
	if f.own == nil {
		f.own = ins.newTemp("own")
	}
	return rtCall(rtBrOwn, ast.NewIdent(f.own.Name), siteLit(site), ve)
}

// withOwn returns body with the declaration of f's own first, when a
// branch of the body made it. It goes before everything, so that no goto
// jumps over it.
func withOwn(f *funcCtx, body *ast.BlockStmt) *ast.BlockStmt {
	if f.own != nil {
		decl := &ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent(f.own.Name)}, Tok: token.DEFINE, Rhs: []ast.Expr{rtCall(rtOwner)}}
		body.List = append([]ast.Stmt{decl}, body.List...)
	}
	return body
}

// newSite allocates a branch site for the node n.
func (ins *instrumenter) newSite(kind sites.Kind, n ast.Node) uint32 {
	id := ins.cfg.SiteBase + uint32(len(ins.sites))
	if kind == sites.Cond && strings.HasSuffix(ins.fset.Position(n.Pos()).Filename, "_test.go") {
		kind = sites.Test
	}
	text := types.ExprString(exprOf(n))
	if len(text) > 60 {
		text = text[:57] + "..."
	}
	ins.sites = append(ins.sites, sites.Site{
		ID:   id,
		Kind: kind,
		Pos:  ins.fset.Position(n.Pos()),
		End:  ins.fset.Position(n.End()),
		Func: ins.fnName,
		Text: text,
	})
	return id
}

func exprOf(n ast.Node) ast.Expr {
	if e, ok := n.(ast.Expr); ok {
		return e
	}
	return &ast.BadExpr{}
}

// findEntry resolves the entry function, or the method Type.Method, and
// checks its signature.
func (ins *instrumenter) findEntry(name string) (*types.Func, error) {
	scope := ins.pkg.Types.Scope()
	fn, err := ins.lookupEntry(name)
	if err != nil {
		return nil, err
	}
	if fn == nil {
		var names []string
		for _, n := range scope.Names() {
			if f, ok := scope.Lookup(n).(*types.Func); ok && f.Name() != "init" && f.Name() != "main" {
				names = append(names, n)
			}
		}
		if len(names) == 0 {
			return nil, fmt.Errorf("package %s has no function %s, nor any other function", ins.pkg.PkgPath, name)
		}
		return nil, fmt.Errorf("package %s has no function %s; functions: %s", ins.pkg.PkgPath, name, strings.Join(names, ", "))
	}
	sig := fn.Type().(*types.Signature)
	if sig.TypeParams().Len() > 0 || sig.RecvTypeParams().Len() > 0 {
		// An instance (Max[int]) would need the instantiation in the
		// entry file, the generated tests and the report; a non-generic
		// function that calls it tests the same code, tracked.
		return nil, fmt.Errorf("function %s is generic; gocolic tests only non-generic functions (test a function that calls an instance of it)", name)
	}
	qual := types.RelativeTo(ins.pkg.Types)
	if r := sig.Recv(); r != nil {
		if why := ins.unsupported(r.Type()); why != "" {
			return nil, fmt.Errorf("receiver of %s has type %s: %s", name, types.TypeString(r.Type(), qual), why)
		}
	}
	for i := 0; i < sig.Params().Len(); i++ {
		p := sig.Params().At(i)
		pname := p.Name()
		if pname == "" || pname == "_" {
			pname = fmt.Sprintf("#%d", i+1)
		}
		if why := ins.unsupported(p.Type()); why != "" {
			return nil, fmt.Errorf("parameter %s of %s has type %s: %s", pname, name, types.TypeString(p.Type(), qual), why)
		}
	}
	return fn, nil
}

// lookupEntry finds the function name, or the method Type.Method (also
// written (*Type).Method); nil when there is none.
func (ins *instrumenter) lookupEntry(name string) (*types.Func, error) {
	scope := ins.pkg.Types.Scope()
	tname, mname, isMethod := strings.Cut(name, ".")
	if !isMethod {
		fn, _ := scope.Lookup(name).(*types.Func)
		return fn, nil
	}
	tname = strings.TrimSuffix(strings.TrimPrefix(tname, "(*"), ")")
	tn, ok := scope.Lookup(tname).(*types.TypeName)
	if !ok {
		return nil, fmt.Errorf("package %s has no type %s", ins.pkg.PkgPath, tname)
	}
	if types.IsInterface(tn.Type()) {
		return nil, fmt.Errorf("%s is an interface method; gocolic tests methods with a body", name)
	}
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(tn.Type()), false, ins.pkg.Types, mname)
	fn, ok := obj.(*types.Func)
	if !ok {
		var names []string
		ms := types.NewMethodSet(types.NewPointer(tn.Type()))
		for i := 0; i < ms.Len(); i++ {
			names = append(names, ms.At(i).Obj().Name())
		}
		if len(names) == 0 {
			return nil, fmt.Errorf("type %s has no method %s, nor any other method", tname, mname)
		}
		return nil, fmt.Errorf("type %s has no method %s; methods: %s", tname, mname, strings.Join(names, ", "))
	}
	if types.IsInterface(fn.Type().(*types.Signature).Recv().Type()) {
		return nil, fmt.Errorf("method %s of %s comes from an embedded interface; gocolic tests methods with a body", mname, tname)
	}
	if fn.Pkg() != ins.pkg.Types {
		return nil, fmt.Errorf("method %s of %s is promoted from another package; test it there", mname, tname)
	}
	return fn, nil
}
