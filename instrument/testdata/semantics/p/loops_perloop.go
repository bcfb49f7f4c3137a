//go:build go1.21

package p

import "fmt"

// RangeCapturePerLoop is RangeCapture in a file whose //go:build line sets
// go1.21: its loops keep one variable per loop whatever the module's
// version, and the rewrite must keep the file's version.
func RangeCapturePerLoop(s string, bs []byte) string {
	var fs []func() string
	for i, r := range s {
		fs = append(fs, func() string { return fmt.Sprint(i, r) })
	}
	for i, c := range bs {
		fs = append(fs, func() string { return fmt.Sprint(i, c) })
	}
	for _, x := range []int{len(s), len(bs)} {
		fs = append(fs, func() string { return fmt.Sprint(x) })
	}
	out := ""
	for _, f := range fs {
		out += f() + ";"
	}
	return out
}
