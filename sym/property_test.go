package sym

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

var propertySeed = flag.Uint64("sym.seed", 1, "seed of the random expression trees in the property tests")

// A tnode is a generated expression, kept apart from the Builder so that it
// can be built three ways: through the Builder (with its simplifications),
// as raw unsimplified nodes, and as Go source.
type tnode struct {
	k      Kind  // a node kind, or tShift or tConvert
	w      uint8 // result width; 0 for booleans
	val    uint64
	signed bool // tConvert: the source is signed
	args   []*tnode
}

// Pseudo-kinds for the Builder methods that are not a single node kind.
const (
	tShift   = numKinds + iota // Builder.Shift(Kind(val), x, amount of any width)
	tConvert                   // Builder.Convert(x, w, signed)
)

// The variables of the generated trees: three of each width, two booleans.
const (
	varsPerWidth = 3
	numTreeVars  = 4*varsPerWidth + 2
)

var widths = [...]uint8{8, 16, 32, 64}

func widthIndex(w uint8) int {
	for i, x := range widths {
		if x == w {
			return i
		}
	}
	panic(fmt.Sprint("bad width ", w))
}

// treeVarWidth returns the width of variable n of the generated trees.
func treeVarWidth(n uint64) uint8 {
	if n >= 4*varsPerWidth {
		return 0
	}
	return widths[n/varsPerWidth]
}

// treeGen generates random trees.
type treeGen struct {
	r *rand.Rand
	// noFloats leaves out the float kinds, whose results compiled Go
	// gives only on amd64 (float.go).
	noFloats bool
}

func newTreeGen(seed uint64) *treeGen {
	return &treeGen{r: rand.New(rand.NewPCG(seed, 0x5eed))}
}

// edge returns a random value of width w, often a boundary value.
func (g *treeGen) edge(w uint8) uint64 {
	m := Mask(w)
	switch g.r.IntN(10) {
	case 0:
		return 0
	case 1:
		return 1
	case 2:
		return m // -1
	case 3:
		return m >> 1 // MaxInt
	case 4:
		return m>>1 + 1 // MinInt
	case 5:
		return uint64(g.r.IntN(2 * int(w))) // a plausible shift amount
	case 6:
		return -uint64(g.r.IntN(9)) & m // small negative
	case 7, 8:
		if w >= 32 { // the bits of an interesting float
			edges := floatEdgeTable[w]
			return edges[g.r.IntN(len(edges))]
		}
	}
	return g.r.Uint64() & m
}

// floatEdgeTable holds the float edge values (float_test.go) by width.
var floatEdgeTable = map[uint8][]uint64{32: float32Edges(), 64: dedup(float64Edges())}

// otherFloatWidth returns 32 for 64 and 64 for 32.
func otherFloatWidth(w uint8) uint8 { return 96 - w }

func (g *treeGen) otherWidth(w uint8) uint8 {
	for {
		if x := widths[g.r.IntN(len(widths))]; x != w {
			return x
		}
	}
}

func (g *treeGen) variable(w uint8) *tnode {
	if w == 0 {
		return &tnode{k: KVar, val: 4*varsPerWidth + uint64(g.r.IntN(2))}
	}
	n := varsPerWidth*widthIndex(w) + g.r.IntN(varsPerWidth)
	return &tnode{k: KVar, w: w, val: uint64(n)}
}

func tconst(v uint64, w uint8) *tnode { return &tnode{k: KConst, w: w, val: v & Mask(w)} }

// bv returns a bit-vector tree of width w and depth at most depth.
func (g *treeGen) bv(w uint8, depth int) *tnode {
	if depth == 0 || g.r.IntN(6) == 0 {
		switch n := g.r.IntN(10); {
		case n < 6:
			return g.variable(w)
		case n < 8:
			return tconst(g.edge(w), w)
		default: // a variable of another width, converted
			from := g.otherWidth(w)
			return &tnode{k: tConvert, w: w, signed: g.r.IntN(2) == 0, args: []*tnode{g.variable(from)}}
		}
	}
	d := depth - 1
	if g.r.IntN(6) == 0 && !g.noFloats {
		return g.float(w, d)
	}
	switch n := g.r.IntN(20); {
	case n < 11:
		k := KAdd + Kind(g.r.IntN(int(KAShr-KAdd)+1))
		x, y := g.bv(w, d), g.bv(w, d)
		switch k {
		case KUDiv, KSDiv, KURem, KSRem:
			y = g.nonZero(y)
		}
		return &tnode{k: k, w: w, args: []*tnode{x, y}}
	case n == 11:
		return &tnode{k: KNeg, w: w, args: []*tnode{g.bv(w, d)}}
	case n == 12:
		return &tnode{k: KCpl, w: w, args: []*tnode{g.bv(w, d)}}
	case n == 13:
		k := []Kind{KShl, KLShr, KAShr}[g.r.IntN(3)]
		aw := widths[g.r.IntN(len(widths))]
		return &tnode{k: tShift, w: w, val: uint64(k), args: []*tnode{g.bv(w, d), g.bv(aw, d)}}
	case n == 14:
		from := g.otherWidth(w)
		return &tnode{k: tConvert, w: w, signed: g.r.IntN(2) == 0, args: []*tnode{g.bv(from, d)}}
	case n == 15:
		from := g.otherWidth(w)
		k := KTrunc
		if from < w {
			k = []Kind{KZExt, KSExt}[g.r.IntN(2)]
		}
		return &tnode{k: k, w: w, args: []*tnode{g.bv(from, d)}}
	default:
		return &tnode{k: KIte, w: w, args: []*tnode{g.boolean(d), g.bv(w, d), g.bv(w, d)}}
	}
}

// float returns a tree of width w whose top node is a float kind: a float
// result if w is a float width, else a conversion to an integer.
func (g *treeGen) float(w uint8, d int) *tnode {
	n := g.r.IntN(10)
	if w < 32 {
		n = 9
	}
	switch {
	case n < 4:
		k := KFAdd + Kind(g.r.IntN(int(KFDiv-KFAdd)+1))
		return &tnode{k: k, w: w, args: []*tnode{g.bv(w, d), g.bv(w, d)}}
	case n == 4:
		return &tnode{k: KFNeg, w: w, args: []*tnode{g.bv(w, d)}}
	case n == 5:
		return &tnode{k: KFConv, w: w, args: []*tnode{g.bv(otherFloatWidth(w), d)}}
	case n < 8:
		k := []Kind{KSToF, KUToF}[g.r.IntN(2)]
		return &tnode{k: k, w: w, args: []*tnode{g.bv(widths[g.r.IntN(len(widths))], d)}}
	}
	k := []Kind{KFToS, KFToU}[g.r.IntN(2)]
	return &tnode{k: k, w: w, args: []*tnode{g.bv(32*uint8(1+g.r.IntN(2)), d)}}
}

// nonZero guards a divisor so that it is never zero, in one of two ways.
func (g *treeGen) nonZero(y *tnode) *tnode {
	if g.r.IntN(2) == 0 {
		return &tnode{k: KOr, w: y.w, args: []*tnode{y, tconst(1, y.w)}}
	}
	isZero := &tnode{k: KEq, args: []*tnode{y, tconst(0, y.w)}}
	return &tnode{k: KIte, w: y.w, args: []*tnode{isZero, tconst(1, y.w), y}}
}

// boolean returns a boolean tree of depth at most depth.
func (g *treeGen) boolean(depth int) *tnode {
	if depth == 0 || g.r.IntN(6) == 0 {
		switch n := g.r.IntN(10); {
		case n < 4:
			return g.variable(0)
		case n == 4:
			if g.r.IntN(2) == 0 {
				return &tnode{k: KTrue}
			}
			return &tnode{k: KFalse}
		default:
			if depth == 0 {
				return g.variable(0)
			}
		}
	}
	d := depth - 1
	n := g.r.IntN(11)
	if n == 10 && g.noFloats {
		n = 0
	}
	switch {
	case n < 5:
		k := KEq + Kind(g.r.IntN(int(KSLe-KEq)+1))
		w := widths[g.r.IntN(len(widths))]
		return &tnode{k: k, args: []*tnode{g.bv(w, d), g.bv(w, d)}}
	case n == 10:
		k := KFEq + Kind(g.r.IntN(int(KFLe-KFEq)+1))
		w := 32 * uint8(1+g.r.IntN(2))
		return &tnode{k: k, args: []*tnode{g.bv(w, d), g.bv(w, d)}}
	case n == 5:
		return &tnode{k: KNot, args: []*tnode{g.boolean(d)}}
	case n == 6:
		return &tnode{k: KLAnd, args: []*tnode{g.boolean(d), g.boolean(d)}}
	case n == 7:
		return &tnode{k: KLOr, args: []*tnode{g.boolean(d), g.boolean(d)}}
	case n == 8:
		return &tnode{k: KEq, args: []*tnode{g.boolean(d), g.boolean(d)}}
	default:
		return &tnode{k: KIte, args: []*tnode{g.boolean(d), g.boolean(d), g.boolean(d)}}
	}
}

// env returns random values for the variables of the generated trees.
func (g *treeGen) env() Env {
	env := make(Env, numTreeVars)
	for n := uint64(0); n < numTreeVars; n++ {
		if w := treeVarWidth(n); w != 0 {
			env[n] = g.edge(w)
		} else {
			env[n] = uint64(g.r.IntN(2))
		}
	}
	return env
}

// build makes t with the Builder's typed constructors.
func (t *tnode) build(b *Builder) *Expr {
	a := make([]*Expr, len(t.args))
	for i, x := range t.args {
		a[i] = x.build(b)
	}
	switch {
	case t.k == KConst:
		return b.Const(t.val, t.w)
	case t.k == KTrue, t.k == KFalse:
		return b.Bool(t.k == KTrue)
	case t.k == KVar:
		return b.Var(t.val, t.w)
	case t.k == KAdd:
		return b.Add(a[0], a[1])
	case t.k == KSub:
		return b.Sub(a[0], a[1])
	case t.k.IsBinaryBV():
		return b.Bin(t.k, a[0], a[1])
	case t.k == KNeg:
		return b.Neg(a[0])
	case t.k == KCpl:
		return b.Cpl(a[0])
	case t.k == tShift:
		return b.Shift(Kind(t.val), a[0], a[1])
	case t.k == tConvert:
		return b.Convert(a[0], t.w, t.signed)
	case t.k == KZExt:
		return b.ZExt(a[0], t.w)
	case t.k == KSExt:
		return b.SExt(a[0], t.w)
	case t.k == KTrunc:
		return b.Trunc(a[0], t.w)
	case t.k == KIte:
		return b.Ite(a[0], a[1], a[2])
	case t.k == KEq:
		return b.Eq(a[0], a[1])
	case t.k.IsCompare():
		return b.Cmp(t.k, a[0], a[1])
	case t.k == KNot:
		return b.Not(a[0])
	case t.k == KLAnd:
		return b.And(a[0], a[1])
	case t.k == KLOr:
		return b.Or(a[0], a[1])
	case t.k.IsFloatArith():
		return b.FBin(t.k, a[0], a[1])
	case t.k == KFNeg:
		return b.FNeg(a[0])
	case t.k.IsFloatCompare():
		return b.FCmp(t.k, a[0], a[1])
	case t.k == KFToS, t.k == KFToU:
		return b.FToInt(a[0], t.w, t.k == KFToS)
	case t.k == KSToF, t.k == KUToF:
		return b.IntToF(a[0], t.w, t.k == KSToF)
	case t.k == KFConv:
		return b.FConv(a[0], t.w)
	}
	panic("build of " + t.k.String())
}

// rawNode returns a node made without a Builder, so without any
// simplification or folding.
func rawNode(k Kind, w uint8, args ...*Expr) *Expr {
	return &Expr{Kind: k, Width: w, Args: args}
}

func rawConst(v uint64, w uint8) *Expr { return &Expr{Kind: KConst, Width: w, Val: v & Mask(w)} }

// raw makes t as unsimplified nodes. The pseudo-kinds are spelt out by
// their definitions in Go's terms.
func (t *tnode) raw() *Expr {
	a := make([]*Expr, len(t.args))
	for i, x := range t.args {
		a[i] = x.raw()
	}
	switch t.k {
	case KConst:
		return rawConst(t.val, t.w)
	case KTrue, KFalse:
		return rawNode(t.k, 0)
	case KVar:
		return &Expr{Kind: KVar, Width: t.w, Val: t.val}
	case tShift:
		k, x, y := Kind(t.val), a[0], a[1]
		switch {
		case y.Width == x.Width:
			return rawNode(k, x.Width, x, y)
		case y.Width < x.Width:
			return rawNode(k, x.Width, x, rawNode(KZExt, x.Width, y))
		}
		// Amounts of at least the width shift out every bit: x >> amount
		// is then what x >> (width-1) is for KAShr, else 0.
		inRange := rawNode(KULt, 0, y, rawConst(uint64(x.Width), y.Width))
		all := rawConst(0, x.Width)
		if k == KAShr {
			all = rawNode(KAShr, x.Width, x, rawConst(uint64(x.Width)-1, x.Width))
		}
		return rawNode(KIte, x.Width, inRange, rawNode(k, x.Width, x, rawNode(KTrunc, x.Width, y)), all)
	case tConvert:
		x := a[0]
		switch {
		case t.w == x.Width:
			return x
		case t.w < x.Width:
			return rawNode(KTrunc, t.w, x)
		case t.signed:
			return rawNode(KSExt, t.w, x)
		}
		return rawNode(KZExt, t.w, x)
	}
	return rawNode(t.k, t.w, a...)
}

func goUint(w uint8) string { return fmt.Sprintf("uint%d", w) }
func goInt(w uint8) string  { return fmt.Sprintf("int%d", w) }

// goExpr renders t as a Go expression over v, the *[numTreeVars]uint64 of
// inputs. A bit-vector of width w has type uintw, converted to intw where
// the operation is signed; a boolean has type bool. A float kind reads
// its operands' bits as float32 or float64 (f32, f64) and gives bits back
// (b32, b64). Constants go through the identity functions k8...k64 so that
// nothing is a constant expression, which the compiler would evaluate
// exactly and reject on overflow.
func (t *tnode) goExpr() string {
	a := make([]string, len(t.args))
	aw := make([]uint8, len(t.args))
	for i, x := range t.args {
		a[i], aw[i] = x.goExpr(), x.w
	}
	w, u, s := t.w, goUint(t.w), goInt(t.w)
	infix := map[Kind]string{
		KAdd: "+", KSub: "-", KMul: "*", KUDiv: "/", KURem: "%", KAnd: "&", KOr: "|", KXor: "^",
		KShl: "<<", KLShr: ">>", KLAnd: "&&", KLOr: "||",
	}
	switch t.k {
	case KConst:
		return fmt.Sprintf("k%d(%d)", w, t.val)
	case KTrue:
		return "true"
	case KFalse:
		return "false"
	case KVar:
		if w == 0 {
			return fmt.Sprintf("(v[%d] != 0)", t.val)
		}
		return fmt.Sprintf("%s(v[%d])", u, t.val)
	case KAdd, KSub, KMul, KUDiv, KURem, KAnd, KOr, KXor, KShl, KLShr, KLAnd, KLOr:
		return fmt.Sprintf("(%s %s %s)", a[0], infix[t.k], a[1])
	case KSDiv:
		return fmt.Sprintf("%s(%s(%s) / %s(%s))", u, s, a[0], s, a[1])
	case KSRem:
		return fmt.Sprintf("%s(%s(%s) %% %s(%s))", u, s, a[0], s, a[1])
	case KAShr:
		return fmt.Sprintf("%s(%s(%s) >> %s)", u, s, a[0], a[1])
	case KNeg:
		return fmt.Sprintf("(-%s)", a[0])
	case KCpl:
		return fmt.Sprintf("(^%s)", a[0])
	case tShift:
		if Kind(t.val) == KAShr {
			return fmt.Sprintf("%s(%s(%s) >> %s)", u, s, a[0], a[1])
		}
		return fmt.Sprintf("(%s %s %s)", a[0], infix[Kind(t.val)], a[1])
	case tConvert:
		if t.signed {
			return fmt.Sprintf("%s(%s(%s))", u, goInt(aw[0]), a[0])
		}
		return fmt.Sprintf("%s(%s)", u, a[0])
	case KZExt, KTrunc:
		return fmt.Sprintf("%s(%s)", u, a[0])
	case KSExt:
		return fmt.Sprintf("%s(%s(%s))", u, goInt(aw[0]), a[0])
	case KIte:
		return fmt.Sprintf("ite(%s, %s, %s)", a[0], a[1], a[2])
	case KEq:
		return fmt.Sprintf("(%s == %s)", a[0], a[1])
	case KULt:
		return fmt.Sprintf("(%s < %s)", a[0], a[1])
	case KULe:
		return fmt.Sprintf("(%s <= %s)", a[0], a[1])
	case KSLt:
		return fmt.Sprintf("(%s(%s) < %s(%s))", goInt(aw[0]), a[0], goInt(aw[1]), a[1])
	case KSLe:
		return fmt.Sprintf("(%s(%s) <= %s(%s))", goInt(aw[0]), a[0], goInt(aw[1]), a[1])
	case KNot:
		return fmt.Sprintf("(!%s)", a[0])
	case KFAdd, KFSub, KFMul, KFDiv:
		// Helpers that are never inlined keep the operands of + and * in
		// order, which decides the payload of a NaN result (float.go).
		name := map[Kind]string{KFAdd: "fadd", KFSub: "fsub", KFMul: "fmul", KFDiv: "fdiv"}[t.k]
		return fmt.Sprintf("%s%d(%s, %s)", name, w, a[0], a[1])
	case KFNeg:
		return fmt.Sprintf("b%d(-f%d(%s))", w, w, a[0])
	case KFEq, KFLt, KFLe:
		op := map[Kind]string{KFEq: "==", KFLt: "<", KFLe: "<="}[t.k]
		return fmt.Sprintf("(f%d(%s) %s f%d(%s))", aw[0], a[0], op, aw[1], a[1])
	case KFToS:
		return fmt.Sprintf("%s(%s(f%d(%s)))", u, s, aw[0], a[0])
	case KFToU:
		return fmt.Sprintf("%s(f%d(%s))", u, aw[0], a[0])
	case KSToF:
		return fmt.Sprintf("b%d(float%d(%s(%s)))", w, w, goInt(aw[0]), a[0])
	case KUToF:
		return fmt.Sprintf("b%d(float%d(%s))", w, w, a[0])
	case KFConv:
		return fmt.Sprintf("b%d(float%d(f%d(%s)))", w, w, aw[0], a[0])
	}
	panic("goExpr of " + t.k.String())
}

const probePrelude = `package main

import (
	"fmt"
	"math"
)

func ite[T any](c bool, x, y T) T {
	if c {
		return x
	}
	return y
}

func k8(v uint8) uint8    { return v }
func k16(v uint16) uint16 { return v }
func k32(v uint32) uint32 { return v }
func k64(v uint64) uint64 { return v }

func bit(c bool) uint64 {
	if c {
		return 1
	}
	return 0
}

func f32(v uint32) float32 { return math.Float32frombits(v) }
func f64(v uint64) float64 { return math.Float64frombits(v) }
func b32(f float32) uint32 { return math.Float32bits(f) }
func b64(f float64) uint64 { return math.Float64bits(f) }

//go:noinline
func fadd32(x, y uint32) uint32 { return b32(f32(x) + f32(y)) }

//go:noinline
func fsub32(x, y uint32) uint32 { return b32(f32(x) - f32(y)) }

//go:noinline
func fmul32(x, y uint32) uint32 { return b32(f32(x) * f32(y)) }

//go:noinline
func fdiv32(x, y uint32) uint32 { return b32(f32(x) / f32(y)) }

//go:noinline
func fadd64(x, y uint64) uint64 { return b64(f64(x) + f64(y)) }

//go:noinline
func fsub64(x, y uint64) uint64 { return b64(f64(x) - f64(y)) }

//go:noinline
func fmul64(x, y uint64) uint64 { return b64(f64(x) * f64(y)) }

//go:noinline
func fdiv64(x, y uint64) uint64 { return b64(f64(x) / f64(y)) }

func main() {
	for i, t := range trees {
		for j := range inputs {
			fmt.Println(i, j, t(&inputs[j]))
		}
	}
}
`

// probeProgram returns a Go program that prints "tree input value" for
// every tree and input.
func probeProgram(trees []*tnode, inputs []Env) string {
	var sb strings.Builder
	sb.WriteString(probePrelude)
	fmt.Fprintf(&sb, "\nvar inputs = [][%d]uint64{\n", numTreeVars)
	for _, env := range inputs {
		sb.WriteString("\t{")
		for n := uint64(0); n < numTreeVars; n++ {
			if n > 0 {
				sb.WriteString(", ")
			}
			fmt.Fprintf(&sb, "%#x", env[n])
		}
		sb.WriteString("},\n")
	}
	sb.WriteString("}\n")
	fmt.Fprintf(&sb, "\nvar trees = []func(v *[%d]uint64) uint64{\n", numTreeVars)
	for _, t := range trees {
		conv := "uint64"
		if t.w == 0 {
			conv = "bit"
		}
		fmt.Fprintf(&sb, "\tfunc(v *[%d]uint64) uint64 { return %s(%s) },\n", numTreeVars, conv, t.goExpr())
	}
	sb.WriteString("}\n")
	return sb.String()
}

func goTool(t *testing.T) string {
	if root := os.Getenv("GOROOT"); root != "" {
		p := filepath.Join(root, "bin", "go")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	p, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	return p
}

// runProbe compiles and runs the program and returns its values, indexed
// by tree and input.
func runProbe(t *testing.T, src string, ntrees, ninputs int) [][]uint64 {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":  "module probe\n\ngo 1.24\n",
		"main.go": src,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, goTool(t), "run", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=", "GOTOOLCHAIN=local", "GO111MODULE=on")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go run: %v\n%s", err, stderr.String())
	}
	vals := make([][]uint64, ntrees)
	seen := make([][]bool, ntrees)
	for i := range vals {
		vals[i] = make([]uint64, ninputs)
		seen[i] = make([]bool, ninputs)
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		var i, j int
		var v uint64
		if _, err := fmt.Sscan(sc.Text(), &i, &j, &v); err != nil || i < 0 || i >= ntrees || j < 0 || j >= ninputs {
			t.Fatalf("bad probe output line %q: %v", sc.Text(), err)
		}
		vals[i][j], seen[i][j] = v, true
	}
	for i := range seen {
		for j := range seen[i] {
			if !seen[i][j] {
				t.Fatalf("probe printed no value for tree %d, input %d", i, j)
			}
		}
	}
	return vals
}

// TestEvalMatchesCompiledGo evaluates random trees with Eval, both as built
// by the Builder and as raw unsimplified nodes, and compares the results
// bit for bit with the same trees compiled as Go expressions.
func TestEvalMatchesCompiledGo(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	const (
		treesPerSort = 60
		maxDepth     = 5
		numInputs    = 8
	)
	g := newTreeGen(*propertySeed)
	g.noFloats = runtime.GOARCH != "amd64"
	var trees []*tnode
	for _, w := range []uint8{0, 8, 16, 32, 64} {
		for range treesPerSort {
			if w == 0 {
				trees = append(trees, g.boolean(maxDepth))
			} else {
				trees = append(trees, g.bv(w, maxDepth))
			}
		}
	}
	inputs := make([]Env, numInputs)
	inputs[0] = make(Env) // all zero
	for j := 1; j < numInputs; j++ {
		inputs[j] = g.env()
	}
	src := probeProgram(trees, inputs)
	goVals := runProbe(t, src, len(trees), len(inputs))

	b := NewBuilder()
	for i, tree := range trees {
		built, raw := tree.build(b), tree.raw()
		if built.Width != tree.w {
			t.Errorf("tree %d: built width %d, want %d: %v", i, built.Width, tree.w, built)
		}
		for j, env := range inputs {
			want := goVals[i][j]
			gotBuilt, gotRaw := Eval(built, env), Eval(raw, env)
			if gotBuilt != want || gotRaw != want {
				t.Errorf("tree %d (seed %d), input %v:\n\tgo:    %s = %#x\n\traw:   %v = %#x\n\tbuilt: %v = %#x",
					i, *propertySeed, env, tree.goExpr(), want, raw, gotRaw, built, gotBuilt)
			}
		}
	}
}
