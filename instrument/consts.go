// This file collects the constants of the instrumented package for the
// mutation lane's dictionary (package mutate).

package instrument

import (
	"go/constant"
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
}

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
	return Consts{Ints: sorted(ints), Strings: sorted(strs), Floats: sorted(floats)}
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
