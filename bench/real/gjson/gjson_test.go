package gjson

import (
	"encoding/json"
	"testing"

	"github.com/tidwall/gjson"
)

// FuzzValid compares gjson's validator with encoding/json's on documents
// that are valid UTF-8.
func FuzzValid(f *testing.F) {
	f.Add(`{"a":[1,-2.5e+3,true,null,"x\u00e9"]}`)
	f.Add(`[{}, []]`)
	f.Fuzz(func(t *testing.T, s string) {
		got := gjson.Valid(s)
		if gjson.ValidBytes([]byte(s)) != got {
			t.Fatalf("Valid(%q) and ValidBytes disagree", s)
		}
		if want := json.Valid([]byte(s)); got != want {
			t.Fatalf("gjson.Valid(%q) = %v, encoding/json.Valid = %v", s, got, want)
		}
	})
}

// FuzzGet runs a path query (with gjson's modifiers, queries and
// multipaths) on a document, and reads the result every way the API
// offers.
func FuzzGet(f *testing.F) {
	f.Add(`{"name":{"first":"Tom"},"friends":[{"age":44},{"age":68}]}`, `friends.#(age>45).age`)
	f.Add(`[1,2,3]`, `@reverse|#`)
	f.Fuzz(func(t *testing.T, js, path string) {
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
			t.Fatalf("Get(%q, %q) = %q, GetBytes = %q", js, path, r.Raw, rb.Raw)
		}
	})
}
