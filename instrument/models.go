// This file routes calls of modelled standard-library functions to their
// models in the runtime (rt/models.go). A model has the shape of a twin,
// so a call of one is rewritten like a call of a twin of this package:
// the runtime function takes V arguments and returns the real results
// followed by their shadows.

package instrument

import (
	"go/ast"
	"go/types"
)

// A model names the runtime function that stands for a library function.
type model struct {
	name string // in rt
	// site: the model takes a site for a check it records (an error
	// result, a length check), passed before the arguments.
	site bool
}

// models maps a function's qualified name (types.Func.FullName) to its
// model. Methods are keyed by their receiver type, as FullName writes
// them; their receiver is dropped, since the byte orders carry no state.
var models = map[string]model{
	"strings.HasPrefix":  {"StringsHasPrefix", false},
	"strings.HasSuffix":  {"StringsHasSuffix", false},
	"strings.Contains":   {"StringsContains", false},
	"strings.EqualFold":  {"StringsEqualFold", false},
	"strings.Index":      {"StringsIndex", false},
	"strings.TrimSpace":  {"StringsTrimSpace", false},
	"bytes.HasPrefix":    {"BytesHasPrefix", false},
	"bytes.HasSuffix":    {"BytesHasSuffix", false},
	"bytes.Contains":     {"BytesContains", false},
	"bytes.Equal":        {"BytesEqual", false},
	"bytes.EqualFold":    {"BytesEqualFold", false},
	"bytes.Index":        {"BytesIndex", false},
	"strings.Replace":    {"StringsReplace", true},
	"strings.ReplaceAll": {"StringsReplaceAll", true},
	"bytes.ReplaceAll":   {"BytesReplaceAll", true},
	"strings.Split":      {"StringsSplit", false},
	"strings.SplitN":     {"StringsSplitN", false},
	"bytes.Split":        {"BytesSplit", false},
	"bytes.SplitN":       {"BytesSplitN", false},

	"strings.NewReader": {"StringsNewReader", false},
	"bytes.NewReader":   {"BytesNewReader", false},
	"io.ReadAll":        {"IoReadAll", false},

	"strconv.Atoi":       {"StrconvAtoi", true},
	"strconv.ParseInt":   {"StrconvParseInt", true},
	"strconv.Itoa":       {"StrconvItoa", false},
	"strconv.FormatInt":  {"StrconvFormatInt", false},
	"strconv.FormatUint": {"StrconvFormatUint", false},

	"unicode.IsDigit":                 {"UnicodeIsDigit", false},
	"unicode.IsLetter":                {"UnicodeIsLetter", false},
	"unicode.IsUpper":                 {"UnicodeIsUpper", false},
	"unicode.IsLower":                 {"UnicodeIsLower", false},
	"unicode.IsSpace":                 {"UnicodeIsSpace", false},
	"unicode/utf8.DecodeRuneInString": {"Utf8DecodeRuneInString", false},
	"unicode/utf8.DecodeRune":         {"Utf8DecodeRune", false},
	"unicode/utf8.RuneLen":            {"Utf8RuneLen", false},

	"math/bits.OnesCount":       {"BitsOnesCount", false},
	"math/bits.OnesCount8":      {"BitsOnesCount8", false},
	"math/bits.OnesCount16":     {"BitsOnesCount16", false},
	"math/bits.OnesCount32":     {"BitsOnesCount32", false},
	"math/bits.OnesCount64":     {"BitsOnesCount64", false},
	"math/bits.Len":             {"BitsLen", false},
	"math/bits.Len8":            {"BitsLen8", false},
	"math/bits.Len16":           {"BitsLen16", false},
	"math/bits.Len32":           {"BitsLen32", false},
	"math/bits.Len64":           {"BitsLen64", false},
	"math/bits.LeadingZeros":    {"BitsLeadingZeros", false},
	"math/bits.LeadingZeros8":   {"BitsLeadingZeros8", false},
	"math/bits.LeadingZeros16":  {"BitsLeadingZeros16", false},
	"math/bits.LeadingZeros32":  {"BitsLeadingZeros32", false},
	"math/bits.LeadingZeros64":  {"BitsLeadingZeros64", false},
	"math/bits.TrailingZeros":   {"BitsTrailingZeros", false},
	"math/bits.TrailingZeros8":  {"BitsTrailingZeros8", false},
	"math/bits.TrailingZeros16": {"BitsTrailingZeros16", false},
	"math/bits.TrailingZeros32": {"BitsTrailingZeros32", false},
	"math/bits.TrailingZeros64": {"BitsTrailingZeros64", false},
	"math/bits.RotateLeft":      {"BitsRotateLeft", false},
	"math/bits.RotateLeft8":     {"BitsRotateLeft8", false},
	"math/bits.RotateLeft16":    {"BitsRotateLeft16", false},
	"math/bits.RotateLeft32":    {"BitsRotateLeft32", false},
	"math/bits.RotateLeft64":    {"BitsRotateLeft64", false},
	"math/bits.ReverseBytes16":  {"BitsReverseBytes16", false},
	"math/bits.ReverseBytes32":  {"BitsReverseBytes32", false},
	"math/bits.ReverseBytes64":  {"BitsReverseBytes64", false},

	"encoding/binary.Uvarint":               {"BinaryUvarint", false},
	"(encoding/binary.bigEndian).Uint16":    {"BinaryBigEndianUint16", true},
	"(encoding/binary.bigEndian).Uint32":    {"BinaryBigEndianUint32", true},
	"(encoding/binary.bigEndian).Uint64":    {"BinaryBigEndianUint64", true},
	"(encoding/binary.littleEndian).Uint16": {"BinaryLittleEndianUint16", true},
	"(encoding/binary.littleEndian).Uint32": {"BinaryLittleEndianUint32", true},
	"(encoding/binary.littleEndian).Uint64": {"BinaryLittleEndianUint64", true},

	"math.Float64bits":     {"MathFloat64bits", false},
	"math.Float64frombits": {"MathFloat64frombits", false},
	"math.Float32bits":     {"MathFloat32bits", false},
	"math.Float32frombits": {"MathFloat32frombits", false},
	"math.Abs":             {"MathAbs", false},
	"math.Signbit":         {"MathSignbit", false},
	"math.IsNaN":           {"MathIsNaN", false},
	"math.IsInf":           {"MathIsInf", false},
}

// modelTwin returns the twin description of fn's model, or nil when fn is
// not modelled.
func (ins *instrumenter) modelTwin(fn *types.Func) *twinInfo {
	m, ok := models[fn.FullName()]
	if !ok {
		return nil
	}
	if t, ok := ins.modelTwins[fn]; ok {
		return t
	}
	t := &twinInfo{fn: fn, name: m.name, model: true, site: m.site}
	t.setTracks(fn.Type().(*types.Signature))
	if ins.modelTwins == nil {
		ins.modelTwins = make(map[*types.Func]*twinInfo)
	}
	ins.modelTwins[fn] = t
	return t
}

// keepImportUsed notes the package-level name that fun, the function of a
// modelled call (pkg.F or pkg.Var.Method), reaches through its import, so
// that the rewritten file still uses that import once the call goes to
// the runtime instead.
func (ins *instrumenter) keepImportUsed(fun ast.Expr) {
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return
	}
	if inner, ok := sel.X.(*ast.SelectorExpr); ok {
		sel = inner // pkg.Var of pkg.Var.Method
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return
	}
	if _, isPkg := ins.info.Uses[id].(*types.PkgName); !isPkg {
		return
	}
	name := id.Name + "." + sel.Sel.Name
	if ins.keepUsed == nil {
		ins.keepUsed = make(map[string]bool)
	}
	ins.keepUsed[name] = true
}
