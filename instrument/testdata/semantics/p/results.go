package p

// Struct results handed to the caller (rt.PassResult, rt.NoResult,
// rt.TakeResult), parallel assignments to fields, copies from a short
// source into an array, and the capacity make was given.

type rhdr struct {
	kind byte
	size int
	name string
}

func rparse(s string) rhdr {
	var h rhdr
	if len(s) < 2 {
		return h
	}
	h.kind, h.size = s[0], len(s)
	h.name = s[1:]
	return h
}

func rnamed(s string) (h rhdr, err error) {
	defer func() {
		if recover() != nil {
			h.size = -1
		}
	}()
	h.size = int(s[0]) // panics on ""
	return
}

func rforward(s string) rhdr { return rparse(s) }

func rlit(a int64) rhdr { return rhdr{size: int(a)} }

// Results returns and stores structs through every form the handover
// rewrites, then branches on their fields.
func Results(a int64, s string, bs []byte) (rhdr, rhdr, int, string, int) {
	h := rparse(s)
	var g = rforward(string(bs))
	n, _ := rnamed(s)
	if l := rlit(a); l.size > 3 {
		g.size += l.size
	}
	var w [4]byte
	copy(w[:], bs)
	buf := make([]byte, 0, 3*len(s)/2)
	grow := 0
	if cap(buf)-len(buf) < len(s) {
		grow = 1
	}
	buf = append(buf, `\x`...)
	buf = append(buf, s...)
	if h.kind == 'a' && g.name != "" {
		grow += 2
	}
	if rparse(s).size == 3 {
		grow += 4
	}
	switch r := rforward(s); r.kind {
	case 'a':
		grow += 8
	}
	return h, g, n.size, string(w[:]) + string(buf), grow
}
