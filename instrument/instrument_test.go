package instrument

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sites"
	"golang.org/x/tools/go/packages"
)

// The unit tests type-check small packages in process, the way load.Load
// would through the go command, and re-type-check what the rewrite prints
// against the real runtime package (rt, imported under its own path).

const testPkgPath = "example.com/u"

// srcImporter imports the standard library and the runtime from source.
// It is shared, and the type checker is not safe for concurrent use of
// one importer, hence the lock.
var srcImporter struct {
	sync.Mutex
	fset *token.FileSet
	imp  types.Importer
}

func lockImporter() (*token.FileSet, types.Importer, func()) {
	srcImporter.Lock()
	if srcImporter.imp == nil {
		srcImporter.fset = token.NewFileSet()
		srcImporter.imp = moduleImporter{importer.ForCompiler(srcImporter.fset, "source", nil).(types.ImporterFrom)}
	}
	return srcImporter.fset, srcImporter.imp, srcImporter.Unlock
}

// moduleImporter resolves every import from the test's directory, in
// gocolic's module, wherever the importing file is: a rewritten standard
// package, whose files lie under GOROOT, imports the runtime, which only
// the module has.
type moduleImporter struct{ types.ImporterFrom }

func (m moduleImporter) ImportFrom(path, _ string, mode types.ImportMode) (*types.Package, error) {
	return m.ImporterFrom.ImportFrom(path, ".", mode)
}

func newInfo() *types.Info {
	return &types.Info{
		Types:        make(map[ast.Expr]types.TypeAndValue),
		Defs:         make(map[*ast.Ident]types.Object),
		Uses:         make(map[*ast.Ident]types.Object),
		Implicits:    make(map[ast.Node]types.Object),
		Selections:   make(map[*ast.SelectorExpr]*types.Selection),
		Scopes:       make(map[ast.Node]*types.Scope),
		Instances:    make(map[*ast.Ident]types.Instance),
		FileVersions: make(map[*ast.File]string),
	}
}

// loadSource writes files (name → source) into a fresh directory and
// type-checks them as package testPkgPath, filling what load.Load fills.
func loadSource(t *testing.T, files map[string]string) *packages.Package {
	t.Helper()
	return loadSourceVersion(t, files, "go1.24")
}

// loadSourceVersion is loadSource at the language version goVersion.
func loadSourceVersion(t *testing.T, files map[string]string, goVersion string) *packages.Package {
	t.Helper()
	dir := t.TempDir()
	fset, imp, unlock := lockImporter()
	defer unlock()
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	pkg := &packages.Package{ID: testPkgPath, PkgPath: testPkgPath, Fset: fset}
	for _, name := range names {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(files[name]), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, path, files[name], parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("test source does not parse: %v", err)
		}
		pkg.Syntax = append(pkg.Syntax, f)
		pkg.GoFiles = append(pkg.GoFiles, path)
		pkg.CompiledGoFiles = append(pkg.CompiledGoFiles, path)
	}
	pkg.TypesInfo = newInfo()
	conf := types.Config{Importer: imp, GoVersion: goVersion}
	tpkg, err := conf.Check(testPkgPath, fset, pkg.Syntax, pkg.TypesInfo)
	if err != nil {
		t.Fatalf("test source does not type-check: %v", err)
	}
	pkg.Types = tpkg
	pkg.Name = tpkg.Name()
	return pkg
}

// config is the rewrite configuration of the unit tests: the runtime under
// its own import path, so that the rewritten code type-checks against it.
func config(entry string) Config {
	return Config{RuntimePath: rt.ImportPath, Entry: entry}
}

// rewrite instruments the package made of one file, u.go.
func rewrite(t *testing.T, src, entry string) (*packages.Package, *Result) {
	t.Helper()
	pkg := loadSource(t, map[string]string{"u.go": src})
	res, err := Package(pkg, config(entry))
	if err != nil {
		t.Fatalf("Package: %v", err)
	}
	return pkg, res
}

// rewritten is the output of a rewrite, parsed and type-checked.
type rewritten struct {
	src   map[string][]byte // by the name the rewritten files are parsed under
	fset  *token.FileSet
	files map[string]*ast.File // by original path; the entry file under EntryPath
	pkg   *types.Package
	info  *types.Info
	errs  []error
}

// recheck parses and type-checks the rewritten files and the entry file as
// one package. Parse errors are fatal; type errors are returned in errs.
// rewrittenSource instruments src for entry and returns the rewritten
// package's files other than the entry file, which must type-check, and the
// result of the instrumentation.
func rewrittenSource(t *testing.T, src, entry string) (string, *Result) {
	t.Helper()
	_, res := rewrite(t, src, entry)
	rw := recheck(t, res)
	if len(rw.errs) > 0 {
		t.Fatalf("rewritten package does not type-check: %v", rw.errs)
	}
	var out string
	for name, b := range rw.src {
		if !strings.Contains(name, EntryFile) {
			out += string(b)
		}
	}
	return out, res
}

// matchRewrite rewrites src with entry, checks that the result type-checks,
// and that its first file matches every regular expression of want and
// none of not.
func matchRewrite(t *testing.T, src, entry string, want, not []string) {
	t.Helper()
	pkg, res := rewrite(t, src, entry)
	rw := recheck(t, res)
	for _, err := range rw.errs {
		t.Errorf("rewritten package: %v", err)
	}
	out := string(res.Files[pkg.CompiledGoFiles[0]])
	for _, w := range want {
		if !regexp.MustCompile(w).MatchString(out) {
			t.Errorf("rewritten file does not match %s:\n%s", w, out)
		}
	}
	for _, w := range not {
		if regexp.MustCompile(w).MatchString(out) {
			t.Errorf("rewritten file matches %s:\n%s", w, out)
		}
	}
}

func recheck(t *testing.T, res *Result) *rewritten {
	t.Helper()
	return recheckVersion(t, res, "go1.24")
}

// recheckVersion is recheck at the language version goVersion.
func recheckVersion(t *testing.T, res *Result, goVersion string) *rewritten {
	t.Helper()
	fset, imp, unlock := lockImporter()
	defer unlock()
	out := &rewritten{fset: fset, src: make(map[string][]byte), files: make(map[string]*ast.File), info: newInfo()}
	paths := make([]string, 0, len(res.Files))
	for p := range res.Files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var files []*ast.File
	parse := func(path string, src []byte) {
		// A distinct name, so that //line directives, which map back to the
		// original path, are the only way to reach it.
		out.src[path+".rewritten"] = src
		f, err := parser.ParseFile(fset, path+".rewritten", src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("rewritten %s does not parse: %v\n%s", filepath.Base(path), err, src)
		}
		out.files[path] = f
		files = append(files, f)
	}
	for _, p := range paths {
		parse(p, res.Files[p])
	}
	parse(res.EntryPath, res.EntrySource)
	for p, src := range res.Extra {
		if strings.HasSuffix(p, ".go") {
			parse(p, src)
		}
	}
	conf := types.Config{Importer: imp, GoVersion: goVersion, Error: func(err error) { out.errs = append(out.errs, err) }}
	out.pkg, _ = conf.Check(testPkgPath, fset, files, out.info)
	return out
}

// describe prints a type error of the rewritten code with the rewritten
// line it is on (its position, through //line, is the original's).
func (rw *rewritten) describe(err error) string {
	te, ok := err.(types.Error)
	if !ok {
		return err.Error()
	}
	pos := rw.fset.PositionFor(te.Pos, false)
	lines := strings.Split(string(rw.src[pos.Filename]), "\n")
	if pos.Line < 1 || pos.Line > len(lines) {
		return err.Error()
	}
	return fmt.Sprintf("%s\n\tin: %s", filepath.Base(te.Fset.Position(te.Pos).String())+": "+te.Msg, strings.TrimSpace(lines[pos.Line-1]))
}

func errorContaining(t *testing.T, err error, wants ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one containing %q", wants)
	}
	for _, w := range wants {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not contain %q", err, w)
		}
	}
}

func TestEntryErrors(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		entry string
		wants []string // substrings of the error
	}{
		{
			name: "unknown function lists the others",
			src: `package u
type T int
func (T) Method() {}
func Alpha(x int) int { return x }
func beta() {}
func init() {}
var Gamma = 3
`,
			entry: "Gamma",
			wants: []string{"package " + testPkgPath + " has no function Gamma; functions: Alpha, beta"},
		},
		{
			name:  "unknown function in a package without functions",
			src:   "package u\n\nvar x int\n",
			entry: "F",
			wants: []string{"package " + testPkgPath + " has no function F, nor any other function"},
		},
		{
			name:  "a method is not an entry",
			src:   "package u\ntype T int\nfunc (T) M(x int) {}\nfunc F() {}\n",
			entry: "M",
			wants: []string{"has no function M; functions: F"},
		},
		{
			name:  "a function parameter",
			src:   "package u\nfunc F(n int, f func(int) int) {}\n",
			entry: "F",
			wants: []string{"parameter f of F has type func(int) int: functions are not supported as inputs"},
		},
		{
			name:  "a channel parameter",
			src:   "package u\nfunc F(c chan int) {}\n",
			entry: "F",
			wants: []string{"parameter c of F has type chan int: channels are not supported"},
		},
		{
			name:  "an interface no type of the package implements",
			src:   "package u\ntype Shape interface{ Area() int }\nfunc F(s Shape) {}\n",
			entry: "F",
			wants: []string{"parameter s of F has type Shape: no type declared in package u implements the interface"},
		},
		{
			name:  "unsupported unnamed parameter is numbered",
			src:   "package u\nfunc F(int, complex128) {}\n",
			entry: "F",
			wants: []string{"parameter #2 of F has type complex128: complex128 is not supported"},
		},
		{
			name:  "a type declared in a function",
			src:   "package u\nfunc F(p any) {}\n",
			entry: "F",
			wants: []string{"parameter p of F has type any: no type declared in package u implements the interface"},
		},
		{
			name:  "no such type",
			src:   "package u\nfunc F() {}\n",
			entry: "T.M",
			wants: []string{"has no type T"},
		},
		{
			name:  "no such method",
			src:   "package u\ntype T int\nfunc (T) M() {}\nfunc (*T) N() {}\n",
			entry: "T.X",
			wants: []string{"type T has no method X; methods: M, N"},
		},
		{
			name:  "a method with a function receiver type",
			src:   "package u\ntype H func()\nfunc (H) M() {}\n",
			entry: "H.M",
			wants: []string{"receiver of H.M has type H: functions are not supported"},
		},
		{
			name:  "an interface method",
			src:   "package u\ntype I interface{ M() }\n",
			entry: "I.M",
			wants: []string{"I.M is an interface method"},
		},
		{
			name:  "generic",
			src:   "package u\nfunc F[T any](x int, v T) {}\n",
			entry: "F",
			wants: []string{"function F is generic"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pkg := loadSource(t, map[string]string{"u.go": tt.src})
			res, err := Package(pkg, config(tt.entry))
			if res != nil {
				t.Errorf("got a result along with the error")
			}
			errorContaining(t, err, tt.wants...)
		})
	}
}

func TestEntryDescription(t *testing.T) {
	src := `package u

type Celsius int16
type Flag bool
type Name string
type Buf []byte

func F(a int8, b uint, c Celsius, f Flag, s string, n Name, bs []byte, buf Buf, r rune, u8 uint8) (int, error, float64, *int, Flag, []byte, []int) {
	return 0, nil, 0, nil, false, []byte{}, nil
}
`
	pkg, res := rewrite(t, src, "F")
	type param struct {
		name, typ string
		kind      rt.ParamKind
		width     uint8
		signed    bool
	}
	want := []param{
		{"a", "int8", rt.ParamInt, 8, true},
		{"b", "uint", rt.ParamInt, 64, false},
		{"c", "Celsius", rt.ParamInt, 16, true},
		{"f", "Flag", rt.ParamBool, 0, false},
		{"s", "string", rt.ParamString, 0, false},
		{"n", "Name", rt.ParamString, 0, false},
		{"bs", "[]byte", rt.ParamBytes, 0, false},
		{"buf", "Buf", rt.ParamBytes, 0, false},
		{"r", "rune", rt.ParamInt, 32, true},
		{"u8", "uint8", rt.ParamInt, 8, false},
	}
	if len(res.Params) != len(want) || len(res.RTParams) != len(want) {
		t.Fatalf("got %d params and %d runtime params, want %d", len(res.Params), len(res.RTParams), len(want))
	}
	for i, w := range want {
		p, rp := res.Params[i], res.RTParams[i]
		if typ := types.TypeString(p.Type, types.RelativeTo(pkg.Types)); p.Name != w.name || typ != w.typ {
			t.Errorf("param %d = %s %s, want %s %s", i, p.Name, typ, w.name, w.typ)
		}
		if p.Type == nil || !types.Identical(p.Type, pkg.Types.Scope().Lookup("F").Type().(*types.Signature).Params().At(i).Type()) {
			t.Errorf("param %d: type %v is not the declared one", i, p.Type)
		}
		gotRT := rt.Param{Name: rp.Name, Kind: rp.Kind, Width: rp.Width, Signed: rp.Signed}
		wantRT := rt.Param{Name: w.name, Kind: w.kind, Width: w.width, Signed: w.signed}
		if !reflect.DeepEqual(gotRT, wantRT) {
			t.Errorf("runtime param %d = %+v, want %+v", i, gotRT, wantRT)
		}
	}
	wantResults := []string{"int", "error", "float64", "*int", "Flag", "[]byte", "[]int"}
	var results []string
	for _, r := range res.Results {
		results = append(results, types.TypeString(r, types.RelativeTo(pkg.Types)))
	}
	if !slices.Equal(results, wantResults) {
		t.Errorf("Results = %q, want %q", results, wantResults)
	}
	wantPinnable := []bool{true, true, true, false, true, true, false}
	if !slices.Equal(res.Pinnable, wantPinnable) {
		t.Errorf("Pinnable = %v, want %v", res.Pinnable, wantPinnable)
	}
	wantErr := []bool{false, true, false, false, false, false, false}
	if !slices.Equal(res.ResultIsError, wantErr) {
		t.Errorf("ResultIsError = %v, want %v", res.ResultIsError, wantErr)
	}
	if want := filepath.Join(filepath.Dir(pkg.CompiledGoFiles[0]), EntryFile); res.EntryPath != want {
		t.Errorf("EntryPath = %s, want %s", res.EntryPath, want)
	}
	if len(res.Files) != 1 || res.Files[pkg.CompiledGoFiles[0]] == nil {
		t.Errorf("Files has keys %v, want the one source file", keys(res.Files))
	}
	rw := recheck(t, res)
	for _, err := range rw.errs {
		t.Errorf("rewritten package: %v", err)
	}
	// The entry file registers exactly the described parameters.
	entry := string(res.EntrySource)
	for _, w := range want {
		if !strings.Contains(entry, fmt.Sprintf("{Name: %q, Kind: _gcl.", w.name)) {
			t.Errorf("entry file does not register parameter %s:\n%s", w.name, entry)
		}
	}
	if !strings.Contains(entry, fmt.Sprintf("Sites: %d,", len(res.Sites))) {
		t.Errorf("entry file does not declare %d sites:\n%s", len(res.Sites), entry)
	}
}

// TestGoroutineIDFiles checks the files that give the runtime the
// identity of goroutines: a declaration the entry file's package compiles on
// amd64 and arm64, handed to rt.UseG, and its assembly for each.
func TestGoroutineIDFiles(t *testing.T) {
	pkg, res := rewrite(t, "package u\n\nfunc F(x int) int { return x }\n", "F")
	dir := filepath.Dir(pkg.CompiledGoFiles[0])
	want := []string{GFile + ".go"}
	for _, arch := range rt.GArchs {
		want = append(want, GFile+"_"+arch+".s")
	}
	if got := keys(res.Extra); len(got) != len(want) {
		t.Fatalf("Extra has %v, want %v", got, want)
	}
	for _, name := range want {
		src, ok := res.Extra[filepath.Join(dir, name)]
		if !ok {
			t.Errorf("no %s in the package's directory (Extra has %v)", name, keys(res.Extra))
			continue
		}
		switch {
		case strings.HasSuffix(name, ".s") && !strings.Contains(string(src), "TEXT ·_gclG(SB)"):
			t.Errorf("%s does not define _gclG:\n%s", name, src)
		case strings.HasSuffix(name, ".go") && (!strings.Contains(string(src), "//go:build amd64 || arm64") ||
			!strings.Contains(string(src), "_gcl.UseG(_gclG)")):
			t.Errorf("%s does not declare and install _gclG on amd64 and arm64:\n%s", name, src)
		}
	}
	if added := res.Added(); len(added) != len(want)+1 || added[res.EntryPath] == nil {
		t.Errorf("Added has %v, want the entry file and Extra", keys(added))
	}
	rw := recheck(t, res)
	for _, err := range rw.errs {
		t.Errorf("rewritten package with its declaration: %v", err)
	}
}

func keys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// wantSite is a site expected at the occurrence number skip (from 0) of
// anchor in the source, with Text text. The expression's source is the
// first srcLen bytes of the anchor, or len(text) when srcLen is 0.
type wantSite struct {
	kind   sites.Kind
	text   string
	anchor string
	skip   int
	srcLen int
}

// position returns the line and column of the n-th (from 0) occurrence of
// anchor in src.
func position(t *testing.T, src, anchor string, n int) (int, int) {
	t.Helper()
	off := 0
	for i := 0; ; i++ {
		k := strings.Index(src[off:], anchor)
		if k < 0 {
			t.Fatalf("anchor %q (occurrence %d) not in source", anchor, n)
		}
		if i == n {
			off += k
			break
		}
		off += k + len(anchor)
	}
	line := 1 + strings.Count(src[:off], "\n")
	col := off - strings.LastIndex(src[:off], "\n")
	return line, col
}

func TestSites(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		fn    string // the function the sites are in
		sites []wantSite
	}{
		{
			name: "condition atoms and implicit checks",
			src: `package u

func F(a, b, c bool, x, y int, s string) int {
	if a && (b || !c) {
		return x / y
	}
	t := s[x:y]
	return int(s[x]) + len(t) + x%y
}
`,
			fn: "F",
			sites: []wantSite{
				{sites.Cond, "a", "a && (", 0, 0},
				{sites.Cond, "b", "b || !c", 0, 0},
				{sites.Cond, "c", "c) {", 0, 0},
				{sites.Implicit, "x / y", "x / y", 0, 0},
				{sites.Implicit, "s[x:y]", "s[x:y]", 0, 0},
				{sites.Implicit, "s[x]", "s[x])", 0, 0},
				{sites.Implicit, "x % y", "x%y", 0, 3},
			},
		},
		{
			name: "boolean operators in a value",
			src: `package u

func G(x, y int) bool {
	v := x > 0 && (y < 0 || x == y)
	return !v
}
`,
			fn: "G",
			sites: []wantSite{
				{sites.Cond, "x > 0", "x > 0", 0, 0},
				{sites.Cond, "y < 0", "y < 0", 0, 0},
				{sites.Cond, "x == y", "x == y", 0, 0},
			},
		},
		{
			name: "loops, switches, byte slices and shifts",
			src: `package u

func H(b []byte, s string, n int8, k uint) int {
	r := 0
	for i := 0; i < len(b); i++ {
		r += int(b[i]) << n
	}
	for _, c := range s {
		r += int(c) >> k
	}
	for _, c := range b {
		r -= int(c)
	}
	switch n {
	case 1, 2:
		r++
	case 3:
		r--
	}
	return r
}
`,
			fn: "H",
			sites: []wantSite{
				{sites.Cond, "i < len(b)", "i < len(b)", 0, 0},
				{sites.Implicit, "b[i]", "b[i]", 0, 0},
				{sites.Implicit, "int(b[i]) << n", "int(b[i]) << n", 0, 0},
				{sites.Loop, "s", "s {", 0, 0},
				{sites.Implicit, "s", "s {", 0, 0},
				{sites.Implicit, "s", "s {", 0, 0},
				{sites.Implicit, "int(c) >> k", "int(c) >> k", 0, 0},
				{sites.Loop, "b", "b {", 0, 0},
				{sites.Cond, "n == 1", "1, 2", 0, 1}, // a case value, named by its comparison
				{sites.Cond, "n == 2", "2:", 0, 1},
				{sites.Cond, "n == 3", "3:", 0, 1},
			},
		},
		{
			name: "stores into a byte slice",
			src: `package u

func S(b []byte, r int) {
	b[r] = 'x'
	switch r {
	case 1:
		b[r+1] = 'y'
	}
}
`,
			fn: "S",
			sites: []wantSite{
				{sites.Implicit, "b[r]", "b[r]", 0, 0},
				{sites.Cond, "r == 1", "1:", 0, 1},
				{sites.Implicit, "b[r + 1]", "b[r+1]", 0, 6},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pkg, res := rewrite(t, tt.src, tt.fn)
			path := pkg.CompiledGoFiles[0]
			for i, s := range res.Sites {
				if s.ID != uint32(i) {
					t.Fatalf("site %d has ID %d: sites must be numbered densely in order", i, s.ID)
				}
			}
			if len(res.Sites) != len(tt.sites) {
				t.Errorf("got %d sites, want %d:\n%s", len(res.Sites), len(tt.sites), dumpSites(res.Sites))
			}
			// Every site is used by the rewritten code, at its line.
			rw := recheck(t, res)
			for _, err := range rw.errs {
				t.Fatalf("rewritten package: %v", err)
			}
			checkSiteLines(t, rw, res)
			used := make(map[uint32]bool)
			for _, w := range tt.sites {
				line, col := position(t, tt.src, w.anchor, w.skip)
				found := false
				for _, s := range res.Sites {
					if used[s.ID] || s.Kind != w.kind || s.Text != w.text || s.Pos.Line != line || s.Pos.Column != col {
						continue
					}
					used[s.ID], found = true, true
					if s.Pos.Filename != path || s.End.Filename != path {
						t.Errorf("site %d is in %s, want %s", s.ID, s.Pos.Filename, path)
					}
					n := w.srcLen
					if n == 0 {
						n = len(w.text)
					}
					if s.End.Line != line || s.End.Column != col+n {
						t.Errorf("site %d (%s) ends at %d:%d, want %d:%d", s.ID, s.Text, s.End.Line, s.End.Column, line, col+n)
					}
					if s.Func != tt.fn {
						t.Errorf("site %d (%s) is in function %q, want %q", s.ID, s.Text, s.Func, tt.fn)
					}
					break // one site per expected entry: two sites may look alike
				}
				if !found {
					t.Errorf("no %v site %q at %d:%d; sites:\n%s", w.kind, w.text, line, col, dumpSites(res.Sites))
				}
			}
		})
	}
}

func dumpSites(sites []sites.Site) string {
	var b strings.Builder
	for _, s := range sites {
		fmt.Fprintf(&b, "\t%d %v %q at %d:%d-%d:%d in %s\n", s.ID, s.Kind, s.Text, s.Pos.Line, s.Pos.Column, s.End.Line, s.End.Column, s.Func)
	}
	return b.String()
}

// TestSitesInInitialisersAndMethods checks the function names sites are
// attributed to outside plain functions.
func TestSitesInInitialisersAndMethods(t *testing.T) {
	src := `package u

var limit = 10

var ok = limit > 3 && limit < 100

type T struct{ n int }

func (t *T) Div(d int) int { return t.n / d }

func F(x int) int { return x }
`
	_, res := rewrite(t, src, "F")
	got := make(map[string][]string)
	for _, s := range res.Sites {
		got[s.Func] = append(got[s.Func], s.Kind.String()+" "+s.Text)
	}
	want := map[string][]string{
		"init": {"cond limit > 3", "cond limit < 100"},
		"Div":  {"concrete t.n", "implicit t.n / d"}, // the load of t.n, then the division
	}
	for fn, w := range want {
		if !slices.Equal(got[fn], w) {
			t.Errorf("sites of %s = %q, want %q", fn, got[fn], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("sites in functions %v, want only %v", keys(got), keys(want))
	}
}

// TestRangeLoopsAtEveryVersion checks that range loops over strings, byte
// slices, slices and integers become loops over the runtime's cursors,
// each with its loop site, in code that type-checks at the package's own
// language version: the rewrite uses no range-over-func, which a module
// below go1.23 cannot compile.
func TestRangeLoopsAtEveryVersion(t *testing.T) {
	src := `package u

func F(s string, b []byte, xs []int, ss []string) int {
	n := 0
	for i, c := range s {
		n += i * int(c)
	}
	for _, c := range b {
		if c == 'x' {
			n++
		}
	}
	for i := range xs {
		n += xs[i]
	}
	var t string
	for _, t = range ss {
		n += len(t)
	}
	return n
}
`
	rangeInt := `package u

func G(n int) int {
	k := 0
	for i := range n {
		k += i
	}
	return k
}
`
	tests := []struct {
		version string
		files   map[string]string
		loops   int
	}{
		{"go1.18", map[string]string{"u.go": src}, 4},
		{"go1.21", map[string]string{"u.go": src}, 4},
		{"go1.22", map[string]string{"u.go": src, "v.go": rangeInt}, 5},
		{"go1.26", map[string]string{"u.go": src, "v.go": rangeInt}, 5},
	}
	for _, tt := range tests {
		t.Run(tt.version, func(t *testing.T) {
			pkg := loadSourceVersion(t, tt.files, tt.version)
			res, err := Package(pkg, config("F"))
			if err != nil {
				t.Fatal(err)
			}
			loops := 0
			for _, s := range res.Sites {
				if s.Kind == sites.Loop {
					loops++
				}
			}
			if loops != tt.loops {
				t.Errorf("%d loop sites, want %d", loops, tt.loops)
			}
			rw := recheckVersion(t, res, tt.version)
			for _, err := range rw.errs {
				t.Errorf("rewritten code does not type-check as %s: %s", tt.version, rw.describe(err))
			}
			for path, f := range rw.files {
				ast.Inspect(f, func(n ast.Node) bool {
					if r, ok := n.(*ast.RangeStmt); ok {
						if _, ok := r.X.(*ast.CallExpr); ok {
							t.Errorf("%s: a range over a call is left, %s", filepath.Base(path), types.ExprString(r.X))
						}
					}
					return true
				})
			}
		})
	}
}

func TestSiteKindString(t *testing.T) {
	for k, want := range map[sites.Kind]string{sites.Cond: "cond", sites.Implicit: "implicit", sites.Loop: "loop", 0: "?"} {
		if got := k.String(); got != want {
			t.Errorf("sites.Kind(%d).String() = %q, want %q", k, got, want)
		}
	}
}

// TestDeclDirectivesOnce checks that a package-level declaration other
// than a function keeps its //go: directive once, and not its doc
// comment: the rewrite writes the directives itself, and printing the
// doc comment too repeated them (database/sql's //go:linkname drivers
// then did not compile: "duplicate //go:linkname").
func TestDeclDirectivesOnce(t *testing.T) {
	tests := []struct{ name, decl, directive string }{
		{"variable", "var drivers = map[string]int{}", "//go:linkname drivers"},
		{"variable without initialiser", "var count int", "//go:linkname count"},
		{"constant", "const limit = 3", "//go:generate echo limit"},
		{"type", "type T int", "//go:generate echo T"},
		// In a block, the directive stands above its spec, not the block.
		{"variable in a block", "var (\n\tx = 1\n\t// A doc comment.\n\t//\n\t//go:linkname count\n\tcount int\n)", "//go:linkname count"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			above := tt.directive + "\n"
			if strings.Contains(tt.decl, tt.directive) {
				above = ""
			}
			src := "package u\n\nimport _ \"unsafe\"\n\n// A doc comment.\n//\n" + above + tt.decl +
				"\n\nfunc F(n int) int {\n\tif n > 2 {\n\t\treturn 1\n\t}\n\treturn 0\n}\n"
			pkg, res := rewrite(t, src, "F")
			out := string(res.Files[pkg.CompiledGoFiles[0]])
			if n := strings.Count(out, tt.directive+"\n"); n != 1 {
				t.Errorf("%s appears %d times, want once:\n%s", tt.directive, n, out)
			}
			if strings.Contains(out, "A doc comment") {
				t.Errorf("the doc comment is kept:\n%s", out)
			}
		})
	}
}

// TestRewrittenFiles checks what the printed files keep of the original:
// directives (not ordinary comments) and positions, through //line
// directives, that point at the original file.
func TestRewrittenFiles(t *testing.T) {
	src := `//go:build !plan9

// Package u has a doc comment that is dropped.
package u

import "strings"

// F has a doc comment.
//
//go:noinline
func F(s string, n int) int {
	// an ordinary comment
	if strings.HasPrefix(s, "x") && n > 0 { // another
		return len(s) / n
	}
	return n % 7
}

//go:noinline
func helper() int { return 1 }
`
	pkg, res := rewrite(t, src, "F")
	path := pkg.CompiledGoFiles[0]
	out := string(res.Files[path])
	for _, gone := range []string{"doc comment", "an ordinary comment", "another"} {
		if strings.Contains(out, gone) {
			t.Errorf("ordinary comment %q kept in the rewritten file", gone)
		}
	}
	rw := recheck(t, res)
	for _, err := range rw.errs {
		t.Errorf("rewritten package: %v", err)
	}
	f := rw.files[path]

	t.Run("build constraint", func(t *testing.T) {
		// A build constraint counts only before the package clause.
		var found bool
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if c.Text == "//go:build !plan9" {
					found = true
					if c.Pos() > f.Package {
						t.Errorf("//go:build after the package clause: the constraint is lost")
					}
				}
			}
		}
		if !found {
			t.Errorf("//go:build directive dropped:\n%s", out)
		}
	})

	t.Run("go:noinline", func(t *testing.T) {
		// Each //go:noinline must still directly precede a function
		// declaration, and both original functions keep theirs.
		lines := strings.Split(out, "\n")
		var funcs []string
		for i, l := range lines {
			if strings.TrimSpace(l) != "//go:noinline" {
				continue
			}
			j := i + 1
			for j < len(lines) && strings.HasPrefix(lines[j], "//line ") {
				j++
			}
			if l != "//go:noinline" || j == len(lines) || !strings.HasPrefix(lines[j], "func ") {
				t.Errorf("//go:noinline at line %d of the rewritten file is not before a function declaration:\n%s", i+1, excerpt(lines, i))
				continue
			}
			name, _, _ := strings.Cut(strings.TrimPrefix(lines[j], "func "), "(")
			funcs = append(funcs, name)
		}
		if !slices.Equal(funcs, []string{"F", "helper"}) {
			t.Errorf("//go:noinline directives precede functions %q, want [F helper]", funcs)
		}
	})

	t.Run("line directives", func(t *testing.T) {
		n := 0
		for _, l := range strings.Split(out, "\n") {
			if !strings.HasPrefix(l, "//line ") {
				continue
			}
			n++
			target := strings.TrimPrefix(l, "//line ")
			file, lineNo, ok := cutLast(target)
			if !ok || file != path {
				t.Errorf("directive %q does not point at %s", l, path)
				continue
			}
			if k, err := strconv.Atoi(lineNo); err != nil || k < 1 || k > strings.Count(src, "\n")+1 {
				t.Errorf("directive %q names a line outside the original file", l)
			}
		}
		if n == 0 {
			t.Fatalf("no //line directives in the rewritten file:\n%s", out)
		}
		// Every instrumented operation with a site is printed at a place
		// that maps to the site's line in the original file.
		checkSiteLines(t, rw, res)
	})
}

// excerpt returns lines i-2 to i+2, indented.
func excerpt(lines []string, i int) string {
	var b strings.Builder
	for k := max(0, i-2); k < min(len(lines), i+3); k++ {
		fmt.Fprintf(&b, "\t%s\n", lines[k])
	}
	return b.String()
}

// cutLast splits "file:line" at its last colon.
func cutLast(s string) (string, string, bool) {
	i := strings.LastIndex(s, ":")
	if i < 0 {
		return "", "", false
	}
	return s[:i], s[i+1:], true
}

// checkSiteLines finds every runtime call in the rewritten files whose
// first argument is a site number and checks that its position, as the
// //line directives map it, is the site's line in the original file.
func checkSiteLines(t *testing.T, rw *rewritten, res *Result) {
	t.Helper()
	seen := make(map[uint32]bool)
	for _, f := range rw.files {
		ast.Inspect(f, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok || len(c.Args) == 0 {
				return true
			}
			sel, ok := c.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); !ok || x.Name != runtimeAlias {
				return true
			}
			// IterString takes three sites: the loop's, the ASCII
			// test's and the UTF-8 sequence test's. BrOwn takes its
			// function's owner flag first.
			args := c.Args
			nsites := 1
			switch sel.Sel.Name {
			case rtIterString:
				nsites = 3
			case rtBrOwn:
				args = args[1:]
			}
			for _, arg := range args[:min(nsites, len(args))] {
				lit, ok := arg.(*ast.BasicLit)
				if !ok || lit.Kind != token.INT {
					return true
				}
				id, err := strconv.Atoi(lit.Value)
				if err != nil || id >= len(res.Sites) {
					t.Errorf("_gcl.%s has site argument %s, but there are %d sites", sel.Sel.Name, lit.Value, len(res.Sites))
					return true
				}
				site := res.Sites[id]
				seen[site.ID] = true
				pos := rw.fset.Position(c.Pos())
				if pos.Filename != site.Pos.Filename || pos.Line != site.Pos.Line {
					t.Errorf("_gcl.%s of site %d (%s) is at %s:%d, want %s:%d", sel.Sel.Name, id, site.Text, filepath.Base(pos.Filename), pos.Line, filepath.Base(site.Pos.Filename), site.Pos.Line)
				}
			}
			return true
		})
	}
	for _, s := range res.Sites {
		if !seen[s.ID] {
			t.Errorf("site %d (%s) is used by no runtime call", s.ID, s.Text)
		}
	}
}

// TestTwinsAndWrappers checks the shape of the rewrite on declarations:
// functions with tracked parameters or results get a twin _gcl_<name>
// taking V values and returning shadows after the ordinary results, and
// keep their name and signature as wrappers.
func TestTwinsAndWrappers(t *testing.T) {
	src := `package u

import "fmt"

type Celsius int

type T struct{ n int }

func F(x int, s string) (int, error) { return x + len(s), nil }

func Named(b []byte) (n int, ok bool) {
	n = len(b)
	ok = n > 0
	return
}

func Float(f float64) float64 { return f * 2 }

func Pointer(p *int) { *p++ }

func Sum(base int, xs ...int) int {
	for _, x := range xs {
		base += x
	}
	return base
}

func Blank(_ int, _ string) bool { return true }

func Pick[E any](xs []E, i int) E { return xs[i] }

func (c Celsius) Add(d int) Celsius { return c + Celsius(d) }

func (c Celsius) String() string { return fmt.Sprint(int(c)) }

func (t *T) Set(n int) { t.n = n }

func (T) Get() int { return 0 }

var _ fmt.Stringer = Celsius(0)

func Use() (int, int, Celsius) {
	var t T
	t.Set(3)
	a, _ := F(1, "x")
	return a + Sum(1, 2, 3), Pick([]int{4}, 0), Celsius(2).Add(t.Get())
}
`
	pkg, res := rewrite(t, src, "F")
	rw := recheck(t, res)
	for _, err := range rw.errs {
		t.Fatalf("rewritten package does not type-check: %v\n%s", err, res.Files[pkg.CompiledGoFiles[0]])
	}
	tests := []struct {
		recv, name string
		sig        string // the original signature, which the wrapper keeps
		twin       string // the twin's signature; "" if none
	}{
		{"", "F", "func(int, string) (int, error)", "func(rt.V[int], rt.V[string]) (int, error, *rt.Expr)"},
		{"", "Named", "func([]byte) (int, bool)", "func(rt.V[[]byte]) (int, bool, *rt.Expr, *rt.Expr)"},
		{"", "Float", "func(float64) float64", "func(rt.V[float64]) (float64, *rt.Expr)"},
		{"", "Pointer", "func(*int)", ""},
		{"", "Sum", "func(int, ...int) int", "func(rt.V[int], ...int) (int, *rt.Expr)"},
		{"", "Blank", "func(int, string) bool", "func(rt.V[int], rt.V[string]) (bool, *rt.Expr)"},
		{"", "Pick", "func[E any]([]E, int) E", "func[E any]([]E, rt.V[int]) E"},
		{"Celsius", "Add", "func(int) Celsius", "func(rt.V[int]) (Celsius, *rt.Expr)"},
		{"Celsius", "String", "func() string", "func() (string, *rt.Expr)"},
		{"T", "Set", "func(int)", "func(rt.V[int])"},
		{"T", "Get", "func() int", "func() (int, *rt.Expr)"},
		{"", "Use", "func() (int, int, Celsius)", "func() (int, int, Celsius, *rt.Expr, *rt.Expr, *rt.Expr)"},
	}
	for _, tt := range tests {
		name := tt.name
		if tt.recv != "" {
			name = tt.recv + "." + tt.name
		}
		t.Run(name, func(t *testing.T) {
			if got := shape(lookup(pkg.Types, tt.recv, tt.name)); got != tt.sig {
				t.Fatalf("original %s has signature %s, want %s (test out of date)", name, got, tt.sig)
			}
			if got := shape(lookup(rw.pkg, tt.recv, tt.name)); got != tt.sig {
				t.Errorf("rewritten %s has signature %s, want the original %s", name, got, tt.sig)
			}
			if got := shape(lookup(rw.pkg, tt.recv, "_gcl_"+tt.name)); got != tt.twin {
				t.Errorf("twin of %s has signature %q, want %q", name, got, tt.twin)
			}
		})
	}
}

// shape prints a signature without parameter names, naming the runtime's
// packages rt and sym and this package's types unqualified; "" for nil.
func shape(sig *types.Signature) string {
	if sig == nil {
		return ""
	}
	q := func(p *types.Package) string {
		switch p.Path() {
		case testPkgPath:
			return ""
		case rt.ImportPath:
			return "rt"
		}
		return p.Name()
	}
	var b strings.Builder
	b.WriteString("func")
	if tps := sig.TypeParams(); tps.Len() > 0 {
		b.WriteString("[")
		for i := 0; i < tps.Len(); i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(tps.At(i).Obj().Name() + " " + types.TypeString(tps.At(i).Constraint(), q))
		}
		b.WriteString("]")
	}
	b.WriteString("(")
	for i := 0; i < sig.Params().Len(); i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		pt := sig.Params().At(i).Type()
		if sig.Variadic() && i == sig.Params().Len()-1 {
			b.WriteString("..." + types.TypeString(pt.(*types.Slice).Elem(), q))
			continue
		}
		b.WriteString(types.TypeString(pt, q))
	}
	b.WriteString(")")
	switch n := sig.Results().Len(); {
	case n == 1:
		b.WriteString(" " + types.TypeString(sig.Results().At(0).Type(), q))
	case n > 1:
		b.WriteString(" (")
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(types.TypeString(sig.Results().At(i).Type(), q))
		}
		b.WriteString(")")
	}
	return b.String()
}

// TestRewriteTypeChecks rewrites small packages, one construct each, and
// type-checks the result against the runtime: whatever the original
// compiles, the rewrite must too.
func TestRewriteTypeChecks(t *testing.T) {
	tests := []struct {
		name string
		src  string // the body of package u; the entry is F
	}{
		{"goto to a labeled if", `
func F(n int) int {
	i := 0
loop:
	if i < n {
		i++
		goto loop
	}
	return i
}`},
		{"goto to labeled simple statements", `
func F(n int) (r int) {
	if n < 0 {
		goto neg
	}
	r = n
	goto out
neg:
	r = -n
out:
	return r
}`},
		{"goto over a labeled tagged switch", `
func F(n int) int {
	if n > 100 {
		goto sw
	}
	n++
sw:
	switch n {
	case 1:
		return 10
	}
	return n
}`},
		{"labeled tagged switch with break", `
func F(n int, s string) int {
sw:
	switch s {
	case "a":
		if n > 0 {
			break sw
		}
		return 1
	}
	return 0
}`},
		{"goto out of a range over a string", `
func F(s string) int {
	n := 0
	for _, c := range s {
		if c == 'x' {
			goto found
		}
		n++
	}
	return -1
found:
	for {
		return n
	}
}`},
		{"named bool from an untracked comparison", `
type Flag bool

func F(x int) Flag {
	y := float64(x)
	var f Flag = y > 1.5
	g := Flag(y < 0)
	return f && g || y == 2
}`},
		{"named bool results from untracked comparisons", `
type Flag bool

func pos(x float64, p *int) (Flag, Flag) { return x > 0, p == nil }

func isNil(err error) Flag { return err == nil }

func F(x int) bool {
	a, b := pos(float64(x), nil)
	return bool(a || b || isNil(nil))
}`},
		{"increment of a byte at a computed index", `
func F(b []byte, i int) []byte {
	b[i+1]++
	b[i*2]--
	return b
}`},
		{"nil byte slices", `
func g(b []byte) int { return len(b) }

func F(s string) ([]byte, error) {
	var b []byte
	c := []byte(s)
	if s == "" {
		c = nil
		return nil, nil
	}
	if b == nil && c != nil {
		return c, nil
	}
	return nil, nil
}

func G(s string) []byte {
	if len(s) > g(nil) {
		return nil
	}
	return []byte(s)
}`},
		{"untyped constant operands", `
import "fmt"

func F(n uint, i int) (int64, int8, string, byte) {
	var a int64 = 1 << n
	var b int8 = 1 << (n & 3)
	if 1<<n > a {
		a++
	}
	fmt.Println(1<<n, "abc"[i], len("héllo"))
	return a, b, fmt.Sprint(1 << n), "abc"[i]
}`},
		{"types of other packages", `
import (
	"time"
	tt "time"
)

func F(x int64, m time.Month) (time.Duration, int) {
	d := time.Duration(x) * time.Second
	var e tt.Duration = 5
	switch m {
	case time.March, tt.April:
		d += e
	}
	return d + e, int(m) + 1
}`},
		{"function-local named types", `
func F(x int) int {
	type L int
	var a L = 3
	b := L(x) + a
	a++
	if b == 4 || b == L(x) {
		return int(a)
	}
	var c = L(7)
	return int(b + c)
}`},
		{"tagged switch over named types", `
type Color uint8

const (
	Red Color = iota
	Green
	Blue
)

type Name string

func F(c Color, n Name) (Color, int) {
	switch c {
	case Red:
		c = Green
	case Blue, Green:
		c++
	}
	switch n {
	case "x", Name("y"):
		return c, 1
	}
	return c, 0
}`},
		{"tagged switch over a function-local type", `
func F(x int) int {
	type L int
	switch L(x) {
	case L(x + 1):
		return 1
	}
	return 0
}`},
		{"named types and iota constants", `
type Color uint8

const (
	Red Color = iota
	Green
	Blue
)

type Name string

func F(c Color, n Name) (Color, Name, bool) {
	if c == Red || c > Blue {
		c = Green
	}
	c++
	if n == "x" || n+"y" == "xy" {
		n += "!"
	}
	return -c, n[1:], n < "m"
}`},
		{"methods, embedding, method values and expressions", `
import "fmt"

type Celsius int

func (c Celsius) Add(d int) Celsius { return c + Celsius(d) }

func (c *Celsius) Inc() { *c++ }

type Temp struct {
	Celsius
	name string
}

type Adder interface{ Add(int) Celsius }

func F(x int) (Celsius, Celsius, Celsius, Celsius, string) {
	t := Temp{Celsius: Celsius(x)}
	t.Inc()
	a := t.Add(1)
	f := t.Add
	var ad Adder = t
	g := Celsius.Add
	return a, f(2), ad.Add(3), g(4, 5), fmt.Sprint((Celsius)(x))
}`},
		{"generic functions and types", `
type List[T any] struct{ xs []T }

func (l *List[T]) Push(v T, n int) int {
	for range n {
		l.xs = append(l.xs, v)
	}
	return len(l.xs)
}

func Map[T, U any](xs []T, f func(T) U, limit int) []U {
	var out []U
	for i, x := range xs {
		if i >= limit {
			break
		}
		out = append(out, f(x))
	}
	return out
}

func F(n int, s string) int {
	var l List[string]
	k := l.Push(s, n&3)
	m := (&List[int]{}).Push(n, 1)
	ys := Map[string, int]([]string{s, s}, func(x string) int { return len(x) }, n)
	zs := Map([]int{n}, func(x int) string { return s }, 1)
	return k + m + len(ys) + len(zs)
}`},
		{"closures, defer and go", `
func g(x int) int { return x * 2 }

func h(x int, s string) {}

func F(x int, s string) (r int) {
	done := make(chan int)
	go h(x+1, s+"!")
	go func(v int) { done <- g(v) }(x)
	defer h(x-1, s)
	defer func() { r += g(x) }()
	r = func() int { return x + 1 }()
	return r + <-done
}`},
		{"select with tracked values", `
func F(x int, s string) (int, string) {
	ch := make(chan int, 1)
	cs := make(chan string, 1)
	select {
	case ch <- x + 1:
	case cs <- s + "!":
	}
	select {
	case v := <-ch:
		x = v * 2
	case t, ok := <-cs:
		if ok {
			s = t
		}
	default:
	}
	return x, s
}`},
		{"type switches and assertions", `
func F(x int, s string) (int, string) {
	var v any = x
	switch y := x + 1; w := v.(type) {
	case int:
		x = w + y
	case string:
		s = w
	}
	n := v.(int) + 1
	t, ok := any(s).(string)
	if !ok {
		t = "?"
	}
	return n, t
}`},
		{"comma-ok forms in if and for", `
func F(k string, x int) (int, bool) {
	m := map[string]int{"a": x}
	if v, ok := m[k]; ok {
		return v, ok
	}
	ch := make(chan int, 1)
	ch <- x
	close(ch)
	for v, ok := <-ch; ok; v, ok = <-ch {
		x += v
	}
	return x, false
}`},
		{"address-taken variables", `
func F(x int, s string, b []byte) (int, string, byte) {
	p := &x
	*p++
	q := &s
	*q += "!"
	r := &b
	(*r)[0] = 'x'
	var arr [4]byte
	arr[x&3] = 1
	c := arr[:]
	return x, s, c[0] + b[0]
}`},
		{"range forms", `
func F(s string, b []byte, n int) int {
	t := 0
	for i := range n {
		t += i
	}
	for i := range len(s) {
		t += int(s[i])
	}
	var i int
	var c rune
	for i, c = range s {
		t += int(c) + i
	}
	for i := range b {
		b[i]++
	}
	seq := func(yield func(int) bool) {
		for k := 0; k < 3; k++ {
			if !yield(k) {
				return
			}
		}
	}
	for v := range seq {
		t += v
	}
	fs := []func() rune{}
	for _, c := range s {
		fs = append(fs, func() rune { return c })
	}
	return t + len(fs)
}`},
		{"package-level declarations", `
func two() (int, string) { return 2, "two" }

var a, b = two()

var c, d int = 1, 2

var g = func(x int) int { return x * 2 }

var _ = F(1)

var e = struct{ n int }{n: c + d}

func F(x int) int { return g(x) + a + len(b) + e.n }`},
		{"composite literals", `
type point struct{ x, y int }

func F(a, b int, s string) int {
	p := point{x: a + 1, y: b * 2}
	q := &point{a, b}
	arr := [...]int{2: a, 5: b}
	m := map[string]int{s: a, s + "!": b}
	sl := []string{s + "x", 1: s}
	return p.x + q.y + arr[2] + m[s] + len(sl)
}`},
		{"conversions", `
type Buf []byte
type Name string

func F(x int, r rune, b byte, s string) (string, string, Buf, Name, []rune, string) {
	return string(r), string(b), Buf(s + "x"), Name(Buf(s)), []rune(s), string([]rune(s)[:0])
}`},
		{"variadic calls", `
func sum(prefix string, xs ...int) int { return len(prefix) + len(xs) }

func join(ss ...string) string {
	r := ""
	for _, s := range ss {
		r += s
	}
	return r
}

func F(x int, s string) (int, string) {
	xs := []int{x}
	return sum(s) + sum(s, x, x+1) + sum(s, xs...), join() + join(s, s) + join([]string{s}...)
}`},
		{"multi-valued calls as arguments and results", `
func two(x int) (int, int) { return x, x + 1 }

func add(a, b int) int { return a + b }

func three(x int) (int, int, error) {
	a, b := two(x)
	return a, b, nil
}

func F(x int) (int, int) {
	s := add(two(x))
	if a, b := two(s); a > b {
		return two(a)
	}
	a, _, _ := three(x)
	return a, s
}`},
		{"shifts with named counts", `
type Count uint8

func F(x int64, n Count, m int8) (int64, int64, uint32) {
	x <<= n
	y := x >> Count(2)
	z := uint32(x) << m
	z >>= 1
	return x, y, z
}`},
		{"discarded results of calls", `
import "sync/atomic"

var hits int64

type Lener interface{ Len() int }

type list []int

func (l list) Len() int { return len(l) }

func F(x int, s string) int {
	b := make([]byte, 3)
	copy(b, s)
	atomic.AddInt64(&hits, 1)
	f := func() int { return x }
	f()
	var l Lener = list{x}
	l.Len()
	return len(b)
}`},
		{"byte-slice arguments of another byte-slice type", `
type Buf []byte

func plain(b []byte) int { return len(b) }

func named(b Buf) int { return len(b) }

func buf(s string) Buf { return Buf(s) }

func F(s string) int {
	var x Buf = Buf(s)
	return plain(x) + named([]byte(s)) + plain(buf(s))
}`},
		{"unusual statements", `
func F(x int) int {
	var (
		a = x
		b int
	)
	{
		b := a * 2
		a = b
	}
	if x := a; x > 0 {
	} else if y := x * 2; y < 0 {
		a = y
	} else {
		a--
	}
	for a > 100 {
		a /= 2
	}
	switch {
	}
	_ = b
	return a
}`},
		// Found by TestStandardLibraryTorture in regexp/syntax: types the
		// rewrite names must not resolve to a local of the same name.
		{"a local variable named like a predeclared type", `
func F(s string) int {
	rune, n := rune(s[0]), 0
	if rune == 'a' {
		n++
	}
	return g(rune) + n
}

func g(r rune) int {
	if r > 'z' {
		return 1
	}
	return 0
}`},
		{"a local variable named like a package-level type", `
type size int

func F(n int) size {
	size := size(n) * 2
	if size > 10 {
		return h(size)
	}
	return size
}

func h(s size) size {
	if s > 20 {
		return s - 1
	}
	return s
}`},
		// Found in time.parseSignedOffset: the twin of a generic function
		// gives no shadow for a result over []byte | string, so the string
		// variable it is assigned to must not expect one.
		{"a multi-value call of a generic twin with an untracked result", `
func leading[bytes []byte | string](s bytes) (x uint64, rem bytes, err error) {
	i := 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		x = x*10 + uint64(s[i]-'0')
	}
	return x, s[i:], nil
}

func F(value string) int {
	x, rem, err := leading(value)
	if err != nil || value == rem {
		return 0
	}
	if x > 23 {
		return 1
	}
	return len(value) - len(rem)
}`},
		{"a local variable named like an import", `
import "time"

func F(n int) time.Duration {
	d := time.Duration(n)
	time := 3
	if d > 5 && time > 2 {
		return k(d) + 1
	}
	return d
}

func k(d time.Duration) time.Duration {
	if d > 100 {
		return d / 2
	}
	return d
}`},
		// The rewrite writes types of other packages where a parameter
		// or variable hides the file's name for the package (issue 15's
		// module corpus: spf13/pflag's PFlagFromGoFlag(goflag *goflag.Flag)).
		{"a parameter hides the package of a constant's type", `
import "time"

type S struct{ D time.Duration }

func F(time *S) bool { return time.D > 5 }`},
		{"a parameter hides the package of an interface it calls", `
import "fmt"

func F(x int) int { return x }

func G(fmt fmt.Stringer) string { return fmt.String() }`},
		{"a local variable hides the package", `
import "time"

func F(n int) bool {
	d := time.Duration(n)
	{
		time := struct{ D time.Duration }{d}
		return time.D > 3
	}
}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "package u\n" + tt.src + "\n"
			pkg := loadSource(t, map[string]string{"u.go": src})
			var res *Result
			var err error
			func() {
				defer func() {
					if r := recover(); r != nil {
						err = fmt.Errorf("Package panicked: %v", r)
					}
				}()
				res, err = Package(pkg, config("F"))
			}()
			if err != nil {
				t.Fatal(err)
			}
			rw := recheck(t, res)
			for _, err := range rw.errs {
				t.Errorf("rewritten code does not type-check: %s", rw.describe(err))
			}
		})
	}
}

// TestSupport rewrites a package for calls from another instrumented
// package: exported functions get exported twins, listed in Exports;
// methods and unexported functions keep theirs; sites are numbered from
// SiteBase; the entry file registers the reset of package variables.
func TestSupport(t *testing.T) {
	src := `package u

var V int

func F(x int) int {
	if x > 3 {
		V++
	}
	return g(x)
}

func g(x int) int {
	if x == 7 {
		return 1
	}
	return 0
}

type T struct{}

func (T) M(x int) int { return x + V }
`
	pkg := loadSource(t, map[string]string{"u.go": src})
	res, err := Package(pkg, Config{RuntimePath: rt.ImportPath, Support: true, SiteBase: 7})
	if err != nil {
		t.Fatalf("Package: %v", err)
	}
	rw := recheck(t, res)
	if len(rw.errs) > 0 {
		t.Fatalf("rewritten package does not type-check: %s", rw.describe(rw.errs[0]))
	}
	var exported []string
	for fn, tw := range res.Exports.twins {
		exported = append(exported, fn.Name()+"="+tw.name+"/"+tw.xname)
	}
	slices.Sort(exported)
	if want := []string{"F=Gcl_F/", "M=_gcl_M/Gclm1_T_M"}; !slices.Equal(exported, want) {
		t.Errorf("Exports %v, want %v", exported, want)
	}
	for _, c := range []struct{ recv, name string }{{"", "Gcl_F"}, {"", "_gcl_g"}, {"T", "_gcl_M"}, {"", "Gclm1_T_M"}} {
		if lookup(rw.pkg, c.recv, c.name) == nil {
			t.Errorf("rewritten package lacks %s.%s", c.recv, c.name)
		}
	}
	// The forwarder leaves T's exported method set as it was.
	tn := rw.pkg.Scope().Lookup("T").(*types.TypeName)
	ms := types.NewMethodSet(types.NewPointer(tn.Type()))
	var methods []string
	for i := 0; i < ms.Len(); i++ {
		if m := ms.At(i).Obj(); m.Exported() {
			methods = append(methods, m.Name())
		}
	}
	if !slices.Equal(methods, []string{"M"}) {
		t.Errorf("exported methods of *T after the rewrite: %v, want [M]", methods)
	}
	if len(res.Sites) != 2 || res.Sites[0].ID != 7 || res.Sites[1].ID != 8 {
		t.Errorf("sites %s, want ids 7 and 8", dumpSites(res.Sites))
	}
	if !strings.Contains(string(res.EntrySource), "AddReset") || !strings.Contains(string(res.EntrySource), "= nil") {
		t.Errorf("entry file does not reset the shadow of V:\n%s", res.EntrySource)
	}
}

// lookup returns the signature of function name, or of method name of
// type recv, in pkg; nil if there is none.
func lookup(pkg *types.Package, recv, name string) *types.Signature {
	var obj types.Object
	if recv == "" {
		obj = pkg.Scope().Lookup(name)
	} else if tn, ok := pkg.Scope().Lookup(recv).(*types.TypeName); ok {
		obj, _, _ = types.LookupFieldOrMethod(types.NewPointer(tn.Type()), true, pkg, name)
	}
	if fn, ok := obj.(*types.Func); ok {
		return fn.Type().(*types.Signature)
	}
	return nil
}

// TestLineDirectivesStayInFile checks that the //line comments of a
// rewritten file name that file only: a synthesized call that passes a
// slice on to a variadic parameter once took its "..." position from the
// first file of the shared FileSet, which varied between runs and made
// Go's build cache miss.
func TestLineDirectivesStayInFile(t *testing.T) {
	src := `package u

func V(x int, ys ...int) int { return x + len(ys) }

type T struct{}

func (T) M(ys ...string) int { return len(ys) }

func F(x int) int {
	f := V
	return f(x, 1, 2) + T{}.M("a") + func(zs ...int) int { return len(zs) }(x)
}
`
	// Position 1 of the shared FileSet in another file, as in a run
	// that loaded other packages first.
	fset, _, unlock := lockImporter()
	fset.AddFile(filepath.Join(t.TempDir(), "first.go"), -1, 100)
	unlock()
	pkg, res := rewrite(t, src, "F")
	for path, out := range res.Files {
		if path != pkg.GoFiles[0] {
			continue
		}
		variadic := 0
		for _, line := range strings.Split(string(out), "\n") {
			if strings.Contains(line, "...)") {
				variadic++
			}
			file, ok := strings.CutPrefix(line, "//line ")
			if !ok {
				continue
			}
			if i := strings.LastIndex(file, ":"); i >= 0 {
				file = file[:i]
			}
			if file != path {
				t.Errorf("//line names %s in the rewrite of %s", file, path)
			}
		}
		if variadic == 0 {
			t.Fatal("no call passes a slice on with ...: the test does not exercise the wrappers")
		}
		return
	}
	t.Fatalf("no rewrite of %s", pkg.GoFiles[0])
}
