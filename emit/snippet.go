// This file checks the snippets of Go source a Suite carries (types and
// literals): it parses and reprints them, and tells from a type's syntax
// how its values are compared.

package emit

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"strings"
)

// literals validates and normalises one literal per parameter.
func literals(lits []string, n int) ([]string, error) {
	if len(lits) != n {
		return nil, fmt.Errorf("got %d arguments, want %d", len(lits), n)
	}
	out := make([]string, n)
	for i, lit := range lits {
		_, norm, err := parseNode(lit)
		if err != nil {
			return nil, fmt.Errorf("argument %d: %w", i, err)
		}
		out[i] = norm
	}
	return out, nil
}

// parseNode parses a type or value written as Go source and returns it
// reprinted. Reprinting drops comments and stray text, so a snippet can be
// spliced into the generated code without changing its structure.
func parseNode(src string) (ast.Expr, string, error) {
	if strings.TrimSpace(src) == "" {
		return nil, "", errors.New("empty expression")
	}
	fset := token.NewFileSet()
	expr, err := parser.ParseExprFrom(fset, "", src, 0)
	if err != nil {
		return nil, "", fmt.Errorf("parse %q: %w", src, err)
	}
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, expr); err != nil {
		return nil, "", fmt.Errorf("print %q: %w", src, err)
	}
	return expr, buf.String(), nil
}

// isByteSlice reports whether e is written []byte or []uint8.
func isByteSlice(e ast.Expr) bool {
	at, ok := e.(*ast.ArrayType)
	if !ok || at.Len != nil {
		return false
	}
	id, ok := at.Elt.(*ast.Ident)
	return ok && (id.Name == "byte" || id.Name == "uint8")
}

// isFloat reports whether e is one of the predeclared float types, whose
// NaN values need care when compared.
func isFloat(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && (id.Name == "float32" || id.Name == "float64")
}

// comparable reports whether == may be applied to values of the type
// written as e. Only the syntax is known, so a named type is assumed to be
// comparable.
func comparable(e ast.Expr) bool {
	switch t := e.(type) {
	case *ast.ParenExpr:
		return comparable(t.X)
	case *ast.ArrayType:
		return t.Len != nil && comparable(t.Elt)
	case *ast.MapType, *ast.FuncType:
		return false
	case *ast.StructType:
		for _, f := range t.Fields.List {
			if !comparable(f.Type) {
				return false
			}
		}
	}
	return true
}
