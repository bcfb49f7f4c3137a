// This file collects the constants of the instrumented package for the
// mutation lane's dictionary (package mutate).

package instrument

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/packages"
)

// Consts are the distinct constant values of a package's source: the
// values the program is likely to compare its inputs with. Each list is
// sorted and holds at most maxConsts values.
type Consts struct {
	Ints    []uint64 // integers (runes included), as two's-complement bits
	Strings []string // non-empty strings of at most 64 bytes
	Floats  []float64
	// Len is the largest constant the package compares a length with
	// (len(s) == 36, len(b) < 8, switch len(s) { case 45: }), at most
	// maxLenConst; 0 if none. Inputs shorter than it cannot take the
	// branch, so it is a lower bound for -maxlen.
	Len int
}

// maxLenConst bounds Consts.Len: a larger length constant (a buffer size
// compared with len) says nothing of the inputs worth exploring.
const maxLenConst = 4096

// maxConsts bounds each list of Consts.
const maxConsts = 1024

// collectConsts returns the constants of pkg's typed expressions, which
// cover literals, named constants and constant expressions alike.
func collectConsts(pkg *packages.Package) Consts {
	ints := map[uint64]bool{}
	strs := map[string]bool{}
	floats := map[float64]bool{}
	for _, tv := range pkg.TypesInfo.Types {
		v := tv.Value
		if v == nil {
			continue
		}
		switch v.Kind() {
		case constant.Int:
			if i, ok := constant.Int64Val(v); ok {
				ints[uint64(i)] = true
			} else if u, ok := constant.Uint64Val(v); ok {
				ints[u] = true
			}
		case constant.String:
			if s := constant.StringVal(v); s != "" && len(s) <= 64 {
				strs[s] = true
			}
		case constant.Float:
			if f, _ := constant.Float64Val(v); f != 0 {
				floats[f] = true
			}
		}
	}
	return Consts{Ints: sorted(ints), Strings: sorted(strs), Floats: sorted(floats), Len: lenConst(pkg)}
}

// lenConst returns the largest constant, up to maxLenConst, that pkg
// compares the result of the builtin len with, in a comparison or as a
// case of a switch on len(...).
func lenConst(pkg *packages.Package) int {
	info := pkg.TypesInfo
	isLen := func(e ast.Expr) bool {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return false
		}
		id, ok := ast.Unparen(call.Fun).(*ast.Ident)
		if !ok {
			return false
		}
		b, ok := info.Uses[id].(*types.Builtin)
		return ok && b.Name() == "len"
	}
	best := 0
	take := func(e ast.Expr) {
		if v := info.Types[e].Value; v != nil && v.Kind() == constant.Int {
			if n, ok := constant.Int64Val(v); ok && n > int64(best) && n <= maxLenConst {
				best = int(n)
			}
		}
	}
	for _, f := range pkg.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BinaryExpr:
				switch n.Op {
				case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
					if isLen(n.X) {
						take(n.Y)
					} else if isLen(n.Y) {
						take(n.X)
					}
				}
			case *ast.SwitchStmt:
				if n.Tag != nil && isLen(n.Tag) {
					for _, st := range n.Body.List {
						for _, e := range st.(*ast.CaseClause).List {
							take(e)
						}
					}
				}
			}
			return true
		})
	}
	return best
}

// Merge adds o's constants to c, each list sorted and bounded as
// collectConsts leaves it.
func (c *Consts) Merge(o Consts) {
	c.Ints = mergeSorted(c.Ints, o.Ints)
	c.Strings = mergeSorted(c.Strings, o.Strings)
	c.Floats = mergeSorted(c.Floats, o.Floats)
	c.Len = max(c.Len, o.Len)
}

// mergeSorted returns the union of the sorted lists a and b, sorted, at
// most maxConsts values.
func mergeSorted[K uint64 | string | float64](a, b []K) []K {
	m := map[K]bool{}
	for _, k := range a {
		m[k] = true
	}
	for _, k := range b {
		m[k] = true
	}
	return sorted(m)
}

// sorted returns the keys of m in order, at most maxConsts of them.
func sorted[K int | uint64 | string | float64](m map[K]bool) []K {
	ks := make([]K, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks[:min(len(ks), maxConsts)]
}
