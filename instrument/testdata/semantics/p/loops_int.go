//go:build go1.22

package p

import "fmt"

// RangeInt ranges over integers of the inputs (range over an integer
// needs go1.22), of several types, with closures over the key.
func RangeInt(a, b int64) (int, string) {
	n := int(a % 20)
	sum := 0
	var fs []func() int
	for i := range n {
		if i == int(b%7) {
			continue
		}
		sum += i
		fs = append(fs, func() int { return i })
	}
	for k := range uint8(b) % 9 {
		sum += int(k) * 3
	}
	for range int8(a) % 5 {
		sum++
	}
	var j int16
	for j = range int16(b % 11) {
		if j > 6 {
			break
		}
	}
	out := fmt.Sprint(j)
	for _, f := range fs {
		out += fmt.Sprint(",", f())
	}
	return sum, out
}
