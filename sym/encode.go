// This file implements the wire form of expressions, used by workers to send
// the constraints of one execution to the coordinator.
//
// A stream is a sequence of node records; each record names its arguments by
// their position in the stream, so arguments always come first:
//
//	kind:uvarint width:byte val:uvarint nargs:uvarint arg*:uvarint

package sym

import (
	"errors"
	"fmt"
)

// An Encoder appends nodes to a byte stream, each node once.
type Encoder struct {
	buf  []byte
	refs map[*Expr]uint64
}

// NewEncoder returns an Encoder with an empty stream.
func NewEncoder() *Encoder { return &Encoder{refs: make(map[*Expr]uint64)} }

// Reset empties the stream and forgets which nodes were sent.
func (enc *Encoder) Reset() {
	enc.buf = enc.buf[:0]
	clear(enc.refs)
}

// Bytes returns the stream so far.
func (enc *Encoder) Bytes() []byte { return enc.buf }

// Encode adds e and its arguments to the stream, if not yet there, and
// returns e's position, by which the Decoder's Node finds it again.
func (enc *Encoder) Encode(e *Expr) uint64 {
	if r, ok := enc.refs[e]; ok {
		return r
	}
	args := make([]uint64, len(e.Args))
	for i, a := range e.Args {
		args[i] = enc.Encode(a)
	}
	enc.buf = AppendUvarint(enc.buf, uint64(e.Kind))
	enc.buf = append(enc.buf, e.Width)
	enc.buf = AppendUvarint(enc.buf, e.Val)
	enc.buf = AppendUvarint(enc.buf, uint64(len(args)))
	for _, a := range args {
		enc.buf = AppendUvarint(enc.buf, a)
	}
	r := uint64(len(enc.refs))
	enc.refs[e] = r
	return r
}

// A Decoder rebuilds the nodes of a stream in a Builder.
type Decoder struct {
	b     *Builder
	nodes []*Expr
}

// NewDecoder returns a Decoder that makes its nodes with b.
func NewDecoder(b *Builder) *Decoder { return &Decoder{b: b} }

// Decode reads a whole stream. Positions start at 0 for every stream.
func (d *Decoder) Decode(data []byte) error {
	d.nodes = d.nodes[:0]
	for len(data) > 0 {
		var kind, val, n uint64
		var w byte
		var err error
		if kind, data, err = uvarint(data); err != nil {
			return err
		}
		if len(data) == 0 {
			return errors.New("sym: truncated node")
		}
		w, data = data[0], data[1:]
		if val, data, err = uvarint(data); err != nil {
			return err
		}
		if n, data, err = uvarint(data); err != nil {
			return err
		}
		if n > uint64(len(data)) {
			return errors.New("sym: truncated arguments")
		}
		args := make([]*Expr, n)
		for i := range args {
			var r uint64
			if r, data, err = uvarint(data); err != nil {
				return err
			}
			if r >= uint64(len(d.nodes)) {
				return fmt.Errorf("sym: forward reference %d", r)
			}
			args[i] = d.nodes[r]
		}
		if kind == 0 || kind >= uint64(numKinds) {
			return fmt.Errorf("sym: bad kind %d", kind)
		}
		e, err := d.make(Kind(kind), w, val, args)
		if err != nil {
			return err
		}
		if e.Width != w {
			return fmt.Errorf("sym: %s node declared %d bits wide is %d", Kind(kind), w, e.Width)
		}
		d.nodes = append(d.nodes, e)
	}
	return nil
}

func (d *Decoder) make(k Kind, w uint8, val uint64, args []*Expr) (e *Expr, err error) {
	if k == KInvalid || k >= numKinds {
		return nil, fmt.Errorf("sym: bad kind %d", k)
	}
	if k != KConst && k != KVar && w != 0 {
		switch w {
		case 8, 16, 32, 64:
		default:
			if k != KString {
				return nil, fmt.Errorf("sym: bad width %d", w)
			}
		}
	}
	// The typed constructors panic on ill-sorted input; a corrupt stream
	// must be an error instead.
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("sym: ill-sorted %s node: %v", k, r)
		}
	}()
	return d.b.Make(k, w, val, args)
}

// Node returns the node at position r of the last decoded stream.
func (d *Decoder) Node(r uint64) (*Expr, error) {
	if r >= uint64(len(d.nodes)) {
		return nil, fmt.Errorf("sym: no node %d", r)
	}
	return d.nodes[r], nil
}

func uvarint(data []byte) (uint64, []byte, error) {
	v, n := Uvarint(data)
	if n <= 0 {
		return 0, nil, errors.New("sym: bad varint")
	}
	return v, data[n:], nil
}
