package mc

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/gocolic/gocolic/build"
	"github.com/gocolic/gocolic/cfa"
	"github.com/gocolic/gocolic/instrument"
	"github.com/gocolic/gocolic/load"
	"github.com/gocolic/gocolic/proc"
	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
)

// traceTargets are the entries of TestTracesSat, each the package p of
// a module of its own, with the widths of their parameters (0 for bool)
// and the inputs to run.
var traceTargets = []struct {
	name, src string
	widths    []uint8
	inputs    [][]int64
}{{
	// Symbolic branches over wrapped, converted, divided and shifted
	// inputs, an implicit division check, a loop with a symbolic and a
	// concrete test, a helper call (inlined by the encoder), and the
	// builtin min and max.
	name: "Check",
	src: `package p

func Check(x int8, y uint16, n int) int {
	z := x + 100
	r := 0
	if z < 0 {
		r += 1
	}
	if int(y)/(int(x)|1) > 7 {
		r += 2
	}
	for i := 0; i < n && i < 5; i++ {
		if y>>i&1 == 1 {
			r += 4
		}
	}
	if uint8(x) > 200 || helper(y) {
		r += 8
	}
	if min(int(x), n) > 3 || max(y, 7, uint16(n)) == 7 {
		r += 16
	}
	return r
}

func helper(y uint16) bool { return y%3 == 0 }
`,
	widths: []uint8{8, 16, 64},
	inputs: [][]int64{{27, 9, 0}, {28, 65535, 7}, {-128, 64, 3}, {127, 0, -1}, {-1, 255, 5}, {-57, 3, 2}, {0, 8, 1}},
}, {
	// Nested loops whose phis carry a symbolic sum, a boolean input,
	// tagless and tagged switches, signed remainder and shifts.
	name: "Grid",
	src: `package p

func Grid(a int32, b uint64, flip bool) int32 {
	acc := int32(0)
	for i := int32(0); i < 4; i++ {
		for j := uint64(0); j < b%5; j++ {
			acc += a*i - int32(j)
		}
	}
	switch {
	case acc == 0:
		return -1
	case flip && acc > 100:
		return acc >> 2
	}
	switch a % 4 {
	case 0:
		acc <<= 1
	case 1, -1:
		acc ^= 0x55
	}
	return acc
}
`,
	widths: []uint8{32, 64, 0},
	inputs: [][]int64{{0, 0, 0}, {1 << 30, 4, 1}, {-7, 3, 0}, {5, 9, 1}, {-2147483648, 1, 1}, {13, 2, 0}},
}}

// worker is a running worker binary and its pipes.
type worker struct {
	cmd  *exec.Cmd
	req  *os.File
	resp *bufio.Reader
	rf   *os.File
}

func startWorker(t *testing.T, bin string) *worker {
	t.Helper()
	reqR, reqW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := proc.Command(bin)
	cmd.Env = append(os.Environ(), rt.WorkerEnv+"=1")
	cmd.ExtraFiles = []*os.File{reqR, respW}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	reqR.Close()
	respW.Close()
	w := &worker{cmd: cmd, req: reqW, resp: bufio.NewReader(respR), rf: respR}
	t.Cleanup(func() {
		w.req.Close() // the worker exits at the end of its requests
		exited := make(chan struct{})
		go func() { w.cmd.Wait(); close(exited) }()
		proc.Stop(w.cmd, exited, 5*time.Second)
		w.rf.Close()
	})
	return w
}

func (w *worker) run(t *testing.T, q *rt.Request) *rt.Response {
	t.Helper()
	if err := rt.WriteMsg(w.req, rt.AppendRequest(nil, q)); err != nil {
		t.Fatal(err)
	}
	w.rf.SetReadDeadline(time.Now().Add(30 * time.Second))
	msg, err := rt.ReadMsg(w.resp, nil)
	if err != nil {
		t.Fatalf("reading the response: %v", err)
	}
	resp, err := rt.ParseResponse(msg)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// TestTracesSat is the one-semantics check on real runs: it instruments
// and builds each of traceTargets, runs the worker on inputs, and replays each
// recorded trace on the SSA form of the entry. The blocks go where the
// trace's mapped branches went (a branch the trace lacks had a concrete
// condition, which the encoder decides from the inputs); the formula of
// that block path with gocolic's input variables fixed to the inputs
// must be satisfiable and give the worker's result, and each recorded
// condition must be equivalent to the encoder's guard of its If, with
// the helpers inlined (none over havoc).
func TestTracesSat(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a worker")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	s := newZ3(t)
	for _, tgt := range traceTargets {
		t.Run(tgt.name, func(t *testing.T) { checkTraces(t, s, tgt.name, tgt.src, tgt.widths, tgt.inputs) })
	}
}

// checkTraces builds the worker of entry name in package p of source src
// and checks its traces on inputs, as TestTracesSat says.
func checkTraces(t *testing.T, s solver.Solver, name, src string, widths []uint8, inputs [][]int64) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "p"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n\ngo 1.24\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p", "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	pkg, err := load.Load(dir, "./p")
	if err != nil {
		t.Fatal(err)
	}
	res, err := instrument.Package(pkg.Package, instrument.Config{RuntimePath: build.RuntimePath, Entry: name})
	if err != nil {
		t.Fatal(err)
	}
	g, err := cfa.Build([]*packages.Package{pkg.Package}, res.Sites)
	if err != nil {
		t.Fatal(err)
	}
	var fn *ssa.Function
	for _, f := range g.Funcs() {
		if f.Name() == name {
			fn = f
		}
	}
	bin, err := build.Worker(build.Spec{
		ModuleDir: pkg.ModuleDir, ModulePath: pkg.ModulePath, PkgPath: pkg.PkgPath, PkgName: pkg.Name,
		Files: res.Files, Added: res.Added(), WorkDir: t.TempDir(),
	})
	if err != nil {
		t.Fatal(err)
	}
	w := startWorker(t, bin)
	offs := rt.Layout(res.RTParams, 4)
	for _, in := range inputs {
		t.Run(fmt.Sprint(in), func(t *testing.T) {
			env := sym.Env{}
			for i, v := range in {
				env[uint64(offs[i])] = uint64(v) & mask(widths[i])
			}
			resp := w.run(t, &rt.Request{Env: env, MaxLen: 4})
			if resp.Status != rt.StatusOK || len(resp.Results) != 1 {
				t.Fatalf("response %+v", resp)
			}
			b := sym.NewBuilder()
			dec := sym.NewDecoder(b)
			if err := dec.Decode(resp.Exprs); err != nil {
				t.Fatal(err)
			}
			enc := NewEncoder(b, fn)
			enc.Inline = Inlining{Depth: DefaultInlineDepth, Allow: func(f *ssa.Function) bool { return slices.Contains(g.Funcs(), f) }}
			var fixed []*sym.Expr
			for i := range in {
				v := b.Var(uint64(offs[i]), widths[i])
				if err := enc.Bind(i, v); err != nil {
					t.Fatal(err)
				}
				if widths[i] == 0 {
					fixed = append(fixed, b.Eq(v, b.Bool(env[uint64(offs[i])] == 1)))
				} else {
					fixed = append(fixed, b.Eq(v, b.Const(env[uint64(offs[i])], widths[i])))
				}
			}
			// The trace's events of fn's own Ifs, in order.
			type step struct {
				br    *cfa.Branch
				taken bool
				cond  *sym.Expr
			}
			var trace []step
			for _, e := range resp.Path {
				br := g.Branch(e.Site)
				if br == nil || br.Func != fn || br.Check || br.Point || br.Joined {
					continue
				}
				c, err := dec.Node(e.Cond)
				if err != nil {
					t.Fatal(err)
				}
				trace = append(trace, step{br, e.Taken, c})
			}
			p, err := enc.Start(fn.Blocks[0])
			if err != nil {
				t.Fatal(err)
			}
			symbolic, havocked, identical := 0, 0, 0
			for steps := 0; ; steps++ {
				if steps > 1000 {
					t.Fatal("no return after 1000 blocks")
				}
				blk := p.last()
				last := blk.Instrs[len(blk.Instrs)-1]
				if _, ok := last.(*ssa.Return); ok {
					if err := p.Exit(); err != nil {
						t.Fatal(err)
					}
					break
				}
				if _, ok := last.(*ssa.If); !ok {
					if err := p.Step(blk.Succs[0]); err != nil {
						t.Fatal(err)
					}
					continue
				}
				cond := p.Branch()
				var next *ssa.BasicBlock
				if len(trace) > 0 && decides(trace[0].br, blk) {
					st := trace[0]
					trace = trace[1:]
					next = st.br.False
					guard := b.Not(cond)
					if st.taken {
						next, guard = st.br.True, cond
					}
					// The recorded condition is the site's outcome taken
					// being true; the encoder's guard of the same edge
					// must say the same of every input.
					rec := st.cond
					if !st.taken {
						rec = b.Not(rec)
					}
					if guard == rec {
						identical++ // the same node of the shared builder
					}
					if havocIn(guard) {
						havocked++ // a call the encoder does not inline
					} else if got := status(t, s, nil, b.Not(b.Eq(guard, rec))); got != solver.Unsat {
						t.Errorf("block %d: recorded %v and encoded %v differ (%s)", blk.Index, rec, guard, got)
					}
					symbolic++
				} else {
					// A concrete condition: gocolic recorded nothing.
					next = blk.Succs[1]
					if sym.Holds(cond, env) {
						next = blk.Succs[0]
					}
				}
				if err := p.Step(next); err != nil {
					t.Fatal(err)
				}
			}
			if len(trace) != 0 {
				t.Fatalf("%d recorded branches of %s left after its return", len(trace), name)
			}
			if symbolic == havocked {
				t.Fatalf("no recorded branch of %s compared", name)
			}
			if havocked != 0 {
				// The targets call only helpers the encoder inlines.
				t.Errorf("%d recorded branches over havoc", havocked)
			}
			want, err := strconv.ParseInt(resp.Results[0].Literal, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			cs := append(p.Conds[:len(p.Conds):len(p.Conds)], fixed...)
			rw := p.Results[0].Width
			same := b.Eq(p.Results[0], b.Const(uint64(want)&sym.Mask(rw), rw))
			if st := status(t, s, cs, same); st != solver.Sat {
				t.Errorf("path of %d blocks with the inputs and result %d: %s, want sat", len(p.Blocks), want, st)
			}
			t.Logf("%d blocks, %d recorded branches replayed (%d the same term, %d over havoc), %d havoc variables",
				len(p.Blocks), symbolic, identical, havocked, len(p.Havoc))
		})
	}
}

// mask is the mask of an input of width w, 1 for a boolean.
func mask(w uint8) uint64 {
	if w == 0 {
		return 1
	}
	return sym.Mask(w)
}

// havocIn reports whether e reads a havoc variable.
func havocIn(e *sym.Expr) bool {
	for _, v := range sym.Vars(nil, e) {
		if v.Val >= HavocBase {
			return true
		}
	}
	return false
}

// decides reports whether br's If is the one that ends blk.
func decides(br *cfa.Branch, blk *ssa.BasicBlock) bool {
	if br.Block == blk {
		return true
	}
	for _, a := range br.Also {
		if a == blk {
			return true
		}
	}
	return false
}
