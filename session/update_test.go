package session

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gocolic/gocolic/coordinator"
	"github.com/gocolic/gocolic/explore"
	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sites"
	"github.com/gocolic/gocolic/state"
	"github.com/gocolic/gocolic/sym"
)

// TestStateValues: every kind of runtime input survives the state's
// encoding, also when the inputs are the leaves of composite parameters
// (more inputs than parameters).
func TestStateValues(t *testing.T) {
	ps := []rt.Param{
		{Kind: rt.ParamInt, Width: 8, Signed: true},
		{Kind: rt.ParamInt, Width: 64},
		{Kind: rt.ParamInt, Width: 8, Max: 3},
		{Kind: rt.ParamFloat, Width: 32},
		{Kind: rt.ParamFloat, Width: 64},
		{Kind: rt.ParamBool},
		{Kind: rt.ParamString},
		{Kind: rt.ParamBytes},
	}
	e := &Entry{rt: ps, maxLen: 8}
	args := []rt.Arg{
		{Bits: uint64(0xff)}, {Bits: math.MaxUint64}, {Bits: 2},
		{Bits: uint64(math.Float32bits(float32(math.NaN())) | 1)}, {Bits: math.Float64bits(-0.5)},
		{Bits: 1}, {Bytes: []byte("a\"\n")}, {Bytes: []byte{0, 0xff}},
	}
	env := rt.EncodeInput(ps, 8, args)
	lines := stateValues(env, e)
	back, err := stateEnv(lines, e)
	if err != nil {
		t.Fatalf("stateEnv(%q): %v", lines, err)
	}
	if got, want := rt.DecodeInput(ps, 8, back), rt.DecodeInput(ps, 8, env); !reflect.DeepEqual(got, want) {
		t.Errorf("round trip of %q:\n got %+v\nwant %+v", lines, got, want)
	}
	if lines[0] != "int8(-1)" || lines[2] != "uint8(2)" {
		t.Errorf("values written as %q", lines)
	}
	if got := stateParams(e); !slices.Equal(got, []string{"int8", "uint64", "uint8<=3", "float32", "float64", "bool", "string", "[]byte"}) {
		t.Errorf("layout %q", got)
	}
}

// TestUpdateDiff: of three saved tests, one keeps its path and result,
// one keeps its path with another result, one moves to a path that a
// found input also takes; the new suite holds the saved input that took
// the path before over the found one, and the diff counts and lists it.
func TestUpdateDiff(t *testing.T) {
	b := sym.NewBuilder()
	x := b.Var(0, 64)
	c0, c1 := b.Cmp(sym.KSLt, x, b.Const(0, 64)), b.Cmp(sym.KEq, x, b.Const(5, 64))
	table := []sites.Site{{ID: 0, Kind: sites.Cond, Func: "F"}, {ID: 1, Kind: sites.Cond, Func: "F"}}
	h := newPathHasher(table)
	pT := []explore.Branch{{Site: 0, Taken: true, Cond: c0}}
	pFT := []explore.Branch{{Site: 0, Taken: false, Cond: c0}, {Site: 1, Taken: true, Cond: c1}}
	pFF := []explore.Branch{{Site: 0, Taken: false, Cond: c0}, {Site: 1, Taken: false, Cond: c1}}
	e := &Entry{Func: "F", rt: []rt.Param{{Kind: rt.ParamInt, Width: 64, Signed: true}}, maxLen: 8}
	in := func(v int64) sym.Env { return rt.EncodeInput(e.rt, 8, []rt.Arg{{Bits: uint64(v)}}) }
	res := func(lit string) []rt.Result { return []rt.Result{{Pinned: true, Literal: lit}} }
	old := &state.State{Version: state.Version, Funcs: map[string]string{"F": "a", "G": "b"}, Inputs: []state.Input{
		{Values: stateValues(in(-1), e), Path: h.steps(pT), Results: []string{"1"}},
		{Values: stateValues(in(5), e), Path: h.steps(pFT), Results: []string{"2"}},
		{Values: stateValues(in(7), e), Path: h.steps(pFF), Results: []string{"3"}},
	}}
	u := &updating{old: old}
	tree := explore.NewTree(b, explore.Options{})
	kept := func(v int64, path []explore.Branch, lit string, seed int) coordinator.PathInput {
		tree.Record(path, in(v), nil)
		return coordinator.NewPathInput(tree, in(v), path, res(lit), seed)
	}
	rep := &coordinator.Report{Queries: map[string]int{"sat": 1}, Execs: 4, Suite: []coordinator.PathInput{
		kept(-1, pT, "1", 0),
		kept(5, pFF, "3", 1), // moved: x == 5 no longer holds for 5
		kept(7, pFF, "4", 2), // kept, result changed
		kept(9, pFT, "2", -1),
	}}
	reps := u.represent(rep.Suite, h)
	if got := []int{reps[0].Seed, reps[1].Seed, reps[2].Seed}; len(reps) != 3 || !slices.Equal(got, []int{0, 2, -1}) {
		t.Fatalf("represented by seeds %v (%d inputs), want [0 2 -1]", got, len(reps))
	}
	tgt := &target{entry: e, funcs: map[string]string{"F": "c", "H": "d"}}
	st := newState(CmdTest, Config{}, tgt, rep, reps, h)
	up := u.diff(st, rep, reps, e)
	if up.Kept != 2 || up.Dropped != 1 || up.Added != 1 {
		t.Errorf("kept %d, dropped %d, added %d; want 2, 1, 1", up.Kept, up.Dropped, up.Added)
	}
	if len(up.Changed) != 1 || up.Changed[0].Call != "F(7)" || !slices.Equal(up.Changed[0].Old, []string{"3"}) || !slices.Equal(up.Changed[0].New, []string{"4"}) {
		t.Errorf("results changed %+v, want F(7): 3, now 4", up.Changed)
	}
	if !slices.Equal(up.FuncsChanged, []string{"F", "G", "H"}) {
		t.Errorf("functions changed %v, want F, G, H", up.FuncsChanged)
	}
	if !outOfDate(up) {
		t.Error("a suite with changes is not out of date")
	}
}

// TestSiteKeys: a site's key does not move when a branch is added before
// it, and two sites of one condition text in a function are told apart
// by their order.
func TestSiteKeys(t *testing.T) {
	before := []sites.Site{
		{ID: 0, Kind: sites.Cond, Func: "F", Text: "x < y"},
		{ID: 1, Kind: sites.Cond, Func: "F", Text: "x < z"},
		{ID: 2, Kind: sites.Concrete, Func: "F"},
		{ID: 3, Kind: sites.Cond, Func: "F", Text: "x < z"},
	}
	after := []sites.Site{
		{ID: 0, Kind: sites.Cond, Func: "F", Text: "x == 0"},
		{ID: 1, Kind: sites.Cond, Func: "F", Text: "x < y"},
		{ID: 2, Kind: sites.Cond, Func: "F", Text: "x < z"},
		{ID: 3, Kind: sites.Cond, Func: "F", Text: "x < z"},
	}
	hb, ha := newPathHasher(before), newPathHasher(after)
	for _, p := range [][2]uint32{{0, 1}, {1, 2}, {3, 3}} {
		if hb.site(p[0]) != ha.site(p[1]) {
			t.Errorf("site %d before is %q, site %d after %q: want the same key", p[0], hb.site(p[0]), p[1], ha.site(p[1]))
		}
	}
	if hb.site(1) == hb.site(3) || ha.site(0) == ha.site(1) {
		t.Error("distinct sites share a key")
	}
}

// TestSameSuite: states that differ only in what their runs cost hold the
// same suite; another result or input does not.
func TestSameSuite(t *testing.T) {
	base := func() *state.State {
		return &state.State{Version: state.Version, Func: "F", Target: "F", Package: "p", Params: []string{"int64"},
			Inputs: []state.Input{{Values: []string{"int64(1)"}, Results: []string{"2"}}}, Spent: state.Spent{Executions: 1, Queries: 2, ElapsedMS: 3}}
	}
	for _, tc := range []struct {
		name   string
		change func(*state.State)
		same   bool
	}{
		{"cost", func(s *state.State) { s.Spent = state.Spent{Executions: 9, Queries: 9, ElapsedMS: 9} }, true},
		{"result", func(s *state.State) { s.Inputs[0].Results[0] = "3" }, false},
		{"input", func(s *state.State) { s.Inputs[0].Values[0] = "int64(2)" }, false},
		{"exhausted", func(s *state.State) { s.Exhausted = true }, false},
	} {
		b := base()
		tc.change(b)
		if got := sameSuite(base(), b); got != tc.same {
			t.Errorf("%s: sameSuite = %t, want %t", tc.name, got, tc.same)
		}
	}
}

// TestUpdateSettings: the state records the settings that shape the
// paths, and an update takes them, whatever its Config held, so that a
// suite is never updated under other settings; a saved solver mode this
// gocolic does not know is one error line.
func TestUpdateSettings(t *testing.T) {
	saved := DefaultConfig()
	saved.Stdlib, saved.Instrument, saved.Impure, saved.Solver.Mode = false, []string{"./dep/..."}, []string{"os", "p.F"}, "z3"
	e := &Entry{PkgPath: "p", Func: "F", rt: []rt.Param{{Kind: rt.ParamInt, Width: 64, Signed: true}}, maxLen: 8}
	tgt := &target{entry: e, funcs: map[string]string{}}
	rep := &coordinator.Report{}
	st := newState(CmdTest, saved, tgt, rep, nil, newPathHasher(nil))
	want := state.Settings{Stdlib: false, Instrument: []string{"./dep/..."}, Impure: []string{"os", "p.F"}, Solver: "z3"}
	if !reflect.DeepEqual(st.Settings, want) {
		t.Fatalf("state settings %+v, want %+v", st.Settings, want)
	}
	st.Target = "F"
	write := func(s *state.State) string {
		dir := t.TempDir()
		if err := writeState(&Entry{PkgDir: dir, Func: "F"}, s); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	for _, tc := range []struct {
		name   string
		solver string
		err    string
	}{
		{"taken", "z3", ""},
		{"unknown solver", "cvc9", `unknown -solver "cvc9"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := *st
			s.Settings.Solver = tc.solver
			dir := write(&s)
			cfg := DefaultConfig()
			cfg.Func = "F"
			if err := cfg.Solver.Validate(); err != nil {
				t.Fatal(err)
			}
			u, err := readSaved(&cfg, dir, CmdTest)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("readSaved error %v, want one line with %q", err, tc.err)
				}
				return
			}
			if err != nil || u == nil {
				t.Fatalf("readSaved: %v", err)
			}
			if got := savedSettings(cfg); !reflect.DeepEqual(got, want) {
				t.Errorf("update settings %+v, want the saved %+v", got, want)
			}
		})
	}
}
