package state

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/gocolic/gocolic/sym"
)

// A CondHasher hashes branch conditions by their terms' structure alone,
// so that the same condition in two runs, or two versions of the code,
// hashes alike. Each node's hash is made once, from its kind, width, value
// and its arguments' hashes, and remembered: the conditions of a path share
// most of their nodes (a parser's position, a backtracker's state), and
// hashing each condition's whole term was quadratic in the path. The zero
// value is ready to use; a CondHasher is not safe for concurrent use.
type CondHasher struct {
	nodes map[*sym.Expr][sha256.Size]byte
	buf   []byte
}

// Cond returns the hash of condition e, as the hex of its first 8 bytes.
func (h *CondHasher) Cond(e *sym.Expr) string {
	if h.nodes == nil {
		h.nodes = map[*sym.Expr][sha256.Size]byte{}
	}
	sum := h.node(e)
	return hex.EncodeToString(sum[:8])
}

func (h *CondHasher) node(e *sym.Expr) [sha256.Size]byte {
	if sum, ok := h.nodes[e]; ok {
		return sum
	}
	args := make([][sha256.Size]byte, len(e.Args))
	for i, a := range e.Args {
		args[i] = h.node(a)
	}
	b := sym.AppendUvarint(h.buf[:0], uint64(e.Kind))
	b = append(b, e.Width)
	b = sym.AppendUvarint(b, e.Val)
	b = sym.AppendUvarint(b, uint64(len(args)))
	for _, a := range args {
		b = append(b, a[:]...)
	}
	h.buf = b
	sum := sha256.Sum256(b)
	h.nodes[e] = sum
	return sum
}

// A Key names one node of an execution tree by everything its path
// condition is made of: the sites, directions and condition hashes of the
// branches before it, and its own site and condition. Two nodes with the
// same key, in two versions of the code, have the same query for each of
// their sides.
type Key [sha256.Size]byte

// Prefix hashes a path prefix step by step; its zero value is the empty
// prefix.
type Prefix struct{ h [sha256.Size]byte }

// Node returns the key of the node at the end of the prefix, at site with
// condition cond.
func (p Prefix) Node(site, cond string) Key {
	return sha256.Sum256([]byte(string(p.h[:]) + "N" + site + "\x00" + cond))
}

// Then returns the prefix extended by one step.
func (p Prefix) Then(s Step) Prefix {
	d := "F"
	if s.Taken {
		d = "T"
	}
	return Prefix{sha256.Sum256([]byte(string(p.h[:]) + d + s.Site + "\x00" + s.Cond))}
}

// Sides records, for each node of the saved paths, which of its sides
// they took (bit 1 true, bit 2 false).
type Sides map[Key]uint8

// SavedSides returns the sides the saved paths took at every node they
// passed.
func SavedSides(paths [][]Step) Sides {
	m := Sides{}
	for _, path := range paths {
		var p Prefix
		for _, s := range path {
			m[p.Node(s.Site, s.Cond)] |= sideBit(s.Taken)
			p = p.Then(s)
		}
	}
	return m
}

func sideBit(taken bool) uint8 {
	if taken {
		return 1
	}
	return 2
}

// Verdict is what the saved suite says about one untaken side of the new
// execution tree.
type Verdict uint8

// The verdicts.
const (
	// Changed: no saved path reached this node with this path condition,
	// or a saved path took this side and no replayed input did: the side
	// lies in a changed range and must be explored.
	Changed Verdict = iota
	// Untaken: saved paths reached this very node and none took the side.
	// In an exhausted saved run the solver refuted it (or gave up) on the
	// same query; otherwise it was perhaps never tried.
	Untaken
)

// Judge returns the verdict on side taken of the node with key k.
func (m Sides) Judge(k Key, taken bool) Verdict {
	bits, ok := m[k]
	if !ok || bits&sideBit(taken) != 0 {
		return Changed
	}
	return Untaken
}
