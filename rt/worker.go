// This file implements the worker side: the loop that runs the target once
// per request, inside the process the coordinator started.

package rt

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"strconv"
	"time"

	"github.com/gocolic/gocolic/sym"
)

// WorkerEnv is the environment variable that turns the instrumented binary
// into a worker. Its value is unused.
const WorkerEnv = "GOCOLIC_WORKER"

// ExitInternal is the exit status of a worker that failed itself (a broken
// pipe, a corrupt request), as opposed to a crash of the target.
const ExitInternal = 70

// Main serves the target when the process was started as a worker, or
// evaluation requests when it was started as an evaluator (EvalMain), and
// never returns then; otherwise it returns at once. The generated entry file
// calls it from an init function of the target package.
func Main(t Entry) {
	EvalMain()
	if os.Getenv(WorkerEnv) == "" {
		return
	}
	in := os.NewFile(3, "gocolic-requests")
	out := os.NewFile(4, "gocolic-responses")
	if in == nil || out == nil {
		fmt.Fprintln(os.Stderr, "gocolic worker: missing pipes")
		os.Exit(ExitInternal)
	}
	if err := serve(t, newPipeReader(in), out); err != nil {
		fmt.Fprintln(os.Stderr, "gocolic worker:", err)
		os.Exit(ExitInternal)
	}
	os.Exit(0)
}

func serve(t Entry, in io.Reader, out *os.File) error {
	return serveLoop(in, out,
		func(q *Request, enc *sym.Encoder) *Response { return execute(t, q, enc) },
		func(q *Batch) *BatchResponse { return executeBatch(t, q) })
}

// serveLoop answers requests with exec and batches with batch until the
// coordinator closes the request pipe.
func serveLoop(in io.Reader, out io.Writer, exec func(*Request, *sym.Encoder) *Response, batch func(*Batch) *BatchResponse) error {
	enc := sym.NewEncoder()
	return serveMsgs(in, out, func(msg, reply []byte) ([]byte, error) {
		if IsBatch(msg) {
			q, err := ParseBatch(msg)
			if err != nil {
				return nil, err
			}
			return AppendBatchResponse(reply, batch(q)), nil
		}
		q, err := ParseRequest(msg)
		if err != nil {
			return nil, err
		}
		return AppendResponse(reply, exec(q, enc)), nil
	})
}

// serveMsgs reads framed messages until in ends and writes what handle
// appends to its reply buffer (empty on each call) for each of them.
func serveMsgs(in io.Reader, out io.Writer, handle func(msg, reply []byte) ([]byte, error)) error {
	var msg, reply []byte
	for {
		var err error
		msg, err = ReadMsg(in, msg)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("reading request: %w", err)
		}
		if reply, err = handle(msg, reply[:0]); err != nil {
			return err
		}
		if err := WriteMsg(out, reply); err != nil {
			return fmt.Errorf("writing response: %w", err)
		}
	}
}

// execute runs the target once and reports what happened.
func execute(t Entry, q *Request, enc *sym.Encoder) (resp *Response) {
	start := time.Now()
	// Claimed even when q.Concrete, as a batch's runs are: with no
	// shadow on its input no term is built, but its branches are counted,
	// so that what it covers counts.
	claim()
	reset(t.Sites)
	st.traced = q.Trace && !q.Concrete
	st.symbolic = !q.Concrete
	resetAll(t)
	in := &Input{env: q.Env, offs: Layout(t.Params, q.MaxLen), maxLen: q.MaxLen, params: t.Params, concrete: q.Concrete}
	resp = &Response{}
	defer func() {
		release()
		if r := recover(); r != nil {
			resp.Status = StatusPanic
			resp.Panic = panicString(r)
			resp.Stack = string(goroutineStack())
		}
		finish(resp, enc)
		resp.Nanos = uint64(time.Since(start))
	}()
	for _, v := range t.Run(in) {
		lit, ok := Literal(v)
		resp.Results = append(resp.Results, Result{Pinned: ok, Literal: lit})
	}
	return resp
}

func finish(resp *Response, enc *sym.Encoder) {
	resp.Hits = takeHits(nil)
	enc.Reset()
	resp.Path = make([]WireEvent, len(st.path))
	for i, e := range st.path {
		resp.Path[i] = WireEvent{Site: e.Site, Taken: e.Taken, Cond: enc.Encode(e.Cond)}
	}
	if st.traced {
		for i, at := range st.ats {
			resp.Path[i].At = at
		}
		resp.Traced = true
		resp.Outcomes = append([]uint32(nil), st.outs...)
		resp.OutcomesCut = st.outsCut
		st.traced = false
	}
	resp.Exprs = append([]byte(nil), enc.Bytes()...)
	resp.Fresh = append([]uint32(nil), st.fresh...)
	resp.Truncated = st.truncated
	resp.Concrete = takeConcrete(nil)
}

// panicString prints a panic value as the Go runtime does in its
// "panic: ..." line, without the goroutine trace.
func panicString(r any) string {
	switch v := r.(type) {
	case error:
		return v.Error()
	case fmt.Stringer:
		return v.String()
	case string:
		return v
	}
	return fmt.Sprintf("%v", r)
}

// Literal returns a Go literal for v that a generated test can compare
// against, or ok == false when v has no such literal (pointers, structs,
// NaN). An error becomes the string of its message, or "" for nil.
func Literal(v any) (lit string, ok bool) {
	if v == nil {
		return `""`, true // a nil error
	}
	if err, isErr := v.(error); isErr {
		return strconv.Quote(err.Error()), true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Bool:
		return strconv.FormatBool(rv.Bool()), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(rv.Int(), 10), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(rv.Uint(), 10), true
	case reflect.String:
		return strconv.Quote(rv.String()), true
	case reflect.Slice:
		if rv.Type().Elem().Kind() == reflect.Uint8 {
			if rv.IsNil() {
				return "nil", true
			}
			return "[]byte(" + strconv.Quote(string(rv.Bytes())) + ")", true
		}
	case reflect.Float32, reflect.Float64:
		f := rv.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return "", false // NaN and infinities have no literal
		}
		bits := 64
		if rv.Kind() == reflect.Float32 {
			bits = 32
		}
		s := strconv.FormatFloat(f, 'g', -1, bits)
		if !containsAnyByte(s, ".eE") {
			s += ".0"
		}
		return s, true
	}
	return "", false
}
