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
	"go/token"
	"go/types"
	"io"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gocolic/gocolic/corpus"
	"github.com/gocolic/gocolic/instrument"
	"github.com/gocolic/gocolic/load"
	"github.com/gocolic/gocolic/proc"
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
	if err := cfg.probeNATS(); err != nil {
		return nil, err
	}
	if cfg.WithFuzzer && cfg.Budget == 0 {
		return nil, errors.New("-with-fuzzer needs a time budget (-budget), which the fuzzer shares")
	}
	t, seeds, dir, err := fuzzTarget(&cfg)
	if err != nil {
		return nil, err
	}
	pkg, tgt := t.pkg, t.entry
	var hy *hybrid
	if cfg.WithFuzzer {
		parallel := max(1, cfg.Workers/2)
		cfg.Workers = max(1, cfg.Workers-parallel)
		if hy, err = newHybrid(pkg.ModuleDir, tgt, parallel, cfg.Stderr); err != nil {
			return nil, err
		}
	}
	r, err := exploreTarget(ctx, cfg, t, seeds, hy)
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
	if finishState(cfg, CmdFuzz, t, out, &errs) && !cfg.NoTests {
		var n int
		errs = append(errs, guarded(out.Report, "corpus", func() (err error) {
			n, err = writeCorpus(dir, tgt, out.Report)
			return err
		}))
		if n > 0 {
			out.TestFile = dir
		}
	}
	if cfg.JSON != "" {
		errs = append(errs, guarded(out.Report, "report", func() error {
			return writeJSON(cfg.JSON, cfg, CmdFuzz, pkg.ModuleDir, tgt, out.Report, r.chains, out)
		}))
	}
	if cfg.RunDir != "" {
		errs = append(errs, guarded(out.Report, "report", func() error {
			return writeRunDir(cfg, CmdFuzz, pkg.ModuleDir, tgt, out.Report, r.chains, out, func(dst string) error {
				fmt.Fprintln(cfg.Stderr, "gocolic: replaying the corpus under go test -cover for the run directory's coverage profile")
				if err := fuzzProfile(pkg.ModuleDir, tgt, out.Report, dst); err != nil {
					return err
				}
				out.Profile = dst
				return nil
			})
		}))
	}
	return out, errors.Join(errs...)
}

// fuzzTarget loads and instruments the package of fuzz target
// cfg.Func, and returns it with its seed inputs and its corpus directory;
// it sets cfg.MaxLen to the bound the seeds are laid out with.
func fuzzTarget(cfg *Config) (*target, []sym.Env, string, error) {
	pkg, err := load.LoadTest(cfg.Dir, cfg.Package, cfg.Func)
	if err != nil {
		return nil, nil, "", err
	}
	pkg, err = withFallbackTags(*cfg, pkg, func(tags []string) (*load.Package, error) {
		return load.LoadTestTags(cfg.Dir, cfg.Package, cfg.Func, tags)
	})
	if err != nil {
		return nil, nil, "", err
	}
	var upd *updating
	if cfg.update {
		// The saved settings decide what is instrumented (readSaved). An
		// external test package's directory is its package's.
		if upd, err = readSaved(cfg, filepath.Dir(pkg.CompiledGoFiles[0]), CmdFuzz); err != nil {
			return nil, nil, "", err
		}
	}
	// Support packages: the package under test of an external test
	// package (p for p_test), so that the fuzz function's calls into it
	// keep their arguments symbolic, and what -instrument names.
	t, err := instrumentTarget(*cfg, pkg, instrument.Config{
		FuzzTarget: cfg.Func,
		Impure:     cfg.Impure,
		Markers:    cfg.Abstraction,
	})
	if err != nil {
		return nil, nil, "", err
	}
	if pkg.Under != nil {
		// Paths and commands name the package under test, whose
		// directory and go test run both.
		t.tests = append(t.tests, pkg.Package)
		pkg = &load.Package{Package: pkg.Under, ModuleDir: pkg.ModuleDir, ModulePath: pkg.ModulePath, GoVersion: pkg.GoVersion, Tags: pkg.Tags}
	}
	t.pkg, t.fuzz = pkg, true
	raiseMaxLen(cfg, t.ins.Consts.Len)
	tgt := newEntry(pkg, t.ins, *cfg)
	tgt.Stdlib, tgt.Instrumented = t.sup.std, t.sup.paths
	t.entry = tgt
	dir := filepath.Join(tgt.PkgDir, "testdata", "fuzz", cfg.Func)
	if upd != nil {
		// The saved inputs are the seeds.
		t.upd = upd
		seeds, err := startUpdate(cfg, t)
		return t, seeds, dir, err
	}
	// f.Add calls whose arguments are not constants in the source are
	// run once the worker is built (runSeeds); their warnings wait.
	quiet := *cfg
	var unread strings.Builder
	quiet.Stderr = &unreadWarnings{w: cfg.Stderr, unread: &unread}
	seeds, maxLen, err := fuzzSeeds(quiet, tgt, t.ins.Seeds, dir)
	if err != nil {
		return nil, nil, "", err
	}
	t.unreadSeeds = unread.String()
	cfg.MaxLen, tgt.maxLen = maxLen, maxLen
	fmt.Fprintf(cfg.Stderr, "gocolic: %d seed inputs\n", len(seeds))
	return t, seeds, dir, nil
}

// fuzzSeeds returns the first inputs: the f.Add calls whose arguments
// can be read, the package's corpus directory and, with cfg.FuzzCache, the
// entries go test -fuzz keeps in its cache. An f.Add call that cannot be
// read gets a warning naming it. It also returns the bound on the length
// of strings and byte slices the inputs are laid out with: cfg.MaxLen,
// unless -maxlen was not given, raised to the longest f.Add seed or
// testdata entry (up to maxAutoMaxLen; the fuzzer's cache entries, which
// can be long, do not raise it). Values still longer are cut, with one
// warning.
func fuzzSeeds(cfg Config, t *Entry, adds []instrument.Seed, dir string) ([]sym.Env, int, error) {
	var seeds [][]corpus.Value
	for _, sd := range adds {
		e, err := seedValues(sd, t)
		if err != nil {
			fmt.Fprintf(cfg.Stderr, unreadPrefix+"%s is not used as a seed: %v\n", relPos(cfg.Dir, sd.Pos), err)
			continue
		}
		seeds = append(seeds, e)
	}
	entries, _, err := corpus.ReadDir(dir)
	if err != nil {
		return nil, 0, err
	}
	var cached [][]corpus.Value
	if cfg.FuzzCache {
		out, err := exec.Command("go", "env", "GOCACHE").Output()
		if err != nil {
			return nil, 0, fmt.Errorf("finding the go build cache: %w", err)
		}
		if cached, _, err = corpus.ReadDir(filepath.Join(strings.TrimSpace(string(out)), "fuzz", t.PkgPath, t.Func)); err != nil {
			return nil, 0, err
		}
	}
	maxLen := cfg.MaxLen
	if longest := max(longestValue(seeds), longestValue(entries)); cfg.maxLenAuto && longest > maxLen {
		maxLen = min(longest, maxAutoMaxLen)
		fmt.Fprintf(cfg.Stderr, "gocolic: -maxlen %d (raised from %d for the longest seed, %d bytes)\n", maxLen, cfg.MaxLen, longest)
	}
	entries = append(entries, cached...)
	longest := max(longestValue(seeds), longestValue(entries))
	if msg := cutWarning(countLonger(seeds, maxLen), countLonger(entries, maxLen), maxLen, longest); msg != "" {
		fmt.Fprintln(cfg.Stderr, "gocolic: warning: "+msg)
	}
	var envs []sym.Env
	for _, e := range append(seeds, entries...) {
		env, err := entryEnv(e, t, maxLen)
		if err != nil {
			return nil, 0, err
		}
		envs = append(envs, env)
	}
	return envs, maxLen, nil
}

// unreadWarnings passes fuzzSeeds' output on to w, except the warnings
// about f.Add calls it could not read, which it keeps in unread.
type unreadWarnings struct {
	w      io.Writer
	unread *strings.Builder
}

func (u *unreadWarnings) Write(p []byte) (int, error) {
	if bytes.HasPrefix(p, []byte(unreadPrefix)) {
		return u.unread.Write(p)
	}
	return u.w.Write(p)
}

// unreadPrefix begins fuzzSeeds' warning about an f.Add call it cannot read.
const unreadPrefix = "gocolic: warning: f.Add at "

// runSeeds runs the fuzz target's worker binary once in rt.SeedsMode,
// which calls FuzzXxx up to f.Fuzz and writes every seed its f.Add calls
// made, and returns seeds with those it did not hold (laid out with
// maxLen, longer values cut). It is called when some f.Add call was not
// read from the source (t.unreadSeeds); if the run fails, seeds come back
// as they were, and the warnings about those calls are printed with why.
func runSeeds(cfg Config, t *target, bin string, args []string, seeds []sym.Env) []sym.Env {
	if t.unreadSeeds == "" || !t.fuzz {
		return seeds
	}
	fail := func(err error) []sym.Env {
		fmt.Fprint(cfg.Stderr, t.unreadSeeds)
		fmt.Fprintf(cfg.Stderr, "gocolic: warning: running %s for the seeds its f.Add calls compute failed: %v\n", cfg.Func, err)
		return seeds
	}
	dir, err := os.MkdirTemp("", "gocolic-seeds-")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(dir)
	ctx, cancel := context.WithTimeout(context.Background(), seedsTimeout)
	defer cancel()
	cmd := proc.CommandContext(ctx, bin, args...)
	cmd.Dir = t.entry.PkgDir
	cmd.Env = append(os.Environ(), rt.WorkerEnv+"="+rt.SeedsMode, rt.SeedsDirEnv+"="+dir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			err = fmt.Errorf("no answer within %v", seedsTimeout)
		}
		return fail(fmt.Errorf("%w\n%s", err, bytes.TrimSpace(lastLines(out.Bytes(), 10))))
	}
	entries, _, err := corpus.ReadDir(dir)
	if err != nil {
		return fail(err)
	}
	have := make(map[string]bool, len(seeds))
	for _, e := range seeds {
		have[envKey(e)] = true
	}
	var added []sym.Env
	cut := 0
	for _, e := range entries {
		if n := countLonger([][]corpus.Value{e}, cfg.MaxLen); n > 0 {
			cut++
		}
		env, err := entryEnv(e, t.entry, cfg.MaxLen)
		if err != nil {
			return fail(err)
		}
		if k := envKey(env); !have[k] {
			have[k] = true
			added = append(added, env)
		}
	}
	fmt.Fprintf(cfg.Stderr, "gocolic: %d more seed inputs from running %s's f.Add calls, which the source does not give as constants\n", len(added), cfg.Func)
	if cut > 0 {
		fmt.Fprintf(cfg.Stderr, "gocolic: warning: %d of them cut to -maxlen %d\n", cut, cfg.MaxLen)
	}
	return append(added, seeds...)
}

// seedsTimeout bounds the run of a fuzz target for its computed seeds.
const seedsTimeout = time.Minute

// envKey is a canonical form of an input, to find inputs given twice.
func envKey(e sym.Env) string {
	keys := slices.Sorted(maps.Keys(e))
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%d=%d;", k, e[k])
	}
	return b.String()
}

// lastLines returns the last n lines of b.
func lastLines(b []byte, n int) []byte {
	lines := bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
	return bytes.Join(lines[max(0, len(lines)-n):], []byte("\n"))
}

// maxAutoMaxLen bounds the automatic raise of -maxlen to the longest
// seed. The cost of exploring grows with the bound, since the solver makes
// inputs that long: on examples/scanner, 4751 executions per second at 32,
// 2156 at 128, 1441 at 512, 207 at 1024 and 43 at 4096.
const maxAutoMaxLen = 1024

// relPos formats the file and line of p, the file relative to dir.
func relPos(dir string, p token.Position) string {
	name := p.Filename
	if rel, err := filepath.Rel(dir, name); err == nil && dir != "" {
		name = rel
	}
	return fmt.Sprintf("%s:%d", name, p.Line)
}

// longestValue returns the length of the longest string or byte slice of
// the entries.
func longestValue(entries [][]corpus.Value) int {
	n := 0
	for _, e := range entries {
		for _, v := range e {
			n = max(n, len(v.Bytes))
		}
	}
	return n
}

// countLonger returns how many entries hold a value longer than maxLen.
func countLonger(entries [][]corpus.Value, maxLen int) int {
	n := 0
	for _, e := range entries {
		if longestValue([][]corpus.Value{e}) > maxLen {
			n++
		}
	}
	return n
}

// cutWarning returns the warning for seeds f.Add seeds and entries corpus
// entries cut to maxLen bytes, longest being the longest value; "" if
// nothing was cut.
func cutWarning(seeds, entries, maxLen, longest int) string {
	if seeds+entries == 0 {
		return ""
	}
	var what []string
	if seeds > 0 {
		what = append(what, plural(seeds, "f.Add seed", "f.Add seeds"))
	}
	if entries > 0 {
		what = append(what, plural(entries, "corpus entry", "corpus entries"))
	}
	verb := "hold"
	if seeds+entries == 1 {
		verb = "holds"
	}
	msg := fmt.Sprintf("%s %s values longer than -maxlen %d, cut to that length", strings.Join(what, " and "), verb, maxLen)
	if longest > maxMaxLen {
		return msg + fmt.Sprintf(" (the longest has %d bytes; -maxlen is at most %d)", longest, maxMaxLen)
	}
	return msg + fmt.Sprintf("; -maxlen %d keeps them whole", longest)
}

// plural returns n and the singular or plural noun.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// seedValues turns the constants of an f.Add call into corpus values, or
// says why they do not fit the fuzz function's parameters.
func seedValues(sd instrument.Seed, t *Entry) ([]corpus.Value, error) {
	if sd.Problem != "" {
		return nil, errors.New(sd.Problem)
	}
	if len(sd.Values) != len(t.rt) {
		return nil, fmt.Errorf("%d arguments for %d parameters of the fuzz function", len(sd.Values), len(t.rt))
	}
	var vs []corpus.Value
	for i, c := range sd.Values {
		p := t.rt[i]
		v := corpus.Value{Type: t.corpusType(i)}
		if c == nil {
			return nil, fmt.Errorf("argument %d cannot be read", i+1)
		}
		mismatch := fmt.Errorf("argument %d is %s, parameter %s is %s", i+1, c, p.Name, v.Type)
		switch p.Kind {
		case rt.ParamBool:
			if c.Kind() != constant.Bool {
				return nil, mismatch
			}
			v.Bool = constant.BoolVal(c)
		case rt.ParamString, rt.ParamBytes:
			if c.Kind() != constant.String {
				return nil, mismatch
			}
			v.Bytes = []byte(constant.StringVal(c))
		case rt.ParamFloat:
			if c.Kind() != constant.Int && c.Kind() != constant.Float {
				return nil, mismatch
			}
			f, _ := constant.Float64Val(constant.ToFloat(c))
			if p.Width == 32 {
				v.Float = uint64(math.Float32bits(float32(f)))
			} else {
				v.Float = math.Float64bits(f)
			}
		case rt.ParamInt:
			if i64, exact := constant.Int64Val(constant.ToInt(c)); exact {
				v.Int = i64
				if !p.Signed {
					v.Int, v.Uint = 0, uint64(i64)
				}
			} else if u64, exact := constant.Uint64Val(constant.ToInt(c)); exact {
				v.Uint = u64
			} else {
				return nil, mismatch
			}
		}
		vs = append(vs, v)
	}
	return vs, nil
}

// corpusType returns the type of the fuzz function's parameter i as the
// corpus format names it: as Go writes it, but []byte for any byte slice.
func (t *Entry) corpusType(i int) string {
	if t.rt[i].Kind == rt.ParamBytes {
		return "[]byte"
	}
	return types.TypeString(t.Params[i].Type, nil)
}

// entryEnv turns a corpus entry into an input; values longer than maxLen
// are cut. It serves -replay and the seeds of gocolic fuzz.
func entryEnv(e []corpus.Value, t *Entry, maxLen int) (sym.Env, error) {
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
func entryOf(env sym.Env, t *Entry) []corpus.Value {
	var vs []corpus.Value
	for i, a := range rt.DecodeInput(t.rt, t.maxLen, env) {
		v := leafValue(t.rt[i], a)
		v.Type = t.corpusType(i)
		vs = append(vs, v)
	}
	return vs
}

// leafValue returns the value a of the runtime input p as a corpus value,
// without its type.
func leafValue(p rt.Param, a rt.Arg) corpus.Value {
	var v corpus.Value
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
	return v
}

// corpusFile returns the corpus file of an input and its name, which is
// the one go test gives it: the first 16 hex digits of the SHA-256 of the
// content.
func corpusFile(env sym.Env, t *Entry) ([]byte, string) {
	data := corpus.Format(entryOf(env, t))
	return data, fmt.Sprintf("%x", sha256.Sum256(data))[:16]
}

// writeCorpus writes the kept inputs and the failing ones into dir, named
// as go test names corpus files (the first 16 hex digits of the SHA-256
// of the content), and returns how many files it added.
func writeCorpus(dir string, t *Entry, rep interface {
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
