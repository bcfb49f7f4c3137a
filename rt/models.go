// This file holds what the models of standard-library functions that real
// code branches on share; the models themselves are grouped by package,
// one file each (models_strings.go, models_bytes.go, models_strconv.go,
// models_unicode.go, models_utf8.go, models_bits.go, models_binary.go,
// models_math.go, models_io.go), and instrument's models table lists them.
// A model has the shape of a twin: tracked parameters as V values, the
// real function's results, then one shadow per tracked result. It calls
// the real function for the concrete results, so concrete behaviour is the
// library's by construction, and builds terms for the shadows.
//
// Each term is exact on the model's domain and elsewhere falls back to the
// concrete result of this execution (an if-then-else on the domain
// condition): exact where it matters, never wrong at the input that ran.
// Functions with an error result take a site and record the error check as
// a branch, so that "err != nil" can be flipped like any condition.

package rt

import (
	"github.com/gocolic/gocolic/sym"
)

func k64(n int) *sym.Expr          { return st.b.Const(uint64(n), 64) }
func k8(n byte) *sym.Expr          { return st.b.Const(uint64(n), 8) }
func ule(x, y *sym.Expr) *sym.Expr { return st.b.Cmp(sym.KULe, x, y) }
func ult(x, y *sym.Expr) *sym.Expr { return st.b.Cmp(sym.KULt, x, y) }

// inRange is lo <= x <= hi, unsigned.
func inRange(x *sym.Expr, lo, hi uint64) *sym.Expr {
	return st.b.And(ule(st.b.Const(lo, x.Width), x), ule(x, st.b.Const(hi, x.Width)))
}

// boolShadow returns the shadow of a boolean result: t on dom, the
// concrete result c elsewhere.
func boolShadow(dom, t *sym.Expr, c bool) *sym.Expr { return st.b.Ite(dom, t, st.b.Bool(c)) }

// libTwin returns the twin, of type T, of lib, the library function a
// model was handed, when lib is a function of an instrumented package
// (an instrumented copy of a floor package, build/stdcopy.go) and this
// goroutine tracks: a model calls it where it would otherwise leave the
// result concrete.
func libTwin[T, F any](lib F) (T, bool) {
	var zero T
	if len(twinsByPC) == 0 || !tracking() {
		return zero, false
	}
	tw, ok := twinsByPC[funcPC(lib)].(T)
	return tw, ok
}

// intShadow is boolShadow for an integer result of width t.Width.
func intShadow(dom, t *sym.Expr, c uint64) *sym.Expr {
	return st.b.Ite(dom, t, st.b.Const(c, t.Width))
}

// unsigned are the types of the math/bits and encoding/binary results.
type unsigned interface {
	~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64
}
