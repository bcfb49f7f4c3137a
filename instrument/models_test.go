package instrument

import (
	"go/ast"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gocolic/gocolic/load"
	"github.com/gocolic/gocolic/rt"
	"golang.org/x/tools/go/packages"
)

// modelCalls has one call of every modelled function, by the name of its
// model, in a form the rewrite tracks: tracked arguments of the
// parameter's exact type and a use of the results.
var modelCalls = map[string]string{
	"StringsHasPrefix":  `strings.HasPrefix(s, "a")`,
	"StringsHasSuffix":  `strings.HasSuffix(s, t)`,
	"StringsContains":   `strings.Contains(s, "b")`,
	"StringsEqualFold":  `strings.EqualFold(s, "Go")`,
	"StringsIndex":      `strings.Index(s, t) > 1`,
	"StringsTrimSpace":  `strings.TrimSpace(s) == "x"`,
	"StringsTrimPrefix": `strings.TrimPrefix(s, "a") == "x"`,
	"StringsTrimSuffix": `strings.TrimSuffix(s, t) == "x"`,
	"BytesHasPrefix":    `bytes.HasPrefix(b, b)`,
	"BytesHasSuffix":    `bytes.HasSuffix(b, []byte("x"))`,
	"BytesContains":     `bytes.Contains(b, b)`,
	"BytesEqual":        `bytes.Equal(b, b)`,
	"BytesEqualFold":    `bytes.EqualFold(b, b)`,
	"BytesIndex":        `bytes.Index(b, b) == 2`,
	"StringsReplace":    `strings.Replace(s, "a", "b", 2) == "bb"`,
	"StringsReplaceAll": `strings.ReplaceAll(s, t, "") == "x"`,
	"BytesReplaceAll":   `len(bytes.ReplaceAll(b, []byte("-"), nil)) == 2`,
	"StringsSplit":      `len(strings.Split(s, ",")) == 3`,
	"StringsSplitN":     `strings.SplitN(s, ",", 2)[1] == "x"`,
	"BytesSplit":        `len(bytes.Split(b, []byte(","))) == 3`,
	"BytesSplitN":       `len(bytes.SplitN(b, []byte{','}, 2)[0]) == 1`,

	"BinaryUvarint":    `func() bool { v, n := binary.Uvarint(b); return v == 3 && n == 1 }()`,
	"StringsNewReader": `strings.NewReader(s).Len() == 2`,
	"BytesNewReader":   `bytes.NewReader(b).Len() == 2`,
	"IoReadAll":        `func() bool { d, _ := io.ReadAll(os.Stdin); return len(d) == 2 }()`,

	"Crc32ChecksumIEEE": `crc32.ChecksumIEEE(b) == 7`,
	"Crc32Checksum":     `crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)) == 7`,
	"Crc32Update":       `crc32.Update(u32, crc32.IEEETable, b) == 7`,

	"StrconvItoa":       `strconv.Itoa(int(u)) == "12"`,
	"StrconvFormatInt":  `strconv.FormatInt(int64(u), 10) == "12"`,
	"StrconvFormatUint": `strconv.FormatUint(u64, 10) == "12"`,

	"UnicodeIsDigit":  `unicode.IsDigit(r)`,
	"UnicodeIsLetter": `unicode.IsLetter(r)`,
	"UnicodeIsUpper":  `unicode.IsUpper(r)`,
	"UnicodeIsLower":  `unicode.IsLower(r)`,
	"UnicodeIsSpace":  `unicode.IsSpace(r)`,
	"Utf8RuneLen":     `utf8.RuneLen(r) == 2`,

	"BitsOnesCount":       `bits.OnesCount(u) == 3`,
	"BitsOnesCount8":      `bits.OnesCount8(u8) == 3`,
	"BitsOnesCount16":     `bits.OnesCount16(u16) == 3`,
	"BitsOnesCount32":     `bits.OnesCount32(u32) == 3`,
	"BitsOnesCount64":     `bits.OnesCount64(u64) == 3`,
	"BitsLen":             `bits.Len(u) == 3`,
	"BitsLen8":            `bits.Len8(u8) == 3`,
	"BitsLen16":           `bits.Len16(u16) == 3`,
	"BitsLen32":           `bits.Len32(u32) == 3`,
	"BitsLen64":           `bits.Len64(u64) == 3`,
	"BitsLeadingZeros":    `bits.LeadingZeros(u) == 3`,
	"BitsLeadingZeros8":   `bits.LeadingZeros8(u8) == 3`,
	"BitsLeadingZeros16":  `bits.LeadingZeros16(u16) == 3`,
	"BitsLeadingZeros32":  `bits.LeadingZeros32(u32) == 3`,
	"BitsLeadingZeros64":  `bits.LeadingZeros64(u64) == 3`,
	"BitsTrailingZeros":   `bits.TrailingZeros(u) == 3`,
	"BitsTrailingZeros8":  `bits.TrailingZeros8(u8) == 3`,
	"BitsTrailingZeros16": `bits.TrailingZeros16(u16) == 3`,
	"BitsTrailingZeros32": `bits.TrailingZeros32(u32) == 3`,
	"BitsTrailingZeros64": `bits.TrailingZeros64(u64) == 3`,
	"BitsRotateLeft":      `bits.RotateLeft(u, 3) == 3`,
	"BitsRotateLeft8":     `bits.RotateLeft8(u8, 3) == 3`,
	"BitsRotateLeft16":    `bits.RotateLeft16(u16, 3) == 3`,
	"BitsRotateLeft32":    `bits.RotateLeft32(u32, 3) == 3`,
	"BitsRotateLeft64":    `bits.RotateLeft64(u64, 3) == 3`,
	"BitsReverseBytes16":  `bits.ReverseBytes16(u16) == 3`,
	"BitsReverseBytes32":  `bits.ReverseBytes32(u32) == 3`,
	"BitsReverseBytes64":  `bits.ReverseBytes64(u64) == 3`,

	"BinaryBigEndianUint16":    `binary.BigEndian.Uint16(b) == 3`,
	"BinaryBigEndianUint32":    `binary.BigEndian.Uint32(b) == 3`,
	"BinaryBigEndianUint64":    `binary.BigEndian.Uint64(b) == 3`,
	"BinaryLittleEndianUint16": `binary.LittleEndian.Uint16(b) == 3`,
	"BinaryLittleEndianUint32": `binary.LittleEndian.Uint32(b) == 3`,
	"BinaryLittleEndianUint64": `binary.LittleEndian.Uint64(b) == 3`,

	"MathFloat64bits":     `math.Float64bits(x) == 3`,
	"MathFloat64frombits": `math.Float64frombits(u64) == 3`,
	"MathFloat32bits":     `math.Float32bits(float32(x)) == 3`,
	"MathFloat32frombits": `math.Float32frombits(u32) == 3`,
	"MathAbs":             `math.Abs(x) > 2`,
	"MathSignbit":         `math.Signbit(x)`,
	"MathIsNaN":           `math.IsNaN(x)`,
	"MathIsInf":           `math.IsInf(x, 1)`,
}

// modelStmts are the calls with several results, as statements.
var modelStmts = map[string]string{
	"StringsCutPrefix":       "if r, ok := strings.CutPrefix(s, \"a\"); ok && r == \"x\" {\n\t\tk++\n\t}",
	"StringsCutSuffix":       "if r, ok := strings.CutSuffix(s, t); ok && r == \"x\" {\n\t\tk++\n\t}",
	"StrconvAtoi":            "if n, err := strconv.Atoi(s); err == nil && n == 7 {\n\t\tk++\n\t}",
	"StrconvParseInt":        "if n, err := strconv.ParseInt(s, 10, 32); err == nil && n == 7 {\n\t\tk++\n\t}",
	"Utf8DecodeRuneInString": "if c, size := utf8.DecodeRuneInString(s); c == 'é' && size == 2 {\n\t\tk++\n\t}",
	"Utf8DecodeRune":         "if c, size := utf8.DecodeRune(b); c == 'x' && size == 1 {\n\t\tk++\n\t}",
	"BitsMul64":              "if hi, lo := bits.Mul64(u64, 7); hi == 1 && lo == 2 {\n\t\tk++\n\t}",
	"IoReadFull":             "if n, err := io.ReadFull(os.Stdin, b); err == nil && n == 2 {\n\t\tk++\n\t}",
	"IoReadAtLeast":          "if n, err := io.ReadAtLeast(os.Stdin, b, 1); err == nil && n == 2 {\n\t\tk++\n\t}",
}

// TestModelCalls checks that every modelled function is rewritten to its
// model (and so that each model has the signature the rewrite expects:
// the rewritten code must type-check against the runtime), that models
// with a check get a site, and that imports used only by modelled calls
// stay used.
func TestModelCalls(t *testing.T) {
	if n := len(modelCalls) + len(modelStmts) + len(internalModels); n != len(models) {
		t.Fatalf("the test calls %d models, the table has %d", n, len(models))
	}
	var body strings.Builder
	for fn := range models {
		if internalModel(fn) {
			continue // only the standard library calls them: TestInternalModels
		}
		name := modelName(fn)
		if c, ok := modelCalls[name]; ok {
			body.WriteString("\tif " + c + " {\n\t\tk++\n\t}\n")
		} else if s, ok := modelStmts[name]; ok {
			body.WriteString("\t" + s + "\n")
		} else {
			t.Fatalf("no call of %s in the test", name)
		}
	}
	src := `package u

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"io"
	"math"
	"math/bits"
	"os"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

func F(s, t string, b []byte, r rune, u uint, u8 uint8, u16 uint16, u32 uint32, u64 uint64, x float64) int {
	k := 0
` + body.String() + `	return k
}
`
	pkg := loadSource(t, map[string]string{"u.go": src})
	res, err := Package(pkg, config("F"))
	if err != nil {
		t.Fatal(err)
	}
	rw := recheck(t, res)
	if len(rw.errs) > 0 {
		t.Fatalf("rewritten code does not type-check: %v", rw.errs)
	}
	if len(res.Opaque) > 0 {
		t.Errorf("modelled calls became opaque: %v", res.Opaque)
	}
	calls := map[string]int{}
	sited := map[string]bool{}
	for _, f := range rw.files {
		ast.Inspect(f, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if sel, ok := c.Fun.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == runtimeAlias {
					calls[sel.Sel.Name]++
					if len(c.Args) > 0 {
						if lit, ok := c.Args[0].(*ast.BasicLit); ok && lit.Kind.String() == "INT" {
							sited[sel.Sel.Name] = true
						}
					}
				}
			}
			return true
		})
	}
	for fn, m := range models {
		if internalModel(fn) {
			continue
		}
		name := modelName(fn)
		if calls[name] != 1 {
			t.Errorf("%s: %d calls of rt.%s, want 1", fn, calls[name], name)
		}
		if sited[name] != m.site {
			t.Errorf("%s: site argument %v, want %v", fn, sited[name], m.site)
		}
	}
}

// TestModelNames checks the rule that names a model after the function
// it stands for, and that the models table and rt's models agree: every
// entry's model is declared in rt, and every exported function of rt's
// model files (models*.go) is the model of an entry.
func TestModelNames(t *testing.T) {
	for _, c := range []struct{ fn, want string }{
		{"strconv.Atoi", "StrconvAtoi"},
		{"unicode/utf8.RuneLen", "Utf8RuneLen"},
		{"math/bits.OnesCount8", "BitsOnesCount8"},
		{"io.ReadAll", "IoReadAll"},
		{"(encoding/binary.bigEndian).Uint16", "BinaryBigEndianUint16"},
		{"(*example.com/p.reader).Read", "PReaderRead"},
	} {
		if got := modelName(c.fn); got != c.want {
			t.Errorf("modelName(%q) = %s, want %s", c.fn, got, c.want)
		}
	}
	decls := rtDecls(t)
	named := map[string]bool{}
	for fn := range models {
		name := modelName(fn)
		named[name] = true
		if !decls[name] {
			t.Errorf("%s: rt declares no model %s", fn, name)
		}
	}
	for _, name := range rtModelFuncs(t) {
		if !named[name] {
			t.Errorf("rt.%s is in a model file but models has no entry for it", name)
		}
	}
}

// rtModelFuncs returns the exported functions of rt's model files.
func rtModelFuncs(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, f := range rtFiles(t, "models*.go") {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.IsExported() {
				out = append(out, fd.Name.Name)
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("found no models in rt")
	}
	return out
}

// TestModelKeepsImport checks a file whose only use of a package is a
// modelled call: the import must stay used after the call goes to the
// runtime.
func TestModelKeepsImport(t *testing.T) {
	pkg := loadSource(t, map[string]string{
		"u.go": "package u\n\nimport \"unicode\"\n\nfunc F(r rune) bool { return unicode.IsDigit(r) }\n",
		"v.go": "package u\n\nimport \"encoding/binary\"\n\nfunc G(b []byte) bool { return binary.BigEndian.Uint16(b) == 7 }\n",
	})
	res, err := Package(pkg, config("F"))
	if err != nil {
		t.Fatal(err)
	}
	if rw := recheck(t, res); len(rw.errs) > 0 {
		t.Fatalf("rewritten code does not type-check: %v", rw.errs)
	}
}

// TestModelsBeforeTwins checks the choice between a model and the twin of
// an instrumented standard package: with strings instrumented as a
// support package (as a run does by default), the target's call of a
// modelled function (strings.Index) still goes to its model, given the
// library function, and so do strings' own calls of it; a function
// without a model (strings.Fields) goes to strings' twin.
func TestModelsBeforeTwins(t *testing.T) {
	if testing.Short() {
		t.Skip("loads strings with the go command")
	}
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.24\n",
		"p.go":   "package p\n\nimport \"strings\"\n\nfunc F(s string) int {\n\tif strings.Index(s, \"ab\") == 3 {\n\t\treturn 1\n\t}\n\treturn len(strings.Fields(s))\n}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkgs, err := packages.Load(&packages.Config{Mode: load.Mode, Dir: dir}, ".")
	if err != nil || len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		t.Fatalf("loading: %v %v", err, pkgs)
	}
	strs := pkgs[0].Imports["strings"]
	sup, err := Package(strs, Config{RuntimePath: rt.ImportPath, Support: true})
	if err != nil {
		t.Fatal(err)
	}
	var own string
	for path, src := range sup.Files {
		if filepath.Base(path) == "strings.go" {
			own = string(src)
		}
	}
	if !strings.Contains(own, "StringsIndex(Index, ") {
		t.Errorf("strings' own calls of Index do not go to the model given Index")
	}
	res, err := Package(pkgs[0], Config{RuntimePath: rt.ImportPath, Entry: "F", Imported: sup.Exports})
	if err != nil {
		t.Fatal(err)
	}
	var target string
	for _, src := range res.Files {
		target += string(src)
	}
	for _, want := range []string{"StringsIndex(strings.Index, ", "strings.Gcl_Fields("} {
		if !strings.Contains(target, want) {
			t.Errorf("the target's rewrite has no %s:\n%s", want, target)
		}
	}
	if strings.Contains(target, "strings.Gcl_Index(") {
		t.Errorf("the target calls strings' twin of Index, not its model:\n%s", target)
	}
}

// internalModels are the models of internal packages, by the standard
// package whose instrumented source calls them (go1.26).
var internalModels = map[string]string{
	"internal/bytealg.IndexByteString":     "bytes",
	"internal/bytealg.IndexByte":           "bytes",
	"internal/bytealg.LastIndexByteString": "strings",
	"internal/bytealg.LastIndexByte":       "bytes",
	"internal/bytealg.CountString":         "strings",
	"internal/bytealg.Count":               "bytes",
	"internal/bytealg.IndexString":         "strings",
	"internal/bytealg.Index":               "bytes",
	"internal/bytealg.CompareString":       "strings",
	"internal/bytealg.Compare":             "bytes",
	"internal/stringslite.Index":           "strings",
	"internal/stringslite.IndexByte":       "strings",
	"internal/stringslite.HasPrefix":       "strings",
	"internal/stringslite.HasSuffix":       "strings",
	"internal/stringslite.Cut":             "strings",
	"internal/stringslite.TrimPrefix":      "strings",
	"internal/stringslite.TrimSuffix":      "strings",
	"internal/stringslite.CutPrefix":       "strings",
	"internal/stringslite.CutSuffix":       "strings",
	"internal/stringslite.Clone":           "strings",
}

// internalModel reports whether fn, a key of models, is of an internal
// package, which no target can call.
func internalModel(fn string) bool { return strings.HasPrefix(fn, "internal/") }

// TestInternalModels checks that strings and bytes, instrumented in place,
// call the models of the internal functions their searches end in, given
// the library function: bytealg.IndexByteString(s, c) becomes
// BytealgIndexByteString(bytealg.IndexByteString, ...).
func TestInternalModels(t *testing.T) {
	if testing.Short() {
		t.Skip("loads strings and bytes with the go command")
	}
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.24\n",
		"p.go":   "package p\n\nimport (\n\t\"bytes\"\n\t\"strings\"\n)\n\nfunc F(s string) bool { return strings.Contains(s, \"a\") || bytes.Contains([]byte(s), nil) }\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkgs, err := packages.Load(&packages.Config{Mode: load.Mode, Dir: dir}, ".")
	if err != nil || len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		t.Fatalf("loading: %v %v", err, pkgs)
	}
	rewritten := map[string]string{}
	for _, path := range []string{"strings", "bytes"} {
		sup, err := Package(pkgs[0].Imports[path], Config{RuntimePath: rt.ImportPath, Support: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, src := range sup.Files {
			rewritten[path] += string(src)
		}
	}
	for _, fn := range slices.Sorted(maps.Keys(models)) {
		if !internalModel(fn) {
			continue
		}
		caller, ok := internalModels[fn]
		if !ok {
			t.Errorf("%s: no caller in internalModels", fn)
			continue
		}
		lib := path.Base(fn[:strings.LastIndex(fn, ".")]) + fn[strings.LastIndex(fn, "."):]
		if want := modelName(fn) + "(" + lib + ", "; !strings.Contains(rewritten[caller], want) {
			t.Errorf("%s: instrumented %s has no call %s", fn, caller, want)
		}
	}
}
