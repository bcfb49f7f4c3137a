// Package unreach is the "unreach" program of seed 002 (Crabs), written
// afresh in Go: five calls of a counting helper keep the largest count,
// which can never be negative, so one side of the final helper's branch
// is unreachable. Testing covers the rest; only a proof removes it from
// the goals.
package unreach

// reads is the number of inputs each call of the counting helper reads.
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

// count reads 30 inputs and returns how many equalled the count so far:
// between 0 and 30, so never negative.
func count(in *input) int {
	c := 0
	for j := 0; j < reads; j++ {
		if int(in.read()) == c {
			c++
		}
	}
	return c
}

// classify is the final helper: its negative side is unreachable.
func classify(r int) int {
	if r < 0 {
		return -1 // unreachable goal
	}
	return 1
}

// Run keeps the largest of five counts and classifies it.
func Run(data []byte) int {
	in := &input{data: data}
	r := 0
	for i := 5; i > 0; i-- {
		if t := count(in); t > r {
			r = t
		}
	}
	return classify(r)
}
