// This file models bytes. The models share their terms with the strings
// models of the same name (models_strings.go): a byte slice's shadow is
// an aggregate, as a string's.

package rt

import (
	"github.com/gocolic/gocolic/sym"
)

// BytesHasPrefix models bytes.HasPrefix.
func BytesHasPrefix(lib func([]byte, []byte) bool, s, prefix V[[]byte]) (bool, *sym.Expr) {
	return pred(lib(s.C, prefix.C), s, prefix, hasPrefix)
}

// BytesHasSuffix models bytes.HasSuffix.
func BytesHasSuffix(lib func([]byte, []byte) bool, s, suffix V[[]byte]) (bool, *sym.Expr) {
	return pred(lib(s.C, suffix.C), s, suffix, hasSuffix)
}

// BytesContains models bytes.Contains.
func BytesContains(lib func([]byte, []byte) bool, s, sub V[[]byte]) (bool, *sym.Expr) {
	return pred(lib(s.C, sub.C), s, sub, contains)
}

// BytesEqual models bytes.Equal.
func BytesEqual(lib func([]byte, []byte) bool, a, b V[[]byte]) (bool, *sym.Expr) {
	return pred(lib(a.C, b.C), a, b, aggEq)
}

// BytesEqualFold models bytes.EqualFold.
func BytesEqualFold(lib func([]byte, []byte) bool, s, t V[[]byte]) (bool, *sym.Expr) {
	r := lib(s.C, t.C)
	return pred(r, s, t, func(x, y *sym.Expr) *sym.Expr { return foldTerm(x, y, r) })
}

// BytesIndex models bytes.Index.
func BytesIndex(lib func([]byte, []byte) int, s, sep V[[]byte]) (int, *sym.Expr) {
	return indexOf(lib(s.C, sep.C), s, sep)
}

// BytesSplit models bytes.Split for a one-byte separator.
func BytesSplit(lib func([]byte, []byte) [][]byte, s, sep V[[]byte]) [][]byte {
	if tw, ok := splitTwin[func(V[[]byte], V[[]byte]) [][]byte](lib, s, sep, V[int]{}); ok {
		return tw(s, sep)
	}
	return bytesSplit(lib(s.C, sep.C), s, sep, V[int]{C: -1})
}

// BytesSplitN models bytes.SplitN for a one-byte separator and a
// concrete limit.
func BytesSplitN(lib func([]byte, []byte, int) [][]byte, s, sep V[[]byte], n V[int]) [][]byte {
	if tw, ok := splitTwin[func(V[[]byte], V[[]byte], V[int]) [][]byte](lib, s, sep, n); ok {
		return tw(s, sep, n)
	}
	return bytesSplit(lib(s.C, sep.C, n.C), s, sep, n)
}

// bytesSplit gives r, the result of splitting s at sep at most n times,
// its shadows.
func bytesSplit(r [][]byte, s, sep V[[]byte], n V[int]) [][]byte {
	if s.S == nil || !oneByteSep(sep) || n.S != nil || n.C == 0 || !tracking() {
		return r
	}
	splitShadows(r, s.S, sep.C[0], n.C, func(j int) string { return string(r[j]) }, func(p *[]byte, s *sym.Expr) {
		setBytesCell(p, s)
	})
	return r
}

// BytesReplaceAll models bytes.ReplaceAll as StringsReplaceAll. The
// result is a copy even when nothing is replaced, which the shadow, a
// value, does not need to know.
func BytesReplaceAll(site uint32, lib func([]byte, []byte, []byte) []byte, s, old, new V[[]byte]) ([]byte, *sym.Expr) {
	return replaceModel(site, lib(s.C, old.C, new.C), s, old)
}

// BytesNewReader models bytes.NewReader, like StringsNewReader.
func BytesNewReader[R any](lib func([]byte) *R, b V[[]byte]) *R {
	r := newReader(lib, b)
	if b.S != nil && tracking() {
		remember(r, string(b.C), b.S)
	}
	return r
}
