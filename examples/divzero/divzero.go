// Package divzero computes the mean brightness of an image. It shows a
// division whose divisor is guarded against zero inputs but can still become
// zero: the pixel count is computed in 32 bits, and a 65536 x 65536 image
// (allowed by an off-by-one size limit) wraps it around to exactly 0.
package divzero

import "errors"

const maxDim = 1 << 16

// MeanLevel returns the mean brightness (0-255) of a width x height image
// whose pixel brightness values add up to total, and a rough class for it:
// 0 dark, 1 normal, 2 bright.
func MeanLevel(total uint64, width, height uint32) (uint64, int, error) {
	if width == 0 || height == 0 {
		return 0, 0, errors.New("divzero: empty image")
	}
	if width > maxDim || height > maxDim { // should have been >=
		return 0, 0, errors.New("divzero: image too large")
	}
	pixels := width * height // 32-bit: wraps for 65536 x 65536
	if total > uint64(pixels)*255 {
		return 0, 0, errors.New("divzero: total exceeds 255 per pixel")
	}
	// planted: integer divide by zero
	mean := total / uint64(pixels)
	return mean, class(mean), nil
}

// class buckets a mean brightness.
func class(mean uint64) int {
	switch {
	case mean < 64:
		return 0
	case mean < 192:
		return 1
	}
	return 2
}
