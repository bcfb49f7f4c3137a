// This file writes the value of a composite parameter, as an input lays it
// out (instrument.Shape), as a Go literal for generated tests and reports.

package session

import (
	"strings"

	"github.com/gocolic/gocolic/instrument"
	"github.com/gocolic/gocolic/rt"
)

// shapeLiteral writes the value of shape sh under the decoded inputs args.
func shapeLiteral(sh *instrument.Shape, ps []rt.Param, args []rt.Arg) string {
	elems := func(lits []string) string { return sh.Type + "{" + strings.Join(lits, ", ") + "}" }
	switch sh.Kind {
	case instrument.ShapeLeaf:
		return leafLiteral(ps[sh.Leaf], args[sh.Leaf], sh.Type)
	case instrument.ShapeZero:
		return "*new(" + sh.Type + ")"
	case instrument.ShapeStruct:
		var lits []string
		for i, e := range sh.Elems {
			lits = append(lits, sh.Fields[i]+": "+shapeLiteral(e, ps, args))
		}
		return elems(lits)
	case instrument.ShapeArray:
		var lits []string
		for _, e := range sh.Elems {
			lits = append(lits, shapeLiteral(e, ps, args))
		}
		return elems(lits)
	case instrument.ShapeSlice:
		var lits []string
		for _, e := range sh.Elems[:min(int(args[sh.Leaf].Bits), len(sh.Elems))] {
			lits = append(lits, shapeLiteral(e, ps, args))
		}
		return elems(lits)
	case instrument.ShapeMap:
		// Later entries overwrite earlier ones with an equal key, as the
		// driver's inserts do; a literal must not repeat a key.
		n := min(int(args[sh.Leaf].Bits), len(sh.Elems)/2)
		var keys []string
		vals := map[string]string{}
		for i := range n {
			k := shapeLiteral(sh.Elems[2*i], ps, args)
			if _, ok := vals[k]; !ok {
				keys = append(keys, k)
			}
			vals[k] = shapeLiteral(sh.Elems[2*i+1], ps, args)
		}
		var lits []string
		for _, k := range keys {
			lits = append(lits, k+": "+vals[k])
		}
		return elems(lits)
	case instrument.ShapeIface:
		return ifaceLiteral(sh, ps, args)
	case instrument.ShapePointer:
		if sh.Leaf >= 0 && args[sh.Leaf].Bits != 0 {
			return "nil"
		}
		e := sh.Elems[0]
		switch e.Kind {
		case instrument.ShapeStruct, instrument.ShapeArray, instrument.ShapeSlice, instrument.ShapeMap:
			return "&" + shapeLiteral(e, ps, args)
		case instrument.ShapeZero:
			return "new(" + e.Type + ")"
		}
		// A pointer to a scalar: a variable of its own, as the driver made.
		elem := strings.TrimPrefix(sh.Type, "*")
		return "func() " + sh.Type + " { v := " + elem + "(" + shapeLiteral(e, ps, args) + "); return &v }()"
	}
	return "*new(" + sh.Type + ")"
}

// ifaceLiteral writes the value of an interface input: nil, or the
// literal of the candidate its choice selects. A candidate that is a
// scalar, a string or a []byte is converted to its type, which an untyped
// constant in an interface would not have.
func ifaceLiteral(sh *instrument.Shape, ps []rt.Param, args []rt.Arg) string {
	k := args[sh.Leaf].Bits
	if k >= uint64(len(sh.Elems)) {
		return "nil"
	}
	e := sh.Elems[k]
	lit := shapeLiteral(e, ps, args)
	if e.Kind == instrument.ShapeLeaf {
		return e.Type + "(" + lit + ")"
	}
	return lit
}
