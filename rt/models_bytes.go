// This file models bytes. The models share their terms with the strings
// models of the same name (models_strings.go): a byte slice's shadow is
// an aggregate, as a string's.

package rt

import (
	"bytes"
	"unsafe"

	"github.com/gocolic/gocolic/sym"
)

// BytesHasPrefix models bytes.HasPrefix.
func BytesHasPrefix(s, prefix V[[]byte]) (bool, *sym.Expr) {
	return pred(bytes.HasPrefix(s.C, prefix.C), s, prefix, hasPrefix)
}

// BytesHasSuffix models bytes.HasSuffix.
func BytesHasSuffix(s, suffix V[[]byte]) (bool, *sym.Expr) {
	return pred(bytes.HasSuffix(s.C, suffix.C), s, suffix, hasSuffix)
}

// BytesContains models bytes.Contains.
func BytesContains(s, sub V[[]byte]) (bool, *sym.Expr) {
	return pred(bytes.Contains(s.C, sub.C), s, sub, contains)
}

// BytesEqual models bytes.Equal.
func BytesEqual(a, b V[[]byte]) (bool, *sym.Expr) {
	return pred(bytes.Equal(a.C, b.C), a, b, aggEq)
}

// BytesEqualFold models bytes.EqualFold.
func BytesEqualFold(s, t V[[]byte]) (bool, *sym.Expr) {
	r := bytes.EqualFold(s.C, t.C)
	return pred(r, s, t, func(x, y *sym.Expr) *sym.Expr { return foldTerm(x, y, r) })
}

// BytesIndex models bytes.Index.
func BytesIndex(s, sep V[[]byte]) (int, *sym.Expr) {
	return indexOf(bytes.Index(s.C, sep.C), s, sep)
}

// BytesSplit models bytes.Split for a one-byte separator.
func BytesSplit(s, sep V[[]byte]) [][]byte { return BytesSplitN(s, sep, V[int]{C: -1}) }

// BytesSplitN models bytes.SplitN for a one-byte separator and a
// concrete limit.
func BytesSplitN(s, sep V[[]byte], n V[int]) [][]byte {
	r := bytes.SplitN(s.C, sep.C, n.C)
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
func BytesReplaceAll(site uint32, s, old, new V[[]byte]) ([]byte, *sym.Expr) {
	return replaceModel(site, bytes.ReplaceAll(s.C, old.C, new.C), s, old)
}

// BytesNewReader models bytes.NewReader, like StringsNewReader.
func BytesNewReader(b V[[]byte]) *bytes.Reader {
	r := bytes.NewReader(b.C)
	if b.S != nil && tracking() {
		remember(unsafe.Pointer(r), string(b.C), b.S)
	}
	return r
}
