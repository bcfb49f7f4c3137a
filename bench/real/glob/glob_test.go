package glob

import "testing"

// FuzzMatch runs CheckMatch.
func FuzzMatch(f *testing.F) {
	f.Add("*.{go,mod}", "main.go")
	f.Add("a/**/[!x-z]?c", "a/b/c/dbc")
	f.Add("\\*[abc]{x,y*}", "*bye")
	f.Fuzz(func(t *testing.T, pattern, s string) { CheckMatch(pattern, s) })
}

// FuzzQuoteMeta runs CheckQuoteMeta.
func FuzzQuoteMeta(f *testing.F) {
	f.Add("a*b?[c]{d,e}\\f")
	f.Add("plain/path.txt")
	f.Fuzz(func(t *testing.T, s string) { CheckQuoteMeta(s) })
}
