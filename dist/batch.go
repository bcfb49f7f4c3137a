package dist

// This file carries the mutation lane's batches to the executors: a batch
// is an item of kind "batch" (rt's batch encoding, holding the whole map
// of the run and the dictionary it draws from, so that any executor can
// run it), and what it did comes back as a result of the same kind.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"

	"github.com/nats-io/nats.go"

	"github.com/gocolic/gocolic/coordinator"
	"github.com/gocolic/gocolic/rt"
)

const kindBatch = "batch"

// encodeBatch returns the message of batch q with id, on subject; end is
// when the run's budget ends (Unix nanoseconds, 0: none).
func encodeBatch(subject, id string, q *rt.Batch, end int64) *nats.Msg {
	m := message(subject, kindBatch, id)
	m.Header.Set(hdrEnd, strconv.FormatInt(end, 10))
	m.Data = rt.AppendBatch(nil, q)
	return m
}

// decodeBatch reads a batch item.
func decodeBatch(h nats.Header, data []byte) (*rt.Batch, int64, error) {
	end, err := strconv.ParseInt(h.Get(hdrEnd), 10, 64)
	if err != nil {
		return nil, 0, fmt.Errorf("batch %s: bad %s: %w", h.Get(hdrItem), hdrEnd, err)
	}
	q, err := rt.ParseBatch(data)
	if err != nil {
		return nil, 0, fmt.Errorf("batch %s: %w", h.Get(hdrItem), err)
	}
	return q, end, nil
}

// encodeBatchDone returns the message of what batch id did, on subject:
// the response (length-prefixed), then the number of crashes and, for
// each, the input's index, the kind, the message and the output.
func encodeBatchDone(subject, id string, done coordinator.BatchDone) *nats.Msg {
	m := message(subject, kindBatch, id)
	b := appendBytes(nil, rt.AppendBatchResponse(nil, done.Resp))
	b = binary.AppendUvarint(b, uint64(len(done.Crashes)))
	for i, c := range done.Crashes {
		b = binary.AppendUvarint(b, uint64(i))
		b = appendBytes(b, []byte(c.Kind))
		b = appendBytes(b, []byte(c.Message))
		b = appendBytes(b, []byte(c.Output))
	}
	m.Data = b
	return m
}

// decodeBatchDone reads what a batch did.
func decodeBatchDone(id string, data []byte) (coordinator.BatchDone, error) {
	rest := data
	next := func() ([]byte, error) {
		n, k := binary.Uvarint(rest)
		if k <= 0 || n > uint64(len(rest)-k) {
			return nil, fmt.Errorf("batch result %s: truncated", id)
		}
		p := rest[k : k+int(n)]
		rest = rest[k+int(n):]
		return p, nil
	}
	p, err := next()
	if err != nil {
		return coordinator.BatchDone{}, err
	}
	resp, err := rt.ParseBatchResponse(p)
	if err != nil {
		return coordinator.BatchDone{}, fmt.Errorf("batch result %s: %w", id, err)
	}
	n, k := binary.Uvarint(rest)
	if k <= 0 || n > uint64(len(rest)) {
		return coordinator.BatchDone{}, fmt.Errorf("batch result %s: truncated crashes", id)
	}
	rest = rest[k:]
	done := coordinator.BatchDone{Resp: resp}
	for range n {
		i, k := binary.Uvarint(rest)
		if k <= 0 {
			return coordinator.BatchDone{}, fmt.Errorf("batch result %s: truncated crash", id)
		}
		rest = rest[k:]
		var parts [3][]byte
		for j := range parts {
			if parts[j], err = next(); err != nil {
				return coordinator.BatchDone{}, err
			}
		}
		if done.Crashes == nil {
			done.Crashes = map[int]*coordinator.Crash{}
		}
		done.Crashes[int(i)] = &coordinator.Crash{Kind: coordinator.CrashKind(parts[0]), Message: string(parts[1]), Output: string(parts[2])}
	}
	if len(rest) != 0 {
		return coordinator.BatchDone{}, fmt.Errorf("batch result %s: %d bytes after its end", id, len(rest))
	}
	if done.Resp == nil {
		return coordinator.BatchDone{}, errors.New("batch result without a response")
	}
	return done, nil
}
