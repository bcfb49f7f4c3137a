package rt

import (
	"math"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gocolic/gocolic/corpus"
)

// FuzzWriteSeeds is a fuzz target, run by plain go test on its seeds,
// that checks writeSeeds on the *testing.F the testing package gives it:
// every f.Add entry comes out as a corpus file that go test's format
// reads back to the same values (NaN bits included).
func FuzzWriteSeeds(f *testing.F) {
	nan := math.Float64frombits(0x7ff8000000000123)
	f.Add("a\n\"b", []byte{0, 0xff}, int8(-128), uint16(65535), true, float32(1.5), nan, 'x', byte(7))
	f.Add("", []byte(nil), int8(0), uint16(0), false, float32(0), 0.0, rune(0), byte(0))
	dir := f.TempDir()
	if err := writeSeeds(reflect.ValueOf(f), dir); err != nil {
		f.Fatal(err)
	}
	entries, names, err := corpus.ReadDir(dir)
	if err != nil || len(entries) != 2 {
		f.Fatalf("read back %d entries (%v), %v", len(entries), names, err)
	}
	want := []corpus.Value{
		{Type: "string", Bytes: []byte("a\n\"b")}, {Type: "[]byte", Bytes: []byte{0, 0xff}}, {Type: "int8", Int: -128},
		{Type: "uint16", Uint: 65535}, {Type: "bool", Bool: true}, {Type: "float32", Float: uint64(math.Float32bits(1.5))},
		{Type: "float64", Float: 0x7ff8000000000123}, {Type: "int32", Int: 'x'}, {Type: "uint8", Uint: 7},
	}
	got := entries[0]
	if filepath.Base(names[0]) != "seed-0" {
		got = entries[1]
	}
	if len(got) != len(want) {
		f.Fatalf("first entry %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].Type != want[i].Type || got[i].Int != want[i].Int || got[i].Uint != want[i].Uint ||
			got[i].Bool != want[i].Bool || got[i].Float != want[i].Float || string(got[i].Bytes) != string(want[i].Bytes) {
			f.Errorf("value %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	f.Fuzz(func(t *testing.T, s string, b []byte, i int8, u uint16, ok bool, x float32, y float64, r rune, c byte) {
	})
}
