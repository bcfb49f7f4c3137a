package harness

import (
	"github.com/gocolic/gocolic/corpus"

	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Param is a parameter of the target function, with its type as written.
type Param struct {
	Name string
	Type string
}

// Example is one example package as the benchmarks see it.
type Example struct {
	Name    string   // directory name under examples/
	Dir     string   // directory of the copy in the workspace
	Package string   // package name
	Fuzz    string   // native fuzz target, Fuzz<Name>
	Func    string   // the function the fuzz target calls
	Params  []Param  // Func's parameters
	Results []string // Func's result types
	Planted []string // planted-bug markers
	// Seeds are the f.Add calls of the fuzz target, as corpus values
	// (nil with SeedErr set if one could not be evaluated).
	Seeds   [][]corpus.Value
	SeedErr error
}

// LoadExample reads the example name of the workspace: the fuzz target
// Fuzz<Name> in its test files, the exported function of the package that
// the fuzz function calls, that function's signature, the seeds of the
// fuzz target and the planted-bug markers.
func (w *Workspace) LoadExample(name string) (*Example, error) {
	ex := &Example{Name: name, Dir: filepath.Join(w.Module, name)}
	ex.Fuzz = "Fuzz" + upperFirst(name)
	fset := token.NewFileSet()
	funcs := map[string]*ast.FuncDecl{}
	srcs, err := goFiles(ex.Dir, false)
	if err != nil {
		return nil, err
	}
	for _, p := range srcs {
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		ex.Package = f.Name.Name
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
				funcs[fd.Name.Name] = fd
			}
		}
	}
	tests, err := goFiles(ex.Dir, true)
	if err != nil {
		return nil, fmt.Errorf("example %s: %w", name, err)
	}
	var fuzz *ast.FuncDecl
	for _, p := range tests {
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == ex.Fuzz {
				fuzz = fd
			}
		}
	}
	if fuzz == nil {
		return nil, fmt.Errorf("example %s: no fuzz target %s in its test files", name, ex.Fuzz)
	}
	lit, fparams, adds := fuzzParts(fuzz)
	if lit == nil {
		return nil, fmt.Errorf("example %s: %s has no f.Fuzz(func(t *testing.T, ...) {...}) call", name, ex.Fuzz)
	}
	// The target is the first package-level, exported function the fuzz
	// function calls.
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if ex.Func != "" {
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && funcs[id.Name] != nil && ast.IsExported(id.Name) {
				ex.Func = id.Name
			}
		}
		return true
	})
	if ex.Func == "" {
		return nil, fmt.Errorf("example %s: the fuzz function of %s calls no exported function of the package", name, ex.Fuzz)
	}
	fd := funcs[ex.Func]
	for _, fld := range fd.Type.Params.List {
		if _, ok := fld.Type.(*ast.Ellipsis); ok {
			return nil, fmt.Errorf("example %s: variadic %s is not supported", name, ex.Func)
		}
		typ := types.ExprString(fld.Type)
		if len(fld.Names) == 0 {
			ex.Params = append(ex.Params, Param{Name: "_", Type: typ})
		}
		for _, n := range fld.Names {
			ex.Params = append(ex.Params, Param{Name: n.Name, Type: typ})
		}
	}
	if fd.Type.Results != nil {
		for _, fld := range fd.Type.Results.List {
			typ := types.ExprString(fld.Type)
			for range max(1, len(fld.Names)) {
				ex.Results = append(ex.Results, typ)
			}
		}
	}
	ex.Seeds, ex.SeedErr = seeds(adds, fparams)
	if ex.SeedErr != nil {
		ex.SeedErr = fmt.Errorf("example %s: seeds of %s: %w", name, ex.Fuzz, ex.SeedErr)
	}
	ex.Planted, err = Planted(ex.Dir)
	if err != nil {
		return nil, err
	}
	return ex, nil
}

// fuzzParts finds in a fuzz target the function literal passed to f.Fuzz,
// the types of its fuzzed parameters (after the *testing.T) and the
// arguments of the f.Add calls.
func fuzzParts(fuzz *ast.FuncDecl) (*ast.FuncLit, []string, [][]ast.Expr) {
	if len(fuzz.Type.Params.List) != 1 || len(fuzz.Type.Params.List[0].Names) != 1 {
		return nil, nil, nil
	}
	f := fuzz.Type.Params.List[0].Names[0].Name
	var lit *ast.FuncLit
	var adds [][]ast.Expr
	ast.Inspect(fuzz.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if id, ok := sel.X.(*ast.Ident); !ok || id.Name != f {
			return true
		}
		switch sel.Sel.Name {
		case "Add":
			adds = append(adds, call.Args)
		case "Fuzz":
			if len(call.Args) == 1 {
				lit, _ = call.Args[0].(*ast.FuncLit)
			}
		}
		return true
	})
	if lit == nil {
		return nil, nil, nil
	}
	var params []string
	for i, fld := range lit.Type.Params.List {
		typ := types.ExprString(fld.Type)
		for k := range max(1, len(fld.Names)) {
			if i == 0 && k == 0 {
				continue // t *testing.T
			}
			params = append(params, typ)
		}
	}
	return lit, params, adds
}

// seeds evaluates the arguments of f.Add calls, which must be constants or
// conversions of constants (uint32(7), []byte("x")), against the types of
// the fuzzed parameters.
func seeds(adds [][]ast.Expr, params []string) ([][]corpus.Value, error) {
	var out [][]corpus.Value
	for _, args := range adds {
		if len(args) != len(params) {
			return nil, fmt.Errorf("f.Add with %d values for %d parameters", len(args), len(params))
		}
		var entry []corpus.Value
		for i, a := range args {
			v, err := constValue(a)
			if err != nil {
				return nil, err
			}
			val, err := MakeValue(params[i], v)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", types.ExprString(a), err)
			}
			entry = append(entry, val)
		}
		out = append(out, entry)
	}
	return out, nil
}

// constValue evaluates a constant expression in the universe scope; a
// conversion to []byte or string is looked through, and []byte{} is the
// empty string.
func constValue(e ast.Expr) (constant.Value, error) {
	if call, ok := e.(*ast.CallExpr); ok && len(call.Args) == 1 {
		if t := types.ExprString(call.Fun); t == "[]byte" || t == "string" {
			return constValue(call.Args[0])
		}
	}
	// An empty byte slice literal is the empty string's bytes.
	if lit, ok := e.(*ast.CompositeLit); ok && len(lit.Elts) == 0 && types.ExprString(lit.Type) == "[]byte" {
		return constant.MakeString(""), nil
	}
	tv, err := types.Eval(token.NewFileSet(), nil, token.NoPos, types.ExprString(e))
	if err != nil {
		return nil, fmt.Errorf("f.Add argument %s: %w", types.ExprString(e), err)
	}
	if tv.Value == nil {
		return nil, fmt.Errorf("f.Add argument %s is not a constant", types.ExprString(e))
	}
	return tv.Value, nil
}

func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// IsBytes reports whether a parameter type is []byte.
func IsBytes(typ string) bool { return strings.ReplaceAll(typ, " ", "") == "[]byte" }
