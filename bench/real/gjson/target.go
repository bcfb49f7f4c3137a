// Package gjson holds native fuzz targets (in its test files) of
// github.com/tidwall/gjson: JSON validation and path queries.
package gjson

import (
	"encoding/json"

	"github.com/tidwall/gjson"

	"github.com/gocolic/gocolic/bench/real/internal/prop"
)

// Target is the import path of the package the fuzz targets exercise. The
// realbench runner measures the coverage of this package.
const Target = "github.com/tidwall/gjson"

// CheckValid compares gjson's validator with encoding/json's on s.
func CheckValid(s string) {
	got := gjson.Valid(s)
	if gjson.ValidBytes([]byte(s)) != got {
		prop.Failf("Valid(%q) and ValidBytes disagree", s)
	}
	if want := json.Valid([]byte(s)); got != want {
		prop.Failf("gjson.Valid(%q) = %v, encoding/json.Valid = %v", s, got, want)
	}
}

// CheckGet runs the path query path (with gjson's modifiers, queries and
// multipaths) on the document js, reads the result every way the API
// offers, and compares Get with GetBytes.
func CheckGet(js, path string) {
	r := gjson.Get(js, path)
	_ = r.String()
	_ = r.Int()
	_ = r.Float()
	_ = r.Bool()
	_ = r.Exists()
	if r.IsArray() || r.IsObject() {
		n := 0
		r.ForEach(func(k, v gjson.Result) bool {
			n++
			return n < 64
		})
	}
	rb := gjson.GetBytes([]byte(js), path)
	if rb.Raw != r.Raw || rb.Type != r.Type {
		prop.Failf("Get(%q, %q) = %q, GetBytes = %q", js, path, r.Raw, rb.Raw)
	}
}
