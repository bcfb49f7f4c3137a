package session

import (
	"bytes"
	"go/constant"
	"go/token"
	"go/types"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gocolic/gocolic/corpus"
	"github.com/gocolic/gocolic/instrument"
	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sym"
)

// TestSeedValues turns the constants of f.Add calls into inputs of a fuzz
// function func(t, bs []byte, s string, a uint16, f float32, b bool, i
// int8), or says why a call does not fit it.
func TestSeedValues(t *testing.T) {
	_, typ := shapeTypes(t)
	pFloat32 := rt.Param{Name: "f", Kind: rt.ParamFloat, Width: 32}
	tgt := &Entry{
		Func: "FuzzX", maxLen: 32,
		rt: []rt.Param{pBytes, pString, pUint16, pFloat32, pBool, pInt8},
		Params: []instrument.Param{
			{Name: "bs", Type: typ("[]byte")}, {Name: "s", Type: typ("string")}, {Name: "a", Type: typ("uint16")},
			{Name: "f", Type: typ("float32")}, {Name: "b", Type: typ("bool")}, {Name: "i", Type: typ("int8")},
		},
	}
	str, i64, f64, b := constant.MakeString, constant.MakeInt64, constant.MakeFloat64, constant.MakeBool
	tests := []struct {
		name string
		seed instrument.Seed
		want []string // the input's arguments as Go literals
		err  string
	}{
		{
			name: "every kind",
			seed: instrument.Seed{Values: []constant.Value{str("\x01\x02"), str("s"), i64(3), f64(1.5), b(true), i64(-1)}},
			want: []string{`[]byte("\x01\x02")`, `"s"`, "3", "1.5", "true", "-1"},
		},
		{
			name: "an integer constant for a float",
			seed: instrument.Seed{Values: []constant.Value{str(""), str(""), i64(65535), i64(2), b(false), i64(127)}},
			want: []string{`[]byte("")`, `""`, "65535", "2", "false", "127"},
		},
		{
			name: "unreadable",
			seed: instrument.Seed{Values: make([]constant.Value, 6), Problem: "argument 1 (v) is not a constant"},
			err:  "argument 1 (v) is not a constant",
		},
		{
			name: "too few arguments",
			seed: instrument.Seed{Values: []constant.Value{str(""), str("")}},
			err:  "2 arguments for 6 parameters",
		},
		{
			name: "a string for an integer",
			seed: instrument.Seed{Values: []constant.Value{str(""), str(""), str("x"), f64(0), b(false), i64(0)}},
			err:  `argument 3 is "x", parameter a is uint16`,
		},
		{
			name: "an integer for a bool",
			seed: instrument.Seed{Values: []constant.Value{str(""), str(""), i64(0), f64(0), i64(1), i64(0)}},
			err:  "argument 5 is 1, parameter b is bool",
		},
		{
			name: "a fraction for an integer",
			seed: instrument.Seed{Values: []constant.Value{str(""), str(""), i64(0), f64(0), b(false), f64(1.5)}},
			err:  "argument 6 is 1.5, parameter a is int8",
		},
		{
			name: "an integer for a string",
			seed: instrument.Seed{Values: []constant.Value{i64(1), str(""), i64(0), f64(0), b(false), i64(0)}},
			err:  "argument 1 is 1, parameter bs is []byte",
		},
		{
			name: "a missing value",
			seed: instrument.Seed{Values: []constant.Value{nil, str(""), i64(0), f64(0), b(false), i64(0)}},
			err:  "argument 1 cannot be read",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vs, err := seedValues(tt.seed, tgt)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("seedValues = %v, %v; want an error containing %q", vs, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			env, err := entryEnv(vs, tgt, tgt.maxLen)
			if err != nil {
				t.Fatal(err)
			}
			if got := tgt.Args(env); !slices.Equal(got, tt.want) {
				t.Errorf("input %q, want %q", got, tt.want)
			}
		})
	}
}

// TestFuzzSeedsLength checks what gocolic fuzz does with seeds and corpus
// entries longer than -maxlen: without -maxlen it raises the bound to the
// longest seed or testdata entry (up to maxAutoMaxLen; not for the fuzz
// cache); what is still cut is counted in one warning that names the
// -maxlen that keeps them whole. An f.Add call that cannot be read is
// named by file and line.
func TestFuzzSeedsLength(t *testing.T) {
	long := func(n int) instrument.Seed {
		return instrument.Seed{Values: []constant.Value{constant.MakeString(strings.Repeat("x", n))}}
	}
	tests := []struct {
		name     string
		maxLen   int
		auto     bool
		seeds    []instrument.Seed
		entries  []int // lengths of the corpus entries
		cached   []int // lengths of the entries of the fuzz cache (-fuzzcache)
		wantLen  int
		wantOut  []string // the lines printed, in order
		wantArgs []int    // the lengths of the inputs
	}{
		{
			name: "short", maxLen: 32, auto: true,
			seeds: []instrument.Seed{long(3)}, entries: []int{32},
			wantLen: 32, wantArgs: []int{3, 32},
		},
		{
			name: "raised to the longest seed", maxLen: 32, auto: true,
			seeds: []instrument.Seed{long(40), long(3)}, entries: []int{10},
			wantLen: 40, wantArgs: []int{40, 3, 10},
			wantOut: []string{"gocolic: -maxlen 40 (raised from 32 for the longest seed, 40 bytes)"},
		},
		{
			name: "raised to the longest corpus entry", maxLen: 32, auto: true,
			seeds: []instrument.Seed{long(3)}, entries: []int{100},
			wantLen: 100, wantArgs: []int{3, 100},
			wantOut: []string{"gocolic: -maxlen 100 (raised from 32 for the longest seed, 100 bytes)"},
		},
		{
			name: "cut to an explicit -maxlen", maxLen: 8,
			seeds: []instrument.Seed{long(40), long(5), long(9)}, entries: []int{12, 2},
			wantLen: 8, wantArgs: []int{8, 5, 8, 8, 2},
			wantOut: []string{"gocolic: warning: 2 f.Add seeds and 1 corpus entry hold values longer than -maxlen 8, cut to that length; -maxlen 40 keeps them whole"},
		},
		{
			name: "one corpus entry cut", maxLen: 8,
			entries: []int{9},
			wantLen: 8, wantArgs: []int{8},
			wantOut: []string{"gocolic: warning: 1 corpus entry holds values longer than -maxlen 8, cut to that length; -maxlen 9 keeps them whole"},
		},
		{
			name: "beyond the cap of the raise", maxLen: 32, auto: true,
			seeds: []instrument.Seed{long(2000)}, entries: []int{1500},
			wantLen: maxAutoMaxLen, wantArgs: []int{maxAutoMaxLen, maxAutoMaxLen},
			wantOut: []string{
				"gocolic: -maxlen 1024 (raised from 32 for the longest seed, 2000 bytes)",
				"gocolic: warning: 1 f.Add seed and 1 corpus entry hold values longer than -maxlen 1024, cut to that length; -maxlen 2000 keeps them whole",
			},
		},
		{
			name: "beyond what -maxlen takes", maxLen: maxMaxLen,
			seeds:   []instrument.Seed{long(5000)},
			wantLen: maxMaxLen, wantArgs: []int{maxMaxLen},
			wantOut: []string{
				"gocolic: warning: 1 f.Add seed holds values longer than -maxlen 4096, cut to that length (the longest has 5000 bytes; -maxlen is at most 4096)",
			},
		},
		{
			name: "the fuzz cache does not raise", maxLen: 32, auto: true,
			seeds: []instrument.Seed{long(40)}, cached: []int{100, 5},
			wantLen: 40, wantArgs: []int{40, 40, 5},
			wantOut: []string{
				"gocolic: -maxlen 40 (raised from 32 for the longest seed, 40 bytes)",
				"gocolic: warning: 1 corpus entry holds values longer than -maxlen 40, cut to that length; -maxlen 100 keeps them whole",
			},
		},
		{
			name: "an unreadable seed", maxLen: 32, auto: true,
			seeds: []instrument.Seed{
				{Pos: token.Position{Filename: "p/p_test.go", Line: 12}, Values: []constant.Value{nil}, Problem: "argument 1 (v) is not a constant"},
				long(1),
				{Pos: token.Position{Filename: "p/p_test.go", Line: 13}, Values: []constant.Value{constant.MakeInt64(1)}},
			},
			wantLen: 32, wantArgs: []int{1},
			wantOut: []string{
				"gocolic: warning: f.Add at p/p_test.go:12 is not used as a seed: argument 1 (v) is not a constant",
				"gocolic: warning: f.Add at p/p_test.go:13 is not used as a seed: argument 1 is 1, parameter bs is []byte",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, "p", "testdata", "fuzz", "FuzzX")
			var entries [][]corpus.Value
			for _, n := range tt.entries {
				entries = append(entries, []corpus.Value{{Type: "[]byte", Bytes: bytes.Repeat([]byte{'y'}, n)}})
			}
			writeCorpusFiles(t, dir, entries...)
			if tt.cached != nil {
				gocache := filepath.Join(root, "gocache")
				t.Setenv("GOCACHE", gocache)
				var cached [][]corpus.Value
				for _, n := range tt.cached {
					cached = append(cached, []corpus.Value{{Type: "[]byte", Bytes: bytes.Repeat([]byte{'z'}, n)}})
				}
				writeCorpusFiles(t, filepath.Join(gocache, "fuzz", "example.com/p", "FuzzX"), cached...)
			}
			for i := range tt.seeds {
				if f := tt.seeds[i].Pos.Filename; f != "" {
					tt.seeds[i].Pos.Filename = filepath.Join(root, f)
				}
			}
			var out bytes.Buffer
			cfg := Config{Dir: root, MaxLen: tt.maxLen, maxLenAuto: tt.auto, Stderr: &out, FuzzCache: tt.cached != nil}
			tgt := &Entry{PkgPath: "example.com/p", Func: "FuzzX", rt: []rt.Param{pBytes}, Params: []instrument.Param{{Name: "bs", Type: types.NewSlice(types.Typ[types.Byte])}}}
			envs, maxLen, err := fuzzSeeds(cfg, tgt, tt.seeds, dir)
			if err != nil {
				t.Fatal(err)
			}
			if maxLen != tt.wantLen {
				t.Errorf("maxlen %d, want %d", maxLen, tt.wantLen)
			}
			var lines []string
			if s := strings.TrimSuffix(out.String(), "\n"); s != "" {
				lines = strings.Split(s, "\n")
			}
			if !slices.Equal(lines, tt.wantOut) {
				t.Errorf("printed\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(tt.wantOut, "\n"))
			}
			var lens []int
			for _, env := range envs {
				lens = append(lens, len(rt.DecodeInput(tgt.rt, maxLen, env)[0].Bytes))
			}
			if !slices.Equal(lens, tt.wantArgs) {
				t.Errorf("input lengths %v, want %v", lens, tt.wantArgs)
			}
		})
	}
}

// TestWithoutCopies checks the rewrite a worker falls back to when it
// does not build with the copies of floor packages: it instruments the
// package that holds the fuzz target again, the external test package
// (p_test) as well as p itself, while the outputs still go to p.
func TestWithoutCopies(t *testing.T) {
	tests := []struct {
		name, pkgName string
	}{
		{"internal test package", "p"},
		{"external test package", "p_test"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			fuzz := "package " + tt.pkgName + "\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/p\"\n)\n\nfunc FuzzX(f *testing.F) {\n\tf.Add(\"a\")\n\tf.Fuzz(func(t *testing.T, s string) {\n\t\tif p.Upper(s) {\n\t\t\tt.Skip()\n\t\t}\n\t})\n}\n"
			if tt.pkgName == "p" {
				fuzz = strings.Replace(strings.Replace(fuzz, "\n\n\t\"example.com/m/p\"", "", 1), "p.Upper", "Upper", 1)
			}
			files := map[string]string{
				"go.mod":         "module example.com/m\n\ngo 1.24\n",
				"p/p.go":         "package p\n\nfunc Upper(s string) bool { return len(s) > 0 && s[0] >= 'A' && s[0] <= 'Z' }\n",
				"p/fuzz_test.go": fuzz,
			}
			writeTree(t, dir, files)
			cfg := DefaultConfig()
			cfg.Dir, cfg.Package, cfg.Func, cfg.Stdlib, cfg.Stderr = dir, "./p", "FuzzX", false, io.Discard
			tg, _, _, err := fuzzTarget(&cfg)
			if err != nil {
				t.Fatal(err)
			}
			if err := tg.withoutCopies(cfg); err != nil {
				t.Fatalf("without copies: %v", err)
			}
			if tg.pkg.PkgPath != "example.com/m/p" || tg.ipkg.Name != tt.pkgName {
				t.Errorf("outputs go to %s, instrumented %s; want example.com/m/p and package %s", tg.pkg.PkgPath, tg.ipkg.Name, tt.pkgName)
			}
			if _, ok := tg.ins.Files[filepath.Join(dir, "p", "fuzz_test.go")]; !ok {
				t.Errorf("the rewrite without copies lacks the fuzz target's file: %v", slices.Collect(maps.Keys(tg.ins.Files)))
			}
		})
	}
}

// TestRunSeedsFailure checks that when the run of a fuzz target for its
// computed seeds fails, the seeds stay as they were and the warnings
// about the f.Add calls not read are printed, with why the run failed.
func TestRunSeedsFailure(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "worker")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\necho 'needs FUZZ_DATA' >&2\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cfg := DefaultConfig()
	cfg.Func, cfg.Stderr = "FuzzX", &stderr
	warning := unreadPrefix + "p/p_test.go:9 is not used as a seed: argument 1 (v) is not a constant\n"
	tgt := &target{fuzz: true, unreadSeeds: warning, entry: &Entry{Func: "FuzzX", PkgDir: dir}}
	seeds := []sym.Env{{0: 1}}
	got := runSeeds(cfg, tgt, bin, nil, seeds)
	if len(got) != 1 || got[0][0] != 1 {
		t.Errorf("seeds %v, want the one given", got)
	}
	for _, want := range []string{warning, "running FuzzX for the seeds its f.Add calls compute failed: exit status 3", "needs FUZZ_DATA"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	// Nothing unread: no run, nothing printed.
	stderr.Reset()
	tgt.unreadSeeds = ""
	if got := runSeeds(cfg, tgt, bin, nil, seeds); len(got) != 1 || stderr.Len() != 0 {
		t.Errorf("with every f.Add read: seeds %v, stderr %q", got, stderr.String())
	}
}
