// This file rewrites calls of functions that are not instrumented into
// opaque calls (rt.Opaque1..3): the call runs as written, and the runtime
// may shadow its result with a sym.KCall term over the arguments, which
// the concolic walk evaluates by calling the function again. Which calls
// qualify is decided here, statically; whether a term is made is the
// runtime's choice (-solver z3 makes none).

package instrument

import (
	"fmt"
	"go/ast"
	"go/types"
	"sort"
	"strings"

	"github.com/gocolic/gocolic/sites"
	"github.com/gocolic/gocolic/sym"
)

// impurePackages are standard-library packages whose functions touch the
// world (files, clocks, randomness, the runtime) or shared state. Calling
// them again in an evaluator would repeat the effect or see another
// world, so their calls stay concrete. Prefix matches cover subpackages.
var impurePackages = []string{
	"bufio", "context", "crypto/rand", "database", "debug", "embed", "expvar",
	"flag", "fmt", "io", "iter", "log", "math/rand", "net", "os", "os/exec",
	"plugin", "reflect", "runtime", "sync", "syscall", "testing", "time",
	"unsafe", "weak",
}

// isImpure reports whether calls of fn must stay concrete: its package is
// one of impurePackages or of Config.Impure, or fn itself is listed there.
func (ins *instrumenter) isImpure(fn *types.Func) bool {
	path := fn.Pkg().Path()
	under := func(p string) bool { return path == p || strings.HasPrefix(path, p+"/") }
	for _, p := range impurePackages {
		if under(p) {
			return true
		}
	}
	for _, p := range ins.cfg.Impure {
		if under(p) || p == fn.FullName() {
			return true
		}
	}
	return false
}

// opaqueCall rewrites x, a call of a package-level function of another,
// uninstrumented package, into an opaque call. It reports false when x
// does not qualify: a method, a function value, a generic or variadic
// function, more than three parameters, a parameter of a type the runtime
// does not track (or an argument of another type), a result that is not a
// single number or boolean, or an impure function.
func (ins *instrumenter) opaqueCall(x *ast.CallExpr) (ast.Expr, bool) {
	fn := ins.calledPackageFunc(x)
	if fn == nil {
		return nil, false
	}
	sig := fn.Type().(*types.Signature)
	n := sig.Params().Len()
	if sig.Variadic() || sig.TypeParams().Len() > 0 || n == 0 || n > 3 || len(x.Args) != n ||
		sig.Results().Len() != 1 || ins.isImpure(fn) {
		return nil, false
	}
	switch trackOf(sig.Results().At(0).Type()) {
	case trackInt, trackFloat, trackBool:
	default:
		return nil, false
	}
	args := make([]ast.Expr, 0, n+2)
	for i, a := range x.Args {
		pt := sig.Params().At(i).Type()
		if trackOf(pt) == notTracked {
			return nil, false
		}
		if ins.isConst(a) {
			te, ok := ins.typeExpr(pt)
			if !ok {
				return nil, false
			}
			args = append(args, call(rtInst(rtMk, te), a, nilIdent()))
			continue
		}
		if !types.Identical(ins.typeOf(a), pt) {
			return nil, false
		}
		va, ok := ins.v(a)
		if !ok {
			return nil, false
		}
		args = append(args, va)
	}
	if ins.opaque == nil {
		ins.opaque = make(map[string]*types.Func)
	}
	ins.opaque[fn.FullName()] = fn
	id := &ast.BasicLit{Value: fmt.Sprintf("%#x", sym.FuncID(fn.FullName()))}
	site := siteLit(ins.newSite(sites.Concrete, x))
	return rtCall(rtOpaqueN[n], append([]ast.Expr{site, id, x.Fun}, args...)...), true
}

// calledPackageFunc returns the function x calls when x.Fun is a qualified
// identifier (pkg.F) naming a function of another package.
func (ins *instrumenter) calledPackageFunc(x *ast.CallExpr) *types.Func {
	sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return nil
	}
	if _, isPkg := ins.info.Uses[id].(*types.PkgName); !isPkg {
		return nil
	}
	fn, ok := ins.info.Uses[sel.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg() == ins.pkg.Types {
		return nil
	}
	return fn
}

// opaqueRegistrations returns the statements that register the functions
// of the package's opaque calls with the runtime, adding their packages to
// imports (path -> name).
func (ins *instrumenter) opaqueRegistrations(imports map[string]string) []ast.Stmt {
	names := make([]string, 0, len(ins.opaque))
	for name := range ins.opaque {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []ast.Stmt
	for _, name := range names {
		fn := ins.opaque[name]
		pkg := importName(imports, fn.Pkg().Path())
		reg := rtFuncN[fn.Type().(*types.Signature).Params().Len()]
		out = append(out, &ast.ExprStmt{X: rtCall(reg, strLit(name), field(ast.NewIdent(pkg), fn.Name()))})
	}
	return out
}

// importName returns the name under which the entry file imports path,
// adding it to imports if needed.
func importName(imports map[string]string, path string) string {
	if n, ok := imports[path]; ok {
		return n
	}
	n := fmt.Sprintf("%s%d", importPrefix, len(imports))
	imports[path] = n
	return n
}
