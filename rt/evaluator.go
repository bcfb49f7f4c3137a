// This file implements the evaluator: the worker binary started with
// WorkerEnv=eval serves requests to evaluate terms at points instead of
// running the target. Opaque calls are evaluated there because the
// functions they name are linked into this binary and nowhere else; the
// search that asks for the values (solver/walk) runs in the coordinator.

package rt

import (
	"fmt"
	"io"
	"os"

	"github.com/gocolic/gocolic/sym"
)

// EvalMode is the value of WorkerEnv that makes a worker an evaluator.
const EvalMode = "eval"

// EvalRequest asks for the values of terms at several points.
type EvalRequest struct {
	Exprs  []byte   // sym stream of the terms
	Roots  []uint64 // positions in Exprs of the terms to evaluate
	Points []sym.Env
}

// EvalResult is the value of every root at one point, or why there is none
// (an opaque call that panicked or is not linked in).
type EvalResult struct {
	Values []uint64
	Err    string
}

// AppendEvalRequest appends the payload of q to buf.
func AppendEvalRequest(buf []byte, q *EvalRequest) []byte {
	w := writer{buf: buf}
	w.bytes(q.Exprs)
	w.uv(uint64(len(q.Roots)))
	for _, r := range q.Roots {
		w.uv(r)
	}
	w.uv(uint64(len(q.Points)))
	for _, p := range q.Points {
		w.uv(uint64(len(p)))
		for k, v := range p {
			w.uv(k)
			w.uv(v)
		}
	}
	return w.buf
}

// ParseEvalRequest decodes an evaluation request.
func ParseEvalRequest(b []byte) (*EvalRequest, error) {
	r := reader{buf: b}
	q := &EvalRequest{Exprs: r.bytes()}
	q.Roots = make([]uint64, r.count())
	for i := range q.Roots {
		q.Roots[i] = r.uv()
	}
	q.Points = make([]sym.Env, r.count())
	for i := range q.Points {
		n := r.count()
		p := make(sym.Env, n)
		for j := 0; j < n && r.err == nil; j++ {
			k := r.uv()
			p[k] = r.uv()
		}
		q.Points[i] = p
	}
	return q, r.err
}

// AppendEvalResults appends the payload of an evaluation response.
func AppendEvalResults(buf []byte, rs []EvalResult) []byte {
	w := writer{buf: buf}
	w.uv(uint64(len(rs)))
	for _, r := range rs {
		w.str(r.Err)
		w.uv(uint64(len(r.Values)))
		for _, v := range r.Values {
			w.uv(v)
		}
	}
	return w.buf
}

// ParseEvalResults decodes an evaluation response.
func ParseEvalResults(b []byte) ([]EvalResult, error) {
	r := reader{buf: b}
	rs := make([]EvalResult, r.count())
	for i := range rs {
		rs[i].Err = r.str()
		rs[i].Values = make([]uint64, r.count())
		for j := range rs[i].Values {
			rs[i].Values[j] = r.uv()
		}
	}
	return rs, r.err
}

// EvalMain serves evaluation requests when the process was started as an
// evaluator and never returns then; otherwise it returns at once. The
// generated entry files call it after registering the functions of opaque
// terms.
func EvalMain() {
	if os.Getenv(WorkerEnv) != EvalMode {
		return
	}
	in := os.NewFile(3, "gocolic-requests")
	out := os.NewFile(4, "gocolic-responses")
	if in == nil || out == nil {
		fmt.Fprintln(os.Stderr, "gocolic evaluator: missing pipes")
		os.Exit(ExitInternal)
	}
	if err := serveEval(newPipeReader(in), out, evalFuncs{}); err != nil {
		fmt.Fprintln(os.Stderr, "gocolic evaluator:", err)
		os.Exit(ExitInternal)
	}
	os.Exit(0)
}

// serveEval answers evaluation requests until the request pipe closes.
func serveEval(in io.Reader, out io.Writer, fs sym.Funcs) error {
	b := sym.NewBuilder()
	dec := sym.NewDecoder(b)
	return serveMsgs(in, out, func(msg, reply []byte) ([]byte, error) {
		q, err := ParseEvalRequest(msg)
		if err != nil {
			return nil, err
		}
		if b.Len() > 1<<16 {
			b.Reset()
		}
		if err := dec.Decode(q.Exprs); err != nil {
			return nil, fmt.Errorf("decoding terms: %w", err)
		}
		roots := make([]*sym.Expr, len(q.Roots))
		for i, r := range q.Roots {
			if roots[i], err = dec.Node(r); err != nil {
				return nil, err
			}
		}
		return AppendEvalResults(reply, EvalPoints(roots, q.Points, fs)), nil
	})
}

// EvalPoints evaluates every root at every point.
func EvalPoints(roots []*sym.Expr, points []sym.Env, fs sym.Funcs) []EvalResult {
	rs := make([]EvalResult, len(points))
	for i, p := range points {
		vals, err := sym.Values(roots, p, fs)
		if err != nil {
			rs[i].Err = err.Error()
		}
		rs[i].Values = vals
	}
	return rs
}
