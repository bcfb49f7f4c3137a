// This file generates the driver: the file added to the target package
// that declares the shadows of package-level variables and registers the
// entry function with the runtime.

package instrument

import (
	"bytes"
	"fmt"
	"go/format"
	"go/types"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gocolic/gocolic/rt"
)

// DriverFile is the name of the generated driver file.
const DriverFile = "zz_gocolic_driver.go"

func (ins *instrumenter) driver(entry *types.Func, res *Result) error {
	sig := entry.Type().(*types.Signature)
	qual := types.RelativeTo(ins.pkg.Types)
	imports := map[string]string{} // path -> name, for parameter types
	name := func(t types.Type) string {
		return types.TypeString(t, func(p *types.Package) string {
			if p == ins.pkg.Types {
				return ""
			}
			return importName(imports, p.Path())
		})
	}
	var run bytes.Buffer
	var params bytes.Buffer
	var build bytes.Buffer // assembles composite parameters
	sh := ins.newShaper(res, name, &build)
	twin := ins.twins[entry]
	recv := ""
	if r := sig.Recv(); r != nil {
		res.Method = entry.Name()
		recv = "_gcl_recv"
		p := Param{Name: "receiver", Type: r.Type(), TypeString: types.TypeString(r.Type(), qual)}
		if ptr, ok := r.Type().(*types.Pointer); ok {
			// A method is tested on an object: the receiver is never nil.
			fmt.Fprintf(&build, "%s := new(%s)\n", recv, name(ptr.Elem()))
			sh.onPath[ptr.Elem()]++ // the receiver is the first object of its type
			p.Shape = &Shape{Kind: ShapePointer, Type: sh.testType(r.Type()), Leaf: -1,
				Elems: []*Shape{sh.build(ptr.Elem(), "(*"+recv+")", "receiver")}}
		} else {
			fmt.Fprintf(&build, "var %s %s\n", recv, name(r.Type()))
			p.Shape = sh.build(r.Type(), recv, "receiver")
			if hasLeaves(r.Type(), 0) {
				// A value receiver's cells reach the method as an argument's do.
				recv = fmt.Sprintf("_gcl.Pass(&%[1]s, %[1]s)", recv)
			}
		}
		res.Recv = &p
	}
	for i := 0; i < sig.Params().Len(); i++ {
		p := sig.Params().At(i)
		if i > 0 {
			run.WriteString(", ")
		}
		prm := Param{Name: p.Name(), Type: p.Type(), TypeString: types.TypeString(p.Type(), qual)}
		if !composite(p.Type()) {
			prm.Leaf = len(res.RTParams)
			q := rtParam(p.Name(), p.Type())
			res.RTParams = append(res.RTParams, q)
			fmt.Fprintf(&run, "_gcl.%s[%s](in, %d)", inputCtor[q.Kind], name(p.Type()), prm.Leaf)
			if twin == nil {
				run.WriteString(".C")
			}
			res.Params = append(res.Params, prm)
			continue
		}
		v := fmt.Sprintf("_gcl_a%d", i)
		fmt.Fprintf(&build, "var %s %s\n", v, name(p.Type()))
		pname := p.Name()
		if pname == "" || pname == "_" {
			pname = fmt.Sprintf("#%d", i+1)
		}
		prm.Shape = sh.build(p.Type(), v, pname)
		switch {
		case sig.Variadic() && i == sig.Params().Len()-1:
			prm.TypeString = "..." + types.TypeString(p.Type().(*types.Slice).Elem(), qual)
			fmt.Fprintf(&run, "%s...", v)
		case hasLeaves(p.Type(), 0):
			fmt.Fprintf(&run, "_gcl.Pass(&%[1]s, %[1]s)", v)
		default:
			run.WriteString(v)
		}
		res.Params = append(res.Params, prm)
	}
	if res.Recv != nil {
		res.Recv.TypeString = sh.testType(res.Recv.Type)
	}
	for _, q := range res.RTParams {
		params.WriteString(paramLit(q))
	}
	t := twin
	fname := entry.Name()
	if t != nil {
		fname = t.name
	}
	if recv != "" {
		fname = recv + "." + fname
	}
	var results []string
	var lhs []string
	for i := 0; i < sig.Results().Len(); i++ {
		r := sig.Results().At(i)
		res.Results = append(res.Results, types.TypeString(r.Type(), qual))
		isErr := types.Identical(r.Type(), types.Universe.Lookup("error").Type())
		res.ResultIsError = append(res.ResultIsError, isErr)
		res.Pinnable = append(res.Pinnable, isErr || trackOf(r.Type()) != notTracked || isFloat(r.Type()))
		n := fmt.Sprintf("r%d", i)
		lhs = append(lhs, n)
		results = append(results, n)
	}
	if t != nil {
		for i := 0; i < t.nShadow; i++ {
			lhs = append(lhs, "_")
		}
	}

	regs := ins.opaqueRegistrations(imports)
	// Naming a type whose value the shaper then left zero registers an
	// import that no line uses.
	code := build.String() + run.String() + regs
	for path, n := range imports {
		if !strings.Contains(code, n+".") {
			delete(imports, path)
		}
	}
	src, shadows := ins.driverHead(imports)
	src.WriteString("\nfunc init() {\n" + regs + "\t_gcl.Main(_gcl.Target{\n")
	ins.targetFields(src, params.Bytes(), shadows)
	src.WriteString("\t\tRun: func(in *_gcl.Input) []any {\n")
	src.Write(build.Bytes())
	if len(lhs) > 0 {
		fmt.Fprintf(src, "\t\t\t%s := %s(%s)\n", join(lhs), fname, run.String())
		fmt.Fprintf(src, "\t\t\treturn []any{%s}\n", join(results))
	} else {
		fmt.Fprintf(src, "\t\t\t%s(%s)\n\t\t\treturn nil\n", fname, run.String())
	}
	src.WriteString("\t\t},\n\t})\n}\n")
	return ins.finishDriver(res, src)
}

// driverHead starts a driver file: the package clause, the imports (the
// runtime's and imports, path -> name) and the shadows of package-level
// variables, whose names it returns.
func (ins *instrumenter) driverHead(imports map[string]string) (*bytes.Buffer, []string) {
	src := new(bytes.Buffer)
	fmt.Fprintf(src, "// Code generated by gocolic. DO NOT EDIT.\n\npackage %s\n\n", ins.pkg.Name)
	fmt.Fprintf(src, "import _gcl %q\n", ins.cfg.RuntimePath)
	paths := make([]string, 0, len(imports))
	for p := range imports {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		fmt.Fprintf(src, "import %s %q\n", imports[p], p)
	}
	src.WriteString("\n")
	shadows := ins.packageShadows()
	for _, s := range shadows {
		fmt.Fprintf(src, "var %s *_gcl.Expr\n", s)
	}
	return src, shadows
}

// targetFields writes the Params, Sites and Reset fields of an rt.Target
// literal.
func (ins *instrumenter) targetFields(src *bytes.Buffer, params []byte, shadows []string) {
	src.WriteString("\t\tParams: []_gcl.Param{\n")
	src.Write(params)
	fmt.Fprintf(src, "\t\t},\n\t\tSites: %d,\n\t\tReset: func() {\n", int(ins.cfg.SiteBase)+len(ins.sites))
	for _, s := range shadows {
		fmt.Fprintf(src, "\t\t\t%s = nil\n", s)
	}
	src.WriteString("\t\t},\n")
}

// finishDriver formats a driver file into res. An external test package's
// driver is a _test.go file, as it must be to belong to that package.
func (ins *instrumenter) finishDriver(res *Result, src *bytes.Buffer) error {
	out, err := format.Source(src.Bytes())
	if err != nil {
		return fmt.Errorf("generated driver does not parse: %w\n%s", err, src.Bytes())
	}
	if len(ins.pkg.CompiledGoFiles) == 0 {
		return fmt.Errorf("package %s has no Go files", ins.pkg.PkgPath)
	}
	name := DriverFile
	if strings.HasSuffix(ins.pkg.Name, "_test") {
		name = XDriverFile
	}
	dir := filepath.Dir(ins.pkg.CompiledGoFiles[0])
	res.Driver = out
	res.DriverPath = filepath.Join(dir, name)
	if !strings.HasSuffix(ins.pkg.Name, "_test") {
		// An external test package cannot have assembly; the package
		// under test, in the same directory, is instrumented too.
		return ins.goroutineID(res, dir)
	}
	return nil
}

// GFile is the base name of the files that give the runtime the identity
// of goroutines: GFile+".go" declares the function, GFile+"_<arch>.s"
// defines it.
const GFile = "zz_gocolic_g"

// goroutineID adds to the package, in dir, the assembly function that
// returns the calling goroutine's runtime descriptor, and hands it to the
// runtime (rt.UseG). The runtime's copy in the overlay cannot carry it
// (the go command assembles in the package's directory, which exists on
// disk only for the user's packages), and without it the runtime tells
// goroutines apart the slow way.
func (ins *instrumenter) goroutineID(res *Result, dir string) error {
	const fn = "_gclG" // apart from the _gcl_ names of twins and shadows
	asm, err := rt.GAssembly(fn)
	if err != nil {
		return err
	}
	if res.Extra == nil {
		res.Extra = make(map[string][]byte)
	}
	for suffix, src := range asm {
		res.Extra[filepath.Join(dir, GFile+suffix)] = src
	}
	src := fmt.Sprintf("// Code generated by gocolic. DO NOT EDIT.\n\n//go:build %s\n\npackage %s\n\n"+
		"import _gcl %q\n\n// %s returns the address of the calling goroutine's runtime descriptor.\nfunc %s() uintptr\n\n"+
		"var _ = _gcl.UseG(%s)\n",
		strings.Join(rt.GArchs, " || "), ins.pkg.Name, ins.cfg.RuntimePath, fn, fn, fn)
	out, err := format.Source([]byte(src))
	if err != nil {
		return fmt.Errorf("generated declaration does not parse: %w\n%s", err, src)
	}
	res.Extra[filepath.Join(dir, GFile+".go")] = out
	return nil
}

// rtParam describes a parameter of type t to the runtime.
func rtParam(name string, t types.Type) rt.Param {
	q := rt.Param{Name: name, Kind: paramKind(t)}
	switch q.Kind {
	case rt.ParamInt:
		q.Width, q.Signed = intInfo(t)
	case rt.ParamFloat:
		q.Width = floatWidth(t)
	}
	return q
}

// paramLit is the rt.Param literal of q, a line of a driver file.
func paramLit(q rt.Param) string {
	refs := ""
	if q.Ref {
		refs = fmt.Sprintf(", Ref: true, Refs: %#v", q.Refs)
	}
	return fmt.Sprintf("\t\t{Name: %q, Kind: _gcl.%s, Width: %d, Signed: %v, Max: %d%s},\n", q.Name, paramKindName[q.Kind], q.Width, q.Signed, q.Max, refs)
}

// paramKindName names the runtime's parameter kinds in generated code.
var paramKindName = map[rt.ParamKind]string{
	rt.ParamInt: "ParamInt", rt.ParamBool: "ParamBool", rt.ParamString: "ParamString",
	rt.ParamBytes: "ParamBytes", rt.ParamFloat: "ParamFloat",
}

// inputCtor names the runtime function that makes a parameter's V from
// the input, by kind.
var inputCtor = map[rt.ParamKind]string{
	rt.ParamInt: "InputInt", rt.ParamBool: "InputBool", rt.ParamString: "InputString",
	rt.ParamBytes: "InputBytes", rt.ParamFloat: "InputFloat",
}

func join(xs []string) string {
	var b bytes.Buffer
	for i, x := range xs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(x)
	}
	return b.String()
}

func isFloat(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsFloat != 0
}

// fuzzDriver generates the driver of a fuzz target: the shadows of
// package-level variables and the target's description. The function
// itself is handed to the runtime by the rewritten f.Fuzz call.
func (ins *instrumenter) fuzzDriver(res *Result) error {
	ft := ins.fuzz
	var params bytes.Buffer
	for i := 1; i < ft.sig.Params().Len(); i++ {
		p := ft.sig.Params().At(i)
		name := p.Name()
		q := rtParam(name, p.Type())
		res.RTParams = append(res.RTParams, q)
		// The corpus format names the argument types as Go does: []byte.
		ts := types.TypeString(p.Type(), nil)
		if q.Kind == rt.ParamBytes {
			ts = "[]byte"
		}
		res.Params = append(res.Params, Param{Name: name, Type: p.Type(), TypeString: ts})
		params.WriteString(paramLit(q))
	}
	res.Seeds = ft.seeds
	imports := map[string]string{}
	regs := ins.opaqueRegistrations(imports)
	src, shadows := ins.driverHead(imports)
	src.WriteString("\nfunc init() {\n" + regs + "\t_gcl.Register(_gcl.Target{\n")
	ins.targetFields(src, params.Bytes(), shadows)
	src.WriteString("\t})\n\t_gcl.EvalMain()\n}\n")
	return ins.finishDriver(res, src)
}

// supportDriver generates the driver of a Support package: the shadows of
// its package-level variables, cleared before each execution through the
// runtime's list of resets.
func (ins *instrumenter) supportDriver(res *Result) error {
	imports := map[string]string{}
	regs := ins.opaqueRegistrations(imports)
	src, shadows := ins.driverHead(imports)
	src.WriteString("\nfunc init() {\n" + regs + "\t_gcl.AddReset(func() {\n")
	for _, s := range shadows {
		fmt.Fprintf(src, "\t\t%s = nil\n", s)
	}
	src.WriteString("\t})\n}\n")
	if err := ins.finishDriver(res, src); err != nil {
		return err
	}
	res.Exports = Exports{twins: map[*types.Func]*twinInfo{}}
	for fn, t := range ins.twins {
		if t.decl.Recv == nil && fn.Exported() || t.xname != "" {
			res.Exports.twins[fn] = t
		}
	}
	return nil
}

// XDriverFile is the name of the driver file of an external test package,
// which must end in _test.go to belong to it.
const XDriverFile = "zz_gocolic_driver_test.go"

// packageShadows returns the shadow names of package-level variables.
func (ins *instrumenter) packageShadows() []string {
	var shadows []string
	for obj := range ins.shadow {
		if obj.Parent() == ins.pkg.Types.Scope() {
			shadows = append(shadows, ins.shadowName(obj))
		}
	}
	sort.Strings(shadows)
	return shadows
}
