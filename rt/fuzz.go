// This file runs a native fuzz target in a worker. The worker is the
// package's test binary started with -test.run=^FuzzXxx$: the testing
// package calls FuzzXxx(f) as for its seed corpus, and the rewritten f.Fuzz
// call lands in FuzzRun, which serves requests from inside the first seed
// call, one subtest per execution (the inputs of a batch share subtests,
// runFuzzBatch), so that t.Fatal, t.Skip and t.Error behave as under go
// test. The testing package is reached through
// reflection: the runtime is also linked into non-test binaries.

package rt

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"time"

	"github.com/gocolic/gocolic/sym"
)

// registered is the target of a fuzz worker, set by the generated entry file's
// init before the testing package runs the fuzz target. Package-level
// because the entry file and the rewritten f.Fuzz call meet only here.
var registered Entry

// Register records the description of a fuzz target (its Run is nil).
func Register(t Entry) { registered = t }

// FuzzRun stands in for f.Fuzz(concrete). In a plain test run it calls
// exactly that. In a worker it adds one zero-valued seed, so that the
// testing package calls the fuzz function at least once, and serves the
// coordinator from inside that call: run executes one input with a
// *testing.T of its own.
func FuzzRun(f any, concrete any, run func(t any, in *Input)) {
	fv := reflect.ValueOf(f)
	switch os.Getenv(WorkerEnv) {
	case "":
		fv.MethodByName("Fuzz").Call([]reflect.Value{reflect.ValueOf(concrete)})
		return
	case SeedsMode:
		if err := writeSeeds(fv, os.Getenv(SeedsDirEnv)); err != nil {
			fmt.Fprintln(os.Stderr, "gocolic worker:", err)
			os.Exit(ExitInternal)
		}
		os.Exit(0)
	}
	ft := reflect.TypeOf(concrete)
	zeros := make([]reflect.Value, 0, ft.NumIn()-1)
	for i := 1; i < ft.NumIn(); i++ {
		zeros = append(zeros, reflect.Zero(ft.In(i)))
	}
	fv.MethodByName("Add").Call(zeros)
	serving := reflect.MakeFunc(ft, func(args []reflect.Value) []reflect.Value {
		err := serveFuzz(args[0], run)
		if err != nil {
			fmt.Fprintln(os.Stderr, "gocolic worker:", err)
			os.Exit(ExitInternal)
		}
		os.Exit(0)
		return nil
	})
	fv.MethodByName("Fuzz").Call([]reflect.Value{serving})
}

func serveFuzz(t reflect.Value, run func(t any, in *Input)) error {
	in := os.NewFile(3, "gocolic-requests")
	out := os.NewFile(4, "gocolic-responses")
	if in == nil || out == nil {
		return errors.New("missing pipes")
	}
	subType := reflect.FuncOf([]reflect.Type{t.Type()}, nil, false)
	runMethod := t.MethodByName("Run")
	return serveLoop(in, out, func(q *Request, enc *sym.Encoder) *Response {
		return executeFuzz(q, enc, subType, runMethod, run)
	}, func(q *Batch) *BatchResponse {
		return serveBatch(registered.Params, registered.Sites, q, func(q *Batch, res []BatchResult) {
			runFuzzBatch(q, res, subType, runMethod, run)
		})
	})
}

// fuzzT is what the batch asks of a subtest's *testing.T.
type fuzzT interface {
	Failed() bool
	Skipped() bool
}

// runFuzzBatch runs the inputs of q and fills res, one result per input.
// A subtest costs more than a fast target's execution (t.Run walks the
// stack for the subtest's name and starts a goroutine), so the inputs run
// one after the other in one subtest, as long as its T stays as a fresh
// subtest's would be: an input that fails, skips, ends the goroutine
// (t.FailNow, t.SkipNow) or registers a cleanup (t.Cleanup, t.TempDir,
// t.Setenv) ends the subtest, whose cleanups then run before the next
// input, in the next subtest. An input therefore sees the T that a
// subtest of its own would give it, and ends with the status it would get
// there; a panic is recovered per input and leaves the T as it was.
func runFuzzBatch(q *Batch, res []BatchResult, subType reflect.Type, runMethod reflect.Value, run func(t any, in *Input)) {
	tg := registered
	offs := Layout(tg.Params, q.MaxLen)
	in := new(Input)
	next := 0
	for next < len(q.Inputs) {
		var cleanups reflect.Value // the subtest's cleanups, invalid if the testing package hides them
		body := reflect.MakeFunc(subType, func(args []reflect.Value) []reflect.Value {
			sub := args[0]
			t := sub.Interface()
			ft, _ := t.(fuzzT)
			if e := sub.Elem(); e.Kind() == reflect.Struct {
				if c := e.FieldByName("cleanups"); c.Kind() == reflect.Slice {
					cleanups = c
				}
			}
			for next < len(q.Inputs) {
				i := next
				next++
				*in = Input{dense: q.Inputs[i], offs: offs, maxLen: q.MaxLen, params: tg.Params, concrete: true}
				if !runFuzzInput(t, ft, in, &res[i], run) || !cleanups.IsValid() || cleanups.Len() > 0 ||
					ft == nil || ft.Failed() || ft.Skipped() {
					return nil
				}
			}
			return nil
		})
		runMethod.Call([]reflect.Value{reflect.ValueOf("gocolic"), body})
	}
}

// runFuzzInput runs one input of a batch on the subtest's goroutine,
// owning the state, and fills r; false when the input ended the goroutine
// (runtime.Goexit, as t.FailNow and t.SkipNow call it).
func runFuzzInput(t any, ft fuzzT, in *Input, r *BatchResult, run func(t any, in *Input)) (returned bool) {
	tg := registered
	reset(tg.Sites)
	st.failed = st.failed[:0]
	resetAll(tg)
	claim()
	defer func() {
		release()
		if p := recover(); p != nil {
			r.Status, r.Panic, r.Stack = StatusPanic, panicString(p), string(goroutineStack())
			returned = true // recovered: the goroutine goes on
		} else if ft != nil && ft.Failed() {
			r.Status, r.Panic = StatusFail, "test failed"
			if len(st.failed) > 0 {
				r.Panic = st.failed[0]
			}
		} else if ft != nil && ft.Skipped() {
			r.Status = StatusSkip
		}
		r.Buckets = takeBuckets(nil)
		dropHits()
		if len(st.fresh) > 0 {
			r.Fresh = append([]uint32(nil), st.fresh...)
		}
	}()
	run(t, in)
	return true
}

// executeFuzz runs one input in a subtest of the seed call's T.
func executeFuzz(q *Request, enc *sym.Encoder, subType reflect.Type, runMethod reflect.Value, run func(t any, in *Input)) *Response {
	start := time.Now()
	resp := &Response{}
	resp.Status, resp.Panic, resp.Stack = runFuzz(&Input{env: q.Env}, q.MaxLen, q.Concrete, !q.Concrete, subType, runMethod, run)
	finish(resp, enc)
	resp.Nanos = uint64(time.Since(start))
	return resp
}

// runFuzz runs one input, whose values (env or dense) it completes, in a
// subtest and says how it ended: shadowless when concrete, and counting
// branches (owning the state) when track.
func runFuzz(in *Input, maxLen int, concrete, track bool, subType reflect.Type, runMethod reflect.Value, run func(t any, in *Input)) (status Status, msg, stack string) {
	tg := registered
	reset(tg.Sites)
	st.failed = st.failed[:0]
	resetAll(tg)
	in.offs, in.maxLen, in.params, in.concrete = Layout(tg.Params, maxLen), maxLen, tg.Params, concrete
	st.symbolic = !concrete
	var sub reflect.Value
	body := reflect.MakeFunc(subType, func(args []reflect.Value) []reflect.Value {
		sub = args[0]
		// The subtest's goroutine runs the target: it owns the state until
		// it returns (or calls runtime.Goexit, as t.FailNow does).
		if track {
			claim()
			defer release()
		}
		defer func() {
			// A panic is the target's; recovering it here keeps the testing
			// package from ending the whole binary.
			if r := recover(); r != nil {
				status = StatusPanic
				msg = panicString(r)
				stack = string(goroutineStack())
			}
		}()
		run(sub.Interface(), in)
		return nil
	})
	runMethod.Call([]reflect.Value{reflect.ValueOf("gocolic"), body})
	if status == StatusOK && sub.IsValid() {
		switch {
		case sub.MethodByName("Failed").Call(nil)[0].Bool():
			status = StatusFail
			msg = "test failed"
			if len(st.failed) > 0 {
				msg = st.failed[0]
			}
		case sub.MethodByName("Skipped").Call(nil)[0].Bool():
			status = StatusSkip
		}
	}
	return status, msg, stack
}

// Report records the message of t.Error or t.Fatal, then calls it. A
// message on a goroutine other than the execution's is not recorded (the
// failure still is, as "test failed").
func Report(m func(...any), args ...any) {
	if tracking() {
		st.failed = append(st.failed, trimNewline(fmt.Sprintln(args...)))
	}
	m(args...)
}

// Reportf records the message of t.Errorf or t.Fatalf, then calls it.
func Reportf(m func(string, ...any), format string, args ...any) {
	if tracking() {
		st.failed = append(st.failed, trimNewline(fmt.Sprintf(format, args...)))
	}
	m(format, args...)
}

func trimNewline(s string) string {
	for len(s) > 0 && s[len(s)-1] == '\n' {
		s = s[:len(s)-1]
	}
	return s
}
