// This file runs `gocolic fuzz`: a native fuzz target explored
// concolically, with its seeds as first inputs and its findings written
// back as corpus entries that go test replays.

package session

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"go/constant"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/gocolic/gocolic/corpus"
	"github.com/gocolic/gocolic/instrument"
	"github.com/gocolic/gocolic/load"
	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sym"
)

// Fuzz runs `gocolic fuzz`. cfg.Func names the fuzz target FuzzXxx.
// Every input that covered something new or failed is written to
// testdata/fuzz/FuzzXxx in the package (unless cfg.NoTests).
func Fuzz(ctx context.Context, cfg Config) (*Outcome, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.WithFuzzer && cfg.Budget == 0 {
		return nil, errors.New("-with-fuzzer needs a time budget (-budget), which the fuzzer shares")
	}
	pkg, err := load.LoadTest(cfg.Dir, cfg.Package, cfg.Func)
	if err != nil {
		return nil, err
	}
	// Support packages: the package under test of an external test
	// package (p for p_test), so that the fuzz function's calls into it
	// keep their arguments symbolic, and what -instrument names.
	sup, err := instrumentSupport(cfg, pkg)
	if err != nil {
		return nil, err
	}
	ins, err := instrument.Package(pkg.Package, sup.config(instrument.Config{
		FuzzTarget:    cfg.Func,
		RangeOverFunc: pkg.RangeOverFunc(),
		Impure:        cfg.Impure,
	}))
	if err != nil {
		return nil, err
	}
	added := map[string][]byte{ins.DriverPath: ins.Driver}
	sup.merge(ins, added)
	if pkg.Under != nil {
		// Paths and commands name the package under test, whose
		// directory and go test run both.
		pkg = &load.Package{Package: pkg.Under, ModuleDir: pkg.ModuleDir, ModulePath: pkg.ModulePath, GoVersion: pkg.GoVersion}
	}
	tgt := newTarget(pkg, ins, cfg)
	dir := filepath.Join(tgt.PkgDir, "testdata", "fuzz", cfg.Func)
	seeds, err := fuzzSeeds(cfg, tgt, ins.Seeds, dir)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(cfg.Stderr, "gocolic: %d seed inputs\n", len(seeds))
	var hy *hybrid
	if cfg.WithFuzzer {
		parallel := max(1, cfg.Workers/2)
		cfg.Workers = max(1, cfg.Workers-parallel)
		if hy, err = newHybrid(pkg.ModuleDir, tgt, parallel, cfg.Stderr); err != nil {
			return nil, err
		}
	}
	r, err := exploreTarget(ctx, cfg, pkg, ins, tgt, seeds, true, hy, added, sup)
	var errs []error
	if hy != nil {
		// The fuzzer's failures go back to testdata whatever happened.
		errs = append(errs, hy.restore(cfg.NoTests))
	}
	if r == nil {
		return nil, errors.Join(append(errs, err)...)
	}
	defer r.close()
	errs = append(errs, err)
	out := r.out
	if hy != nil {
		st := hy.Stats()
		out.Hybrid = &st
	}
	if !cfg.NoTests {
		n, werr := writeCorpus(dir, tgt, out.Report)
		errs = append(errs, werr)
		if n > 0 {
			out.TestFile = dir
		}
	}
	if cfg.JSON != "" {
		errs = append(errs, writeJSON(cfg.JSON, cfg, "fuzz", pkg.ModuleDir, tgt, out.Report, r.chain, out))
	}
	if cfg.RunDir != "" {
		errs = append(errs, writeRunDir(cfg, "fuzz", pkg.ModuleDir, tgt, out.Report, r.chain, out, func(dst string) error {
			if err := fuzzProfile(pkg.ModuleDir, tgt, dst); err != nil {
				return err
			}
			out.Profile = dst
			return nil
		}))
	}
	return out, errors.Join(errs...)
}

// fuzzSeeds returns the first inputs: the f.Add calls whose arguments are
// constants, the package's corpus directory and, with cfg.FuzzCache, the
// entries go test -fuzz keeps in its cache.
func fuzzSeeds(cfg Config, t *Target, adds []instrument.Seed, dir string) ([]sym.Env, error) {
	var entries [][]corpus.Value
	for _, sd := range adds {
		e, ok := seedValues(sd, t)
		if ok {
			entries = append(entries, e)
		}
	}
	dirs := []string{dir}
	if cfg.FuzzCache {
		out, err := exec.Command("go", "env", "GOCACHE").Output()
		if err != nil {
			return nil, fmt.Errorf("finding the go build cache: %w", err)
		}
		dirs = append(dirs, filepath.Join(strings.TrimSpace(string(out)), "fuzz", t.PkgPath, t.Func))
	}
	for _, d := range dirs {
		es, _, err := corpus.ReadDir(d)
		if err != nil {
			return nil, err
		}
		entries = append(entries, es...)
	}
	maxLen := t.maxLen
	var envs []sym.Env
	for _, e := range entries {
		env, err := entryEnv(e, t, maxLen)
		if err != nil {
			return nil, err
		}
		envs = append(envs, env)
	}
	return envs, nil
}

// seedValues turns the constants of an f.Add call into corpus values; ok
// is false when some argument is not a constant.
func seedValues(sd instrument.Seed, t *Target) ([]corpus.Value, bool) {
	if len(sd) != len(t.rt) {
		return nil, false
	}
	var vs []corpus.Value
	for i, c := range sd {
		if c == nil {
			return nil, false
		}
		v := corpus.Value{Type: t.Params[i].TypeString}
		switch t.rt[i].Kind {
		case rt.ParamBool:
			v.Bool = constant.BoolVal(c)
		case rt.ParamString, rt.ParamBytes:
			if c.Kind() != constant.String {
				return nil, false
			}
			v.Bytes = []byte(constant.StringVal(c))
		case rt.ParamFloat:
			f, _ := constant.Float64Val(constant.ToFloat(c))
			if c.Kind() != constant.Int && c.Kind() != constant.Float {
				return nil, false
			}
			if t.rt[i].Width == 32 {
				v.Float = uint64(math.Float32bits(float32(f)))
			} else {
				v.Float = math.Float64bits(f)
			}
		case rt.ParamInt:
			if i64, exact := constant.Int64Val(constant.ToInt(c)); exact {
				v.Int = i64
				if !t.rt[i].Signed {
					v.Int, v.Uint = 0, uint64(i64)
				}
			} else if u64, exact := constant.Uint64Val(constant.ToInt(c)); exact {
				v.Uint = u64
			} else {
				return nil, false
			}
		}
		vs = append(vs, v)
	}
	return vs, true
}

// entryEnv turns a corpus entry into an input; values longer than maxLen
// are cut. It serves -replay and the seeds of gocolic fuzz.
func entryEnv(e []corpus.Value, t *Target, maxLen int) (sym.Env, error) {
	if len(e) != len(t.rt) {
		return nil, fmt.Errorf("%d values for %d parameters of %s", len(e), len(t.rt), t.Func)
	}
	args := make([]rt.Arg, len(t.rt))
	for i, p := range t.rt {
		v := e[i]
		if !kindMatches(p.Kind, v.Type) {
			return nil, fmt.Errorf("value %d is a %s, parameter %s of %s is not", i+1, v.Type, p.Name, t.Func)
		}
		switch p.Kind {
		case rt.ParamInt:
			args[i].Bits = v.Uint | uint64(v.Int)
		case rt.ParamFloat:
			args[i].Bits = v.Float
			switch {
			case p.Width == 64 && v.Type == "float32":
				args[i].Bits = math.Float64bits(float64(math.Float32frombits(uint32(v.Float))))
			case p.Width == 32 && v.Type == "float64":
				args[i].Bits = uint64(math.Float32bits(float32(math.Float64frombits(v.Float))))
			}
		case rt.ParamBool:
			if v.Bool {
				args[i].Bits = 1
			}
		default:
			args[i].Bytes = v.Bytes
		}
	}
	return rt.EncodeInput(t.rt, maxLen, args), nil
}

// entryOf turns an input back into a corpus entry.
func entryOf(env sym.Env, t *Target) []corpus.Value {
	var vs []corpus.Value
	for i, a := range rt.DecodeInput(t.rt, t.maxLen, env) {
		p := t.rt[i]
		v := corpus.Value{Type: t.Params[i].TypeString}
		switch p.Kind {
		case rt.ParamInt:
			if p.Signed {
				v.Int = sym.SignExtend(a.Bits, p.Width)
			} else {
				v.Uint = a.Bits
			}
		case rt.ParamBool:
			v.Bool = a.Bits == 1
		case rt.ParamFloat:
			v.Float = a.Bits
		default:
			v.Bytes = a.Bytes
		}
		vs = append(vs, v)
	}
	return vs
}

// corpusFile returns the corpus file of an input and its name, which is
// the one go test gives it: the first 16 hex digits of the SHA-256 of the
// content.
func corpusFile(env sym.Env, t *Target) ([]byte, string) {
	data := corpus.Format(entryOf(env, t))
	return data, fmt.Sprintf("%x", sha256.Sum256(data))[:16]
}

// writeCorpus writes the kept inputs and the failing ones into dir, named
// as go test names corpus files (the first 16 hex digits of the SHA-256
// of the content), and returns how many files it added.
func writeCorpus(dir string, t *Target, rep interface {
	Inputs() []sym.Env
}) (int, error) {
	n := 0
	for _, env := range rep.Inputs() {
		data, name := corpusFile(env, t)
		path := filepath.Join(dir, name)
		if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
			continue
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return n, fmt.Errorf("writing corpus: %w", err)
		}
		if err := writeAtomic(path, data); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}
