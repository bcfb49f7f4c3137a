package cfa

import (
	"go/types"
	"testing"
)

const countersSrc = `package p

type cur struct {
	data  []byte
	next  int   // set to 0 and 2, increased by one: a counter
	hits  uint64 // increased by one from a copy's value: a counter
	ret   int   // one plus the field of a returned struct value: a counter
	back  int   // decreased
	set   int   // set to a parameter
	big   int   // set to a constant past 2^32
	esc   int   // its address is passed on
	small int32 // 32 bits wrap within seconds
	plus2 int   // increased by two
	other int   // one plus another field
	Pub   int   // exported: other packages write it
}

func (c *cur) read() byte {
	i := c.next
	c.next++
	if i < len(c.data) {
		return c.data[i]
	}
	return 0
}

func bump(p *int) { *p = 1 }

func use(c *cur, d cur, n int) {
	c.next = 0
	c.next = 2
	c.hits = d.hits + 1
	c.back--
	c.set = n
	c.big = 1 << 40
	bump(&c.esc)
	c.small++
	c.plus2 += 2
	c.other = c.next + 1
	c.Pub++
}

func get() cur { return cur{} }

func ret(c *cur) { c.ret = get().ret + 1 }

func New(data []byte) *cur { return &cur{data: data} }
`

const unsafeSrc = `package p

import "unsafe"

type cur struct{ next int }

func (c *cur) inc() { c.next++ }

var Size = unsafe.Sizeof(cur{})
`

const genericSrc = `package p

type cur struct{ next int }

func (c *cur) inc() { c.next++ }

func Id[T any](x T) T { return x }
`

// TestCounter checks which fields are counters: unexported 64-bit
// integers that their package only sets to small constants and
// increases by one (from any value of the field), whose address does
// not escape, in a package without unsafe or generics.
func TestCounter(t *testing.T) {
	for _, tt := range []struct {
		name, src, field string
		want             bool
	}{
		{"constants and increments", countersSrc, "next", true},
		{"increment of a copy", countersSrc, "hits", true},
		{"increment of a struct value's", countersSrc, "ret", true},
		{"decrement", countersSrc, "back", false},
		{"set to a parameter", countersSrc, "set", false},
		{"large constant", countersSrc, "big", false},
		{"address escapes", countersSrc, "esc", false},
		{"32 bits", countersSrc, "small", false},
		{"increased by two", countersSrc, "plus2", false},
		{"another field plus one", countersSrc, "other", false},
		{"exported", countersSrc, "Pub", false},
		{"slice", countersSrc, "data", false},
		{"package imports unsafe", unsafeSrc, "next", false},
		{"package has generics", genericSrc, "next", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g, _ := crafted(t, tt.src)
			obj := g.Funcs()[0].Pkg.Pkg.Scope().Lookup("cur")
			if obj == nil {
				t.Fatal("no type cur")
			}
			st := obj.Type().Underlying().(*types.Struct)
			i := -1
			for k := 0; k < st.NumFields(); k++ {
				if st.Field(k).Name() == tt.field {
					i = k
				}
			}
			if i < 0 {
				t.Fatalf("no field %s", tt.field)
			}
			if got := g.Counter(st, i); got != tt.want {
				t.Errorf("Counter(cur.%s) = %v, want %v", tt.field, got, tt.want)
			}
		})
	}
}
