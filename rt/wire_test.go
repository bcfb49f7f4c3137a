package rt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func sampleRequests() map[string]*Request {
	return map[string]*Request{
		"empty":    {},
		"nil env":  {Env: nil, MaxLen: 32},
		"one":      {Env: map[uint64]uint64{0: 7}, MaxLen: 1},
		"concrete": {Env: map[uint64]uint64{3: 9}, MaxLen: 8, Concrete: true},
		"trace":    {Env: map[uint64]uint64{3: 9}, MaxLen: 8, Trace: true},
		"extremes": {Env: map[uint64]uint64{
			0:              0,
			1:              math.MaxUint64,
			math.MaxUint64: 1,
			1 << 32:        1<<63 | 1,
		}, MaxLen: 4096},
		"many": func() *Request {
			q := &Request{Env: map[uint64]uint64{}, MaxLen: 100}
			for i := range uint64(300) {
				q.Env[i] = i * i * 977
			}
			return q
		}(),
	}
}

func TestRequestRoundTrip(t *testing.T) {
	for name, q := range sampleRequests() {
		t.Run(name, func(t *testing.T) {
			// Appending keeps what buf held.
			buf := AppendRequest([]byte("prefix"), q)
			if !bytes.HasPrefix(buf, []byte("prefix")) {
				t.Fatalf("AppendRequest overwrote its buffer: %q", buf)
			}
			got, err := ParseRequest(buf[len("prefix"):])
			if err != nil {
				t.Fatal(err)
			}
			if got.Concrete != q.Concrete || got.Trace != q.Trace {
				t.Errorf("Concrete %t Trace %t, want %t %t", got.Concrete, got.Trace, q.Concrete, q.Trace)
			}
			if got.MaxLen != q.MaxLen {
				t.Errorf("MaxLen %d, want %d", got.MaxLen, q.MaxLen)
			}
			if !maps.Equal(got.Env, q.Env) {
				t.Errorf("Env %v, want %v", got.Env, q.Env)
			}
			if got.Env == nil {
				t.Error("parsed Env is nil; callers index it")
			}
		})
	}
}

func sampleResponses() map[string]*Response {
	return map[string]*Response{
		"zero": {},
		"ok": {
			Status:  StatusOK,
			Results: []Result{{Pinned: true, Literal: "42"}, {Pinned: false, Literal: ""}, {Pinned: true, Literal: `"a\n\x00é"`}},
			Fresh:   []uint32{0, 1, math.MaxUint32},
			Hits:    []uint64{1<<32 | 3, math.MaxUint64, 0},
			Exprs:   []byte{0, 1, 2, 0xff, 0x80},
			Path: []WireEvent{
				{Site: 0, Taken: true, Cond: 0},
				{Site: math.MaxUint32, Taken: false, Cond: math.MaxUint64},
				{Site: 7, Taken: true, Cond: 300},
			},
			Truncated: true,
			Nanos:     math.MaxUint64,
			Concrete: []Concretised{
				{Site: 3, Cause: CauseCall, Count: 1, First: 0},
				{Site: math.MaxUint32 - 1, Cause: NumCauses - 1, Count: math.MaxUint32, First: math.MaxUint32},
				{Site: NoSite, Cause: CauseStale, Count: 7, First: 2},
			},
		},
		"traced": {
			Path:        []WireEvent{{Site: 2, Taken: true, Cond: 0, At: 3}, {Site: 9, Cond: 1, At: math.MaxUint32}},
			Traced:      true,
			Outcomes:    []uint32{1, 4, 5, math.MaxUint32},
			OutcomesCut: true,
		},
		"traced, nothing taken": {Traced: true},
		"concretised only": {
			Concrete: []Concretised{{Site: 0, Cause: CauseOpaque, Count: 2, First: 1}},
		},
		"panic": {
			Status: StatusPanic,
			Panic:  "runtime error: index out of range [6] with length 6",
			Stack:  "goroutine 1 [running]:\nmain.f()\n\t/x/y.go:3 +0x1d\n" + strings.Repeat("frame\n", 1000),
			Nanos:  12345,
		},
	}
}

// equalResponse compares two responses field by field, treating nil and
// empty slices alike.
func equalResponse(a, b *Response) bool {
	return a.Status == b.Status && a.Panic == b.Panic && a.Stack == b.Stack &&
		slices.Equal(a.Results, b.Results) && slices.Equal(a.Fresh, b.Fresh) &&
		slices.Equal(a.Hits, b.Hits) && bytes.Equal(a.Exprs, b.Exprs) &&
		slices.Equal(a.Path, b.Path) && a.Truncated == b.Truncated && a.Nanos == b.Nanos &&
		slices.Equal(a.Concrete, b.Concrete) && a.Traced == b.Traced &&
		slices.Equal(a.Outcomes, b.Outcomes) && a.OutcomesCut == b.OutcomesCut
}

func TestResponseRoundTrip(t *testing.T) {
	for name, p := range sampleResponses() {
		t.Run(name, func(t *testing.T) {
			buf := AppendResponse([]byte{9, 9}, p)
			if buf[0] != 9 || buf[1] != 9 {
				t.Fatal("AppendResponse overwrote its buffer")
			}
			got, err := ParseResponse(buf[2:])
			if err != nil {
				t.Fatal(err)
			}
			if !equalResponse(got, p) {
				t.Errorf("round trip:\n got %+v\nwant %+v", got, p)
			}
			// The parsed Exprs must not alias a buffer the caller reuses
			// beyond its own length: appending to it must not clobber
			// the rest of the message.
			if len(got.Exprs) > 0 && cap(got.Exprs) != len(got.Exprs) {
				t.Errorf("Exprs has spare capacity %d > %d into the message", cap(got.Exprs), len(got.Exprs))
			}
		})
	}
}

// TestTruncatedPayloads cuts valid payloads at every length: each prefix
// is an error, never a panic and never a response.
func TestTruncatedPayloads(t *testing.T) {
	for name, q := range sampleRequests() {
		full := AppendRequest(nil, q)
		for n := range len(full) {
			if _, err := ParseRequest(full[:n]); err == nil {
				t.Errorf("request %s cut to %d of %d bytes parsed without error", name, n, len(full))
			}
		}
	}
	for name, p := range sampleResponses() {
		full := AppendResponse(nil, p)
		for n := range len(full) {
			got, err := ParseResponse(full[:n])
			if err == nil || got != nil {
				t.Errorf("response %s cut to %d of %d bytes: %+v, %v; want an error", name, n, len(full), got, err)
			}
		}
	}
	for name, q := range sampleBatches() {
		full := AppendBatch(nil, q)
		for n := range len(full) {
			if got, err := ParseBatch(full[:n]); err == nil || got != nil {
				t.Errorf("batch %s cut to %d of %d bytes: %+v, %v; want an error", name, n, len(full), got, err)
			}
		}
	}
	for name, p := range sampleBatchResponses() {
		full := AppendBatchResponse(nil, p)
		for n := range len(full) {
			if got, err := ParseBatchResponse(full[:n]); err == nil || got != nil {
				t.Errorf("batch response %s cut to %d of %d bytes: %+v, %v; want an error", name, n, len(full), got, err)
			}
		}
	}
}

func sampleBatches() map[string]*Batch {
	return map[string]*Batch{
		"empty":  {MaxLen: 3},
		"inputs": {MaxLen: 8, Inputs: [][]uint64{{}, {1, math.MaxUint64}, {0, 0, 7}}},
		"known":  {MaxLen: 1, Known: []uint32{BucketEntry(5, 0), BucketEntry(1<<20, 7)}, Inputs: [][]uint64{{2}}},
		"generated": {MaxLen: 4, Known: []uint32{7}, Count: 256, Bases: [][]uint64{{1, 2}, {}}, Seed: math.MaxUint64,
			DictInts: []uint64{0xCAFE, 1 << 63}, DictToks: [][]byte{[]byte("GET"), {0}}, NInts: 5, NToks: 9},
		"generated, nothing new": {MaxLen: 4, Count: 1, Bases: [][]uint64{{3}}, NInts: 2},
	}
}

func sampleBatchResponses() map[string]*BatchResponse {
	return map[string]*BatchResponse{
		"empty": {Nanos: 5, Ran: 3, Results: []BatchResult{}},
		"mixed": {Nanos: 1 << 40, Ran: 300, Results: []BatchResult{
			{},
			{Index: 1, Fresh: []uint32{3, 4}, Buckets: []uint32{BucketEntry(3, 0), BucketEntry(4, 6)}},
			{Index: 7, Status: StatusPanic, Panic: "boom", Stack: "goroutine 1", Buckets: []uint32{9}, Input: []uint64{1, 0, math.MaxUint64}},
			{Index: 299, Status: StatusFail, Panic: "test failed"},
		}},
	}
}

// TestBatchRoundTrip checks that batches and their responses decode to
// what was encoded, and that a batch is told from a request.
func TestBatchRoundTrip(t *testing.T) {
	for name, q := range sampleBatches() {
		t.Run("batch "+name, func(t *testing.T) {
			b := AppendBatch(nil, q)
			if !IsBatch(b) || IsBatch(AppendRequest(nil, &Request{})) {
				t.Fatal("IsBatch does not tell a batch from a request")
			}
			got, err := ParseBatch(b)
			if err != nil {
				t.Fatal(err)
			}
			if got.MaxLen != q.MaxLen || !slices.Equal(got.Known, q.Known) || !denseEqual(got.Inputs, q.Inputs) {
				t.Fatalf("got %+v, want %+v", got, q)
			}
			if got.Count != q.Count || !denseEqual(got.Bases, q.Bases) || got.Seed != q.Seed ||
				!slices.Equal(got.DictInts, q.DictInts) || !slices.EqualFunc(got.DictToks, q.DictToks, bytes.Equal) ||
				got.NInts != q.NInts || got.NToks != q.NToks {
				t.Errorf("generation: got %+v, want %+v", got, q)
			}
			if _, err := ParseRequest(b); err == nil {
				t.Error("a batch parsed as a request")
			}
		})
	}
	for name, p := range sampleBatchResponses() {
		t.Run("response "+name, func(t *testing.T) {
			got, err := ParseBatchResponse(AppendBatchResponse(nil, p))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, p) {
				t.Errorf("got %+v, want %+v", got, p)
			}
		})
	}
}

// denseEqual reports whether two lists of dense inputs are equal.
func denseEqual(a, b [][]uint64) bool {
	return slices.EqualFunc(a, b, func(x, y []uint64) bool { return slices.Equal(x, y) })
}

func uvarints(vs ...uint64) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.AppendUvarint(b, v)
	}
	return b
}

func TestCorruptPayloads(t *testing.T) {
	overlong := bytes.Repeat([]byte{0xff}, 11) // a uvarint past 64 bits
	tests := []struct {
		name     string
		request  bool
		payload  []byte
		wantFail bool
	}{
		{name: "request overlong maxlen", request: true, payload: append([]byte{kindRequest}, overlong...), wantFail: true},
		{name: "request huge count", request: true, payload: append([]byte{kindRequest}, uvarints(8, 0, math.MaxUint64)...), wantFail: true},
		{name: "request count past the data", request: true, payload: append([]byte{kindRequest}, uvarints(8, 0, 3, 1, 2)...), wantFail: true},
		{name: "request missing value", request: true, payload: append([]byte{kindRequest}, uvarints(8, 0, 1, 5)...), wantFail: true},
		{name: "request of another kind", request: true, payload: append([]byte{kindBatch}, uvarints(8, 0, 0)...), wantFail: true},
		{name: "request without env", request: true, payload: append([]byte{kindRequest}, uvarints(8, 0, 0)...), wantFail: true},
		{name: "request minimal", request: true, payload: append([]byte{kindRequest}, uvarints(8, 0, 0, 0)...)},
		{name: "response empty", payload: nil, wantFail: true},
		{name: "response huge panic length", payload: append([]byte{1}, uvarints(math.MaxUint64)...), wantFail: true},
		{name: "response panic longer than data", payload: append([]byte{1}, uvarints(100, 'a')...), wantFail: true},
		{name: "response huge results count", payload: append([]byte{0}, uvarints(0, 0, 1<<62)...), wantFail: true},
		{name: "response huge fresh count", payload: append([]byte{0}, uvarints(0, 0, 0, math.MaxUint64)...), wantFail: true},
		{name: "response overlong hit", payload: append(append([]byte{0}, uvarints(0, 0, 0, 0, 1)...), overlong...), wantFail: true},
		{name: "response huge exprs length", payload: append([]byte{0}, uvarints(0, 0, 0, 0, 0, 1<<40)...), wantFail: true},
		{name: "response huge path count", payload: append([]byte{0}, uvarints(0, 0, 0, 0, 0, 0, 1<<40)...), wantFail: true},
		{name: "response missing nanos", payload: append([]byte{0}, append(uvarints(0, 0, 0, 0, 0, 0, 0), 0)...), wantFail: true},
		{name: "response missing concretisations", payload: append([]byte{0}, append(uvarints(0, 0, 0, 0, 0, 0, 0), 0, 0)...), wantFail: true},
		{name: "response huge concretisation count", payload: append([]byte{0}, append(uvarints(0, 0, 0, 0, 0, 0, 0), 0, 0, 0xff, 0xff, 0xff, 0xff, 0x0f)...), wantFail: true},
		{name: "response unknown cause", payload: append([]byte{0}, append(uvarints(0, 0, 0, 0, 0, 0, 0), 0, 0, 1, 5, byte(NumCauses), 1, 0)...), wantFail: true},
		{name: "response concretisation without first", payload: append([]byte{0}, append(uvarints(0, 0, 0, 0, 0, 0, 0), 0, 0, 1, 5, byte(CauseCall), 1)...), wantFail: true},
		{name: "response one concretisation", payload: append([]byte{0}, append(uvarints(0, 0, 0, 0, 0, 0, 0), 0, 0, 1, 5, byte(CauseCall), 1, 0, 0)...)},
		{name: "response without traced", payload: append([]byte{0}, append(uvarints(0, 0, 0, 0, 0, 0, 0), 0, 0, 0)...), wantFail: true},
		{name: "response minimal", payload: append([]byte{0}, append(uvarints(0, 0, 0, 0, 0, 0, 0), 0, 0, 0, 0)...)},
		{name: "response traced without outcomes", payload: append([]byte{0}, append(uvarints(0, 0, 0, 0, 0, 0, 0), 0, 0, 0, 1)...), wantFail: true},
		{name: "response huge outcome count", payload: append([]byte{0}, append(uvarints(0, 0, 0, 0, 0, 0, 0), 0, 0, 0, 1, 0xff, 0xff, 0xff, 0x0f)...), wantFail: true},
		{name: "response traced minimal", payload: append([]byte{0}, append(uvarints(0, 0, 0, 0, 0, 0, 0), 0, 0, 0, 1, 0, 0)...)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.request {
				_, err = ParseRequest(tt.payload)
			} else {
				var p *Response
				p, err = ParseResponse(tt.payload)
				if err != nil && p != nil {
					t.Error("a failed parse returned a response")
				}
			}
			if (err != nil) != tt.wantFail {
				t.Errorf("error %v, want failure %v", err, tt.wantFail)
			}
		})
	}
}

// TestRandomPayloadsDoNotPanic feeds random bytes and random corruptions
// of valid payloads to the parsers.
func TestRandomPayloadsDoNotPanic(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var valid [][]byte
	for _, p := range sampleResponses() {
		valid = append(valid, AppendResponse(nil, p))
	}
	for _, q := range sampleRequests() {
		valid = append(valid, AppendRequest(nil, q))
	}
	for _, q := range sampleBatches() {
		valid = append(valid, AppendBatch(nil, q))
	}
	for _, p := range sampleBatchResponses() {
		valid = append(valid, AppendBatchResponse(nil, p))
	}
	iterations := 20000
	if testing.Short() {
		iterations = 2000
	}
	for i := range iterations {
		var b []byte
		if i%2 == 0 {
			b = make([]byte, rng.IntN(64))
			for j := range b {
				b[j] = byte(rng.UintN(256))
			}
		} else {
			b = bytes.Clone(valid[rng.IntN(len(valid))])
			if len(b) == 0 {
				continue
			}
			for range 1 + rng.IntN(4) {
				b[rng.IntN(len(b))] = byte(rng.UintN(256))
			}
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("panic on %x: %v", b, r)
				}
			}()
			ParseRequest(b)
			ParseResponse(b)
			ParseBatch(b)
			ParseBatchResponse(b)
		}()
	}
}

func FuzzParseRequest(f *testing.F) {
	for _, q := range sampleRequests() {
		f.Add(AppendRequest(nil, q))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		q, err := ParseRequest(b)
		if err != nil {
			return
		}
		again, err := ParseRequest(AppendRequest(nil, q))
		if err != nil || again.MaxLen != q.MaxLen || !maps.Equal(again.Env, q.Env) {
			t.Fatalf("re-encoding %+v gives %+v, %v", q, again, err)
		}
	})
}

func FuzzParseResponse(f *testing.F) {
	for _, p := range sampleResponses() {
		f.Add(AppendResponse(nil, p))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := ParseResponse(b)
		if err != nil {
			return
		}
		again, err := ParseResponse(AppendResponse(nil, p))
		if err != nil || !equalResponse(again, p) {
			t.Fatalf("re-encoding %+v gives %+v, %v", p, again, err)
		}
	})
}

func TestMsgFraming(t *testing.T) {
	payloads := [][]byte{
		{},
		[]byte("a"),
		bytes.Repeat([]byte{0xab}, 1<<20),
		AppendResponse(nil, sampleResponses()["ok"]),
	}
	var stream bytes.Buffer
	for _, p := range payloads {
		if err := WriteMsg(&stream, p); err != nil {
			t.Fatal(err)
		}
	}
	wantLen := 0
	for _, p := range payloads {
		wantLen += 4 + len(p)
	}
	if stream.Len() != wantLen {
		t.Fatalf("stream of %d bytes, want %d", stream.Len(), wantLen)
	}
	// The length is a little-endian uint32.
	if got := binary.LittleEndian.Uint32(stream.Bytes()[4:8]); got != 1 {
		t.Fatalf("second header reads %d, want 1", got)
	}
	var buf []byte
	for i, p := range payloads {
		got, err := ReadMsg(&stream, buf)
		if err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		if !bytes.Equal(got, p) {
			t.Fatalf("message %d: %d bytes, want %d", i, len(got), len(p))
		}
		buf = got
	}
	if _, err := ReadMsg(&stream, buf); err != io.EOF {
		t.Fatalf("read past the last message: %v, want io.EOF", err)
	}
}

func TestReadMsgReusesBuffer(t *testing.T) {
	var stream bytes.Buffer
	WriteMsg(&stream, []byte("hello"))
	buf := make([]byte, 0, 64)
	got, err := ReadMsg(&stream, buf)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "hello" || &got[:1][0] != &buf[:1][0] {
		t.Errorf("ReadMsg = %q in new storage, want hello in buf's", got)
	}
}

func TestReadMsgErrors(t *testing.T) {
	header := func(n uint32) []byte { return binary.LittleEndian.AppendUint32(nil, n) }
	tests := []struct {
		name   string
		stream []byte
		want   error // nil: any error
	}{
		{name: "empty stream", stream: nil, want: io.EOF},
		{name: "short header", stream: []byte{1, 0}, want: io.ErrUnexpectedEOF},
		{name: "short payload", stream: append(header(10), "abc"...), want: io.ErrUnexpectedEOF},
		// A header promises a payload: its absence is a truncated
		// message, not the clean end of the stream.
		{name: "missing payload", stream: header(3), want: io.ErrUnexpectedEOF},
		{name: "too large", stream: append(header(maxMsg+1), "abc"...)},
		{name: "largest length", stream: header(math.MaxUint32)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadMsg(bytes.NewReader(tt.stream), nil)
			if err == nil {
				t.Fatalf("ReadMsg = %q, want an error", got)
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("error %v, want %v", err, tt.want)
			}
			if tt.want == nil && (errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)) {
				t.Errorf("error %v: the length was not refused before reading", err)
			}
		})
	}
}

type failWriter struct {
	n   int // writes that succeed
	err error
}

func (w *failWriter) Write(p []byte) (int, error) {
	if w.n == 0 {
		return 0, w.err
	}
	w.n--
	return len(p), nil
}

func TestWriteMsgErrors(t *testing.T) {
	boom := errors.New("boom")
	for _, n := range []int{0, 1} {
		if err := WriteMsg(&failWriter{n: n, err: boom}, []byte("x")); !errors.Is(err, boom) {
			t.Errorf("failing write %d: error %v, want %v", n, err, boom)
		}
	}
}
