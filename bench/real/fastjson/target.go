// Package fastjson holds native fuzz targets (in its test files) of
// github.com/valyala/fastjson: JSON parsing and validation.
package fastjson

import (
	"bytes"

	"github.com/valyala/fastjson"

	"github.com/gocolic/gocolic/bench/real/internal/prop"
)

// Target is the import path of the package the fuzz targets exercise. The
// realbench runner measures the coverage of this package.
const Target = "github.com/valyala/fastjson"

// CheckParse parses the JSON document s. Parse and ParseBytes must agree;
// what Validate accepts must parse, and marshal to a document that
// validates and parses to the same marshalled text. (Parse alone is
// lenient: it takes "+" as a number and marshals it as is.)
func CheckParse(s string) {
	var p fastjson.Parser
	v, err := p.Parse(s)
	var pb fastjson.Parser
	if _, berr := pb.ParseBytes([]byte(s)); (berr == nil) != (err == nil) {
		prop.Failf("Parse(%q): %v, ParseBytes: %v", s, err, berr)
	}
	if verr := fastjson.Validate(s); verr != nil {
		return
	}
	if err != nil {
		prop.Failf("Validate(%q) ok, Parse fails: %v", s, err)
	}
	out := v.MarshalTo(nil)
	if err := fastjson.ValidateBytes(out); err != nil {
		prop.Failf("Parse(%q) marshals to %q, which does not validate: %v", s, out, err)
	}
	var q fastjson.Parser
	w, err := q.ParseBytes(out)
	if err != nil {
		prop.Failf("Parse(%q) marshals to %q, which does not parse: %v", s, out, err)
	}
	if again := w.MarshalTo(nil); !bytes.Equal(again, out) {
		prop.Failf("Parse(%q) marshals to %q, and again to %q", s, out, again)
	}
}

// CheckGet parses the document js and reads the value at the path of
// keys keys (split at '.') every way the API offers: the typed getters
// must agree with the value Get returns.
func CheckGet(js, keys string) {
	var p fastjson.Parser
	v, err := p.Parse(js)
	if err != nil {
		return
	}
	path := splitKeys(keys)
	got := v.Get(path...)
	if (got != nil) != v.Exists(path...) {
		prop.Failf("Get(%q) = %v, Exists disagrees", keys, got)
	}
	if got == nil {
		return
	}
	switch got.Type() {
	case fastjson.TypeNumber:
		f, err := got.Float64()
		if err != nil || f != v.GetFloat64(path...) {
			prop.Failf("%q at %q: Float64 = %v, %v; GetFloat64 = %v", js, keys, f, err, v.GetFloat64(path...))
		}
		_ = v.GetInt(path...)
		_ = v.GetUint64(path...)
	case fastjson.TypeString:
		b, err := got.StringBytes()
		if err != nil || !bytes.Equal(b, v.GetStringBytes(path...)) {
			prop.Failf("%q at %q: StringBytes = %q, %v; GetStringBytes = %q", js, keys, b, err, v.GetStringBytes(path...))
		}
	case fastjson.TypeTrue, fastjson.TypeFalse:
		b, err := got.Bool()
		if err != nil || b != v.GetBool(path...) || b != (got.Type() == fastjson.TypeTrue) {
			prop.Failf("%q at %q: Bool = %v, %v", js, keys, b, err)
		}
	case fastjson.TypeArray:
		a, err := got.Array()
		if err != nil || len(a) != len(v.GetArray(path...)) {
			prop.Failf("%q at %q: Array = %d values, %v", js, keys, len(a), err)
		}
	case fastjson.TypeObject:
		o, err := got.Object()
		if err != nil {
			prop.Failf("%q at %q: Object: %v", js, keys, err)
		}
		n := 0
		o.Visit(func(k []byte, _ *fastjson.Value) { n++ })
		if n != o.Len() {
			prop.Failf("%q at %q: Visit saw %d keys, Len = %d", js, keys, n, o.Len())
		}
	}
}

// splitKeys splits keys at '.'; the empty string is the empty path.
func splitKeys(keys string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(keys); i++ {
		if i == len(keys) || keys[i] == '.' {
			if i > start || i < len(keys) {
				out = append(out, keys[start:i])
			}
			start = i + 1
		}
	}
	return out
}
