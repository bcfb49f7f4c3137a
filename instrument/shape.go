// This file lays out composite parameters of the entry function — structs,
// arrays, slices, pointers, maps, variadic parameters and the receiver of
// a method — as trees of scalar inputs, and generates the entry code that
// assembles their values. Every scalar leaf is one rt.Param, stored into
// its place through the shadow memory, so that the function under test
// reads it with its input variable as shadow.

package instrument

import (
	"bytes"
	"fmt"
	"go/types"
	"slices"
	"strconv"

	"github.com/gocolic/gocolic/rt"
)

// ShapeKind is the kind of a node of a parameter's Shape.
type ShapeKind uint8

// The kinds of Shape nodes.
const (
	ShapeLeaf    ShapeKind = iota + 1 // a scalar, string or []byte: one rt.Param
	ShapeStruct                       // Fields and Elems, one per field set from the input
	ShapeArray                        // Elems, one per element
	ShapeSlice                        // Leaf is the length (at most Max); Elems the first Max elements
	ShapePointer                      // Leaf is the choice (rt.Param.Ref): 0 a new object, 1 nil, 2+k an alias; Elems[0] the object
	ShapeMap                          // Leaf is the number of entries; Elems alternate key and value
	ShapeZero                         // the zero value: nothing of it comes from the input
	ShapeIface                        // Leaf is the choice: k < len(Elems) candidate k, len(Elems) nil; Elems the candidates
)

// Shape says how the value of an entry parameter is assembled from the
// input's scalar parameters (Result.RTParams), so that the coordinator can
// write the value an input stands for as a Go literal.
type Shape struct {
	Kind ShapeKind
	// Type is the type of the value; nil for a ShapeZero whose type
	// cannot be named in the target package.
	Type types.Type
	// Leaf indexes Result.RTParams (see the kinds).
	Leaf int
	// Fields names the struct fields Elems hold.
	Fields []string
	Elems  []*Shape
}

// Shape limits. A pointer to a type already on the path from the
// parameter is unfolded at most maxUnfold times (a list of that many
// nodes, a tree of that depth), and a parameter has at most maxLeaves
// scalar inputs; past either limit a value is left at its zero value.
const (
	maxUnfold = 3
	maxLeaves = 512
)

// maxRefs bounds the earlier pointer inputs a pointer input may alias
// (rt.Param.Refs): the nearest ones in layout order, which include its
// ancestors on a small structure. Each is a case of the input's identity
// term, which every comparison of the pointer carries to the solver.
const maxRefs = 16

// DefaultMaxElems is the default number of elements of slice, map and
// variadic inputs (Config.MaxElems).
const DefaultMaxElems = 4

// shaper builds the shapes of an entry's parameters and the entry code
// that assembles them.
type shaper struct {
	ins      *instrumenter
	res      *Result
	name     func(types.Type) string // a type in the entry file
	src      *bytes.Buffer
	maxElems int
	leaves   int
	tmp      int
	onPath   map[types.Type]int
	ptrs     []ptrChoice // the pointer inputs so far, in layout order
}

// ptrChoice is a pointer input: its choice's parameter and pointee type.
type ptrChoice struct {
	leaf int
	elem types.Type
}

// newShaper returns a shaper that writes entry code to src.
func (ins *instrumenter) newShaper(res *Result, name func(types.Type) string, src *bytes.Buffer) *shaper {
	n := ins.cfg.MaxElems
	if n <= 0 {
		n = DefaultMaxElems
	}
	return &shaper{ins: ins, res: res, name: name, src: src, maxElems: n, onPath: map[types.Type]int{}}
}

// composite reports whether a parameter of type t is assembled by a
// shaper rather than passed as one input: every type that is not a
// scalar, a string or a []byte.
func composite(t types.Type) bool { return paramKind(t) == 0 }

// unsupported says why a parameter of type t cannot be an input, or ""
// when it can: the type must be nameable in the target package.
func (ins *instrumenter) unsupported(t types.Type) string {
	switch u := t.Underlying().(type) {
	case *types.Signature:
		return "functions are not supported as inputs"
	case *types.Chan:
		return "channels are not supported as inputs"
	case *types.Interface:
		if len(ins.candidates(t)) == 0 {
			return fmt.Sprintf("no type declared in package %s implements the interface", ins.pkg.Types.Name())
		}
	case *types.Basic:
		if u.Kind() == types.UnsafePointer || u.Info()&types.IsComplex != 0 {
			return fmt.Sprintf("%s is not supported as input", u)
		}
	}
	if !ins.nameable(t, 0) {
		return "the type cannot be named in the package"
	}
	return ""
}

// nameable reports whether t can be written in a file of the target
// package: no unexported or function-local type of another package.
func (ins *instrumenter) nameable(t types.Type, depth int) bool {
	if depth > 16 {
		return true // a recursive type: its named parts were checked above
	}
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		obj := t.Obj()
		switch {
		case obj.Pkg() == nil:
			return true
		case obj.Pkg() == ins.pkg.Types:
			if obj.Parent() != ins.pkg.Types.Scope() {
				return false
			}
		case !obj.Exported():
			return false
		}
		for i := 0; i < t.TypeArgs().Len(); i++ {
			if !ins.nameable(t.TypeArgs().At(i), depth+1) {
				return false
			}
		}
		return true
	case *types.Basic:
		return t.Info()&types.IsUntyped == 0 && t.Kind() != types.UnsafePointer
	case *types.Pointer:
		return ins.nameable(t.Elem(), depth+1)
	case *types.Slice:
		return ins.nameable(t.Elem(), depth+1)
	case *types.Array:
		return ins.nameable(t.Elem(), depth+1)
	case *types.Map:
		return ins.nameable(t.Key(), depth+1) && ins.nameable(t.Elem(), depth+1)
	case *types.Chan:
		return ins.nameable(t.Elem(), depth+1)
	case *types.Struct:
		for i := 0; i < t.NumFields(); i++ {
			f := t.Field(i)
			if !f.Exported() && f.Pkg() != ins.pkg.Types || !ins.nameable(f.Type(), depth+1) {
				return false
			}
		}
		return true
	case *types.Signature:
		return ins.nameableTuple(t.Params(), depth) && ins.nameableTuple(t.Results(), depth)
	case *types.Interface:
		for i := 0; i < t.NumMethods(); i++ {
			m := t.Method(i)
			if !m.Exported() && m.Pkg() != ins.pkg.Types || !ins.nameable(m.Type(), depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

func (ins *instrumenter) nameableTuple(t *types.Tuple, depth int) bool {
	for i := 0; i < t.Len(); i++ {
		if !ins.nameable(t.At(i).Type(), depth+1) {
			return false
		}
	}
	return true
}

// nameQualifier qualifies the types of packages other than pkg by their
// package names, for the names of inputs and the strings of shapes.
func nameQualifier(pkg *types.Package) types.Qualifier {
	return func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		return p.Name()
	}
}

// leaf adds a scalar input for a value of type t.
func (s *shaper) leaf(path string, t types.Type) int {
	s.res.RTParams = append(s.res.RTParams, runtimeParam(path, t))
	s.leaves++
	return len(s.res.RTParams) - 1
}

// bounded adds an input in [0, max]: a length or a choice.
func (s *shaper) bounded(path string, max int) int {
	s.res.RTParams = append(s.res.RTParams, rt.Param{Name: path, Kind: rt.ParamInt, Width: 64, Max: uint64(max)})
	s.leaves++
	return len(s.res.RTParams) - 1
}

// pointer adds the choice of a pointer input to elem (rt.Param.Ref): it
// may alias the nearest maxRefs earlier pointer inputs to the same type.
func (s *shaper) pointer(path string, elem types.Type) int {
	var refs []int
	for k := len(s.ptrs) - 1; k >= 0 && len(refs) < maxRefs; k-- {
		if types.Identical(s.ptrs[k].elem, elem) {
			refs = append(refs, s.ptrs[k].leaf)
		}
	}
	slices.Reverse(refs)
	i := s.bounded(path+".nil", 1+len(refs))
	s.res.RTParams[i].Ref, s.res.RTParams[i].Refs = true, refs
	s.ptrs = append(s.ptrs, ptrChoice{leaf: i, elem: elem})
	return i
}

func (s *shaper) printf(format string, args ...any) { fmt.Fprintf(s.src, format, args...) }

// build returns the shape of a value of type t and writes the statements
// that fill the addressable location loc with it. A value the shaper
// leaves at its zero value has a ShapeZero shape and no statements.
func (s *shaper) build(t types.Type, loc, path string) *Shape {
	mark, nparams, leaves := s.src.Len(), len(s.res.RTParams), s.leaves
	sh := s.fill(t, loc, path)
	if sh == nil {
		s.src.Truncate(mark)
		s.res.RTParams, s.leaves = s.res.RTParams[:nparams], leaves
		for len(s.ptrs) > 0 && s.ptrs[len(s.ptrs)-1].leaf >= nparams {
			s.ptrs = s.ptrs[:len(s.ptrs)-1]
		}
		sh = &Shape{Kind: ShapeZero}
		if s.ins.nameable(t, 0) {
			sh.Type = t
		}
	}
	return sh
}

// fill does the work of build; nil means the zero value.
func (s *shaper) fill(t types.Type, loc, path string) *Shape {
	if s.leaves >= maxLeaves || !s.ins.nameable(t, 0) {
		return nil
	}
	tn := s.name(t)
	if k := paramKind(t); k != 0 {
		i := s.leaf(path, t)
		store := rtStore
		switch k {
		case rt.ParamString:
			store = rtStoreString
		case rt.ParamBytes:
			store = rtStoreByteSlice
		}
		s.printf("%s(%s[%s](in, %d), &%s)\n", rtRef(store), rtRef(inputCtor[k]), tn, i, loc)
		return &Shape{Kind: ShapeLeaf, Type: t, Leaf: i}
	}
	sh := &Shape{Type: t}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		sh.Kind = ShapeStruct
		for i := 0; i < u.NumFields(); i++ {
			f := u.Field(i)
			if f.Name() == "_" || !f.Exported() && f.Pkg() != s.ins.pkg.Types {
				continue
			}
			if e := s.build(f.Type(), loc+"."+f.Name(), path+"."+f.Name()); e.Kind != ShapeZero {
				sh.Fields = append(sh.Fields, f.Name())
				sh.Elems = append(sh.Elems, e)
			}
		}
		if len(sh.Elems) == 0 {
			return nil
		}
	case *types.Array:
		sh.Kind = ShapeArray
		for i := int64(0); i < u.Len(); i++ {
			sh.Elems = append(sh.Elems, s.build(u.Elem(), fmt.Sprintf("%s[%d]", loc, i), fmt.Sprintf("%s[%d]", path, i)))
		}
	case *types.Slice:
		sh.Kind = ShapeSlice
		sh.Leaf = s.bounded(path+".len", s.maxElems)
		s.printf("%s = %s[%s](in, %d)\n", loc, rtRef(rtInputSlice), tn, sh.Leaf)
		for i := 0; i < s.maxElems; i++ {
			s.printf("if len(%s) > %d {\n", loc, i)
			sh.Elems = append(sh.Elems, s.build(u.Elem(), fmt.Sprintf("%s[%d]", loc, i), fmt.Sprintf("%s[%d]", path, i)))
			s.printf("}\n")
		}
	case *types.Pointer:
		if s.onPath[u.Elem()] >= maxUnfold {
			return nil
		}
		s.onPath[u.Elem()]++
		defer func() { s.onPath[u.Elem()]-- }()
		sh.Kind = ShapePointer
		sh.Leaf = s.pointer(path, u.Elem())
		// The object is registered before its fields are filled, so that
		// a pointer inside it may alias it: that closes a cycle.
		s.printf("if %[4]s, %[5]s := %[6]s[%[3]s](in, %[1]d); %[5]s {\n%[2]s = new(%[3]s)\n%[7]s(in, %[1]d, %[2]s)\n",
			sh.Leaf, loc, s.name(u.Elem()), ptrOld, ptrNew, rtRef(rtInputPtr), rtRef(rtInputObject))
		sh.Elems = []*Shape{s.build(u.Elem(), "(*"+loc+")", path)}
		s.printf("} else {\n%s = %s\n}\n", loc, ptrOld)
	case *types.Interface:
		return s.iface(t, sh, loc, path)
	case *types.Map:
		sh.Kind = ShapeMap
		sh.Leaf = s.bounded(path+".len", s.maxElems)
		s.printf("%s = make(%s)\n", loc, tn)
		if s.flatMap(u, sh, loc, path) {
			break
		}
		for i := 0; i < s.maxElems; i++ {
			s.tmp++
			k, v := fmt.Sprintf("%s%d", mapKeyPrefix, s.tmp), fmt.Sprintf("%s%d", mapValPrefix, s.tmp)
			s.printf("if %s(in, %d).%s > %d {\nvar %s %s\nvar %s %s\n", rtRef(rtInputLen), sh.Leaf, vConcrete, i, k, s.name(u.Key()), v, s.name(u.Elem()))
			sh.Elems = append(sh.Elems,
				s.build(u.Key(), k, fmt.Sprintf("%s.key%d", path, i)),
				s.build(u.Elem(), v, fmt.Sprintf("%s.value%d", path, i)))
			s.printf("%s[%s] = %s\n}\n", loc, k, v)
		}
	default:
		return nil
	}
	return sh
}

// String writes the shape compactly, for messages; the types of
// packages are qualified by their names.
func (sh *Shape) String() string { return sh.format(nameQualifier(nil)) }

// format writes the shape compactly, its types qualified by q.
func (sh *Shape) format(q types.Qualifier) string {
	switch sh.Kind {
	case ShapeZero:
		return "0"
	case ShapeLeaf:
		return "#" + strconv.Itoa(sh.Leaf)
	case ShapeStruct:
		var b bytes.Buffer
		b.WriteString(types.TypeString(sh.Type, q) + "{")
		for i, f := range sh.Fields {
			if i > 0 {
				b.WriteString(" ")
			}
			fmt.Fprintf(&b, "%s:%s", f, sh.Elems[i].format(q))
		}
		b.WriteString("}")
		return b.String()
	case ShapePointer:
		return fmt.Sprintf("*#%d%s", sh.Leaf, sh.Elems[0].format(q))
	}
	var b bytes.Buffer
	switch sh.Kind {
	case ShapeArray:
		b.WriteString("[")
	case ShapeSlice:
		fmt.Fprintf(&b, "[#%d:", sh.Leaf)
	case ShapeMap:
		fmt.Fprintf(&b, "map#%d[", sh.Leaf)
	case ShapeIface:
		fmt.Fprintf(&b, "%s#%d(", types.TypeString(sh.Type, q), sh.Leaf)
	}
	for i, e := range sh.Elems {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(e.format(q))
	}
	if sh.Kind == ShapeIface {
		b.WriteString(")")
	} else {
		b.WriteString("]")
	}
	return b.String()
}

// flatMap writes the entries of a map input whose keys and values are
// leaves the runtime tracks in maps (rt.MapInput): every entry up to the
// bound is logged, those past the length input guarded by it, so that the
// solver can make an entry present as well as choose its key and value.
// It reports false, writing nothing, for other maps.
func (s *shaper) flatMap(u *types.Map, sh *Shape, loc, path string) bool {
	if _, ok := mapOf(u); !ok || paramKind(u.Key()) == 0 || paramKind(u.Elem()) == 0 {
		return false
	}
	if s.leaves+2*s.maxElems > maxLeaves {
		return false
	}
	for i := 0; i < s.maxElems; i++ {
		ki := s.leaf(fmt.Sprintf("%s.key%d", path, i), u.Key())
		vi := s.leaf(fmt.Sprintf("%s.value%d", path, i), u.Elem())
		s.printf("%s(%s, %s(in, %d), %d, %s[%s](in, %d), %s[%s](in, %d))\n",
			rtRef(rtMapInput), loc, rtRef(rtInputLen), sh.Leaf, i, rtRef(inputCtor[paramKind(u.Key())]), s.name(u.Key()), ki, rtRef(inputCtor[paramKind(u.Elem())]), s.name(u.Elem()), vi)
		sh.Elems = append(sh.Elems,
			&Shape{Kind: ShapeLeaf, Type: u.Key(), Leaf: ki},
			&Shape{Kind: ShapeLeaf, Type: u.Elem(), Leaf: vi})
	}
	return true
}
