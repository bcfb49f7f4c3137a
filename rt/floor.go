// This file holds the small pieces of standard packages that the runtime
// writes itself, because it is compiled beneath the standard packages
// gocolic instruments in place: the worker's runtime may import only the
// floor that build/floor.go lists, and bufio, strings, runtime/debug and
// encoding/binary are above it.

package rt

import (
	"io"
	"runtime"
)

// pipeReader buffers reads from a pipe, as bufio.Reader would: messages
// are read a header and a payload at a time, and each unbuffered read is a
// system call.
type pipeReader struct {
	r    io.Reader
	buf  []byte
	i, n int // buf[i:n] is unread
}

func newPipeReader(r io.Reader) *pipeReader { return &pipeReader{r: r, buf: make([]byte, 64<<10)} }

// Read reads from the buffer, refilling it with one read of r when it is
// empty; a read at least as large as the buffer goes to r directly.
func (p *pipeReader) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	if p.i == p.n {
		if len(b) >= len(p.buf) {
			return p.r.Read(b)
		}
		n, err := p.r.Read(p.buf)
		if n <= 0 {
			return 0, err
		}
		p.i, p.n = 0, n
	}
	n := copy(b, p.buf[p.i:p.n])
	p.i += n
	return n, nil
}

// goroutineStack returns the calling goroutine's stack, as
// runtime/debug.Stack does.
func goroutineStack() []byte {
	buf := make([]byte, 4096)
	for {
		n := runtime.Stack(buf, false)
		if n < len(buf) {
			return buf[:n]
		}
		buf = make([]byte, 2*len(buf))
	}
}

// putUint32LE and uint32LE are encoding/binary's little-endian byte order
// for the message headers (wire.go).
func putUint32LE(b []byte, v uint32) {
	_ = b[3]
	b[0], b[1], b[2], b[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
}

func uint32LE(b []byte) uint32 {
	_ = b[3]
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

// containsAnyByte reports whether s contains any byte of chars, as
// strings.ContainsAny does for ASCII chars.
func containsAnyByte(s, chars string) bool {
	for i := 0; i < len(s); i++ {
		for j := 0; j < len(chars); j++ {
			if s[i] == chars[j] {
				return true
			}
		}
	}
	return false
}

// containsStr reports whether sub is within s, as strings.Contains does.
func containsStr(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}
