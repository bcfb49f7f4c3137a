package yaml

import "testing"

// FuzzUnmarshal runs CheckUnmarshal.
func FuzzUnmarshal(f *testing.F) {
	f.Add("a: 1\nb: [x, 'y', \"z\\n\"]\nc: {d: null, e: 2.5e3}\n")
	f.Add("- &x !!str 12\n- *x\n- |\n  block\n  text\n- ~\n")
	f.Fuzz(func(t *testing.T, s string) { CheckUnmarshal(s) })
}

// FuzzNode runs CheckNode.
func FuzzNode(f *testing.F) {
	f.Add("# head\nkey: value # line\nlist:\n  - 1\n  - two\n")
	f.Add("--- !tag\n? complex\n: >-\n  folded\n...\n")
	f.Fuzz(func(t *testing.T, s string) { CheckNode(s) })
}
