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

// TestCheckNodeLineBreaks checks CheckNode's bound on node lines against
// the line breaks yaml.v3 reads: in UTF-16, " (" after a big-endian mark
// is U+2028, a break, so a node on line 3 of a one-line byte string is
// within the text's three lines (gocolic reported it as a violation).
func TestCheckNodeLineBreaks(t *testing.T) {
	for _, s := range []string{"\xfe\xff ( ( f", "\xff\xfe( ( f\x00", "a:\n  - 1\n"} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("CheckNode(%q) fails: %v", s, r)
				}
			}()
			CheckNode(s)
		}()
	}
}
