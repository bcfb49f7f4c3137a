// This file models the way many parsers take their input: as an io.Reader
// made from a string or a byte slice (strings.NewReader, bytes.NewReader)
// and read whole with io.ReadAll. Without a model the reader is an opaque
// object, and everything the parser does with the bytes is concrete.
//
// The readers' models are with their packages' (StringsNewReader in
// models_strings.go, BytesNewReader in models_bytes.go). A reader made
// from a value with a shadow is remembered, by its address, with that
// shadow and the content it was made with. io.ReadAll of such a reader
// returns the bytes with the shadow when they are that content. Anything
// else — a reader already partly read, bytes that changed in between, any
// other io.Reader — reads concretely, as before.

package rt

import (
	"io"
	"reflect"
	"unsafe"

	"github.com/gocolic/gocolic/sym"
)

// readerCell is what a modelled reader was made with.
type readerCell struct {
	content string // the concrete content, to detect a change
	s       *sym.Expr
	typ     reflect.Type // the reader's type, *strings.Reader or *bytes.Reader
}

// remember notes the reader r, made by a modelled constructor.
func remember[R any](r *R, content string, s *sym.Expr) {
	p := unsafe.Pointer(r)
	pin(p)
	st.readers[uintptr(p)] = readerCell{content: content, s: s, typ: reflect.TypeFor[*R]()}
}

// IoReadAll models io.ReadAll: the bytes of a modelled reader have the
// shadow it was made with when they are its whole content. A reader read
// from before gives fewer bytes, so it reads concretely.
func IoReadAll(r io.Reader) ([]byte, error, *sym.Expr) {
	b, err := io.ReadAll(r)
	c, ok := readerCellOf(r)
	if !ok || err != nil || string(b) != c.content {
		return b, err, nil
	}
	return b, err, c.s
}

// readerCellOf returns the cell of r when r is a modelled reader.
func readerCellOf(r io.Reader) (readerCell, bool) {
	if len(st.readers) == 0 || !tracking() {
		return readerCell{}, false
	}
	// The readers' types are not named here: rt must not import strings
	// or bytes (floor.go). A remembered address with the type it was
	// remembered with is that reader, which pin keeps alive.
	v := reflect.ValueOf(r)
	if v.Kind() != reflect.Pointer {
		return readerCell{}, false
	}
	c, ok := st.readers[uintptr(v.UnsafePointer())]
	if !ok || c.typ != v.Type() {
		return readerCell{}, false
	}
	return c, true
}

// newReader returns lib(s), made by the instrumented library's twin of
// lib when there is one (-stdlib instruments strings and bytes), so that
// the reader's fields keep s's shadow for the methods that read it
// (Read, ReadByte, ...), and by lib itself otherwise, when only io.ReadAll
// sees through the reader (remember).
func newReader[R any, T ~string | ~[]byte](lib func(T) *R, s V[T]) *R {
	if tw, ok := libTwin[func(V[T]) *R](lib); ok {
		return tw(s)
	}
	return lib(s.C)
}

// readFunc is the receiver-erased twin of an io.Reader's Read, as IMethod
// finds it for the dynamic type.
type readFunc = func(Any, V[[]byte]) (int, error, *sym.Expr)

// readConcrete calls Read through the interface, for a reader whose type
// has no twin; a symbolic buffer's bytes are then written concretely.
func readConcrete(r Any, b V[[]byte]) (int, error, *sym.Expr) {
	n, err := r.(io.Reader).Read(b.C)
	return n, err, nil
}

// IoReadFull models io.ReadFull as IoReadAtLeast with min len(buf).
func IoReadFull(site uint32, r io.Reader, buf V[[]byte]) (int, error, *sym.Expr) {
	return IoReadAtLeast(site, r, buf, LenBytes(buf))
}

// IoReadAtLeast models io.ReadAtLeast: the loop of io's own code, with
// each Read going to the twin of the reader's method (an instrumented
// bytes.Reader, bufio.Reader or a reader of the target), so the bytes it
// copies keep their terms in buf's cells, and with the loop's test
// n < min recorded at site. The number of Read calls then shows in the
// path: without the test an input that fills buf in one Read and one that
// needs two took different branches after the same recorded ones, and the
// execution tree could not tell them apart.
func IoReadAtLeast(site uint32, r io.Reader, buf V[[]byte], min V[int]) (int, error, *sym.Expr) {
	if !tracking() || r == nil {
		n, err := io.ReadAtLeast(r, buf.C, min.C)
		return n, err, nil
	}
	if len(buf.C) < min.C {
		return 0, io.ErrShortBuffer, nil
	}
	read := IMethod[readFunc](r, "Read", readConcrete)
	n := V[int]{}
	var err error
	for br(site, n.C < min.C, Lt(n, min).S) && err == nil {
		var nn int
		var ns *sym.Expr
		nn, err, ns = read(PassIface(r), readTail(site, buf, n))
		n = Add(n, V[int]{C: nn, S: ns})
	}
	if n.C >= min.C {
		err = nil
	} else if n.C > 0 && err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return n.C, err, n.S
}

// readTail returns buf[n:] for the next Read of IoReadAtLeast: its length
// is len(buf) - n, with n's term, and its bytes are buf's at n's concrete
// value, which Read overwrites. It records no bounds check (n <= len(buf)
// holds in the loop) and splits no byte over the offsets n could take,
// which a slice at a symbolic offset does. A buffer too long for an
// aggregate (maxAggSplit) has none, counted at site.
func readTail(site uint32, buf V[[]byte], n V[int]) V[[]byte] {
	r := buf.C[n.C:]
	if buf.S == nil && n.S == nil {
		return V[[]byte]{C: r}
	}
	if len(buf.C) > maxAggSplit {
		concretise(site, CauseIndex)
		return V[[]byte]{C: r}
	}
	a := agg(buf)
	var bs []*sym.Expr
	if ab := aggBytes(a); n.C <= len(ab) {
		bs = ab[n.C:]
	}
	return V[[]byte]{C: r, S: st.b.String(st.b.Sub(aggLen(a), term(n)), bs)}
}
