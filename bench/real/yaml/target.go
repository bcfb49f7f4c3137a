// Package yaml holds native fuzz targets (in its test files) of
// gopkg.in/yaml.v3: YAML decoding and encoding.
//
// Round trips are not checked: yaml.v3 encodes some strings in forms it
// decodes to other values or not at all ("\n" as "|4+"), which go test
// -fuzz finds within a second and which would end its runs there.
package yaml

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf16"

	"gopkg.in/yaml.v3"

	"github.com/gocolic/gocolic/bench/real/internal/prop"
)

// Target is the import path of the package the fuzz targets exercise. The
// realbench runner measures the coverage of this package.
const Target = "gopkg.in/yaml.v3"

// CheckUnmarshal decodes the YAML document s into a generic value
// directly, and through a Node tree (Unmarshal into a Node, then
// Node.Decode): the two must both fail or decode the same value. The
// value is then encoded, which must not panic.
func CheckUnmarshal(s string) {
	var direct, viaNode any
	derr := yaml.Unmarshal([]byte(s), &direct)
	var n yaml.Node
	nerr := yaml.Unmarshal([]byte(s), &n)
	if nerr == nil {
		nerr = n.Decode(&viaNode)
	}
	if (derr == nil) != (nerr == nil) {
		prop.Failf("Unmarshal(%q) into a value: %v; through a Node: %v", s, derr, nerr)
	}
	if derr != nil {
		_ = derr.Error()
		return
	}
	// %v, not reflect.DeepEqual: a .nan is not equal to itself.
	if a, b := fmt.Sprintf("%v", direct), fmt.Sprintf("%v", viaNode); a != b {
		prop.Failf("Unmarshal(%q) = %s, through a Node = %s", s, a, b)
	}
	_, _ = yaml.Marshal(direct)
}

// CheckNode decodes the YAML document s into a Node tree (with its
// comments, styles and anchors) and checks the invariants the Node type
// documents: a mapping holds key/value pairs, an alias points to a node,
// a document holds at most one node, scalars have no children, and every
// position lies within s (or on the line after it). The tree is then
// encoded again, unchecked.
func CheckNode(s string) {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(s), &n); err != nil {
		return
	}
	// Every break yaml.v3 counts (CR, LF, NEL, LS, PS; CR LF counted
	// twice here, so this is a bound, not the count), in the text it
	// reads: a UTF-16 input is decoded first (" (" after a big-endian
	// mark is U+2028).
	lines, text := 1, yamlText(s)
	for _, br := range []string{"\n", "\r", "\u0085", "\u2028", "\u2029"} {
		lines += strings.Count(text, br)
	}
	var walk func(m *yaml.Node, depth int)
	walk = func(m *yaml.Node, depth int) {
		if depth > 1000 {
			return
		}
		switch m.Kind {
		case yaml.MappingNode:
			if len(m.Content)%2 != 0 {
				prop.Failf("Unmarshal(%q): a mapping at %d:%d with %d children", s, m.Line, m.Column, len(m.Content))
			}
		case yaml.AliasNode:
			if m.Alias == nil {
				prop.Failf("Unmarshal(%q): an alias at %d:%d to nothing", s, m.Line, m.Column)
			}
		case yaml.DocumentNode:
			if len(m.Content) > 1 {
				prop.Failf("Unmarshal(%q): a document with %d nodes", s, len(m.Content))
			}
		case yaml.ScalarNode:
			if len(m.Content) != 0 {
				prop.Failf("Unmarshal(%q): a scalar with children", s)
			}
		}
		// An empty scalar at the end of the stream ("---") sits on the
		// line after the last.
		if m.Kind != 0 && (m.Line < 1 || m.Line > lines+1 || m.Column < 1) {
			prop.Failf("Unmarshal(%q): a node of kind %v at %d:%d, outside the %d lines", s, m.Kind, m.Line, m.Column, lines)
		}
		_ = m.ShortTag()
		for _, c := range m.Content {
			walk(c, depth+1)
		}
	}
	walk(&n, 0)
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&n); err == nil {
		_ = enc.Close()
	}
}

// yamlText returns the text yaml.v3 reads from s: s itself, or its
// decoding when it starts with a UTF-16 byte-order mark.
func yamlText(s string) string {
	if len(s) < 2 || (s[:2] != "\xfe\xff" && s[:2] != "\xff\xfe") {
		return s
	}
	units := make([]uint16, 0, len(s)/2)
	for i := 2; i+1 < len(s); i += 2 {
		if s[0] == 0xfe {
			units = append(units, uint16(s[i])<<8|uint16(s[i+1]))
		} else {
			units = append(units, uint16(s[i+1])<<8|uint16(s[i]))
		}
	}
	return string(utf16.Decode(units))
}
