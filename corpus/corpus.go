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
	neg := false
	if u, ok := arg.(*ast.UnaryExpr); ok && u.Op == token.SUB {
		neg, arg = true, u.X
	}
	v := Value{Type: typ}
	switch typ {
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
		s, err := strconv.Unquote(text)
		rs := []rune(s)
		if err != nil || len(rs) != 1 {
			return Value{}, fmt.Errorf("bad rune %q", line)
		}
		text = strconv.Itoa(int(rs[0]))
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
		switch v.Type {
		case "bool":
			fmt.Fprintf(&b, "bool(%t)\n", v.Bool)
		case "string", "[]byte":
			fmt.Fprintf(&b, "%s(%s)\n", v.Type, strconv.Quote(string(v.Bytes)))
		case "int", "int8", "int16", "int32", "int64", "rune":
			fmt.Fprintf(&b, "%s(%d)\n", v.Type, v.Int)
		default:
			fmt.Fprintf(&b, "%s(%d)\n", v.Type, v.Uint)
		}
	}
	return b.Bytes()
}
