package session

import (
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gocolic/gocolic/emit"
	"github.com/gocolic/gocolic/solver"

	"github.com/gocolic/gocolic/coordinator"
	"github.com/gocolic/gocolic/corpus"
	"github.com/gocolic/gocolic/instrument"
	"github.com/gocolic/gocolic/report"
	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sites"
	"github.com/gocolic/gocolic/solver/stack"
	"github.com/gocolic/gocolic/sym"
)

func TestValidateDefaults(t *testing.T) {
	c := Config{Package: "./p", Func: "F"}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	want := Config{
		Package: "./p", Func: "F",
		Options: coordinator.Options{Workers: runtime.NumCPU(), Budget: 10 * time.Second, Timeout: time.Second, Strategy: "cover"},
		MaxLen:  32, Solver: stack.Options{Timeout: 2 * time.Second},
		Stderr: os.Stderr,
	}
	if c.Workers != want.Workers || c.Budget != want.Budget || c.Runs != 0 || c.MaxLen != want.MaxLen ||
		c.Timeout != want.Timeout || c.Solver.Timeout != want.Solver.Timeout || c.Strategy != want.Strategy || c.Stderr != want.Stderr {
		t.Errorf("defaults:\n got %+v\nwant %+v", c, want)
	}
}

func TestValidate(t *testing.T) {
	base := func() Config { return Config{Package: "./p", Func: "F"} }
	tests := []struct {
		name  string
		edit  func(*Config)
		err   string // substring of the error; "" for none
		check func(*testing.T, Config)
	}{
		{name: "no package", edit: func(c *Config) { c.Package = "" }, err: "usage"},
		{name: "no function", edit: func(c *Config) { c.Func = "" }, err: "usage"},
		{name: "negative budget", edit: func(c *Config) { c.Budget = -time.Second }, err: "must not be negative"},
		{name: "negative runs", edit: func(c *Config) { c.Runs = -1 }, err: "must not be negative"},
		{name: "maxlen too large", edit: func(c *Config) { c.MaxLen = 4097 }, err: "4097"},
		{name: "nats-solve needs nats", edit: func(c *Config) { c.NATSSolve = true }, err: "need -nats"},
		{name: "nats with both lanes, solved on the executors", edit: func(c *Config) {
			c.NATS, c.Lanes, c.NATSSolve, c.Workers, c.Local = "embedded", coordinator.LanesBoth, true, 6, -1
		}, check: func(t *testing.T, c Config) {
			if c.Solvers != 6 {
				t.Errorf("solvers %d; with -nats-solve, want -workers' 6 queries out", c.Solvers)
			}
		}},
		{name: "nats-listen needs nats", edit: func(c *Config) { c.NATSListen = "127.0.0.1:0" }, err: "need -nats"},
		{name: "nats-listen needs an embedded server", edit: func(c *Config) {
			c.NATS, c.Lanes, c.NATSListen = "nats://h:4222", coordinator.LanesConcolic, ":0"
		}, err: "-nats embedded"},
		{name: "nats run id", edit: func(c *Config) { c.NATS, c.Lanes, c.RunID = "embedded", coordinator.LanesConcolic, "a b" }, err: "-run"},
		{name: "nats with nobody to run", edit: func(c *Config) { c.NATS, c.Lanes, c.Local = "embedded", coordinator.LanesConcolic, 0 }, err: "nothing would run"},
		{name: "nats local defaults to workers, solvers to this machine's", edit: func(c *Config) {
			c.NATS, c.Lanes, c.Local, c.Workers = "nats://h:4222", coordinator.LanesConcolic, -1, 64
		}, check: func(t *testing.T, c Config) {
			if c.Local != 64 || c.Solvers != max(1, runtime.NumCPU()/2) {
				t.Errorf("local %d, solvers %d; want 64 and half this machine's CPUs", c.Local, c.Solvers)
			}
		}},
		{name: "unknown strategy", edit: func(c *Config) { c.Strategy = "sideways" }, err: "sideways"},
		{name: "negative maxstate", edit: func(c *Config) { c.MaxState = -1 }, err: "-maxstate -1"},
		{name: "-o a file", edit: func(c *Config) { c.Out = "session_test.go" }, err: "is a file"},
		{name: "-o a directory not made yet", edit: func(c *Config) { c.Out = "testdata/not-made-yet" }},
		{
			name: "runs without budget", edit: func(c *Config) { c.Runs = 100 },
			check: func(t *testing.T, c Config) {
				if c.Budget != 0 || c.Runs != 100 {
					t.Errorf("budget %v, runs %d; want no budget and 100 runs", c.Budget, c.Runs)
				}
			},
		},
		{
			name: "largest maxlen", edit: func(c *Config) { c.MaxLen = 4096 },
			check: func(t *testing.T, c Config) {
				if c.MaxLen != 4096 {
					t.Errorf("maxlen %d, want 4096", c.MaxLen)
				}
			},
		},
		{
			name: "non-positive values take defaults",
			edit: func(c *Config) { c.Workers, c.MaxLen, c.Timeout, c.Solver.Timeout = -2, -1, -time.Second, -time.Second },
			check: func(t *testing.T, c Config) {
				if c.Workers != runtime.NumCPU() || c.MaxLen != 32 || c.Timeout != time.Second || c.Solver.Timeout != 2*time.Second {
					t.Errorf("got %+v", c)
				}
			},
		},
		{
			name: "explicit values are kept",
			edit: func(c *Config) {
				c.Workers, c.Budget, c.Runs, c.MaxLen = 3, time.Minute, 7, 5
				c.Timeout, c.Solver.Timeout, c.Strategy = 3*time.Second, time.Second, "dfs"
				c.Stderr = &strings.Builder{}
			},
			check: func(t *testing.T, c Config) {
				if c.Workers != 3 || c.Budget != time.Minute || c.Runs != 7 || c.MaxLen != 5 ||
					c.Timeout != 3*time.Second || c.Solver.Timeout != time.Second || c.Strategy != "dfs" {
					t.Errorf("got %+v", c)
				}
				if _, ok := c.Stderr.(*strings.Builder); !ok {
					t.Errorf("stderr replaced by %T", c.Stderr)
				}
			},
		},
	}
	for _, s := range []string{"cover", "dfs", "bfs", "random"} {
		tests = append(tests, struct {
			name  string
			edit  func(*Config)
			err   string
			check func(*testing.T, Config)
		}{name: "strategy " + s, edit: func(c *Config) { c.Strategy = s }})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := base()
			tt.edit(&c)
			err := c.Validate()
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("unexpected error %v", err)
			case tt.err != "" && err == nil:
				t.Fatalf("no error, want one with %q", tt.err)
			case tt.err != "" && !strings.Contains(err.Error(), tt.err):
				t.Fatalf("error %q lacks %q", err, tt.err)
			}
			if tt.check != nil {
				tt.check(t, c)
			}
		})
	}
}

// Parameter shapes used below.
var (
	pInt8   = rt.Param{Name: "a", Kind: rt.ParamInt, Width: 8, Signed: true}
	pInt16  = rt.Param{Name: "a", Kind: rt.ParamInt, Width: 16, Signed: true}
	pInt32  = rt.Param{Name: "a", Kind: rt.ParamInt, Width: 32, Signed: true}
	pInt64  = rt.Param{Name: "a", Kind: rt.ParamInt, Width: 64, Signed: true}
	pUint8  = rt.Param{Name: "a", Kind: rt.ParamInt, Width: 8}
	pUint16 = rt.Param{Name: "a", Kind: rt.ParamInt, Width: 16}
	pUint32 = rt.Param{Name: "a", Kind: rt.ParamInt, Width: 32}
	pUint64 = rt.Param{Name: "a", Kind: rt.ParamInt, Width: 64}
	pBool   = rt.Param{Name: "b", Kind: rt.ParamBool}
	pString = rt.Param{Name: "s", Kind: rt.ParamString}
	pBytes  = rt.Param{Name: "bs", Kind: rt.ParamBytes}
)

// str returns the variables of a string parameter at base holding s.
func str(env sym.Env, base uint64, s string) sym.Env {
	env[base] = uint64(len(s))
	for i := range len(s) {
		env[base+1+uint64(i)] = uint64(s[i])
	}
	return env
}

func TestArgs(t *testing.T) {
	tests := []struct {
		name   string
		params []rt.Param
		maxLen int
		env    sym.Env
		want   []string
	}{
		{name: "int8 minus one", params: []rt.Param{pInt8}, env: sym.Env{0: 0xff}, want: []string{"-1"}},
		{name: "int8 min", params: []rt.Param{pInt8}, env: sym.Env{0: 0x80}, want: []string{"-128"}},
		{name: "int8 max", params: []rt.Param{pInt8}, env: sym.Env{0: 0x7f}, want: []string{"127"}},
		{name: "int8 high bits ignored", params: []rt.Param{pInt8}, env: sym.Env{0: 0xabcd01}, want: []string{"1"}},
		{name: "int16 min", params: []rt.Param{pInt16}, env: sym.Env{0: 0x8000}, want: []string{"-32768"}},
		{name: "int32 minus one", params: []rt.Param{pInt32}, env: sym.Env{0: 0xffffffff}, want: []string{"-1"}},
		{name: "int32 high bits ignored", params: []rt.Param{pInt32}, env: sym.Env{0: 0x1_0000_0007}, want: []string{"7"}},
		{name: "int64 min", params: []rt.Param{pInt64}, env: sym.Env{0: 1 << 63}, want: []string{"-9223372036854775808"}},
		{name: "int64 max", params: []rt.Param{pInt64}, env: sym.Env{0: 1<<63 - 1}, want: []string{"9223372036854775807"}},
		{name: "uint8 max", params: []rt.Param{pUint8}, env: sym.Env{0: 0x1ff}, want: []string{"255"}},
		{name: "uint16 max", params: []rt.Param{pUint16}, env: sym.Env{0: 0xffff}, want: []string{"65535"}},
		{name: "uint32 wraps", params: []rt.Param{pUint32}, env: sym.Env{0: 0x1_0000_0005}, want: []string{"5"}},
		{name: "uint64 max", params: []rt.Param{pUint64}, env: sym.Env{0: ^uint64(0)}, want: []string{"18446744073709551615"}},
		{name: "missing variable is zero", params: []rt.Param{pInt64, pUint8}, env: sym.Env{}, want: []string{"0", "0"}},
		{name: "bools", params: []rt.Param{pBool, pBool, pBool, pBool}, env: sym.Env{0: 1, 1: 0, 2: 2, 3: 3}, want: []string{"true", "false", "false", "true"}},
		{name: "empty string", params: []rt.Param{pString}, maxLen: 4, env: sym.Env{}, want: []string{`""`}},
		{name: "string escapes", params: []rt.Param{pString}, maxLen: 8, env: str(sym.Env{}, 0, "a\"\\\n\t\x00"), want: []string{`"a\"\\\n\t\x00"`}},
		{name: "invalid utf-8", params: []rt.Param{pString}, maxLen: 4, env: str(sym.Env{}, 0, "\xff\xfe"), want: []string{`"\xff\xfe"`}},
		{name: "utf-8 kept", params: []rt.Param{pString}, maxLen: 4, env: str(sym.Env{}, 0, "é!"), want: []string{`"é!"`}},
		{name: "length clipped to maxlen", params: []rt.Param{pString}, maxLen: 3, env: str(sym.Env{}, 0, "abc"), want: []string{`"abc"`}},
		{name: "huge length clipped", params: []rt.Param{pString}, maxLen: 2, env: sym.Env{0: ^uint64(0), 1: 'x', 2: 'y'}, want: []string{`"xy"`}},
		{name: "bytes past the length ignored", params: []rt.Param{pString}, maxLen: 4, env: sym.Env{0: 1, 1: 'a', 2: 'b'}, want: []string{`"a"`}},
		{name: "unset bytes are zero", params: []rt.Param{pString}, maxLen: 4, env: sym.Env{0: 2}, want: []string{`"\x00\x00"`}},
		{name: "byte slice", params: []rt.Param{pBytes}, maxLen: 4, env: str(sym.Env{}, 0, "\x01z"), want: []string{`[]byte("\x01z")`}},
		{name: "empty byte slice", params: []rt.Param{pBytes}, maxLen: 4, env: sym.Env{}, want: []string{`[]byte("")`}},
		{
			// Layout with maxlen 3: a=0, s=1..4, b=5, bs=6..9, u=10.
			name:   "mixed layout",
			params: []rt.Param{pInt16, pString, pBool, pBytes, pUint8},
			maxLen: 3,
			env:    str(str(sym.Env{0: 0xfffe, 5: 1, 10: 200}, 1, "hi"), 6, "xyz"),
			want:   []string{"-2", `"hi"`, "true", `[]byte("xyz")`, "200"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tgt := &Entry{Func: "F", rt: tt.params, maxLen: tt.maxLen}
			got := tgt.Args(tt.env)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Args = %q, want %q", got, tt.want)
			}
			if call := tgt.Call(tt.env); call != "F("+strings.Join(tt.want, ", ")+")" {
				t.Errorf("Call = %s", call)
			}
		})
	}
}

// writeCorpusFiles writes entries as go test fuzz v1 files named by index.
func writeCorpusFiles(t *testing.T, dir string, entries ...[]corpus.Value) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, e := range entries {
		name := filepath.Join(dir, string(rune('a'+i))+"-entry")
		if err := os.WriteFile(name, corpus.Format(e), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestReplaySeeds(t *testing.T) {
	params := []rt.Param{pInt8, pUint16, pString, pBool, pBytes}
	entry := func(i int64, u uint64, s string, b bool, bs string) []corpus.Value {
		return []corpus.Value{
			{Type: "int8", Int: i},
			{Type: "uint16", Uint: u},
			{Type: "string", Bytes: []byte(s)},
			{Type: "bool", Bool: b},
			{Type: "[]byte", Bytes: []byte(bs)},
		}
	}
	root := t.TempDir()
	d1, d2 := filepath.Join(root, "one"), filepath.Join(root, "two")
	writeCorpusFiles(t, d1,
		entry(-1, 65535, "a\n\"b", true, "\x00\xff"),
		entry(-128, 0, "", false, ""),
	)
	writeCorpusFiles(t, d2, entry(127, 7, "a string longer than maxlen", false, "xyz"))

	tgt := &Entry{Func: "F", rt: params}
	maxLen := 4
	envs, err := replaySeeds([]string{d1, filepath.Join(root, "missing"), d2}, tgt, &maxLen)
	if err != nil {
		t.Fatal(err)
	}
	if want := len("a string longer than maxlen"); maxLen != want {
		t.Errorf("maxlen %d, want it grown to the longest value, %d", maxLen, want)
	}
	if len(envs) != 3 {
		t.Fatalf("%d inputs, want 3", len(envs))
	}
	// The inputs print back as the corpus values, in directory order and
	// then file name order.
	tgt.maxLen = maxLen
	want := [][]string{
		{"-1", "65535", `"a\n\"b"`, "true", `[]byte("\x00\xff")`},
		{"-128", "0", `""`, "false", `[]byte("")`},
		{"127", "7", `"a string longer than maxlen"`, "false", `[]byte("xyz")`},
	}
	for i, env := range envs {
		if got := tgt.Args(env); !slices.Equal(got, want[i]) {
			t.Errorf("input %d: %q, want %q", i, got, want[i])
		}
	}
	// Integers are stored masked to their width: the solver and the
	// worker see int8(-1) as the 8-bit pattern 0xff.
	if envs[0][0] != 0xff {
		t.Errorf("int8(-1) stored as %#x, want 0xff", envs[0][0])
	}
	offs := rt.Layout(params, maxLen)
	if got := envs[0][uint64(offs[3])]; got != 1 {
		t.Errorf("bool true stored as %d, want 1", got)
	}
}

func TestReplaySeedsKeepsLargerMaxLen(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "c")
	writeCorpusFiles(t, dir, []corpus.Value{{Type: "string", Bytes: []byte("ab")}})
	maxLen := 16
	envs, err := replaySeeds([]string{dir}, &Entry{Func: "F", rt: []rt.Param{pString}}, &maxLen)
	if err != nil {
		t.Fatal(err)
	}
	if maxLen != 16 {
		t.Errorf("maxlen shrank to %d", maxLen)
	}
	if got := (&Entry{rt: []rt.Param{pString}, maxLen: maxLen}).Args(envs[0]); got[0] != `"ab"` {
		t.Errorf("input %q, want \"ab\"", got)
	}
}

func TestReplaySeedsErrors(t *testing.T) {
	tests := []struct {
		name   string
		params []rt.Param
		files  map[string]string
		want   string
	}{
		{
			name:   "empty directory",
			params: []rt.Param{pInt64},
			files:  map[string]string{},
			want:   "no corpus entries",
		},
		{
			name:   "too few values",
			params: []rt.Param{pInt64, pString},
			files:  map[string]string{"short": string(corpus.Format([]corpus.Value{{Type: "int", Int: 1}}))},
			want:   "short: 1 values for 2 parameters of F",
		},
		{
			name:   "too many values",
			params: []rt.Param{pBool},
			files:  map[string]string{"long": string(corpus.Format([]corpus.Value{{Type: "bool"}, {Type: "bool"}}))},
			want:   "2 values for 1 parameters",
		},
		{
			name:   "not a corpus file",
			params: []rt.Param{pInt64},
			files:  map[string]string{"junk": "hello\n"},
			want:   "junk",
		},
		{
			name:   "bad literal",
			params: []rt.Param{pInt64},
			files:  map[string]string{"bad": corpus.Header + "\nint(x)\n"},
			want:   "bad",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range tt.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			maxLen := 8
			envs, err := replaySeeds([]string{dir}, &Entry{Func: "F", rt: tt.params}, &maxLen)
			if err == nil {
				t.Fatalf("replaySeeds = %v, want an error", envs)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q lacks %q", err, tt.want)
			}
		})
	}
}

// TestReplaySeedsKindMismatch replays a corpus whose values have the right
// count but the wrong kinds for the parameters, such as the corpus of
// another fuzz target. Its inputs would silently be zeros.
func TestReplaySeedsKindMismatch(t *testing.T) {
	tests := []struct {
		name   string
		params []rt.Param
		values []corpus.Value
	}{
		{name: "string for int", params: []rt.Param{pInt64}, values: []corpus.Value{{Type: "string", Bytes: []byte("12")}}},
		{name: "int for string", params: []rt.Param{pString}, values: []corpus.Value{{Type: "int", Int: 3}}},
		{name: "int for bool", params: []rt.Param{pBool}, values: []corpus.Value{{Type: "int", Int: 1}}},
		{name: "bool for bytes", params: []rt.Param{pBytes}, values: []corpus.Value{{Type: "bool", Bool: true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeCorpusFiles(t, dir, tt.values)
			maxLen := 8
			envs, err := replaySeeds([]string{dir}, &Entry{Func: "F", rt: tt.params}, &maxLen)
			if err == nil {
				t.Errorf("replaySeeds accepted a value of type %s for a parameter of kind %d: inputs %v", tt.values[0].Type, tt.params[0].Kind, envs)
			}
		})
	}
}

func TestSuite(t *testing.T) {
	tgt := &Entry{
		PkgName: "p", Func: "F",
		Params:  []instrument.Param{{Name: "n", Type: types.Typ[types.Int]}, {Name: "s", Type: types.Typ[types.String]}},
		Results: []string{"int", "error"},
		Pinned:  []bool{true, true},
		IsError: []bool{false, true},
		rt:      []rt.Param{pInt64, pString},
		maxLen:  2,
		Sites: []sites.Site{
			{ID: 0, Kind: sites.Cond, Pos: positionAt("strings.go", 130, 5), Text: "0 <= r", Std: true},
			{ID: 1, Kind: sites.Cond, Pos: positionAt("p.go", 4, 5), Text: `s == ""`},
		},
	}
	ok := func(lits ...string) []rt.Result {
		var rs []rt.Result
		for _, l := range lits {
			rs = append(rs, rt.Result{Pinned: l != "?", Literal: l})
		}
		return rs
	}
	rep := &coordinator.Report{
		Cases: []coordinator.Execution{
			{Input: str(sym.Env{0: 1}, 1, "ab"), Results: ok("1", `""`), Covers: []sites.Outcome{sites.OutcomeOf(0, true), sites.OutcomeOf(1, false)}},
			// Differs only in a byte past maxlen: the same test case.
			{Input: str(sym.Env{0: 1, 4: 'z'}, 1, "ab"), Results: ok("1", `""`)},
			{Input: sym.Env{0: 2}, Results: ok("2", "?")},
		},
		Findings: []*coordinator.Finding{
			{Kind: "exit", Message: "exit status 3", Input: sym.Env{0: 5}, Elapsed: 2 * time.Second},
			{Kind: "panic", Message: "boom", Input: sym.Env{0: ^uint64(0)}, Elapsed: time.Second},
		},
	}
	s := suite(tgt, rep)
	if s.Package != "p" || s.Func != "F" || len(s.Params) != 2 || s.Params[1].Name != "s" || s.Params[1].Type != "string" {
		t.Errorf("suite header %+v", s)
	}
	if len(s.Cases) != 2 {
		t.Fatalf("%d cases, want 2 (duplicates dropped): %+v", len(s.Cases), s.Cases)
	}
	if !slices.Equal(s.Cases[0].Args, []string{"1", `"ab"`}) || !slices.Equal(s.Cases[1].Args, []string{"2", `""`}) {
		t.Errorf("case args %q, %q", s.Cases[0].Args, s.Cases[1].Args)
	}
	// The standard library's condition is marked, which keeps it from
	// naming the case.
	if want := []emit.Cond{{Pos: "strings.go:130", Text: "0 <= r", Taken: true, Std: true}, {Pos: "p.go:4", Text: `s == ""`}}; !slices.Equal(s.Cases[0].Covers, want) {
		t.Errorf("case covers %+v, want %+v", s.Cases[0].Covers, want)
	}
	if !s.Results[0].Pinned || s.Results[1].Pinned || !s.Results[1].IsError {
		t.Errorf("results %+v: want the int pinned and the error not (one case has no literal)", s.Results)
	}
	if len(s.Crashes) != 2 || s.Crashes[0].Kind != "panic" || s.Crashes[1].Kind != "exit" {
		t.Fatalf("crashes %+v, want panic then exit, in order of discovery", s.Crashes)
	}
	if !slices.Equal(s.Crashes[0].Args, []string{"-1", `""`}) {
		t.Errorf("crash args %q", s.Crashes[0].Args)
	}
}

func TestWriteJSON(t *testing.T) {
	tgt := &Entry{
		PkgPath: "example.com/m/p", PkgName: "p", Func: "F",
		Params: []instrument.Param{{Name: "n"}, {Name: "_"}},
		Sites: []sites.Site{
			{ID: 0, Kind: sites.Cond, Pos: positionAt("p.go", 3, 5), Func: "F", Text: "n > 0"},
			{ID: 1, Kind: sites.Implicit},
			{ID: 2, Kind: sites.Cond, Pos: positionAt("p.go", 7, 2), Func: "F", Text: "n == 9"},
			{ID: 3, Kind: sites.Concrete, Pos: positionAt("p.go", 5, 8), Func: "F", Text: "hash(n)"},
			{ID: 4, Kind: sites.Concrete, Pos: positionAt("p.go", 6, 3), Func: "F", Text: "s.n"},
		},
		rt:     []rt.Param{pInt64, pBool},
		maxLen: 4,
	}
	rep := &coordinator.Report{
		Execs:    10,
		Elapsed:  2 * time.Second,
		Covered:  map[uint32]uint8{0: 3, 1: 3, 2: 1},
		Cases:    []coordinator.Execution{{Input: sym.Env{0: 1}}},
		Findings: []*coordinator.Finding{{Kind: "panic", Message: "boom", Input: sym.Env{0: 9, 1: 1}, Count: 4, Elapsed: time.Second}},
		Queries:  map[string]int{"sat": 3, "unsat": 2, "unknown": 1, "error": 1},
		Stopped:  "runs",
		StateDependent: []*coordinator.Finding{
			{Kind: "panic", Message: "flag redefined: a", Input: sym.Env{0: 2}, Count: 3, Elapsed: 1500 * time.Millisecond},
		},
		Alone:         coordinator.AloneStats{Checked: 2, Inferred: 1, Unchecked: 1},
		DivergedSites: map[uint32]int{0: 1, 2: 4, 40: 2},
	}
	// Eleven more sites with one divergence each, all unknown: the list
	// keeps ten.
	for i := range 11 {
		rep.DivergedSites[uint32(100+i)] = 1
	}
	call := func(site, count, first uint32) rt.Concretised {
		return rt.Concretised{Site: site, Cause: rt.CauseCall, Count: count, First: first}
	}
	rep.Concretised.Add([]rt.Concretised{call(3, 2, 0), {Site: 4, Cause: rt.CauseStale, Count: 1, First: 1}}, -1)
	rep.Concretised.Add([]rt.Concretised{call(3, 1, 0), call(rt.NoSite, 1, 0)}, 0)
	rep.Concretised.Add(nil, 2)
	cfg := Config{Package: "./p", Func: "F"}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	j, path := writeAndRead(t, cfg, tgt, rep, &Outcome{TestFile: "/x/f_gocolic_test.go"})
	if j.Branches.Covered != 3 || j.Branches.Total != 4 || len(j.Branches.Sites) != 2 {
		t.Errorf("branches %+v, want 3 of 4 outcomes over 2 condition sites", j.Branches)
	}
	if s := j.Branches.Sites[1]; s.Pos != "p.go:7:2" || s.Cond != "n == 9" || s.True || !s.False {
		t.Errorf("site %+v", s)
	}
	wantConc := &report.Concretised{Events: 5, Divergences: 2, Unattributed: 1, Causes: []report.Cause{
		{Cause: "call", Description: rt.CauseCall.Describe(), Events: 4, Executions: 2, Divergences: 1, Sites: []report.ConcreteSite{
			{Pos: "p.go:5", Func: "F", Expr: "hash(n)", Events: 3, Executions: 2, Divergences: 1},
			{Events: 1, Executions: 1, Divergences: 1}, // a place the worker could not tell
		}},
		{Cause: "stale", Description: rt.CauseStale.Describe(), Events: 1, Executions: 1, Sites: []report.ConcreteSite{
			{Pos: "p.go:6", Func: "F", Expr: "s.n", Events: 1, Executions: 1},
		}},
	}}
	if !reflect.DeepEqual(j.Concretised, wantConc) {
		t.Errorf("concretised\n got %+v\nwant %+v", j.Concretised, wantConc)
	}
	wantDiv := []report.DivergentSite{
		{Pos: "p.go:7", Func: "F", Cond: "n == 9", Count: 4},
		{Count: 2}, // a site the table does not hold
		{Pos: "p.go:3", Func: "F", Cond: "n > 0", Count: 1},
	}
	if len(j.DivergentSites) != MaxDivergentSites || !reflect.DeepEqual(j.DivergentSites[:3], wantDiv) {
		t.Errorf("divergent_sites\n got %+v\nwant %d of them, first %+v", j.DivergentSites, MaxDivergentSites, wantDiv)
	}
	if len(j.Bugs) != 1 {
		t.Fatalf("bugs %+v", j.Bugs)
	}
	b := j.Bugs[0]
	if b.Call != "F(9, true)" || b.Inputs["n"] != "9" || b.Inputs["#2"] != "true" || b.Count != 4 {
		t.Errorf("bug %+v", b)
	}
	if b.Reproducer != "/x/f_gocolic_test.go: TestGocolicFCrashes (case 1)" {
		t.Errorf("reproducer %q", b.Reproducer)
	}
	wantState := &report.StateDependent{Checked: 2, Inferred: 1, Unchecked: 1, Failures: []report.StateFailure{
		{Kind: "panic", Message: "flag redefined: a", Inputs: map[string]string{"n": "2", "#2": "false"}, Call: "F(2, false)", Count: 3, FoundMS: 1500},
	}}
	if !reflect.DeepEqual(j.StateDependent, wantState) {
		t.Errorf("state_dependent\n got %+v\nwant %+v", j.StateDependent, wantState)
	}
	if j.Solver.Queries != 7 || j.Solver.Unknown != 2 {
		t.Errorf("solver %+v, want 7 queries with the error counted unknown", j.Solver)
	}
	if j.ExecsPerSec != 5 || j.Stopped != "runs" || len(j.Cases) != 1 || j.Cases[0][0] != "1" {
		t.Errorf("report %+v", j)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("report file mode %v, %v", fi.Mode(), err)
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".gocolic-*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func positionAt(file string, line, col int) token.Position {
	return token.Position{Filename: file, Line: line, Column: col}
}

// TestStacksReleased checks that the report reads the counts of released
// solver stacks only: a stack whose goroutine the pool abandoned may still
// be solving.
func TestStacksReleased(t *testing.T) {
	var k stacks
	a, b := solver.Solver(nil), solver.Solver(nil)
	closed := 0
	relA := k.add(a, func() { closed++ })
	_ = k.add(b, func() { closed++ })
	if k.len() != 2 || len(k.released()) != 0 {
		t.Fatalf("before any release: %d stacks, %d released; want 2 and 0", k.len(), len(k.released()))
	}
	relA()
	if got := k.released(); len(got) != 1 || closed != 1 {
		t.Errorf("after one release: %d released, %d closed; want 1 and 1", len(got), closed)
	}
}
