package fastjson

import "testing"

// FuzzParse runs CheckParse.
func FuzzParse(f *testing.F) {
	f.Add(`{"a":[1,-2.5e+3,true,null,"x\u00e9\n"],"b":{}}`)
	f.Add(` [ 0.1 , "\ud83d\ude00" , [] ] `)
	f.Fuzz(func(t *testing.T, s string) { CheckParse(s) })
}

// FuzzGet runs CheckGet.
func FuzzGet(f *testing.F) {
	f.Add(`{"a":{"b":[10,"x",false]},"c":1e3}`, "a.b.0")
	f.Add(`[{"k":"v"},{"k":true}]`, "1.k")
	f.Fuzz(func(t *testing.T, js, keys string) { CheckGet(js, keys) })
}
