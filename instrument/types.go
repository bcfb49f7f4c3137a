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
		if tp, ok := t.(*types.TypeParam); ok && integerSet(tp.Constraint(), 0) {
			return trackInt
		}
	}
	return notTracked
}

// integerSet reports whether every type in the type set of the
// constraint c is an integer type. Generic code over such a type
// parameter T runs on rt.V[T] with the runtime's generic integer
// operators, which read T's width and signedness at run time, so one
// twin serves every instantiation. Other type parameters (any,
// comparable, cmp.Ordered, mixed unions) stay concrete: their operators
// differ between instantiations.
func integerSet(c types.Type, depth int) bool {
	if depth > 8 {
		return false
	}
	switch u := c.Underlying().(type) {
	case *types.Basic:
		return u.Info()&types.IsInteger != 0
	case *types.Union:
		for i := 0; i < u.Len(); i++ {
			if !integerSet(u.Term(i).Type(), depth+1) {
				return false
			}
		}
		return u.Len() > 0
	case *types.Interface:
		// The type set is the intersection of the embedded elements':
		// one element of integers is enough.
		for i := 0; i < u.NumEmbeddeds(); i++ {
			if integerSet(u.EmbeddedType(i), depth+1) {
				return true
			}
		}
	}
	return false
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
		return ast.NewIdent(t.Name()), true
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
			return ast.NewIdent(obj.Name()), true
		}
		if !obj.Exported() {
			return nil, false
		}
		name, ok := ins.imports[obj.Pkg().Path()]
		if !ok || name == "_" || name == "." {
			return nil, false
		}
		return &ast.SelectorExpr{X: ast.NewIdent(name), Sel: ast.NewIdent(obj.Name())}, true
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
