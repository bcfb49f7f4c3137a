// This file implements the messages between the coordinator and a worker.
// Each message is a little-endian uint32 length followed by the payload;
// the payload is a sequence of uvarints, bytes and length-prefixed strings.

package rt

import (
	"errors"
	"fmt"
	"io"

	"github.com/gocolic/gocolic/sym"
)

// Request asks a worker to run the target once.
type Request struct {
	Env    map[uint64]uint64
	MaxLen int
	// Concrete runs the target without symbolic tracking: the coordinator
	// asks for it to tell whether an execution that timed out is slow in
	// itself or only under tracking.
	Concrete bool
	// Trace asks for the execution's outcome sequence
	// (Response.Outcomes): the monitors of abstraction-driven testing
	// replay it. Without it the worker records only symbolic branches.
	Trace bool
}

// Status says how an execution ended inside the worker.
type Status uint8

// The ways an execution ends that a worker can report. Crashes that kill
// the worker (os.Exit, fatal errors, hangs) are seen by the coordinator.
const (
	StatusOK    Status = iota // returned normally
	StatusPanic               // panicked; the panic was recovered
	StatusFail                // a fuzz function's test failed (t.Error, t.Fatal); Panic holds the message
	StatusSkip                // a fuzz function's test was skipped
)

// Result is a literal of a result value, when it can be pinned in a test.
type Result struct {
	Pinned  bool
	Literal string
}

// WireEvent is an Event whose condition is a position in Response.Exprs.
type WireEvent struct {
	Site  uint32
	Taken bool
	Cond  uint64
	// At is, in a traced execution, the length of Response.Outcomes
	// when the event was recorded: the outcomes before it, its own last
	// if its site reports outcomes. Zero without a trace.
	At uint32
}

// Response reports one execution.
type Response struct {
	Status    Status
	Panic     string // the panic value, printed as the Go runtime would
	Stack     string
	Results   []Result
	Fresh     []uint32 // newly covered site outcomes: site<<1 | outcome
	Hits      []uint64 // hit counts of this execution: (site<<1 | outcome)<<32 | count
	Exprs     []byte   // sym expression stream of the conditions
	Path      []WireEvent
	Truncated bool
	// Nanos is the time the worker spent on the execution, from reset to
	// encoded trace: the cost of the instrumented run without the IPC.
	Nanos uint64
	// Concrete counts the execution's concretisation events per site and
	// cause, in the order of their first events.
	Concrete []Concretised
	// Outcomes, when the request asked for a trace, are every outcome
	// of a site that reports outcomes (site<<1 | outcome), concrete
	// ones included, in order, with the entries (true) and returns
	// (false) of the functions' entry sites (sites.Func) around them;
	// OutcomesCut says that the sequence stopped at its bound, so
	// events whose At is its length know nothing of what preceded them.
	Outcomes    []uint32
	OutcomesCut bool
	// Traced says that the execution was traced (Request.Trace).
	Traced bool
}

type writer struct{ buf []byte }

func (w *writer) uv(v uint64)    { w.buf = sym.AppendUvarint(w.buf, v) }
func (w *writer) byte1(b byte)   { w.buf = append(w.buf, b) }
func (w *writer) str(s string)   { w.uv(uint64(len(s))); w.buf = append(w.buf, s...) }
func (w *writer) bytes(b []byte) { w.uv(uint64(len(b))); w.buf = append(w.buf, b...) }
func (w *writer) bool1(b bool)   { w.byte1(b2b(b)) }
func b2b(b bool) byte {
	if b {
		return 1
	}
	return 0
}

type reader struct {
	buf []byte
	err error
}

var errShort = errors.New("rt: truncated message")

func (r *reader) uv() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := sym.Uvarint(r.buf)
	if n <= 0 {
		r.err = errShort
		return 0
	}
	r.buf = r.buf[n:]
	return v
}

func (r *reader) byte1() byte {
	if r.err != nil || len(r.buf) == 0 {
		r.err = errShort
		return 0
	}
	b := r.buf[0]
	r.buf = r.buf[1:]
	return b
}

func (r *reader) bytes() []byte {
	n := r.uv()
	if r.err != nil || n > uint64(len(r.buf)) {
		r.err = errShort
		return nil
	}
	b := r.buf[:n:n]
	r.buf = r.buf[n:]
	return b
}

func (r *reader) str() string { return string(r.bytes()) }

// count reads a slice length, refusing lengths the message cannot hold.
func (r *reader) count() int {
	n := r.uv()
	if n > uint64(len(r.buf)) {
		r.err = errShort
		return 0
	}
	return int(n)
}

// The first byte of a request payload says which kind it is.
const (
	kindRequest byte = 1 // a Request: one execution with tracking
	kindBatch   byte = 2 // a Batch: many executions without
)

// IsBatch reports whether a request payload is a Batch's.
func IsBatch(msg []byte) bool { return len(msg) > 0 && msg[0] == kindBatch }

// AppendRequest appends the payload of q to buf.
func AppendRequest(buf []byte, q *Request) []byte {
	w := writer{buf: buf}
	w.byte1(kindRequest)
	w.uv(uint64(q.MaxLen))
	w.bool1(q.Concrete)
	w.bool1(q.Trace)
	w.env(q.Env)
	return w.buf
}

// ParseRequest decodes a request payload.
func ParseRequest(b []byte) (*Request, error) {
	r := reader{buf: b}
	if k := r.byte1(); k != kindRequest && r.err == nil {
		return nil, fmt.Errorf("rt: request of kind %d", k)
	}
	q := &Request{MaxLen: int(r.uv())}
	q.Concrete = r.byte1() != 0
	q.Trace = r.byte1() != 0
	q.Env = r.env()
	return q, r.err
}

// AppendResponse appends the payload of p to buf.
func AppendResponse(buf []byte, p *Response) []byte {
	w := writer{buf: buf}
	w.byte1(byte(p.Status))
	w.str(p.Panic)
	w.str(p.Stack)
	w.uv(uint64(len(p.Results)))
	for _, res := range p.Results {
		w.bool1(res.Pinned)
		w.str(res.Literal)
	}
	w.uv(uint64(len(p.Fresh)))
	for _, f := range p.Fresh {
		w.uv(uint64(f))
	}
	w.uv(uint64(len(p.Hits)))
	for _, h := range p.Hits {
		w.uv(h)
	}
	w.bytes(p.Exprs)
	w.uv(uint64(len(p.Path)))
	for _, e := range p.Path {
		w.uv(uint64(e.Site))
		w.bool1(e.Taken)
		w.uv(e.Cond)
	}
	w.bool1(p.Truncated)
	w.uv(p.Nanos)
	w.uv(uint64(len(p.Concrete)))
	for _, c := range p.Concrete {
		w.uv(uint64(c.Site))
		w.byte1(byte(c.Cause))
		w.uv(uint64(c.Count))
		w.uv(uint64(c.First))
	}
	w.bool1(p.Traced)
	if p.Traced {
		w.uints(p.Outcomes)
		w.bool1(p.OutcomesCut)
		for _, e := range p.Path {
			w.uv(uint64(e.At))
		}
	}
	return w.buf
}

// ParseResponse decodes a response payload.
func ParseResponse(b []byte) (*Response, error) {
	r := reader{buf: b}
	p := &Response{Status: Status(r.byte1()), Panic: r.str(), Stack: r.str()}
	p.Results = make([]Result, r.count())
	for i := range p.Results {
		p.Results[i].Pinned = r.byte1() == 1
		p.Results[i].Literal = r.str()
	}
	p.Fresh = make([]uint32, r.count())
	for i := range p.Fresh {
		p.Fresh[i] = uint32(r.uv())
	}
	p.Hits = make([]uint64, r.count())
	for i := range p.Hits {
		p.Hits[i] = r.uv()
	}
	p.Exprs = r.bytes()
	p.Path = make([]WireEvent, r.count())
	for i := range p.Path {
		p.Path[i] = WireEvent{Site: uint32(r.uv()), Taken: r.byte1() == 1, Cond: r.uv()}
	}
	p.Truncated = r.byte1() == 1
	p.Nanos = r.uv()
	p.Concrete = make([]Concretised, r.count())
	for i := range p.Concrete {
		c := Concretised{Site: uint32(r.uv()), Cause: Cause(r.byte1()), Count: uint32(r.uv()), First: uint32(r.uv())}
		if c.Cause >= NumCauses && r.err == nil {
			r.err = fmt.Errorf("concretisation cause %d", c.Cause)
		}
		p.Concrete[i] = c
	}
	if p.Traced = r.byte1() == 1; p.Traced {
		p.Outcomes = r.uints()
		p.OutcomesCut = r.byte1() == 1
		for i := range p.Path {
			p.Path[i].At = uint32(r.uv())
		}
	}
	if r.err != nil {
		return nil, fmt.Errorf("rt: bad response: %w", r.err)
	}
	return p, nil
}

// env appends an input: its size, then variable and value pairs.
func (w *writer) env(e map[uint64]uint64) {
	w.uv(uint64(len(e)))
	for k, v := range e {
		w.uv(k)
		w.uv(v)
	}
}

func (r *reader) env() map[uint64]uint64 {
	n := r.count()
	e := make(map[uint64]uint64, n)
	for i := 0; i < n && r.err == nil; i++ {
		k := r.uv()
		e[k] = r.uv()
	}
	return e
}

func (w *writer) uints(v []uint32) {
	w.uv(uint64(len(v)))
	for _, x := range v {
		w.uv(uint64(x))
	}
}

// uints reads a list of uint32s; an empty list reads as nil.
func (r *reader) uints() []uint32 {
	n := r.count()
	if n == 0 {
		return nil
	}
	v := make([]uint32, n)
	for i := range v {
		v[i] = uint32(r.uv())
	}
	return v
}

// maxGenerated bounds the inputs of a generated batch, so that a corrupt
// count cannot make the worker allocate without limit.
const maxGenerated = 1 << 20

// AppendBatch appends the payload of q to buf.
func AppendBatch(buf []byte, q *Batch) []byte {
	w := writer{buf: buf}
	w.byte1(kindBatch)
	w.uv(uint64(q.MaxLen))
	w.uints(q.Known)
	w.dense(q.Inputs)
	w.uv(uint64(q.Count))
	if q.Count > 0 {
		w.dense(q.Bases)
		w.uv(q.Seed)
		w.uv(uint64(len(q.DictInts)))
		for _, v := range q.DictInts {
			w.uv(v)
		}
		w.uv(uint64(len(q.DictToks)))
		for _, t := range q.DictToks {
			w.bytes(t)
		}
		w.uv(uint64(q.NInts))
		w.uv(uint64(q.NToks))
	}
	return w.buf
}

// dense appends a list of inputs in dense form.
func (w *writer) dense(inputs [][]uint64) {
	w.uv(uint64(len(inputs)))
	for _, vals := range inputs {
		w.uv(uint64(len(vals)))
		for _, v := range vals {
			w.uv(v)
		}
	}
}

// dense reads a list of inputs in dense form. One array holds every
// input's values: the message bounds their number, one byte each at least.
func (r *reader) dense() [][]uint64 {
	inputs := make([][]uint64, r.count())
	all := make([]uint64, 0, len(r.buf))
	for i := range inputs {
		n := r.count()
		start := len(all)
		for j := 0; j < n && r.err == nil; j++ {
			all = append(all, r.uv())
		}
		inputs[i] = all[start:len(all):len(all)]
	}
	return inputs
}

// ParseBatch decodes a batch payload.
func ParseBatch(b []byte) (*Batch, error) {
	r := reader{buf: b}
	if k := r.byte1(); k != kindBatch && r.err == nil {
		return nil, fmt.Errorf("rt: batch of kind %d", k)
	}
	q := &Batch{MaxLen: int(r.uv()), Known: r.uints()}
	q.Inputs = r.dense()
	if q.Count = int(r.uv()); q.Count > maxGenerated {
		return nil, fmt.Errorf("rt: batch of %d generated inputs", q.Count)
	}
	if q.Count > 0 {
		q.Bases = r.dense()
		q.Seed = r.uv()
		q.DictInts = make([]uint64, r.count())
		for i := range q.DictInts {
			q.DictInts[i] = r.uv()
		}
		q.DictToks = make([][]byte, r.count())
		for i := range q.DictToks {
			// Copied: the worker keeps them, and reads its next
			// message into the same buffer.
			q.DictToks[i] = append([]byte(nil), r.bytes()...)
		}
		q.NInts, q.NToks = int(r.uv()), int(r.uv())
	}
	if r.err != nil {
		return nil, fmt.Errorf("rt: bad batch: %w", r.err)
	}
	return q, nil
}

// AppendBatchResponse appends the payload of p to buf.
func AppendBatchResponse(buf []byte, p *BatchResponse) []byte {
	w := writer{buf: buf}
	w.uv(p.Nanos)
	w.uv(uint64(p.Ran))
	w.uv(uint64(len(p.Results)))
	for _, res := range p.Results {
		w.uv(uint64(res.Index))
		w.byte1(byte(res.Status))
		if res.Status != StatusOK {
			w.str(res.Panic)
			w.str(res.Stack)
		}
		w.uints(res.Fresh)
		w.uints(res.Buckets)
		w.uv(uint64(len(res.Input)))
		for _, v := range res.Input {
			w.uv(v)
		}
	}
	return w.buf
}

// ParseBatchResponse decodes a batch response payload.
func ParseBatchResponse(b []byte) (*BatchResponse, error) {
	r := reader{buf: b}
	p := &BatchResponse{Nanos: r.uv(), Ran: int(r.uv())}
	p.Results = make([]BatchResult, r.count())
	for i := range p.Results {
		res := &p.Results[i]
		res.Index = int(r.uv())
		res.Status = Status(r.byte1())
		if res.Status != StatusOK {
			res.Panic, res.Stack = r.str(), r.str()
		}
		res.Fresh = r.uints()
		res.Buckets = r.uints()
		if n := r.count(); n > 0 {
			res.Input = make([]uint64, n)
			for j := range res.Input {
				res.Input[j] = r.uv()
			}
		}
	}
	if r.err != nil {
		return nil, fmt.Errorf("rt: bad batch response: %w", r.err)
	}
	return p, nil
}

// WriteMsg writes one framed message.
func WriteMsg(w io.Writer, payload []byte) error {
	var hdr [4]byte
	putUint32LE(hdr[:], uint32(len(payload)))
	if _, err := w.Write(hdr[:]); err != nil {
		return err
	}
	_, err := w.Write(payload)
	return err
}

// maxMsg bounds a message, so that a corrupt length cannot make the
// reader allocate without limit.
const maxMsg = 1 << 30

// ReadMsg reads one framed message into buf's storage.
func ReadMsg(rd io.Reader, buf []byte) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(rd, hdr[:]); err != nil {
		return nil, err
	}
	n := uint32LE(hdr[:])
	if n > maxMsg {
		return nil, fmt.Errorf("rt: message of %d bytes", n)
	}
	if cap(buf) < int(n) {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	if _, err := io.ReadFull(rd, buf); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF // a header without its payload
		}
		return nil, err
	}
	return buf, nil
}
