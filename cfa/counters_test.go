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

func Boxed(x any) int { return 0 }

type holder struct{ cs []*cur }

func Held(h *holder) int { return len(h.cs) }
`

const unsafeSrc = `package p

import "unsafe"

type cur struct{ next int }

func (c *cur) inc() { c.next++ }

func New() *cur { return &cur{} }

var Size = unsafe.Sizeof(cur{})
`

const genericSrc = `package p

type cur struct{ next int }

func (c *cur) inc() { c.next++ }

func Id[T any](x T) T { return x }

func New() *cur { return &cur{} }
`

// TestCounter checks which fields are counters: unexported 64-bit
// integers that their package only sets to small constants and
// increases by one (from any value of the field), whose address does
// not escape, in a package without unsafe or generics, of a struct type
// that no parameter of the entries (SetEntries; none told, no counter)
// can hold, since gocolic's entry sets such fields to any value.
func TestCounter(t *testing.T) {
	for _, tt := range []struct {
		name, src, field string
		entry            string // the entry told to SetEntries; "" for none
		want             bool
	}{
		{"constants and increments", countersSrc, "next", "New", true},
		{"increment of a copy", countersSrc, "hits", "New", true},
		{"increment of a struct value's", countersSrc, "ret", "New", true},
		{"decrement", countersSrc, "back", "New", false},
		{"set to a parameter", countersSrc, "set", "New", false},
		{"large constant", countersSrc, "big", "New", false},
		{"address escapes", countersSrc, "esc", "New", false},
		{"32 bits", countersSrc, "small", "New", false},
		{"increased by two", countersSrc, "plus2", "New", false},
		{"another field plus one", countersSrc, "other", "New", false},
		{"exported", countersSrc, "Pub", "New", false},
		{"slice", countersSrc, "data", "New", false},
		{"entries not told", countersSrc, "next", "", false},
		{"an entry's parameter points to it", countersSrc, "next", "use", false},
		{"an entry's parameter holds it", countersSrc, "next", "Held", false},
		{"an entry takes an interface", countersSrc, "next", "Boxed", false},
		{"package imports unsafe", unsafeSrc, "next", "New", false},
		{"package has generics", genericSrc, "next", "New", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g, _ := crafted(t, tt.src)
			scope := g.Funcs()[0].Pkg.Pkg.Scope()
			if tt.entry != "" {
				f, ok := scope.Lookup(tt.entry).(*types.Func)
				if !ok {
					t.Fatalf("no function %s", tt.entry)
				}
				g.SetEntries(f)
			}
			obj := scope.Lookup("cur")
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
