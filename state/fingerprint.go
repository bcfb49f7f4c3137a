package state

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/token"
	"reflect"
)

// Fingerprints returns the Fingerprint of every function declared in
// files, by FuncName.
func Fingerprints(files []*ast.File) map[string]string {
	m := map[string]string{}
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				m[FuncName(fd)] = Fingerprint(fd)
			}
		}
	}
	return m
}

// FuncName names a declared function as state files do: Name, or
// Recv.Name for a method (without the receiver's pointer).
func FuncName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.ParenExpr:
			t = x.X
		case *ast.Ident:
			return x.Name + "." + fd.Name.Name
		default:
			return fd.Name.Name
		}
	}
}

// Fingerprint returns a hash of a function's normalised syntax: the tree
// of its nodes with their names, literals and operators, but no positions
// and no comments, so that reformatting or editing comments does not
// change it while any change of the code does.
func Fingerprint(fd *ast.FuncDecl) string {
	h := sha256.New()
	c := *fd
	c.Doc = nil
	walk(h, reflect.ValueOf(&c))
	return hex.EncodeToString(h.Sum(nil)[:8])
}

var (
	posType     = reflect.TypeOf(token.NoPos)
	commentType = reflect.TypeOf((*ast.CommentGroup)(nil))
	objectType  = reflect.TypeOf((*ast.Object)(nil))
	scopeType   = reflect.TypeOf((*ast.Scope)(nil))
)

// walk writes v's structure to h: node types, and the values of every
// field but positions, comments and the parser's objects.
func walk(h interface{ Write([]byte) (int, error) }, v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			h.Write([]byte("nil;"))
			return
		}
		walk(h, v.Elem())
	case reflect.Struct:
		fmt.Fprintf(h, "%s{", v.Type().Name())
		for i := range v.NumField() {
			f := v.Type().Field(i)
			switch f.Type {
			case posType, commentType, objectType, scopeType:
				continue
			}
			walk(h, v.Field(i))
		}
		h.Write([]byte("}"))
	case reflect.Slice:
		fmt.Fprintf(h, "[%d", v.Len())
		for i := range v.Len() {
			walk(h, v.Index(i))
		}
		h.Write([]byte("]"))
	default:
		fmt.Fprintf(h, "%v;", v.Interface())
	}
}
