package harness

import (
	"fmt"
	"go/constant"
	"go/parser"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Value is one argument of a corpus entry in Go's "go test fuzz v1"
// format: a basic type and the literal converted to it.
type Value struct {
	Type string // bool, string, []byte, int, int8 ... uint64, uintptr
	Text string // a Go literal: 42, -3, true, "a\n"
}

// Line returns the corpus line of v, such as uint32(7) or []byte("x").
func (v Value) Line() string { return v.Type + "(" + v.Text + ")" }

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

// canonicalType maps the aliases byte and rune to uint8 and int32.
func canonicalType(typ string) string {
	switch typ = strings.ReplaceAll(typ, " ", ""); typ {
	case "byte":
		return "uint8"
	case "rune":
		return "int32"
	}
	return typ
}

// MakeValue converts a constant to a corpus value of type typ, which must
// be a basic type a fuzz target accepts (floats aside).
func MakeValue(typ string, c constant.Value) (Value, error) {
	typ = canonicalType(typ)
	switch typ {
	case "bool":
		if c.Kind() != constant.Bool {
			return Value{}, fmt.Errorf("%s is not a bool", c)
		}
		return Value{typ, strconv.FormatBool(constant.BoolVal(c))}, nil
	case "string", "[]byte":
		if c.Kind() != constant.String {
			return Value{}, fmt.Errorf("%s is not a string", c)
		}
		return Value{typ, strconv.Quote(constant.StringVal(c))}, nil
	}
	ib, ok := intBits[typ]
	if !ok {
		return Value{}, fmt.Errorf("unsupported parameter type %s", typ)
	}
	n := constant.ToInt(c)
	if n.Kind() != constant.Int {
		return Value{}, fmt.Errorf("%s is not an integer", c)
	}
	if ib.signed {
		v, exact := constant.Int64Val(n)
		if !exact || (ib.bits < 64 && (v < -1<<(ib.bits-1) || v >= 1<<(ib.bits-1))) {
			return Value{}, fmt.Errorf("%s overflows %s", n, typ)
		}
		return Value{typ, strconv.FormatInt(v, 10)}, nil
	}
	v, exact := constant.Uint64Val(n)
	if !exact || (ib.bits < 64 && v >= 1<<ib.bits) {
		return Value{}, fmt.Errorf("%s overflows %s", n, typ)
	}
	return Value{typ, strconv.FormatUint(v, 10)}, nil
}

// ValueOf converts a Go literal as gocolic's report writes it (42, true,
// "x", []byte("x")) to a corpus value of type typ.
func ValueOf(typ, lit string) (Value, error) {
	e, err := parser.ParseExpr(lit)
	if err != nil {
		return Value{}, fmt.Errorf("bad literal %q: %w", lit, err)
	}
	c, err := constValue(e)
	if err != nil {
		return Value{}, err
	}
	return MakeValue(typ, c)
}

// WriteCorpus writes entries as corpus files into dir, which it creates.
// File names keep the entries' order: gocolic replays files in name order.
func WriteCorpus(dir string, entries [][]Value) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i, e := range entries {
		var b strings.Builder
		b.WriteString("go test fuzz v1\n")
		for _, v := range e {
			b.WriteString(v.Line() + "\n")
		}
		name := filepath.Join(dir, fmt.Sprintf("entry%06d", i))
		if err := os.WriteFile(name, []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// charLineRE matches the corpus lines Go's fuzzer writes for int32 and
// uint8 values: rune('x') and byte('\x00').
var charLineRE = regexp.MustCompile(`^(rune|byte)\('(.*)'\)$`)

// NormalizeCorpus copies the corpus files of the directories srcs (missing
// ones are empty) into dst, rewriting the character literals rune('x') and
// byte('x') as integers int32(120) and uint8(120). It returns the number
// of lines rewritten. This works around gocolic's corpus reader, which
// rejects the literal of the quote character itself (see BENCHMARKS.md).
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
			data, err := os.ReadFile(filepath.Join(src, e.Name()))
			if err != nil {
				return 0, err
			}
			lines := strings.Split(string(data), "\n")
			for i, line := range lines {
				m := charLineRE.FindStringSubmatch(strings.TrimSpace(line))
				if m == nil {
					continue
				}
				r, _, tail, err := strconv.UnquoteChar(m[2], '\'')
				if err != nil || tail != "" {
					return 0, fmt.Errorf("%s: bad character literal %q", filepath.Join(src, e.Name()), line)
				}
				lines[i] = fmt.Sprintf("%s(%d)", canonicalType(m[1]), r)
				rewritten++
			}
			name := filepath.Join(dst, fmt.Sprintf("%d-%s", k, e.Name()))
			if err := os.WriteFile(name, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
				return 0, err
			}
		}
	}
	return rewritten, nil
}
