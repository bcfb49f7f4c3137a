// This file models hash/crc32, which computes in assembly on amd64 and
// arm64 and has no tag that selects its Go code, so that gocolic cannot
// instrument it (session/stdlib.go): a checksum over input bytes would
// be a concrete number, and a check of a stored checksum against the data
// (snappy's framing format, gzip, PNG) a branch no input built from
// scratch gets past. The model computes the checksum bit by bit, as a
// term of the bytes: a CRC is linear over GF(2), shifts and exclusive ors,
// which Z3 decides, so it can choose the stored checksum that matches the
// data, or data that matches it.

package rt

import "github.com/gocolic/gocolic/sym"

// maxCRCBytes bounds the bytes a checksum's term covers: about 40 terms
// per byte. A longer buffer's checksum is concrete, counted as a call.
const maxCRCBytes = 1024

// ieeePoly is crc32.IEEE, the reversed polynomial of ChecksumIEEE.
const ieeePoly = 0xedb88320

// Crc32Update models crc32.Update. tab must be a table crc32.MakeTable
// made, whose entry 128 is its polynomial (a reversed table maps 0x80 to
// the polynomial); any other table leaves the result concrete.
func Crc32Update[T ~[256]uint32](site uint32, lib func(uint32, *T, []byte) uint32, crc V[uint32], tab *T, p V[[]byte]) (uint32, *sym.Expr) {
	r := lib(crc.C, tab, p.C)
	if crc.S == nil && p.S == nil || !tracking() {
		return r, nil
	}
	t := [256]uint32(*tab)
	poly := t[128]
	if !simpleTable(&t, poly) {
		concretise(site, CauseCall)
		return r, nil
	}
	return r, crcTerm(site, crc, poly, p, r)
}

// Crc32Checksum models crc32.Checksum as Update from 0.
func Crc32Checksum[T ~[256]uint32](site uint32, lib func([]byte, *T) uint32, p V[[]byte], tab *T) (uint32, *sym.Expr) {
	return Crc32Update(site, func(_ uint32, t *T, b []byte) uint32 { return lib(b, t) }, V[uint32]{}, tab, p)
}

// Crc32ChecksumIEEE models crc32.ChecksumIEEE.
func Crc32ChecksumIEEE(site uint32, lib func([]byte) uint32, p V[[]byte]) (uint32, *sym.Expr) {
	r := lib(p.C)
	if p.S == nil || !tracking() {
		return r, nil
	}
	return r, crcTerm(site, V[uint32]{}, ieeePoly, p, r)
}

// simpleTable reports whether tab is the table of the reversed polynomial
// poly, as crc32.MakeTable builds it.
func simpleTable(tab *[256]uint32, poly uint32) bool {
	for i := range tab {
		c := uint32(i)
		for j := 0; j < 8; j++ {
			c = c>>1 ^ poly&-(c&1)
		}
		if tab[i] != c {
			return false
		}
	}
	return true
}

// crcTerm returns the term of the CRC with reversed polynomial poly of
// p's bytes, continuing crc; r is the concrete result. p's aggregate
// knows its bytes up to some length, beyond its concrete one for an
// input: the term is the CRC of the first n of those bytes for each
// length n the aggregate knows, chosen by p's length term, so it holds
// whatever length the solver picks among them; beyond them it is r, as
// the models' terms are outside their domain.
func crcTerm(site uint32, crc V[uint32], poly uint32, p V[[]byte], r uint32) *sym.Expr {
	a := agg(p)
	bs := aggBytes(a)
	if len(p.C) > maxCRCBytes || len(bs) > maxCRCBytes {
		concretise(site, CauseCall)
		return nil
	}
	b := st.b
	k32 := func(x uint32) *sym.Expr { return b.Const(uint64(x), 32) }
	l := aggLen(a)
	c := b.Cpl(term(crc))
	out := k32(r)
	for n := 0; ; n++ {
		out = b.Ite(b.Eq(l, b.Const(uint64(n), 64)), b.Cpl(c), out)
		if n == len(bs) {
			break
		}
		c = b.Bin(sym.KXor, c, b.ZExt(bs[n], 32))
		for j := 0; j < 8; j++ {
			low := b.Bin(sym.KAnd, c, k32(1))
			c = b.Bin(sym.KXor, b.Shift(sym.KLShr, c, k32(1)), b.Bin(sym.KAnd, k32(poly), b.Neg(low)))
		}
	}
	if out.IsConst() {
		return nil
	}
	return out
}
