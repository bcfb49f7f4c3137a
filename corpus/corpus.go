// Package corpus reads and writes the files of Go's native fuzzing corpus:
// a "go test fuzz v1" header line, then one typed Go literal per line per
// argument, such as int(-3), string("a\n") or []byte("\x00").
package corpus

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Header is the first line of every corpus file.
const Header = "go test fuzz v1"

// Value is one argument of a corpus entry.
type Value struct {
	Type  string // the literal's type: int, uint8, string, []byte, bool, ...
	Int   int64  // signed integer types
	Uint  uint64 // unsigned integer types
	Bool  bool
	Bytes []byte // string and []byte
	// Float holds the IEEE-754 bits of float32 (low 32 bits) and float64
	// values, so that every NaN survives a round trip.
	Float uint64
}

// Parse decodes one corpus file.
func Parse(data []byte) ([]Value, error) {
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != Header {
		return nil, fmt.Errorf("corpus: missing %q header", Header)
	}
	var vs []Value
	for i, line := range lines[1:] {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		v, err := parseValue(line)
		if err != nil {
			return nil, fmt.Errorf("corpus: line %d: %w", i+2, err)
		}
		vs = append(vs, v)
	}
	return vs, nil
}

func parseValue(line string) (Value, error) {
	e, err := parser.ParseExpr(line)
	if err != nil {
		return Value{}, fmt.Errorf("not a Go expression: %q", line)
	}
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return Value{}, fmt.Errorf("not a typed literal: %q", line)
	}
	typ := exprString(call.Fun)
	arg := call.Args[0]
	// Unusual NaNs are written as their bits.
	switch typ {
	case "math.Float64frombits", "math.Float32frombits":
		lit, ok := arg.(*ast.BasicLit)
		bits, err := uint64(0), error(nil)
		if ok && lit.Kind == token.INT {
			bits, err = strconv.ParseUint(lit.Value, 0, 64)
		}
		if !ok || lit.Kind != token.INT || err != nil {
			return Value{}, fmt.Errorf("bad %s %q", typ, line)
		}
		if typ == "math.Float32frombits" {
			return Value{Type: "float32", Float: bits & 0xffffffff}, nil
		}
		return Value{Type: "float64", Float: bits}, nil
	}
	neg, pos := false, false
	if u, ok := arg.(*ast.UnaryExpr); ok && (u.Op == token.SUB || u.Op == token.ADD) {
		neg, pos, arg = u.Op == token.SUB, u.Op == token.ADD, u.X
	}
	v := Value{Type: typ}
	switch typ {
	case "float32", "float64":
		var f float64
		switch a := arg.(type) {
		case *ast.Ident:
			switch {
			case a.Name == "NaN" && !neg && !pos:
				f = math.NaN()
			case a.Name == "Inf":
				f = math.Inf(1)
			default:
				return Value{}, fmt.Errorf("bad %s %q", typ, line)
			}
		case *ast.BasicLit:
			if a.Kind != token.FLOAT && a.Kind != token.INT {
				return Value{}, fmt.Errorf("bad %s %q", typ, line)
			}
			bits := 64
			if typ == "float32" {
				bits = 32
			}
			var err error
			if f, err = strconv.ParseFloat(a.Value, bits); err != nil {
				return Value{}, fmt.Errorf("bad %s %q", typ, line)
			}
		default:
			return Value{}, fmt.Errorf("bad %s %q", typ, line)
		}
		if neg {
			f = -f
		}
		if typ == "float32" {
			v.Float = uint64(math.Float32bits(float32(f)))
		} else {
			v.Float = math.Float64bits(f)
		}
		return v, nil
	case "bool":
		id, ok := arg.(*ast.Ident)
		if !ok || (id.Name != "true" && id.Name != "false") {
			return Value{}, fmt.Errorf("bad bool %q", line)
		}
		v.Bool = id.Name == "true"
		return v, nil
	case "string", "[]byte":
		lit, ok := arg.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return Value{}, fmt.Errorf("bad %s %q", typ, line)
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil {
			return Value{}, fmt.Errorf("bad %s %q: %w", typ, line, err)
		}
		v.Bytes = []byte(s)
		return v, nil
	}
	lit, ok := arg.(*ast.BasicLit)
	if !ok || (lit.Kind != token.INT && lit.Kind != token.CHAR) {
		return Value{}, fmt.Errorf("unsupported literal %q", line)
	}
	text := lit.Value
	if lit.Kind == token.CHAR {
		// UnquoteChar, not Unquote: '\xff' is the byte 255, which Unquote
		// returns as a string that is not UTF-8.
		r, _, rest, err := strconv.UnquoteChar(text[1:len(text)-1], '\'')
		if err != nil || rest != "" {
			return Value{}, fmt.Errorf("bad rune %q", line)
		}
		text = strconv.Itoa(int(r))
	}
	switch typ {
	case "int", "int8", "int16", "int32", "int64", "rune":
		n, err := strconv.ParseInt(text, 0, 64)
		if neg {
			n = -n
		}
		if err != nil {
			// -9223372036854775808 does not fit before negation.
			if u, uerr := strconv.ParseUint(text, 0, 64); uerr == nil && neg && u == 1<<63 {
				n, err = -1<<63, nil
			}
		}
		if err != nil {
			return Value{}, fmt.Errorf("bad %s %q", typ, line)
		}
		v.Int = n
	case "uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "byte":
		n, err := strconv.ParseUint(text, 0, 64)
		if err != nil || neg {
			return Value{}, fmt.Errorf("bad %s %q", typ, line)
		}
		v.Uint = n
	default:
		return Value{}, fmt.Errorf("unsupported type %s in %q", typ, line)
	}
	return v, nil
}

func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.ArrayType:
		if e.Len == nil {
			return "[]" + exprString(e.Elt)
		}
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok {
			return x.Name + "." + e.Sel.Name
		}
	}
	return fmt.Sprintf("%T", e)
}

// ReadDir parses every file of a corpus directory, in name order. A
// missing directory is an empty corpus.
func ReadDir(dir string) ([][]Value, []string, error) {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("corpus: %w", err)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	var out [][]Value
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		p := filepath.Join(dir, e.Name())
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, nil, fmt.Errorf("corpus: %w", err)
		}
		vs, err := Parse(data)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", p, err)
		}
		out = append(out, vs)
		names = append(names, p)
	}
	return out, names, nil
}

// Format encodes a corpus entry.
func Format(vs []Value) []byte {
	var b bytes.Buffer
	b.WriteString(Header + "\n")
	for _, v := range vs {
		b.WriteString(v.Line())
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// Line returns v as its line of a corpus file, without the newline, such
// as uint32(7) or []byte("x").
func (v Value) Line() string {
	switch v.Type {
	case "bool":
		return fmt.Sprintf("bool(%t)", v.Bool)
	case "string", "[]byte":
		return fmt.Sprintf("%s(%s)", v.Type, strconv.Quote(string(v.Bytes)))
	case "float32":
		f := math.Float32frombits(uint32(v.Float))
		if f != f && uint32(v.Float) != math.Float32bits(float32(math.NaN())) {
			return fmt.Sprintf("math.Float32frombits(0x%x)", uint32(v.Float))
		}
		return fmt.Sprintf("float32(%v)", f)
	case "float64":
		f := math.Float64frombits(v.Float)
		if f != f && v.Float != math.Float64bits(math.NaN()) {
			return fmt.Sprintf("math.Float64frombits(0x%x)", v.Float)
		}
		return fmt.Sprintf("float64(%v)", f)
	case "int", "int8", "int16", "int32", "int64", "rune":
		return fmt.Sprintf("%s(%d)", v.Type, v.Int)
	default:
		return fmt.Sprintf("%s(%d)", v.Type, v.Uint)
	}
}

// CanonicalType returns the type a corpus line names without its aliases
// and spaces: uint8 for byte, int32 for rune, the others as they are. A
// Value keeps its number in the same field (Uint, Int) under either name.
func CanonicalType(typ string) string {
	switch typ = strings.ReplaceAll(typ, " ", ""); typ {
	case "byte":
		return "uint8"
	case "rune":
		return "int32"
	}
	return typ
}

// WriteDir writes entries as the files of the corpus directory dir, which
// it creates, named entry000000, entry000001, ... so that the name order
// (the order ReadDir and gocolic -replay read them in) is theirs.
func WriteDir(dir string, entries [][]Value) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("corpus: %w", err)
	}
	for i, e := range entries {
		name := filepath.Join(dir, fmt.Sprintf("entry%06d", i))
		if err := os.WriteFile(name, Format(e), 0o644); err != nil {
			return fmt.Errorf("corpus: %w", err)
		}
	}
	return nil
}
