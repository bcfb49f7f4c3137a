package rt

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gocolic/gocolic/sym"
)

// imScaler is the interface the tests call through.
type imScaler interface{ Scale(k int) int }

// imVal has a value receiver: its adapters are registered for imVal and
// *imVal. Its twin keeps k's shadow.
type imVal struct{ n int }

func (v imVal) Scale(k int) int { return v.n * k }

func (v imVal) scaleTwin(k V[int]) (int, *sym.Expr) { return v.n * k.C, k.S }

// imPtr has a pointer receiver: its adapter is registered for *imPtr.
type imPtr struct{ n int }

func (p *imPtr) Scale(k int) int { return p.n + k }

func (p *imPtr) scaleTwin(k V[int]) (int, *sym.Expr) { return p.n + k.C, k.S }

// imOther is not registered.
type imOther struct{}

func (imOther) Scale(k int) int { return -k }

// imWrong is registered with an adapter of another type than call sites
// expect.
type imWrong struct{}

func (imWrong) Scale(k int) int { return k + 1 }

type imTwin = func(Any, V[int]) (int, *sym.Expr)

func init() {
	RegisterMethod[imVal]("Scale",
		imTwin(func(r Any, k V[int]) (int, *sym.Expr) { return r.(imVal).scaleTwin(k) }),
		imTwin(func(r Any, k V[int]) (int, *sym.Expr) { return r.(*imVal).scaleTwin(k) }))
	RegisterMethod[imPtr]("Scale", nil,
		imTwin(func(r Any, k V[int]) (int, *sym.Expr) { return r.(*imPtr).scaleTwin(k) }))
	RegisterMethod[imWrong]("Scale", func(r Any, k V[int]) int { return 0 }, nil)
}

// imFallback is what the rewrite passes as the fallback: the call
// through the interface with a concrete argument and no shadow.
func imFallback(r Any, k V[int]) (int, *sym.Expr) {
	i, _ := r.(imScaler)
	return i.Scale(k.C), nil
}

// TestIMethod checks which function a call of an interface method runs:
// the adapter registered for the dynamic type, on the tracking goroutine
// only; the fallback for an unregistered type, a pointer receiver's
// method asked for a value, a registered adapter of another type than
// the call site's, a method name registered for another type, and a nil
// receiver, which then panics as Go does.
func TestIMethod(t *testing.T) {
	tests := []struct {
		name   string
		x      imScaler
		method string
		track  bool
		wantC  int
		shadow bool // the twin ran: the argument's shadow comes back
	}{
		{"value receiver", imVal{n: 3}, "Scale", true, 15, true},
		{"value receiver through a pointer", &imVal{n: 3}, "Scale", true, 15, true},
		{"pointer receiver", &imPtr{n: 3}, "Scale", true, 8, true},
		{"not tracking", imVal{n: 3}, "Scale", false, 15, false},
		{"pointer receiver, not tracking", &imPtr{n: 3}, "Scale", false, 8, false},
		{"not registered", imOther{}, "Scale", true, -5, false},
		{"adapter of another type", imWrong{}, "Scale", true, 6, false},
		{"another method", imVal{n: 3}, "Other", true, 15, false},
		{"nil pointer, pointer receiver", (*imPtr)(nil), "Scale", true, 0, false}, // panics in the twin
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.track {
				own(t)
			}
			k := V[int]{C: 5, S: sym.NewBuilder().Var(0, 64)}
			if tt.x == (*imPtr)(nil) {
				// A pointer receiver may be nil: the twin runs, and
				// panics where the method does.
				defer func() {
					if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "nil pointer") {
						t.Errorf("got panic %v, want a nil dereference", r)
					}
				}()
			}
			c, s := IMethod(tt.x, tt.method, imFallback)(tt.x, k)
			if c != tt.wantC || (s != nil) != tt.shadow {
				t.Errorf("got %d with shadow %v, want %d with shadow %v", c, s != nil, tt.wantC, tt.shadow)
			}
		})
	}
	// Panics: a nil interface and a value receiver through a nil
	// pointer take the fallback, which panics with Go's own message.
	panics := []struct {
		name string
		x    imScaler
		want string
	}{
		{"nil interface", nil, "nil pointer dereference"},
		{"value receiver through a nil pointer", (*imVal)(nil), "value method"},
	}
	for _, tt := range panics {
		t.Run(tt.name, func(t *testing.T) {
			own(t)
			defer func() {
				r := recover()
				if r == nil || !strings.Contains(fmt.Sprint(r), tt.want) {
					t.Errorf("got panic %v, want one with %q", r, tt.want)
				}
			}()
			IMethod(tt.x, "Scale", imFallback)(tt.x, V[int]{C: 1})
		})
	}
}

// TestIMethodAllocs checks that finding the adapter allocates nothing:
// a call of an interface method is as frequent as any call.
func TestIMethodAllocs(t *testing.T) {
	own(t)
	var x imScaler = &imPtr{n: 1}
	k := V[int]{C: 2}
	if n := testing.AllocsPerRun(100, func() { IMethod(x, "Scale", imFallback)(x, k) }); n != 0 {
		t.Errorf("IMethod allocated %v times a call", n)
	}
}
