package dist

// This file lets the executors solve the coordinator's queries (-nats-solve):
// LCT's test executors that solve path constraints themselves, so that
// the coordinator only selects (seed 004 §4.5). A query is one more kind
// of item on the run's work queue, taken by whichever executor is free,
// with the same acks, heartbeats and redelivery as an input; its answer
// comes back on the result stream under the item's id.

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/gocolic/gocolic/coordinator"
	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/solver/stack"
	"github.com/gocolic/gocolic/sym"
)

// hdrKind marks an item or result that is not an input's: kindSolve for
// a query and its answer.
const (
	hdrKind   = "Gocolic-Kind"
	kindSolve = "solve"
)

// SolveSpec is how the executors of a run solve its queries: the solver
// stack's options and the widths of the inputs that hold floats (the
// walk's). Its presence in the run's Info says that they do.
type SolveSpec struct {
	Stack  stack.Options    `json:"stack"`
	Floats map[uint64]uint8 `json:"floats,omitempty"`
}

// encodeQuery returns the message of query q with id, on subject: the
// number of constraints, their nodes' references and the goal's, the
// seed in rt's request encoding (length-prefixed), then the nodes.
func encodeQuery(subject, id string, q solver.Query) (*nats.Msg, error) {
	if q.Goal == nil {
		return nil, errors.New("a query without a goal")
	}
	enc := sym.NewEncoder()
	b := binary.AppendUvarint(nil, uint64(len(q.Constraints)))
	for _, c := range q.Constraints {
		b = binary.AppendUvarint(b, enc.Encode(c))
	}
	b = binary.AppendUvarint(b, enc.Encode(q.Goal))
	b = appendBytes(b, rt.AppendRequest(nil, &rt.Request{Env: q.Seed}))
	b = append(b, enc.Bytes()...)
	m := message(subject, kindSolve, id)
	m.Data = b
	return m, nil
}

// decodeQuery reads a query's body, making its terms with dec's Builder.
func decodeQuery(data []byte, dec *sym.Decoder) (solver.Query, error) {
	var q solver.Query
	n, k := binary.Uvarint(data)
	if k <= 0 || n > uint64(len(data)) {
		return q, errors.New("query: truncated")
	}
	data = data[k:]
	refs := make([]uint64, n+1)
	for i := range refs {
		r, k := binary.Uvarint(data)
		if k <= 0 {
			return q, errors.New("query: truncated references")
		}
		refs[i], data = r, data[k:]
	}
	l, k := binary.Uvarint(data)
	if k <= 0 || l > uint64(len(data)-k) {
		return q, errors.New("query: truncated seed")
	}
	seed, err := rt.ParseRequest(data[k : k+int(l)])
	if err != nil {
		return q, fmt.Errorf("query: seed: %w", err)
	}
	if err := dec.Decode(data[k+int(l):]); err != nil {
		return q, fmt.Errorf("query: %w", err)
	}
	q.Seed = seed.Env
	for i, r := range refs {
		e, err := dec.Node(r)
		if err != nil {
			return q, fmt.Errorf("query: %w", err)
		}
		if i == len(refs)-1 {
			q.Goal = e
		} else {
			q.Constraints = append(q.Constraints, e)
		}
	}
	return q, nil
}

// encodeAnswer returns the message of query id's answer, on subject: the
// status, then the model (rt's request encoding) or the solver's error.
func encodeAnswer(subject, id string, r solver.Result, err error) *nats.Msg {
	m := message(subject, kindSolve, id)
	if err != nil {
		m.Data = append([]byte{answerError}, err.Error()...)
		return m
	}
	m.Data = append([]byte{byte(r.Status)}, rt.AppendRequest(nil, &rt.Request{Env: r.Model})...)
	return m
}

// answerError is the first byte of an answer whose solver failed.
const answerError = 0xff

// decodeAnswer reads an answer's body.
func decodeAnswer(id string, data []byte) (solver.Result, error) {
	if len(data) == 0 {
		return solver.Result{}, fmt.Errorf("answer %s: empty", id)
	}
	if data[0] == answerError {
		return solver.Result{}, fmt.Errorf("answer %s: the executor's solver failed: %s", id, data[1:])
	}
	st := solver.Status(data[0])
	if st != solver.Sat && st != solver.Unsat && st != solver.Unknown {
		return solver.Result{}, fmt.Errorf("answer %s: bad status %d", id, data[0])
	}
	q, err := rt.ParseRequest(data[1:])
	if err != nil {
		return solver.Result{}, fmt.Errorf("answer %s: %w", id, err)
	}
	r := solver.Result{Status: st}
	if st == solver.Sat {
		r.Model = q.Env
	}
	return r, nil
}

// Solver is a solver.Solver whose queries the run's executors answer:
// one per goroutine of the coordinator's solver pool. Stats counts its
// queries as a layer of the chain does.
type Solver struct {
	d     *dispatcher
	mu    sync.Mutex
	stats solver.Stats
}

// Solve sends q to the executors and waits for the answer; when ctx ends
// first the query is Unknown (a late answer is dropped).
func (s *Solver) Solve(ctx context.Context, q solver.Query) (solver.Result, error) {
	start := time.Now()
	r, err := s.d.Solve(ctx, q)
	if errors.Is(err, coordinator.ErrLost) {
		r, err = solver.Result{Status: solver.Unknown}, nil
	}
	s.mu.Lock()
	s.stats.Record(r, err, time.Since(start))
	s.mu.Unlock()
	return r, err
}

// Name is the layer's label in reports.
func (s *Solver) Name() string { return "executors" }

// Stats returns the counts so far.
func (s *Solver) Stats() solver.Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

// solving is an executor's means to answer queries, made at its first:
// a solver stack of its own, the Builder its queries' terms are made
// with (hash-consed across queries, as the coordinator's are, so that
// the stack's memo of translated terms stays bounded) and the walk's
// evaluator process.
type solving struct {
	spec *SolveSpec
	seed uint64 // the walk's, one per executor
	b    *sym.Builder
	st   *stack.Stack
	ev   *coordinator.Evaluator
}

// answer solves one query item's body.
func (s *solving) answer(ctx context.Context, ex coordinator.ExecSpec, data []byte) (solver.Result, error) {
	if s.st == nil {
		env := stack.Env{Floats: s.spec.Floats, Seed: s.seed}
		if s.spec.Stack.Mode != stack.ModeZ3 {
			s.ev = coordinator.NewEvaluator(ex.Bin, ex.Args, ex.Dir, ex.Timeout)
			env.Eval = s.ev
		}
		st, err := stack.New(s.spec.Stack, env)
		if err != nil {
			return solver.Result{}, fmt.Errorf("starting a solver: %w", err)
		}
		s.st, s.b = st, sym.NewBuilder()
	}
	q, err := decodeQuery(data, sym.NewDecoder(s.b))
	if err != nil {
		return solver.Result{}, err
	}
	return s.st.Solve(ctx, q)
}

// close releases the stack and the evaluator.
func (s *solving) close() {
	if s.st != nil {
		s.st.Close()
	}
	if s.ev != nil {
		s.ev.Close()
	}
}
