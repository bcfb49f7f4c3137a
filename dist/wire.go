package dist

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"

	"github.com/nats-io/nats.go"

	"github.com/gocolic/gocolic/coordinator"
	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sym"
)

// Format is the version of the messages and of a run's Info; raise it
// with any change to what this file writes.
const Format = 2

// The headers of gocolic's messages.
const (
	hdrFormat = "Gocolic-Format" // Format, in decimal
	hdrItem   = "Gocolic-Item"   // the item's id: also its message id and its result's
	hdrEnd    = "Gocolic-End"    // on an item: when the run's budget ends, Unix nanoseconds (0: none)
)

// ErrFormat is the error of a message of another format version.
var ErrFormat = errors.New("message of another format version")

// checkFormat returns ErrFormat, with the versions, unless m is of Format.
func checkFormat(h nats.Header) error {
	if v := h.Get(hdrFormat); v != strconv.Itoa(Format) {
		if v == "" {
			v = "none"
		}
		return fmt.Errorf("%w: %s, this gocolic speaks %d", ErrFormat, v, Format)
	}
	return nil
}

// message returns a message of this Format on subject, of kind ("" for
// an input and its result) and for item id ("" for none).
func message(subject, kind, id string) *nats.Msg {
	m := nats.NewMsg(subject)
	m.Header.Set(hdrFormat, strconv.Itoa(Format))
	if kind != "" {
		m.Header.Set(hdrKind, kind)
	}
	if id != "" {
		m.Header.Set(hdrItem, id)
	}
	return m
}

// item is one input to run.
type item struct {
	id  string
	env sym.Env
	end int64 // Unix nanoseconds; 0: no time budget
}

// encodeItem returns the message of it, on subject.
func encodeItem(subject string, it item) *nats.Msg {
	m := message(subject, "", it.id)
	m.Header.Set(hdrEnd, strconv.FormatInt(it.end, 10))
	m.Data = rt.AppendRequest(nil, &rt.Request{Env: it.env})
	return m
}

// decodeItem reads an item.
func decodeItem(h nats.Header, data []byte) (item, error) {
	if err := checkFormat(h); err != nil {
		return item{}, err
	}
	it := item{id: h.Get(hdrItem)}
	if it.id == "" {
		return item{}, errors.New("item without an id")
	}
	end, err := strconv.ParseInt(h.Get(hdrEnd), 10, 64)
	if err != nil {
		return item{}, fmt.Errorf("item %s: bad %s: %w", it.id, hdrEnd, err)
	}
	it.end = end
	q, err := rt.ParseRequest(data)
	if err != nil {
		return item{}, fmt.Errorf("item %s: %w", it.id, err)
	}
	it.env = q.Env
	return it, nil
}

// Flags of a result's first byte.
const (
	flagSlow = 1 << iota
	flagRetried
	flagResp
	flagFault
	flagCrash
)

// encodeResult returns the message of what item id did, on subject: the
// flags, then the response, the fault, and the crash's kind, message and
// output, each present one length-prefixed.
func encodeResult(subject, id string, ex coordinator.Executed) *nats.Msg {
	m := message(subject, "", id)
	var f byte
	if ex.Slow {
		f |= flagSlow
	}
	if ex.Retried {
		f |= flagRetried
	}
	b := []byte{0}
	if ex.Resp != nil {
		f |= flagResp
		b = appendBytes(b, rt.AppendResponse(nil, ex.Resp))
	}
	if ex.Fault != nil {
		f |= flagFault
		b = appendBytes(b, rt.AppendResponse(nil, ex.Fault))
	}
	if c := ex.Crash; c != nil {
		f |= flagCrash
		b = appendBytes(b, []byte(c.Kind))
		b = appendBytes(b, []byte(c.Message))
		b = appendBytes(b, []byte(c.Output))
	}
	b[0] = f
	m.Data = b
	return m
}

func appendBytes(b, p []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(p)))
	return append(b, p...)
}

// decodeResult reads a result: the item's id and what it did.
func decodeResult(h nats.Header, data []byte) (string, coordinator.Executed, error) {
	if err := checkFormat(h); err != nil {
		return "", coordinator.Executed{}, err
	}
	id := h.Get(hdrItem)
	if id == "" || len(data) == 0 {
		return "", coordinator.Executed{}, errors.New("result without an id or a body")
	}
	f, rest := data[0], data[1:]
	next := func() ([]byte, error) {
		n, k := binary.Uvarint(rest)
		if k <= 0 || n > uint64(len(rest)-k) {
			return nil, fmt.Errorf("result %s: truncated", id)
		}
		p := rest[k : k+int(n)]
		rest = rest[k+int(n):]
		return p, nil
	}
	ex := coordinator.Executed{Slow: f&flagSlow != 0, Retried: f&flagRetried != 0}
	var err error
	resp := func() *rt.Response {
		p, e := next()
		if e == nil {
			var r *rt.Response
			if r, e = rt.ParseResponse(p); e == nil {
				return r
			}
		}
		err = errors.Join(err, e)
		return nil
	}
	if f&flagResp != 0 {
		ex.Resp = resp()
	}
	if f&flagFault != 0 {
		ex.Fault = resp()
	}
	if f&flagCrash != 0 {
		var parts [3][]byte
		for i := range parts {
			p, e := next()
			err = errors.Join(err, e)
			parts[i] = p
		}
		ex.Crash = &coordinator.Crash{Kind: coordinator.CrashKind(parts[0]), Message: string(parts[1]), Output: string(parts[2])}
	}
	if err == nil && len(rest) != 0 {
		err = fmt.Errorf("result %s: %d bytes after its end", id, len(rest))
	}
	if err == nil && ex.Resp == nil && ex.Crash == nil {
		err = fmt.Errorf("result %s: neither a response nor a crash", id)
	}
	if err != nil {
		return "", coordinator.Executed{}, fmt.Errorf("result %s: %w", id, err)
	}
	return id, ex, nil
}
