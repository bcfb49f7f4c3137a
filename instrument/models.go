// This file routes calls of modelled standard-library functions to their
// models in the runtime (rt/models_<package>.go). A model has the shape
// of a twin, so a call of one is rewritten like a call of a twin of this
// package: the runtime function takes V arguments and returns the real
// results followed by their shadows.

package instrument

import (
	"go/ast"
	"go/types"
	"path"
	"strings"
)

// A model describes the runtime function that stands for a library
// function; its name follows from the function's (modelName).
type model struct {
	// site: the model takes a site for a check it records (an error
	// result, a length check) or a concretisation it counts, passed
	// before the arguments.
	site bool
}

// models maps a function's qualified name (types.Func.FullName) to its
// model: this table is the one list of modelled functions, and each
// model is the function of rt named modelName(key). Methods are keyed by
// their receiver type, as FullName writes them; their receiver is
// dropped, since the byte orders carry no state.
var models = map[string]model{
	"strings.HasPrefix":  {false},
	"strings.HasSuffix":  {false},
	"strings.Contains":   {false},
	"strings.EqualFold":  {false},
	"strings.Index":      {false},
	"strings.TrimSpace":  {false},
	"strings.TrimPrefix": {false},
	"strings.TrimSuffix": {false},
	"strings.CutPrefix":  {false},
	"strings.CutSuffix":  {false},
	"bytes.HasPrefix":    {false},
	"bytes.HasSuffix":    {false},
	"bytes.Contains":     {false},
	"bytes.Equal":        {false},
	"bytes.EqualFold":    {false},
	"bytes.Index":        {false},
	"strings.Replace":    {true},
	"strings.ReplaceAll": {true},
	"bytes.ReplaceAll":   {true},
	"strings.Split":      {false},
	"strings.SplitN":     {false},
	"bytes.Split":        {false},
	"bytes.SplitN":       {false},

	"internal/bytealg.IndexByteString":     {false},
	"internal/bytealg.IndexByte":           {false},
	"internal/bytealg.LastIndexByteString": {false},
	"internal/bytealg.LastIndexByte":       {false},
	"internal/bytealg.CountString":         {false},
	"internal/bytealg.Count":               {false},
	"internal/bytealg.IndexString":         {false},
	"internal/bytealg.Index":               {false},
	"internal/bytealg.CompareString":       {false},
	"internal/bytealg.Compare":             {false},
	"internal/stringslite.Index":           {false},
	"internal/stringslite.IndexByte":       {false},
	"internal/stringslite.HasPrefix":       {false},
	"internal/stringslite.HasSuffix":       {false},
	"internal/stringslite.Cut":             {false},
	"internal/stringslite.TrimPrefix":      {false},
	"internal/stringslite.TrimSuffix":      {false},
	"internal/stringslite.CutPrefix":       {false},
	"internal/stringslite.CutSuffix":       {false},
	"internal/stringslite.Clone":           {false},

	"strings.NewReader":       {false},
	"bytes.NewReader":         {false},
	"io.ReadAll":              {false},
	"hash/crc32.Update":       {true},
	"hash/crc32.Checksum":     {true},
	"hash/crc32.ChecksumIEEE": {true},
	"io.ReadFull":             {true},
	"io.ReadAtLeast":          {true},

	"strconv.Atoi":       {true},
	"strconv.ParseInt":   {true},
	"strconv.Itoa":       {false},
	"strconv.FormatInt":  {false},
	"strconv.FormatUint": {false},

	"unicode.IsDigit":                 {false},
	"unicode.IsLetter":                {false},
	"unicode.IsUpper":                 {false},
	"unicode.IsLower":                 {false},
	"unicode.IsSpace":                 {false},
	"unicode/utf8.DecodeRuneInString": {true},
	"unicode/utf8.DecodeRune":         {true},
	"unicode/utf8.RuneLen":            {false},

	"math/bits.OnesCount":       {false},
	"math/bits.OnesCount8":      {false},
	"math/bits.OnesCount16":     {false},
	"math/bits.OnesCount32":     {false},
	"math/bits.OnesCount64":     {false},
	"math/bits.Len":             {false},
	"math/bits.Len8":            {false},
	"math/bits.Len16":           {false},
	"math/bits.Len32":           {false},
	"math/bits.Len64":           {false},
	"math/bits.LeadingZeros":    {false},
	"math/bits.LeadingZeros8":   {false},
	"math/bits.LeadingZeros16":  {false},
	"math/bits.LeadingZeros32":  {false},
	"math/bits.LeadingZeros64":  {false},
	"math/bits.TrailingZeros":   {false},
	"math/bits.TrailingZeros8":  {false},
	"math/bits.TrailingZeros16": {false},
	"math/bits.TrailingZeros32": {false},
	"math/bits.TrailingZeros64": {false},
	"math/bits.RotateLeft":      {false},
	"math/bits.RotateLeft8":     {false},
	"math/bits.RotateLeft16":    {false},
	"math/bits.RotateLeft32":    {false},
	"math/bits.RotateLeft64":    {false},
	"math/bits.ReverseBytes16":  {false},
	"math/bits.ReverseBytes32":  {false},
	"math/bits.ReverseBytes64":  {false},
	"math/bits.Mul64":           {false},

	"encoding/binary.Uvarint":               {false},
	"(encoding/binary.bigEndian).Uint16":    {true},
	"(encoding/binary.bigEndian).Uint32":    {true},
	"(encoding/binary.bigEndian).Uint64":    {true},
	"(encoding/binary.littleEndian).Uint16": {true},
	"(encoding/binary.littleEndian).Uint32": {true},
	"(encoding/binary.littleEndian).Uint64": {true},

	"math.Float64bits":     {false},
	"math.Float64frombits": {false},
	"math.Float32bits":     {false},
	"math.Float32frombits": {false},
	"math.Abs":             {false},
	"math.Signbit":         {false},
	"math.IsNaN":           {false},
	"math.IsInf":           {false},
}

// libModels are the packages whose models take the library function
// itself as their first argument (after the site) and call it for the
// concrete result. The runtime must not import strings and bytes:
// gocolic instruments them in place, above the runtime (build/floor.go),
// and a model that imported its package would make an import cycle;
// internal/bytealg and internal/stringslite, where their searches end,
// only standard packages may import. strconv, unicode and unicode/utf8, floor packages
// gocolic instruments as copies (build/stdcopy.go), hand what they leave
// concrete to the copy's twin of the function. hash/crc32's models take
// the function for its concrete result, which its assembly computes.
var libModels = map[string]bool{"strings": true, "bytes": true, "internal/bytealg": true, "internal/stringslite": true, "strconv": true, "unicode": true, "unicode/utf8": true, "hash/crc32": true}

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
	t := &twinInfo{fn: fn, name: modelName(fn.FullName()), model: true, site: m.site, lib: libModels[fn.Pkg().Path()]}
	t.setTracks(fn.Type().(*types.Signature))
	if ins.modelTwins == nil {
		ins.modelTwins = make(map[*types.Func]*twinInfo)
	}
	ins.modelTwins[fn] = t
	return t
}

// modelName returns the name of the model in rt of the function whose
// qualified name (types.Func.FullName) is fullName: the last element of
// its package path, the receiver's type name for a method, and its own
// name, each capitalised: strconv.Atoi is rt.StrconvAtoi, unicode/utf8.RuneLen
// rt.Utf8RuneLen, (encoding/binary.bigEndian).Uint16
// rt.BinaryBigEndianUint16. Models in rt are grouped in files by package
// (rt/models_<package>.go).
func modelName(fullName string) string {
	recv := ""
	if strings.HasPrefix(fullName, "(") {
		end := strings.Index(fullName, ").")
		recv, fullName = strings.TrimPrefix(fullName[1:end], "*"), fullName[end+2:]
		dot := strings.LastIndex(recv, ".")
		fullName = recv[:dot] + "." + upperFirst(recv[dot+1:]) + fullName
	}
	dot := strings.LastIndex(fullName, ".")
	pkg, name := fullName[:dot], fullName[dot+1:]
	return upperFirst(path.Base(pkg)) + name
}

// upperFirst returns s with its first letter in upper case.
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
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
