package instrument_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocolic/gocolic/build"
	"github.com/gocolic/gocolic/instrument"
	"github.com/gocolic/gocolic/load"
	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sites"
	"github.com/gocolic/gocolic/sym"
)

// The differential test of semantic preservation. The module in
// testdata/semantics has a package p of small functions over every
// construct the rewrite handles, a dispatcher p.Run (the entry function)
// and a command orig that runs p.Run on rows of inputs. It is built twice:
// as it is, and with the instrumented p laid over it by build.Worker. The
// instrumented binary is run in two ways:
//
//   - as a plain program, where p.Run is called with concrete values, so
//     every shadow is nil and the runtime takes its fast paths;
//   - as a gocolic worker, where p.Run's parameters are the symbolic
//     inputs, so the functions run on symbolic values and record branches.
//
// Each output (results or the recovered panic, its message and the line of
// p.go it came from) must be the original's, and in the worker every
// recorded branch condition must hold or fail as the branch went.

// semRow is one row of inputs: p.Run derives each function's arguments
// from it.
type semRow struct {
	A, B  int64
	S, Bs string
}

// semRows includes the edge values: zero, -1, the extreme integers,
// empty and non-ASCII strings, invalid UTF-8.
var semRows = []semRow{
	{0, 0, "", ""},
	{1, -1, "a", "b"},
	{-1, 1, "abc", "abd"},
	{5, 3, "héllo", "abc"},
	{-7, 2, "日本語", "\xff\xfe!"},
	{math.MinInt64, -1, "x y!", "hello world"},
	{math.MaxInt64, 1, "ab", "ba"},
	{3, 100, "abc", " !a"},
	{200, 63, "héllo", "héllo"},
	{-129, 8, "\x80\xff", "a b!"},
	{255, -3, "HÉLLO", "héllo"},
	{64, 65, "go go go", ""},
	{math.MinInt32, math.MaxInt32, "x", "xx"},
	{2, 2, "a", "a"},
	{-2, 31, "b", "Ab"},
	{100, 7, "xxxx", "1234567890123456"},
	{9, 4, "a😀\xed\xa0\x80z", "\xe6\x97x\xf4\x90\x80\x80!"},
	{-3, 5, "\xf0\x9f\x98", "é\xc2日b"},
	{19, 13, "hello", "lo!"},
}

// semMaxLen is the worker's maximum input length; every string of semRows
// fits.
const semMaxLen = 16

// semReport is what the orig command prints.
type semReport struct {
	Names []string
	Out   [][]string // by function, then by row
}

func TestSemanticsPreserved(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the original and the instrumented program")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	for _, r := range semRows {
		if len(r.S) > semMaxLen || len(r.Bs) > semMaxLen {
			t.Fatalf("row %+v is longer than semMaxLen", r)
		}
	}
	// At go1.24 range loops have per-iteration variables, at go1.21
	// per-loop ones (a file's //go:build line may set its own version);
	// the rewritten loops must keep whichever the file has.
	for _, goLine := range []string{"1.24", "1.21"} {
		t.Run("go"+goLine, func(t *testing.T) { testSemantics(t, goLine) })
	}
}

// testSemantics runs the differential test on the module at language
// version goLine.
func testSemantics(t *testing.T, goLine string) {
	dir := t.TempDir()
	if err := copyTree("testdata/semantics", dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/semantics\n\ngo "+goLine+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	// Build both programs at once.
	var (
		wg                sync.WaitGroup
		origBin, instrBin string
		origErr, instrErr error
		res               *instrument.Result
	)
	wg.Add(2)
	go func() {
		defer wg.Done()
		origBin = filepath.Join(t.TempDir(), "orig")
		cmd := exec.Command("go", "build", "-o", origBin, "./orig")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			origErr = fmt.Errorf("building the original: %v\n%s", err, out)
		}
	}()
	go func() {
		defer wg.Done()
		instrBin, res, instrErr = buildInstrumented(dir, t.TempDir())
	}()
	wg.Wait()
	if origErr != nil {
		t.Fatal(origErr)
	}
	if instrErr != nil {
		t.Fatal(instrErr)
	}

	want, err := runOrig(origBin)
	if err != nil {
		t.Fatalf("original: %v", err)
	}
	if len(want.Names) == 0 || len(want.Out) != len(want.Names) {
		t.Fatalf("original printed %d names and %d outputs", len(want.Names), len(want.Out))
	}

	t.Run("plain", func(t *testing.T) {
		got, err := runOrig(instrBin)
		if err != nil {
			t.Fatalf("instrumented: %v", err)
		}
		compareOutputs(t, want, func(fn, row int) (string, error) {
			if fn >= len(got.Out) || row >= len(got.Out[fn]) {
				return "", errors.New("no output")
			}
			return got.Out[fn][row], nil
		})
	})

	t.Run("worker", func(t *testing.T) {
		w, err := startWorker(instrBin)
		if err != nil {
			t.Fatal(err)
		}
		defer w.close()
		offs, err := semLayout(res.RTParams)
		if err != nil {
			t.Fatal(err)
		}
		var branches, mismatches int
		compareOutputs(t, want, func(fn, row int) (string, error) {
			env := semEnv(offs, fn, semRows[row])
			resp, err := w.run(&rt.Request{Env: env, MaxLen: semMaxLen})
			if err != nil {
				return "", err
			}
			if resp.Status != rt.StatusOK {
				return "", fmt.Errorf("p.Run panicked: %s", resp.Panic)
			}
			if len(resp.Results) != 1 || !resp.Results[0].Pinned {
				return "", fmt.Errorf("results %+v, want one string", resp.Results)
			}
			out, err := strconv.Unquote(resp.Results[0].Literal)
			if err != nil {
				return "", fmt.Errorf("result %s: %v", resp.Results[0].Literal, err)
			}
			// The recorded path: each condition, evaluated on the
			// inputs, must agree with the outcome the run took.
			if len(resp.Path) == 0 {
				return "", errors.New("no branch recorded: the inputs were not symbolic")
			}
			bad, err := checkPath(resp, env, res.Sites)
			if err != nil {
				return "", err
			}
			branches += len(resp.Path)
			if bad != "" {
				mismatches++
				if mismatches <= 20 {
					t.Errorf("%s, row %d %s: %s", want.Names[fn], row, rowString(semRows[row]), bad)
				}
			}
			return out, nil
		})
		if mismatches > 20 {
			t.Errorf("... %d runs in all recorded a branch condition that disagrees with its outcome", mismatches)
		}
		t.Logf("checked %d recorded branches", branches)
	})
}

// buildInstrumented instruments package p of the module in dir, with p.Run
// as the entry, and builds the orig command over it with build.Worker.
func buildInstrumented(dir, work string) (bin string, res *instrument.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("instrumenting panicked: %v", r)
		}
	}()
	pkg, err := load.Load(dir, "./p")
	if err != nil {
		return "", nil, err
	}
	res, err = instrument.Package(pkg.Package, instrument.Config{
		RuntimePath: build.RuntimePath,
		Entry:       "Run",
	})
	if err != nil {
		return "", nil, fmt.Errorf("instrumenting: %w", err)
	}
	// A main package as the target: build.Worker then builds it rather
	// than a generated worker main, and the entry file's init still turns it
	// into a worker under GOCOLIC_WORKER.
	bin, err = build.Worker(build.Spec{
		ModuleDir: pkg.ModuleDir, ModulePath: pkg.ModulePath,
		PkgPath: pkg.ModulePath + "/orig", PkgName: "main",
		Files: res.Files, Added: res.Added(),
		WorkDir: work,
	})
	if err != nil {
		return "", nil, err
	}
	return bin, res, nil
}

// runOrig runs the orig command (original or instrumented) on semRows, as
// a plain program.
func runOrig(bin string) (*semReport, error) {
	// As []byte, which JSON carries as base64: a string with invalid
	// UTF-8 would arrive with U+FFFD in place of its bytes.
	type jsonRow struct {
		A, B  int64
		S, Bs []byte
	}
	var rows []jsonRow
	for _, r := range semRows {
		rows = append(rows, jsonRow{r.A, r.B, []byte(r.S), []byte(r.Bs)})
	}
	in, err := json.Marshal(rows)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, rt.WorkerEnv+"=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%v\n%s", err, stderr.Bytes())
	}
	var rep semReport
	if err := json.Unmarshal(out, &rep); err != nil {
		return nil, fmt.Errorf("output: %v", err)
	}
	return &rep, nil
}

// compareOutputs checks get(fn, row) against the original's output of
// every function on every row; it reports each function once, with up to
// three differing rows.
// unspecifiedOrder names the functions whose results depend on an order
// of evaluation the Go spec leaves unspecified: a variable read and a call
// that writes the variable, in one expression or assignment. gc reads the
// variable after the call; the instrumented code reads it where it
// stands. This is a known deviation (README, known limitations); the
// functions stay in the package so that the rest of their rewrite is
// still compiled and run.
var unspecifiedOrder = map[string]bool{
	"OrderGlobal": true, "OrderClosure": true, "OrderReturn": true, "OrderAssign": true,
}

func compareOutputs(t *testing.T, want *semReport, get func(fn, row int) (string, error)) {
	t.Helper()
	for fn, name := range want.Names {
		if unspecifiedOrder[name] {
			continue
		}
		var diffs []string
		for row, w := range want.Out[fn] {
			got, err := get(fn, row)
			switch {
			case err != nil:
				diffs = append(diffs, fmt.Sprintf("row %d %s: %v", row, rowString(semRows[row]), err))
			case got != w:
				diffs = append(diffs, fmt.Sprintf("row %d %s:\n\t\tinstrumented: %s\n\t\toriginal:     %s", row, rowString(semRows[row]), got, w))
			}
		}
		if len(diffs) > 0 {
			n := len(diffs)
			if n > 3 {
				diffs = append(diffs[:3], fmt.Sprintf("and %d more rows", n-3))
			}
			t.Errorf("%s differs on %d of %d rows:\n\t%s", name, n, len(want.Out[fn]), strings.Join(diffs, "\n\t"))
		}
	}
}

func rowString(r semRow) string {
	return fmt.Sprintf("(a=%d b=%d s=%q bs=%q)", r.A, r.B, r.S, r.Bs)
}

// semLayout checks the entry's parameters, p.Run(fn int, a, b int64,
// s string, bs []byte), and returns their input variable numbers.
func semLayout(ps []rt.Param) ([]int, error) {
	want := []rt.Param{
		{Name: "fn", Kind: rt.ParamInt, Width: 64, Signed: true},
		{Name: "a", Kind: rt.ParamInt, Width: 64, Signed: true},
		{Name: "b", Kind: rt.ParamInt, Width: 64, Signed: true},
		{Name: "s", Kind: rt.ParamString},
		{Name: "bs", Kind: rt.ParamBytes},
	}
	if len(ps) != len(want) {
		return nil, fmt.Errorf("entry parameters %+v, want %+v", ps, want)
	}
	for i := range want {
		if !reflect.DeepEqual(ps[i], want[i]) {
			return nil, fmt.Errorf("entry parameter %d is %+v, want %+v", i, ps[i], want[i])
		}
	}
	return rt.Layout(ps, semMaxLen), nil
}

// semEnv is the input assignment for function fn on row r.
func semEnv(offs []int, fn int, r semRow) sym.Env {
	env := sym.Env{
		uint64(offs[0]): uint64(fn),
		uint64(offs[1]): uint64(r.A),
		uint64(offs[2]): uint64(r.B),
	}
	for i, s := range []string{r.S, r.Bs} {
		base := uint64(offs[3+i])
		env[base] = uint64(len(s))
		for k := 0; k < len(s); k++ {
			env[base+1+uint64(k)] = uint64(s[k])
		}
	}
	return env
}

// checkPath evaluates each recorded branch condition on env and describes
// the first that disagrees with the outcome recorded with it.
func checkPath(resp *rt.Response, env sym.Env, sites []sites.Site) (string, error) {
	dec := sym.NewDecoder(sym.NewBuilder())
	if err := dec.Decode(resp.Exprs); err != nil {
		return "", fmt.Errorf("decoding the path: %v", err)
	}
	for i, e := range resp.Path {
		c, err := dec.Node(e.Cond)
		if err != nil {
			return "", fmt.Errorf("branch %d: %v", i, err)
		}
		if sym.Holds(c, env) != e.Taken {
			where := fmt.Sprintf("site %d", e.Site)
			if int(e.Site) < len(sites) {
				s := sites[e.Site]
				where = fmt.Sprintf("%s site %q at %s:%d", s.Kind, s.Text, filepath.Base(s.Pos.Filename), s.Pos.Line)
			}
			return fmt.Sprintf("branch %d of %d, %s, went %v but its condition %v evaluates to %v",
				i, len(resp.Path), where, e.Taken, c, !e.Taken), nil
		}
	}
	return "", nil
}

// semWorker is a running worker process and its pipes.
type semWorker struct {
	cmd    *exec.Cmd
	req    io.WriteCloser
	resp   io.ReadCloser
	stderr bytes.Buffer
	cancel context.CancelFunc
	buf    []byte
	dead   error // why the worker stopped serving
}

func startWorker(bin string) (*semWorker, error) {
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	w := &semWorker{req: reqW, resp: respR, cancel: cancel}
	w.cmd = exec.CommandContext(ctx, bin)
	w.cmd.Env = append(os.Environ(), rt.WorkerEnv+"=1")
	w.cmd.ExtraFiles = []*os.File{reqR, respW} // fds 3 and 4
	w.cmd.Stderr = &w.stderr
	if err := w.cmd.Start(); err != nil {
		cancel()
		return nil, err
	}
	reqR.Close()
	respW.Close()
	return w, nil
}

// run executes one request; a dead worker is an error with its stderr.
func (w *semWorker) run(q *rt.Request) (*rt.Response, error) {
	if w.dead != nil {
		return nil, errors.New("worker died earlier")
	}
	if err := rt.WriteMsg(w.req, rt.AppendRequest(nil, q)); err != nil {
		return nil, w.died(err)
	}
	msg, err := rt.ReadMsg(w.resp, w.buf)
	if err != nil {
		return nil, w.died(err)
	}
	w.buf = msg
	return rt.ParseResponse(msg)
}

func (w *semWorker) died(err error) error {
	w.close()
	tail := w.stderr.String()
	if len(tail) > 2000 {
		tail = tail[len(tail)-2000:]
	}
	w.dead = fmt.Errorf("worker failed: %v\n%s", err, tail)
	return w.dead
}

// close ends the worker: at EOF on its requests it exits.
func (w *semWorker) close() {
	if w.cmd == nil {
		return
	}
	w.req.Close()
	w.cmd.Wait()
	w.resp.Close()
	w.cancel()
	w.cmd = nil
}

// copyTree copies the files under src into dst.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}
