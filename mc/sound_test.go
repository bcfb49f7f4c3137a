package mc

import (
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/gocolic/gocolic/sites"
	"github.com/gocolic/gocolic/sym"
	"golang.org/x/tools/go/ssa"
)

// TestClaimsSound runs the model checker, and ProveLocal, on every function of
// internal/prog (whose SSA walk the encoder's tests check against native
// runs), with its helpers inlined as Prove does, towards every outcome
// of their conditions, then walks each
// function on random and boundary inputs: no walk takes an outcome
// claimed unreachable. A walk stops where the native run would panic (a
// division by zero, a negative shift count: a path condition that fails).
func TestClaimsSound(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	p := loadPkg(t, filepath.Join(filepath.Dir(file), "internal", "prog"))
	slvT := newZ3(t)
	rng := rand.New(rand.NewPCG(1, 2))
	claimed, localClaims := 0, 0
	for name, fn := range p.fns {
		var goals []Goal
		for _, s := range p.table {
			br := p.g.Branch(s.ID)
			if s.Kind == sites.Cond && br != nil && br.Func == fn && !br.Joined && !br.Point && !br.Check {
				goals = append(goals, Goal{s.ID, true}, Goal{s.ID, false})
			}
		}
		if len(goals) == 0 {
			continue
		}
		enc := NewEncoder(sym.NewBuilder(), fn)
		enc.Inline = inlining(p, DefaultInlineDepth)
		res, err := Check(t.Context(), p.g, enc, slvT, goals, Options{Timeout: 2 * time.Second})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		t.Logf("%s: %d goals, %d refinements, %d queries, incomplete %q", name, len(goals), len(res.Steps), res.Queries, res.Incomplete)
		bad := map[edgeKey]Goal{}
		for _, gl := range goals {
			local, err := ProveLocal(t.Context(), p.g, enc, slvT, gl)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if local {
				localClaims++
			}
			if res.Verdicts[gl].Status != Unreachable && !local {
				continue
			}
			claimed++
			br := p.g.Branch(gl.Site)
			succ := 1
			if gl.Taken {
				succ = 0
			}
			for _, b := range append([]*ssa.BasicBlock{br.Block}, br.Also...) {
				bad[edgeKey{b, succ}] = gl
			}
		}
		if len(bad) == 0 {
			continue
		}
		for i := 0; i < 3000; i++ {
			env := sym.Env{}
			for j := range fn.Params {
				x := enc.Param(j)
				if x == nil {
					continue
				}
				v := rng.Uint64()
				if i < 64 { // boundaries: 0, ±1, the extremes
					v = []uint64{0, 1, ^uint64(0), 1 << 63, 1<<63 - 1, 127, 128, 255}[(i>>(3*j))%8]
				}
				if x.Width == 0 {
					v &= 1
				} else {
					v &= sym.Mask(x.Width)
				}
				env[uint64(j)] = v
			}
			walk := NewEncoder(sym.NewBuilder(), fn)
			walk.Inline = enc.Inline
			path, _ := run(t, walk, env)
			cut := len(path.Blocks) - 1
			for k, c := range path.Conds {
				if !sym.Holds(c, env) {
					cut = min(cut, path.At[k])
				}
			}
			for k := 0; k < cut; k++ {
				b := path.Blocks[k]
				for succ, s := range b.Succs {
					if s == path.Blocks[k+1] {
						if gl, ok := bad[edgeKey{b, succ}]; ok {
							t.Errorf("%s: inputs %v take outcome %v, claimed unreachable", name, env, gl)
						}
					}
				}
			}
		}
	}
	if claimed < 5 {
		t.Errorf("%d outcomes claimed in all; the functions hold more unreachable ones", claimed)
	}
	if localClaims == 0 {
		t.Errorf("no outcome claimed by the straight code; the functions hold some")
	}
	t.Logf("%d outcomes claimed unreachable, %d by the straight code", claimed, localClaims)
}
