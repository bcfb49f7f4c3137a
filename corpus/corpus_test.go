package corpus

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []Value
	}{
		{"ints", "go test fuzz v1\nint(-3)\nint8(-128)\nuint32(4294967295)\nint64(-9223372036854775808)\n",
			[]Value{{Type: "int", Int: -3}, {Type: "int8", Int: -128}, {Type: "uint32", Uint: 4294967295}, {Type: "int64", Int: -1 << 63}}},
		{"strings", "go test fuzz v1\nstring(\"a\\n\\x00\")\n[]byte(\"\\xff\")\n",
			[]Value{{Type: "string", Bytes: []byte("a\n\x00")}, {Type: "[]byte", Bytes: []byte{0xff}}}},
		{"runes and bytes", "go test fuzz v1\nrune('\\'')\nbyte('a')\nint32(39)\nbool(true)\n",
			[]Value{{Type: "rune", Int: '\''}, {Type: "byte", Uint: 'a'}, {Type: "int32", Int: 39}, {Type: "bool", Bool: true}}},
		{"hex", "go test fuzz v1\nuint16(0xCAFE)\n", []Value{{Type: "uint16", Uint: 0xCAFE}}},
		{"escaped characters", "go test fuzz v1\nbyte('\\xff')\nrune('\\u00e9')\nbyte('\\n')\nrune('é')\n",
			[]Value{{Type: "byte", Uint: 0xff}, {Type: "rune", Int: 0xe9}, {Type: "byte", Uint: '\n'}, {Type: "rune", Int: 0xe9}}},
		{"floats", "go test fuzz v1\nfloat64(1.5)\nfloat64(-0)\nfloat32(-2.5e-3)\nfloat64(3)\n",
			[]Value{{Type: "float64", Float: math.Float64bits(1.5)}, {Type: "float64", Float: 1 << 63},
				{Type: "float32", Float: uint64(math.Float32bits(-2.5e-3))}, {Type: "float64", Float: math.Float64bits(3)}}},
		{"float specials", "go test fuzz v1\nfloat64(+Inf)\nfloat32(-Inf)\nfloat64(NaN)\nmath.Float64frombits(0x7ff8000000000002)\nmath.Float32frombits(0xffc00001)\n",
			[]Value{{Type: "float64", Float: math.Float64bits(math.Inf(1))}, {Type: "float32", Float: uint64(math.Float32bits(float32(math.Inf(-1))))},
				{Type: "float64", Float: math.Float64bits(math.NaN())}, {Type: "float64", Float: 0x7ff8000000000002}, {Type: "float32", Float: 0xffc00001}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Parse = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	for _, in := range []string{
		"",
		"go test fuzz v2\nint(1)\n",
		"go test fuzz v1\nint(\n",
		"go test fuzz v1\nfloat64(x)\n",
		"go test fuzz v1\nfloat64(-NaN)\n",
		"go test fuzz v1\nmath.Float64frombits(1.5)\n",
		"go test fuzz v1\ncomplex128(1)\n",
		"go test fuzz v1\nuint8(-1)\n",
		"go test fuzz v1\nbool(1)\n",
		"go test fuzz v1\nstring(3)\n",
		"go test fuzz v1\nrune('ab')\n",
		"go test fuzz v1\nx\n",
	} {
		if _, err := Parse([]byte(in)); err == nil {
			t.Errorf("Parse(%q) succeeded", in)
		}
	}
}

func TestFormatRoundTrip(t *testing.T) {
	vs := []Value{{Type: "int", Int: -7}, {Type: "uint64", Uint: 1 << 63}, {Type: "bool", Bool: true},
		{Type: "string", Bytes: []byte("x\"y")}, {Type: "[]byte", Bytes: []byte{0, 1, 255}},
		{Type: "float64", Float: math.Float64bits(0.1)}, {Type: "float64", Float: 1 << 63}, {Type: "float64", Float: math.Float64bits(math.Inf(-1))},
		{Type: "float64", Float: math.Float64bits(math.NaN())}, {Type: "float64", Float: 0xfff0000000000001},
		{Type: "float32", Float: uint64(math.Float32bits(1e-45))}, {Type: "float32", Float: 0x7fc00001}}
	got, err := Parse(Format(vs))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, vs) {
		t.Errorf("round trip = %+v, want %+v", got, vs)
	}
}

func TestReadDir(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "b"), Format([]Value{{Type: "int", Int: 2}}), 0o644)
	os.WriteFile(filepath.Join(dir, "a"), Format([]Value{{Type: "int", Int: 1}}), 0o644)
	es, names, err := ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 2 || es[0][0].Int != 1 || filepath.Base(names[1]) != "b" {
		t.Errorf("ReadDir = %+v %v", es, names)
	}
	if es, _, err := ReadDir(filepath.Join(dir, "missing")); err != nil || es != nil {
		t.Errorf("missing dir: %v %v", es, err)
	}
	os.WriteFile(filepath.Join(dir, "c"), []byte("garbage"), 0o644)
	if _, _, err := ReadDir(dir); err == nil {
		t.Error("corrupt file accepted")
	}
}

func TestLine(t *testing.T) {
	tests := []struct {
		v    Value
		want string
	}{
		{Value{Type: "uint32", Uint: 7}, "uint32(7)"},
		{Value{Type: "int8", Int: -128}, "int8(-128)"},
		{Value{Type: "rune", Int: 39}, "rune(39)"},
		{Value{Type: "bool", Bool: true}, "bool(true)"},
		{Value{Type: "string", Bytes: []byte("a\n")}, `string("a\n")`},
		{Value{Type: "[]byte", Bytes: []byte{0x80, 1}}, `[]byte("\x80\x01")`},
		{Value{Type: "float64", Float: math.Float64bits(-2.5)}, "float64(-2.5)"},
		{Value{Type: "float64", Float: 0x7ff8000000000002}, "math.Float64frombits(0x7ff8000000000002)"},
	}
	for _, tt := range tests {
		if got := tt.v.Line(); got != tt.want {
			t.Errorf("Line of %+v = %s, want %s", tt.v, got, tt.want)
		}
	}
}

func TestCanonicalType(t *testing.T) {
	for typ, want := range map[string]string{
		"byte": "uint8", "rune": "int32", "[] byte": "[]byte", "uint8": "uint8", "int": "int", "string": "string",
	} {
		if got := CanonicalType(typ); got != want {
			t.Errorf("CanonicalType(%q) = %q, want %q", typ, got, want)
		}
	}
}

// TestWriteDir checks that ReadDir reads the entries WriteDir wrote in
// their order, also past ten entries, where names that sort by number
// and by text could differ.
func TestWriteDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new")
	var entries [][]Value
	for i := range 12 {
		entries = append(entries, []Value{{Type: "int", Int: int64(i)}, {Type: "string", Bytes: []byte("x")}})
	}
	if err := WriteDir(dir, entries); err != nil {
		t.Fatal(err)
	}
	got, _, err := ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, entries) {
		t.Errorf("ReadDir after WriteDir = %+v, want %+v", got, entries)
	}
}
