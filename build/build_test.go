package build

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gocolic/gocolic/rt"
)

// TestOverlayLayout checks where a worker build lays the runtime and the
// worker's main package: rt and sym under $GOROOT/src/gocolicrt, with
// sym's import rewritten, their tests and gocolic's own files left out;
// the main package in the user's module.
func TestOverlayLayout(t *testing.T) {
	var laid []string
	put := func(p string, b []byte) error {
		laid = append(laid, p)
		if filepath.Base(p) == "wire.go" && !strings.Contains(string(b), `"gocolicrt/rt/sym"`) {
			t.Errorf("rt/wire.go imports sym not as gocolicrt/rt/sym")
		}
		return nil
	}
	goroot := filepath.FromSlash("/go")
	if err := layRuntime(RuntimeDir(goroot), put); err != nil {
		t.Fatal(err)
	}
	rtDir, symDir := filepath.Join(goroot, "src", "gocolicrt", "rt"), filepath.Join(goroot, "src", "gocolicrt", "rt", "sym")
	var nRT, nSym int
	for _, p := range laid {
		switch filepath.Dir(p) {
		case rtDir:
			nRT++
		case symDir:
			nSym++
		default:
			t.Errorf("%s laid outside %s and %s", p, rtDir, symDir)
		}
		if b := filepath.Base(p); strings.HasSuffix(b, "_test.go") || b == "embed.go" || rt.OwnBuildOnly[b] {
			t.Errorf("%s laid; tests, embed.go and gocolic's own files stay out", p)
		}
	}
	if nRT < 10 || nSym < 5 {
		t.Errorf("%d files of rt and %d of sym laid, want all of them", nRT, nSym)
	}
}

// module writes a module example.com/w with the given files and returns
// its directory.
func module(t *testing.T, files map[string]string) string {
	t.Helper()
	return moduleAt(t, "1.24", files)
}

// moduleAt is module with the given go line.
func moduleAt(t *testing.T, goVersion string, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files["go.mod"] = "module example.com/w\n\ngo " + goVersion + "\n"
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// entryFile registers a target whose one int parameter is returned
// doubled; it stands in for instrument's generated entry file.
const entryFile = `package p

import rt "gocolicrt/rt"

func init() {
	rt.Main(rt.Entry{
		Params: []rt.Param{{Name: "x", Kind: rt.ParamInt, Width: 64, Signed: true}},
		Run: func(in *rt.Input) []any {
			return []any{Double(rt.InputInt[int](in, 0).C)}
		},
	})
}
`

// serveOne runs bin as a worker for one request and returns the response.
func serveOne(t *testing.T, bin string, q *rt.Request) *rt.Response {
	t.Helper()
	reqR, reqW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), rt.WorkerEnv+"=1")
	cmd.ExtraFiles = []*os.File{reqR, respW}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	reqR.Close()
	respW.Close()
	defer respR.Close()
	if err := rt.WriteMsg(reqW, rt.AppendRequest(nil, q)); err != nil {
		t.Fatal(err)
	}
	reqW.Close() // the worker exits after this request
	respR.SetReadDeadline(time.Now().Add(20 * time.Second))
	msg, err := rt.ReadMsg(bufio.NewReader(respR), nil)
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("reading the response: %v\n%s", err, stderr.String())
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("worker exit: %v\n%s", err, stderr.String())
	}
	resp, err := rt.ParseResponse(msg)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func TestWorkerLibraryPackage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	dir := module(t, map[string]string{
		"p/p.go": "package p\n\nfunc Double(x int) int { return x * 3 }\n",
	})
	work := t.TempDir()
	bin, err := Worker(Spec{
		ModuleDir: dir, ModulePath: "example.com/w", PkgPath: "example.com/w/p", PkgName: "p",
		// The "rewritten" file fixes the bug of the file on disk.
		Files:   map[string][]byte{filepath.Join(dir, "p", "p.go"): []byte("package p\n\nfunc Double(x int) int { return x * 2 }\n")},
		Added:   map[string][]byte{filepath.Join(dir, "p", "gocolic_entry.go"): []byte(entryFile)},
		WorkDir: work,
	})
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(bin) != work {
		t.Errorf("binary %s outside the work directory %s", bin, work)
	}
	// Without the environment variable the binary is an ordinary,
	// empty program.
	if out, err := exec.Command(bin).CombinedOutput(); err != nil || len(out) != 0 {
		t.Errorf("plain run: %v, output %q", err, out)
	}
	resp := serveOne(t, bin, &rt.Request{Env: map[uint64]uint64{0: 21}, MaxLen: 4})
	if resp.Status != rt.StatusOK || len(resp.Results) != 1 || resp.Results[0].Literal != "42" {
		t.Errorf("response %+v, want 42 from the overlay's Double", resp)
	}
	var ov struct{ Replace map[string]string }
	js, err := os.ReadFile(filepath.Join(work, "overlay.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(js, &ov); err != nil {
		t.Fatal(err)
	}
	if _, ok := ov.Replace[filepath.Join(dir, "internal", "gocolicworker", "main.go")]; !ok {
		t.Errorf("no worker main package in the module's %s: %v", WorkerDir, ov.Replace)
	}
	// The user's tree is untouched: the runtime and the entry file exist
	// only in the overlay.
	for _, p := range []string{"internal", filepath.Join("p", "gocolic_entry.go")} {
		if _, err := os.Stat(filepath.Join(dir, p)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s written into the module: %v", p, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "p", "p.go")); !strings.Contains(string(b), "x * 3") {
		t.Errorf("the user's p.go changed: %s", b)
	}
}

// TestWorkerOldModule builds a worker in modules whose go line is older
// than the generics of the rewrite and the runtime's own language version:
// the module's rewritten files get file versions, and the package's own
// files keep their meaning; files of standard packages keep the
// toolchain's version.
func TestWorkerOldModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	goroot, err := goEnv(".", "GOROOT")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"1.13", "1.17", "1.21"} {
		t.Run(v, func(t *testing.T) {
			dir := moduleAt(t, v, map[string]string{
				"p/p.go": "package p\n\nfunc Double(x int) int { return x * 3 }\n",
			})
			// The rewritten file uses generics, as the rewrite does,
			// and a standard package laid by the overlay (as the
			// copies of floor packages are) that ranges over a
			// function, which needs the toolchain's version.
			rewritten := "package p\n\nimport \"gocolictest/seq\"\n\nfunc twice[T ~int](x T) T { return x * 2 }\n\nfunc Double(x int) int { return twice(x) + seq.Sum(3) }\n"
			std := "package seq\n\nfunc upTo(n int) func(func(int) bool) {\n\treturn func(yield func(int) bool) {\n\t\tfor i := 0; i < n && yield(i); i++ {\n\t\t}\n\t}\n}\n\n// Sum is 0 by ranging over a function.\nfunc Sum(n int) int {\n\ts := 0\n\tfor i := range upTo(n) {\n\t\ts += i\n\t}\n\treturn s - n\n}\n"
			bin, err := Worker(Spec{
				ModuleDir: dir, ModulePath: "example.com/w", PkgPath: "example.com/w/p", PkgName: "p",
				Files: map[string][]byte{filepath.Join(dir, "p", "p.go"): []byte(rewritten)},
				Added: map[string][]byte{
					filepath.Join(dir, "p", "gocolic_entry.go"):                  []byte(entryFile),
					filepath.Join(goroot, "src", "gocolictest", "seq", "seq.go"): []byte(std),
				},
				WorkDir: t.TempDir(), GoVersion: v,
			})
			if err != nil {
				t.Fatal(err)
			}
			resp := serveOne(t, bin, &rt.Request{Env: map[uint64]uint64{0: 21}, MaxLen: 4})
			if resp.Status != rt.StatusOK || len(resp.Results) != 1 || resp.Results[0].Literal != "42" {
				t.Errorf("response %+v, want 42", resp)
			}
		})
	}
}

func TestWorkerMainPackage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	dir := module(t, map[string]string{
		"cmd/m/main.go": "package main\n\nfunc Double(x int) int { return 2 * x }\n\nfunc main() { println(\"user main\") }\n",
	})
	drv := strings.Replace(entryFile, "package p", "package main", 1)
	bin, err := Worker(Spec{
		ModuleDir: dir, ModulePath: "example.com/w", PkgPath: "example.com/w/cmd/m", PkgName: "main",
		Added:   map[string][]byte{filepath.Join(dir, "cmd", "m", "gocolic_entry.go"): []byte(drv)},
		WorkDir: t.TempDir(),
	})
	if err != nil {
		t.Fatal(err)
	}
	// The user's main is the binary's main: no worker main is generated.
	if out, err := exec.Command(bin).CombinedOutput(); err != nil || !strings.Contains(string(out), "user main") {
		t.Errorf("plain run: %v, output %q; want the user's main", err, out)
	}
	resp := serveOne(t, bin, &rt.Request{Env: map[uint64]uint64{0: ^uint64(0)}})
	if len(resp.Results) != 1 || resp.Results[0].Literal != "-2" {
		t.Errorf("response %+v, want -2", resp)
	}
}

func TestWorkerCompileError(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the compiler")
	}
	dir := module(t, map[string]string{"p/p.go": "package p\n\nfunc Double(x int) int { return x * 2 }\n"})
	_, err := Worker(Spec{
		ModuleDir: dir, ModulePath: "example.com/w", PkgPath: "example.com/w/p", PkgName: "p",
		Files: map[string][]byte{
			filepath.Join(dir, "p", "p.go"): []byte("package p\n\n//line p.go:7\nfunc Double(x int) int { return y }\n"),
		},
		Added:   map[string][]byte{filepath.Join(dir, "p", "gocolic_entry.go"): []byte(entryFile)},
		WorkDir: t.TempDir(),
	})
	var be *Error
	if !errors.As(err, &be) {
		t.Fatalf("error %v (%T), want a *build.Error", err, err)
	}
	// The compiler's message, with the position of the //line directive.
	for _, want := range []string{"undefined: y", "p.go:7"} {
		if !strings.Contains(be.Output, want) || !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}

// TestStampVersion checks which files of a build get the file version:
// those of modules older than go1.18, never those under $GOROOT/src.
func TestStampVersion(t *testing.T) {
	root := filepath.FromSlash("/r")
	goroot := filepath.Join(root, "go")
	main := filepath.Join(root, "m")
	dep := filepath.Join(root, "mod", "dep@v1")
	s := func(v, depV string) Spec {
		return Spec{ModuleDir: main, GoVersion: v, Deps: []Dep{{Path: "example.com/dep", Dir: dep, GoVersion: depV}}}
	}
	tests := []struct {
		name   string
		spec   Spec
		target string
		want   bool
	}{
		{"old main module", s("1.11", "1.21"), filepath.Join(main, "p", "p.go"), true},
		{"new main module", s("1.20", "1.11"), filepath.Join(main, "p", "p.go"), false},
		{"main module without go line", s("", "1.11"), filepath.Join(main, "p", "p.go"), false},
		{"old dependency", s("1.21", "1.11"), filepath.Join(dep, "d.go"), true},
		{"dependency without go line", s("1.21", ""), filepath.Join(dep, "d.go"), true},
		{"new dependency", s("1.11", "1.21"), filepath.Join(dep, "d.go"), false},
		{"copy of a floor package", s("1.11", "1.11"), filepath.Join(goroot, "src", "gocolicstd", "slices", "iter.go"), false},
		{"standard package in place", s("1.11", "1.11"), filepath.Join(goroot, "src", "strings", "strings.go"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := stampVersion(tt.spec, goroot, tt.target); got != tt.want {
				t.Errorf("stampVersion(%s) = %v, want %v", tt.target, got, tt.want)
			}
		})
	}
}

// TestErrorPackages checks which packages a failed build names: the go
// command's "# path" headers, once each, without a test variant.
func TestErrorPackages(t *testing.T) {
	tests := []struct {
		name, out string
		want      []string
	}{
		{"none", "go: no Go files in /m", nil},
		{"one", "# database/sql\n/go/src/database/sql/sql.go:38: duplicate //go:linkname for drivers", []string{"database/sql"}},
		{
			"two, a test variant",
			"# gocolicstd/slices\n/go/src/slices/iter.go:51: cannot range\n# example.com/p [example.com/p.test]\np.go:3: undefined: x\n# gocolicstd/slices\nagain",
			[]string{"gocolicstd/slices", "example.com/p"},
		},
		{"a line that only mentions #", "p.go:3: want # here\n #  indented", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := (&Error{Output: tt.out}).Packages(); !slices.Equal(got, tt.want) {
				t.Errorf("Packages() = %q, want %q", got, tt.want)
			}
		})
	}
}
