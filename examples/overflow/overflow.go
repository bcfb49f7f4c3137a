// Package overflow sizes sample frames with int32 arithmetic. It shows how a
// multiplication that wraps around can slip past range checks that look
// sufficient: the wrapped product is small and positive, so every check
// passes, and the later offset computation lands outside the frame.
package overflow

const (
	headerBytes int32 = 16
	maxFrame    int32 = 4096
	maxWidth    int32 = 1 << 20
)

// FrameSize returns the number of bytes needed for a frame holding count
// samples of width bytes each after a 16-byte header, rounded up to a
// multiple of 8. It returns -1 when the request is invalid or the frame would
// exceed 4096 bytes.
func FrameSize(count, width int32) int32 {
	if count <= 0 || width <= 0 {
		return -1
	}
	if width > maxWidth {
		return -1
	}
	if width > 8 && width%8 != 0 {
		// wide samples must keep 8-byte alignment
		return -1
	}
	body := count * width // may wrap around
	if body <= 0 {
		// catches the wraps that go negative, not all of them
		return -1
	}
	size := align8(body + headerBytes)
	if size <= 0 || size > maxFrame {
		return -1
	}
	// The last sample starts here and must end inside the frame.
	last := sampleOffset(count-1, width)
	if last < headerBytes || last+width > size {
		// planted: sample offset outside frame
		panic("overflow: sample offset outside frame")
	}
	return size
}

// align8 rounds n up to a multiple of 8.
func align8(n int32) int32 {
	return (n + 7) &^ 7
}

// sampleOffset returns the byte offset of sample i.
func sampleOffset(i, width int32) int32 {
	return headerBytes + i*width
}
