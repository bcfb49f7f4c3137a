package shlex

import "testing"

// FuzzSplit runs CheckSplit.
func FuzzSplit(f *testing.F) {
	f.Add(`cp -r "my dir"/a\ b 'it''s' # comment`)
	f.Add("one\\\ntwo \"x\\\"y\" ''")
	f.Fuzz(func(t *testing.T, s string) { CheckSplit(s) })
}
