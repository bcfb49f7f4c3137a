package gjson

import "testing"

// FuzzValid runs CheckValid.
func FuzzValid(f *testing.F) {
	f.Add(`{"a":[1,-2.5e+3,true,null,"x\u00e9"]}`)
	f.Add(`[{}, []]`)
	f.Fuzz(func(t *testing.T, s string) { CheckValid(s) })
}

// FuzzGet runs CheckGet.
func FuzzGet(f *testing.F) {
	f.Add(`{"name":{"first":"Tom"},"friends":[{"age":44},{"age":68}]}`, `friends.#(age>45).age`)
	f.Add(`[1,2,3]`, `@reverse|#`)
	f.Fuzz(func(t *testing.T, js, path string) { CheckGet(js, path) })
}
