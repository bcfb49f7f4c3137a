package harness

import (
	"fmt"
	"go/constant"
	"go/parser"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/gocolic/gocolic/corpus"
)

// intBits gives the width of the integer types; int and uint are taken as
// 64 bits.
var intBits = map[string]struct {
	bits   uint
	signed bool
}{
	"int": {64, true}, "int8": {8, true}, "int16": {16, true}, "int32": {32, true}, "int64": {64, true},
	"uint": {64, false}, "uint8": {8, false}, "uint16": {16, false}, "uint32": {32, false}, "uint64": {64, false},
	"uintptr": {64, false},
}

// MakeValue converts a constant to a corpus value of type typ, which must
// be a basic type a fuzz target accepts (floats aside). The aliases byte
// and rune become uint8 and int32.
func MakeValue(typ string, c constant.Value) (corpus.Value, error) {
	typ = corpus.CanonicalType(typ)
	switch typ {
	case "bool":
		if c.Kind() != constant.Bool {
			return corpus.Value{}, fmt.Errorf("%s is not a bool", c)
		}
		return corpus.Value{Type: typ, Bool: constant.BoolVal(c)}, nil
	case "string", "[]byte":
		if c.Kind() != constant.String {
			return corpus.Value{}, fmt.Errorf("%s is not a string", c)
		}
		return corpus.Value{Type: typ, Bytes: []byte(constant.StringVal(c))}, nil
	case "float64", "float32":
		f := constant.ToFloat(c)
		if f.Kind() != constant.Float && f.Kind() != constant.Int {
			return corpus.Value{}, fmt.Errorf("%s is not a number", c)
		}
		v, _ := constant.Float64Val(f)
		if typ == "float32" {
			return corpus.Value{Type: typ, Float: uint64(math.Float32bits(float32(v)))}, nil
		}
		return corpus.Value{Type: typ, Float: math.Float64bits(v)}, nil
	}
	ib, ok := intBits[typ]
	if !ok {
		return corpus.Value{}, fmt.Errorf("unsupported parameter type %s", typ)
	}
	n := constant.ToInt(c)
	if n.Kind() != constant.Int {
		return corpus.Value{}, fmt.Errorf("%s is not an integer", c)
	}
	if ib.signed {
		v, exact := constant.Int64Val(n)
		if !exact || (ib.bits < 64 && (v < -1<<(ib.bits-1) || v >= 1<<(ib.bits-1))) {
			return corpus.Value{}, fmt.Errorf("%s overflows %s", n, typ)
		}
		return corpus.Value{Type: typ, Int: v}, nil
	}
	v, exact := constant.Uint64Val(n)
	if !exact || (ib.bits < 64 && v >= 1<<ib.bits) {
		return corpus.Value{}, fmt.Errorf("%s overflows %s", n, typ)
	}
	return corpus.Value{Type: typ, Uint: v}, nil
}

// ValueOf converts a Go literal as gocolic's report writes it (42, true,
// "x", []byte("x")) to a corpus value of type typ.
func ValueOf(typ, lit string) (corpus.Value, error) {
	e, err := parser.ParseExpr(lit)
	if err != nil {
		return corpus.Value{}, fmt.Errorf("bad literal %q: %w", lit, err)
	}
	c, err := constValue(e)
	if err != nil {
		return corpus.Value{}, err
	}
	return MakeValue(typ, c)
}

// NormalizeCorpus copies the corpus files of the directories srcs (missing
// ones are empty) into dst, rewriting the character literals rune('x') and
// byte('x') as integers int32(120) and uint8(120). It returns the number
// of lines rewritten. This works around a corpus reader that rejects the
// literal of the quote character itself, as gocolic's once did.
func NormalizeCorpus(srcs []string, dst string) (int, error) {
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return 0, err
	}
	rewritten := 0
	for k, src := range srcs {
		entries, err := os.ReadDir(src)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return 0, err
		}
		for _, e := range entries {
			if e.IsDir() {
				continue
			}
			path := filepath.Join(src, e.Name())
			data, err := os.ReadFile(path)
			if err != nil {
				return 0, err
			}
			vs, err := corpus.Parse(data)
			if err != nil {
				return 0, fmt.Errorf("%s: %w", path, err)
			}
			for i, v := range vs {
				if typ := corpus.CanonicalType(v.Type); typ != v.Type {
					vs[i].Type = typ
					rewritten++
				}
			}
			name := filepath.Join(dst, strconv.Itoa(k)+"-"+e.Name())
			if err := os.WriteFile(name, corpus.Format(vs), 0o644); err != nil {
				return 0, err
			}
		}
	}
	return rewritten, nil
}
