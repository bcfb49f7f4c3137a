// This file classifies types and names them in generated code.

package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"github.com/gocolic/gocolic/rt"
)

// track is the family of a tracked type, which picks the runtime operators.
type track uint8

const (
	notTracked track = iota
	trackInt
	trackBool
	trackString
	trackBytes
	trackFloat
	// trackOrdered is a type parameter whose type set mixes integer,
	// float and string types (cmp.Ordered, ~int32 | ~float32): its
	// operators (rt.OAdd, rt.OLt, ...) read T's kind at run time.
	trackOrdered
)

// trackOf returns the family of t.
func trackOf(t types.Type) track {
	if t == nil {
		return notTracked
	}
	t = types.Default(t)
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsInteger != 0:
			return trackInt
		case u.Info()&types.IsBoolean != 0:
			return trackBool
		case u.Info()&types.IsString != 0:
			return trackString
		case u.Info()&types.IsFloat != 0:
			return trackFloat
		}
	case *types.Slice:
		if b, ok := u.Elem().(*types.Basic); ok && b.Kind() == types.Uint8 {
			return trackBytes
		}
	case *types.Interface:
		if tp, ok := t.(*types.TypeParam); ok {
			return typeParamTrack(tp)
		}
	}
	return notTracked
}

// kindSet is a set of the scalar families a type set can hold.
type kindSet uint8

const (
	setInt kindSet = 1 << iota
	setFloat
	setString
)

// typeParamTrack returns the family of the type parameter tp. A type set
// of one family is tracked as that family: the runtime's operators of
// integers, floats and strings are generic over ~int.., ~float.. and
// ~string and read widths and signedness from T at run time, so one twin
// serves every instantiation. A type set that mixes integers, floats and
// strings is trackOrdered, whose operators dispatch on T's kind at run
// time. Any other type parameter (any, comparable, a set with bool,
// complex or composite types) stays concrete.
func typeParamTrack(tp *types.TypeParam) track {
	switch s, ok := typeSetKinds(tp.Constraint(), 0); {
	case !ok || s == 0:
		return notTracked
	case s == setInt:
		return trackInt
	case s == setFloat:
		return trackFloat
	case s == setString:
		return trackString
	}
	return trackOrdered
}

// numericSet reports whether every type of t's type set is an integer or
// float type: true for integer and float types, and for a trackOrdered
// type parameter without strings in its set.
func numericSet(t types.Type) bool {
	switch trackOf(t) {
	case trackInt, trackFloat:
		return true
	case trackOrdered:
		tp, ok := types.Unalias(t).(*types.TypeParam)
		if !ok {
			return false
		}
		s, ok := typeSetKinds(tp.Constraint(), 0)
		return ok && s&setString == 0
	}
	return false
}

// typeSetKinds returns the families of the types in the type set of the
// constraint c; ok is false when the set may hold a type of no family
// (it is unrestricted, or a term is bool, complex or composite).
func typeSetKinds(c types.Type, depth int) (kindSet, bool) {
	if depth > 8 {
		return 0, false
	}
	switch u := c.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsInteger != 0:
			return setInt, true
		case u.Info()&types.IsFloat != 0:
			return setFloat, true
		case u.Info()&types.IsString != 0:
			return setString, true
		}
	case *types.Union:
		var s kindSet
		for i := 0; i < u.Len(); i++ {
			t, ok := typeSetKinds(u.Term(i).Type(), depth+1)
			if !ok {
				return 0, false
			}
			s |= t
		}
		return s, u.Len() > 0
	case *types.Interface:
		// The type set is the intersection of the embedded elements':
		// its families are in every restricted element's families.
		s, restricted := kindSet(setInt|setFloat|setString), false
		for i := 0; i < u.NumEmbeddeds(); i++ {
			if t, ok := typeSetKinds(u.EmbeddedType(i), depth+1); ok {
				s &= t
				restricted = true
			}
		}
		return s, restricted
	}
	return 0, false
}

func (ins *instrumenter) typeOf(e ast.Expr) types.Type {
	if tv, ok := ins.info.Types[e]; ok {
		return tv.Type
	}
	if id, ok := e.(*ast.Ident); ok {
		if obj := ins.info.ObjectOf(id); obj != nil {
			return obj.Type()
		}
	}
	return nil
}

func (ins *instrumenter) trackOfExpr(e ast.Expr) track {
	tv, ok := ins.info.Types[e]
	if ok && (tv.IsType() || tv.IsBuiltin() || tv.IsVoid()) {
		return notTracked
	}
	return trackOf(ins.typeOf(e))
}

// paramKind maps a parameter type of the entry function to the runtime's
// input shape, or 0 when unsupported.
func paramKind(t types.Type) rt.ParamKind {
	switch trackOf(t) {
	case trackInt:
		return rt.ParamInt
	case trackBool:
		return rt.ParamBool
	case trackString:
		return rt.ParamString
	case trackBytes:
		return rt.ParamBytes
	case trackFloat:
		return rt.ParamFloat
	}
	return 0
}

// intInfo returns the width and signedness of an integer type.
func intInfo(t types.Type) (uint8, bool) {
	b := types.Default(t).Underlying().(*types.Basic)
	switch b.Kind() {
	case types.Int8:
		return 8, true
	case types.Int16:
		return 16, true
	case types.Int32:
		return 32, true
	case types.Int, types.Int64:
		return 64, true
	case types.Uint8:
		return 8, false
	case types.Uint16:
		return 16, false
	case types.Uint32:
		return 32, false
	}
	return 64, false
}

// floatWidth returns 32 or 64 for a float type.
func floatWidth(t types.Type) uint8 {
	if types.Default(t).Underlying().(*types.Basic).Kind() == types.Float32 {
		return 32
	}
	return 64
}

// typeExpr returns an expression naming t in the file being rewritten, or
// ok == false when t cannot be named there (an unexported type of another
// package, or a package the file does not import).
func (ins *instrumenter) typeExpr(t types.Type) (ast.Expr, bool) {
	t = types.Unalias(types.Default(t))
	switch t := t.(type) {
	case *types.Basic:
		if t.Kind() == types.UnsafePointer || t.Info()&types.IsUntyped != 0 {
			return nil, false
		}
		return ins.topLevelName(t.Name()), true
	case *types.Named:
		if t.TypeArgs().Len() > 0 {
			return nil, false
		}
		obj := t.Obj()
		if obj.Pkg() == nil {
			return ast.NewIdent(obj.Name()), true // error
		}
		if obj.Pkg() == ins.pkg.Types {
			if obj.Parent() != ins.pkg.Types.Scope() {
				return nil, false // declared inside a function
			}
			return ins.topLevelName(obj.Name()), true
		}
		if !obj.Exported() {
			return nil, false
		}
		name, ok := ins.imports[obj.Pkg().Path()]
		if !ok || name == "_" || name == "." || ins.localNames()[name] {
			// A local variable named like the import may hide it where
			// the type is needed; the type stays unnamed instead.
			return nil, false
		}
		return &ast.SelectorExpr{X: ast.NewIdent(ins.typeImport(obj)), Sel: ast.NewIdent(obj.Name())}, true
	case *types.TypeParam:
		// Named only inside its generic function, the only code whose
		// types mention it.
		return ast.NewIdent(t.Obj().Name()), true
	case *types.Slice:
		elem, ok := ins.typeExpr(t.Elem())
		if !ok {
			return nil, false
		}
		return &ast.ArrayType{Elt: elem}, true
	case *types.Pointer:
		elem, ok := ins.typeExpr(t.Elem())
		if !ok {
			return nil, false
		}
		return &ast.StarExpr{X: elem}, true
	case *types.Array:
		elem, ok := ins.typeExpr(t.Elem())
		if !ok {
			return nil, false
		}
		return &ast.ArrayType{Len: &ast.BasicLit{Kind: token.INT, Value: strconv.FormatInt(t.Len(), 10)}, Elt: elem}, true
	case *types.Map:
		k, ok1 := ins.typeExpr(t.Key())
		v, ok2 := ins.typeExpr(t.Elem())
		if !ok1 || !ok2 {
			return nil, false
		}
		return &ast.MapType{Key: k, Value: v}, true
	case *types.Interface:
		if t.Empty() {
			return &ast.InterfaceType{Methods: &ast.FieldList{}}, true
		}
	case *types.Signature:
		if t.Recv() != nil || t.TypeParams().Len() > 0 {
			return nil, false
		}
		ft := &ast.FuncType{Params: &ast.FieldList{}}
		for i := 0; i < t.Params().Len(); i++ {
			pt := t.Params().At(i).Type()
			variadic := t.Variadic() && i == t.Params().Len()-1
			if variadic {
				pt = pt.(*types.Slice).Elem()
			}
			e, ok := ins.typeExpr(pt)
			if !ok {
				return nil, false
			}
			if variadic {
				e = &ast.Ellipsis{Elt: e}
			}
			ft.Params.List = append(ft.Params.List, &ast.Field{Type: e})
		}
		if t.Results().Len() > 0 {
			ft.Results = &ast.FieldList{}
		}
		for i := 0; i < t.Results().Len(); i++ {
			e, ok := ins.typeExpr(t.Results().At(i).Type())
			if !ok {
				return nil, false
			}
			ft.Results.List = append(ft.Results.List, &ast.Field{Type: e})
		}
		return ft, true
	}
	return nil, false
}

// topLevelName returns an identifier for name, a predeclared type or a
// type declared at the package's top level, that no local declaration can
// hide: name itself, or, if a function of the package declares something
// of that name (regexp/syntax has a variable named rune), the alias the
// entry file declares for it (finishEntry).
func (ins *instrumenter) topLevelName(name string) *ast.Ident {
	if !ins.localNames()[name] {
		return ast.NewIdent(name)
	}
	if ins.typeAliases == nil {
		ins.typeAliases = make(map[string]bool)
	}
	ins.typeAliases[name] = true
	return ast.NewIdent(typeAlias + name)
}

// localNames returns the names that declarations inside the package's
// functions (variables, parameters, constants, types, labels) declare.
func (ins *instrumenter) localNames() map[string]bool {
	if ins.locals == nil {
		ins.locals = make(map[string]bool)
		top := ins.pkg.Types.Scope()
		for id, obj := range ins.info.Defs {
			if obj == nil || obj.Parent() == top || obj.Parent() == nil {
				continue // package level, or a field or method
			}
			ins.locals[id.Name] = true
		}
	}
	return ins.locals
}

// fileImports returns the import path -> local name map of f.
func fileImports(f *ast.File, info *types.Info) map[string]string {
	m := make(map[string]string)
	for _, spec := range f.Imports {
		path, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			continue
		}
		if spec.Name != nil {
			m[path] = spec.Name.Name
			continue
		}
		if pn, ok := info.Implicits[spec].(*types.PkgName); ok {
			m[path] = pn.Name()
		}
	}
	return m
}

// typeImport returns the name under which the file being rewritten names
// the types of obj's package: an import of the package under a name of
// the rewrite, added to the file. The file's own name for the package
// will not do, since a parameter or variable may hide it where the
// rewrite writes the type (func F(url *url.URL) hides package url in F's
// body, where a load of a url.Values field needs the type).
func (ins *instrumenter) typeImport(obj *types.TypeName) string {
	path := obj.Pkg().Path()
	if imp, ok := ins.typeImports[path]; ok {
		return imp[0]
	}
	if ins.typeImports == nil {
		ins.typeImports = map[string][2]string{}
	}
	name := typeImport + strconv.Itoa(len(ins.typeImports))
	ins.typeImports[path] = [2]string{name, obj.Name()}
	return name
}
