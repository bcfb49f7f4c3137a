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
