package e2e

import "testing"

// carriedTargets panic behind branches on values that reach them through
// forms real parsers use and that lost their terms without counting it:
// a struct returned by value (also as one of several results, through a
// named result and a function that returns another's result, in an if's
// init, read as f(x).field, and returned as a literal), fields set by a
// parallel assignment, bytes copied into a local array from an input
// shorter than it, and a buffer whose capacity make was given from the
// input, compared by a grow-if-short check (strconv.Quote's shape).
const carriedTargets = `package ct

import "strconv"

type header struct {
	kind byte
	size int
	name string
}

func parse(b []byte) header {
	var h header
	if len(b) < 2 {
		return h
	}
	h.kind = b[0]
	h.size = int(b[1])
	return h
}

func Struct(b []byte) {
	h := parse(b)
	if h.kind == 'k' && h.size == 7 {
		panic("found")
	}
}

func parse2(b []byte) (header, error) {
	var h header
	if len(b) > 2 {
		h.kind, h.size = b[0], int(b[1])
		h.name = string(b[2:])
	}
	return h, nil
}

func Fields(b []byte) {
	h, err := parse2(b)
	if err != nil {
		return
	}
	if h.kind == 'x' && h.name == "yz" {
		panic("found")
	}
}

func named(b []byte) (h header) {
	if len(b) > 1 {
		h.size = int(b[1]) * 2
	}
	return
}

func forward(b []byte) header { return named(b) }

func Named(b []byte) {
	if h := forward(b); h.size == 84 {
		panic("found")
	}
}

func Field(b []byte) {
	if forward(b).size == 60 {
		panic("found")
	}
}

func literal(b []byte) (header, error) {
	if len(b) < 2 {
		return header{}, nil
	}
	return header{kind: b[0], size: int(b[1]) + 1}, nil
}

func Literal(b []byte) {
	if h, _ := literal(b); h.kind == 'l' && h.size == 9 {
		panic("found")
	}
}

func Array(b []byte) {
	var w [4]byte
	copy(w[:], b)
	if s := string(w[:]); s == "abcd" {
		panic("found")
	}
}

func Grow(n int) {
	s := strconv.Itoa(n)
	buf := make([]byte, 0, 3*len(s)/2)
	if cap(buf)-len(buf) < len(s) {
		buf = make([]byte, 0, len(s)+2)
	}
	buf = append(buf, ` + "`\"`" + `...)
	for i := 0; i < len(s); i++ {
		buf = append(buf, s[i])
	}
	if len(buf) == 4 && buf[1] == '4' {
		panic("found")
	}
}
`

// TestCarriedTerms checks that the search reaches each goal, which needs
// the terms carried through those forms.
func TestCarriedTerms(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{"ct/ct.go": carriedTargets})
	expectPanics(t, dir, "./ct", []string{"Struct", "Fields", "Named", "Field", "Literal", "Array", "Grow"})
}
