// This file tracks maps whose keys are integers, booleans or strings and
// whose values are integers, booleans, floats or strings.
//
// A map has no addresses for its entries, so the shadow memory cannot
// hold them; instead each map (keyed by its header, which a map keeps for
// its lifetime) has a log of the writes the rewrite saw, oldest first:
// each a set or a delete at a key term, with an optional guard, the
// condition under which the write happened at all (the entries of a map
// input past its length input). A read at key k is the log evaluated
// newest write first: ite(k == k2, v2, ite(k == k1, v1, zero)), and "k is
// present" the matching disjunction. This is exact whatever the solver
// makes of the keys: two writes whose keys are equal under a new input
// act as the later one, as the map would. The length is a running term:
// a set adds "the key was absent", a delete takes away "it was present".
//
// The log is trusted only while the map holds what the log says it holds
// at this input (its concrete mirror): a write the rewrite did not see
// makes it stale, and the map concrete, like a stale shadow-memory cell.

package rt

import (
	stdcmp "cmp"
	"reflect"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/gocolic/gocolic/sym"
)

// maxMapSplit bounds the writes a map's log holds, and the entries of a
// map without log that a read at a symbolic key splits over: beyond it
// the map is read at the concrete key (CauseIndex).
const maxMapSplit = 256

// MapKey is the set of key types of tracked maps. Float keys are left
// out: map equality on floats (+0 == -0, NaN != NaN) is not the
// bit-vector equality of their terms.
type MapKey interface {
	Integer | ~bool | ~string
}

// MapElem is the set of value types of tracked maps.
type MapElem interface {
	Scalar | ~string
}

// mapWrite is one write of a map's log.
type mapWrite struct {
	key   *sym.Expr // the key's term (a constant for a concrete key)
	val   *sym.Expr // the value's term; nil for a delete
	guard *sym.Expr // the write happened only if this holds; nil: always
	conc  bool      // the key is concrete: kc alone says which entry it wrote
	kc    any       // the concrete key
}

// mapShadow is the shadow of one map: its log, the term of its length,
// and live, the map[K]E the log leaves at this input (the concrete check).
type mapShadow struct {
	log  []mapWrite
	n    *sym.Expr
	live any
}

// mapsUsed is set once the execution has a map shadow, and cleared by
// reset: like memUsed, it keeps goroutines that do not own the state off
// st.maps.
var mapsUsed atomic.Bool

// kind describes how the runtime builds terms for a key or value type.
type kind struct {
	str  bool  // a string: an aggregate term
	w    uint8 // else the width in bits, 0 for bool
	size uintptr
}

func kindOf[T any]() kind {
	t := reflect.TypeFor[T]()
	switch t.Kind() {
	case reflect.String:
		return kind{str: true}
	case reflect.Bool:
		return kind{size: 1}
	}
	return kind{w: uint8(t.Size() * 8), size: t.Size()}
}

// constOf returns the constant term of the value at p, of kind k.
func (k kind) constOf(p unsafe.Pointer) *sym.Expr {
	if k.str {
		return aggOf(*(*string)(p))
	}
	var bits uint64
	switch k.size {
	case 1:
		bits = uint64(*(*uint8)(p))
	case 2:
		bits = uint64(*(*uint16)(p))
	case 4:
		bits = uint64(*(*uint32)(p))
	default:
		bits = *(*uint64)(p)
	}
	return constTerm(bits, k.w)
}

// eq is the condition that two terms of kind k are equal.
func (k kind) eq(x, y *sym.Expr) *sym.Expr {
	if k.str {
		return aggEq(x, y)
	}
	return st.b.Eq(x, y)
}

// ite is c ? x : y on terms of kind k.
func (k kind) ite(c, x, y *sym.Expr) *sym.Expr {
	if k.str {
		return aggIte(c, x, y)
	}
	return st.b.Ite(c, x, y)
}

// termOf returns v's term: its shadow, or the constant of its value.
func termOf[T any](k kind, v V[T]) *sym.Expr {
	if v.S != nil {
		return v.S
	}
	return k.constOf(unsafe.Pointer(&v.C))
}

// mapPtr returns the header of map m, its identity; nil for a nil map.
func mapPtr[M ~map[K]E, K comparable, E any](m M) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(&m))
}

// mapShadowOf returns the shadow of m if it has one that still describes
// it; a stale one is dropped and counted at site. full also compares
// every entry, which reads do; writes compare only the length, since a
// stale entry is caught by the next read.
func mapShadowOf[M ~map[K]E, K MapKey, E MapElem](site uint32, m M, full bool) *mapShadow {
	if !mapsUsed.Load() || !tracking() {
		return nil
	}
	p := mapPtr(m)
	sh, ok := st.maps[uintptr(p)]
	if !ok {
		return nil
	}
	live := sh.live.(map[K]E)
	same := len(live) == len(m)
	if same && full {
		for kc, vc := range live {
			if x, ok := m[kc]; !ok || x != vc {
				same = false
				break
			}
		}
	}
	if !same {
		concretise(site, CauseStale)
		delete(st.maps, uintptr(p))
		return nil
	}
	return sh
}

// newMapShadow returns a shadow for m that starts from its concrete
// entries, as constant writes in the order of their keys (so that terms
// do not depend on the map's iteration order); nil when m is nil or too
// large to split over.
func newMapShadow[M ~map[K]E, K MapKey, E MapElem](m M) *mapShadow {
	p := mapPtr(m)
	if p == nil || len(m) >= maxMapSplit || !tracking() {
		return nil
	}
	kk, ke := kindOf[K](), kindOf[E]()
	keys := make([]K, 0, len(m))
	for kc := range m {
		keys = append(keys, kc)
	}
	slices.SortFunc(keys, func(a, b K) int { return cmpKeys(kk, a, b) })
	sh := &mapShadow{n: st.b.Const(uint64(len(m)), 64), live: make(map[K]E, len(m))}
	live := sh.live.(map[K]E)
	for _, kc := range keys {
		vc := m[kc]
		live[kc] = vc
		sh.log = append(sh.log, mapWrite{key: kk.constOf(unsafe.Pointer(&kc)), val: ke.constOf(unsafe.Pointer(&vc)), conc: true, kc: kc})
	}
	return sh
}

// cmpKeys orders concrete keys: strings as strings, the others by bits.
func cmpKeys[K MapKey](k kind, a, b K) int {
	if k.str {
		return stdcmp.Compare(*(*string)(unsafe.Pointer(&a)), *(*string)(unsafe.Pointer(&b)))
	}
	return stdcmp.Compare(k.constOf(unsafe.Pointer(&a)).Val, k.constOf(unsafe.Pointer(&b)).Val)
}

// keepMapShadow installs sh as the shadow of m, pinning its header.
func keepMapShadow[M ~map[K]E, K comparable, E any](m M, sh *mapShadow) {
	p := mapPtr(m)
	if _, had := st.maps[uintptr(p)]; !had {
		pin(p)
	}
	st.maps[uintptr(p)] = sh
	if !mapsUsed.Load() {
		mapsUsed.Store(true)
	}
}

// lookup evaluates the log at key term kt: the value's term and the
// condition that the key is present. zero is the term of E's zero value.
func (sh *mapShadow) lookup(kk, ke kind, kt, zero *sym.Expr) (val, ok *sym.Expr) {
	val, ok = zero, st.b.Bool(false)
	for _, w := range sh.log {
		c := kk.eq(w.key, kt)
		if w.guard != nil {
			c = st.b.And(w.guard, c)
		}
		if c.Kind == sym.KFalse {
			continue
		}
		if w.val == nil {
			val, ok = ke.ite(c, zero, val), st.b.And(st.b.Not(c), ok)
			continue
		}
		val, ok = ke.ite(c, w.val, val), st.b.Or(c, ok)
	}
	return val, ok
}

// zeroTerm returns the term of E's zero value.
func zeroTerm[E any](k kind) *sym.Expr {
	var z E
	return k.constOf(unsafe.Pointer(&z))
}

// mapRead returns m[k] and whether k is present, with their shadows; at
// a symbolic key over a map without log the concrete entries are the
// split.
func mapRead[M ~map[K]E, K MapKey, E MapElem](site uint32, m M, k V[K]) (V[E], V[bool]) {
	vc, okc := m[k.C]
	v, ok := V[E]{C: vc}, V[bool]{C: okc}
	sh := mapShadowOf(site, m, true)
	if sh == nil && k.S == nil {
		return v, ok
	}
	if sh == nil {
		if len(m) >= maxMapSplit {
			concretise(site, CauseIndex)
			return v, ok
		}
		if sh = newMapShadow(m); sh == nil {
			// A nil map: nothing is present at any key.
			return v, V[bool]{C: okc, S: st.b.Bool(false)}
		}
		keepMapShadow(m, sh)
	}
	kk, ke := kindOf[K](), kindOf[E]()
	v.S, ok.S = sh.lookup(kk, ke, termOf(kk, k), zeroTerm[E](ke))
	return v, ok
}

// MapIndex returns m[k] with its shadow, site being where a stale log or
// a key split past its bound is counted.
func MapIndex[M ~map[K]E, K MapKey, E MapElem](site uint32, m M, k V[K]) V[E] {
	v, _ := mapRead(site, m, k)
	return v
}

// MapIndexOK returns v, ok := m[k] with their shadows, in the form of an
// assignment v, ok, sv, sok = MapIndexOK(...).
func MapIndexOK[M ~map[K]E, K MapKey, E MapElem](site uint32, m M, k V[K]) (E, bool, *sym.Expr, *sym.Expr) {
	v, ok := mapRead(site, m, k)
	return v.C, ok.C, v.S, ok.S
}

// MapStore performs m[k] = v and logs the write. A write to a nil map
// panics, as the original does.
func MapStore[M ~map[K]E, K MapKey, E MapElem](site uint32, m M, k V[K], v V[E]) {
	sh := mapLog(site, m, k.S != nil || v.S != nil)
	m[k.C] = v.C
	if sh != nil {
		logWrite(sh, k, &v, nil, true)
	}
}

// MapDelete performs delete(m, k) and logs the delete.
func MapDelete[M ~map[K]E, K MapKey, E MapElem](site uint32, m M, k V[K]) {
	sh := mapLog(site, m, k.S != nil)
	delete(m, k.C)
	if sh != nil {
		logWrite[K, E](sh, k, nil, nil, true)
	}
}

// MapApply performs m[k] = op(m[k], v), for m[k] op= v and m[k]++: the
// map and the key are evaluated once, as the original statement does.
func MapApply[M ~map[K]E, K MapKey, E MapElem](site uint32, m M, k V[K], v V[E], op func(V[E], V[E]) V[E]) {
	MapStore(site, m, k, op(MapIndex(site, m, k), v))
}

// MapInput adds entry i of a map input: the key and value inputs, present
// only when the length input n is more than i. An absent entry is still
// logged, guarded by i < n, so that the solver can make it present.
func MapInput[M ~map[K]E, K MapKey, E MapElem](m M, n V[int], i int, k V[K], v V[E]) {
	var guard *sym.Expr
	if n.S != nil && tracking() {
		guard = st.b.Cmp(sym.KULt, st.b.Const(uint64(i), 64), n.S)
	}
	present := n.C > i
	if !present && guard == nil {
		return
	}
	sh := mapLog(NoSite, m, true)
	if present {
		m[k.C] = v.C
	}
	if sh != nil {
		logWrite(sh, k, &v, guard, present)
	}
}

// mapLog returns the log of m that a write is about to extend: the one m
// has, or, when the write is symbolic (sym), a new one that starts from
// m's entries. It is nil when the goroutine does not track, the map is
// nil, or it is too large (CauseIndex at site).
func mapLog[M ~map[K]E, K MapKey, E MapElem](site uint32, m M, sym bool) *mapShadow {
	if !tracking() {
		return nil
	}
	sh := mapShadowOf(site, m, false)
	if sh == nil && sym {
		if len(m) >= maxMapSplit {
			concretise(site, CauseIndex)
			return nil
		}
		if sh = newMapShadow(m); sh != nil {
			keepMapShadow(m, sh)
		}
	}
	if sh != nil && len(sh.log) >= maxMapSplit {
		concretise(site, CauseIndex)
		delete(st.maps, uintptr(mapPtr(m)))
		return nil
	}
	return sh
}

// logWrite appends to sh's log a set of k to *v (a delete when v is nil),
// guarded by guard, and made concretely when done; it updates the length
// term and the live mirror. The map itself has been written already.
func logWrite[K MapKey, E MapElem](sh *mapShadow, k V[K], v *V[E], guard *sym.Expr, done bool) {
	kk, ke := kindOf[K](), kindOf[E]()
	kt := termOf(kk, k)
	_, present := sh.lookup(kk, ke, kt, zeroTerm[E](ke))
	w := mapWrite{key: kt, guard: guard, conc: k.S == nil, kc: k.C}
	one, zero := st.b.Const(1, 64), st.b.Const(0, 64)
	live := sh.live.(map[K]E)
	if v == nil {
		sh.n = st.b.Sub(sh.n, st.b.Ite(present, one, zero))
		delete(live, k.C)
	} else {
		w.val = termOf(ke, *v)
		added := st.b.Not(present)
		if guard != nil {
			added = st.b.And(guard, added)
		}
		sh.n = st.b.Add(sh.n, st.b.Ite(added, one, zero))
		if done {
			live[k.C] = v.C
		}
	}
	sh.log = append(overwritten(sh.log, w), w)
}

// overwritten drops from log the writes w makes irrelevant under every
// input: unguarded writes to the same key (the same concrete key, or the
// same symbolic term), so that a loop updating one entry keeps the log
// short.
func overwritten(log []mapWrite, w mapWrite) []mapWrite {
	if w.guard != nil {
		return log
	}
	out := log[:0]
	for _, o := range log {
		same := o.guard == nil && (o.conc && w.conc && o.kc == w.kc || !o.conc && o.key == w.key)
		if !same {
			out = append(out, o)
		}
	}
	return out
}

// LenMap returns len(m) with its shadow: the length term of its log.
func LenMap[M ~map[K]E, K MapKey, E MapElem](site uint32, m M) V[int] {
	sh := mapShadowOf(site, m, false)
	if sh == nil || sh.n.Kind == sym.KConst {
		return V[int]{C: len(m)}
	}
	return V[int]{C: len(m), S: sh.n}
}

// KV is a key and a value of a map literal.
type KV[K, E any] struct {
	K V[K]
	E V[E]
}

// MkKV pairs a key and a value of a map literal.
func MkKV[K, E any](k V[K], e V[E]) KV[K, E] { return KV[K, E]{K: k, E: e} }

// MapLit returns m after storing kvs into it in order, for a map literal
// map[K]E{k1: v1, ...} whose keys or values may be symbolic (m is the
// empty map the literal makes).
func MapLit[M ~map[K]E, K MapKey, E MapElem](site uint32, m M, kvs ...KV[K, E]) M {
	for _, kv := range kvs {
		MapStore(site, m, kv.K, kv.E)
	}
	return m
}
