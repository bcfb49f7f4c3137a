// This file writes the value of a composite parameter, as an input lays it
// out (instrument.Shape), as a Go literal for generated tests and reports.

package session

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gocolic/gocolic/emit"
	"github.com/gocolic/gocolic/instrument"
	"github.com/gocolic/gocolic/rt"
)

// literals writes the values of inputs ps, decoded as args, as Go
// literals whose types are written as the generated test file writes
// them (names).
type literals struct {
	names *emit.TypeNames
	ps    []rt.Param
	args  []rt.Arg
}

// shape writes the value of shape sh.
func (l literals) shape(sh *instrument.Shape) string {
	typ := l.names.Type(sh.Type)
	elems := func(lits []string) string { return typ + "{" + strings.Join(lits, ", ") + "}" }
	switch sh.Kind {
	case instrument.ShapeLeaf:
		return leafLiteral(l.ps[sh.Leaf], l.args[sh.Leaf], typ)
	case instrument.ShapeZero:
		return "*new(" + typ + ")"
	case instrument.ShapeStruct:
		var lits []string
		for i, e := range sh.Elems {
			lits = append(lits, sh.Fields[i]+": "+l.shape(e))
		}
		return elems(lits)
	case instrument.ShapeArray:
		var lits []string
		for _, e := range sh.Elems {
			lits = append(lits, l.shape(e))
		}
		return elems(lits)
	case instrument.ShapeSlice:
		var lits []string
		for _, e := range sh.Elems[:min(int(l.args[sh.Leaf].Bits), len(sh.Elems))] {
			lits = append(lits, l.shape(e))
		}
		return elems(lits)
	case instrument.ShapeMap:
		// Later entries overwrite earlier ones with an equal key, as the
		// entry file's inserts do; a literal must not repeat a key.
		n := min(int(l.args[sh.Leaf].Bits), len(sh.Elems)/2)
		var keys []string
		vals := map[string]string{}
		for i := range n {
			k := l.shape(sh.Elems[2*i])
			if _, ok := vals[k]; !ok {
				keys = append(keys, k)
			}
			vals[k] = l.shape(sh.Elems[2*i+1])
		}
		var lits []string
		for _, k := range keys {
			lits = append(lits, k+": "+vals[k])
		}
		return elems(lits)
	case instrument.ShapeIface:
		return l.iface(sh)
	case instrument.ShapePointer:
		if sh.Leaf >= 0 && l.args[sh.Leaf].Bits != 0 {
			return "nil"
		}
		e := sh.Elems[0]
		switch e.Kind {
		case instrument.ShapeStruct, instrument.ShapeArray, instrument.ShapeSlice, instrument.ShapeMap:
			return "&" + l.shape(e)
		case instrument.ShapeZero:
			return "new(" + l.names.Type(e.Type) + ")"
		}
		// A pointer to a scalar: a variable of its own, as the entry file made.
		elem := strings.TrimPrefix(typ, "*")
		return "func() " + typ + " { v := " + elem + "(" + l.shape(e) + "); return &v }()"
	}
	return "*new(" + typ + ")"
}

// iface writes the value of an interface input: nil, or the literal of
// the candidate its choice selects. A candidate that is a scalar, a
// string or a []byte is converted to its type, which an untyped constant
// in an interface would not have.
func (l literals) iface(sh *instrument.Shape) string {
	k := l.args[sh.Leaf].Bits
	if k >= uint64(len(sh.Elems)) {
		return "nil"
	}
	e := sh.Elems[k]
	lit := l.shape(e)
	if e.Kind == instrument.ShapeLeaf {
		return l.names.Type(e.Type) + "(" + lit + ")"
	}
	return lit
}

// builder writes the statements that assemble composite parameters the
// way the generated entry file does, for inputs whose pointers alias: each
// object a pointer input makes is a variable, declared before its fields
// are filled, and an alias is a reference to it, so shared objects and
// cycles survive into a generated test, where literals could not.
type builder struct {
	literals
	b       strings.Builder
	ptrs    map[int]string // pointer inputs made so far: their variable, or "nil"
	n       int
	aliased bool // some pointer is an alias of another
}

// fill writes the statements that set the location loc to the value of
// shape sh.
func (bd *builder) fill(sh *instrument.Shape, loc string) {
	switch sh.Kind {
	case instrument.ShapeLeaf:
		bd.printf("%s = %s\n", loc, leafLiteral(bd.ps[sh.Leaf], bd.args[sh.Leaf], bd.names.Type(sh.Type)))
	case instrument.ShapeStruct:
		for i, e := range sh.Elems {
			bd.fill(e, loc+"."+sh.Fields[i])
		}
	case instrument.ShapeArray:
		for i, e := range sh.Elems {
			bd.fill(e, loc+"["+strconv.Itoa(i)+"]")
		}
	case instrument.ShapeSlice:
		n := min(int(bd.args[sh.Leaf].Bits), len(sh.Elems))
		bd.printf("%s = make(%s, %d)\n", loc, bd.names.Type(sh.Type), n)
		for i, e := range sh.Elems[:n] {
			bd.fill(e, loc+"["+strconv.Itoa(i)+"]")
		}
	case instrument.ShapeMap, instrument.ShapeZero, instrument.ShapeIface:
		// Map entries and interface values are written as literals:
		// pointers inside them do not alias (see the README).
		bd.printf("%s = %s\n", loc, bd.shape(sh))
	case instrument.ShapePointer:
		bd.pointer(sh, loc)
	}
}

// pointer writes a pointer input as the entry file assembles it (rt.InputPtr):
// nil, an earlier input's pointer, or a new object, which is also what an
// alias of an input not assembled gets.
func (bd *builder) pointer(sh *instrument.Shape, loc string) {
	c := uint64(0)
	if sh.Leaf >= 0 {
		c = bd.args[sh.Leaf].Bits
	}
	switch {
	case c == 1:
		bd.ptrs[sh.Leaf] = "nil"
		return
	case c >= 2:
		if v, ok := bd.ptrs[bd.ps[sh.Leaf].Refs[c-2]]; ok {
			bd.ptrs[sh.Leaf] = v
			bd.aliased = true
			if v != "nil" {
				bd.printf("%s = %s\n", loc, v)
			}
			return
		}
	}
	bd.n++
	v := "p" + strconv.Itoa(bd.n)
	bd.printf("%s := new(%s)\n%s = %s\n", v, strings.TrimPrefix(bd.names.Type(sh.Type), "*"), loc, v)
	if sh.Leaf >= 0 {
		bd.ptrs[sh.Leaf] = v
	}
	bd.fill(sh.Elems[0], "(*"+v+")")
}

func (bd *builder) printf(format string, args ...any) { fmt.Fprintf(&bd.b, format, args...) }

// buildLiteral returns a function literal that returns the values of the
// parameters params, whose types the test file writes as typs, or ""
// when no pointer aliases another: literals then say the same, more
// readably.
func buildLiteral(l literals, params []instrument.Param, typs []string) string {
	bd := &builder{literals: l, ptrs: map[int]string{}}
	types := make([]string, len(params))
	for i, p := range params {
		typ := typs[i]
		if elem, ok := strings.CutPrefix(typ, "..."); ok {
			typ = "[]" + elem
		}
		types[i] = typ
		loc := "a" + strconv.Itoa(i)
		if p.Shape == nil {
			bd.printf("%s = %s\n", loc, leafLiteral(l.ps[p.Leaf], l.args[p.Leaf], typ))
		} else {
			bd.fill(p.Shape, loc)
		}
	}
	if !bd.aliased {
		return ""
	}
	var results []string
	for i, typ := range types {
		results = append(results, "a"+strconv.Itoa(i)+" "+typ)
	}
	return "func() (" + strings.Join(results, ", ") + ") {\n" + bd.b.String() + "return\n}"
}
