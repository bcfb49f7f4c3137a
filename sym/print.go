// This file implements the printed form of expressions.

package sym

import (
	"fmt"
)

// String returns e in the printed form given with each Kind, for example
// ((v0:64 + 1:64) <s 10:64). Shared subterms are printed every time.
func (e *Expr) String() string {
	var sb textBuf
	e.write(&sb)
	return string(sb)
}

func (e *Expr) write(sb *textBuf) {
	switch {
	case e.Kind == KConst:
		fmt.Fprintf(sb, "%d:%d", e.Val, e.Width)
	case e.Kind == KTrue, e.Kind == KFalse:
		sb.WriteString(e.Kind.String())
	case e.Kind == KVar:
		fmt.Fprintf(sb, "v%d:%d", e.Val, e.Width)
	case e.Kind.IsBinaryBV(), e.Kind.IsCompare(), e.Kind == KLAnd, e.Kind == KLOr,
		e.Kind.IsFloatArith(), e.Kind.IsFloatCompare():
		sb.WriteByte('(')
		e.Args[0].write(sb)
		sb.WriteString(" " + e.Kind.String() + " ")
		e.Args[1].write(sb)
		sb.WriteByte(')')
	case e.Kind == KNeg:
		sb.WriteByte('-')
		e.Args[0].write(sb)
	case e.Kind == KCpl:
		sb.WriteByte('^')
		e.Args[0].write(sb)
	case e.Kind == KNot:
		sb.WriteByte('!')
		e.Args[0].write(sb)
	case e.Kind == KZExt, e.Kind == KSExt, e.Kind == KTrunc, e.Kind.IsFloatConvert():
		fmt.Fprintf(sb, "%s%d(", e.Kind, e.Width)
		e.Args[0].write(sb)
		sb.WriteByte(')')
	case e.Kind == KCall:
		fmt.Fprintf(sb, "call#%08x(", e.Val)
		for i, a := range e.Args {
			if i > 0 {
				sb.WriteString(", ")
			}
			a.write(sb)
		}
		fmt.Fprintf(sb, "):%d", e.Width)
	default:
		sb.WriteString(e.Kind.String() + "(")
		for i, a := range e.Args {
			if i > 0 {
				sb.WriteString(", ")
			}
			a.write(sb)
		}
		sb.WriteByte(')')
	}
}

// textBuf collects the printed text; a strings.Builder would import
// strings into the worker's runtime (build/floor.go).
type textBuf []byte

func (b *textBuf) Write(p []byte) (int, error) { *b = append(*b, p...); return len(p), nil }

func (b *textBuf) WriteString(s string) { *b = append(*b, s...) }

func (b *textBuf) WriteByte(c byte) error { *b = append(*b, c); return nil }
