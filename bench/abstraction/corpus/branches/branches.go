// Package branches is the "branches" program of seed 002 (Crabs), written
// afresh in Go: a helper reads 30 inputs and counts those equal to its
// count so far; only a count of exactly 5 with a first input above 10
// reaches a second helper, both of whose sides are goals.
package branches

// reads is the number of inputs the counting helper reads.
const reads = 30

// input is the input stream: byte i of data, as a signed value, 0 past
// its end.
type input struct {
	data []byte
	next int
}

func (in *input) read() int8 {
	i := in.next
	in.next++
	if i < len(in.data) {
		return int8(in.data[i])
	}
	return 0
}

// count reads the helper's inputs and returns how many equalled the count
// so far; y is unused, as in the seed (its work is the loop).
func count(in *input, y int8) int8 {
	c := int8(0)
	for j := 0; j < reads; j++ {
		if in.read() == c {
			c++
		}
	}
	return c
}

// classify is the second helper: both sides are goals.
func classify(y int8) int {
	if y < 20 {
		return 1 // goal one
	}
	return 2 // goal two
}

// Run reads y, then the helper's 30 inputs, and returns 1 or 2 when the
// count was 5 and y above 10 (the goals), else 0.
func Run(data []byte) int {
	in := &input{data: data}
	y := in.read()
	var x int8
	if y > 0 {
		x = count(in, y)
	} else {
		x = count(in, y+1)
	}
	if x == 5 && y > 10 {
		return classify(y)
	}
	return 0
}
