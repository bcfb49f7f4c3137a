// This file decides which goroutine may touch the symbolic state st: the
// one that runs the target (the owner), and no other.
//
// Instrumented code can run on other goroutines too — a go statement of
// the target, or a closure of the target that a library runs on a
// goroutine of its own (errgroup, an HTTP handler, time.AfterFunc). Such
// code calls the runtime like any other, but the builder, the path, the
// coverage counters and the shadow maps are unsynchronised, and one
// symbolic path per execution is what the coordinator explores. So every
// entry point that would touch st asks tracking() first; on any other
// goroutine it computes the concrete result only, records nothing and
// returns no shadow.
//
// The owner is identified by its runtime descriptor (the g), which a
// two-instruction assembly function reads from where the runtime keeps it
// (the thread-local slot on amd64, a register on arm64). A g is unique
// among live goroutines, and the owner is alive for the whole execution,
// so no other goroutine can match it; the owner is cleared before it
// exits, so a new goroutine that reuses its g cannot match either.
//
// The assembly cannot be part of the runtime's copy in a worker build:
// the go command assembles in the package's directory, and that copy has
// none on disk (it lives in the build overlay). So the instrumenter adds
// the function to the instrumented packages, whose directories exist, and
// hands it over with UseG; gocolic's own build of this package
// uses g_amd64.s and g_arm64.s (g_asm.go). Without one (another
// architecture), goroutines are told apart by the number runtime.Stack
// prints: as sound, but it costs microseconds per call. What was rejected,
// and why, is in ARCHITECTURE.md.

package rt

import (
	"runtime"
	"sync/atomic"
	"unsafe"
)

// owner is the identity (curg) of the goroutine that runs the current
// execution, 0 between executions. Atomic because every goroutine running
// instrumented code reads it.
var owner atomic.Uintptr

// gFunc is how goroutines are told apart: a *func() uintptr to goid, or
// to what UseG installed. It is never nil once the package's variables
// are initialised (before any init function, UseG's callers' included),
// so the check is one indirect call; an unsafe.Pointer rather than an
// atomic.Pointer because the check then fits the inlining budget.
var (
	gFunc   unsafe.Pointer
	_       = defaultG()
	goidRef = goid
)

// defaultG installs goid unless UseG came first.
func defaultG() bool {
	atomic.CompareAndSwapPointer(&gFunc, nil, unsafe.Pointer(&goidRef))
	return true
}

// UseG installs f, which must return the address of the calling
// goroutine's runtime descriptor, to tell goroutines apart. The generated
// entry file calls it, from a package-level variable's initialisation, with
// the assembly function the instrumenter adds to the target's package. It
// returns true, for that variable.
func UseG(f func() uintptr) bool {
	atomic.StorePointer(&gFunc, unsafe.Pointer(&f))
	return true
}

// curg returns an identity of the calling goroutine, never 0, unique
// among live goroutines.
func curg() uintptr { return (*(*func() uintptr)(atomic.LoadPointer(&gFunc)))() }

// goid returns the number of the calling goroutine, parsed from the
// header runtime.Stack prints ("goroutine 18 [running]:"). Numbers are
// never reused.
func goid() uintptr {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	const prefix = "goroutine "
	var n uintptr
	for i := len(prefix); i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		n = n*10 + uintptr(b[i]-'0')
	}
	return n
}

// tracking reports whether the calling goroutine owns the symbolic state.
func tracking() bool { return curg() == owner.Load() }

// claim makes the calling goroutine the owner of the symbolic state, for
// the execution it is about to run.
func claim() { owner.Store(curg()) }

// release ends the ownership: until the next claim no goroutine tracks.
func release() { owner.Store(0) }

// keep returns s, or nil on a goroutine that does not own the state: for
// the operations that pass a shadow on without touching st.
func keep(s *Expr) *Expr {
	if s != nil && !tracking() {
		return nil
	}
	return s
}
